/* SPDX-License-Identifier: MIT */
/*
 * replay.c: reads a journal back into packages, results and per-pair run
 * counts. Build lines give the packages, run lines feed results exactly as
 * the live sweep did, and spawn lines without a run line are the runs that
 * were in flight when the sweep stopped.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "results/interference.h"
#include "results/timeline.h"
#include "results/journal-canary.h"
#include "results/journal.h"
#include "results/options-check.h"
#include "results/replay.h"
#include "base/util.h"

struct replay_ctx {
	struct replay *r;
	const char *path;
	char *err;
};

/* The shape of the runs of a set line and a package. */
struct replay_shape {
	int64_t set;
	int set_line, pkg;
	struct results_shape *shape;
};

static void
replay_forget_spawn(struct replay *r, int64_t run)
{
	size_t i;

	for (i = 0; i < r->nunfinished; i++) {
		if (r->unfinished[i].run == run) {
			r->unfinished[i] = r->unfinished[--r->nunfinished];
			return;
		}
	}
}

static void
replay_add_spawn(struct replay *r, int64_t run, int pid, uint64_t start_ticks)
{
	struct replay_spawn *s;

	r->unfinished = xrealloc(r->unfinished, sizeof *r->unfinished * (r->nunfinished + 1));
	s = &r->unfinished[r->nunfinished++];
	s->run = run;
	if (s->run > r->max_run)
		r->max_run = s->run;
	s->pid = pid;
	s->start_ticks = start_ticks;
}

/* What a finished run adds besides its tests' counts. */
static void
replay_count_run(struct replay *r, const struct journal_run *jr)
{
	int i;

	results_add_time(r->results, jr->pkg, jr->cpu, jr->load, jr->ms);
	if (jr->leaked)
		results_note_leak(r->results, jr->pkg);
	if (jr->after_debris)
		results_note_after_debris(r->results, jr->pkg);
	for (i = 0; i < jr->ndebris; i++)
		results_add_debris(r->results, jr->pkg, jr->debris[i], jr->debris_run[i]);
	plan_count_run(&r->runs, jr->phase, jr->pkg, jr->selected, jr->cpu, jr->load, jr->ms);
	replay_lanes_add(&r->lanes, jr);
	if (jr->run > r->max_run)
		r->max_run = jr->run;
	replay_forget_spawn(r, jr->run);
}

static void
replay_drop_shape(struct replay *r, struct replay_shape *x)
{
	if (x->shape != NULL) {
		results_shape_flush(r->results, x->shape);
		results_shape_free(x->shape);
		x->shape = NULL;
	}
}

/* The shape of fast run line l's set, made once per set line. */
static struct results_shape *
replay_shape(struct replay *r, struct journal_reader *reader, const struct journal_fast *l)
{
	struct replay_shape *x;
	struct outcome o;

	if (r->shapes == NULL)
		r->shapes = xcalloc(REPLAY_SHAPES, sizeof *r->shapes);
	x = &r->shapes[l->set % REPLAY_SHAPES];
	if (x->shape != NULL && x->set == l->set && x->set_line == l->set_line &&
	    x->pkg == l->run.pkg)
		return x->shape;
	replay_drop_shape(r, x);
	memset(&o, 0, sizeof o);
	journal_fast_outcome(reader, l, &o);
	x->set = l->set;
	x->set_line = l->set_line;
	x->pkg = l->run.pkg;
	x->shape = results_shape_new(r->results, l->run.pkg, &o);
	outcome_free(&o);
	return x->shape;
}

/* The span of the run of jr on the timeline. */
static void
replay_span(const struct journal_run *jr, struct timeline_span *sp)
{
	sp->pkg = jr->pkg;
	sp->phase = jr->phase;
	sp->cpu = jr->cpu;
	sp->load = jr->load;
	sp->began = jr->began;
	sp->ended = jr->ended;
	sp->ms = jr->ms;
	sp->noise = jr->has_noise ? jr->noise : -1;
	sp->cores = jr->cores;
	sp->ncores = jr->ncores;
}

/* A spawn line or a run line of passing tests, counted as replay_line
 * would, without a cJSON tree or a test looked up by name. */
static int
replay_fast(void *arg, struct journal_reader *reader, const struct journal_fast *l, int lineno)
{
	struct replay_ctx *c = arg;
	struct replay *r = c->r;
	const struct journal_run *jr = &l->run;
	double noise[2] = {jr->noise_ms, (double)jr->ms * jr->cpu};
	struct results_shape *shape;
	struct timeline_span sp;
	const long *ran;
	size_t nran;

	/* The slow path names what is wrong. */
	if (!r->has_header || (l->kind == JOURNAL_FAST_RUN && (size_t)jr->pkg >= r->npkgs))
		return 0;
	if (l->kind == JOURNAL_FAST_SPAWN) {
		replay_add_spawn(r, jr->run, l->pid, l->start_ticks);
		return 1;
	}
	if (!run_ids_first(&r->run_ids, jr->run, c->path, lineno))
		return 1;
	shape = replay_shape(r, reader, l);
	results_add_shaped(r->results, shape, jr->phase, jr->cpu, jr->load, jr->cores, jr->ncores,
	                   jr->overlapped, jr->has_noise ? noise : NULL);
	ran = results_shape_ran(shape, &nran);
	replay_span(jr, &sp);
	timeline_add_passed(r->results, &sp, ran, nran);
	replay_count_run(r, jr);
	return 1;
}

static int64_t
replay_parse_time(const cJSON *line, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(line, key);
	struct tm tm;

	if (!cJSON_IsString(v))
		return 0;
	memset(&tm, 0, sizeof tm);
	if (strptime(v->valuestring, "%Y-%m-%dT%H:%M:%SZ", &tm) == NULL)
		return 0;
	return (int64_t)timegm(&tm) * 1000;
}

/* The string member key of line, or NULL. */
static const char *
replay_str(const cJSON *line, const char *key)
{
	return cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(line, key));
}

/* A polluter line's search_runs and the polluters after its first (an
 * older line has neither); -EINVAL with *why for a bad one. */
static int
replay_polluters(struct results_test *t, const cJSON *line, char **why)
{
	const cJSON *all = cJSON_GetObjectItemCaseSensitive(line, "polluters"), *one;
	int64_t runs = t->polluter->runs;
	int i = 0;

	if (journal_decode_int(line, "search_runs", 0, 1000000, false, &runs, why) < 0)
		return -EINVAL;
	t->polluter->search_runs = runs;
	if (all != NULL && !cJSON_IsArray(all))
		goto bad;
	cJSON_ArrayForEach(one, all)
	{
		const char *name = replay_str(one, "test"), *seed = replay_str(one, "seed");

		if (name == NULL || seed == NULL)
			goto bad;
		if (i++ > 0)
			results_add_polluter(t, name, seed, replay_str(one, "command"));
	}
	return 0;
bad:
	*why = xstrdup(_("polluter line: polluters: expected a list of objects, each with a "
	                 "test and a seed"));
	return -EINVAL;
}

static int
replay_bad(struct replay_ctx *c, int lineno, const char *what)
{
	c->err = xasprintf(_("%s:%d: %s"), c->path, lineno, what);
	return -EINVAL;
}

/* Takes ownership of why. */
static int
replay_bad_why(struct replay_ctx *c, int lineno, char *why)
{
	int rc = replay_bad(c, lineno, why);

	free(why);
	return rc;
}

/* Adds the variable names of a resume line's key (absent: none) to *v. */
static int
replay_names(struct replay_ctx *c, int lineno, const cJSON *line, const char *key, char ***v,
             size_t *n)
{
	const cJSON *names = cJSON_GetObjectItemCaseSensitive(line, key), *name;

	if (!cJSON_IsArray(names))
		return 0;
	cJSON_ArrayForEach(name, names)
	{
		if (!cJSON_IsString(name) || name->valuestring[0] == '\0' ||
		    strchr(name->valuestring, '=') != NULL)
			return replay_bad_why(
			    c, lineno,
			    xasprintf(_("resume line: %s: expected an array of variable names"),
			              key));
		util_strv_add(v, n, name->valuestring);
	}
	return 0;
}

static int
replay_line(void *arg, struct journal_reader *reader, const cJSON *line, int lineno)
{
	struct replay_ctx *c = arg;
	struct replay *r = c->r;
	const char *type = journal_line_type(line);

	if (strcmp(type, "header") == 0) {
		if (r->has_header)
			return replay_bad(c, lineno, _("a second header line"));
		if (journal_header_decode(line, c->path, lineno, &r->header, &c->err) < 0)
			return -EINVAL;
		r->has_header = true;
		if (r->header.simulated && !(r->flags & REPLAY_SIMULATED)) {
			c->err = journal_simulated_refusal(c->path);
			return -EPERM;
		}
		r->started_ms = r->header.started_ms;
		r->results->harness.on = true;
		r->results->harness.budget = r->header.config.canaries;
		return 0;
	}
	if (!r->has_header)
		return replay_bad(c, lineno, _("expected the header line first"));
	if (strcmp(type, "build") == 0) {
		struct pkg *p;
		char *why;
		int idx;

		if (journal_decode_build(line, &p, &idx, &why) < 0)
			return replay_bad_why(c, lineno, why);
		if ((size_t)idx != r->npkgs) {
			struct pkg **one = xmalloc(sizeof *one);

			one[0] = p;
			driver_free_pkgs(one, 1);
			return replay_bad_why(
			    c, lineno,
			    xasprintf(_("build line: pkg: expected %zu (the build "
			                "lines count up from 0)"),
			              r->npkgs));
		}
		r->pkgs = xrealloc(r->pkgs, sizeof *r->pkgs * (r->npkgs + 1));
		r->pkgs[r->npkgs++] = p;
		results_add_pkg(r->results, p->name, p->level);
	} else if (strcmp(type, "spawn") == 0) {
		int64_t run = 0, pid = 0, start = 0;
		char *why = NULL;

		if (journal_decode_int(line, "run", 1, JOURNAL_NUM_MAX, true, &run, &why) < 0 ||
		    journal_decode_int(line, "pid", 1, INT32_MAX, true, &pid, &why) < 0 ||
		    journal_decode_int(line, "start", 0, JOURNAL_NUM_MAX, true, &start, &why) < 0)
			return replay_bad_why(c, lineno, why);
		replay_add_spawn(r, run, (int)pid, (uint64_t)start);
	} else if (strcmp(type, "run") == 0) {
		struct journal_run jr;
		struct timeline_span span;
		struct outcome o;
		char *why = NULL;

		memset(&o, 0, sizeof o);
		if (journal_decode_run(reader, line, &jr, &o, &why) == 0 &&
		    (size_t)jr.pkg >= r->npkgs)
			why = xasprintf(_("run line: pkg: no build line for package %d"), jr.pkg);
		if (why != NULL || !run_ids_first(&r->run_ids, jr.run, c->path, lineno)) {
			outcome_free(&o);
			return why != NULL ? replay_bad_why(c, lineno, why) : 0;
		}
		results_add_run(r->results, jr.pkg, jr.phase, jr.cpu, jr.load, &o, jr.log, jr.run);
		results_add_cores(r->results, jr.pkg, jr.phase, &o, jr.cores, jr.ncores);
		results_add_order(r->results, jr.pkg, jr.phase, &o);
		interference_add_run(r->results, jr.pkg, jr.phase, jr.cpu, jr.load, &o,
		                     jr.overlapped);
		if (jr.has_noise)
			results_add_noise(r->results, jr.pkg, jr.phase, jr.cpu, jr.load, &o,
			                  jr.noise_ms, (double)jr.ms * jr.cpu);
		replay_span(&jr, &span);
		timeline_add_outcome(r->results, &span, &o);
		replay_count_run(r, &jr);
		outcome_free(&o);
	} else if (strcmp(type, "canary") == 0) {
		struct journal_canary jc;
		char *why = NULL;

		if (journal_canary_decode(line, &jc, &why) < 0)
			return replay_bad_why(c, lineno, why);
		harness_add_run(&r->results->harness, jc.kind, jc.cpu, jc.load, jc.unexpected,
		                jc.noisy, jc.why, jc.canary);
		plan_count_run(&r->runs, RESULTS_SWEEP, PLAN_CANARY, jc.kind, jc.cpu, jc.load,
		               jc.ms);
		if (jc.canary > r->max_canary)
			r->max_canary = jc.canary;
	} else if (strcmp(type, "pin") == 0) {
		const cJSON *pkgs = cJSON_GetObjectItemCaseSensitive(line, "pkgs"), *p;
		const char *cpuset =
		    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(line, "cpuset"));
		const char *id =
		    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(line, "container"));
		const cJSON *error = cJSON_GetObjectItemCaseSensitive(line, "error");
		/* An error that is not a string still says it was not pinned. */
		const char *why_not = error == NULL           ? NULL
		                      : cJSON_IsString(error) ? error->valuestring
		                                              : "";
		int64_t ms = 0;
		char *why = NULL;
		int *idx;
		size_t n = 0;

		if (journal_decode_int(line, "latency_ms", INT32_MIN, JOURNAL_NUM_MAX, true, &ms,
		                       &why) < 0)
			return replay_bad_why(c, lineno, why);
		if (cpuset == NULL || !cJSON_IsArray(pkgs))
			return replay_bad_why(c, lineno,
			                      xstrdup(_("pin line: expected \"cpuset\" and "
			                                "\"pkgs\"")));
		idx = xcalloc((size_t)cJSON_GetArraySize(pkgs) + 1, sizeof *idx);
		cJSON_ArrayForEach(p, pkgs)
		{
			if (!cJSON_IsNumber(p) || p->valuedouble < 0 ||
			    p->valuedouble >= (double)r->npkgs) {
				free(idx);
				return replay_bad_why(
				    c, lineno,
				    xstrdup(_("pin line: pkgs: expected package indexes")));
			}
			idx[n++] = (int)p->valuedouble;
		}
		results_note_pin(r->results, id != NULL ? id : "", cpuset, idx, n, ms, why_not);
		free(idx);
	} else if (strcmp(type, "env") == 0) {
		const cJSON *pkgs = cJSON_GetObjectItemCaseSensitive(line, "pkgs"), *p;
		const char *error =
		    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(line, "error"));
		const char *event =
		    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(line, "event"));

		if (event == NULL || !cJSON_IsArray(pkgs))
			return replay_bad_why(c, lineno,
			                      xstrdup(_("env line: expected \"event\" and "
			                                "\"pkgs\"")));
		/* An environment that did not come up failed its packages, as
		 * the live sweep marked them. */
		cJSON_ArrayForEach(p, pkgs)
		{
			struct pkg *pkg;

			if (!cJSON_IsNumber(p) || p->valuedouble < 0 ||
			    p->valuedouble >= (double)r->npkgs)
				return replay_bad_why(
				    c, lineno,
				    xstrdup(_("env line: pkgs: expected package indexes")));
			pkg = r->pkgs[(int)p->valuedouble];
			if (error == NULL || strcmp(event, "up") != 0)
				continue;
			pkg->build_ok = false;
			free(pkg->build_output);
			pkg->build_output = xstrdup(error);
		}
	} else if (strcmp(type, "confirm") == 0) {
		const cJSON *test = cJSON_GetObjectItemCaseSensitive(line, "test");
		int64_t count = 0;
		char *why = NULL;

		/* As --confirm takes it. */
		if (journal_decode_int(line, "count", 1, 100000000, true, &count, &why) < 0)
			return replay_bad_why(c, lineno, why);
		if (!cJSON_IsString(test))
			return replay_bad(c, lineno, _("confirm line: test: expected a string"));
		r->confirm_tests =
		    xrealloc(r->confirm_tests, sizeof *r->confirm_tests * (r->nconfirms + 1));
		r->confirm_counts =
		    xrealloc(r->confirm_counts, sizeof *r->confirm_counts * (r->nconfirms + 1));
		r->confirm_tests[r->nconfirms] = xstrdup(test->valuestring);
		r->confirm_counts[r->nconfirms++] = (int)count;
	} else if (strcmp(type, "polluter") == 0) {
		const char *id = replay_str(line, "test"), *seed = replay_str(line, "seed");
		struct results_test *t = id != NULL ? results_find(r->results, id) : NULL;
		int64_t runs = 0;
		char *why = NULL;

		if (journal_decode_int(line, "runs", 0, 1000000, true, &runs, &why) < 0)
			return replay_bad_why(c, lineno, why);
		if (t == NULL || seed == NULL)
			return replay_bad(c, lineno,
			                  t == NULL ? _("polluter line: test: expected a test's id")
			                            : _("polluter line: seed: expected a string"));
		results_set_polluter(t, replay_str(line, "polluter"), seed,
		                     replay_str(line, "command"), runs);
		if (replay_polluters(t, line, &why) < 0)
			return replay_bad_why(c, lineno, why);
	} else if (strcmp(type, "end") == 0) {
		const cJSON *st = cJSON_GetObjectItemCaseSensitive(line, "status");

		free(r->end_status);
		r->end_status = xstrdup(cJSON_IsString(st) ? st->valuestring : "complete");
		r->finished_ms = replay_parse_time(line, "finished");
	} else if (strcmp(type, "part") == 0) {
		const cJSON *shard = cJSON_GetObjectItemCaseSensitive(line, "shard");
		cJSON *part;

		if (!cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(shard, "index")) ||
		    !cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(shard, "count")) ||
		    !cJSON_IsString(cJSON_GetObjectItemCaseSensitive(line, "dir")))
			return replay_bad(c, lineno,
			                  _("part line: expected \"dir\" and \"shard\": "
			                    "{\"index\", \"count\"}"));
		part = cJSON_Duplicate(line, 1);
		timeline_new_host(r->results);

		cJSON_DeleteItemFromObjectCaseSensitive(part, "type");
		if (r->parts == NULL)
			r->parts = cJSON_CreateArray();
		cJSON_AddItemToArray(r->parts, part);
	} else if (strcmp(type, "budget") == 0) {
		const cJSON *phase = cJSON_GetObjectItemCaseSensitive(line, "phase");
		const cJSON *count = cJSON_GetObjectItemCaseSensitive(line, "count");

		/* A budget chose the count: the last choice is the config's. */
		if (!cJSON_IsString(phase) || !cJSON_IsNumber(count) || count->valuedouble < 0 ||
		    count->valuedouble > OPTIONS_COUNT_MAX)
			return replay_bad(
			    c, lineno,
			    _("budget line: expected \"phase\" and a \"count\" from 0 "
			      "to 100000000"));
		if (strcmp(phase->valuestring, "sweep") == 0 && count->valuedouble >= 1)
			r->header.config.count = (int)count->valuedouble;
		else if (strcmp(phase->valuestring, "confirm") == 0)
			r->header.config.confirm = (int)count->valuedouble;
	} else if (strcmp(type, "clipped") == 0) {
		int64_t limits = 0;
		char *why = NULL;

		/* The runs whose limit a budget clipped, counted to the end. */
		if (journal_decode_int(line, "limits", 1, 1000000000, true, &limits, &why) < 0)
			return replay_bad_why(c, lineno, why);
		r->header.config.clipped_limits = limits;
	} else if (strcmp(type, "resume") == 0) {
		free(r->end_status);
		r->end_status = NULL;
		r->finished_ms = 0;
		int rc = replay_names(c, lineno, line, "mask_env", &r->mask_env, &r->nmask_env);

		if (rc == 0)
			rc = replay_names(c, lineno, line, "scrub_env", &r->scrub_env,
			                  &r->nscrub_env);
		if (rc < 0)
			return rc;
	}
	/* set lines are the reader's; unknown types are skipped so newer
	 * journals still read. */
	return 0;
}

int
replay_update(struct replay *r, size_t max_bytes, bool *more, char **err)
{
	struct replay_ctx c = {r, r->path, NULL};
	char *rerr = NULL;
	size_t i;
	int rc;

	rc = journal_tail_read(r->tail, replay_line, replay_fast, &c, max_bytes, &r->torn, more,
	                       &rerr);
	for (i = 0; r->shapes != NULL && i < REPLAY_SHAPES; i++) {
		if (r->shapes[i].shape != NULL)
			results_shape_flush(r->results, r->shapes[i].shape);
	}
	if (rc < 0) {
		*err = c.err != NULL ? c.err : rerr;
		if (c.err != NULL)
			free(rerr);
		return rc;
	}
	free(rerr);
	return 0;
}

int
replay_journal(const char *path, struct replay *r, char **err)
{
	return replay_journal_flags(path, 0, r, err);
}

int
replay_journal_flags(const char *path, unsigned flags, struct replay *r, char **err)
{
	int rc;

	memset(r, 0, sizeof *r);
	r->flags = flags;
	r->results = results_new();
	r->path = xstrdup(path);
	r->tail = journal_tail_new(path);
	rc = replay_update(r, 0, NULL, err);
	if (rc < 0)
		return rc;
	if (!r->has_header) {
		*err = xasprintf(_("%s: no header line: not a flakesweep journal"), path);
		return -EINVAL;
	}
	return 0;
}

void
replay_free(struct replay *r)
{
	size_t i;

	journal_header_free(&r->header);
	driver_free_pkgs(r->pkgs, r->npkgs);
	results_free(r->results);
	plan_free(&r->runs);
	replay_lanes_free(&r->lanes);
	free(r->unfinished);
	for (i = 0; i < r->nconfirms; i++)
		free(r->confirm_tests[i]);
	free(r->confirm_tests);
	free(r->confirm_counts);
	util_strv_free(r->mask_env);
	util_strv_free(r->scrub_env);
	free(r->end_status);
	run_ids_free(&r->run_ids);
	cJSON_Delete(r->parts);
	for (i = 0; r->shapes != NULL && i < REPLAY_SHAPES; i++)
		results_shape_free(r->shapes[i].shape);
	free(r->shapes);
	journal_tail_free(r->tail);
	free(r->path);
	memset(r, 0, sizeof *r);
}
