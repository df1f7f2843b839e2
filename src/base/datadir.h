/* SPDX-License-Identifier: MIT */
/*
 * datadir.h: finds the directory of flakesweep's data files (the pytest
 * plugin) for the binary that runs: the source tree's data/ when it runs
 * from its build tree, the install's package data directory otherwise;
 * and its helper programs and libraries (the canary program, the CPU
 * shim): beside the binary, else in the install's package library
 * directory.
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

/* The path of name (a program or library of flakesweep's) for a binary in
 * the directory exe_dir: beside it (a build tree) when it is there and can
 * be accessed with mode (access(2)); else in pkglibdir laid out below
 * exe_dir's prefix as make install lays it out from bindir (an install, a
 * DESTDIR or a moved install); else NULL. A build tree never takes an
 * installed one, which may be another version. Returns a new string. */
char *datadir_libexec_in(const char *exe_dir, const char *bindir, const char *pkglibdir,
                         const char *name, int mode);

/* datadir_libexec_in for the running binary and the configured BINDIR and
 * PKGLIBDIR. */
char *datadir_libexec(const char *name, int mode);

#endif
