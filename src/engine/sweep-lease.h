/* SPDX-License-Identifier: MIT */
/*
 * sweep-lease.h: the sweep's side of --exclusive and --lease-dir: each
 * pair's exclusive groups, and the groups'
 * leases taken before a run of the group starts, refreshed while held and
 * given back when the group has no run in flight. A lease held by a live
 * owner is waited for, saying who holds it; a stale one stops the sweep:
 * no new run starts, the runs in flight end, and the sweep ends
 * interrupted (exit 2) naming the lease, so --resume continues it.
 */
#ifndef FLAKESWEEP_SWEEP_LEASE_H
#define FLAKESWEEP_SWEEP_LEASE_H

struct sweep;
struct sched_core_setup;

/* Sets the scheduler core's exclusive groups (--exclusive) and, when the
 * sweep has a lease directory, gates them on their leases. */
void sweep_lease_setup(struct sweep *s, struct sched_core_setup *setup);

struct sweep_status;

/* Adds to st the leases the sweep holds and those its runs wait for, with
 * their owners. */
void sweep_lease_status(const struct sweep *s, struct sweep_status *st);

/* Gives back every lease held and closes the timer (the sweep ends). */
void sweep_lease_end(struct sweep *s);

#endif
