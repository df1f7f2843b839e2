/* SPDX-License-Identifier: MIT */
/*
 * title.h: the terminal's window title, so that a tmux window list or a
 * terminal's tab shows the sweep's progress ("flakesweep 36% ETA 4h20m 2
 * flaky"). It is the one escape sequence the dashboard writes outside
 * curses, only to a terminal that has a title (terminfo's tsl and fsl, or
 * OSC 2 under tmux, screen and xterm-like terminals), its text cleaned by
 * sanitize_text first, and never to a file or a pipe.
 */
#ifndef FLAKESWEEP_UI_TITLE_H
#define FLAKESWEEP_UI_TITLE_H

#include <stdio.h>

#include "model.h"

enum title_mode {
	TITLE_NONE,     /* not a terminal, or one without a title */
	TITLE_TERMINFO, /* terminfo's tsl ... fsl (after curses started) */
	TITLE_OSC,      /* ESC ] 2 ; TEXT BEL */
};

/* How a title reaches the terminal on out, of type term (NULL: $TERM) with
 * $TMUX as given (NULL when unset): TITLE_NONE unless out is a terminal. */
enum title_mode title_mode_for(FILE *out, const char *term, const char *tmux);

/* The title for m: "flakesweep PCT% [ETA E] [N flaky] [N failing]", or
 * "flakesweep complete ..." once over. Caller frees. */
char *title_text(const struct model *m);

/* Writes text (cleaned: no control sequence, one line) as the title. */
void title_write(FILE *out, enum title_mode mode, const char *text);

/* Saves the terminal's title before the first title_write, and puts it
 * back at the end (xterm's title stack; others ignore both). */
void title_save(FILE *out, enum title_mode mode);
void title_restore(FILE *out, enum title_mode mode);

#endif
