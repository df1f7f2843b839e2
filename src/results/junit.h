/* SPDX-License-Identifier: MIT */
/*
 * junit.h: an output directory's results as JUnit XML, the Maven Surefire
 * dialect that CI servers and test dashboards read (man 5 flakesweep,
 * JUNIT REPORT). It reads the directory's journal; it writes one file.
 */
#ifndef FLAKESWEEP_JUNIT_H
#define FLAKESWEEP_JUNIT_H

/* The failed runs, and the hung runs, a flaky test lists at most. */
#define JUNIT_RUNS_CAP 20

/* Writes the JUnit XML of output directory dir (a sweep's, confirm's,
 * merge's, or verify's: its journal.jsonl, or those of its
 * cpu-C-load-L directories) to path, replaced whole, or to standard
 * output when path is "-". Returns 0, or a negative errno with *err
 * (caller frees) naming the file and what is wrong. */
int junit_write(const char *dir, const char *path, char **err);

#endif
