/* SPDX-License-Identifier: MIT */
/*
 * gate-probe.h: `gate --probe`: sweeps the tests a gate judged `probe`
 * (pytest node ids) through the TAP driver, with flakesweep's pytest plugin
 * printing TAP, and promotes each one that failed or hung to
 * needs-freeze. It judges nothing else.
 */
#ifndef FLAKESWEEP_GATE_PROBE_H
#define FLAKESWEEP_GATE_PROBE_H

#include <stdbool.h>

#include "decisions/gate.h"

struct gate_probe_options {
	const char *dir;    /* the head tree, where pytest runs; NULL: the working directory */
	const char *outdir; /* the sweep's output directory; NULL: a new one under $TMPDIR */
	int count;          /* runs per (cpu, load) pair */
	bool progress;      /* progress lines on stderr */
};

/* Sweeps r's probe tests and promotes the ones that failed or hung,
 * updating r's counts and their reasons. The Python used is
 * $FLAKESWEEP_PYTHON, else the first of python3 and /usr/bin/python3
 * that imports pytest; the plugin is found as datadir_find() says.
 * Returns 0 (also when there is no probe
 * test), or -1 with *err (caller frees). */
int gate_probe(struct gate_result *r, const struct gate_probe_options *po, char **err);

#endif
