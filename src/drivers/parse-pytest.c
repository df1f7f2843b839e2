/* SPDX-License-Identifier: MIT */
/*
 * parse-pytest.c: reads the event lines of flakesweep's pytest plugin into
 * the tests of one run, and keeps the tail of the run's output for a run
 * that fails outside any test (parse-pytest.h lists the rules). It owns no
 * process and no output beyond capped copies.
 */
#include "config.h"

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/outcome.h"
#include "drivers/parse-pytest.h"
#include "base/excerpt.h"
#include "base/json.h"
#include "base/util.h"

#define PARSE_PYTEST_LINE_MAX (4 * OUTCOME_LINES_CAP)
#define PARSE_PYTEST_MARK_ROOM 64
#define PARSE_PYTEST_NO_RESULT (-1)
/* The E lines a long failure leads with. */
#define PARSE_PYTEST_E_LINES 10

struct parse_pytest_test {
	char *name;
	int status; /* an outcome_status, or PARSE_PYTEST_NO_RESULT while open */
	struct buf lines;
	uint64_t cut;
	char **channels;
	int64_t ms; /* its result's "ms", or -1 */
};

struct parse_pytest {
	char *selected;
	struct buf line;
	bool line_over; /* the current line passed PARSE_PYTEST_LINE_MAX */

	struct parse_pytest_test *tests;
	size_t ntests;
	long open; /* the test started without a result, or -1 */

	char *seed;
	bool done;
	int exitstatus;
	bool collect_error;
	bool reported;     /* the plugin wrote an event */
	struct buf errors; /* collection errors, and a stack with no test open */
	uint64_t errors_cut;
	char *unreliable;
	struct buf tail; /* the run's output, its last OUTCOME_LINES_CAP bytes */
	uint64_t tail_cut;
};

struct parse_pytest *
parse_pytest_new(const char *selected)
{
	struct parse_pytest *p = xcalloc(1, sizeof *p);

	p->selected = selected != NULL ? xstrdup(selected) : NULL;
	p->open = -1;
	buf_init(&p->line);
	buf_init(&p->errors);
	buf_init(&p->tail);
	return p;
}

void
parse_pytest_free(struct parse_pytest *p)
{
	size_t i;

	if (p == NULL)
		return;
	for (i = 0; i < p->ntests; i++) {
		free(p->tests[i].name);
		buf_free(&p->tests[i].lines);
		util_strv_free(p->tests[i].channels);
	}
	free(p->tests);
	free(p->selected);
	free(p->seed);
	free(p->unreliable);
	buf_free(&p->line);
	buf_free(&p->errors);
	buf_free(&p->tail);
	free(p);
}

/* Appends to a buffer capped for an outcome's lines, counting what does not
 * fit; a NUL byte becomes '?' so the lines stay one C string. */
static void
parse_pytest_keep(struct buf *b, uint64_t *cut, const char *s, size_t n)
{
	size_t room = OUTCOME_LINES_CAP - PARSE_PYTEST_MARK_ROOM, i, k;

	k = b->len < room ? room - b->len : 0;
	if (k > n)
		k = n;
	*cut += n - k;
	for (i = 0; i < k; i++)
		buf_addc(b, s[i] != '\0' ? s[i] : '?');
}

static char *
parse_pytest_kept(const struct buf *b, uint64_t cut)
{
	struct buf out;

	buf_init(&out);
	buf_add(&out, b->data, b->len);
	if (cut > 0)
		buf_printf(&out, "[... %llu bytes cut ...]\n", (unsigned long long)cut);
	return buf_steal(&out);
}

static void
parse_pytest_unreliable(struct parse_pytest *p, const char *why, const char *test)
{
	if (p->unreliable == NULL)
		p->unreliable = xasprintf("%s: %s", why, test);
}

static struct parse_pytest_test *
parse_pytest_find(struct parse_pytest *p, const char *name)
{
	size_t i;

	for (i = 0; i < p->ntests; i++) {
		if (strcmp(p->tests[i].name, name) == 0)
			return &p->tests[i];
	}
	return NULL;
}

static void
parse_pytest_start(struct parse_pytest *p, const char *name)
{
	struct parse_pytest_test *t;

	if (parse_pytest_find(p, name) != NULL) {
		parse_pytest_unreliable(p, "test started twice", name);
		return;
	}
	p->tests = xrealloc(p->tests, sizeof *p->tests * (p->ntests + 1));
	t = &p->tests[p->ntests];
	memset(t, 0, sizeof *t);
	t->name = xstrdup(name);
	t->status = PARSE_PYTEST_NO_RESULT;
	t->ms = -1;
	buf_init(&t->lines);
	p->open = (long)p->ntests++;
}

static void
parse_pytest_result(struct parse_pytest *p, const char *name, const cJSON *ev)
{
	struct parse_pytest_test *t = parse_pytest_find(p, name);
	const char *outcome = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(ev, "outcome"));
	const char *lines = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(ev, "lines"));
	const cJSON *c;
	size_t n = 0;

	if (t == NULL) {
		parse_pytest_unreliable(p, "result of a test that did not start", name);
		return;
	}
	if (t->status != PARSE_PYTEST_NO_RESULT) {
		parse_pytest_unreliable(p, "test reported twice", name);
		return;
	}
	if (outcome != NULL && strcmp(outcome, "passed") == 0)
		t->status = OUTCOME_PASS;
	else if (outcome != NULL && strcmp(outcome, "skipped") == 0)
		t->status = OUTCOME_SKIP;
	else
		t->status = OUTCOME_FAIL;
	c = cJSON_GetObjectItemCaseSensitive(ev, "ms");
	if (cJSON_IsNumber(c) && c->valuedouble >= 0 && c->valuedouble < 1e12)
		t->ms = (int64_t)c->valuedouble;
	if (t->status == OUTCOME_FAIL && lines != NULL) {
		buf_reset(&t->lines);
		parse_pytest_keep(&t->lines, &t->cut, lines, strlen(lines));
		if (t->lines.len > 0 && t->lines.data[t->lines.len - 1] != '\n')
			buf_addc(&t->lines, '\n');
	}
	cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(ev, "channels"))
	{
		if (cJSON_IsString(c))
			util_strv_add(&t->channels, &n, c->valuestring);
	}
	if (t->channels == NULL && cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(ev, "channels")))
		t->channels = xcalloc(1, sizeof *t->channels);
	if (p->open == (long)(t - p->tests))
		p->open = -1;
}

/* A line that is not an event: part of a stack dump. */
static void
parse_pytest_stack(struct parse_pytest *p, const char *s, size_t n)
{
	if (p->open >= 0) {
		struct parse_pytest_test *t = &p->tests[p->open];

		parse_pytest_keep(&t->lines, &t->cut, s, n);
		parse_pytest_keep(&t->lines, &t->cut, "\n", 1);
	} else {
		parse_pytest_keep(&p->errors, &p->errors_cut, s, n);
		parse_pytest_keep(&p->errors, &p->errors_cut, "\n", 1);
	}
}

static void
parse_pytest_line(struct parse_pytest *p, const char *s, size_t n)
{
	cJSON *ev;
	const char *kind, *test;
	const cJSON *v;

	if (n == 0 || s[0] != '{') {
		parse_pytest_stack(p, s, n);
		return;
	}
	ev = json_parse(s, n, NULL, false);
	kind = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(ev, "event"));
	test = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(ev, "test"));
	p->reported = p->reported || kind != NULL;
	if (kind == NULL) {
		/* Not an event: a malformed line is ignored. */
	} else if (strcmp(kind, "start") == 0 && test != NULL) {
		parse_pytest_start(p, test);
	} else if (strcmp(kind, "result") == 0 && test != NULL) {
		parse_pytest_result(p, test, ev);
	} else if (strcmp(kind, "collected") == 0) {
		const char *seed =
		    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(ev, "seed"));

		free(p->seed);
		p->seed = seed != NULL ? xstrdup(seed) : NULL;
	} else if (strcmp(kind, "error") == 0) {
		const char *lines =
		    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(ev, "lines"));

		p->collect_error = true;
		if (lines != NULL) {
			parse_pytest_keep(&p->errors, &p->errors_cut, lines, strlen(lines));
			parse_pytest_keep(&p->errors, &p->errors_cut, "\n", 1);
		}
	} else if (strcmp(kind, "done") == 0) {
		v = cJSON_GetObjectItemCaseSensitive(ev, "exitstatus");
		p->done = true;
		p->exitstatus = cJSON_IsNumber(v) ? v->valueint : -1;
	}
	cJSON_Delete(ev);
}

void
parse_pytest_feed_report(struct parse_pytest *p, const char *data, size_t len)
{
	while (len > 0) {
		const char *nl = memchr(data, '\n', len);
		size_t k = nl != NULL ? (size_t)(nl - data) : len;

		if (!p->line_over) {
			if (p->line.len + k > PARSE_PYTEST_LINE_MAX) {
				/* An over-long line is no event: keep its start as
				 * stack text. */
				buf_add(&p->line, data, PARSE_PYTEST_LINE_MAX - p->line.len);
				p->line_over = true;
			} else {
				buf_add(&p->line, data, k);
			}
		}
		if (nl == NULL)
			return;
		if (p->line_over)
			parse_pytest_stack(p, p->line.data, p->line.len);
		else
			parse_pytest_line(p, p->line.data != NULL ? p->line.data : "", p->line.len);
		buf_reset(&p->line);
		p->line_over = false;
		data += k + 1;
		len -= k + 1;
	}
}

void
parse_pytest_feed_output(struct parse_pytest *p, const char *data, size_t len)
{
	buf_add(&p->tail, data, len);
	if (p->tail.len > 2 * OUTCOME_LINES_CAP) {
		size_t drop = p->tail.len - OUTCOME_LINES_CAP;

		memmove(p->tail.data, p->tail.data + drop, OUTCOME_LINES_CAP);
		p->tail.len = OUTCOME_LINES_CAP;
		p->tail_cut += drop;
	}
}

/* The run's output tail as package lines, NULs made '?'. */
static char *
parse_pytest_tail(const struct parse_pytest *p)
{
	struct buf b;
	size_t i;

	buf_init(&b);
	if (p->tail_cut > 0)
		buf_printf(&b, "[... %llu bytes cut ...]\n", (unsigned long long)p->tail_cut);
	for (i = 0; i < p->tail.len; i++)
		buf_addc(&b, p->tail.data[i] != '\0' ? p->tail.data[i] : '?');
	return buf_steal(&b);
}

static char *
parse_pytest_how(const struct proc_exit *exit)
{
	if (exit->signal != 0)
		return xasprintf("killed by signal %d", exit->signal);
	return xasprintf("process exited with status %d", exit->status);
}

static void
parse_pytest_fail_package(struct parse_pytest *p, struct outcome *out, char *reason, bool output)
{
	out->package_failed = true;
	out->package_reason = reason;
	if (p->errors.len > 0)
		out->package_lines = parse_pytest_kept(&p->errors, p->errors_cut);
	else if (output)
		out->package_lines = parse_pytest_tail(p);
}

/* The length of the line at s, without its newline. */
static size_t
parse_pytest_line_len(const char *s)
{
	const char *nl = strchr(s, '\n');

	return nl != NULL ? (size_t)(nl - s) : strlen(s);
}

/* pytest's "E       assert 4 == 5": an E alone or before a blank. */
static bool
parse_pytest_is_e(const char *s, size_t n)
{
	return n > 0 && s[0] == 'E' && (n == 1 || s[1] == ' ');
}

/* pytest's "test_x.py:31: AssertionError": no blank before ":DIGITS: ". */
static bool
parse_pytest_is_where(const char *s, size_t n)
{
	size_t i = 0, digits;

	while (i < n && s[i] != ':' && s[i] != ' ')
		i++;
	if (i == 0 || i >= n || s[i] != ':')
		return false;
	digits = ++i;
	while (i < n && s[i] >= '0' && s[i] <= '9')
		i++;
	return i > digits && i + 1 < n && s[i] == ':' && s[i + 1] == ' ';
}

/* A failure's text longer than a report shows (EXCERPT_SHORT_LINES) led by
 * its error: the failing line (">"), the last run of E lines (at most
 * PARSE_PYTEST_E_LINES) and where it failed. Takes text; returns what to
 * keep. */
static char *
parse_pytest_error_first(char *text)
{
	const char *s, *src = NULL, *group = NULL, *group_src = NULL, *where = NULL;
	size_t n, nlines = 0, i;
	bool in_group = false;
	struct buf lead;
	char *keep;

	for (s = text; *s != '\0'; s += n + (s[n] != '\0')) {
		n = parse_pytest_line_len(s);
		nlines++;
		if (parse_pytest_is_e(s, n)) {
			if (!in_group) {
				group = s;
				group_src = src;
				where = NULL;
			}
			in_group = true;
			continue;
		}
		if (in_group && where == NULL && parse_pytest_is_where(s, n))
			where = s;
		if (n > 0)
			in_group = false;
		if (s[0] == '>')
			src = s;
	}
	if (nlines <= EXCERPT_SHORT_LINES || group == NULL)
		return text;
	buf_init(&lead);
	if (group_src != NULL) {
		buf_add(&lead, group_src, parse_pytest_line_len(group_src));
		buf_addc(&lead, '\n');
	}
	for (s = group, i = 0; i < PARSE_PYTEST_E_LINES; s += n + 1, i++) {
		n = parse_pytest_line_len(s);
		if (!parse_pytest_is_e(s, n))
			break;
		buf_add(&lead, s, n);
		buf_addc(&lead, '\n');
		if (s[n] == '\0')
			break;
	}
	if (where != NULL) {
		buf_add(&lead, where, parse_pytest_line_len(where));
		buf_addc(&lead, '\n');
	}
	keep = excerpt_lead(&lead, text, OUTCOME_LINES_CAP);
	free(text);
	return keep;
}

/* The last line of the len bytes at s with text, without pytest's "E"
 * mark and the spaces around it (caller frees). */
static char *
parse_pytest_last_line(const char *s, size_t len)
{
	const char *end = s + len, *start;

	if (s == NULL)
		return xstrdup("");
	while (end > s && strchr("\n\r ", end[-1]) != NULL)
		end--;
	start = end;
	while (start > s && start[-1] != '\n')
		start--;
	if (end - start > 1 && start[0] == 'E' && start[1] == ' ')
		start++;
	while (start < end && *start == ' ')
		start++;
	return xstrndup(start, (size_t)(end - start));
}

/* Why a run that ended by itself with no test never reached one, with the
 * fix; NULL when it did reach its tests. */
static char *
parse_pytest_unreached(const struct parse_pytest *p)
{
	char *last, *why;

	if (!p->reported) {
		last = parse_pytest_last_line(p->tail.data, p->tail.len);
		why = xasprintf("pytest stopped before the flakesweep_ledger plugin reported (%s): "
		                "set FLAKESWEEP_DATADIR to the directory that holds "
		                "flakesweep_ledger.py, or FLAKESWEEP_PYTHON to a Python that has "
		                "pytest",
		                last);
	} else if (p->collect_error) {
		last = parse_pytest_last_line(p->errors.data, p->errors.len);
		why = xasprintf("pytest collected no test, only collection errors (the last: %s): "
		                "fix the test files' imports, or set FLAKESWEEP_PYTHON to a Python "
		                "that has their dependencies",
		                last);
	} else if (p->done && p->exitstatus == 5 && p->selected == NULL) {
		return xstrdup("pytest collected no test (exit status 5): check the package names, "
		               "--run and --skip");
	} else {
		return NULL;
	}
	free(last);
	return why;
}

void
parse_pytest_finish(struct parse_pytest *p, const struct proc_exit *exit, struct outcome *out)
{
	bool failed = false, found = false;
	size_t i;
	char *how;

	/* The report may end without a newline when the run was killed. */
	if (p->line.len > 0)
		parse_pytest_feed_report(p, "\n", 1);
	for (i = 0; i < p->ntests; i++) {
		struct parse_pytest_test *t = &p->tests[i];
		struct outcome_test *ot;
		int status = t->status;
		char *reason = NULL;

		if (status == PARSE_PYTEST_NO_RESULT && exit->timed_out) {
			status = OUTCOME_HANG;
			reason = xstrdup("still running when the run hit its time limit");
		} else if (status == PARSE_PYTEST_NO_RESULT) {
			status = OUTCOME_FAIL;
			how = parse_pytest_how(exit);
			reason = xasprintf("%s while running", how);
			free(how);
		}
		failed = failed || status == OUTCOME_FAIL || status == OUTCOME_HANG;
		found = found || (p->selected != NULL && strcmp(p->selected, t->name) == 0);
		ot =
		    outcome_add(out, xstrdup(t->name), (enum outcome_status)status,
		                status == OUTCOME_FAIL || status == OUTCOME_HANG
		                    ? parse_pytest_error_first(parse_pytest_kept(&t->lines, t->cut))
		                    : NULL);
		ot->reason = reason;
		ot->ms = t->ms;
		ot->channels = t->channels;
		t->channels = NULL;
	}
	out->seed = p->seed != NULL ? xstrdup(p->seed) : NULL;
	if (p->unreliable != NULL) {
		out->unreliable = true;
		out->unreliable_reason = xstrdup(p->unreliable);
	}
	if (p->collect_error) {
		parse_pytest_fail_package(p, out, xstrdup("collection error"), false);
	} else if (p->open >= 0) {
		/* The open test carries the blame. */
	} else if (!p->done) {
		how = parse_pytest_how(exit);
		parse_pytest_fail_package(
		    p, out,
		    exit->timed_out ? xstrdup("timed out with no test running")
		    : p->ntests == 0
		        ? xasprintf("%s with no report from the flakesweep_ledger plugin", how)
		        : xasprintf("%s with no test running", how),
		    true);
		free(how);
	} else if (p->exitstatus == 5) {
		out->selection_failed = p->selected != NULL;
	} else if (p->exitstatus != 0 && !(p->exitstatus == 1 && failed)) {
		parse_pytest_fail_package(
		    p, out, xasprintf("pytest exit status %d with no test failed", p->exitstatus),
		    true);
	}
	if (p->selected != NULL && !found && !out->package_failed)
		out->selection_failed = true;
	if (p->ntests == 0 && !exit->timed_out && exit->signal == 0)
		out->unreached = parse_pytest_unreached(p);
}
