/* SPDX-License-Identifier: MIT */
/*
 * parse-tap.c: reads one TAP stream line by line into a tree of test points
 * (child streams become subtests of the point that closes them) and decides
 * at the end what the run showed (parse-tap.h lists the rules). It owns no
 * process and no output beyond capped copies of failing tests' diagnostics.
 */
#include "config.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "drivers/outcome.h"
#include "drivers/parse-tap.h"
#include "base/util.h"

#define PARSE_TAP_LINE_MAX 65536
#define PARSE_TAP_MAX_DEPTH 64
#define PARSE_TAP_REASON_MAX 200

struct parse_tap_test {
	char *name; /* relative to its parent */
	int status; /* an outcome_status, or -1: only names its children */
	int parent;
	int first_child, last_child, next_sibling;
	bool keep_lines;
	struct buf lines;
	uint64_t cut;
	const char *reason;
	char *point; /* a failure's own line: its lines when nothing follows */
};

struct parse_tap_level {
	int first, last; /* its points, in order, linked by next_sibling */
	char *announce;  /* "# Subtest: NAME" seen at this level */
	struct buf said; /* what that test printed since, at any level */
	uint64_t said_cut;
	long npoints;
	int nplans;
	long plan;
	long points_at_plan;
	bool skip_all;
	long bad_id, bad_expected;
};

enum parse_tap_kind {
	PARSE_TAP_OTHER,
	PARSE_TAP_POINT,
	PARSE_TAP_PLAN,
	PARSE_TAP_SUBTEST,
	PARSE_TAP_COMMENT,
	PARSE_TAP_VERSION,
	PARSE_TAP_PRAGMA,
};

struct parse_tap {
	char *selected;
	struct buf line;
	bool line_over; /* the current line passed PARSE_TAP_LINE_MAX */

	struct parse_tap_test *tests;
	size_t ntests, cap;
	struct parse_tap_level levels[PARSE_TAP_MAX_DEPTH + 1];
	int depth; /* the deepest open level */

	int diag;      /* the failing point comment lines go to, or -1 */
	int yaml;      /* in a YAML block for this test, -2 for one not kept, -1 not */
	int yaml_cand; /* the point a YAML block may follow, or -1 */
	size_t yaml_indent;
	long last_point; /* the number of the last top-level point */
	char *last_name;

	bool bailed;
	char *bail_reason;
	bool in_progress; /* the stream ended inside a test */
	struct buf orphan;
	uint64_t orphan_cut;
};

struct parse_tap *
parse_tap_new(const char *selected)
{
	struct parse_tap *p = xcalloc(1, sizeof *p);
	int i;

	if (selected != NULL)
		p->selected = xstrdup(selected);
	buf_init(&p->line);
	buf_init(&p->orphan);
	for (i = 0; i <= PARSE_TAP_MAX_DEPTH; i++) {
		buf_init(&p->levels[i].said);
		p->levels[i].first = p->levels[i].last = -1;
		p->levels[i].bad_id = -1;
	}
	p->diag = p->yaml = p->yaml_cand = -1;
	return p;
}

void
parse_tap_free(struct parse_tap *p)
{
	size_t i;
	int k;

	if (p == NULL)
		return;
	for (i = 0; i < p->ntests; i++) {
		free(p->tests[i].name);
		free(p->tests[i].point);
		buf_free(&p->tests[i].lines);
	}
	free(p->tests);
	for (k = 0; k <= PARSE_TAP_MAX_DEPTH; k++) {
		free(p->levels[k].announce);
		buf_free(&p->levels[k].said);
	}
	free(p->selected);
	free(p->last_name);
	free(p->bail_reason);
	buf_free(&p->line);
	buf_free(&p->orphan);
	free(p);
}

static int
parse_tap_add(struct parse_tap *p, char *name, int status)
{
	struct parse_tap_test *t;

	if (p->ntests == p->cap) {
		p->cap = p->cap ? p->cap * 2 : 16;
		p->tests = xrealloc(p->tests, p->cap * sizeof *p->tests);
	}
	t = &p->tests[p->ntests];
	memset(t, 0, sizeof *t);
	t->name = name;
	t->status = status;
	t->parent = t->first_child = t->last_child = t->next_sibling = -1;
	buf_init(&t->lines);
	return (int)p->ntests++;
}

/* Links test i as the last point of level k. */
static void
parse_tap_append(struct parse_tap *p, int k, int i)
{
	struct parse_tap_level *l = &p->levels[k];

	if (l->last >= 0)
		p->tests[l->last].next_sibling = i;
	else
		l->first = i;
	l->last = i;
}

/* Ends the announcement of level k: what the announced test printed
 * becomes the first lines of test t when t keeps lines (t < 0: none). */
static void
parse_tap_unannounce(struct parse_tap *p, int k, int t)
{
	struct parse_tap_level *l = &p->levels[k];

	if (t >= 0 && p->tests[t].keep_lines && l->said.len > 0) {
		buf_free(&p->tests[t].lines);
		p->tests[t].lines = l->said;
		p->tests[t].cut = l->said_cut;
		buf_init(&l->said);
	}
	buf_free(&l->said);
	l->said_cut = 0;
	free(l->announce);
	l->announce = NULL;
}

/* Moves the points of level k under test parent and empties the level. */
static void
parse_tap_adopt(struct parse_tap *p, int k, int parent)
{
	struct parse_tap_level *l = &p->levels[k];
	int c;

	for (c = l->first; c >= 0; c = p->tests[c].next_sibling)
		p->tests[c].parent = parent;
	p->tests[parent].first_child = l->first;
	p->tests[parent].last_child = l->last;
	parse_tap_unannounce(p, k, -1);
	memset(l, 0, sizeof *l);
	buf_init(&l->said);
	l->first = l->last = -1;
	l->bad_id = -1;
}

/* Closes the deepest level without the point that should end it: its
 * points go under a test named by the announcement one level up (or
 * "subtest") with the given status (-1: the parent only names them). */
static void
parse_tap_close(struct parse_tap *p, int status, const char *reason)
{
	struct parse_tap_level *up = &p->levels[p->depth - 1];
	int t = parse_tap_add(p, xstrdup(up->announce != NULL ? up->announce : "subtest"), status);

	p->tests[t].keep_lines = status >= 0;
	parse_tap_unannounce(p, p->depth - 1, t);
	p->tests[t].reason = reason;
	parse_tap_adopt(p, p->depth, t);
	parse_tap_append(p, p->depth - 1, t);
	p->depth--;
}

/* A line that is not TAP: the failing point's diagnostics, else what the
 * innermost announced test prints while it runs, else the package's. */
static void
parse_tap_diag(struct parse_tap *p, const char *s, size_t n)
{
	struct buf *b = NULL;
	uint64_t *cut = NULL;
	int k;

	if (p->diag >= 0) {
		b = &p->tests[p->diag].lines;
		cut = &p->tests[p->diag].cut;
	}
	for (k = p->depth; b == NULL && k >= 0; k--) {
		if (p->levels[k].announce != NULL) {
			b = &p->levels[k].said;
			cut = &p->levels[k].said_cut;
		}
	}
	if (b == NULL && p->depth == 0) {
		b = &p->orphan;
		cut = &p->orphan_cut;
	}
	if (b != NULL) {
		outcome_keep(b, cut, s, n);
		outcome_keep(b, cut, "\n", 1);
	}
}

static bool
parse_tap_word(const char *s, size_t n, const char *w)
{
	size_t k = strlen(w);

	return n >= k && memcmp(s, w, k) == 0 && (n == k || s[k] == ' ' || s[k] == '\t');
}

static enum parse_tap_kind
parse_tap_classify(const char *t, size_t n)
{
	if (parse_tap_word(t, n, "ok") || parse_tap_word(t, n, "not ok"))
		return PARSE_TAP_POINT;
	if (n >= 4 && memcmp(t, "1..", 3) == 0 && t[3] >= '0' && t[3] <= '9')
		return PARSE_TAP_PLAN;
	if (n >= 9 && memcmp(t, "# Subtest", 9) == 0 && (n == 9 || t[9] == ':' || t[9] == ' '))
		return PARSE_TAP_SUBTEST;
	if (n >= 1 && t[0] == '#')
		return PARSE_TAP_COMMENT;
	if (n >= 12 && memcmp(t, "TAP version ", 12) == 0)
		return PARSE_TAP_VERSION;
	if (parse_tap_word(t, n, "pragma"))
		return PARSE_TAP_PRAGMA;
	return PARSE_TAP_OTHER;
}

static char *
parse_tap_trimmed(const char *s, size_t n)
{
	while (n > 0 && (*s == ' ' || *s == '\t')) {
		s++;
		n--;
	}
	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	return xstrndup(s, n);
}

/* A point's description with \# and \\ unescaped, a NUL kept as \x00. */
static char *
parse_tap_unescape(const char *s, size_t n)
{
	struct buf b;
	size_t i;

	while (n > 0 && (*s == ' ' || *s == '\t')) {
		s++;
		n--;
	}
	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	buf_init(&b);
	buf_add(&b, "", 0);
	for (i = 0; i < n; i++) {
		if (s[i] == '\\' && i + 1 < n && (s[i + 1] == '#' || s[i + 1] == '\\'))
			i++;
		if (s[i] == '\0')
			buf_adds(&b, "\\x00");
		else
			buf_addc(&b, s[i]);
	}
	return buf_steal(&b);
}

static bool
parse_tap_directive(const char *d, size_t n, const char *word)
{
	return n >= 4 && strncasecmp(d, word, 4) == 0 &&
	       (n == 4 || !((d[4] >= 'a' && d[4] <= 'z') || (d[4] >= 'A' && d[4] <= 'Z')));
}

static void
parse_tap_point(struct parse_tap *p, int lvl, const char *t, size_t n)
{
	struct parse_tap_level *l = &p->levels[lvl];
	bool ok = t[0] == 'o';
	size_t i = ok ? 2 : 6, dstart, dend;
	long id = -1;
	int status = ok ? OUTCOME_PASS : OUTCOME_FAIL, ti;
	char *desc;

	while (i < n && (t[i] == ' ' || t[i] == '\t'))
		i++;
	if (i < n && t[i] >= '0' && t[i] <= '9') {
		id = 0;
		while (i < n && t[i] >= '0' && t[i] <= '9') {
			if (id < 100000000L)
				id = id * 10 + (t[i] - '0');
			i++;
		}
	}
	while (i < n && (t[i] == ' ' || t[i] == '\t'))
		i++;
	if (i < n && t[i] == '-' && (i + 1 == n || t[i + 1] == ' ' || t[i + 1] == '\t'))
		i++;
	dstart = i;
	/* The directive starts at an unescaped '#'. */
	for (dend = dstart; dend < n; dend++) {
		if (t[dend] == '\\' && dend + 1 < n) {
			dend++;
			continue;
		}
		if (t[dend] == '#')
			break;
	}
	if (dend < n) {
		const char *d = t + dend + 1;
		size_t dn = n - dend - 1;

		while (dn > 0 && (*d == ' ' || *d == '\t')) {
			d++;
			dn--;
		}
		if (parse_tap_directive(d, dn, "skip") || parse_tap_directive(d, dn, "todo"))
			status = OUTCOME_SKIP;
	}
	l->npoints++;
	if (id >= 0 && id != l->npoints && l->bad_id < 0) {
		l->bad_id = id;
		l->bad_expected = l->npoints;
	}
	desc = parse_tap_unescape(t + dstart, dend - dstart);
	if (desc[0] == '\0') {
		free(desc);
		desc = xasprintf("test %ld", id >= 0 ? id : l->npoints);
	}
	ti = parse_tap_add(p, desc, status);
	if (p->depth == lvl + 1)
		parse_tap_adopt(p, lvl + 1, ti);
	p->depth = lvl;
	parse_tap_append(p, lvl, ti);
	p->tests[ti].keep_lines = status == OUTCOME_FAIL;
	if (status == OUTCOME_FAIL)
		p->tests[ti].point = xasprintf("%.*s\n", (int)n, t);
	parse_tap_unannounce(p, lvl, ti);
	p->diag = status == OUTCOME_FAIL ? ti : -1;
	p->yaml_cand = ti;
	p->yaml_indent = (size_t)lvl * 4 + 2;
	if (lvl == 0) {
		p->last_point = l->npoints;
		free(p->last_name);
		p->last_name = xstrdup(p->tests[ti].name);
	}
}

static void
parse_tap_plan(struct parse_tap *p, int lvl, const char *t, size_t n)
{
	struct parse_tap_level *l = &p->levels[lvl];
	size_t i = 3;
	long v = 0;
	const char *hash;

	while (i < n && t[i] >= '0' && t[i] <= '9') {
		if (v < 100000000L)
			v = v * 10 + (t[i] - '0');
		i++;
	}
	l->nplans++;
	l->plan = v;
	l->points_at_plan = l->npoints;
	hash = memchr(t + i, '#', n - i);
	if (v == 0 && hash != NULL) {
		const char *d = hash + 1;
		size_t dn = (size_t)(t + n - d);

		while (dn > 0 && (*d == ' ' || *d == '\t')) {
			d++;
			dn--;
		}
		l->skip_all = parse_tap_directive(d, dn, "skip");
	}
	p->diag = -1;
}

static void
parse_tap_line(struct parse_tap *p, const char *s, size_t n)
{
	size_t indent = 0, tn;
	const char *t;
	enum parse_tap_kind kind;
	int lvl;

	while (n > 0 && s[n - 1] == '\r')
		n--;
	if (p->bailed)
		return;
	while (indent < n && s[indent] == ' ')
		indent++;
	t = s + indent;
	tn = n - indent;
	if (p->yaml != -1) {
		if (indent == p->yaml_indent && tn == 3 && memcmp(t, "...", 3) == 0) {
			p->yaml = -1;
			return;
		}
		if (indent >= p->yaml_indent || tn == 0) {
			if (p->yaml >= 0) {
				struct parse_tap_test *y = &p->tests[p->yaml];
				size_t skip = indent < p->yaml_indent ? indent : p->yaml_indent;

				outcome_keep(&y->lines, &y->cut, s + skip, n - skip);
				outcome_keep(&y->lines, &y->cut, "\n", 1);
			}
			return;
		}
		p->yaml = -1;
	}
	if (p->yaml_cand >= 0) {
		int cand = p->yaml_cand;

		p->yaml_cand = -1;
		if (indent == p->yaml_indent && tn == 3 && memcmp(t, "---", 3) == 0) {
			p->yaml = p->tests[cand].keep_lines ? cand : -2;
			return;
		}
	}
	if (tn == 0)
		return;
	if (tn >= 9 && strncasecmp(t, "Bail out!", 9) == 0) {
		p->bailed = true;
		p->bail_reason = xstrndup(t, tn < PARSE_TAP_REASON_MAX ? tn : PARSE_TAP_REASON_MAX);
		return;
	}
	kind = parse_tap_classify(t, tn);
	if (kind == PARSE_TAP_OTHER || kind == PARSE_TAP_COMMENT || indent % 4 != 0 ||
	    indent / 4 > PARSE_TAP_MAX_DEPTH - 1) {
		parse_tap_diag(p, s, n);
		return;
	}
	if (kind == PARSE_TAP_VERSION || kind == PARSE_TAP_PRAGMA)
		return;
	lvl = (int)(indent / 4);
	/* A structural line below open child streams: the streams deeper
	 * than the one this point closes ended without their point. */
	while (p->depth > lvl + (kind == PARSE_TAP_POINT ? 1 : 0))
		parse_tap_close(p, OUTCOME_FAIL, "subtest ended without its result");
	if (p->depth < lvl)
		p->depth = lvl;
	switch (kind) {
	case PARSE_TAP_POINT:
		parse_tap_point(p, lvl, t, tn);
		break;
	case PARSE_TAP_PLAN:
		parse_tap_plan(p, lvl, t, tn);
		break;
	case PARSE_TAP_SUBTEST: {
		const char *name = t + 9;
		size_t nn = tn - 9;

		if (nn > 0 && *name == ':') {
			name++;
			nn--;
		}
		parse_tap_unannounce(p, lvl, -1);
		p->levels[lvl].announce = parse_tap_trimmed(name, nn);
		if (p->levels[lvl].announce[0] == '\0') {
			free(p->levels[lvl].announce);
			p->levels[lvl].announce = NULL;
		}
		p->diag = -1;
		break;
	}
	default:
		break;
	}
}

void
parse_tap_feed(struct parse_tap *p, const char *data, size_t len)
{
	while (len > 0) {
		const char *nl = memchr(data, '\n', len);
		size_t n = nl != NULL ? (size_t)(nl - data) : len;

		if (!p->line_over) {
			size_t take = n;

			if (p->line.len + take > PARSE_TAP_LINE_MAX) {
				take = PARSE_TAP_LINE_MAX - p->line.len;
				p->line_over = true;
			}
			if (nl != NULL && p->line.len == 0 && !p->line_over) {
				parse_tap_line(p, data, n);
				data += n + 1;
				len -= n + 1;
				continue;
			}
			buf_add(&p->line, data, take);
		}
		if (nl == NULL)
			return;
		parse_tap_line(p, p->line.data, p->line.len);
		buf_reset(&p->line);
		p->line_over = false;
		data += n + 1;
		len -= n + 1;
	}
}

/* Writes the full names of the tree under level 0 into names, in pre-order,
 * and the tests they belong to into ids. */
static size_t
parse_tap_flatten(struct parse_tap *p, char **names, int *ids)
{
	size_t n = 0;
	int i = p->levels[0].first;
	struct buf path;

	buf_init(&path);
	while (i >= 0) {
		struct parse_tap_test *t = &p->tests[i];
		int up;

		int chain[PARSE_TAP_MAX_DEPTH + 2], nc = 0;

		for (up = i; up >= 0 && nc < PARSE_TAP_MAX_DEPTH + 2; up = p->tests[up].parent)
			chain[nc++] = up;
		buf_reset(&path);
		buf_add(&path, "", 0);
		while (nc-- > 0) {
			buf_adds(&path, p->tests[chain[nc]].name);
			if (nc > 0)
				buf_addc(&path, '/');
		}
		names[n] = xstrdup(path.data);
		ids[n++] = i;
		if (t->first_child >= 0) {
			i = t->first_child;
			continue;
		}
		while (i >= 0 && p->tests[i].next_sibling < 0)
			i = p->tests[i].parent;
		if (i >= 0)
			i = p->tests[i].next_sibling;
	}
	buf_free(&path);
	return n;
}

static char **parse_tap_sort_names;

static int
parse_tap_cmp(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	int c = strcmp(parse_tap_sort_names[x], parse_tap_sort_names[y]);

	if (c != 0)
		return c;
	return x < y ? -1 : x > y;
}

/* Gives the second and later tests of one name "#01", "#02"... */
static void
parse_tap_unique(char **names, size_t n)
{
	size_t *order = xcalloc(n + 1, sizeof *order), i, j;

	for (i = 0; i < n; i++)
		order[i] = i;
	parse_tap_sort_names = names;
	qsort(order, n, sizeof *order, parse_tap_cmp);
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && strcmp(names[order[i]], names[order[j]]) == 0; j++) {
			char *s = xasprintf("%s#%02zu", names[order[j]], j - i);

			free(names[order[j]]);
			names[order[j]] = s;
		}
	}
	parse_tap_sort_names = NULL;
	free(order);
}

void
parse_tap_finish(struct parse_tap *p, const struct proc_exit *ex, struct outcome *out)
{
	struct parse_tap_level *root = &p->levels[0];
	char *reason = NULL, *pkg = NULL, **names;
	int *ids;
	size_t n, i;
	bool any_fail = false, selected_seen = false;

	if (p->line.len > 0) {
		parse_tap_line(p, p->line.data, p->line.len);
		buf_reset(&p->line);
	}
	if (p->bailed) {
		while (p->depth > 0)
			parse_tap_close(p, -1, NULL);
	} else {
		int st = ex->timed_out ? OUTCOME_HANG : OUTCOME_FAIL;

		if (ex->timed_out)
			reason =
			    xstrdup("still running when the run was stopped at its time limit");
		else if (ex->signal != 0)
			reason = xasprintf("process killed by signal %d while running", ex->signal);
		else
			reason =
			    xasprintf("process exited with status %d while running", ex->status);
		if (p->levels[p->depth].announce != NULL) {
			struct parse_tap_level *l = &p->levels[p->depth];
			int t = parse_tap_add(p, xstrdup(l->announce), st);

			p->tests[t].reason = reason;
			p->tests[t].keep_lines = true;
			parse_tap_unannounce(p, p->depth, t);
			parse_tap_append(p, p->depth, t);
			p->in_progress = true;
		}
		while (p->depth > 0) {
			parse_tap_close(p, st, reason);
			p->tests[p->ntests - 1].keep_lines = true;
			p->in_progress = true;
		}
	}

	names = xcalloc(p->ntests + 1, sizeof *names);
	ids = xcalloc(p->ntests + 1, sizeof *ids);
	n = parse_tap_flatten(p, names, ids);
	parse_tap_unique(names, n);
	for (i = 0; i < n; i++) {
		struct parse_tap_test *t = &p->tests[ids[i]];
		struct outcome_test *ot;
		char *lines = NULL;

		if (p->selected != NULL && strcmp(names[i], p->selected) == 0)
			selected_seen = true;
		if (t->status < 0) {
			free(names[i]);
			continue;
		}
		if (t->status == OUTCOME_FAIL || t->status == OUTCOME_HANG) {
			/* A bare `not ok` is its own first failure. */
			if (t->lines.len == 0 && t->cut == 0 && t->point != NULL)
				lines = xstrdup(t->point);
			else
				lines = outcome_kept(&t->lines, t->cut);
			any_fail = true;
		}
		ot = outcome_add(out, names[i], (enum outcome_status)t->status, lines);
		if (t->reason != NULL)
			ot->reason = xstrdup(t->reason);
	}
	free(names);
	free(ids);

	if (p->bailed) {
		pkg = xstrdup(p->bail_reason);
	} else if (p->in_progress) {
		/* The test that was running explains the run's end. */
	} else if (ex->timed_out) {
		if (p->last_name != NULL)
			pkg = xasprintf("stopped at its time limit after test point %ld (%s)",
			                p->last_point, p->last_name);
		else
			pkg = xstrdup("stopped at its time limit before the first test point");
	} else if (root->nplans == 0 && p->selected != NULL && selected_seen && n == 1) {
		/* A runner asked for one test may print its one result line and
		 * no plan (libuv's does): that is no package failure. */
	} else if (root->nplans == 0) {
		pkg = xasprintf("no plan: the stream ended after %ld test points", root->npoints);
	} else if (root->nplans > 1) {
		pkg = xasprintf("%d plans in one stream", root->nplans);
	} else if (root->points_at_plan > 0 && root->points_at_plan < root->npoints) {
		pkg = xstrdup("the plan came between test points");
	} else if (root->npoints != root->plan && !(root->skip_all && root->npoints == 0)) {
		pkg = xasprintf("planned %ld tests but ran %ld", root->plan, root->npoints);
	} else if (root->bad_id >= 0) {
		pkg = xasprintf("test point numbered %ld where %ld was expected", root->bad_id,
		                root->bad_expected);
	}
	if (pkg == NULL && !any_fail && (ex->status != 0 || ex->signal != 0)) {
		if (ex->signal != 0)
			pkg = xasprintf("killed by signal %d", ex->signal);
		else
			pkg = xasprintf("exit status %d", ex->status);
	}
	if (pkg != NULL) {
		out->package_failed = true;
		out->package_reason = pkg;
		out->package_lines =
		    p->orphan.len > 0 ? outcome_kept(&p->orphan, p->orphan_cut) : NULL;
	}
	if (p->selected != NULL && !selected_seen)
		out->selection_failed = true;
	free(reason);
}
