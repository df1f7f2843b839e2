/* SPDX-License-Identifier: MIT */
/*
 * ui.c: the dashboard on the loop (see ui.h). Handlers only set dirty
 * bits; one uv_prepare_t draws what is dirty and calls doupdate() once,
 * at most every frame_ms, with a one-shot timer for a frame that has to
 * wait. Keys are read in no-delay mode from a uv_poll_t and mapped through
 * the action table; navigation is here, the deciding actions in decide.c.
 */
#include "config.h"

#include <curses.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "action.h"
#include "results/decisions.h"
#include "engine/sweep.h"
#include "tty.h"
#include "ui-int.h"
#include "base/util.h"

#define UI_FRAME_MS 40
#define UI_TICK_MS 1000
#define UI_SLIDE_COLS 16 /* columns < and > slide the commands by */

static void ui_handle_closed(uv_handle_t *h);

void
ui_config_init(struct ui_config *cfg)
{
	memset(cfg, 0, sizeof *cfg);
	cfg->key_fd = 0;
	cfg->signals = true;
	cfg->colors = -1;
	cfg->utf8 = -1;
}

void
ui_dirty(struct ui *ui, unsigned mask)
{
	ui->dirty |= mask;
}

void
ui_message(struct ui *ui, bool error, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		fatal("%s", _("out of memory"));
	va_end(ap);
	free(ui->st.message);
	ui->st.message = s;
	ui->st.message_error = error;
	ui->st.message_small = false;
	ui->error_now = error;
	ui_dirty(ui, VIEW_DIRTY_STATUS);
}

void
ui_ask(struct ui *ui, enum prompt_kind kind, const char *question, const char *def,
       prompt_done_cb done)
{
	prompt_start(&ui->prompt, kind, question, def, done, ui);
	/* Asked again after an error: the error stays beside the question. */
	if (ui->error_now && ui->st.message != NULL)
		prompt_set_error(&ui->prompt, ui->st.message);
	ui_dirty(ui, VIEW_DIRTY_ALL);
}

const struct model_test *
ui_selected_test(struct ui *ui)
{
	if (ui->st.selected >= ui->nvisible)
		return NULL;
	return &ui->model->tests[ui->visible[ui->st.selected]];
}

bool
ui_usable(int fd, const char **why)
{
	return tty_usable(fd, why);
}

struct model *
ui_model(struct ui *ui)
{
	return ui->model;
}

bool
ui_closed(const struct ui *ui)
{
	return ui->closing;
}

bool
ui_busy(const struct ui *ui)
{
	return ui->editing || ui->post != NULL;
}

/* ---- the frame ---- */

/* Orders two visible tests by the list's sort key, as listed on a tie. */
static int
ui_cmp_visible(const void *a, const void *b, void *arg)
{
	const struct ui *ui = arg;
	size_t ia = *(const size_t *)a, ib = *(const size_t *)b;
	const struct model_test *x = &ui->model->tests[ia], *y = &ui->model->tests[ib];
	int c = 0;

	if (ui->st.sort == VIEW_SORT_RATE) {
		/* (fx / rx) > (fy / ry), without dividing. */
		double l = (double)(x->failures + x->hangs) * (double)(y->runs > 0 ? y->runs : 1);
		double r = (double)(y->failures + y->hangs) * (double)(x->runs > 0 ? x->runs : 1);

		c = l > r ? -1 : l < r;
	} else if (ui->st.sort == VIEW_SORT_NAME) {
		c = strcmp(x->pkg, y->pkg);
		if (c == 0)
			c = strcmp(x->name, y->name);
	}
	return c != 0 ? c : ia < ib ? -1 : ia > ib;
}

/* The tests that pass the filter in the list's order, and the selection
 * kept on the same test when the list changed order. */
static void
ui_visible(struct ui *ui)
{
	const struct model *m = ui->model;
	const char *f = ui->st.filter;
	size_t i;

	free(ui->visible);
	ui->visible = xcalloc(m->ntests + 1, sizeof *ui->visible);
	ui->nvisible = 0;
	for (i = 0; i < m->ntests; i++) {
		if (f == NULL || *f == '\0' || strcasestr(m->tests[i].id, f) != NULL)
			ui->visible[ui->nvisible++] = i;
	}
	if (ui->st.sort != VIEW_SORT_LISTED)
		qsort_r(ui->visible, ui->nvisible, sizeof *ui->visible, ui_cmp_visible, ui);
	if (ui->st.selected_id != NULL) {
		for (i = 0; i < ui->nvisible; i++) {
			if (strcmp(m->tests[ui->visible[i]].id, ui->st.selected_id) == 0) {
				ui->st.selected = i;
				break;
			}
		}
	}
	if (ui->st.selected >= ui->nvisible)
		ui->st.selected = ui->nvisible > 0 ? ui->nvisible - 1 : 0;
	free(ui->st.selected_id);
	ui->st.selected_id =
	    ui->nvisible > 0 ? xstrdup(m->tests[ui->visible[ui->st.selected]].id) : NULL;
}

static bool
ui_same_rect(const struct view_rect *a, const struct view_rect *b)
{
	return a->y == b->y && a->x == b->x && a->h == b->h && a->w == b->w;
}

static bool
ui_same_layout(const struct view_layout *a, const struct view_layout *b)
{
	return a->rows == b->rows && a->cols == b->cols && a->too_small == b->too_small &&
	       a->split == b->split && ui_same_rect(&a->lanes, &b->lanes) &&
	       ui_same_rect(&a->tests, &b->tests) && ui_same_rect(&a->detail, &b->detail) &&
	       ui_same_rect(&a->quarantine, &b->quarantine);
}

/* The window title follows the progress, set only when it changed. */
static void
ui_title(struct ui *ui)
{
	char *text;

	if (ui->title_mode == TITLE_NONE)
		return;
	text = title_text(ui->model);
	if (ui->title_last != NULL && strcmp(text, ui->title_last) == 0) {
		free(text);
		return;
	}
	if (ui->title_last == NULL)
		title_save(ui->cfg.out, ui->title_mode);
	title_write(ui->cfg.out, ui->title_mode, text);
	free(ui->title_last);
	ui->title_last = text;
}

/* The actions that do something now, for the hints line. */
static unsigned
ui_actions_here(const struct ui *ui, const struct view_layout *l)
{
	const struct view_state *st = &ui->st;
	const struct model *m = ui->model;
	enum view_pane focus = l->too_small ? VIEW_PANE_TESTS : st->focus;
	bool test = st->selected < ui->nvisible;
	unsigned a = ACTION_BIT(ACTION_HELP) | ACTION_BIT(ACTION_REDRAW);

	if (st->overlay == VIEW_OVERLAY_POST)
		return 0;
	if (st->overlay != VIEW_OVERLAY_NONE)
		return a | ACTION_BIT(ACTION_BACK);
	a |= ACTION_BIT(ACTION_QUIT) | ACTION_BIT(ACTION_LOG);
	if (!l->too_small)
		a |= ACTION_BIT(ACTION_NEXT_PANE) | ACTION_BIT(ACTION_PREV_PANE);
	if (ui->src.pause != NULL && !m->finished)
		a |= ACTION_BIT(ACTION_PAUSE);
	if ((ui->src.stop != NULL || ui->src.interrupt != NULL) && !m->finished)
		a |= ACTION_BIT(ACTION_STOP);
	if (focus == VIEW_PANE_LANES && m->nlanes > 0 && !m->finished && m->source == MODEL_LIVE)
		a |= ACTION_BIT(st->lane_open ? ACTION_BACK : ACTION_DETAILS);
	if (focus == VIEW_PANE_DETAIL && !l->split)
		a |= ACTION_BIT(ACTION_BACK);
	if (focus != VIEW_PANE_TESTS && focus != VIEW_PANE_DETAIL)
		return a;
	if (m->ntests > 0)
		a |= ACTION_BIT(ACTION_FILTER);
	if (ui->nvisible > 1)
		a |= ACTION_BIT(ACTION_SORT);
	if (!test)
		return a;
	if (focus == VIEW_PANE_TESTS)
		a |= ACTION_BIT(ACTION_DETAILS);
	a |= ACTION_BIT(ACTION_QUARANTINE) | ACTION_BIT(ACTION_POST) | ACTION_BIT(ACTION_DISMISS);
	/* Confirm runs also after the end: the sweep runs again for them. */
	if (ui->src.confirm != NULL)
		a |= ACTION_BIT(ACTION_CONFIRM);
	return a;
}

void
ui_draw(struct ui *ui)
{
	struct view_ctx ctx;
	struct view_layout l;
	unsigned mask;
	int64_t now = util_now_ms();
	long sel;

	if (ui->closing || ui->suspended || ui->dirty == 0)
		return;
	if ((ui->dirty & UI_DIRTY_MODEL) && ui->src.update != NULL) {
		ui->src.update(ui->src.arg, ui->model, now);
		decide_check_confirms(ui);
	}
	if (ui->dirty & (UI_DIRTY_JUDGE | UI_DIRTY_MODEL))
		model_judge_quarantine(ui->model, now);
	ui_visible(ui);
	memset(&ctx, 0, sizeof ctx);
	ctx.d = &ui->draw;
	ctx.m = ui->model;
	ctx.st = &ui->st;
	ctx.now_ms = now;
	ctx.visible = ui->visible;
	ctx.nvisible = ui->nvisible;
	view_layout(&ctx, LINES, COLS, &l);
	ctx.actions = ui_actions_here(ui, &l);
	mask = ui->dirty & VIEW_DIRTY_ALL;
	if (!ui_same_layout(&l, &ui->layout)) {
		mask = VIEW_DIRTY_ALL;
		werase(stdscr);
	}
	sel = view_selected(&ctx);
	if ((mask & VIEW_DIRTY_DETAIL) && sel >= 0 && ui->src.reproduce != NULL)
		ui->src.reproduce(ui->src.arg, ui->model, (size_t)sel, &ctx.repro_flakesweep,
		                  &ctx.repro_direct);
	ui->layout = l;
	view_draw(&ctx, &l, mask);
	wnoutrefresh(stdscr);
	doupdate();
	ui_title(ui);
	ui->dirty = 0;
	ui->last_frame = uv_now(ui->loop);
}

static void
ui_frame_timer_cb(uv_timer_t *t)
{
	ui_draw(t->data);
}

static void
ui_prepare_cb(uv_prepare_t *p)
{
	struct ui *ui = p->data;
	uint64_t now, frame = (uint64_t)ui->cfg.frame_ms;

	if (ui->dirty == 0 || ui->closing || ui->suspended)
		return;
	now = uv_now(ui->loop);
	if (now - ui->last_frame >= frame)
		ui_draw(ui);
	else if (!uv_is_active((uv_handle_t *)&ui->frame_timer))
		uv_timer_start(&ui->frame_timer, ui_frame_timer_cb, frame - (now - ui->last_frame),
		               0);
}

static void
ui_tick_cb(uv_timer_t *t)
{
	struct ui *ui = t->data;
	struct model *m = ui->model;
	struct quarantine *before = m->quarantine;

	if (ui->closing)
		return;
	/* Clocks, countdowns, and files another process may have changed. */
	if (m->quarantine != NULL)
		model_load_quarantine(m, m->quarantine->path, false);
	if (m->quarantine != before)
		ui_dirty(ui, VIEW_DIRTY_TESTS | VIEW_DIRTY_DETAIL);
	if (m->outdir != NULL) {
		char *path = xasprintf("%s/%s", m->outdir, DECISIONS_FILE);
		const char *project = model_decisions_path(m);
		/* Either file changed: read both again. */
		int64_t mt =
		    (int64_t)((uint64_t)util_file_signature(path) * 31u +
		              (uint64_t)(project != NULL ? util_file_signature(project) : 0));

		if (mt != ui->decisions_mtime) {
			ui->decisions_mtime = mt;
			if (model_load_decisions(m) == 0)
				ui_dirty(ui, VIEW_DIRTY_TESTS | VIEW_DIRTY_DETAIL);
		}
		free(path);
	}
	ui_dirty(ui, VIEW_DIRTY_HEADER | VIEW_DIRTY_LANES | VIEW_DIRTY_QUARANTINE | UI_DIRTY_JUDGE);
}

/* ---- keys ---- */

void
ui_select_undecided(struct ui *ui)
{
	size_t i;

	ui_visible(ui);
	for (i = 0; i < ui->nvisible; i++) {
		if (ui->model->tests[ui->visible[i]].undecided) {
			ui->st.selected = i;
			ui->st.detail_top = 0;
			free(ui->st.selected_id);
			ui->st.selected_id = xstrdup(ui->model->tests[ui->visible[i]].id);
			break;
		}
	}
	ui_dirty(ui, VIEW_DIRTY_TESTS | VIEW_DIRTY_DETAIL);
}

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

void
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

void
ui_key(struct ui *ui, int key)
{
	const struct action *a;
	char name[32];

	if (ui->closing || ui->suspended)
		return;
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
	if (ui->st.overlay == VIEW_OVERLAY_POST) {
		decide_post_key(ui, key);
		return;
	}
	a = action_for_key(key);
	if (ui->st.overlay == VIEW_OVERLAY_HELP || ui->st.overlay == VIEW_OVERLAY_LOG) {
		if (a != NULL &&
		    (a->id == ACTION_DOWN || a->id == ACTION_UP || a->id == ACTION_PAGE_DOWN ||
		     a->id == ACTION_PAGE_UP || a->id == ACTION_TOP || a->id == ACTION_BOTTOM)) {
			ui_move(ui, a->id);
			return;
		}
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

static void
ui_keys_cb(uv_poll_t *p, int status, int events)
{
	struct ui *ui = p->data;
	int ch;

	(void)events;
	if (status < 0) {
		/* The terminal is gone: nothing more will come. */
		uv_poll_stop(p);
		return;
	}
	while (!ui->closing && !ui->suspended && (ch = wgetch(stdscr)) != ERR)
		ui_key(ui, ch);
}

char *
ui_screen_text(struct ui *ui, bool roles)
{
	(void)ui;
	return tty_screen_text(roles);
}

/* ---- signals, size ---- */

void
ui_resize(struct ui *ui, int rows, int cols)
{
	if (ui->closing)
		return;
	resizeterm(rows, cols);
	clearok(curscr, TRUE);
	ui_dirty(ui, VIEW_DIRTY_ALL);
}

static void
ui_signal_cb(uv_signal_t *h, int signum)
{
	struct ui *ui = h->data;

	if (signum == SIGWINCH) {
		int rows = LINES, cols = COLS;

		if (ui->suspended)
			return;
		tty_size(fileno(ui->cfg.out), &rows, &cols);
		ui_resize(ui, rows, cols);
		return;
	}
	/* The editor has the terminal and takes Ctrl-C itself. */
	if (signum == SIGINT && ui->editing)
		return;
	ui_quit(ui);
}

/* ---- life ---- */

void
ui_quit(struct ui *ui)
{
	ui->quitting = true;
	if (ui->src.interrupt != NULL && !ui->model->finished && !ui->finished_seen) {
		ui_message(ui, false, "%s", _("stopping the runs in flight..."));
		ui->src.interrupt(ui->src.arg);
		return;
	}
	ui_close(ui);
}

void
ui_suspend(struct ui *ui, bool suspended)
{
	ui->suspended = suspended;
	if (suspended) {
		if (ui->keys_on)
			uv_poll_stop(&ui->keys);
		tty_suspend();
		return;
	}
	tty_resume();
	if (ui->keys_on)
		uv_poll_start(&ui->keys, UV_READABLE, ui_keys_cb);
	ui_dirty(ui, VIEW_DIRTY_ALL);
}

static void
ui_init_handle(struct ui *ui, uv_handle_t *h)
{
	h->data = ui;
	ui->handles++;
}

static void
ui_close_handle(struct ui *ui, uv_handle_t *h)
{
	(void)ui;
	if (!uv_is_closing(h))
		uv_close(h, ui_handle_closed);
}

struct ui *
ui_new(uv_loop_t *loop, const struct ui_config *cfg, enum model_source source, char **err)
{
	struct ui *ui = xcalloc(1, sizeof *ui);
	struct tty_config tc;
	char *qpath;

	*err = NULL;
	ui->loop = loop;
	ui->cfg = *cfg;
	ui->cfg.out = cfg->out != NULL ? cfg->out : stdout;
	ui->cfg.in = cfg->in != NULL ? cfg->in : stdin;
	ui->cfg.frame_ms = cfg->frame_ms > 0 ? cfg->frame_ms : UI_FRAME_MS;
#define UI_DUP(f) ui->cfg.f = cfg->f != NULL ? xstrdup(cfg->f) : NULL
	UI_DUP(term);
	UI_DUP(mode);
	UI_DUP(outdir);
	UI_DUP(quarantine);
	UI_DUP(repo);
	UI_DUP(category);
	UI_DUP(api_url);
#undef UI_DUP
	memset(&tc, 0, sizeof tc);
	tc.out = ui->cfg.out;
	tc.in = ui->cfg.in;
	tc.type = ui->cfg.term;
	tc.handlers = cfg->signals;
	if (tty_start(&tc, err) < 0) {
		ui->free_asked = true;
		ui_free(ui);
		return NULL;
	}
	ui->title_mode = title_mode_for(
	    ui->cfg.out, ui->cfg.term != NULL ? ui->cfg.term : getenv("TERM"), getenv("TMUX"));
	draw_init_detect(&ui->draw, stdscr, cfg->colors, cfg->utf8);
	prompt_init(&ui->prompt);
	ui->st.prompt = &ui->prompt;
	ui->st.mode = ui->cfg.mode;
	ui->st.focus = VIEW_PANE_TESTS;
	ui->decisions_mtime = -1;
	ui->model = model_new(source);
	if (ui->cfg.outdir != NULL) {
		ui->model->outdir = xstrdup(ui->cfg.outdir);
		model_load_decisions(ui->model);
	}
	qpath =
	    ui->cfg.quarantine != NULL ? xstrdup(ui->cfg.quarantine) : quarantine_default_path();
	model_load_quarantine(ui->model, qpath, true);
	free(qpath);

	ui->obs.arg = ui;
	uv_prepare_init(loop, &ui->prepare);
	ui_init_handle(ui, (uv_handle_t *)&ui->prepare);
	uv_prepare_start(&ui->prepare, ui_prepare_cb);
	uv_timer_init(loop, &ui->frame_timer);
	ui_init_handle(ui, (uv_handle_t *)&ui->frame_timer);
	uv_timer_init(loop, &ui->tick);
	ui_init_handle(ui, (uv_handle_t *)&ui->tick);
	uv_timer_start(&ui->tick, ui_tick_cb, UI_TICK_MS, UI_TICK_MS);
	if (cfg->key_fd >= 0 && uv_poll_init(loop, &ui->keys, cfg->key_fd) == 0) {
		ui_init_handle(ui, (uv_handle_t *)&ui->keys);
		ui->keys_on = true;
		uv_poll_start(&ui->keys, UV_READABLE, ui_keys_cb);
	}
	if (cfg->signals) {
		uv_signal_t *sigs[] = {&ui->sig_winch, &ui->sig_int, &ui->sig_term, &ui->sig_hup};
		static const int nums[] = {SIGWINCH, SIGINT, SIGTERM, SIGHUP};
		size_t i;

		for (i = 0; i < UTIL_ARRAY_LEN(sigs); i++) {
			uv_signal_init(loop, sigs[i]);
			ui_init_handle(ui, (uv_handle_t *)sigs[i]);
			uv_signal_start(sigs[i], ui_signal_cb, nums[i]);
			/* The sweep and the keys keep the loop alive, not these. */
			uv_unref((uv_handle_t *)sigs[i]);
		}
		ui->signals_on = true;
	}
	ui->dirty = VIEW_DIRTY_ALL | UI_DIRTY_MODEL | UI_DIRTY_JUDGE;
	return ui;
}

void
ui_set_source(struct ui *ui, const struct ui_source *src)
{
	ui->src = *src;
	ui_dirty(ui, VIEW_DIRTY_ALL | UI_DIRTY_MODEL | UI_DIRTY_JUDGE);
}

void
ui_changed(struct ui *ui)
{
	ui_dirty(ui, VIEW_DIRTY_ALL | UI_DIRTY_MODEL | UI_DIRTY_JUDGE);
}

void
ui_finished(struct ui *ui)
{
	ui->finished_seen = true;
	ui_dirty(ui, VIEW_DIRTY_ALL | UI_DIRTY_MODEL | UI_DIRTY_JUDGE);
	if (ui->quitting)
		ui_close(ui);
}

void
ui_close(struct ui *ui)
{
	if (ui->closing)
		return;
	ui->closing = true;
	decide_cleanup(ui);
	prompt_cancel(&ui->prompt);
	if (ui->title_last != NULL)
		title_restore(ui->cfg.out, ui->title_mode);
	tty_stop();
	ui_close_handle(ui, (uv_handle_t *)&ui->prepare);
	ui_close_handle(ui, (uv_handle_t *)&ui->frame_timer);
	ui_close_handle(ui, (uv_handle_t *)&ui->tick);
	if (ui->keys_on)
		ui_close_handle(ui, (uv_handle_t *)&ui->keys);
	if (ui->signals_on) {
		ui_close_handle(ui, (uv_handle_t *)&ui->sig_winch);
		ui_close_handle(ui, (uv_handle_t *)&ui->sig_int);
		ui_close_handle(ui, (uv_handle_t *)&ui->sig_term);
		ui_close_handle(ui, (uv_handle_t *)&ui->sig_hup);
	}
	if (ui->src.closed != NULL)
		ui->src.closed(ui->src.arg);
}

static void
ui_free_now(struct ui *ui)
{
	model_free(ui->model);
	prompt_free(&ui->prompt);
	free(ui->visible);
	free(ui->st.selected_id);
	free(ui->st.filter);
	free(ui->filter_before);
	free(ui->title_last);
	free(ui->st.message);
	free(ui->act_test);
	free(ui->act_channel);
	free(ui->act_owner);
	free(ui->act_issue);
	decide_free(ui);
	free(ui->yank_test);
	free(ui->post_file);
	free((char *)ui->cfg.term);
	free((char *)ui->cfg.mode);
	free((char *)ui->cfg.outdir);
	free((char *)ui->cfg.quarantine);
	free((char *)ui->cfg.repo);
	free((char *)ui->cfg.category);
	free((char *)ui->cfg.api_url);
	tty_free();
	free(ui);
}

static void
ui_handle_closed(uv_handle_t *h)
{
	struct ui *ui = h->data;

	if (--ui->handles == 0 && ui->free_asked)
		ui_free_now(ui);
}

void
ui_free(struct ui *ui)
{
	if (ui == NULL)
		return;
	ui->free_asked = true;
	if (ui->handles == 0) {
		if (!ui->closing)
			tty_stop();
		ui_free_now(ui);
		return;
	}
	ui_close(ui);
}

/* ---- a live sweep ---- */

static void
ui_live_update(void *arg, struct model *m, int64_t now_ms)
{
	struct ui *ui = arg;

	model_update_live(m, ui->sweep, now_ms);
}

static int
ui_live_confirm(void *arg, const char *test_id, int count)
{
	struct ui *ui = arg;

	return sweep_confirm(ui->sweep, test_id, count);
}

static int
ui_live_pause(void *arg, bool paused)
{
	struct ui *ui = arg;

	if (sweep_phase(ui->sweep) != SWEEP_PHASE_SWEEP &&
	    sweep_phase(ui->sweep) != SWEEP_PHASE_CONFIRM)
		return -EAGAIN;
	sweep_pause(ui->sweep, paused);
	return 0;
}

static void
ui_live_interrupt(void *arg)
{
	struct ui *ui = arg;

	sweep_interrupt(ui->sweep);
}

static void
ui_live_reproduce(void *arg, struct model *m, size_t i, const char **fs, const char **direct)
{
	struct ui *ui = arg;

	model_reproduce(m, ui->sweep, i, fs, direct);
}

static void
ui_obs_phase(void *arg, enum sweep_phase phase)
{
	struct ui *ui = arg;

	/* A sweep that was over runs again (confirm runs): q asks again. */
	if (phase != SWEEP_PHASE_DONE)
		ui->finished_seen = false;
	ui_dirty(ui, VIEW_DIRTY_ALL | UI_DIRTY_MODEL);
}

static void
ui_obs_run_started(void *arg, const struct sweep_run *run)
{
	struct ui *ui = arg;

	(void)run;
	ui_dirty(ui, VIEW_DIRTY_HEADER | VIEW_DIRTY_LANES | UI_DIRTY_MODEL);
}

static void
ui_obs_run_finished(void *arg, const struct sweep_run *run, const struct outcome *o)
{
	struct ui *ui = arg;

	(void)run;
	(void)o;
	ui_dirty(ui, VIEW_DIRTY_HEADER | VIEW_DIRTY_LANES | VIEW_DIRTY_TESTS | VIEW_DIRTY_DETAIL |
	                 UI_DIRTY_MODEL | UI_DIRTY_JUDGE);
}

static void
ui_obs_test_failed_first(void *arg, const struct results_test *t, const struct outcome_test *ot,
                         const struct sweep_run *run)
{
	struct ui *ui = arg;

	/* One message a run: the first test it failed. */
	if (run->id == ui->announced_run)
		return;
	ui->announced_run = run->id;
	ui_message(ui, false, _("new: %s %s at cpu %d load %d (%s run %lld)"), t->id,
	           ot->status == OUTCOME_HANG ? _("hung") : _("failed"), run->cpu, run->load,
	           results_phase_label(run->phase), (long long)run->id);
	model_add_event(ui->model, util_now_ms(), false, ui->st.message);
}

static void
ui_obs_problem(void *arg, enum observer_problem kind, const char *what, const char *text)
{
	struct ui *ui = arg;

	(void)kind;
	(void)what;
	model_add_event(ui->model, util_now_ms(), true, text);
	ui_dirty(ui, VIEW_DIRTY_HEADER | VIEW_DIRTY_OVERLAY | UI_DIRTY_MODEL);
}

static void
ui_obs_message(void *arg, const char *text)
{
	ui_message(arg, false, "%s", text);
}

static void
ui_obs_finished(void *arg)
{
	struct ui *ui = arg;
	struct sweep *s = ui->sweep;

	if (s != NULL && !ui->quitting) {
		int rc = sweep_exit_status(s);

		if (rc == 130)
			ui_message(ui, false,
			           _("the sweep was interrupted: results in %s; "
			             "flakesweep --resume %s continues it; q quits"),
			           sweep_outdir(s), sweep_outdir(s));
		else if (rc == 2)
			ui_message(ui, true,
			           _("the sweep stopped on an error: results in %s; q quits"),
			           sweep_outdir(s));
		else
			ui_message(ui, false, _("the sweep is complete: results in %s; q quits"),
			           sweep_outdir(s));
	}
	ui_finished(ui);
}

const struct observer *
ui_observer(struct ui *ui)
{
	ui->obs.arg = ui;
	ui->obs.phase = ui_obs_phase;
	ui->obs.run_started = ui_obs_run_started;
	ui->obs.run_finished = ui_obs_run_finished;
	ui->obs.test_failed_first = ui_obs_test_failed_first;
	ui->obs.message = ui_obs_message;
	ui->obs.problem = ui_obs_problem;
	ui->obs.finished = ui_obs_finished;
	return &ui->obs;
}

void
ui_attach_sweep(struct ui *ui, struct sweep *s)
{
	struct ui_source src;

	ui->sweep = s;
	if (ui->model->outdir == NULL) {
		ui->model->outdir = xstrdup(sweep_outdir(s));
		model_load_decisions(ui->model);
	}
	memset(&src, 0, sizeof src);
	src.arg = ui;
	src.update = ui_live_update;
	src.confirm = ui_live_confirm;
	src.pause = ui_live_pause;
	src.interrupt = ui_live_interrupt;
	src.reproduce = ui_live_reproduce;
	ui_set_source(ui, &src);
}
