/* SPDX-License-Identifier: MIT */
/*
 * view-header.c: the header line: phase, progress bar with percentage,
 * the phase's ETA and the whole sweep's (confirm runs projected), runs
 * done of planned, the flaky and failing tests apart from the hung runs, a
 * badge when something no list shows went wrong, the machine's shape and
 * the time since the sweep started. On a narrow screen the least needed
 * parts go first: the machine, then the counts and the badge take their
 * short forms, then the bar, the name, the phase's ETA (the total stays),
 * the time since the start, the total, the ETA. A plan's simulated sweep
 * goes by its virtual clock, its total the plan's wall time.
 * When the harness is not clean (a canary misbehaved) the line says that
 * instead, with the first reason: no count below it can be trusted.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/sweep.h"
#include "base/util.h"
#include "view.h"

#define VIEW_HEADER_BAR_MAX 30
#define VIEW_HEADER_BAR_MID 8
#define VIEW_HEADER_BAR_MIN 6

const char *
view_header_status(const char *s)
{
	if (strcmp(s, "complete") == 0)
		return _("complete");
	if (strcmp(s, "interrupted") == 0)
		return _("interrupted");
	if (strcmp(s, "running") == 0)
		return _("running");
	if (strcmp(s, "stopped") == 0)
		return _("stopped on an error");
	return s;
}

/* The parts of the header, each optional. */
struct view_header_parts {
	char phase[96];
	char runs[64];
	char pct[16];
	char eta[32];
	char total[64];
	char counts[128];
	char problems[64];
	char machine[96];
	char elapsed[32];
	int bar;     /* bar width in columns, 0 for none */
	bool noname; /* without "flakesweep" first */
};

static int
view_header_width(const struct view_ctx *c, const struct view_header_parts *p)
{
	int w = (p->noname ? 0 : draw_width(c->d, "flakesweep") + 2) + draw_width(c->d, p->phase) +
	        1 + draw_width(c->d, p->runs);

	if (p->bar > 0)
		w += 1 + p->bar + 2;
	w += 1 + draw_width(c->d, p->pct);
	if (p->eta[0] != '\0')
		w += 2 + draw_width(c->d, p->eta);
	if (p->total[0] != '\0')
		w += 2 + draw_width(c->d, p->total);
	if (p->counts[0] != '\0')
		w += 3 + draw_width(c->d, p->counts);
	if (p->problems[0] != '\0')
		w += 3 + draw_width(c->d, p->problems);
	if (p->machine[0] != '\0')
		w += 3 + draw_width(c->d, p->machine);

	if (p->elapsed[0] != '\0')
		w += 3 + draw_width(c->d, p->elapsed);
	return w;
}

/* The header of a sweep whose harness failed its canaries. */
static void
view_header_unclean(struct view_ctx *c, const struct view_rect *r, const struct harness *h)
{
	char *text = xasprintf(_("HARNESS NOT CLEAN (%lld unexpected canary runs): %s"),
	                       (long long)h->unexpected, h->nreasons > 0 ? h->reasons[0] : "?");

	draw_fill(c->d, r->y, r->x, r->w, ' ', DRAW_BAD);
	draw_text(c->d, r->y, r->x, r->w, text, DRAW_BAD, false);
	free(text);
}

/* "view: 2 of 3 shards: 1 live 1 finished 1 missing (3/3)": the shards
 * the directories hold (a merge holds several) and each one's state; a
 * shard no directory holds is missing, once no directory still waits for
 * its journal (it may hold it). */
static void
view_header_shards(const struct model *m, char *text, size_t size)
{
	int n[MODEL_SHARD_FINISHED + 1] = {0}, count = 0, held = 0, missing, k;
	bool *seen;
	size_t i;
	struct buf b;

	for (i = 0; i < m->nshards; i++) {
		n[m->shards[i].state]++;
		if (m->shards[i].count > count)
			count = m->shards[i].count;
	}
	seen = xcalloc((size_t)count + 1, sizeof *seen);
	for (i = 0; i < m->nshards; i++) {
		for (k = 0; k < m->shards[i].nheld; k++) {
			int x = m->shards[i].held[k];

			if (x >= 1 && x <= count && !seen[x]) {
				seen[x] = true;
				held++;
			}
		}
	}
	missing = count - held - n[MODEL_SHARD_WAITING];
	buf_init(&b);
	if (missing > 0)
		buf_printf(&b, _("view: %d of %d shards:"), count - missing, count);
	else
		buf_printf(&b, _("view: %zu shards:"), m->nshards);
	if (n[MODEL_SHARD_LIVE] > 0)
		buf_printf(&b, _(" %d live"), n[MODEL_SHARD_LIVE]);
	if (n[MODEL_SHARD_ELSEWHERE] > 0)
		buf_printf(&b, _(" %d elsewhere"), n[MODEL_SHARD_ELSEWHERE]);
	if (n[MODEL_SHARD_FINISHED] > 0)
		buf_printf(&b, _(" %d finished"), n[MODEL_SHARD_FINISHED]);
	if (n[MODEL_SHARD_WAITING] > 0)
		buf_printf(&b, _(" %d waiting"), n[MODEL_SHARD_WAITING]);
	if (missing > 0) {
		buf_printf(&b, _(" %d missing"), missing);
		if (n[MODEL_SHARD_WAITING] == 0 && missing <= 4) {
			const char *sep = " (";

			for (k = 1; k <= count; k++) {
				if (seen[k])
					continue;
				buf_printf(&b, "%s%d/%d", sep, k, count);
				sep = ", ";
			}
			buf_addc(&b, ')');
		}
	}
	free(seen);
	snprintf(text, size, "%s", b.data);
	buf_free(&b);
}

/* A plan's simulated sweep: its whole wall time on the virtual clock, the
 * runs still to come at its pace so far while the journal is not over. */
static void
view_header_plan_total(const struct model *m, char *text, size_t size)
{
	/* Up to the second: a plan's run never ends at 0s. */
	int64_t s = (m->plan_now_ms - m->started_ms + 999) / 1000;
	char t[32];

	if (!m->finished && m->total_eta_s < 0)
		return;
	draw_eta(m->finished ? s : s + m->total_eta_s, t, sizeof t);
	snprintf(text, size, m->finished ? _("plan: %s in all") : _("plan: ~%s in all"), t);
}

void
view_header_draw(struct view_ctx *c, const struct view_rect *r)
{
	const struct model *m = c->m;
	const char *mode = c->st->mode;
	struct view_header_parts p;
	char done[32], target[32], t[32];
	int64_t end, pct;
	size_t problems;
	int x, w = r->w, filled, slack;

	if (r->h <= 0)
		return;
	if (m->results != NULL && !harness_clean(&m->results->harness)) {
		view_header_unclean(c, r, &m->results->harness);
		return;
	}
	memset(&p, 0, sizeof p);
	/* A plan's virtual sweep never passes for a measured one. */
	if (mode != NULL && m->simulated)
		mode = _("simulated");
	if (m->nshards > 0)
		view_header_shards(m, p.phase, sizeof p.phase);
	else if (mode != NULL && m->finished)
		snprintf(p.phase, sizeof p.phase, "%s: %s", mode,
		         m->status != NULL ? view_header_status(m->status)
		                           : sweep_phase_label(m->phase));
	else if (mode != NULL && m->live && m->paused)
		snprintf(p.phase, sizeof p.phase, _("%s: %s (paused), live"), mode,
		         sweep_phase_label(m->phase));
	else if (mode != NULL && m->live)
		snprintf(p.phase, sizeof p.phase, _("%s: %s, live"), mode,
		         sweep_phase_label(m->phase));
	else if (mode != NULL)
		snprintf(p.phase, sizeof p.phase, _("%s: %s, running elsewhere"), mode,
		         sweep_phase_label(m->phase));
	else if (m->finished && m->status != NULL)
		snprintf(p.phase, sizeof p.phase, "%s", view_header_status(m->status));
	else if (m->paused && !m->finished)
		snprintf(p.phase, sizeof p.phase, _("%s (paused)"), sweep_phase_label(m->phase));
	else
		snprintf(p.phase, sizeof p.phase, "%s", sweep_phase_label(m->phase));
	draw_count(m->done, done, sizeof done);
	draw_count(m->target, target, sizeof target);
	snprintf(p.runs, sizeof p.runs, _("%s/%s runs"), done, target);
	pct = m->target > 0 ? 100 * m->done / m->target : (m->finished ? 100 : 0);
	snprintf(p.pct, sizeof p.pct, "%lld%%", (long long)pct);
	if (!m->finished && m->eta_s >= 0) {
		draw_eta(m->eta_s, t, sizeof t);
		snprintf(p.eta, sizeof p.eta, _("ETA %s"), t);
	}
	if (m->simulated)
		view_header_plan_total(m, p.total, sizeof p.total);
	else if (!m->finished && m->projected > 0 && m->total_eta_s >= 0) {
		draw_eta(m->total_eta_s, t, sizeof t);
		snprintf(p.total, sizeof p.total, _("total ~%s"), t);
	}
	snprintf(p.counts, sizeof p.counts,
	         ngettext("%lld flaky %lld failing tests, %lld hung run",
	                  "%lld flaky %lld failing tests, %lld hung runs", (unsigned long)m->hangs),
	         (long long)m->flaky, (long long)m->failing, (long long)m->hangs);
	problems = m->nbuild_failed + (m->outside_runs > 0) + (m->leaked_runs > 0) + m->order_tests;
	if (problems > 0)
		snprintf(p.problems, sizeof p.problems,
		         ngettext("! %zu problem: L", "! %zu problems: L", (unsigned long)problems),
		         problems);
	snprintf(p.machine, sizeof p.machine,
	         ngettext("%d cores: keep %d, %d lane x %d", "%d cores: keep %d, %d lanes x %d",
	                  (unsigned long)m->nlanes),
	         m->machine_cores, m->keep, m->nlanes, m->width);
	end = m->simulated                        ? m->plan_now_ms
	      : m->finished && m->finished_ms > 0 ? m->finished_ms
	                                          : c->now_ms;
	draw_clock(m->started_ms > 0 ? (end - m->started_ms) / 1000 : 0, p.elapsed,
	           sizeof p.elapsed);
	/* Too wide: a shorter bar, then no machine, short counts and badge,
	 * a shorter bar still, no bar, no name, the total alone, no elapsed
	 * time, no total, no ETA. */
	p.bar = VIEW_HEADER_BAR_MAX;
	slack = w - view_header_width(c, &p);
	if (slack < 0)
		p.bar = p.bar + slack >= VIEW_HEADER_BAR_MID ? p.bar + slack : VIEW_HEADER_BAR_MID;
	slack = w - view_header_width(c, &p);
	if (slack < 0)
		p.machine[0] = '\0';
	if (w - view_header_width(c, &p) < 0) {
		snprintf(p.counts, sizeof p.counts,
		         ngettext("%lld flaky %lld failing, %lld hung run",
		                  "%lld flaky %lld failing, %lld hung runs",
		                  (unsigned long)m->hangs),
		         (long long)m->flaky, (long long)m->failing, (long long)m->hangs);
		if (problems > 0)
			snprintf(p.problems, sizeof p.problems, "!%zu", problems);
	}
	slack = w - view_header_width(c, &p);
	if (slack < 0)
		p.bar = p.bar + slack >= VIEW_HEADER_BAR_MIN ? p.bar + slack : 0;
	p.noname = w - view_header_width(c, &p) < 0;
	/* The whole night's ETA says more than the phase's. */
	if (w - view_header_width(c, &p) < 0 && p.total[0] != '\0' && !m->simulated) {
		p.eta[0] = '\0';
		draw_eta(m->total_eta_s, t, sizeof t);
		snprintf(p.total, sizeof p.total, _("ETA ~%s in all"), t);
	}
	/* How long is left matters more than how long it ran. */
	if (w - view_header_width(c, &p) < 0 && (p.total[0] != '\0' || p.eta[0] != '\0'))
		p.elapsed[0] = '\0';
	/* Every run of a plan passes: its total says more than its counts. */
	if (w - view_header_width(c, &p) < 0 && m->simulated)
		p.counts[0] = '\0';
	if (w - view_header_width(c, &p) < 0)
		p.total[0] = '\0';
	if (w - view_header_width(c, &p) < 0)
		p.eta[0] = '\0';
	/* A clock cut short reads as another time: drop it whole. */
	slack = w - view_header_width(c, &p);
	if (slack < 0)
		p.elapsed[0] = '\0';

	draw_fill(c->d, r->y, r->x, w, ' ', DRAW_HEADER);
	x = r->x;
#define VIEW_HEADER_PUT(text)                                                                    \
	do {                                                                                     \
		if (x < r->x + w)                                                                \
			x += draw_text(c->d, r->y, x, r->x + w - x, (text), DRAW_HEADER, false); \
	} while (0)
	if (!p.noname)
		VIEW_HEADER_PUT("flakesweep  ");
	VIEW_HEADER_PUT(p.phase);
	VIEW_HEADER_PUT(" ");
	VIEW_HEADER_PUT(p.runs);
	if (p.bar > 0 && x + p.bar + 3 <= r->x + w) {
		VIEW_HEADER_PUT(" [");
		filled = m->target > 0 ? (int)((int64_t)p.bar * m->done / m->target)
		                       : (m->finished ? p.bar : 0);
		if (filled > p.bar)
			filled = p.bar;
		draw_glyph_fill(c->d, r->y, x, filled, DRAW_GLYPH_BAR_DONE, DRAW_HEADER);
		draw_glyph_fill(c->d, r->y, x + filled, p.bar - filled, DRAW_GLYPH_BAR_TODO,
		                DRAW_HEADER);
		x += p.bar;
		VIEW_HEADER_PUT("]");
	}
	VIEW_HEADER_PUT(" ");
	VIEW_HEADER_PUT(p.pct);
	if (p.eta[0] != '\0') {
		VIEW_HEADER_PUT("  ");
		VIEW_HEADER_PUT(p.eta);
	}
	if (p.total[0] != '\0') {
		VIEW_HEADER_PUT(p.eta[0] != '\0' ? ", " : "  ");
		VIEW_HEADER_PUT(p.total);
	}
	if (p.counts[0] != '\0') {
		VIEW_HEADER_PUT(" | ");
		VIEW_HEADER_PUT(p.counts);
	}
	if (p.problems[0] != '\0') {
		VIEW_HEADER_PUT(" | ");
		VIEW_HEADER_PUT(p.problems);
	}
	if (p.machine[0] != '\0') {
		VIEW_HEADER_PUT(" | ");
		VIEW_HEADER_PUT(p.machine);
	}

	if (p.elapsed[0] != '\0') {
		VIEW_HEADER_PUT(" | ");
		VIEW_HEADER_PUT(p.elapsed);
	}
#undef VIEW_HEADER_PUT
}
