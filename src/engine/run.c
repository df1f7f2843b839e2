/* SPDX-License-Identifier: MIT */
/*
 * run.c: one run of a sweep: its environment (TMPDIR, FLAKESWEEP_RUN,
 * FLAKESWEEP_PORT_BASE and its port window, FLAKESWEEP_CPU, the CPU
 * preload), the capture of its output (head and tail ring) fed to the
 * driver's parser, the log kept when it fails, and what it adds to the
 * results and the journal when it ends. It never chooses what runs next:
 * the scheduler and sweep.c do.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/cpu-shim.h"
#include "results/interference.h"
#include "engine/sweep-int.h"

extern char **environ;

#define RUN_CAPTURE_HEAD (1 << 20)
#define RUN_CAPTURE_TAIL (1 << 20)

static char **
run_environ(struct sweep *s, const struct sweep_live *l, const struct driver_run *dr)
{
	char **env = NULL, **extra, *v;
	size_t n = 0, i, j;
	const struct pkg *pkg = s->pkgs[l->pub.pkg];

	extra = s->driver->run_env(s->o, pkg, dr);
	for (i = 0; environ[i] != NULL; i++) {
		if (strncmp(environ[i], "TMPDIR=", 7) == 0 ||
		    strncmp(environ[i], "FLAKESWEEP_", 11) == 0 ||
		    (s->o->cpu_shim_path != NULL &&
		     (strncmp(environ[i], "LD_PRELOAD=", 11) == 0 ||
		      strncmp(environ[i], "ASAN_OPTIONS=", 13) == 0)))
			continue;
		/* The driver's entries replace flakesweep's own (PYTHONPATH). */
		for (j = 0; extra != NULL && extra[j] != NULL; j++) {
			size_t k = strcspn(extra[j], "=");

			if (strncmp(environ[i], extra[j], k + 1) == 0)
				break;
		}
		if (extra == NULL || extra[j] == NULL)
			util_strv_add(&env, &n, environ[i]);
	}
	if (s->o->cpu_shim_path != NULL) {
		char *preload = cpu_shim_preload(getenv("LD_PRELOAD"), s->o->cpu_shim_path);
		char *asan = cpu_shim_asan_options(getenv("ASAN_OPTIONS"));

		v = xasprintf("LD_PRELOAD=%s", preload);
		util_strv_add(&env, &n, v);
		free(v);
		v = xasprintf("ASAN_OPTIONS=%s", asan);
		util_strv_add(&env, &n, v);
		free(v);
		free(preload);
		free(asan);
	}
	v = xasprintf("TMPDIR=%s", l->tmpdir);
	util_strv_add(&env, &n, v);
	free(v);
	v = xasprintf("FLAKESWEEP_RUN=%lld", (long long)l->pub.id);
	util_strv_add(&env, &n, v);
	free(v);
	v = xasprintf("FLAKESWEEP_PORT_BASE=%d",
	              SWEEP_PORT_FIRST + l->port_slot * SWEEP_PORT_WINDOW);
	util_strv_add(&env, &n, v);
	free(v);
	v = xasprintf("FLAKESWEEP_CPU=%d", l->pub.cpu);
	util_strv_add(&env, &n, v);
	free(v);
	if (s->driver->report_pipe) {
		v = xasprintf("FLAKESWEEP_REPORT_FD=%d", PROC_REPORT_FD);
		util_strv_add(&env, &n, v);
		free(v);
	}
	for (i = 0; extra != NULL && extra[i] != NULL; i++)
		util_strv_add(&env, &n, extra[i]);
	util_strv_free(extra);
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

/* Writes the kept output of a failed run; returns its path relative to
 * the output directory (caller frees) or NULL. */
static char *
run_keep_log(struct sweep *s, struct sweep_live *l)
{
	char *rel = xasprintf("runs/%lld.log", (long long)l->pub.id);
	char *path = xasprintf("%s/%s", s->outdir, rel);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	struct buf b;

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
	if (fd < 0 || write(fd, b.data ? b.data : "", b.len) != (ssize_t)b.len) {
		sweep_message(s, _("cannot write %s: %s"), path, strerror(errno));
		free(rel);
		rel = NULL;
	}
	if (fd >= 0)
		close(fd);
	buf_free(&b);
	free(path);
	return rel;
}

/* Removes a run's TMPDIR, which lies in the output directory's tmp/: only
 * while tmp/ is still a real directory, and without following any link
 * the run left in its TMPDIR (util_rm_rf walks physically). */
static void
run_remove_tmpdir(const struct sweep *s, const struct sweep_live *l)
{
	char *tmp = xasprintf("%s/tmp", s->outdir);
	struct stat st;

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
	results_add_cores(s->results, l->pub.pkg, o, jr->cores, jr->ncores);
	results_add_order(s->results, l->pub.pkg, l->pub.phase, o);
}

/* --quiet: holds the lane after a run measured above the limit, and says
 * so when the lane starts or stops waiting. */
static void
run_quiet_note(struct sweep *s, int lane, double share)
{
	bool noisy = share * 100 > s->o->quiet;

	if (s->o->quiet == 0 || s->sched == NULL)
		return;
	sched_hold_lane(s->sched, lane, noisy);
	if (noisy && !s->quiet_waiting[lane])
		sweep_message(s,
		              _("lane %d waits for quiet: other processes took %.0f%% of its "
		                "cores, above %d%%"),
		              lane, 100 * share, s->o->quiet);
	else if (!noisy && s->quiet_waiting[lane])
		sweep_message(s, _("lane %d is quiet again (%.0f%%)"), lane, 100 * share);
	s->quiet_waiting[lane] = noisy;
}

/* Ends the run's noise measurement and counts it in its cells. */
static void
run_note_noise(struct sweep *s, struct sweep_live *l, int64_t elapsed_ms, const struct outcome *o,
               struct journal_run *jr)
{
	double other_ms;

	jr->noise = noise_end(s->noise, l->noise, uv_now(s->loop), proc_cpu_us(l->proc), &other_ms);
	l->noise = NULL;
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

static void
run_on_done(void *arg, const struct proc_exit *ex, bool leaked, int64_t elapsed_ms)
{
	struct sweep_live *l = arg;
	struct sweep *s = l->s;
	const struct plan_pair *pair = sched_pair_data(s->sched, l->sr->pair);
	struct outcome o;
	struct journal_run jr;
	char *log = NULL, *mark;
	size_t i;
	int fresh;

	run_forget(s, l);
	/* A daemon the run started (setsid, double fork) left its group but
	 * was adopted by flakesweep, and carries the run's TMPDIR. */
	mark = xasprintf("TMPDIR=%s", l->tmpdir);
	if (proc_kill_by_env(mark, false, true) > 0)
		leaked = true;
	free(mark);
	if (s->interrupting) {
		/* Killed by the interrupt: neither counted nor journaled, so a
		 * resume runs it again. */
		run_note_noise(s, l, elapsed_ms, NULL, &jr);
		sweep_sched_finish(s, l->sr, elapsed_ms);
		run_remove_tmpdir(s, l);
		run_free(l);
		sweep_check_phase(s);
		return;
	}
	memset(&o, 0, sizeof o);
	l->parser->finish(l->parser, ex, &o);
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
		sweep_sched_finish(s, l->sr, elapsed_ms);
		run_free(l);
		sweep_check_phase(s);
		if (!s->finished)
			sweep_dispatch(s);
		return;
	}
	if (outcome_failed(&o) || o.unreliable || o.selection_failed)
		log = run_keep_log(s, l);
	else
		run_remove_tmpdir(s, l);
	if (o.selection_failed && !o.package_failed)
		sweep_message(s, _("run %lld: the filter for %s selected no test"),
		              (long long)l->pub.id, l->pub.test ? l->pub.test : "?");
	fresh = results_add_run(s->results, l->pub.pkg, l->pub.phase, l->pub.cpu, l->pub.load, &o,
	                        log, l->pub.id);
	memset(&jr, 0, sizeof jr);
	run_note_cores(s, l, &o, &jr);
	run_note_noise(s, l, elapsed_ms, &o, &jr);
	jr.overlapped = l->overlapped;
	interference_add_run(s->results, l->pub.pkg, l->pub.phase, l->pub.cpu, l->pub.load, &o,
	                     l->overlapped);
	if (leaked)
		results_note_leak(s->results, l->pub.pkg);
	jr.run = l->pub.id;
	jr.pkg = l->pub.pkg;
	jr.phase = l->pub.phase;
	jr.cpu = l->pub.cpu;
	jr.load = l->pub.load;
	jr.lane = l->pub.lane;
	jr.ms = elapsed_ms;
	jr.exit = *ex;
	jr.log = log;
	jr.selected = l->pub.test;
	jr.leaked = leaked;
	sweep_journal_check(s, journal_write_run(s->journal, &jr, &o));
	s->dirty = true;
	if (s->obs.run_finished != NULL)
		s->obs.run_finished(s->obs.arg, &l->pub, &o);
	for (i = 0; fresh > 0 && s->obs.test_failed_first != NULL && i < o.ntests; i++) {
		const struct results_test *t =
		    results_first_failed_in(s->results, l->pub.pkg, &o.tests[i], l->pub.id);

		if (t != NULL)
			s->obs.test_failed_first(s->obs.arg, t, &o.tests[i], &l->pub);
	}
	outcome_free(&o);
	free(log);
	sweep_sched_finish(s, l->sr, elapsed_ms);
	run_free(l);
	sweep_check_phase(s);
	if (!s->finished)
		sweep_dispatch(s);
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

void
run_start(void *arg, struct sched_run *sr)
{
	struct sweep *s = arg;
	const struct plan_pair *pair = sched_pair_data(s->sched, sr->pair);
	const struct pkg *pkg = s->pkgs[pair->pkg];
	struct sweep_live *l = xcalloc(1, sizeof *l);
	struct driver_run dr;
	struct proc_spec spec;
	cpu_set_t set;
	char **argv, **env, seed[32];
	int i, rc;

	l->s = s;
	l->sr = sr;
	l->pub.id = ++s->next_run;
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
	l->tmpdir = xasprintf("%s/tmp/%lld", s->outdir, (long long)l->pub.id);
	util_mkdir_p(l->tmpdir);
	memset(&dr, 0, sizeof dr);
	dr.cpu = pair->cpu;
	dr.timeout_ms = s->o->timeout_ms;
	dr.test = pair->test;
	dr.run_re = pair->run_re != NULL ? pair->run_re : s->o->run_re;
	dr.skip_re = pair->run_re != NULL ? NULL : s->o->skip_re;
	if (pair->seed != NULL) {
		dr.seed = pair->seed;
	} else if (s->o->shuffle) {
		/* One seed per run, kept with its result. */
		snprintf(seed, sizeof seed, "%lld",
		         (long long)((uint64_t)util_now_ms() * 2654435761u + (uint64_t)l->pub.id) %
		             1000000000000LL);
		dr.seed = seed;
	}
	argv = s->driver->run_argv(s->o, pkg, &dr);
	env = run_environ(s, l, &dr);
	l->parser = s->driver->parser_new(pkg, pair->test);
	CPU_ZERO(&set);
	for (i = 0; i < sr->ncpus; i++)
		CPU_SET(sr->cpus[i], &set);
	memset(&spec, 0, sizeof spec);
	spec.argv = argv;
	spec.envp = env;
	spec.cwd = pkg->dir;
	spec.cpus = &set;
	if (!s->driver->own_timeout)
		spec.term_after_ms = s->o->timeout_ms;
	spec.kill_after_ms = s->o->timeout_ms + s->o->kill_grace_ms;
	spec.drain_ms = 200;
	spec.isolate_net = s->o->isolate_net;
	if (s->driver->report_pipe)
		spec.report_cb = run_on_report;
	rc = proc_spawn(s->loop, &spec, run_on_output, run_on_done, l, &l->proc);
	util_strv_free(argv);
	util_strv_free(env);
	for (i = 0; i < (int)s->nlive; i++)
		if (s->live[i]->pub.pkg == l->pub.pkg)
			s->live[i]->overlapped = l->overlapped = true;
	s->live = xrealloc(s->live, sizeof *s->live * (s->nlive + 1));
	s->live[s->nlive++] = l;
	if (rc < 0) {
		/* The binary is gone or cannot run: an infrastructure error. The
		 * sweep stops rather than count a failure per run. */
		sweep_message(s, _("cannot start %s: %s"), pkg->binary ? pkg->binary : pkg->name,
		              strerror(-rc));
		s->infra_error = true;
		run_forget(s, l);
		sched_pause(s->sched, true);
		sched_cancel(s->sched, sr);
		run_remove_tmpdir(s, l);
		run_free(l);
		s->interrupting = true;
		sweep_check_phase(s);
		return;
	}
	sweep_journal_check(s, journal_write_spawn(s->journal, l->pub.id, proc_pid(l->proc),
	                                           proc_start_ticks(proc_pid(l->proc))));
	l->noise = noise_begin(s->noise, uv_now(s->loop), proc_pid(l->proc), sr->cpus, sr->ncpus);
	if (s->obs.run_started != NULL)
		s->obs.run_started(s->obs.arg, &l->pub);
}
