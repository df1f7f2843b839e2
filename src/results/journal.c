/* SPDX-License-Identifier: MIT */
/*
 * journal.c: writes journal.jsonl. Each line goes out whole in one
 * write(2) on an O_APPEND descriptor, so a crash leaves at most a torn
 * last line, which readers skip; a write that fails or falls short (a full
 * disk) is cut back to the last whole line and kept in memory until a later
 * write or journal_flush gets it out. While held (journal_hold), lines wait
 * in memory for journal_flush, which writes them in one write(2). Reading is journal-read.c's, the
 * decoding of a line's values journal-decode.c's. It knows the line
 * formats and nothing of how a sweep uses them.
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

#include "results/journal-times.h"
#include "results/journal.h"
#include "results/journal-int.h"
#include "base/jsonw.h"
#include "base/sanitize.h"
#include "base/strmap.h"
#include "base/util.h"

struct journal {
	int fd;
	off_t good;         /* where the last whole line ends */
	struct buf pending; /* whole lines not written yet (held, or disk full) */
	bool held;          /* journal_hold */
	struct buf key;     /* a run's set key, made again for each run */
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

static int
journal_cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A set's key: its package and its entries ("P" or "S" and the test's name)
 * in order; for a run whose seed gives its order (a shuffled run), sorted
 * after an "s", so that every order of the same tests shares one set. */
char *
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
	buf_init(&j->key);
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
	buf_free(&j->key);
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

/* Ends the line just put behind the pending ones (so the order is kept)
 * and writes them, unless held. */
static int
journal_put(struct journal *j)
{
	buf_addc(&j->pending, '\n');
	return j->held ? 0 : journal_flush(j);
}

int
journal_write(struct journal *j, const cJSON *obj)
{
	char *text = jsonw_print(obj, false);

	buf_adds(&j->pending, text);
	free(text);
	return journal_put(j);
}

void
journal_hold(struct journal *j, bool held)
{
	if (j != NULL)
		j->held = held;
}

int
journal_write_spawn(struct journal *j, int64_t run, int pid, uint64_t start_ticks)
{
	struct jsonw w;

	jsonw_init_compact(&w, &j->pending);
	jsonw_object(&w, NULL);
	jsonw_str(&w, "type", "spawn");
	jsonw_int(&w, "run", run);
	jsonw_int(&w, "pid", pid);
	jsonw_int(&w, "start", (int64_t)start_ticks);
	jsonw_end(&w);
	return journal_put(j);
}

/* The array key of the names of o's tests of that status, unless none. */
static void
journal_names(struct jsonw *w, const char *key, const struct outcome *o, enum outcome_status status)
{
	bool any = false;
	size_t i;

	for (i = 0; i < o->ntests; i++) {
		if (o->tests[i].status != status)
			continue;
		if (!any)
			jsonw_array(w, key);
		any = true;
		jsonw_str(w, NULL, o->tests[i].name);
	}
	if (any)
		jsonw_end(w);
}

/* The set key of o's run of package pkg, as journal_set_key_of makes it
 * from journal_set_entries, into j->key. An unshuffled run's is written
 * straight from its tests, with no string made for each: a package of a
 * few hundred tests would otherwise cost as many allocations a run. */
static const char *
journal_run_key(struct journal *j, int pkg, const struct outcome *o)
{
	char **e, num[16];
	size_t i, n;

	buf_reset(&j->key);
	if (o->seed != NULL) {
		char *key;

		e = journal_set_entries(o, &n);
		key = journal_set_key_of(pkg, e, n, true);
		buf_adds(&j->key, key);
		free(key);
		util_strv_free(e);
		return j->key.data;
	}
	snprintf(num, sizeof num, "%d", pkg);
	buf_adds(&j->key, num);
	for (i = 0; i < o->ntests; i++) {
		const struct outcome_test *t = &o->tests[i];

		if (t->status != OUTCOME_PASS && t->status != OUTCOME_SKIP)
			continue;
		buf_addc(&j->key, '\n');
		buf_addc(&j->key, t->status == OUTCOME_PASS ? 'P' : 'S');
		buf_adds(&j->key, t->name);
	}
	return j->key.data;
}

static long
journal_set_for(struct journal *j, int pkg, const struct outcome *o, int *rc)
{
	const char *key = journal_run_key(j, pkg, o);
	long id = strmap_get(j->sets, key);
	cJSON *line, *order;
	size_t n, i;
	char **e;

	if (id >= 0)
		return id;
	id = j->next_set++;
	e = journal_set_entries(o, &n);
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
	util_strv_free(e);
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
	struct jsonw w;
	bool open;
	char *clean;
	long set;
	int rc = 0, rc2;
	size_t i, k;

	set = journal_set_for(j, jr->pkg, o, &rc);
	rc2 = journal_turn_default(j, jr->overlapped);
	if (rc == 0)
		rc = rc2;
	/* Written straight behind the pending lines, without a tree. */
	jsonw_init_compact(&w, &j->pending);
	jsonw_object(&w, NULL);
	jsonw_str(&w, "type", "run");
	jsonw_int(&w, "run", jr->run);
	jsonw_int(&w, "pkg", jr->pkg);
	/* Most runs are the sweep's and exit 0: those two values go unsaid
	 * (flakesweep(5)), 25 bytes of each such line. */
	if (jr->phase != RESULTS_SWEEP)
		jsonw_str(&w, "phase", results_phase_name(jr->phase));
	jsonw_int(&w, "cpu", jr->cpu);
	jsonw_int(&w, "load", jr->load);
	jsonw_int(&w, "lane", jr->lane);
	jsonw_int(&w, "ms", jr->ms);
	if (jr->exit.status != 0)
		jsonw_int(&w, "exit", jr->exit.status);
	jsonw_int(&w, "set", set);
	if (jr->exit.signal != 0)
		jsonw_int(&w, "signal", jr->exit.signal);
	if (jr->exit.timed_out)
		jsonw_bool(&w, "timed_out", true);
	if (jr->leaked)
		jsonw_bool(&w, "leaked", true);
	if (jr->ncores > 0) {
		jsonw_array(&w, "cores");
		for (k = 0; k < (size_t)jr->ncores; k++)
			jsonw_int(&w, NULL, jr->cores[k]);
		jsonw_end(&w);
	}
	if (jr->overlapped != j->overlapped)
		jsonw_bool(&w, "overlapped", jr->overlapped);
	if (jr->after_debris)
		jsonw_bool(&w, "after_debris", true);
	if (jr->ndebris > 0) {
		jsonw_array(&w, "debris");
		for (k = 0; k < (size_t)jr->ndebris; k++) {
			jsonw_object(&w, NULL);
			jsonw_str(&w, "path", jr->debris[k]);
			jsonw_int(&w, "run", jr->debris_run[k]);
			jsonw_end(&w);
		}
		jsonw_end(&w);
	}
	if (jr->has_noise) {
		jsonw_num(&w, "noise", round(jr->noise * 1000) / 1000);
		jsonw_num(&w, "noise_ms", round(jr->noise_ms * 10) / 10);
	}
	journal_names(&w, "fail", o, OUTCOME_FAIL);
	journal_names(&w, "hang", o, OUTCOME_HANG);
	for (i = 0, open = false; i < o->ntests; i++) {
		const struct outcome_test *t = &o->tests[i];

		if (t->lines == NULL || (t->status != OUTCOME_FAIL && t->status != OUTCOME_HANG))
			continue;
		if (!open)
			jsonw_object(&w, "lines");
		open = true;
		/* The journal is UTF-8 JSON: the raw bytes stay in runs/N.log. */
		clean = sanitize_text(t->lines, strlen(t->lines));
		jsonw_str(&w, t->name, clean);
		free(clean);
	}
	if (open)
		jsonw_end(&w);
	for (i = 0, open = false; i < o->ntests; i++) {
		const struct outcome_test *t = &o->tests[i];

		if (t->reason == NULL)
			continue;
		if (!open)
			jsonw_object(&w, "reasons");
		open = true;
		jsonw_str(&w, t->name, t->reason);
	}
	if (open)
		jsonw_end(&w);
	for (i = 0, open = false; i < o->ntests; i++) {
		const struct outcome_test *t = &o->tests[i];

		if (t->channels == NULL || t->channels[0] == NULL)
			continue;
		if (!open)
			jsonw_object(&w, "channels");
		open = true;
		jsonw_array(&w, t->name);
		for (k = 0; t->channels[k] != NULL; k++)
			jsonw_str(&w, NULL, t->channels[k]);
		jsonw_end(&w);
	}
	if (open)
		jsonw_end(&w);
	if (o->seed != NULL)
		jsonw_str(&w, "seed", o->seed);
	if (jr->selected != NULL)
		jsonw_str(&w, "test", jr->selected);
	if (jr->log != NULL)
		jsonw_str(&w, "log", jr->log);
	if (jr->began > 0 && jr->ended >= jr->began) {
		jsonw_int(&w, "began", jr->began);
		jsonw_int(&w, "ended", jr->ended);
	}
	journal_times_write(&w, o);
	if (o->package_failed) {
		jsonw_str(&w, "package_failed", o->package_reason != NULL ? o->package_reason : "");
		if (o->package_lines != NULL) {
			clean = sanitize_text(o->package_lines, strlen(o->package_lines));
			jsonw_str(&w, "package_lines", clean);
			free(clean);
		}
		if (o->candidates != NULL) {
			jsonw_array(&w, "candidates");
			for (i = 0; o->candidates[i] != NULL; i++)
				jsonw_str(&w, NULL, o->candidates[i]);
			jsonw_end(&w);
		}
	}
	if (o->unreliable)
		jsonw_str(&w, "unreliable",
		          o->unreliable_reason != NULL ? o->unreliable_reason : "");
	if (o->selection_failed)
		jsonw_bool(&w, "selection_failed", true);
	jsonw_end(&w);
	rc2 = journal_put(j);
	return rc < 0 ? rc : rc2;
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
