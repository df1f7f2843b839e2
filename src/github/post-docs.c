/* SPDX-License-Identifier: MIT */
/*
 * post-docs.c: the GraphQL documents a post sends and the variables each
 * is sent with, shared by the post itself (post.c) and its dry run
 * (post-dry.c). It never sends anything.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "github/markdown.h"
#include "github/post-docs.h"
#include "base/util.h"

#define POST_DOCS_PHRASE_MAX 120

const char post_doc_repo[] = "query RepoAndCategories($owner: String!, $name: String!) {\n"
                             "  repository(owner: $owner, name: $name) {\n"
                             "    id\n"
                             "    nameWithOwner\n"
                             "    hasDiscussionsEnabled\n"
                             "    discussionCategories(first: 25) {\n"
                             "      nodes { id name slug }\n"
                             "      pageInfo { hasNextPage endCursor }\n"
                             "    }\n"
                             "  }\n"
                             "}\n";

const char post_doc_find[] =
    "query FindReports($owner: String!, $name: String!, $discussionsByMarker: String!,\n"
    "                  $discussionsByName: String!, $issuesByMarker: String!,\n"
    "                  $issuesByName: String!) {\n"
    "  repository(owner: $owner, name: $name) {\n"
    "    discussions(first: 30, orderBy: {field: CREATED_AT, direction: DESC}) {\n"
    "      nodes { id number url title body closed stateReason }\n"
    "    }\n"
    "  }\n"
    "  discussionsByMarker: search(type: DISCUSSION, query: $discussionsByMarker, first: 20) {\n"
    "    nodes { ... on Discussion { id number url title body closed stateReason } }\n"
    "  }\n"
    "  discussionsByName: search(type: DISCUSSION, query: $discussionsByName, first: 20) {\n"
    "    nodes { ... on Discussion { id number url title body closed stateReason } }\n"
    "  }\n"
    "  issuesByMarker: search(type: ISSUE, query: $issuesByMarker, first: 20) {\n"
    "    nodes { ... on Issue { number url title body closed } }\n"
    "  }\n"
    "  issuesByName: search(type: ISSUE, query: $issuesByName, first: 20) {\n"
    "    nodes { ... on Issue { number url title body closed } }\n"
    "  }\n"
    "}\n";

const char post_doc_create[] = "mutation CreateDiscussion($input: CreateDiscussionInput!) {\n"
                               "  createDiscussion(input: $input) {\n"
                               "    clientMutationId\n"
                               "    discussion { id number url }\n"
                               "  }\n"
                               "}\n";

const char post_doc_comment[] =
    "mutation AddDiscussionComment($input: AddDiscussionCommentInput!) {\n"
    "  addDiscussionComment(input: $input) {\n"
    "    clientMutationId\n"
    "    comment { id url }\n"
    "  }\n"
    "}\n";

const char post_doc_close[] = "mutation CloseDiscussion($input: CloseDiscussionInput!) {\n"
                              "  closeDiscussion(input: $input) {\n"
                              "    clientMutationId\n"
                              "    discussion { id url closed stateReason }\n"
                              "  }\n"
                              "}\n";

const char post_doc_reopen[] = "mutation ReopenDiscussion($input: ReopenDiscussionInput!) {\n"
                               "  reopenDiscussion(input: $input) {\n"
                               "    clientMutationId\n"
                               "    discussion { id url closed }\n"
                               "  }\n"
                               "}\n";

/* A phrase for GitHub's search: no quotes or backslashes, bounded. */
static char *
post_docs_phrase(const char *s)
{
	char *p = xstrdup(s), *q;

	for (q = p; *q != '\0'; q++) {
		if (*q == '"' || *q == '\\')
			*q = ' ';
	}
	markdown_cut_utf8(p, POST_DOCS_PHRASE_MAX);
	return p;
}

cJSON *
post_docs_repo_vars(const char *owner, const char *name)
{
	cJSON *v = cJSON_CreateObject();

	cJSON_AddStringToObject(v, "owner", owner);
	cJSON_AddStringToObject(v, "name", name);
	return v;
}

cJSON *
post_docs_find_vars(const char *owner, const char *name, const struct post_draft *d)
{
	cJSON *v = post_docs_repo_vars(owner, name);
	char *phrase = post_docs_phrase(post_draft_test_name(d));
	char *repo = xasprintf("repo:%s/%s", owner, name);
	char *q;

	q = xasprintf("%s \"%s\"", repo, post_draft_marker(d));
	cJSON_AddStringToObject(v, "discussionsByMarker", q);
	free(q);
	q = xasprintf("%s \"%s\"", repo, phrase);
	cJSON_AddStringToObject(v, "discussionsByName", q);
	free(q);
	q = xasprintf("%s is:issue \"%s\"", repo, post_draft_marker(d));
	cJSON_AddStringToObject(v, "issuesByMarker", q);
	free(q);
	q = xasprintf("%s is:issue \"%s\"", repo, phrase);
	cJSON_AddStringToObject(v, "issuesByName", q);
	free(q);
	free(repo);
	free(phrase);
	return v;
}

cJSON *
post_docs_create_vars(const char *repo_id, const char *category_id, const struct post_draft *d,
                      int attempt)
{
	cJSON *v = cJSON_CreateObject(), *input = cJSON_CreateObject();
	char *cmid = xasprintf("flakesweep-%s-%d", post_draft_id_hash(d), attempt);

	cJSON_AddStringToObject(input, "repositoryId", repo_id);
	cJSON_AddStringToObject(input, "categoryId", category_id);
	cJSON_AddStringToObject(input, "title", post_draft_title(d));
	cJSON_AddStringToObject(input, "body", post_draft_body(d));
	cJSON_AddStringToObject(input, "clientMutationId", cmid);
	cJSON_AddItemToObject(v, "input", input);
	free(cmid);
	return v;
}

cJSON *
post_docs_discussion_vars(const char *disc_id, cJSON *input)
{
	cJSON *v = cJSON_CreateObject();

	if (input == NULL)
		input = cJSON_CreateObject();
	cJSON_AddStringToObject(input, "discussionId", disc_id);
	cJSON_AddItemToObject(v, "input", input);
	return v;
}

cJSON *
post_docs_comment_input(const char *body)
{
	cJSON *input = cJSON_CreateObject();

	cJSON_AddStringToObject(input, "body", body);
	return input;
}

cJSON *
post_docs_close_input(void)
{
	cJSON *input = cJSON_CreateObject();

	cJSON_AddStringToObject(input, "reason", "RESOLVED");
	return input;
}
