/* SPDX-License-Identifier: MIT */
/*
 * ui-int.h: the dashboard's state and its files' interfaces, inside ui/.
 * The calls go one way: the loop (ui.c) hands keys to ui-keys.c, which
 * dispatches them to the actions (decide.c, decide-post.c, yank.c); the
 * loop and the actions both use the shared state (ui-state.c); no action
 * calls back into the loop, and tests/sh/layout.sh checks it. An action
 * that needs the loop (to quit, to give the terminal to the editor or the
 * pager) says so with ui_want(), and the loop does it when the action
 * returns. Nothing outside ui/ includes it.
 */
#ifndef FLAKESWEEP_UI_UI_INT_H
#define FLAKESWEEP_UI_UI_INT_H

#include <sys/types.h>

#include "action.h"
#include "draw.h"
#include "editor.h"
#include "model.h"
#include "prompt.h"
#include "title.h"
#include "ui.h"
#include "view.h"

struct post;
struct post_draft;

/* A decision u can take back. */
struct ui_undo {
	char *test;
	char *path;    /* the decisions file it went to */
	char *qpath;   /* Q: the quarantine file the entry went to, else NULL */
	bool qcreated; /* Q: the entry created that file */
};

/* Confirm runs queued for test: recorded once its confirm runs reach
 * runs. */
struct ui_confirm {
	char *test;
	int64_t runs;
};

/* Dirty bits beyond the views': the model must be refreshed. */
#define UI_DIRTY_MODEL (1u << 8)
#define UI_DIRTY_JUDGE (1u << 9) /* quarantine statuses, from the results */

/* What an action asks of the loop, done once the action returns. */
enum ui_next {
	UI_NEXT_NONE,
	UI_NEXT_QUIT,   /* stop the runs in flight, then close */
	UI_NEXT_EDITOR, /* hand the terminal to $EDITOR on a file */
	UI_NEXT_PAGER,  /* hand it to $PAGER on a file */
};

struct ui {
	uv_loop_t *loop;
	struct ui_config cfg; /* strings owned */
	struct observer obs;
	struct ui_source src;
	struct sweep *sweep; /* a live sweep, or NULL */

	uv_poll_t keys;
	uv_signal_t sig_winch, sig_int, sig_term, sig_hup;
	uv_prepare_t prepare;
	uv_timer_t frame_timer, tick;
	int handles;     /* initialised and not yet closed */
	bool keys_on;    /* keys is initialised */
	bool signals_on; /* the signal handles are */
	bool closing, free_asked;

	struct draw draw;
	struct model *model;
	struct view_state st;
	struct view_layout layout;
	size_t *visible;
	size_t nvisible;
	unsigned dirty;
	uint64_t last_frame; /* uv_now of the last frame */
	bool suspended;      /* the editor has the terminal */
	bool quitting;       /* quit asked: close once the sweep is over */
	bool finished_seen;
	int64_t announced_run;   /* the run whose first new failure the status line told */
	int64_t decisions_mtime; /* decisions.json as last read, to see other writers */
	bool error_now;          /* an error was shown since the last key */

	struct prompt prompt;
	/* The decision being taken, between prompts. */
	char *act_test;
	char *act_channel, *act_owner, *act_issue;
	/* The decisions taken here, last on top, for u. */
	struct ui_undo *undo;
	size_t nundo;
	/* Confirm runs queued and not yet run: recorded as confirmed once
	 * they have. */
	struct ui_confirm *confirms;
	size_t nconfirms;
	/* y: the test copied last and what y copies next for it. */
	char *yank_test;
	int yank_next;
	/* The post in preparation or in flight. */
	struct post_draft *draft;
	struct post *post;
	char *post_file;
	/* What the post of act_test continues with once it has a URL (the
	 * quarantine dialog that asked for it), or NULL. */
	void (*after_post)(struct ui *ui, const char *url);
	bool editing;
	pid_t editor_pid;
	/* The filter as it was before / began, back on Esc: the list follows
	 * the text while it is typed. */
	bool filtering;
	char *filter_before;
	/* The window title: how it is set, and the last text set. */
	enum title_mode title_mode;
	char *title_last;
	/* What the action of the last key asked of the loop (ui_want), and
	 * for a program, its file and what to call when it exits. */
	enum ui_next next;
	char *next_path;
	editor_done_cb next_done;
};

/* ui-state.c: the state the loop and the actions share. */

/* Marks parts of the screen (VIEW_DIRTY_*, UI_DIRTY_*) to redraw. */
void ui_dirty(struct ui *ui, unsigned mask);
/* ui_message() is in ui.h. Asks question on the message line; done gets
 * the answer. An error shown since the last key stays beside it. */
void ui_ask(struct ui *ui, enum prompt_kind kind, const char *question, const char *def,
            prompt_done_cb done);
/* The selected test, or NULL when the list is empty. */
const struct model_test *ui_selected_test(struct ui *ui);
/* Lists the tests that pass the filter, in the list's order, keeping the
 * selection on its test. */
void ui_visible(struct ui *ui);
/* Selects the first test that needs a decision, if any. */
void ui_select_undecided(struct ui *ui);
/* Asks the loop to do next once the action returns: UI_NEXT_QUIT (path
 * and done NULL), or UI_NEXT_EDITOR or UI_NEXT_PAGER on path (copied),
 * the terminal given back before done is called with the program's exit
 * status (editor_done_cb); the loop says itself when it cannot start. */
void ui_want(struct ui *ui, enum ui_next next, const char *path, editor_done_cb done);

/* ui-keys.c: one key (the loop has checked it may take keys). */
void ui_keys_dispatch(struct ui *ui, int key);

/* decide.c: the actions that decide, each on the selected test. */
void decide_confirm(struct ui *ui);
void decide_quarantine(struct ui *ui);
void decide_dismiss(struct ui *ui);
void decide_pause(struct ui *ui);
void decide_stop(struct ui *ui);
void decide_quit(struct ui *ui);
/* u: takes back the last decision recorded here, and the quarantine entry
 * it added. */
void decide_undo(struct ui *ui);
/* Records confirmed for the tests whose queued confirm runs have run
 * (called after each model update). */
void decide_check_confirms(struct ui *ui);
/* Frees the undo stack and the queued confirms. */
void decide_free(struct ui *ui);

/* decide-record.c: what the deciding keys share. */
/* The selected test, remembered in act_test for the questions that
 * follow; NULL with a message when there is none. */
const struct model_test *decide_begin(struct ui *ui);
/* Records a decision in the decisions file (model_decisions_path, else
 * the output directory's), remembers it for u and shows it. Returns 0 or
 * a negative errno, said on the message line. */
int decide_record_decision(struct ui *ui, const struct decision *d);
/* decide_record_decision without a channel. */
int decide_record(struct ui *ui, const char *test, const char *decision, const char *url,
                  const char *reason);

/* decide-post.c: p, and the keys of the post's preview. A post that
 * ends with a URL (posted, or an open report found) calls after_post
 * with it; one that ends without clears it. */
void decide_post(struct ui *ui);
/* A key while the post's preview is shown (the keys that scroll it are
 * taken before). */
void decide_post_key(struct ui *ui, int key);
/* Drops a post in preparation, cancels one in flight and ends the editor
 * or the pager. */
void decide_cleanup(struct ui *ui);

/* decide-close.c: V, the verified close of the selected test's
 * discussion, then its quarantine entries removed when confirmed. */
void decide_close(struct ui *ui);

/* yank.c: y copies the selected test's next fact (OSC 52), o opens its
 * first failure's log in $PAGER. */
void yank_copy(struct ui *ui);
void yank_open_log(struct ui *ui);

#endif
