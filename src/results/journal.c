/* SPDX-License-Identifier: MIT */
/*
 * journal.c: writes and reads journal.jsonl. Each line goes out whole in
 * one write(2) on an O_APPEND descriptor, so a crash leaves at most a torn
 * last line, which readers skip; a write that fails or falls short (a full
 * disk) is cut back to the last whole line and kept in memory until a later
 * write or journal_flush gets it out. Reading checks every value against
 * the rules the command line applies. It knows the line formats and
 * nothing of how a sweep uses them.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "results/journal.h"
#include "base/flatjson.h"
#include "base/json.h"
#include "base/jsonw.h"
#include "base/sanitize.h"
#include "base/strmap.h"
#include "base/util.h"

#define JOURNAL_LINE_MAX (64 << 20)

struct journal {
	int fd;
	off_t good;         /* where the last whole line ends */
	struct buf pending; /* whole lines not written yet (disk full) */
	journal_write_cb write;
	struct strmap *sets; /* set key -> id */
	long next_set;
	/* The overlapped a run line leaves out (the last defaults line's),
	 * and how far the runs since lean the other way. */
	bool overlapped;
	int against;
};

/* Runs leaning the other way, net, before a defaults line turns the
 * default. A defaults line costs about two run lines' "overlapped": with
 * runs half overlapped, the count wanders as far only every 16 x 16 runs
 * or so. */
#define JOURNAL_TURN_AFTER 16

struct journal_set {
	int pkg;
	/* "P" or "S" then the test name, in start order: its own, or that of
	 * its body (own false) */
	char **order;
	size_t n;
	bool own;
	/* A run with a seed named it: its order is its body's from then on,
	 * its own forgotten. */
	bool forgotten;
	size_t body; /* the reader's bodies index */
	int lineno;  /* the line that defined it */
};

/* The tests of the sets that have the same ones, in the order of the first
 * of them: an old shuffled journal has a set line per run, all but a few
 * with the tests of another. */
struct journal_body {
	char **order;
	size_t n;
};

struct journal_reader {
	struct journal_set *sets; /* by id */
	size_t nsets;
	struct journal_body *bodies;
	size_t nbodies;
	char *why;           /* what is wrong with the line being read, for line_cb */
	struct strmap *keys; /* sorted set key -> bodies index */
	bool overlapped;     /* a run line's overlapped when it has none */
};

struct journal_tail {
	char *path;
	off_t offset; /* where the lines not read yet start */
	int lineno;   /* the lines read */
	struct journal_reader reader;
};

static const char *
journal_str(const cJSON *obj, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);

	return cJSON_IsString(v) ? v->valuestring : NULL;
}

static bool
journal_num(const cJSON *obj, const char *key, double *out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);

	if (!cJSON_IsNumber(v))
		return false;
	*out = v->valuedouble;
	return true;
}

int
journal_decode_int(const cJSON *line, const char *key, int64_t min, int64_t max, bool required,
                   int64_t *out, char **why)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(line, key);

	/* Compared as doubles first: casting an out-of-range double to an
	 * integer is undefined. */
	if (v == NULL && !required)
		return 0;
	if (!cJSON_IsNumber(v) || !(v->valuedouble >= (double)min) ||
	    !(v->valuedouble <= (double)max) || v->valuedouble != (double)(int64_t)v->valuedouble) {
		*why = xasprintf(_("%s line: %s: expected a whole number from %lld to %lld"),
		                 journal_line_type(line), key, (long long)min, (long long)max);
		return -EINVAL;
	}
	*out = (int64_t)v->valuedouble;
	return 0;
}

/* A run line's true or false member key: dflt when absent, refused when
 * anything but true or false. */
static int
journal_decode_bool(const cJSON *line, const char *key, bool dflt, bool *out, char **why)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(line, key);

	if (v != NULL && !cJSON_IsBool(v)) {
		*why = xasprintf(_("%s line: %s: expected true or false"), journal_line_type(line),
		                 key);
		return -EINVAL;
	}
	*out = v != NULL ? cJSON_IsTrue(v) : dflt;
	return 0;
}

char *
journal_schema_error(const cJSON *header)
{
	const char *schema = journal_str(header, "schema");

	if (schema != NULL && strcmp(schema, JOURNAL_SCHEMA) == 0)
		return NULL;
	if (schema == NULL)
		return xasprintf(_("schema: missing (expected %s)"), JOURNAL_SCHEMA);
	return xasprintf(_("schema: \"%s\" is not a journal this flakesweep reads (expected %s)"),
	                 schema, JOURNAL_SCHEMA);
}

const char *
journal_line_type(const cJSON *line)
{
	const char *t = journal_str(line, "type");

	return t != NULL ? t : "";
}

static int
journal_cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A set's key: its package and its entries ("P" or "S" and the test's name)
 * in order; for a run whose seed gives its order (a shuffled run), sorted
 * after an "s", so that every order of the same tests shares one set. */
static char *
journal_set_key_of(int pkg, char *const *entries, size_t n, bool seeded)
{
	char **sorted = NULL;
	struct buf b;
	size_t i;

	if (seeded && n > 0) {
		sorted = xmalloc(sizeof *sorted * n);
		memcpy(sorted, entries, sizeof *sorted * n);
		qsort(sorted, n, sizeof *sorted, journal_cmp_str);
		entries = sorted;
	}
	buf_init(&b);
	buf_printf(&b, "%s%d", seeded ? "s" : "", pkg);
	for (i = 0; i < n; i++)
		buf_printf(&b, "\n%s", entries[i]);
	free(sorted);
	return buf_steal(&b);
}

/* The entries of the tests of o that passed or were skipped, in order. */
static char **
journal_set_entries(const struct outcome *o, size_t *n)
{
	char **v = xmalloc(sizeof *v * (o->ntests + 1));
	size_t i;

	*n = 0;
	for (i = 0; i < o->ntests; i++) {
		const struct outcome_test *t = &o->tests[i];

		if (t->status == OUTCOME_PASS || t->status == OUTCOME_SKIP)
			v[(*n)++] =
			    xasprintf("%c%s", t->status == OUTCOME_PASS ? 'P' : 'S', t->name);
	}
	v[*n] = NULL;
	return v;
}

/* Makes the sets r read known to runs appended with the same tests, and
 * goes on with the default overlapped it ended with. A set whose order
 * was forgotten takes only runs with a seed: its line has another order
 * than the one r kept. */
static void
journal_seed_sets(struct journal *j, const struct journal_reader *r)
{
	const struct journal_set *set;
	char *key;
	size_t id;
	int seeded;

	for (id = 1; id < r->nsets; id++) {
		set = &r->sets[id];
		if (set->order == NULL)
			continue;
		/* In its order first: sorting comes second. */
		for (seeded = set->forgotten; seeded <= 1; seeded++) {
			key = journal_set_key_of(set->pkg, set->order, set->n, seeded);
			if (strmap_get(j->sets, key) < 0 || !seeded)
				strmap_set(j->sets, key, (long)id);
			free(key);
		}
		if ((long)id >= j->next_set)
			j->next_set = (long)id + 1;
	}
	j->overlapped = r->overlapped;
}

/* journal_open reads only the set and defaults lines. */
static int
journal_seed_line(void *arg, struct journal_reader *reader, const cJSON *line, int lineno)
{
	(void)arg;
	(void)reader;
	(void)line;
	(void)lineno;
	return 0;
}

/* Spawn and passing run lines name no set: skipped unparsed. */
static int
journal_seed_skip(void *arg, struct journal_reader *reader, const struct journal_fast *line,
                  int lineno)
{
	(void)arg;
	(void)reader;
	(void)line;
	(void)lineno;
	return 1;
}

/* Cuts a torn last line (a sweep killed mid-write) so appended lines start
 * on a line of their own. */
static int
journal_cut_torn(int fd)
{
	char chunk[4096];
	off_t pos = lseek(fd, 0, SEEK_END);

	/* Scan back, a chunk at a time, to the last newline. */
	while (pos > 0) {
		size_t n = pos < (off_t)sizeof chunk ? (size_t)pos : sizeof chunk, k;
		off_t start = pos - (off_t)n;

		if (pread(fd, chunk, n, start) != (ssize_t)n)
			return -EIO;
		for (k = n; k > 0; k--) {
			if (chunk[k - 1] == '\n')
				return ftruncate(fd, start + (off_t)k) < 0 ? -errno : 0;
		}
		pos = start;
	}
	return ftruncate(fd, 0) < 0 ? -errno : 0;
}

/* Opens and locks path for appending, without reading it. */
static struct journal *
journal_open_locked(const char *path, char **err)
{
	struct journal *j;
	int fd;

	*err = NULL;
	fd = open(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (fd < 0) {
		*err = xasprintf("%s: %s", path, strerror(errno));
		return NULL;
	}
	/* One writer at a time: a second sweep (or --resume) of the same
	 * directory would kill the first one's runs as left behind. */
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		*err = xasprintf(_("%s is in use by another flakesweep; wait for it or stop it"),
		                 path);
		close(fd);
		return NULL;
	}
	j = xcalloc(1, sizeof *j);
	j->fd = fd;
	j->write = write;
	buf_init(&j->pending);
	j->sets = strmap_new();
	j->next_set = 1;
	return j;
}

/* Cuts a torn last line and notes where appending starts; false (*err
 * set) when it cannot. */
static bool
journal_open_end(struct journal *j, const char *path, bool torn, char **err)
{
	if (torn && journal_cut_torn(j->fd) < 0) {
		*err = xasprintf(_("%s: cannot cut its torn last line: %s"), path, strerror(errno));
		return false;
	}
	j->good = lseek(j->fd, 0, SEEK_END);
	return true;
}

struct journal *
journal_open(const char *path, char **err)
{
	struct journal *j = journal_open_locked(path, err);
	struct journal_tail *t;
	bool torn = false;

	if (j == NULL)
		return NULL;
	t = journal_tail_new(path);
	if (journal_tail_read(t, journal_seed_line, journal_seed_skip, NULL, 0, &torn, NULL, err) <
	    0) {
		journal_tail_free(t);
		journal_close(j);
		return NULL;
	}
	journal_seed_sets(j, &t->reader);
	journal_tail_free(t);
	free(*err);
	*err = NULL;
	if (!journal_open_end(j, path, torn, err)) {
		journal_close(j);
		return NULL;
	}
	return j;
}

struct journal *
journal_open_read(const char *path, const struct journal_tail *read, bool torn, char **err)
{
	struct journal *j = journal_open_locked(path, err);

	if (j == NULL)
		return NULL;
	/* Appended to since it was read (before the lock): read it again. */
	if (!journal_open_end(j, path, torn, err) || j->good != read->offset) {
		journal_close(j);
		return *err == NULL ? journal_open(path, err) : NULL;
	}
	journal_seed_sets(j, &read->reader);
	return j;
}

void
journal_close(struct journal *j)
{
	if (j == NULL)
		return;
	/* A last try for lines a full disk held back. */
	journal_flush(j);
	close(j->fd);
	buf_free(&j->pending);
	strmap_free(j->sets);
	free(j);
}

void
journal_set_write(struct journal *j, journal_write_cb fn)
{
	j->write = fn != NULL ? fn : write;
}

bool
journal_pending(const struct journal *j)
{
	return j->pending.len > 0;
}

int
journal_flush(struct journal *j)
{
	ssize_t w;
	int rc;

	if (j->pending.len == 0)
		return 0;
	do
		w = j->write(j->fd, j->pending.data, j->pending.len);
	while (w < 0 && errno == EINTR);
	if (w == (ssize_t)j->pending.len) {
		j->good += (off_t)w;
		buf_reset(&j->pending);
		return 0;
	}
	/* A short write means the disk filled up mid-line. */
	rc = w < 0 ? -errno : -ENOSPC;
	/* Never leave part of a line for the next one to be glued to: cut
	 * back to the last whole line (a failed write may have written some
	 * bytes too). The lines stay pending for the next try. */
	if (ftruncate(j->fd, j->good) < 0 && rc == -ENOSPC)
		rc = -errno;
	return rc;
}

int
journal_write(struct journal *j, const cJSON *obj)
{
	char *text = jsonw_print(obj, false);

	/* Behind the lines still pending, so the order is kept. */
	buf_adds(&j->pending, text);
	buf_addc(&j->pending, '\n');
	free(text);
	return journal_flush(j);
}

int
journal_write_spawn(struct journal *j, int64_t run, int pid, uint64_t start_ticks)
{
	cJSON *o = cJSON_CreateObject();
	int rc;

	cJSON_AddStringToObject(o, "type", "spawn");
	cJSON_AddNumberToObject(o, "run", (double)run);
	cJSON_AddNumberToObject(o, "pid", pid);
	cJSON_AddNumberToObject(o, "start", (double)start_ticks);
	rc = journal_write(j, o);
	cJSON_Delete(o);
	return rc;
}

static cJSON *
journal_names(const struct outcome *o, enum outcome_status status)
{
	cJSON *a = NULL;
	size_t i;

	for (i = 0; i < o->ntests; i++) {
		if (o->tests[i].status != status)
			continue;
		if (a == NULL)
			a = cJSON_CreateArray();
		cJSON_AddItemToArray(a, cJSON_CreateString(o->tests[i].name));
	}
	return a;
}

static long
journal_set_for(struct journal *j, int pkg, const struct outcome *o, int *rc)
{
	size_t n, i;
	char **e = journal_set_entries(o, &n);
	char *key = journal_set_key_of(pkg, e, n, o->seed != NULL);
	long id = strmap_get(j->sets, key);
	cJSON *line, *order;

	if (id < 0) {
		id = j->next_set++;
		line = cJSON_CreateObject();
		cJSON_AddStringToObject(line, "type", "set");
		cJSON_AddNumberToObject(line, "id", (double)id);
		cJSON_AddNumberToObject(line, "pkg", pkg);
		order = cJSON_AddArrayToObject(line, "order");
		for (i = 0; i < n; i++)
			cJSON_AddItemToArray(order, cJSON_CreateString(e[i]));
		*rc = journal_write(j, line);
		cJSON_Delete(line);
		strmap_set(j->sets, key, id);
	}
	util_strv_free(e);
	free(key);
	return id;
}

/* Turns the journal's default overlapped to that of the runs once they
 * lean the other way (a sweep with fewer packages than lanes overlaps
 * nearly every run, one with many seldom): a defaults line says so. */
static int
journal_turn_default(struct journal *j, bool overlapped)
{
	cJSON *line;
	int rc;

	if (overlapped == j->overlapped) {
		if (j->against > 0)
			j->against--;
		return 0;
	}
	if (++j->against < JOURNAL_TURN_AFTER)
		return 0;
	line = cJSON_CreateObject();
	cJSON_AddStringToObject(line, "type", "defaults");
	cJSON_AddBoolToObject(line, "overlapped", overlapped);
	/* Failed or not, the line is pending ahead of the next. */
	rc = journal_write(j, line);
	cJSON_Delete(line);
	j->overlapped = overlapped;
	j->against = 0;
	return rc;
}

int
journal_write_run(struct journal *j, const struct journal_run *jr, const struct outcome *o)
{
	cJSON *line = cJSON_CreateObject(), *a, *lines = NULL, *reasons = NULL, *channels = NULL;
	char *clean;
	long set;
	int rc = 0, rc2;
	size_t i, k;

	set = journal_set_for(j, jr->pkg, o, &rc);
	rc2 = journal_turn_default(j, jr->overlapped);
	if (rc == 0)
		rc = rc2;
	cJSON_AddStringToObject(line, "type", "run");
	cJSON_AddNumberToObject(line, "run", (double)jr->run);
	cJSON_AddNumberToObject(line, "pkg", jr->pkg);
	/* Most runs are the sweep's and exit 0: those two values go unsaid
	 * (flakesweep(5)), 25 bytes of each such line. */
	if (jr->phase != RESULTS_SWEEP)
		cJSON_AddStringToObject(line, "phase", results_phase_name(jr->phase));
	cJSON_AddNumberToObject(line, "cpu", jr->cpu);
	cJSON_AddNumberToObject(line, "load", jr->load);
	cJSON_AddNumberToObject(line, "lane", jr->lane);
	cJSON_AddNumberToObject(line, "ms", (double)jr->ms);
	if (jr->exit.status != 0)
		cJSON_AddNumberToObject(line, "exit", jr->exit.status);
	cJSON_AddNumberToObject(line, "set", (double)set);
	if (jr->exit.signal != 0)
		cJSON_AddNumberToObject(line, "signal", jr->exit.signal);
	if (jr->exit.timed_out)
		cJSON_AddTrueToObject(line, "timed_out");
	if (jr->leaked)
		cJSON_AddTrueToObject(line, "leaked");
	if (jr->ncores > 0)
		cJSON_AddItemToObject(line, "cores", cJSON_CreateIntArray(jr->cores, jr->ncores));
	if (jr->overlapped != j->overlapped)
		cJSON_AddBoolToObject(line, "overlapped", jr->overlapped);
	if (jr->after_debris)
		cJSON_AddTrueToObject(line, "after_debris");
	if (jr->ndebris > 0) {
		cJSON *d = cJSON_AddArrayToObject(line, "debris");

		for (k = 0; k < (size_t)jr->ndebris; k++) {
			cJSON *e = cJSON_CreateObject();

			cJSON_AddStringToObject(e, "path", jr->debris[k]);
			cJSON_AddNumberToObject(e, "run", (double)jr->debris_run[k]);
			cJSON_AddItemToArray(d, e);
		}
	}
	if (jr->has_noise) {
		cJSON_AddNumberToObject(line, "noise", round(jr->noise * 1000) / 1000);
		cJSON_AddNumberToObject(line, "noise_ms", round(jr->noise_ms * 10) / 10);
	}
	if ((a = journal_names(o, OUTCOME_FAIL)) != NULL)
		cJSON_AddItemToObject(line, "fail", a);
	if ((a = journal_names(o, OUTCOME_HANG)) != NULL)
		cJSON_AddItemToObject(line, "hang", a);
	for (i = 0; i < o->ntests; i++) {
		const struct outcome_test *t = &o->tests[i];

		if (t->lines == NULL || (t->status != OUTCOME_FAIL && t->status != OUTCOME_HANG))
			continue;
		if (lines == NULL)
			lines = cJSON_AddObjectToObject(line, "lines");
		/* The journal is UTF-8 JSON: the raw bytes stay in runs/N.log. */
		clean = sanitize_text(t->lines, strlen(t->lines));
		cJSON_AddStringToObject(lines, t->name, clean);
		free(clean);
	}
	for (i = 0; i < o->ntests; i++) {
		const struct outcome_test *t = &o->tests[i];

		if (t->reason == NULL)
			continue;
		if (reasons == NULL)
			reasons = cJSON_AddObjectToObject(line, "reasons");
		cJSON_AddStringToObject(reasons, t->name, t->reason);
	}
	for (i = 0; i < o->ntests; i++) {
		const struct outcome_test *t = &o->tests[i];

		if (t->channels == NULL || t->channels[0] == NULL)
			continue;
		if (channels == NULL)
			channels = cJSON_AddObjectToObject(line, "channels");
		a = cJSON_AddArrayToObject(channels, t->name);
		for (k = 0; t->channels[k] != NULL; k++)
			cJSON_AddItemToArray(a, cJSON_CreateString(t->channels[k]));
	}
	if (o->seed != NULL)
		cJSON_AddStringToObject(line, "seed", o->seed);
	if (jr->selected != NULL)
		cJSON_AddStringToObject(line, "test", jr->selected);
	if (jr->log != NULL)
		cJSON_AddStringToObject(line, "log", jr->log);
	if (jr->began > 0 && jr->ended >= jr->began) {
		cJSON_AddNumberToObject(line, "began", (double)jr->began);
		cJSON_AddNumberToObject(line, "ended", (double)jr->ended);
	}
	if (o->package_failed) {
		cJSON_AddStringToObject(line, "package_failed",
		                        o->package_reason != NULL ? o->package_reason : "");
		if (o->package_lines != NULL) {
			clean = sanitize_text(o->package_lines, strlen(o->package_lines));
			cJSON_AddStringToObject(line, "package_lines", clean);
			free(clean);
		}
		if (o->candidates != NULL) {
			a = cJSON_AddArrayToObject(line, "candidates");
			for (i = 0; o->candidates[i] != NULL; i++)
				cJSON_AddItemToArray(a, cJSON_CreateString(o->candidates[i]));
		}
	}
	if (o->unreliable)
		cJSON_AddStringToObject(line, "unreliable",
		                        o->unreliable_reason != NULL ? o->unreliable_reason : "");
	if (o->selection_failed)
		cJSON_AddTrueToObject(line, "selection_failed");
	rc2 = journal_write(j, line);
	cJSON_Delete(line);
	return rc < 0 ? rc : rc2;
}

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
static void
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
	JOURNAL_KEY_PID,
	JOURNAL_KEY_START,
	JOURNAL_KEYS,
};

static const char *const journal_keys[JOURNAL_KEYS] = {
    "run",  "pkg",    "phase",     "cpu",    "load",  "lane",       "ms",    "exit",
    "set",  "signal", "timed_out", "leaked", "cores", "overlapped", "noise", "noise_ms",
    "seed", "test",   "log",       "began",  "ended", "pid",        "start",
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

static char *
journal_dup(const cJSON *obj, const char *key)
{
	const char *s = journal_str(obj, key);

	return s != NULL ? xstrdup(s) : NULL;
}

static void
journal_add_names(struct outcome *o, const cJSON *line, const char *key, enum outcome_status status)
{
	const cJSON *lines = cJSON_GetObjectItemCaseSensitive(line, "lines"), *v;
	const cJSON *reasons = cJSON_GetObjectItemCaseSensitive(line, "reasons");

	cJSON_ArrayForEach(v, cJSON_GetObjectItemCaseSensitive(line, key))
	{
		struct outcome_test *t;

		if (!cJSON_IsString(v))
			continue;
		t = outcome_add(o, xstrdup(v->valuestring), status,
		                journal_dup(lines, v->valuestring));
		t->reason = journal_dup(reasons, v->valuestring);
	}
}

/* Adds the tests of set s, passed or skipped, to o. */
static void
journal_set_outcome(const struct journal_set *s, struct outcome *o)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		outcome_add(o, xstrdup(s->order[i] + 1),
		            s->order[i][0] == 'P' ? OUTCOME_PASS : OUTCOME_SKIP, NULL);
}

void
journal_fast_outcome(struct journal_reader *reader, const struct journal_fast *l, struct outcome *o)
{
	journal_set_outcome(&reader->sets[(size_t)l->set], o);
}

int
journal_decode_run(struct journal_reader *reader, const cJSON *line, struct journal_run *jr,
                   struct outcome *o, char **why)
{
	const char *phase = journal_str(line, "phase");
	int64_t run = 0, pkg = 0, cpu = 0, load = 0, lane = 0, ms = 0, ex = 0, sig = 0, set = 0;
	const cJSON *v;

	memset(jr, 0, sizeof *jr);
	*why = NULL;
	/* The same bounds as the command line (--cpu, --load): anything else
	 * was not written by a sweep. */
	if (journal_decode_int(line, "run", 1, JOURNAL_NUM_MAX, true, &run, why) < 0 ||
	    journal_decode_int(line, "pkg", 0, JOURNAL_PKG_MAX, true, &pkg, why) < 0 ||
	    journal_decode_int(line, "cpu", 1, UTIL_LIST_MAX, true, &cpu, why) < 0 ||
	    journal_decode_int(line, "load", 1, UTIL_LIST_MAX, true, &load, why) < 0 ||
	    journal_decode_int(line, "lane", 0, UTIL_LIST_MAX, false, &lane, why) < 0 ||
	    journal_decode_int(line, "ms", 0, JOURNAL_NUM_MAX, false, &ms, why) < 0 ||
	    journal_decode_int(line, "exit", INT32_MIN, INT32_MAX, false, &ex, why) < 0 ||
	    journal_decode_int(line, "signal", 0, 255, false, &sig, why) < 0 ||
	    journal_decode_int(line, "set", 0, JOURNAL_NUM_MAX, false, &set, why) < 0 ||
	    journal_decode_int(line, "began", 1, JOURNAL_NUM_MAX, false, &jr->began, why) < 0 ||
	    journal_decode_int(line, "ended", jr->began > 0 ? jr->began : 1, JOURNAL_NUM_MAX, false,
	                       &jr->ended, why) < 0 ||
	    journal_decode_bool(line, "timed_out", false, &jr->exit.timed_out, why) < 0 ||
	    journal_decode_bool(line, "leaked", false, &jr->leaked, why) < 0 ||
	    journal_decode_bool(line, "overlapped", reader->overlapped, &jr->overlapped, why) < 0 ||
	    journal_decode_bool(line, "after_debris", false, &jr->after_debris, why) < 0)
		return -EINVAL;
	/* Lines since the sweep's phase went unsaid leave it out. */
	if (cJSON_GetObjectItemCaseSensitive(line, "phase") == NULL)
		phase = results_phase_name(RESULTS_SWEEP);
	if (phase == NULL || results_phase_parse(phase) < 0) {
		*why = xstrdup(_("run line: phase: expected \"sweep\", \"confirm\" or \"alone\""));
		return -EINVAL;
	}
	jr->run = run;
	jr->pkg = (int)pkg;
	jr->phase = results_phase_parse(phase);
	jr->cpu = (int)cpu;
	jr->load = (int)load;
	jr->lane = (int)lane;
	jr->ms = ms;
	jr->exit.status = (int)ex;
	jr->exit.signal = (int)sig;
	cJSON_ArrayForEach(v, cJSON_GetObjectItemCaseSensitive(line, "debris"))
	{
		const char *path = journal_str(v, "path");
		double first;

		if (path == NULL || !journal_num(v, "run", &first) || first < 1 ||
		    first > JOURNAL_NUM_MAX) {
			*why = xstrdup(_("run line: debris: expected objects with \"path\" and "
			                 "\"run\""));
			return -EINVAL;
		}
		if (jr->ndebris < JOURNAL_DEBRIS_MAX) {
			jr->debris[jr->ndebris] = path;
			jr->debris_run[jr->ndebris++] = (int64_t)first;
		}
	}
	jr->has_noise =
	    journal_num(line, "noise", &jr->noise) && journal_num(line, "noise_ms", &jr->noise_ms);
	jr->log = journal_str(line, "log");
	jr->selected = journal_str(line, "test");
	cJSON_ArrayForEach(v, cJSON_GetObjectItemCaseSensitive(line, "cores"))
	{
		if (!cJSON_IsNumber(v) || v->valuedouble < 0)
			return -EINVAL;
		if (jr->ncores < JOURNAL_CORES_MAX)
			jr->cores[jr->ncores++] = v->valueint;
	}
	if (set > 0) {
		if ((size_t)set >= reader->nsets || reader->sets[(size_t)set].order == NULL) {
			*why = xasprintf(_("run line: set: no set line with id %lld before it"),
			                 (long long)set);
			return -EINVAL;
		}
		if (journal_str(line, "seed") != NULL)
			journal_reader_forget(reader, set);
		journal_set_outcome(&reader->sets[(size_t)set], o);
	}
	journal_add_names(o, line, "fail", OUTCOME_FAIL);
	journal_add_names(o, line, "hang", OUTCOME_HANG);
	o->seed = journal_dup(line, "seed");
	cJSON_ArrayForEach(v, cJSON_GetObjectItemCaseSensitive(line, "channels"))
	{
		struct outcome_test *t = v->string != NULL ? outcome_find(o, v->string) : NULL;
		const cJSON *c;
		size_t n = 0;

		cJSON_ArrayForEach(c, v)
		{
			if (t != NULL && cJSON_IsString(c))
				util_strv_add(&t->channels, &n, c->valuestring);
		}
	}
	if (journal_str(line, "package_failed") != NULL) {
		size_t n = 0;

		o->package_failed = true;
		o->package_reason = journal_dup(line, "package_failed");
		o->package_lines = journal_dup(line, "package_lines");
		cJSON_ArrayForEach(v, cJSON_GetObjectItemCaseSensitive(line, "candidates"))
		{
			if (cJSON_IsString(v))
				util_strv_add(&o->candidates, &n, v->valuestring);
		}
	}
	if (journal_str(line, "unreliable") != NULL) {
		o->unreliable = true;
		o->unreliable_reason = journal_dup(line, "unreliable");
	}
	o->selection_failed =
	    cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(line, "selection_failed"));
	return 0;
}

int
journal_write_build(struct journal *j, int idx, const struct pkg *pkg)
{
	cJSON *o = cJSON_CreateObject(), *tests;
	size_t i;
	int rc;

	cJSON_AddStringToObject(o, "type", "build");
	cJSON_AddNumberToObject(o, "pkg", idx);
	cJSON_AddStringToObject(o, "package", pkg->name);
	cJSON_AddStringToObject(o, "level", pkg->level);
	cJSON_AddStringToObject(o, "dir", pkg->dir);
	if (pkg->binary != NULL)
		cJSON_AddStringToObject(o, "binary", pkg->binary);
	cJSON_AddBoolToObject(o, "ok", pkg->build_ok);
	if (pkg->empty)
		cJSON_AddTrueToObject(o, "empty");
	if (pkg->build_output != NULL)
		cJSON_AddStringToObject(o, "output", pkg->build_output);
	if (pkg->toolchain != NULL)
		cJSON_AddStringToObject(o, "toolchain", pkg->toolchain);
	if (pkg->framing_marker)
		cJSON_AddTrueToObject(o, "framing_marker");
	if (pkg->run_filter != NULL)
		cJSON_AddStringToObject(o, "run_filter", pkg->run_filter);
	tests = cJSON_AddArrayToObject(o, "tests");
	for (i = 0; i < pkg->ntests; i++)
		cJSON_AddItemToArray(tests, cJSON_CreateString(pkg->tests[i]));
	rc = journal_write(j, o);
	cJSON_Delete(o);
	return rc;
}

int
journal_decode_build(const cJSON *line, struct pkg **out, int *idx, char **why)
{
	const char *name = journal_str(line, "package"), *level = journal_str(line, "level");
	const char *dir = journal_str(line, "dir");
	struct pkg *p;
	int64_t n = 0;
	const cJSON *v;

	*why = NULL;
	if (journal_decode_int(line, "pkg", 0, JOURNAL_PKG_MAX, true, &n, why) < 0)
		return -EINVAL;
	if (name == NULL || level == NULL || dir == NULL) {
		*why = xasprintf(_("build line: %s: expected a string"), name == NULL    ? "package"
		                                                         : level == NULL ? "level"
		                                                                         : "dir");
		return -EINVAL;
	}
	p = xcalloc(1, sizeof *p);
	p->name = xstrdup(name);
	p->level = xstrdup(level);
	p->dir = xstrdup(dir);
	p->binary = journal_dup(line, "binary");
	p->build_ok = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(line, "ok"));
	p->empty = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(line, "empty"));
	p->build_output = journal_dup(line, "output");
	p->toolchain = journal_dup(line, "toolchain");
	p->framing_marker = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(line, "framing_marker"));
	p->run_filter = journal_dup(line, "run_filter");
	cJSON_ArrayForEach(v, cJSON_GetObjectItemCaseSensitive(line, "tests"))
	{
		if (cJSON_IsString(v))
			util_strv_add(&p->tests, &p->ntests, v->valuestring);
	}
	*out = p;
	*idx = (int)n;
	return 0;
}
