/* SPDX-License-Identifier: MIT */
/*
 * board.h: the one-screen dashboards of `compare` and `bisect`. compare's
 * shows the tests with their verdicts and the selected test's before and
 * after heatmaps side by side; bisect's shows the range, the probed
 * commits and their verdicts, fed live by the bisect's observer events.
 * The terminal is under curses from board_new() to board_free(); keys come
 * from the action table (move, page, top, bottom, help, back, redraw,
 * quit). It reads the core's public results only and runs nothing.
 */
#ifndef FLAKESWEEP_UI_BOARD_H
#define FLAKESWEEP_UI_BOARD_H

#include <stdbool.h>
#include <stdio.h>

#include "engine/bisect.h"
#include "results/compare.h"
#include "results/results.h"

struct board;

struct board_config {
	FILE *out, *in;   /* the terminal (NULL: stdout and stdin) */
	const char *term; /* its type (NULL: $TERM) */
	bool handlers;    /* restore the terminal on a crash or fatal error */
	int colors;       /* an enum draw_colors, or -1: by NO_COLOR and the terminal */
	int utf8;         /* 1 UTF-8 glyphs, 0 ASCII, -1: by the locale */
};

/* Fills cfg with the defaults: stdout and stdin, handlers on, colours and
 * glyphs detected. */
void board_config_init(struct board_config *cfg);

/* compare's board over c, before and after (all borrowed; they must
 * outlive the board), the sides named before_name and after_name (copied).
 * Returns NULL with *err (caller frees) when the terminal cannot be used. */
struct board *board_new_compare(const struct board_config *cfg, const struct compare *c,
                                const struct results *before, const struct results *after,
                                const char *before_name, const char *after_name, char **err);

/* bisect's board for the test named test (copied); it shows what the
 * observer it gives tells it. */
struct board *board_new_bisect(const struct board_config *cfg, const char *test, char **err);

/* The observer to give bisect_run(); each event redraws the board at
 * once. Valid while b lives. */
const struct bisect_observer *board_bisect_observer(struct board *b);

/* The bisect is over: the board shows its answer. */
void board_bisect_finished(struct board *b);

/* One key, as wgetch() returns it; the board is drawn again after it. */
void board_key(struct board *b, int key);

/* Whether the user quit. */
bool board_quit(const struct board *b);

/* The terminal is now rows x cols. */
void board_resize(struct board *b, int rows, int cols);

/* Reads keys from the terminal until the user quits (returns 0) or
 * SIGINT, SIGTERM or SIGHUP comes (returns 130). */
int board_run(struct board *b);

/* The screen as drawn, as ui_screen_text() gives it (for golden screens).
 * Caller frees. */
char *board_screen_text(struct board *b, bool roles);

/* Restores the terminal and frees b; NULL is a no-op. */
void board_free(struct board *b);

#endif
