/* SPDX-License-Identifier: MIT */
/*
 * post.h: turns a measured flaky test into a bug report in the project's
 * GitHub Discussions (DESIGN section 9). A draft is rendered from
 * results.json into the fixed template (title, What happens, Why,
 * Expected, References, hidden marker) after the checks that refuse tests
 * that are not flaky; posting is asynchronous on a libuv loop, looks for
 * an existing report first, and never posts twice. `flakesweep report`
 * (cli/cmd-report.c) and the dashboard's `p` both use it.
 */
#ifndef FLAKESWEEP_POST_H
#define FLAKESWEEP_POST_H

#include <stdbool.h>
#include <stdint.h>

#include <uv.h>

#include "github.h"

/* GitHub refuses bodies over 65,536 characters; bytes are never fewer. */
#define POST_BODY_MAX 60000
/* Largest description or notes file read (bytes). */
#define POST_TEXT_MAX 65536

struct post_input {
	const char *results_path; /* results.json of a sweep */
	const char *test_id;      /* "PACKAGE::TEST" */
	const char *description;  /* Markdown without headings, required */
	const char *notes;        /* Markdown without headings, or NULL */
	const char *repo;         /* "OWNER/NAME" to post to, or NULL: the origin remote */
};

struct post_draft;

/* Reads the results, checks that the test may be reported and renders the
 * report. Refuses (returns -EINVAL with *err set to one line, caller
 * frees): a test not in the results, one that passed every run, one that
 * is failing (every run at some pair failed), an empty description or
 * notes, or one with a Markdown heading. Other errors: a negative errno
 * for the results file, -EBADMSG when it is not a flakesweep results
 * file. The repository is optional here: without one the draft has no
 * links and cannot be posted. Reads the project's go.mod, test sources
 * and git config when they are there (small, bounded reads). */
int post_draft_new(const struct post_input *in, struct post_draft **out, char **err);

/* The rendered title (one line) and body (Markdown, at most
 * POST_BODY_MAX bytes, ending in a newline). Owned by the draft. */
const char *post_draft_title(const struct post_draft *d);
const char *post_draft_body(const struct post_draft *d);
/* "OWNER/NAME", or NULL when no repository is known. */
const char *post_draft_repo(const struct post_draft *d);
const char *post_draft_test(const struct post_draft *d);
/* "flakesweep:id=HASH", as hidden in the body. */
const char *post_draft_marker(const struct post_draft *d);
/* decisions.json beside the results file. */
const char *post_draft_decisions_path(const struct post_draft *d);

/* Adds an earlier, closed report to References and renders again. */
void post_draft_set_closed_report(struct post_draft *d, const char *url);

void post_draft_free(struct post_draft *d);

enum post_status {
	POST_POSTED,    /* created now (or found after a lost reply); url set */
	POST_EXISTS,    /* an open discussion or issue already names the test; url set */
	POST_FAILED,    /* message says why; nothing was posted */
	POST_CANCELLED, /* post_cancel(); a create in flight may still have landed */
};

struct post_result {
	enum post_status status;
	const char *url;     /* or NULL */
	const char *message; /* one line for the user, or NULL */
	bool recorded;       /* the post is in decisions.json */
};

/* Called once when a post ends; result is valid only during the call. */
typedef void (*post_done_cb)(const struct post_result *result, void *data);

struct post_options {
	const char *category;        /* discussion category by name or slug; NULL: "Bugs" */
	struct github_config github; /* endpoint, timeouts, trace, note callback */
	int max_creates;             /* createDiscussion attempts; 0: 3 */
};

/* Fills o with the defaults (github_config_init() included). */
void post_options_init(struct post_options *o);

struct post;

/* Posts the draft (taken over) on loop: repository and category, a search
 * for open and closed discussions and issues naming the test (by marker
 * and by name), then createDiscussion. A closed report is linked in the
 * body; an open one ends the post with POST_EXISTS. A create that fails
 * in a way that may have posted it is followed by the search again before
 * any retry, so the discussion is never created twice. On success the URL
 * is recorded in decisions.json. cb runs exactly once on the loop, after
 * which the post frees itself (run the loop until it is done). Returns 0
 * and *out (for post_cancel), or -EINVAL with *err (caller frees) when it
 * cannot start: no repository, no token, a bad --api-url; the draft is
 * freed either way. */
int post_start(uv_loop_t *loop, struct post_draft *d, const struct post_options *o, post_done_cb cb,
               void *data, struct post **out, char **err);

/* Stops a post: its callback runs with POST_CANCELLED (now, from this
 * call) unless it has already run. */
void post_cancel(struct post *p);

/* Helpers, public for the dashboard and the tests. */

/* 16 lowercase hex digits of the 64-bit FNV-1a hash of id's bytes: the
 * stable id in the hidden marker. out has at least 17 bytes. */
void post_test_hash(const char *id, char *out);

/* Checks a description or notes text: 0, or -EINVAL with *err (caller
 * frees) when it is empty or has a Markdown heading (ATX, setext or HTML)
 * outside a fenced block. what names it in the message. */
int post_check_text(const char *text, const char *what, char **err);

/* Parses a GitHub remote URL (https, ssh, scp-like git@host:o/n, git) into
 * a new "OWNER/NAME" (caller frees). Returns 0, or -EINVAL when it is not a
 * GitHub repository (see github_is_github_host). */
int post_parse_remote(const char *url, char **repo);

/* Whether a discussion or issue with this title and body names the test:
 * it carries the marker, or the test's full name stands alone in it (not
 * as the start of a longer name). */
bool post_names_test(const char *title, const char *body, const char *test, const char *marker);

#endif
