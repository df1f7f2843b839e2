/* SPDX-License-Identifier: MIT */
/*
 * forecast-journal.h: a plan's virtual sweep written down as a simulated
 * sweep (`flakesweep plan -o DIR`): DIR/journal.jsonl in a real sweep's
 * format, its header saying "simulated": true, every run passing. Format:
 * man 5 flakesweep.
 */
#ifndef FLAKESWEEP_FORECAST_JOURNAL_H
#define FLAKESWEEP_FORECAST_JOURNAL_H

#include <stdint.h>

#include "engine/forecast.h"
#include "engine/options.h"

struct forecast_journal;

/* Opens DIR/journal.jsonl afresh for the sweep of in, with o's settings,
 * started at started_ms; rec is to be in->record. Returns NULL and sets
 * *err (caller frees) when it cannot. */
struct forecast_journal *forecast_journal_new(const char *dir, const struct options *o,
                                              const struct forecast_input *in, int64_t started_ms,
                                              struct forecast_recorder *rec, char **err);

/* Ends the journal at finished_ms and closes it; fj is freed. Returns 0,
 * or a negative errno with *err (caller frees) when a line was not
 * written. */
int forecast_journal_finish(struct forecast_journal *fj, int64_t finished_ms, char **err);

/* Closes and removes the journal of a plan that could not be played;
 * fj is freed. */
void forecast_journal_abandon(struct forecast_journal *fj, const char *dir);

#endif
