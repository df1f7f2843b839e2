/* SPDX-License-Identifier: MIT */
/*
 * run.c: one run of a sweep: its environment (TZ, LC_ALL, TMPDIR, FLAKESWEEP_RUN,
 * FLAKESWEEP_PORT_BASE and its port window, FLAKESWEEP_CPU, the CPU
 * preload), the capture of its output (head and tail ring) fed to the
 * driver's parser, the log kept when it fails, and what it adds to the
 * results and the journal when it ends. It never chooses what runs next:
 * the scheduler and sweep.c do.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/sanitize.h"
#include "engine/budget.h"
#include "engine/canary.h"
#include "engine/run-env.h"
#include "results/journal-canary.h"
#include "results/interference.h"
#include "results/timeline.h"
#include "engine/sweep-int.h"

#define RUN_CAPTURE_HEAD (1 << 20)
#define RUN_CAPTURE_TAIL (1 << 20)

/* The run's environment: the sweep's inherited block (built at its first
 * run of each kind) with the run's own entries and its driver's; one
 * allocation, freed with free(). */
static char **
run_environ(struct sweep *s, const struct sweep_live *l, const struct driver_run *dr)
{
	bool canary = l->canary >= 0;
	char **add = NULL, **extra, **env, *v;
	size_t n = 0, i;

	if (s->run_env[canary] == NULL)
		s->run_env[canary] = run_env_new(s->o, canary);
	/* A canary gets no driver's settings, and the tests' fault list. */
	extra = !canary ? s->driver->run_env(s->o, s->pkgs[l->pub.pkg], dr) : NULL;
	v = xasprintf("TMPDIR=%s", l->tmpdir);
	util_strv_add(&add, &n, v);
	free(v);
	if (!canary) {
		v = xasprintf("FLAKESWEEP_RUN=%lld", (long long)l->pub.id);
		util_strv_add(&add, &n, v);
		free(v);
	}
	v = xasprintf("FLAKESWEEP_PORT_BASE=%d",
	              SWEEP_PORT_FIRST + l->port_slot * SWEEP_PORT_WINDOW);
	util_strv_add(&add, &n, v);
	free(v);
	v = xasprintf("FLAKESWEEP_CPU=%d", l->pub.cpu);
	util_strv_add(&add, &n, v);
	free(v);
	if (s->driver->report_pipe && !canary) {
		v = xasprintf("FLAKESWEEP_REPORT_FD=%d", PROC_REPORT_FD);
		util_strv_add(&add, &n, v);
		free(v);
	}
	/* The driver's entries replace flakesweep's own (PYTHONPATH). */
	for (i = 0; extra != NULL && extra[i] != NULL; i++)
		util_strv_add(&add, &n, extra[i]);
	util_strv_free(extra);
	sweep_envs_run_env(s, l->pub.pkg, &add, &n);
	env = run_env_block(s->run_env[canary], add, n);
	util_strv_free(add);
	return env;
}

static void
run_capture(struct sweep_live *l, const char *data, size_t len)
{
	size_t room = l->head.len < RUN_CAPTURE_HEAD ? RUN_CAPTURE_HEAD - l->head.len : 0;
	size_t take = len < room ? len : room;

	if (take > 0)
		buf_add(&l->head, data, take);
	data += take;
	len -= take;
	if (len == 0)
		return;
	if (l->tail == NULL)
		l->tail = xmalloc(RUN_CAPTURE_TAIL);
	while (len > 0) {
		size_t n = RUN_CAPTURE_TAIL - l->tail_pos;

		if (n > len)
			n = len;
		if (l->tail_len == RUN_CAPTURE_TAIL)
			l->dropped += (int64_t)n;
		memcpy(l->tail + l->tail_pos, data, n);
		l->tail_pos = (l->tail_pos + n) % RUN_CAPTURE_TAIL;
		l->tail_len =
		    l->tail_len + n > RUN_CAPTURE_TAIL ? RUN_CAPTURE_TAIL : l->tail_len + n;
		data += n;
		len -= n;
	}
}

static void
run_on_output(void *arg, const char *data, size_t len)
{
	struct sweep_live *l = arg;

	l->parser->feed(l->parser, data, len);
	run_capture(l, data, len);
}

static void
run_on_report(void *arg, const char *data, size_t len)
{
	struct sweep_live *l = arg;

	l->parser->feed_report(l->parser, data, len);
}

/* The stacks of o's hung tests when they came on the report pipe, not in
 * the output the log holds. */
static void
run_log_stacks(const struct sweep *s, const struct outcome *o, struct buf *b)
{
	size_t i;

	for (i = 0; o != NULL && s->driver->report_pipe && i < o->ntests; i++) {
		if (o->tests[i].status == OUTCOME_HANG && o->tests[i].lines != NULL)
			buf_printf(
			    b,
			    "\n[flakesweep: %s was still running at the time limit; its stack:]\n%s",
			    o->tests[i].name, o->tests[i].lines);
	}
}

/* Writes the kept output of a failed run (o: what it showed, or NULL);
 * returns its path relative to the output directory (caller frees) or
 * NULL. */
static char *
run_keep_log(struct sweep *s, struct sweep_live *l, const struct outcome *o)
{
	char *rel = l->canary >= 0 ? xasprintf("runs/canary-%lld.log", (long long)l->pub.id)
	                           : xasprintf("runs/%lld.log", (long long)l->pub.id);
	char *path = xasprintf("%s/%s", s->outdir, rel);
	struct buf b;
	int rc;

	buf_init(&b);
	buf_add(&b, l->head.data ? l->head.data : "", l->head.len);
	if (l->tail_len > 0) {
		size_t start = l->tail_len == RUN_CAPTURE_TAIL ? l->tail_pos : 0;

		if (l->dropped > 0)
			buf_printf(&b, "\n[flakesweep: %lld bytes not kept]\n",
			           (long long)l->dropped);
		buf_add(&b, l->tail + start, l->tail_len - start);
		if (start > 0)
			buf_add(&b, l->tail, start);
	}
	run_log_stacks(s, o, &b);
	/* Written whole or not at all, and a short write on a full disk is
	 * written on until the write itself says why it stopped. */
	rc = util_write_file_replace(path, b.data != NULL ? b.data : "", b.len);
	if (rc < 0) {
		sweep_message(s, _("cannot write %s: %s"), path, strerror(-rc));
		free(rel);
		rel = NULL;
	}
	buf_free(&b);
	free(path);
	return rel;
}

/* Removes a run's TMPDIR, which lies in the output directory's tmp/: back
 * to the pool when the run left it empty and nothing it started outlived
 * it, else only while tmp/ is still a real directory, and without
 * following any link the run left in its TMPDIR (util_rm_rf walks
 * physically). */
static void
run_remove_tmpdir(const struct sweep *s, const struct sweep_live *l)
{
	char *tmp;
	struct stat st;

	if (!l->leaked && tmpdir_pool_give(s->tmp_pool, l->tmpdir))
		return;
	tmp = xasprintf("%s/tmp", s->outdir);
	if (lstat(tmp, &st) == 0 && S_ISDIR(st.st_mode))
		util_rm_rf(l->tmpdir);
	free(tmp);
}

void
run_free(struct sweep_live *l)
{
	if (l->parser != NULL)
		l->parser->free(l->parser);
	buf_free(&l->head);
	free(l->tail);
	free(l->tmpdir);
	free(l);
}

static void
run_forget(struct sweep *s, struct sweep_live *l)
{
	size_t i;

	for (i = 0; i < s->nlive; i++) {
		if (s->live[i] == l) {
			s->live[i] = s->live[--s->nlive];
			break;
		}
	}
	if (l->port_slot >= 0)
		s->port_used[l->port_slot] = false;
}

/* Records the cores the run was pinned to (for the journal and the per-core
 * counts) and the order its failures came in. */
static void
run_note_cores(struct sweep *s, const struct sweep_live *l, const struct outcome *o,
               struct journal_run *jr)
{
	int i;

	for (i = 0; l->pub.cpus != NULL && i < l->pub.cpu && i < JOURNAL_CORES_MAX; i++)
		jr->cores[jr->ncores++] = l->pub.cpus[i];
	results_add_cores(s->results, l->pub.pkg, l->pub.phase, o, jr->cores, jr->ncores);
	results_add_order(s->results, l->pub.pkg, l->pub.phase, o);
}

/* --quiet: holds the lane after a run measured above the limit, and says
 * so when the lane starts or stops waiting. */
static void
run_quiet_note(struct sweep *s, int lane, double share)
{
	bool noisy = share * 100 > s->o->quiet;

	if (s->o->quiet == 0 || sweep_sched(s) == NULL)
		return;
	sched_hold_lane(sweep_sched(s), lane, noisy);
	if (noisy && !s->quiet_waiting[lane])
		sweep_message(s,
		              _("lane %d waits for quiet: other processes took %.0f%% of its "
		                "cores, above %d%%"),
		              lane, 100 * share, s->o->quiet);
	else if (!noisy && s->quiet_waiting[lane])
		sweep_message(s, _("lane %d is quiet again (%.0f%%)"), lane, 100 * share);
	s->quiet_waiting[lane] = noisy;
}

/* Ends the run's noise measurement, once: as soon as it has ended, before
 * flakesweep works on its output (keeps its log, counts it), work that may
 * take the cores the run had and would count as noise of failing runs
 * most. */
static void
run_end_noise(struct sweep *s, struct sweep_live *l)
{
	if (l->noise == NULL)
		return;
	l->noise_share = noise_end(s->noise, l->noise, uv_now(s->loop), proc_cpu_us(l->proc),
	                           &l->noise_other_ms);
	l->noise = NULL;
}

/* Counts the run's noise (run_end_noise) in its cells. */
static void
run_note_noise(struct sweep *s, struct sweep_live *l, int64_t elapsed_ms, const struct outcome *o,
               struct journal_run *jr)
{
	double other_ms;

	run_end_noise(s, l);
	jr->noise = l->noise_share;
	other_ms = l->noise_other_ms;
	if (o == NULL || jr->noise < 0)
		return;
	/* Counted as the journal keeps it (to a tenth of a ms), so results
	 * rebuilt from the journal equal the live ones. */
	other_ms = round(other_ms * 10) / 10;
	jr->has_noise = true;
	jr->noise_ms = other_ms;
	run_quiet_note(s, l->pub.lane, jr->noise);
	results_add_noise(s->results, l->pub.pkg, l->pub.phase, l->pub.cpu, l->pub.load, o,
	                  other_ms, (double)elapsed_ms * l->pub.cpu);
}

/* Judges a finished canary run, counts it in the harness (never in the
 * project's results) and journals it; keeps its output when it misbehaved. */
static void
run_canary_end(struct sweep *s, struct sweep_live *l, const struct proc_exit *ex,
               const struct outcome *o, int64_t elapsed_ms)
{
	struct harness *h = &s->results->harness;
	struct journal_canary jc;
	enum canary_verdict v;
	char *why = NULL, *clean = NULL, *log;
	int i;

	memset(&jc, 0, sizeof jc);
	run_end_noise(s, l);
	jc.noise = l->noise_share;
	jc.has_noise = jc.noise >= 0;
	v = canary_judge((enum canary_kind)l->canary, o, ex, jc.noise, &why);
	if (why != NULL)
		clean = sanitize_text(why, strlen(why));
	log = v == CANARY_UNEXPECTED ? run_keep_log(s, l, NULL) : NULL;
	run_remove_tmpdir(s, l);
	jc.canary = l->pub.id;
	jc.kind = canary_kind_name((enum canary_kind)l->canary);
	jc.cpu = l->pub.cpu;
	jc.load = l->pub.load;
	jc.lane = l->pub.lane;
	jc.ms = elapsed_ms;
	jc.exit = *ex;
	for (i = 0; l->pub.cpus != NULL && i < l->pub.cpu && i < JOURNAL_CORES_MAX; i++)
		jc.cores[jc.ncores++] = l->pub.cpus[i];
	jc.unexpected = v == CANARY_UNEXPECTED;
	jc.noisy = v == CANARY_NOISY;
	jc.why = clean;
	harness_add_run(h, jc.kind, jc.cpu, jc.load, jc.unexpected, jc.noisy, clean, jc.canary);
	if (jc.unexpected && h->unexpected == 1)
		sweep_message(s, _("the harness is not clean: %s"), h->reasons[0]);
	sweep_journal_check(s, journal_canary_write(s->journal, &jc));
	s->dirty = true;
	free(why);
	free(clean);
	free(log);
}

/* The package's directory as the run finds it: the debris watch lists it
 * before the package's first run, and with --private-workdir the run gets
 * its own copy in its TMPDIR. Returns the directory the run starts in
 * (caller frees), or NULL when the copy failed (a message said why). */
static char *
run_workdir(struct sweep *s, struct sweep_live *l, const struct pkg *pkg)
{
	char *dir, *err = NULL, *skip;
	const char *slash;
	int rc;

	if (s->watch == NULL)
		s->watch = xcalloc(s->npkgs, sizeof *s->watch);
	if (s->watch[l->pub.pkg] == NULL)
		s->watch[l->pub.pkg] = workdir_watch_new(pkg->dir);
	l->after_debris = workdir_watch_dirty(s->watch[l->pub.pkg]);
	if (!s->o->private_workdir)
		return xstrdup(pkg->dir);
	dir = xasprintf("%s/work", l->tmpdir);
	/* The output directory stays out of the copy; in the default layout
	 * (flakesweep-out/TIMESTAMP) the earlier sweeps' beside it too. */
	skip = xstrdup(s->outdir);
	slash = strrchr(skip, '/');
	if (slash != NULL && slash - skip >= 14 && strncmp(slash - 14, "flakesweep-out", 14) == 0 &&
	    (slash - skip == 14 || slash[-15] == '/'))
		skip[slash - skip] = '\0';
	rc = workdir_copy(pkg->dir, dir, skip, &err);
	free(skip);
	if (rc < 0) {
		sweep_message(s, _("run %lld: no private working directory: %s"),
		              (long long)l->pub.id, err);
		free(err);
		free(dir);
		return NULL;
	}
	return dir;
}

/* Lists the package's directory after the run: debris that outlived the
 * runs that may have made it goes to the results and the journal line
 * (jr points at *d's paths: the caller frees *d after the write). */
static void
run_note_debris(struct sweep *s, const struct sweep_live *l, struct journal_run *jr,
                struct workdir_debris **d, size_t *n)
{
	struct results_pkg *p = &s->results->pkgs[l->pub.pkg];
	int64_t live_min = INT64_MAX;
	size_t i;

	*d = NULL;
	*n = 0;
	jr->after_debris = l->after_debris;
	if (l->after_debris)
		results_note_after_debris(s->results, l->pub.pkg);
	if (s->watch == NULL || s->watch[l->pub.pkg] == NULL)
		return;
	for (i = 0; i < s->nlive; i++)
		if (s->live[i]->pub.pkg == l->pub.pkg && s->live[i]->pub.id < live_min)
			live_min = s->live[i]->pub.id;
	*d = workdir_watch_scan(s->watch[l->pub.pkg], l->pub.id, live_min, s->next_run, n);
	/* The first JOURNAL_DEBRIS_MAX of a package are enough to name. */
	for (i = 0; i < *n && p->ndebris < JOURNAL_DEBRIS_MAX; i++) {
		results_add_debris(s->results, l->pub.pkg, (*d)[i].path, (*d)[i].run);
		jr->debris[jr->ndebris] = (*d)[i].path;
		jr->debris_run[jr->ndebris++] = (*d)[i].run;
	}
}

/* Stops a sweep none of whose runs reached a test once every package ran
 * (the framework cannot start, every file fails to collect): each further
 * run would end the same way, and "no test failed" would be no answer. */
static void
run_check_reached(struct sweep *s, const struct outcome *o)
{
	size_t i;

	if (o->unreached == NULL || s->results->ntests > 0 || s->interrupting)
		return;
	for (i = 0; i < s->npkgs; i++) {
		if (s->pkgs[i]->build_ok && !s->pkgs[i]->empty && s->results->pkgs[i].runs == 0)
			return;
	}
	sweep_message(s, _("no run reached a test: %s"), o->unreached);
	s->infra_error = true;
	sweep_interrupt(s);
}

/* A run whose filter selected no test: a confirm run's test, or a run of
 * the whole package under --run, named with its package. */
static void
run_note_no_test(struct sweep *s, const struct sweep_live *l)
{
	const char *pkg = s->pkgs[l->pub.pkg]->name;
	char *q;

	if (l->pub.test != NULL) {
		sweep_message(s, _("run %lld: the filter for %s selected no test"),
		              (long long)l->pub.id, l->pub.test);
	} else if (s->o->run_re != NULL) {
		q = sanitize_shell_quote(s->o->run_re);
		sweep_message(s, _("run %lld: --run %s selected no test of %s"),
		              (long long)l->pub.id, q, pkg);
		free(q);
	} else {
		sweep_message(s, _("run %lld: no test of %s ran"), (long long)l->pub.id, pkg);
	}
}

/* Puts the run of jr on the results' timeline (timeline.h). */
static void
run_add_timeline(struct results *r, const struct journal_run *jr, const struct outcome *o)
{
	struct timeline_span sp = {.pkg = jr->pkg, .phase = jr->phase, .cpu = jr->cpu};

	sp.load = jr->load;
	sp.began = jr->began;
	sp.ended = jr->ended;
	sp.ms = jr->ms;
	sp.noise = jr->has_noise ? jr->noise : -1;
	sp.cores = jr->cores;
	sp.ncores = jr->ncores;

	timeline_add_outcome(r, &sp, o);
}

static void
run_on_done(void *arg, const struct proc_exit *ex, bool leaked, int64_t elapsed_ms)
{
	struct sweep_live *l = arg;
	struct sweep *s = l->s;
	const struct plan_pair *pair = sched_pair_data(sweep_sched(s), l->sr->pair);
	struct outcome o;
	struct journal_run jr;
	struct workdir_debris *debris;
	char *log = NULL, *mark;
	size_t i, ndebris;
	int fresh;
	int64_t outside;

	run_forget(s, l);
	run_end_noise(s, l);
	/* A daemon the run started (setsid, double fork) left its group but
	 * was adopted by flakesweep, and carries the run's TMPDIR. */
	mark = xasprintf("TMPDIR=%s", l->tmpdir);
	if (proc_kill_by_env(mark, false, true) > 0)
		leaked = true;
	free(mark);
	/* What outlived it may still hold its TMPDIR: no later run gets it. */
	l->leaked = leaked;
	if (s->interrupting) {
		/* Killed by the interrupt: neither counted nor journaled, so a
		 * resume runs it again. */
		run_note_noise(s, l, elapsed_ms, NULL, &jr);
		sched_core_finish(s->core, l->sr, elapsed_ms);
		run_remove_tmpdir(s, l);
		run_free(l);
		sweep_drive(s);
		return;
	}
	memset(&o, 0, sizeof o);
	l->parser->finish(l->parser, ex, &o);
	if (l->canary >= 0) {
		run_canary_end(s, l, ex, &o, elapsed_ms);
		outcome_free(&o);
		sched_core_finish(s->core, l->sr, elapsed_ms);
		run_free(l);
		sweep_drive(s);
		return;
	}
	if (o.unreliable && !o.package_failed && (ex->status != 0 || ex->signal != 0)) {
		/* No test can be blamed, but the run failed: a test printing a
		 * fake result line must not turn a failing package green. */
		o.package_failed = true;
		o.package_reason =
		    ex->signal != 0
		        ? xasprintf(_("killed by signal %d; its results contradict themselves: %s"),
		                    ex->signal, o.unreliable_reason ? o.unreliable_reason : "")
		        : xasprintf(_("exit status %d; its results contradict themselves: %s"),
		                    ex->status, o.unreliable_reason ? o.unreliable_reason : "");
	}
	if (pair->seed != NULL) {
		/* A polluter probe: what it showed steers the search and
		 * counts in no cell. */
		run_note_noise(s, l, elapsed_ms, NULL, &jr);
		order_feed(s, pair, l->pub.cpus, &o);
		if (s->obs.run_finished != NULL)
			s->obs.run_finished(s->obs.arg, &l->pub, &o);
		run_remove_tmpdir(s, l);
		outcome_free(&o);
		sched_core_finish(s->core, l->sr, elapsed_ms);
		run_free(l);
		sweep_drive(s);
		return;
	}
	if (outcome_failed(&o) || o.unreliable || o.selection_failed)
		log = run_keep_log(s, l, &o);
	else
		run_remove_tmpdir(s, l);
	if (o.selection_failed && !o.package_failed)
		run_note_no_test(s, l);
	outside = s->results->pkgs[l->pub.pkg].failures_outside_tests;
	fresh = results_add_run(s->results, l->pub.pkg, l->pub.phase, l->pub.cpu, l->pub.load, &o,
	                        log, l->pub.id);
	/* The first of a package's runs that failed outside any test. */
	if (outside == 0 && s->results->pkgs[l->pub.pkg].failures_outside_tests > 0)
		sweep_problem(s, OBSERVER_OUTSIDE_TEST, s->pkgs[l->pub.pkg]->name,
		              _("%s: run %lld failed outside any test (%s)"),
		              s->pkgs[l->pub.pkg]->name, (long long)l->pub.id,
		              o.package_reason != NULL ? o.package_reason : _("no reason given"));
	memset(&jr, 0, sizeof jr);
	run_note_cores(s, l, &o, &jr);
	run_note_noise(s, l, elapsed_ms, &o, &jr);
	run_note_debris(s, l, &jr, &debris, &ndebris);
	jr.overlapped = l->overlapped;
	interference_add_run(s->results, l->pub.pkg, l->pub.phase, l->pub.cpu, l->pub.load, &o,
	                     l->overlapped);
	if (leaked) {
		results_note_leak(s->results, l->pub.pkg);
		if (s->results->pkgs[l->pub.pkg].leaked_runs == 1)
			sweep_problem(s, OBSERVER_LEAKED, s->pkgs[l->pub.pkg]->name,
			              _("%s: run %lld left processes behind (killed)"),
			              s->pkgs[l->pub.pkg]->name, (long long)l->pub.id);
	}
	jr.run = l->pub.id;
	jr.pkg = l->pub.pkg;
	jr.phase = l->pub.phase;
	jr.cpu = l->pub.cpu;
	jr.load = l->pub.load;
	jr.lane = l->pub.lane;
	jr.ms = elapsed_ms;
	jr.began = l->pub.started_ms;
	jr.ended = util_now_ms();
	results_add_time(s->results, l->pub.pkg, l->pub.cpu, l->pub.load, elapsed_ms);
	run_add_timeline(s->results, &jr, &o);
	jr.exit = *ex;
	jr.log = log;
	jr.selected = l->pub.test;
	jr.leaked = leaked;
	sweep_journal_check(s, journal_write_run(s->journal, &jr, &o));
	workdir_debris_free(debris, ndebris);
	s->dirty = true;
	if (s->obs.run_finished != NULL)
		s->obs.run_finished(s->obs.arg, &l->pub, &o);
	for (i = 0; fresh > 0 && s->obs.test_failed_first != NULL && i < o.ntests; i++) {
		const struct results_test *t =
		    results_first_failed_in(s->results, l->pub.pkg, &o.tests[i], l->pub.id);

		if (t != NULL)
			s->obs.test_failed_first(s->obs.arg, t, &o.tests[i], &l->pub);
	}
	run_check_reached(s, &o);
	outcome_free(&o);
	free(log);
	sched_core_finish(s->core, l->sr, elapsed_ms);
	run_free(l);
	sweep_drive(s);
}

static int
run_port_slot(struct sweep *s)
{
	int i;

	for (i = 0; i < SWEEP_PORT_SLOTS; i++) {
		if (!s->port_used[i]) {
			s->port_used[i] = true;
			return i;
		}
	}
	return -1;
}

/* The product wraps around 2^64: it is taken modulo in unsigned
 * arithmetic (as a signed number it was negative for 40 days in every 80,
 * and a seed is a run of digits). */
void
run_seed(char *buf, size_t size, int64_t now_ms, int64_t id)
{
	snprintf(buf, size, "%llu",
	         (unsigned long long)(((uint64_t)now_ms * 2654435761u + (uint64_t)id) %
	                              1000000000000ULL));
}

/* A run that could not start (rc, a negative errno; say: with a message,
 * where none was given yet): the binary is gone or cannot run, an
 * infrastructure error. The sweep stops rather than count a failure per
 * run, and says so once: the runs whose births were under way fail
 * alike. */
static void
run_not_started(struct sweep_live *l, int rc, bool say)
{
	struct sweep *s = l->s;
	const struct pkg *pkg = l->canary < 0 ? s->pkgs[l->pub.pkg] : NULL;

	if (say && !s->infra_error)
		sweep_message(s, _("cannot start %s: %s"),
		              pkg == NULL   ? s->canary_program
		              : pkg->binary ? pkg->binary
		                            : pkg->name,
		              strerror(-rc));
	s->infra_error = true;
	run_forget(s, l);
	sched_pause(sweep_sched(s), true);
	sched_core_cancel(s->core, l->sr);
	run_remove_tmpdir(s, l);
	run_free(l);
	s->interrupting = true;
	sweep_drive(s);
}

/* The run's clone is over: it runs (err 0), or it could not start. */
static void
run_on_started(void *arg, int err)
{
	struct sweep_live *l = arg;
	struct sweep *s = l->s;

	if (err < 0) {
		run_not_started(l, err, true);
		return;
	}
	l->noise =
	    noise_begin(s->noise, uv_now(s->loop), proc_pid(l->proc), l->sr->cpus, l->sr->ncpus);
	/* A canary is no run of the project's: no spawn line (its TMPDIR
	 * names it for a resume's kill), nothing for the front ends. */
	if (l->canary >= 0)
		return;
	sweep_journal_check(s, journal_write_spawn(s->journal, l->pub.id, proc_pid(l->proc),
	                                           proc_born_ticks(l->proc)));
	if (s->obs.run_started != NULL)
		s->obs.run_started(s->obs.arg, &l->pub);
}

void
run_start(struct sweep *s, struct sched_run *sr)
{
	const struct plan_pair *pair = sched_pair_data(sweep_sched(s), sr->pair);
	const struct pkg *pkg = pair->pkg != PLAN_CANARY ? s->pkgs[pair->pkg] : NULL;
	struct sweep_live *l = xcalloc(1, sizeof *l);
	struct driver_run dr;
	struct proc_spec spec;
	cpu_set_t set;
	char **argv, **env, seed[32], *cwd;
	bool workdir_ok;
	int i, rc;

	l->s = s;
	l->sr = sr;
	l->canary = pkg == NULL ? canary_kind_find(pair->test) : -1;
	l->pub.id = pkg == NULL ? ++s->next_canary : ++s->next_run;
	l->pub.pkg = pair->pkg;
	l->pub.phase = pair->phase;
	l->pub.cpu = pair->cpu;
	l->pub.load = pair->load;
	l->pub.lane = sr->lane;
	l->pub.cpus = sr->cpus;
	l->pub.test = pair->test;
	l->pub.started_ms = util_now_ms();
	l->port_slot = run_port_slot(s);
	buf_init(&l->head);
	l->tmpdir = pkg == NULL ? xasprintf("%s/tmp/canary-%lld", s->outdir, (long long)l->pub.id)
	                        : xasprintf("%s/tmp/%lld", s->outdir, (long long)l->pub.id);
	tmpdir_pool_take(s->tmp_pool, l->tmpdir);
	cwd = pkg != NULL ? run_workdir(s, l, pkg) : xstrdup(s->outdir);
	memset(&dr, 0, sizeof dr);
	dr.cpu = pair->cpu;
	/* The report counts the project's runs whose limit was clipped, not
	 * the canaries'. */
	dr.timeout_ms = budget_timeout_ms(s, s->o->timeout_ms, pkg != NULL);
	/* A canary does milliseconds of work: a --timeout cut for the
	 * project's tests must not starve it on a loaded host. */
	if (pkg == NULL && dr.timeout_ms < CANARY_TIMEOUT_MIN_MS)
		dr.timeout_ms = CANARY_TIMEOUT_MIN_MS;
	dr.test = pair->test;
	dr.run_re = pair->run_re != NULL ? pair->run_re : s->o->run_re;
	dr.skip_re = pair->run_re != NULL ? NULL : s->o->skip_re;
	if (pair->seed != NULL) {
		dr.seed = pair->seed;
	} else if (s->o->shuffle) {
		/* One seed per run, kept with its result. */
		run_seed(seed, sizeof seed, util_now_ms(), l->pub.id);
		dr.seed = seed;
	}
	if (pkg == NULL) {
		argv = canary_argv(s->canary_program, (enum canary_kind)l->canary, pair->cpu,
		                   pair->load, sr->cpus, sr->ncpus, s->o->cpu_shim_path != NULL);
		l->parser = driver_find("tap")->parser_new(NULL, NULL);
	} else {
		argv = s->driver->run_argv(s->o, pkg, &dr);
		l->parser = s->driver->parser_new(pkg, pair->test);
	}
	env = run_environ(s, l, &dr);
	CPU_ZERO(&set);
	for (i = 0; i < sr->ncpus; i++)
		CPU_SET(sr->cpus[i], &set);
	memset(&spec, 0, sizeof spec);
	spec.argv = argv;
	spec.envp = env;
	spec.cwd = cwd;
	spec.cpus = &set;
	if (pkg == NULL || !s->driver->own_timeout)
		spec.term_after_ms = dr.timeout_ms;
	spec.kill_after_ms = dr.timeout_ms + s->o->kill_grace_ms;
	spec.drain_ms = 200;
	spec.isolate_net = s->o->isolate_net;
	if (s->driver->report_pipe && pkg != NULL)
		spec.report_cb = run_on_report;
	for (i = 0; pkg != NULL && i < (int)s->nlive; i++)
		if (s->live[i]->pub.pkg == l->pub.pkg)
			s->live[i]->overlapped = l->overlapped = true;
	s->live = xrealloc(s->live, sizeof *s->live * (s->nlive + 1));
	s->live[s->nlive++] = l;
	/* The clone happens off the loop, or on it while clones are quick
	 * (proc_spawn_async takes argv, env and cwd); run_on_started carries
	 * on once the run is born, maybe before this returns. */
	workdir_ok = cwd != NULL;
	rc = workdir_ok ? proc_spawn_async(s->loop, &spec, run_on_output, run_on_started,
	                                   run_on_done, l, &l->proc)
	                : -EIO;
	if (rc < 0) {
		util_strv_free(argv);
		free(env);
		free(cwd);
		run_not_started(l, rc, workdir_ok);
	}
}
