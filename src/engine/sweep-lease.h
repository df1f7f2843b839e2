/* SPDX-License-Identifier: MIT */
/*
 * sweep-lease.h: the sweep's side of --lease-dir: the exclusive groups'
 * leases taken before a run of the group starts, refreshed while held and
 * given back when the group has no run in flight. A lease held by a live
 * owner is waited for, saying who holds it; a stale one stops the sweep:
 * no new run starts, the runs in flight end, and the sweep ends
 * interrupted (exit 2) naming the lease, so --resume continues it.
 */
#ifndef FLAKESWEEP_SWEEP_LEASE_H
#define FLAKESWEEP_SWEEP_LEASE_H

struct sweep;
struct sched;

/* Gates sched's exclusive groups on their leases, when the sweep has a
 * lease directory. */
void sweep_lease_attach(struct sweep *s, struct sched *sched);

/* Gives back every lease held and closes the timer (the sweep ends). */
void sweep_lease_end(struct sweep *s);

#endif
