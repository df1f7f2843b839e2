/* SPDX-License-Identifier: MIT */
/*
 * post-repro.c: reproduce commands relative to the repository's root
 * (see post-repro.h). It reads the shell words flakesweep writes
 * (sanitize_shell_quote's) and never runs them.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "github/post-repro.h"
#include "base/sanitize.h"
#include "base/util.h"

/* The next shell word of *p as written (quotes kept), *p moved past it
 * and the blanks after; NULL at the end. Caller frees. */
static char *
post_repro_word(const char **p)
{
	const char *s = *p, *e = s;
	char *w;

	while (*e != '\0' && *e != ' ') {
		if (*e == '\'') {
			const char *q = strchr(e + 1, '\'');

			e = q != NULL ? q + 1 : e + strlen(e);
		} else {
			e++;
		}
	}
	if (e == s)
		return NULL;
	w = xstrndup(s, (size_t)(e - s));
	while (*e == ' ')
		e++;
	*p = e;
	return w;
}

/* The value of shell word w (quotes removed). Caller frees. */
static char *
post_repro_unquote(const char *w)
{
	struct buf b;
	const char *p;

	buf_init(&b);
	buf_adds(&b, "");
	for (p = w; *p != '\0'; p++) {
		if (*p == '\'') {
			const char *q = strchr(p + 1, '\'');

			if (q == NULL)
				q = p + strlen(p);
			buf_add(&b, p + 1, (size_t)(q - p - 1));
			p = *q != '\0' ? q : q - 1;
		} else if (*p == '\\' && p[1] != '\0') {
			buf_addc(&b, *++p);
		} else {
			buf_addc(&b, *p);
		}
	}
	return buf_steal(&b);
}

/* dir relative to top ("" for top itself), or NULL when it is outside. */
static char *
post_repro_inside(const char *dir, const char *top)
{
	char *real = realpath(dir, NULL), *rel = NULL;
	size_t n = strlen(top);

	if (real == NULL)
		return NULL;
	if (strcmp(top, "/") == 0)
		rel = xstrdup(real + 1);
	else if (strncmp(real, top, n) == 0 && (real[n] == '/' || real[n] == '\0'))
		rel = xstrdup(real[n] == '/' ? real + n + 1 : "");
	free(real);
	return rel;
}

/* The Go test binary's command "taskset -c CPUS BINARY -test.X ..." as
 * `go test` in the package's directory, or NULL when it is not one. */
static char *
post_repro_go_test(const char *cmd, const struct post_repro_build *bd)
{
	const char *p = cmd;
	char *w[3] = {NULL, NULL, NULL}, *word, *out = NULL;
	struct buf b;
	int i;

	for (i = 0; i < 3; i++)
		w[i] = post_repro_word(&p);
	if (w[2] == NULL || strcmp(w[0], "taskset") != 0 || strcmp(w[1], "-c") != 0)
		goto out;
	buf_init(&b);
	buf_printf(&b, "taskset -c %s go test", w[2]);
	if (bd->race)
		buf_adds(&b, " -race");
	if (bd->tags != NULL) {
		char *q = sanitize_shell_quote(bd->tags);

		buf_printf(&b, " -tags %s", q);
		free(q);
	}
	/* The binary, then its -test.* flags: go test takes them bare. */
	free(post_repro_word(&p));
	while ((word = post_repro_word(&p)) != NULL) {
		if (strcmp(word, "-test.paniconexit0") == 0) {
			/* go test passes it itself. */
		} else if (strncmp(word, "-test.", 6) == 0) {
			buf_printf(&b, " -%s", word + 6);
		} else {
			buf_printf(&b, " %s", word);
		}
		free(word);
	}
	out = buf_steal(&b);
out:
	for (i = 0; i < 3; i++)
		free(w[i]);
	return out;
}

/* Whether s holds a word that is an absolute path (or a quoted one). */
static bool
post_repro_has_abs(const char *s)
{
	const char *p = s;
	char *w;
	bool abs = false;

	while (!abs && (w = post_repro_word(&p)) != NULL) {
		char *v = post_repro_unquote(w);

		abs = v[0] == '/' || strstr(v, "=/") != NULL || strstr(v, " /") != NULL;
		free(v);
		free(w);
	}
	return abs;
}

char *
post_repro_relative(const char *line, const char *top, const char *driver,
                    const struct post_repro_build *b)
{
	const char *cd = strncmp(line, "cd ", 3) == 0 ? line : strstr(line, " && cd ");
	const char *p, *rest;
	char *word = NULL, *dir = NULL, *rel = NULL, *cmd = NULL, *out = NULL, *q;
	struct buf o;

	if (cd == NULL)
		return post_repro_has_abs(line) ? NULL : xstrdup(line);
	if (top == NULL)
		return NULL;
	p = cd + (cd == line ? 3 : 7);
	word = post_repro_word(&p);
	if (word == NULL || strncmp(p, "&& ", 3) != 0)
		goto out;
	rest = p + 3;
	dir = post_repro_unquote(word);
	rel = post_repro_inside(dir, top);
	if (rel == NULL)
		goto out;
	cmd = driver != NULL && strcmp(driver, "go") == 0 && strncmp(rest, "taskset ", 8) == 0
	          ? post_repro_go_test(rest, b)
	          : xstrdup(rest);
	if (cmd == NULL)
		goto out;
	buf_init(&o);
	/* An export before the cd stays. */
	buf_add(&o, line, (size_t)(cd == line ? 0 : cd - line + 4));
	if (*rel != '\0') {
		q = sanitize_shell_quote(rel);
		buf_printf(&o, "cd %s && ", q);
		free(q);
	}
	buf_adds(&o, cmd);
	out = buf_steal(&o);
	if (post_repro_has_abs(out)) {
		free(out);
		out = NULL;
	}
out:
	free(cmd);
	free(rel);
	free(dir);
	free(word);
	return out;
}
