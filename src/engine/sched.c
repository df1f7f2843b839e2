/* SPDX-License-Identifier: MIT */
/*
 * sched.c: the queue of pairs and the lanes' per-core slots. The pair
 * furthest behind its target goes first (ties: the longest measured runs);
 * a lane that cannot fit its next task holds it and takes nothing else, so
 * nothing starves and every pair keeps the same share done. It never
 * spawns anything.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "engine/sched.h"
#include "base/util.h"

struct sched_pair {
	int cpu, load, target, started, done;
	bool spread; /* sched_spread_pair */
	int64_t total_ms;
	void *data;
	bool capped; /* counts against the cap: sched_cap_pair */
	int group;   /* its package, or -1 */
	bool alone;  /* runs with no other run of its group anywhere */
	int env;     /* its environment, or -1 */
};

/* An environment's life: no lane; a lane claimed, draining; up called;
 * up, taking runs; down called. */
enum sched_env_state {
	SCHED_ENV_IDLE,
	SCHED_ENV_CLAIMED,
	SCHED_ENV_UP,
	SCHED_ENV_READY,
	SCHED_ENV_DOWN,
};

struct sched_env {
	enum sched_env_state state;
	int lane;    /* the lane it holds, or -1 */
	int running; /* its runs in flight: 0 or 1 */
};

/* Runs of one group in flight, how many of them run alone, and the runs
 * its pairs that do not run alone have yet to start (sched_pick counts
 * them). */
struct sched_group {
	int running, alone;
	int64_t shared_owed;
};

struct sched_lane {
	int load;    /* 0 while no run is in it */
	int running; /* runs in the lane */
	int *count;  /* runs pinned to each core slot */
	int held;    /* pair waiting for room, or -1 */
	bool hold;   /* no new run: sched_hold_lane */
	int env;     /* the environment holding it, or -1 */
};

struct sched {
	const struct lanes *lanes;
	struct sched_lane *lane;
	struct sched_pair *pairs;
	int npairs;
	struct sched_group *groups;
	int ngroups;
	int running;
	int cap;            /* capped runs at once (sched_set_cap) */
	int capped_running; /* capped runs in flight */
	bool paused;
	struct sched_env *envs;
	int nenvs;
	int env_max; /* environments holding a lane at once (sched_set_envs) */
	sched_env_cb env_up, env_down;
	sched_start_cb start;
	void *arg;
};

struct sched *
sched_new(const struct lanes *lanes, sched_start_cb start, void *arg)
{
	struct sched *s = xcalloc(1, sizeof *s);
	int i;

	s->lanes = lanes;
	s->start = start;
	s->arg = arg;
	s->lane = xcalloc((size_t)(lanes->nlanes > 0 ? lanes->nlanes : 1), sizeof *s->lane);
	for (i = 0; i < lanes->nlanes; i++) {
		s->lane[i].count = xcalloc((size_t)lanes->width, sizeof *s->lane[i].count);
		s->lane[i].held = -1;
		s->lane[i].env = -1;
	}
	return s;
}

void
sched_free(struct sched *s)
{
	int i;

	if (s == NULL)
		return;
	for (i = 0; i < s->lanes->nlanes; i++)
		free(s->lane[i].count);
	free(s->lane);
	free(s->pairs);
	free(s->groups);
	free(s->envs);
	free(s);
}

int
sched_add_pair(struct sched *s, int cpu, int load, int target, void *data)
{
	struct sched_pair *p;

	s->pairs = xrealloc(s->pairs, sizeof *s->pairs * (size_t)(s->npairs + 1));
	p = &s->pairs[s->npairs];
	memset(p, 0, sizeof *p);
	p->cpu = cpu;
	p->load = load;
	p->target = target;
	p->data = data;
	p->group = -1;
	p->env = -1;
	return s->npairs++;
}

void
sched_spread_pair(struct sched *s, int pair)
{
	s->pairs[pair].spread = true;
}

void
sched_pair_group(struct sched *s, int pair, int group, bool alone)
{
	if (group >= s->ngroups) {
		s->groups = xrealloc(s->groups, sizeof *s->groups * (size_t)(group + 1));
		memset(&s->groups[s->ngroups], 0,
		       sizeof *s->groups * (size_t)(group + 1 - s->ngroups));
		s->ngroups = group + 1;
	}
	s->pairs[pair].group = group;
	s->pairs[pair].alone = alone;
}

/* False while pair's group keeps it out: an alone run of the group is in
 * flight, or pair runs alone and another run of the group is, or a lane
 * holds an alone pair of the group (it waits for the group to drain and
 * no new run may overtake it). */
static bool
sched_group_lets(const struct sched *s, int pair)
{
	const struct sched_pair *p = &s->pairs[pair];
	const struct sched_group *g;
	int i;

	if (p->group < 0)
		return true;
	g = &s->groups[p->group];
	if (g->alone > 0 || (p->alone && g->running > 0))
		return false;
	for (i = 0; !p->alone && i < s->lanes->nlanes; i++) {
		int h = s->lane[i].held;

		if (h >= 0 && s->pairs[h].alone && s->pairs[h].group == p->group)
			return false;
	}
	return true;
}

enum sched_group_wait
sched_pair_group_wait(const struct sched *s, int pair)
{
	if (sched_group_lets(s, pair))
		return SCHED_WAIT_NONE;
	return s->pairs[pair].alone ? SCHED_WAIT_TO_RUN_ALONE : SCHED_WAIT_FOR_ALONE;
}

void
sched_set_cap(struct sched *s, int cap)
{
	s->cap = cap;
}

void
sched_cap_pair(struct sched *s, int pair)
{
	s->pairs[pair].capped = true;
}

void
sched_set_envs(struct sched *s, int max, sched_env_cb up, sched_env_cb down)
{
	s->env_max = max;
	s->env_up = up;
	s->env_down = down;
}

void
sched_env_pair(struct sched *s, int pair, int env)
{
	int i;

	if (env >= s->nenvs) {
		s->envs = xrealloc(s->envs, sizeof *s->envs * (size_t)(env + 1));
		for (i = s->nenvs; i <= env; i++) {
			s->envs[i].state = SCHED_ENV_IDLE;
			s->envs[i].lane = -1;
			s->envs[i].running = 0;
		}
		s->nenvs = env + 1;
	}
	s->pairs[pair].env = env;
}

void
sched_env_ready(struct sched *s, int env)
{
	s->envs[env].state = SCHED_ENV_READY;
}

void
sched_env_drop(struct sched *s, int env)
{
	int i;

	for (i = 0; i < s->npairs; i++) {
		if (s->pairs[i].env == env && s->pairs[i].target > s->pairs[i].started)
			s->pairs[i].target = s->pairs[i].started;
	}
	s->envs[env].state = SCHED_ENV_READY;
}

void
sched_env_release(struct sched *s, int env)
{
	struct sched_env *e = &s->envs[env];

	if (e->lane >= 0)
		s->lane[e->lane].env = -1;
	e->lane = -1;
	e->state = SCHED_ENV_IDLE;
}

int
sched_lane_env(const struct sched *s, int lane)
{
	return s->lane[lane].env;
}

void
sched_add_runs(struct sched *s, int pair, int extra)
{
	s->pairs[pair].target += extra;
}

void
sched_mark_done(struct sched *s, int pair, int n, int64_t total_ms)
{
	s->pairs[pair].started += n;
	s->pairs[pair].done += n;
	s->pairs[pair].total_ms += total_ms;
}

/* True when pair a is further behind its target than pair b: the smaller
 * started/target (a spread pair's (started + 1/2)/target), compared
 * without division; ties to the longest mean duration, then the lowest
 * id, so the order is reproducible. */
static bool
sched_behind(const struct sched *s, int a, int b)
{
	const struct sched_pair *p = &s->pairs[a], *q = &s->pairs[b];
	int64_t lhs = (2 * (int64_t)p->started + p->spread) * q->target;
	int64_t rhs = (2 * (int64_t)q->started + q->spread) * p->target;
	double pm, qm;

	if (lhs != rhs)
		return lhs < rhs;
	pm = p->done > 0 ? (double)p->total_ms / p->done : 0;
	qm = q->done > 0 ? (double)q->total_ms / q->done : 0;
	if (pm != qm)
		return pm > qm;
	return a < b;
}

/* The pair may start a run now: the cap leaves room for it. */
static bool
sched_cap_room(const struct sched *s, int pair)
{
	return !s->pairs[pair].capped || s->capped_running < s->cap;
}

/* An alone pair waits while its group's other pairs have runs to start:
 * they run side by side first, then the alone runs one after another,
 * so the group drains once instead of before every alone run. */
static bool
sched_alone_later(const struct sched *s, int pair)
{
	const struct sched_pair *p = &s->pairs[pair];

	return p->alone && p->group >= 0 && s->groups[p->group].shared_owed > 0;
}

/* The pair furthest behind its target, or -1 when every pair started
 * all its runs (or waits: sched_alone_later). Counts each group's runs
 * owed first. */
static int
sched_pick(const struct sched *s)
{
	int best = -1, i;

	for (i = 0; i < s->ngroups; i++)
		s->groups[i].shared_owed = 0;
	for (i = 0; i < s->npairs; i++) {
		const struct sched_pair *p = &s->pairs[i];

		if (p->group >= 0 && !p->alone && p->started < p->target)
			s->groups[p->group].shared_owed += p->target - p->started;
	}
	for (i = 0; i < s->npairs; i++) {
		if (s->pairs[i].started < s->pairs[i].target && sched_cap_room(s, i) &&
		    s->pairs[i].env < 0 && !sched_alone_later(s, i) &&
		    (best < 0 || sched_behind(s, i, best)))
			best = i;
	}
	return best;
}

/* Core slots of lane l below its load: where runs can go now. */
static int
sched_free_slots(const struct sched *s, const struct sched_lane *l)
{
	int i, n = 0;

	for (i = 0; i < s->lanes->width; i++)
		n += l->count[i] < l->load;
	return n;
}

/* The lane's next task. Usually the queue's head; but when the head does
 * not fit the busy lane now (it needs another load, or more free cores),
 * a pair that fits now goes first, as long as it is at most
 * SCHED_AHEAD_LANES lanes' worth of its runs ahead of the head. Otherwise
 * a lane would drain before every run of another load or width, and each
 * drain leaves cores idle until the lane's last run ends: the lane keeps
 * one load and width that many runs' time before it switches. The bound
 * keeps every pair within that many lanes' worth (plus one run) of the
 * others, and a pair that falls further behind is held for until it
 * fits. */
static int
sched_pick_for_lane(const struct sched *s, const struct sched_lane *l)
{
	int head = sched_pick(s), best = -1, i, free_slots = sched_free_slots(s, l);
	const struct sched_pair *h;

	if (head < 0 || l->running == 0)
		return head;
	h = &s->pairs[head];
	if (h->load == l->load && free_slots >= h->cpu)
		return head;
	for (i = 0; i < s->npairs; i++) {
		const struct sched_pair *p = &s->pairs[i];
		int64_t cap = (int64_t)SCHED_AHEAD_LANES * s->lanes->width * p->load / p->cpu;

		if (p->load != l->load || p->started >= p->target || !sched_cap_room(s, i) ||
		    free_slots < p->cpu || p->env >= 0 || sched_alone_later(s, i))
			continue;
		if ((int64_t)p->started * h->target >
		    (int64_t)p->target * h->started + cap * h->target)
			continue;
		if (best < 0 || sched_behind(s, i, best))
			best = i;
	}
	return best >= 0 ? best : head;
}

static bool
sched_lane_has_room(const struct sched *s, const struct sched_lane *l)
{
	int i;

	if (l->running == 0)
		return true;
	for (i = 0; i < s->lanes->width; i++) {
		if (l->count[i] < l->load)
			return true;
	}
	return false;
}

/* Places a run of pair in lane if it fits: the lane is empty (it takes the
 * pair's load) or at the pair's load with cpu cores below it. The least
 * loaded cores are taken first, lowest index on ties. */
static bool
sched_try_place(struct sched *s, int lane, int pair)
{
	struct sched_lane *l = &s->lane[lane];
	const struct sched_pair *p = &s->pairs[pair];
	struct sched_run *run;
	int width = s->lanes->width, picked = 0, level, i;
	int *slots;

	if ((l->running > 0 && l->load != p->load) || !sched_group_lets(s, pair) ||
	    !sched_cap_room(s, pair))
		return false;
	slots = xmalloc(sizeof *slots * (size_t)p->cpu);
	for (level = 0; level < p->load && picked < p->cpu; level++) {
		for (i = 0; i < width && picked < p->cpu; i++) {
			if (l->count[i] == level)
				slots[picked++] = i;
		}
	}
	if (picked < p->cpu) {
		free(slots);
		return false;
	}
	l->load = p->load;
	l->running++;
	s->running++;
	if (p->group >= 0) {
		s->groups[p->group].running++;
		s->groups[p->group].alone += p->alone;
	}
	s->capped_running += p->capped;
	if (p->env >= 0)
		s->envs[p->env].running++;
	run = xcalloc(1, sizeof *run);
	run->pair = pair;
	run->lane = lane;
	run->ncpus = p->cpu;
	run->slots = slots;
	run->cpus = xmalloc(sizeof *run->cpus * (size_t)p->cpu);
	for (i = 0; i < p->cpu; i++) {
		l->count[slots[i]]++;
		run->cpus[i] = s->lanes->cores[lane][slots[i]];
	}
	s->start(s->arg, run);
	return true;
}

/* The environment owes runs: one of its pairs started fewer than its
 * target. */
static bool
sched_env_owed(const struct sched *s, int env)
{
	int i;

	for (i = 0; i < s->npairs; i++) {
		if (s->pairs[i].env == env && s->pairs[i].started < s->pairs[i].target)
			return true;
	}
	return false;
}

/* The lane an environment claims: an empty one first, else the one with
 * the fewest runs to drain; none held by another environment. */
static int
sched_env_lane(const struct sched *s)
{
	int best = -1, i;

	for (i = 0; i < s->lanes->nlanes; i++) {
		if (s->lane[i].env >= 0)
			continue;
		if (best < 0 || s->lane[i].running < s->lane[best].running)
			best = i;
	}
	return best;
}

/* Moves the environments on: claims lanes while fewer than env_max hold
 * one, calls up for a claimed lane that drained and down for an
 * environment that owes nothing and runs nothing. Environments come
 * first: each holds its lane the longest. */
static void
sched_env_step(struct sched *s)
{
	int held = 0, e;

	for (e = 0; e < s->nenvs; e++)
		held += s->envs[e].state != SCHED_ENV_IDLE;
	for (e = 0; e < s->nenvs; e++) {
		struct sched_env *env = &s->envs[e];

		if (env->state == SCHED_ENV_IDLE && held < s->env_max && sched_env_owed(s, e)) {
			int lane = sched_env_lane(s);
			struct sched_lane *l;

			if (lane < 0)
				continue;
			l = &s->lane[lane];
			/* A pair the lane held goes back to the queue. */
			if (l->held >= 0)
				s->pairs[l->held].started--;
			l->held = -1;
			l->env = e;
			env->lane = lane;
			env->state = SCHED_ENV_CLAIMED;
			held++;
		}
		if (env->state == SCHED_ENV_CLAIMED && s->lane[env->lane].running == 0) {
			env->state = SCHED_ENV_UP;
			s->env_up(s->arg, e, env->lane);
		}
		if (env->state == SCHED_ENV_READY && env->running == 0 && !sched_env_owed(s, e)) {
			env->state = SCHED_ENV_DOWN;
			s->env_down(s->arg, e, env->lane);
		}
	}
}

/* Places the next run of the environment holding lane: one at a time,
 * once it is up, the pair furthest behind first. */
static void
sched_env_place(struct sched *s, int lane)
{
	int e = s->lane[lane].env, best = -1, i;

	if (s->envs[e].state != SCHED_ENV_READY || s->envs[e].running > 0)
		return;
	for (i = 0; i < s->npairs; i++) {
		if (s->pairs[i].env == e && s->pairs[i].started < s->pairs[i].target &&
		    sched_group_lets(s, i) && (best < 0 || sched_behind(s, i, best)))
			best = i;
	}
	if (best < 0)
		return;
	s->pairs[best].started++;
	if (!sched_try_place(s, lane, best))
		s->pairs[best].started--;
}

void
sched_dispatch(struct sched *s)
{
	int lane;

	if (s->paused)
		return;
	sched_env_step(s);
	for (lane = 0; lane < s->lanes->nlanes; lane++) {
		struct sched_lane *l = &s->lane[lane];

		if (l->env >= 0) {
			sched_env_place(s, lane);
			continue;
		}
		for (; !l->hold;) {
			int pair;

			/* A start can pause the scheduler (the run could not
			 * start): nothing more is placed after it. */
			if (s->paused)
				return;
			if (l->held >= 0) {
				if (!sched_try_place(s, lane, l->held))
					break;
				l->held = -1;
				continue;
			}
			if (!sched_lane_has_room(s, l))
				break;
			pair = sched_pick_for_lane(s, l);
			if (pair < 0)
				break;
			s->pairs[pair].started++;
			if (!sched_try_place(s, lane, pair)) {
				l->held = pair;
				break;
			}
		}
	}
}

/* Gives the run's slots back to its lane and frees it. */
static void
sched_release(struct sched *s, struct sched_run *run)
{
	struct sched_lane *l = &s->lane[run->lane];
	const struct sched_pair *p = &s->pairs[run->pair];
	int i;

	if (p->group >= 0) {
		s->groups[p->group].running--;
		s->groups[p->group].alone -= p->alone;
	}
	for (i = 0; i < run->ncpus; i++)
		l->count[run->slots[i]]--;
	l->running--;
	if (l->running == 0)
		l->load = 0;
	s->running--;
	s->capped_running -= s->pairs[run->pair].capped;
	if (p->env >= 0)
		s->envs[p->env].running--;
	free(run->slots);
	free(run->cpus);
	free(run);
}

void
sched_finish(struct sched *s, struct sched_run *run, int64_t duration_ms)
{
	struct sched_pair *p = &s->pairs[run->pair];

	p->done++;
	p->total_ms += duration_ms;
	sched_release(s, run);
}

void
sched_cancel(struct sched *s, struct sched_run *run)
{
	s->pairs[run->pair].started--;
	sched_release(s, run);
}

void
sched_hold_lane(struct sched *s, int lane, bool hold)
{
	s->lane[lane].hold = hold;
}

bool
sched_lane_on_hold(const struct sched *s, int lane)
{
	return s->lane[lane].hold;
}

void
sched_pause(struct sched *s, bool paused)
{
	s->paused = paused;
}

bool
sched_paused(const struct sched *s)
{
	return s->paused;
}

bool
sched_complete(const struct sched *s)
{
	int i;

	if (s->running > 0)
		return false;
	for (i = 0; i < s->nenvs; i++) {
		if (s->envs[i].state != SCHED_ENV_IDLE)
			return false;
	}
	for (i = 0; i < s->npairs; i++) {
		if (s->pairs[i].done < s->pairs[i].target)
			return false;
	}
	return true;
}

int
sched_npairs(const struct sched *s)
{
	return s->npairs;
}

int
sched_running(const struct sched *s)
{
	return s->running;
}

void *
sched_pair_data(const struct sched *s, int pair)
{
	return s->pairs[pair].data;
}

void
sched_pair_counts(const struct sched *s, int pair, int *cpu, int *load, int *target, int *started,
                  int *done)
{
	const struct sched_pair *p = &s->pairs[pair];

	if (cpu != NULL)
		*cpu = p->cpu;
	if (load != NULL)
		*load = p->load;
	if (target != NULL)
		*target = p->target;
	if (started != NULL)
		*started = p->started;
	if (done != NULL)
		*done = p->done;
}

void
sched_totals(const struct sched *s, int64_t *target, int64_t *done)
{
	int i;

	*target = 0;
	*done = 0;
	for (i = 0; i < s->npairs; i++) {
		*target += s->pairs[i].target;
		*done += s->pairs[i].done;
	}
}

int
sched_lane_load(const struct sched *s, int lane)
{
	return s->lane[lane].load;
}

int
sched_lane_core_runs(const struct sched *s, int lane, int slot)
{
	return s->lane[lane].count[slot];
}

int
sched_lane_held(const struct sched *s, int lane)
{
	return s->lane[lane].held;
}
