/* SPDX-License-Identifier: MIT */
/* test-merge.c: merge_journals on two hand-made shards: the lines read
 * without a tree are written as cJSON writes them, renumbered, and the
 * kept logs of runs and of unexpected canaries follow their new numbers. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "results/merge.h"
#include "results/replay.h"
#include "base/util.h"

/* Writes text to dir/name. */
static void
merge_put(const char *dir, const char *name, const char *text)
{
	char *path = xasprintf("%s/%s", dir, name);

	CHECK_INT(util_write_file_atomic(path, text, strlen(text)), 0);
	free(path);
}

/* Shard i of 2: its header, package and set 1 (TestA passed), then runs
 * (lines) and its end. */
static char *
merge_shard_of(int i, const char *runs)
{
	char *dir = xasprintf("%s/shard-%d", check_tmpdir(), i), *text;

	CHECK_INT(util_mkdir_p(dir), 0);
	text = xasprintf(
	    "{\"type\":\"header\",\"schema\":\"flakesweep/journal/v1\","
	    "\"started\":\"2026-12-01T01:00:0%dZ\",\"config\":{\"cpu\":[1],\"load\":[1],"
	    "\"count\":2,\"confirm\":0,\"levels\":[\"unit\"],\"driver\":\"go\","
	    "\"shard\":{\"index\":%d,\"count\":2,\"buckets\":[%d]}},"
	    "\"machine\":{\"host\":\"node%d\",\"cores\":4,\"keep\":0,\"lanes\":[[0,1]]},"
	    "\"project\":{\"driver\":\"go\",\"root\":\"/src\",\"commit\":\"abc\"}}\n"
	    "{\"type\":\"build\",\"pkg\":0,\"package\":\"example.com/p%d\",\"level\":\"unit\","
	    "\"dir\":\"/src/p%d\",\"ok\":true,\"binary\":\"/out/p.test\",\"tests\":[\"TestA\"]}\n"
	    "{\"type\":\"set\",\"id\":1,\"pkg\":0,\"order\":[\"PTestA\"]}\n"
	    "%s"
	    "{\"type\":\"end\",\"status\":\"complete\",\"finished\":\"2026-12-01T02:00:00Z\"}\n",
	    i, i, i - 1, i, i, i, runs);
	merge_put(dir, "journal.jsonl", text);
	free(text);
	return dir;
}

/* Shard i of 2: two runs of one package (the first with a blank that
 * only cJSON reads, the second read without a tree and keeping a log) and
 * an unexpected canary, numbered 1 in each shard, with its log. */
static char *
merge_shard(int i)
{
	char *dir = merge_shard_of(
	    i, "{\"type\":\"spawn\",\"run\":1,\"pid\":100,\"start\":7}\n"
	       "{\"type\":\"run\", \"run\":1,\"pkg\":0,\"phase\":\"sweep\",\"cpu\":1,\"load\":1,"
	       "\"lane\":0,\"ms\":40,\"exit\":0,\"set\":1}\n"
	       "{\"type\":\"run\",\"run\":2,\"pkg\":0,\"phase\":\"sweep\",\"cpu\":1,\"load\":1,"
	       "\"lane\":0,\"ms\":41,\"exit\":-1,\"set\":1,\"noise\":0.250,\"noise_ms\":12.5,"
	       "\"cores\":[0,1],\"timed_out\":true,\"log\":\"runs/2.log\"}\n"
	       "{\"type\":\"canary\",\"canary\":1,\"kind\":\"red\",\"cpu\":1,\"load\":1,\"lane\":0,"
	       "\"ms\":5,\"exit\":0,\"unexpected\":true,\"why\":\"passed\"}\n");
	char *runs = xasprintf("%s/runs", dir), *log;

	CHECK_INT(util_mkdir_p(runs), 0);
	log = xasprintf("run 2 of shard %d\n", i);
	merge_put(dir, "runs/2.log", log);
	free(log);
	log = xasprintf("canary 1 of shard %d\n", i);
	merge_put(dir, "runs/canary-1.log", log);
	free(log);
	free(runs);
	return dir;
}

/* The text of dir/name, or "" when there is none. */
static char *
merge_get(const char *dir, const char *name)
{
	char *path = xasprintf("%s/%s", dir, name), *text = NULL;
	size_t len;

	if (util_read_file(path, 1 << 20, &text, &len) < 0)
		text = xstrdup("");
	free(path);
	return text;
}

TEST(merge_copies_lines_and_carries_run_and_canary_logs)
{
	char *dirs[2] = {merge_shard(2), merge_shard(1)};
	char *out = xasprintf("%s/merged", check_tmpdir()), *err = NULL, *text, **warnings;

	CHECK_INT(merge_journals(out, dirs, 2, &warnings, &err), 0);
	CHECK(err == NULL);
	CHECK(warnings == NULL);
	text = merge_get(out, "journal.jsonl");
	/* Shard 1 started first: shard 2's runs are 3 and 4, its package
	 * and set the second ones, its canary 2. */
	CHECK(strstr(text, "\n{\"type\":\"spawn\",\"run\":3,\"pid\":100,\"start\":7}\n") != NULL);
	CHECK(strstr(text, "\n{\"type\":\"run\",\"run\":3,\"pkg\":1,\"phase\":\"sweep\",\"cpu\":1,"
	                   "\"load\":1,\"lane\":0,\"ms\":40,\"exit\":0,\"set\":2}\n") != NULL);
	CHECK(strstr(text, "\n{\"type\":\"run\",\"run\":4,\"pkg\":1,\"phase\":\"sweep\",\"cpu\":1,"
	                   "\"load\":1,\"lane\":0,\"ms\":41,\"exit\":-1,\"set\":2,\"noise\":0.25,"
	                   "\"noise_ms\":12.5,\"cores\":[0,1],\"timed_out\":true,"
	                   "\"log\":\"runs/4.log\"}\n") != NULL);
	CHECK(strstr(text, "{\"type\":\"canary\",\"canary\":1,") != NULL);
	CHECK(strstr(text, "{\"type\":\"canary\",\"canary\":2,") != NULL);
	free(text);
	text = merge_get(out, "runs/2.log");
	CHECK_STR(text, "run 2 of shard 1\n");
	free(text);
	text = merge_get(out, "runs/4.log");
	CHECK_STR(text, "run 2 of shard 2\n");
	free(text);
	text = merge_get(out, "runs/canary-1.log");
	CHECK_STR(text, "canary 1 of shard 1\n");
	free(text);
	text = merge_get(out, "runs/canary-2.log");
	CHECK_STR(text, "canary 1 of shard 2\n");
	free(text);
	free(out);
	free(dirs[0]);
	free(dirs[1]);
}

/* Each part's run lines read as in its shard: shard 1's defaults line is
 * said again before its runs, and shard 2, which has none, gets one that
 * turns the default back to false. */
TEST(merge_keeps_each_shards_default_overlapped)
{
	char *dirs[2] = {
	    merge_shard_of(1,
	                   "{\"type\":\"defaults\",\"overlapped\":true}\n"
	                   "{\"type\":\"run\",\"run\":1,\"pkg\":0,\"cpu\":1,\"load\":1,\"set\":1}\n"
	                   "{\"type\":\"run\",\"run\":2,\"pkg\":0,\"cpu\":1,\"load\":1,\"set\":1,"
	                   "\"overlapped\":false}\n"),
	    merge_shard_of(2,
	                   "{\"type\":\"run\",\"run\":1,\"pkg\":0,\"cpu\":1,\"load\":1,\"set\":1}\n"
	                   "{\"type\":\"run\",\"run\":2,\"pkg\":0,\"cpu\":1,\"load\":1,\"set\":1,"
	                   "\"overlapped\":true}\n")};
	char *out = xasprintf("%s/merged", check_tmpdir()), *err = NULL, *text, *path, **warnings;
	struct replay rp;

	CHECK_INT(merge_journals(out, dirs, 2, &warnings, &err), 0);
	CHECK(warnings == NULL);
	text = merge_get(out, "journal.jsonl");
	CHECK(strstr(text,
	             "\n{\"type\":\"defaults\",\"overlapped\":true}\n"
	             "{\"type\":\"run\",\"run\":1,\"pkg\":0,\"cpu\":1,\"load\":1,\"set\":1}\n") !=
	      NULL);
	CHECK(strstr(text,
	             "\n{\"type\":\"defaults\",\"overlapped\":false}\n"
	             "{\"type\":\"run\",\"run\":3,\"pkg\":1,\"cpu\":1,\"load\":1,\"set\":2}\n") !=
	      NULL);
	free(text);
	path = xasprintf("%s/journal.jsonl", out);
	CHECK_INT(replay_journal(path, &rp, &err), 0);
	CHECK_INT(rp.results->runs, 4);
	CHECK_INT(results_find(rp.results, "example.com/p1::TestA")->cells[0].overlapped_runs, 1);
	CHECK_INT(results_find(rp.results, "example.com/p2::TestA")->cells[0].overlapped_runs, 1);
	replay_free(&rp);
	free(path);
	free(out);
	free(dirs[0]);
	free(dirs[1]);
}

/* The warnings of a merge, a line each, as one text. */
static char *
merge_lines(char **warnings)
{
	struct buf b;
	size_t i;

	buf_init(&b);
	buf_add(&b, "", 0);
	for (i = 0; warnings != NULL && warnings[i] != NULL; i++)
		buf_printf(&b, "%s\n", warnings[i]);
	return buf_steal(&b);
}

/* A kept log that is a symbolic link (to a secret, in a tampered shard) or
 * a FIFO is not carried into the merge, neither as a link nor as what it
 * leads to: it is skipped with a warning naming it, and its run line loses
 * its log. */
TEST(merge_skips_logs_that_are_not_regular_files)
{
	char *dirs[2] = {merge_shard(1), merge_shard(2)};
	char *out = xasprintf("%s/merged", check_tmpdir()), *err = NULL, **warnings = NULL, *warn,
	     *text;
	char *secret = xasprintf("%s/secret", check_tmpdir());
	char *link1 = xasprintf("%s/runs/2.log", dirs[0]), *got;
	char *fifo2 = xasprintf("%s/runs/2.log", dirs[1]);
	struct stat st;

	merge_put(check_tmpdir(), "secret", "root:x:0:\n");
	CHECK_INT(unlink(link1), 0);
	CHECK_INT(symlink(secret, link1), 0);
	CHECK_INT(unlink(fifo2), 0);
	CHECK_INT(mkfifo(fifo2, 0600), 0);
	CHECK_INT(merge_journals(out, dirs, 2, &warnings, &err), 0);
	warn = merge_lines(warnings);
	util_strv_free(warnings);
	text = xasprintf("%s: not a regular file: not carried into the merge\n"
	                 "%s: not a regular file: not carried into the merge\n",
	                 link1, fifo2);
	CHECK_STR(warn, text);
	free(text);
	free(warn);
	for (int i = 2; i <= 4; i += 2) {
		char *path = xasprintf("%s/runs/%d.log", out, i);

		if (lstat(path, &st) == 0)
			check_fail(__FILE__, __LINE__, "%s was carried along (mode %o)", path,
			           (unsigned)st.st_mode);
		free(path);
	}
	text = merge_get(out, "journal.jsonl");
	CHECK(strstr(text, "\"log\":") == NULL);
	free(text);
	/* The canaries' logs, regular files, still come along. */
	got = merge_get(out, "runs/canary-2.log");
	CHECK_STR(got, "canary 1 of shard 2\n");
	free(got);
	free(link1);
	free(fifo2);
	free(secret);
	free(out);
	free(dirs[0]);
	free(dirs[1]);
}

/* A shard whose runs/ is a symbolic link out of it (to /etc in the attack)
 * has its logs there skipped, each with a warning: nothing outside the
 * shard's own directories is carried, though each log is a regular file. */
TEST(merge_skips_logs_under_a_linked_runs_directory)
{
	char *dirs[2] = {merge_shard(1), merge_shard(2)};
	char *out = xasprintf("%s/merged", check_tmpdir()), *err = NULL, **warnings = NULL, *warn;
	char *runs = xasprintf("%s/runs", dirs[0]), *away = xasprintf("%s/away", check_tmpdir());
	struct stat st;
	char *path;

	CHECK_INT(rename(runs, away), 0);
	CHECK_INT(symlink(away, runs), 0);
	CHECK_INT(merge_journals(out, dirs, 2, &warnings, &err), 0);
	warn = merge_lines(warnings);
	util_strv_free(warnings);
	CHECK(strstr(warn, "/runs/2.log: not a regular file: not carried into the merge\n") !=
	      NULL);
	free(warn);
	/* Shard 1 started first: its run 2 is the merge's run 2. */
	path = xasprintf("%s/runs/2.log", out);
	if (lstat(path, &st) == 0)
		check_fail(__FILE__, __LINE__, "%s was carried along from outside the shard", path);
	free(path);
	free(runs);
	free(away);
	free(out);
	free(dirs[0]);
	free(dirs[1]);
}

/* A log named outside its shard's directory (a journal tampered with) is
 * not carried either. */
TEST(merge_skips_logs_outside_the_shard)
{
	static const char *const run =
	    "{\"type\":\"run\",\"run\":1,\"pkg\":0,\"phase\":\"sweep\",\"cpu\":1,\"load\":1,"
	    "\"lane\":0,\"ms\":41,\"exit\":1,\"set\":1,\"log\":\"%s\"}\n";
	char *r1 = xasprintf(run, "runs/../../secret"), *r2 = xasprintf(run, "/etc/hostname");
	char *dirs[2] = {merge_shard_of(1, r1), merge_shard_of(2, r2)};
	char *out = xasprintf("%s/merged", check_tmpdir()), *err = NULL, **warnings = NULL, *warn,
	     *want;

	merge_put(check_tmpdir(), "secret", "root:x:0:\n");
	CHECK_INT(merge_journals(out, dirs, 2, &warnings, &err), 0);
	warn = merge_lines(warnings);
	util_strv_free(warnings);
	want = xasprintf("%s/runs/../../secret: leaves its shard's directory: not carried into "
	                 "the merge\n%s//etc/hostname: leaves its shard's directory: not carried "
	                 "into the merge\n",
	                 dirs[0], dirs[1]);
	CHECK_STR(warn, want);
	free(want);
	free(warn);
	want = merge_get(out, "runs/1.log");
	CHECK_STR(want, "");
	free(want);
	free(out);
	free(r1);
	free(r2);
	free(dirs[0]);
	free(dirs[1]);
}

/* A run line that repeats a run of its shard (one read without a tree,
 * one that failed and is read as JSON) is not copied, and merge says
 * where it was. */
TEST(merge_copies_a_repeated_run_once)
{
	static const char fail[] = "{\"type\":\"run\",\"run\":2,\"pkg\":0,\"cpu\":1,\"load\":1,"
	                           "\"fail\":[\"TestA\"]}\n";
	static const char pass[] = "{\"type\":\"run\",\"run\":1,\"pkg\":0,\"cpu\":1,\"load\":1,"
	                           "\"set\":1}\n";
	char *runs = xasprintf("%s%s%s%s", pass, fail, fail, pass);
	char *dirs[2] = {merge_shard_of(1, runs), merge_shard_of(2, pass)};
	char *out = xasprintf("%s/merged", check_tmpdir()), *err = NULL, *path, **warnings;
	char *want[2];
	struct replay rp;

	CHECK_INT(merge_journals(out, dirs, 2, &warnings, &err), 0);
	want[0] = xasprintf("%s/journal.jsonl:6: run 2 again; counted once", dirs[0]);
	want[1] = xasprintf("%s/journal.jsonl:7: run 1 again; counted once", dirs[0]);
	CHECK(warnings != NULL);
	if (warnings != NULL) {
		CHECK_STR(warnings[0], want[0]);
		CHECK_STR(warnings[1], want[1]);
		CHECK(warnings[2] == NULL);
	}
	path = xasprintf("%s/journal.jsonl", out);
	CHECK_INT(replay_journal(path, &rp, &err), 0);
	CHECK_INT(rp.results->runs, 3);
	CHECK(rp.run_ids.warnings == NULL);
	replay_free(&rp);
	util_strv_free(warnings);
	free(want[0]);
	free(want[1]);
	free(path);
	free(out);
	free(runs);
	free(dirs[0]);
	free(dirs[1]);
}
