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

/* What a lease's owner file says, and how long ago it was refreshed. */
struct lease_owner {
	char *host;
	int64_t pid;
	char *outdir;
	char *started;  /* RFC 3339, as written */
	int64_t age_ms; /* since the owner file's last refresh; -1 unknown */
};

/* Frees o's strings; o can be filled again. */
void lease_owner_free(struct lease_owner *o);

/* Reads the owner file of the lease DIR/NAME into o. Returns 0, or -1
 * when it is missing, unreadable or malformed (o is then empty). */
int lease_read(const char *dir, const char *name, struct lease_owner *o);

/* Tries to take the lease DIR/NAME for a sweep writing to outdir, with
 * ttl_ms: LEASE_TAKEN, or the state found with *why (caller frees) naming
 * the lease's path, its owner (host, pid, output directory, start) and
 * its age. owner (NULL: not wanted) gets the owner of a lease found
 * LEASE_BUSY; free it with lease_owner_free. */
enum lease_state lease_take(const char *dir, const char *name, const char *outdir, int64_t ttl_ms,
                            char **why, struct lease_owner *owner);

/* Marks a lease we hold as alive (its owner file's time). Returns 0 or a
 * negative errno. */
int lease_refresh(const char *dir, const char *name);

/* Gives back a lease we hold: its owner file, then its directory. */
void lease_release(const char *dir, const char *name);

/* NULL when dir is a directory flakesweep can write in, else what was
 * expected, translated. */
const char *lease_check_dir(const char *dir);

#endif
