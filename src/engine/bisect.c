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
 * after each probe; the user's working tree is never touched. git gets
 * an argument vector, never a shell line, and no revision the user gave
 * reaches it but through rev-parse --verify --end-of-options.
 */
#include "config.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "engine/bisect.h"
#include "base/hash.h"
#include "base/jsonw.h"
#include "base/sanitize.h"
#include "engine/outdir.h"
#include "engine/proc.h"
#include "engine/sequential.h"
#include "base/util.h"

#define BISECT_GIT_OUTPUT_MAX ((size_t)64 << 20)
#define BISECT_JOURNAL_MAX ((size_t)1 << 16)
#define BISECT_ID_SLUG_MAX 40

static const char *const bisect_state_names[] = {"unprobed", "clean", "flaky", "skipped",
                                                 "undecided"};
static const int bisect_quit_signals[] = {SIGINT, SIGTERM, SIGHUP};

/* Set by a quit signal; read before each step. */
static volatile sig_atomic_t bisect_caught;

const char *
bisect_state_name(enum bisect_state s)
{
	return bisect_state_names[s];
}

static void
bisect_catch_cb(int signum)
{
	(void)signum;
	bisect_caught = 1;
}

/* Catches SIGINT, SIGTERM and SIGHUP into bisect_caught (none is ever
 * blocked); the dispositions they had go to old. */
static void
bisect_catch(struct sigaction old[3])
{
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = bisect_catch_cb;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < UTIL_ARRAY_LEN(bisect_quit_signals); i++)
		sigaction(bisect_quit_signals[i], &sa, &old[i]);
}

static void
bisect_uncatch(const struct sigaction old[3])
{
	size_t i;

	for (i = 0; i < UTIL_ARRAY_LEN(bisect_quit_signals); i++)
		sigaction(bisect_quit_signals[i], &old[i], NULL);
}

/* Starts git -C repo with args (NULL-terminated), its stdout to fd, its
 * stdin and stderr /dev/null, in a process group of its own with no
 * signal blocked or caught. Returns its pid, or -1. */
static pid_t
bisect_git_spawn(const char *repo, const char *const *args, int fd)
{
	const char *argv[16] = {"git", "-C", repo};
	char **env;
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	sigset_t none, dfl;
	size_t n = 3, i;
	pid_t pid;
	int rc;

	while (*args != NULL && n + 1 < UTIL_ARRAY_LEN(argv))
		argv[n++] = *args++;
	argv[n] = NULL;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, fd, 1);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	posix_spawnattr_init(&attr);
	sigemptyset(&none);
	sigemptyset(&dfl);
	for (i = 0; i < UTIL_ARRAY_LEN(bisect_quit_signals); i++)
		sigaddset(&dfl, bisect_quit_signals[i]);
	posix_spawnattr_setsigmask(&attr, &none);
	posix_spawnattr_setsigdefault(&attr, &dfl);
	posix_spawnattr_setpgroup(&attr, 0);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK |
	                                    POSIX_SPAWN_SETSIGDEF);
	/* git never needs the GitHub token, and no child of flakesweep sees it. */
	proc_withhold_tokens();
	env = proc_env(environ);
	rc =
	    posix_spawnp(&pid, "git", &fa, &attr, (char *const *)argv, env != NULL ? env : environ);
	free(env);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&attr);
	return rc == 0 ? pid : -1;
}

/* Runs git -C repo with args (NULL-terminated), an argument vector that
 * no shell reads; its stdout into *out when out is not NULL. Returns
 * git's exit status, or -1. git's own process group keeps a signal meant
 * for the bisect (a ^C at the terminal) from reaching it: flakesweep lets
 * git finish, so an interrupt never leaves a half-made worktree, and
 * stops after it. */
static int
bisect_git(const char *repo, const char *const *args, char **out)
{
	struct buf b;
	char chunk[4096];
	ssize_t r;
	pid_t pid;
	int fds[2], st;

	if (pipe2(fds, O_CLOEXEC) < 0)
		return -1;
	pid = bisect_git_spawn(repo, args, fds[1]);
	close(fds[1]);
	buf_init(&b);
	while (pid > 0 && (r = read(fds[0], chunk, sizeof chunk)) != 0) {
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			break;
		if (b.len + (size_t)r < BISECT_GIT_OUTPUT_MAX)
			buf_add(&b, chunk, (size_t)r);
	}
	close(fds[0]);
	while (pid > 0 && waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			pid = -1;
	if (out != NULL)
		*out = buf_steal(&b);
	else
		buf_free(&b);
	return pid > 0 && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
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

/* The full hash of the commit rev names, into *sha (caller frees). A rev
 * that starts with '-' is refused before git sees it, and git reads the
 * rest as a revision only. Returns 0, or -EINVAL with *err. */
static int
bisect_resolve(const char *repo, const char *rev, char **sha, char **err)
{
	char *spec = xasprintf("%s^{commit}", rev), *text = NULL;
	const char *args[] = {"rev-parse", "--verify", "--quiet", "--end-of-options", spec, NULL};
	size_t len;
	int rc = 0;

	*sha = NULL;
	if (rev[0] == '-') {
		*err = xasprintf(_("the revision %s starts with '-', as a git option does: name "
		                   "the commit otherwise (its hash, or refs/heads/NAME)"),
		                 rev);
		rc = -EINVAL;
		goto out;
	}
	if (bisect_git(repo, args, &text) != 0 || (len = strcspn(text, "\n")) < 40 ||
	    text[strspn(text, "0123456789abcdef")] != '\n') {
		*err = xasprintf(_("%s names no commit in %s"), rev, repo);
		rc = -EINVAL;
		goto out;
	}
	*sha = xstrndup(text, len);
out:
	free(text);
	free(spec);
	return rc;
}

/* good, then every commit on the ancestry path to bad, oldest first. */
static int
bisect_list(const struct bisect_config *cfg, struct bisect *b, char **err)
{
	char *good = NULL, *bad = NULL, *range = NULL, *one = NULL, *text = NULL;
	const char *log_one[] = {"log", "-1", "--format=%H%x09%s", "--end-of-options", NULL,
	                         "--",  NULL};
	const char *log_path[] = {
	    "log", "--reverse", "--ancestry-path", "--format=%H%x09%s", "--end-of-options", NULL,
	    "--",  NULL};
	int rc;

	if ((rc = bisect_resolve(cfg->repo, cfg->good, &good, err)) < 0 ||
	    (rc = bisect_resolve(cfg->repo, cfg->bad, &bad, err)) < 0)
		goto out;
	if (strcmp(good, bad) == 0) {
		*err = xasprintf(_("good and bad are the same commit (%s)"), good);
		rc = -EINVAL;
		goto out;
	}
	range = xasprintf("%s..%s", good, bad);
	log_one[4] = good;
	log_path[5] = range;
	if (bisect_git(cfg->repo, log_one, &one) != 0 ||
	    bisect_git(cfg->repo, log_path, &text) != 0) {
		*err = xasprintf(_("git cannot list the commits from %s to %s in %s"), cfg->good,
		                 cfg->bad, cfg->repo);
		rc = -EINVAL;
		goto out;
	}
	bisect_add_lines(b, one);
	bisect_add_lines(b, text);
	if (b->ncommits < 2) {
		*err = xasprintf(_("%s is not an ancestor of %s in %s"), cfg->good, cfg->bad,
		                 cfg->repo);
		rc = -EINVAL;
	}
out:
	free(text);
	free(one);
	free(range);
	free(bad);
	free(good);
	return rc;
}

/* flakesweep-out/bisect-ID-HASH-GOOD-BAD: the test's id as given, its
 * characters but [A-Za-z0-9._-] made '_' and cut short, then the hash of
 * the whole id (two ids alike once cut still differ) and the two commits,
 * so the same bisect run again finds the directory. */
static char *
bisect_default_outdir(const struct bisect_config *cfg, const struct bisect *b)
{
	static const char safe[] =
	    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-";
	char slug[BISECT_ID_SLUG_MAX + 1], *name, *dir;
	size_t i;

	for (i = 0; cfg->id[i] != '\0' && i < BISECT_ID_SLUG_MAX; i++)
		slug[i] = strchr(safe, cfg->id[i]) != NULL ? cfg->id[i] : '_';
	slug[i] = '\0';
	name = xasprintf("bisect-%s-%08x-%.12s-%.12s", slug,
	                 (unsigned)(hash_fnv1a_str(cfg->id) & 0xffffffffu), b->commits[0].sha,
	                 b->commits[b->ncommits - 1].sha);
	dir = outdir_named(name);
	free(name);
	return dir;
}

static char *
bisect_journal_path(const struct bisect *b, const struct bisect_commit *c)
{
	return xasprintf("%s/commits/%s.json", b->outdir, c->sha);
}

/* A count of a journal: an integer from 0 to OPTIONS_COUNT_MAX. */
static bool
bisect_journal_count(const cJSON *n, int64_t *v)
{
	if (!cJSON_IsNumber(n) || !(n->valuedouble >= 0) || n->valuedouble > OPTIONS_COUNT_MAX ||
	    n->valuedouble != floor(n->valuedouble))
		return false;
	*v = (int64_t)n->valuedouble;
	return true;
}

/* The state the sequential test of cfg is in after runs runs with
 * failures failed: it stops at its first crossing, so the counts it
 * stopped at decide it whatever their order. */
static enum bisect_state
bisect_counts_state(const struct bisect_config *cfg, int64_t runs, int64_t failures)
{
	struct stats_sprt sprt;
	enum stats_sprt_state st = STATS_SPRT_CONTINUE;
	int64_t i;

	if (stats_sprt_init(&sprt, cfg->p0, cfg->p1, SEQUENTIAL_ALPHA, SEQUENTIAL_BETA) < 0)
		return BISECT_UNDECIDED;
	for (i = 0; i < runs; i++)
		st = stats_sprt_add(&sprt, i < failures);
	return st == STATS_SPRT_ACCEPT_P0   ? BISECT_FLAKY
	       : st == STATS_SPRT_ACCEPT_P1 ? BISECT_CLEAN
	                                    : BISECT_UNDECIDED;
}

/* Why the journal j is not one a probe of c writes, or NULL when it is one
 * (then c is filled from it). */
static const char *
bisect_journal_take(const struct bisect_config *cfg, const cJSON *j, struct bisect_commit *c)
{
	const cJSON *sha = cJSON_GetObjectItemCaseSensitive(j, "commit");
	const cJSON *st = cJSON_GetObjectItemCaseSensitive(j, "state");
	const cJSON *lacks = cJSON_GetObjectItemCaseSensitive(j, "lacks_test");
	const cJSON *why = cJSON_GetObjectItemCaseSensitive(j, "why");
	int64_t runs, failures;
	size_t i;

	if (!cJSON_IsObject(j))
		return _("not a JSON object");
	if (!cJSON_IsString(sha) || strcmp(sha->valuestring, c->sha) != 0)
		return _("its commit is not this one");
	if (!cJSON_IsString(st))
		return _("no state");
	for (i = BISECT_CLEAN; i <= BISECT_UNDECIDED; i++)
		if (strcmp(st->valuestring, bisect_state_names[i]) == 0)
			break;
	if (i > BISECT_UNDECIDED)
		return _("its state is none of clean, flaky, skipped or undecided");
	if (!bisect_journal_count(cJSON_GetObjectItemCaseSensitive(j, "runs"), &runs) ||
	    !bisect_journal_count(cJSON_GetObjectItemCaseSensitive(j, "failures"), &failures) ||
	    failures > runs)
		return _("runs and failures are not counts with failures at most runs");
	/* A commit is skipped exactly when no run reported the test, and
	 * judged flaky only on failures. */
	if ((i == BISECT_SKIPPED) != (runs == 0) || (i == BISECT_FLAKY && failures == 0))
		return _("its counts do not fit its state");
	/* A clean, flaky or undecided commit is what the sequential test
	 * says at its counts, at this bisect's rates. */
	if (i != BISECT_SKIPPED && bisect_counts_state(cfg, runs, failures) != i)
		return _("the sequential test at this bisect's rates says otherwise at its counts");
	if (lacks != NULL && !cJSON_IsBool(lacks))
		return _("lacks_test is not true or false");
	if (why != NULL && (!cJSON_IsString(why) || i != BISECT_SKIPPED))
		return _("why is not the text of a skipped commit");
	c->state = (enum bisect_state)i;
	c->runs = runs;
	c->failures = failures;
	c->lacks_test = cJSON_IsTrue(lacks);
	free(c->why);
	c->why = why != NULL ? xstrdup(why->valuestring) : NULL;
	c->resumed = true;
	return NULL;
}

/* Reads the commit's journal back: true when there is one. A file in its
 * place that no probe wrote (not a regular file, not JSON, another
 * commit's, counts no probe gives) is warned of, naming it, and the
 * commit probed again. */
static bool
bisect_journal_read(const struct bisect_config *cfg, const struct bisect *b,
                    struct bisect_commit *c, const struct bisect_observer *obs)
{
	char *path = bisect_journal_path(b, c), *text = NULL, *msg;
	const char *why = NULL;
	cJSON *j = NULL;
	size_t len;
	int rc = util_read_regular(path, BISECT_JOURNAL_MAX, &text, &len);

	if (rc == -EINVAL)
		why = _("not a regular file");
	else if (rc < 0 && rc != -ENOENT)
		why = strerror(-rc);
	else if (rc == 0 && (j = cJSON_ParseWithLength(text, len)) == NULL)
		why = _("not JSON");
	else if (rc == 0)
		why = bisect_journal_take(cfg, j, c);
	if (why != NULL && obs != NULL && obs->warning != NULL) {
		msg = xasprintf(_("%s is not a bisect journal of %.12s (%s); probing it again"),
		                path, c->sha, why);
		obs->warning(obs->arg, msg);
		free(msg);
	}
	cJSON_Delete(j);
	free(text);
	free(path);
	return rc == 0 && why == NULL;
}

static void
bisect_journal_write(const struct bisect *b, const struct bisect_commit *c)
{
	char *path = bisect_journal_path(b, c), *text;
	cJSON *j = cJSON_CreateObject();

	cJSON_AddStringToObject(j, "commit", c->sha);
	cJSON_AddStringToObject(j, "state", bisect_state_name(c->state));
	cJSON_AddNumberToObject(j, "runs", (double)c->runs);
	cJSON_AddNumberToObject(j, "failures", (double)c->failures);
	if (c->lacks_test)
		cJSON_AddTrueToObject(j, "lacks_test");
	if (c->why != NULL)
		cJSON_AddStringToObject(j, "why", c->why);
	text = jsonw_print(j, false);
	util_write_file_atomic(path, text, strlen(text));
	free(text);
	cJSON_Delete(j);
	free(path);
}

/* Removes the worktree wt, and what git knows of worktrees gone. */
static void
bisect_worktree_remove(const char *repo, const char *wt)
{
	const char *remove[] = {"worktree", "remove", "--force", "--", wt, NULL};
	const char *prune[] = {"worktree", "prune", NULL};

	bisect_git(repo, remove, NULL);
	util_rm_rf(wt);
	bisect_git(repo, prune, NULL);
}

/* Checks the commit out into its own worktree, runs the test there (budget
 * runs at most) and judges it. */
static int
bisect_probe(const struct bisect_config *cfg, const struct bisect *b, struct bisect_commit *c,
             int64_t budget, char **err)
{
	char *wt = xasprintf("%s/worktrees/%s", b->outdir, c->sha);
	char *runs = xasprintf("%s/runs/%s", b->outdir, c->sha);
	const char *add[] = {"worktree", "add", "--force", "--force", "--detach",
	                     "--",       wt,    c->sha,    NULL};
	struct sequential_spec sp = {cfg->test,       cfg->cpu, cfg->load,
	                             cfg->p0,         cfg->p1,  SEQUENTIAL_ALPHA,
	                             SEQUENTIAL_BETA, budget,   cfg->package};
	struct sequential_result r;
	int rc;

	/* What an interrupted probe left is started over. */
	bisect_worktree_remove(cfg->repo, wt);
	util_rm_rf(runs);
	if (bisect_git(cfg->repo, add, NULL) != 0) {
		*err = xasprintf(_("git cannot add a worktree for %s at %s"), c->sha, wt);
		rc = -EIO;
		goto out;
	}
	if (bisect_caught) {
		*err = xasprintf(_("interrupted before probing %s"), c->sha);
		rc = -EINTR;
		goto remove;
	}
	free(cfg->sweep->outdir);
	free(cfg->sweep->dir);
	cfg->sweep->outdir = xstrdup(runs);
	cfg->sweep->dir = xstrdup(wt);
	rc = sequential_run(cfg->sweep, &sp, &r, err);
	if (rc == 0 && (r.exit_status == 130 || bisect_caught)) {
		/* Interrupted: no journal, so the next bisect probes it again. */
		free(r.outdir);
		*err = xasprintf(_("interrupted while probing %s"), c->sha);
		rc = -EINTR;
	} else if (rc == 0) {
		free(r.outdir);
		c->runs = r.runs;
		c->failures = r.failures;
		c->lacks_test = r.lacks_test;
		/* Nothing reported the test: it lacks it, or it did not build. */
		if (r.lacks_test || r.runs == 0)
			c->state = BISECT_SKIPPED;
		else if (r.state == STATS_SPRT_ACCEPT_P0)
			c->state = BISECT_FLAKY;
		else if (r.state == STATS_SPRT_ACCEPT_P1)
			c->state = BISECT_CLEAN;
		else
			c->state = BISECT_UNDECIDED;
	} else {
		/* A commit the sweep cannot even start on is skipped too,
		 * and says why. */
		free(c->why);
		c->why = *err != NULL ? *err : xstrdup(strerror(-rc));
		*err = NULL;
		c->state = BISECT_SKIPPED;
		rc = 0;
	}
remove:
	bisect_worktree_remove(cfg->repo, wt);
out:
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

/* -ENOENT with *err when the test is nowhere in the range: every commit
 * probed lacks it, and so does bad, probed for one run (a test that bad
 * adds is found there). bad's state and journal stay as they are. */
static int
bisect_check_found(const struct bisect_config *cfg, const struct bisect *b, char **err)
{
	struct bisect_commit bad = b->commits[b->ncommits - 1];
	size_t i, probed = 0, lacking = 0;
	int rc;

	for (i = 1; i + 1 < b->ncommits; i++) {
		probed += b->commits[i].state != BISECT_UNPROBED;
		lacking += b->commits[i].state == BISECT_SKIPPED && b->commits[i].lacks_test;
	}
	if (probed == 0 || lacking < probed)
		return 0;
	rc = bisect_probe(cfg, b, &bad, 1, err);
	if (rc < 0 || !bad.lacks_test)
		return rc;
	*err = xasprintf(_("the test %s was never found: none of the %zu commits probed from %s "
	                   "to %s reports it, nor does %s"),
	                 cfg->id, probed, cfg->good, cfg->bad, cfg->bad);
	return -ENOENT;
}

int
bisect_run(const struct bisect_config *cfg, struct bisect *b, const struct bisect_observer *obs,
           char **err)
{
	struct sigaction old[3];
	char *dir;
	size_t i;
	int rc;

	memset(b, 0, sizeof *b);
	/* A signal is only noted, and acted on before the next step: a
	 * probe's sweep has its own handlers, which interrupt it. */
	bisect_caught = 0;
	bisect_catch(old);
	rc = bisect_list(cfg, b, err);
	if (rc < 0)
		goto out;
	b->outdir = cfg->outdir != NULL ? xstrdup(cfg->outdir) : bisect_default_outdir(cfg, b);
	dir = xasprintf("%s/commits", b->outdir);
	rc = util_mkdir_p(dir);
	free(dir);
	if (rc < 0) {
		*err = xasprintf(_("cannot create %s/commits: %s"), b->outdir, strerror(-rc));
		goto out;
	}
	/* The default directory lies in the repository: its .gitignore keeps
	 * the worktrees and runs out of a git add -A. */
	if ((dir = realpath(b->outdir, NULL)) != NULL)
		outdir_ignore(dir);
	free(dir);
	b->lo = 0;
	b->hi = b->ncommits - 1;
	b->commits[b->lo].state = BISECT_CLEAN;
	b->commits[b->hi].state = BISECT_FLAKY;
	if (obs != NULL && obs->listed != NULL)
		obs->listed(obs->arg, b);
	while ((i = bisect_next(b)) != 0) {
		struct bisect_commit *c = &b->commits[i];

		if (bisect_caught) {
			*err = xasprintf(_("interrupted before probing %s"), c->sha);
			rc = -EINTR;
			goto out;
		}
		if (obs != NULL && obs->probing != NULL)
			obs->probing(obs->arg, b, i);
		if (!bisect_journal_read(cfg, b, c, obs)) {
			rc = bisect_probe(cfg, b, c, cfg->budget, err);
			if (rc < 0)
				goto out;
			bisect_journal_write(b, c);
		}
		if (c->state == BISECT_FLAKY)
			b->hi = i;
		else if (c->state == BISECT_CLEAN)
			b->lo = i;
		if (obs != NULL && obs->probed != NULL)
			obs->probed(obs->arg, b, i);
	}
	rc = bisect_check_found(cfg, b, err);
out:
	if (rc == 0 && bisect_caught) {
		*err = xstrdup(_("interrupted"));
		rc = -EINTR;
	}
	bisect_uncatch(old);
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
		free(b->commits[i].why);
	}
	free(b->commits);
	free(b->outdir);
	memset(b, 0, sizeof *b);
}
