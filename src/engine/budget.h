/* SPDX-License-Identifier: MIT */
/*
 * budget.h: a sweep given a time instead of a count (--for DURATION,
 * --until TIME). The sweep phase starts with one run a pair; as run times
 * arrive the budget chooses the runs a pair (the same count at every
 * pair) so the sweep, then the confirm phase, end by the deadline, and
 * chooses again as it learns (with --durations the first count is the
 * plan's, budget-forecast.h; with --adaptive the time the count buys is
 * shared out by adaptive.h). A count that moves by a tenth, and each
 * phase's last, is a journal line. Runs' time limits are clipped to what
 * is left; at the deadline the sweep stops as complete.
 */
#ifndef FLAKESWEEP_BUDGET_H
#define FLAKESWEEP_BUDGET_H

#include <stdbool.h>
#include <stdint.h>

struct sweep;

/* --until's TIME: "HH:MM" or "HH:MM:SS" (local time: the next such time
 * after now_ms; *tomorrow says it is past today), "YYYY-MM-DD" (its
 * midnight UTC) or "YYYY-MM-DDTHH:MM:SSZ". Returns 0 with *ms (since the
 * epoch), -EINVAL for another text, -ERANGE for a date and time already
 * past. */
int budget_parse_until(const char *text, int64_t now_ms, int64_t *ms, bool *tomorrow);

/* The sweep's deadline (ms since the epoch) from its options, or 0 when it
 * has a count and no budget (--count wins when both are given). */
int64_t budget_deadline(const struct sweep *s);

/* After a phase's plan is made (sweep or confirm): chooses its runs a
 * pair for the time left. No-op without a budget. */
void budget_plan(struct sweep *s);

/* Chooses again with the run times measured so far (at most twice a
 * second unless the phase has no run left to give); stops the sweep at
 * the deadline, or with an error when the budget cannot give every pair
 * one run. No-op without a budget. */
void budget_tick(struct sweep *s);

/* A run's time limit, clipped to the time left before the deadline (at
 * least a second); when counted (a run of the project's tests, not a
 * canary's), a clipped limit is counted for the report. */
int64_t budget_timeout_ms(struct sweep *s, int64_t timeout_ms, bool counted);

/* At the end: says how many runs' time limits were clipped, if any, and
 * writes the journal's clipped line. */
void budget_finish(struct sweep *s);

/* budget-clipped.c: counts one more clipped limit into the config
 * results.json copies; writes the journal's clipped line (none when no
 * limit was clipped). */
void budget_clipped_note(struct sweep *s);
void budget_clipped_journal(struct sweep *s);

void budget_free(struct sweep *s);

#endif
