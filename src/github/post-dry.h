/* SPDX-License-Identifier: MIT */
/*
 * post-dry.h: what a post would send, for `report --dry-run`: each
 * GraphQL request (post-docs.h), document and variables, in the order the
 * post sends them, the ids that only GitHub's replies give shown as
 * placeholders. It sends nothing and never shows the token.
 */
#ifndef FLAKESWEEP_POST_DRY_H
#define FLAKESWEEP_POST_DRY_H

#include "github/post.h"

/* The requests post_start(d, o) would send, as text for the user (caller
 * frees): the endpoint, then each request's name, document and variables;
 * after the searches, each branch their answer may take (a new
 * discussion, a comment on an open one, a reopen of one closed as fixed;
 * with o->close_comment, the comment and the close). Returns NULL with
 * *err (caller frees) for a bad o->github.api_url. */
char *post_dry_text(const struct post_draft *d, const struct post_options *o, char **err);

#endif
