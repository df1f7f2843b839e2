/* SPDX-License-Identifier: MIT */
/*
 * proc.c: spawns and reaps one run's process group. The child side of a
 * vfork-style clone() leads its own group, pins itself, asks to die with
 * flakesweep and execs; the parent watches the exit through a pidfd (in
 * the loop's set of them, engine/exits.h) and the output through a pipe,
 * so libuv's SIGCHLD handling is never involved. Output is masked
 * (base/mask.h) as it is read, before anyone sees it. It never parses
 * output.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <net/if.h>
#include <pthread.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "engine/exits.h"
#include "engine/proc.h"
#include "engine/spawner.h"
#include "base/mask.h"
#include "base/util.h"

/* A time-limit timer this late (ms) means flakesweep itself was stopped. */
#define PROC_STOPPED_MS 1000
/* The time (us) a turn of the loop may wait for clones made on the loop
 * itself (proc_spawn_async), each until its child's exec. */
#define PROC_TURN_CLONES_US 1000

struct proc {
	uv_loop_t *loop;
	pid_t pid;
	int pidfd;             /* watched in exits (the loop's set) ... */
	struct exits *exits;   /* ... */
	uv_timer_t exit_timer; /* ... or, without a pidfd, a poll every few ms */
	uv_pipe_t out;
	uv_pipe_t report; /* open only with a report_cb */
	uv_timer_t timer; /* term, kill, then drain */
	int64_t started_ms;
	int64_t due_ms;   /* when the term or kill timer should run */
	int64_t shift_ms; /* deadlines moved for time flakesweep was stopped */
	int64_t term_after_ms, kill_after_ms, drain_ms;
	int handles; /* open handles; freed when the last one closes */
	bool exited, eof, leaked, timed_out, done_called, term_sent;
	bool report_eof; /* true from the start without a report pipe */
	struct proc_exit exit;
	int64_t elapsed_ms;
	int64_t cpu_us;          /* the leader's and its reaped children's, from wait4 */
	uint64_t ticks0, ticks1; /* CLOCK_BOOTTIME before the clone and as the child starts */
	int64_t clone_us;        /* how long the clone held its thread, to the child's exec */
	struct timespec born_at; /* the child's reading */
	proc_output_cb output_cb;
	proc_output_cb report_cb;
	/* The masks of the two pipes, NULL when no value is masked. */
	struct mask_stream *out_mask, *report_mask;
	proc_done_cb done_cb;
	void *arg;
	/* Its birth: the child's settings, the pipes' ends, the clone's
	 * result (a pid or a negative errno). proc_spawn_async owns argv,
	 * envp and cwd until the clone is over. */
	struct spawner_child child;
	cpu_set_t cpus;
	char **argv, **envp, *cwd;
	int out_fd, report_fd;
	pid_t born;
	int born_pidfd; /* the clone's, or -1 */
	uv_work_t work;
	proc_start_cb start_cb;
	int pending_sig; /* proc_signal before the birth */
};

/* The leaders of the live procs, sorted, for proc_reap_orphans and the
 * adopted children's scans. */
static pid_t *live;
static size_t nlive, live_cap;
/* live is linked on the thread that clones, read and unlinked on the
 * loop's. */
static pthread_mutex_t live_mu = PTHREAD_MUTEX_INITIALIZER;
/* The values masked in every child's output (proc_set_mask), or NULL. */
static const struct mask *proc_masks;
/* On the loop's thread: its recent clones (us, a moving average), and
 * what is left of this turn's PROC_TURN_CLONES_US (while a sweep keeps its
 * watch: proc_keep_watching; else nothing). A clone is made on the loop
 * while a recent one's time is left; a turn that starts more runs hands
 * the others to the pool, whose threads clone them side by side. */
static _Thread_local int64_t clone_recent_us;
static _Thread_local int64_t turn_clones_left_us;
static _Thread_local uv_prepare_t *turn_prepare;
static long proc_hz;

static void
proc_close_cb(uv_handle_t *h)
{
	struct proc *p = h->data;

	if (--p->handles == 0) {
		mask_stream_free(p->out_mask);
		mask_stream_free(p->report_mask);
		free(p);
	}
}

void
proc_set_mask(const struct mask *m)
{
	proc_masks = m;
}

const struct mask *
proc_mask(void)
{
	return proc_masks;
}

static void
proc_out_masked(void *arg, const char *data, size_t len)
{
	struct proc *p = arg;

	p->output_cb(p->arg, data, len);
}

static void
proc_report_masked(void *arg, const char *data, size_t len)
{
	struct proc *p = arg;

	p->report_cb(p->arg, data, len);
}

/* A pipe's end: what its mask held back goes on first. */
static void
proc_pipe_ended(struct proc *p, bool report)
{
	struct mask_stream *ms = report ? p->report_mask : p->out_mask;
	bool *eof = report ? &p->report_eof : &p->eof;

	if (ms != NULL && !*eof)
		mask_stream_flush(ms);
	*eof = true;
}

static int
proc_pid_cmp(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return x < y ? -1 : x > y;
}

/* Where pid is in live, or where it would go. */
static size_t
proc_live_index(pid_t pid)
{
	size_t lo = 0, hi = nlive;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (live[mid] < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static void
proc_link_live(pid_t pid)
{
	size_t i;

	pthread_mutex_lock(&live_mu);
	i = proc_live_index(pid);
	if (nlive == live_cap) {
		live_cap = live_cap ? 2 * live_cap : 64;
		live = xrealloc(live, sizeof *live * live_cap);
	}
	memmove(live + i + 1, live + i, sizeof *live * (nlive - i));
	live[i] = pid;
	nlive++;
	pthread_mutex_unlock(&live_mu);
}

static void
proc_unlink_live(pid_t pid)
{
	size_t i;

	pthread_mutex_lock(&live_mu);
	i = proc_live_index(pid);
	if (i < nlive && live[i] == pid)
		memmove(live + i, live + i + 1, sizeof *live * (--nlive - i));
	pthread_mutex_unlock(&live_mu);
}

static void
proc_maybe_done(struct proc *p)
{
	if (!p->exited || !p->eof || !p->report_eof || p->done_called)
		return;
	p->done_called = true;
	uv_timer_stop(&p->timer);
	if (!uv_is_closing((uv_handle_t *)&p->out))
		uv_close((uv_handle_t *)&p->out, proc_close_cb);
	if (p->report_cb != NULL && !uv_is_closing((uv_handle_t *)&p->report))
		uv_close((uv_handle_t *)&p->report, proc_close_cb);
	uv_close((uv_handle_t *)&p->timer, proc_close_cb);
	p->exit.timed_out = p->timed_out;
	p->done_cb(p->arg, &p->exit, p->leaked, p->elapsed_ms);
}

static void
proc_alloc_cb(uv_handle_t *h, size_t suggested, uv_buf_t *buf)
{
	static char chunk[65536];

	(void)h;
	(void)suggested;
	/* One loop thread and the data is consumed inside read_cb: one static
	 * buffer serves every run. */
	buf->base = chunk;
	buf->len = sizeof chunk;
}

static void
proc_read_cb(uv_stream_t *s, ssize_t n, const uv_buf_t *buf)
{
	struct proc *p = s->data;
	bool report = s == (uv_stream_t *)&p->report;

	if (n > 0) {
		struct mask_stream *ms = report ? p->report_mask : p->out_mask;

		if (ms != NULL)
			mask_stream_feed(ms, buf->base, (size_t)n);
		else
			(report ? p->report_cb : p->output_cb)(p->arg, buf->base, (size_t)n);
		return;
	}
	if (n < 0) {
		uv_read_stop(s);
		proc_pipe_ended(p, report);
		proc_maybe_done(p);
	}
}

static void proc_timer_cb(uv_timer_t *t);

static void
proc_arm_timer(struct proc *p)
{
	int64_t now = util_mono_ms() - p->started_ms - p->shift_ms, next = -1;

	if (p->exited)
		return;
	if (p->term_after_ms > 0 && !p->term_sent)
		next = p->term_after_ms;
	else if (p->kill_after_ms > 0)
		next = p->kill_after_ms;
	if (next >= 0) {
		p->due_ms = p->started_ms + p->shift_ms + next;
		/* uv_timer_start counts from the loop's clock, which stands
		 * still while a callback works: read the clock now, so the
		 * limit counts from the run's own start. */
		uv_update_time(p->loop);
		uv_timer_start(&p->timer, proc_timer_cb, (uint64_t)(next > now ? next - now : 0),
		               0);
	}
}

static bool proc_reap(struct proc *p);

static void
proc_timer_cb(uv_timer_t *t)
{
	struct proc *p = t->data;
	int64_t late;

	/* After flakesweep was stopped (SIGSTOP, a suspended job), this timer
	 * may run before the exit poll: a run that ended meanwhile ended
	 * normally, not at its limit. */
	if (!p->exited && proc_reap(p))
		return;
	if (p->exited) {
		/* The drain deadline: a grandchild keeps a pipe open. */
		if (!p->eof || !p->report_eof) {
			uv_read_stop((uv_stream_t *)&p->out);
			if (p->report_cb != NULL)
				uv_read_stop((uv_stream_t *)&p->report);
			proc_pipe_ended(p, false);
			proc_pipe_ended(p, true);
			p->leaked = true;
			proc_maybe_done(p);
		}
		return;
	}
	/* A timer this late means the loop did not run: flakesweep was
	 * stopped or starved for at least that long, and a run that needs it
	 * (its output pipe full, say) could not go on. The run gets as long
	 * again, with flakesweep awake, before it is judged. */
	late = util_mono_ms() - p->due_ms;
	if (late < 0) {
		/* Early: the loop's clock was behind when the timer was set. */
		proc_arm_timer(p);
		return;
	}
	if (late > PROC_STOPPED_MS) {
		p->shift_ms += 2 * late;
		proc_arm_timer(p);
		return;
	}
	p->timed_out = true;
	if (p->term_after_ms > 0 && !p->term_sent) {
		p->term_sent = true;
		kill(-p->pid, SIGTERM);
		proc_arm_timer(p);
		return;
	}
	kill(-p->pid, SIGKILL);
}

/* Reaps the leader if it exited; returns false while it runs. */
static bool
proc_reap(struct proc *p)
{
	struct rusage ru;
	int ws = 0;
	pid_t r;

	memset(&ru, 0, sizeof ru);
	do
		r = wait4(p->pid, &ws, WNOHANG, &ru);
	while (r < 0 && errno == EINTR);
	if (r == 0)
		return false;
	p->elapsed_ms = util_mono_ms() - p->started_ms;
	p->exited = true;
	p->cpu_us = (int64_t)ru.ru_utime.tv_sec * 1000000 + ru.ru_utime.tv_usec +
	            (int64_t)ru.ru_stime.tv_sec * 1000000 + ru.ru_stime.tv_usec;
	if (r < 0) {
		p->exit.status = -1;
	} else if (WIFEXITED(ws)) {
		p->exit.status = WEXITSTATUS(ws);
	} else {
		p->exit.status = -1;
		p->exit.signal = WTERMSIG(ws);
	}
	if (p->pidfd >= 0) {
		exits_forget(p->exits, p->pidfd);
		p->pidfd = -1;
	} else {
		uv_timer_stop(&p->exit_timer);
		uv_close((uv_handle_t *)&p->exit_timer, proc_close_cb);
	}
	proc_unlink_live(p->pid);
	/* Whatever the run left in its group must not load the lane. After
	 * the time limit's group signal, what is left is the limit's to end
	 * (it may be dying of the same SIGTERM): a leak only when the leader
	 * exited on its own. */
	if (kill(-p->pid, 0) == 0) {
		if (!p->timed_out)
			p->leaked = true;
		kill(-p->pid, SIGKILL);
	}
	uv_timer_stop(&p->timer);
	if (!p->eof || !p->report_eof)
		uv_timer_start(&p->timer, proc_timer_cb, (uint64_t)p->drain_ms, 0);
	proc_maybe_done(p);
	return true;
}

static void
proc_exited(void *arg)
{
	struct proc *p = arg;

	if (!p->exited)
		proc_reap(p);
}

static void
proc_turn_begins(uv_prepare_t *h)
{
	(void)h;
	turn_clones_left_us = PROC_TURN_CLONES_US;
}

static void
proc_turn_closed(uv_handle_t *h)
{
	free(h);
}

void
proc_keep_watching(uv_loop_t *loop, bool keep)
{
	exits_keep(loop, proc_exited, keep);
	if (keep && turn_prepare == NULL) {
		turn_prepare = xmalloc(sizeof *turn_prepare);
		uv_prepare_init(loop, turn_prepare);
		uv_prepare_start(turn_prepare, proc_turn_begins);
		uv_unref((uv_handle_t *)turn_prepare);
	} else if (!keep && turn_prepare != NULL) {
		uv_close((uv_handle_t *)turn_prepare, proc_turn_closed);
		turn_prepare = NULL;
		turn_clones_left_us = 0;
	}
}

static void
proc_exit_timer_cb(uv_timer_t *t)
{
	proc_reap(t->data);
}

/* /dev/null, open for reading for every run's stdin: opened once, and
 * close-on-exec (the child's stdin is a dup). A negative errno when it
 * cannot be opened. */
static int
proc_null(void)
{
	static int fd = -1;

	if (fd < 0)
		fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	return fd >= 0 ? fd : -errno;
}

/* ts (CLOCK_BOOTTIME) in clock ticks, rounded down as /proc/PID/stat
 * does; 0 when unknown. */
static uint64_t
proc_ticks_of(const struct timespec *ts)
{
	if (proc_hz == 0) {
		proc_hz = sysconf(_SC_CLK_TCK);
		if (proc_hz <= 0 || 1000000000L % proc_hz != 0)
			proc_hz = -1;
	}
	if (proc_hz < 0 || (ts->tv_sec == 0 && ts->tv_nsec == 0))
		return 0;
	return (uint64_t)ts->tv_sec * (uint64_t)proc_hz +
	       (uint64_t)ts->tv_nsec / (uint64_t)(1000000000L / proc_hz);
}

/* CLOCK_BOOTTIME now in clock ticks. */
static uint64_t
proc_boot_ticks(void)
{
	struct timespec ts = {0, 0};

	clock_gettime(CLOCK_BOOTTIME, &ts);
	return proc_ticks_of(&ts);
}

/* A proc for spec, not yet born: its pipes made, its settings and
 * callbacks kept. NULL and a negative errno in *rc when a pipe cannot be
 * made. */
static struct proc *
proc_new(uv_loop_t *loop, const struct proc_spec *spec, proc_output_cb output_cb,
         proc_done_cb done_cb, void *arg, int *rc)
{
	int fds[2] = {-1, -1}, rfds[2] = {-1, -1}, null_fd;
	struct proc *p;

	*rc = 0;
	if (spec->argv == NULL || spec->argv[0] == NULL) {
		*rc = -EINVAL;
		return NULL;
	}
	null_fd = proc_null();
	if (null_fd < 0) {
		*rc = null_fd;
		return NULL;
	}
	if (pipe2(fds, O_CLOEXEC) < 0 || (spec->report_cb != NULL && pipe2(rfds, O_CLOEXEC) < 0)) {
		*rc = -errno;
		if (fds[0] >= 0) {
			close(fds[0]);
			close(fds[1]);
		}
		return NULL;
	}
	/* The clock's rate, read here so that no two threads set it. */
	proc_boot_ticks();
	p = xcalloc(1, sizeof *p);
	p->loop = loop;
	p->child.argv = spec->argv;
	p->child.envp = spec->envp;
	p->child.cwd = spec->cwd;
	if (spec->cpus != NULL) {
		p->cpus = *spec->cpus;
		p->child.cpus = &p->cpus;
	}
	p->child.null_fd = null_fd;
	p->child.out_fd = fds[1];
	p->child.report_fd = rfds[1];
	p->child.isolate_net = spec->isolate_net;
	p->out_fd = fds[0];
	p->report_fd = rfds[0];
	p->term_after_ms = spec->term_after_ms;
	p->kill_after_ms = spec->kill_after_ms;
	p->drain_ms = spec->drain_ms > 0 ? spec->drain_ms : 200;
	p->output_cb = output_cb;
	p->report_cb = spec->report_cb;
	p->report_eof = spec->report_cb == NULL;
	p->done_cb = done_cb;
	p->arg = arg;
	return p;
}

/* The clone itself, on whichever thread: a run's time starts at its
 * birth (the exec of a large test binary on a busy core is its lane's
 * time, not the loop's), and its leader is live before any scan for
 * orphans can see it. */
static void
proc_clone_child(struct proc *p)
{
	struct timespec t0, t1;

	p->started_ms = util_mono_ms();
	p->ticks0 = proc_boot_ticks();
	/* The kernel stamps the child's start before it first runs: its own
	 * reading closes the interval tighter than one after the exec. */
	p->child.born_at = &p->born_at;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	p->born = spawner_clone(&p->child, &p->born_pidfd);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	p->clone_us = (int64_t)(t1.tv_sec - t0.tv_sec) * 1000000 + (t1.tv_nsec - t0.tv_nsec) / 1000;
	p->ticks1 = proc_ticks_of(&p->born_at);
	if (p->born > 0)
		proc_link_live(p->born);
}

/* Counts p's clone among the loop's recent ones, an eighth at a time. */
static void
proc_note_clone(const struct proc *p)
{
	clone_recent_us += (p->clone_us - clone_recent_us) / 8;
}

/* After the clone, on the loop: the pipes' write ends closed, and the
 * handles that watch the born child started. Returns 0, or the clone's
 * negative errno with p freed. */
static int
proc_watch(struct proc *p)
{
	uv_loop_t *loop = p->loop;
	int rc = p->born < 0 ? p->born : 0;

	close(p->child.out_fd);
	if (p->child.report_fd >= 0)
		close(p->child.report_fd);
	if (rc < 0) {
		close(p->out_fd);
		if (p->report_fd >= 0)
			close(p->report_fd);
		free(p);
		return rc;
	}
	p->pid = p->born;
	if (proc_masks != NULL && mask_count(proc_masks) > 0) {
		p->out_mask = mask_stream_new(proc_masks, proc_out_masked, p);
		if (p->report_cb != NULL)
			p->report_mask = mask_stream_new(proc_masks, proc_report_masked, p);
	}
	p->pidfd = p->born_pidfd >= 0 ? p->born_pidfd : (int)syscall(SYS_pidfd_open, p->pid, 0);
	if (p->pidfd >= 0) {
		p->exits = exits_watch(loop, p->pidfd, proc_exited, p);
		if (p->exits == NULL) {
			close(p->pidfd);
			p->pidfd = -1;
		}
	}
	if (p->pidfd < 0) {
		/* Kernels before 5.3 (and some sandboxes) have no pidfd: poll
		 * the leader instead, still without SIGCHLD. */
		uv_timer_init(loop, &p->exit_timer);
		p->exit_timer.data = p;
	}
	uv_pipe_init(loop, &p->out, 0);
	uv_timer_init(loop, &p->timer);
	p->out.data = p->timer.data = p;
	p->handles = p->pidfd >= 0 ? 2 : 3;
	uv_pipe_open(&p->out, p->out_fd);
	uv_read_start((uv_stream_t *)&p->out, proc_alloc_cb, proc_read_cb);
	if (p->report_cb != NULL) {
		uv_pipe_init(loop, &p->report, 0);
		p->report.data = p;
		p->handles++;
		uv_pipe_open(&p->report, p->report_fd);
		uv_read_start((uv_stream_t *)&p->report, proc_alloc_cb, proc_read_cb);
	}
	if (p->pidfd < 0)
		uv_timer_start(&p->exit_timer, proc_exit_timer_cb, 2, 2);
	proc_arm_timer(p);
	return 0;
}

int
proc_spawn(uv_loop_t *loop, const struct proc_spec *spec, proc_output_cb output_cb,
           proc_done_cb done_cb, void *arg, struct proc **out)
{
	int rc;
	struct proc *p = proc_new(loop, spec, output_cb, done_cb, arg, &rc);

	if (p == NULL)
		return rc;
	proc_clone_child(p);
	rc = proc_watch(p);
	if (rc == 0)
		*out = p;
	return rc;
}

/* On a worker thread of the loop's pool. */
static void
proc_birth_work(uv_work_t *w)
{
	proc_clone_child(w->data);
}

/* Back on the loop. */
static void
proc_birth_done(uv_work_t *w, int status)
{
	struct proc *p = w->data;
	proc_start_cb start_cb = p->start_cb;
	void *arg = p->arg;
	int rc, sig = p->pending_sig;

	(void)status;
	proc_note_clone(p);
	util_strv_free(p->argv);
	free(p->envp);
	free(p->cwd);
	rc = proc_watch(p);
	start_cb(arg, rc);
	if (rc == 0 && sig != 0)
		proc_signal(p, sig);
}

int
proc_spawn_async(uv_loop_t *loop, const struct proc_spec *spec, proc_output_cb output_cb,
                 proc_start_cb start_cb, proc_done_cb done_cb, void *arg, struct proc **out)
{
	int rc;
	struct proc *p = proc_new(loop, spec, output_cb, done_cb, arg, &rc);

	if (p == NULL)
		return rc;
	if (!spec->pool && clone_recent_us < turn_clones_left_us) {
		/* A hand-off to the pool and back costs more than such a
		 * clone holds the loop. */
		proc_clone_child(p);
		proc_note_clone(p);
		turn_clones_left_us -= p->clone_us;
		rc = proc_watch(p);
		if (rc < 0)
			return rc;
		util_strv_free((char **)spec->argv);
		free((char **)spec->envp);
		free((char *)spec->cwd);
		*out = p;
		start_cb(arg, 0);
		return 0;
	}
	p->argv = (char **)spec->argv;
	p->envp = (char **)spec->envp;
	p->cwd = (char *)spec->cwd;
	p->start_cb = start_cb;
	p->work.data = p;
	uv_queue_work(loop, &p->work, proc_birth_work, proc_birth_done);
	*out = p;
	return 0;
}

void
proc_withhold_env(const char *name)
{
	spawner_withhold_env(name);
}

void
proc_withhold_tokens(void)
{
	static const char *const tokens[] = {"GH_TOKEN", "GITHUB_TOKEN", "GH_ENTERPRISE_TOKEN",
	                                     "GITHUB_ENTERPRISE_TOKEN"};
	size_t i;

	for (i = 0; i < UTIL_ARRAY_LEN(tokens); i++)
		spawner_withhold_env(tokens[i]);
}

char **
proc_env(char *const *envp)
{
	return spawner_env(envp);
}

int64_t
proc_cpu_us(const struct proc *p)
{
	return p->cpu_us;
}

pid_t
proc_pid(const struct proc *p)
{
	return p->pid;
}

void
proc_signal(struct proc *p, int sig)
{
	if (p->pid == 0)
		p->pending_sig = sig;
	else if (!p->exited)
		kill(-p->pid, sig);
}

/* Reads the parent, process group and start time (clock ticks since boot)
 * of pid from /proc/PID/stat. Returns false when pid is gone. */
static bool
proc_stat(pid_t pid, pid_t *ppid, pid_t *pgrp, uint64_t *start_ticks)
{
	char path[64], buf[1024], *s;
	unsigned long long ticks = 0;
	int fd, i, pp = 0, pg = 0;
	ssize_t n;

	snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	/* The command name may hold spaces and parentheses: fields start
	 * after the last ')'. ppid is field 4, pgrp 5, starttime 22. */
	s = strrchr(buf, ')');
	if (s == NULL || sscanf(s + 1, " %*c %d %d", &pp, &pg) != 2)
		return false;
	for (i = 0; i < 20 && s != NULL; i++)
		s = strchr(s + 1, ' ');
	if (s == NULL || sscanf(s + 1, "%llu", &ticks) != 1)
		return false;
	*ppid = pp;
	*pgrp = pg;
	*start_ticks = ticks;
	return true;
}

uint64_t
proc_start_ticks(pid_t pid)
{
	pid_t ppid, pgrp;
	uint64_t ticks;

	return proc_stat(pid, &ppid, &pgrp, &ticks) ? ticks : 0;
}

uint64_t
proc_born_ticks(const struct proc *p)
{
	/* The kernel stamps the child's start between the two readings: when
	 * both fall in one tick, that tick is its start time. */
	if (p->ticks0 != 0 && p->ticks0 == p->ticks1)
		return p->ticks0;
	return proc_start_ticks(p->pid);
}

/* Calls fn(pid, arg) for each process in /proc; stops when it returns
 * false. */
static void
proc_each(bool (*fn)(pid_t pid, void *arg), void *arg)
{
	DIR *d = opendir("/proc");
	struct dirent *de;

	while (d != NULL && (de = readdir(d)) != NULL) {
		char *end;
		long pid = strtol(de->d_name, &end, 10);

		if (*end == '\0' && pid > 1 && !fn((pid_t)pid, arg))
			break;
	}
	if (d != NULL)
		closedir(d);
}

struct proc_stale {
	pid_t pgid;
	uint64_t start_ticks;
	int killed;
};

static bool
proc_kill_stale_one(pid_t pid, void *arg)
{
	struct proc_stale *st = arg;
	pid_t ppid, pgrp;
	uint64_t ticks;

	/* Every member of the run's group started after its leader: an
	 * older process in a group of that id is not the run's. */
	if (proc_stat(pid, &ppid, &pgrp, &ticks) && pgrp == st->pgid && ticks >= st->start_ticks &&
	    kill(pid, SIGKILL) == 0)
		st->killed++;
	return true;
}

int
proc_kill_stale(pid_t pid, uint64_t start_ticks)
{
	struct proc_stale st = {pid, start_ticks, 0};

	uint64_t leader;

	if (pid <= 1 || start_ticks == 0)
		return 0;
	/* A leader with another start time: the id was reused, the group is
	 * someone else's. No leader: while any member of a group lives, no new
	 * process gets its id, so the members are the run's. */
	leader = proc_start_ticks(pid);
	if (leader != 0 && leader != start_ticks)
		return 0;
	/* The leader died with the sweep (PR_SET_PDEATHSIG); the rest of its
	 * group was adopted by init and is found by its group id. */
	proc_each(proc_kill_stale_one, &st);
	return st.killed;
}

struct proc_env_match {
	const char *want;
	size_t len;
	bool prefix;
	pid_t self;
	int killed;
};

/* Whether pid's environment holds the entry m->want (or, with prefix, an
 * entry starting with it); a process that is gone or not ours holds
 * nothing. */
static bool
proc_env_holds(pid_t pid, const struct proc_env_match *m)
{
	char path[64], *text = NULL, *e;
	size_t len = 0;
	bool found = false;

	snprintf(path, sizeof path, "/proc/%d/environ", (int)pid);
	if (util_read_file(path, 1 << 20, &text, &len) < 0)
		return false;
	for (e = text; !found && e < text + len; e += strlen(e) + 1)
		found = strncmp(e, m->want, m->len) == 0 && (m->prefix || e[m->len] == '\0');
	free(text);
	return found;
}

static bool
proc_kill_env_one(pid_t pid, void *arg)
{
	struct proc_env_match *m = arg;

	if (pid == m->self || !proc_env_holds(pid, m))
		return true;
	/* A daemon that called setsid leads its own group: take it whole. */
	if (getpgid(pid) == pid)
		kill(-pid, SIGKILL);
	if (kill(pid, SIGKILL) == 0)
		m->killed++;
	return true;
}

static bool
proc_is_live(pid_t pid)
{
	bool yes;

	pthread_mutex_lock(&live_mu);
	yes = nlive > 0 && bsearch(&pid, live, nlive, sizeof *live, proc_pid_cmp) != NULL;
	pthread_mutex_unlock(&live_mu);
	return yes;
}

/* Calls fn(pid, arg) for each child listed in text (a task's children
 * file) that is no live proc; returns false when fn did. */
static bool
proc_each_child_of(const char *text, bool (*fn)(pid_t pid, void *arg), void *arg)
{
	const char *s;
	bool go_on = true;

	for (s = text; go_on && *s != '\0';) {
		char *end;
		long pid = strtol(s, &end, 10);

		if (end == s)
			break;
		s = end;
		if (pid > 0 && !proc_is_live((pid_t)pid))
			go_on = fn((pid_t)pid, arg);
	}
	return go_on;
}

/* The same for the children file at path. */
static bool
proc_each_child_in(const char *path, bool (*fn)(pid_t pid, void *arg), void *arg)
{
	char *text = NULL;
	bool go_on;

	if (util_read_file(path, 1 << 20, &text, NULL) < 0)
		return true;
	go_on = proc_each_child_of(text, fn, arg);
	free(text);
	return go_on;
}

/* The same for the main thread's children file, kept open: it is read
 * after every run, and reading it again from the start lists them anew
 * (an open and a close cost more than the read). Only the loop's thread
 * (proc_kill_by_env, proc_reap_orphans) reads it. */
static void
proc_each_child_of_main(pid_t self, bool (*fn)(pid_t pid, void *arg), void *arg)
{
	static int fd = -1;
	static pid_t whose; /* a forked child opens its own */
	char path[64], *text = NULL;

	if (fd >= 0 && whose != self) {
		close(fd);
		fd = -1;
	}
	if (fd < 0) {
		whose = self;
		snprintf(path, sizeof path, "/proc/self/task/%d/children", (int)self);
		fd = open(path, O_RDONLY | O_CLOEXEC);
	}
	if (fd < 0 || util_pread_whole(fd, 1 << 20, &text, NULL) < 0)
		return;
	proc_each_child_of(text, fn, arg);
	free(text);
}

/* Calls fn(pid, arg) for each child of flakesweep that is no live proc:
 * descendants adopted because flakesweep is their subreaper, and any
 * other thread's. */
static void
proc_each_adopted(bool (*fn)(pid_t pid, void *arg), void *arg)
{
	char path[300];
	DIR *d = opendir("/proc/self/task");
	struct dirent *de;

	while (d != NULL && (de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof path, "/proc/self/task/%s/children", de->d_name);
		if (!proc_each_child_in(path, fn, arg))
			break;
	}
	if (d != NULL)
		closedir(d);
}

int
proc_kill_by_env(const char *want, bool prefix, bool adopted)
{
	struct proc_env_match m = {want, strlen(want), prefix, getpid(), 0};

	/* The kernel hands an orphan to the subreaper's first live thread,
	 * its main one: its children file is enough to find the adopted. */
	if (adopted) {
		proc_each_child_of_main(m.self, proc_kill_env_one, &m);
	} else {
		proc_each(proc_kill_env_one, &m);
	}
	return m.killed;
}

void
proc_become_subreaper(void)
{
	prctl(PR_SET_CHILD_SUBREAPER, 1);
}

void
proc_raise_fd_limit(void)
{
	spawner_raise_fd_limit();
}

struct proc_orphans {
	bool kill_all;
	int reaped;
};

static bool
proc_reap_one(pid_t pid, void *arg)
{
	struct proc_orphans *o = arg;

	if (o->kill_all) {
		kill(-pid, SIGKILL);
		kill(pid, SIGKILL);
	}
	if (waitpid(pid, NULL, o->kill_all ? 0 : WNOHANG) > 0)
		o->reaped++;
	return true;
}

int
proc_reap_orphans(bool kill_all)
{
	struct proc_orphans o = {kill_all, 0};

	/* Orphans are the main thread's. Another thread's child that is no
	 * live proc is a birth between its clone and its linking: reaped now,
	 * its own reap would find nothing. Only the end kills and reaps
	 * those too. */
	if (kill_all)
		proc_each_adopted(proc_reap_one, &o);
	else
		proc_each_child_of_main(getpid(), proc_reap_one, &o);
	return o.reaped;
}
