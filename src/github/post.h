/* SPDX-License-Identifier: MIT */
/*
 * post.h: posts a drafted bug report (post-draft.h) to the project's
 * GitHub Discussions (DESIGN section 9): asynchronously on a libuv loop,
 * looking for an existing report first, and never twice. `flakesweep
 * report` (cli/cmd-report.c) and the dashboard's `p` both use it.
 */
#ifndef FLAKESWEEP_POST_H
#define FLAKESWEEP_POST_H

#include <stdbool.h>
#include <stdint.h>

#include <uv.h>

#include "github/github.h"
#include "github/post-draft.h"

enum post_status {
	POST_POSTED,    /* created now (or found after a lost reply); url set */
	POST_COMMENTED, /* added to the test's discussion (reopened if closed as fixed);
	                   url: the comment's */
	POST_CLOSED,    /* commented and closed as resolved; url: the discussion's */
	POST_EXISTS,    /* an open issue already names the test; url set */
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
	const char *close_comment;   /* set: comment this on the open discussion and close it */
};

/* Fills o with the defaults (github_config_init() included). */
void post_options_init(struct post_options *o);

struct post;

/* Posts the draft (taken over) on loop: repository and category, a search
 * for open and closed discussions and issues naming the test (by marker
 * and by name), then createDiscussion. A closed report is linked in the
 * body; an open issue ends the post with POST_EXISTS. An open discussion
 * gets a comment with the new evidence (post_draft_comment()) and one
 * closed as fixed (RESOLVED) is reopened first: POST_COMMENTED. A draft
 * without a description is never created, only commented. With
 * o->close_comment the test's open discussion gets that comment and is
 * closed as resolved (POST_CLOSED); nothing is created. A create that fails
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

/* A helper, public for the tests. */

/* Whether a discussion or issue with this title and body names the test:
 * it carries the marker, or the test's full name stands alone in it (not
 * as the start of a longer name). */
bool post_names_test(const char *title, const char *body, const char *test, const char *marker);

#endif
