/* SPDX-License-Identifier: MIT */
/*
 * lease.h: the leases of exclusive groups across sweeps (--lease-dir): a
 * directory DIR/NAME, made whole with its owner file in a temporary
 * directory and renamed into place, so no reader sees a lease without its
 * owner. A lease whose owner is gone, silent for longer than the ttl, or
 * unreadable is stale and never taken over. It does file I/O only; the
 * sweep's side (sweep-lease.c) decides when.
 */
#ifndef FLAKESWEEP_LEASE_H
#define FLAKESWEEP_LEASE_H

#include <stdint.h>

enum lease_state {
	LEASE_TAKEN, /* ours now */
	LEASE_BUSY,  /* a live owner holds it */
	LEASE_STALE, /* its owner is gone or silent, or its owner file is bad */
	LEASE_ERROR, /* it could not be taken or read (the directory) */
};

/* Tries to take the lease DIR/NAME for a sweep writing to outdir, with
 * ttl_ms: LEASE_TAKEN, or the state found with *why (caller frees) naming
 * the lease's path, its owner (host, pid, output directory, start) and
 * its age. */
enum lease_state lease_take(const char *dir, const char *name, const char *outdir, int64_t ttl_ms,
                            char **why);

/* Marks a lease we hold as alive (its owner file's time). Returns 0 or a
 * negative errno. */
int lease_refresh(const char *dir, const char *name);

/* Gives back a lease we hold: its owner file, then its directory. */
void lease_release(const char *dir, const char *name);

/* NULL when dir is a directory flakesweep can write in, else what was
 * expected, translated. */
const char *lease_check_dir(const char *dir);

#endif
