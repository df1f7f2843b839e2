/* SPDX-License-Identifier: MIT */
/*
 * post-draft.h: the bug report of one measured flaky test, as a draft
 * (DESIGN section 9): results.json rendered into the fixed template
 * (title, What happens, Why, Expected, References, hidden marker) after
 * the checks that refuse tests that are not flaky. post.h posts it.
 */
#ifndef FLAKESWEEP_POST_DRAFT_H
#define FLAKESWEEP_POST_DRAFT_H

#include <stdbool.h>

/* GitHub refuses bodies over 65,536 characters; bytes are never fewer. */
#define POST_BODY_MAX 60000
/* Largest description or notes file read (bytes). */
#define POST_TEXT_MAX 65536

struct post_input {
	const char *results_path; /* results.json of a sweep */
	const char *test_id;      /* "PACKAGE::TEST" */
	const char *description;  /* Markdown without headings; NULL: only a comment */
	const char *notes;        /* Markdown without headings, or NULL */
	const char *repo;         /* "OWNER/NAME" to post to, or NULL: the origin remote */
};

struct post_draft;

/* Reads the results, checks that the test may be reported and renders the
 * report. Refuses (returns -EINVAL with *err set to one line, caller
 * frees): results whose harness is not clean (a canary misbehaved, the
 * first reason named), a test not in the results, one that passed every run, one that
 * is failing (every run at some pair failed), an empty description or
 * notes, or one with a Markdown heading. Other errors: a negative errno
 * for the results file, -EBADMSG when it is not a flakesweep results
 * file. The repository is optional here: without one the draft has no
 * links and cannot be posted. Reads the project's git files and, through
 * its driver, the test's source when they are there (bounded reads). */
int post_draft_new(const struct post_input *in, struct post_draft **out, char **err);

/* The rendered title (one line) and body (Markdown, at most
 * POST_BODY_MAX bytes, ending in a newline). Owned by the draft. */
const char *post_draft_title(const struct post_draft *d);
const char *post_draft_body(const struct post_draft *d);
/* "OWNER/NAME", or NULL when no repository is known. */
const char *post_draft_repo(const struct post_draft *d);
/* The test's id (PACKAGE::TEST, the key of decisions.json), its name in
 * the package, and the id safe to print. */
const char *post_draft_test(const struct post_draft *d);
const char *post_draft_test_name(const struct post_draft *d);
const char *post_draft_test_shown(const struct post_draft *d);
/* post_draft_hash() of the test's id. */
const char *post_draft_id_hash(const struct post_draft *d);
/* "flakesweep:id=HASH", as hidden in the body. */
const char *post_draft_marker(const struct post_draft *d);
/* decisions.json beside the results file. */
const char *post_draft_decisions_path(const struct post_draft *d);

/* A draft that names only the test, for closing its discussion: no
 * results, no title or body; the repository is repo or the origin of the
 * checkout holding the directory checkout. Returns 0, or -EINVAL with
 * *err for a bad repo. */
int post_draft_new_test(const char *test_id, const char *repo, const char *checkout,
                        struct post_draft **out, char **err);

/* Whether the draft has a description: a new discussion needs one. */
bool post_draft_has_description(const struct post_draft *d);

/* A new comment (caller frees) for the test's discussion: the
 * description when there is one, then the measurements and the notes,
 * after a line saying the test was measured again or, when reopened, that
 * it failed again after the discussion was closed as fixed. */
char *post_draft_comment(const struct post_draft *d, bool reopened);

/* Adds an earlier, closed report to References and renders again. */
void post_draft_set_closed_report(struct post_draft *d, const char *url);

void post_draft_free(struct post_draft *d);

/* The refusal when a token would be shown or posted; it names neither the
 * variable nor the value. */
#define POST_TOKEN_REFUSAL                                                                 \
	N_("the report holds the value of a GitHub token from the environment: remove it " \
	   "from the results, the description and the notes; nothing was shown or sent")

/* Whether the rendered title or body holds the value of a GitHub token
 * from the environment (github_env_token_in). */
bool post_draft_holds_token(const struct post_draft *d);

/* 16 lowercase hex digits of the 64-bit FNV-1a hash of id's bytes: the
 * stable id in the hidden marker. out has at least 17 bytes. */
void post_draft_hash(const char *id, char *out);

/* Parses a GitHub remote URL (https, ssh, scp-like git@host:o/n, git) into
 * a new "OWNER/NAME" (caller frees). Returns 0, or -EINVAL when it is not a
 * GitHub repository (see github_is_github_host). */
int post_draft_parse_remote(const char *url, char **repo);

#endif
