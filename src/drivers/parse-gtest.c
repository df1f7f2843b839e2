/* SPDX-License-Identifier: MIT */
/*
 * parse-gtest.c: reads one GoogleTest run's console output line by line,
 * then the JSON report the driver appends after PARSE_GTEST_JSON_MARK, and
 * decides at the end what the run showed (parse-gtest.h lists the rules).
 * It also reads --gtest_list_tests. It owns no process.
 */
#include "config.h"

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/outcome.h"
#include "drivers/parse-gtest.h"
#include "base/util.h"

#define PARSE_GTEST_LINE_MAX 65536
/* The JSON report of a binary with a few thousand tests is well under. */
#define PARSE_GTEST_JSON_MAX (64 << 20)

struct parse_gtest_test {
	char *name;
	int status; /* an outcome_status, or -1 while running */
	int64_t ms; /* its end line's "(N ms)", or -1 */
	struct buf lines;
	uint64_t cut;
};

struct parse_gtest {
	char *selected;
	struct buf line;
	struct parse_gtest_test *tests;
	size_t ntests, cap;
	int running; /* the test between RUN and its end, or -1 */
	char *seed;
	bool in_json;
	bool json_over;
	struct buf json;
	struct buf orphan; /* lines outside any test */
	uint64_t orphan_cut;
};

struct parse_gtest *
parse_gtest_new(const char *selected)
{
	struct parse_gtest *p = xcalloc(1, sizeof *p);

	p->selected = selected != NULL ? xstrdup(selected) : NULL;
	buf_init(&p->line);
	buf_init(&p->json);
	buf_init(&p->orphan);
	p->running = -1;
	return p;
}

void
parse_gtest_free(struct parse_gtest *p)
{
	size_t i;

	if (p == NULL)
		return;
	for (i = 0; i < p->ntests; i++) {
		free(p->tests[i].name);
		buf_free(&p->tests[i].lines);
	}
	free(p->tests);
	free(p->selected);
	free(p->seed);
	buf_free(&p->line);
	buf_free(&p->json);
	buf_free(&p->orphan);
	free(p);
}

static int
parse_gtest_add(struct parse_gtest *p, const char *name, size_t n, int status)
{
	struct parse_gtest_test *t;

	if (p->ntests == p->cap) {
		p->cap = p->cap ? p->cap * 2 : 16;
		p->tests = xrealloc(p->tests, p->cap * sizeof *p->tests);
	}
	t = &p->tests[p->ntests];
	memset(t, 0, sizeof *t);
	t->name = xstrndup(name, n);
	t->status = status;
	t->ms = -1;
	buf_init(&t->lines);
	return (int)p->ntests++;
}

static int
parse_gtest_find(const struct parse_gtest *p, const char *name)
{
	size_t i;

	for (i = 0; i < p->ntests; i++) {
		if (strcmp(p->tests[i].name, name) == 0)
			return (int)i;
	}
	return -1;
}

/* True when s (n bytes) starts with the tag and the running test's name,
 * followed by the end, " (N ms)" or ", where ...". */
static bool
parse_gtest_ends(const struct parse_gtest *p, const char *s, size_t n, const char *tag)
{
	size_t tl = strlen(tag), nl;
	const char *name;

	if (p->running < 0 || n < tl || memcmp(s, tag, tl) != 0)
		return false;
	name = p->tests[p->running].name;
	nl = strlen(name);
	s += tl;
	n -= tl;
	if (n < nl || memcmp(s, name, nl) != 0)
		return false;
	return n == nl || s[nl] == ' ' || s[nl] == ',';
}

/* The "(N ms)" that ends a test's end line (s, n bytes), or -1. */
static int64_t
parse_gtest_ms(const char *s, size_t n)
{
	const char *open = n > 5 && memcmp(s + n - 4, " ms)", 4) == 0 ? s + n - 4 : NULL, *d;
	int64_t ms = 0;

	for (d = open; d != NULL && d > s && d[-1] >= '0' && d[-1] <= '9'; d--)
		;
	if (d == NULL || d == open || d - s < 2 || d[-1] != '(' || d[-2] != ' ')
		return -1;
	for (; d < open && ms < INT64_MAX / 10 - 10; d++)
		ms = ms * 10 + (*d - '0');
	return ms;
}

static void
parse_gtest_line(void *arg, const char *s, size_t n)
{
	static const char run[] = "[ RUN      ] ";
	static const char seed[] = "Note: Randomizing tests' orders with a seed of ";
	struct parse_gtest *p = arg;
	int status = -1;

	if (p->in_json) {
		if (p->json.len + n + 1 > PARSE_GTEST_JSON_MAX) {
			p->json_over = true;
			return;
		}
		buf_add(&p->json, s, n);
		buf_addc(&p->json, '\n');
		return;
	}
	if (p->running < 0 && n == strlen(PARSE_GTEST_JSON_MARK) &&
	    memcmp(s, PARSE_GTEST_JSON_MARK, n) == 0) {
		p->in_json = true;
		return;
	}
	if (n > sizeof seed - 1 && memcmp(s, seed, sizeof seed - 1) == 0 && p->seed == NULL) {
		const char *d = s + sizeof seed - 1, *e = d;

		while (e < s + n && *e >= '0' && *e <= '9')
			e++;
		if (e > d)
			p->seed = xstrndup(d, (size_t)(e - d));
		return;
	}
	if (n > sizeof run - 1 && memcmp(s, run, sizeof run - 1) == 0) {
		p->running = parse_gtest_add(p, s + sizeof run - 1, n - (sizeof run - 1), -1);
		return;
	}
	if (parse_gtest_ends(p, s, n, "[       OK ] "))
		status = OUTCOME_PASS;
	else if (parse_gtest_ends(p, s, n, "[  FAILED  ] "))
		status = OUTCOME_FAIL;
	else if (parse_gtest_ends(p, s, n, "[  SKIPPED ] "))
		status = OUTCOME_SKIP;
	if (status >= 0) {
		p->tests[p->running].status = status;
		p->tests[p->running].ms = parse_gtest_ms(s, n);
		p->running = -1;
		return;
	}
	if (p->running >= 0) {
		struct parse_gtest_test *t = &p->tests[p->running];

		outcome_keep(&t->lines, &t->cut, s, n);
		outcome_keep(&t->lines, &t->cut, "\n", 1);
	} else {
		outcome_keep(&p->orphan, &p->orphan_cut, s, n);
		outcome_keep(&p->orphan, &p->orphan_cut, "\n", 1);
	}
}

void
parse_gtest_feed(struct parse_gtest *p, const char *data, size_t len)
{
	util_feed_lines(&p->line, PARSE_GTEST_LINE_MAX, data, len, parse_gtest_line, p);
}

/* The status the JSON report gives one test, or -1 for one that did not run. */
static int
parse_gtest_json_status(const cJSON *t)
{
	const cJSON *status = cJSON_GetObjectItemCaseSensitive(t, "status");
	const cJSON *result = cJSON_GetObjectItemCaseSensitive(t, "result");
	const cJSON *failures = cJSON_GetObjectItemCaseSensitive(t, "failures");

	if (cJSON_IsString(status) && strcmp(status->valuestring, "RUN") != 0)
		return -1;
	if (cJSON_GetArraySize(failures) > 0)
		return OUTCOME_FAIL;
	if (cJSON_IsString(result) && strcmp(result->valuestring, "SKIPPED") == 0)
		return OUTCOME_SKIP;
	return OUTCOME_PASS;
}

/* Applies the JSON report; returns a reason when it is not a report. */
static char *
parse_gtest_json(struct parse_gtest *p, struct outcome *out)
{
	cJSON *root = cJSON_ParseWithLength(p->json.data, p->json.len);
	const cJSON *suites, *suite, *t;
	char *reason = NULL;

	if (p->json_over)
		reason = xstrdup("the gtest JSON report is over 64 MiB");
	else if (root == NULL)
		reason = xstrdup("the gtest JSON report is not valid JSON");
	suites = cJSON_GetObjectItemCaseSensitive(root, "testsuites");
	if (reason == NULL && !cJSON_IsArray(suites))
		reason = xstrdup("the gtest JSON report has no \"testsuites\" array");
	if (reason != NULL)
		suites = NULL;
	cJSON_ArrayForEach(suite, suites)
	{
		cJSON_ArrayForEach(t, cJSON_GetObjectItemCaseSensitive(suite, "testsuite"))
		{
			const cJSON *cls = cJSON_GetObjectItemCaseSensitive(t, "classname");
			const cJSON *name = cJSON_GetObjectItemCaseSensitive(t, "name");
			int st = parse_gtest_json_status(t), i;
			char *full;

			if (st < 0 || !cJSON_IsString(cls) || !cJSON_IsString(name))
				continue;
			full = xasprintf("%s.%s", cls->valuestring, name->valuestring);
			i = parse_gtest_find(p, full);
			if (i < 0)
				i = parse_gtest_add(p, full, strlen(full), st);
			if (p->tests[i].status >= 0 && p->tests[i].status != st &&
			    !out->unreliable) {
				out->unreliable = true;
				out->unreliable_reason = xasprintf(
				    "the console and the JSON report disagree on %s", full);
			}
			p->tests[i].status = st;
			free(full);
		}
	}
	cJSON_Delete(root);
	return reason;
}

void
parse_gtest_finish(struct parse_gtest *p, const struct proc_exit *ex, struct outcome *out)
{
	char *pkg = NULL, *running_reason = NULL;
	bool any_fail = false, selected_seen = false;
	size_t i;

	if (p->line.len > 0) {
		parse_gtest_line(p, p->line.data, p->line.len);
		buf_reset(&p->line);
	}
	if (p->in_json)
		pkg = parse_gtest_json(p, out);
	if (p->running >= 0) {
		if (ex->timed_out)
			running_reason =
			    xstrdup("still running when the run was stopped at its time limit");
		else if (ex->signal != 0)
			running_reason =
			    xasprintf("process killed by signal %d while running", ex->signal);
		else
			running_reason =
			    xasprintf("process exited with status %d while running", ex->status);
		p->tests[p->running].status = ex->timed_out ? OUTCOME_HANG : OUTCOME_FAIL;
	}
	for (i = 0; i < p->ntests; i++) {
		struct parse_gtest_test *t = &p->tests[i];
		struct outcome_test *ot;
		char *lines = NULL;

		if (p->selected != NULL && strcmp(t->name, p->selected) == 0)
			selected_seen = true;
		if (t->status == OUTCOME_FAIL || t->status == OUTCOME_HANG) {
			lines = outcome_kept(&t->lines, t->cut);
			any_fail = true;
		}
		ot = outcome_add(out, xstrdup(t->name), (enum outcome_status)t->status, lines);
		ot->ms = t->ms;
		if ((int)i == p->running)
			ot->reason = xstrdup(running_reason);
	}
	if (pkg == NULL && !any_fail && (ex->status != 0 || ex->signal != 0 || ex->timed_out)) {
		if (ex->timed_out)
			pkg = xstrdup("stopped at its time limit with no test running");
		else if (ex->signal != 0)
			pkg = xasprintf("killed by signal %d with no test running", ex->signal);
		else
			pkg = xasprintf("exit status %d with no test failing", ex->status);
	}
	if (pkg != NULL) {
		out->package_failed = true;
		out->package_reason = pkg;
		out->package_lines =
		    p->orphan.len > 0 ? outcome_kept(&p->orphan, p->orphan_cut) : NULL;
	}
	if (p->selected != NULL && !selected_seen)
		out->selection_failed = true;
	if (p->seed != NULL)
		out->seed = xstrdup(p->seed);
	free(running_reason);
}

/* The length of s without a trailing "  # ..." comment and spaces. */
static size_t
parse_gtest_bare(const char *s, size_t n)
{
	const char *hash = memchr(s, '#', n);

	if (hash != NULL)
		n = (size_t)(hash - s);
	while (n > 0 && s[n - 1] == ' ')
		n--;
	return n;
}

int
parse_gtest_list(const char *text, char ***tests, size_t *ntests, char **err)
{
	char *suite = NULL, **v = NULL;
	size_t n = 0;
	int lineno = 0, rc = 0;
	bool suite_disabled = false;

	while (*text != '\0') {
		const char *nl = strchr(text, '\n');
		size_t len = nl != NULL ? (size_t)(nl - text) : strlen(text), b;

		lineno++;
		if (len >= 3 && text[0] == ' ' && text[1] == ' ' && text[2] != ' ' &&
		    text[2] != '#' && suite != NULL) {
			b = parse_gtest_bare(text + 2, len - 2);
			if (!suite_disabled && (b < 9 || memcmp(text + 2, "DISABLED_", 9) != 0)) {
				char *full = xasprintf("%s%.*s", suite, (int)b, text + 2);

				util_strv_add(&v, &n, full);
				free(full);
			}
		} else if (len > 0 && text[0] != ' ' && (b = parse_gtest_bare(text, len)) > 1 &&
		           text[b - 1] == '.' && memchr(text, ' ', b) == NULL) {
			free(suite);
			suite = xstrndup(text, b);
			/* "DISABLED_Suite." and "Inst/DISABLED_Suite." */
			suite_disabled = strncmp(suite, "DISABLED_", 9) == 0 ||
			                 strstr(suite, "/DISABLED_") != NULL;
		} else if (suite != NULL && len > 0) {
			*err = xasprintf(_("line %d: expected \"Suite.\" or \"  Name\", found "
			                   "\"%.*s\""),
			                 lineno, (int)(len > 80 ? 80 : len), text);
			rc = -1;
			break;
		}
		text += len + (nl != NULL);
	}
	free(suite);
	if (rc < 0) {
		util_strv_free(v);
		return -1;
	}
	if (v == NULL)
		v = xcalloc(1, sizeof *v);
	*tests = v;
	*ntests = n;
	return 0;
}
