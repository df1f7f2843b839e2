/* SPDX-License-Identifier: MIT */
/*
 * budget.c: a sweep with a deadline (see budget.h). The model is the
 * cores' time: a run of mean wall time m at cpu c and load l holds c/l
 * cores for m; the rate is the core time the runs of this phase used per
 * millisecond of the clock since it began, the runs in flight counted so
 * far. A count n for every pair then costs n times the sum of the pairs'
 * core times, and the largest n whose rest fits in the time left at the
 * measured rate is chosen.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/adaptive.h"
#include "engine/budget-forecast.h"
#include "engine/budget.h"
#include "engine/sweep-int.h"
#include "base/timefmt.h"

/* Choices are made at most this often while the phase has runs to give,
 * and at most a twentieth of the phase's time apart up to a minute: quick
 * while the first runs arrive, rarer as the measures settle. */
#define BUDGET_TICK_MS 500
#define BUDGET_TICK_MAX_MS 60000
/* Left unplanned at the end: a fiftieth of the budget, at least a second. */
#define BUDGET_GUARD_DIV 50
#define BUDGET_GUARD_MIN_MS 1000
/* Kept for the confirm phase once a test failed in the sweep. */
#define BUDGET_CONFIRM_SHARE 0.25

struct budget {
	int64_t deadline_ms;
	int64_t begun_ms; /* the sweep phase began */
	int64_t phase_ms; /* the current phase began */
	int64_t next_ms;  /* the next choice is due */
	enum sweep_phase phase;
	int count;          /* runs a pair chosen for this phase, 0 before */
	int recorded;       /* the count of the phase's last budget line, 0 before */
	bool planned_first; /* the count chosen is the plan's (--durations) */
	double rate;        /* core ms per clock ms, as last measured */
	double mean_ms;     /* mean wall time of a run, as last measured */
	int planned;        /* the count the sweep's plan was made with */
	int *canary0;       /* canary pairs' targets as planned, in order */
	size_t ncanary0;
	int64_t clipped;
	bool over;
	/* --adaptive: each sweep pair's allocation, by budget_cell. */
	enum results_allocation *alloc;
};

int
budget_parse_until(const char *text, int64_t now_ms, int64_t *ms, bool *tomorrow)
{
	int h, m, sec = 0, n = 0;
	time_t now = (time_t)(now_ms / 1000), t;
	struct tm tm;

	*tomorrow = false;
	if ((sscanf(text, "%2d:%2d%n", &h, &m, &n) == 2 && text[n] == '\0') ||
	    (sscanf(text, "%2d:%2d:%2d%n", &h, &m, &sec, &n) == 3 && text[n] == '\0')) {
		if (h > 23 || m > 59 || sec > 59 || h < 0 || m < 0 || sec < 0)
			return -EINVAL;
		localtime_r(&now, &tm);
		tm.tm_hour = h;
		tm.tm_min = m;
		tm.tm_sec = sec;
		tm.tm_isdst = -1;
		t = mktime(&tm);
		if ((int64_t)t * 1000 <= now_ms) {
			tm.tm_mday++;
			tm.tm_isdst = -1;
			t = mktime(&tm);
			*tomorrow = true;
		}
		*ms = (int64_t)t * 1000;
		return 0;
	}
	if (timefmt_parse_time(text, ms) < 0)
		return -EINVAL;
	return *ms <= now_ms ? -ERANGE : 0;
}

int64_t
budget_deadline(const struct sweep *s)
{
	int64_t began = s->hdr.started_ms > 0 ? s->hdr.started_ms : s->started_ms;

	if (s->o->given & OPTIONS_GIVEN_COUNT)
		return 0;
	if (s->o->for_ms > 0)
		return began + s->o->for_ms;
	return s->o->until_ms;
}

/* The budget of s, made on first use; NULL without one. */
static struct budget *
budget_get(struct sweep *s)
{
	int64_t deadline;

	if (s->budget != NULL)
		return s->budget;
	if ((deadline = budget_deadline(s)) <= 0)
		return NULL;
	s->budget = xcalloc(1, sizeof *s->budget);
	s->budget->deadline_ms = deadline;
	return s->budget;
}

static int64_t
budget_guard(const struct budget *b)
{
	int64_t g = (b->deadline_ms - b->begun_ms) / BUDGET_GUARD_DIV;

	return g > BUDGET_GUARD_MIN_MS ? g : BUDGET_GUARD_MIN_MS;
}

/* Whether the pair counts in the phase's choice: a planned pair (no
 * probe, no canary) of the phase. */
static bool
budget_pair_ours(const struct sweep *s, const struct plan_pair *p)
{
	if (p->seed != NULL || p->pkg == PLAN_CANARY)
		return false;
	return s->phase == SWEEP_PHASE_SWEEP || p->phase != RESULTS_SWEEP;
}

/* Sets the scheduler pair id's target to want, never below its runs
 * started. */
static void
budget_set_target(struct sweep *s, int id, struct plan_pair *p, int want)
{
	int cpu, load, target, started, done;

	sched_pair_counts(sweep_sched(s), id, &cpu, &load, &target, &started, &done);
	if (want < started)
		want = started;
	if (want == target)
		return;
	sched_add_runs(sweep_sched(s), id, want - target);
	p->target += want - target;
}

/* The core time one run of p holds, from its own runs or the mean. */
static double
budget_cost(const struct budget *b, const struct plan_pair *p)
{
	double ms = p->runs > 0 ? (double)p->ms / p->runs : b->mean_ms;

	return ms * p->cpu / p->load;
}

/* Measures the phase so far into b->rate and b->mean_ms (kept from before
 * when nothing is measured yet). Returns the longest mean wall time of a
 * pair's run, the tail a run started last adds. */
static double
budget_measure(struct sweep *s, struct budget *b, int64_t now)
{
	const struct plan *plan = s->core != NULL ? sched_core_plan(s->core) : NULL;
	double used = 0, wall = 0, tail = 0, ms;
	int64_t runs = 0;
	size_t i;

	for (i = 0; plan != NULL && i < plan->npairs; i++) {
		const struct plan_pair *p = plan->pairs[i];

		if (!budget_pair_ours(s, p) || p->runs == 0)
			continue;
		used += (double)p->ms * p->cpu / p->load;
		wall += (double)p->ms;
		runs += p->runs;
		ms = (double)p->ms / p->runs;
		if (ms > tail)
			tail = ms;
	}
	for (i = 0; i < s->nlive; i++) {
		const struct sweep_run *r = &s->live[i]->pub;

		used += (double)(now - r->started_ms) * r->cpu / r->load;
	}
	if (runs > 0)
		b->mean_ms = wall / (double)runs;
	if (now > b->phase_ms && used > 0 && (now - b->phase_ms >= BUDGET_TICK_MS || b->rate <= 0))
		b->rate = used / (double)(now - b->phase_ms);
	return tail > b->mean_ms ? tail : b->mean_ms;
}

/* Whether a test failed in the sweep, so the confirm phase will need
 * time. */
static bool
budget_confirm_owed(const struct sweep *s)
{
	size_t i;

	if (s->o->run_re != NULL || s->o->confirm == 0)
		return false;
	for (i = 0; i < s->results->ntests; i++)
		if (s->results->tests[i].first != NULL)
			return true;
	return false;
}

/* Records the count of phase: the journal's budget line and the header
 * that results.json copies. */
static void
budget_record(struct sweep *s, struct budget *b, enum sweep_phase phase, int count)
{
	bool sweep = phase == SWEEP_PHASE_SWEEP;
	const char *key = sweep ? "count" : "confirm";
	cJSON *line = cJSON_CreateObject(), *config;

	b->recorded = count;
	cJSON_AddStringToObject(line, "type", "budget");
	cJSON_AddStringToObject(line, "phase", sweep ? "sweep" : "confirm");
	cJSON_AddNumberToObject(line, "count", count);
	if (b->planned_first)
		cJSON_AddBoolToObject(line, "plan", true);
	b->planned_first = false;
	cJSON_AddNumberToObject(line, "at_ms", (double)util_now_ms());
	if (s->journal != NULL)
		sweep_journal_check(s, journal_write(s->journal, line));
	cJSON_Delete(line);
	config = cJSON_GetObjectItemCaseSensitive(s->header, "config");
	if (config != NULL && count > 0)
		cJSON_ReplaceItemInObjectCaseSensitive(config, key, cJSON_CreateNumber(count));
	if (sweep)
		s->hdr.config.count = count;
	s->dirty = true;
}

/* A count chosen: the options the status shows have it at once; a budget
 * line only when it differs from the last by a tenth of that or more (at
 * least one run), so the measures' jitter writes none. */
static void
budget_take(struct sweep *s, struct budget *b, int count)
{
	int step = b->recorded / 10 > 1 ? b->recorded / 10 : 1;

	b->count = count;
	if (s->phase == SWEEP_PHASE_SWEEP)
		s->o->count = count;
	else
		s->o->confirm = count;
	if (count != b->recorded && (b->recorded == 0 || abs(count - b->recorded) >= step))
		budget_record(s, b, s->phase, count);
}

/* The phase b chose for ends: its last count is recorded if it is not. */
static void
budget_flush(struct sweep *s, struct budget *b)
{
	if (b->count > 0 && b->count != b->recorded)
		budget_record(s, b, b->phase, b->count);
}

/* The budget cannot give every pair of the sweep one run: the error names
 * the least budget that would. */
static void
budget_too_small(struct sweep *s, struct budget *b, double need_ms)
{
	int64_t began = s->hdr.started_ms > 0 ? s->hdr.started_ms : s->started_ms;
	char has[32], needs[32];

	timefmt_format_duration(b->deadline_ms - began, has, sizeof has);
	timefmt_format_duration((int64_t)ceil((util_now_ms() - began + need_ms) / 1000.0) * 1000,
	                        needs, sizeof needs);
	sweep_message(s,
	              _("the budget of %s is too small for one run a pair: it needs at least %s"),
	              has, needs);
	b->over = true;
	s->infra_error = true;
	sweep_interrupt(s);
}

/* Scales a canary pair's target (k-th, as planned for the count the plan
 * had) with the count chosen: never above the plan's, at least one. */
static void
budget_canaries(struct sweep *s, struct budget *b, int id, struct plan_pair *p, size_t k)
{
	int want;

	if (k >= b->ncanary0 || b->planned <= 0)
		return;
	want = (int)ceil((double)b->canary0[k] * b->count / b->planned);
	if (want > b->canary0[k])
		want = b->canary0[k];
	budget_set_target(s, id, p, want > 1 ? want : 1);
}

/* The index of the sweep pair (pkg, cpu, load) among the package's
 * grid's pairs, or -1. */
static long
budget_cell(const struct sweep *s, int pkg, int cpu, int load)
{
	int i, j;

	for (i = 0; i < s->o->ncpus && s->o->cpus[i] != cpu; i++)
		;
	for (j = 0; j < s->o->nloads && s->o->loads[j] != load; j++)
		;
	if (pkg < 0 || (size_t)pkg >= s->npkgs || i == s->o->ncpus || j == s->o->nloads)
		return -1;
	return ((long)pkg * s->o->ncpus + i) * s->o->nloads + j;
}

/* Each sweep cell says how its pair's runs were allocated. */
static void
budget_mark(struct sweep *s, const struct budget *b)
{
	size_t i;
	long c;
	int k;

	for (i = 0; b->alloc != NULL && i < s->results->ntests; i++) {
		struct results_test *t = &s->results->tests[i];

		for (k = 0; k < t->ncells; k++)
			if (t->cells[k].phase == RESULTS_SWEEP &&
			    (c = budget_cell(s, t->pkg, t->cells[k].cpu, t->cells[k].load)) >= 0)
				t->cells[k].allocation = b->alloc[c];
	}
}

/* --adaptive: shares the sweep's core time among its pairs (adaptive.h),
 * each pair's failures those of the test that failed most there. */
static void
budget_adapt(struct sweep *s, struct budget *b, double core_ms)
{
	size_t ncells = s->npkgs * (size_t)(s->o->ncpus * s->o->nloads), i, n = 0;
	int id, npairs = sched_npairs(sweep_sched(s)), cpu, load, target, started, done, k;
	struct adaptive_pair *ap = xcalloc((size_t)npairs + 1, sizeof *ap);
	int *ids = xcalloc((size_t)npairs + 1, sizeof *ids);
	int64_t *bad = xcalloc(ncells + 1, sizeof *bad);
	long c;

	for (i = 0; i < s->results->ntests; i++) {
		const struct results_test *t = &s->results->tests[i];

		for (k = 0; k < t->ncells; k++)
			if (t->cells[k].phase == RESULTS_SWEEP &&
			    (c = budget_cell(s, t->pkg, t->cells[k].cpu, t->cells[k].load)) >= 0 &&
			    t->cells[k].failures + t->cells[k].hangs > bad[c])
				bad[c] = t->cells[k].failures + t->cells[k].hangs;
	}
	for (id = 0; id < npairs; id++) {
		struct plan_pair *p = sched_pair_data(sweep_sched(s), id);

		if (!budget_pair_ours(s, p))
			continue;
		sched_pair_counts(sweep_sched(s), id, &cpu, &load, &target, &started, &done);
		c = budget_cell(s, p->pkg, p->cpu, p->load);
		ap[n] = (struct adaptive_pair){.group = p->pkg,
		                               .done = p->runs,
		                               .started = started,
		                               .failures = c < 0              ? 0
		                                           : bad[c] < p->runs ? bad[c]
		                                                              : p->runs,
		                               .cost = budget_cost(b, p)};
		ids[n++] = id;
	}
	adaptive_allocate(ap, n, s->o->count_min, core_ms);
	if (b->alloc == NULL)
		b->alloc = xcalloc(ncells + 1, sizeof *b->alloc);
	for (i = 0; i < n; i++) {
		struct plan_pair *p = sched_pair_data(sweep_sched(s), ids[i]);

		budget_set_target(s, ids[i], p,
		                  ap[i].target > OPTIONS_COUNT_MAX ? OPTIONS_COUNT_MAX
		                                                   : (int)ap[i].target);
		if ((c = budget_cell(s, p->pkg, p->cpu, p->load)) >= 0)
			b->alloc[c] = ap[i].allocation;
	}
	budget_mark(s, b);
	free(bad);
	free(ids);
	free(ap);
}

/* Chooses the phase's count for the time left and sets every pair's
 * target to it (--adaptive: shares the time it buys out). */
static void
budget_choose(struct sweep *s, struct budget *b, int64_t now)
{
	double tail = budget_measure(s, b, now), sum = 0, spent = 0, first = 0, end, n;
	int id, npairs = sched_npairs(sweep_sched(s)), cpu, load, target, started, done, count;
	bool adapt = s->o->adaptive && s->phase == SWEEP_PHASE_SWEEP && s->o->run_re == NULL;
	size_t k;

	if (b->mean_ms <= 0 || b->rate <= 0)
		return;
	end = (double)(b->deadline_ms - budget_guard(b)) - tail;
	if (s->phase == SWEEP_PHASE_SWEEP && budget_confirm_owed(s))
		end -= BUDGET_CONFIRM_SHARE * (double)(b->deadline_ms - b->begun_ms);
	for (id = 0; id < npairs; id++) {
		const struct plan_pair *p = sched_pair_data(sweep_sched(s), id);

		if (!budget_pair_ours(s, p))
			continue;
		sched_pair_counts(sweep_sched(s), id, &cpu, &load, &target, &started, &done);
		sum += budget_cost(b, p);
		spent += started * budget_cost(b, p);
		if (started == 0)
			first += budget_cost(b, p);
	}
	if (sum <= 0)
		return;
	if (s->phase == SWEEP_PHASE_SWEEP && first > 0 &&
	    now + first / b->rate + tail > (double)b->deadline_ms) {
		budget_too_small(s, b, first / b->rate + tail);
		return;
	}
	n = floor((b->rate * (end > (double)now ? end - (double)now : 0) + spent) / sum);
	count = n > OPTIONS_COUNT_MAX ? OPTIONS_COUNT_MAX : (int)n;
	if (s->phase == SWEEP_PHASE_SWEEP && count < 1)
		count = 1;
	if (s->phase != SWEEP_PHASE_SWEEP && (s->o->given & OPTIONS_GIVEN_CONFIRM) &&
	    count > s->hdr.config.confirm)
		count = s->hdr.config.confirm;
	if (count < 0)
		count = 0;
	/* Near the phase's end a count raised would leave the pairs uneven
	 * when the deadline comes: it only goes down there, unless every pair
	 * has its count (the time left would go unused: a host that slowed
	 * the runs down made the count too low). */
	if (b->count > 0 && count > b->count && (double)now + 2 * tail > end &&
	    !sched_complete(sweep_sched(s)))
		count = b->count;
	if (count != b->count)
		budget_take(s, b, count);
	if (adapt)
		budget_adapt(s, b, (double)count * sum);
	for (id = 0, k = 0; id < npairs; id++) {
		struct plan_pair *p = sched_pair_data(sweep_sched(s), id);

		if (budget_pair_ours(s, p) && !adapt)
			budget_set_target(s, id, p, count);
		else if (p->pkg == PLAN_CANARY && s->phase == SWEEP_PHASE_SWEEP)
			budget_canaries(s, b, id, p, k++);
	}
}

void
budget_plan(struct sweep *s)
{
	struct budget *b = budget_get(s);
	int id, npairs, first = 0;

	/* A confirm phase again after the end (confirm runs asked of a
	 * finished sweep) keeps the counts asked for. */
	if (b == NULL || sweep_sched(s) == NULL || b->phase == SWEEP_PHASE_CONFIRM)
		return;
	if (b->phase == SWEEP_PHASE_SWEEP)
		budget_flush(s, b);
	b->phase = s->phase;
	b->phase_ms = b->next_ms = util_now_ms();
	if (b->begun_ms == 0)
		b->begun_ms = b->phase_ms;
	b->count = b->recorded = 0;
	if (s->phase == SWEEP_PHASE_SWEEP) {
		b->planned = s->o->count;
		first = budget_forecast_count(s->o, s->build_parallel, s->pkgs, s->npkgs,
		                              b->deadline_ms - budget_guard(b) - b->phase_ms);
		b->planned_first = first > 0;
		if (first > 0)
			budget_take(s, b, first);
		if (s->o->adaptive && first > s->o->count_min)
			first = s->o->count_min;
	}
	npairs = sched_npairs(sweep_sched(s));
	free(b->canary0);
	b->canary0 = xcalloc((size_t)npairs + 1, sizeof *b->canary0);
	b->ncanary0 = 0;
	for (id = 0; id < npairs; id++) {
		struct plan_pair *p = sched_pair_data(sweep_sched(s), id);

		if (p->pkg == PLAN_CANARY)
			b->canary0[b->ncanary0++] = p->target;
		if (!budget_pair_ours(s, p))
			continue;
		/* The sweep's first runs measure, or the plan's count from an
		 * earlier sweep's durations; the confirm phase starts from the
		 * sweep's measures. */
		budget_set_target(s, id, p,
		                  s->phase != SWEEP_PHASE_SWEEP ? 0
		                  : first > 0                   ? first
		                                                : 1);
	}
	if (s->phase == SWEEP_PHASE_SWEEP) {
		for (id = 0; id < npairs; id++) {
			struct plan_pair *p = sched_pair_data(sweep_sched(s), id);

			if (p->pkg == PLAN_CANARY)
				budget_set_target(s, id, p, 1);
		}
	} else {
		budget_choose(s, b, b->phase_ms);
	}
}

void
budget_tick(struct sweep *s)
{
	struct budget *b = budget_get(s);
	int64_t now = util_now_ms();

	if (b == NULL || b->over || s->finished || s->interrupting)
		return;
	if (b->begun_ms == 0) {
		/* Still building: nothing to choose, only the deadline. */
		if (now >= b->deadline_ms) {
			b->begun_ms = now;
			budget_too_small(s, b, 0);
		}
		return;
	}
	if (now >= b->deadline_ms - budget_guard(b) / 2) {
		b->over = true;
		if (b->phase == s->phase)
			budget_flush(s, b);
		sweep_message(s, "%s", _("the time budget is spent: the sweep stops"));
		sweep_stop(s);
		return;
	}
	if (sweep_sched(s) == NULL || b->phase != s->phase)
		return;
	if (now < b->next_ms && !sched_complete(sweep_sched(s)))
		return;
	b->next_ms = (now - b->phase_ms) / 20;
	b->next_ms = now + (b->next_ms < BUDGET_TICK_MS       ? BUDGET_TICK_MS
	                    : b->next_ms > BUDGET_TICK_MAX_MS ? BUDGET_TICK_MAX_MS
	                                                      : b->next_ms);
	budget_choose(s, b, now);
}

int64_t
budget_timeout_ms(struct sweep *s, int64_t timeout_ms, bool counted)
{
	const struct budget *b = budget_get(s);
	int64_t left;

	if (b == NULL)
		return timeout_ms;
	left = b->deadline_ms - util_now_ms();
	if (left < BUDGET_GUARD_MIN_MS)
		left = BUDGET_GUARD_MIN_MS;
	if (timeout_ms <= left)
		return timeout_ms;
	if (counted) {
		s->budget->clipped++;
		budget_clipped_note(s);
	}
	return left;
}

void
budget_finish(struct sweep *s)
{
	budget_clipped_journal(s);
	if (s->budget != NULL && s->budget->clipped > 0)
		sweep_message(
		    s,
		    ngettext("%lld run had its time limit clipped to the time the budget "
		             "had left",
		             "%lld runs had their time limit clipped to the time the budget "
		             "had left",
		             (unsigned long)s->budget->clipped),
		    (long long)s->budget->clipped);
}

void
budget_free(struct sweep *s)
{
	if (s->budget == NULL)
		return;
	free(s->budget->canary0);
	free(s->budget->alloc);
	free(s->budget);
	s->budget = NULL;
}
