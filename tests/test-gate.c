/* SPDX-License-Identifier: MIT */
/*
 * test-gate.c: reading and merging ambient ledgers, and the gate's verdicts
 * on the ledgers under tests/fixtures/gate.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "decisions/gate.h"
#include "decisions/ledger.h"
#include "base/util.h"

static struct ledger *
load(const char *name)
{
	char *path = xasprintf("%s/tests/fixtures/gate/%s", check_srcdir(), name), *err = NULL;
	struct ledger *l = NULL;

	if (ledger_load(path, &l, &err) != 0)
		check_fail(__FILE__, __LINE__, "%s", err);
	free(path);
	return l;
}

/* The error ledger_parse gives for text (caller frees). */
static char *
parse_error(const char *text)
{
	struct ledger *l = NULL;
	char *err = NULL;

	CHECK_INT(ledger_parse("l.jsonl", text, strlen(text), &l, &err), -EINVAL);
	CHECK(l == NULL);
	CHECK(err != NULL);
	return err;
}

TEST(ledger_channel_names)
{
	CHECK(ledger_channel_valid("clock"));
	CHECK(ledger_channel_valid("rng"));
	CHECK(ledger_channel_valid("net"));
	CHECK(ledger_channel_valid("env:CI"));
	CHECK(ledger_channel_valid("env:my-var.x"));
	CHECK(!ledger_channel_valid("env:"));
	CHECK(!ledger_channel_valid("env:A=B"));
	CHECK(!ledger_channel_valid("env:A B"));
	CHECK(!ledger_channel_valid("env:\x01"));
	CHECK(!ledger_channel_valid("any"));
	CHECK(!ledger_channel_valid("cpu=1"));
	CHECK(!ledger_channel_valid("Clock"));
	CHECK(!ledger_channel_valid(NULL));
}

TEST(ledger_merges_runs)
{
	struct ledger *l = load("head.jsonl");
	const struct ledger_test *t;
	const struct ledger_channel *c;
	size_t i;

	CHECK_INT(l->ntests, 10);
	for (i = 1; i < l->ntests; i++)
		CHECK(strcmp(l->tests[i - 1].test, l->tests[i].test) < 0);
	t = ledger_find(l, "tests/test_api.py::test_fetch");
	CHECK(t != NULL);
	CHECK_INT(t->line, 1);
	CHECK_INT(t->lines, 2);
	CHECK_INT(t->runs, 2);
	CHECK_INT(t->failures, 0);
	CHECK_INT(t->nchannels, 2);
	CHECK_STR(t->channels[0].name, "clock");
	CHECK_STR(t->channels[1].name, "net");
	CHECK_INT(ledger_test_channel(t, "clock")->runs, 1);
	CHECK_INT(ledger_test_channel(t, "net")->runs, 2);
	CHECK(ledger_test_channel(t, "rng") == NULL);
	t = ledger_find(l, "tests/test_sched.py::test_deadline");
	CHECK_INT(t->line, 7);
	CHECK_INT(t->runs, 2);
	CHECK_INT(t->failures, 1);
	c = ledger_test_channel(t, "clock");
	CHECK_INT(c->runs, 2);
	CHECK_INT(c->failures, 1);
	/* A skipped run shows channels but is not a run. */
	t = ledger_find(l, "tests/test_cfg.py::test_ci_only");
	CHECK_INT(t->lines, 1);
	CHECK_INT(t->runs, 0);
	CHECK_INT(t->nchannels, 1);
	CHECK_INT(t->channels[0].runs, 0);
	/* A channel twice on one line is one run; "error" is a failure. */
	t = ledger_find(l, "tests/test_ids.py::test_uuid");
	CHECK_INT(t->nchannels, 1);
	CHECK_INT(t->channels[0].runs, 1);
	t = ledger_find(l, "tests/test_new.py::test_added");
	CHECK_INT(t->failures, 1);
	CHECK(ledger_find(l, "tests/test_new.py::test_gone") == NULL);
	CHECK(ledger_find(NULL, "x") == NULL);
	ledger_free(l);
	ledger_free(NULL);
}

TEST(ledger_errors_name_file_and_line)
{
	char *e;

	e = parse_error("{\"test\": \"a::b\", \"outcome\": \"passed\", \"channels\": []}\n\n"
	                "{\"test\": \"a::b\", \"outcome\": \"passed\", \"channels\": [}\n");
	CHECK_STR(e, "l.jsonl:3:52: invalid JSON (expected a value (an object, array, string, "
	             "number, true, false or null))");
	free(e);
	e = parse_error("{\"test\": \"a::b\", \"outcome\": \"flaky\", \"channels\": []}");
	CHECK_STR(e, "l.jsonl:1: \"outcome\": \"flaky\" is not passed, failed, skipped or error");
	free(e);
	e = parse_error("{\"test\": \"\", \"outcome\": \"passed\", \"channels\": []}");
	CHECK_STR(e, "l.jsonl:1: \"test\": missing or not a non-empty string");
	free(e);
	e = parse_error("{\"Test\": \"a::b\", \"outcome\": \"passed\", \"channels\": []}");
	CHECK_STR(e, "l.jsonl:1: \"test\": missing or not a non-empty string");
	free(e);
	e = parse_error("{\"test\": \"a::b\", \"outcome\": 1, \"channels\": []}");
	CHECK_STR(e, "l.jsonl:1: \"outcome\": missing or not a string");
	free(e);
	e = parse_error("{\"test\": \"a::b\", \"outcome\": \"passed\"}");
	CHECK_STR(e, "l.jsonl:1: \"channels\": missing or not an array");
	free(e);
	e = parse_error("{\"test\": \"a::b\", \"outcome\": \"passed\", \"channels\": [1]}");
	CHECK_STR(e, "l.jsonl:1: \"channels\": expected an array of strings");
	free(e);
	e = parse_error("{\"test\": \"a::b\", \"outcome\": \"passed\", \"channels\": [\"fs\"]}");
	CHECK_STR(e, "l.jsonl:1: \"channels\": unknown channel \"fs\" (expected clock, rng, net or "
	             "env:NAME)");
	free(e);
	e = parse_error("{\"test\": \"a::b\", \"outcome\": \"passed\", \"channels\": []} {}");
	CHECK_STR(e, "l.jsonl:1:55: invalid JSON (expected the end of the text after the value)");
	free(e);
	/* cJSON would take invalid UTF-8 and cut a test id at a NUL. */
	e = parse_error("{\"test\": \"m::\xff\", \"outcome\": \"passed\", \"channels\": []}");
	CHECK_STR(e, "l.jsonl:1:14: invalid JSON (not valid UTF-8)");
	free(e);
	{
		static const char nul[] =
		    "{\"test\": \"m::A\0B\", \"outcome\": \"passed\", \"channels\": []}";
		struct ledger *l = NULL;

		CHECK_INT(ledger_parse("l.jsonl", nul, sizeof nul - 1, &l, &e), -EINVAL);
		CHECK_STR(e, "l.jsonl:1:15: invalid JSON (a NUL byte inside a string)");
		free(e);
	}
	e = parse_error("[]");
	CHECK_STR(e, "l.jsonl:1: expected a JSON object");
	free(e);
	/* A last line without a newline is read like the others. */
	{
		const char *text = "\r\n  \n{\"test\": \"a::b\", \"outcome\": \"passed\", "
		                   "\"channels\": [\"rng\"]}\r";
		struct ledger *l = NULL;
		char *err = NULL;

		CHECK_INT(ledger_parse("l.jsonl", text, strlen(text), &l, &err), 0);
		CHECK_INT(l->ntests, 1);
		CHECK_INT(l->tests[0].line, 3);
		ledger_free(l);
	}
}

static const struct gate_row *
row(const struct gate_result *r, const char *test)
{
	size_t i;

	for (i = 0; i < r->nrows; i++) {
		if (strcmp(r->rows[i].test, test) == 0)
			return &r->rows[i];
	}
	return NULL;
}

TEST(gate_verdicts)
{
	struct ledger *base = load("base.jsonl"), *head = load("head.jsonl");
	struct gate_options o = {NULL, NULL};
	struct gate_result r;
	const struct gate_row *w;
	char *err = NULL;

	CHECK_INT(gate_compare(base, head, NULL, &o, &r, &err), 0);
	CHECK_INT(r.nrows, 8);
	CHECK_INT(r.counts[GATE_BLOCK], 1);
	CHECK_INT(r.counts[GATE_NEEDS_FREEZE], 3);
	CHECK_INT(r.counts[GATE_PROBE], 2);
	CHECK_INT(r.counts[GATE_ALLOW], 2);
	CHECK_INT(r.counts[GATE_UNSTABLE], 0);
	/* A socket outside an integration path blocks, whatever else grew. */
	w = row(&r, "tests/test_api.py::test_fetch");
	CHECK_INT(w->verdict, GATE_BLOCK);
	CHECK_STR(w->added, "clock,net");
	CHECK_STR(w->reason, "clock: added, no failure in head yet (runs: 2); net: socket opened "
	                     "outside an integration path");
	/* Inside one it is allowed. */
	w = row(&r, "tests/integration/test_db.py::test_roundtrip");
	CHECK_INT(w->verdict, GATE_ALLOW);
	CHECK_STR(w->added, "net");
	/* CI is allowed by default, REGION is not. */
	CHECK_INT(row(&r, "tests/test_cfg.py::test_ci_only")->verdict, GATE_ALLOW);
	CHECK_INT(row(&r, "tests/test_cfg.py::test_region")->verdict, GATE_NEEDS_FREEZE);
	/* clock or rng: a probe, or needs-freeze once the test failed in head. */
	CHECK_INT(row(&r, "tests/test_sched.py::test_jitter")->verdict, GATE_PROBE);
	CHECK_INT(row(&r, "tests/test_ids.py::test_uuid")->verdict, GATE_PROBE);
	CHECK_INT(row(&r, "tests/test_sched.py::test_deadline")->verdict, GATE_NEEDS_FREEZE);
	/* A test new in head grew by all its channels. */
	w = row(&r, "tests/test_new.py::test_added");
	CHECK_INT(w->verdict, GATE_NEEDS_FREEZE);
	CHECK_STR(w->reason, "clock: added and the test failed in head (failed: 1 of 1 runs)");
	/* Unchanged and shrunk channels give no verdict. */
	CHECK(row(&r, "tests/test_sched.py::test_retry_backoff") == NULL);
	CHECK(row(&r, "tests/test_cfg.py::test_shrunk") == NULL);
	gate_result_free(&r);

	/* The same ledger twice: nothing grew. */
	CHECK_INT(gate_compare(base, base, NULL, &o, &r, &err), 0);
	CHECK_INT(r.nrows, 0);
	gate_result_free(&r);
	ledger_free(base);
	ledger_free(head);
}

TEST(gate_options_integration_and_env)
{
	struct ledger *base = load("base.jsonl"), *head = load("head.jsonl");
	struct gate_options o = {"^tests/test_api\\.py::", "REGION,CI"};
	struct gate_result r;
	char *err = NULL;

	CHECK_INT(gate_compare(base, head, NULL, &o, &r, &err), 0);
	CHECK_INT(row(&r, "tests/test_api.py::test_fetch")->verdict, GATE_PROBE);
	CHECK_INT(row(&r, "tests/integration/test_db.py::test_roundtrip")->verdict, GATE_BLOCK);
	CHECK_INT(row(&r, "tests/test_cfg.py::test_region")->verdict, GATE_ALLOW);
	gate_result_free(&r);
	o.integration = NULL;
	o.allow_env = "";
	CHECK_INT(gate_compare(base, head, NULL, &o, &r, &err), 0);
	CHECK_INT(row(&r, "tests/test_cfg.py::test_ci_only")->verdict, GATE_NEEDS_FREEZE);
	gate_result_free(&r);
	o.allow_env = "CIX,XCI,C";
	CHECK_INT(gate_compare(base, head, NULL, &o, &r, &err), 0);
	CHECK_INT(row(&r, "tests/test_cfg.py::test_ci_only")->verdict, GATE_NEEDS_FREEZE);
	gate_result_free(&r);
	o.integration = "(";
	CHECK_INT(gate_compare(base, head, NULL, &o, &r, &err), -EINVAL);
	CHECK(strncmp(err, "invalid value \"(\" for --integration: ", 37) == 0);
	free(err);
	ledger_free(base);
	ledger_free(head);
}

TEST(gate_control_marks_unstable)
{
	struct ledger *base = load("base.jsonl"), *head = load("head.jsonl");
	struct ledger *control = load("head2.jsonl");
	struct gate_options o = {NULL, NULL};
	struct gate_result r;
	const struct gate_row *w;
	char *err = NULL;
	cJSON *j;

	CHECK_INT(gate_compare(base, head, control, &o, &r, &err), 0);
	CHECK_INT(r.counts[GATE_UNSTABLE], 3);
	w = row(&r, "tests/test_ids.py::test_uuid");
	CHECK_INT(w->verdict, GATE_UNSTABLE);
	CHECK_STR(w->reason, "channels differ between head runs: only head has rng; only the "
	                     "control has env:UUID_NODE");
	CHECK_STR(w->added, "");
	CHECK_INT(row(&r, "tests/test_new.py::test_added")->verdict, GATE_UNSTABLE);
	CHECK_INT(row(&r, "tests/test_flip.py::test_only_in_control")->verdict, GATE_UNSTABLE);
	/* Channel order in a line does not matter. */
	CHECK_INT(row(&r, "tests/test_api.py::test_fetch")->verdict, GATE_BLOCK);
	CHECK_INT(row(&r, "tests/test_cfg.py::test_region")->verdict, GATE_NEEDS_FREEZE);
	j = gate_result_json(&r);
	CHECK_INT(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(j, "counts"),
	                                           "unstable")
	              ->valuedouble,
	          3);
	CHECK_INT(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(j, "tests")), 9);
	cJSON_Delete(j);
	gate_result_free(&r);
	ledger_free(base);
	ledger_free(head);
	ledger_free(control);
}

TEST(gate_verdict_names)
{
	CHECK_STR(gate_verdict_name(GATE_ALLOW), "allow");
	CHECK_STR(gate_verdict_name(GATE_PROBE), "probe");
	CHECK_STR(gate_verdict_name(GATE_NEEDS_FREEZE), "needs-freeze");
	CHECK_STR(gate_verdict_name(GATE_BLOCK), "block");
	CHECK_STR(gate_verdict_name(GATE_UNSTABLE), "unstable");
}
