/* SPDX-License-Identifier: MIT */
/*
 * ui.c: the dashboard on the loop (see ui.h): its life (the terminal, the
 * handles, the signals, the 1 Hz tick) and its frames. Handlers only set
 * dirty bits; one uv_prepare_t draws what is dirty and calls doupdate()
 * once, at most every frame_ms, with a one-shot timer for a frame that has
 * to wait. Keys are read in no-delay mode from a uv_poll_t and go to
 * ui-keys.c, which dispatches them to the actions; what an action asks of
 * the loop (quit, the editor, the pager) is carried out here, after it
 * returns, so that no action calls back into the loop.
 */
#include "config.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "action.h"
#include "editor.h"
#include "results/decisions.h"
#include "tty.h"
#include "ui-int.h"
#include "base/util.h"

#define UI_FRAME_MS 40
#define UI_TICK_MS 1000

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
	a |= ACTION_BIT(ACTION_QUARANTINE) | ACTION_BIT(ACTION_POST) | ACTION_BIT(ACTION_DISMISS) |
	     ACTION_BIT(ACTION_CLOSE_VERIFIED);
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

/* ---- keys, and what the actions ask ---- */

static void ui_quit(struct ui *ui);
static void ui_suspend(struct ui *ui, bool suspended);

/* The editor or the pager an action asked for is over: the dashboard
 * takes the terminal back, then the action hears how it ended. */
static void
ui_program_done(void *arg, int status)
{
	struct ui *ui = arg;

	ui->editing = false;
	if (ui->closing)
		return;
	ui_suspend(ui, false);
	ui->next_done(ui, status);
}

/* Carries out what the action of the last key asked (ui_want): quit, or
 * hand the terminal to the editor or the pager. */
static void
ui_carry_out(struct ui *ui)
{
	enum ui_next next = ui->next;
	char *path = ui->next_path;
	int rc;

	ui->next = UI_NEXT_NONE;
	ui->next_path = NULL;
	if (next == UI_NEXT_QUIT) {
		ui_quit(ui);
	} else if (next == UI_NEXT_EDITOR || next == UI_NEXT_PAGER) {
		ui->editing = true;
		ui_suspend(ui, true);
		if (next == UI_NEXT_EDITOR)
			rc = editor_start(ui->loop, path, ui_program_done, ui, &ui->editor_pid);
		else
			rc = editor_start_pager(ui->loop, path, ui_program_done, ui,
			                        &ui->editor_pid);
		if (rc < 0) {
			ui->editing = false;
			ui_suspend(ui, false);
			if (next == UI_NEXT_EDITOR)
				ui_message(ui, true, _("cannot start the editor: %s"),
				           strerror(-rc));
			else
				ui_message(ui, true, _("cannot start the pager: %s"),
				           strerror(-rc));
		}
	}
	free(path);
}

void
ui_key(struct ui *ui, int key)
{
	if (ui->closing || ui->suspended)
		return;
	ui_keys_dispatch(ui, key);
	ui_carry_out(ui);
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

/* Starts closing: interrupts a running sweep first. */
static void
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

/* The editor or the pager has the terminal, or gives it back. */
static void
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
	UI_DUP(verified);
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
	free(ui->next_path);
	free((char *)ui->cfg.term);
	free((char *)ui->cfg.mode);
	free((char *)ui->cfg.outdir);
	free((char *)ui->cfg.quarantine);
	free((char *)ui->cfg.repo);
	free((char *)ui->cfg.category);
	free((char *)ui->cfg.api_url);
	free((char *)ui->cfg.verified);
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
