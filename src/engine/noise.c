/* SPDX-License-Identifier: MIT */
/*
 * noise.c: measures host noise on the cores a run is pinned to. The
 * kernel counts each core's busy and steal time in /proc/stat (clock ticks,
 * sampled at the scheduler tick); the sweep's own runs on a core are the
 * rest of the busy time, counted exactly by wait4 when a run ends and read
 * from /proc/PID/stat (utime, stime, cutime, cstime) while it runs.
 * /proc/stat is read at most once per turn of the loop, and never less
 * often: its readings and the sweep's CPU time must be taken at the same
 * moments, or a run's interval would count the CPU its neighbours took
 * just before it began as noise. Noise is busy plus steal minus the
 * sweep's CPU time, over the cores' total time. A live run's CPU time is
 * read again at most once a clock tick (the unit both files count in),
 * however many runs start and end beside it: what its last tick took is
 * counted at the next reading, so a core's sweep time lags by at most one
 * tick, the resolution of /proc/stat itself. It never spawns, schedules or
 * writes anything.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/noise.h"
#include "base/util.h"

/* Cores above this id are not measured. */
#define NOISE_CORES 1024

struct noise_core {
	uint64_t busy, total;     /* ticks since boot, steal counted as busy */
	double sweep;             /* ticks the sweep's runs took on it */
	uint64_t q_busy, q_total; /* at the previous noise_now */
	double q_sweep;
	bool q_set;
};

struct noise_run {
	pid_t pid;
	int *cores;
	int ncores;
	double cpu;      /* last CPU time read while it ran, ticks */
	int stat_fd;     /* its /proc/PID/stat once read, or -1 */
	int64_t read_ms; /* when it was read (the loop's clock) */
	uint64_t busy0, total0;
	double sweep0;
	bool ok;
	struct noise_run *next;
};

struct noise {
	char *stat_path;
	int stat_fd; /* /proc/stat kept open, or -1 (another file is opened anew) */
	long hz;
	int64_t tick;
	bool read_once, ok;
	struct noise_core cores[NOISE_CORES];
	struct noise_run *runs;
};

struct noise *
noise_new(const char *stat_path)
{
	struct noise *n = xcalloc(1, sizeof *n);

	n->stat_path = xstrdup(stat_path != NULL ? stat_path : "/proc/stat");
	/* Read again from the start, a /proc file is made anew: an open and a
	 * close less for each reading. */
	n->stat_fd = stat_path == NULL ? open(n->stat_path, O_RDONLY | O_CLOEXEC) : -1;
	n->hz = sysconf(_SC_CLK_TCK);
	if (n->hz <= 0)
		n->hz = 100;
	return n;
}

void
noise_free(struct noise *n)
{
	struct noise_run *r, *next;

	if (n == NULL)
		return;
	for (r = n->runs; r != NULL; r = next) {
		next = r->next;
		if (r->stat_fd >= 0)
			close(r->stat_fd);
		free(r->cores);
		free(r);
	}
	if (n->stat_fd >= 0)
		close(n->stat_fd);
	free(n->stat_path);
	free(n);
}

/* The kernel's clock tick in ms: /proc/stat counts in it. */
static int64_t
noise_tick_ms(const struct noise *n)
{
	return n->hz < 1000 ? 1000 / n->hz : 1;
}

/* Reads every "cpuN" line of /proc/stat: user nice system idle iowait irq
 * softirq steal (guest time is already inside user). The file is read in
 * one go (one system call from the kept descriptor, where stdio took
 * six). */
static void
noise_read_stat(struct noise *n, int64_t tick)
{
	char *text = NULL, *line, *next;

	if (n->read_once && tick == n->tick)
		return;
	n->read_once = true;
	n->tick = tick;
	if (n->stat_fd >= 0)
		n->ok = util_pread_whole(n->stat_fd, 1 << 24, &text, NULL) == 0;
	else
		n->ok = util_read_file(n->stat_path, 1 << 24, &text, NULL) == 0;
	for (line = text; line != NULL && *line != '\0'; line = next) {
		unsigned long long v[8] = {0};
		int core;

		next = strchr(line, '\n');
		if (next != NULL)
			*next++ = '\0';
		if (strncmp(line, "cpu", 3) != 0 || line[3] < '0' || line[3] > '9')
			continue;
		if (sscanf(line + 3, "%d %llu %llu %llu %llu %llu %llu %llu %llu", &core, &v[0],
		           &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]) < 5 ||
		    core < 0 || core >= NOISE_CORES)
			continue;
		n->cores[core].busy = v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
		n->cores[core].total = n->cores[core].busy + v[3] + v[4];
	}
	free(text);
}

/* The CPU time of a live run's leader and its reaped children, in ticks,
 * or -1 when it cannot be read (the leader is gone). Its /proc/PID/stat
 * stays open from the first reading to noise_end: read again from the
 * start, it is made anew, and it never answers for a later process that
 * reuses the pid. */
static double
noise_read_run(struct noise_run *r)
{
	char path[64], buf[1024], *p, *end;
	double sum = 0;
	ssize_t len;
	int field;

	if (r->stat_fd < 0) {
		snprintf(path, sizeof path, "/proc/%d/stat", (int)r->pid);
		r->stat_fd = open(path, O_RDONLY | O_CLOEXEC);
		if (r->stat_fd < 0)
			return -1;
	}
	len = pread(r->stat_fd, buf, sizeof buf - 1, 0);
	if (len <= 0)
		return -1;
	buf[len] = '\0';
	/* The command name may hold spaces and parentheses: fields start
	 * after the last ')' with the state (field 3); utime, stime, cutime
	 * and cstime are fields 14 to 17. */
	p = strrchr(buf, ')');
	if (p == NULL || p[1] != ' ' || p[2] == '\0' || p[3] != ' ')
		return -1;
	for (p += 4, field = 4; field <= 17; field++, p = end) {
		long long v = strtoll(p, &end, 10);

		if (end == p)
			return -1;
		if (field >= 14)
			sum += (double)v;
	}
	return sum;
}

static bool
noise_shares_core(const struct noise_run *r, const int *cores, int ncores)
{
	int i, j;

	for (i = 0; i < r->ncores; i++)
		for (j = 0; j < ncores; j++)
			if (r->cores[i] == cores[j])
				return true;
	return false;
}

/* Brings the sweep's time on the given cores up to date: each live run on
 * them not read in the last clock tick is read again and the growth of its
 * CPU time is shared among its cores (it was pinned to them, so it ran
 * nowhere else). */
static void
noise_update_runs(struct noise *n, const int *cores, int ncores, int64_t tick)
{
	struct noise_run *r;
	int i;

	for (r = n->runs; r != NULL; r = r->next) {
		double cpu;

		if (tick - r->read_ms < noise_tick_ms(n) || !noise_shares_core(r, cores, ncores))
			continue;
		r->read_ms = tick;
		cpu = noise_read_run(r);
		if (cpu <= r->cpu)
			continue;
		for (i = 0; i < r->ncores; i++)
			n->cores[r->cores[i]].sweep += (cpu - r->cpu) / r->ncores;
		r->cpu = cpu;
	}
}

static void
noise_sum(const struct noise *n, const int *cores, int ncores, uint64_t *busy, uint64_t *total,
          double *sweep)
{
	int i;

	*busy = *total = 0;
	*sweep = 0;
	for (i = 0; i < ncores; i++) {
		*busy += n->cores[cores[i]].busy;
		*total += n->cores[cores[i]].total;
		*sweep += n->cores[cores[i]].sweep;
	}
}

static bool
noise_cores_valid(const int *cores, int ncores)
{
	int i;

	for (i = 0; i < ncores; i++)
		if (cores[i] < 0 || cores[i] >= NOISE_CORES)
			return false;
	return ncores > 0;
}

struct noise_run *
noise_begin(struct noise *n, int64_t tick, pid_t pid, const int *cores, int ncores)
{
	struct noise_run *r = xcalloc(1, sizeof *r);

	r->pid = pid;
	r->stat_fd = -1;
	r->read_ms = tick;
	r->ok = noise_cores_valid(cores, ncores);
	if (r->ok) {
		r->cores = xmalloc(sizeof *r->cores * (size_t)ncores);
		memcpy(r->cores, cores, sizeof *r->cores * (size_t)ncores);
		r->ncores = ncores;
		noise_read_stat(n, tick);
		noise_update_runs(n, cores, ncores, tick);
		noise_sum(n, cores, ncores, &r->busy0, &r->total0, &r->sweep0);
		r->ok = n->ok;
	}
	r->next = n->runs;
	n->runs = r;
	return r;
}

double
noise_end(struct noise *n, struct noise_run *r, int64_t tick, int64_t cpu_us, double *other_ms)
{
	struct noise_run **pp;
	uint64_t busy, total;
	double sweep, final, share = -1;
	int i;

	*other_ms = 0;
	for (pp = &n->runs; *pp != NULL && *pp != r; pp = &(*pp)->next)
		;
	if (*pp == r)
		*pp = r->next;
	if (r->ok) {
		/* Its last reading gives way to the exact count of wait4. */
		final = (double)cpu_us * (double)n->hz / 1e6;
		if (final > r->cpu)
			for (i = 0; i < r->ncores; i++)
				n->cores[r->cores[i]].sweep += (final - r->cpu) / r->ncores;
		noise_read_stat(n, tick);
		noise_update_runs(n, r->cores, r->ncores, tick);
		noise_sum(n, r->cores, r->ncores, &busy, &total, &sweep);
		if (n->ok && total > r->total0) {
			double other = (double)(busy - r->busy0) - (sweep - r->sweep0);

			*other_ms = other * 1000.0 / (double)n->hz;
			share = other / (double)(total - r->total0);
			share = share < 0 ? 0 : share > 1 ? 1 : share;
		}
	}
	if (r->stat_fd >= 0)
		close(r->stat_fd);
	free(r->cores);
	free(r);
	return share;
}
