/* SPDX-License-Identifier: MIT */
/* test-proc.c: spawning pinned runs, output, time limits, leaks. */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>

#include "check.h"
#include "engine/proc.h"
#include "base/mask.h"
#include "base/util.h"

extern char **environ;

struct result {
	struct buf out;
	struct buf report; /* the report pipe, when asked for */
	struct proc_exit exit;
	bool leaked, done;
	int64_t elapsed_ms;
};

static void
on_output(void *arg, const char *data, size_t len)
{
	struct result *r = arg;

	buf_add(&r->out, data, len);
}

static void
on_done(void *arg, const struct proc_exit *ex, bool leaked, int64_t elapsed_ms)
{
	struct result *r = arg;

	r->exit = *ex;
	r->leaked = leaked;
	r->done = true;
	r->elapsed_ms = elapsed_ms;
}

static void
run_sh(const char *script, const cpu_set_t *cpus, int64_t term_ms, int64_t kill_ms,
       struct result *r)
{
	uv_loop_t loop;
	char *argv[] = {"sh", "-c", (char *)script, NULL};
	struct proc_spec spec = {.argv = argv,
	                         .envp = environ,
	                         .cpus = cpus,
	                         .term_after_ms = term_ms,
	                         .kill_after_ms = kill_ms,
	                         .drain_ms = 100};
	struct proc *p;

	memset(r, 0, sizeof *r);
	buf_init(&r->out);
	CHECK_INT(uv_loop_init(&loop), 0);
	CHECK_INT(proc_spawn(&loop, &spec, on_output, on_done, r, &p), 0);
	CHECK(proc_pid(p) > 0);
	uv_run(&loop, UV_RUN_DEFAULT);
	CHECK(r->done);
	CHECK_INT(uv_loop_close(&loop), 0);
}

TEST(proc_output_and_exit_status)
{
	struct result r;

	run_sh("echo out; echo err >&2; exit 3", NULL, 0, 0, &r);
	CHECK_STR(r.out.data, "out\nerr\n");
	CHECK_INT(r.exit.status, 3);
	CHECK_INT(r.exit.signal, 0);
	CHECK(!r.exit.timed_out);
	CHECK(!r.leaked);
	buf_free(&r.out);
}

/* flakesweep raises its own limit of open descriptors; its children get
 * the one it started with, spawned or captured. */
TEST(proc_children_keep_the_fd_limit)
{
	char *argv[] = {"sh", "-c", "ulimit -Sn", NULL};
	struct rlimit r;
	struct result res;
	char *out = NULL;

	CHECK_INT(getrlimit(RLIMIT_NOFILE, &r), 0);
	if (r.rlim_max <= 256) {
		printf("# SKIP the hard limit of open files is %lu\n", (unsigned long)r.rlim_max);
		return;
	}
	r.rlim_cur = 256;
	CHECK_INT(setrlimit(RLIMIT_NOFILE, &r), 0);
	proc_raise_fd_limit();
	CHECK_INT(getrlimit(RLIMIT_NOFILE, &r), 0);
	CHECK(r.rlim_cur > 256);
	CHECK(r.rlim_cur == r.rlim_max || r.rlim_cur == 1048576);
	run_sh("ulimit -Sn", NULL, 0, 0, &res);
	CHECK_STR(res.out.data, "256\n");
	buf_free(&res.out);
	CHECK_INT(proc_capture(argv, NULL, environ, 4096, &out), 0);
	CHECK_STR(out, "256\n");
	free(out);
}

/* A withheld variable reaches no child, spawned or captured, while
 * flakesweep's own environment keeps it. */
TEST(proc_withheld_env)
{
	char *argv[] = {"sh", "-c", "echo ${FS_TEST_SECRET-none} ${FS_TEST_KEPT-none}", NULL};
	struct result r;
	char *out = NULL;

	setenv("FS_TEST_SECRET", "s3cret", 1);
	setenv("FS_TEST_KEPT", "kept", 1);
	proc_withhold_env("FS_TEST_SECRET");
	run_sh("echo ${FS_TEST_SECRET-none} ${FS_TEST_KEPT-none}", NULL, 0, 0, &r);
	CHECK_STR(r.out.data, "none kept\n");
	buf_free(&r.out);
	CHECK_INT(proc_capture(argv, NULL, environ, 4096, &out), 0);
	CHECK_STR(out, "none kept\n");
	free(out);
	CHECK_STR(getenv("FS_TEST_SECRET"), "s3cret");
}

TEST(proc_born_pinned)
{
	struct result r;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	/* The shell and everything it starts inherit the one core. */
	run_sh("grep Cpus_allowed_list /proc/self/status; nproc", &set, 0, 0, &r);
	CHECK_STR(r.out.data, "Cpus_allowed_list:\t0\n1\n");
	CHECK_INT(r.exit.status, 0);
	buf_free(&r.out);
}

TEST(proc_own_process_group)
{
	struct result r;
	char *expect;

	run_sh("ps -o pgid= -p $$ | tr -d ' '; echo $$", NULL, 0, 0, &r);
	{
		char *nl = strchr(r.out.data, '\n');

		CHECK(nl != NULL);
		expect = xasprintf("%.*s\n", (int)(nl - r.out.data), r.out.data);
		CHECK_STR(nl + 1, expect);
		free(expect);
	}
	buf_free(&r.out);
}

TEST(proc_term_then_kill_after_limits)
{
	struct result r;

	/* The shell ignores SIGTERM, so SIGKILL ends it. */
	run_sh("trap '' TERM; echo start; while :; do sleep 0.05; done", NULL, 100, 300, &r);
	CHECK_STR(r.out.data, "start\n");
	CHECK(r.exit.timed_out);
	CHECK_INT(r.exit.signal, SIGKILL);
	CHECK(r.elapsed_ms >= 300);
	CHECK(r.elapsed_ms < 3000);
	buf_free(&r.out);
}

TEST(proc_grandchild_holding_pipe_does_not_stall)
{
	struct result r;
	int64_t t0 = util_mono_ms();

	/* A background child keeps stdout open and would outlive the run. */
	run_sh("sleep 30 & echo done", NULL, 0, 0, &r);
	CHECK_STR(r.out.data, "done\n");
	CHECK_INT(r.exit.status, 0);
	CHECK(r.leaked);
	CHECK(util_mono_ms() - t0 < 5000);
	buf_free(&r.out);
}

TEST(proc_exec_failure)
{
	uv_loop_t loop;
	char *argv[] = {"/nonexistent/flakesweep-test-binary", NULL};
	struct proc_spec spec = {.argv = argv, .envp = environ};
	struct proc *p = NULL;

	CHECK_INT(uv_loop_init(&loop), 0);
	CHECK_INT(proc_spawn(&loop, &spec, on_output, on_done, NULL, &p), -ENOENT);
	CHECK(p == NULL);
	CHECK_INT(uv_loop_close(&loop), 0);
}

TEST(proc_capture_sync)
{
	char *argv[] = {"sh", "-c", "echo a; echo b >&2; exit 4", NULL};
	char *out;

	CHECK_INT(proc_capture(argv, NULL, environ, 1024, &out), 4);
	CHECK_STR(out, "a\nb\n");
	free(out);
}

TEST(proc_start_ticks_identify)
{
	uint64_t t = proc_start_ticks(getpid());

	CHECK(t > 0);
	CHECK(!proc_kill_stale(getpid(), t + 1));
}

/* The start time taken from the clock is the one /proc gives, spawn after
 * spawn (a spawn that straddles a tick reads /proc). */
TEST(proc_born_ticks_equal_proc)
{
	char *argv[] = {"sleep", "5", NULL};
	struct proc_spec spec = {.argv = argv, .envp = environ, .drain_ms = 100};
	int i;

	for (i = 0; i < 20; i++) {
		uv_loop_t loop;
		struct result r;
		struct proc *p;

		memset(&r, 0, sizeof r);
		buf_init(&r.out);
		CHECK_INT(uv_loop_init(&loop), 0);
		CHECK_INT(proc_spawn(&loop, &spec, on_output, on_done, &r, &p), 0);
		CHECK(proc_born_ticks(p) > 0);
		CHECK_INT((long long)proc_born_ticks(p), (long long)proc_start_ticks(proc_pid(p)));
		proc_signal(p, SIGKILL);
		uv_run(&loop, UV_RUN_DEFAULT);
		CHECK(r.done);
		CHECK_INT(r.exit.signal, SIGKILL);
		CHECK_INT(uv_loop_close(&loop), 0);
		buf_free(&r.out);
	}
}

static void
on_report(void *arg, const char *data, size_t len)
{
	struct result *r = arg;

	buf_add(&r->report, data, len);
}

static void
run_sh_report(const char *script, struct result *r)
{
	uv_loop_t loop;
	char *argv[] = {"sh", "-c", (char *)script, NULL};
	struct proc_spec spec = {
	    .argv = argv, .envp = environ, .drain_ms = 100, .report_cb = on_report};
	struct proc *p;

	memset(r, 0, sizeof *r);
	buf_init(&r->out);
	buf_init(&r->report);
	CHECK_INT(uv_loop_init(&loop), 0);
	CHECK_INT(proc_spawn(&loop, &spec, on_output, on_done, r, &p), 0);
	uv_run(&loop, UV_RUN_DEFAULT);
	CHECK(r->done);
	CHECK_INT(uv_loop_close(&loop), 0);
}

TEST(proc_report_pipe_apart_from_output)
{
	struct result r;

	/* Descriptor 3 is the report pipe; 4 is not open in the child. */
	run_sh_report("echo out; echo rep >&3; echo err >&2; echo more >&3; "
	              "(echo x >&4) 2>/dev/null && echo four-open; exit 1",
	              &r);
	CHECK_STR(r.out.data, "out\nerr\n");
	CHECK_STR(r.report.data, "rep\nmore\n");
	CHECK_INT(r.exit.status, 1);
	CHECK(!r.leaked);
	buf_free(&r.out);
	buf_free(&r.report);
}

TEST(proc_report_pipe_held_by_grandchild_does_not_stall)
{
	struct result r;
	int64_t t0 = util_mono_ms();

	/* Only the report pipe stays open, in a background child. */
	run_sh_report("sleep 30 >/dev/null 2>&1 & echo done >&3", &r);
	CHECK_STR(r.report.data, "done\n");
	CHECK(r.out.data == NULL || r.out.len == 0);
	CHECK(r.leaked);
	CHECK(util_mono_ms() - t0 < 5000);
	buf_free(&r.out);
	buf_free(&r.report);
}

TEST(proc_masks_output_of_both_pipes_and_captures)
{
	struct mask *m = mask_new();
	char *argv[] = {"sh", "-c", "printf 'k=hunter'; sleep 0.2; printf '2hunter2\\n'", NULL};
	struct result r;
	char *out;

	mask_add(m, "hunter2hunter2");
	proc_set_mask(m);
	/* The value reaches flakesweep in two reads; the run ends held by a
	 * grandchild, with the end of a value still held back. */
	run_sh("printf 'a hunter2'; sleep 0.2; printf 'hunter2 b\\n'", NULL, 0, 0, &r);
	CHECK_STR(r.out.data, "a *** b\n");
	buf_free(&r.out);
	run_sh_report("echo hunter2hunter2 >&3; printf hunter2hun; sleep 30 &", &r);
	CHECK_STR(r.report.data, "***\n");
	CHECK_STR(r.out.data, "hunter2hun");
	buf_free(&r.out);
	buf_free(&r.report);
	CHECK_INT(proc_capture(argv, NULL, environ, 1024, &out), 0);
	CHECK_STR(out, "k=***\n");
	free(out);
	proc_set_mask(NULL);
	mask_free(m);
}
