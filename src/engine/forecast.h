/* SPDX-License-Identifier: MIT */
/*
 * forecast.h: `flakesweep plan`, a sweep's run phases played in virtual
 * time on a machine of any size, with no process started. It is the
 * virtual executor of the scheduler core (sched-core.c): the same core
 * that schedules a real sweep places every run, and each run lasts its
 * package's median time at its pair from an earlier results.json.
 */
#ifndef FLAKESWEEP_FORECAST_H
#define FLAKESWEEP_FORECAST_H

#include <stddef.h>
#include <stdint.h>

#include "drivers/driver.h"
#include "results/plan-pairs.h"
#include "results/results.h"

struct lanes;

/* One project run of the virtual sweep, told when it ends. */
struct forecast_record {
	const struct plan_pair *pair; /* its package, phase, test, cpu and load */
	int lane;
	const int *cpus; /* the cores it was pinned to */
	int ncpus;
	int64_t start_ms, ms; /* virtual time from the sweep's start */
};

/* Who is told of the virtual sweep as it goes (plan -o writes it down):
 * the lanes once, then each run as it ends, in the order they end. */
struct forecast_recorder {
	void (*lanes)(void *arg, const struct lanes *lanes);
	void (*run)(void *arg, const struct forecast_record *rec);
	void *arg;
};

/* A machine and the sweep's settings (arrays borrowed). */
struct forecast_input {
	int cores;       /* CPUs of the machine */
	int keep;        /* --keep, < 0: the default for cores */
	const int *cpus; /* --cpu, NULL: the default for the machine */
	int ncpus;
	const int *loads;
	int nloads;
	int count, confirm;
	bool run;        /* --run: the sweep phase runs selected tests as confirm runs */
	double canaries; /* percent */
	/* The loop's own time to start a run, in microseconds (0: none): one
	 * loop starts every run, so none starts before the one before it has
	 * had its time. */
	int64_t spawn_us;
	/* The packages, their run times and the tests that failed (an
	 * earlier results.json; borrowed). Its packages from index measured
	 * on are new (discovered since): their runs take, at each pair, the
	 * median of the measured packages' times there. */
	const struct results *durations;
	size_t measured;
	const struct forecast_recorder *record; /* or NULL */
};

/* A pair's time taken from another pair's measure (the nearest cpu). */
struct forecast_scaled {
	int pkg;
	int cpu, load; /* the pair */
	/* The measure: another pair's; 0, 0: the package's mean over every
	 * run; -1, -1: the other packages' median (a package new since). */
	int from_cpu, from_load;
};

struct forecast_phase {
	int64_t runs;       /* the project's runs, canaries not counted */
	double wall_s;      /* from the phase's start to its last run's end */
	double busy_core_s; /* as in struct forecast, within the phase */
	double utilisation;
};

struct forecast {
	int cores, keep, nlanes, width;
	int *cpus; /* --cpu as planned */
	int ncpus;
	int64_t runs, canary_runs;
	double spawn_s; /* the loop's time starting runs, in all */
	double wall_s;
	double busy_core_s;   /* core-seconds in which a core held at least one run */
	double usable_core_s; /* the lanes' cores times wall_s */
	double utilisation;   /* busy over usable, 0 to 1 */
	struct forecast_phase sweep, confirm;
	struct forecast_scaled *scaled;
	size_t nscaled;
};

/* Plays the sweep into out. Returns 0, or -EINVAL with *err (caller
 * frees) when the lanes do not fit the machine or a package has no time
 * at all. */
int forecast_run(const struct forecast_input *in, struct forecast *out, char **err);

void forecast_free(struct forecast *f);

/* The packages of in's durations file as the plan sees them: built, at
 * their level, empty when measured with no run (caller frees with
 * driver_free_pkgs, in->durations->npkgs of them). */
struct pkg **forecast_pkgs(const struct forecast_input *in);

#endif
