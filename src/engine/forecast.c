/* SPDX-License-Identifier: MIT */
/*
 * forecast.c: the virtual executor. It asks the scheduler core for its
 * decisions, gives each run started an end in virtual time, and hands the
 * core the earliest end as the next event, as the loop of a real sweep
 * would. A core counts as busy while at least one run is pinned to it.
 * It never spawns, reads a clock or touches a file.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "engine/canary.h"
#include "engine/forecast.h"
#include "engine/lanes.h"
#include "engine/sched-core.h"

/* A run in flight: it ends at end_ms. */
struct forecast_run {
	int64_t end_ms, ms;
	int64_t seq; /* ties end in start order */
	struct sched_run *run;
};

struct forecast_state {
	const struct forecast_input *in;
	struct forecast *out;
	struct sched_core *core;
	struct forecast_run *heap;
	size_t nheap, cap;
	int64_t now_ms, seq;
	int64_t loop_us;    /* when the loop is free to start the next run */
	int *core_runs;     /* per CPU id: runs pinned to it */
	int64_t *busy_from; /* per CPU id: since when it holds one */
	int64_t busy_ms;
	int64_t phase_ms[SWEEP_PHASE_DONE + 1];      /* when each phase began */
	int64_t phase_busy_ms[SWEEP_PHASE_DONE + 1]; /* busy_ms then: no run is in flight */
	bool over;
};

static bool
forecast_before(const struct forecast_run *a, const struct forecast_run *b)
{
	return a->end_ms < b->end_ms || (a->end_ms == b->end_ms && a->seq < b->seq);
}

static void
forecast_push(struct forecast_state *st, struct forecast_run r)
{
	size_t i;

	if (st->nheap == st->cap) {
		st->cap = st->cap ? st->cap * 2 : 64;
		st->heap = xrealloc(st->heap, sizeof *st->heap * st->cap);
	}
	for (i = st->nheap++; i > 0 && forecast_before(&r, &st->heap[(i - 1) / 2]); i = (i - 1) / 2)
		st->heap[i] = st->heap[(i - 1) / 2];
	st->heap[i] = r;
}

static struct forecast_run
forecast_pop(struct forecast_state *st)
{
	struct forecast_run top = st->heap[0], last = st->heap[--st->nheap];
	size_t i = 0, c;

	while ((c = 2 * i + 1) < st->nheap) {
		if (c + 1 < st->nheap && forecast_before(&st->heap[c + 1], &st->heap[c]))
			c++;
		if (!forecast_before(&st->heap[c], &last))
			break;
		st->heap[i] = st->heap[c];
		i = c;
	}
	if (st->nheap > 0)
		st->heap[i] = last;
	return top;
}

/* Notes once that pkg's time at (cpu, load) comes from another measure. */
static void
forecast_note_scaled(struct forecast *out, int pkg, int cpu, int load, int from_cpu, int from_load)
{
	size_t i;

	for (i = 0; i < out->nscaled; i++)
		if (out->scaled[i].pkg == pkg && out->scaled[i].cpu == cpu &&
		    out->scaled[i].load == load)
			return;
	out->scaled = xrealloc(out->scaled, sizeof *out->scaled * (out->nscaled + 1));
	out->scaled[out->nscaled++] = (struct forecast_scaled){pkg, cpu, load, from_cpu, from_load};
}

/* A run's time in ms at (cpu, load): the package's median there; else the
 * median at the nearest cpu measured (the smaller on a tie) at that load,
 * or at the nearest load times load over its load; else, in a file from
 * before durations were recorded, the mean of every run of the package,
 * times the load. */
static int64_t forecast_ms(struct forecast_state *st, int pkg, int cpu, int load, bool note);

static int
forecast_cmp_ms(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* A new package's time at (cpu, load): the median of the measured
 * packages' there (the lower middle of an even count). */
static int64_t
forecast_borrowed_ms(struct forecast_state *st, int pkg, int cpu, int load)
{
	size_t n = st->in->measured, i;
	int64_t *ms = xcalloc(n + 1, sizeof *ms), median;

	forecast_note_scaled(st->out, pkg, cpu, load, -1, -1);
	size_t k = 0;

	for (i = 0; i < n; i++)
		if (st->in->durations->pkgs[i].runs > 0)
			ms[k++] = forecast_ms(st, (int)i, cpu, load, false);
	qsort(ms, k, sizeof *ms, forecast_cmp_ms);
	median = k > 0 ? ms[(k - 1) / 2] : 0;
	free(ms);
	return median;
}

static int64_t
forecast_ms(struct forecast_state *st, int pkg, int cpu, int load, bool note)
{
	struct results_pkg *p = &st->in->durations->pkgs[pkg];
	struct durations_cell *best = NULL;
	int64_t ms;
	size_t i;

	for (i = 0; i < p->durations.ncells; i++) {
		struct durations_cell *c = &p->durations.cells[i];
		int dc = abs(c->cpu - cpu), dl = abs(c->load - load);

		if (c->runs == 0)
			continue;
		if (best == NULL || dl < abs(best->load - load) ||
		    (dl == abs(best->load - load) &&
		     (dc < abs(best->cpu - cpu) ||
		      (dc == abs(best->cpu - cpu) && c->cpu < best->cpu))))
			best = c;
	}
	if (best == NULL && (size_t)pkg >= st->in->measured)
		return forecast_borrowed_ms(st, pkg, cpu, load);
	if (best == NULL) {
		if (note)
			forecast_note_scaled(st->out, pkg, cpu, load, 0, 0);
		ms = p->runs > 0 ? p->ms / p->runs : 0;
		return ms * load;
	}
	if (note && (best->cpu != cpu || best->load != load))
		forecast_note_scaled(st->out, pkg, cpu, load, best->cpu, best->load);
	return durations_median(best) * load / best->load;
}

static void
forecast_start(struct forecast_state *st, struct sched_run *run)
{
	const struct plan_pair *p = sched_pair_data(sched_core_sched(st->core), run->pair);
	struct forecast_run r = {.run = run, .seq = st->seq++};
	int64_t start_ms = st->now_ms;
	int i;

	r.ms =
	    p->pkg == PLAN_CANARY ? CANARY_SPIN_MS : forecast_ms(st, p->pkg, p->cpu, p->load, true);
	/* A run never takes no time: the loop spawns and reaps it. */
	if (r.ms < 1)
		r.ms = 1;
	/* The loop starts one run at a time: this one once the loop is free,
	 * its cores held and idle until then. */
	if (st->in->spawn_us > 0) {
		if (st->loop_us < st->now_ms * 1000)
			st->loop_us = st->now_ms * 1000;
		st->loop_us += st->in->spawn_us;
		start_ms = st->loop_us / 1000;
		st->out->spawn_s += (double)st->in->spawn_us / 1e6;
	}
	r.end_ms = start_ms + r.ms;
	forecast_push(st, r);
	for (i = 0; i < run->ncpus; i++)
		if (st->core_runs[run->cpus[i]]++ == 0)
			st->busy_from[run->cpus[i]] = start_ms;
	if (p->pkg == PLAN_CANARY)
		st->out->canary_runs++;
	else if (sched_core_phase(st->core) == SWEEP_PHASE_SWEEP)
		st->out->sweep.runs++;
	else
		st->out->confirm.runs++;
}

static void
forecast_end(struct forecast_state *st, const struct forecast_run *r)
{
	int i;

	st->now_ms = r->end_ms;
	for (i = 0; i < r->run->ncpus; i++)
		if (--st->core_runs[r->run->cpus[i]] == 0)
			st->busy_ms += st->now_ms - st->busy_from[r->run->cpus[i]];
	if (st->in->record != NULL) {
		const struct plan_pair *p =
		    sched_pair_data(sched_core_sched(st->core), r->run->pair);
		struct forecast_record rec = {
		    p, r->run->lane, r->run->cpus, r->run->ncpus, r->end_ms - r->ms, r->ms};

		if (p->pkg != PLAN_CANARY)
			st->in->record->run(st->in->record->arg, &rec);
	}
	sched_core_finish(st->core, r->run, r->ms);
}

/* Carries out the core's decisions until it has none. */
static void
forecast_decide(struct forecast_state *st)
{
	struct sched_core_decision d;

	while (sched_core_next(st->core, true, &d)) {
		switch (d.kind) {
		case SCHED_CORE_START:
			forecast_start(st, d.run);
			break;
		case SCHED_CORE_PHASE:
			st->phase_ms[d.phase] = st->now_ms;
			st->phase_busy_ms[d.phase] = st->busy_ms;
			break;
		case SCHED_CORE_OVER:
			st->over = true;
			break;
		case SCHED_CORE_ENV_UP:
		case SCHED_CORE_ENV_DOWN:
			/* The durations hold no environment's pairs. */
			break;
		}
	}
}

struct pkg **
forecast_pkgs(const struct forecast_input *in)
{
	const struct results *r = in->durations;
	struct pkg **pkgs = xcalloc(r->npkgs + 1, sizeof *pkgs);
	size_t i;

	for (i = 0; i < r->npkgs; i++) {
		pkgs[i] = xcalloc(1, sizeof *pkgs[i]);
		pkgs[i]->name = xstrdup(r->pkgs[i].name);
		pkgs[i]->level = xstrdup(r->pkgs[i].level);
		pkgs[i]->build_ok = true;
		pkgs[i]->empty = i < in->measured && r->pkgs[i].runs == 0;
	}
	return pkgs;
}

static int
forecast_lanes(const struct forecast_input *in, struct forecast *out, struct lanes *lanes,
               char **err)
{
	cpu_set_t allowed;
	int i;

	if (in->cores < 1 || in->cores > CPU_SETSIZE) {
		*err = xasprintf(_("--cores %d: expected a machine of 1 to %d cores"), in->cores,
		                 CPU_SETSIZE);
		return -EINVAL;
	}
	CPU_ZERO(&allowed);
	for (i = 0; i < in->cores; i++)
		CPU_SET(i, &allowed);
	if (in->cpus != NULL) {
		out->cpus = xmalloc(sizeof *out->cpus * (size_t)in->ncpus);
		memcpy(out->cpus, in->cpus, sizeof *out->cpus * (size_t)in->ncpus);
		out->ncpus = in->ncpus;
	}
	if (lanes_for_sweep(&allowed, in->keep, &out->cpus, &out->ncpus, lanes, err) < 0)
		return -EINVAL;
	out->cores = lanes->ncores;
	out->keep = lanes->keep;
	out->nlanes = lanes->nlanes;
	out->width = lanes->width;
	return 0;
}

/* A phase's wall time and busy core time, from ms. */
static void
forecast_phase(struct forecast_phase *ph, const struct lanes *lanes, int64_t wall_ms,
               int64_t busy_ms)
{
	double usable = (double)(lanes->nlanes * lanes->width) * (double)wall_ms;

	ph->wall_s = (double)wall_ms / 1000.0;
	ph->busy_core_s = (double)busy_ms / 1000.0;
	ph->utilisation = usable > 0 ? (double)busy_ms / usable : 0;
}

int
forecast_run(const struct forecast_input *in, struct forecast *out, char **err)
{
	struct sched_core_setup setup;
	struct sched_core_input ci;
	struct forecast_state st;
	struct lanes lanes;
	struct pkg **pkgs;
	int rc;

	memset(out, 0, sizeof *out);
	memset(&st, 0, sizeof st);
	*err = NULL;
	if ((rc = forecast_lanes(in, out, &lanes, err)) < 0) {
		forecast_free(out);
		return rc;
	}
	if (in->record != NULL)
		in->record->lanes(in->record->arg, &lanes);
	memset(&setup, 0, sizeof setup);
	setup.lanes = &lanes;
	setup.grid = (struct plan_grid){.cpus = out->cpus,
	                                .loads = in->loads,
	                                .ncpus = out->ncpus,
	                                .nloads = in->nloads,
	                                .count = in->count,
	                                .confirm = in->confirm,
	                                .run = in->run};
	setup.canaries = in->canaries;
	pkgs = forecast_pkgs(in);
	memset(&ci, 0, sizeof ci);
	ci.pkgs = pkgs;
	ci.npkgs = in->durations->npkgs;
	ci.results = in->durations;
	st.in = in;
	st.out = out;
	st.core = sched_core_new(&setup);
	st.core_runs = xcalloc((size_t)in->cores, sizeof *st.core_runs);
	st.busy_from = xcalloc((size_t)in->cores, sizeof *st.busy_from);
	sched_core_begin(st.core, &ci);
	for (forecast_decide(&st); !st.over && st.nheap > 0; forecast_decide(&st)) {
		struct forecast_run r = forecast_pop(&st);

		forecast_end(&st, &r);
	}
	out->runs = out->sweep.runs + out->confirm.runs;
	forecast_phase(&out->sweep, &lanes,
	               st.phase_ms[SWEEP_PHASE_CONFIRM] - st.phase_ms[SWEEP_PHASE_SWEEP],
	               st.phase_busy_ms[SWEEP_PHASE_CONFIRM] - st.phase_busy_ms[SWEEP_PHASE_SWEEP]);
	forecast_phase(&out->confirm, &lanes, st.now_ms - st.phase_ms[SWEEP_PHASE_CONFIRM],
	               st.busy_ms - st.phase_busy_ms[SWEEP_PHASE_CONFIRM]);
	out->wall_s = (double)st.now_ms / 1000.0;
	out->busy_core_s = (double)st.busy_ms / 1000.0;
	out->usable_core_s = (double)(lanes.nlanes * lanes.width) * out->wall_s;
	out->utilisation = out->usable_core_s > 0 ? out->busy_core_s / out->usable_core_s : 0;
	sched_core_free(st.core);
	free(st.heap);
	free(st.core_runs);
	free(st.busy_from);
	driver_free_pkgs(pkgs, in->durations->npkgs);
	lanes_free(&lanes);
	return 0;
}

void
forecast_free(struct forecast *f)
{
	free(f->cpus);
	free(f->scaled);
	memset(f, 0, sizeof *f);
}
