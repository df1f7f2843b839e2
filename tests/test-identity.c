/* SPDX-License-Identifier: MIT */
/* test-identity.c: the one rule that says whether two recorded projects
 * are the same (identity.h): the same commit anywhere; else the origin,
 * however its URL is written, whatever the root; else, with no origin on
 * either side, the same root or one inside the other. */
#include "config.h"

#include <stdlib.h>

#include "check.h"
#include "results/identity.h"

/* Whether the project objects a and b (JSON texts) are the same project;
 * the difference's text into *why when not (caller frees). */
static int
identity_same_text(const char *a, const char *b, char **why)
{
	cJSON *pa = cJSON_Parse(a), *pb = cJSON_Parse(b);
	struct identity_diff d;
	int same = identity_same(pa, pb, &d);

	*why = same ? NULL : identity_diff_text(&d);
	cJSON_Delete(pa);
	cJSON_Delete(pb);
	return same;
}

TEST(identity_same_origin_at_another_root_or_commit)
{
	char *why;

	CHECK_INT(identity_same_text("{\"root\":\"/home/ann/r\",\"commit\":\"abc\","
	                             "\"origin\":\"git@Example.com:o/r.git\"}",
	                             "{\"root\":\"/tmp/clone\",\"commit\":\"def\","
	                             "\"origin\":\"https://example.com/o/r/\"}",
	                             &why),
	          1);
	CHECK_INT(identity_same_text("{\"origin\":\"ssh://git@example.com:22/o/r.git\"}",
	                             "{\"origin\":\"https://example.com/o/r\"}", &why),
	          1);
	CHECK_INT(identity_same_text("{\"root\":\"/a\",\"origin\":\"/srv/git/r.git\"}",
	                             "{\"root\":\"/b\",\"origin\":\"/srv/git/r\"}", &why),
	          1);
	/* Nothing recorded says nothing. */
	CHECK_INT(identity_same_text("{}", "{\"root\":\"/a\"}", &why), 1);
	CHECK(identity_same(NULL, NULL, &(struct identity_diff){0}) == 1);
}

TEST(identity_another_origin_is_another_project)
{
	char *why;

	CHECK_INT(identity_same_text("{\"root\":\"/r\",\"origin\":\"git@example.com:o/r.git\"}",
	                             "{\"root\":\"/r\",\"origin\":\"git@example.com:o/demo.git\"}",
	                             &why),
	          0);
	CHECK_STR(why, "origin git@example.com:o/r.git vs git@example.com:o/demo.git");
	free(why);
	CHECK_INT(identity_same_text("{\"root\":\"/r\"}",
	                             "{\"root\":\"/r\",\"origin\":\"https://example.com/b.git\"}",
	                             &why),
	          0);
	CHECK_STR(why, "origin none vs https://example.com/b.git");
	free(why);
	/* The same commit is the same tree, whichever remote it came from. */
	CHECK_INT(identity_same_text(
	              "{\"commit\":\"abc\",\"origin\":\"https://example.com/o/r\"}",
	              "{\"commit\":\"abc\",\"origin\":\"https://example.com/fork/r\"}", &why),
	          1);
}

TEST(identity_without_origin_the_roots_decide)
{
	char *why;

	CHECK_INT(identity_same_text("{\"root\":\"/w/ng1\"}", "{\"root\":\"/w/ng2\"}", &why), 0);
	CHECK_STR(why, "root /w/ng1 vs /w/ng2");
	free(why);
	CHECK_INT(identity_same_text("{\"root\":\"/w/ng\"}", "{\"root\":\"/w/ng1\"}", &why), 0);
	free(why);
	CHECK_INT(identity_same_text("{\"root\":\"/w/ng1\",\"commit\":\"abc\"}",
	                             "{\"root\":\"/w/ng1/sub\",\"commit\":\"def\"}", &why),
	          1);
	CHECK_INT(identity_same_text("{\"root\":\"/\"}", "{\"root\":\"/w\"}", &why), 1);
}

/* `git clone /w/repo /tmp/clone` of a repository with no remote: the
 * clone's origin is the directory the sweeps before were made in. */
TEST(identity_clone_of_a_repository_without_origin)
{
	char *why;

	CHECK_INT(identity_same_text("{\"root\":\"/w/repo\",\"commit\":\"abc\"}",
	                             "{\"root\":\"/tmp/clone\",\"commit\":\"def\","
	                             "\"origin\":\"/w/repo\"}",
	                             &why),
	          1);
	CHECK_INT(identity_same_text("{\"root\":\"/tmp/clone/mod\",\"origin\":\"/w/repo/\"}",
	                             "{\"root\":\"/w/repo/mod\"}", &why),
	          1);
	/* However git wrote the directory: file://, ./, .., a trailing .git. */
	CHECK_INT(identity_same_text("{\"root\":\"/w/repo\"}",
	                             "{\"root\":\"/c\",\"origin\":\"file:///w/repo\"}", &why),
	          1);
	CHECK_INT(identity_same_text("{\"root\":\"/w/repo\"}",
	                             "{\"root\":\"/c\",\"origin\":\"/w/./x/../repo/.git\"}", &why),
	          1);
	CHECK_INT(identity_same_text("{\"root\":\"/w/repo\"}",
	                             "{\"root\":\"/c\",\"origin\":\"/w//repo/\"}", &why),
	          1);
	/* A directory that is not where the other was swept: another project. */
	CHECK_INT(identity_same_text("{\"root\":\"/w/other\"}",
	                             "{\"root\":\"/tmp/clone\",\"origin\":\"/w/repo\"}", &why),
	          0);
	free(why);
}
