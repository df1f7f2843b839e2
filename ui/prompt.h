/* SPDX-License-Identifier: MIT */
/*
 * prompt.h: a question on the message line: a one-line answer edited with
 * a default, or a y/n choice. The answer goes to a callback, which may ask
 * the next question (the quarantine asks four in a row). It owns no
 * screen: view-status.c draws it.
 */
#ifndef FLAKESWEEP_UI_PROMPT_H
#define FLAKESWEEP_UI_PROMPT_H

#include <stdbool.h>

#include "base/util.h"

enum prompt_kind {
	PROMPT_LINE,  /* Enter accepts the text, Esc cancels */
	PROMPT_YESNO, /* y or n; Esc is n */
};

/* answer: the text (PROMPT_LINE), "y" or "n" (PROMPT_YESNO), or NULL when
 * cancelled; valid only during the call. */
typedef void (*prompt_done_cb)(void *arg, const char *answer);

struct prompt {
	bool active;
	enum prompt_kind kind;
	char *question;
	char *error; /* why the question is asked again, or NULL */
	char *note;  /* what the answer may be, or NULL */
	struct buf text;
	size_t cursor; /* byte offset into text, at a character's start */
	bool fresh;    /* text is the default, untouched: typing replaces it */
	prompt_done_cb done;
	void *arg;
};

void prompt_init(struct prompt *p);
void prompt_free(struct prompt *p);

/* Asks question (copied) with the answer preset to def (NULL: empty),
 * the cursor after it; the first character typed replaces a default, an
 * editing key keeps it. */
void prompt_start(struct prompt *p, enum prompt_kind kind, const char *question, const char *def,
                  prompt_done_cb done, void *arg);

/* Shows error (copied; NULL: none) beside the question until it ends. */
void prompt_set_error(struct prompt *p, const char *error);

/* Shows note (copied; NULL: none), what the answer may be, above the
 * question until it ends, where no error is shown. */
void prompt_set_note(struct prompt *p, const char *note);

/* Takes one key (a curses key code; UTF-8 text arrives a byte at a time).
 * Enter or y/n ends the prompt and calls done; Esc or Ctrl-G cancels it.
 * Left, Right, Home, End, Ctrl-A and Ctrl-E move the cursor; Backspace
 * and Delete delete a character, Ctrl-W the word before the cursor,
 * Ctrl-K the rest of the line, Ctrl-U the whole answer. */
void prompt_key(struct prompt *p, int key);

/* Ends the prompt without calling done. */
void prompt_cancel(struct prompt *p);

#endif
