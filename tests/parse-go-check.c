/* SPDX-License-Identifier: MIT */
/*
 * parse-go-check.c: what the Go parser tests share: an outcome as one line
 * per fact, a run parsed whole and in pieces, the fixtures' files read.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "parse-go-check.h"
#include "base/util.h"

static const char *const status_words[] = {"PASS", "FAIL", "SKIP", "HANG"};

char *
read_data(const char *path, size_t *len)
{
	char *data = NULL;
	int rc = util_read_file(path, 64u << 20, &data, len);

	if (rc < 0 || data == NULL)
		check_fail(__FILE__, __LINE__, "cannot read %s (%d)", path, rc);
	return data;
}

/* The outcome in one line per fact, as the tables above spell it. */
char *
summary(const struct outcome *o)
{
	struct buf b;
	size_t i;

	buf_init(&b);
	buf_add(&b, "", 0);
	for (i = 0; i < o->ntests; i++) {
		buf_printf(&b, "%s %s", status_words[o->tests[i].status], o->tests[i].name);
		if (o->tests[i].reason != NULL)
			buf_printf(&b, " (%s)", o->tests[i].reason);
		buf_addc(&b, '\n');
	}
	if (o->package_failed)
		buf_printf(&b, "package failed: %s\n", o->package_reason);
	for (i = 0; o->candidates != NULL && o->candidates[i] != NULL; i++)
		buf_printf(&b, "candidate %s\n", o->candidates[i]);
	if (o->unreliable)
		buf_printf(&b, "unreliable: %s\n", o->unreliable_reason);
	if (o->selection_failed)
		buf_adds(&b, "selection failed\n");
	if (o->seed != NULL)
		buf_printf(&b, "seed %s\n", o->seed);
	return buf_steal(&b);
}

/* Everything in the outcome, lines included, to compare chunkings. */
static char *
full_dump(const struct outcome *o)
{
	char *s = summary(o);
	struct buf b;
	size_t i;

	buf_init(&b);
	buf_adds(&b, s);
	free(s);
	for (i = 0; i < o->ntests; i++)
		buf_printf(&b, "[%s]\n%s\n", o->tests[i].name,
		           o->tests[i].lines != NULL ? o->tests[i].lines : "(null)");
	buf_printf(&b, "[package]\n%s\n", o->package_lines != NULL ? o->package_lines : "(null)");
	return buf_steal(&b);
}

void
parse(const char *data, size_t len, const struct parse_go_opts *opts, const struct proc_exit *ex,
      size_t chunk, struct outcome *out)
{
	struct parse_go *p = parse_go_new(opts);
	size_t i;

	memset(out, 0, sizeof *out);
	for (i = 0; i < len; i += chunk)
		parse_go_feed(p, data + i, len - i < chunk ? len - i : chunk);
	parse_go_finish(p, ex, out);
	parse_go_free(p);
}

void
expect_str(const char *label, const char *got, const char *want)
{
	if (strcmp(got, want) != 0)
		check_fail(__FILE__, __LINE__, "%s: got\n%s\nexpected\n%s", label, got, want);
}

/* Parses whole and in 1- and 7-byte pieces, checks the three agree, the
 * lines invariants hold and the summary is the expected one. */
void
check_run(const char *label, const char *data, size_t len, const struct parse_go_opts *opts,
          const struct proc_exit *ex, const char *want)
{
	static const size_t chunks[] = {1, 7};
	struct outcome whole;
	char *s, *dump;
	size_t i;

	parse(data, len, opts, ex, len > 0 ? len : 1, &whole);
	s = summary(&whole);
	expect_str(label, s, want);
	free(s);
	for (i = 0; i < whole.ntests; i++) {
		const struct outcome_test *t = &whole.tests[i];
		bool bad = t->status == OUTCOME_FAIL || t->status == OUTCOME_HANG;

		if (bad != (t->lines != NULL))
			check_fail(__FILE__, __LINE__, "%s: %s has lines %p", label, t->name,
			           (void *)t->lines);
		if (t->lines != NULL && strlen(t->lines) > OUTCOME_LINES_CAP)
			check_fail(__FILE__, __LINE__, "%s: %s has %zu bytes of lines", label,
			           t->name, strlen(t->lines));
	}
	if (whole.package_lines != NULL && strlen(whole.package_lines) > OUTCOME_LINES_CAP)
		check_fail(__FILE__, __LINE__, "%s: package lines over the cap", label);
	dump = full_dump(&whole);
	for (i = 0; i < UTIL_ARRAY_LEN(chunks); i++) {
		struct outcome o;
		char *d;

		parse(data, len, opts, ex, chunks[i], &o);
		d = full_dump(&o);
		if (strcmp(d, dump) != 0)
			check_fail(__FILE__, __LINE__,
			           "%s: %zu-byte chunks give\n%s\nwhole gives\n%s", label,
			           chunks[i], d, dump);
		free(d);
		outcome_free(&o);
	}
	free(dump);
	outcome_free(&whole);
}

/* Splits a MANIFEST.tsv line into at most max fields (in place). */
size_t
split_tabs(char *line, char **f, size_t max)
{
	size_t n = 0;

	while (n < max) {
		char *tab = strchr(line, '\t');

		f[n++] = line;
		if (tab == NULL)
			break;
		*tab = '\0';
		line = tab + 1;
	}
	return n;
}

/* A -test.list output as a NULL-terminated array pointing into text. */
char **
split_lines(char *text)
{
	size_t n = 0;
	char **v = xcalloc(strlen(text) + 2, sizeof *v), *line = text;

	while (*line != '\0') {
		char *nl = strchr(line, '\n');

		if (nl != NULL)
			*nl = '\0';
		if (*line != '\0')
			v[n++] = line;
		if (nl == NULL)
			break;
		line = nl + 1;
	}
	v[n] = NULL;
	return v;
}

/* The directory of the Go 1.19 reference outputs, copied into the tree. */
char *
go119_dir(void)
{
	return xasprintf("%s/tests/fixtures/reference/go119", check_srcdir());
}

/* Parses a case output whole with the case's settings. */
void
parse_case(const char *casename, const char *file, const char *selected, const struct proc_exit *ex,
           struct outcome *out)
{
	bool go123 = strstr(file, ".go123.") != NULL;
	char *casedir = xasprintf("%s/tests/fixtures/cases/%s", check_srcdir(), casename);
	char *path = xasprintf("%s/%s", casedir, file);
	char *listpath = xasprintf("%s/list.%s.txt", casedir, go123 ? "go123" : "go119");
	char *list = read_data(listpath, NULL), **listed = split_lines(list);
	char *import = xasprintf("example.com/case%.2s", casename), *data;
	struct parse_go_opts opts;
	size_t len;

	data = read_data(path, &len);
	memset(&opts, 0, sizeof opts);
	opts.framing_marker = go123;
	opts.import_path = import;
	opts.listed = (const char *const *)listed;
	opts.selected = selected;
	parse(data, len, &opts, ex, len, out);
	free(data);
	free(import);
	free(listed);
	free(list);
	free(listpath);
	free(path);
	free(casedir);
}

const struct outcome_test *
need_test(const struct outcome *o, const char *name)
{
	const struct outcome_test *t = outcome_find(o, name);

	if (t == NULL)
		check_fail(__FILE__, __LINE__, "no test %s in the outcome", name);
	return t;
}
