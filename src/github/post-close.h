/* SPDX-License-Identifier: MIT */
/*
 * post-close.h: the check behind `report --close --verified DIR`: the
 * verify record (verify.json) must say the test is fixed, at the commit
 * the checkout holds now, measured and checked out without uncommitted
 * edits. It renders the comment that closes the test's discussion
 * (post.h does the closing).
 */
#ifndef FLAKESWEEP_POST_CLOSE_H
#define FLAKESWEEP_POST_CLOSE_H

/* Largest verify.json read (bytes). */
#define POST_CLOSE_VERIFY_MAX (1 << 20)

/* Reads DIR/verify.json for the test test_id and checks it against the
 * checkout that holds the directory checkout. Returns 0 and *comment (the
 * evidence as Markdown, caller frees), or -EINVAL (or a negative errno
 * for the file) with *err (one line naming the file and why, caller
 * frees). */
int post_close_check(const char *dir, const char *test_id, const char *checkout, char **comment,
                     char **err);

struct post_draft;

/* post_close_check, then the draft that names the test
 * (post_draft_new_test, repo or the checkout's origin): what `report
 * --close` and the dashboard's V post, with *comment as the post's
 * close_comment. Returns 0 with *d and *comment (caller frees both), or a
 * negative errno with *err (caller frees) and nothing else. */
int post_close_prepare(const char *dir, const char *test_id, const char *checkout, const char *repo,
                       struct post_draft **d, char **comment, char **err);

#endif
