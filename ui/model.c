/* SPDX-License-Identifier: MIT */
/*
 * model.c: fills the dashboard's model from a live sweep or from a
 * replayed journal (see model.h). Memory follows tests x pairs and lanes,
 * never runs: the test list holds only flaky and failing tests, and an
 * update rescans all tests only when a failure count changed.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "model.h"
#include "sched.h"
#include "sweep.h"
#include "util.h"

struct model *
model_new(enum model_source source)
{
	struct model *m = xcalloc(1, sizeof *m);

	m->source = source;
	m->eta_s = -1;
	m->eta_phase = SWEEP_PHASE_DISCOVER;
	m->tests_failures = -1;
	return m;
}

static void
model_free_lanes(struct model *m)
{
	int i;
	size_t j;

	for (i = 0; m->lanes != NULL && i < m->nlanes; i++) {
		struct model_lane *l = &m->lanes[i];

		for (j = 0; j < l->nruns; j++) {
			free(l->runs[j].cores);
			free(l->runs[j].pkg);
			free(l->runs[j].test);
		}
		free(l->runs);
		free(l->cores);
		free(l->core_runs);
		free(l->held);
		free(l->held_why);
	}
	free(m->lanes);
	m->lanes = NULL;
}

static void
model_free_tests(struct model *m)
{
	size_t i;

	for (i = 0; i < m->ntests; i++) {
		free(m->tests[i].id);
		free(m->tests[i].pkg);
		free(m->tests[i].name);
	}
	free(m->tests);
	m->tests = NULL;
	m->ntests = 0;
}

void
model_free(struct model *m)
{
	if (m == NULL)
		return;
	model_free_lanes(m);
	model_free_tests(m);
	decisions_free(m->decisions, m->ndecisions);
	quarantine_free(m->quarantine);
	free(m->quarantine_error);
	cJSON_Delete(m->results_json);
	free(m->repro_key);
	free(m->repro_flakesweep);
	free(m->repro_direct);
	free(m->cpus);
	free(m->loads);
	free(m->status);
	free(m->outdir);
	free(m->root);
	free(m);
}

char *
model_short_pkg(const char *pkg)
{
	const char *last = strrchr(pkg, '/'), *prev;
	int slashes = 0;
	const char *p;

	for (p = pkg; *p != '\0'; p++)
		slashes += *p == '/';
	if (last == NULL)
		return xstrdup(pkg);
	if (slashes < 2)
		return xstrdup(last + 1);
	for (prev = last - 1; prev > pkg && *prev != '/'; prev--)
		;
	return xstrdup(*prev == '/' ? prev + 1 : prev);
}

char *
model_worst_channel(const struct results_test *t)
{
	const struct results_cell *c = t != NULL ? results_worst_cell(t) : NULL;

	if (c == NULL)
		return xstrdup("any");
	return xasprintf("cpu=%d,load=%d", c->cpu, c->load);
}

const struct results_test *
model_results_test(const struct model *m, size_t i)
{
	if (m->results == NULL || i >= m->ntests || m->tests[i].index >= m->results->ntests)
		return NULL;
	return &m->results->tests[m->tests[i].index];
}

bool
model_provisional(const struct model *m, const struct results_test *t)
{
	if (m->sweep != NULL)
		return !m->finished && sweep_provisional(m->sweep, t);
	return m->status == NULL || strcmp(m->status, "complete") != 0;
}

static int
model_cmp_tests(const void *a, const void *b)
{
	const struct model_test *x = a, *y = b;
	int64_t bx = x->failures + x->hangs, by = y->failures + y->hangs;

	if (bx != by)
		return bx > by ? -1 : 1;
	return strcmp(x->id, y->id);
}

static void
model_test_fill(struct model *m, struct model_test *mt, const struct results_test *t)
{
	const struct decision *d = decisions_find(m->decisions, m->ndecisions, t->id);

	results_test_totals(t, &mt->runs, &mt->failures, &mt->hangs);
	mt->verdict = results_verdict(t);
	mt->decision = d != NULL ? d->decision : NULL;
	mt->quarantined = m->quarantine != NULL && quarantine_has_test(m->quarantine, t->id);
}

void
model_list_tests(struct model *m)
{
	const struct results *r = m->results;
	size_t i;

	model_free_tests(m);
	if (r == NULL)
		return;
	for (i = 0; i < r->ntests; i++) {
		const struct results_test *t = &r->tests[i];
		struct model_test *mt;

		if (t->first == NULL || results_verdict(t) == RESULTS_PASSED)
			continue;
		m->tests = xrealloc(m->tests, sizeof *m->tests * (m->ntests + 1));
		mt = &m->tests[m->ntests++];
		memset(mt, 0, sizeof *mt);
		mt->index = i;
		mt->id = xstrdup(t->id);
		mt->pkg = t->pkg >= 0 && (size_t)t->pkg < r->npkgs
		              ? model_short_pkg(r->pkgs[t->pkg].name)
		              : xstrdup("?");
		mt->name = xstrdup(t->test);
		model_test_fill(m, mt, t);
	}
	if (m->ntests > 1)
		qsort(m->tests, m->ntests, sizeof *m->tests, model_cmp_tests);
	m->tests_failures = r->failures + r->hangs;
}

/* Relists when a failure or hang was counted since the last listing; else
 * only the run counts changed, which keeps the order. */
static void
model_update_tests(struct model *m)
{
	size_t i;

	if (m->results == NULL)
		return;
	if (m->results->failures + m->results->hangs != m->tests_failures) {
		model_list_tests(m);
		return;
	}
	for (i = 0; i < m->ntests; i++) {
		const struct results_test *t = model_results_test(m, i);

		if (t != NULL)
			model_test_fill(m, &m->tests[i], t);
	}
}

static void
model_counts(struct model *m)
{
	int64_t passed;

	m->runs = m->results->runs;
	m->hangs = m->results->hangs;
	results_counts(m->results, &passed, &m->flaky, &m->failing);
}

static void
model_eta(struct model *m, int64_t now_ms)
{
	if (m->phase != m->eta_phase || m->done < m->eta_done0) {
		m->eta_phase = m->phase;
		m->eta_since_ms = now_ms;
		m->eta_done0 = m->done;
	}
	if (m->finished || (m->target > 0 && m->done >= m->target))
		m->eta_s = 0;
	else if (m->done > m->eta_done0 && now_ms > m->eta_since_ms)
		m->eta_s =
		    (int64_t)((double)(m->target - m->done) * (double)(now_ms - m->eta_since_ms) /
		              (double)(m->done - m->eta_done0) / 1000.0);
	else
		m->eta_s = -1;
}

static void
model_set_ints(int **dst, int *n, const int *src, int count)
{
	free(*dst);
	*dst = xcalloc((size_t)(count > 0 ? count : 1), sizeof **dst);
	if (count > 0)
		memcpy(*dst, src, sizeof **dst * (size_t)count);
	*n = count;
}

/* "c4", "c8-c11" for consecutive ids, else "c1,c3". */
static char *
model_cores_name(const int *cpus, int n)
{
	struct buf b;
	int i;
	bool consecutive = n > 1;

	for (i = 1; i < n; i++)
		consecutive = consecutive && cpus[i] == cpus[i - 1] + 1;
	buf_init(&b);
	if (consecutive) {
		buf_printf(&b, "c%d-c%d", cpus[0], cpus[n - 1]);
	} else {
		for (i = 0; i < n; i++)
			buf_printf(&b, "%sc%d", i > 0 ? "," : "", cpus[i]);
	}
	return buf_steal(&b);
}

static void
model_live_lanes(struct model *m, const struct sweep *s)
{
	const struct lanes *lanes = sweep_lanes(s);
	const struct sched *sched = sweep_sched(s);
	const struct sweep_run *const *runs;
	struct pkg *const *pkgs;
	size_t nruns, npkgs, i;
	int l, c;

	model_free_lanes(m);
	m->machine_cores = lanes->ncores;
	m->keep = lanes->keep;
	m->nlanes = lanes->nlanes;
	m->width = lanes->width;
	m->lanes = xcalloc((size_t)(m->nlanes > 0 ? m->nlanes : 1), sizeof *m->lanes);
	pkgs = sweep_pkgs(s, &npkgs);
	for (l = 0; l < m->nlanes; l++) {
		struct model_lane *ml = &m->lanes[l];
		int held;

		ml->ncores = lanes->width;
		ml->cores = xcalloc((size_t)ml->ncores, sizeof *ml->cores);
		ml->core_runs = xcalloc((size_t)ml->ncores, sizeof *ml->core_runs);
		for (c = 0; c < ml->ncores; c++) {
			ml->cores[c] = lanes->cores[l][c];
			ml->core_runs[c] = sched != NULL ? sched_lane_core_runs(sched, l, c) : 0;
		}
		if (sched == NULL)
			continue;
		ml->load = sched_lane_load(sched, l);
		held = sched_lane_held(sched, l);
		if (held >= 0) {
			int cpu, load, pkg = -1, free_cores = 0;
			const char *test = NULL;
			char *name;

			sched_pair_counts(sched, held, &cpu, &load, NULL, NULL, NULL);
			sweep_pair_info(s, held, &pkg, &test);
			name = pkg >= 0 && (size_t)pkg < npkgs ? model_short_pkg(pkgs[pkg]->name)
			                                       : xstrdup("?");
			if (test != NULL)
				ml->held =
				    xasprintf(_("%s %s cpu %d load %d"), name, test, cpu, load);
			else
				ml->held = xasprintf(_("%s cpu %d load %d"), name, cpu, load);
			free(name);
			for (c = 0; c < ml->ncores; c++)
				free_cores += ml->core_runs[c] < load;
			if (sweep_paused(s))
				ml->held_why = xstrdup(_("dispatching is paused"));
			else if (ml->load != 0 && ml->load != load)
				ml->held_why =
				    xasprintf(_("waits for the lane to empty: it runs at "
				                "load %d"),
				              ml->load);
			else
				ml->held_why = xasprintf(_("waits for %d free cores, %d free now"),
				                         cpu, free_cores);
		}
	}
	runs = sweep_runs(s, &nruns);
	for (i = 0; i < nruns; i++) {
		const struct sweep_run *r = runs[i];
		struct model_lane *ml;
		struct model_run *mr;

		if (r->lane < 0 || r->lane >= m->nlanes)
			continue;
		ml = &m->lanes[r->lane];
		ml->runs = xrealloc(ml->runs, sizeof *ml->runs * (ml->nruns + 1));
		mr = &ml->runs[ml->nruns++];
		memset(mr, 0, sizeof *mr);
		mr->cores = model_cores_name(r->cpus, r->cpu);
		mr->pkg = r->pkg >= 0 && (size_t)r->pkg < npkgs
		              ? model_short_pkg(pkgs[r->pkg]->name)
		              : xstrdup("?");
		mr->test = r->test != NULL ? xstrdup(r->test) : NULL;
		mr->cpu = r->cpu;
		mr->load = r->load;
		mr->phase = r->phase;
		mr->started_ms = r->started_ms;
	}
}

void
model_update_live(struct model *m, const struct sweep *s, int64_t now_ms)
{
	const struct options *o = sweep_options(s);

	m->results = sweep_results(s);
	m->sweep = s;
	if (m->outdir == NULL)
		m->outdir = xstrdup(sweep_outdir(s));
	m->phase = sweep_phase(s);
	m->finished = m->phase == SWEEP_PHASE_DONE;
	m->paused = sweep_paused(s);
	sweep_progress(s, &m->done, &m->target);
	m->started_ms = sweep_started_ms(s);
	if (m->finished && m->finished_ms == 0)
		m->finished_ms = now_ms;
	if (o->cpus != NULL && m->ncpus != o->ncpus)
		model_set_ints(&m->cpus, &m->ncpus, o->cpus, o->ncpus);
	if (m->nloads != o->nloads)
		model_set_ints(&m->loads, &m->nloads, o->loads, o->nloads);
	m->count = o->count;
	m->confirm = o->confirm;
	model_counts(m);
	/* Over: the progress is every run, not the last phase's. */
	if (m->finished) {
		int rc = sweep_exit_status(s);

		m->done = m->target = m->runs;
		free(m->status);
		m->status = xstrdup(rc == 130 ? "interrupted" : rc == 2 ? "stopped" : "complete");
	}
	model_eta(m, now_ms);
	model_live_lanes(m, s);
	model_update_tests(m);
}

static int
model_json_int(const cJSON *obj, const char *key, int fallback)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);

	return cJSON_IsNumber(v) ? v->valueint : fallback;
}

static void
model_json_ints(const cJSON *arr, int **dst, int *n)
{
	const cJSON *v;
	int count = 0, *tmp = xcalloc((size_t)cJSON_GetArraySize(arr) + 1, sizeof *tmp);

	cJSON_ArrayForEach(v, arr)
	{
		if (cJSON_IsNumber(v))
			tmp[count++] = v->valueint;
	}
	model_set_ints(dst, n, tmp, count);
	free(tmp);
}

static void
model_replay_lanes(struct model *m, const cJSON *machine)
{
	const cJSON *lanes = cJSON_GetObjectItemCaseSensitive(machine, "lanes"), *lane, *v;
	int l = 0;

	model_free_lanes(m);
	m->machine_cores = model_json_int(machine, "cores", 0);
	m->keep = model_json_int(machine, "keep", 0);
	m->nlanes = cJSON_GetArraySize(lanes);
	m->width = m->nlanes > 0 ? cJSON_GetArraySize(cJSON_GetArrayItem(lanes, 0)) : 0;
	m->lanes = xcalloc((size_t)(m->nlanes > 0 ? m->nlanes : 1), sizeof *m->lanes);
	cJSON_ArrayForEach(lane, lanes)
	{
		struct model_lane *ml = &m->lanes[l++];
		int c = 0;

		ml->ncores = cJSON_GetArraySize(lane);
		ml->cores = xcalloc((size_t)(ml->ncores > 0 ? ml->ncores : 1), sizeof *ml->cores);
		ml->core_runs =
		    xcalloc((size_t)(ml->ncores > 0 ? ml->ncores : 1), sizeof *ml->core_runs);
		cJSON_ArrayForEach(v, lane)
		{
			if (c < ml->ncores)
				ml->cores[c++] = cJSON_IsNumber(v) ? v->valueint : -1;
		}
	}
}

static bool
model_pkg_runs(const struct replay *r, int pkg)
{
	return pkg >= 0 && (size_t)pkg < r->npkgs && r->pkgs[pkg]->build_ok && !r->pkgs[pkg]->empty;
}

void
model_update_replay(struct model *m, const struct replay *r, const char *outdir, int64_t now_ms)
{
	const cJSON *config = cJSON_GetObjectItemCaseSensitive(r->header, "config");
	const cJSON *machine = cJSON_GetObjectItemCaseSensitive(r->header, "machine");
	const cJSON *project = cJSON_GetObjectItemCaseSensitive(r->header, "project");
	const cJSON *root = cJSON_GetObjectItemCaseSensitive(project, "root");
	const cJSON *run_re = cJSON_GetObjectItemCaseSensitive(config, "run");
	int64_t sweep_done = 0, sweep_target = 0, confirm_done = 0, confirm_target = 0;
	int64_t pairs;
	size_t i, nok = 0;

	m->results = r->results;
	if (m->outdir == NULL)
		m->outdir = xstrdup(outdir);
	if (m->root == NULL && cJSON_IsString(root))
		m->root = xstrdup(root->valuestring);
	model_json_ints(cJSON_GetObjectItemCaseSensitive(config, "cpu"), &m->cpus, &m->ncpus);
	model_json_ints(cJSON_GetObjectItemCaseSensitive(config, "load"), &m->loads, &m->nloads);
	m->count = model_json_int(config, "count", 0);
	m->confirm = model_json_int(config, "confirm", 0);
	free(m->status);
	m->status = xstrdup(r->end_status != NULL ? r->end_status : "running");
	m->finished = r->end_status != NULL;
	m->paused = false;
	m->started_ms = r->started_ms;
	m->finished_ms = r->finished_ms;
	m->inflight = (int)r->nunfinished;
	model_replay_lanes(m, machine);

	/* Progress as the sweep planned it: every built package at every pair
	 * count times, then each test that failed in the sweep confirm times
	 * at every pair, plus the confirm runs asked for on demand. */
	pairs = (int64_t)m->ncpus * m->nloads;
	for (i = 0; i < r->npkgs; i++)
		nok += model_pkg_runs(r, (int)i);
	sweep_target = (int64_t)nok * pairs * m->count;
	for (i = 0; i < r->npairs; i++) {
		const struct replay_pair *p = &r->pairs[i];

		if (p->phase == RESULTS_SWEEP)
			sweep_done += p->runs < m->count ? p->runs : m->count;
		else
			confirm_done += p->runs;
	}
	for (i = 0; i < r->results->ntests; i++) {
		const struct results_test *t = &r->results->tests[i];

		if (t->first != NULL && t->first->phase == RESULTS_SWEEP &&
		    model_pkg_runs(r, t->pkg))
			confirm_target += pairs * m->confirm;
	}
	for (i = 0; i < r->nconfirms; i++) {
		if (results_find(r->results, r->confirm_tests[i]) != NULL)
			confirm_target += pairs * r->confirm_counts[i];
	}
	if (cJSON_IsString(run_re)) {
		/* --run: the matching tests are the target; no later confirm. */
		sweep_target = 0;
		confirm_target = (int64_t)nok * pairs * m->count;
	}
	if (m->finished) {
		m->phase = SWEEP_PHASE_DONE;
		m->done = m->target = sweep_done + confirm_done;
		if (m->done < r->results->runs)
			m->done = m->target = r->results->runs;
	} else if (r->npkgs == 0) {
		m->phase = SWEEP_PHASE_BUILD;
		m->done = m->target = 0;
	} else if (sweep_done < sweep_target) {
		m->phase = SWEEP_PHASE_SWEEP;
		m->done = sweep_done;
		m->target = sweep_target;
	} else {
		m->phase = SWEEP_PHASE_CONFIRM;
		m->done = confirm_done;
		m->target = confirm_target > confirm_done ? confirm_target : confirm_done;
	}
	model_counts(m);
	model_eta(m, now_ms);
	model_list_tests(m);
}

int
model_load_decisions(struct model *m)
{
	struct decision *v = NULL;
	size_t n = 0;
	char *path;
	int rc;

	if (m->outdir == NULL)
		return -ENOENT;
	path = xasprintf("%s/%s", m->outdir, DECISIONS_FILE);
	rc = decisions_load(path, &v, &n);
	free(path);
	if (rc < 0)
		return rc;
	decisions_free(m->decisions, m->ndecisions);
	m->decisions = v;
	m->ndecisions = n;
	model_list_tests(m);
	return 0;
}

static int64_t
model_mtime_ns(const char *path)
{
	struct stat st;

	if (stat(path, &st) < 0)
		return -1;
	return (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec + st.st_size;
}

void
model_load_quarantine(struct model *m, const char *path, bool force)
{
	int64_t mtime = model_mtime_ns(path);
	struct quarantine *q = NULL;
	char *err = NULL;
	int rc;

	if (!force && m->quarantine != NULL && mtime == m->quarantine_mtime_ns &&
	    strcmp(m->quarantine->path, path) == 0)
		return;
	m->quarantine_mtime_ns = mtime;
	free(m->quarantine_error);
	m->quarantine_error = NULL;
	rc = quarantine_load(path, &q, &err);
	if (rc == -ENOENT) {
		q = quarantine_new(path);
	} else if (rc < 0) {
		m->quarantine_error = err;
		err = NULL;
		q = quarantine_new(path);
	}
	free(err);
	quarantine_free(m->quarantine);
	m->quarantine = q;
	model_list_tests(m);
}

void
model_judge_quarantine(struct model *m, int64_t now_ms)
{
	size_t i;
	int k;

	if (m->quarantine == NULL)
		return;
	for (i = 0; i < m->quarantine->nentries; i++) {
		struct quarantine_entry *e = &m->quarantine->entries[i];
		const struct results_test *t;

		memset(&e->ev, 0, sizeof e->ev);
		if (!e->valid) {
			e->status = QUARANTINE_INVALID;
			continue;
		}
		t = m->results != NULL ? results_find(m->results, e->test) : NULL;
		for (k = 0; t != NULL && k < t->ncells; k++) {
			const struct results_cell *c = &t->cells[k];

			quarantine_evidence_add_cell(&e->ev, &e->ch, c->cpu, c->load, (long)c->runs,
			                             (long)c->failures, (long)c->hangs);
		}
		e->status = quarantine_judge(e, &e->ev, QUARANTINE_DEFAULT_MIN_RUNS, now_ms);
	}
}

static const char *
model_json_str(const cJSON *obj, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);

	return cJSON_IsString(v) ? v->valuestring : NULL;
}

void
model_reproduce(struct model *m, const struct sweep *s, size_t i, const char **flakesweep,
                const char **direct)
{
	const struct results_test *t = model_results_test(m, i);
	const struct results_cell *c = t != NULL ? results_worst_cell(t) : NULL;
	char *path = NULL, *key, *fs = NULL, *d = NULL;
	const cJSON *test;
	int64_t mtime = 0;

	if (s == NULL && m->outdir != NULL) {
		path = xasprintf("%s/results.json", m->outdir);
		mtime = model_mtime_ns(path);
	}
	key = xasprintf("%s %d %d %d %lld", t != NULL ? t->id : "", c != NULL ? (int)c->phase : -1,
	                c != NULL ? c->cpu : 0, c != NULL ? c->load : 0, (long long)mtime);
	if (m->repro_key != NULL && strcmp(key, m->repro_key) == 0) {
		free(key);
		free(path);
		goto out;
	}
	free(m->repro_key);
	free(m->repro_flakesweep);
	free(m->repro_direct);
	m->repro_key = key;
	if (t != NULL && c != NULL && s != NULL) {
		sweep_reproduce(s, t, c, &fs, &d);
	} else if (t != NULL && path != NULL) {
		if (mtime != m->results_mtime_ns) {
			char *text = NULL;
			size_t len = 0;

			cJSON_Delete(m->results_json);
			m->results_json = NULL;
			if (util_read_file(path, (size_t)256 << 20, &text, &len) == 0)
				m->results_json = cJSON_ParseWithLength(text, len);
			free(text);
			m->results_mtime_ns = mtime;
		}
		cJSON_ArrayForEach(test, cJSON_GetObjectItemCaseSensitive(m->results_json, "tests"))
		{
			const char *id = model_json_str(test, "id");
			const cJSON *rep = cJSON_GetObjectItemCaseSensitive(test, "reproduce");

			if (id != NULL && strcmp(id, t->id) == 0 && cJSON_IsObject(rep)) {
				const char *a = model_json_str(rep, "flakesweep");
				const char *b = model_json_str(rep, "direct");

				fs = a != NULL ? xstrdup(a) : NULL;
				d = b != NULL ? xstrdup(b) : NULL;
				break;
			}
		}
	}
	free(path);
	m->repro_flakesweep = fs != NULL ? fs : xstrdup("");
	m->repro_direct = d != NULL ? d : xstrdup("");
out:
	*flakesweep = m->repro_flakesweep;
	*direct = m->repro_direct;
}
