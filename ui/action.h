/* SPDX-License-Identifier: MIT */
/*
 * action.h: the dashboard's one action table. Each action has its keys,
 * a short label for the hints line and a line of help; the help screen,
 * the hints line and man/flakesweep.1's KEY BINDINGS are all generated
 * from it (a test checks the man page agrees). It decides nothing about
 * what an action does: ui-keys.c maps actions to commands.
 */
#ifndef FLAKESWEEP_UI_ACTION_H
#define FLAKESWEEP_UI_ACTION_H

#include <stdbool.h>
#include <stddef.h>

enum action_id {
	ACTION_NONE,
	ACTION_DOWN,
	ACTION_UP,
	ACTION_PAGE_DOWN,
	ACTION_PAGE_UP,
	ACTION_TOP,
	ACTION_BOTTOM,
	ACTION_NEXT_PANE,
	ACTION_PREV_PANE,
	ACTION_DETAILS,
	ACTION_BACK,
	ACTION_FILTER,
	ACTION_SORT,
	ACTION_CONFIRM,
	ACTION_QUARANTINE,
	ACTION_POST,
	ACTION_DISMISS,
	ACTION_CLOSE_VERIFIED,
	ACTION_UNDO,
	ACTION_YANK,
	ACTION_OPEN_LOG,
	ACTION_SLIDE_LEFT,
	ACTION_SLIDE_RIGHT,
	ACTION_PAUSE,
	ACTION_STOP,
	ACTION_REDRAW,
	ACTION_LOG,
	ACTION_HELP,
	ACTION_QUIT,
};

#define ACTION_MAX_KEYS 4

struct action {
	enum action_id id;
	int keys[ACTION_MAX_KEYS]; /* curses key codes, 0 after the last */
	const char *names;         /* the keys as written ("j, Down"), untranslated */
	const char *hint;          /* a short label for the hints line (N_), or NULL */
	int hint_rank;             /* its place in the hints line, most needed first (it
	                            * shows only the actions that work there) */
	const char *help;          /* one sentence for the help screen and man page (N_) */
};

/* The table, in help order; *n gets its length. */
const struct action *action_table(size_t *n);

/* An action's bit in a set of actions. */
#define ACTION_BIT(id) (1u << (id))

/* The action bound to a curses key code, or NULL. */
const struct action *action_for_key(int key);

/* Whether the action asks its question on the bottom line (a prompt, the
 * post's dialog): a terminal too small for the layout cannot show it
 * whole, so there it is refused. */
bool action_asks(enum action_id id);

/* The curses key code of a key as the table writes it ("j", "Down",
 * "PgDn", "Shift-Tab", "Ctrl-L", "F1"...), or 0 for a name it does not
 * know. */
int action_key_code(const char *name);

/* An mdoc list for man/flakesweep.1's KEY BINDINGS section, from ".Bl"
 * to ".El": one item per action, ".It Cm KEY , Cm OTHER" naming its keys,
 * then its help (English). The man page words the help itself; a test
 * checks that its keys and their grouping are the table's. Caller
 * frees. */
char *action_mdoc(void);

#endif
