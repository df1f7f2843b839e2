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
	struct buf text;
	prompt_done_cb done;
	void *arg;
};

void prompt_init(struct prompt *p);
void prompt_free(struct prompt *p);

/* Asks question (copied) with the answer preset to def (NULL: empty). */
void prompt_start(struct prompt *p, enum prompt_kind kind, const char *question, const char *def,
                  prompt_done_cb done, void *arg);

/* Takes one key (a curses key code; UTF-8 text arrives a byte at a time).
 * Enter or y/n ends the prompt and calls done; Esc or Ctrl-G cancels it;
 * Backspace deletes a character, Ctrl-U the whole answer. */
void prompt_key(struct prompt *p, int key);

/* Ends the prompt without calling done. */
void prompt_cancel(struct prompt *p);

#endif
