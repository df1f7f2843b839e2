/* SPDX-License-Identifier: MIT */
/* test-control.c: the control socket's status message round-trips and
 * rejects what is out of range; a client on the socket of a sweep in this
 * process gets the hello and status, pauses, resumes and is refused with
 * a reason; a completed sweep takes confirm runs again; a test whose name
 * is not UTF-8 is confirmed through the socket by its bytes; the socket
 * answers while the sweep's loop is held, replies in order. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "check.h"
#include "engine/control-client.h"
#include "engine/control.h"
#include "engine/status-json.h"
#include "engine/sweep.h"
#include "results/replay.h"
#include "base/util.h"

static char *
test_control_text(const struct sweep_status *st, const char *end)
{
	cJSON *j = status_json_encode(st, end);
	char *text = cJSON_PrintUnformatted(j);

	cJSON_Delete(j);
	return text;
}

TEST(control_status_round_trip)
{
	static const int cores[] = {4, 5, 6, 7}, cpus[] = {1, 2}, loads[] = {1, 2};
	static const int run_cpus[] = {4, 5};
	struct sweep_status st, back;
	char *text, *again, *end = NULL, *err = NULL;
	int *ints = NULL;
	cJSON *j;

	memset(&st, 0, sizeof st);
	memset(&back, 0, sizeof back);
	st.phase = SWEEP_PHASE_CONFIRM;
	st.paused = true;
	st.done = 7;
	st.target = 12;
	st.started_ms = 1796144528817;
	st.cpus = cpus;
	st.ncpus = 2;
	st.loads = loads;
	st.nloads = 2;
	st.count = 50;
	st.confirm = 100;
	st.machine_cores = 8;
	st.keep = 1;
	status_set_lanes(&st, 2, 2, cores);
	st.lanes[0].core_runs[0] = 1;
	st.lanes[0].core_runs[1] = 1;
	st.lanes[0].load = 1;
	status_add_run(&st, 0, 41, run_cpus, 2, 1, RESULTS_CONFIRM, "example.com/m/pkg/x", "TestX",
	               1796144529000);
	status_hold(&st, 1, "example.com/m/pkg/y", NULL, 2, 2);
	st.lanes[0].environment = xstrdup("flaky-wt1 ready");
	util_strv_add(&st.build_failed, &st.nbuild_failed, "example.com/m/pkg/z (unit)");
	text = test_control_text(&st, NULL);
	CHECK(strstr(text, ",\"build_failed\":[\"example.com/m/pkg/z (unit)\"],") != NULL);
	j = cJSON_Parse(text);
	CHECK_INT(status_json_decode(j, &back, &ints, &end, &err), 0);
	CHECK(end == NULL);
	again = test_control_text(&back, NULL);
	CHECK_STR(again, text);
	CHECK_INT(back.nbuild_failed, 1);
	CHECK_STR(back.build_failed[0], "example.com/m/pkg/z (unit)");
	CHECK_INT(back.nlanes, 2);
	CHECK_INT(back.lanes[0].nruns, 1);
	CHECK_STR(back.lanes[0].runs[0].cores, "c4-c5");
	CHECK_STR(back.lanes[0].runs[0].pkg, "pkg/x");
	CHECK_STR(back.lanes[0].runs[0].test, "TestX");
	CHECK_INT(back.lanes[0].runs[0].phase, RESULTS_CONFIRM);
	CHECK_STR(back.lanes[1].held, "pkg/y cpu 2 load 2");
	CHECK_STR(back.lanes[0].environment, "flaky-wt1 ready");
	CHECK(back.lanes[1].environment == NULL);
	CHECK_INT(back.cpus[1], 2);
	CHECK_INT(back.loads[1], 2);
	free(again);
	cJSON_Delete(j);

	/* A lane whose cores do not match the width, a negative count, an
	 * unknown phase: each is named. */
	j = cJSON_Parse(text);
	cJSON_ReplaceItemInObject(j, "width", cJSON_CreateNumber(3));
	CHECK_INT(status_json_decode(j, &back, &ints, &end, &err), -EINVAL);
	CHECK_STR(err, "status: cores: expected an array of the lane's width");
	CHECK_INT(back.nlanes, 0);
	free(err);
	err = NULL;
	cJSON_ReplaceItemInObject(j, "width", cJSON_CreateNumber(2));
	cJSON_ReplaceItemInObject(j, "count", cJSON_CreateNumber(-1));
	CHECK_INT(status_json_decode(j, &back, &ints, &end, &err), -EINVAL);
	CHECK_STR(err, "status: count: expected a whole number from 0 to 2147483647");
	free(err);
	err = NULL;
	cJSON_ReplaceItemInObject(j, "count", cJSON_CreateNumber(5));
	cJSON_ReplaceItemInObject(j, "phase", cJSON_CreateString("later"));
	CHECK_INT(status_json_decode(j, &back, &ints, &end, &err), -EINVAL);
	CHECK_STR(err, "status: phase: expected discover, build, sweep, confirm or done");
	free(err);
	err = NULL;
	cJSON_ReplaceItemInObject(j, "phase", cJSON_CreateString("sweep"));
	cJSON_ReplaceItemInObject(j, "build_failed", cJSON_CreateIntArray((const int[]){1}, 1));
	CHECK_INT(status_json_decode(j, &back, &ints, &end, &err), -EINVAL);
	CHECK_STR(err, "status: build_failed: expected an array of strings");
	free(err);
	cJSON_Delete(j);
	free(text);
	free(ints);
	status_free(&st);
	status_free(&back);
}

/* back, decoded, and a copy of it encode to text again. */
static void
test_control_same(const struct sweep_status *back, const char *text)
{
	struct sweep_status copy;
	char *again = test_control_text(back, NULL);

	CHECK_STR(again, text);
	free(again);
	status_copy(&copy, back);
	again = test_control_text(&copy, NULL);
	CHECK_STR(again, text);
	free(again);
	status_free(&copy);
}

/* The packages at container levels, the last pins and a lane's
 * environment go out, come back and copy alike. */
TEST(control_status_levels_round_trip)
{
	static const int cores[] = {1, 2}, pkgs[] = {1};
	struct sweep_status st, back;
	struct results *r = results_new();
	char *text, *end = NULL, *err = NULL;
	int *ints = NULL;
	cJSON *j;

	memset(&st, 0, sizeof st);
	memset(&back, 0, sizeof back);
	results_add_pkg(r, "example.com/l/unit", "unit");
	results_add_pkg(r, "example.com/l/ctr", "testcontainers");
	results_note_pin(r, "4f3a2b1c9d8e7f6a5b4c", "0", pkgs, 1, 12, NULL);
	results_note_pin(r, "0a1b2c3d4e5f60718293", "0", pkgs, 1, 3, "No such container");
	status_set_lanes(&st, 2, 1, cores);
	status_levels(&st, r, NULL);
	st.lanes[1].environment = xstrdup("e2e up");
	text = test_control_text(&st, NULL);
	CHECK(strstr(text, "\"runs\":[],\"environment\":\"e2e up\"}]") != NULL);
	CHECK(strstr(text,
	             ",\"level_pkgs\":[{\"pkg\":\"example.com/l/ctr\",\"level\":\"testcontainers\","
	             "\"kind\":\"containers\",\"label\":\"org.testcontainers=true\",\"cpuset\":"
	             "\"0\",\"pinned\":1,\"pin_failed\":1,\"pin_max_ms\":12}],\"pins\":{\"pinned\":"
	             "1,\"failed\":1,\"last\":[{\"container\":\"4f3a2b1c9d8e\",\"cpuset\":\"0\","
	             "\"pkgs\":\"example.com/l/ctr\",\"latency_ms\":12},{\"container\":"
	             "\"0a1b2c3d4e5f\",\"cpuset\":\"0\",\"pkgs\":\"example.com/l/ctr\","
	             "\"latency_ms\":3,\"error\":\"No such container\"}]}}") != NULL);
	j = cJSON_Parse(text);
	CHECK_INT(status_json_decode(j, &back, &ints, &end, &err), 0);
	test_control_same(&back, text);
	/* A pin without its container is named. */
	cJSON_DeleteItemFromObject(
	    cJSON_GetArrayItem(cJSON_GetObjectItem(cJSON_GetObjectItem(j, "pins"), "last"), 0),
	    "container");
	CHECK_INT(status_json_decode(j, &back, &ints, &end, &err), -EINVAL);
	CHECK_STR(err, "status: container: expected a string");
	free(err);
	cJSON_Delete(j);
	free(text);
	free(ints);
	status_free(&st);
	status_free(&back);
	results_free(r);
}

/* The leases a sweep holds and waits for round-trip with their owners; a
 * state that is neither is named. */
TEST(control_status_leases_round_trip)
{
	struct sweep_status st, back;
	struct status_lease l = {
	    .name = "gpu",
	    .path = "/l/gpu",
	    .held = false,
	    .host = "h1",
	    .pid = 4242,
	    .outdir = "/o/first",
	    .started = "2026-12-05T01:00:00Z",
	    .started_ms = 1796518800000,
	    .age_s = 1,
	};
	char *text, *end = NULL, *err = NULL;
	int *ints = NULL;
	cJSON *j;

	memset(&st, 0, sizeof st);
	memset(&back, 0, sizeof back);
	status_add_lease(&st, &l);
	l.name = "dev";
	l.path = "/l/dev";
	l.held = true;
	status_add_lease(&st, &l);
	text = test_control_text(&st, NULL);
	CHECK(strstr(text, ",\"leases\":[{\"name\":\"gpu\",\"path\":\"/l/gpu\",\"state\":"
	                   "\"waiting\",\"host\":\"h1\",\"pid\":4242,\"outdir\":\"/o/first\","
	                   "\"started\":\"2026-12-05T01:00:00Z\",\"started_ms\":1796518800000,"
	                   "\"age_s\":1},{\"name\":\"dev\",\"path\":\"/l/dev\",\"state\":"
	                   "\"held\"") != NULL);
	j = cJSON_Parse(text);
	CHECK_INT(status_json_decode(j, &back, &ints, &end, &err), 0);
	CHECK_INT(back.nleases, 2);
	CHECK(!back.leases[0].held && back.leases[1].held);
	test_control_same(&back, text);
	cJSON_ReplaceItemInObject(cJSON_GetArrayItem(cJSON_GetObjectItem(j, "leases"), 0), "state",
	                          cJSON_CreateString("free"));
	CHECK_INT(status_json_decode(j, &back, &ints, &end, &err), -EINVAL);
	CHECK_STR(err, "status: state: expected held or waiting");
	free(err);
	cJSON_Delete(j);
	free(text);
	free(ints);
	status_free(&st);
	status_free(&back);
}

/* A copy owns its list of packages that did not build: freeing the copy
 * leaves the original whole, and each is freed once. */
TEST(control_status_copy_build_failed)
{
	struct sweep_status st, copy;

	memset(&st, 0, sizeof st);
	util_strv_add(&st.build_failed, &st.nbuild_failed, "example.com/m/pkg/x (unit)");
	util_strv_add(&st.build_failed, &st.nbuild_failed, "example.com/m/pkg/y (integration)");
	status_copy(&copy, &st);
	CHECK_INT(copy.nbuild_failed, 2);
	CHECK(copy.build_failed != st.build_failed);
	CHECK(copy.build_failed[0] != st.build_failed[0]);
	CHECK_STR(copy.build_failed[1], "example.com/m/pkg/y (integration)");
	status_free(&copy);
	CHECK_INT(st.nbuild_failed, 2);
	CHECK_STR(st.build_failed[0], "example.com/m/pkg/x (unit)");
	status_free(&st);
}

/* A sweep of a TAP script in dir (beta fails in runs 3 and 6), count runs,
 * confirm 2, into dir/out, or into outdir when given. */
static struct sweep *
test_control_sweep(uv_loop_t *loop, struct options *o, const char *dir, int count,
                   const char *outdir)
{
	char *script = xasprintf("%s/t.sh", dir), *err = NULL;
	FILE *f = fopen(script, "w");
	struct sweep *s;

	fputs("#!/bin/sh\necho 1..2\necho 'ok 1 - alpha'\n"
	      "if [ $((FLAKESWEEP_RUN % 3)) = 0 ]; then echo 'not ok 2 - beta';"
	      " else echo 'ok 2 - beta'; fi\n",
	      f);
	fclose(f);
	chmod(script, 0755);
	options_init(o);
	free(o->driver);
	o->driver = xstrdup("tap");
	util_strv_add(&o->command, &(size_t){0}, script);
	o->ncommand = 1;
	o->cpus = xcalloc(1, sizeof *o->cpus);
	o->cpus[0] = 1;
	o->ncpus = 1;
	o->nloads = 1;
	o->count = count;
	o->confirm = 2;
	o->outdir = outdir != NULL ? xstrdup(outdir) : xasprintf("%s/out", dir);
	/* One lane: no failure among overlapped runs asks for runs alone
	 * (interference.h), so the confirm counts are exact. */
	check_one_core();
	s = sweep_new(loop, o, NULL, &err);
	CHECK(s != NULL);
	if (s == NULL)
		fprintf(stderr, "%s\n", err);
	free(err);
	free(script);
	return s;
}

static int64_t
test_control_confirm_runs(const struct sweep *s, const char *test)
{
	const struct results *r = sweep_results(s);
	const struct results_test *t = NULL;
	int64_t n = 0;
	size_t i;

	for (i = 0; i < r->ntests && t == NULL; i++)
		if (strcmp(r->tests[i].test, test) == 0)
			t = &r->tests[i];
	for (i = 0; t != NULL && i < (size_t)t->ncells; i++)
		if (t->cells[i].phase == RESULTS_CONFIRM)
			n += t->cells[i].runs;
	return n;
}

TEST(control_confirm_after_the_end)
{
	const char *dir = check_tmpdir();
	char *err = NULL, *id = xasprintf("%s/t.sh::beta", dir);
	char *journal = xasprintf("%s/out/journal.jsonl", dir);
	struct options o;
	struct replay r;
	struct sweep *s;
	uv_loop_t loop;

	uv_loop_init(&loop);
	s = test_control_sweep(&loop, &o, dir, 6, NULL);
	if (s == NULL)
		return;
	CHECK_INT(sweep_start(s, &err), 0);
	uv_run(&loop, UV_RUN_DEFAULT);
	CHECK_STR(sweep_end_status(s), "complete");
	CHECK_INT(test_control_confirm_runs(s, "beta"), 2);
	CHECK_INT(sweep_confirm(s, "nosuch", 3), -ENOENT);
	/* The sweep runs again for 3 more runs of beta, and ends again. */
	CHECK_INT(sweep_confirm(s, id, 3), 0);
	CHECK(sweep_end_status(s) == NULL);
	CHECK_INT(sweep_phase(s), SWEEP_PHASE_CONFIRM);
	uv_run(&loop, UV_RUN_DEFAULT);
	CHECK_STR(sweep_end_status(s), "complete");
	CHECK_INT(sweep_phase(s), SWEEP_PHASE_DONE);
	CHECK_INT(test_control_confirm_runs(s, "beta"), 5);
	CHECK_INT(sweep_exit_status(s), 1);
	sweep_free(s);
	CHECK_INT(uv_loop_close(&loop), 0);
	/* Read back, the journal has all 11 runs, the request and its end. */
	CHECK_INT(replay_journal(journal, &r, &err), 0);
	CHECK_INT(r.results->runs, 11);
	CHECK_INT(r.nconfirms, 1);
	CHECK_INT(r.confirm_counts[0], 3);
	CHECK_STR(r.end_status, "complete");
	replay_free(&r);
	options_free(&o);
	free(journal);
	free(id);
	free(err);
}

/* The journal's run lines. */
static int
test_control_journal_runs(const char *journal)
{
	FILE *f = fopen(journal, "r");
	char line[4096];
	int n = 0;

	while (f != NULL && fgets(line, sizeof line, f) != NULL)
		n += strstr(line, "\"type\":\"run\"") != NULL;
	if (f != NULL)
		fclose(f);
	return n;
}

/* Confirm runs asked for in the sweep phase (as the dashboard's c asks)
 * are served once: the sweep's resumes, complete, run nothing. */
TEST(control_confirm_in_the_sweep_served_once)
{
	const char *dir = check_tmpdir();
	char *err = NULL, *id = xasprintf("%s/t.sh::beta", dir);
	char *out = xasprintf("%s/out", dir), *journal = xasprintf("%s/journal.jsonl", out);
	struct options o;
	const struct results_test *t;
	struct sweep *s;
	uv_loop_t loop;
	int i, runs;

	uv_loop_init(&loop);
	s = test_control_sweep(&loop, &o, dir, 12, NULL);
	if (s == NULL)
		return;
	CHECK_INT(sweep_start(s, &err), 0);
	/* Asked once beta failed in the sweep (run 3), so --confirm runs it
	 * too. */
	while (((t = results_find(sweep_results(s), id)) == NULL || t->first == NULL) &&
	       uv_run(&loop, UV_RUN_ONCE) != 0)
		;
	CHECK_INT(sweep_phase(s), SWEEP_PHASE_SWEEP);
	CHECK_INT(sweep_confirm(s, id, 3), 0);
	uv_run(&loop, UV_RUN_DEFAULT);
	CHECK_STR(sweep_end_status(s), "complete");
	/* --confirm 2, as beta failed in the sweep, and the 3 asked for. */
	CHECK_INT(test_control_confirm_runs(s, "beta"), 5);
	sweep_free(s);
	options_free(&o);
	runs = test_control_journal_runs(journal);
	CHECK_INT(runs, 17);
	for (i = 0; i < 2; i++) {
		options_init(&o);
		o.resume = xstrdup(out);
		s = sweep_new(&loop, &o, NULL, &err);
		CHECK(s != NULL);
		if (s == NULL)
			break;
		CHECK_INT(sweep_start(s, &err), 0);
		uv_run(&loop, UV_RUN_DEFAULT);
		CHECK_STR(sweep_end_status(s), "complete");
		CHECK_INT(test_control_confirm_runs(s, "beta"), 5);
		CHECK_INT(test_control_journal_runs(journal), runs);
		sweep_free(s);
		options_free(&o);
	}
	CHECK_INT(uv_loop_close(&loop), 0);
	free(journal);
	free(out);
	free(id);
	free(err);
}

struct test_control_client {
	struct sweep *s;
	struct control_client *c;
	struct control *control; /* a server of the test's own, or NULL */
	int statuses, replies, closed;
	bool paused_seen;
	char *errors;
};

static void
test_control_status(void *arg, const struct sweep_status *st, const char *end)
{
	struct test_control_client *t = arg;

	if (t->statuses++ == 0) {
		CHECK(!st->paused);
		CHECK_INT(control_client_send(t->c, "pause", NULL, 0), 0);
	}
	if (st->paused && !t->paused_seen) {
		t->paused_seen = true;
		CHECK(sweep_paused(t->s));
		CHECK_INT(control_client_send(t->c, "jump", NULL, 0), 0);
		CHECK_INT(control_client_send(t->c, "confirm", "nosuch", 2), 0);
		CHECK_INT(control_client_send(t->c, "resume", NULL, 0), 0);
	}
	if (st->finished)
		CHECK_STR(end, "complete");
}

static void
test_control_reply(void *arg, const char *error)
{
	struct test_control_client *t = arg;
	char *all;

	t->replies++;
	all = xasprintf("%s%s|", t->errors != NULL ? t->errors : "", error != NULL ? error : "ok");
	free(t->errors);
	t->errors = all;
}

static void
test_control_closed(void *arg, const char *why)
{
	struct test_control_client *t = arg;

	CHECK(why == NULL);
	t->closed++;
}

TEST(control_client_steers_a_sweep)
{
	const char *dir = check_tmpdir();
	struct test_control_client t;
	struct control_client_events ev = {&t, test_control_status, test_control_reply,
	                                   test_control_closed};
	/* Too long for a socket address: bound and reached through a
	 * descriptor of the directory. */
	char *out = xasprintf("%s/%0120d/out", dir, 0);
	char *err = NULL, *sock = xasprintf("%s/control.sock", out);
	struct options o;
	struct stat st;
	uv_loop_t loop;
	int rc = 0;

	memset(&t, 0, sizeof t);
	uv_loop_init(&loop);
	/* No sweep: no socket. */
	CHECK(control_client_new(&loop, dir, &ev, &rc, &err) == NULL);
	CHECK_INT(rc, -ENOENT);
	free(err);
	err = NULL;
	CHECK(strlen(sock) > 108);
	CHECK_INT(util_mkdir_p(out), 0);
	t.s = test_control_sweep(&loop, &o, dir, 30, out);
	if (t.s == NULL)
		return;
	CHECK_INT(sweep_start(t.s, &err), 0);
	CHECK_INT(stat(sock, &st), 0);
	CHECK_INT(st.st_mode & 0777, 0600);
	t.c = control_client_new(&loop, sweep_outdir(t.s), &ev, &rc, &err);
	CHECK(t.c != NULL);
	uv_run(&loop, UV_RUN_DEFAULT);
	CHECK(t.paused_seen);
	CHECK_INT(t.replies, 4);
	CHECK_STR(t.errors, "ok|cmd: unknown command jump (expected pause, resume, confirm or "
	                    "stop)|cannot confirm nosuch now: the sweep never ran it (or has not "
	                    "begun its runs)|ok|");
	CHECK_INT(t.closed, 1);
	CHECK_STR(sweep_end_status(t.s), "complete");
	/* The socket goes with the sweep. */
	CHECK_INT(stat(sock, &st), -1);
	sweep_free(t.s);
	CHECK_INT(uv_loop_close(&loop), 0);
	options_free(&o);
	free(t.errors);
	free(sock);
	free(out);
	free(err);
}

/* A sweep that has not begun its runs refuses pause and resume, each by
 * its name. */
static void
test_control_early_status(void *arg, const struct sweep_status *st, const char *end)
{
	struct test_control_client *t = arg;

	(void)end;
	if (t->statuses++ > 0)
		return;
	CHECK_INT(st->phase, SWEEP_PHASE_DISCOVER);
	CHECK_INT(control_client_send(t->c, "pause", NULL, 0), 0);
	CHECK_INT(control_client_send(t->c, "resume", NULL, 0), 0);
}

static void
test_control_early_reply(void *arg, const char *error)
{
	struct test_control_client *t = arg;

	test_control_reply(arg, error);
	if (t->replies == 2)
		control_close(t->control);
}

TEST(control_refuses_pause_and_resume_before_the_runs)
{
	const char *dir = check_tmpdir();
	struct test_control_client t;
	struct control_client_events ev = {&t, test_control_early_status, test_control_early_reply,
	                                   test_control_closed};
	char *err = NULL;
	struct options o;
	uv_loop_t loop;
	int rc = 0;

	memset(&t, 0, sizeof t);
	uv_loop_init(&loop);
	t.s = test_control_sweep(&loop, &o, dir, 1, NULL);
	if (t.s == NULL)
		return;
	t.control = control_new(&loop, t.s, dir, &err);
	CHECK(t.control != NULL);
	t.c = control_client_new(&loop, dir, &ev, &rc, &err);
	CHECK(t.c != NULL);
	uv_run(&loop, UV_RUN_DEFAULT);
	CHECK_STR(t.errors, "nothing to pause in the discover phase|"
	                    "nothing to resume in the discover phase|");
	CHECK_INT(t.closed, 1);
	/* Its timers close as it ends. */
	CHECK_INT(sweep_start(t.s, &err), 0);
	uv_run(&loop, UV_RUN_DEFAULT);
	CHECK_STR(sweep_end_status(t.s), "complete");
	sweep_free(t.s);
	CHECK_INT(uv_loop_close(&loop), 0);
	options_free(&o);
	free(t.errors);
	free(err);
}

struct test_control_bytes {
	struct control_client *c;
	char *id;
	bool sent;
	char *error;
	int replies;
};

static void
test_control_bytes_status(void *arg, const struct sweep_status *st, const char *end)
{
	struct test_control_bytes *t = arg;

	(void)end;
	/* Once the sweep has run the test, as the dashboard's c key does. */
	if (!t->sent && st->done >= 1) {
		t->sent = true;
		CHECK_INT(control_client_send(t->c, "confirm", t->id, 3), 0);
	}
}

static void
test_control_bytes_reply(void *arg, const char *error)
{
	struct test_control_bytes *t = arg;

	t->replies++;
	free(t->error);
	t->error = error != NULL ? xstrdup(error) : NULL;
}

static void
test_control_bytes_closed(void *arg, const char *why)
{
	(void)arg;
	CHECK(why == NULL);
}

/* The client writes the id's bytes that are not UTF-8 as byte escapes
 * (a raw one would be refused), and the sweep confirms the test they
 * name. */
TEST(control_client_confirms_a_name_that_is_not_utf8)
{
	const char *dir = check_tmpdir();
	struct test_control_bytes t;
	struct control_client_events ev = {&t, test_control_bytes_status, test_control_bytes_reply,
	                                   test_control_bytes_closed};
	char *script = xasprintf("%s/t.sh", dir), *err = NULL;
	struct options o;
	struct sweep *s;
	uv_loop_t loop;
	FILE *f;
	int rc = 0;

	memset(&t, 0, sizeof t);
	uv_loop_init(&loop);
	s = test_control_sweep(&loop, &o, dir, 6, NULL);
	if (s == NULL)
		return;
	/* beta passes at every run: only the confirm asked for runs it alone. */
	f = fopen(script, "w");
	fputs("#!/bin/sh\nsleep 0.2\necho 1..2\necho 'ok 1 - alpha'\n"
	      "printf 'ok 2 - b\\377eta\\n'\n",
	      f);
	fclose(f);
	t.id = xasprintf("%s::b\377eta", script);
	CHECK_INT(sweep_start(s, &err), 0);
	t.c = control_client_new(&loop, sweep_outdir(s), &ev, &rc, &err);
	CHECK(t.c != NULL);
	uv_run(&loop, UV_RUN_DEFAULT);
	CHECK(t.sent);
	CHECK_INT(t.replies, 1);
	CHECK(t.error == NULL);
	if (t.error != NULL)
		fprintf(stderr, "%s\n", t.error);
	CHECK_INT(test_control_confirm_runs(s, "b\377eta"), 3);
	CHECK_STR(sweep_end_status(s), "complete");
	sweep_free(s);
	CHECK_INT(uv_loop_close(&loop), 0);
	options_free(&o);
	free(t.error);
	free(t.id);
	free(script);
	free(err);
}

/* Reads fd into in until a line holding want arrives, turning loop (when
 * not NULL) between reads; that line, or NULL after 10 s (caller frees). */
static char *
test_control_await(int fd, struct buf *in, uv_loop_t *loop, const char *want)
{
	int64_t end = util_now_ms() + 10000;
	struct pollfd p = {fd, POLLIN, 0};
	char chunk[4096], *nl, *line;
	ssize_t n;

	for (;;) {
		while (in->len > 0 && (nl = memchr(in->data, '\n', in->len)) != NULL) {
			line = xstrndup(in->data, (size_t)(nl - in->data));
			in->len -= (size_t)(nl + 1 - in->data);
			memmove(in->data, nl + 1, in->len + 1);
			if (strstr(line, want) != NULL)
				return line;
			free(line);
		}
		if (util_now_ms() > end)
			return NULL;
		if (loop != NULL)
			uv_run(loop, UV_RUN_NOWAIT);
		if (poll(&p, 1, 10) == 1) {
			n = read(fd, chunk, sizeof chunk);
			if (n <= 0)
				return NULL;
			buf_add(in, chunk, (size_t)n);
		}
	}
}

/* The socket answers while the sweep's loop does not turn (the test holds
 * it, as a loop busy with runs would): the hello, the status and a refused
 * command come at once; pause waits for the loop, and is answered once it
 * turns, before the refusal sent after it. */
TEST(control_answers_while_the_loop_is_held)
{
	const char *dir = check_tmpdir();
	char *err = NULL, *sock = xasprintf("%s/control.sock", dir), *line;
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	struct buf in;
	struct control *c;
	struct options o;
	struct sweep *s;
	struct stat st;
	uv_loop_t loop;
	int fd;

	buf_init(&in);
	uv_loop_init(&loop);
	s = test_control_sweep(&loop, &o, dir, 1, NULL);
	if (s == NULL)
		return;
	c = control_new(&loop, s, dir, &err);
	CHECK(c != NULL);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	snprintf(sa.sun_path, sizeof sa.sun_path, "%s", sock);
	CHECK_INT(connect(fd, (struct sockaddr *)&sa, sizeof sa), 0);
	line = test_control_await(fd, &in, NULL, "\"type\":\"hello\"");
	CHECK(line != NULL);
	free(line);
	line = test_control_await(fd, &in, NULL, "\"type\":\"status\"");
	CHECK(line != NULL);
	CHECK(line != NULL && strstr(line, "\"phase\":\"discover\"") != NULL);
	free(line);
	CHECK(write(fd, "{\"cmd\":\"probe\",\"id\":7}\n", 23) == 23);
	line = test_control_await(fd, &in, NULL, "\"type\":\"reply\"");
	CHECK_STR(
	    line != NULL ? line : "(none)",
	    "{\"type\":\"reply\",\"id\":7,\"ok\":false,\"error\":\"cmd: unknown command probe "
	    "(expected pause, resume, confirm or stop)\"}");
	free(line);
	/* A refusal behind a command that waits for the loop waits too:
	 * replies keep the order of their commands. */
	CHECK(write(fd, "{\"cmd\":\"pause\",\"id\":8}\n{\"cmd\":\"probe\",\"id\":9}\n", 46) == 46);
	line = test_control_await(fd, &in, &loop, "\"type\":\"reply\"");
	CHECK_STR(line != NULL ? line : "(none)",
	          "{\"type\":\"reply\",\"id\":8,\"ok\":false,\"error\":\"nothing to pause in the "
	          "discover phase\"}");
	free(line);
	line = test_control_await(fd, &in, &loop, "\"type\":\"reply\"");
	CHECK(line != NULL && strstr(line, "\"id\":9,") != NULL);
	free(line);
	/* The end: a last status, the connection closed, the socket gone. */
	control_close(c);
	line = test_control_await(fd, &in, &loop, "\"type\":\"status\"");
	CHECK(line != NULL);
	free(line);
	CHECK(test_control_await(fd, &in, &loop, "\n") == NULL);
	close(fd);
	uv_run(&loop, UV_RUN_DEFAULT);
	CHECK_INT(stat(sock, &st), -1);
	CHECK_INT(sweep_start(s, &err), 0);
	uv_run(&loop, UV_RUN_DEFAULT);
	sweep_free(s);
	CHECK_INT(uv_loop_close(&loop), 0);
	options_free(&o);
	buf_free(&in);
	free(sock);
	free(err);
}
