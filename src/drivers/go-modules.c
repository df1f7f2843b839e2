/* SPDX-License-Identifier: MIT */
/*
 * go-modules.c: the Go modules of a repository (see go-modules.h). The
 * files are small and read whole; a directory walk follows no symbolic
 * link and skips what `go list ./...` skips.
 */
#include "config.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/util.h"
#include "drivers/go-modules.h"
#include "drivers/project.h"

/* go.mod and go.work are a few kilobytes; anything larger is not one. */
#define GO_MODULES_FILE_MAX ((size_t)1 << 20)

/* The first word after key at the start of a line ("module", "go"). */
static char *
go_modules_directive(const char *text, const char *key)
{
	size_t klen = strlen(key);
	const char *l = text;

	while (l != NULL && *l != '\0') {
		const char *s = l + strspn(l, " \t"), *end;

		if (strncmp(s, key, klen) == 0 && (s[klen] == ' ' || s[klen] == '\t')) {
			s += klen;
			s += strspn(s, " \t");
			if (*s == '"') {
				s++;
				end = strchr(s, '"');
			} else {
				end = s + strcspn(s, " \t\r\n");
				/* "//" starts a comment, even glued to the word. */
				if (strstr(s, "//") != NULL && strstr(s, "//") < end)
					end = strstr(s, "//");
			}
			if (end != NULL && end > s)
				return xstrndup(s, (size_t)(end - s));
		}
		l = strchr(l, '\n');
		if (l != NULL)
			l++;
	}
	return NULL;
}

char *
go_modules_mod_path(const char *text)
{
	return go_modules_directive(text, "module");
}

char *
go_modules_mod_go(const char *text)
{
	return go_modules_directive(text, "go");
}

bool
go_modules_newer(const char *version, const char *toolchain)
{
	int vmaj = 0, vmin = 0, tmaj = 0, tmin = 0;

	if (version == NULL || toolchain == NULL || sscanf(version, "%d.%d", &vmaj, &vmin) < 1 ||
	    sscanf(toolchain, "go%d.%d", &tmaj, &tmin) < 1)
		return false;
	return vmaj > tmaj || (vmaj == tmaj && vmin > tmin);
}

void
go_modules_add(struct go_modules *m, const char *dir)
{
	char *path = xasprintf("%s/go.mod", dir), *text = NULL;
	struct go_module *x;

	m->v = xrealloc(m->v, sizeof *m->v * (m->n + 1));
	x = &m->v[m->n++];
	x->dir = realpath(dir, NULL);
	if (x->dir == NULL)
		x->dir = xstrdup(dir);
	x->path = x->go = NULL;
	if (project_read_file(path, GO_MODULES_FILE_MAX, &text) == 0) {
		x->path = go_modules_mod_path(text);
		x->go = go_modules_mod_go(text);
	}
	free(text);
	free(path);
}

static bool
go_modules_is_file(const char *dir, const char *name)
{
	char *path = xasprintf("%s/%s", dir, name);
	struct stat st;
	bool yes = lstat(path, &st) == 0 && S_ISREG(st.st_mode);

	free(path);
	return yes;
}

/* The first of dir (absolute) and the directories above it that holds
 * the regular file name, or NULL. Caller frees. */
static char *
go_modules_up(const char *dir, const char *name)
{
	char *d = xstrdup(dir), *slash;

	while (!go_modules_is_file(d, name)) {
		slash = strrchr(d, '/');
		if (slash == NULL || (slash == d && d[1] == '\0')) {
			free(d);
			return NULL;
		}
		/* "/a/b" to "/a", "/a" to "/". */
		slash[slash == d ? 1 : 0] = '\0';
	}
	return d;
}

char *
go_modules_home(const char *dir)
{
	char *d = realpath(dir, NULL), *home = d != NULL ? go_modules_up(d, "go.mod") : NULL;

	free(d);
	return home;
}

static int
go_modules_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void
go_modules_walk(const char *dir, bool in_module, void (*fn)(const char *dir, void *arg), void *arg)
{
	char **names = NULL;
	size_t n = 0, i;
	struct dirent *e;
	DIR *d;

	fn(dir, arg);
	d = opendir(dir);
	if (d == NULL)
		return;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.' || e->d_name[0] == '_' ||
		    strcmp(e->d_name, "vendor") == 0 || strcmp(e->d_name, "testdata") == 0 ||
		    e->d_type != DT_DIR)
			continue;
		util_strv_add(&names, &n, e->d_name);
	}
	closedir(d);
	if (n > 0)
		qsort(names, n, sizeof *names, go_modules_cmp);
	for (i = 0; i < n; i++) {
		char *sub = xasprintf("%s/%s", dir, names[i]);

		if (!in_module || !go_modules_is_file(sub, "go.mod"))
			go_modules_walk(sub, in_module, fn, arg);
		free(sub);
	}
	util_strv_free(names);
}

struct go_modules_below_walk {
	const char *top;
	bool self;
	struct go_modules *out;
};

static void
go_modules_below_one(const char *dir, void *arg)
{
	struct go_modules_below_walk *w = arg;

	/* The walk hands the top directory back as it was given. */
	if ((w->self || dir != w->top) && go_modules_is_file(dir, "go.mod"))
		go_modules_add(w->out, dir);
}

void
go_modules_below(const char *dir, bool self, struct go_modules *out)
{
	struct go_modules_below_walk w = {dir, self, out};

	go_modules_walk(dir, false, go_modules_below_one, &w);
}

/* Appends the modules of the use directives of the go.work at path. */
static int
go_modules_work_file(const char *path, struct go_modules *out)
{
	char *text = NULL, *save = NULL, *line, *dir;
	bool block = false;

	if (project_read_file(path, GO_MODULES_FILE_MAX, &text) < 0)
		return 0;
	dir = strrchr(path, '/') != NULL ? xstrndup(path, (size_t)(strrchr(path, '/') - path))
	                                 : xstrdup(".");
	for (line = strtok_r(text, "\n", &save); line != NULL; line = strtok_r(NULL, "\n", &save)) {
		char *s = line + strspn(line, " \t"), *end, *comment = strstr(s, "//"), *use;

		if (comment != NULL)
			*comment = '\0';
		if (!block && strncmp(s, "use", 3) == 0 &&
		    (s[3] == ' ' || s[3] == '\t' || s[3] == '(')) {
			s += 3;
			s += strspn(s, " \t");
			if (*s == '(') {
				block = true;
				s++;
				s += strspn(s, " \t");
			}
		} else if (!block) {
			continue;
		}
		if (block && *s == ')') {
			block = false;
			continue;
		}
		if (*s == '"') {
			s++;
			end = strchr(s, '"');
		} else {
			end = s + strcspn(s, " \t\r)");
		}
		if (end == NULL || end == s)
			continue;
		if (block && *end == ')')
			block = false;
		*end = '\0';
		use = s[0] == '/' ? xstrdup(s) : xasprintf("%s/%s", dir, s);
		go_modules_add(out, use);
		free(use);
	}
	free(dir);
	free(text);
	return 1;
}

int
go_modules_work(const char *dir, struct go_modules *out)
{
	char *path = xasprintf("%s/go.work", dir);
	int rc = go_modules_work_file(path, out);

	free(path);
	return rc;
}

/* The go.work go uses in dir: $GOWORK's ("off": none), else the first
 * go.work in dir or a directory above it; NULL when none. */
static char *
go_modules_work_find(const char *dir)
{
	const char *env = getenv("GOWORK");
	char *d, *path;

	if (env != NULL && env[0] != '\0')
		return strcmp(env, "off") == 0 ? NULL : xstrdup(env);
	d = go_modules_up(dir, "go.work");
	if (d == NULL)
		return NULL;
	path = xasprintf("%s/go.work", strcmp(d, "/") == 0 ? "" : d);
	free(d);
	return path;
}

bool
go_modules_has(const struct go_modules *m, const char *dir)
{
	size_t i;

	for (i = 0; i < m->n; i++) {
		if (strcmp(m->v[i].dir, dir) == 0)
			return true;
	}
	return false;
}

char *
go_modules_work_leaves_out(const char *mod_dir)
{
	struct go_modules uses = {NULL, 0};
	char *path = go_modules_work_find(mod_dir);

	if (path != NULL && go_modules_work_file(path, &uses) == 1 &&
	    go_modules_has(&uses, mod_dir)) {
		free(path);
		path = NULL;
	}
	go_modules_free(&uses);
	return path;
}

const struct go_module *
go_modules_owner(const struct go_modules *m, const char *pattern)
{
	const struct go_module *best = NULL;
	size_t i, len;

	for (i = 0; i < m->n; i++) {
		if (m->v[i].path == NULL)
			continue;
		len = strlen(m->v[i].path);
		if (strncmp(pattern, m->v[i].path, len) == 0 &&
		    (pattern[len] == '\0' || pattern[len] == '/') &&
		    (best == NULL || len > strlen(best->path)))
			best = &m->v[i];
	}
	return best;
}

void
go_modules_free(struct go_modules *m)
{
	size_t i;

	for (i = 0; i < m->n; i++) {
		free(m->v[i].dir);
		free(m->v[i].path);
		free(m->v[i].go);
	}
	free(m->v);
	m->v = NULL;
	m->n = 0;
}
