/* SPDX-License-Identifier: MIT */
/*
 * quarantine.c: reads and checks the quarantine file, judges each entry from
 * the evidence of a sweep's results and an ambient ledger, and appends and
 * removes entries without disturbing the rest of the file (the skip lists
 * are quarantine-export.c's). It never runs or skips a test itself: a
 * quarantined test is still swept, which is how its entry becomes stale.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/json.h"
#include "base/jsonw.h"
#include "decisions/quarantine-file.h"
#include "decisions/quarantine.h"
#include "base/sanitize.h"
#include "base/strmap.h"
#include "base/timefmt.h"
#include "base/util.h"

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

static void
quarantine_problem_add(struct quarantine *q, int index, int line, bool warning, char *message)
{
	struct quarantine_problem *p;

	q->problems = xgrow(q->problems, q->nproblems, sizeof *q->problems);
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

/* The fields an entry may leave out. */
static bool
quarantine_optional(int field)
{
	return field == QUARANTINE_FIELD_REASON || field == QUARANTINE_FIELD_CLASS ||
	       field == QUARANTINE_FIELD_FORCED;
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
	if (field != QUARANTINE_FIELD_REASON && v[0] == '\0')
		return xstrdup(_("empty"));
	switch (field) {
	case QUARANTINE_FIELD_TEST: {
		const char *sep = strstr(v, "::");

		if (sep == NULL || sep == v || sep[2] == '\0')
			return xasprintf(_("\"%s\" is not a test id (PACKAGE::TEST)"), v);
		break;
	}
	case QUARANTINE_FIELD_CHANNEL:
		if (quarantine_channel_parse(v, &ch) < 0)
			return xasprintf(_("unknown channel \"%s\" (expected cpu=C, load=L, "
			                   "cpu=C,load=L, any, clock, rng, net or env:NAME)"),
			                 v);
		break;
	case QUARANTINE_FIELD_EXPIRES:
		if (timefmt_parse_date(v, &days) < 0)
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
	case QUARANTINE_FIELD_TEST:
		return &e->test;
	case QUARANTINE_FIELD_CHANNEL:
		return &e->channel;
	case QUARANTINE_FIELD_REASON:
		return &e->reason;
	case QUARANTINE_FIELD_OWNER:
		return &e->owner;
	case QUARANTINE_FIELD_ISSUE:
		return &e->issue;
	case QUARANTINE_FIELD_CLASS:
		return &e->klass;
	case QUARANTINE_FIELD_FORCED:
		return &e->forced;
	default:
		return &e->expires;
	}
}

static void
quarantine_check_entry(struct quarantine *q, struct quarantine_entry *e, const cJSON *obj,
                       const struct quarantine_file_elem *pos, struct quarantine_file_cursor *cur)
{
	int field_line[QUARANTINE_FIELD_COUNT] = {0};
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
		int line = k < pos->nmembers ? quarantine_file_cursor_line(cur, pos->members[k].key)
		                             : e->line;

		/* cJSON takes invalid UTF-8 and cuts a string at a NUL: the
		 * member's own text must be clean JSON. */
		if (k < pos->nmembers) {
			const struct quarantine_file_member *mp = &pos->members[k];
			const char *why;
			size_t off;

			if (json_check(cur->s + mp->key, mp->key_end - mp->key, &off, &why) < 0 ||
			    json_check(cur->s + mp->value, mp->value_end - mp->value, &off, &why) <
			        0) {
				quarantine_field_error(q, e, line, child->string, why);
				f = quarantine_file_field_index(child->string);
				if (f >= 0)
					field_line[f] = line;
				continue;
			}
		}
		f = quarantine_file_field_index(child->string);
		if (f < 0) {
			quarantine_problem_add(
			    q, e->index, line, true,
			    xasprintf(_("%s:%d: entry %d: warning: unknown field \"%s\" (ignored)"),
			              q->path, line, e->index, child->string));
			continue;
		}
		if (field_line[f] != 0) {
			quarantine_field_error(q, e, line, quarantine_file_fields[f],
			                       _("given more than once"));
			continue;
		}
		field_line[f] = line;
		if (f == QUARANTINE_FIELD_FORCED) {
			if (cJSON_IsTrue(child))
				e->forced = xstrdup("true");
			else
				quarantine_field_error(q, e, line, "forced", _("expected true"));
			continue;
		}
		if (!cJSON_IsString(child)) {
			quarantine_field_error(q, e, line, quarantine_file_fields[f],
			                       _("expected a string"));
			continue;
		}
		*quarantine_entry_field(e, f) = xstrdup(child->valuestring);
	}
	for (f = 0; f < QUARANTINE_FIELD_COUNT; f++) {
		char *what;
		const char *v = *quarantine_entry_field(e, f);

		if (quarantine_optional(f) && v == NULL)
			continue;
		/* A field of the wrong type was reported above. */
		if (v == NULL && field_line[f] != 0)
			continue;
		what = quarantine_check_field(f, v);
		if (what != NULL) {
			quarantine_field_error(q, e, field_line[f] ? field_line[f] : e->line,
			                       quarantine_file_fields[f], what);
			free(what);
		}
	}
	if (e->channel != NULL && quarantine_channel_parse(e->channel, &e->ch) < 0)
		e->valid = false;
	if (e->expires != NULL) {
		int64_t days;

		if (timefmt_parse_date(e->expires, &days) == 0)
			e->expiry_end_ms = (days + 1) * TIMEFMT_MS_PER_DAY;
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
		c = strcmp(quarantine_test_key(x->test), quarantine_test_key(y->test));
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

const char *
quarantine_test_key(const char *id)
{
	const char *sep = strstr(id, "::"), *node, *end;

	if (sep == NULL)
		return id;
	node = sep + 2;
	end = strstr(node, "::");
	/* "P::tests/test_x.py::test_y": a pytest result's package, then the
	 * node id, which a file's entry may name alone. */
	return end != NULL && end - node >= 3 && strncmp(end - 3, ".py", 3) == 0 ? node : id;
}

/* The valid entries of each test, chained in file order, so that finding
 * a test's entries costs one lookup, not a look at every entry. */
static void
quarantine_index(struct quarantine *q)
{
	size_t i = q->nentries;

	q->by_test = strmap_new();
	/* From the last, so each first entry ends up in the map. */
	while (i-- > 0) {
		struct quarantine_entry *e = &q->entries[i];

		e->next_same = -1;
		if (!e->valid)
			continue;
		e->next_same = strmap_get(q->by_test, quarantine_test_key(e->test));
		strmap_set(q->by_test, quarantine_test_key(e->test), (long)i);
	}
}

struct quarantine *
quarantine_parse(const char *path, const char *text, size_t len)
{
	struct quarantine *q = quarantine_new(path);
	struct quarantine_file_pos pos;
	const char *end = NULL;
	cJSON *root;
	const cJSON *child;
	struct quarantine_file_cursor cur;
	struct quarantine_entry **order;
	size_t i, k = 0;

	memset(&pos, 0, sizeof pos);
	q->text = xstrndup(text, len);
	q->len = len;
	/* A file of only blanks is an empty list, so it can be created empty. */
	if (quarantine_file_skip_ws(q->text, len, 0) == len)
		return q;
	root = json_parse(q->text, len, &end, false);
	if (root != NULL) {
		/* cJSON stops after the first value; only blanks may follow. */
		size_t rest = (size_t)(end - q->text);

		if (quarantine_file_skip_ws(q->text, len, rest) != len) {
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
	if (!cJSON_IsArray(root) || quarantine_file_scan(q->text, len, &pos) < 0 ||
	    pos.nelems != (size_t)cJSON_GetArraySize(root)) {
		int line =
		    quarantine_file_line_of(q->text, len, quarantine_file_skip_ws(q->text, len, 0));

		quarantine_file_pos_free(&pos);
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
		const struct quarantine_file_elem *ep = &pos.elems[k < pos.nelems ? k : 0];

		e->index = (int)k + 1;
		e->line = quarantine_file_cursor_line(&cur, ep->start);
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
		    d->channel == NULL ||
		    strcmp(quarantine_test_key(d->test), quarantine_test_key(e->test)) != 0 ||
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
	quarantine_index(q);
	quarantine_sort_problems(q);
	quarantine_file_pos_free(&pos);
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

	for (f = 0; f < QUARANTINE_FIELD_COUNT; f++)
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
	strmap_free(q->by_test);
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

/* Adds the cells of t (e's test, or NULL) to ev. */
static void
quarantine_evidence_cells(const struct quarantine_entry *e, const struct results_test *t,
                          struct quarantine_evidence *ev)
{
	int k;

	if (e->ch.kind != QUARANTINE_CHANNEL_ANY && e->ch.kind != QUARANTINE_CHANNEL_PAIR)
		return;
	for (k = 0; t != NULL && k < t->ncells; k++) {
		const struct results_cell *c = &t->cells[k];

		quarantine_evidence_add_cell(ev, &e->ch, c->cpu, c->load, (long)c->runs,
		                             (long)c->failures, (long)c->hangs);
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

const struct results_test *
quarantine_results_test(const struct results *results, const char *test)
{
	const struct results_test *t = results_find(results, test);
	size_t i;

	for (i = 0; t == NULL && i < results->ntests; i++) {
		if (strcmp(quarantine_test_key(results->tests[i].id), test) == 0)
			t = &results->tests[i];
	}
	return t;
}

void
quarantine_evidence_collect(const struct quarantine_entry *e, const struct results *results,
                            const struct ledger *ledger, struct quarantine_evidence *ev)
{
	memset(ev, 0, sizeof *ev);
	if (!e->valid)
		return;
	if (results != NULL)
		quarantine_evidence_cells(e, quarantine_results_test(results, e->test), ev);
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
quarantine_evaluate(struct quarantine *q, const struct results *results,
                    const struct ledger *ledger, int min_runs, int64_t now_ms)
{
	size_t i;

	for (i = 0; i < q->nentries; i++) {
		struct quarantine_entry *e = &q->entries[i];

		quarantine_evidence_collect(e, results, ledger, &e->ev);
		e->status = quarantine_judge(e, &e->ev, min_runs, now_ms);
	}
}

void
quarantine_evaluate_test(struct quarantine *q, const struct results_test *t)
{
	long i = q->by_test != NULL ? strmap_get(q->by_test, quarantine_test_key(t->id)) : -1;

	for (; i >= 0; i = q->entries[i].next_same) {
		memset(&q->entries[i].ev, 0, sizeof q->entries[i].ev);
		quarantine_evidence_cells(&q->entries[i], t, &q->entries[i].ev);
	}
}

void
quarantine_judge_all(struct quarantine *q, int min_runs, int64_t now_ms)
{
	size_t i;

	for (i = 0; i < q->nentries; i++)
		q->entries[i].status =
		    quarantine_judge(&q->entries[i], &q->entries[i].ev, min_runs, now_ms);
}

const struct quarantine_entry *
quarantine_next_for_test(const struct quarantine *q, const char *test,
                         const struct quarantine_entry *prev)
{
	long i;

	if (prev != NULL)
		i = prev->next_same;
	else
		i = q->by_test != NULL ? strmap_get(q->by_test, quarantine_test_key(test)) : -1;
	return i >= 0 ? &q->entries[i] : NULL;
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
quarantine_entry_json(const struct quarantine_entry *e, int64_t now_ms)
{
	cJSON *o = cJSON_CreateObject(), *ev;

	cJSON_AddNumberToObject(o, "index", e->index);
	cJSON_AddNumberToObject(o, "line", e->line);
	cJSON_AddStringToObject(o, "test", e->test);
	cJSON_AddStringToObject(o, "channel", e->channel);
	if (e->reason != NULL)
		cJSON_AddStringToObject(o, "reason", e->reason);
	else
		cJSON_AddNullToObject(o, "reason");
	cJSON_AddStringToObject(o, "owner", e->owner);
	cJSON_AddStringToObject(o, "issue", e->issue);
	cJSON_AddStringToObject(o, "expires", e->expires);
	cJSON_AddStringToObject(o, "status", quarantine_status_name(e->status));
	cJSON_AddNumberToObject(o, "expires_in_s", (double)quarantine_countdown_s(e, now_ms));
	ev = cJSON_AddObjectToObject(o, "evidence");
	cJSON_AddBoolToObject(ev, "covered", e->ev.covered);
	cJSON_AddBoolToObject(ev, "channel_gone", e->ev.channel_gone);
	cJSON_AddNumberToObject(ev, "runs", (double)e->ev.runs);
	cJSON_AddNumberToObject(ev, "failures", (double)e->ev.failures);
	cJSON_AddNumberToObject(ev, "hangs", (double)e->ev.hangs);
	return o;
}

cJSON *
quarantine_to_json(const struct quarantine *q, int min_runs, int64_t now_ms)
{
	cJSON *root = cJSON_CreateObject(), *entries, *problems;
	char now[40];
	size_t i;

	timefmt_format_rfc3339(now_ms, now, sizeof now);
	cJSON_AddStringToObject(root, "schema", "flakesweep/quarantine-status/v1");
	cJSON_AddStringToObject(root, "file", q->path);
	cJSON_AddStringToObject(root, "now", now);
	cJSON_AddNumberToObject(root, "min_runs", min_runs);
	entries = cJSON_AddArrayToObject(root, "entries");
	for (i = 0; i < q->nentries; i++) {
		if (q->entries[i].valid)
			cJSON_AddItemToArray(entries,
			                     quarantine_entry_json(&q->entries[i], now_ms));
	}
	problems = cJSON_AddArrayToObject(root, "problems");
	for (i = 0; i < q->nproblems; i++)
		cJSON_AddItemToArray(problems, cJSON_CreateString(q->problems[i].message));
	return root;
}

void
quarantine_test_write(struct jsonw *w, const char *key, const struct quarantine *q,
                      const char *test, int64_t now_ms)
{
	const struct quarantine_entry *e = NULL;
	bool any = false;

	while ((e = quarantine_next_for_test(q, test, e)) != NULL) {
		if (!any)
			jsonw_array(w, key);
		any = true;
		jsonw_object(w, NULL);
		jsonw_str(w, "channel", e->channel);
		jsonw_str(w, "owner", e->owner);
		jsonw_str(w, "issue", e->issue);
		jsonw_str(w, "expires", e->expires);
		jsonw_str(w, "status", quarantine_status_name(e->status));
		jsonw_int(w, "expires_in_s", quarantine_countdown_s(e, now_ms));
		jsonw_end(w);
	}
	if (any)
		jsonw_end(w);
}

/* Adding. */

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

/* Adds the entry to q, a fresh read of the file under the lock, and writes
 * the file to target, where q->path's links lead. */
static int
quarantine_add_locked(struct quarantine *q, const char *target, const char *values[], char **err)
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

		if (strcmp(quarantine_test_key(e->test),
		           quarantine_test_key(values[QUARANTINE_FIELD_TEST])) == 0 &&
		    strcmp(e->channel, values[QUARANTINE_FIELD_CHANNEL]) == 0) {
			*err = xasprintf(_("%s:%d: entry %d already quarantines %s for channel %s"),
			                 q->path, e->line, e->index, values[QUARANTINE_FIELD_TEST],
			                 values[QUARANTINE_FIELD_CHANNEL]);
			return -EEXIST;
		}
	}
	if (quarantine_file_splice(q, values, &text) < 0) {
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
	rc = util_write_file_atomic(target, text.data, text.len);
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
	const char *values[QUARANTINE_FIELD_COUNT];
	struct quarantine *fresh = NULL;
	int64_t days;
	char *dir = NULL, *target = NULL;
	int f, rc, lock;

	*err = NULL;
	values[QUARANTINE_FIELD_TEST] = ne->test;
	values[QUARANTINE_FIELD_CHANNEL] = ne->channel;
	values[QUARANTINE_FIELD_REASON] = ne->reason;
	values[QUARANTINE_FIELD_OWNER] = ne->owner;
	values[QUARANTINE_FIELD_ISSUE] = ne->issue;
	values[QUARANTINE_FIELD_EXPIRES] = ne->expires;
	values[QUARANTINE_FIELD_CLASS] = ne->klass;
	values[QUARANTINE_FIELD_FORCED] = ne->forced ? "true" : NULL;
	if (q->nerrors > 0) {
		*err = xasprintf(_("%s has errors; see flakesweep quarantine check"), q->path);
		return -EINVAL;
	}
	for (f = 0; f < QUARANTINE_FIELD_COUNT; f++) {
		char *what;

		if (quarantine_optional(f) && values[f] == NULL)
			continue;
		what = quarantine_check_field(f, values[f]);
		if (what != NULL) {
			*err = xasprintf("%s: %s", quarantine_file_fields[f], what);
			free(what);
			return -EINVAL;
		}
	}
	timefmt_parse_date(ne->expires, &days);
	if ((days + 1) * TIMEFMT_MS_PER_DAY <= now_ms) {
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
	/* Concurrent adds, through any link, must not lose each other's
	 * entries: add to the file as it is now under the lock. */
	lock = util_lock_file(q->path, &target);
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
		rc = quarantine_add_locked(fresh, target, values, err);
		if (rc == 0) {
			struct quarantine tmp = *q;

			*q = *fresh;
			*fresh = tmp;
		}
	}
	quarantine_free(fresh);
	free(target);
	close(lock); /* also releases the lock */
	return rc;
}

/* Cuts the matching entries out of q, a fresh read of the file under the
 * lock, last first so the offsets of the others hold; writes to target. */
static int
quarantine_remove_locked(struct quarantine *q, const char *target, const char *test,
                         const char *channel, int *removed, char **err)
{
	struct quarantine *nq = NULL;
	struct buf text;
	size_t i, left = q->nentries;
	int rc = 0, n = 0;

	buf_init(&text);
	buf_add(&text, q->text != NULL ? q->text : "", q->len);
	for (i = q->nentries; i-- > 0;) {
		const struct quarantine_entry *e = &q->entries[i];
		struct quarantine cur;
		struct buf cut;

		if (e->test == NULL ||
		    strcmp(quarantine_test_key(e->test), quarantine_test_key(test)) != 0 ||
		    (channel != NULL && (e->channel == NULL || strcmp(e->channel, channel) != 0)))
			continue;
		memset(&cur, 0, sizeof cur);
		cur.text = text.data;
		cur.len = text.len;
		buf_init(&cut);
		if (quarantine_file_cut(&cur, i, &cut) < 0) {
			buf_free(&cut);
			*err =
			    xasprintf(_("%s: cannot find where entry %d ends"), q->path, e->index);
			rc = -EINVAL;
			goto out;
		}
		buf_free(&text);
		text = cut;
		left--;
		n++;
	}
	if (n == 0) {
		*err = channel != NULL ? xasprintf(_("%s: no entry quarantines %s for channel %s"),
		                                   q->path, test, channel)
		                       : xasprintf(_("%s: no entry quarantines %s"), q->path, test);
		rc = -ENOENT;
		goto out;
	}
	/* The text must read back as the other entries. */
	nq = quarantine_parse(q->path, text.data, text.len);
	if (nq->nerrors > q->nerrors || nq->nentries != left) {
		*err = xasprintf(_("%s: removing the entry would break the file"), q->path);
		rc = -EINVAL;
		goto out;
	}
	rc = util_write_file_atomic(target, text.data, text.len);
	if (rc < 0) {
		*err = xasprintf("%s: %s", q->path, strerror(-rc));
		goto out;
	}
	{
		struct quarantine tmp = *q;

		*q = *nq;
		*nq = tmp;
	}
	if (removed != NULL)
		*removed = n;
out:
	quarantine_free(nq);
	buf_free(&text);
	return rc;
}

int
quarantine_remove(struct quarantine *q, const char *test, const char *channel, int *removed,
                  char **err)
{
	struct quarantine *fresh = NULL;
	char *target = NULL;
	int rc, lock;

	*err = NULL;
	if (removed != NULL)
		*removed = 0;
	lock = util_lock_file(q->path, &target);
	if (lock < 0) {
		*err = xasprintf(_("%s: cannot lock its directory: %s"), q->path, strerror(-lock));
		return lock;
	}
	rc = quarantine_load(q->path, &fresh, err);
	if (rc == 0) {
		rc = quarantine_remove_locked(fresh, target, test, channel, removed, err);
		if (rc == 0) {
			struct quarantine tmp = *q;

			*q = *fresh;
			*fresh = tmp;
		}
	}
	quarantine_free(fresh);
	free(target);
	close(lock); /* also releases the lock */
	return rc;
}
