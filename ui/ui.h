/* SPDX-License-Identifier: MIT */
/*
 * ui.h: the live dashboard (DESIGN section 6): the curses front end of a
 * sweep running in this process (--ui full), or of a journal read back
 * (`flakesweep view DIR`). It runs on the sweep's libuv loop: keys through
 * a uv_poll_t on the terminal, SIGWINCH and the quit signals through
 * uv_signal_t, a frame drawn at most every frame_ms when something is
 * dirty, a 1 Hz tick for the clocks. It reads the sweep through a model
 * and drives it only through the commands of a source.
 */
#ifndef FLAKESWEEP_UI_UI_H
#define FLAKESWEEP_UI_UI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <uv.h>

#include "model.h"
#include "engine/observer.h"

struct ui;
struct sweep;

/* Where the model comes from and where commands go. A live sweep's source
 * is set up by ui_attach_sweep(); `view` and the tests bring their own. */
struct ui_source {
	void *arg;
	/* Refreshes m (it may borrow the source's results) at now_ms. */
	void (*update)(void *arg, struct model *m, int64_t now_ms);
	/* Commands; a NULL member is one this source cannot do (a view has no
	 * runs to pause). Each returns 0 or a negative errno. */
	int (*confirm)(void *arg, const char *test_id, int count);
	int (*pause)(void *arg, bool paused);
	/* Stops the sweep; it reports its end later through ui_finished(). */
	void (*interrupt)(void *arg);
	/* Stops a sweep running elsewhere (S); quitting never does. */
	void (*stop)(void *arg);
	/* The reproduce commands of m->tests[i], borrowed until the next call. */
	void (*reproduce)(void *arg, struct model *m, size_t i, const char **flakesweep,
	                  const char **direct);
	/* The dashboard closed (the user quit): the source may stop its own
	 * handles. Optional. */
	void (*closed)(void *arg);
};

struct ui_config {
	FILE *out, *in;         /* the terminal (NULL: stdout and stdin) */
	const char *term;       /* its type (NULL: $TERM) */
	int key_fd;             /* the fd to read keys from, or -1: keys come from ui_key() only */
	bool signals;           /* handle SIGWINCH, SIGINT, SIGTERM and SIGHUP, and crashes */
	int colors;             /* an enum draw_colors, or -1: by NO_COLOR and the terminal */
	int utf8;               /* 1 UTF-8 glyphs, 0 ASCII, -1: by the locale */
	int frame_ms;           /* least time between two frames (ms); 0: 40 */
	const char *mode;       /* "view" for a journal read back; NULL for a live sweep */
	const char *outdir;     /* the sweep's output directory (decisions.json, results.json) */
	const char *quarantine; /* the quarantine file; NULL: the default */
	const char *repo;       /* posting: OWNER/NAME, or NULL: the origin remote */
	const char *category;   /* posting: the discussion category, or NULL: Bugs */
	const char *api_url;    /* posting: the GraphQL endpoint, or NULL */
	const char *verified;   /* V: verify -o's directory (verify.json), or NULL: outdir's */
};

/* Fills cfg with the defaults: stdout and stdin, keys from fd 0, signals
 * on, colours and glyphs detected. */
void ui_config_init(struct ui_config *cfg);

/* Starts the dashboard on loop: takes the terminal and draws the first
 * frame at the first loop iteration. cfg's strings are copied. Returns
 * NULL with *err (caller frees) when the terminal cannot be used. */
struct ui *ui_new(uv_loop_t *loop, const struct ui_config *cfg, enum model_source source,
                  char **err);

/* Sets the source (copied). */
void ui_set_source(struct ui *ui, const struct ui_source *src);

/* The observer to give sweep_new(); valid while ui lives. */
const struct observer *ui_observer(struct ui *ui);

/* Makes the live sweep s (borrowed; it must outlive the loop run) the
 * source. */
void ui_attach_sweep(struct ui *ui, struct sweep *s);

/* The source changed (a view's journal grew): refresh and redraw. */
void ui_changed(struct ui *ui);

/* The source's sweep is over (the observer calls it for a live sweep). If
 * the user asked to quit, the dashboard closes. */
void ui_finished(struct ui *ui);

/* One key, as wgetch() returns it. The loop reads keys itself; tests call
 * this between frames, when ui_busy() is false. */
void ui_key(struct ui *ui, int key);

/* Draws a frame now if anything is dirty (the loop paces frames itself;
 * tests call it to get the screen of the keys so far). */
void ui_draw(struct ui *ui);

/* The terminal is now rows x cols (SIGWINCH does it for a real one). */
void ui_resize(struct ui *ui, int rows, int cols);

/* A message for the message line (printf format), an error or not. */
void ui_message(struct ui *ui, bool error, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Whether the dashboard waits for something a key script should not
 * overtake: the editor or a post in flight. */
bool ui_busy(const struct ui *ui);

/* Whether the user quit (or a signal asked to): the terminal is restored
 * and the handles are closing. */
bool ui_closed(const struct ui *ui);

/* The screen as drawn: its rows as UTF-8 text, trailing spaces cut, each
 * ending in a newline (for golden screens). With roles, each row is
 * followed by a row that names each cell's role by a letter (A for the
 * role after DRAW_NORMAL, and so on, when colours are on; r, b, d, u for
 * reverse, bold, dim and underline without them; a space for none).
 * Caller frees. */
char *ui_screen_text(struct ui *ui, bool roles);

/* The model drawn (for tests). */
struct model *ui_model(struct ui *ui);

/* Restores the terminal and closes the handles (idempotent); the loop then
 * runs out once the source's own handles are closed. */
void ui_close(struct ui *ui);

/* Frees ui: now when its handles are closed, else in the last close
 * callback (run the loop). NULL is a no-op. */
void ui_free(struct ui *ui);

/* Whether --ui auto should choose the dashboard for this stdout: a
 * terminal whose TERM is set and not dumb. *why (static, translated) says
 * why not. */
bool ui_usable(int fd, const char **why);

#endif
