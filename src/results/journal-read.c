/* SPDX-License-Identifier: MIT */
/*
 * journal-read.c: reads journal.jsonl, whole or on from where it stopped
 * as it grows (journal_tail), keeping the set and defaults lines for the
 * run lines after them, and offering spawn lines and passing run lines
 * without a cJSON tree (the fast path). A torn last line is skipped. It
 * never writes a journal.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "results/journal-times.h"
#include "results/journal.h"
#include "results/journal-int.h"
#include "base/flatjson.h"
#include "base/json.h"
#include "base/strmap.h"
#include "base/util.h"

#define JOURNAL_LINE_MAX (64 << 20)

/* Set s (package s->pkg) of the n entries order (its own): the body of
 * its tests, new or met before, and its order that body's when it is the
 * same. */
static void
journal_reader_body(struct journal_reader *r, struct journal_set *s, char **order, size_t n)
{
	char *key = journal_set_key_of(s->pkg, order, n, true);
	long b;
	size_t i;

	if (r->keys == NULL)
		r->keys = strmap_new();
	b = strmap_get(r->keys, key);
	if (b < 0) {
		b = (long)r->nbodies;
		r->bodies = xrealloc(r->bodies, sizeof *r->bodies * (r->nbodies + 1));
		r->bodies[r->nbodies].order = order;
		r->bodies[r->nbodies++].n = n;
		strmap_set(r->keys, key, b);
	}
	free(key);
	s->body = (size_t)b;
	s->order = order;
	s->n = n;
	if (r->bodies[b].order == order)
		return;
	for (i = 0; i < n && strcmp(order[i], r->bodies[b].order[i]) == 0; i++)
		;
	s->own = i < n;
	if (!s->own) {
		util_strv_free(order);
		s->order = r->bodies[b].order;
	}
}

/* A run with a seed named set id: that order gives its tests', so the
 * set's own is of no more use. Old shuffled journals have a set line per
 * run: forgetting each order once its run is read keeps them in memory
 * once per set of tests. */
void
journal_reader_forget(struct journal_reader *r, int64_t id)
{
	struct journal_set *s;

	if (id <= 0 || (uint64_t)id >= r->nsets || r->sets[id].order == NULL)
		return;
	s = &r->sets[id];
	s->forgotten = true;
	if (!s->own)
		return;
	util_strv_free(s->order);
	s->order = r->bodies[s->body].order;
	s->own = false;
}

/* Keeps a set line for the run lines after it. Ids count up from 1; one
 * far past the last would cost memory for every id between, so it is
 * refused. Returns 0 or -EINVAL with *why (caller frees). */
static int
journal_reader_add_set(struct journal_reader *r, const cJSON *line, int lineno, char **why)
{
	struct journal_set *s;
	int64_t id = 0, pkg = 0;
	size_t next = r->nsets > 0 ? r->nsets : 1, n = 0;
	char **order = NULL;
	const cJSON *v;

	if (journal_decode_int(line, "id", 1, JOURNAL_NUM_MAX, true, &id, why) < 0 ||
	    journal_decode_int(line, "pkg", 0, JOURNAL_PKG_MAX, true, &pkg, why) < 0)
		return -EINVAL;
	if ((uint64_t)id > next) {
		*why =
		    xasprintf(_("set line: id: %lld is not the next set id (expected at most %zu)"),
		              (long long)id, next);
		return -EINVAL;
	}
	if ((size_t)id >= r->nsets) {
		r->sets = xrealloc(r->sets, sizeof *r->sets * ((size_t)id + 1));
		memset(r->sets + r->nsets, 0, sizeof *r->sets * ((size_t)id + 1 - r->nsets));
		r->nsets = (size_t)id + 1;
	}
	cJSON_ArrayForEach(v, cJSON_GetObjectItemCaseSensitive(line, "order"))
	{
		if (!cJSON_IsString(v) || (v->valuestring[0] != 'P' && v->valuestring[0] != 'S')) {
			*why =
			    xstrdup(_("set line: order: expected strings that start with P or S"));
			util_strv_free(order);
			return -EINVAL;
		}
		util_strv_add(&order, &n, v->valuestring);
	}
	/* A run where no test passed writes an empty set: known, not missing. */
	if (order == NULL)
		order = xcalloc(1, sizeof *order);
	s = &r->sets[(size_t)id];
	if (s->own)
		util_strv_free(s->order);
	memset(s, 0, sizeof *s);
	s->pkg = (int)pkg;
	s->lineno = lineno;
	journal_reader_body(r, s, order, n);
	return 0;
}

/* Takes the values a defaults line gives the run lines after it.
 * Returns 0 or -EINVAL with *why (caller frees). */
static int
journal_reader_defaults(struct journal_reader *r, const cJSON *line, char **why)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(line, "overlapped");

	if (v != NULL && !cJSON_IsBool(v)) {
		*why = xstrdup(_("defaults line: overlapped: expected true or false"));
		return -EINVAL;
	}
	if (v != NULL)
		r->overlapped = cJSON_IsTrue(v);
	return 0;
}

bool
journal_reader_overlapped(const struct journal_reader *r)
{
	return r->overlapped;
}

/* The members a fast line may have, in the order journal_write_run and
 * journal_write_spawn write them. */
enum journal_key {
	JOURNAL_KEY_RUN,
	JOURNAL_KEY_PKG,
	JOURNAL_KEY_PHASE,
	JOURNAL_KEY_CPU,
	JOURNAL_KEY_LOAD,
	JOURNAL_KEY_LANE,
	JOURNAL_KEY_MS,
	JOURNAL_KEY_EXIT,
	JOURNAL_KEY_SET,
	JOURNAL_KEY_SIGNAL,
	JOURNAL_KEY_TIMED_OUT,
	JOURNAL_KEY_LEAKED,
	JOURNAL_KEY_CORES,
	JOURNAL_KEY_OVERLAPPED,
	JOURNAL_KEY_NOISE,
	JOURNAL_KEY_NOISE_MS,
	JOURNAL_KEY_SEED,
	JOURNAL_KEY_TEST,
	JOURNAL_KEY_LOG,
	JOURNAL_KEY_BEGAN,
	JOURNAL_KEY_ENDED,
	JOURNAL_KEY_TIMES,
	JOURNAL_KEY_PID,
	JOURNAL_KEY_START,
	JOURNAL_KEYS,
};

static const char *const journal_keys[JOURNAL_KEYS] = {
    "run",  "pkg",    "phase",     "cpu",    "load",  "lane",       "ms",    "exit",
    "set",  "signal", "timed_out", "leaked", "cores", "overlapped", "noise", "noise_ms",
    "seed", "test",   "log",       "began",  "ended", "times",      "pid",   "start",
};

/* The key of member m, trying the one after the last first; -1 if it is
 * none of them. */
static int
journal_key_of(const struct flatjson_member *m, int *next)
{
	int k;

	if (*next < JOURNAL_KEYS && flatjson_is(m, journal_keys[*next]))
		return (*next)++;
	for (k = 0; k < JOURNAL_KEYS; k++) {
		if (flatjson_is(m, journal_keys[k])) {
			*next = k + 1;
			return k;
		}
	}
	return -1;
}

/* The cores of a run line, "3,4", into jr. */
static bool
journal_fast_cores(const struct flatjson_member *m, struct journal_run *jr)
{
	const char *p = m->val, *end = m->val + m->vlen, *comma;
	int64_t core;

	while (p < end) {
		comma = memchr(p, ',', (size_t)(end - p));
		if (!flatjson_int(p, (size_t)((comma != NULL ? comma : end) - p), 0, INT32_MAX,
		                  &core))
			return false;
		if (jr->ncores < JOURNAL_CORES_MAX)
			jr->cores[jr->ncores++] = (int)core;
		if (comma == NULL)
			break;
		p = comma + 1;
		/* "[1,]" */
		if (p == end)
			return false;
	}
	return true;
}

/* A string member, NUL-terminated in place at its closing quote (noted in
 * ends, for journal_read_fast to put back). */
static const char *
journal_fast_str(char *line, const struct flatjson_member *m, size_t *ends, size_t *nends)
{
	size_t at = (size_t)(m->val - line) + m->vlen;

	ends[(*nends)++] = at;
	line[at] = '\0';
	return line + (size_t)(m->val - line);
}

/* Decodes a member of a run or spawn line into f; false when the value is
 * not one the fast path takes (the slow path then reads, or refuses, it). */
static bool
journal_fast_member(char *line, const struct flatjson_member *m, int key, struct journal_fast *f,
                    size_t *ends, size_t *nends)
{
	struct journal_run *jr = &f->run;
	int64_t v = 0;
	bool num = m->kind == FLATJSON_NUMBER, yes = m->kind == FLATJSON_TRUE;

	switch (key) {
	case JOURNAL_KEY_RUN:
		return num && flatjson_int(m->val, m->vlen, 1, JOURNAL_NUM_MAX, &jr->run);
	case JOURNAL_KEY_PKG:
		if (!num || !flatjson_int(m->val, m->vlen, 0, JOURNAL_PKG_MAX, &v))
			return false;
		jr->pkg = (int)v;
		return true;
	case JOURNAL_KEY_PHASE:
		if (m->kind != FLATJSON_STRING)
			return false;
		if (m->vlen == 5 && memcmp(m->val, "sweep", 5) == 0)
			jr->phase = RESULTS_SWEEP;
		else if (m->vlen == 7 && memcmp(m->val, "confirm", 7) == 0)
			jr->phase = RESULTS_CONFIRM;
		else
			return false;
		return true;
	case JOURNAL_KEY_CPU:
	case JOURNAL_KEY_LOAD:
	case JOURNAL_KEY_LANE:
		if (!num || !flatjson_int(m->val, m->vlen, key == JOURNAL_KEY_LANE ? 0 : 1,
		                          UTIL_LIST_MAX, &v))
			return false;
		*(key == JOURNAL_KEY_CPU    ? &jr->cpu
		  : key == JOURNAL_KEY_LOAD ? &jr->load
		                            : &jr->lane) = (int)v;
		return true;
	case JOURNAL_KEY_MS:
		return num && flatjson_int(m->val, m->vlen, 0, JOURNAL_NUM_MAX, &jr->ms);
	case JOURNAL_KEY_EXIT:
		if (!num || !flatjson_int(m->val, m->vlen, INT32_MIN, INT32_MAX, &v))
			return false;
		jr->exit.status = (int)v;
		return true;
	case JOURNAL_KEY_SIGNAL:
		if (!num || !flatjson_int(m->val, m->vlen, 0, 255, &v))
			return false;
		jr->exit.signal = (int)v;
		return true;
	case JOURNAL_KEY_SET:
		return num && flatjson_int(m->val, m->vlen, 1, JOURNAL_NUM_MAX, &f->set);
	case JOURNAL_KEY_TIMED_OUT:
		return (jr->exit.timed_out = yes);
	case JOURNAL_KEY_LEAKED:
		return (jr->leaked = yes);
	case JOURNAL_KEY_OVERLAPPED:
		if (!yes && m->kind != FLATJSON_FALSE)
			return false;
		jr->overlapped = yes;
		return true;
	case JOURNAL_KEY_CORES:
		return m->kind == FLATJSON_ARRAY && journal_fast_cores(m, jr);
	case JOURNAL_KEY_NOISE:
		return num && flatjson_double(m->val, m->vlen, &jr->noise);
	case JOURNAL_KEY_NOISE_MS:
		return num && flatjson_double(m->val, m->vlen, &jr->noise_ms);
	case JOURNAL_KEY_SEED:
		/* It matters only with a failure, which a fast line has not. */
		return m->kind == FLATJSON_STRING;
	case JOURNAL_KEY_TEST:
	case JOURNAL_KEY_LOG:
		if (m->kind != FLATJSON_STRING)
			return false;
		*(key == JOURNAL_KEY_TEST ? &jr->selected : &jr->log) =
		    journal_fast_str(line, m, ends, nends);
		return true;
	case JOURNAL_KEY_BEGAN:
		return num && flatjson_int(m->val, m->vlen, 1, JOURNAL_NUM_MAX, &jr->began);
	case JOURNAL_KEY_ENDED:
		return num && flatjson_int(m->val, m->vlen, 1, JOURNAL_NUM_MAX, &jr->ended);
	case JOURNAL_KEY_TIMES:
		if (m->kind != FLATJSON_ARRAY || !journal_times_fast(m->val, m->vlen, NULL))
			return false;
		f->times = m->val;
		f->times_len = m->vlen;
		return true;
	case JOURNAL_KEY_PID:
		if (!num || !flatjson_int(m->val, m->vlen, 1, INT32_MAX, &v))
			return false;
		f->pid = (int)v;
		return true;
	case JOURNAL_KEY_START:
		if (!num || !flatjson_int(m->val, m->vlen, 0, JOURNAL_NUM_MAX, &v))
			return false;
		f->start_ticks = (uint64_t)v;
		return true;
	default:
		return false;
	}
}

/* The members each kind of fast line needs, and those it may have. */
#define JOURNAL_BIT(k) (UINT32_C(1) << (k))
#define JOURNAL_SPAWN_KEYS                                             \
	(JOURNAL_BIT(JOURNAL_KEY_RUN) | JOURNAL_BIT(JOURNAL_KEY_PID) | \
	 JOURNAL_BIT(JOURNAL_KEY_START))
#define JOURNAL_RUN_NEEDS                                               \
	(JOURNAL_BIT(JOURNAL_KEY_RUN) | JOURNAL_BIT(JOURNAL_KEY_PKG) |  \
	 JOURNAL_BIT(JOURNAL_KEY_CPU) | JOURNAL_BIT(JOURNAL_KEY_LOAD) | \
	 JOURNAL_BIT(JOURNAL_KEY_SET))
#define JOURNAL_RUN_KEYS (JOURNAL_BIT(JOURNAL_KEY_PID) - 1)

/* Decodes a spawn line or a passing run line, split into n members, into
 * f. False for any other line, or a value out of bounds: the slow path
 * then reads it and names what is wrong. */
static bool
journal_fast_decode(struct journal_reader *reader, char *line, const struct flatjson_member *m,
                    int n, struct journal_fast *f, size_t *ends, size_t *nends)
{
	uint32_t seen = 0, allowed, needed;
	int i, key, next = 0;

	memset(f, 0, sizeof *f);
	/* Without a phase member, the run is the sweep's; without an
	 * overlapped one, it is the last defaults line's. */
	f->run.phase = RESULTS_SWEEP;
	f->run.overlapped = reader->overlapped;
	if (n < 1 || !flatjson_is(&m[0], "type") || m[0].kind != FLATJSON_STRING)
		return false;
	if (m[0].vlen == 5 && memcmp(m[0].val, "spawn", 5) == 0) {
		f->kind = JOURNAL_FAST_SPAWN;
		allowed = needed = JOURNAL_SPAWN_KEYS;
	} else if (m[0].vlen == 3 && memcmp(m[0].val, "run", 3) == 0) {
		f->kind = JOURNAL_FAST_RUN;
		allowed = JOURNAL_RUN_KEYS;
		needed = JOURNAL_RUN_NEEDS;
	} else {
		return false;
	}
	for (i = 1; i < n; i++) {
		key = journal_key_of(&m[i], &next);
		/* cJSON takes the first of two members with one name. */
		if (key < 0 || !(allowed & JOURNAL_BIT(key)) || (seen & JOURNAL_BIT(key)) ||
		    !journal_fast_member(line, &m[i], key, f, ends, nends))
			return false;
		seen |= JOURNAL_BIT(key);
	}
	if ((seen & needed) != needed)
		return false;
	f->run.has_noise =
	    (seen & JOURNAL_BIT(JOURNAL_KEY_NOISE)) && (seen & JOURNAL_BIT(JOURNAL_KEY_NOISE_MS));
	/* The slow path names an end before the start. */
	if (f->run.ended > 0 && f->run.ended < f->run.began)
		return false;
	if (f->kind == JOURNAL_FAST_RUN) {
		if ((uint64_t)f->set >= reader->nsets || reader->sets[f->set].order == NULL)
			return false;
		f->set_line = reader->sets[f->set].lineno;
		if (seen & JOURNAL_BIT(JOURNAL_KEY_SEED))
			journal_reader_forget(reader, f->set);
	}
	return true;
}

/* Offers line to cb if it is a fast line: 1 when cb took it, 0 when it
 * is to be parsed, < 0 to stop. */
static int
journal_try_fast(struct journal_reader *reader, char *line, size_t len, journal_fast_cb cb,
                 void *arg, int lineno)
{
	struct flatjson_member m[FLATJSON_MAX];
	struct journal_fast f;
	size_t ends[2], nends = 0, i;
	int n, rc;

	if (cb == NULL || len < 12 || memcmp(line, "{\"type\":\"", 9) != 0 ||
	    (line[9] != 'r' && line[9] != 's'))
		return 0;
	n = flatjson_split(line, len, m);
	if (n < 0 || !journal_fast_decode(reader, line, m, n, &f, ends, &nends)) {
		for (i = 0; i < nends; i++)
			line[ends[i]] = '"';
		return 0;
	}
	f.members = m;
	f.nmembers = n;
	rc = cb(arg, reader, &f, lineno);
	for (i = 0; i < nends; i++)
		line[ends[i]] = '"';
	return rc;
}

int
journal_read(const char *path, journal_line_cb line_cb, void *arg, bool *torn, char **err)
{
	return journal_read_fast(path, line_cb, NULL, arg, torn, err);
}

struct journal_tail *
journal_tail_new(const char *path)
{
	struct journal_tail *t = xcalloc(1, sizeof *t);

	t->path = xstrdup(path);
	return t;
}

void
journal_tail_free(struct journal_tail *t)
{
	size_t i;

	if (t == NULL)
		return;
	for (i = 0; i < t->reader.nsets; i++)
		if (t->reader.sets[i].own)
			util_strv_free(t->reader.sets[i].order);
	free(t->reader.sets);
	for (i = 0; i < t->reader.nbodies; i++)
		util_strv_free(t->reader.bodies[i].order);
	free(t->reader.bodies);
	strmap_free(t->reader.keys);
	free(t->path);
	free(t);
}

off_t
journal_tail_offset(const struct journal_tail *t)
{
	return t->offset;
}

/* One whole line of t, at its offset: parsed and given to the callbacks. */
static int
journal_tail_line(struct journal_tail *t, char *line, size_t len, journal_line_cb line_cb,
                  journal_fast_cb fast_cb, void *arg, char **err)
{
	const char *path = t->path, *end = NULL;
	int lineno = t->lineno + 1, rc;
	cJSON *obj;

	if (len > JOURNAL_LINE_MAX) {
		*err = xasprintf(_("%s:%d: line longer than %d bytes"), path, lineno,
		                 JOURNAL_LINE_MAX);
		return -EINVAL;
	}
	rc = journal_try_fast(&t->reader, line, len, fast_cb, arg, lineno);
	if (rc != 0)
		return rc < 0 ? rc : 0;
	obj = json_parse(line, len, &end, false);
	if (obj == NULL) {
		size_t off = 0;
		const char *why = json_why(line, len, end, &off);
		int l, col;

		json_pos(line, len, off, &l, &col);
		*err = xasprintf(_("%s:%d:%d: invalid JSON (%s)"), path, lineno, col, why);
		return -EINVAL;
	}
	if (!cJSON_IsObject(obj)) {
		cJSON_Delete(obj);
		*err = xasprintf(_("%s:%d: expected a JSON object on each line"), path, lineno);
		return -EINVAL;
	}
	if ((strcmp(journal_line_type(obj), "set") == 0 &&
	     journal_reader_add_set(&t->reader, obj, lineno, &t->reader.why) < 0) ||
	    (strcmp(journal_line_type(obj), "defaults") == 0 &&
	     journal_reader_defaults(&t->reader, obj, &t->reader.why) < 0)) {
		cJSON_Delete(obj);
		*err = xasprintf("%s:%d: %s", path, lineno, t->reader.why);
		free(t->reader.why);
		t->reader.why = NULL;
		return -EINVAL;
	}
	rc = line_cb(arg, &t->reader, obj, lineno);
	cJSON_Delete(obj);
	return rc;
}

int
journal_tail_read(struct journal_tail *t, journal_line_cb line_cb, journal_fast_cb fast_cb,
                  void *arg, size_t max_bytes, bool *torn, bool *more, char **err)
{
	FILE *f;
	char *line = NULL;
	size_t cap = 0, done = 0;
	ssize_t len;
	int rc = 0;

	*torn = false;
	*err = NULL;
	if (more != NULL)
		*more = false;
	f = fopen(t->path, "re");
	if (f == NULL || fseeko(f, t->offset, SEEK_SET) < 0) {
		rc = -errno;
		*err = xasprintf("%s: %s", t->path, strerror(errno));
		if (f != NULL)
			fclose(f);
		return rc;
	}
	while ((len = getline(&line, &cap, f)) >= 0) {
		if (len == 0 || line[len - 1] != '\n') {
			/* Being written, or written by a sweep that died
			 * mid-line: read again from its start next time. */
			*torn = true;
			break;
		}
		rc = journal_tail_line(t, line, (size_t)len, line_cb, fast_cb, arg, err);
		if (rc < 0)
			break;
		t->lineno++;
		t->offset += len;
		done += (size_t)len;
		if (max_bytes > 0 && done >= max_bytes) {
			if (more != NULL)
				*more = true;
			break;
		}
	}
	free(line);
	fclose(f);
	return rc;
}

int
journal_read_fast(const char *path, journal_line_cb line_cb, journal_fast_cb fast_cb, void *arg,
                  bool *torn, char **err)
{
	struct journal_tail *t = journal_tail_new(path);
	int rc = journal_tail_read(t, line_cb, fast_cb, arg, 0, torn, NULL, err);

	journal_tail_free(t);
	return rc;
}
