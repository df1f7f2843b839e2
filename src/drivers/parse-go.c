/* SPDX-License-Identifier: MIT */
/*
 * parse-go.c: reads one Go test binary run's merged output, line by line as
 * it arrives, into a tree of tests in RUN order, then decides at the end what
 * each started test's result was (parse-go.h lists the rules). It owns that
 * attribution and nothing else: no processes, no files, no sanitising.
 * Everything it keeps is capped, so hostile output costs bounded memory.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/excerpt.h"
#include "drivers/outcome.h"
#include "base/hash.h"
#include "drivers/parse-go.h"
#include "drivers/parse-go-capture.h"
#include "drivers/parse-go-event.h"
#include "drivers/parse-go-names.h"
#include "base/util.h"

/* A line longer than this is processed in pieces; the last KEEP bytes stay
 * buffered so a result glued at its end is still seen. */
#define PARSE_GO_LINE_MAX 65536
#define PARSE_GO_LINE_KEEP 4096
/* One goroutine block, and all blocks kept for one top-level test. */
#define PARSE_GO_BLOCK_CAP 4096
#define PARSE_GO_STACK_CAP 4096
/* The timeout panic line with its "running tests:" list. */
#define PARSE_GO_TIMEOUT_CAP 2048
#define PARSE_GO_BLOCK_TESTS 8

enum parse_go_state {
	PARSE_GO_RUNNING,
	PARSE_GO_PAUSED,   /* called t.Parallel and waits */
	PARSE_GO_DONE,     /* finished, its result line not seen (yet) */
	PARSE_GO_REPORTED, /* its "--- PASS/FAIL/SKIP" line was seen */
};

/* What accepting an event does. */
enum parse_go_action {
	PARSE_GO_REJECT,  /* not framing after all: the line is output */
	PARSE_GO_APPLY,   /* change the test tree */
	PARSE_GO_UNKNOWN, /* framing for an ignored test: output goes nowhere */
	PARSE_GO_KEEP,    /* framing with nothing to change */
};

struct parse_go_test {
	char *name;
	size_t namelen;
	int parent, top, depth;
	int first_child, last_child, next_sibling;
	int serial_child; /* the child started last without t.Parallel, or -1 */
	enum parse_go_state state;
	enum outcome_status status; /* once REPORTED */
	int64_t ms;                 /* once REPORTED: its "(1.23s)" in ms, or -1 */
	bool running_list;          /* named in Go's "running tests:" list */
	bool framed;                /* top-level: has a frame in the timeout dump */
	bool active_below;          /* scratch for parse_go_finish */
	int verdict;                /* scratch: an outcome_status, or -1 to leave out */
	const char *reason;         /* scratch: points into the parser */
	struct parse_go_capture out;
	struct buf stack; /* top-level: its goroutine blocks in the timeout dump */
};

enum parse_go_dump {
	PARSE_GO_DUMP_NONE,
	PARSE_GO_DUMP_HEAD,  /* after the timeout panic line: the running list */
	PARSE_GO_DUMP_BLOCK, /* inside a goroutine block */
	PARSE_GO_DUMP_GAP,   /* between blocks */
};

struct parse_go {
	bool framing;
	char *import_path;
	size_t import_len;
	char *selected;
	bool has_listed;
	char **listed;
	size_t nlisted;
	struct parse_go_names listed_map;

	struct buf line;
	bool line_cont; /* the buffered line does not start at column 0 */

	struct parse_go_test *tests;
	size_t ntests, cap;
	struct parse_go_names names;
	int cur; /* the test output belongs to, or -1 */
	int root_serial;
	int final; /* the last "PASS"/"FAIL" line, when nothing framing followed; or -1 */
	bool no_tests, selected_seen;
	char *seed;
	char *unreliable_reason;
	struct parse_go_capture orphan; /* output that belongs to no running test */
	size_t stored;                  /* bytes kept by all captures and stacks */

	enum parse_go_dump dump;
	bool in_list;
	char *timeout_msg; /* "test timed out after 1s" */
	struct buf timeout_text;
	struct buf block;
	int block_tests[PARSE_GO_BLOCK_TESTS];
	int nblock;
};

static int
parse_go_find(const struct parse_go *p, const char *name, size_t len)
{
	return parse_go_names_get(&p->names, name, len, hash_fnv1a(name, len));
}

/* Appends to a capped buffer; what does not fit is dropped. */
static void
parse_go_buf_capped(struct buf *b, const char *s, size_t n, size_t cap)
{
	if (b->len >= cap)
		return;
	if (n > cap - b->len)
		n = cap - b->len;
	buf_add(b, s, n);
}

struct parse_go *
parse_go_new(const struct parse_go_opts *opts)
{
	struct parse_go *p = xcalloc(1, sizeof *p);
	size_t i;

	p->framing = opts->framing_marker;
	if (opts->import_path != NULL && opts->import_path[0] != '\0') {
		p->import_path = xstrdup(opts->import_path);
		p->import_len = strlen(p->import_path);
	}
	if (opts->selected != NULL)
		p->selected = xstrdup(opts->selected);
	if (opts->listed != NULL) {
		p->has_listed = true;
		while (opts->listed[p->nlisted] != NULL)
			p->nlisted++;
		p->listed = xcalloc(p->nlisted + 1, sizeof *p->listed);
		for (i = 0; i < p->nlisted; i++) {
			p->listed[i] = xstrdup(opts->listed[i]);
			parse_go_names_put(&p->listed_map, p->listed[i], strlen(p->listed[i]),
			                   (int)i);
		}
	}
	buf_init(&p->line);
	buf_init(&p->timeout_text);
	buf_init(&p->block);
	p->cur = -1;
	p->root_serial = -1;
	p->final = -1;
	return p;
}

void
parse_go_free(struct parse_go *p)
{
	size_t i;

	if (p == NULL)
		return;
	for (i = 0; i < p->ntests; i++) {
		free(p->tests[i].name);
		parse_go_capture_free(&p->tests[i].out, &p->stored);
		buf_free(&p->tests[i].stack);
	}
	free(p->tests);
	parse_go_names_free(&p->names);
	for (i = 0; i < p->nlisted; i++)
		free(p->listed[i]);
	free(p->listed);
	parse_go_names_free(&p->listed_map);
	free(p->import_path);
	free(p->selected);
	free(p->seed);
	free(p->unreliable_reason);
	free(p->timeout_msg);
	parse_go_capture_free(&p->orphan, &p->stored);
	buf_free(&p->line);
	buf_free(&p->timeout_text);
	buf_free(&p->block);
	free(p);
}

/* The capture output goes to now: the current test's, unless it has passed
 * or been skipped already (then the bytes belong to no test: case 08's
 * timeout dump after "--- PASS: TestQuick"). */
static struct parse_go_capture *
parse_go_target(struct parse_go *p)
{
	struct parse_go_test *t;

	if (p->dump != PARSE_GO_DUMP_NONE || p->cur < 0)
		return &p->orphan;
	t = &p->tests[p->cur];
	if (t->state == PARSE_GO_REPORTED && t->status != OUTCOME_FAIL)
		return &p->orphan;
	return &t->out;
}

static void
parse_go_output(struct parse_go *p, const char *s, size_t n, bool newline)
{
	struct parse_go_capture *c = parse_go_target(p);

	parse_go_capture_add(c, &p->stored, s, n);
	if (newline)
		parse_go_capture_add(c, &p->stored, "\n", 1);
}

/* Marks i and everything below it that had not finished as finished. */
static void
parse_go_mark_done(struct parse_go *p, int i, bool self)
{
	int n;

	if (self && (p->tests[i].state == PARSE_GO_RUNNING || p->tests[i].state == PARSE_GO_PAUSED))
		p->tests[i].state = PARSE_GO_DONE;
	n = p->tests[i].first_child;
	while (n >= 0) {
		struct parse_go_test *t = &p->tests[n];
		bool descend = false;

		/* Below a finished test everything has finished already. */
		if (t->state == PARSE_GO_RUNNING || t->state == PARSE_GO_PAUSED) {
			t->state = PARSE_GO_DONE;
			descend = t->first_child >= 0;
		}
		if (descend) {
			n = t->first_child;
			continue;
		}
		while (n != i && p->tests[n].next_sibling < 0)
			n = p->tests[n].parent;
		if (n == i)
			break;
		n = p->tests[n].next_sibling;
	}
}

/* The longest running test whose name plus '/' starts name, or -1. Prefix
 * hashes are computed in one pass, so a name made of slashes stays linear. */
static int
parse_go_parent(const struct parse_go *p, const char *name, size_t len)
{
	uint64_t h = HASH_FNV1A_INIT;
	int best = -1;
	size_t i;

	for (i = 0; i < len; i++) {
		if (name[i] == '/' && i > 0) {
			int t = parse_go_names_get(&p->names, name, i, h);

			if (t >= 0 && (p->tests[t].state == PARSE_GO_RUNNING ||
			               p->tests[t].state == PARSE_GO_PAUSED))
				best = t;
		}
		h = hash_fnv1a_byte(h, (unsigned char)name[i]);
	}
	return best;
}

static bool
parse_go_listed(const struct parse_go *p, const char *name, size_t len)
{
	return !p->has_listed ||
	       parse_go_names_get(&p->listed_map, name, len, hash_fnv1a(name, len)) >= 0;
}

/* Decides, without changing anything, what a parsed framing line means
 * here. */
static enum parse_go_action
parse_go_accept(struct parse_go *p, struct parse_go_event *ev, enum parse_go_mode mode)
{
	bool framed = mode == PARSE_GO_FRAMED;
	struct parse_go_test *t;

	if (ev->kind == PARSE_GO_EV_FINAL)
		return PARSE_GO_APPLY;
	if (ev->kind == PARSE_GO_EV_NAME && ev->namelen == 0)
		return mode != PARSE_GO_GLUED ? PARSE_GO_UNKNOWN : PARSE_GO_REJECT;
	ev->test = parse_go_find(p, ev->name, ev->namelen);
	if (ev->kind == PARSE_GO_EV_RUN) {
		if (ev->test >= 0)
			/* -test.count=1 runs a name once: a second RUN is a
			 * test printing framing (a child process, say). */
			return framed ? PARSE_GO_KEEP : PARSE_GO_REJECT;
		if (parse_go_parent(p, ev->name, ev->namelen) < 0 &&
		    !parse_go_listed(p, ev->name, ev->namelen))
			return framed ? PARSE_GO_UNKNOWN : PARSE_GO_REJECT;
		return PARSE_GO_APPLY;
	}
	if (ev->test < 0)
		return framed ? PARSE_GO_UNKNOWN : PARSE_GO_REJECT;
	t = &p->tests[ev->test];
	switch (ev->kind) {
	case PARSE_GO_EV_PAUSE:
		if (t->state != PARSE_GO_RUNNING)
			return framed ? PARSE_GO_KEEP : PARSE_GO_REJECT;
		return PARSE_GO_APPLY;
	case PARSE_GO_EV_CONT:
	case PARSE_GO_EV_NAME:
		if (t->state == PARSE_GO_REPORTED && mode == PARSE_GO_GLUED)
			return PARSE_GO_REJECT;
		return PARSE_GO_APPLY;
	case PARSE_GO_EV_REPORT:
		/* Go 1.19 indents a result 4 spaces per level; a line that
		 * does not is some test's output. */
		if (mode == PARSE_GO_COL0 && ev->indent != 4 * (size_t)t->depth)
			return PARSE_GO_REJECT;
		if (t->state == PARSE_GO_REPORTED && mode == PARSE_GO_GLUED)
			return PARSE_GO_REJECT;
		return PARSE_GO_APPLY;
	default:
		return PARSE_GO_REJECT;
	}
}

static int
parse_go_add_test(struct parse_go *p, const char *name, size_t len, int parent)
{
	struct parse_go_test *t;
	int i;

	if (p->ntests == p->cap) {
		p->cap = p->cap ? p->cap * 2 : 16;
		p->tests = xrealloc(p->tests, p->cap * sizeof *p->tests);
	}
	i = (int)p->ntests++;
	t = &p->tests[i];
	memset(t, 0, sizeof *t);
	t->name = xstrndup(name, len);
	t->namelen = len;
	t->parent = parent;
	t->top = parent >= 0 ? p->tests[parent].top : i;
	t->depth = parent >= 0 ? p->tests[parent].depth + 1 : 0;
	t->first_child = t->last_child = t->next_sibling = -1;
	t->serial_child = -1;
	t->state = PARSE_GO_RUNNING;
	buf_init(&t->stack);
	if (parent >= 0) {
		struct parse_go_test *pt = &p->tests[parent];

		if (pt->last_child >= 0)
			p->tests[pt->last_child].next_sibling = i;
		else
			pt->first_child = i;
		pt->last_child = i;
	}
	parse_go_names_put(&p->names, t->name, len, i);
	return i;
}

static void
parse_go_unreliable(struct parse_go *p, const struct parse_go_test *t, enum outcome_status again)
{
	static const char *const words[] = {"PASS", "FAIL", "SKIP", "HANG"};

	if (p->unreliable_reason != NULL)
		return;
	p->unreliable_reason = xasprintf("%s reported both %s and %s in one run", t->name,
	                                 words[t->status], words[again]);
}

static void
parse_go_apply(struct parse_go *p, const struct parse_go_event *ev)
{
	struct parse_go_test *t;
	int *slot;

	p->final = -1;
	switch (ev->kind) {
	case PARSE_GO_EV_FINAL:
		p->final = (int)ev->status;
		return;
	case PARSE_GO_EV_RUN: {
		int parent = parse_go_parent(p, ev->name, ev->namelen), i;

		/* A sibling still running without t.Parallel has finished:
		 * tests at one level run one at a time. */
		slot = parent >= 0 ? &p->tests[parent].serial_child : &p->root_serial;
		if (*slot >= 0 && p->tests[*slot].state == PARSE_GO_RUNNING)
			parse_go_mark_done(p, *slot, true);
		i = parse_go_add_test(p, ev->name, ev->namelen, parent);
		slot = parent >= 0 ? &p->tests[parent].serial_child : &p->root_serial;
		*slot = i;
		p->cur = i;
		if (p->selected != NULL && strcmp(p->tests[i].name, p->selected) == 0)
			p->selected_seen = true;
		return;
	}
	case PARSE_GO_EV_PAUSE:
		t = &p->tests[ev->test];
		t->state = PARSE_GO_PAUSED;
		slot = t->parent >= 0 ? &p->tests[t->parent].serial_child : &p->root_serial;
		if (*slot == ev->test)
			*slot = -1;
		p->cur = t->parent;
		return;
	case PARSE_GO_EV_CONT:
		t = &p->tests[ev->test];
		if (t->state != PARSE_GO_REPORTED)
			t->state = PARSE_GO_RUNNING;
		p->cur = ev->test;
		return;
	case PARSE_GO_EV_NAME:
		p->cur = ev->test;
		return;
	case PARSE_GO_EV_REPORT:
		t = &p->tests[ev->test];
		p->cur = ev->test;
		if (t->state == PARSE_GO_REPORTED) {
			if (t->status != ev->status)
				parse_go_unreliable(p, t, ev->status);
			return;
		}
		t->state = PARSE_GO_REPORTED;
		t->status = ev->status;
		t->ms = ev->ms;
		parse_go_mark_done(p, ev->test, false);
		slot = t->parent >= 0 ? &p->tests[t->parent].serial_child : &p->root_serial;
		if (*slot == ev->test)
			*slot = -1;
		if (t->status != OUTCOME_FAIL)
			parse_go_capture_free(&t->out, &p->stored);
		return;
	}
}

/* Tries a framing line; true when it was taken as one. prefix bytes before
 * it (glued text) go to the output of whoever had the line before. */
static bool
parse_go_try(struct parse_go *p, const char *line, size_t prefix, size_t n, enum parse_go_mode mode)
{
	struct parse_go_event ev;
	enum parse_go_action a;

	if (!parse_go_event_read(line + prefix, n - prefix, mode, &ev))
		return false;
	a = parse_go_accept(p, &ev, mode);
	if (a == PARSE_GO_REJECT)
		return false;
	if (prefix > 0) {
		size_t k = prefix;

		/* Go indents a glued subtest result; the spaces are not the
		 * test's text. */
		if (ev.kind == PARSE_GO_EV_REPORT)
			while (k > 0 && line[k - 1] == ' ')
				k--;
		parse_go_output(p, line, k, true);
	}
	if (a == PARSE_GO_APPLY)
		parse_go_apply(p, &ev);
	else if (a == PARSE_GO_UNKNOWN)
		p->cur = -1;
	return true;
}

static void
parse_go_block_end(struct parse_go *p)
{
	int i;

	for (i = 0; i < p->nblock; i++) {
		struct parse_go_test *t = &p->tests[p->block_tests[i]];

		size_t before = t->stack.len;

		t->framed = true;
		if (p->stored > PARSE_GO_CAPTURE_BUDGET)
			continue;
		if (t->stack.len > 0)
			parse_go_buf_capped(&t->stack, "\n", 1, PARSE_GO_STACK_CAP);
		parse_go_buf_capped(&t->stack, p->block.data, p->block.len, PARSE_GO_STACK_CAP);
		p->stored += t->stack.len - before;
	}
	p->nblock = 0;
	buf_reset(&p->block);
}

static void
parse_go_frame_test(struct parse_go *p, const char *s, size_t n)
{
	size_t k = 0;
	int t, i;

	while (k < n && s[k] != '.' && s[k] != '(')
		k++;
	t = parse_go_find(p, s, k);
	if (t < 0 || p->tests[t].depth != 0)
		return;
	for (i = 0; i < p->nblock; i++) {
		if (p->block_tests[i] == t)
			return;
	}
	if (p->nblock < PARSE_GO_BLOCK_TESTS)
		p->block_tests[p->nblock++] = t;
}

/* A stack frame line, "example.com/pkg.TestX.func1(0xc000...)": notes the
 * top-level test whose function it is. */
static void
parse_go_frame(struct parse_go *p, const char *s, size_t n)
{
	const char *lp = memrchr(s, '(', n), *base, *dot;
	size_t fl;

	if (lp == NULL)
		return;
	fl = (size_t)(lp - s);
	if (p->import_path != NULL) {
		size_t k = p->import_len;

		if (fl <= k || memcmp(s, p->import_path, k) != 0)
			return;
		if (fl > k + 5 && memcmp(s + k, "_test", 5) == 0)
			k += 5;
		if (s[k] == '.')
			parse_go_frame_test(p, s + k + 1, fl - k - 1);
		return;
	}
	base = memrchr(s, '/', fl);
	base = base != NULL ? base + 1 : s;
	/* The package name may hold dots ("yaml.v3"): try after each. */
	for (dot = memchr(base, '.', (size_t)(s + fl - base)); dot != NULL;
	     dot = memchr(dot + 1, '.', (size_t)(s + fl - dot - 1)))
		parse_go_frame_test(p, dot + 1, (size_t)(s + fl - dot - 1));
}

/* A line of what follows "panic: test timed out after": the running list,
 * then goroutine blocks separated by empty lines. */
static void
parse_go_dump_line(struct parse_go *p, const char *s, size_t n)
{
	while (n > 0 && s[n - 1] == '\r')
		n--;
	if (n == 0) {
		if (p->dump == PARSE_GO_DUMP_BLOCK) {
			parse_go_block_end(p);
			p->dump = PARSE_GO_DUMP_GAP;
		}
		return;
	}
	if (n > 10 && memcmp(s, "goroutine ", 10) == 0 && s[n - 1] == ':') {
		parse_go_block_end(p);
		p->dump = PARSE_GO_DUMP_BLOCK;
		parse_go_buf_capped(&p->block, s, n, PARSE_GO_BLOCK_CAP);
		parse_go_buf_capped(&p->block, "\n", 1, PARSE_GO_BLOCK_CAP);
		return;
	}
	if (p->dump == PARSE_GO_DUMP_HEAD) {
		const char *t = s, *end = s + n;

		while (t < end && (*t == ' ' || *t == '\t'))
			t++;
		parse_go_buf_capped(&p->timeout_text, s, n, PARSE_GO_TIMEOUT_CAP);
		parse_go_buf_capped(&p->timeout_text, "\n", 1, PARSE_GO_TIMEOUT_CAP);
		if ((size_t)(end - t) == 14 && memcmp(t, "running tests:", 14) == 0) {
			p->in_list = true;
		} else if (p->in_list && t > s) {
			/* "\t\tTestX/sub (2s)" */
			const char *sp = memchr(t, ' ', (size_t)(end - t));
			int i =
			    parse_go_find(p, t, sp != NULL ? (size_t)(sp - t) : (size_t)(end - t));

			if (i >= 0)
				p->tests[i].running_list = true;
		} else {
			p->in_list = false;
		}
		return;
	}
	if (p->dump == PARSE_GO_DUMP_BLOCK) {
		parse_go_buf_capped(&p->block, s, n, PARSE_GO_BLOCK_CAP);
		parse_go_buf_capped(&p->block, "\n", 1, PARSE_GO_BLOCK_CAP);
		if (s[0] != '\t' && !(n > 11 && memcmp(s, "created by ", 11) == 0))
			parse_go_frame(p, s, n);
	}
}

static void
parse_go_timeout_start(struct parse_go *p, const char *s, size_t n)
{
	size_t m = n;

	while (m > 0 && (s[m - 1] == '\r' || s[m - 1] == ' '))
		m--;
	p->dump = PARSE_GO_DUMP_HEAD;
	free(p->timeout_msg);
	p->timeout_msg = xstrndup(s + 7, m - 7 < 200 ? m - 7 : 200);
	buf_reset(&p->timeout_text);
	parse_go_buf_capped(&p->timeout_text, s, m, PARSE_GO_TIMEOUT_CAP);
	parse_go_buf_capped(&p->timeout_text, "\n", 1, PARSE_GO_TIMEOUT_CAP);
}

/* Where "panic: test timed out after " starts in s, or NULL; found from its
 * colon, which few output lines have many of. */
static const char *
parse_go_find_timeout(const char *s, size_t n)
{
	static const char head[] = "panic", tail[] = ": test timed out after ";
	const char *c = s, *end = s + n;

	while (c < end && (c = memchr(c, ':', (size_t)(end - c))) != NULL) {
		if (c - s >= 5 && (size_t)(end - c) >= sizeof tail - 1 &&
		    memcmp(c - 5, head, 5) == 0 && memcmp(c, tail, sizeof tail - 1) == 0)
			return c - 5;
		c++;
	}
	return NULL;
}

static bool
parse_go_starts(const char *s, size_t n, const char *word)
{
	size_t w = strlen(word);

	return n >= w && memcmp(s, word, w) == 0;
}

/* A line (or the part of one) that is not framing: the test's output, or
 * one of the few other lines the testing package prints. */
static void
parse_go_plain(struct parse_go *p, const char *s, size_t n, bool col0)
{
	size_t m = n;

	while (m > 0 && s[m - 1] == '\r')
		m--;
	if (p->dump != PARSE_GO_DUMP_NONE) {
		parse_go_dump_line(p, s, n);
		parse_go_output(p, s, n, true);
		return;
	}
	{
		const char *t = parse_go_find_timeout(s, m);

		if (t != NULL) {
			if (t > s)
				parse_go_output(p, s, (size_t)(t - s), true);
			parse_go_timeout_start(p, t, (size_t)(s + m - t));
			parse_go_output(p, t, (size_t)(s + n - t), true);
			return;
		}
	}
	if (col0) {
		if (parse_go_starts(s, m, "-test.shuffle ") && p->seed == NULL && p->ntests == 0 &&
		    m > 14 && m - 14 <= 32)
			p->seed = xstrndup(s + 14, m - 14);
		else if (m == 33 && memcmp(s, "testing: warning: no tests to run", 33) == 0)
			p->no_tests = true;
	}
	parse_go_output(p, s, n, true);
}

/* Where the next "=== " (which 0) or "--- " (which 1) at or after from
 * starts in s, or n. */
static size_t
parse_go_find_glue(const char *s, size_t n, size_t from, int which)
{
	char c = which == 0 ? '=' : '-';
	const char *hit = s + from, *end = s + n;

	/* memchr, not memmem: most lines have no such byte, and memmem's
	 * set-up would cost more than the short line it searches. */
	while (hit < end && (hit = memchr(hit, c, (size_t)(end - hit))) != NULL) {
		if (end - hit >= 4 && hit[1] == c && hit[2] == c && hit[3] == ' ')
			return (size_t)(hit - s);
		hit++;
	}
	return n;
}

/* Looks for a framing line glued after text a test printed without a
 * newline. Each occurrence is tried once, so the work stays linear. */
static bool
parse_go_glued(struct parse_go *p, const char *s, size_t n, bool col0)
{
	size_t from = col0 ? 1 : 0;
	size_t a = parse_go_find_glue(s, n, from, 0), b = parse_go_find_glue(s, n, from, 1);

	while (a < n || b < n) {
		size_t q = a < b ? a : b, k;

		if (q == a)
			a = parse_go_find_glue(s, n, q + 1, 0);
		else
			b = parse_go_find_glue(s, n, q + 1, 1);
		/* Only spaces before it: the column-0 rules already said no. */
		for (k = 0; k < q && s[k] == ' '; k++)
			;
		if (col0 && k == q)
			continue;
		if (parse_go_try(p, s, q, n, PARSE_GO_GLUED))
			return true;
	}
	return false;
}

static void
parse_go_line(struct parse_go *p, const char *s, size_t n)
{
	bool col0 = !p->line_cont;

	p->line_cont = false;
	if (p->framing) {
		const char *mk = memchr(s, PARSE_GO_MARKER, n), *end = s + n;

		if (mk == NULL) {
			parse_go_plain(p, s, n, col0);
			return;
		}
		if (mk > s)
			parse_go_plain(p, s, (size_t)(mk - s), col0);
		while (mk != NULL) {
			const char *seg = mk + 1;
			const char *next = memchr(seg, PARSE_GO_MARKER, (size_t)(end - seg));
			size_t len = (size_t)((next != NULL ? next : end) - seg);

			if (!parse_go_try(p, seg, 0, len, PARSE_GO_FRAMED))
				parse_go_plain(p, seg, len, false);
			mk = next;
		}
		return;
	}
	if (col0 && parse_go_try(p, s, 0, n, PARSE_GO_COL0))
		return;
	if (parse_go_glued(p, s, n, col0))
		return;
	parse_go_plain(p, s, n, col0);
}

/* The buffered line grew past PARSE_GO_LINE_MAX: its head goes out as
 * output, the last PARSE_GO_LINE_KEEP bytes stay. */
static void
parse_go_line_spill(struct parse_go *p)
{
	size_t out = p->line.len - PARSE_GO_LINE_KEEP;

	if (p->dump == PARSE_GO_DUMP_NONE)
		parse_go_output(p, p->line.data, out, false);
	else
		parse_go_capture_add(&p->orphan, &p->stored, p->line.data, out);
	memmove(p->line.data, p->line.data + out, PARSE_GO_LINE_KEEP);
	p->line.len = PARSE_GO_LINE_KEEP;
	p->line_cont = true;
}

static void
parse_go_line_add(struct parse_go *p, const char *data, size_t n)
{
	while (p->line.len + n > PARSE_GO_LINE_MAX) {
		size_t take = PARSE_GO_LINE_MAX - p->line.len;

		buf_add(&p->line, data, take);
		data += take;
		n -= take;
		parse_go_line_spill(p);
	}
	buf_add(&p->line, data, n);
}

void
parse_go_feed(struct parse_go *p, const char *data, size_t len)
{
	while (len > 0) {
		const char *nl = memchr(data, '\n', len);
		size_t n;

		if (nl == NULL) {
			parse_go_line_add(p, data, len);
			return;
		}
		n = (size_t)(nl - data);
		if (p->line.len == 0 && n <= PARSE_GO_LINE_MAX) {
			parse_go_line(p, data, n);
		} else {
			parse_go_line_add(p, data, n);
			parse_go_line(p, p->line.data, p->line.len);
			buf_reset(&p->line);
		}
		data += n + 1;
		len -= n + 1;
	}
}

/* How the process ended, in words, for reasons. */
static char *
parse_go_how(const struct proc_exit *ex)
{
	if (ex->signal != 0)
		return xasprintf("killed by signal %d", ex->signal);
	return xasprintf("exit status %d", ex->status);
}

/* Marks i as hung and its unfinished ancestors too. */
static void
parse_go_hang(struct parse_go *p, int i, const char *reason)
{
	for (; i >= 0; i = p->tests[i].parent) {
		struct parse_go_test *t = &p->tests[i];

		if (t->state == PARSE_GO_REPORTED || t->verdict == OUTCOME_HANG)
			break;
		t->verdict = OUTCOME_HANG;
		t->reason = reason;
	}
}

static size_t
parse_go_deepest(struct parse_go *p, int **out)
{
	size_t i, n = 0;
	int *v = xcalloc(p->ntests + 1, sizeof *v);

	for (i = p->ntests; i-- > 0;) {
		struct parse_go_test *t = &p->tests[i];

		if ((t->state == PARSE_GO_RUNNING || t->active_below) && t->parent >= 0)
			p->tests[t->parent].active_below = true;
	}
	for (i = 0; i < p->ntests; i++) {
		if (p->tests[i].state == PARSE_GO_RUNNING && !p->tests[i].active_below)
			v[n++] = (int)i;
	}
	*out = v;
	return n;
}

/* The hang's lines: Go's panic line and running list, then the goroutine
 * blocks of the test's top-level function. */
static char *
parse_go_hang_lines(const struct parse_go *p, const struct parse_go_test *t)
{
	const struct parse_go_test *top = &p->tests[t->top];
	struct buf b;

	buf_init(&b);
	buf_add(&b, p->timeout_text.data, p->timeout_text.len);
	if (top->stack.len > 0) {
		buf_addc(&b, '\n');
		buf_add(&b, top->stack.data, top->stack.len);
	}
	if (b.len > OUTCOME_LINES_CAP) {
		b.len = OUTCOME_LINES_CAP;
		b.data[b.len] = '\0';
	}
	return buf_steal(&b);
}

/* A failed test's kept output with its error lines first. */
static char *
parse_go_failure_text(const struct parse_go_capture *c)
{
	char *text = parse_go_capture_text(c), *lead;

	lead = excerpt_failure_first(text, OUTCOME_LINES_CAP);
	free(text);
	return lead;
}

void
parse_go_finish(struct parse_go *p, const struct proc_exit *ex, struct outcome *out)
{
	bool end_ok, any_fail = false;
	char *how = parse_go_how(ex), *pkg_reason = NULL, *test_reason = NULL;
	char *hang_reason = NULL;
	int *deep = NULL;
	size_t ndeep, i, j;

	if (p->line.len > 0) {
		parse_go_line(p, p->line.data, p->line.len);
		buf_reset(&p->line);
	}
	if (p->dump == PARSE_GO_DUMP_BLOCK)
		parse_go_block_end(p);
	for (i = 0; i < p->ntests; i++) {
		struct parse_go_test *t = &p->tests[i];

		t->verdict = t->state == PARSE_GO_REPORTED ? (int)t->status : -1;
		t->reason = NULL;
	}
	ndeep = parse_go_deepest(p, &deep);
	end_ok = ex->status == 0 && ex->signal == 0 && !ex->timed_out && p->final == OUTCOME_PASS;

	if (end_ok) {
		/* The binary says everything passed: result lines it lost
		 * or tests printed do not change that. */
		for (i = 0; i < p->ntests; i++) {
			struct parse_go_test *t = &p->tests[i];

			t->verdict = t->state == PARSE_GO_REPORTED && t->status == OUTCOME_SKIP
			                 ? OUTCOME_SKIP
			                 : OUTCOME_PASS;
		}
	} else if (p->timeout_msg != NULL) {
		size_t n = 0;

		hang_reason = xstrdup(p->timeout_msg);
		for (i = 0; i < p->ntests; i++) {
			if (p->tests[i].running_list && p->tests[i].state != PARSE_GO_REPORTED) {
				parse_go_hang(p, (int)i, hang_reason);
				n++;
			}
		}
		if (n == 0) {
			for (j = 0; j < ndeep; j++) {
				if (p->tests[p->tests[deep[j]].top].framed) {
					parse_go_hang(p, deep[j], hang_reason);
					n++;
				}
			}
		}
		if (n == 0) {
			for (j = 0; j < ndeep; j++)
				parse_go_hang(p, deep[j], hang_reason);
			n = ndeep;
		}
		if (n == 0)
			pkg_reason = xasprintf("%s with no test running", p->timeout_msg);
	} else if (ex->timed_out) {
		hang_reason = xstrdup("still running when the run was stopped at its time limit");
		for (j = 0; j < ndeep; j++)
			parse_go_hang(p, deep[j], hang_reason);
		if (ndeep == 0)
			pkg_reason = xstrdup("stopped at its time limit with no test running");
	} else if (p->final < 0) {
		/* The process ended inside the test loop. */
		if (ndeep == 1) {
			if (ex->signal != 0)
				test_reason = xasprintf("process killed by signal %d while running",
				                        ex->signal);
			else
				test_reason = xasprintf(
				    "process exited with status %d while running", ex->status);
			p->tests[deep[0]].verdict = OUTCOME_FAIL;
			p->tests[deep[0]].reason = test_reason;
		} else if (ndeep > 1) {
			pkg_reason = xasprintf("%s while %zu tests were running", how, ndeep);
		}
	}

	/* A parent whose subtest failed fails. */
	if (!end_ok) {
		for (i = p->ntests; i-- > 0;) {
			struct parse_go_test *t = &p->tests[i];

			if (t->verdict == OUTCOME_FAIL && t->parent >= 0) {
				struct parse_go_test *pt = &p->tests[t->parent];

				if (pt->verdict != OUTCOME_HANG && pt->verdict != OUTCOME_FAIL)
					pt->verdict = OUTCOME_FAIL;
			}
		}
	}
	for (i = 0; i < p->ntests; i++) {
		if (p->tests[i].verdict == OUTCOME_FAIL || p->tests[i].verdict == OUTCOME_HANG)
			any_fail = true;
	}
	if (pkg_reason == NULL && !any_fail && !end_ok) {
		if (ex->status == 0 && ex->signal == 0 && p->final < 0)
			pkg_reason = xstrdup("exit status 0 without a final PASS line");
		else if (p->final == OUTCOME_PASS)
			pkg_reason = xasprintf("%s after the final PASS line", how);
		else if (p->final == OUTCOME_FAIL)
			pkg_reason = xasprintf("FAIL with no failing test (%s)", how);
		else
			pkg_reason = xasprintf("%s with no test running", how);
	}

	for (i = 0; i < p->ntests; i++) {
		struct parse_go_test *t = &p->tests[i];
		struct outcome_test *ot;
		char *lines = NULL;

		if (t->verdict < 0)
			continue;
		if (t->verdict == OUTCOME_HANG && p->timeout_msg != NULL)
			lines = parse_go_hang_lines(p, t);
		else if (t->verdict == OUTCOME_FAIL || t->verdict == OUTCOME_HANG)
			lines = parse_go_failure_text(&t->out);
		ot = outcome_add(out, xstrdup(t->name), (enum outcome_status)t->verdict, lines);
		if (t->state == PARSE_GO_REPORTED)
			ot->ms = t->ms;
		if (t->reason != NULL)
			ot->reason = xstrdup(t->reason);
	}
	if (pkg_reason != NULL) {
		out->package_failed = true;
		out->package_reason = pkg_reason;
		/* Output no running test owned, the timeout dump included. */
		out->package_lines = parse_go_capture_text(&p->orphan);
		if (ndeep > 1 && p->timeout_msg == NULL && !ex->timed_out && p->final < 0) {
			out->candidates = xcalloc(ndeep + 1, sizeof *out->candidates);
			for (j = 0; j < ndeep; j++)
				out->candidates[j] = xstrdup(p->tests[deep[j]].name);
		}
	}
	if (p->unreliable_reason != NULL) {
		out->unreliable = true;
		out->unreliable_reason = xstrdup(p->unreliable_reason);
	}
	if (p->no_tests || (p->selected != NULL && !p->selected_seen))
		out->selection_failed = true;
	if (p->seed != NULL)
		out->seed = xstrdup(p->seed);
	free(deep);
	free(how);
	free(test_reason);
	free(hang_reason);
}

/* Appends s up to end with the regexp's special characters escaped. */
static void
parse_go_quote(struct buf *b, const char *s, const char *end)
{
	for (; s < end; s++) {
		if (strchr("\\.+*?()|[]{}^$", *s) != NULL)
			buf_addc(b, '\\');
		buf_addc(b, *s);
	}
}

char *
parse_go_run_alternation(char *const *tests)
{
	struct buf b;
	size_t i;

	buf_init(&b);
	buf_adds(&b, "^(");
	for (i = 0; tests[i] != NULL; i++) {
		if (i > 0)
			buf_addc(&b, '|');
		parse_go_quote(&b, tests[i], tests[i] + strlen(tests[i]));
	}
	buf_adds(&b, ")$");
	return buf_steal(&b);
}

char *
parse_go_run_pattern(const char *full_name)
{
	struct buf b;
	const char *s = full_name;

	buf_init(&b);
	buf_add(&b, "", 0);
	for (;;) {
		const char *slash = strchr(s, '/');
		const char *end = slash != NULL ? slash : s + strlen(s);

		buf_addc(&b, '^');
		parse_go_quote(&b, s, end);
		s = end;
		buf_addc(&b, '$');
		if (slash == NULL)
			break;
		buf_addc(&b, '/');
		s = slash + 1;
	}
	return buf_steal(&b);
}
