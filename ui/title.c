/* SPDX-License-Identifier: MIT */
/*
 * title.c: the terminal's window title (see title.h): which terminals get
 * one, the text, and the one sequence that sets it.
 */
#include "config.h"

#include <curses.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/sanitize.h"
#include "base/util.h"
#include "draw.h"
#include "title.h"

/* Terminal types that take OSC 2 whatever their description says. */
static const char *const title_osc_terms[] = {"xterm",     "screen", "tmux",  "rxvt",
                                              "alacritty", "foot",   "kitty", "wezterm"};

enum title_mode
title_mode_for(FILE *out, const char *term, const char *tmux)
{
	size_t i;
	const char *tsl, *fsl;

	if (out == NULL || !isatty(fileno(out)))
		return TITLE_NONE;
	if (tmux != NULL && *tmux != '\0')
		return TITLE_OSC;
	tsl = tigetstr("tsl");
	fsl = tigetstr("fsl");
	if (tigetflag("hs") > 0 && tsl != NULL && tsl != (char *)-1 && fsl != NULL &&
	    fsl != (char *)-1)
		return TITLE_TERMINFO;
	for (i = 0; term != NULL && i < UTIL_ARRAY_LEN(title_osc_terms); i++) {
		if (strncmp(term, title_osc_terms[i], strlen(title_osc_terms[i])) == 0)
			return TITLE_OSC;
	}
	return TITLE_NONE;
}

char *
title_text(const struct model *m)
{
	struct buf b;
	char eta[32];
	int64_t pct = m->target > 0 ? 100 * m->done / m->target : (m->finished ? 100 : 0);

	buf_init(&b);
	if (m->finished)
		buf_printf(&b, _("flakesweep %s"),
		           m->status != NULL && strcmp(m->status, "complete") != 0 ? _("stopped")
		                                                                   : _("complete"));
	else
		buf_printf(&b, "flakesweep %lld%%", (long long)pct);
	if (!m->finished && m->paused)
		buf_printf(&b, " %s", _("paused"));
	else if (!m->finished && (m->total_eta_s >= 0 || m->eta_s >= 0)) {
		draw_eta(m->total_eta_s >= 0 ? m->total_eta_s : m->eta_s, eta, sizeof eta);
		buf_printf(&b, _(" ETA %s"), eta);
	}
	if (m->flaky > 0)
		buf_printf(&b, _(" %lld flaky"), (long long)m->flaky);
	if (m->failing > 0)
		buf_printf(&b, _(" %lld failing"), (long long)m->failing);
	return buf_steal(&b);
}

void
title_write(FILE *out, enum title_mode mode, const char *text)
{
	char *clean = sanitize_text(text, strlen(text)), *p;

	/* One line: sanitize_text keeps line ends. */
	for (p = clean; *p != '\0'; p++) {
		if (*p == '\n' || *p == '\t')
			*p = ' ';
	}
	if (mode == TITLE_OSC)
		fprintf(out, "\033]2;%s\007", clean);
	else if (mode == TITLE_TERMINFO)
		fprintf(out, "%s%s%s", tiparm(tigetstr("tsl"), 0), clean, tigetstr("fsl"));
	fflush(out);
	free(clean);
}

void
title_save(FILE *out, enum title_mode mode)
{
	if (mode == TITLE_OSC) {
		fputs("\033[22;2t", out);
		fflush(out);
	}
}

void
title_restore(FILE *out, enum title_mode mode)
{
	if (mode == TITLE_OSC) {
		fputs("\033[23;2t", out);
		fflush(out);
	}
}
