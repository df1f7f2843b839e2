/* SPDX-License-Identifier: MIT */
/*
 * out-line.h: the front end without a terminal (--ui line): a progress
 * line every few seconds and a line for each new flaky or failing test, on
 * a stream. With --ui none it prints only messages.
 */
#ifndef FLAKESWEEP_OUT_LINE_H
#define FLAKESWEEP_OUT_LINE_H

#include <stdbool.h>
#include <stdio.h>
#include <uv.h>

#include "engine/observer.h"

struct sweep;

struct out_line;

/* A front end writing to f (borrowed). progress false: only messages.
 * interval_ms: time between progress lines. */
struct out_line *out_line_new(uv_loop_t *loop, FILE *f, bool progress, int interval_ms);

/* The observer to give sweep_new; valid while ol lives. */
const struct observer *out_line_observer(struct out_line *ol);

/* The sweep whose progress the progress lines show (borrowed). */
void out_line_attach(struct out_line *ol, struct sweep *s);

/* Frees ol; call after the loop ran out (its timer is closed when the
 * sweep finishes). NULL is a no-op. */
void out_line_free(struct out_line *ol);

#endif
