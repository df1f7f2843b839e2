/* SPDX-License-Identifier: MIT */
/*
 * ui-keys.c: the dashboard's keys: each key, as wgetch() returns it, goes
 * to the question being asked, to the overlay shown, or through the action
 * table to its action. Moving, scrolling, the panes, the filter and the
 * sort are done here; the actions that decide are in decide.c and the
 * ones that copy and open in yank.c. What an action asks of the loop
 * (quit, an editor) is left in the state for ui.c to carry out.
 */
#include "config.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "action.h"
#include "ui-int.h"
#include "base/util.h"

#define UI_SLIDE_COLS 16 /* columns < and > slide the commands by */

static void
ui_select(struct ui *ui, long to)
{
	size_t n = ui->nvisible;

	if (n == 0)
		return;
	if (to < 0)
		to = 0;
	if ((size_t)to >= n)
		to = (long)n - 1;
	if ((size_t)to != ui->st.selected) {
		ui->st.selected = (size_t)to;
		ui->st.detail_top = 0;
	}
	free(ui->st.selected_id);
	ui->st.selected_id = xstrdup(ui->model->tests[ui->visible[ui->st.selected]].id);
	ui_dirty(ui, VIEW_DIRTY_TESTS | VIEW_DIRTY_DETAIL);
}

/* Scrolls *top of a pane of rows rows over lines lines. */
static void
ui_scroll(size_t *top, enum action_id a, int rows, size_t lines)
{
	/* The views clamp the bottom, knowing the lines they have. */
	view_move(top, a, rows > 1 ? (size_t)rows - 1 : 1, lines);
}

/* Moves the lane selection: a lane a line, a page of lanes a page. */
static void
ui_lane_select(struct ui *ui, enum action_id a)
{
	struct view_state *st = &ui->st;
	int n = ui->model->nlanes, page = st->lanes_rows > 1 ? st->lanes_rows : 1;
	int to = st->lane_selected;

	switch (a) {
	case ACTION_DOWN:
		to++;
		break;
	case ACTION_UP:
		to--;
		break;
	case ACTION_PAGE_DOWN:
		to += page;
		break;
	case ACTION_PAGE_UP:
		to -= page;
		break;
	case ACTION_TOP:
		to = 0;
		break;
	case ACTION_BOTTOM:
		to = n - 1;
		break;
	default:
		break;
	}
	st->lane_selected = to < 0 ? 0 : to >= n ? n - 1 : to;
}

/* Moves the selection or scrolls the focused pane (or the overlay). */
static void
ui_move(struct ui *ui, enum action_id a)
{
	struct view_state *st = &ui->st;
	enum view_pane focus = ui->layout.too_small ? VIEW_PANE_TESTS : st->focus;
	long page = st->list_rows > 1 ? st->list_rows - 1 : 1;

	if (st->overlay != VIEW_OVERLAY_NONE) {
		ui_scroll(&st->overlay_top, a, st->overlay_rows, st->overlay_lines);
		ui_dirty(ui, VIEW_DIRTY_OVERLAY);
		return;
	}
	switch (focus) {
	case VIEW_PANE_TESTS:
		switch (a) {
		case ACTION_DOWN:
			ui_select(ui, (long)st->selected + 1);
			break;
		case ACTION_UP:
			ui_select(ui, (long)st->selected - 1);
			break;
		case ACTION_PAGE_DOWN:
			ui_select(ui, (long)st->selected + page);
			break;
		case ACTION_PAGE_UP:
			ui_select(ui, (long)st->selected - page);
			break;
		case ACTION_TOP:
			ui_select(ui, 0);
			break;
		case ACTION_BOTTOM:
			ui_select(ui, (long)ui->nvisible - 1);
			break;
		default:
			break;
		}
		break;
	case VIEW_PANE_DETAIL:
		ui_scroll(&st->detail_top, a, st->detail_rows, st->detail_lines);
		ui_dirty(ui, VIEW_DIRTY_DETAIL);
		break;
	case VIEW_PANE_LANES:
		if (st->lane_open || ui->model->nlanes == 0)
			ui_scroll(&st->lanes_top, a, st->lanes_rows, st->lanes_lines);
		else
			ui_lane_select(ui, a);
		ui_dirty(ui, VIEW_DIRTY_LANES);
		break;
	default:
		ui_scroll(&st->quarantine_top, a, st->quarantine_rows, st->quarantine_lines);
		ui_dirty(ui, VIEW_DIRTY_QUARANTINE);
		break;
	}
}

/* Shows the tests whose id contains text (all when it is empty or NULL),
 * the selection kept on its test while it stays in the list. */
static void
ui_filter_apply(struct ui *ui, const char *text)
{
	free(ui->st.filter);
	ui->st.filter = text != NULL && *text != '\0' ? xstrdup(text) : NULL;
	ui->st.list_top = 0;
	ui_visible(ui);
	ui_dirty(ui, VIEW_DIRTY_ALL);
}

static void
ui_filter_done(void *arg, const char *answer)
{
	struct ui *ui = arg;

	ui->filtering = false;
	if (answer == NULL) {
		/* Cancelled: the filter it had before. */
		ui_filter_apply(ui, ui->filter_before);
		free(ui->filter_before);
		ui->filter_before = NULL;
		return;
	}
	free(ui->filter_before);
	ui->filter_before = NULL;
	free(ui->st.filter);
	ui->st.filter = *answer != '\0' ? xstrdup(answer) : NULL;
	ui->st.selected = 0;
	ui->st.list_top = 0;
	ui->st.detail_top = 0;
	free(ui->st.selected_id);
	ui->st.selected_id = NULL;
	/* Now, not at the next frame: a key typed right after Enter must act
	 * on the test the filter leaves selected. */
	ui_visible(ui);
	if (ui->st.filter != NULL)
		ui_message(ui, false,
		           _("showing the tests whose id contains \"%s\"; / and Enter "
		             "on an empty text shows all"),
		           ui->st.filter);
	else
		ui_message(ui, false, "%s", _("showing every flaky test"));
	ui_dirty(ui, VIEW_DIRTY_ALL);
}

static void
ui_action(struct ui *ui, const struct action *a)
{
	struct view_state *st = &ui->st;

	switch (a->id) {
	case ACTION_DOWN:
	case ACTION_UP:
	case ACTION_PAGE_DOWN:
	case ACTION_PAGE_UP:
	case ACTION_TOP:
	case ACTION_BOTTOM:
		ui_move(ui, a->id);
		break;
	case ACTION_NEXT_PANE:
		st->focus = (enum view_pane)((st->focus + 1) % VIEW_PANES);
		ui_dirty(ui, VIEW_DIRTY_ALL);
		break;
	case ACTION_PREV_PANE:
		st->focus = (enum view_pane)((st->focus + VIEW_PANES - 1) % VIEW_PANES);
		ui_dirty(ui, VIEW_DIRTY_ALL);
		break;
	case ACTION_DETAILS:
		if (st->focus == VIEW_PANE_LANES && !ui->layout.too_small &&
		    ui->model->nlanes > 0) {
			st->lane_open = !st->lane_open;
			st->lanes_top = 0;
			ui_dirty(ui, VIEW_DIRTY_ALL);
			break;
		}
		if (ui_selected_test(ui) == NULL) {
			ui_message(ui, false, "%s", _("no flaky test to show yet"));
			break;
		}
		st->focus = VIEW_PANE_DETAIL;
		st->detail_top = 0;
		ui_dirty(ui, VIEW_DIRTY_ALL);
		break;
	case ACTION_BACK:
		if (st->focus == VIEW_PANE_TESTS && st->filter != NULL) {
			ui_filter_apply(ui, NULL);
			ui_message(ui, false, "%s", _("showing every flaky test"));
		} else if (st->focus == VIEW_PANE_LANES && st->lane_open) {
			st->lane_open = false;
			st->lanes_top = 0;
			ui_dirty(ui, VIEW_DIRTY_ALL);
		} else if (st->focus == VIEW_PANE_DETAIL) {
			st->focus = VIEW_PANE_TESTS;
			ui_dirty(ui, VIEW_DIRTY_ALL);
		}
		break;
	case ACTION_FILTER:
		free(ui->filter_before);
		ui->filter_before = st->filter != NULL ? xstrdup(st->filter) : NULL;
		ui->filtering = true;
		ui_ask(ui, PROMPT_LINE, _("show the tests whose id contains:"), st->filter,
		       ui_filter_done);
		break;
	case ACTION_SORT:
		st->sort = (enum view_sort)((st->sort + 1) % VIEW_SORTS);
		ui_visible(ui);
		ui_message(ui, false, "%s",
		           st->sort == VIEW_SORT_RATE ? _("sorted by failure rate, highest first")
		           : st->sort == VIEW_SORT_NAME
		               ? _("sorted by package and test name")
		               : _("sorted as listed: most failures first"));
		ui_dirty(ui, VIEW_DIRTY_ALL);
		break;
	case ACTION_CONFIRM:
		decide_confirm(ui);
		break;
	case ACTION_QUARANTINE:
		decide_quarantine(ui);
		break;
	case ACTION_POST:
		decide_post(ui);
		break;
	case ACTION_DISMISS:
		decide_dismiss(ui);
		break;
	case ACTION_CLOSE_VERIFIED:
		decide_close(ui);
		break;
	case ACTION_UNDO:
		decide_undo(ui);
		break;
	case ACTION_YANK:
		yank_copy(ui);
		break;
	case ACTION_OPEN_LOG:
		yank_open_log(ui);
		break;
	case ACTION_SLIDE_LEFT:
		st->detail_left =
		    st->detail_left > UI_SLIDE_COLS ? st->detail_left - UI_SLIDE_COLS : 0;
		ui_dirty(ui, VIEW_DIRTY_DETAIL);
		break;
	case ACTION_SLIDE_RIGHT:
		if (st->detail_more_right)
			st->detail_left += UI_SLIDE_COLS;
		ui_dirty(ui, VIEW_DIRTY_DETAIL);
		break;
	case ACTION_PAUSE:
		decide_pause(ui);
		break;
	case ACTION_STOP:
		decide_stop(ui);
		break;
	case ACTION_REDRAW:
		clearok(curscr, TRUE);
		ui_dirty(ui, VIEW_DIRTY_ALL);
		break;
	case ACTION_LOG:
		st->overlay = VIEW_OVERLAY_LOG;
		st->overlay_top = 0;
		ui_dirty(ui, VIEW_DIRTY_ALL);
		break;
	case ACTION_HELP:
		st->overlay = VIEW_OVERLAY_HELP;
		st->overlay_top = 0;
		ui_dirty(ui, VIEW_DIRTY_ALL);
		break;
	case ACTION_QUIT:
		decide_quit(ui);
		break;
	case ACTION_NONE:
		break;
	}
}

static const char *
ui_key_name(int key, char *buf, size_t size)
{
	const char *k = keyname(key);

	snprintf(buf, size, "%s", k != NULL ? k : "?");
	return buf;
}

static bool
ui_in_rect(const struct view_rect *r, int y, int x)
{
	return r->h > 0 && y >= r->y && y < r->y + r->h && x >= r->x && x < r->x + r->w;
}

/* A click focuses the pane under it (and selects the test or lane
 * clicked); the wheel scrolls the pane under it by three lines. */
static void
ui_mouse(struct ui *ui)
{
	const struct view_layout *l = &ui->layout;
	struct view_state *st = &ui->st;
	MEVENT ev;
	enum view_pane pane;
	bool wheel;
	int i;

	if (getmouse(&ev) != OK)
		return;
	wheel = (ev.bstate & (BUTTON4_PRESSED | BUTTON5_PRESSED)) != 0;
	if (st->overlay != VIEW_OVERLAY_NONE) {
		for (i = 0; wheel && i < 3; i++)
			ui_move(ui, ev.bstate & BUTTON4_PRESSED ? ACTION_UP : ACTION_DOWN);
		return;
	}
	if (ui_in_rect(&l->lanes, ev.y, ev.x))
		pane = VIEW_PANE_LANES;
	else if (ui_in_rect(&l->tests, ev.y, ev.x))
		pane = VIEW_PANE_TESTS;
	else if (ui_in_rect(&l->detail, ev.y, ev.x))
		pane = VIEW_PANE_DETAIL;
	else if (ui_in_rect(&l->quarantine, ev.y, ev.x))
		pane = VIEW_PANE_QUARANTINE;
	else
		return;
	if (!l->too_small)
		st->focus = pane;
	ui_dirty(ui, VIEW_DIRTY_ALL);
	if (wheel) {
		for (i = 0; i < 3; i++)
			ui_move(ui, ev.bstate & BUTTON4_PRESSED ? ACTION_UP : ACTION_DOWN);
	} else if (pane == VIEW_PANE_TESTS && ev.y > l->tests.y) {
		ui_select(ui, (long)st->list_top + (ev.y - l->tests.y - 1));
	} else if (pane == VIEW_PANE_LANES && ev.y > l->lanes.y && st->lanes_cell_w > 0 &&
	           !st->lane_open) {
		/* A cell: " L0 ... | L1 ...", a space first, " | " between. */
		long row = (long)st->lanes_top + (ev.y - l->lanes.y - 1);
		long lane =
		    row * st->lanes_per_row + (ev.x - l->lanes.x - 1) / (st->lanes_cell_w + 3);

		if (lane >= 0 && lane < ui->model->nlanes)
			st->lane_selected = (int)lane;
	}
}

/* The keys that move, in any pane and in every overlay. */
static bool
ui_moves(const struct action *a)
{
	return a != NULL &&
	       (a->id == ACTION_DOWN || a->id == ACTION_UP || a->id == ACTION_PAGE_DOWN ||
	        a->id == ACTION_PAGE_UP || a->id == ACTION_TOP || a->id == ACTION_BOTTOM);
}

void
ui_keys_dispatch(struct ui *ui, int key)
{
	const struct action *a;
	char name[32];

	ui->error_now = false;
	if (key == KEY_RESIZE) {
		ui_dirty(ui, VIEW_DIRTY_ALL);
		return;
	}
	if (key == KEY_MOUSE) {
		if (!ui->prompt.active && ui->st.overlay != VIEW_OVERLAY_POST)
			ui_mouse(ui);
		return;
	}
	if (ui->prompt.active) {
		prompt_key(&ui->prompt, key);
		if (ui->filtering && ui->prompt.active)
			ui_filter_apply(ui, ui->prompt.text.data);
		/* The hints line comes back when the prompt ends. */
		ui_dirty(ui, ui->prompt.active ? VIEW_DIRTY_STATUS : VIEW_DIRTY_ALL);
		return;
	}
	a = action_for_key(key);
	if (ui->st.overlay != VIEW_OVERLAY_NONE && ui_moves(a)) {
		ui_move(ui, a->id);
		return;
	}
	if (ui->st.overlay == VIEW_OVERLAY_POST) {
		decide_post_key(ui, key);
		return;
	}
	if (ui->st.overlay == VIEW_OVERLAY_HELP || ui->st.overlay == VIEW_OVERLAY_LOG) {
		/* Any other key closes the help or the log. */
		ui->st.overlay = VIEW_OVERLAY_NONE;
		ui_dirty(ui, VIEW_DIRTY_ALL);
		return;
	}
	if (a == NULL) {
		ui_message(ui, false, _("%s does nothing here: ? shows the keys"),
		           ui_key_name(key, name, sizeof name));
		return;
	}
	if (ui->layout.too_small && action_asks(a->id)) {
		ui_message(ui, true, _("%s: too small a terminal to ask; needs %dx%d"),
		           ui_key_name(key, name, sizeof name), VIEW_MIN_COLS, VIEW_MIN_ROWS);
		ui->st.message_small = true;
		return;
	}
	ui_action(ui, a);
}
