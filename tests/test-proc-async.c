/* SPDX-License-Identifier: MIT */
/* test-proc-async.c: runs born on a worker thread (proc_spawn_async): the
 * birth reported on the loop, pinning, failures, signals sent before the
 * birth, and the orphan reaper leaving such runs alone; and runs born on
 * the loop at once while clones are quick. */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "engine/proc.h"
#include "base/util.h"

extern char **environ;

struct birth {
	struct buf out;
	struct proc *p;
	struct proc_exit exit;
	pid_t pid;         /* proc_pid in start_cb */
	int start_err;     /* start_cb's err */
	int starts, dones; /* how often each callback came */
	bool done_after_start;
	bool reap_orphans; /* proc_reap_orphans once the leader is a zombie */
	int reaped;
};

static void
on_output(void *arg, const char *data, size_t len)
{
	struct birth *b = arg;

	buf_add(&b->out, data, len);
}

/* Waits (at most 10 s) until pid is a zombie: exited, not yet reaped. */
static void
wait_zombie(pid_t pid)
{
	char path[64], *text = NULL, *s;
	int i;

	snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
	for (i = 0; i < 1000; i++) {
		bool zombie = false;

		if (util_read_file(path, 4096, &text, NULL) == 0) {
			s = strrchr(text, ')');
			zombie = s != NULL && s[1] == ' ' && s[2] == 'Z';
		}
		free(text);
		text = NULL;
		if (zombie)
			return;
		usleep(10000);
	}
}

static void
on_start(void *arg, int err)
{
	struct birth *b = arg;

	b->starts++;
	b->start_err = err;
	if (err == 0) {
		b->pid = proc_pid(b->p);
		if (b->reap_orphans) {
			wait_zombie(b->pid);
			b->reaped = proc_reap_orphans(false);
		}
	}
}

static void
on_done(void *arg, const struct proc_exit *ex, bool leaked, int64_t elapsed_ms)
{
	struct birth *b = arg;

	(void)leaked;
	(void)elapsed_ms;
	b->dones++;
	b->done_after_start = b->starts == 1;
	b->exit = *ex;
}

/* Spawns argv (copied: the proc takes the copies, and a copy of environ's
 * pointers) with cwd "/" and the given cores, on the pool; kill_now sends
 * SIGKILL before the birth is reported. */
static int
spawn_async(char *const *argv, const cpu_set_t *cpus, bool kill_now, struct birth *b)
{
	uv_loop_t loop;
	char **av = NULL, **env = NULL;
	size_t n = 0, m = 0, i;
	struct proc_spec spec;
	int rc;

	buf_init(&b->out);
	for (i = 0; argv[i] != NULL; i++)
		util_strv_add(&av, &n, argv[i]);
	/* One allocation, its strings environ's own. */
	while (environ[m] != NULL)
		m++;
	env = xmalloc(sizeof *env * (m + 1));
	memcpy(env, environ, sizeof *env * (m + 1));
	memset(&spec, 0, sizeof spec);
	spec.argv = av;
	spec.envp = env;
	spec.cwd = xstrdup("/");
	spec.cpus = cpus;
	spec.drain_ms = 100;
	spec.pool = true;
	CHECK_INT(uv_loop_init(&loop), 0);
	rc = proc_spawn_async(&loop, &spec, on_output, on_start, on_done, b, &b->p);
	CHECK_INT(rc, 0);
	/* Nothing is reported before the loop runs. */
	CHECK_INT(b->starts, 0);
	if (kill_now)
		proc_signal(b->p, SIGKILL);
	uv_run(&loop, UV_RUN_DEFAULT);
	CHECK_INT(uv_loop_close(&loop), 0);
	return b->start_err;
}

TEST(proc_async_born_pinned_in_its_directory)
{
	char *argv[] = {"sh", "-c", "grep Cpus_allowed_list /proc/self/status; pwd; exit 3", NULL};
	struct birth b = {0};
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	CHECK_INT(spawn_async(argv, &set, false, &b), 0);
	CHECK_INT(b.starts, 1);
	CHECK_INT(b.dones, 1);
	CHECK(b.done_after_start);
	CHECK(b.pid > 0);
	CHECK_STR(b.out.data, "Cpus_allowed_list:\t0\n/\n");
	CHECK_INT(b.exit.status, 3);
	buf_free(&b.out);
}

TEST(proc_async_exec_failure_comes_to_start_cb)
{
	char *argv[] = {"/nonexistent/flakesweep-test-binary", NULL};
	struct birth b = {0};

	CHECK_INT(spawn_async(argv, NULL, false, &b), -ENOENT);
	CHECK_INT(b.starts, 1);
	CHECK_INT(b.dones, 0);
	buf_free(&b.out);
}

TEST(proc_async_signal_before_birth_is_sent)
{
	char *argv[] = {"sleep", "30", NULL};
	struct birth b = {0};
	int64_t t0 = util_mono_ms();

	CHECK_INT(spawn_async(argv, NULL, true, &b), 0);
	CHECK_INT(b.dones, 1);
	CHECK_INT(b.exit.signal, SIGKILL);
	CHECK(util_mono_ms() - t0 < 20000);
	buf_free(&b.out);
}

TEST(proc_async_run_is_no_orphan)
{
	char *argv[] = {"sh", "-c", "exit 5", NULL};
	struct birth b = {.reap_orphans = true};

	/* The run, a child of a worker thread, has exited but is live: the
	 * orphan reaper leaves its exit status to the run's own reap. */
	CHECK_INT(spawn_async(argv, NULL, false, &b), 0);
	CHECK_INT(b.reaped, 0);
	CHECK_INT(b.exit.status, 5);
	buf_free(&b.out);
}

/* One try of spawn_quick: its spec and what came of it. */
struct quick {
	struct proc_spec spec;
	struct birth *b;
	uv_check_t check;
	uv_idle_t idle; /* keeps the poll from waiting for the check */
	int rc;
	bool inline_;
};

static void
idle_nothing(uv_idle_t *h)
{
	(void)h;
}

/* After a turn's poll, as a run's end would: the spawn. */
static void
quick_spawn(uv_check_t *h)
{
	struct quick *q = h->data;

	uv_close((uv_handle_t *)h, NULL);
	uv_close((uv_handle_t *)&q->idle, NULL);
	q->rc = proc_spawn_async(h->loop, &q->spec, on_output, on_start, on_done, q->b, &q->b->p);
	q->inline_ = q->b->starts == 1 || q->rc < 0;
	if (q->rc < 0) {
		util_strv_free((char **)q->spec.argv);
		free((char **)q->spec.envp);
		free((char *)q->spec.cwd);
	}
	proc_keep_watching(h->loop, false);
}

/* Spawns argv with spec.pool false inside a turn of a loop that keeps its
 * watch, as a sweep does, until a clone is made on the loop at once
 * (start_cb before proc_spawn_async returns; at most 50 tries, each run to
 * its end); returns its rc, *inline_ set when one was. A clone that fails
 * on the loop returns its errno and takes nothing: the copies are freed
 * here. */
static int
spawn_quick(char *const *argv, struct birth *b, bool *inline_)
{
	struct quick q;
	int tries;

	memset(&q, 0, sizeof q);
	for (tries = 0; tries < 50 && !q.inline_; tries++) {
		uv_loop_t loop;
		size_t n = 0, i;
		char **av = NULL;

		memset(b, 0, sizeof *b);
		buf_init(&b->out);
		for (i = 0; argv[i] != NULL; i++)
			util_strv_add(&av, &n, argv[i]);
		memset(&q, 0, sizeof q);
		q.b = b;
		q.spec.argv = av;
		q.spec.envp = xcalloc(1, sizeof(char *));
		q.spec.cwd = xstrdup("/");
		q.spec.drain_ms = 100;
		CHECK_INT(uv_loop_init(&loop), 0);
		proc_keep_watching(&loop, true);
		uv_check_init(&loop, &q.check);
		q.check.data = &q;
		uv_check_start(&q.check, quick_spawn);
		uv_idle_init(&loop, &q.idle);
		uv_idle_start(&q.idle, idle_nothing);
		uv_run(&loop, UV_RUN_DEFAULT);
		CHECK_INT(uv_loop_close(&loop), 0);
		if (!q.inline_)
			buf_free(&b->out);
	}
	*inline_ = q.inline_;
	return q.rc;
}

TEST(proc_async_quick_clone_is_born_on_the_loop)
{
	char *argv[] = {"/bin/sh", "-c", "echo born; exit 4", NULL};
	char *missing[] = {"/nonexistent/flakesweep-test-binary", NULL};
	struct birth b;
	bool inline_;

	CHECK_INT(spawn_quick(argv, &b, &inline_), 0);
	if (!inline_)
		check_skip("no clone here took under half a millisecond");
	/* start_cb came before the return, with the proc and its pid. */
	CHECK_INT(b.starts, 1);
	CHECK(b.pid > 0);
	CHECK_INT(b.dones, 1);
	CHECK(b.done_after_start);
	CHECK_STR(b.out.data, "born\n");
	CHECK_INT(b.exit.status, 4);
	buf_free(&b.out);
	/* A clone that fails on the loop: its errno, no callback. */
	CHECK_INT(spawn_quick(missing, &b, &inline_), -ENOENT);
	CHECK(inline_);
	CHECK_INT(b.starts, 0);
	CHECK_INT(b.dones, 0);
	buf_free(&b.out);
}

/* A child another thread made that is no live run yet (a birth between
 * its clone and its linking, on a worker) and has already exited: the
 * periodic orphan reaper must not take its exit status, or the run's own
 * reap finds nothing (ECHILD) and counts an exit status of -1. */
struct unlinked {
	pid_t pid;
	int pipe[2];
	int status;
	pid_t waited;
};

static void *
unlinked_birth(void *arg)
{
	struct unlinked *u = arg;
	char c;

	u->pid = fork();
	if (u->pid == 0)
		_exit(7);
	/* Let the reaper look while the child is an unreaped zombie. */
	CHECK_INT(write(u->pipe[1], "b", 1), 1);
	CHECK_INT(read(u->pipe[0], &c, 1), 1);
	u->waited = waitpid(u->pid, &u->status, 0);
	return NULL;
}

TEST(proc_reaper_leaves_other_threads_children)
{
	struct unlinked u;
	pthread_t t;
	int up[2], down[2];
	char c;

	memset(&u, 0, sizeof u);
	CHECK_INT(pipe(up), 0);
	CHECK_INT(pipe(down), 0);
	u.pipe[0] = down[0];
	u.pipe[1] = up[1];
	CHECK_INT(pthread_create(&t, NULL, unlinked_birth, &u), 0);
	CHECK_INT(read(up[0], &c, 1), 1);
	/* The child exits at once: wait until it is a zombie. */
	for (int i = 0; i < 500; i++) {
		char path[64], state = 0, buf[256];
		FILE *f;

		snprintf(path, sizeof path, "/proc/%d/stat", (int)u.pid);
		f = fopen(path, "r");
		if (f != NULL && fgets(buf, sizeof buf, f) != NULL && strrchr(buf, ')') != NULL)
			state = strrchr(buf, ')')[2];
		if (f != NULL)
			fclose(f);
		if (state == 'Z')
			break;
		usleep(10000);
	}
	CHECK_INT(proc_reap_orphans(false), 0);
	CHECK_INT(write(down[1], "w", 1), 1);
	pthread_join(t, NULL);
	CHECK_INT(u.waited, u.pid);
	CHECK(WIFEXITED(u.status) && WEXITSTATUS(u.status) == 7);
}
