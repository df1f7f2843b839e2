/* SPDX-License-Identifier: MIT */
/*
 * post-close.c: whether a verify record allows closing a test's
 * discussion, and the comment that closes it. English whatever the
 * locale, like the report: it is written for the project's maintainers.
 */
#include "config.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/gettext.h"
#include "base/util.h"
#include "drivers/project.h"
#include "github/github.h"
#include "github/markdown.h"
#include "github/post-close.h"
#include "github/post-draft.h"
#include "results/verify-json.h"

static char *
post_close_comment(const cJSON *v, const char *test_id, const char *commit)
{
	const cJSON *pairs = cJSON_GetObjectItemCaseSensitive(v, "pairs"), *p;
	const char *sep = strstr(test_id, "::");
	char *name = markdown_clean_name(sep != NULL ? sep + 2 : test_id);
	struct buf b;

	buf_init(&b);
	buf_adds(&b, "flakesweep verified the fix of ");
	markdown_code(&b, name);
	buf_printf(&b, " at commit `%.12s`: fixed, %lld runs.\n\n", commit,
	           (long long)cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(v, "runs")));
	buf_adds(&b, "| Pair | Runs | Failures | Decision |\n|---|---:|---:|---|\n");
	cJSON_ArrayForEach(p, pairs)
	{
		const char *d = github_json_string(p, "decision");

		buf_printf(
		    &b, "| cpu %lld, load %lld | %lld | %lld | %s |\n",
		    (long long)cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(p, "cpu")),
		    (long long)cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(p, "load")),
		    (long long)cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(p, "runs")),
		    (long long)cJSON_GetNumberValue(
		        cJSON_GetObjectItemCaseSensitive(p, "failures")),
		    d != NULL && strspn(d, "abcdefghijklmnopqrstuvwxyz-") == strlen(d) ? d : "?");
	}
	free(name);
	return buf_steal(&b);
}

/* The checkout must hold the verified commit, with no tracked file
 * changed since. */
static int
post_close_checkout(const char *path, const char *commit, const char *checkout, char **err)
{
	struct project_git g;
	char *changed = NULL;
	int rc = 0;

	if (project_git_find(checkout, &g) < 0 || g.commit == NULL) {
		*err = xasprintf(_("%s verified commit %.12s, but %s is not a git checkout"), path,
		                 commit, checkout);
		return -EINVAL;
	}
	if (strcmp(g.commit, commit) != 0) {
		*err = xasprintf(_("%s verified commit %.12s, but %.12s is checked out"), path,
		                 commit, g.commit);
		rc = -EINVAL;
	} else if (project_git_differs(&g, &changed) != 0) {
		*err = xasprintf(_("the checkout differs from commit %.12s (%s changed): the "
		                   "verified commit is not what is checked out"),
		                 commit, changed != NULL ? changed : "?");
		rc = -EINVAL;
	}
	free(changed);
	project_git_free(&g);
	return rc;
}

int
post_close_check(const char *dir, const char *test_id, const char *checkout, char **comment,
                 char **err)
{
	char *path = xasprintf("%s/verify.json", dir), *text = NULL;
	const char *schema, *test, *verdict, *commit;
	cJSON *v = NULL;
	int rc;

	*comment = NULL;
	*err = NULL;
	rc = util_read_file(path, POST_CLOSE_VERIFY_MAX, &text, NULL);
	if (rc < 0) {
		*err = xasprintf(_("cannot read %s: %s"), path, strerror(-rc));
		goto out;
	}
	rc = -EINVAL;
	v = cJSON_Parse(text);
	schema = github_json_string(v, "schema");
	test = github_json_string(v, "test");
	verdict = github_json_string(v, "verdict");
	commit = github_json_string(v, "commit");
	if (schema == NULL || strcmp(schema, VERIFY_JSON_SCHEMA) != 0 || test == NULL ||
	    verdict == NULL || !cJSON_IsBool(cJSON_GetObjectItemCaseSensitive(v, "dirty"))) {
		*err =
		    xasprintf(_("%s is not a verify record (schema %s)"), path, VERIFY_JSON_SCHEMA);
	} else if (strcmp(test, test_id) != 0) {
		char *shown = markdown_clean_name(test);

		*err = xasprintf(_("%s is the verify of another test: %s"), path, shown);
		free(shown);
	} else if (strcmp(verdict, "fixed") != 0) {
		char *shown = markdown_clean_name(verdict);

		*err =
		    xasprintf(_("%s says %s, not fixed: the discussion stays open"), path, shown);
		free(shown);
	} else if (commit == NULL || strspn(commit, "0123456789abcdef") != strlen(commit)) {
		*err = xasprintf(_("%s has no commit: verify did not run in a git checkout"), path);
	} else if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(v, "dirty"))) {
		*err = xasprintf(_("%s measured an uncommitted edit: commit it and verify again"),
		                 path);
	} else {
		rc = post_close_checkout(path, commit, checkout, err);
		if (rc == 0)
			*comment = post_close_comment(v, test_id, commit);
	}
out:
	cJSON_Delete(v);
	free(text);
	free(path);
	return rc;
}

int
post_close_prepare(const char *dir, const char *test_id, const char *checkout, const char *repo,
                   struct post_draft **d, char **comment, char **err)
{
	int rc;

	*d = NULL;
	rc = post_close_check(dir, test_id, checkout, comment, err);
	if (rc == 0)
		rc = post_draft_new_test(test_id, repo, checkout, d, err);
	if (rc < 0) {
		free(*comment);
		*comment = NULL;
	}
	return rc;
}
