/* SPDX-License-Identifier: MIT */
/*
 * view.h: the dashboard's panes, each a function of the model and the view
 * state drawn into a rectangle of the screen: the header, the lane grid,
 * the flaky tests, the detail with its heatmaps, the quarantine, the help,
 * the post preview and the status lines. view.c lays them out. Views never
 * change the model and never call the core; the only state they touch is
 * scroll offsets, to keep the selection in sight.
 */
#ifndef FLAKESWEEP_UI_VIEW_H
#define FLAKESWEEP_UI_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "action.h"
#include "doc.h"
#include "draw.h"
#include "model.h"
#include "prompt.h"
#include "engine/bisect.h"
#include "results/compare.h"

/* The full layout needs this much; a smaller terminal shows what fits. */
#define VIEW_MIN_COLS 60
#define VIEW_MIN_ROWS 16
/* From this width the detail stands beside the list. */
#define VIEW_SPLIT_COLS 100

enum view_pane {
	VIEW_PANE_LANES,
	VIEW_PANE_TESTS,
	VIEW_PANE_DETAIL,
	VIEW_PANE_QUARANTINE,
	VIEW_PANES
};

enum view_overlay {
	VIEW_OVERLAY_NONE,
	VIEW_OVERLAY_HELP,
	VIEW_OVERLAY_POST,
	VIEW_OVERLAY_LOG,
};

/* The order of the list: as the model lists it, or by a key. */
enum view_sort {
	VIEW_SORT_LISTED,
	VIEW_SORT_RATE, /* failed and hung runs of all runs, highest first */
	VIEW_SORT_NAME, /* package and test name */
	VIEW_SORTS
};

struct view_rect {
	int y, x, h, w;
};

struct view_layout {
	int rows, cols;
	bool too_small;
	bool split; /* list and detail side by side */
	struct view_rect header, lanes, tests, detail, quarantine, overlay, hints, message;
};

struct view_state {
	enum view_pane focus;
	enum view_overlay overlay;
	size_t selected;   /* into the visible tests */
	char *selected_id; /* keeps the selection when the list is sorted again */
	char *filter;      /* or NULL */
	enum view_sort sort;
	size_t list_top, detail_top, lanes_top, quarantine_top, overlay_top;
	int lane_selected; /* the lane j and k move over while the lanes have focus */
	bool lane_open;    /* the lanes pane lists the selected lane's runs */
	/* The lane grid of the last frame: cells a row and their width, for
	 * the mouse (0 when the pane is not a grid of cells). */
	int lanes_per_row, lanes_cell_w;
	size_t detail_left;     /* columns the detail's commands are slid left */
	bool detail_more_right; /* a command goes on past the right edge */
	/* Rows and lines of the last frame, for paging and clamping. */
	int list_rows, detail_rows, lanes_rows, quarantine_rows, overlay_rows;
	size_t detail_lines, lanes_lines, quarantine_lines, overlay_lines;
	/* The message line. */
	char *message;
	bool message_error;
	bool message_small;          /* says why a key was refused: shown over the too-small note */
	const struct prompt *prompt; /* shown instead of the message while active */
	/* The post preview (borrowed from the post in preparation). */
	const char *post_title, *post_body, *post_repo;
	/* The source's name for the header: "view", or NULL for a live sweep. */
	const char *mode;
};

struct view_ctx {
	struct draw *d;
	const struct model *m;
	struct view_state *st;
	int64_t now_ms;
	const size_t *visible; /* indexes into m->tests that pass the filter */
	size_t nvisible;
	/* The actions that work now (ACTION_BIT of each), for the hints. */
	unsigned actions;
	/* The selected test's reproduce commands (borrowed), or NULL. */
	const char *repro_flakesweep, *repro_direct;
};

/* The selected test's index into m->tests, or -1 when none. */
long view_selected(const struct view_ctx *c);

/* Lays the panes out on a rows x cols screen. */
void view_layout(const struct view_ctx *c, int rows, int cols, struct view_layout *out);

/* Appends a CPU set as the engine writes it ("0,1") the way lanes name
 * cores ("c0,c1"). */
void view_cpuset(struct buf *b, const char *cpuset);

/* A pane's title line: "- Title ----" (focused: "= Title ===="). */
void view_title(struct view_ctx *c, int y, int x, int w, const char *title, bool focused);

/* Each pane draws the whole rectangle r (title line first, then its rows,
 * cleared where it has nothing), the title marked when focused. */

/* The header line: phase, progress, ETA, counts, machine, elapsed. */
void view_header_draw(struct view_ctx *c, const struct view_rect *r);
/* A sweep's end status as the journal writes it ("complete"), translated
 * for people. */
const char *view_header_status(const char *s);
/* The rows the lane overview takes at width w (columns) in the richest
 * form that fits max rows. */
int view_lanes_rows(const struct view_ctx *c, int w, int max);
/* The lane overview, or the selected lane's runs, scrolled by
 * st->lanes_top. */
void view_lanes_draw(struct view_ctx *c, const struct view_rect *r, bool focused);

/* The same for a plan's simulated sweep (view-lanes-plan.c): what each
 * lane carried, lanes sharing cells where one a cell does not fit max. */
int view_lanes_plan_rows(const struct view_ctx *c, int w, int max);
void view_lanes_plan_draw(struct view_ctx *c, const struct view_rect *r, bool focused);
/* The flaky and failing tests that pass the filter, the selection in sight. */
void view_tests_draw(struct view_ctx *c, const struct view_rect *r, bool focused);
/* The selected test in full, scrolled by st->detail_top. */
void view_detail_draw(struct view_ctx *c, const struct view_rect *r, bool focused);
/* The quarantine entries, scrolled by st->quarantine_top. */
void view_quarantine_draw(struct view_ctx *c, const struct view_rect *r, bool focused);
/* The rows the quarantine pane wants (title included). */
int view_quarantine_rows(const struct view_ctx *c);
/* The help overlay, scrolled by st->overlay_top. */
void view_help_draw(struct view_ctx *c, const struct view_rect *r);
/* The event log overlay, scrolled by st->overlay_top. */
void view_log_draw(struct view_ctx *c, const struct view_rect *r);
/* Builds the event log (for the overlay and its test). */
void view_log_doc(const struct view_ctx *c, struct doc *doc);
/* Draws doc (freed) wrapped in an overlay's rectangle below its title,
 * scrolled by st->overlay_top. */
void view_overlay_doc(struct view_ctx *c, const struct view_rect *r, struct doc *doc);
/* The post preview overlay (st->post_*), scrolled by st->overlay_top. */
void view_post_draw(struct view_ctx *c, const struct view_rect *r);
/* The hints line and the message line (prompt, message or size note). */
void view_status_draw(struct view_ctx *c, const struct view_layout *l);

/* A test's mini heatmap: one glyph per pair (cpus by loads, a space
 * between cpus), coloured by rate, sweep and confirm together. Returns its
 * width; draws nothing when maxw is too small. */
int view_heatmap_mini(struct view_ctx *c, int y, int x, int maxw, const struct results_test *t);
/* The mini heatmap's width for the model's pairs. */
int view_heatmap_mini_width(const struct model *m);
/* Appends the full heatmaps of t (one table per phase that has cells:
 * counts, rate and 95% interval per cell, as much as width allows) to
 * doc. The intervals are anytime-valid (base/confseq.h), said under the
 * tables, for results still watched; else fixed-sample Wilson intervals,
 * the report's. */
void view_heatmap_table(const struct view_ctx *c, struct doc *doc, const struct results_test *t,
                        int width, bool anytime);

/* Builds the help text from the action table (for the help view and its
 * test). */
void view_help_doc(struct doc *doc);

/* compare's board: the tests with their verdicts, the selected test's
 * before and after heatmaps side by side (view-compare.c). */
struct view_compare {
	const struct compare *cmp;    /* borrowed */
	const struct results *before; /* borrowed */
	const struct results *after;  /* borrowed */
	const char *before_name, *after_name;
	size_t selected, list_top;
};

/* Draws compare's board on the whole rows x cols screen. c->m holds the
 * cpus and loads of both sides (the heatmaps' rows and columns). */
void view_compare_draw(struct view_ctx *c, struct view_compare *vc, int rows, int cols);

/* bisect's board: the range, every commit with its verdict, runs and
 * failures, the one being probed (view-bisect.c). */
struct view_bisect {
	const char *test;
	struct bisect b; /* a copy of the bisect's last event */
	long probing;    /* the commit being probed, or -1 */
	bool listed, finished;
	size_t top;
};

/* Draws bisect's board on the whole rows x cols screen. */
void view_bisect_draw(struct view_ctx *c, struct view_bisect *vb, int rows, int cols);

/* A hints line in r: the first key and the label of each action of the
 * table that has a label, most needed first, only those whose id is in
 * only (nonly of them) unless only is NULL. */
void view_hints_draw(struct view_ctx *c, const struct view_rect *r, const int *only, size_t nonly);

/* Moves the position *at (a selection or a scroll offset) by the
 * movement action a (down, up, page down and up by page, top, bottom), at
 * most to max; other actions leave it. */
void view_move(size_t *at, enum action_id a, size_t page, size_t max);

/* What a frame must draw again. */
enum view_dirty {
	VIEW_DIRTY_HEADER = 1 << 0,
	VIEW_DIRTY_LANES = 1 << 1,
	VIEW_DIRTY_TESTS = 1 << 2,
	VIEW_DIRTY_DETAIL = 1 << 3,
	VIEW_DIRTY_QUARANTINE = 1 << 4,
	VIEW_DIRTY_STATUS = 1 << 5,
	VIEW_DIRTY_OVERLAY = 1 << 6,
	VIEW_DIRTY_ALL = (1 << 7) - 1,
};

/* Draws the panes of layout l that mask (VIEW_DIRTY_* bits) names; an
 * overlay, when one is up, stands for the panes under it. */
void view_draw(struct view_ctx *c, const struct view_layout *l, unsigned mask);

#endif
