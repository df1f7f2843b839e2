/* SPDX-License-Identifier: MIT */
/* test-follower.c: following a growing journal reads each line once, on
 * from where it stopped, and ends where a fresh replay of the whole file
 * ends. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uv.h>

#include "check.h"
#include "results/follower.h"
#include "results/report.h"
#include "results/results-json.h"
#include "base/util.h"

#define FOLLOW_HEADER                                                                        \
	"{\"type\":\"header\",\"schema\":\"flakesweep/journal/v1\","                         \
	"\"started\":\"2025-11-30T02:00:00Z\",\"config\":{\"cpu\":[1],\"load\":[1],"         \
	"\"count\":25,\"confirm\":0,\"driver\":\"go\",\"packages\":[],\"command\":[]}}\n"    \
	"{\"type\":\"build\",\"pkg\":0,\"package\":\"m\",\"level\":\"unit\",\"dir\":\"/m\"," \
	"\"ok\":true,\"tests\":[\"TestA\",\"TestB\"]}\n"                                     \
	"{\"type\":\"set\",\"id\":1,\"pkg\":0,\"order\":[\"PTestA\",\"PTestB\"]}\n"

struct follow_seen {
	int changes, errors;
	int64_t runs; /* at the last change */
};

static void
follow_changed(void *arg, const struct replay *next)
{
	struct follow_seen *s = arg;

	s->changes++;
	s->runs = next->results->runs;
}

static void
follow_error(void *arg, const char *text)
{
	struct follow_seen *s = arg;

	(void)text;
	s->errors++;
}

static void
follow_append(const char *path, const char *text)
{
	FILE *f = fopen(path, "a");

	fputs(text, f);
	fclose(f);
}

/* Runs the loop until the follower saw a change more than it had. */
static void
follow_wait(uv_loop_t *loop, struct follow_seen *s)
{
	int before = s->changes, i;

	for (i = 0; i < 100 && s->changes == before; i++)
		uv_run(loop, UV_RUN_ONCE);
}

static char *
follow_json(const struct replay *r)
{
	struct report_meta m;
	cJSON *doc;
	char *text;

	memset(&m, 0, sizeof m);
	m.status = "running";
	doc = results_to_json(r->results, &m);
	text = cJSON_PrintUnformatted(doc);
	cJSON_Delete(doc);
	return text;
}

TEST(follower_reads_only_what_was_appended)
{
	char *path = xasprintf("%s/journal.jsonl", check_tmpdir()), *err = NULL, *a, *b;
	struct follow_seen seen = {0, 0, 0};
	struct follower_events ev = {&seen, follow_changed, follow_error};
	struct follower *fw;
	struct replay fresh;
	uv_loop_t loop;
	FILE *f;
	int i;

	f = fopen(path, "w");
	fputs(FOLLOW_HEADER, f);
	fprintf(f, "{\"type\":\"run\",\"run\":1,\"pkg\":0,\"phase\":\"sweep\",\"cpu\":1,"
	           "\"load\":1,\"set\":1}\n");
	fclose(f);
	uv_loop_init(&loop);
	fw = follower_new(&loop, check_tmpdir(), &ev, &err);
	CHECK(fw != NULL);
	CHECK_INT(follower_replay(fw)->results->runs, 1);
	/* The lines read are not read again: spoiling the header in place
	 * (same size, same file) goes unnoticed. */
	f = fopen(path, "r+");
	fputs("{\"type\":\"garbage!", f);
	fclose(f);
	/* A line being written is taken when it is whole. */
	follow_append(path, "{\"type\":\"run\",\"run\":2,\"pkg\":0,\"phase\":\"sweep\",\"cpu\":1,"
	                    "\"load\":1,\"set\":1}\n{\"type\":\"run\",\"run\":3,");
	follow_wait(&loop, &seen);
	CHECK_INT(seen.errors, 0);
	CHECK_INT(seen.runs, 2);
	follow_append(path, "\"pkg\":0,\"phase\":\"sweep\",\"cpu\":1,\"load\":1,\"set\":1,"
	                    "\"fail\":[\"TestB\"]}\n");
	for (i = 4; i <= 9; i++) {
		char *line = xasprintf("{\"type\":\"run\",\"run\":%d,\"pkg\":0,\"phase\":\"sweep\","
		                       "\"cpu\":1,\"load\":1,\"set\":1}\n",
		                       i);

		follow_append(path, line);
		free(line);
	}
	follow_wait(&loop, &seen);
	CHECK_INT(seen.errors, 0);
	CHECK_INT(seen.runs, 9);
	CHECK_INT(follower_replay(fw)->max_run, 9);
	/* What it followed is what a replay of the whole journal reads (the
	 * header put back). */
	f = fopen(path, "r+");
	fputs("{\"type\":\"header\",\"", f);
	fclose(f);
	CHECK_INT(replay_journal(path, &fresh, &err), 0);
	a = follow_json(follower_replay(fw));
	b = follow_json(&fresh);
	CHECK_STR(a, b);
	CHECK(strstr(a, "\"failures\":1") != NULL);
	free(a);
	free(b);
	replay_free(&fresh);
	follower_stop(fw);
	uv_run(&loop, UV_RUN_DEFAULT);
	follower_free(fw);
	uv_loop_close(&loop);
	free(path);
}
