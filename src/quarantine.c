/* SPDX-License-Identifier: MIT */
/*
 * quarantine.c: reads and checks the quarantine file, judges each entry from
 * the evidence of a sweep's results and an ambient ledger, appends entries
 * without disturbing the rest of the file, and exports skip lists. It never
 * runs or skips a test itself: a quarantined test is still swept, which is
 * how its entry becomes stale.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "json.h"
#include "quarantine.h"
#include "sanitize.h"
#include "util.h"

#define QUARANTINE_MS_PER_DAY INT64_C(86400000)
#define QUARANTINE_MAX_RESULTS_BYTES ((size_t)512 << 20)

/* The fields of an entry, in the order a new file writes them. */
static const char *const quarantine_fields[] = {
    "test", "channel", "reason", "owner", "issue", "expires",
};
enum {
	QF_TEST,
	QF_CHANNEL,
	QF_REASON,
	QF_OWNER,
	QF_ISSUE,
	QF_EXPIRES,
	QF_COUNT,
};

/* Dates. Days since 1970-01-01 in the proleptic Gregorian calendar, after
 * Howard Hinnant's days_from_civil: no timegm(), no time zone. */
static int64_t
quarantine_days_from_civil(int64_t y, int m, int d)
{
	int64_t era, yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

static int
quarantine_days_in_month(int y, int m)
{
	static const int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
	bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;

	return m == 2 && leap ? 29 : days[m - 1];
}

static bool
quarantine_digits(const char *s, int n, int *out)
{
	int i, v = 0;

	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		v = v * 10 + (s[i] - '0');
	}
	*out = v;
	return true;
}

int
quarantine_parse_date(const char *s, int64_t *days)
{
	int y, m, d;

	if (s == NULL || strlen(s) != 10 || s[4] != '-' || s[7] != '-')
		return -EINVAL;
	if (!quarantine_digits(s, 4, &y) || !quarantine_digits(s + 5, 2, &m) ||
	    !quarantine_digits(s + 8, 2, &d))
		return -EINVAL;
	if (y < 1970 || m < 1 || m > 12 || d < 1 || d > quarantine_days_in_month(y, m))
		return -EINVAL;
	*days = quarantine_days_from_civil(y, m, d);
	return 0;
}

int
quarantine_parse_time(const char *s, int64_t *ms)
{
	int64_t days;
	int hh, mm, ss;
	char date[11];

	if (s == NULL || strlen(s) < 10)
		return -EINVAL;
	memcpy(date, s, 10);
	date[10] = '\0';
	if (quarantine_parse_date(date, &days) < 0)
		return -EINVAL;
	if (s[10] == '\0') {
		*ms = days * QUARANTINE_MS_PER_DAY;
		return 0;
	}
	if (strlen(s) != 20 || (s[10] != 'T' && s[10] != 't') || s[13] != ':' || s[16] != ':' ||
	    (s[19] != 'Z' && s[19] != 'z'))
		return -EINVAL;
	if (!quarantine_digits(s + 11, 2, &hh) || !quarantine_digits(s + 14, 2, &mm) ||
	    !quarantine_digits(s + 17, 2, &ss) || hh > 23 || mm > 59 || ss > 59)
		return -EINVAL;
	*ms = days * QUARANTINE_MS_PER_DAY + ((int64_t)hh * 3600 + mm * 60 + ss) * 1000;
	return 0;
}

/* A positive decimal without sign or leading zero, up to 1<<20. */
static bool
quarantine_parse_count(const char *s, size_t n, int *out)
{
	size_t i;
	long v = 0;

	if (n == 0 || n > 7 || s[0] == '0')
		return false;
	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		v = v * 10 + (s[i] - '0');
	}
	if (v > 1 << 20)
		return false;
	*out = (int)v;
	return true;
}

int
quarantine_channel_parse(const char *s, struct quarantine_channel *out)
{
	struct quarantine_channel ch = {QUARANTINE_CHANNEL_ANY, 0, 0};
	const char *comma;

	if (s == NULL)
		return -EINVAL;
	if (strcmp(s, "any") == 0) {
		ch.kind = QUARANTINE_CHANNEL_ANY;
	} else if (strcmp(s, "clock") == 0) {
		ch.kind = QUARANTINE_CHANNEL_CLOCK;
	} else if (strcmp(s, "rng") == 0) {
		ch.kind = QUARANTINE_CHANNEL_RNG;
	} else if (strcmp(s, "net") == 0) {
		ch.kind = QUARANTINE_CHANNEL_NET;
	} else if (strncmp(s, "env:", 4) == 0) {
		if (!ledger_channel_valid(s))
			return -EINVAL;
		ch.kind = QUARANTINE_CHANNEL_ENV;
	} else if (strncmp(s, "cpu=", 4) == 0) {
		ch.kind = QUARANTINE_CHANNEL_PAIR;
		comma = strchr(s, ',');
		if (!quarantine_parse_count(s + 4, comma ? (size_t)(comma - s - 4) : strlen(s + 4),
		                            &ch.cpu))
			return -EINVAL;
		if (comma != NULL) {
			if (strncmp(comma + 1, "load=", 5) != 0 ||
			    !quarantine_parse_count(comma + 6, strlen(comma + 6), &ch.load))
				return -EINVAL;
		}
	} else if (strncmp(s, "load=", 5) == 0) {
		ch.kind = QUARANTINE_CHANNEL_PAIR;
		if (!quarantine_parse_count(s + 5, strlen(s + 5), &ch.load))
			return -EINVAL;
	} else {
		return -EINVAL;
	}
	*out = ch;
	return 0;
}

/* Where things are in the text. cJSON parses and checks the file but keeps
 * no positions, so a small scanner walks the same (already valid) text to
 * find each entry and member: for line numbers in messages, and for
 * splicing a new entry in without reprinting the rest. cJSON keeps members
 * in file order, so the k-th member found here is the k-th child there. */
struct quarantine_member_pos {
	size_t key, key_end, value, value_end;
};

struct quarantine_elem_pos {
	size_t start, end; /* the element's text is [start, end) */
	bool object;
	size_t open, close; /* object: offsets of '{' and '}' */
	struct quarantine_member_pos *members;
	size_t nmembers;
};

struct quarantine_pos {
	size_t open, close; /* the top-level array's '[' and ']' */
	struct quarantine_elem_pos *elems;
	size_t nelems;
};

#define QUARANTINE_SCAN_FAIL ((size_t)-1)

/* Makes room in array p (n elements of size bytes) for one more, doubling
 * its allocation at each power of two so n appends cost O(n). */
static void *
quarantine_grow(void *p, size_t n, size_t size)
{
	if (n == 0 || (n & (n - 1)) == 0)
		p = xrealloc(p, size * (n == 0 ? 1 : 2 * n));
	return p;
}

static size_t
quarantine_scan_ws(const char *s, size_t n, size_t i)
{
	while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\n'))
		i++;
	return i;
}

static size_t quarantine_scan_value(const char *s, size_t n, size_t i, int depth);

static size_t
quarantine_scan_string(const char *s, size_t n, size_t i)
{
	if (i >= n || s[i] != '"')
		return QUARANTINE_SCAN_FAIL;
	for (i++; i < n; i++) {
		if (s[i] == '\\')
			i++;
		else if (s[i] == '"')
			return i + 1;
	}
	return QUARANTINE_SCAN_FAIL;
}

static size_t
quarantine_scan_container(const char *s, size_t n, size_t i, int depth)
{
	char close = s[i] == '{' ? '}' : ']';
	bool object = s[i] == '{';

	if (depth > 1000)
		return QUARANTINE_SCAN_FAIL;
	i = quarantine_scan_ws(s, n, i + 1);
	if (i < n && s[i] == close)
		return i + 1;
	for (;;) {
		if (object) {
			i = quarantine_scan_string(s, n, i);
			if (i == QUARANTINE_SCAN_FAIL)
				return i;
			i = quarantine_scan_ws(s, n, i);
			if (i >= n || s[i] != ':')
				return QUARANTINE_SCAN_FAIL;
			i = quarantine_scan_ws(s, n, i + 1);
		}
		i = quarantine_scan_value(s, n, i, depth + 1);
		if (i == QUARANTINE_SCAN_FAIL)
			return i;
		i = quarantine_scan_ws(s, n, i);
		if (i < n && s[i] == close)
			return i + 1;
		if (i >= n || s[i] != ',')
			return QUARANTINE_SCAN_FAIL;
		i = quarantine_scan_ws(s, n, i + 1);
	}
}

static size_t
quarantine_scan_value(const char *s, size_t n, size_t i, int depth)
{
	if (i >= n)
		return QUARANTINE_SCAN_FAIL;
	if (s[i] == '"')
		return quarantine_scan_string(s, n, i);
	if (s[i] == '{' || s[i] == '[')
		return quarantine_scan_container(s, n, i, depth);
	while (i < n && strchr(",]} \t\r\n", s[i]) == NULL)
		i++;
	return i;
}

static void
quarantine_pos_free(struct quarantine_pos *p)
{
	size_t i;

	for (i = 0; i < p->nelems; i++)
		free(p->elems[i].members);
	free(p->elems);
	memset(p, 0, sizeof *p);
}

/* Fills p for the top-level array of s; returns 0 or -EINVAL. */
static int
quarantine_scan(const char *s, size_t n, struct quarantine_pos *p)
{
	size_t i = 0;

	memset(p, 0, sizeof *p);
	if (n >= 3 && memcmp(s, "\xEF\xBB\xBF", 3) == 0)
		i = 3;
	i = quarantine_scan_ws(s, n, i);
	if (i >= n || s[i] != '[')
		return -EINVAL;
	p->open = i;
	i = quarantine_scan_ws(s, n, i + 1);
	while (i < n && s[i] != ']') {
		struct quarantine_elem_pos *e;
		size_t end;

		p->elems = quarantine_grow(p->elems, p->nelems, sizeof *p->elems);
		e = &p->elems[p->nelems++];
		memset(e, 0, sizeof *e);
		e->start = i;
		if (s[i] == '{') {
			e->object = true;
			e->open = i;
			i = quarantine_scan_ws(s, n, i + 1);
			while (i < n && s[i] != '}') {
				struct quarantine_member_pos *m;

				e->members =
				    quarantine_grow(e->members, e->nmembers, sizeof *e->members);
				m = &e->members[e->nmembers++];
				m->key = i;
				m->key_end = quarantine_scan_string(s, n, i);
				if (m->key_end == QUARANTINE_SCAN_FAIL)
					goto fail;
				i = quarantine_scan_ws(s, n, m->key_end);
				if (i >= n || s[i] != ':')
					goto fail;
				m->value = quarantine_scan_ws(s, n, i + 1);
				m->value_end = quarantine_scan_value(s, n, m->value, 2);
				if (m->value_end == QUARANTINE_SCAN_FAIL)
					goto fail;
				i = quarantine_scan_ws(s, n, m->value_end);
				if (i < n && s[i] == ',')
					i = quarantine_scan_ws(s, n, i + 1);
				else if (i >= n || s[i] != '}')
					goto fail;
			}
			if (i >= n)
				goto fail;
			e->close = i;
			end = i + 1;
		} else {
			end = quarantine_scan_value(s, n, i, 1);
			if (end == QUARANTINE_SCAN_FAIL)
				goto fail;
		}
		e->end = end;
		i = quarantine_scan_ws(s, n, end);
		if (i < n && s[i] == ',')
			i = quarantine_scan_ws(s, n, i + 1);
		else if (i >= n || s[i] != ']')
			goto fail;
	}
	if (i >= n)
		goto fail;
	p->close = i;
	return 0;
fail:
	quarantine_pos_free(p);
	return -EINVAL;
}

/* 1-based line of offset off in s. */
static int
quarantine_line_of(const char *s, size_t n, size_t off)
{
	size_t i;
	int line = 1;

	for (i = 0; i < off && i < n; i++)
		line += s[i] == '\n';
	return line;
}

/* Line numbers for offsets that mostly grow, without rescanning the text
 * from its start each time. */
struct quarantine_cursor {
	const char *s;
	size_t n;
	size_t off;
	int line;
};

static int
quarantine_cursor_line(struct quarantine_cursor *c, size_t off)
{
	if (off < c->off) {
		c->off = 0;
		c->line = 1;
	}
	for (; c->off < off && c->off < c->n; c->off++)
		c->line += c->s[c->off] == '\n';
	return c->line;
}

static void
quarantine_problem_add(struct quarantine *q, int index, int line, bool warning, char *message)
{
	struct quarantine_problem *p;

	q->problems = quarantine_grow(q->problems, q->nproblems, sizeof *q->problems);
	p = &q->problems[q->nproblems++];
	p->index = index;
	p->line = line;
	p->warning = warning;
	p->message = message;
	if (!warning)
		q->nerrors++;
}

/* Records an error about one field of entry e. */
static void
quarantine_field_error(struct quarantine *q, struct quarantine_entry *e, int line,
                       const char *field, const char *what)
{
	quarantine_problem_add(
	    q, e->index, line, false,
	    xasprintf(_("%s:%d: entry %d: %s: %s"), q->path, line, e->index, field, what));
	e->valid = false;
}

/* Checks one field's value; returns NULL or what is wrong (caller frees).
 * Shared by the file's validation and by quarantine_add. */
static char *
quarantine_check_field(int field, const char *v)
{
	struct quarantine_channel ch;
	int64_t days;

	if (v == NULL)
		return xstrdup(_("missing"));
	if (field != QF_REASON && v[0] == '\0')
		return xstrdup(_("empty"));
	/* The file is JSON: UTF-8 only. */
	if (!json_utf8_valid(v, strlen(v)))
		return xstrdup(_("not valid UTF-8"));
	switch (field) {
	case QF_TEST: {
		const char *sep = strstr(v, "::");

		if (sep == NULL || sep == v || sep[2] == '\0')
			return xasprintf(_("\"%s\" is not a test id (PACKAGE::TEST)"), v);
		break;
	}
	case QF_CHANNEL:
		if (quarantine_channel_parse(v, &ch) < 0)
			return xasprintf(_("unknown channel \"%s\" (expected cpu=C, load=L, "
			                   "cpu=C,load=L, any, clock, rng, net or env:NAME)"),
			                 v);
		break;
	case QF_EXPIRES:
		if (quarantine_parse_date(v, &days) < 0)
			return xasprintf(_("\"%s\" is not a date (YYYY-MM-DD)"), v);
		break;
	default:
		break;
	}
	return NULL;
}

static char **
quarantine_entry_field(struct quarantine_entry *e, int field)
{
	switch (field) {
	case QF_TEST:
		return &e->test;
	case QF_CHANNEL:
		return &e->channel;
	case QF_REASON:
		return &e->reason;
	case QF_OWNER:
		return &e->owner;
	case QF_ISSUE:
		return &e->issue;
	default:
		return &e->expires;
	}
}

static int
quarantine_field_index(const char *name)
{
	size_t i;

	for (i = 0; i < UTIL_ARRAY_LEN(quarantine_fields); i++) {
		if (strcmp(quarantine_fields[i], name) == 0)
			return (int)i;
	}
	return -1;
}

static void
quarantine_check_entry(struct quarantine *q, struct quarantine_entry *e, const cJSON *obj,
                       const struct quarantine_elem_pos *pos, struct quarantine_cursor *cur)
{
	int field_line[QF_COUNT] = {0};
	const cJSON *child;
	size_t k = 0;
	int f;

	e->valid = true;
	if (!cJSON_IsObject(obj)) {
		quarantine_problem_add(q, e->index, e->line, false,
		                       xasprintf(_("%s:%d: entry %d: expected an object"), q->path,
		                                 e->line, e->index));
		e->valid = false;
		return;
	}
	for (child = obj->child; child != NULL; child = child->next, k++) {
		int line =
		    k < pos->nmembers ? quarantine_cursor_line(cur, pos->members[k].key) : e->line;

		/* cJSON takes invalid UTF-8 and cuts a string at a NUL: the
		 * member's own text must be clean JSON. */
		if (k < pos->nmembers) {
			const struct quarantine_member_pos *mp = &pos->members[k];
			const char *why;
			size_t off;

			if (json_check(cur->s + mp->key, mp->key_end - mp->key, &off, &why) < 0 ||
			    json_check(cur->s + mp->value, mp->value_end - mp->value, &off, &why) <
			        0) {
				quarantine_field_error(q, e, line, child->string, why);
				f = quarantine_field_index(child->string);
				if (f >= 0)
					field_line[f] = line;
				continue;
			}
		}
		f = quarantine_field_index(child->string);
		if (f < 0) {
			quarantine_problem_add(
			    q, e->index, line, true,
			    xasprintf(_("%s:%d: entry %d: warning: unknown field \"%s\" (ignored)"),
			              q->path, line, e->index, child->string));
			continue;
		}
		if (field_line[f] != 0) {
			quarantine_field_error(q, e, line, quarantine_fields[f],
			                       _("given more than once"));
			continue;
		}
		field_line[f] = line;
		if (!cJSON_IsString(child)) {
			quarantine_field_error(q, e, line, quarantine_fields[f],
			                       _("expected a string"));
			continue;
		}
		*quarantine_entry_field(e, f) = xstrdup(child->valuestring);
	}
	for (f = 0; f < QF_COUNT; f++) {
		char *what;
		const char *v = *quarantine_entry_field(e, f);

		if (f == QF_REASON && v == NULL)
			continue;
		/* A field of the wrong type was reported above. */
		if (v == NULL && field_line[f] != 0)
			continue;
		what = quarantine_check_field(f, v);
		if (what != NULL) {
			quarantine_field_error(q, e, field_line[f] ? field_line[f] : e->line,
			                       quarantine_fields[f], what);
			free(what);
		}
	}
	if (e->channel != NULL && quarantine_channel_parse(e->channel, &e->ch) < 0)
		e->valid = false;
	if (e->expires != NULL) {
		int64_t days;

		if (quarantine_parse_date(e->expires, &days) == 0)
			e->expiry_end_ms = (days + 1) * QUARANTINE_MS_PER_DAY;
	}
	e->status = e->valid ? QUARANTINE_UNPROVEN : QUARANTINE_INVALID;
}

/* Sorts q's problems by line, keeping the order of those on one line (an
 * insertion sort: the list is short and almost sorted already). */
static void
quarantine_sort_problems(struct quarantine *q)
{
	size_t i, j;

	for (i = 1; i < q->nproblems; i++) {
		struct quarantine_problem p = q->problems[i];

		for (j = i; j > 0 && q->problems[j - 1].line > p.line; j--)
			q->problems[j] = q->problems[j - 1];
		q->problems[j] = p;
	}
}

/* Orders entries by test, channel, then position; entries without either
 * come first. */
static int
quarantine_cmp_entries(const void *a, const void *b)
{
	const struct quarantine_entry *x = *(const struct quarantine_entry *const *)a;
	const struct quarantine_entry *y = *(const struct quarantine_entry *const *)b;
	bool xs = x->test == NULL || x->channel == NULL, ys = y->test == NULL || y->channel == NULL;
	int c;

	if (xs != ys)
		return xs ? -1 : 1;
	if (!xs) {
		c = strcmp(x->test, y->test);
		if (c == 0)
			c = strcmp(x->channel, y->channel);
		if (c != 0)
			return c;
	}
	return x->index < y->index ? -1 : x->index > y->index;
}

struct quarantine *
quarantine_new(const char *path)
{
	struct quarantine *q = xcalloc(1, sizeof *q);

	q->path = xstrdup(path);
	return q;
}

struct quarantine *
quarantine_parse(const char *path, const char *text, size_t len)
{
	struct quarantine *q = quarantine_new(path);
	struct quarantine_pos pos;
	const char *end = NULL;
	cJSON *root;
	const cJSON *child;
	struct quarantine_cursor cur;
	struct quarantine_entry **order;
	size_t i, k = 0;

	memset(&pos, 0, sizeof pos);
	q->text = xstrndup(text, len);
	q->len = len;
	/* A file of only blanks is an empty list, so it can be created empty. */
	if (quarantine_scan_ws(q->text, len, 0) == len)
		return q;
	root = cJSON_ParseWithLengthOpts(q->text, len, &end, 0);
	if (root != NULL) {
		/* cJSON stops after the first value; only blanks may follow. */
		size_t rest = (size_t)(end - q->text);

		if (quarantine_scan_ws(q->text, len, rest) != len) {
			cJSON_Delete(root);
			root = NULL;
		}
	}
	if (root == NULL) {
		size_t off = 0;
		const char *why = json_why(q->text, len, end, &off);
		int line, col;

		json_pos(q->text, len, off, &line, &col);
		quarantine_problem_add(
		    q, 0, line, false,
		    xasprintf(_("%s:%d:%d: invalid JSON (%s)"), q->path, line, col, why));
		return q;
	}
	/* The scanner and cJSON must agree on the entries, or no line number
	 * can be trusted. */
	if (!cJSON_IsArray(root) || quarantine_scan(q->text, len, &pos) < 0 ||
	    pos.nelems != (size_t)cJSON_GetArraySize(root)) {
		int line = quarantine_line_of(q->text, len, quarantine_scan_ws(q->text, len, 0));

		quarantine_pos_free(&pos);
		quarantine_problem_add(
		    q, 0, line, false,
		    xasprintf(_("%s:%d: expected a JSON array of entries"), q->path, line));
		cJSON_Delete(root);
		return q;
	}
	q->nentries = (size_t)cJSON_GetArraySize(root);
	q->entries = xcalloc(q->nentries, sizeof *q->entries);
	cur.s = q->text;
	cur.n = len;
	cur.off = 0;
	cur.line = 1;
	cJSON_ArrayForEach(child, root)
	{
		struct quarantine_entry *e = &q->entries[k];
		const struct quarantine_elem_pos *ep = &pos.elems[k < pos.nelems ? k : 0];

		e->index = (int)k + 1;
		e->line = quarantine_cursor_line(&cur, ep->start);
		quarantine_check_entry(q, e, child, ep, &cur);
		k++;
	}
	/* Each (test, channel) once: sorted, a duplicate follows the first of
	 * its kind, and every later one is an error. */
	order = xcalloc(q->nentries + 1, sizeof *order);
	for (i = 0; i < q->nentries; i++)
		order[i] = &q->entries[i];
	if (q->nentries > 1)
		qsort(order, q->nentries, sizeof *order, quarantine_cmp_entries);
	for (i = 1, k = 0; i < q->nentries; i++) {
		struct quarantine_entry *e = order[i];
		const struct quarantine_entry *d = order[k];

		if (e->test == NULL || e->channel == NULL || d->test == NULL ||
		    d->channel == NULL || strcmp(d->test, e->test) != 0 ||
		    strcmp(d->channel, e->channel) != 0) {
			k = i;
			continue;
		}
		quarantine_problem_add(
		    q, e->index, e->line, false,
		    xasprintf(_("%s:%d: entry %d: duplicate of entry %d (line %d): "
		                "same test and channel"),
		              q->path, e->line, e->index, d->index, d->line));
		e->valid = false;
		e->status = QUARANTINE_INVALID;
	}
	free(order);
	quarantine_sort_problems(q);
	quarantine_pos_free(&pos);
	cJSON_Delete(root);
	return q;
}

int
quarantine_load(const char *path, struct quarantine **out, char **err)
{
	char *text = NULL;
	size_t len = 0;
	int rc;

	*out = NULL;
	*err = NULL;
	rc = util_read_file(path, QUARANTINE_MAX_BYTES, &text, &len);
	if (rc < 0) {
		*err = xasprintf("%s: %s", path, strerror(-rc));
		return rc;
	}
	*out = quarantine_parse(path, text, len);
	free(text);
	return 0;
}

static void
quarantine_entry_clear(struct quarantine_entry *e)
{
	int f;

	for (f = 0; f < QF_COUNT; f++)
		free(*quarantine_entry_field(e, f));
}

void
quarantine_free(struct quarantine *q)
{
	size_t i;

	if (q == NULL)
		return;
	for (i = 0; i < q->nentries; i++)
		quarantine_entry_clear(&q->entries[i]);
	for (i = 0; i < q->nproblems; i++)
		free(q->problems[i].message);
	free(q->entries);
	free(q->problems);
	free(q->text);
	free(q->path);
	free(q);
}

static bool
quarantine_exists(const char *dir, const char *name)
{
	struct stat st;
	char *p = xasprintf("%s/%s", dir, name);
	bool ok = stat(p, &st) == 0;

	free(p);
	return ok;
}

char *
quarantine_default_path(void)
{
	char *cwd = getcwd(NULL, 0), *dir, *found = NULL, *marked = NULL, *res;
	int pass;

	if (cwd == NULL)
		return xstrdup(QUARANTINE_DEFAULT_FILE);
	/* First pass: an existing file; second: a project marker. */
	for (pass = 0; pass < 2 && found == NULL; pass++) {
		dir = xstrdup(cwd);
		for (;;) {
			bool hit = pass == 0 ? quarantine_exists(dir, QUARANTINE_DEFAULT_FILE)
			                     : quarantine_exists(dir, "go.mod") ||
			                           quarantine_exists(dir, ".git") ||
			                           quarantine_exists(dir, ".flakesweep");
			char *slash;

			if (hit) {
				found = dir;
				break;
			}
			slash = strrchr(dir, '/');
			if (slash == NULL || slash == dir) {
				free(dir);
				break;
			}
			*slash = '\0';
		}
	}
	marked = found != NULL ? found : xstrdup(cwd);
	if (strcmp(marked, cwd) == 0)
		res = xstrdup(QUARANTINE_DEFAULT_FILE);
	else
		res = xasprintf("%s/%s", marked, QUARANTINE_DEFAULT_FILE);
	free(marked);
	free(cwd);
	return res;
}

/* Evidence. */

void
quarantine_evidence_add_cell(struct quarantine_evidence *ev, const struct quarantine_channel *ch,
                             int cpu, int load, long runs, long failures, long hangs)
{
	if (ch->kind == QUARANTINE_CHANNEL_PAIR) {
		if ((ch->cpu != 0 && ch->cpu != cpu) || (ch->load != 0 && ch->load != load))
			return;
	} else if (ch->kind != QUARANTINE_CHANNEL_ANY) {
		return;
	}
	if (runs <= 0)
		return;
	ev->covered = true;
	ev->runs += runs;
	ev->failures += failures > 0 ? failures : 0;
	ev->hangs += hangs > 0 ? hangs : 0;
}

static long
quarantine_json_long(const cJSON *obj, const char *name, bool *ok)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, name);

	if (!cJSON_IsNumber(v) || v->valuedouble < 0 || v->valuedouble > 1e15) {
		*ok = false;
		return 0;
	}
	return (long)v->valuedouble;
}

static void
quarantine_evidence_results(const struct quarantine_entry *e, const cJSON *results,
                            struct quarantine_evidence *ev)
{
	const cJSON *tests = cJSON_GetObjectItemCaseSensitive(results, "tests"), *t, *c;

	if (e->ch.kind != QUARANTINE_CHANNEL_ANY && e->ch.kind != QUARANTINE_CHANNEL_PAIR)
		return;
	cJSON_ArrayForEach(t, tests)
	{
		const cJSON *id = cJSON_GetObjectItemCaseSensitive(t, "id");

		if (!cJSON_IsString(id) || strcmp(id->valuestring, e->test) != 0)
			continue;
		cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(t, "cells"))
		{
			bool ok = true;
			long cpu = quarantine_json_long(c, "cpu", &ok);
			long load = quarantine_json_long(c, "load", &ok);
			long runs = quarantine_json_long(c, "runs", &ok);
			long failures = quarantine_json_long(c, "failures", &ok);
			long hangs = quarantine_json_long(c, "hangs", &ok);

			/* A cell with a broken field is not evidence either way. */
			if (ok && cpu <= INT_MAX && load <= INT_MAX)
				quarantine_evidence_add_cell(ev, &e->ch, (int)cpu, (int)load, runs,
				                             failures, hangs);
		}
	}
}

static void
quarantine_evidence_ledger(const struct quarantine_entry *e, const struct ledger *ledger,
                           struct quarantine_evidence *ev)
{
	const struct ledger_test *lt = ledger_find(ledger, e->test);
	const struct ledger_channel *lc;

	if (lt == NULL || lt->runs == 0)
		return;
	switch (e->ch.kind) {
	case QUARANTINE_CHANNEL_PAIR:
		return;
	case QUARANTINE_CHANNEL_ANY:
		ev->covered = true;
		ev->runs += lt->runs;
		ev->failures += lt->failures;
		ev->ledger_runs = lt->runs;
		return;
	default:
		ev->ledger_runs = lt->runs;
		lc = ledger_test_channel(lt, e->channel);
		if (lc == NULL) {
			ev->channel_gone = true;
		} else if (lc->runs > 0) {
			ev->covered = true;
			ev->runs += lc->runs;
			ev->failures += lc->failures;
		}
		return;
	}
}

void
quarantine_evidence_collect(const struct quarantine_entry *e, const cJSON *results,
                            const struct ledger *ledger, struct quarantine_evidence *ev)
{
	memset(ev, 0, sizeof *ev);
	if (!e->valid)
		return;
	if (results != NULL)
		quarantine_evidence_results(e, results, ev);
	if (ledger != NULL)
		quarantine_evidence_ledger(e, ledger, ev);
}

enum quarantine_status
quarantine_judge(const struct quarantine_entry *e, const struct quarantine_evidence *ev,
                 int min_runs, int64_t now_ms)
{
	bool expired = now_ms >= e->expiry_end_ms;

	if (!e->valid)
		return QUARANTINE_INVALID;
	if (ev->failures + ev->hangs > 0)
		return expired ? QUARANTINE_OVERDUE : QUARANTINE_ACTIVE;
	if (ev->channel_gone || (ev->covered && ev->runs >= min_runs))
		return QUARANTINE_STALE;
	/* The expiry is the deadline for proving the cause gone: an expired
	 * entry that nothing shows stale is overdue. */
	return expired ? QUARANTINE_OVERDUE : QUARANTINE_UNPROVEN;
}

void
quarantine_evaluate(struct quarantine *q, const cJSON *results, const struct ledger *ledger,
                    int min_runs, int64_t now_ms)
{
	size_t i;

	for (i = 0; i < q->nentries; i++) {
		struct quarantine_entry *e = &q->entries[i];

		quarantine_evidence_collect(e, results, ledger, &e->ev);
		e->status = quarantine_judge(e, &e->ev, min_runs, now_ms);
	}
}

int
quarantine_results_check(const cJSON *results)
{
	const cJSON *schema;

	if (!cJSON_IsObject(results) ||
	    !cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(results, "tests")))
		return -EINVAL;
	schema = cJSON_GetObjectItemCaseSensitive(results, "schema");
	if (schema != NULL && (!cJSON_IsString(schema) ||
	                       strncmp(schema->valuestring, "flakesweep/results/", 19) != 0))
		return -EINVAL;
	return 0;
}

const struct quarantine_entry *
quarantine_next_for_test(const struct quarantine *q, const char *test,
                         const struct quarantine_entry *prev)
{
	size_t i = prev == NULL ? 0 : (size_t)(prev - q->entries) + 1;

	for (; i < q->nentries; i++) {
		if (q->entries[i].valid && strcmp(q->entries[i].test, test) == 0)
			return &q->entries[i];
	}
	return NULL;
}

bool
quarantine_has_test(const struct quarantine *q, const char *test)
{
	return quarantine_next_for_test(q, test, NULL) != NULL;
}

int64_t
quarantine_countdown_s(const struct quarantine_entry *e, int64_t now_ms)
{
	int64_t diff = e->expiry_end_ms - now_ms;

	/* Positive exactly while the entry has not expired. */
	return diff > 0 ? (diff + 999) / 1000 : -(-diff / 1000);
}

void
quarantine_format_countdown(int64_t s, char *out, size_t size)
{
	const char *sign = s < 0 ? "-" : "";
	int64_t a = s < 0 ? -s : s;
	int64_t d = a / 86400, h = a / 3600 % 24, m = a / 60 % 60, sec = a % 60;

	if (d > 0)
		snprintf(out, size, "%s%lldd %02lld:%02lld:%02lld", sign, (long long)d,
		         (long long)h, (long long)m, (long long)sec);
	else
		snprintf(out, size, "%s%02lld:%02lld:%02lld", sign, (long long)h, (long long)m,
		         (long long)sec);
}

const char *
quarantine_status_name(enum quarantine_status s)
{
	switch (s) {
	case QUARANTINE_ACTIVE:
		return "active";
	case QUARANTINE_STALE:
		return "stale";
	case QUARANTINE_OVERDUE:
		return "overdue";
	case QUARANTINE_INVALID:
		return "invalid";
	default:
		return "unproven";
	}
}

void
quarantine_evidence_describe(const struct quarantine_entry *e, const struct quarantine_evidence *ev,
                             struct buf *b)
{
	bool ambient =
	    e->ch.kind != QUARANTINE_CHANNEL_ANY && e->ch.kind != QUARANTINE_CHANNEL_PAIR;

	if (ev->channel_gone)
		buf_printf(b, _("channel not in the ledger (runs: %ld)"), ev->ledger_runs);
	else if (ev->covered && ambient)
		buf_printf(b, _("ledger runs: %ld, failed: %ld"), ev->runs, ev->failures);
	else if (ev->covered)
		buf_printf(b, _("runs: %ld, failed: %ld, hung: %ld"), ev->runs, ev->failures,
		           ev->hangs);
	else
		buf_adds(b, _("no evidence"));
}

static cJSON *
quarantine_entry_json(const struct quarantine_entry *e, int64_t now_ms, bool full)
{
	cJSON *o = cJSON_CreateObject();

	if (full) {
		cJSON_AddNumberToObject(o, "index", e->index);
		cJSON_AddNumberToObject(o, "line", e->line);
		cJSON_AddStringToObject(o, "test", e->test);
	}
	cJSON_AddStringToObject(o, "channel", e->channel);
	if (full) {
		if (e->reason != NULL)
			cJSON_AddStringToObject(o, "reason", e->reason);
		else
			cJSON_AddNullToObject(o, "reason");
	}
	cJSON_AddStringToObject(o, "owner", e->owner);
	cJSON_AddStringToObject(o, "issue", e->issue);
	cJSON_AddStringToObject(o, "expires", e->expires);
	cJSON_AddStringToObject(o, "status", quarantine_status_name(e->status));
	cJSON_AddNumberToObject(o, "expires_in_s", (double)quarantine_countdown_s(e, now_ms));
	if (full) {
		cJSON *ev = cJSON_AddObjectToObject(o, "evidence");

		cJSON_AddBoolToObject(ev, "covered", e->ev.covered);
		cJSON_AddBoolToObject(ev, "channel_gone", e->ev.channel_gone);
		cJSON_AddNumberToObject(ev, "runs", (double)e->ev.runs);
		cJSON_AddNumberToObject(ev, "failures", (double)e->ev.failures);
		cJSON_AddNumberToObject(ev, "hangs", (double)e->ev.hangs);
	}
	return o;
}

cJSON *
quarantine_to_json(const struct quarantine *q, int min_runs, int64_t now_ms)
{
	cJSON *root = cJSON_CreateObject(), *entries, *problems;
	char now[40];
	size_t i;

	util_format_rfc3339(now_ms, now, sizeof now);
	cJSON_AddStringToObject(root, "schema", "flakesweep/quarantine-status/v1");
	cJSON_AddStringToObject(root, "file", q->path);
	cJSON_AddStringToObject(root, "now", now);
	cJSON_AddNumberToObject(root, "min_runs", min_runs);
	entries = cJSON_AddArrayToObject(root, "entries");
	for (i = 0; i < q->nentries; i++) {
		if (q->entries[i].valid)
			cJSON_AddItemToArray(entries,
			                     quarantine_entry_json(&q->entries[i], now_ms, true));
	}
	problems = cJSON_AddArrayToObject(root, "problems");
	for (i = 0; i < q->nproblems; i++)
		cJSON_AddItemToArray(problems, cJSON_CreateString(q->problems[i].message));
	return root;
}

cJSON *
quarantine_test_json(const struct quarantine *q, const char *test, int64_t now_ms)
{
	const struct quarantine_entry *e = NULL;
	cJSON *arr = NULL;

	while ((e = quarantine_next_for_test(q, test, e)) != NULL) {
		if (arr == NULL)
			arr = cJSON_CreateArray();
		cJSON_AddItemToArray(arr, quarantine_entry_json(e, now_ms, false));
	}
	return arr;
}

/* Adding. */

/* s as a JSON string literal, printed by cJSON. */
static void
quarantine_add_json_string(struct buf *b, const char *s)
{
	cJSON *str = cJSON_CreateString(s);
	char *p = cJSON_PrintUnformatted(str);

	if (p == NULL)
		fatal("%s", _("out of memory"));
	buf_adds(b, p);
	cJSON_free(p);
	cJSON_Delete(str);
}

/* The layout of an existing file, taken from its text. */
struct quarantine_style {
	const char *open_to_key; /* between '{' and the first key */
	size_t open_to_key_len;
	const char *key_to_value; /* between a key and its value */
	size_t key_to_value_len;
	char *between;        /* between a value and the next key, comma included */
	const char *to_close; /* between the last value and '}' */
	size_t to_close_len;
	int order[QF_COUNT]; /* fields in the order the first entry has them */
};

static void
quarantine_render_entry(struct buf *b, const struct quarantine_style *st, const char *values[])
{
	int i;
	bool first = true;

	buf_addc(b, '{');
	buf_add(b, st->open_to_key, st->open_to_key_len);
	for (i = 0; i < QF_COUNT; i++) {
		int f = st->order[i];

		if (values[f] == NULL)
			continue;
		if (!first)
			buf_adds(b, st->between);
		first = false;
		quarantine_add_json_string(b, quarantine_fields[f]);
		buf_add(b, st->key_to_value, st->key_to_value_len);
		quarantine_add_json_string(b, values[f]);
	}
	buf_add(b, st->to_close, st->to_close_len);
	buf_addc(b, '}');
}

/* Writes into out the text of q with a new entry holding values spliced
 * in. Returns 0 or -EINVAL when q's text cannot be scanned. */
static int
quarantine_splice(const struct quarantine *q, const char *values[], struct buf *out)
{
	struct quarantine_style st;
	struct quarantine_pos pos;
	const struct quarantine_elem_pos *first, *last;
	int i, n = 0;
	size_t k;
	bool seen[QF_COUNT] = {false};

	bool fresh = q->text == NULL || quarantine_scan_ws(q->text, q->len, 0) == q->len;

	memset(&st, 0, sizeof st);
	memset(&pos, 0, sizeof pos);
	if (!fresh && quarantine_scan(q->text, q->len, &pos) < 0)
		return -EINVAL;
	first = pos.nelems > 0 ? &pos.elems[0] : NULL;
	if (first != NULL && (!first->object || first->nmembers == 0)) {
		quarantine_pos_free(&pos);
		return -EINVAL;
	}
	if (first == NULL) {
		/* Two-space indentation, one member per line. */
		st.open_to_key = "\n    ";
		st.open_to_key_len = 5;
		st.key_to_value = ": ";
		st.key_to_value_len = 2;
		st.between = xstrdup(",\n    ");
		st.to_close = "\n  ";
		st.to_close_len = 3;
		for (i = 0; i < QF_COUNT; i++)
			st.order[i] = i;
	} else {
		const struct quarantine_member_pos *m0 = &first->members[0];
		const struct quarantine_member_pos *ml = &first->members[first->nmembers - 1];

		st.open_to_key = q->text + first->open + 1;
		st.open_to_key_len = m0->key - first->open - 1;
		st.key_to_value = q->text + m0->key_end;
		st.key_to_value_len = m0->value - m0->key_end;
		if (first->nmembers >= 2)
			st.between = xstrndup(q->text + m0->value_end,
			                      first->members[1].key - m0->value_end);
		else
			st.between = xasprintf(",%.*s", (int)st.open_to_key_len, st.open_to_key);
		st.to_close = q->text + ml->value_end;
		st.to_close_len = first->close - ml->value_end;
		/* Known fields in the first entry's order, then the others. */
		for (k = 0; k < first->nmembers; k++) {
			char *key = xstrndup(q->text + first->members[k].key + 1,
			                     first->members[k].key_end - first->members[k].key - 2);
			int f = quarantine_field_index(key);

			free(key);
			if (f >= 0 && !seen[f]) {
				seen[f] = true;
				st.order[n++] = f;
			}
		}
		for (i = 0; i < QF_COUNT; i++) {
			if (!seen[i])
				st.order[n++] = i;
		}
	}
	buf_reset(out);
	if (fresh) {
		buf_adds(out, "[\n  ");
		quarantine_render_entry(out, &st, values);
		buf_adds(out, "\n]\n");
	} else if (first == NULL) {
		buf_add(out, q->text, pos.open + 1);
		buf_adds(out, "\n  ");
		quarantine_render_entry(out, &st, values);
		buf_adds(out, "\n");
		buf_add(out, q->text + pos.close, q->len - pos.close);
	} else {
		last = &pos.elems[pos.nelems - 1];
		buf_add(out, q->text, last->end);
		if (pos.nelems >= 2)
			buf_add(out, q->text + pos.elems[0].end,
			        pos.elems[1].start - pos.elems[0].end);
		else
			buf_printf(out, ",%.*s", (int)(first->start - pos.open - 1),
			           q->text + pos.open + 1);
		quarantine_render_entry(out, &st, values);
		buf_add(out, q->text + last->end, q->len - last->end);
	}
	free(st.between);
	quarantine_pos_free(&pos);
	return 0;
}

/* The directory part of path, or NULL when it has none. */
static char *
quarantine_dirname(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (slash == NULL)
		return NULL;
	if (slash == path)
		return xstrdup("/");
	return xstrndup(path, (size_t)(slash - path));
}

/* Adds the entry to q, a fresh read of the file under the lock. */
static int
quarantine_add_locked(struct quarantine *q, const char *values[], char **err)
{
	struct quarantine *nq = NULL;
	struct buf text;
	size_t i;
	int rc = 0;

	buf_init(&text);
	if (q->nerrors > 0) {
		*err = xasprintf(_("%s has errors; see flakesweep quarantine check"), q->path);
		return -EINVAL;
	}
	for (i = 0; i < q->nentries; i++) {
		const struct quarantine_entry *e = &q->entries[i];

		if (strcmp(e->test, values[QF_TEST]) == 0 &&
		    strcmp(e->channel, values[QF_CHANNEL]) == 0) {
			*err = xasprintf(_("%s:%d: entry %d already quarantines %s for channel %s"),
			                 q->path, e->line, e->index, values[QF_TEST],
			                 values[QF_CHANNEL]);
			return -EEXIST;
		}
	}
	if (quarantine_splice(q, values, &text) < 0) {
		*err = xasprintf(_("%s: cannot find where to add the entry"), q->path);
		rc = -EINVAL;
		goto out;
	}
	/* The spliced text must read back as the old entries plus the new. */
	nq = quarantine_parse(q->path, text.data, text.len);
	if (nq->nerrors > 0 || nq->nentries != q->nentries + 1) {
		*err = xasprintf(_("%s: adding the entry would break the file"), q->path);
		rc = -EINVAL;
		goto out;
	}
	rc = util_write_file_atomic(q->path, text.data, text.len);
	if (rc < 0) {
		*err = xasprintf("%s: %s", q->path, strerror(-rc));
		goto out;
	}
	/* q now describes the new file. */
	{
		struct quarantine tmp = *q;

		*q = *nq;
		*nq = tmp;
	}
out:
	quarantine_free(nq);
	buf_free(&text);
	return rc;
}

int
quarantine_add(struct quarantine *q, const struct quarantine_new_entry *ne, int64_t now_ms,
               char **err)
{
	const char *values[QF_COUNT];
	struct quarantine *fresh = NULL;
	int64_t days;
	char *dir = NULL;
	int f, rc, lock;

	*err = NULL;
	values[QF_TEST] = ne->test;
	values[QF_CHANNEL] = ne->channel;
	values[QF_REASON] = ne->reason;
	values[QF_OWNER] = ne->owner;
	values[QF_ISSUE] = ne->issue;
	values[QF_EXPIRES] = ne->expires;
	if (q->nerrors > 0) {
		*err = xasprintf(_("%s has errors; see flakesweep quarantine check"), q->path);
		return -EINVAL;
	}
	for (f = 0; f < QF_COUNT; f++) {
		char *what;

		if (f == QF_REASON && values[f] == NULL)
			continue;
		what = quarantine_check_field(f, values[f]);
		if (what != NULL) {
			*err = xasprintf("%s: %s", quarantine_fields[f], what);
			free(what);
			return -EINVAL;
		}
	}
	quarantine_parse_date(ne->expires, &days);
	if ((days + 1) * QUARANTINE_MS_PER_DAY <= now_ms) {
		*err = xasprintf(_("expires: %s is in the past"), ne->expires);
		return -EINVAL;
	}
	if (q->text == NULL && (dir = quarantine_dirname(q->path)) != NULL) {
		rc = util_mkdir_p(dir);
		if (rc < 0) {
			*err = xasprintf("%s: %s", dir, strerror(-rc));
			free(dir);
			return rc;
		}
		free(dir);
	}
	/* Concurrent adds must not lose each other's entries: lock the
	 * directory (the rename replaces the file) and add to the file as it
	 * is now, not as q read it. */
	lock = util_lock_dir_of(q->path);
	if (lock < 0) {
		*err = xasprintf(_("%s: cannot lock its directory: %s"), q->path, strerror(-lock));
		return lock;
	}
	rc = quarantine_load(q->path, &fresh, err);
	if (rc == -ENOENT) {
		free(*err);
		*err = NULL;
		fresh = quarantine_new(q->path);
		rc = 0;
	}
	if (rc == 0) {
		rc = quarantine_add_locked(fresh, values, err);
		if (rc == 0) {
			struct quarantine tmp = *q;

			*q = *fresh;
			*fresh = tmp;
		}
	}
	quarantine_free(fresh);
	close(lock); /* also releases the lock */
	return rc;
}

/* Export. */

static void
quarantine_quote_meta(struct buf *b, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (strchr("\\.+*?()|[]{}^$", s[i]) != NULL && s[i] != '\0')
			buf_addc(b, '\\');
		buf_addc(b, s[i]);
	}
}

char *
quarantine_go_skip_pattern(const char *const *tests, size_t ntests)
{
	struct buf b;
	size_t i;

	buf_init(&b);
	for (i = 0; i < ntests; i++) {
		const char *p = tests[i];

		if (i > 0)
			buf_addc(&b, '|');
		/* Go splits -skip at unbracketed '/' and '|' and matches each level
		 * of a name against its own element. */
		for (;;) {
			const char *slash = strchr(p, '/');
			size_t n = slash ? (size_t)(slash - p) : strlen(p);

			buf_addc(&b, '^');
			quarantine_quote_meta(&b, p, n);
			buf_addc(&b, '$');
			if (slash == NULL)
				break;
			buf_addc(&b, '/');
			p = slash + 1;
		}
	}
	return buf_steal(&b);
}

/* A test of the export, with its package's length and its position. */
struct quarantine_ref {
	const char *test;
	size_t plen;
	size_t pos;
};

/* The tests of one package: refs[start, end), first seen at pos. */
struct quarantine_group {
	size_t start, end, pos;
};

static int
quarantine_cmp_packages(const struct quarantine_ref *x, const struct quarantine_ref *y)
{
	int c = memcmp(x->test, y->test, x->plen < y->plen ? x->plen : y->plen);

	if (c != 0)
		return c;
	return x->plen < y->plen ? -1 : x->plen > y->plen;
}

static int
quarantine_cmp_refs(const void *a, const void *b)
{
	const struct quarantine_ref *x = a, *y = b;
	int c = quarantine_cmp_packages(x, y);

	if (c != 0)
		return c;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

static int
quarantine_cmp_groups(const void *a, const void *b)
{
	const struct quarantine_group *x = a, *y = b;

	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/* Orders entries by test, then position. */
static int
quarantine_cmp_tests(const void *a, const void *b)
{
	const struct quarantine_entry *x = *(const struct quarantine_entry *const *)a;
	const struct quarantine_entry *y = *(const struct quarantine_entry *const *)b;
	int c = strcmp(x->test, y->test);

	if (c != 0)
		return c;
	return x->index < y->index ? -1 : x->index > y->index;
}

static bool
quarantine_in_package(const char *test, const char *package)
{
	size_t n = strlen(package);

	return strncmp(test, package, n) == 0 && strncmp(test + n, "::", 2) == 0;
}

/* A pytest node id ("tests/test_x.py::test_y") rather than a Go test id
 * ("example.com/m/pkg::TestY"): the part before the first "::" is a .py
 * file. */
static bool
quarantine_is_pytest_id(const char *test)
{
	const char *sep = strstr(test, "::");

	return sep != NULL && sep - test >= 3 && strncmp(sep - 3, ".py", 3) == 0;
}

char *
quarantine_export(const struct quarantine *q, enum quarantine_export_format fmt,
                  const char *package)
{
	const char **tests = xcalloc(q->nentries + 1, sizeof *tests);
	const struct quarantine_entry **sorted = xcalloc(q->nentries + 1, sizeof *sorted);
	bool *first = xcalloc(q->nentries + 1, sizeof *first);
	size_t ntests = 0, nsorted = 0, ngroups = 0, i, j, g;
	struct quarantine_ref *refs;
	struct quarantine_group *groups;
	const char **names;
	struct buf b;

	buf_init(&b);
	/* Each test once, at its first entry: sort, keep the first of each
	 * run, then walk the file order. */
	for (i = 0; i < q->nentries; i++) {
		const struct quarantine_entry *e = &q->entries[i];

		/* Each format names only the tests of its framework; an invalid
		 * entry may have no test at all. */
		if (!e->valid ||
		    quarantine_is_pytest_id(e->test) != (fmt == QUARANTINE_EXPORT_PYTEST_DESELECT))
			continue;
		if (package == NULL || quarantine_in_package(e->test, package))
			sorted[nsorted++] = e;
	}
	if (nsorted > 1)
		qsort(sorted, nsorted, sizeof *sorted, quarantine_cmp_tests);
	for (i = 0; i < nsorted; i++)
		first[sorted[i]->index - 1] =
		    i == 0 || strcmp(sorted[i - 1]->test, sorted[i]->test) != 0;
	for (i = 0; i < q->nentries; i++) {
		if (first[i])
			tests[ntests++] = q->entries[i].test;
	}
	free(sorted);
	free(first);
	if (fmt == QUARANTINE_EXPORT_PYTEST_DESELECT) {
		for (i = 0; i < ntests; i++) {
			char *quoted = util_shell_quote(tests[i]);

			buf_printf(&b, "--deselect %s\n", quoted);
			free(quoted);
		}
		free(tests);
		return buf_steal(&b);
	}
	/* One line per package, packages in the order of their first test:
	 * sort by package (then position), cut into runs, order the runs. */
	refs = xcalloc(ntests + 1, sizeof *refs);
	for (i = 0; i < ntests; i++) {
		refs[i].test = tests[i];
		refs[i].plen = (size_t)(strstr(tests[i], "::") - tests[i]);
		refs[i].pos = i;
	}
	if (ntests > 1)
		qsort(refs, ntests, sizeof *refs, quarantine_cmp_refs);
	groups = xcalloc(ntests + 1, sizeof *groups);
	for (i = 0; i < ntests; i = j) {
		for (j = i + 1; j < ntests && quarantine_cmp_packages(&refs[i], &refs[j]) == 0; j++)
			;
		groups[ngroups].start = i;
		groups[ngroups].end = j;
		groups[ngroups].pos = refs[i].pos;
		ngroups++;
	}
	if (ngroups > 1)
		qsort(groups, ngroups, sizeof *groups, quarantine_cmp_groups);
	names = xcalloc(ntests + 1, sizeof *names);
	for (g = 0; g < ngroups; g++) {
		const struct quarantine_ref *r = &refs[groups[g].start];
		size_t nnames = 0;
		char *pattern;

		for (i = groups[g].start; i < groups[g].end; i++)
			names[nnames++] = refs[i].test + refs[i].plen + 2;
		pattern = quarantine_go_skip_pattern(names, nnames);
		if (package != NULL) {
			buf_printf(&b, "%s\n", pattern);
		} else {
			char *raw = xstrndup(r->test, r->plen);
			char *qp = util_shell_quote(pattern), *pkg = util_shell_quote(raw);

			buf_printf(&b, "go test -skip %s %s\n", qp, pkg);
			free(raw);
			free(qp);
			free(pkg);
		}
		free(pattern);
	}
	free(names);
	free(groups);
	free(refs);
	if (package != NULL && ntests == 0)
		buf_adds(&b, "\n");
	free(tests);
	return buf_steal(&b);
}

/* The command line. */

enum {
	QOPT_FILE = 256,
	QOPT_RESULTS,
	QOPT_LEDGER,
	QOPT_MIN_RUNS,
	QOPT_NOW,
	QOPT_JSON,
	QOPT_OWNER,
	QOPT_ISSUE,
	QOPT_EXPIRES,
	QOPT_REASON,
	QOPT_FORMAT,
	QOPT_PACKAGE,
	QOPT_HELP,
};

static const struct option quarantine_long_options[] = {
    {"file", required_argument, NULL, QOPT_FILE},
    {"quarantine", required_argument, NULL, QOPT_FILE},
    {"results", required_argument, NULL, QOPT_RESULTS},
    {"ledger", required_argument, NULL, QOPT_LEDGER},
    {"min-runs", required_argument, NULL, QOPT_MIN_RUNS},
    {"now", required_argument, NULL, QOPT_NOW},
    {"json", no_argument, NULL, QOPT_JSON},
    {"owner", required_argument, NULL, QOPT_OWNER},
    {"issue", required_argument, NULL, QOPT_ISSUE},
    {"expires", required_argument, NULL, QOPT_EXPIRES},
    {"reason", required_argument, NULL, QOPT_REASON},
    {"format", required_argument, NULL, QOPT_FORMAT},
    {"package", required_argument, NULL, QOPT_PACKAGE},
    {"help", no_argument, NULL, QOPT_HELP},
    {NULL, 0, NULL, 0},
};

/* The spelling of each option in messages, by QOPT_x - QOPT_FILE. */
static const char *const quarantine_opt_names[] = {
    "--file",  "--results", "--ledger",  "--min-runs", "--now",    "--json",
    "--owner", "--issue",   "--expires", "--reason",   "--format", "--package",
};

/* Which options each subcommand takes, as bits of (1 << (QOPT_x - 256)). */
#define QBIT(o) (1u << ((o)-QOPT_FILE))
static const struct {
	const char *name;
	unsigned opts;
	int nargs;
} quarantine_commands[] = {
    {"list",
     QBIT(QOPT_FILE) | QBIT(QOPT_RESULTS) | QBIT(QOPT_LEDGER) | QBIT(QOPT_MIN_RUNS) |
         QBIT(QOPT_NOW) | QBIT(QOPT_JSON),
     0},
    {"check",
     QBIT(QOPT_FILE) | QBIT(QOPT_RESULTS) | QBIT(QOPT_LEDGER) | QBIT(QOPT_MIN_RUNS) |
         QBIT(QOPT_NOW),
     0},
    {"add",
     QBIT(QOPT_FILE) | QBIT(QOPT_NOW) | QBIT(QOPT_OWNER) | QBIT(QOPT_ISSUE) | QBIT(QOPT_EXPIRES) |
         QBIT(QOPT_REASON),
     2},
    {"export", QBIT(QOPT_FILE) | QBIT(QOPT_FORMAT) | QBIT(QOPT_PACKAGE), 0},
};

struct quarantine_cli {
	int cmd; /* index in quarantine_commands */
	const char *file;
	const char *results_path;
	const char *ledger_path;
	int min_runs;
	int64_t now_ms;
	bool json;
	const char *owner, *issue, *expires, *reason, *format, *package;
	char **args;
	int nargs;
};

static void
quarantine_usage(FILE *f)
{
	fputs(
	    _("Usage: flakesweep quarantine list [--file FILE] [--results FILE] [--ledger FILE]\n"
	      "                                  [--min-runs N] [--now TIME] [--json]\n"
	      "       flakesweep quarantine check [--file FILE] [--results FILE] [--ledger FILE]\n"
	      "                                   [--min-runs N] [--now TIME]\n"
	      "       flakesweep quarantine add TEST CHANNEL --owner NAME --issue REF\n"
	      "                                 --expires YYYY-MM-DD [--reason TEXT] [--file FILE]\n"
	      "       flakesweep quarantine export --format go-skip|pytest-deselect\n"
	      "                                    [--package PACKAGE] [--file FILE]\n"
	      "\n"
	      "Each entry quarantines one test (PACKAGE::TEST) for one channel: cpu=C,\n"
	      "load=L, cpu=C,load=L, any, clock, rng, net or env:NAME. Its status comes\n"
	      "from the evidence given: active (the cause is still seen), stale (the\n"
	      "evidence shows it gone: remove the entry), overdue (expired and not shown\n"
	      "stale) or unproven (no evidence yet).\n"
	      "\n"
	      "Options:\n"
	      "  --file FILE, --quarantine FILE  the quarantine file (default\n"
	      "                     .flakesweep/quarantine.json in the project root)\n"
	      "  --results FILE     a sweep's results.json, as evidence\n"
	      "  --ledger FILE      an ambient ledger (JSON lines), as evidence\n"
	      "  --min-runs N       clean runs that prove an entry stale (default 100)\n"
	      "  --now TIME         judge at TIME (YYYY-MM-DD or RFC 3339 UTC), not now\n"
	      "  --json             list as JSON\n"
	      "  --format FORMAT    export as go-skip or pytest-deselect\n"
	      "  --package PACKAGE  export only that package's tests\n"
	      "\n"
	      "Exit status: 0 fine; 1 check found a stale, overdue or invalid entry;\n"
	      "2 usage or input error.\n"),
	    f);
}

static int
quarantine_usage_error(const char *fmt, const char *arg)
{
	fputs("flakesweep: ", stderr);
	sanitize_fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	fputs(_("Try 'flakesweep quarantine --help'.\n"), stderr);
	return 2;
}

/* Parses argv into c. Returns -1 to go on, else the exit status. */
static int
quarantine_parse_args(struct quarantine_cli *c, int argc, char **argv)
{
	unsigned given = 0;
	int opt;
	size_t i;
	char *end;
	long v;

	memset(c, 0, sizeof *c);
	c->cmd = -1;
	c->min_runs = QUARANTINE_DEFAULT_MIN_RUNS;
	c->now_ms = util_now_ms();
	optind = 0;
	opterr = 0;
	while ((opt = getopt_long_only(argc, argv, ":", quarantine_long_options, NULL)) != -1) {
		if (opt >= QOPT_FILE && opt < QOPT_HELP)
			given |= QBIT(opt);
		switch (opt) {
		case QOPT_FILE:
			c->file = optarg;
			break;
		case QOPT_RESULTS:
			c->results_path = optarg;
			break;
		case QOPT_LEDGER:
			c->ledger_path = optarg;
			break;
		case QOPT_MIN_RUNS:
			errno = 0;
			v = strtol(optarg, &end, 10);
			if (errno != 0 || *end != '\0' || end == optarg || v < 1 || v > 1000000000)
				return quarantine_usage_error(
				    _("invalid value \"%s\" for --min-runs: expected a positive whole number"),
				    optarg);
			c->min_runs = (int)v;
			break;
		case QOPT_NOW:
			if (quarantine_parse_time(optarg, &c->now_ms) < 0)
				return quarantine_usage_error(
				    _("invalid value \"%s\" for --now: expected "
				      "YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ"),
				    optarg);
			break;
		case QOPT_JSON:
			c->json = true;
			break;
		case QOPT_OWNER:
			c->owner = optarg;
			break;
		case QOPT_ISSUE:
			c->issue = optarg;
			break;
		case QOPT_EXPIRES:
			c->expires = optarg;
			break;
		case QOPT_REASON:
			c->reason = optarg;
			break;
		case QOPT_FORMAT:
			c->format = optarg;
			break;
		case QOPT_PACKAGE:
			c->package = optarg;
			break;
		case QOPT_HELP:
			quarantine_usage(stdout);
			return 0;
		case ':':
			return quarantine_usage_error(_("option %s needs a value"),
			                              argv[optind - 1]);
		default:
			return quarantine_usage_error(_("unknown option %s"), argv[optind - 1]);
		}
	}
	if (optind >= argc)
		return quarantine_usage_error("%s",
		                              _("quarantine: missing subcommand (list, check, "
		                                "add or export)"));
	for (i = 0; i < UTIL_ARRAY_LEN(quarantine_commands); i++) {
		if (strcmp(argv[optind], quarantine_commands[i].name) == 0)
			c->cmd = (int)i;
	}
	if (c->cmd < 0)
		return quarantine_usage_error(_("quarantine: unknown subcommand \"%s\""),
		                              argv[optind]);
	for (opt = QOPT_FILE; opt < QOPT_HELP; opt++) {
		if ((given & QBIT(opt)) && !(quarantine_commands[c->cmd].opts & QBIT(opt))) {
			fprintf(stderr, _("flakesweep: quarantine %s: %s does not apply\n"),
			        quarantine_commands[c->cmd].name,
			        quarantine_opt_names[opt - QOPT_FILE]);
			fputs(_("Try 'flakesweep quarantine --help'.\n"), stderr);
			return 2;
		}
	}
	c->args = argv + optind + 1;
	c->nargs = argc - optind - 1;
	if (c->nargs != quarantine_commands[c->cmd].nargs) {
		if (quarantine_commands[c->cmd].nargs == 0)
			return quarantine_usage_error(_("quarantine: unexpected argument \"%s\""),
			                              c->args[0]);
		return quarantine_usage_error(
		    "%s", _("quarantine add: expected TEST and CHANNEL, then options"));
	}
	return -1;
}

/* Loads the quarantine file for c. A missing default file is an empty
 * list; a missing named one is an error, except for add, which creates
 * it. Returns NULL after printing the error. */
static struct quarantine *
quarantine_cli_load(const struct quarantine_cli *c)
{
	char *path = c->file != NULL ? xstrdup(c->file) : quarantine_default_path();
	struct quarantine *q = NULL;
	char *err = NULL;
	int rc = quarantine_load(path, &q, &err);

	if (rc == -ENOENT &&
	    (c->file == NULL || strcmp(quarantine_commands[c->cmd].name, "add") == 0))
		q = quarantine_new(path);
	else if (rc < 0)
		sanitize_fprintf(stderr, "flakesweep: %s\n", err);
	free(err);
	free(path);
	return q;
}

/* Loads the evidence named on the command line. Returns 0, or 2 after
 * printing the error. */
static int
quarantine_cli_evidence(const struct quarantine_cli *c, cJSON **results, struct ledger **ledger)
{
	char *text = NULL, *err = NULL;
	size_t len = 0;
	int rc;

	*results = NULL;
	*ledger = NULL;
	if (c->results_path != NULL) {
		rc = util_read_file(c->results_path, QUARANTINE_MAX_RESULTS_BYTES, &text, &len);
		if (rc < 0) {
			fprintf(stderr, "flakesweep: %s: %s\n", c->results_path, strerror(-rc));
			return 2;
		}
		*results = cJSON_ParseWithLength(text, len);
		free(text);
		if (*results == NULL || quarantine_results_check(*results) < 0) {
			fprintf(stderr, _("flakesweep: %s: not a flakesweep results.json\n"),
			        c->results_path);
			cJSON_Delete(*results);
			*results = NULL;
			return 2;
		}
	}
	if (c->ledger_path != NULL && ledger_load(c->ledger_path, ledger, &err) < 0) {
		sanitize_fprintf(stderr, "flakesweep: %s\n", err);
		free(err);
		cJSON_Delete(*results);
		*results = NULL;
		return 2;
	}
	return 0;
}

/* Prints q's problems to stderr (list, add, export refuse a file with
 * errors). Returns true when there was an error. */
static bool
quarantine_cli_report(const struct quarantine *q)
{
	size_t i;

	for (i = 0; i < q->nproblems; i++)
		sanitize_fprintf(stderr, "flakesweep: %s\n", q->problems[i].message);
	return q->nerrors > 0;
}

/* Display width of a UTF-8 string, one column per character. */
static size_t
quarantine_width(const char *s)
{
	size_t n = 0;

	for (; *s != '\0'; s++)
		n += ((unsigned char)*s & 0xC0) != 0x80;
	return n;
}

static int
quarantine_cmd_list(const struct quarantine_cli *c, struct quarantine *q)
{
	enum { NCOLS = 8 };
	const char *head[NCOLS] = {_("STATUS"), _("TEST"),  _("CHANNEL"), _("EXPIRES"),
	                           _("LEFT"),   _("OWNER"), _("ISSUE"),   _("EVIDENCE")};
	char ***cells;
	size_t width[NCOLS], i, nrows = 0;
	int col;

	if (c->json) {
		cJSON *j = quarantine_to_json(q, c->min_runs, c->now_ms);
		char *s = cJSON_Print(j);

		printf("%s\n", s);
		cJSON_free(s);
		cJSON_Delete(j);
		return 0;
	}
	cells = xcalloc(q->nentries + 1, sizeof *cells);
	cells[nrows] = xcalloc(NCOLS, sizeof **cells);
	for (col = 0; col < NCOLS; col++)
		cells[nrows][col] = xstrdup(head[col]);
	nrows++;
	for (i = 0; i < q->nentries; i++) {
		const struct quarantine_entry *e = &q->entries[i];
		char left[48];
		struct buf ev;

		buf_init(&ev);
		quarantine_evidence_describe(e, &e->ev, &ev);
		quarantine_format_countdown(quarantine_countdown_s(e, c->now_ms), left,
		                            sizeof left);
		cells[nrows] = xcalloc(NCOLS, sizeof **cells);
		cells[nrows][0] = xstrdup(quarantine_status_name(e->status));
		cells[nrows][1] = sanitize_text(e->test, strlen(e->test));
		cells[nrows][2] = sanitize_text(e->channel, strlen(e->channel));
		cells[nrows][3] = sanitize_text(e->expires, strlen(e->expires));
		cells[nrows][4] = xstrdup(left);
		cells[nrows][5] = sanitize_text(e->owner, strlen(e->owner));
		cells[nrows][6] = sanitize_text(e->issue, strlen(e->issue));
		cells[nrows][7] = sanitize_text(ev.data, ev.len);
		buf_free(&ev);
		nrows++;
	}
	for (col = 0; col < NCOLS; col++) {
		width[col] = 0;
		for (i = 0; i < nrows; i++) {
			size_t w = quarantine_width(cells[i][col]);

			width[col] = w > width[col] ? w : width[col];
		}
	}
	for (i = 0; i < nrows; i++) {
		for (col = 0; col < NCOLS; col++) {
			fputs(cells[i][col], stdout);
			if (col + 1 < NCOLS)
				printf("%*s",
				       (int)(width[col] - quarantine_width(cells[i][col]) + 2), "");
			free(cells[i][col]);
		}
		fputc('\n', stdout);
		free(cells[i]);
	}
	free(cells);
	return 0;
}

struct quarantine_line {
	int line;
	size_t seq;
	char *text;
};

static int
quarantine_cmp_lines(const void *a, const void *b)
{
	const struct quarantine_line *x = a, *y = b;

	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int
quarantine_cmd_check(const struct quarantine_cli *c, struct quarantine *q)
{
	struct quarantine_line *lines = xcalloc(q->nproblems + q->nentries + 1, sizeof *lines);
	size_t n = 0, i;
	int rc = 0;

	/* Warnings are printed in line order with the rest; only errors, stale
	 * and overdue entries fail the check. */
	for (i = 0; i < q->nproblems; i++) {
		rc |= !q->problems[i].warning;
		lines[n].line = q->problems[i].line;
		lines[n].seq = n;
		lines[n].text = xstrdup(q->problems[i].message);
		n++;
	}
	for (i = 0; i < q->nentries; i++) {
		const struct quarantine_entry *e = &q->entries[i];
		struct buf b;

		if (e->status != QUARANTINE_STALE && e->status != QUARANTINE_OVERDUE)
			continue;
		buf_init(&b);
		if (e->status == QUARANTINE_STALE) {
			buf_printf(&b, _("%s:%d: entry %d: stale: %s [%s]: "), q->path, e->line,
			           e->index, e->test, e->channel);
			quarantine_evidence_describe(e, &e->ev, &b);
			buf_adds(&b, _("; remove the entry"));
		} else {
			buf_printf(&b, _("%s:%d: entry %d: overdue: %s [%s]: expired %s, "),
			           q->path, e->line, e->index, e->test, e->channel, e->expires);
			quarantine_evidence_describe(e, &e->ev, &b);
		}
		lines[n].line = e->line;
		lines[n].seq = n;
		lines[n].text = buf_steal(&b);
		n++;
		rc = 1;
	}
	if (n > 1)
		qsort(lines, n, sizeof *lines, quarantine_cmp_lines);
	for (i = 0; i < n; i++) {
		sanitize_fprintf(stdout, "%s\n", lines[i].text);
		free(lines[i].text);
	}
	free(lines);
	return rc;
}

static int
quarantine_cmd_add(const struct quarantine_cli *c, struct quarantine *q)
{
	struct quarantine_new_entry ne;
	const struct quarantine_entry *e;
	char *err = NULL;
	int rc;

	if (quarantine_cli_report(q))
		return 2;
	ne.test = c->args[0];
	ne.channel = c->args[1];
	ne.reason = c->reason;
	ne.owner = c->owner;
	ne.issue = c->issue;
	ne.expires = c->expires;
	rc = quarantine_add(q, &ne, c->now_ms, &err);
	if (rc < 0) {
		sanitize_fprintf(stderr, _("flakesweep: quarantine add: %s\n"), err);
		free(err);
		return 2;
	}
	e = &q->entries[q->nentries - 1];
	sanitize_fprintf(stdout, _("%s:%d: entry %d: added %s [%s], expires %s\n"), q->path,
	                 e->line, e->index, e->test, e->channel, e->expires);
	return 0;
}

static int
quarantine_cmd_export(const struct quarantine_cli *c, struct quarantine *q)
{
	enum quarantine_export_format fmt;
	char *text;

	if (c->format == NULL)
		return quarantine_usage_error("%s", _("quarantine export: --format is required "
		                                      "(go-skip or pytest-deselect)"));
	if (strcmp(c->format, "go-skip") == 0)
		fmt = QUARANTINE_EXPORT_GO_SKIP;
	else if (strcmp(c->format, "pytest-deselect") == 0)
		fmt = QUARANTINE_EXPORT_PYTEST_DESELECT;
	else
		return quarantine_usage_error(
		    _("invalid value \"%s\" for --format: expected go-skip "
		      "or pytest-deselect"),
		    c->format);
	if (quarantine_cli_report(q))
		return 2;
	text = quarantine_export(q, fmt, c->package);
	sanitize_write(stdout, text, strlen(text));
	free(text);
	return 0;
}

int
quarantine_main(int argc, char **argv)
{
	struct quarantine_cli c;
	struct quarantine *q = NULL;
	struct ledger *ledger = NULL;
	cJSON *results = NULL;
	const char *cmd;
	int rc;

	rc = quarantine_parse_args(&c, argc, argv);
	if (rc >= 0)
		return rc;
	cmd = quarantine_commands[c.cmd].name;
	q = quarantine_cli_load(&c);
	if (q == NULL)
		return 2;
	if (strcmp(cmd, "list") == 0 || strcmp(cmd, "check") == 0) {
		rc = quarantine_cli_evidence(&c, &results, &ledger);
		if (rc != 0)
			goto out;
		quarantine_evaluate(q, results, ledger, c.min_runs, c.now_ms);
	}
	if (strcmp(cmd, "list") == 0)
		rc = quarantine_cli_report(q) ? 2 : quarantine_cmd_list(&c, q);
	else if (strcmp(cmd, "check") == 0)
		rc = quarantine_cmd_check(&c, q);
	else if (strcmp(cmd, "add") == 0)
		rc = quarantine_cmd_add(&c, q);
	else
		rc = quarantine_cmd_export(&c, q);
out:
	cJSON_Delete(results);
	ledger_free(ledger);
	quarantine_free(q);
	return rc;
}
