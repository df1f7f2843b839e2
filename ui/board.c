/* SPDX-License-Identifier: MIT */
/*
 * board.c: the boards of compare and bisect (see board.h). A board is
 * drawn whole after each key or event: its content is small and changes
 * only then. bisect's events come while a probe's sweep holds the
 * process, so the board draws at once instead of on a loop; each event
 * copies what it shows, so the board never keeps the bisect's memory.
 */
#include "config.h"

#include <curses.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "action.h"
#include "board.h"
#include "tty.h"
#include "view.h"
#include "base/util.h"

enum board_kind {
	BOARD_COMPARE,
	BOARD_BISECT,
};

struct board {
	enum board_kind kind;
	struct draw draw;
	struct view_state st;
	struct model *pairs; /* the cpus and loads the heatmaps show */
	struct view_compare vc;
	struct view_bisect vb;
	char *before_name, *after_name, *test;
	struct bisect_observer obs;
	bool quit, help;
};

static volatile sig_atomic_t board_signalled;

void
board_config_init(struct board_config *cfg)
{
	memset(cfg, 0, sizeof *cfg);
	cfg->handlers = true;
	cfg->colors = -1;
	cfg->utf8 = -1;
}

static struct board *
board_new(const struct board_config *cfg, enum board_kind kind, char **err)
{
	struct board *b = xcalloc(1, sizeof *b);
	struct tty_config tc = {cfg->out != NULL ? cfg->out : stdout,
	                        cfg->in != NULL ? cfg->in : stdin, cfg->term, cfg->handlers};

	*err = NULL;
	if (tty_start(&tc, err) < 0) {
		free(b);
		return NULL;
	}
	draw_init_detect(&b->draw, stdscr, cfg->colors, cfg->utf8);
	b->kind = kind;
	b->pairs = model_new(MODEL_VIEW);
	b->vb.probing = -1;
	return b;
}

/* Adds v to the sorted set *set of *n values. */
static void
board_add_value(int **set, int *n, int v)
{
	int i = 0;

	while (i < *n && (*set)[i] < v)
		i++;
	if (i < *n && (*set)[i] == v)
		return;
	*set = xrealloc(*set, sizeof **set * (size_t)(*n + 1));
	memmove(*set + i + 1, *set + i, sizeof **set * (size_t)(*n - i));
	(*set)[i] = v;
	(*n)++;
}

/* Every cpu and load of r's cells into the model the heatmaps read. */
static void
board_add_pairs(struct model *m, const struct results *r)
{
	size_t i;
	int k;

	for (i = 0; r != NULL && i < r->ntests; i++) {
		for (k = 0; k < r->tests[i].ncells; k++) {
			board_add_value(&m->cpus, &m->ncpus, r->tests[i].cells[k].cpu);
			board_add_value(&m->loads, &m->nloads, r->tests[i].cells[k].load);
		}
	}
}

static void
board_draw(struct board *b)
{
	struct view_ctx c = {&b->draw, b->pairs, &b->st, util_now_ms(), NULL, 0, 0, NULL, NULL};
	int rows, cols;

	getmaxyx(stdscr, rows, cols);
	werase(stdscr);
	if (b->help) {
		static const int hints[] = {ACTION_BACK, ACTION_QUIT};
		struct view_rect r = {0, 0, rows - 1, cols}, hint = {rows - 1, 0, 1, cols};

		if (rows > 2) {
			view_help_draw(&c, &r);
			view_hints_draw(&c, &hint, hints, UTIL_ARRAY_LEN(hints));
		}
	} else if (b->kind == BOARD_COMPARE) {
		view_compare_draw(&c, &b->vc, rows, cols);
	} else {
		view_bisect_draw(&c, &b->vb, rows, cols);
	}
	wnoutrefresh(stdscr);
	doupdate();
}

struct board *
board_new_compare(const struct board_config *cfg, const struct compare *c,
                  const struct results *before, const struct results *after,
                  const char *before_name, const char *after_name, char **err)
{
	struct board *b = board_new(cfg, BOARD_COMPARE, err);

	if (b == NULL)
		return NULL;
	b->before_name = xstrdup(before_name);
	b->after_name = xstrdup(after_name);
	b->vc.cmp = c;
	b->vc.before = before;
	b->vc.after = after;
	b->vc.before_name = b->before_name;
	b->vc.after_name = b->after_name;
	board_add_pairs(b->pairs, before);
	board_add_pairs(b->pairs, after);
	board_draw(b);
	return b;
}

/* Copies the bisect's state of the event into the board. */
static void
board_bisect_copy(struct board *b, const struct bisect *from)
{
	struct bisect *to = &b->vb.b;
	size_t i;

	bisect_free(to);
	to->commits = xcalloc(from->ncommits + 1, sizeof *to->commits);
	for (i = 0; i < from->ncommits; i++) {
		to->commits[i] = from->commits[i];
		to->commits[i].sha = xstrdup(from->commits[i].sha);
		to->commits[i].subject = xstrdup(from->commits[i].subject);
	}
	to->ncommits = from->ncommits;
	to->lo = from->lo;
	to->hi = from->hi;
	b->vb.listed = true;
}

static void
board_bisect_listed(void *arg, const struct bisect *bi)
{
	struct board *b = arg;

	board_bisect_copy(b, bi);
	board_draw(b);
}

static void
board_bisect_probing(void *arg, const struct bisect *bi, size_t i)
{
	struct board *b = arg;

	board_bisect_copy(b, bi);
	b->vb.probing = (long)i;
	board_draw(b);
}

static void
board_bisect_probed(void *arg, const struct bisect *bi, size_t i)
{
	struct board *b = arg;

	(void)i;
	board_bisect_copy(b, bi);
	b->vb.probing = -1;
	board_draw(b);
}

struct board *
board_new_bisect(const struct board_config *cfg, const char *test, char **err)
{
	struct board *b = board_new(cfg, BOARD_BISECT, err);

	if (b == NULL)
		return NULL;
	b->test = xstrdup(test);
	b->vb.test = b->test;
	b->obs.arg = b;
	b->obs.listed = board_bisect_listed;
	b->obs.probing = board_bisect_probing;
	b->obs.probed = board_bisect_probed;
	board_draw(b);
	return b;
}

const struct bisect_observer *
board_bisect_observer(struct board *b)
{
	return &b->obs;
}

void
board_bisect_finished(struct board *b)
{
	b->vb.finished = true;
	b->vb.probing = -1;
	board_draw(b);
}

/* The index of the last of n items (0 when none). */
static size_t
board_last(size_t n)
{
	return n > 0 ? n - 1 : 0;
}

void
board_key(struct board *b, int key)
{
	const struct action *a = action_for_key(key);
	size_t page = (size_t)(LINES > 10 ? LINES / 3 : 3);

	if (key == KEY_RESIZE) {
		board_draw(b);
		return;
	}
	if (a == NULL)
		return;
	switch (a->id) {
	case ACTION_DOWN:
	case ACTION_UP:
	case ACTION_PAGE_DOWN:
	case ACTION_PAGE_UP:
	case ACTION_TOP:
	case ACTION_BOTTOM:
		if (b->help)
			view_move(&b->st.overlay_top, a->id, page, b->st.overlay_lines);
		else if (b->kind == BOARD_COMPARE)
			view_move(&b->vc.selected, a->id, page, board_last(b->vc.cmp->ntests));
		else
			view_move(&b->vb.top, a->id, page, board_last(b->vb.b.ncommits));
		break;
	case ACTION_HELP:
		b->help = !b->help;
		b->st.overlay_top = 0;
		break;
	case ACTION_BACK:
		b->help = false;
		break;
	case ACTION_REDRAW:
		clearok(curscr, TRUE);
		break;
	case ACTION_QUIT:
		b->quit = true;
		break;
	default:
		/* The sweep's actions mean nothing here. */
		return;
	}
	board_draw(b);
}

bool
board_quit(const struct board *b)
{
	return b->quit;
}

void
board_resize(struct board *b, int rows, int cols)
{
	resizeterm(rows, cols);
	clearok(curscr, TRUE);
	board_draw(b);
}

static void
board_signal(int signum)
{
	board_signalled = signum;
}

int
board_run(struct board *b)
{
	static const int signums[] = {SIGINT, SIGTERM, SIGHUP};
	struct sigaction sa, old[UTIL_ARRAY_LEN(signums)];
	size_t i;
	int ch;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = board_signal;
	sigemptyset(&sa.sa_mask);
	board_signalled = 0;
	for (i = 0; i < UTIL_ARRAY_LEN(signums); i++)
		sigaction(signums[i], &sa, &old[i]);
	nodelay(stdscr, FALSE);
	while (!b->quit && board_signalled == 0) {
		errno = 0;
		ch = wgetch(stdscr);
		if (ch == ERR && errno != EINTR)
			break; /* the terminal is gone */
		if (ch != ERR)
			board_key(b, ch);
	}
	for (i = 0; i < UTIL_ARRAY_LEN(signums); i++)
		sigaction(signums[i], &old[i], NULL);
	return board_signalled != 0 ? 130 : 0;
}

char *
board_screen_text(struct board *b, bool roles)
{
	(void)b;
	return tty_screen_text(roles);
}

void
board_free(struct board *b)
{
	if (b == NULL)
		return;
	tty_stop();
	tty_free();
	bisect_free(&b->vb.b);
	model_free(b->pairs);
	free(b->before_name);
	free(b->after_name);
	free(b->test);
	free(b);
}
