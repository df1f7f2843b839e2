/* SPDX-License-Identifier: MIT */
/*
 * lease.c: a lease is the directory DIR/NAME holding the file owner, one
 * JSON line {"host","pid","outdir","started"}. Taking one renames a
 * complete temporary directory into place: rename(2) of a directory fails
 * when the target exists, so exactly one sweep wins. The owner file's
 * modification time is the last sign of life. It never waits and never
 * removes a lease it does not hold.
 */
#include "config.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/jsonw.h"
#include "base/timefmt.h"
#include "base/util.h"
#include "engine/lease.h"

static char *
lease_host(void)
{
	char host[256];

	if (gethostname(host, sizeof host) != 0)
		return xstrdup("?");
	host[sizeof host - 1] = '\0';
	return xstrdup(host);
}

/* Removes the lease directory path: its owner file, then itself. */
static void
lease_remove(const char *path)
{
	char *owner = xasprintf("%s/owner", path);

	unlink(owner);
	rmdir(path);
	free(owner);
}

void
lease_owner_free(struct lease_owner *o)
{
	free(o->host);
	free(o->outdir);
	free(o->started);
	memset(o, 0, sizeof *o);
}

/* Reads the owner file of the lease at path into o. Returns 0, or -1
 * when it is missing, unreadable or malformed (o is then empty). */
static int
lease_owner_read(const char *path, struct lease_owner *o)
{
	char *owner = xasprintf("%s/owner", path), *text = NULL;
	const cJSON *h, *p, *od, *st;
	struct stat sb;
	size_t len;
	cJSON *doc = NULL;
	int rc = -1;

	memset(o, 0, sizeof *o);
	o->age_ms = stat(owner, &sb) == 0 ? util_now_ms() - (int64_t)sb.st_mtime * 1000 : -1;
	if (util_read_file(owner, 1 << 16, &text, &len) >= 0 && (doc = cJSON_Parse(text)) != NULL &&
	    cJSON_IsString(h = cJSON_GetObjectItemCaseSensitive(doc, "host")) &&
	    cJSON_IsNumber(p = cJSON_GetObjectItemCaseSensitive(doc, "pid")) &&
	    cJSON_IsString(od = cJSON_GetObjectItemCaseSensitive(doc, "outdir")) &&
	    cJSON_IsString(st = cJSON_GetObjectItemCaseSensitive(doc, "started"))) {
		o->host = xstrdup(h->valuestring);
		o->pid = (int64_t)p->valuedouble;
		o->outdir = xstrdup(od->valuestring);
		o->started = xstrdup(st->valuestring);
		rc = 0;
	}
	cJSON_Delete(doc);
	free(text);
	free(owner);
	return rc;
}

int
lease_read(const char *dir, const char *name, struct lease_owner *o)
{
	char *path = xasprintf("%s/%s", dir, name);
	int rc = lease_owner_read(path, o);

	free(path);
	return rc;
}

/* What the lease at path is: BUSY or STALE, with *why; owner (or NULL)
 * gets a BUSY lease's owner. */
static enum lease_state
lease_examine(const char *path, int64_t ttl_ms, char **why, struct lease_owner *owner)
{
	char *host = lease_host();
	enum lease_state state = LEASE_STALE;
	struct lease_owner o;
	long long age;

	if (lease_owner_read(path, &o) < 0) {
		*why = xasprintf(_("stale lease %s: its owner file is missing or malformed: "
		                   "investigate, then remove it"),
		                 path);
		goto out;
	}
	age = (long long)(o.age_ms / 1000);
	if (strcmp(o.host, host) == 0 && o.pid > 0 && kill((pid_t)o.pid, 0) < 0 && errno == ESRCH)
		*why = xasprintf(_("stale lease %s: owner %s pid %.0f (output %s, started %s) is "
		                   "gone, age %llds: investigate, then remove it"),
		                 path, o.host, (double)o.pid, o.outdir, o.started, age);
	else if (o.age_ms > ttl_ms)
		*why = xasprintf(_("stale lease %s: owner %s pid %.0f (output %s, started %s) has "
		                   "not refreshed it for %llds: investigate, then remove it"),
		                 path, o.host, (double)o.pid, o.outdir, o.started, age);
	else {
		state = LEASE_BUSY;
		*why = xasprintf(_("lease %s is held by %s pid %.0f (output %s, started %s)"), path,
		                 o.host, (double)o.pid, o.outdir, o.started);
		if (owner != NULL) {
			*owner = o;
			memset(&o, 0, sizeof o);
		}
	}
out:
	lease_owner_free(&o);
	free(host);
	return state;
}

/* A temporary directory beside the lease holding its owner file, or NULL
 * with *why. */
static char *
lease_prepare(const char *dir, const char *name, const char *outdir, char **why)
{
	char *tmp = xasprintf("%s/.%s.XXXXXX", dir, name), *owner, *host = lease_host(), *line;
	char when[40];
	cJSON *o = cJSON_CreateObject();
	int rc;

	if (mkdtemp(tmp) == NULL) {
		*why = xasprintf("%s: %s", dir, strerror(errno));
		free(tmp);
		tmp = NULL;
		goto out;
	}
	timefmt_format_rfc3339(util_now_ms(), when, sizeof when);
	cJSON_AddStringToObject(o, "host", host);
	cJSON_AddNumberToObject(o, "pid", (double)getpid());
	cJSON_AddStringToObject(o, "outdir", outdir);
	cJSON_AddStringToObject(o, "started", when);
	line = jsonw_print(o, false);
	owner = xasprintf("%s/owner", tmp);
	rc = util_write_file_atomic(owner, line, strlen(line));
	free(owner);
	free(line);
	if (rc < 0) {
		*why = xasprintf("%s: %s", tmp, strerror(-rc));
		lease_remove(tmp);
		free(tmp);
		tmp = NULL;
	}
out:
	cJSON_Delete(o);
	free(host);
	return tmp;
}

enum lease_state
lease_take(const char *dir, const char *name, const char *outdir, int64_t ttl_ms, char **why,
           struct lease_owner *owner)
{
	char *path = xasprintf("%s/%s", dir, name), *tmp;
	enum lease_state state;
	struct stat sb;

	*why = NULL;
	if (lstat(path, &sb) == 0) {
		state = lease_examine(path, ttl_ms, why, owner);
		goto out;
	}
	tmp = lease_prepare(dir, name, outdir, why);
	if (tmp == NULL) {
		state = LEASE_ERROR;
		goto out;
	}
	if (rename(tmp, path) == 0) {
		state = LEASE_TAKEN;
	} else if (errno == EEXIST || errno == ENOTEMPTY) {
		/* Another sweep won between the look and the rename. */
		state = lease_examine(path, ttl_ms, why, owner);
		lease_remove(tmp);
	} else {
		*why = xasprintf("%s: %s", path, strerror(errno));
		lease_remove(tmp);
		state = LEASE_ERROR;
	}
	free(tmp);
out:
	free(path);
	return state;
}

int
lease_refresh(const char *dir, const char *name)
{
	char *owner = xasprintf("%s/%s/owner", dir, name);
	int rc = utimensat(AT_FDCWD, owner, NULL, 0) == 0 ? 0 : -errno;

	free(owner);
	return rc;
}

void
lease_release(const char *dir, const char *name)
{
	char *path = xasprintf("%s/%s", dir, name);

	lease_remove(path);
	free(path);
}

const char *
lease_check_dir(const char *dir)
{
	struct stat sb;

	if (stat(dir, &sb) < 0 || !S_ISDIR(sb.st_mode) || access(dir, W_OK | X_OK) < 0)
		return _("a directory flakesweep can write in");
	return NULL;
}
