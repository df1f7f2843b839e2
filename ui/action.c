/* SPDX-License-Identifier: MIT */
/*
 * action.c: the action table (see action.h). Adding a key adds a row here;
 * the help screen, the hints line and the man page follow from it.
 */
#include "config.h"

#include <curses.h>
#include <string.h>

#include "action.h"
#include "base/util.h"

#define ACTION_CTRL(c) ((c)&0x1f)
#define ACTION_ESC 27

static const struct action action_rows[] = {
    {ACTION_DOWN,
     {'j', KEY_DOWN},
     "j, Down",
     NULL,
     0,
     N_("Select the next test, or scroll the focused pane down by a line.")},
    {ACTION_UP,
     {'k', KEY_UP},
     "k, Up",
     NULL,
     0,
     N_("Select the previous test, or scroll the focused pane up by a line.")},
    {ACTION_PAGE_DOWN,
     {KEY_NPAGE, ' '},
     "PgDn, Space",
     NULL,
     0,
     N_("Move down by a page in the focused pane.")},
    {ACTION_PAGE_UP, {KEY_PPAGE}, "PgUp", NULL, 0, N_("Move up by a page in the focused pane.")},
    {ACTION_TOP, {'g', KEY_HOME}, "g, Home", NULL, 0, N_("Go to the top of the focused pane.")},
    {ACTION_BOTTOM, {'G', KEY_END}, "G, End", NULL, 0, N_("Go to the bottom of the focused pane.")},
    {ACTION_NEXT_PANE,
     {'\t'},
     "Tab",
     N_("pane"),
     5,
     N_("Focus the next pane: lanes, flaky tests, detail, quarantine.")},
    {ACTION_PREV_PANE, {KEY_BTAB}, "Shift-Tab", NULL, 0, N_("Focus the previous pane.")},
    {ACTION_DETAILS,
     {'\n', '\r', KEY_ENTER},
     "Enter",
     N_("details"),
     4,
     N_("Show the selected test's heatmaps, first failure and reproduce commands.")},
    {ACTION_BACK,
     {ACTION_ESC, KEY_BACKSPACE, 127},
     "Esc, Backspace",
     N_("back"),
     2,
     N_("Close the help or the post preview, or go back from the detail to the list.")},
    {ACTION_FILTER,
     {'/'},
     "/",
     N_("filter"),
     10,
     N_("Show only the tests whose id contains a text, as it is typed; Esc on the list "
        "clears it.")},
    {ACTION_SORT,
     {'s'},
     "s",
     N_("sort"),
     13,
     N_("Sort the list by failure rate, then by name, then back as listed.")},
    {ACTION_CONFIRM,
     {'c'},
     "c",
     N_("confirm"),
     6,
     N_("Confirm the selected test now: queue a number of runs of it alone at every pair.")},
    {ACTION_QUARANTINE,
     {'Q'},
     "Q",
     N_("quarantine"),
     7,
     N_("Quarantine the selected test: asks for the channel (its worst pair), owner, issue "
        "(its post's URL) and expiry (14 days), then adds it to the quarantine file.")},
    {ACTION_POST,
     {'p'},
     "p",
     N_("post bug"),
     8,
     N_("Post a bug report: edit a description in $EDITOR, review the post, then send it to "
        "the project's GitHub Discussions.")},
    {ACTION_DISMISS, {'d'}, "d", N_("dismiss"), 9, N_("Dismiss the selected test with a reason.")},
    {ACTION_CLOSE_VERIFIED,
     {'V'},
     "V",
     NULL,
     0,
     N_("Close the selected test's discussion as resolved when its verify record (view "
        "--verified DIR) says fixed, as report --close does, then offer to remove its "
        "quarantine entries.")},
    {ACTION_UNDO,
     {'u'},
     "u",
     NULL,
     0,
     N_("Take back the last decision taken here (the quarantine entry it added too); the "
        "test's decision before it comes back.")},
    {ACTION_YANK,
     {'y'},
     "y",
     NULL,
     0,
     N_("Copy the selected test's reproduce command to the clipboard (OSC 52, over ssh and "
        "tmux too); y again copies the direct command, the post's URL, then the test id.")},
    {ACTION_OPEN_LOG,
     {'o'},
     "o",
     NULL,
     0,
     N_("Open the log of the selected test's first failure in $PAGER.")},
    {ACTION_SLIDE_LEFT,
     {'<'},
     "<",
     NULL,
     0,
     N_("Slide the detail's commands and URLs, kept on one row each, back to the left.")},
    {ACTION_SLIDE_RIGHT,
     {'>'},
     ">",
     NULL,
     0,
     N_("Slide the detail's commands and URLs to the right, to read their end.")},
    {ACTION_PAUSE,
     {'P'},
     "P",
     N_("pause"),
     11,
     N_("Pause or resume dispatching new runs; runs in flight go on.")},
    {ACTION_STOP,
     {'S'},
     "S",
     NULL,
     0,
     N_("Stop the sweep (asks first; also one a view is attached to); the dashboard stays.")},
    {ACTION_REDRAW, {ACTION_CTRL('l')}, "Ctrl-L", NULL, 0, N_("Redraw the whole screen.")},
    {ACTION_LOG,
     {'L'},
     "L",
     N_("log"),
     12,
     N_("Show or hide the event log: the sweep's directory, problems, first failures and "
        "decisions.")},
    {ACTION_HELP, {'?', KEY_F(1)}, "?, F1", N_("help"), 1, N_("Show or hide this help.")},
    {ACTION_QUIT,
     {'q'},
     "q",
     N_("quit"),
     3,
     N_("Quit; while runs are going it asks first, and flakesweep --resume DIR continues the "
        "sweep later.")},
};

const struct action *
action_table(size_t *n)
{
	*n = UTIL_ARRAY_LEN(action_rows);
	return action_rows;
}

bool
action_asks(enum action_id id)
{
	switch (id) {
	case ACTION_FILTER:
	case ACTION_CONFIRM:
	case ACTION_QUARANTINE:
	case ACTION_POST:
	case ACTION_DISMISS:
	case ACTION_CLOSE_VERIFIED:
	case ACTION_UNDO:
	case ACTION_STOP:
		return true;
	default:
		return false;
	}
}

const struct action *
action_for_key(int key)
{
	size_t i;
	int k;

	if (key == 0)
		return NULL;
	for (i = 0; i < UTIL_ARRAY_LEN(action_rows); i++) {
		for (k = 0; k < ACTION_MAX_KEYS && action_rows[i].keys[k] != 0; k++) {
			if (action_rows[i].keys[k] == key)
				return &action_rows[i];
		}
	}
	return NULL;
}

static const struct {
	const char *name;
	int code;
} action_key_names[] = {
    {"Down", KEY_DOWN},
    {"Up", KEY_UP},
    {"Left", KEY_LEFT},
    {"Right", KEY_RIGHT},
    {"PgDn", KEY_NPAGE},
    {"PgUp", KEY_PPAGE},
    {"Home", KEY_HOME},
    {"End", KEY_END},
    {"Tab", '\t'},
    {"Shift-Tab", KEY_BTAB},
    {"Enter", '\n'},
    {"Esc", ACTION_ESC},
    {"Backspace", KEY_BACKSPACE},
    {"Space", ' '},
    {"Ctrl-L", ACTION_CTRL('l')},
    {"F1", KEY_F(1)},
};

int
action_key_code(const char *name)
{
	size_t i;

	if (name[0] != '\0' && name[1] == '\0')
		return (unsigned char)name[0];
	for (i = 0; i < UTIL_ARRAY_LEN(action_key_names); i++) {
		if (strcmp(action_key_names[i].name, name) == 0)
			return action_key_names[i].code;
	}
	return 0;
}

char *
action_mdoc(void)
{
	struct buf b;
	size_t i;

	buf_init(&b);
	buf_adds(&b, ".Bl -tag -width Ds\n");
	for (i = 0; i < UTIL_ARRAY_LEN(action_rows); i++) {
		const char *p = action_rows[i].names;

		/* One item per action, its names on the item's line ("j, Down"):
		 * an .It with no text of its own renders as an empty item. */
		buf_adds(&b, ".It");
		while (*p != '\0') {
			size_t n = strcspn(p, ",");

			/* mdoc takes a lone punctuation mark for a delimiter. */
			buf_printf(&b, "%s Cm %s%.*s", p == action_rows[i].names ? "" : " ,",
			           n == 1 && strchr(".,:;()[]?!|", *p) != NULL ? "\\&" : "", (int)n,
			           p);
			p += n;
			while (*p == ',' || *p == ' ')
				p++;
		}
		buf_printf(&b, "\n%s\n", action_rows[i].help);
	}
	buf_adds(&b, ".El\n");
	return buf_steal(&b);
}
