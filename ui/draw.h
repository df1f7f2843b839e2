/* SPDX-License-Identifier: MIT */
/*
 * draw.h: the dashboard's drawing primitives: roles (what a piece of text
 * is, mapped to colours for 256, 8 or no colours), glyphs (UTF-8 blocks or
 * an ASCII fallback) and text output that can never send a control
 * sequence to the terminal. Every byte the views draw goes through
 * draw_text(); nothing here knows about tests or lanes.
 */
#ifndef FLAKESWEEP_UI_DRAW_H
#define FLAKESWEEP_UI_DRAW_H

#include <curses.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What a piece of text is; draw_init() maps each to attributes. */
enum draw_role {
	DRAW_NORMAL,
	DRAW_HEADER,      /* the header line */
	DRAW_TITLE,       /* a pane's title line */
	DRAW_TITLE_FOCUS, /* the focused pane's title line */
	DRAW_SELECTED,    /* the selected row of a list */
	DRAW_DIM,         /* secondary text */
	DRAW_BOLD,
	DRAW_OK,
	DRAW_WARN,
	DRAW_BAD,
	DRAW_KEY,     /* a key name in the hints line and the help */
	DRAW_MESSAGE, /* the message line */
	DRAW_ERROR,   /* an error in the message line */
	DRAW_PROMPT,  /* a question in the message line */
	/* Heatmap levels, from no runs through clean to a high rate. */
	DRAW_HEAT_NONE,
	DRAW_HEAT_CLEAN,
	DRAW_HEAT_1, /* under 1% */
	DRAW_HEAT_2, /* under 5% */
	DRAW_HEAT_3, /* under 20% */
	DRAW_HEAT_4, /* under 50% */
	DRAW_HEAT_5, /* 50% and over */
	DRAW_ROLES
};

enum draw_colors {
	DRAW_COLORS_NONE,
	DRAW_COLORS_8,
	DRAW_COLORS_256,
};

enum draw_glyph {
	DRAW_GLYPH_HEAT_NONE, /* a pair without runs */
	DRAW_GLYPH_HEAT_CLEAN,
	DRAW_GLYPH_HEAT_LOW, /* levels 1-2 */
	DRAW_GLYPH_HEAT_MID, /* levels 3-4 */
	DRAW_GLYPH_HEAT_HIGH,
	DRAW_GLYPH_BAR_DONE, /* progress bar */
	DRAW_GLYPH_BAR_TODO,
	DRAW_GLYPH_SLOT_BUSY, /* a run pinned to a core */
	DRAW_GLYPH_SLOT_FREE,
	DRAW_GLYPH_VLINE, /* pane separator */
	DRAW_GLYPH_ELLIPSIS,
	DRAW_GLYPHS
};

struct draw {
	WINDOW *win;
	enum draw_colors colors;
	bool utf8;
	attr_t attr[DRAW_ROLES];
	short pair[DRAW_ROLES];
};

/* Sets up d to draw on win (borrowed) with the given colour mode (which
 * needs start_color() done when not NONE) and glyph set. */
void draw_init(struct draw *d, WINDOW *win, enum draw_colors colors, bool utf8);

/* draw_init() with colors an enum draw_colors, or -1: by NO_COLOR and the
 * terminal (never more than it has), and utf8 1 for UTF-8 glyphs, 0 for
 * ASCII, -1: by the locale. */
void draw_init_detect(struct draw *d, WINDOW *win, int colors, int utf8);

/* The colour mode for this terminal: NONE when NO_COLOR is set and not
 * empty or the terminal has no colours, 256 when it has that many, else 8.
 * Call after initscr()/newterm(). */
enum draw_colors draw_detect_colors(void);

/* Draws the text s (UTF-8; any bytes) at (y, x) in at most maxw columns
 * with role's attributes, and returns the columns used. s is sanitised
 * first (sanitize_text: no escape or control sequence survives), then each
 * remaining character that is not printable is dropped, tabs and newlines
 * become spaces, and without UTF-8 every non-ASCII character becomes '?'.
 * A text cut short ends in an ellipsis when ellipsis is true. */
int draw_text(struct draw *d, int y, int x, int maxw, const char *s, enum draw_role role,
              bool ellipsis);

/* The columns s takes when drawn by draw_text() (same rules, no limit). */
int draw_width(const struct draw *d, const char *s);

/* Steps *p over one character of already sanitised text (NUL-terminated)
 * and returns the columns draw_text() gives it, or -1 when it drops it. */
int draw_step(const struct draw *d, const char **p);

/* Fills n columns from (y, x) with the character c (ASCII) in role. */
void draw_fill(struct draw *d, int y, int x, int n, char c, enum draw_role role);

/* Fills n columns with a glyph. */
void draw_glyph_fill(struct draw *d, int y, int x, int n, enum draw_glyph g, enum draw_role role);

/* The glyph's UTF-8 or ASCII text (one column). */
const char *draw_glyph(const struct draw *d, enum draw_glyph g);

/* The heat role of bad (failures + hangs) in runs: HEAT_NONE without
 * runs, HEAT_CLEAN without a failure, then by rate. */
enum draw_role draw_heat_role(int64_t runs, int64_t bad);

/* The mini-heatmap glyph for a heat role. */
enum draw_glyph draw_heat_glyph(enum draw_role heat);

/* Formats n with thousands separators ("1,234") into out. */
void draw_count(int64_t n, char *out, size_t size);

/* Formats a duration in seconds as "0:03", "12:04" or "1:02:03". */
void draw_clock(int64_t s, char *out, size_t size);

/* Formats a duration in seconds as "45s", "12m", "1h12m" or "2d03h". */
void draw_eta(int64_t s, char *out, size_t size);

/* Formats a rate (0..1) as a percentage with 2 significant decimals:
 * "0%", "0.35%", "3.5%", "40%", "100%". */
void draw_percent(double rate, char *out, size_t size);

#endif
