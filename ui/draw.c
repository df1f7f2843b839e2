/* SPDX-License-Identifier: MIT */
/*
 * draw.c: roles to attributes, glyphs, and the one function that puts text
 * on the screen. Test output reaches the terminal only through
 * draw_text(), which sanitises it and drops anything not printable, so no
 * escape or control sequence from a test can move the cursor, clear the
 * screen or retitle the window.
 */
#include "config.h"

#include <langinfo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "draw.h"
#include "base/sanitize.h"
#include "base/util.h"

/* Colours of the 256-colour palette and of the 8-colour one, per role:
 * foreground and background (-1: the terminal's default). */
struct draw_palette {
	short fg256, bg256, fg8, bg8;
	attr_t attr;       /* with colours */
	attr_t attr_plain; /* without */
};

static const struct draw_palette draw_palettes[DRAW_ROLES] = {
    [DRAW_NORMAL] = {-1, -1, -1, -1, A_NORMAL, A_NORMAL},
    [DRAW_HEADER] = {231, 24, COLOR_WHITE, COLOR_BLUE, A_BOLD, A_REVERSE},
    [DRAW_TITLE] = {250, -1, -1, -1, A_BOLD, A_BOLD},
    [DRAW_TITLE_FOCUS] = {220, -1, COLOR_YELLOW, -1, A_BOLD, A_BOLD | A_UNDERLINE},
    [DRAW_SELECTED] = {-1, -1, -1, -1, A_REVERSE, A_REVERSE},
    [DRAW_DIM] = {244, -1, -1, -1, A_NORMAL, A_DIM},
    [DRAW_BOLD] = {-1, -1, -1, -1, A_BOLD, A_BOLD},
    [DRAW_OK] = {71, -1, COLOR_GREEN, -1, A_NORMAL, A_NORMAL},
    [DRAW_WARN] = {214, -1, COLOR_YELLOW, -1, A_BOLD, A_NORMAL},
    [DRAW_BAD] = {196, -1, COLOR_RED, -1, A_BOLD, A_BOLD},
    [DRAW_KEY] = {81, -1, COLOR_CYAN, -1, A_BOLD, A_BOLD},
    [DRAW_MESSAGE] = {-1, -1, -1, -1, A_NORMAL, A_NORMAL},
    [DRAW_ERROR] = {196, -1, COLOR_RED, -1, A_BOLD, A_BOLD},
    [DRAW_PROMPT] = {220, -1, COLOR_YELLOW, -1, A_BOLD, A_BOLD},
    [DRAW_HEAT_NONE] = {244, -1, -1, -1, A_NORMAL, A_NORMAL},
    [DRAW_HEAT_CLEAN] = {16, 114, COLOR_BLACK, COLOR_GREEN, A_NORMAL, A_NORMAL},
    [DRAW_HEAT_1] = {16, 193, COLOR_BLACK, COLOR_YELLOW, A_NORMAL, A_NORMAL},
    [DRAW_HEAT_2] = {16, 228, COLOR_BLACK, COLOR_YELLOW, A_NORMAL, A_NORMAL},
    [DRAW_HEAT_3] = {16, 220, COLOR_BLACK, COLOR_YELLOW, A_BOLD, A_NORMAL},
    [DRAW_HEAT_4] = {16, 208, COLOR_WHITE, COLOR_RED, A_NORMAL, A_BOLD},
    [DRAW_HEAT_5] = {231, 160, COLOR_WHITE, COLOR_RED, A_BOLD, A_BOLD},
};

static const char *const draw_glyphs_utf8[DRAW_GLYPHS] = {
    [DRAW_GLYPH_HEAT_NONE] = "\xc2\xb7",      /* U+00B7 middle dot */
    [DRAW_GLYPH_HEAT_CLEAN] = "\xe2\x96\x91", /* U+2591 light shade */
    [DRAW_GLYPH_HEAT_LOW] = "\xe2\x96\x92",   /* U+2592 medium shade */
    [DRAW_GLYPH_HEAT_MID] = "\xe2\x96\x93",   /* U+2593 dark shade */
    [DRAW_GLYPH_HEAT_HIGH] = "\xe2\x96\x88",  /* U+2588 full block */
    [DRAW_GLYPH_BAR_DONE] = "\xe2\x96\x88",
    [DRAW_GLYPH_BAR_TODO] = "\xe2\x96\x91",
    [DRAW_GLYPH_SLOT_BUSY] = "\xe2\x96\xa0", /* U+25A0 black square */
    [DRAW_GLYPH_SLOT_FREE] = "\xc2\xb7",
    [DRAW_GLYPH_VLINE] = "\xe2\x94\x82",    /* U+2502 light vertical */
    [DRAW_GLYPH_ELLIPSIS] = "\xe2\x80\xa6", /* U+2026 */
};

static const char *const draw_glyphs_ascii[DRAW_GLYPHS] = {
    [DRAW_GLYPH_HEAT_NONE] = " ", [DRAW_GLYPH_HEAT_CLEAN] = ".", [DRAW_GLYPH_HEAT_LOW] = ":",
    [DRAW_GLYPH_HEAT_MID] = "+",  [DRAW_GLYPH_HEAT_HIGH] = "#",  [DRAW_GLYPH_BAR_DONE] = "#",
    [DRAW_GLYPH_BAR_TODO] = ".",  [DRAW_GLYPH_SLOT_BUSY] = "#",  [DRAW_GLYPH_SLOT_FREE] = ".",
    [DRAW_GLYPH_VLINE] = "|",     [DRAW_GLYPH_ELLIPSIS] = "~",
};

enum draw_colors
draw_detect_colors(void)
{
	const char *no = getenv("NO_COLOR");

	if ((no != NULL && *no != '\0') || !has_colors())
		return DRAW_COLORS_NONE;
	return COLORS >= 256 ? DRAW_COLORS_256 : DRAW_COLORS_8;
}

void
draw_init(struct draw *d, WINDOW *win, enum draw_colors colors, bool utf8)
{
	int i;

	memset(d, 0, sizeof *d);
	d->win = win;
	d->colors = colors;
	d->utf8 = utf8;
	if (colors != DRAW_COLORS_NONE)
		use_default_colors();
	for (i = 0; i < DRAW_ROLES; i++) {
		const struct draw_palette *p = &draw_palettes[i];
		short fg = colors == DRAW_COLORS_256 ? p->fg256 : p->fg8;
		short bg = colors == DRAW_COLORS_256 ? p->bg256 : p->bg8;

		if (colors == DRAW_COLORS_NONE) {
			d->attr[i] = p->attr_plain;
			continue;
		}
		d->attr[i] = p->attr;
		if (fg != -1 || bg != -1) {
			d->pair[i] = (short)(i + 1);
			init_pair(d->pair[i], fg, bg);
		}
	}
}

void
draw_init_detect(struct draw *d, WINDOW *win, int colors, int utf8)
{
	enum draw_colors c = colors >= 0 ? (enum draw_colors)colors : draw_detect_colors();

	if (c != DRAW_COLORS_NONE && !has_colors())
		c = DRAW_COLORS_NONE;
	draw_init(d, win, c, utf8 >= 0 ? utf8 != 0 : strcmp(nl_langinfo(CODESET), "UTF-8") == 0);
}

/* Decodes one UTF-8 character of valid text (sanitize_text made it so).
 * Returns its length. */
static size_t
draw_decode(const unsigned char *s, uint32_t *cp)
{
	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	if ((s[0] & 0xe0) == 0xc0 && s[1] != 0) {
		*cp = ((uint32_t)(s[0] & 0x1f) << 6) | (s[1] & 0x3f);
		return 2;
	}
	if ((s[0] & 0xf0) == 0xe0 && s[1] != 0 && s[2] != 0) {
		*cp = ((uint32_t)(s[0] & 0x0f) << 12) | ((uint32_t)(s[1] & 0x3f) << 6) |
		      (s[2] & 0x3f);
		return 3;
	}
	if ((s[0] & 0xf8) == 0xf0 && s[1] != 0 && s[2] != 0 && s[3] != 0) {
		*cp = ((uint32_t)(s[0] & 0x07) << 18) | ((uint32_t)(s[1] & 0x3f) << 12) |
		      ((uint32_t)(s[2] & 0x3f) << 6) | (s[3] & 0x3f);
		return 4;
	}
	*cp = 0xfffd;
	return 1;
}

/* The columns cp takes on screen, or -1 to drop it; *shown is what to
 * draw instead of it. */
static int
draw_char_width(const struct draw *d, uint32_t cp, uint32_t *shown)
{
	int w;

	*shown = cp;
	if (cp == '\t' || cp == '\n') {
		*shown = ' ';
		return 1;
	}
	if (cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp < 0xa0))
		return -1;
	if (cp < 0x7f)
		return 1;
	if (!d->utf8) {
		*shown = '?';
		return 1;
	}
	w = wcwidth((wchar_t)cp);
	if (w < 0) {
		*shown = 0xfffd;
		return 1;
	}
	return w;
}

int
draw_step(const struct draw *d, const char **p)
{
	uint32_t cp, shown;

	*p += draw_decode((const unsigned char *)*p, &cp);
	return draw_char_width(d, cp, &shown);
}

int
draw_width(const struct draw *d, const char *s)
{
	char *clean = sanitize_text(s, strlen(s));
	const unsigned char *p = (const unsigned char *)clean;
	int cols = 0;

	while (*p != '\0') {
		uint32_t cp, shown;
		int w;

		p += draw_decode(p, &cp);
		w = draw_char_width(d, cp, &shown);
		if (w > 0)
			cols += w;
	}
	free(clean);
	return cols;
}

int
draw_text(struct draw *d, int y, int x, int maxw, const char *s, enum draw_role role, bool ellipsis)
{
	char *clean;
	const unsigned char *p;
	wchar_t *out;
	size_t n = 0, cap;
	int cols = 0, total, limit;

	if (maxw <= 0 || s == NULL)
		return 0;
	clean = sanitize_text(s, strlen(s));
	cap = strlen(clean) + 2;
	out = xmalloc(sizeof *out * cap);
	total = ellipsis ? draw_width(d, clean) : 0;
	limit = ellipsis && total > maxw ? maxw - 1 : maxw;
	for (p = (const unsigned char *)clean; *p != '\0';) {
		uint32_t cp, shown;
		int w;

		p += draw_decode(p, &cp);
		w = draw_char_width(d, cp, &shown);
		if (w < 0)
			continue;
		if (cols + w > limit)
			break;
		if (w == 0 && n == 0)
			continue; /* a combining mark with nothing to combine with */
		out[n++] = (wchar_t)shown;
		cols += w;
	}
	wattr_set(d->win, d->attr[role], d->pair[role], NULL);
	if (d->utf8) {
		if (ellipsis && total > maxw && maxw > 0)
			out[n++] = L'\x2026';
		out[n] = L'\0';
		mvwaddnwstr(d->win, y, x, out, (int)n);
	} else {
		char *a = xmalloc(n + 2);
		size_t i;

		for (i = 0; i < n; i++)
			a[i] = out[i] < 0x80 ? (char)out[i] : '?';
		if (ellipsis && total > maxw && maxw > 0)
			a[n++] = '~';
		a[n] = '\0';
		mvwaddnstr(d->win, y, x, a, (int)n);
		free(a);
	}
	if (ellipsis && total > maxw && maxw > 0)
		cols++;
	wattr_set(d->win, A_NORMAL, 0, NULL);
	free(out);
	free(clean);
	return cols;
}

void
draw_fill(struct draw *d, int y, int x, int n, char c, enum draw_role role)
{
	if (n <= 0)
		return;
	mvwhline(d->win, y, x, (chtype)(unsigned char)c | d->attr[role] | COLOR_PAIR(d->pair[role]),
	         n);
}

const char *
draw_glyph(const struct draw *d, enum draw_glyph g)
{
	return d->utf8 ? draw_glyphs_utf8[g] : draw_glyphs_ascii[g];
}

void
draw_glyph_fill(struct draw *d, int y, int x, int n, enum draw_glyph g, enum draw_role role)
{
	struct buf b;
	int i;

	if (n <= 0)
		return;
	buf_init(&b);
	for (i = 0; i < n; i++)
		buf_adds(&b, draw_glyph(d, g));
	draw_text(d, y, x, n, b.data, role, false);
	buf_free(&b);
}

enum draw_role
draw_heat_role(int64_t runs, int64_t bad)
{
	double rate;

	if (runs <= 0)
		return DRAW_HEAT_NONE;
	if (bad <= 0)
		return DRAW_HEAT_CLEAN;
	rate = (double)bad / (double)runs;
	if (rate < 0.01)
		return DRAW_HEAT_1;
	if (rate < 0.05)
		return DRAW_HEAT_2;
	if (rate < 0.20)
		return DRAW_HEAT_3;
	if (rate < 0.50)
		return DRAW_HEAT_4;
	return DRAW_HEAT_5;
}

enum draw_glyph
draw_heat_glyph(enum draw_role heat)
{
	switch (heat) {
	case DRAW_HEAT_CLEAN:
		return DRAW_GLYPH_HEAT_CLEAN;
	case DRAW_HEAT_1:
	case DRAW_HEAT_2:
		return DRAW_GLYPH_HEAT_LOW;
	case DRAW_HEAT_3:
	case DRAW_HEAT_4:
		return DRAW_GLYPH_HEAT_MID;
	case DRAW_HEAT_5:
		return DRAW_GLYPH_HEAT_HIGH;
	default:
		return DRAW_GLYPH_HEAT_NONE;
	}
}

void
draw_count(int64_t n, char *out, size_t size)
{
	char digits[32], buf[48];
	int len, i, j = 0;
	bool neg = n < 0;

	snprintf(digits, sizeof digits, "%lld", (long long)(neg ? -n : n));
	len = (int)strlen(digits);
	if (neg)
		buf[j++] = '-';
	for (i = 0; i < len; i++) {
		if (i > 0 && (len - i) % 3 == 0)
			buf[j++] = ',';
		buf[j++] = digits[i];
	}
	buf[j] = '\0';
	snprintf(out, size, "%s", buf);
}

void
draw_clock(int64_t s, char *out, size_t size)
{
	if (s < 0)
		s = 0;
	if (s >= 3600)
		snprintf(out, size, "%lld:%02lld:%02lld", (long long)(s / 3600),
		         (long long)(s / 60 % 60), (long long)(s % 60));
	else
		snprintf(out, size, "%lld:%02lld", (long long)(s / 60), (long long)(s % 60));
}

void
draw_eta(int64_t s, char *out, size_t size)
{
	if (s < 0)
		s = 0;
	if (s < 60)
		snprintf(out, size, "%llds", (long long)s);
	else if (s < 3600)
		snprintf(out, size, "%lldm", (long long)((s + 59) / 60));
	else if (s < 86400)
		snprintf(out, size, "%lldh%02lldm", (long long)(s / 3600),
		         (long long)(s / 60 % 60));
	else
		snprintf(out, size, "%lldd%02lldh", (long long)(s / 86400),
		         (long long)(s / 3600 % 24));
}

void
draw_percent(double rate, char *out, size_t size)
{
	double pct = rate * 100;

	if (pct <= 0)
		snprintf(out, size, "0%%");
	else if (pct >= 99.995)
		snprintf(out, size, "100%%");
	else if (pct < 1)
		snprintf(out, size, "%.2f%%", pct);
	else if (pct < 10)
		snprintf(out, size, "%.1f%%", pct);
	else
		snprintf(out, size, "%.0f%%", pct);
}
