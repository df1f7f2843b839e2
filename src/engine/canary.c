/* SPDX-License-Identifier: MIT */
/*
 * canary.c: the canary program (TAP on stdout: green passes, red fails,
 * cores checks its affinity, the CPU count it is told and the CPU share it
 * gets) and the judgement of what a canary run showed. It never schedules
 * or counts runs: the sweep places canaries, results/harness.c counts
 * them.
 */
#include "config.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysinfo.h>
#include <time.h>
#include <unistd.h>

#include "engine/canary.h"
#include "engine/noise.h"
#include "base/datadir.h"
#include "base/gettext.h"
#include "base/util.h"

static const char *const canary_names[CANARY_NKINDS] = {"green", "red", "cores"};

const char *
canary_kind_name(enum canary_kind kind)
{
	return (int)kind >= 0 && kind < CANARY_NKINDS ? canary_names[kind] : NULL;
}

int
canary_kind_find(const char *name)
{
	int k;

	for (k = 0; k < CANARY_NKINDS; k++) {
		if (strcmp(canary_names[k], name) == 0)
			return k;
	}
	return -1;
}

/* True when the comma list fault names kind. */
static bool
canary_faulty(const char *fault, enum canary_kind kind)
{
	const char *name = canary_names[kind], *p = fault;
	size_t n = strlen(name);

	while (p != NULL && *p != '\0') {
		size_t len = strcspn(p, ",");

		if (len == n && strncmp(p, name, n) == 0)
			return true;
		p += len + (p[len] == ',');
	}
	return false;
}

static double
canary_clock_ms(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
}

/* A spin's end: its deadline, and whether the spin may stop before it. */
struct canary_spin {
	double until; /* CLOCK_MONOTONIC, ms */
	atomic_bool enough;
};

static void *
canary_spin(void *arg)
{
	struct canary_spin *sp = arg;

	while (!atomic_load_explicit(&sp->enough, memory_order_relaxed) &&
	       canary_clock_ms(CLOCK_MONOTONIC) < sp->until)
		;
	return NULL;
}

/* Spins one thread per core for CANARY_SPIN_MS, or until the process has
 * had floor of its ncores cores over that whole time (the share can then
 * no longer fall short, whatever the rest of the spin would get); returns
 * the process's CPU time over the wall time of all ncores cores (1.0:
 * every core all the time), or floor when it stopped early. */
static double
canary_share(int ncores, double floor)
{
	pthread_t *t = xcalloc((size_t)ncores, sizeof *t);
	struct canary_spin sp;
	double wall0 = canary_clock_ms(CLOCK_MONOTONIC),
	       cpu0 = canary_clock_ms(CLOCK_PROCESS_CPUTIME_ID);
	double enough = floor * CANARY_SPIN_MS * ncores, wall, cpu;
	int i, started = 0;

	sp.until = wall0 + CANARY_SPIN_MS;
	atomic_init(&sp.enough, false);
	for (i = 1; i < ncores; i++)
		started += pthread_create(&t[i], NULL, canary_spin, &sp) == 0;
	/* The first thread spins too, looking at the process's CPU time now
	 * and then (reading it costs more than reading the clock). */
	while (canary_clock_ms(CLOCK_MONOTONIC) < sp.until) {
		double stop = canary_clock_ms(CLOCK_MONOTONIC) + CANARY_LOOK_MS;

		while (canary_clock_ms(CLOCK_MONOTONIC) < stop)
			;
		if (canary_clock_ms(CLOCK_PROCESS_CPUTIME_ID) - cpu0 >= enough) {
			atomic_store(&sp.enough, true);
			break;
		}
	}
	atomic_store(&sp.enough, true);
	for (i = 1; i <= started; i++)
		pthread_join(t[i], NULL);
	wall = canary_clock_ms(CLOCK_MONOTONIC) - wall0;
	cpu = canary_clock_ms(CLOCK_PROCESS_CPUTIME_ID) - cpu0;
	free(t);
	if (cpu >= enough)
		return floor;
	return wall > 0 ? cpu / (wall * ncores) : 0;
}

/* Prints a point; a failing one gets its detail as a comment line. */
static void
canary_point(FILE *out, int n, bool ok, const char *name, const char *detail)
{
	fprintf(out, "%s %d - %s\n", ok ? "ok" : "not ok", n, name);
	if (!ok)
		fprintf(out, "# %s\n", detail);
}

static void
canary_list(struct buf *b, const int *cores, int n)
{
	int i;

	for (i = 0; i < n; i++)
		buf_printf(b, "%s%d", i > 0 ? "," : "", cores[i]);
}

/* The cores canary's four points. */
static int
canary_cores(const struct canary_args *a, FILE *out, bool faulty)
{
	int want = a->cpu + (faulty ? 1 : 0), got = 0, i, bad = 0;
	const char *env = getenv("FLAKESWEEP_CPU");
	double share, floor = 0.5 / a->load;
	bool same = true;
	cpu_set_t set;
	struct buf b, d;

	buf_init(&b);
	buf_init(&d);
	CPU_ZERO(&set);
	if (sched_getaffinity(0, sizeof set, &set) == 0)
		got = CPU_COUNT(&set);
	for (i = 0; i < a->ncores; i++)
		same = same && CPU_ISSET(a->cores[i], &set);
	for (i = 0; i < CPU_SETSIZE; i++) {
		if (CPU_ISSET(i, &set))
			buf_printf(&b, "%s%d", b.len > 0 ? "," : "", i);
	}
	canary_list(&d, a->cores, a->ncores);
	fprintf(out, "1..4\n");
	{
		char *detail = xasprintf(_("pinned to %d core(s) %s; the lane assigned %d: %s"),
		                         got, b.data ? b.data : "", want, d.data ? d.data : "");
		bool ok = got == want && same && a->ncores == want;

		canary_point(out, 1, ok, "affinity", detail);
		bad += !ok;
		free(detail);
	}
	{
		long sc = sysconf(_SC_NPROCESSORS_ONLN);
		int np = get_nprocs();
		char *detail = xasprintf(_("sysconf answers %ld and get_nprocs %d, expected %d"),
		                         sc, np, want);
		bool ok = !a->shim || (sc == want && np == want);

		canary_point(out, 2, ok, "count", detail);
		bad += !ok;
		free(detail);
	}
	{
		char *detail =
		    xasprintf(_("FLAKESWEEP_CPU is %s, expected %d"), env ? env : _("unset"), want);
		bool ok = env != NULL && atoi(env) == want;

		canary_point(out, 3, ok, "cpu", detail);
		bad += !ok;
		free(detail);
	}
	{
		char *detail;

		share = 0;
		for (i = 0; i < CANARY_SPINS && share < floor; i++) {
			double s = canary_share(got > 0 ? got : 1, floor);

			share = s > share ? s : share;
		}
		detail = xasprintf(_("got %.2f of %d core(s) at load %d, less than %.2f"), share,
		                   a->cpu, a->load, floor);
		canary_point(out, 4, share >= floor, "share", detail);
		bad += share < floor;
		free(detail);
	}
	buf_free(&b);
	buf_free(&d);
	return bad > 0;
}

int
canary_run(const struct canary_args *a, FILE *out)
{
	bool faulty = canary_faulty(a->fault, a->kind);
	int rc;

	switch (a->kind) {
	case CANARY_GREEN:
		fprintf(out, "1..1\n");
		canary_point(out, 1, !faulty, "green", _("asked to fail"));
		rc = faulty;
		break;
	case CANARY_RED:
		fprintf(out, "1..1\n");
		canary_point(out, 1, faulty, "red", _("fails by design"));
		rc = !faulty;
		break;
	default:
		rc = canary_cores(a, out, faulty);
		break;
	}
	fflush(out);
	return rc;
}

char *
canary_program_for(const char *exe, const char *bindir, const char *pkglibdir)
{
	const char *slash = strrchr(exe, '/');
	char *dir, *found;

	if (slash == NULL)
		return xstrdup(exe);
	dir = xstrndup(exe, (size_t)(slash - exe));
	found = datadir_libexec_in(dir, bindir, pkglibdir, CANARY_PROGRAM_NAME, X_OK);
	free(dir);
	return found != NULL ? found : xstrdup(exe);
}

char **
canary_argv(const char *program, enum canary_kind kind, int cpu, int load, const int *cores,
            int ncores, bool shim)
{
	char **v = NULL, *s;
	size_t n = 0;
	struct buf b;

	buf_init(&b);
	canary_list(&b, cores, ncores);
	util_strv_add(&v, &n, program);
	util_strv_add(&v, &n, "canary");
	util_strv_add(&v, &n, canary_names[kind]);
	s = xasprintf("--cpu=%d", cpu);
	util_strv_add(&v, &n, s);
	free(s);
	s = xasprintf("--load=%d", load);
	util_strv_add(&v, &n, s);
	free(s);
	s = xasprintf("--cores=%s", b.data ? b.data : "");
	util_strv_add(&v, &n, s);
	free(s);
	if (shim)
		util_strv_add(&v, &n, "--shim");
	buf_free(&b);
	return v;
}

/* The failed points and the package's reason, for a reason line. */
static char *
canary_failures(const struct outcome *o, const struct proc_exit *ex)
{
	struct buf b;
	size_t i;
	char *s;

	buf_init(&b);
	for (i = 0; i < o->ntests; i++) {
		const struct outcome_test *t = &o->tests[i];
		const char *lines = t->lines != NULL ? t->lines : t->reason;

		if (t->status != OUTCOME_FAIL && t->status != OUTCOME_HANG)
			continue;
		buf_printf(&b, "%s%s", b.len > 0 ? "; " : "", t->name);
		if (lines != NULL) {
			size_t len = strcspn(lines, "\n");

			if (strncmp(lines, "# ", 2) == 0) {
				lines += 2;
				len -= len >= 2 ? 2 : len;
			}
			buf_printf(&b, ": %.*s", (int)len, lines);
		}
	}
	if (o->package_failed)
		buf_printf(&b, "%s%s", b.len > 0 ? "; " : "",
		           o->package_reason ? o->package_reason : _("the run failed"));
	if (ex->timed_out)
		buf_printf(&b, "%s%s", b.len > 0 ? "; " : "", _("killed at the time limit"));
	if (b.len == 0)
		buf_printf(&b, _("exit status %d"), ex->status);
	s = xstrdup(b.data);
	buf_free(&b);
	return s;
}

enum canary_verdict
canary_judge(enum canary_kind kind, const struct outcome *o, const struct proc_exit *ex,
             double noise, char **why)
{
	bool clean = !o->unreliable && !o->selection_failed && !ex->timed_out && ex->signal == 0;
	size_t i, failed = 0;
	bool share_only = true;

	*why = NULL;
	for (i = 0; i < o->ntests; i++) {
		if (o->tests[i].status == OUTCOME_FAIL || o->tests[i].status == OUTCOME_HANG) {
			failed++;
			share_only = share_only && strcmp(o->tests[i].name, "share") == 0;
		}
	}
	if (kind == CANARY_RED) {
		if (clean && !o->package_failed && o->ntests == 1 && failed == 1 &&
		    strcmp(o->tests[0].name, "red") == 0 && ex->status == 1)
			return CANARY_EXPECTED;
		*why = failed == 0 && !o->package_failed && ex->status == 0
		           ? xstrdup(_("passed; it must fail every run"))
		           : canary_failures(o, ex);
		return CANARY_UNEXPECTED;
	}
	if (clean && !o->package_failed && failed == 0 && ex->status == 0 &&
	    o->ntests == (kind == CANARY_GREEN ? 1u : 4u))
		return CANARY_EXPECTED;
	*why = canary_failures(o, ex);
	if (kind == CANARY_CORES && clean && !o->package_failed && failed == 1 && share_only &&
	    (noise < 0 || noise >= NOISE_NOISY))
		return CANARY_NOISY;
	return CANARY_UNEXPECTED;
}
