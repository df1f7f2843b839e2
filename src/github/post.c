/* SPDX-License-Identifier: MIT */
/*
 * post.c: posts a drafted bug report (post-draft.c) to GitHub
 * Discussions (DESIGN section 9): it finds an earlier open report first,
 * creates the discussion and records it in decisions.json. It never posts
 * twice. HTTP is github.c's business; this file never touches a socket.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/decisions.h"
#include "github/github.h"
#include "github/markdown.h"
#include "github/post-docs.h"
#include "github/post.h"
#include "base/sanitize.h"
#include "base/timefmt.h"
#include "base/util.h"

#define POST_DEFAULT_CATEGORY "Bugs"
#define POST_DEFAULT_CREATES 3

static bool
post_name_char(unsigned char c)
{
	return isalnum(c) || c == '_' || c == '/' || c >= 0x80;
}

static bool
post_contains_bounded(const char *hay, const char *needle)
{
	size_t n = strlen(needle);
	const char *p = hay;

	if (hay == NULL || n == 0)
		return false;
	while ((p = strstr(p, needle)) != NULL) {
		bool left = p == hay || !post_name_char((unsigned char)p[-1]);
		bool right = !post_name_char((unsigned char)p[n]);

		if (left && right)
			return true;
		p++;
	}
	return false;
}

bool
post_names_test(const char *title, const char *body, const char *test, const char *marker)
{
	if (body != NULL && marker != NULL && strstr(body, marker) != NULL)
		return true;
	return post_contains_bounded(title, test) || post_contains_bounded(body, test);
}

struct post {
	uv_loop_t *loop;
	struct post_draft *d;
	struct github *gh;
	uv_timer_t timer;
	bool timer_open;
	char *category;
	int max_creates;
	int creates;
	bool created_maybe; /* a create may have landed: a match with our marker is ours */
	post_done_cb cb;
	void *data;
	bool done;
	char *owner, *name;
	char *repo_id, *category_id;
	char *disc_id, *disc_url; /* the discussion a comment goes to */
	bool reopened;
	char *close_comment; /* or NULL */
	github_note_cb note;
	void *note_data;
	int64_t max_wait_ms;
};

void
post_options_init(struct post_options *o)
{
	memset(o, 0, sizeof *o);
	github_config_init(&o->github);
}

static void
post_closed(uv_handle_t *h)
{
	struct post *p = h->data;

	free(p->category);
	free(p->owner);
	free(p->name);
	free(p->repo_id);
	free(p->category_id);
	free(p->disc_id);
	free(p->disc_url);
	free(p->close_comment);
	free(p);
}

static void
post_finish(struct post *p, enum post_status status, const char *url, const char *message)
{
	struct post_result r;
	char *msg = message != NULL ? xstrdup(message) : NULL;
	char *u = url != NULL ? xstrdup(url) : NULL;

	if (p->done)
		goto out;
	p->done = true;
	if (u != NULL && !github_web_url_ok(p->gh, u)) {
		/* Never printed raw, stored or linked: a server could send anything. */
		char *shown = sanitize_text(u, strlen(u));

		github_mask(p->gh, shown);
		free(msg);
		msg =
		    xasprintf(status == POST_POSTED
		                  ? _("GitHub answered with a discussion URL that is not a GitHub "
		                      "page (%s); the discussion may exist, but nothing was "
		                      "recorded")
		                  : _("GitHub answered with a URL that is not a GitHub page: %s"),
		              shown);
		free(shown);
		free(u);
		u = NULL;
		status = POST_FAILED;
	}
	memset(&r, 0, sizeof r);
	r.status = status;
	github_mask(p->gh, u);
	github_mask(p->gh, msg);
	r.url = u;
	r.message = msg;
	if (status == POST_POSTED) {
		int rc = decisions_record(post_draft_decisions_path(p->d), post_draft_test(p->d),
		                          "posted", u, NULL, util_now_ms());

		r.recorded = rc == 0;
		if (rc < 0) {
			char *why = decisions_error(post_draft_decisions_path(p->d), rc);

			free(msg);
			msg = xasprintf(_("posted, but it could not be recorded: %s"), why);
			free(why);
			r.message = msg;
		}
	}
	p->cb(&r, p->data);
	uv_timer_stop(&p->timer);
	github_free(p->gh);
	p->gh = NULL;
	post_draft_free(p->d);
	p->d = NULL;
	uv_close((uv_handle_t *)&p->timer, post_closed);
out:
	free(msg);
	free(u);
}

static void post_find(struct post *p);
static void post_create(struct post *p);
static void post_follow(struct post *p, const char *id, const char *url, bool reopen);
static void post_close(struct post *p);

static void
post_note(struct post *p, const char *line)
{
	if (p->note != NULL)
		p->note(line, p->note_data);
}

static void
post_repo_reply(const struct github_reply *r, void *data)
{
	struct post *p = data;
	const cJSON *repo = cJSON_GetObjectItemCaseSensitive(r->data, "repository"), *cats, *c;
	const char *id;
	struct buf names;
	char *msg;

	if (r->error == GITHUB_ERR_NOT_FOUND || (r->error == GITHUB_OK && cJSON_IsNull(repo))) {
		msg =
		    xasprintf(_("repository %s/%s was not found, or the token in %s cannot see it"),
		              p->owner, p->name, github_token_source(p->gh));
		post_finish(p, POST_FAILED, NULL, msg);
		free(msg);
		return;
	}
	if (r->error != GITHUB_OK) {
		post_finish(p, POST_FAILED, NULL, r->message);
		return;
	}
	id = github_json_string(repo, "id");
	cats = cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetObjectItemCaseSensitive(repo, "discussionCategories"), "nodes");
	if (id == NULL || !cJSON_IsArray(cats)) {
		post_finish(p, POST_FAILED, NULL,
		            _("unexpected reply from GitHub: no repository id"));
		return;
	}
	if (!cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(repo, "hasDiscussionsEnabled"))) {
		msg = xasprintf(_("Discussions are not enabled in %s/%s"), p->owner, p->name);
		post_finish(p, POST_FAILED, NULL, msg);
		free(msg);
		return;
	}
	p->repo_id = xstrdup(id);
	if (p->close_comment != NULL) {
		post_find(p);
		return;
	}
	buf_init(&names);
	cJSON_ArrayForEach(c, cats)
	{
		const char *name = github_json_string(c, "name"),
		           *slug = github_json_string(c, "slug"),
		           *cid = github_json_string(c, "id");

		if (name == NULL || cid == NULL)
			continue;
		if (strcasecmp(name, p->category) == 0 ||
		    (slug != NULL && strcasecmp(slug, p->category) == 0)) {
			p->category_id = xstrdup(cid);
			break;
		}
		{
			char *clean = markdown_clean_name(name);

			buf_printf(&names, "%s%s", names.len > 0 ? ", " : "", clean);
			free(clean);
		}
	}
	if (p->category_id == NULL) {
		msg = xasprintf(_("%s/%s has no discussion category \"%s\"; it has: %s (choose one "
		                  "with --category)"),
		                p->owner, p->name, p->category,
		                names.len > 0 ? names.data : _("none"));
		buf_free(&names);
		post_finish(p, POST_FAILED, NULL, msg);
		free(msg);
		return;
	}
	buf_free(&names);
	post_find(p);
}

struct post_match {
	const char *open_url, *open_kind, *closed_url;
	const char *open_id;              /* an open discussion's id, or NULL */
	const char *fixed_id, *fixed_url; /* a discussion closed as fixed */
	bool open_ours;
};

static void
post_scan_nodes(const struct post *p, const cJSON *nodes, const char *kind, struct post_match *m)
{
	const cJSON *n;

	cJSON_ArrayForEach(n, nodes)
	{
		const char *url = github_json_string(n, "url"),
		           *title = github_json_string(n, "title"),
		           *body = github_json_string(n, "body");

		if (url == NULL || !post_names_test(title, body, post_draft_test_name(p->d),
		                                    post_draft_marker(p->d)))
			continue;
		if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(n, "closed"))) {
			const char *reason = github_json_string(n, "stateReason");

			if (m->closed_url == NULL)
				m->closed_url = url;
			if (m->fixed_id == NULL && reason != NULL &&
			    strcmp(reason, "RESOLVED") == 0 &&
			    github_json_string(n, "id") != NULL) {
				m->fixed_id = github_json_string(n, "id");
				m->fixed_url = url;
			}
			continue;
		}
		if (m->open_url == NULL || (!m->open_ours && body != NULL &&
		                            strstr(body, post_draft_marker(p->d)) != NULL)) {
			m->open_url = url;
			m->open_kind = kind;
			m->open_id = github_json_string(n, "id");
			m->open_ours =
			    body != NULL && strstr(body, post_draft_marker(p->d)) != NULL;
		}
	}
}

static const cJSON *
post_search_nodes(const cJSON *data, const char *alias)
{
	return cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(data, alias),
	                                        "nodes");
}

static void
post_find_reply(const struct github_reply *r, void *data)
{
	struct post *p = data;
	struct post_match m;
	char *msg;

	if (r->error != GITHUB_OK) {
		post_finish(p, POST_FAILED, NULL, r->message);
		return;
	}
	memset(&m, 0, sizeof m);
	post_scan_nodes(
	    p,
	    cJSON_GetObjectItemCaseSensitive(
	        cJSON_GetObjectItemCaseSensitive(
	            cJSON_GetObjectItemCaseSensitive(r->data, "repository"), "discussions"),
	        "nodes"),
	    "discussion", &m);
	post_scan_nodes(p, post_search_nodes(r->data, "discussionsByMarker"), "discussion", &m);
	post_scan_nodes(p, post_search_nodes(r->data, "discussionsByName"), "discussion", &m);
	post_scan_nodes(p, post_search_nodes(r->data, "issuesByMarker"), "issue", &m);
	post_scan_nodes(p, post_search_nodes(r->data, "issuesByName"), "issue", &m);
	if (m.open_url != NULL && p->created_maybe && m.open_ours) {
		/* Our own create landed though its reply was lost. */
		post_finish(p, POST_POSTED, m.open_url, NULL);
		return;
	}
	if (p->close_comment != NULL &&
	    (m.open_url == NULL || strcmp(m.open_kind, "discussion") != 0 || m.open_id == NULL)) {
		msg = xasprintf(_("no open discussion names %s: there is nothing to close"),
		                post_draft_test_shown(p->d));
		post_finish(p, POST_FAILED, NULL, msg);
		free(msg);
		return;
	}
	if (m.open_url != NULL && strcmp(m.open_kind, "discussion") == 0 && m.open_id != NULL) {
		post_follow(p, m.open_id, m.open_url, false);
		return;
	}
	if (m.open_url == NULL && m.fixed_id != NULL) {
		post_follow(p, m.fixed_id, m.fixed_url, true);
		return;
	}
	if (m.open_url != NULL) {
		msg = xasprintf(strcmp(m.open_kind, "issue") == 0
		                    ? _("an open issue already names %s: %s")
		                    : _("an open discussion already names %s: %s"),
		                post_draft_test_shown(p->d), m.open_url);
		post_finish(p, POST_EXISTS, m.open_url, msg);
		free(msg);
		return;
	}
	if (!post_draft_has_description(p->d)) {
		msg = xasprintf(_("no open discussion names %s: a new report needs --description "
		                  "FILE"),
		                post_draft_test_shown(p->d));
		post_finish(p, POST_FAILED, NULL, msg);
		free(msg);
		return;
	}
	if (m.closed_url != NULL && github_web_url_ok(p->gh, m.closed_url))
		post_draft_set_closed_report(p->d, m.closed_url);
	post_create(p);
}

static void
post_find(struct post *p)
{
	int rc = github_call(p->gh, post_doc_find, post_docs_find_vars(p->owner, p->name, p->d),
	                     false, post_find_reply, p);

	if (rc < 0)
		post_finish(p, POST_FAILED, NULL, strerror(-rc));
}

static void
post_timer_cb(uv_timer_t *t)
{
	post_find(t->data);
}

static void
post_create_reply(const struct github_reply *r, void *data)
{
	struct post *p = data;
	const cJSON *disc = cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetObjectItemCaseSensitive(r->data, "createDiscussion"), "discussion");
	const char *url = github_json_string(disc, "url");
	int64_t delay;
	char d[32], *line;

	if (r->error == GITHUB_OK && url != NULL) {
		post_finish(p, POST_POSTED, url, NULL);
		return;
	}
	if (r->error == GITHUB_OK) {
		/* Answered, but not with the discussion: look before trying again. */
		p->created_maybe = true;
	} else {
		if (!r->transient || p->creates >= p->max_creates) {
			post_finish(p, POST_FAILED, NULL, r->message);
			return;
		}
		p->created_maybe = p->created_maybe || r->maybe_applied;
	}
	if (p->creates >= p->max_creates) {
		post_finish(p, POST_FAILED, NULL,
		            _("unexpected reply from GitHub to createDiscussion"));
		return;
	}
	delay = (int64_t)1000 << p->creates;
	if (r->error == GITHUB_ERR_RATE_LIMITED) {
		int64_t until = r->retry_at_ms - util_now_ms();

		if (until > p->max_wait_ms) {
			post_finish(p, POST_FAILED, NULL, r->message);
			return;
		}
		if (until > delay)
			delay = until;
	}
	timefmt_format_duration(delay, d, sizeof d);
	if (r->error == GITHUB_ERR_RATE_LIMITED)
		line =
		    xasprintf(_("GitHub's rate limit: waiting %s, then looking for the discussion "
		                "again before another try"),
		              d);
	else
		line = xasprintf(_("%s; looking for the discussion again in %s before another try"),
		                 r->message != NULL ? r->message : _("unexpected reply"), d);
	post_note(p, line);
	free(line);
	uv_timer_start(&p->timer, post_timer_cb, (uint64_t)delay, 0);
}

static void
post_create(struct post *p)
{
	cJSON *v = post_docs_create_vars(p->repo_id, p->category_id, p->d, p->creates + 1);
	int rc;

	if (post_draft_holds_token(p->d)) {
		/* A link GitHub answered with may have added it. */
		cJSON_Delete(v);
		post_finish(p, POST_FAILED, NULL, _(POST_TOKEN_REFUSAL));
		return;
	}
	p->creates++;
	rc = github_call(p->gh, post_doc_create, v, true, post_create_reply, p);
	if (rc < 0)
		post_finish(p, POST_FAILED, NULL, strerror(-rc));
}

static void
post_comment_reply(const struct github_reply *r, void *data)
{
	struct post *p = data;
	const char *url = github_json_string(
	    cJSON_GetObjectItemCaseSensitive(
	        cJSON_GetObjectItemCaseSensitive(r->data, "addDiscussionComment"), "comment"),
	    "url");
	char *msg;

	if (r->error != GITHUB_OK || url == NULL) {
		post_finish(p, POST_FAILED, NULL,
		            r->error != GITHUB_OK
		                ? r->message
		                : _("unexpected reply from GitHub to addDiscussionComment"));
		return;
	}
	if (p->close_comment != NULL) {
		post_close(p);
		return;
	}
	if (p->reopened)
		msg = xasprintf(_("%s failed again: reopened the discussion closed as fixed: %s"),
		                post_draft_test_shown(p->d), p->disc_url);
	else
		msg = xasprintf(_("added the new evidence to the open discussion of %s: %s"),
		                post_draft_test_shown(p->d), p->disc_url);
	post_finish(p, POST_COMMENTED, url, msg);
	free(msg);
}

static void
post_close_reply(const struct github_reply *r, void *data)
{
	struct post *p = data;
	const cJSON *disc = cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetObjectItemCaseSensitive(r->data, "closeDiscussion"), "discussion");
	char *msg;

	if (r->error != GITHUB_OK ||
	    !cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(disc, "closed"))) {
		post_finish(p, POST_FAILED, NULL,
		            r->error != GITHUB_OK
		                ? r->message
		                : _("unexpected reply from GitHub to closeDiscussion"));
		return;
	}
	msg = xasprintf(_("closed the discussion of %s as resolved: %s"),
	                post_draft_test_shown(p->d), p->disc_url);
	post_finish(p, POST_CLOSED, p->disc_url, msg);
	free(msg);
}

/* A mutation of the discussion found: input (taken over, or NULL) gets
 * its id. */
static void
post_mutate(struct post *p, const char *document, cJSON *input, github_reply_cb cb)
{
	int rc =
	    github_call(p->gh, document, post_docs_discussion_vars(p->disc_id, input), true, cb, p);

	if (rc < 0)
		post_finish(p, POST_FAILED, NULL, strerror(-rc));
}

/* closeDiscussion as resolved, after the verified evidence's comment. */
static void
post_close(struct post *p)
{
	post_mutate(p, post_doc_close, post_docs_close_input(), post_close_reply);
}

/* addDiscussionComment: the new evidence, once (a comment is never
 * retried: a lost reply may have posted it). */
static void
post_comment(struct post *p)
{
	char *body = p->close_comment != NULL ? xstrdup(p->close_comment)
	                                      : post_draft_comment(p->d, p->reopened);

	post_mutate(p, post_doc_comment, post_docs_comment_input(body), post_comment_reply);
	free(body);
}

static void
post_reopen_reply(const struct github_reply *r, void *data)
{
	struct post *p = data;
	const cJSON *disc = cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetObjectItemCaseSensitive(r->data, "reopenDiscussion"), "discussion");

	if (r->error != GITHUB_OK || disc == NULL ||
	    cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(disc, "closed"))) {
		post_finish(p, POST_FAILED, NULL,
		            r->error != GITHUB_OK
		                ? r->message
		                : _("unexpected reply from GitHub to reopenDiscussion"));
		return;
	}
	post_comment(p);
}

/* The test's discussion exists: a comment on it, after reopening it when
 * it was closed as fixed. */
static void
post_follow(struct post *p, const char *id, const char *url, bool reopen)
{
	if (!github_web_url_ok(p->gh, url)) {
		post_finish(p, POST_EXISTS, url, NULL);
		return;
	}
	p->disc_id = xstrdup(id);
	p->disc_url = xstrdup(url);
	p->reopened = reopen;
	if (post_draft_holds_token(p->d) || github_env_token_in(p->close_comment)) {
		post_finish(p, POST_FAILED, NULL, _(POST_TOKEN_REFUSAL));
		return;
	}
	if (reopen)
		post_mutate(p, post_doc_reopen, NULL, post_reopen_reply);
	else
		post_comment(p);
}

int
post_start(uv_loop_t *loop, struct post_draft *d, const struct post_options *o, post_done_cb cb,
           void *data, struct post **out, char **err)
{
	struct post *p;
	struct github *gh;
	const char *slash;
	int rc;

	*out = NULL;
	*err = NULL;
	if (post_draft_repo(d) == NULL) {
		*err = xstrdup(_("no GitHub repository to post to: the project has no origin "
		                 "remote on GitHub; name one with --repo OWNER/NAME"));
		post_draft_free(d);
		return -EINVAL;
	}
	rc = github_new(loop, &o->github, &gh, err);
	if (rc < 0) {
		post_draft_free(d);
		return rc;
	}
	p = xcalloc(1, sizeof *p);
	p->loop = loop;
	p->d = d;
	p->gh = gh;
	p->category = xstrdup(o->category != NULL ? o->category : POST_DEFAULT_CATEGORY);
	p->max_creates = o->max_creates > 0 ? o->max_creates : POST_DEFAULT_CREATES;
	p->close_comment = o->close_comment != NULL ? xstrdup(o->close_comment) : NULL;
	p->max_wait_ms = o->github.max_wait_ms > 0 ? o->github.max_wait_ms : 90000;
	p->cb = cb;
	p->data = data;
	p->note = o->github.note;
	p->note_data = o->github.note_data;
	slash = strchr(post_draft_repo(d), '/');
	p->owner = xstrndup(post_draft_repo(d), (size_t)(slash - post_draft_repo(d)));
	p->name = xstrdup(slash + 1);
	uv_timer_init(loop, &p->timer);
	p->timer.data = p;
	rc = github_call(gh, post_doc_repo, post_docs_repo_vars(p->owner, p->name), false,
	                 post_repo_reply, p);
	if (rc < 0) {
		post_finish(p, POST_FAILED, NULL, strerror(-rc));
		return 0;
	}
	*out = p;
	return 0;
}

void
post_cancel(struct post *p)
{
	if (p != NULL && !p->done)
		post_finish(p, POST_CANCELLED, NULL, _("cancelled"));
}
