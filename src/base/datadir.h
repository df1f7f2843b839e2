/* SPDX-License-Identifier: MIT */
/*
 * datadir.h: finds the directory of flakesweep's data files (the pytest
 * plugin) for the binary that runs: the source tree's data/ when it runs
 * from its build tree, the install's package data directory otherwise.
 */
#ifndef FLAKESWEEP_DATADIR_H
#define FLAKESWEEP_DATADIR_H

/* The directory that holds file (a name such as "flakesweep_ledger.py"):
 * $FLAKESWEEP_DATADIR when set, as given; else the source tree's data/
 * when the binary is the build tree's own; else the package data
 * directory laid out below the binary's prefix as make install lays it out
 * (a DESTDIR or a moved install); else the configured package data
 * directory, where file may be missing. Returns a new string. */
char *datadir_find(const char *file);

#endif
