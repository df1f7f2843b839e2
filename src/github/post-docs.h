/* SPDX-License-Identifier: MIT */
/*
 * post-docs.h: the GraphQL requests a post sends (post.h): each document
 * and the variables it is sent with. The post sends them; a dry run
 * (post-dry.h) prints them. Nothing here talks to GitHub.
 */
#ifndef FLAKESWEEP_POST_DOCS_H
#define FLAKESWEEP_POST_DOCS_H

#include <cjson/cJSON.h>

#include "github/post-draft.h"

/* The documents, GitHub's GraphQL (checked against its schema in tests). */
extern const char post_doc_repo[];    /* RepoAndCategories */
extern const char post_doc_find[];    /* FindReports */
extern const char post_doc_create[];  /* CreateDiscussion */
extern const char post_doc_comment[]; /* AddDiscussionComment */
extern const char post_doc_close[];   /* CloseDiscussion */
extern const char post_doc_reopen[];  /* ReopenDiscussion */

/* The variables of each request (caller frees with cJSON_Delete). */

/* RepoAndCategories: the repository owner/name. */
cJSON *post_docs_repo_vars(const char *owner, const char *name);
/* FindReports: the searches for the test's marker and name in owner/name. */
cJSON *post_docs_find_vars(const char *owner, const char *name, const struct post_draft *d);
/* CreateDiscussion: the draft's title and body in the repository and
 * category of these ids; attempt (from 1) makes its clientMutationId. */
cJSON *post_docs_create_vars(const char *repo_id, const char *category_id,
                             const struct post_draft *d, int attempt);
/* A mutation of the discussion disc_id: input (taken over, or NULL for an
 * empty one) gets its id. */
cJSON *post_docs_discussion_vars(const char *disc_id, cJSON *input);
/* AddDiscussionComment's input: the comment's body. */
cJSON *post_docs_comment_input(const char *body);
/* CloseDiscussion's input: closed as resolved. */
cJSON *post_docs_close_input(void);

#endif
