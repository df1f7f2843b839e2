/* SPDX-License-Identifier: MIT */
/*
 * bisect.c: the search, the worktrees and the journals of `bisect`. The
 * commits are git's ancestry path from good to bad, oldest first. The
 * probe is the midpoint of the commits still in doubt; a skipped or
 * undecided commit gives way to the nearest one not yet probed, and when
 * none is left the result is the range the evidence cannot separate. A
 * commit's journal (commits/SHA.json) is written once it is judged, so a
 * bisect run again with the same output directory probes it no more.
 * Worktrees are created detached under the output directory and removed
 * after each probe; the user's working tree is never touched.
 */
#include "config.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

#include "engine/bisect.h"
#include "base/jsonw.h"
#include "base/sanitize.h"
#include "engine/sequential.h"
#include "base/util.h"

#define BISECT_GIT_OUTPUT_MAX ((size_t)64 << 20)

static const char *const bisect_state_names[] = {"unprobed", "clean", "flaky", "skipped",
                                                 "undecided"};

const char *
bisect_state_name(enum bisect_state s)
{
	return bisect_state_names[s];
}

/* Runs a git command line (already quoted) in repo; its stdout into *out
 * when out is not NULL. Returns git's exit status, or -1. SIGINT, SIGTERM
 * and SIGHUP wait until git is done, so an interrupt never leaves a
 * half-made worktree behind (nor a git still running). */
static int
bisect_git(const char *repo, const char *args, char **out)
{
	char *q = util_shell_quote(repo), *cmd = xasprintf("git -C %s %s 2>/dev/null", q, args);
	struct buf b;
	sigset_t block, old;
	char chunk[4096];
	size_t n;
	FILE *f;
	int st;

	free(q);
	buf_init(&b);
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	sigprocmask(SIG_BLOCK, &block, &old);
	f = popen(cmd, "r");
	free(cmd);
	if (f == NULL) {
		sigprocmask(SIG_SETMASK, &old, NULL);
		buf_free(&b);
		return -1;
	}
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
		if (b.len + n < BISECT_GIT_OUTPUT_MAX)
			buf_add(&b, chunk, n);
	st = pclose(f);
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (out != NULL)
		*out = buf_steal(&b);
	else
		buf_free(&b);
	return st == -1 ? -1 : WEXITSTATUS(st);
}

/* Adds the commits of git log lines "SHA<TAB>SUBJECT". */
static void
bisect_add_lines(struct bisect *b, char *text)
{
	char *line, *save = NULL;

	for (line = strtok_r(text, "\n", &save); line != NULL; line = strtok_r(NULL, "\n", &save)) {
		char *tab = strchr(line, '\t');
		struct bisect_commit *c;

		if (tab == NULL || tab == line)
			continue;
		b->commits = xrealloc(b->commits, sizeof *b->commits * (b->ncommits + 1));
		c = &b->commits[b->ncommits++];
		memset(c, 0, sizeof *c);
		c->sha = xstrndup(line, (size_t)(tab - line));
		c->subject = xstrdup(tab + 1);
	}
}

/* good, then every commit on the ancestry path to bad, oldest first. */
static int
bisect_list(const struct bisect_config *cfg, struct bisect *b, char **err)
{
	char *qg = util_shell_quote(cfg->good), *qb = util_shell_quote(cfg->bad);
	char *one = xasprintf("log -1 --format=%%H%%x09%%s %s --", qg);
	char *path =
	    xasprintf("log --reverse --ancestry-path --format=%%H%%x09%%s %s..%s --", qg, qb);
	char *good = NULL, *text = NULL;
	int rc = 0;

	if (bisect_git(cfg->repo, one, &good) != 0 || bisect_git(cfg->repo, path, &text) != 0) {
		*err = xasprintf(_("git cannot list the commits from %s to %s in %s"), cfg->good,
		                 cfg->bad, cfg->repo);
		rc = -EINVAL;
		goto out;
	}
	bisect_add_lines(b, good);
	bisect_add_lines(b, text);
	if (b->ncommits < 2) {
		*err = xasprintf(_("%s is not an ancestor of %s in %s"), cfg->good, cfg->bad,
		                 cfg->repo);
		rc = -EINVAL;
	}
out:
	free(one);
	free(path);
	free(text);
	free(good);
	free(qg);
	free(qb);
	return rc;
}

static char *
bisect_journal_path(const struct bisect_config *cfg, const struct bisect_commit *c)
{
	return xasprintf("%s/commits/%s.json", cfg->outdir, c->sha);
}

/* Reads the commit's journal back; false when there is none (or it is not
 * one: then the commit is probed again). */
static bool
bisect_journal_read(const struct bisect_config *cfg, struct bisect_commit *c)
{
	char *path = bisect_journal_path(cfg, c), *text = NULL;
	const cJSON *st, *runs, *fails;
	cJSON *j = NULL;
	size_t len, i;
	bool ok = false;

	if (util_read_file(path, 1 << 16, &text, &len) < 0)
		goto out;
	j = cJSON_ParseWithLength(text, len);
	st = cJSON_GetObjectItemCaseSensitive(j, "state");
	runs = cJSON_GetObjectItemCaseSensitive(j, "runs");
	fails = cJSON_GetObjectItemCaseSensitive(j, "failures");
	if (!cJSON_IsString(st) || !cJSON_IsNumber(runs) || !cJSON_IsNumber(fails))
		goto out;
	for (i = BISECT_CLEAN; i <= BISECT_UNDECIDED; i++)
		if (strcmp(st->valuestring, bisect_state_names[i]) == 0) {
			c->state = (enum bisect_state)i;
			c->runs = (int64_t)runs->valuedouble;
			c->failures = (int64_t)fails->valuedouble;
			c->resumed = ok = true;
		}
out:
	cJSON_Delete(j);
	free(text);
	free(path);
	return ok;
}

static void
bisect_journal_write(const struct bisect_config *cfg, const struct bisect_commit *c)
{
	char *path = bisect_journal_path(cfg, c), *text;
	cJSON *j = cJSON_CreateObject();

	cJSON_AddStringToObject(j, "commit", c->sha);
	cJSON_AddStringToObject(j, "state", bisect_state_name(c->state));
	cJSON_AddNumberToObject(j, "runs", (double)c->runs);
	cJSON_AddNumberToObject(j, "failures", (double)c->failures);
	text = jsonw_print(j, false);
	util_write_file_atomic(path, text, strlen(text));
	free(text);
	cJSON_Delete(j);
	free(path);
}

/* Checks the commit out into its own worktree, runs the test there and
 * judges it. */
static int
bisect_probe(const struct bisect_config *cfg, struct bisect_commit *c, char **err)
{
	char *wt = xasprintf("%s/worktrees/%s", cfg->outdir, c->sha);
	char *runs = xasprintf("%s/runs/%s", cfg->outdir, c->sha);
	char *qwt = util_shell_quote(wt), *args;
	struct sequential_spec sp = {cfg->test, cfg->cpu,         cfg->load,       cfg->p0,
	                             cfg->p1,   SEQUENTIAL_ALPHA, SEQUENTIAL_BETA, cfg->budget};
	struct sequential_result r;
	int rc;

	/* What an interrupted probe left is started over. */
	args = xasprintf("worktree remove --force %s", qwt);
	bisect_git(cfg->repo, args, NULL);
	free(args);
	util_rm_rf(wt);
	util_rm_rf(runs);
	bisect_git(cfg->repo, "worktree prune", NULL);
	args = xasprintf("worktree add --force --force --detach %s %s", qwt, c->sha);
	rc = bisect_git(cfg->repo, args, NULL);
	free(args);
	if (rc != 0) {
		*err = xasprintf(_("git cannot add a worktree for %s at %s"), c->sha, wt);
		rc = -EIO;
		goto out;
	}
	free(cfg->sweep->outdir);
	free(cfg->sweep->dir);
	cfg->sweep->outdir = xstrdup(runs);
	cfg->sweep->dir = xstrdup(wt);
	rc = sequential_run(cfg->sweep, &sp, &r, err);
	if (rc == 0 && r.exit_status == 130) {
		/* Interrupted: no journal, so the next bisect probes it again. */
		free(r.outdir);
		*err = xasprintf(_("interrupted while probing %s"), c->sha);
		rc = -EINTR;
	} else if (rc == 0) {
		free(r.outdir);
		c->runs = r.runs;
		c->failures = r.failures;
		/* Nothing reported the test: it lacks it, or it did not build. */
		if (r.lacks_test || r.runs == 0)
			c->state = BISECT_SKIPPED;
		else if (r.state == STATS_SPRT_ACCEPT_P0)
			c->state = BISECT_FLAKY;
		else if (r.state == STATS_SPRT_ACCEPT_P1)
			c->state = BISECT_CLEAN;
		else
			c->state = BISECT_UNDECIDED;
		bisect_journal_write(cfg, c);
	} else {
		/* A commit the sweep cannot even start on is skipped too. */
		free(*err);
		*err = NULL;
		c->state = BISECT_SKIPPED;
		bisect_journal_write(cfg, c);
		rc = 0;
	}
	args = xasprintf("worktree remove --force %s", qwt);
	bisect_git(cfg->repo, args, NULL);
	free(args);
out:
	free(qwt);
	free(wt);
	free(runs);
	return rc;
}

/* The unprobed commit strictly between lo and hi nearest their middle, or
 * 0 when none is left. */
static size_t
bisect_next(const struct bisect *b)
{
	size_t mid = b->lo + (b->hi - b->lo) / 2, d;

	for (d = 0; d < b->hi - b->lo; d++) {
		if (mid + d < b->hi && mid + d > b->lo &&
		    b->commits[mid + d].state == BISECT_UNPROBED)
			return mid + d;
		if (mid >= d && mid - d > b->lo && b->commits[mid - d].state == BISECT_UNPROBED)
			return mid - d;
	}
	return 0;
}

/* Whether one of the quit signals (held blocked) came; takes it. */
static bool
bisect_signalled(const sigset_t *quit)
{
	struct timespec zero = {0, 0};
	bool any = false;

	while (sigtimedwait(quit, NULL, &zero) > 0)
		any = true;
	return any;
}

int
bisect_run(const struct bisect_config *cfg, struct bisect *b, const struct bisect_observer *obs,
           char **err)
{
	sigset_t quit, old;
	char *dir;
	size_t i;
	int rc;

	memset(b, 0, sizeof *b);
	rc = bisect_list(cfg, b, err);
	if (rc < 0)
		return rc;
	dir = xasprintf("%s/commits", cfg->outdir);
	rc = util_mkdir_p(dir);
	free(dir);
	if (rc < 0) {
		*err = xasprintf(_("cannot create %s/commits"), cfg->outdir);
		return rc;
	}
	/* Between probes SIGINT, SIGTERM and SIGHUP are held and checked
	 * before each probe, so one that comes there interrupts the bisect
	 * as one in a probe does; sequential_run() lets them through. */
	sigemptyset(&quit);
	sigaddset(&quit, SIGINT);
	sigaddset(&quit, SIGTERM);
	sigaddset(&quit, SIGHUP);
	sigprocmask(SIG_BLOCK, &quit, &old);
	b->lo = 0;
	b->hi = b->ncommits - 1;
	b->commits[b->lo].state = BISECT_CLEAN;
	b->commits[b->hi].state = BISECT_FLAKY;
	if (obs != NULL && obs->listed != NULL)
		obs->listed(obs->arg, b);
	while ((i = bisect_next(b)) != 0) {
		struct bisect_commit *c = &b->commits[i];

		if (bisect_signalled(&quit)) {
			*err = xasprintf(_("interrupted before probing %s"), c->sha);
			rc = -EINTR;
			goto out;
		}
		if (obs != NULL && obs->probing != NULL)
			obs->probing(obs->arg, b, i);
		if (!bisect_journal_read(cfg, c)) {
			rc = bisect_probe(cfg, c, err);
			if (rc < 0)
				goto out;
		}
		if (c->state == BISECT_FLAKY)
			b->hi = i;
		else if (c->state == BISECT_CLEAN)
			b->lo = i;
		if (obs != NULL && obs->probed != NULL)
			obs->probed(obs->arg, b, i);
	}
	bisect_git(cfg->repo, "worktree prune", NULL);
	if (bisect_signalled(&quit)) {
		*err = xstrdup(_("interrupted"));
		rc = -EINTR;
	}
out:
	bisect_signalled(&quit);
	sigprocmask(SIG_SETMASK, &old, NULL);
	return rc;
}

const struct bisect_commit *
bisect_first_bad(const struct bisect *b)
{
	return b->hi == b->lo + 1 ? &b->commits[b->hi] : NULL;
}

char *
bisect_to_text(const struct bisect *b)
{
	const struct bisect_commit *bad = bisect_first_bad(b);
	char *subject;
	struct buf t;
	size_t i;

	buf_init(&t);
	for (i = 0; i < b->ncommits; i++) {
		const struct bisect_commit *c = &b->commits[i];

		if (c->state == BISECT_UNPROBED ||
		    ((i == 0 || i + 1 == b->ncommits) && c->runs == 0))
			continue;
		buf_printf(&t, "%-9s %.12s %lld/%lld", bisect_state_name(c->state), c->sha,
		           (long long)c->failures, (long long)c->runs);
		if (c->runs > 0)
			buf_printf(&t, " (%.1f%%)", 100.0 * (double)c->failures / (double)c->runs);
		buf_printf(&t, "  %s\n", subject = sanitize_text(c->subject, strlen(c->subject)));
		free(subject);
	}
	if (bad != NULL) {
		subject = sanitize_text(bad->subject, strlen(bad->subject));
		buf_printf(&t, _("first bad commit: %s %s\n"), bad->sha, subject);
		free(subject);
	} else {
		buf_printf(&t, "%s\n",
		           _("the evidence cannot separate these commits (budget reached without "
		             "a decision, or skipped); the first bad one is among:"));
		for (i = b->lo + 1; i <= b->hi; i++) {
			subject =
			    sanitize_text(b->commits[i].subject, strlen(b->commits[i].subject));
			buf_printf(&t, "  %s %s\n", b->commits[i].sha, subject);
			free(subject);
		}
	}
	return buf_steal(&t);
}

void
bisect_free(struct bisect *b)
{
	size_t i;

	for (i = 0; i < b->ncommits; i++) {
		free(b->commits[i].sha);
		free(b->commits[i].subject);
	}
	free(b->commits);
	memset(b, 0, sizeof *b);
}
