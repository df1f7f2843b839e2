/* SPDX-License-Identifier: MIT */
/*
 * post-dry.c: the requests a post would send, printed for a dry run with
 * the documents and variables post-docs.c gives the post itself. It never
 * sends anything, and the token never appears: the Authorization header
 * is shown masked.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "base/jsonw.h"
#include "base/util.h"
#include "github/github.h"
#include "github/post-docs.h"
#include "github/post-dry.h"

/* The ids only GitHub's replies give. */
#define POST_DRY_REPO_ID "<the repository id RepoAndCategories answers>"
#define POST_DRY_CATEGORY_ID "<the id of the category RepoAndCategories answers>"
#define POST_DRY_DISCUSSION_ID "<the id of the discussion FindReports finds>"

/* One request: its number, name, when it is sent, document and
 * variables (taken over). */
static void
post_dry_request(struct buf *b, int *n, const char *name, const char *when, const char *document,
                 cJSON *vars)
{
	char *text = jsonw_print(vars, true);

	buf_printf(b, "\n#%d. %s", ++*n, name);
	if (when != NULL)
		buf_printf(b, " (%s)", when);
	buf_printf(b, "\n%s# variables\n%s\n", document, text);
	free(text);
	cJSON_Delete(vars);
}

/* A comment on the discussion found, reopened first when reopen. */
static void
post_dry_follow(struct buf *b, int *n, const char *body, const char *when, bool reopen)
{
	if (reopen)
		post_dry_request(b, n, "ReopenDiscussion", when, post_doc_reopen,
		                 post_docs_discussion_vars(POST_DRY_DISCUSSION_ID, NULL));
	post_dry_request(
	    b, n, "AddDiscussionComment", reopen ? _("then") : when, post_doc_comment,
	    post_docs_discussion_vars(POST_DRY_DISCUSSION_ID, post_docs_comment_input(body)));
}

char *
post_dry_text(const struct post_draft *d, const struct post_options *o, char **err)
{
	const char *repo = post_draft_repo(d), *slash = repo != NULL ? strchr(repo, '/') : NULL;
	char *url = github_endpoint(o->github.api_url, err), *owner, *name, *comment;
	struct buf b;
	int n = 0;

	if (url == NULL)
		return NULL;
	owner = slash != NULL ? xstrndup(repo, (size_t)(slash - repo)) : xstrdup("<OWNER>");
	name = xstrdup(slash != NULL ? slash + 1 : "<NAME>");
	buf_init(&b);
	buf_printf(&b,
	           _("\n-- the GraphQL requests, as they would be POSTed to %s with the header "
	             "Authorization: bearer *** (the token is never shown); nothing was sent --\n"),
	           url);
	if (repo == NULL)
		buf_printf(&b, "%s\n",
		           _("(no repository: the project has no GitHub origin remote; --repo "
		             "OWNER/NAME names one)"));
	post_dry_request(&b, &n, "RepoAndCategories", NULL, post_doc_repo,
	                 post_docs_repo_vars(owner, name));
	post_dry_request(&b, &n, "FindReports", NULL, post_doc_find,
	                 post_docs_find_vars(owner, name, d));
	if (o->close_comment != NULL) {
		post_dry_follow(&b, &n, o->close_comment,
		                _("on the open discussion that names the test"), false);
		post_dry_request(
		    &b, &n, "CloseDiscussion", _("then"), post_doc_close,
		    post_docs_discussion_vars(POST_DRY_DISCUSSION_ID, post_docs_close_input()));
		goto out;
	}
	if (post_draft_has_description(d))
		post_dry_request(
		    &b, &n, "CreateDiscussion", _("when no discussion or issue names the test"),
		    post_doc_create,
		    post_docs_create_vars(POST_DRY_REPO_ID, POST_DRY_CATEGORY_ID, d, 1));
	comment = post_draft_comment(d, false);
	post_dry_follow(&b, &n, comment,
	                post_draft_has_description(d)
	                    ? _("or, when an open discussion names the test")
	                    : _("when an open discussion names the test"),
	                false);
	free(comment);
	comment = post_draft_comment(d, true);
	post_dry_follow(&b, &n, comment, _("or, when one closed as fixed names it"), true);
	free(comment);
out:
	free(owner);
	free(name);
	free(url);
	return buf_steal(&b);
}
