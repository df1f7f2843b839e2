/* SPDX-License-Identifier: MIT */
/*
 * zone.c: the time zone and locale every run gets. A zone is checked
 * against this machine's zoneinfo and a locale with newlocale(3) before
 * anything runs, so a misspelt one is an error and not a sweep measured in
 * a zone glibc silently took for UTC. It never starts a process.
 */
#include "config.h"

#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/zone.h"

static bool
zone_inherit(const char *v)
{
	return v == NULL || strcmp(v, ZONE_INHERIT) == 0;
}

/* Whether path is a TZif file (RFC 8536 starts every one with "TZif"). */
static bool
zone_tzif(const char *path)
{
	char magic[4];
	FILE *f = fopen(path, "rb");
	bool ok;

	if (f == NULL)
		return false;
	ok = fread(magic, 1, sizeof magic, f) == sizeof magic && memcmp(magic, "TZif", 4) == 0;
	fclose(f);
	return ok;
}

const char *
zone_check_tz(const char *name)
{
	const char *dir = getenv("TZDIR");
	char *path;
	bool ok;

	if (zone_inherit(name) || strcmp(name, "UTC") == 0)
		return NULL;
	/* A name under the zoneinfo directory, never a path out of it. */
	if (name[0] == '\0' || name[0] == '/' || strstr(name, "..") != NULL)
		return _("a time zone of this machine's zoneinfo (UTC, Europe/Berlin) or inherit");
	path =
	    xasprintf("%s/%s", dir != NULL && dir[0] != '\0' ? dir : "/usr/share/zoneinfo", name);
	ok = zone_tzif(path);
	free(path);
	return ok ? NULL
	          : _("a time zone of this machine's zoneinfo (UTC, Europe/Berlin) or inherit");
}

const char *
zone_check_locale(const char *name)
{
	locale_t l;

	if (zone_inherit(name))
		return NULL;
	l = name[0] != '\0' ? newlocale(LC_ALL_MASK, name, (locale_t)0) : (locale_t)0;
	if (l == (locale_t)0)
		return _("a locale this machine has (C, C.UTF-8, see locale -a) or inherit");
	freelocale(l);
	return NULL;
}

bool
zone_replaces(const char *entry, const char *tz, const char *locale)
{
	return (!zone_inherit(tz) && strncmp(entry, "TZ=", 3) == 0) ||
	       (!zone_inherit(locale) && strncmp(entry, "LC_ALL=", 7) == 0);
}

void
zone_run_env(const char *tz, const char *locale, char ***env, size_t *n)
{
	char *v;

	if (!zone_inherit(tz)) {
		v = xasprintf("TZ=%s", tz);
		util_strv_add(env, n, v);
		free(v);
	}
	if (!zone_inherit(locale)) {
		v = xasprintf("LC_ALL=%s", locale);
		util_strv_add(env, n, v);
		free(v);
	}
}

void
zone_export(struct buf *b, const char *tz, const char *locale)
{
	char *q;

	if (!zone_inherit(tz)) {
		q = util_shell_quote(tz);
		buf_printf(b, "%sTZ=%s", b->len == 0 ? "export " : " ", q);
		free(q);
	}
	if (!zone_inherit(locale)) {
		q = util_shell_quote(locale);
		buf_printf(b, "%sLC_ALL=%s", b->len == 0 ? "export " : " ", q);
		free(q);
	}
}

void
zone_options(struct buf *b, const char *tz, const char *locale)
{
	char *q;

	if (tz != NULL && strcmp(tz, ZONE_TZ_DEFAULT) != 0) {
		q = util_shell_quote(tz);
		buf_printf(b, " --tz %s", q);
		free(q);
	}
	if (locale != NULL && strcmp(locale, ZONE_LOCALE_DEFAULT) != 0) {
		q = util_shell_quote(locale);
		buf_printf(b, " --locale %s", q);
		free(q);
	}
}
