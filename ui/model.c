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
#include <unistd.h>

#include "model.h"
#include "engine/sweep.h"
#include "engine/replay-status.h"
#include "results/causes.h"
#include "base/util.h"

struct model *
model_new(enum model_source source)
{
	struct model *m = xcalloc(1, sizeof *m);

	m->source = source;
	m->eta_s = -1;
	m->total_eta_s = -1;
	m->eta_phase = SWEEP_PHASE_DISCOVER;
	m->tests_failures = -1;
	return m;
}

static void
model_free_lanes(struct model *m)
{
	struct sweep_status st;

	memset(&st, 0, sizeof st);
	st.lanes = m->lanes;
	st.nlanes = m->nlanes;
	st.level_pkgs = m->level_pkgs;
	st.nlevel_pkgs = m->nlevel_pkgs;
	st.pins = m->pins;
	st.npins = m->npins;
	st.leases = m->leases;
	st.nleases = m->nleases;
	status_free(&st);
	m->leases = NULL;
	m->nleases = 0;
	m->lanes = NULL;
	m->level_pkgs = NULL;
	m->nlevel_pkgs = 0;
	m->pins = NULL;
	m->npins = 0;
}

const struct status_level_pkg *
model_level_pkg(const struct model *m, const char *pkg)
{
	size_t i;

	for (i = 0; i < m->nlevel_pkgs; i++) {
		if (strcmp(m->level_pkgs[i].pkg, pkg) == 0)
			return &m->level_pkgs[i];
	}
	return NULL;
}

static void
model_free_shards(struct model *m)
{
	size_t i;

	for (i = 0; i < m->nshards; i++) {
		free(m->shards[i].dir);
		free(m->shards[i].host);
		free(m->shards[i].status);
		free(m->shards[i].held);
	}
	free(m->shards);
	m->shards = NULL;
	m->nshards = 0;
}

static void
model_free_strings(char **v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
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
model_add_event(struct model *m, int64_t ms, bool problem, const char *text)
{
	struct model_event *e;

	if (m->nevents == MODEL_EVENTS_MAX) {
		free(m->events[0].text);
		memmove(m->events, m->events + 1, sizeof *m->events * (m->nevents - 1));
		m->nevents--;
	}
	m->events = xrealloc(m->events, sizeof *m->events * (m->nevents + 1));
	e = &m->events[m->nevents++];
	e->ms = ms;
	e->problem = problem;
	e->text = xstrdup(text);
}

void
model_free(struct model *m)
{
	size_t i;

	if (m == NULL)
		return;
	for (i = 0; i < m->nevents; i++)
		free(m->events[i].text);
	free(m->events);
	model_free_lanes(m);
	model_free_shards(m);
	model_free_tests(m);
	decisions_free(m->decisions, m->ndecisions);
	quarantine_free(m->quarantine);
	free(m->quarantine_error);
	results_free(m->saved);
	results_meta_free(&m->saved_meta);
	free(m->repro_key);
	free(m->repro_flakesweep);
	free(m->repro_direct);
	free(m->cpus);
	free(m->loads);
	free(m->status);
	free(m->outdir);
	free(m->root);
	free(m->commit);
	model_free_strings(m->build_failed, m->nbuild_failed);
	free(m->decisions_path);
	free(m);
}

/* Whether t failed or hung at cpu (0: any) and load (0: any), in either
 * phase. */
static bool
model_failed_at(const struct results_test *t, int cpu, int load)
{
	int i;

	for (i = 0; i < t->ncells; i++) {
		const struct results_cell *c = &t->cells[i];

		if ((cpu == 0 || c->cpu == cpu) && (load == 0 || c->load == load) &&
		    c->failures + c->hangs > 0)
			return true;
	}
	return false;
}

/* Whether t failed at every cpu it ran at, at load (0: any). */
static bool
model_failed_at_every_cpu(const struct results_test *t, int load)
{
	int i;

	for (i = 0; i < t->ncells; i++) {
		if (!model_failed_at(t, t->cells[i].cpu, load))
			return false;
	}
	return true;
}

char *
model_worst_channel(const struct results_test *t)
{
	const struct results_cell *c = t != NULL ? results_worst_cell(t) : NULL;
	int i, load = 0;

	if (c == NULL || !model_failed_at(t, 0, 0))
		return xstrdup("any");
	if (model_failed_at_every_cpu(t, 0)) {
		/* One load with failures at every cpu, none at the others: that
		 * load; failures at every load: any. */
		for (i = 0; i < t->ncells; i++) {
			int l = t->cells[i].load;

			if (model_failed_at(t, 0, l) && l != load) {
				if (load != 0 || !model_failed_at_every_cpu(t, l))
					return xstrdup("any");
				load = l;
			}
		}
		return load > 0 ? xasprintf("load=%d", load) : xstrdup("any");
	}
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

/* The group of a test in the list: 0 needs a decision, 1 decided, 2
 * failing. */
static int
model_group(const struct model_test *mt)
{
	if (mt->verdict == RESULTS_FAILING)
		return 2;
	return mt->undecided ? 0 : 1;
}

static int
model_cmp_tests(const void *a, const void *b)
{
	const struct model_test *x = a, *y = b;
	int gx = model_group(x), gy = model_group(y);

	if (gx != gy)
		return gx < gy ? -1 : 1;
	if (x->severity != y->severity)
		return x->severity > y->severity ? -1 : 1;
	return strcmp(x->id, y->id);
}

/* The highest lower 95% bound of t's failure rate over its pairs, sweep
 * and confirm runs together: a rate that many runs back ranks above the
 * same rate seen in a few. */
static double
model_severity(const struct results_test *t)
{
	double best = 0, lo, hi;
	int i, j;

	for (i = 0; i < t->ncells; i++) {
		int64_t runs = 0, bad = 0;

		for (j = 0; j < t->ncells; j++) {
			if (t->cells[j].cpu == t->cells[i].cpu &&
			    t->cells[j].load == t->cells[i].load) {
				runs += t->cells[j].runs;
				bad += t->cells[j].failures + t->cells[j].hangs;
			}
		}
		results_wilson(bad, runs, &lo, &hi);
		if (lo > best)
			best = lo;
	}
	return best;
}

static void
model_test_fill(struct model *m, struct model_test *mt, const struct results_test *t)
{
	const struct decision *d = decisions_find(m->decisions, m->ndecisions, t->id);

	results_test_totals(t, &mt->runs, &mt->failures, &mt->hangs);
	mt->skipped = results_test_skipped(t);
	mt->verdict = results_verdict(t);
	mt->decision = d != NULL ? d->decision : NULL;
	mt->quarantined = m->quarantine != NULL && quarantine_has_test(m->quarantine, t->id);
	/* The quarantine file says whether a test is quarantined: a decision
	 * to quarantine whose entry was removed since is taken back. */
	if (mt->decision != NULL && strcmp(mt->decision, "quarantined") == 0 &&
	    m->quarantine != NULL && !mt->quarantined)
		mt->decision = NULL;
	mt->undecided = (mt->verdict == RESULTS_FLAKY || mt->verdict == RESULTS_CASCADE) &&
	                mt->decision == NULL && !mt->quarantined;
	mt->severity = model_severity(t);
}

void
model_list_tests(struct model *m)
{
	const struct results *r = m->results;
	struct causes *causes;
	size_t i;

	model_free_tests(m);
	m->undecided = 0;
	if (r == NULL)
		return;
	causes = causes_new(r);
	for (i = 0; i < r->ntests; i++) {
		const struct results_test *t = &r->tests[i];
		struct model_test *mt;

		/* A test that skipped itself in some runs is listed too: those
		 * runs tested nothing. */
		if ((t->first == NULL || results_verdict(t) == RESULTS_PASSED) &&
		    results_verdict(t) != RESULTS_SKIP_FLAKY)
			continue;
		m->tests = xrealloc(m->tests, sizeof *m->tests * (m->ntests + 1));
		mt = &m->tests[m->ntests++];
		memset(mt, 0, sizeof *mt);
		mt->index = i;
		mt->id = xstrdup(t->id);
		mt->pkg = t->pkg >= 0 && (size_t)t->pkg < r->npkgs
		              ? status_short_pkg(r->pkgs[t->pkg].name)
		              : xstrdup("?");
		mt->name = xstrdup(t->test);
		model_test_fill(m, mt, t);
		mt->klass = classify_test(r, causes, i, mt->class_channel);
		m->undecided += mt->undecided;
	}
	causes_free(causes);
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
	const struct results *r = m->results;
	int64_t passed;
	size_t i;

	m->runs = r->runs;
	m->hangs = r->hangs;
	results_counts(r, &passed, &m->flaky, &m->failing);
	m->outside_runs = m->leaked_runs = 0;
	for (i = 0; i < r->npkgs; i++) {
		m->outside_runs += r->pkgs[i].failures_outside_tests;
		m->leaked_runs += r->pkgs[i].leaked_runs;
	}
	m->order_tests = 0;
	for (i = 0; i < r->ntests; i++)
		m->order_tests +=
		    r->tests[i].first != NULL && results_order_dependent(&r->tests[i]);
}

/* The confirm runs the tests failed so far in the sweep will get, as the
 * plan gives them when the sweep ends (plan_confirm). */
static int64_t
model_projected(const struct model *m)
{
	const struct results *r = m->results;
	int64_t tests = 0;
	size_t i;

	if (m->phase >= SWEEP_PHASE_CONFIRM || m->run_only || m->confirm <= 0)
		return 0;
	for (i = 0; i < r->ntests; i++)
		tests += r->tests[i].first != NULL && r->tests[i].first->phase == RESULTS_SWEEP;
	return tests * m->ncpus * m->nloads * m->confirm;
}

void
model_eta(struct model *m, int64_t now_ms)
{
	double per_run;

	if (m->paused && !m->finished) {
		if (m->paused_since_ms == 0)
			m->paused_since_ms = now_ms;
		return;
	}
	if (m->paused_since_ms != 0) {
		m->eta_since_ms += now_ms - m->paused_since_ms;
		m->paused_since_ms = 0;
	}
	if (m->phase != m->eta_phase || m->done < m->eta_done0) {
		m->eta_phase = m->phase;
		m->eta_since_ms = now_ms;
		m->eta_done0 = m->done;
	}
	m->projected = m->finished ? 0 : model_projected(m);
	if (m->finished || (m->target > 0 && m->done >= m->target && m->projected == 0)) {
		m->eta_s = m->total_eta_s = 0;
	} else if (m->done > m->eta_done0 && now_ms > m->eta_since_ms) {
		per_run =
		    (double)(now_ms - m->eta_since_ms) / (double)(m->done - m->eta_done0) / 1000.0;
		m->eta_s = (int64_t)((double)(m->target - m->done) * per_run);
		m->total_eta_s = (int64_t)((double)(m->target - m->done + m->projected) * per_run);
	} else {
		m->eta_s = m->total_eta_s = -1;
	}
	/* A budget's plan ends by its deadline, whatever the pace says. */
	if (!m->finished && m->deadline_ms > 0) {
		m->total_eta_s = m->deadline_ms > now_ms ? (m->deadline_ms - now_ms) / 1000 : 0;
		if (m->eta_s < 0 || m->eta_s > m->total_eta_s)
			m->eta_s = m->total_eta_s;
	}
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

/* Takes the header numbers and the lanes of st (its lanes move to m). */
static void
model_apply_status(struct model *m, struct sweep_status *st)
{
	model_free_lanes(m);
	m->phase = st->phase;
	m->finished = st->finished;
	m->paused = st->paused;
	m->done = st->done;
	m->target = st->target;
	m->started_ms = st->started_ms;
	if (st->cpus != NULL && m->ncpus != st->ncpus)
		model_set_ints(&m->cpus, &m->ncpus, st->cpus, st->ncpus);
	if (m->nloads != st->nloads)
		model_set_ints(&m->loads, &m->nloads, st->loads, st->nloads);
	m->count = st->count;
	m->confirm = st->confirm;
	m->deadline_ms = st->deadline_ms;
	m->timeout_ms = st->timeout_ms;
	m->kill_grace_ms = st->kill_grace_ms;
	m->run_only = st->run_only;
	if (m->commit == NULL && st->commit != NULL)
		m->commit = xstrdup(st->commit);
	model_free_strings(m->build_failed, m->nbuild_failed);
	m->build_failed = st->build_failed;
	m->nbuild_failed = st->nbuild_failed;
	st->build_failed = NULL;
	st->nbuild_failed = 0;
	m->machine_cores = st->machine_cores;
	m->keep = st->keep;
	m->nlanes = st->nlanes;
	m->width = st->width;
	m->lanes = st->lanes;
	m->inflight = st->inflight;
	st->lanes = NULL;
	st->nlanes = 0;
	m->level_pkgs = st->level_pkgs;
	m->nlevel_pkgs = st->nlevel_pkgs;
	m->pins = st->pins;
	m->npins = st->npins;
	m->pinned = st->pinned;
	m->pin_failed = st->pin_failed;
	st->level_pkgs = NULL;
	st->nlevel_pkgs = 0;
	st->pins = NULL;
	st->npins = 0;
	m->leases = st->leases;
	m->nleases = st->nleases;
	st->leases = NULL;
	st->nleases = 0;
}

void
model_update_live(struct model *m, const struct sweep *s, int64_t now_ms)
{
	struct sweep_status st;

	m->results = sweep_results(s);
	m->sweep = s;
	m->live = true;
	if (m->outdir == NULL)
		m->outdir = xstrdup(sweep_outdir(s));
	if (m->root == NULL && sweep_root(s) != NULL)
		m->root = xstrdup(sweep_root(s));
	memset(&st, 0, sizeof st);
	sweep_status(s, &st);
	model_apply_status(m, &st);
	status_free(&st);
	if (m->finished && m->finished_ms == 0)
		m->finished_ms = now_ms;
	model_counts(m);
	/* Over: the progress is every run, not the last phase's. */
	if (m->finished) {
		int rc = sweep_exit_status(s);

		m->done = m->target = m->runs;
		free(m->status);
		m->status = xstrdup(rc == 130 ? "interrupted" : rc == 2 ? "stopped" : "complete");
	}
	model_eta(m, now_ms);
	model_update_tests(m);
}

/* A plan's simulated sweep goes by its virtual clock: now is its last
 * run's end (the end line's time says only the second), and the ETAs
 * follow the pace of its runs so far on that clock. */
static void
model_eta_plan(struct model *m, const struct replay *r)
{
	double per_run;
	int64_t elapsed;

	m->plan_lanes = r->lanes.lanes;
	m->plan_nlanes = r->lanes.nlanes;
	m->plan_now_ms = r->lanes.ended > 0 ? r->lanes.ended : m->finished_ms;
	if (m->plan_now_ms < m->started_ms)
		m->plan_now_ms = m->started_ms;
	elapsed = m->plan_now_ms - m->started_ms;
	if (m->finished) {
		m->eta_s = m->total_eta_s = 0;
	} else if (m->runs > 0 && elapsed > 0) {
		per_run = (double)elapsed / (double)m->runs / 1000.0;
		m->eta_s = (int64_t)((double)(m->target - m->done) * per_run);
		m->total_eta_s = (int64_t)((double)(m->target - m->done + m->projected) * per_run);
	} else {
		m->eta_s = m->total_eta_s = -1;
	}
}

/* The replay's results with the status st: the replay's own, or the one a
 * sweep running elsewhere pushed (whose lanes move to m). */
static void
model_update_from(struct model *m, const struct replay *r, struct sweep_status *st,
                  const char *status, const char *outdir, int64_t now_ms)
{
	m->results = r->results;
	if (m->outdir == NULL)
		m->outdir = xstrdup(outdir);
	if (m->root == NULL && r->header.project.root != NULL)
		m->root = xstrdup(r->header.project.root);
	model_apply_status(m, st);
	free(m->status);
	m->status = xstrdup(status);
	m->simulated = r->header.simulated;
	m->finished_ms = r->finished_ms;
	model_counts(m);
	model_eta(m, now_ms);
	m->plan_lanes = NULL;
	if (m->simulated)
		model_eta_plan(m, r);
	model_list_tests(m);
}

void
model_update_replay(struct model *m, const struct replay *r, const char *outdir, int64_t now_ms)
{
	struct sweep_status st;

	memset(&st, 0, sizeof st);
	replay_status(r, &st);
	model_update_from(m, r, &st, r->end_status != NULL ? r->end_status : "running", outdir,
	                  now_ms);
	m->live = false;
	status_free(&st);
}

void
model_update_attached(struct model *m, const struct replay *r, const struct sweep_status *st,
                      const char *end_status, const char *outdir, int64_t now_ms)
{
	struct sweep_status copy;

	status_copy(&copy, st);
	model_update_from(m, r, &copy, end_status != NULL ? end_status : "running", outdir, now_ms);
	m->live = true;
	status_free(&copy);
}

/* Shard s from in: its state, progress, and its status's lanes and build
 * failures moved to the end of all's. */
static void
model_add_shard(struct model_shard *s, const struct model_shard_in *in, struct sweep_status *all)
{
	const struct replay *r = in->r;
	const char *end = in->st != NULL ? in->end : r->end_status;
	struct sweep_status one;
	size_t i;

	memset(&one, 0, sizeof one);
	if (in->st != NULL)
		status_copy(&one, in->st);
	else
		replay_status(r, &one);
	s->host = xstrdup(r->header.machine.host != NULL ? r->header.machine.host : "?");
	s->index = r->header.config.shard_index;
	s->count = r->header.config.shard_count;
	s->nheld = r->header.config.shard_merged != NULL ? r->header.config.nshard_merged : 1;
	s->held = xmalloc(sizeof *s->held * (size_t)s->nheld);
	memcpy(s->held,
	       r->header.config.shard_merged != NULL ? r->header.config.shard_merged
	                                             : &r->header.config.shard_index,
	       sizeof *s->held * (size_t)s->nheld);
	s->state = end != NULL      ? MODEL_SHARD_FINISHED
	           : in->st != NULL ? MODEL_SHARD_LIVE
	                            : MODEL_SHARD_ELSEWHERE;
	s->status = end != NULL ? xstrdup(end) : NULL;
	s->paused = one.paused;
	s->done = end != NULL ? r->results->runs : one.done;
	s->target = end != NULL ? r->results->runs : one.target;
	s->inflight = one.inflight;
	s->first_lane = all->nlanes;
	s->nlanes = one.nlanes;
	s->width = one.width;
	if (all->cpus == NULL) {
		all->cpus = one.cpus;
		all->ncpus = one.ncpus;
		all->loads = one.loads;
		all->nloads = one.nloads;
		all->count = one.count;
		all->confirm = one.confirm;
		all->timeout_ms = one.timeout_ms;
		all->kill_grace_ms = one.kill_grace_ms;
		all->run_only = one.run_only;
		all->commit = one.commit;
		all->phase = one.phase;
		all->started_ms = one.started_ms;
	}
	if (end == NULL && one.phase < all->phase)
		all->phase = one.phase;
	if (one.started_ms > 0 && one.started_ms < all->started_ms)
		all->started_ms = one.started_ms;
	all->paused &= end != NULL || one.paused;
	all->done += s->done;
	all->target += s->target;
	all->machine_cores += one.machine_cores;
	all->keep += one.keep;
	all->inflight += one.inflight;
	if (one.width > all->width)
		all->width = one.width;
	all->lanes =
	    xrealloc(all->lanes, sizeof *all->lanes * (size_t)(all->nlanes + one.nlanes + 1));
	if (one.nlanes > 0)
		memcpy(all->lanes + all->nlanes, one.lanes, sizeof *one.lanes * (size_t)one.nlanes);
	all->nlanes += one.nlanes;
	free(one.lanes);
	one.lanes = NULL;
	one.nlanes = 0;
	for (i = 0; i < one.nbuild_failed; i++)
		util_strv_add(&all->build_failed, &all->nbuild_failed, one.build_failed[i]);
	status_free(&one);
}

void
model_update_shards(struct model *m, const struct results *merged, const struct model_shard_in *in,
                    size_t n, int64_t now_ms)
{
	struct sweep_status all;
	const char *status = "complete";
	int64_t finished_ms = 0;
	size_t i;

	memset(&all, 0, sizeof all);
	all.paused = true;
	all.phase = SWEEP_PHASE_DONE;
	model_free_shards(m);
	m->shards = xcalloc(n + 1, sizeof *m->shards);
	m->nshards = n;
	m->live = false;
	for (i = 0; i < n; i++) {
		struct model_shard *s = &m->shards[i];

		s->dir = xstrdup(in[i].dir);
		if (in[i].r == NULL) {
			status = "running";
			continue;
		}
		model_add_shard(s, &in[i], &all);
		m->live |= s->state == MODEL_SHARD_LIVE;
		if (s->state != MODEL_SHARD_FINISHED)
			status = "running";
		else if (strcmp(s->status, "complete") != 0 && strcmp(status, "running") != 0)
			status = "interrupted";
		if (in[i].r->finished_ms > finished_ms)
			finished_ms = in[i].r->finished_ms;
		if (m->root == NULL && in[i].r->header.project.root != NULL)
			m->root = xstrdup(in[i].r->header.project.root);
	}
	if (all.cpus == NULL)
		all.phase = SWEEP_PHASE_DISCOVER;
	all.finished = strcmp(status, "running") != 0;
	all.paused &= m->live;
	m->results = merged;
	if (m->outdir == NULL)
		m->outdir = xstrdup(in[0].dir);
	model_apply_status(m, &all);
	free(m->status);
	m->status = xstrdup(status);
	m->finished_ms = all.finished ? finished_ms : 0;
	model_free_strings(all.build_failed, all.nbuild_failed);
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
	model_decisions_path(m);
	rc = decisions_load_both(path, m->decisions_path, &v, &n);
	free(path);
	if (rc < 0)
		return rc;
	decisions_free(m->decisions, m->ndecisions);
	m->decisions = v;
	m->ndecisions = n;
	model_list_tests(m);
	return 0;
}

/* Whether path lies inside directory root. */
static bool
model_inside(const char *path, const char *root)
{
	char *rp = realpath(root, NULL);
	size_t n = rp != NULL ? strlen(rp) : 0;
	bool in = rp != NULL && strncmp(path, rp, n) == 0 && (path[n] == '/' || path[n] == '\0');

	free(rp);
	return in;
}

bool
model_quarantine_in_project(const struct model *m)
{
	const struct quarantine *q = m->quarantine;
	char *abs, *cwd;
	bool in;

	if (q == NULL || q->text != NULL)
		return q != NULL;
	if (m->root == NULL)
		return false;
	cwd = q->path[0] == '/' ? NULL : getcwd(NULL, 0);
	abs = cwd != NULL ? xasprintf("%s/%s", cwd, q->path) : xstrdup(q->path);
	in = model_inside(abs, m->root);
	free(abs);
	free(cwd);
	return in;
}

const char *
model_decisions_path(struct model *m)
{
	const char *q = m->quarantine != NULL ? m->quarantine->path : NULL;
	const char *slash = q != NULL ? strrchr(q, '/') : NULL;
	char *dir, *abs = NULL;
	struct stat st;

	free(m->decisions_path);
	m->decisions_path = NULL;
	if (q == NULL)
		return NULL;
	dir = slash != NULL ? xstrndup(q, (size_t)(slash - q) + (slash == q)) : xstrdup(".");
	if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode)) {
		m->decisions_path = xasprintf("%s/%s", dir, DECISIONS_FILE);
	} else if (m->root != NULL) {
		char *cwd = getcwd(NULL, 0);

		abs = dir[0] == '/' || cwd == NULL ? xstrdup(dir) : xasprintf("%s/%s", cwd, dir);
		free(cwd);
		if (model_inside(abs, m->root))
			m->decisions_path = xasprintf("%s/%s", dir, DECISIONS_FILE);
	}
	free(abs);
	free(dir);
	return m->decisions_path;
}

void
model_load_quarantine(struct model *m, const char *path, bool force)
{
	int64_t mtime = util_file_signature(path);
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
	if (m->quarantine != NULL)
		quarantine_evaluate(m->quarantine, m->results, NULL, QUARANTINE_DEFAULT_MIN_RUNS,
		                    now_ms);
}

void
model_reproduce(struct model *m, const struct sweep *s, size_t i, const char **flakesweep,
                const char **direct)
{
	const struct results_test *t = model_results_test(m, i);
	const struct results_cell *c = t != NULL ? results_worst_cell(t) : NULL;
	char *path = NULL, *key, *fs = NULL, *d = NULL;
	int64_t mtime = 0;

	if (s == NULL && m->outdir != NULL) {
		path = xasprintf("%s/results.json", m->outdir);
		mtime = util_file_signature(path);
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
		const struct results_test *saved;
		char *err = NULL;

		if (mtime != m->results_mtime_ns) {
			results_free(m->saved);
			results_meta_free(&m->saved_meta);
			m->saved = NULL;
			/* A results.json not yet written (or torn) has no commands. */
			results_load_flags(path, RESULTS_LOAD_SIMULATED, &m->saved, &m->saved_meta,
			                   &err);
			free(err);
			m->results_mtime_ns = mtime;
		}
		saved = m->saved != NULL ? results_find(m->saved, t->id) : NULL;
		if (saved != NULL) {
			const struct results_meta_test *mt =
			    &m->saved_meta.tests[saved - m->saved->tests];

			fs = mt->reproduce_flakesweep ? xstrdup(mt->reproduce_flakesweep) : NULL;
			d = mt->reproduce_direct ? xstrdup(mt->reproduce_direct) : NULL;
		}
	}
	free(path);
	m->repro_flakesweep = fs != NULL ? fs : xstrdup("");
	m->repro_direct = d != NULL ? d : xstrdup("");
out:
	*flakesweep = m->repro_flakesweep;
	*direct = m->repro_direct;
}
