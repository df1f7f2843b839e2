/* SPDX-License-Identifier: MIT */
/* test-shardset.c: the results of two shards merged live, their journals
 * fed in pieces (a line cut in two among them), count at every step the
 * runs of both, and at the end exactly the cells, first failures and
 * verdicts of the journal `flakesweep merge` wrote from the same shards
 * (tests/fixtures/view-shards). The refusals name both directories and
 * the field. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "engine/sweep-config.h"
#include "results/replay.h"
#include "results/shardset.h"
#include "base/util.h"

static char *
shardset_fixture(const char *name)
{
	char *path =
	    xasprintf("%s/tests/fixtures/view-shards/%s/journal.jsonl", check_srcdir(), name);
	char *text = NULL;
	size_t len;

	CHECK_INT(util_read_file(path, (size_t)1 << 20, &text, &len), 0);
	free(path);
	return text;
}

static void
shardset_append(const char *path, const char *text, size_t len)
{
	FILE *f = fopen(path, "a");

	CHECK(f != NULL);
	CHECK_INT((int)fwrite(text, 1, len, f), (int)len);
	fclose(f);
}

/* The end of the n-th line of text from its start (after its newline),
 * or the text's end. */
static size_t
shardset_lines(const char *text, int n)
{
	const char *p = text;

	while (n-- > 0 && (p = strchr(p, '\n')) != NULL)
		p++;
	return p != NULL ? (size_t)(p - text) : strlen(text);
}

static struct results *
shardset_merge(const struct replay *a, const struct replay *b)
{
	struct shardset_part parts[2] = {
	    {a->results, a->started_ms, a->header.config.shard_index, NULL},
	    {b->results, b->started_ms, b->header.config.shard_index, NULL},
	};

	return shardset_results(parts, 2);
}

static const struct results_cell *
shardset_cell(const struct results *r, const char *id, enum results_phase phase, int cpu)
{
	const struct results_test *t = results_find(r, id);
	int i;

	CHECK(t != NULL);
	for (i = 0; i < t->ncells; i++)
		if (t->cells[i].phase == phase && t->cells[i].cpu == cpu && t->cells[i].load == 1)
			return &t->cells[i];
	check_fail(__FILE__, __LINE__, "%s has no cell at cpu %d", id, cpu);
	return NULL;
}

TEST(shardset_live_merge_equals_merge)
{
	const char *names[2] = {"s1", "s2"};
	char *text[2], *path[2], *err = NULL;
	size_t at[2], len[2];
	struct replay r[2], whole;
	struct results *m;
	const struct results_cell *c;
	size_t i;
	int k, j, steps = 0;
	bool more;

	for (k = 0; k < 2; k++) {
		char *dir = xasprintf("%s/%s", check_tmpdir(), names[k]);

		CHECK_INT(util_mkdir_p(dir), 0);
		text[k] = shardset_fixture(names[k]);
		len[k] = strlen(text[k]);
		path[k] = xasprintf("%s/journal.jsonl", dir);
		/* The header and the builds first, then the runs in pieces. */
		at[k] = shardset_lines(text[k], 8);
		shardset_append(path[k], text[k], at[k]);
		CHECK_INT(replay_journal(path[k], &r[k], &err), 0);
		free(dir);
	}
	while (at[0] < len[0] || at[1] < len[1]) {
		for (k = 0; k < 2; k++) {
			/* Ten lines and a half, so a line is cut in two. */
			size_t end = at[k] + shardset_lines(text[k] + at[k], 10);

			end += (len[k] - end) / 2 < 40 ? len[k] - end : 40;
			shardset_append(path[k], text[k] + at[k], end - at[k]);
			at[k] = end;
			CHECK_INT(replay_update(&r[k], 0, &more, &err), 0);
		}
		m = shardset_merge(&r[0], &r[1]);
		CHECK_INT(m->runs, r[0].results->runs + r[1].results->runs);
		CHECK_INT(m->failures, r[0].results->failures + r[1].results->failures);
		results_free(m);
		steps++;
	}
	CHECK(steps >= 5);
	m = shardset_merge(&r[0], &r[1]);
	/* Exact cells, as tests/fixtures/shards fails. */
	CHECK_INT(m->runs, 42);
	CHECK_INT(m->ntests, 8);
	CHECK_INT(m->failures, 20);
	c = shardset_cell(m, "example.com/shards/bravo::TestNeedsTwoCPUs", RESULTS_SWEEP, 1);
	CHECK_INT(c->runs, 3);
	CHECK_INT(c->failures, 3);
	c = shardset_cell(m, "example.com/shards/bravo::TestNeedsTwoCPUs", RESULTS_CONFIRM, 2);
	CHECK_INT(c->runs, 2);
	CHECK_INT(c->failures, 0);
	c = shardset_cell(m, "example.com/shards/echo::TestOneCPUOnly", RESULTS_SWEEP, 2);
	CHECK_INT(c->runs, 3);
	CHECK_INT(c->failures, 3);
	c = shardset_cell(m, "example.com/shards/charlie::TestAlwaysFails", RESULTS_CONFIRM, 2);
	CHECK_INT(c->runs, 2);
	CHECK_INT(c->failures, 2);
	/* Everything as the merged journal counts it. */
	free(path[0]);
	path[0] = xasprintf("%s/tests/fixtures/view-shards/merged/journal.jsonl", check_srcdir());
	CHECK_INT(replay_journal(path[0], &whole, &err), 0);
	CHECK_INT(m->ntests, whole.results->ntests);
	CHECK_INT(m->npkgs, whole.results->npkgs);
	for (i = 0; i < whole.results->ntests; i++) {
		const struct results_test *w = &whole.results->tests[i];
		const struct results_test *t = results_find(m, w->id);

		CHECK(t != NULL);
		CHECK_INT(t->ncells, w->ncells);
		for (j = 0; j < w->ncells; j++) {
			c = shardset_cell(m, w->id, w->cells[j].phase, w->cells[j].cpu);
			CHECK_INT(c->runs, w->cells[j].runs);
			CHECK_INT(c->failures, w->cells[j].failures);
			CHECK_INT(c->hangs, w->cells[j].hangs);
		}
		CHECK_INT(results_verdict(t), results_verdict(w));
		CHECK_INT(t->first != NULL, w->first != NULL);
		if (w->first != NULL) {
			CHECK_INT(t->first->phase, w->first->phase);
			CHECK_INT(t->first->cpu, w->first->cpu);
			CHECK_STR(t->first->lines, w->first->lines);
		}
	}
	results_free(m);
	replay_free(&whole);
	for (k = 0; k < 2; k++) {
		replay_free(&r[k]);
		free(text[k]);
		free(path[k]);
	}
}

/* The first part's first failure wins, whatever the order given; logs
 * move behind their part's directory. */
TEST(shardset_first_failure_of_the_earliest_part)
{
	struct results *a = results_new(), *b = results_new(), *m;
	struct results_test *t;
	struct shardset_part parts[2];

	t = results_add_test(a, results_add_pkg(a, "p", "unit"), "p::TestX", "TestX");
	results_get_cell(t, RESULTS_SWEEP, 1, 1)->runs = 4;
	t->first = xcalloc(1, sizeof *t->first);
	t->first->lines = xstrdup("late");
	t->first->log = xstrdup("runs/9.log");
	t = results_add_test(b, results_add_pkg(b, "p", "unit"), "p::TestX", "TestX");
	results_get_cell(t, RESULTS_SWEEP, 1, 1)->runs = 3;
	t->first = xcalloc(1, sizeof *t->first);
	t->first->lines = xstrdup("early");
	t->first->log = xstrdup("runs/2.log");
	parts[0] = (struct shardset_part){a, 2000, 1, "/x/s1"};
	parts[1] = (struct shardset_part){b, 1000, 2, "/x/s2"};
	m = shardset_results(parts, 2);
	CHECK_INT(m->npkgs, 1);
	t = results_find(m, "p::TestX");
	CHECK_INT(t->cells[0].runs, 7);
	CHECK_STR(t->first->lines, "early");
	CHECK_STR(t->first->log, "/x/s2/runs/2.log");
	results_free(m);
	results_free(a);
	results_free(b);
}

TEST(shardset_refuses_other_sweeps)
{
	cJSON *a = cJSON_Parse("{\"project\":{\"commit\":\"abc\"},\"config\":{\"cpu\":[1],"
	                       "\"count\":3,\"shard\":{\"index\":1,\"count\":2}}}");
	cJSON *b = cJSON_Parse("{\"project\":{\"commit\":\"abc\"},\"config\":{\"cpu\":[1,2],"
	                       "\"count\":3,\"shard\":{\"index\":2,\"count\":2}}}");
	cJSON *c = cJSON_Parse("{\"project\":{\"commit\":\"def\"},\"config\":{\"cpu\":[1],"
	                       "\"count\":3,\"shard\":{\"index\":2,\"count\":2}}}");
	char *err = NULL;

	CHECK_INT(shardset_check_headers("d1", a, "d2", a, &err), 0);
	CHECK_INT(shardset_check_headers("d1", a, "d2", b, &err), -EINVAL);
	CHECK_STR(err, "d1 and d2 differ in config.cpu: shards of different configurations "
	               "cannot be merged");
	free(err);
	CHECK_INT(shardset_check_headers("d1", a, "d3", c, &err), -EINVAL);
	CHECK_STR(err, "d1 and d3 differ in project.commit (abc, def): shards of different "
	               "commits cannot be merged");
	free(err);
	CHECK_INT(shardset_check_index("d1", 1, 2, "d2", 2, 2, &err), 0);
	CHECK_INT(shardset_check_index("d1", 1, 2, "d2", 1, 2, &err), -EINVAL);
	CHECK_STR(err, "shard 1/2 is in both d1 and d2");
	free(err);
	CHECK_INT(shardset_check_index("d1", 1, 2, "d2", 1, 3, &err), -EINVAL);
	CHECK_STR(err, "d1 and d2 differ in config.shard.count (2, 3)");
	free(err);
	cJSON_Delete(a);
	cJSON_Delete(b);
	cJSON_Delete(c);
}

/* Without a commit to vouch for them, shards are of one project only when
 * they were swept in the same root with the same origin: shards of two
 * projects, neither in git, are refused naming both directories and the
 * field. With a commit, another root is another checkout of it. */
TEST(shardset_refuses_other_projects_without_a_commit)
{
	static const char *const fmt = "{\"project\":{\"root\":\"%s\"%s},\"config\":{\"cpu\":[1],"
	                               "\"shard\":{\"index\":%d,\"count\":2}}}";
	char *text[6];
	cJSON *h[6];
	char *err = NULL;
	int i;

	text[0] = xasprintf(fmt, "/w/ng1", "", 1);
	text[1] = xasprintf(fmt, "/w/ng2", "", 2);
	text[2] = xasprintf(fmt, "/w/ng1", "", 2);
	text[3] = xasprintf(fmt, "/w/ng1", ",\"origin\":\"https://example.com/b.git\"", 2);
	text[4] = xasprintf(fmt, "/w/a", ",\"commit\":\"abc\"", 1);
	text[5] = xasprintf(fmt, "/host2/a", ",\"commit\":\"abc\"", 2);
	for (i = 0; i < 6; i++)
		h[i] = cJSON_Parse(text[i]);
	CHECK_INT(shardset_check_headers("ng1", h[0], "ng2", h[1], &err), -EINVAL);
	CHECK_STR(err, "ng1 and ng2 differ in project.root (/w/ng1, /w/ng2) and no commit vouches "
	               "for them: shards of different projects cannot be merged");
	free(err);
	CHECK_INT(shardset_check_headers("ng1", h[0], "s2", h[3], &err), -EINVAL);
	CHECK_STR(err, "ng1 and s2 differ in project.origin (none, https://example.com/b.git) and "
	               "no commit vouches for them: shards of different projects cannot be merged");
	free(err);
	CHECK_INT(shardset_check_headers("ng1", h[0], "s2", h[2], &err), 0);
	CHECK_INT(shardset_check_headers("a", h[4], "b", h[5], &err), 0);
	for (i = 0; i < 6; i++) {
		cJSON_Delete(h[i]);
		free(text[i]);
	}
}

/* Shards of one origin are of one project wherever they were swept, with
 * no commit too (a clone per machine at another path). */
TEST(shardset_takes_one_origin_at_other_roots)
{
	static const char *const fmt =
	    "{\"project\":{\"root\":\"%s\",\"origin\":\"%s\"},"
	    "\"config\":{\"cpu\":[1],\"shard\":{\"index\":%d,\"count\":2}}}";
	char *ta = xasprintf(fmt, "/home/ann/r", "git@example.com:o/r.git", 1),
	     *tb = xasprintf(fmt, "/builds/r", "https://example.com/o/r", 2);
	cJSON *a = cJSON_Parse(ta), *b = cJSON_Parse(tb);
	char *err = NULL;

	CHECK_INT(shardset_check_headers("s1", a, "s2", b, &err), 0);
	cJSON_Delete(a);
	cJSON_Delete(b);
	free(ta);
	free(tb);
}
