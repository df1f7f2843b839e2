/* SPDX-License-Identifier: MIT */
/*
 * proc.h: spawns one run's process group, born pinned to its cores, and
 * reports its output and its end on the libuv loop. It never parses output.
 */
#ifndef FLAKESWEEP_PROC_H
#define FLAKESWEEP_PROC_H

#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <uv.h>

#include "base/proc-exit.h"
#include "engine/proc-capture.h"
#include "engine/spawner.h"

struct proc;
struct mask;

/* From now on every child's output (both pipes of proc_spawn, and
 * proc_capture's) is masked with m's values before a callback or a caller
 * sees it; NULL stops. m must outlive the children spawned meanwhile. */
void proc_set_mask(const struct mask *m);

/* The values proc_set_mask set, or NULL. */
const struct mask *proc_mask(void);

struct proc_spec {
	char *const *argv; /* argv[0]: a path, or a name looked up in PATH */
	char *const *envp; /* the whole environment of the child */
	const char *cwd;   /* working directory, or NULL to inherit */
	/* The cores the child is born pinned to (sched_setaffinity in the child
	 * before exec, so every thread it starts inherits them); NULL inherits
	 * flakesweep's own set. */
	const cpu_set_t *cpus;
	/* At term_after_ms (0: never) the group gets SIGTERM; at kill_after_ms
	 * (0: never) SIGKILL. Both count from the spawn and mark timed_out. */
	int64_t term_after_ms;
	int64_t kill_after_ms;
	/* After the leader exits, how long a grandchild may keep the pipe open
	 * before flakesweep closes it (ms). */
	int64_t drain_ms;
	/* Gives the child a network namespace of its own with only a loopback
	 * interface, up, so fixed ports cannot collide between runs (needs
	 * CAP_SYS_ADMIN; proc_spawn fails with -EPERM without it). */
	bool isolate_net;
	/* When set, the child's descriptor PROC_REPORT_FD is the write end of a
	 * second pipe whose bytes go to report_cb (with the same arg), kept
	 * apart from the output: a framework's own result stream. The run ends
	 * only after EOF on both pipes. */
	void (*report_cb)(void *arg, const char *data, size_t len);
	/* proc_spawn_async clones on the pool even where it could on the loop
	 * at once: the loop never waits for this child's exec. */
	bool pool;
};

/* The child's descriptor of the report pipe (proc_spec.report_cb). */
#define PROC_REPORT_FD SPAWNER_REPORT_FD

/* Output as it arrives: bytes of stdout and stderr merged in one pipe, as
 * a terminal would see them, masked (proc_set_mask). data is valid only
 * during the call. */
typedef void (*proc_output_cb)(void *arg, const char *data, size_t len);

/* The run is over: the leader was reaped and its pipe closed. leaked is
 * true when other processes of its group were still alive (they were
 * killed). The proc frees itself after this returns. */
typedef void (*proc_done_cb)(void *arg, const struct proc_exit *exit, bool leaked,
                             int64_t elapsed_ms);

/* Spawns spec->argv in a new process group, with stdin from /dev/null and
 * stdout and stderr into one pipe read on loop. The child gets SIGKILL if
 * flakesweep dies (PR_SET_PDEATHSIG). Returns 0 and the proc in *out (owned
 * by the loop until done_cb), or a negative errno: -ENOENT when argv[0]
 * cannot be executed. Neither callback runs on failure. */
int proc_spawn(uv_loop_t *loop, const struct proc_spec *spec, proc_output_cb output_cb,
               proc_done_cb done_cb, void *arg, struct proc **out);

/* Keeps the watch of loop's children's exits made between runs, or no
 * longer (engine/exits.h): from a sweep's first run to its end. Meanwhile
 * proc_spawn_async may clone on the loop once a turn. */
void proc_keep_watching(uv_loop_t *loop, bool keep);

/* The birth proc_spawn_async waited for: err is 0 and the child runs
 * (proc_pid is known, done_cb will come), or a negative errno (-ENOENT
 * when argv[0] cannot be executed) and the proc is gone: no done_cb. */
typedef void (*proc_start_cb)(void *arg, int err);

/* proc_spawn with the clone on a worker thread of the loop's pool, so the
 * loop goes on while the child waits for its pinned cores to exec. The
 * proc in *out is owned by the loop from now on; start_cb comes on the
 * loop once the clone is over, and a proc_signal before it is sent as soon
 * as the child is born. It takes spec->argv (a util_strv array),
 * spec->envp (one allocation, freed with free(): its strings lie in it or
 * outlive the birth) and spec->cwd (malloc'd), freed once the clone is
 * over. Returns 0, or a negative errno when the pipes cannot be made
 * (then nothing was taken and no callback runs).
 * While a sweep keeps the loop's watch (proc_keep_watching) and spec->pool
 * is false, clones are made on the loop itself as long as a recent clone's
 * time (to the child's exec, on average) fits in what is left of a
 * millisecond each turn of the loop may wait for them. Then start_cb(arg,
 * 0) runs before this returns, with
 * *out set, and a clone that fails returns its negative errno like a pipe
 * that cannot be made (nothing taken, no callback). */
int proc_spawn_async(uv_loop_t *loop, const struct proc_spec *spec, proc_output_cb output_cb,
                     proc_start_cb start_cb, proc_done_cb done_cb, void *arg, struct proc **out);

/* The CPU time (user + system, microseconds) of the leader and the
 * children it reaped, as wait4 counted it when the leader was reaped; 0
 * before. Valid in done_cb. */
int64_t proc_cpu_us(const struct proc *p);

/* The leader's pid (also the process group id). */
pid_t proc_pid(const struct proc *p);

/* The leader's start time in clock ticks since boot (field 22 of
 * /proc/PID/stat), which with the pid identifies the process across a
 * restart of flakesweep. 0 when unknown. */
uint64_t proc_start_ticks(pid_t pid);

/* proc_start_ticks of the leader, taken from the clock around its spawn
 * (CLOCK_BOOTTIME, the clock /proc counts in) without reading /proc
 * unless the spawn straddled a tick. */
uint64_t proc_born_ticks(const struct proc *p);

/* Sends sig to the whole group. done_cb still comes. */
void proc_signal(struct proc *p, int sig);

/* Kills (SIGKILL) what is left of the group pid whose leader started at
 * start_ticks, the leader gone or not: used by --resume on runs a dead
 * sweep left behind. Returns how many processes were killed. */
int proc_kill_stale(pid_t pid, uint64_t start_ticks);

/* Kills every process whose environment holds the entry want ("NAME=value"
 * exactly, or with prefix any entry starting with want), with its group
 * when it leads one: what a run left behind, setsid daemons included, by
 * the run's TMPDIR. With adopted, only flakesweep's own children that are
 * no live run (descendants it adopted as their subreaper); else every
 * process it may read. Returns how many were killed. */
int proc_kill_by_env(const char *want, bool prefix, bool adopted);

/* Withholds the variable name from every child started from now on, by
 * proc_spawn and the captures alike, whatever environment they are given;
 * flakesweep's own environment keeps it. */
void proc_withhold_env(const char *name);

/* Withholds the GitHub token variables (GH_TOKEN, GITHUB_TOKEN and their
 * enterprise names) as proc_withhold_env does. */
void proc_withhold_tokens(void);

/* envp without the withheld variables, for a child proc does not start
 * (bisect's git): an array of envp's strings that the caller frees (not
 * the strings), or NULL when nothing is withheld. */
char **proc_env(char *const *envp);

/* Makes flakesweep the reaper of orphaned descendants, so a grandchild that
 * escapes its group still dies with the sweep (proc_reap_orphans). */
void proc_become_subreaper(void);

/* spawner_raise_fd_limit (engine/spawner.h): a sweep's runs in flight hold
 * descriptors past the usual 1024 on a big machine. */
void proc_raise_fd_limit(void);

/* Reaps orphaned descendants (the main thread's children) that are not
 * live runs; kill_all also kills every remaining descendant first, every
 * thread's child that is no live run included. Returns how many were
 * reaped. */
int proc_reap_orphans(bool kill_all);

#endif
