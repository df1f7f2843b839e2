/* SPDX-License-Identifier: MIT */
/*
 * zone.c: the time zone and locale every run gets, and what reproduce
 * lines set of them; the values were checked against this machine
 * (results/options-check.c) before anything ran. It never starts a
 * process.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "base/sanitize.h"
#include "engine/zone.h"

static bool
zone_inherit(const char *v)
{
	return v == NULL || strcmp(v, OPTIONS_INHERIT) == 0;
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
		q = sanitize_shell_quote(tz);
		buf_printf(b, "%sTZ=%s", b->len == 0 ? "export " : " ", q);
		free(q);
	}
	if (!zone_inherit(locale)) {
		q = sanitize_shell_quote(locale);
		buf_printf(b, "%sLC_ALL=%s", b->len == 0 ? "export " : " ", q);
		free(q);
	}
}

void
zone_options(struct buf *b, const char *tz, const char *locale)
{
	char *q;

	if (tz != NULL && strcmp(tz, OPTIONS_TZ_DEFAULT) != 0) {
		q = sanitize_shell_quote(tz);
		buf_printf(b, " --tz %s", q);
		free(q);
	}
	if (locale != NULL && strcmp(locale, OPTIONS_LOCALE_DEFAULT) != 0) {
		q = sanitize_shell_quote(locale);
		buf_printf(b, " --locale %s", q);
		free(q);
	}
}
