/* SPDX-License-Identifier: MIT */
/*
 * tty.h: puts the terminal under curses and gives it back on every way
 * out: a normal quit, SIGINT, SIGTERM or SIGHUP (ui.c stops through here),
 * a fatal error (util_set_fatal_hook) and a crash (a SIGSEGV, SIGBUS,
 * SIGFPE, SIGILL or SIGABRT handler that writes the saved reset sequences
 * and terminal modes with async-signal-safe calls, then dies of the same
 * signal). One terminal per process.
 */
#ifndef FLAKESWEEP_UI_TTY_H
#define FLAKESWEEP_UI_TTY_H

#include <stdbool.h>
#include <stdio.h>

struct tty_config {
	FILE *out;        /* where curses draws (a terminal, or a file in tests) */
	FILE *in;         /* where it reads keys */
	const char *type; /* terminal type; NULL: $TERM */
	bool handlers;    /* install the crash handlers and the fatal hook */
};

/* Starts curses (newterm) in cbreak, no echo, keypad and no-delay mode,
 * the cursor hidden. Returns 0, or -1 with *err (caller frees) when the
 * terminal type is unknown. */
int tty_start(const struct tty_config *cfg, char **err);

/* Restores the terminal (endwin) and removes the handlers; idempotent. */
void tty_stop(void);

/* Frees curses' screen after tty_stop(). */
void tty_free(void);

/* Leaves curses mode for a child that takes the terminal (the editor),
 * and comes back, redrawing everything. */
void tty_suspend(void);
void tty_resume(void);

/* The size of the terminal on fd (TIOCGWINSZ); leaves rows and cols as
 * they are when it is not a terminal. */
void tty_size(int fd, int *rows, int *cols);

/* Whether the dashboard can run on fd: a terminal whose TERM is set and
 * not "dumb". *why (static, translated) says why not. */
bool tty_usable(int fd, const char **why);

/* The screen as drawn, for golden screens: see ui_screen_text(). Caller
 * frees. */
char *tty_screen_text(bool roles);

#endif
