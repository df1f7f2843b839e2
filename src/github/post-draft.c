/* SPDX-License-Identifier: MIT */
/*
 * post-draft.c: the bug report of one flaky test, as a draft (see
 * post-draft.h): reads results.json, refuses what must not be posted and
 * renders the fixed template. Nothing from test output lands outside a
 * code block, and the values of the environment's secrets are masked in
 * the whole draft, though a sweep masked them in what it recorded. It
 * never touches the network; post.c posts the draft.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/causes.h"
#include "results/decisions.h"
#include "results/interference.h"
#include "drivers/driver.h"
#include "github/github.h"
#include "base/hash.h"
#include "base/mask.h"
#include "github/markdown.h"
#include "github/post-draft.h"
#include "github/post-repro.h"
#include "drivers/project.h"
#include "results/results-json.h"
#include "results/results.h"
#include "base/util.h"

#define POST_DRAFT_TITLE_MAX 250
/* The first failure is cut to this many bytes even when the post has room:
 * its head says what failed and its tail how; a reader wants no more. */
#define POST_DRAFT_EXCERPT_MAX 24000
/* Below this many bytes for the first failure, the text is what is too long. */
#define POST_DRAFT_EXCERPT_MIN 2000

extern char **environ;

/* One (cpu, load) pair, sweep and confirm cells summed. */
struct post_pair {
	int cpu, load;
	int64_t runs, failures, hangs;
};

struct post_draft {
	char *test_id;    /* exactly as in results.json: the key of decisions.json */
	char *test_shown; /* the same, safe to print */
	char *package, *test, *level;
	char *driver, *toolchain, *commit;
	int cores, keep, nlanes, lane_width;
	struct post_pair *pairs;
	size_t npairs;
	int64_t runs[2], failures[2], hangs[2]; /* [0] sweep, [1] confirm */
	/* [0] runs alone (no other run of its package alive), [1] overlapped */
	int64_t side_runs[2], side_bad[2];
	char *why;         /* the measured causes, as the report gives them */
	bool interference; /* a cause: its runs fail when they overlap */
	bool has_first;
	char *ff_phase, *ff_seed, *ff_log;
	int ff_cpu, ff_load;
	char **ff_lines; /* sanitised */
	size_t ff_nlines;
	char *repro_flakesweep, *repro_direct;
	char *description, *notes;
	char *repo;     /* where it is posted, or NULL */
	char *src_repo; /* where the source is, for links, or NULL */
	char *web_base;
	struct mask *mask; /* the values masked in the title and body */
	char *top;         /* the checkout's top directory, or NULL */
	char *source_path; /* relative to the repository's top, or NULL */
	int source_line;   /* 0: source_path is the package's directory */
	char *closed_url;
	char hash[17];
	char *marker;
	char *decisions_path;
	char *title, *body;
	size_t budget; /* the first failure's bytes in the body */
};

void
post_draft_hash(const char *id, char *out)
{
	snprintf(out, 17, "%016llx", (unsigned long long)hash_fnv1a_str(id));
}

/* A percentage with two significant digits, locale-free: "0.12", "1.5",
 * "12". Caller frees. */
static char *
post_draft_pct(double pct)
{
	long long v, scale = 1;
	int k = 0, i;

	if (pct <= 0)
		return xstrdup("0");
	if (pct >= 10)
		return xasprintf("%lld", (long long)(pct + 0.5));
	while (pct * pow(10, k) < 10 && k < 6)
		k++;
	v = (long long)(pct * pow(10, k) + 0.5);
	if (v >= 100 && k > 0) {
		v = (v + 5) / 10;
		k--;
	}
	if (k == 0)
		return xasprintf("%lld", v);
	for (i = 0; i < k; i++)
		scale *= 10;
	return xasprintf("%lld.%0*lld", v / scale, k, v % scale);
}

static bool
post_draft_valid_owner(const char *s, size_t n)
{
	size_t i;

	if (n == 0 || n > 39)
		return false;
	for (i = 0; i < n; i++) {
		if (!isalnum((unsigned char)s[i]) && s[i] != '-')
			return false;
	}
	return true;
}

static bool
post_draft_valid_name(const char *s, size_t n)
{
	size_t i;

	if (n == 0 || n > 100 || (n == 1 && s[0] == '.') || (n == 2 && s[0] == '.' && s[1] == '.'))
		return false;
	for (i = 0; i < n; i++) {
		if (!isalnum((unsigned char)s[i]) && s[i] != '-' && s[i] != '_' && s[i] != '.')
			return false;
	}
	return true;
}

/* Checks "OWNER/NAME" (an optional ".git" and "/" dropped) into a new string. */
static int
post_draft_owner_name(const char *path, char **repo)
{
	const char *slash = strchr(path, '/');
	size_t nlen;

	if (slash == NULL || !post_draft_valid_owner(path, (size_t)(slash - path)))
		return -EINVAL;
	nlen = strlen(slash + 1);
	if (nlen > 0 && slash[nlen] == '/')
		nlen--;
	if (nlen > 4 && strncmp(slash + 1 + nlen - 4, ".git", 4) == 0)
		nlen -= 4;
	if (!post_draft_valid_name(slash + 1, nlen))
		return -EINVAL;
	*repo = xasprintf("%.*s/%.*s", (int)(slash - path), path, (int)nlen, slash + 1);
	return 0;
}

int
post_draft_parse_remote(const char *url, char **repo)
{
	const char *scheme_end = strstr(url, "://"), *host, *path;
	char *h;
	size_t hlen;
	int rc;

	*repo = NULL;
	if (scheme_end != NULL) {
		size_t slen = (size_t)(scheme_end - url);

		if (!((slen == 5 && strncmp(url, "https", 5) == 0) ||
		      (slen == 4 && strncmp(url, "http", 4) == 0) ||
		      (slen == 3 && strncmp(url, "ssh", 3) == 0) ||
		      (slen == 3 && strncmp(url, "git", 3) == 0) ||
		      (slen == 7 && strncmp(url, "git+ssh", 7) == 0)))
			return -EINVAL;
		host = scheme_end + 3;
		path = strchr(host, '/');
		if (path == NULL)
			return -EINVAL;
		hlen = (size_t)(path - host);
		path++;
	} else {
		/* scp-like: [user@]host:OWNER/NAME */
		const char *colon = strchr(url, ':');

		if (colon == NULL || memchr(url, '/', (size_t)(colon - url)) != NULL)
			return -EINVAL;
		host = url;
		hlen = (size_t)(colon - url);
		path = colon + 1;
		if (*path == '/')
			path++;
	}
	h = xstrndup(host, hlen);
	{
		/* Drop user info (never shown) and a port. */
		char *at = strrchr(h, '@'), *start = at != NULL ? at + 1 : h, *port;

		memmove(h, start, strlen(start) + 1);
		port = strchr(h, ':');
		if (port != NULL)
			*port = '\0';
	}
	rc = github_is_github_host(h) ? post_draft_owner_name(path, repo) : -EINVAL;
	free(h);
	return rc;
}

static void
post_draft_add_pair(struct post_draft *d, const struct results_cell *c)
{
	int ph = c->phase != RESULTS_SWEEP;
	size_t i;

	d->runs[ph] += c->runs;
	d->failures[ph] += c->failures;
	d->hangs[ph] += c->hangs;
	d->side_runs[0] += c->runs - c->overlapped_runs;
	d->side_bad[0] += c->failures + c->hangs - c->overlapped_bad;
	d->side_runs[1] += c->overlapped_runs;
	d->side_bad[1] += c->overlapped_bad;
	for (i = 0; i < d->npairs; i++) {
		if (d->pairs[i].cpu == c->cpu && d->pairs[i].load == c->load)
			break;
	}
	if (i == d->npairs) {
		d->pairs = xrealloc(d->pairs, sizeof *d->pairs * (d->npairs + 1));
		memset(&d->pairs[i], 0, sizeof d->pairs[i]);
		d->pairs[i].cpu = c->cpu;
		d->pairs[i].load = c->load;
		d->npairs++;
	}
	d->pairs[i].runs += c->runs;
	d->pairs[i].failures += c->failures;
	d->pairs[i].hangs += c->hangs;
}

/* A cell where every run failed or hung: the test is failing there. */
static const struct results_cell *
post_draft_failing_cell(const struct results_test *t)
{
	int i;

	for (i = 0; i < t->ncells; i++) {
		const struct results_cell *c = &t->cells[i];

		if (c->runs > 0 && c->failures + c->hangs >= c->runs)
			return c;
	}
	return NULL;
}

/* The first failure, its lines cleaned one by one from the file's own
 * (raw) lines. */
static void
post_draft_read_first_failure(struct post_draft *d, const struct results_failure *f,
                              char *const *raw)
{
	size_t i;

	if (f == NULL)
		return;
	d->has_first = true;
	d->ff_phase = xstrdup(results_phase_name(f->phase));
	d->ff_cpu = f->cpu;
	d->ff_load = f->load;
	d->ff_log = f->log != NULL ? markdown_clean_name(f->log) : NULL;
	d->ff_seed = f->seed != NULL ? markdown_clean_name(f->seed) : NULL;
	for (i = 0; raw != NULL && raw[i] != NULL; i++)
		;
	d->ff_lines = xcalloc(i + 1, sizeof *d->ff_lines);
	for (i = 0; raw != NULL && raw[i] != NULL; i++)
		d->ff_lines[d->ff_nlines++] = markdown_clean_line(raw[i], strlen(raw[i]), true);
}

static int
post_draft_cmp_pairs(const void *a, const void *b)
{
	const struct post_pair *x = a, *y = b;

	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	return x->load < y->load ? -1 : x->load > y->load;
}

static void
post_draft_render_title(struct post_draft *d)
{
	char *t = xasprintf("%s: %s fails intermittently", d->package, d->test);

	if (strlen(t) > POST_DRAFT_TITLE_MAX) {
		/* Keep the end, which says what the post is. */
		char *name = xstrdup(d->test);

		markdown_cut_utf8(name, POST_DRAFT_TITLE_MAX / 2);
		free(t);
		t = xasprintf("%s: %s… fails intermittently", d->package, name);
		markdown_cut_utf8(t, POST_DRAFT_TITLE_MAX);
		free(name);
	}
	free(d->title);
	d->title = t;
}

static void
post_draft_count_phrase(struct buf *b, int64_t failures, int64_t hangs, int64_t runs)
{
	buf_printf(b, failures == 1 ? _("%lld failure") : _("%lld failures"), (long long)failures);
	if (hangs > 0)
		buf_printf(b, hangs == 1 ? _(" and %lld hang") : _(" and %lld hangs"),
		           (long long)hangs);
	buf_printf(b, runs == 1 ? _(" in %lld run") : _(" in %lld runs"), (long long)runs);
}

/* The first failure's lines, cut to budget bytes when needed: the head
 * and the tail, with a line that says how much was cut and where the
 * whole output is. */
static char *
post_draft_render_excerpt(const struct post_draft *d, size_t budget)
{
	struct buf b;
	size_t total = 0, i, head_end = 0, tail_start, used = 0;

	for (i = 0; i < d->ff_nlines; i++)
		total += strlen(d->ff_lines[i]) + 1;
	buf_init(&b);
	if (total <= budget) {
		for (i = 0; i < d->ff_nlines; i++) {
			buf_adds(&b, d->ff_lines[i]);
			buf_addc(&b, '\n');
		}
		return buf_steal(&b);
	}
	/* Lines from the start while they fit in half the budget ... */
	while (head_end < d->ff_nlines && used + strlen(d->ff_lines[head_end]) + 1 <= budget / 2)
		used += strlen(d->ff_lines[head_end++]) + 1;
	/* ... and from the end in what is left. */
	tail_start = d->ff_nlines;
	while (tail_start > head_end &&
	       used + strlen(d->ff_lines[tail_start - 1]) + 1 <= budget - budget / 8)
		used += strlen(d->ff_lines[--tail_start]) + 1;
	for (i = 0; i < head_end; i++) {
		buf_adds(&b, d->ff_lines[i]);
		buf_addc(&b, '\n');
	}
	if (head_end == 0 && d->ff_nlines > 0) {
		/* A first line longer than the budget: keep its start. */
		char *part = xstrdup(d->ff_lines[0]);

		markdown_cut_utf8(part, budget / 2);
		buf_adds(&b, part);
		buf_addc(&b, '\n');
		used += strlen(part) + 1;
		free(part);
	}
	buf_printf(&b,
	           _("[... %zu bytes cut here; the whole output is in %s in the sweep's output "
	             "directory ...]\n"),
	           total - used, d->ff_log != NULL ? d->ff_log : _("the run's log"));
	for (i = tail_start; i < d->ff_nlines; i++) {
		buf_adds(&b, d->ff_lines[i]);
		buf_addc(&b, '\n');
	}
	return buf_steal(&b);
}

static void
post_draft_render_table(struct buf *b, const struct post_draft *d)
{
	int loads[64], cpus[64];
	size_t nl = 0, nc = 0, i, j, k;

	for (i = 0; i < d->npairs; i++) {
		for (j = 0; j < nl && loads[j] != d->pairs[i].load; j++)
			;
		if (j == nl && nl < UTIL_ARRAY_LEN(loads))
			loads[nl++] = d->pairs[i].load;
		for (j = 0; j < nc && cpus[j] != d->pairs[i].cpu; j++)
			;
		if (j == nc && nc < UTIL_ARRAY_LEN(cpus))
			cpus[nc++] = d->pairs[i].cpu;
	}
	/* The pairs are sorted by cpu, then load; sort the loads too. */
	for (i = 1; i < nl; i++) {
		for (j = i; j > 0 && loads[j - 1] > loads[j]; j--) {
			int t = loads[j];

			loads[j] = loads[j - 1];
			loads[j - 1] = t;
		}
	}
	buf_adds(b, "| |");
	for (j = 0; j < nl; j++)
		buf_printf(b, " load %d |", loads[j]);
	buf_adds(b, "\n|---|");
	for (j = 0; j < nl; j++)
		buf_adds(b, "---:|");
	buf_addc(b, '\n');
	for (i = 0; i < nc; i++) {
		buf_printf(b, "| **cpu %d** |", cpus[i]);
		for (j = 0; j < nl; j++) {
			const struct post_pair *p = NULL;

			for (k = 0; k < d->npairs; k++) {
				if (d->pairs[k].cpu == cpus[i] && d->pairs[k].load == loads[j])
					p = &d->pairs[k];
			}
			if (p == NULL) {
				buf_adds(b, " – |");
				continue;
			}
			buf_printf(b, " %lld/%lld", (long long)p->failures, (long long)p->runs);
			if (p->hangs > 0)
				buf_printf(b, p->hangs == 1 ? " (%lld hang)" : " (%lld hangs)",
				           (long long)p->hangs);
			buf_adds(b, " |");
		}
		buf_addc(b, '\n');
	}
}

static bool
post_draft_is_hex_commit(const char *s)
{
	size_t n = s != NULL ? strlen(s) : 0;

	return n >= 7 && n <= 64 && strspn(s, "0123456789abcdef") == n;
}

/* The measurements: the test, commit, machine and rates, the table, the
 * first failure cut to budget bytes and the reproduce commands. In the
 * body and in a comment that adds new evidence to a discussion. */
static void
post_draft_render_evidence(struct buf *b, const struct post_draft *d, size_t budget)
{
	int64_t runs = d->runs[0] + d->runs[1], fails = d->failures[0] + d->failures[1],
	        hangs = d->hangs[0] + d->hangs[1];
	double lo, hi;
	char *r, *l, *h;

	buf_adds(b, "- Test: ");
	markdown_code(b, d->test);
	buf_adds(b, " in package ");
	markdown_code(b, d->package);
	if (d->level != NULL) {
		buf_adds(b, ", level ");
		markdown_code(b, d->level);
	}
	buf_adds(b, "\n- Commit: ");
	if (d->commit == NULL) {
		buf_adds(b, "unknown (the project is not a git checkout)");
	} else if (d->src_repo != NULL && post_draft_is_hex_commit(d->commit)) {
		buf_printf(b, "[`%.12s`](%s/%s/commit/%s)", d->commit, d->web_base, d->src_repo,
		           d->commit);
	} else {
		markdown_code(b, d->commit);
	}
	if (d->toolchain != NULL) {
		buf_adds(b, "\n- Toolchain: ");
		markdown_code(b, d->toolchain);
	}
	if (d->cores > 0) {
		buf_printf(b, "\n- Machine: %d cores, %d kept for the system", d->cores, d->keep);
		if (d->nlanes > 0)
			buf_printf(
			    b, d->nlanes == 1 ? ", %d lane of %d cores" : ", %d lanes of %d cores",
			    d->nlanes, d->lane_width);
	}
	results_wilson(fails + hangs, runs, &lo, &hi);
	r = post_draft_pct(runs > 0 ? 100.0 * (double)(fails + hangs) / (double)runs : 0);
	l = post_draft_pct(100.0 * lo);
	h = post_draft_pct(100.0 * hi);
	buf_adds(b, "\n- Measured: ");
	post_draft_count_phrase(b, fails, hangs, runs);
	buf_printf(b, " (%s%%, 95%% interval %s–%s%%)", r, l, h);
	free(r);
	free(l);
	free(h);
	buf_adds(b, "\n\n");

	buf_adds(b, "Failures/runs at each CPU count and load, sweep and confirm runs together:");
	buf_adds(b, "\n\n");
	post_draft_render_table(b, d);
	buf_addc(b, '\n');
	buf_adds(b, "In the sweep, with the rest of its package: ");
	post_draft_count_phrase(b, d->failures[0], d->hangs[0], d->runs[0]);
	buf_adds(b, ". In confirm runs of the test by itself: ");
	post_draft_count_phrase(b, d->failures[1], d->hangs[1], d->runs[1]);
	buf_adds(b, ".");
	if (d->side_runs[0] > 0 && d->side_runs[1] > 0) {
		buf_printf(b,
		           " Alone, with no other run of its package alive: %lld failed of %lld; "
		           "overlapping another run of its package: %lld failed of %lld.",
		           (long long)d->side_bad[0], (long long)d->side_runs[0],
		           (long long)d->side_bad[1], (long long)d->side_runs[1]);
	}
	buf_adds(b, "\n\n");

	if (d->has_first) {
		char *excerpt = post_draft_render_excerpt(d, budget);

		buf_printf(b, "The first failure, in a %s run at cpu %d, load %d",
		           d->ff_phase != NULL ? d->ff_phase : "sweep", d->ff_cpu, d->ff_load);
		if (d->ff_seed != NULL) {
			buf_adds(b, ", shuffle seed ");
			markdown_code(b, d->ff_seed);
		}
		if (d->ff_log != NULL) {
			buf_adds(b, " (log ");
			markdown_code(b, d->ff_log);
			buf_adds(b, " in the sweep's output directory)");
		}
		buf_adds(b, ":\n\n");
		markdown_fence(b, "text", excerpt);
		buf_addc(b, '\n');
		free(excerpt);
	} else {
		buf_adds(b, "No output of the first failure was kept.");
		buf_adds(b, "\n\n");
	}
	if (d->repro_flakesweep != NULL) {
		buf_adds(b, "Reproduce it at the pair where it failed most, with the same load, "
		            "from the repository's root:");
		buf_adds(b, "\n\n");
		markdown_fence(b, "sh", d->repro_flakesweep);
		buf_addc(b, '\n');
	}
	if (d->repro_direct != NULL && d->interference) {
		/* One process runs the test in sequence: never two at once. */
		buf_adds(b,
		         "No direct command: it fails when runs of its package overlap (see Why), "
		         "which one process running it again and again never does; the command "
		         "above runs several at once, at the load where it failed.");
		buf_adds(b, "\n\n");
	} else if (d->repro_direct != NULL) {
		buf_adds(b, "Or run it directly, pinned to the same number of cores:");
		buf_adds(b, "\n\n");
		markdown_fence(b, "sh", d->repro_direct);
		buf_addc(b, '\n');
	}
}

/* The body with the first failure cut to budget bytes. The template is
 * English whatever the user's locale: it is written for the project's
 * maintainers, not for the person posting. */
static char *
post_draft_render_body(const struct post_draft *d, size_t budget)
{
	struct buf b;

	buf_init(&b);
	buf_adds(&b, "## What happens");
	buf_adds(&b, "\n\n");
	if (d->description != NULL) {
		buf_adds(&b, d->description);
		buf_addc(&b, '\n');
	}
	post_draft_render_evidence(&b, d, budget);
	if (d->notes != NULL) {
		buf_adds(&b, d->notes);
		buf_addc(&b, '\n');
	}

	buf_adds(&b, "## Why");
	buf_adds(&b, "\n\n");
	if (d->why != NULL) {
		buf_adds(&b, "Not triaged yet. What flakesweep measured:");
		buf_adds(&b, "\n\n");
		markdown_fence(&b, "text", d->why);
		buf_addc(&b, '\n');
	} else {
		buf_adds(&b, "Not triaged yet.");
		buf_adds(&b, "\n\n");
	}
	buf_adds(&b, "## Expected");
	buf_adds(&b, "\n\n");
	markdown_code(&b, d->test);
	buf_adds(&b, " passes every run at every pair of CPU count and load.");
	buf_adds(&b, "\n\n");
	buf_adds(&b, "## References");
	buf_adds(&b, "\n\n");
	if (d->src_repo != NULL && d->source_path != NULL && post_draft_is_hex_commit(d->commit)) {
		buf_adds(&b, d->source_line > 0 ? "- The test's source at the commit: "
		                                : "- The test's package at the commit: ");
		buf_printf(&b, "%s/%s/%s/%s/", d->web_base, d->src_repo,
		           d->source_line > 0 ? "blob" : "tree", d->commit);
		markdown_url_path(&b, d->source_path);
		if (d->source_line > 0)
			buf_printf(&b, "#L%d", d->source_line);
		buf_addc(&b, '\n');
	}
	if (d->closed_url != NULL)
		buf_printf(&b, "- An earlier report, closed: %s\n", d->closed_url);
	buf_adds(&b, "- Test id: ");
	markdown_code(&b, d->test_shown);
	buf_adds(&b, ", measured by flakesweep");
	buf_adds(&b, "\n\n");
	buf_printf(&b, "<!-- %s -->\n", d->marker);
	return buf_steal(&b);
}

/* Renders the body within POST_BODY_MAX bytes, cutting the first failure
 * as far as needed. Returns 0, or -EFBIG when the description and notes
 * alone leave no room. */
static int
post_draft_render(struct post_draft *d)
{
	size_t excerpt = 0, i;
	char *body;

	post_draft_render_title(d);
	for (i = 0; i < d->ff_nlines; i++)
		excerpt += strlen(d->ff_lines[i]) + 1;
	if (excerpt > POST_DRAFT_EXCERPT_MAX)
		excerpt = POST_DRAFT_EXCERPT_MAX;
	body = post_draft_render_body(d, excerpt);
	/* Cutting keeps whole lines, so it may cut less than asked: shrink the
	 * budget by what is still over until it fits. */
	while (strlen(body) > POST_BODY_MAX) {
		size_t over = strlen(body) - POST_BODY_MAX + 200;

		free(body);
		if (excerpt < over + POST_DRAFT_EXCERPT_MIN)
			return -EFBIG;
		excerpt -= over;
		body = post_draft_render_body(d, excerpt);
	}
	d->budget = excerpt;
	free(d->body);
	d->body = mask_text(d->mask, body);
	free(body);
	body = mask_text(d->mask, d->title);
	free(d->title);
	d->title = body;
	return 0;
}

void
post_draft_free(struct post_draft *d)
{
	if (d == NULL)
		return;
	free(d->test_id);
	free(d->test_shown);
	free(d->package);
	free(d->test);
	free(d->level);
	free(d->driver);
	free(d->toolchain);
	free(d->commit);
	free(d->pairs);
	free(d->ff_phase);
	free(d->ff_seed);
	free(d->ff_log);
	markdown_free_lines(d->ff_lines, d->ff_nlines);
	free(d->repro_flakesweep);
	free(d->repro_direct);
	free(d->description);
	free(d->notes);
	free(d->why);
	free(d->repo);
	free(d->src_repo);
	free(d->web_base);
	free(d->source_path);
	free(d->top);
	free(d->closed_url);
	free(d->marker);
	free(d->decisions_path);
	free(d->title);
	free(d->body);
	mask_free(d->mask);
	free(d);
}

static char *
post_draft_results_dir(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (slash == NULL)
		return xstrdup(".");
	if (slash == path)
		return xstrdup("/");
	return xstrndup(path, (size_t)(slash - path));
}

static char *
post_draft_name(const char *s)
{
	return s != NULL ? markdown_clean_name(s) : NULL;
}

/* The causes the report names for t, and its interference advice: the
 * post's "Why", in a fence (a polluter's name is test output). */
static void
post_draft_read_why(struct post_draft *d, const struct results *r, const struct results_test *t)
{
	struct causes *c = causes_new(r);
	struct buf b, out;
	double p;
	char **lines;
	size_t n, i;

	buf_init(&b);
	causes_text(&b, c, (size_t)(t - r->tests));
	interference_text(&b, t);
	d->interference = interference_named(t, &p);
	causes_free(c);
	buf_add(&b, "", 0);
	/* The report's lines, without the report's indent. */
	lines = markdown_split_lines(b.data, &n);
	buf_free(&b);
	buf_init(&out);
	for (i = 0; i < n; i++)
		if (lines[i][strspn(lines[i], " ")] != '\0')
			buf_printf(&out, "%s\n", lines[i] + strspn(lines[i], " "));
	markdown_free_lines(lines, n);
	buf_add(&out, "", 0);
	d->why = out.len > 1 ? markdown_clean_text(out.data) : NULL;
	buf_free(&out);
}

/* Fills d from the results' project, machine and test t. */
static void
post_draft_read(struct post_draft *d, const struct results *r, const struct results_meta *m,
                const struct results_test *t)
{
	const struct results_meta_test *mt = &m->tests[t - r->tests];
	const char *f = mt->reproduce_flakesweep, *x = mt->reproduce_direct;
	int i;

	d->test_id = xstrdup(t->id);
	d->test_shown = markdown_clean_name(t->id);
	d->package = markdown_clean_name(r->pkgs[t->pkg].name);
	d->test = markdown_clean_name(t->test);
	d->level = markdown_clean_name(r->pkgs[t->pkg].level);
	d->driver = post_draft_name(m->driver);
	d->toolchain = post_draft_name(m->toolchain);
	d->commit = post_draft_name(m->commit);
	d->cores = m->cores;
	d->keep = m->keep;
	d->nlanes = m->nlanes;
	d->lane_width = m->lane_width;
	for (i = 0; i < t->ncells; i++)
		post_draft_add_pair(d, &t->cells[i]);
	if (d->npairs > 1)
		qsort(d->pairs, d->npairs, sizeof *d->pairs, post_draft_cmp_pairs);
	post_draft_read_first_failure(d, t->first, mt->first_lines);
	post_draft_read_why(d, r, t);
	d->repro_flakesweep = f != NULL ? markdown_clean_line(f, strlen(f), false) : NULL;
	d->repro_direct = x != NULL ? markdown_clean_line(x, strlen(x), false) : NULL;
}

/* The values a draft masks: those of its own environment's variables that
 * look like secrets and of the sweep's --mask-env names (config, from
 * results.json). Not GitHub's tokens: a draft that holds one is refused. */
static struct mask *
post_draft_mask(const cJSON *config)
{
	const cJSON *x;
	struct mask *m = mask_new();
	char **env = NULL, **names = NULL;
	size_t n = 0, nnames = 0, i;

	cJSON_ArrayForEach(x, cJSON_GetObjectItemCaseSensitive(config, "mask_env"))
	{
		if (cJSON_IsString(x))
			util_strv_add(&names, &nnames, x->valuestring);
	}
	for (i = 0; environ[i] != NULL; i++) {
		const char *eq = strchr(environ[i], '=');

		if (eq != NULL && !github_env_token_in(eq + 1))
			util_strv_add(&env, &n, environ[i]);
	}
	mask_add_environ(m, env, names, nnames);
	util_strv_free(env);
	util_strv_free(names);
	return m;
}

/* Whether anything of test t in the results, shown or not, holds a token. */
static bool
post_draft_test_holds_token(const struct results *r, const struct results_meta *m,
                            const struct results_test *t)
{
	const struct results_meta_test *mt = &m->tests[t - r->tests];
	const struct results_failure *f = t->first;
	size_t i;

	if (github_env_token_in(t->id) || github_env_token_in(t->test) ||
	    github_env_token_in(r->pkgs[t->pkg].name) || github_env_token_in(r->pkgs[t->pkg].level))
		return true;
	if ((mt->reproduce_flakesweep != NULL && github_env_token_in(mt->reproduce_flakesweep)) ||
	    (mt->reproduce_direct != NULL && github_env_token_in(mt->reproduce_direct)))
		return true;
	for (i = 0; mt->first_lines != NULL && mt->first_lines[i] != NULL; i++) {
		if (github_env_token_in(mt->first_lines[i]))
			return true;
	}
	return f != NULL && ((f->seed != NULL && github_env_token_in(f->seed)) ||
	                     (f->reason != NULL && github_env_token_in(f->reason)) ||
	                     (f->log != NULL && github_env_token_in(f->log)));
}

/* Finds the test's source through its driver: sets d->source_path
 * (relative to the checkout's top) and d->source_line. */
static void
post_draft_locate(struct post_draft *d, const char *root, const char *top)
{
	const struct driver *drv = d->driver != NULL ? driver_find(d->driver) : NULL;
	char *dir = NULL, *file = NULL, *real_dir = NULL;
	size_t toplen = strlen(top);
	const char *rel;
	int line;

	if (drv == NULL || drv->locate_test == NULL ||
	    drv->locate_test(root, d->package, d->test, &dir, &file, &line) < 0)
		goto out;
	real_dir = realpath(dir, NULL);
	if (real_dir == NULL || strncmp(real_dir, top, toplen) != 0 ||
	    (real_dir[toplen] != '/' && real_dir[toplen] != '\0' && strcmp(top, "/") != 0))
		goto out;
	rel = real_dir + toplen;
	while (*rel == '/')
		rel++;
	if (line > 0) {
		d->source_path = *rel != '\0' ? xasprintf("%s/%s", rel, file) : xstrdup(file);
		d->source_line = line;
	} else {
		d->source_path = xstrdup(rel);
		d->source_line = 0;
	}
out:
	free(real_dir);
	free(file);
	free(dir);
}

/* Where the report goes and where links point. */
static int
post_draft_repos(struct post_draft *d, const char *proot, const char *repo, char **err)
{
	struct project_git g = {NULL, NULL, NULL, NULL};
	char *origin = NULL, *origin_repo = NULL;

	if (repo != NULL && post_draft_owner_name(repo, &d->repo) < 0) {
		*err = xasprintf(_("--repo must be OWNER/NAME: %s"), repo);
		return -EINVAL;
	}
	if (proot != NULL && project_git_find(proot, &g) == 0)
		origin = g.origin;
	if (origin != NULL && post_draft_parse_remote(origin, &origin_repo) < 0)
		origin_repo = NULL;
	if (d->repo == NULL && origin_repo != NULL)
		d->repo = xstrdup(origin_repo);
	/* Links need the source's own repository: the origin when it is on
	 * GitHub; --repo only when there is no origin to say otherwise. */
	if (origin_repo != NULL)
		d->src_repo = xstrdup(origin_repo);
	else if (origin == NULL && d->repo != NULL)
		d->src_repo = xstrdup(d->repo);
	if (g.top != NULL) {
		post_draft_locate(d, proot, g.top);
		d->top = xstrdup(g.top);
	}
	project_git_free(&g);
	free(origin_repo);
	return 0;
}

/* Replaces every "PREFIX/" in *s by nothing: paths under the checkout or
 * the output directory, made relative. */
static void
post_draft_strip(char **s, const char *prefix)
{
	char *with = xasprintf("%s/", prefix), *at;
	size_t n = strlen(with);

	while (*s != NULL && strcmp(prefix, "/") != 0 && (at = strstr(*s, with)) != NULL)
		memmove(at, at + n, strlen(at + n) + 1);
	free(with);
}

/* The reproduce commands relative to the repository's root, and no path
 * of this machine in the first failure's lines (see post-repro.h). A
 * command that cannot be made so is left out. */
static void
post_draft_relative(struct post_draft *d, const struct results_meta *m,
                    const struct results_meta_test *mt, const char *outdir)
{
	const cJSON *race = cJSON_GetObjectItemCaseSensitive(m->config, "race");
	const cJSON *tags = cJSON_GetObjectItemCaseSensitive(m->config, "tags");
	struct post_repro_build b = {!cJSON_IsFalse(race),
	                             cJSON_IsString(tags) ? tags->valuestring : NULL};
	const char *raw[2] = {mt->reproduce_flakesweep, mt->reproduce_direct};
	char **out[2] = {&d->repro_flakesweep, &d->repro_direct};
	size_t i;

	for (i = 0; i < 2; i++) {
		char *rel;

		if (raw[i] == NULL)
			continue;
		rel = post_repro_relative(raw[i], d->top, i == 0 ? NULL : m->driver, &b);
		free(*out[i]);
		*out[i] = rel != NULL ? markdown_clean_line(rel, strlen(rel), false) : NULL;
		free(rel);
	}
	for (i = 0; i < d->ff_nlines; i++) {
		if (d->top != NULL)
			post_draft_strip(&d->ff_lines[i], d->top);
		if (m->root != NULL)
			post_draft_strip(&d->ff_lines[i], m->root);
		post_draft_strip(&d->ff_lines[i], outdir);
	}
}

bool
post_draft_holds_token(const struct post_draft *d)
{
	return github_env_token_in(d->title) || github_env_token_in(d->body);
}

int
post_draft_new(const struct post_input *in, struct post_draft **out, char **err)
{
	struct post_draft *d = NULL;
	struct results *r = NULL;
	struct results_meta m;
	const struct results_test *t;
	const struct results_cell *bad;
	char *shown = NULL;
	int rc;

	*out = NULL;
	*err = NULL;
	memset(&m, 0, sizeof m);
	rc = in->description != NULL ? markdown_check_text(in->description, _("description"), err)
	                             : 0;
	if (rc == 0 && in->notes != NULL)
		rc = markdown_check_text(in->notes, _("notes"), err);
	if (rc < 0)
		return rc;
	shown = markdown_clean_name(in->test_id);
	rc = results_load(in->results_path, &r, &m, err);
	if (rc < 0)
		goto out;
	if (!harness_clean(&r->harness)) {
		/* A harness that failed its own canaries measured nothing anyone
		 * should be asked to fix. */
		*err = xasprintf(
		    _("%s: the harness is not clean, so its results are not posted: %s"),
		    in->results_path, r->harness.nreasons > 0 ? r->harness.reasons[0] : "?");
		rc = -EINVAL;
		goto out;
	}
	t = results_find(r, in->test_id);
	if (t == NULL) {
		*err = xasprintf(_("%s is not in %s"), shown, in->results_path);
		rc = -EINVAL;
		goto out;
	}
	bad = post_draft_failing_cell(t);
	if (bad != NULL) {
		*err = xasprintf(_("%s is failing, not flaky: it failed all %lld runs at cpu %lld, "
		                   "load %lld; flakesweep posts only flaky tests"),
		                 shown, (long long)bad->runs, (long long)bad->cpu,
		                 (long long)bad->load);
		rc = -EINVAL;
		goto out;
	}
	d = xcalloc(1, sizeof *d);
	d->mask = post_draft_mask(m.config);
	post_draft_read(d, r, &m, t);
	if (d->failures[0] + d->failures[1] + d->hangs[0] + d->hangs[1] == 0) {
		*err = xasprintf(_("%s passed every run (%lld): there is nothing to report"), shown,
		                 (long long)(d->runs[0] + d->runs[1]));
		rc = -EINVAL;
		goto out;
	}
	d->description = in->description != NULL ? markdown_clean_text(in->description) : NULL;
	d->notes = in->notes != NULL ? markdown_clean_text(in->notes) : NULL;
	d->web_base = github_web_base();
	post_draft_hash(in->test_id, d->hash);
	d->marker = xasprintf("flakesweep:id=%s", d->hash);
	{
		char *dir = post_draft_results_dir(in->results_path);

		d->decisions_path = xasprintf("%s/%s", dir, DECISIONS_FILE);
		free(dir);
	}
	rc = post_draft_repos(d, m.root, in->repo, err);
	if (rc < 0)
		goto out;
	{
		char *dir = post_draft_results_dir(in->results_path);

		post_draft_relative(d, &m, &m.tests[t - r->tests], dir);
		free(dir);
	}
	rc = post_draft_render(d);
	if (rc < 0) {
		*err = xasprintf(_("the description and notes are too long: the report must stay "
		                   "under %d bytes"),
		                 POST_BODY_MAX);
		rc = -EINVAL;
		goto out;
	}
	if (post_draft_test_holds_token(r, &m, t) || post_draft_holds_token(d)) {
		*err = xstrdup(_(POST_TOKEN_REFUSAL));
		rc = -EPERM;
		goto out;
	}
	*out = d;
	d = NULL;
out:
	post_draft_free(d);
	results_meta_free(&m);
	results_free(r);
	free(shown);
	return rc;
}

const char *
post_draft_title(const struct post_draft *d)
{
	return d->title;
}

const char *
post_draft_body(const struct post_draft *d)
{
	return d->body;
}

const char *
post_draft_repo(const struct post_draft *d)
{
	return d->repo;
}

const char *
post_draft_test(const struct post_draft *d)
{
	return d->test_id;
}

const char *
post_draft_marker(const struct post_draft *d)
{
	return d->marker;
}

const char *
post_draft_test_name(const struct post_draft *d)
{
	return d->test;
}

const char *
post_draft_test_shown(const struct post_draft *d)
{
	return d->test_shown;
}

const char *
post_draft_id_hash(const struct post_draft *d)
{
	return d->hash;
}

const char *
post_draft_decisions_path(const struct post_draft *d)
{
	return d->decisions_path;
}

int
post_draft_new_test(const char *test_id, const char *repo, const char *checkout,
                    struct post_draft **out, char **err)
{
	struct post_draft *d = xcalloc(1, sizeof *d);
	const char *sep = strstr(test_id, "::");
	int rc;

	d->test_id = xstrdup(test_id);
	d->test_shown = markdown_clean_name(test_id);
	d->package = sep != NULL ? xstrndup(test_id, (size_t)(sep - test_id)) : xstrdup("");
	d->test = markdown_clean_name(sep != NULL ? sep + 2 : test_id);
	post_draft_hash(test_id, d->hash);
	d->marker = xasprintf("flakesweep:id=%s", d->hash);
	d->web_base = github_web_base();
	rc = post_draft_repos(d, checkout, repo, err);
	if (rc < 0) {
		post_draft_free(d);
		d = NULL;
	}
	*out = d;
	return rc;
}

bool
post_draft_has_description(const struct post_draft *d)
{
	return d->description != NULL;
}

char *
post_draft_comment(const struct post_draft *d, bool reopened)
{
	struct buf b;
	char *text;

	buf_init(&b);
	if (reopened) {
		markdown_code(&b, d->test);
		buf_adds(&b, " failed again after this discussion was closed as fixed, so "
		             "flakesweep reopened it.");
	} else {
		buf_adds(&b, "flakesweep measured ");
		markdown_code(&b, d->test);
		buf_adds(&b, " again.");
	}
	buf_adds(&b, "\n\n");
	if (d->description != NULL) {
		buf_adds(&b, d->description);
		buf_addc(&b, '\n');
	}
	post_draft_render_evidence(&b, d, d->budget);
	if (d->notes != NULL) {
		buf_adds(&b, d->notes);
		buf_addc(&b, '\n');
	}
	text = mask_text(d->mask, b.data);
	buf_free(&b);
	return text;
}

void
post_draft_set_closed_report(struct post_draft *d, const char *url)
{
	free(d->closed_url);
	d->closed_url = url != NULL ? markdown_clean_name(url) : NULL;
	if (post_draft_render(d) < 0) {
		/* The link made it too long: leave it out rather than not post. */
		free(d->closed_url);
		d->closed_url = NULL;
		post_draft_render(d);
	}
}
