/* SPDX-License-Identifier: MIT */
/*
 * test-quarantine.c: the quarantine file's rules, each entry's status from
 * results and a ledger under a fake clock, countdowns, adding in the file's
 * own style, and exports. Fixtures: tests/fixtures/quarantine.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "drivers/driver.h"
#include "decisions/ledger.h"
#include "decisions/quarantine-class.h"
#include "decisions/quarantine.h"
#include "results/results-json.h"
#include "results/results.h"
#include "base/json.h"
#include "base/jsonw.h"
#include "base/timefmt.h"
#include "base/util.h"

/* 2026-11-30T12:00:00Z, the time the fixtures are judged at. */
#define NOW_MS INT64_C(1796040000000)

static int64_t fake_now_ms;

static int64_t
fake_clock(void)
{
	return fake_now_ms;
}

static char *
fixture_path(const char *name)
{
	return xasprintf("%s/tests/fixtures/quarantine/%s", check_srcdir(), name);
}

static char *
read_fixture(const char *name, size_t *len)
{
	char *path = fixture_path(name), *text = NULL;
	size_t n = 0;

	if (util_read_file(path, 1 << 24, &text, &n) < 0)
		check_fail(__FILE__, __LINE__, "cannot read %s", path);
	free(path);
	if (len != NULL)
		*len = n;
	return text;
}

static struct quarantine *
parse_fixture(const char *name)
{
	size_t len;
	char *text = read_fixture(name, &len);
	struct quarantine *q = quarantine_parse(name, text, len);

	free(text);
	return q;
}

static struct quarantine *
parse_str(const char *path, const char *text)
{
	return quarantine_parse(path, text, strlen(text));
}

static struct results *
results_fixture(const char *name)
{
	char *path = fixture_path(name), *err = NULL;
	struct results *r = NULL;

	if (results_load(path, &r, NULL, &err) < 0)
		check_fail(__FILE__, __LINE__, "%s", err);
	free(path);
	return r;
}

static struct ledger *
ledger_fixture(const char *name)
{
	char *path = fixture_path(name), *err = NULL;
	struct ledger *l = NULL;

	CHECK_INT(ledger_load(path, &l, &err), 0);
	CHECK(err == NULL);
	free(path);
	return l;
}

TEST(quarantine_channel_forms)
{
	static const char *const bad[] = {
	    "",        "cpu=",         "cpu=0",       "cpu=01",        "cpu=-1",       "cpu=1,",
	    "cpu=x",   "load=2,cpu=1", "cpu=1,load=", "cpu=1;load=2",  "ANY",          "env:",
	    "env:A=B", "env:A B",      "clocks",      "cpu=1,load=2,", "cpu=99999999",
	};
	struct quarantine_channel ch;
	size_t i;

	CHECK_INT(quarantine_channel_parse("cpu=4", &ch), 0);
	CHECK_INT(ch.kind, QUARANTINE_CHANNEL_PAIR);
	CHECK_INT(ch.cpu, 4);
	CHECK_INT(ch.load, 0);
	CHECK_INT(quarantine_channel_parse("load=2", &ch), 0);
	CHECK_INT(ch.cpu, 0);
	CHECK_INT(ch.load, 2);
	CHECK_INT(quarantine_channel_parse("cpu=16,load=3", &ch), 0);
	CHECK_INT(ch.cpu, 16);
	CHECK_INT(ch.load, 3);
	CHECK_INT(quarantine_channel_parse("any", &ch), 0);
	CHECK_INT(ch.kind, QUARANTINE_CHANNEL_ANY);
	CHECK_INT(quarantine_channel_parse("clock", &ch), 0);
	CHECK_INT(ch.kind, QUARANTINE_CHANNEL_CLOCK);
	CHECK_INT(quarantine_channel_parse("rng", &ch), 0);
	CHECK_INT(ch.kind, QUARANTINE_CHANNEL_RNG);
	CHECK_INT(quarantine_channel_parse("net", &ch), 0);
	CHECK_INT(ch.kind, QUARANTINE_CHANNEL_NET);
	CHECK_INT(quarantine_channel_parse("env:RETRY_JITTER", &ch), 0);
	CHECK_INT(ch.kind, QUARANTINE_CHANNEL_ENV);
	for (i = 0; i < UTIL_ARRAY_LEN(bad); i++) {
		if (quarantine_channel_parse(bad[i], &ch) != -EINVAL)
			check_fail(__FILE__, __LINE__, "channel \"%s\" accepted", bad[i]);
	}
}

TEST(quarantine_dates)
{
	int64_t days = 0, ms = 0;

	CHECK_INT(timefmt_parse_date("1970-01-01", &days), 0);
	CHECK_INT(days, 0);
	CHECK_INT(timefmt_parse_date("2026-11-30", &days), 0);
	CHECK_INT(days, 20787);
	CHECK_INT(timefmt_parse_date("2028-02-29", &days), 0);
	CHECK_INT(timefmt_parse_date("2000-02-29", &days), 0);
	CHECK_INT(timefmt_parse_date("2100-02-29", &days), -EINVAL);
	CHECK_INT(timefmt_parse_date("2026-02-29", &days), -EINVAL);
	CHECK_INT(timefmt_parse_date("2026-04-31", &days), -EINVAL);
	CHECK_INT(timefmt_parse_date("2026-13-01", &days), -EINVAL);
	CHECK_INT(timefmt_parse_date("2026-1-01", &days), -EINVAL);
	CHECK_INT(timefmt_parse_date("2026-01-01T00:00:00Z", &days), -EINVAL);
	CHECK_INT(timefmt_parse_date("26-01-01", &days), -EINVAL);
	CHECK_INT(timefmt_parse_date(" 2026-01-01", &days), -EINVAL);
	CHECK_INT(timefmt_parse_time("2026-11-30T12:00:00Z", &ms), 0);
	CHECK_INT(ms, NOW_MS);
	CHECK_INT(timefmt_parse_time("2026-11-30", &ms), 0);
	CHECK_INT(ms, NOW_MS - 12 * 3600 * 1000);
	CHECK_INT(timefmt_parse_time("2026-11-30T24:00:00Z", &ms), -EINVAL);
	CHECK_INT(timefmt_parse_time("2026-11-30T12:00:00+01:00", &ms), -EINVAL);
	CHECK_INT(timefmt_parse_time("tomorrow", &ms), -EINVAL);
}

TEST(quarantine_countdown)
{
	struct quarantine *q = parse_fixture("demo.json");
	const struct quarantine_entry *e = &q->entries[0];
	int64_t end = NOW_MS + (int64_t)15 * 86400000 + 12 * 3600000; /* 2026-12-16T00:00Z */
	char out[32];

	CHECK_INT(q->nentries, 1);
	CHECK_INT(e->expiry_end_ms, end);
	CHECK_INT(quarantine_countdown_s(e, NOW_MS), 15 * 86400 + 12 * 3600);
	CHECK_INT(quarantine_countdown_s(e, end - 1), 1);
	CHECK_INT(quarantine_countdown_s(e, end - 1000), 1);
	CHECK_INT(quarantine_countdown_s(e, end - 1001), 2);
	CHECK_INT(quarantine_countdown_s(e, end), 0);
	CHECK_INT(quarantine_countdown_s(e, end + 1500), -1);
	quarantine_format_countdown(2 * 86400 + 4 * 3600 + 11 * 60 + 7, out, sizeof out);
	CHECK_STR(out, "2d 04:11:07");
	quarantine_format_countdown(59, out, sizeof out);
	CHECK_STR(out, "00:00:59");
	quarantine_format_countdown(0, out, sizeof out);
	CHECK_STR(out, "00:00:00");
	quarantine_format_countdown(-(86400 + 5), out, sizeof out);
	CHECK_STR(out, "-1d 00:00:05");
	quarantine_free(q);
}

TEST(quarantine_parse_valid)
{
	struct quarantine *q = parse_fixture("valid.json");
	static const int lines[] = {2, 10, 18, 26, 34, 42, 50};
	size_t i;

	CHECK_INT(q->nentries, 7);
	CHECK_INT(q->nproblems, 0);
	CHECK_INT(q->nerrors, 0);
	for (i = 0; i < q->nentries; i++) {
		CHECK(q->entries[i].valid);
		CHECK_INT(q->entries[i].index, (long long)i + 1);
		CHECK_INT(q->entries[i].line, lines[i]);
		CHECK_INT(q->entries[i].status, QUARANTINE_UNPROVEN);
	}
	CHECK_STR(q->entries[2].test, "example.com/demo/cache::TestEvict/small_(lru)");
	CHECK_STR(q->entries[2].channel, "cpu=2,load=1");
	CHECK_INT(q->entries[2].ch.cpu, 2);
	CHECK_INT(q->entries[2].ch.load, 1);
	CHECK_STR(q->entries[3].owner, "platform");
	CHECK_STR(q->entries[3].issue, "#4822");
	CHECK_STR(q->entries[3].expires, "2027-01-31");
	CHECK_STR(q->entries[6].reason, "talks to the staging server");
	CHECK(quarantine_has_test(q, "example.com/demo/retry::TestBackoff"));
	CHECK(!quarantine_has_test(q, "example.com/demo/retry::TestBackof"));
	CHECK(!quarantine_has_test(q, "example.com/demo/retry"));
	{
		const struct quarantine_entry *e;

		e = quarantine_next_for_test(q, "example.com/demo/retry::TestBackoff", NULL);
		CHECK(e == &q->entries[0]);
		e = quarantine_next_for_test(q, "example.com/demo/retry::TestBackoff", e);
		CHECK(e == &q->entries[1]);
		CHECK(quarantine_next_for_test(q, "example.com/demo/retry::TestBackoff", e) ==
		      NULL);
	}
	quarantine_free(q);
}

TEST(quarantine_parse_errors)
{
	static const char *const want[] = {
	    "invalid.json:9: entry 2: owner: missing",
	    "invalid.json:19: entry 3: issue: empty",
	    "invalid.json:20: entry 3: warning: unknown field \"severity\" (ignored)",
	    "invalid.json:28: entry 4: expires: \"2026-13-01\" is not a date (YYYY-MM-DD)",
	    "invalid.json:32: entry 5: channel: unknown channel \"cpu=0\" (expected cpu=C, load=L, "
	    "cpu=C,load=L, any, clock, rng, net or env:NAME)",
	    "invalid.json:39: entry 6: channel: unknown channel \"disk\" (expected cpu=C, load=L, "
	    "cpu=C,load=L, any, clock, rng, net or env:NAME)",
	    "invalid.json:44: entry 7: duplicate of entry 1 (line 2): same test and channel",
	    "invalid.json:52: entry 8: test: \"TestNoPackage\" is not a test id (PACKAGE::TEST)",
	    "invalid.json:54: entry 8: owner: expected a string",
	    "invalid.json:58: entry 9: expected an object",
	};
	struct quarantine *q = parse_fixture("invalid.json");
	size_t i;

	CHECK_INT(q->nentries, 9);
	CHECK_INT(q->nproblems, UTIL_ARRAY_LEN(want));
	CHECK_INT(q->nerrors, UTIL_ARRAY_LEN(want) - 1);
	for (i = 0; i < q->nproblems; i++)
		CHECK_STR(q->problems[i].message, want[i]);
	CHECK(q->problems[2].warning);
	CHECK(q->entries[0].valid);
	for (i = 1; i < q->nentries; i++)
		CHECK(!q->entries[i].valid);
	quarantine_evaluate(q, NULL, NULL, 100, NOW_MS);
	CHECK_INT(q->entries[0].status, QUARANTINE_UNPROVEN);
	CHECK_INT(q->entries[1].status, QUARANTINE_INVALID);
	/* Invalid entries quarantine nothing. */
	CHECK(!quarantine_has_test(q, "example.com/demo/retry::TestTimeout"));
	quarantine_free(q);

	q = parse_str("s.json", "[\n  {\"test\": 1}\n  {}\n]");
	CHECK_INT(q->nerrors, 1);
	CHECK_STR(q->problems[0].message, "s.json:3:3: invalid JSON (expected ',' or ']')");
	quarantine_free(q);
	q = parse_str("s.json", "[] []");
	CHECK_STR(q->problems[0].message,
	          "s.json:1:4: invalid JSON (expected the end of the text after the value)");
	quarantine_free(q);
	q = parse_str("s.json", "\n\n\"x\"\n");
	CHECK_STR(q->problems[0].message, "s.json:3: expected a JSON array of entries");
	quarantine_free(q);
	/* A blank file is an empty list. */
	q = parse_str("s.json", " \n");
	CHECK_INT(q->nentries, 0);
	CHECK_INT(q->nproblems, 0);
	quarantine_free(q);
	/* A field given twice is an error; a duplicate key is not case-folded. */
	q = parse_str("s.json",
	              "[{\"test\":\"p::T\",\"channel\":\"any\",\"owner\":\"o\",\"Owner\":\"x\","
	              "\"issue\":\"i\",\"issue\":\"j\",\"expires\":\"2030-01-01\"}]");
	CHECK_INT(q->nproblems, 2);
	CHECK_STR(q->problems[0].message,
	          "s.json:1: entry 1: warning: unknown field \"Owner\" (ignored)");
	CHECK_STR(q->problems[1].message, "s.json:1: entry 1: issue: given more than once");
	quarantine_free(q);
}

/* The demo test's entry: active while it fails, stale after a sweep in
 * which it stops failing, overdue once its date passes while it fails. The
 * time comes from a fake clock through util_now_ms(). */
TEST(quarantine_demo_lifecycle)
{
	struct quarantine *q = parse_fixture("demo.json");
	struct results *failing = results_fixture("results-failing.json");
	struct results *clean = results_fixture("results-clean.json");
	const struct quarantine_entry *e = &q->entries[0];
	int64_t day = 86400000;

	util_set_clock(fake_clock);
	fake_now_ms = NOW_MS;
	quarantine_evaluate(q, NULL, NULL, 100, util_now_ms());
	CHECK_INT(e->status, QUARANTINE_UNPROVEN);
	quarantine_evaluate(q, failing, NULL, 100, util_now_ms());
	CHECK_INT(e->status, QUARANTINE_ACTIVE);
	CHECK(e->ev.covered);
	CHECK_INT(e->ev.runs, 2000);
	CHECK_INT(e->ev.failures, 11);
	CHECK_INT(e->ev.hangs, 1);
	CHECK_INT(quarantine_countdown_s(e, util_now_ms()), 15 * 86400 + 12 * 3600);
	/* The next sweep shows no failure in 1000 runs at cpu=1. */
	quarantine_evaluate(q, clean, NULL, 100, util_now_ms());
	CHECK_INT(e->status, QUARANTINE_STALE);
	CHECK_INT(e->ev.runs, 1000);
	/* ... unless more runs are asked for. */
	quarantine_evaluate(q, clean, NULL, 1001, util_now_ms());
	CHECK_INT(e->status, QUARANTINE_UNPROVEN);
	/* The last second of the expiry day, still failing: active. */
	fake_now_ms = e->expiry_end_ms - 1000;
	quarantine_evaluate(q, failing, NULL, 100, util_now_ms());
	CHECK_INT(e->status, QUARANTINE_ACTIVE);
	CHECK_INT(quarantine_countdown_s(e, util_now_ms()), 1);
	/* The day after: overdue. */
	fake_now_ms = e->expiry_end_ms;
	quarantine_evaluate(q, failing, NULL, 100, util_now_ms());
	CHECK_INT(e->status, QUARANTINE_OVERDUE);
	fake_now_ms += day;
	quarantine_evaluate(q, NULL, NULL, 100, util_now_ms());
	CHECK_INT(e->status, QUARANTINE_OVERDUE);
	/* Expired but shown clean: stale, not overdue. */
	quarantine_evaluate(q, clean, NULL, 100, util_now_ms());
	CHECK_INT(e->status, QUARANTINE_STALE);
	util_set_clock(NULL);
	results_free(failing);
	results_free(clean);
	quarantine_free(q);
}

TEST(quarantine_statuses_from_evidence)
{
	static const enum quarantine_status want_failing[] = {
	    QUARANTINE_ACTIVE, QUARANTINE_ACTIVE, QUARANTINE_OVERDUE, QUARANTINE_ACTIVE,
	    QUARANTINE_STALE,  QUARANTINE_STALE,  QUARANTINE_OVERDUE,
	};
	static const enum quarantine_status want_clean[] = {
	    QUARANTINE_STALE, QUARANTINE_STALE,    QUARANTINE_OVERDUE, QUARANTINE_ACTIVE,
	    QUARANTINE_STALE, QUARANTINE_UNPROVEN, QUARANTINE_OVERDUE,
	};
	struct quarantine *q = parse_fixture("valid.json");
	struct results *failing = results_fixture("results-failing.json");
	struct results *clean = results_fixture("results-clean.json");
	struct ledger *l = ledger_fixture("ledger.jsonl");
	struct buf b;
	size_t i;

	quarantine_evaluate(q, failing, l, 100, NOW_MS);
	for (i = 0; i < q->nentries; i++)
		CHECK_INT(q->entries[i].status, want_failing[i]);
	/* load=2 covers cpu 1 and cpu 2 at load 2. */
	CHECK_INT(q->entries[1].ev.runs, 1000);
	CHECK_INT(q->entries[1].ev.failures, 1);
	/* env:RETRY_JITTER: three ledger runs showed it, one failed. */
	CHECK_INT(q->entries[3].ev.runs, 3);
	CHECK_INT(q->entries[3].ev.failures, 1);
	/* clock: the ledger has the test but never the channel. */
	CHECK(q->entries[4].ev.channel_gone);
	CHECK_INT(q->entries[4].ev.ledger_runs, 2);
	buf_init(&b);
	quarantine_evidence_describe(&q->entries[4], &q->entries[4].ev, &b);
	CHECK_STR(b.data, "channel not in the ledger (runs: 2)");
	buf_reset(&b);
	quarantine_evidence_describe(&q->entries[0], &q->entries[0].ev, &b);
	CHECK_STR(b.data, "runs: 2000, failed: 11, hung: 1");
	buf_reset(&b);
	quarantine_evidence_describe(&q->entries[3], &q->entries[3].ev, &b);
	CHECK_STR(b.data, "ledger runs: 3, failed: 1");
	buf_reset(&b);
	quarantine_evidence_describe(&q->entries[6], &q->entries[6].ev, &b);
	CHECK_STR(b.data, "no evidence");
	buf_free(&b);
	quarantine_evaluate(q, clean, l, 100, NOW_MS);
	for (i = 0; i < q->nentries; i++)
		CHECK_INT(q->entries[i].status, want_clean[i]);
	results_free(failing);
	results_free(clean);
	ledger_free(l);
	quarantine_free(q);
}

TEST(quarantine_cells_in_memory)
{
	struct quarantine_channel cpu1, load2, pair, any, clock;
	struct quarantine_evidence ev;

	quarantine_channel_parse("cpu=1", &cpu1);
	quarantine_channel_parse("load=2", &load2);
	quarantine_channel_parse("cpu=1,load=2", &pair);
	quarantine_channel_parse("any", &any);
	quarantine_channel_parse("clock", &clock);
	memset(&ev, 0, sizeof ev);
	quarantine_evidence_add_cell(&ev, &cpu1, 1, 1, 10, 1, 0);
	quarantine_evidence_add_cell(&ev, &cpu1, 1, 2, 10, 0, 2);
	quarantine_evidence_add_cell(&ev, &cpu1, 2, 1, 10, 5, 5);
	CHECK(ev.covered);
	CHECK_INT(ev.runs, 20);
	CHECK_INT(ev.failures, 1);
	CHECK_INT(ev.hangs, 2);
	memset(&ev, 0, sizeof ev);
	quarantine_evidence_add_cell(&ev, &pair, 1, 1, 10, 1, 0);
	quarantine_evidence_add_cell(&ev, &pair, 2, 2, 10, 1, 0);
	CHECK(!ev.covered);
	quarantine_evidence_add_cell(&ev, &pair, 1, 2, 7, 0, 0);
	CHECK_INT(ev.runs, 7);
	memset(&ev, 0, sizeof ev);
	quarantine_evidence_add_cell(&ev, &load2, 4, 2, 3, 0, 0);
	quarantine_evidence_add_cell(&ev, &load2, 4, 1, 5, 1, 0);
	CHECK_INT(ev.runs, 3);
	CHECK_INT(ev.failures, 0);
	memset(&ev, 0, sizeof ev);
	quarantine_evidence_add_cell(&ev, &any, 4, 1, 3, 0, 0);
	quarantine_evidence_add_cell(&ev, &any, 1, 2, 4, 0, 0);
	CHECK_INT(ev.runs, 7);
	/* Cells say nothing about ambient channels, and empty cells nothing. */
	memset(&ev, 0, sizeof ev);
	quarantine_evidence_add_cell(&ev, &clock, 1, 1, 500, 3, 0);
	quarantine_evidence_add_cell(&ev, &any, 1, 1, 0, 0, 0);
	CHECK(!ev.covered);
	CHECK_INT(ev.runs, 0);
}

/* Evidence comes through results_load, which refuses what is not a
 * results.json or has a broken cell, naming the line; an entry is judged
 * on its own test's cells only. */
TEST(quarantine_results_shape)
{
	static const struct {
		const char *text, *err;
	} bad[] = {
	    {"{\"tests\": {}}", "schema"},
	    {"{\"schema\": \"flakesweep/journal/v1\", \"tests\": []}", "schema"},
	    {"[]", "schema"},
	};
	char *path = xasprintf("%s/results.json", check_tmpdir()), *err = NULL;
	struct quarantine *q = parse_fixture("demo.json");
	struct results *r = NULL;
	struct results_test *t;
	size_t i;

	for (i = 0; i < UTIL_ARRAY_LEN(bad); i++) {
		CHECK_INT(util_write_file_atomic(path, bad[i].text, strlen(bad[i].text)), 0);
		CHECK(results_load(path, &r, NULL, &err) < 0);
		CHECK(r == NULL);
		CHECK(err != NULL && strstr(err, path) != NULL);
		free(err);
		err = NULL;
	}
	r = results_new();
	results_add_pkg(r, "example.com/demo/retry", "default");
	results_add_pkg(r, "example.com/demo/other", "default");
	t = results_add_test(r, 1, "example.com/demo/other::TestBackoff", "TestBackoff");
	CHECK(t != NULL);
	t = results_add_test(r, 0, "example.com/demo/retry::TestBackoff", "TestBackoff");
	CHECK(t != NULL && results_find(r, "example.com/demo/retry::TestBackoff") == t);
	quarantine_evaluate(q, r, NULL, 100, NOW_MS);
	CHECK_INT(q->entries[0].ev.runs, 0);
	CHECK_INT(q->entries[0].status, QUARANTINE_UNPROVEN);
	results_free(r);
	quarantine_free(q);
	free(path);
}

TEST(quarantine_json_for_dashboard_and_results)
{
	struct quarantine *q = parse_fixture("valid.json");
	struct results *failing = results_fixture("results-failing.json");
	cJSON *j, *e;
	struct buf b;
	struct jsonw w;
	char *s;

	quarantine_evaluate(q, failing, NULL, 100, NOW_MS);
	buf_init(&b);
	jsonw_init(&w, &b);
	quarantine_test_write(&w, "quarantine", q, "example.com/demo/retry::TestBackoff", NOW_MS);
	j = cJSON_Parse(b.data);
	s = cJSON_PrintUnformatted(j);
	CHECK_STR(s, "[{\"channel\":\"cpu=1\",\"owner\":\"platform\",\"issue\":\"#4821\","
	             "\"expires\":\"2026-12-15\",\"status\":\"active\",\"expires_in_s\":1339200},"
	             "{\"channel\":\"load=2\",\"owner\":\"platform\",\"issue\":\"#4821\","
	             "\"expires\":\"2026-12-01\",\"status\":\"active\",\"expires_in_s\":129600}]");
	cJSON_free(s);
	cJSON_Delete(j);
	buf_reset(&b);
	quarantine_test_write(&w, "quarantine", q, "example.com/demo/retry::TestOther", NOW_MS);
	CHECK_INT(b.len, 0);
	buf_free(&b);
	j = quarantine_to_json(q, 100, NOW_MS);
	CHECK_STR(cJSON_GetObjectItemCaseSensitive(j, "schema")->valuestring,
	          "flakesweep/quarantine-status/v1");
	CHECK_INT(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(j, "entries")), 7);
	e = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(j, "entries"), 2);
	CHECK_STR(cJSON_GetObjectItemCaseSensitive(e, "status")->valuestring, "overdue");
	CHECK_INT(cJSON_GetObjectItemCaseSensitive(e, "expires_in_s")->valuedouble, -43200);
	cJSON_Delete(j);
	results_free(failing);
	quarantine_free(q);
}

/* Adds to a copy of fixture name and compares the file with expected. */
static void
check_add(const char *name, const char *expected, const struct quarantine_new_entry *ne)
{
	char *src = fixture_path(name), *dst = xasprintf("%s/%s", check_tmpdir(), name);
	char *text = NULL, *want = NULL, *err = NULL;
	struct quarantine *q = NULL;
	size_t len;
	int removed = 0;

	CHECK_INT(util_read_file(src, 1 << 20, &text, &len), 0);
	CHECK_INT(util_write_file_atomic(dst, text, len), 0);
	free(text);
	CHECK_INT(quarantine_load(dst, &q, &err), 0);
	CHECK_INT(quarantine_add(q, ne, NOW_MS, &err), 0);
	CHECK(err == NULL);
	/* q follows the file. */
	CHECK_STR(q->entries[q->nentries - 1].test, ne->test);
	CHECK(q->entries[q->nentries - 1].valid);
	CHECK_INT(util_read_file(dst, 1 << 20, &text, &len), 0);
	want = read_fixture(expected, NULL);
	CHECK_STR(text, want);
	free(text);
	free(want);
	/* Removing it gives the file back byte for byte. */
	CHECK_INT(quarantine_remove(q, ne->test, ne->channel, &removed, &err), 0);
	CHECK(err == NULL);
	CHECK_INT(removed, 1);
	CHECK_INT(util_read_file(dst, 1 << 20, &text, &len), 0);
	want = read_fixture(name, NULL);
	CHECK_STR(text, want);
	free(text);
	free(want);
	free(src);
	free(dst);
	quarantine_free(q);
}

TEST(quarantine_add_keeps_style)
{
	struct quarantine_new_entry valid = {"example.com/demo/retry::TestJitter",
	                                     "rng",
	                                     "seeds from the clock",
	                                     "platform",
	                                     "#4823",
	                                     "2026-12-24",
	                                     NULL,
	                                     false};
	struct quarantine_new_entry compact = {"tests/test_new.py::test_it[a \"b\"]",
	                                       "env:TZ",
	                                       NULL,
	                                       "Zo\xc3\xab",
	                                       "#9",
	                                       "2026-12-24",
	                                       NULL,
	                                       false};
	struct quarantine_new_entry single = {
	    "tests/test_new.py::test_it", "any", NULL, "sched", "#10", "2026-12-24", NULL, false};
	struct quarantine_new_entry empty = {"example.com/demo/net::TestDial",
	                                     "cpu=4,load=2",
	                                     NULL,
	                                     "net",
	                                     "#12",
	                                     "2026-12-24",
	                                     NULL,
	                                     false};

	check_add("valid.json", "expected/add-valid.json", &valid);
	check_add("compact.json", "expected/add-compact.json", &compact);
	check_add("single.json", "expected/add-single.json", &single);
	check_add("empty.json", "expected/add-empty.json", &empty);
}

TEST(quarantine_add_new_file_and_refusals)
{
	char *path = xasprintf("%s/proj/.flakesweep/quarantine.json", check_tmpdir());
	char *err = NULL, *text = NULL, *want;
	struct quarantine *q = NULL;
	struct quarantine_new_entry ne = {
	    "example.com/demo/net::TestDial", "net", NULL, "net", "#12", "2026-12-24", NULL, false};

	CHECK_INT(quarantine_load(path, &q, &err), -ENOENT);
	CHECK(q == NULL);
	free(err);
	q = quarantine_new(path);
	CHECK_INT(quarantine_add(q, &ne, NOW_MS, &err), 0);
	CHECK_INT(util_read_file(path, 1 << 20, &text, NULL), 0);
	want = read_fixture("expected/add-new.json", NULL);
	CHECK_STR(text, want);
	free(want);
	free(text);
	CHECK_INT(q->nentries, 1);

	CHECK_INT(quarantine_add(q, &ne, NOW_MS, &err), -EEXIST);
	CHECK(strstr(err, "entry 1 already quarantines example.com/demo/net::TestDial") != NULL);
	free(err);
	ne.channel = "clock";
	ne.expires = "2026-11-29";
	CHECK_INT(quarantine_add(q, &ne, NOW_MS, &err), -EINVAL);
	CHECK_STR(err, "expires: 2026-11-29 is in the past");
	free(err);
	ne.expires = "2026-11-30"; /* today is allowed */
	ne.owner = "";
	CHECK_INT(quarantine_add(q, &ne, NOW_MS, &err), -EINVAL);
	CHECK_STR(err, "owner: empty");
	free(err);
	ne.owner = "net";
	ne.issue = NULL;
	CHECK_INT(quarantine_add(q, &ne, NOW_MS, &err), -EINVAL);
	CHECK_STR(err, "issue: missing");
	free(err);
	ne.issue = "#1";
	ne.test = "TestDial";
	CHECK_INT(quarantine_add(q, &ne, NOW_MS, &err), -EINVAL);
	CHECK_STR(err, "test: \"TestDial\" is not a test id (PACKAGE::TEST)");
	free(err);
	ne.test = "example.com/demo/net::TestDial";
	CHECK_INT(quarantine_add(q, &ne, NOW_MS, &err), 0);
	CHECK_INT(q->nentries, 2);
	CHECK_INT(q->entries[1].line, 9);
	quarantine_free(q);

	/* A file with errors takes no new entry, and exports only its valid
	 * ones (entry 9 has no test at all). */
	q = parse_fixture("invalid.json");
	text = quarantine_export(q, &driver_tap, NULL, NULL);
	CHECK_STR(text, "");
	free(text);
	CHECK_INT(quarantine_add(q, &ne, NOW_MS, &err), -EINVAL);
	CHECK_STR(err, "invalid.json has errors; see flakesweep quarantine check");
	free(err);
	quarantine_free(q);
	free(path);
}

TEST(quarantine_invalid_utf8_and_nul_name_entry_and_field)
{
	static const char nul[] =
	    "[\n  {\"test\": \"m::A\0B\", \"channel\": \"any\", \"owner\": \"o\", "
	    "\"issue\": \"#1\", \"expires\": \"2027-06-01\"}\n]\n";
	struct quarantine *q;

	q = parse_str(
	    "u.json",
	    "[\n  {\"test\": \"m::A\", \"channel\": \"any\", \"owner\": \"o\", "
	    "\"issue\": \"#1\", \"expires\": \"2027-06-01\"},\n"
	    "  {\"test\": \"m::\xff\", \"channel\": \"any\",\n"
	    "   \"owner\": \"\xc3\x28\", \"issue\": \"#1\", \"expires\": \"2027-06-01\"}\n]\n");
	CHECK_INT(q->nerrors, 2);
	CHECK_STR(q->problems[0].message, "u.json:3: entry 2: test: not valid UTF-8");
	CHECK_STR(q->problems[1].message, "u.json:4: entry 2: owner: not valid UTF-8");
	/* The other entry still counts. */
	CHECK(q->entries[0].valid);
	CHECK(!q->entries[1].valid);
	quarantine_free(q);
	/* A raw NUL would cut the id to "m::A" without a word. */
	q = quarantine_parse("n.json", nul, sizeof nul - 1);
	CHECK_INT(q->nerrors, 1);
	CHECK_STR(q->problems[0].message, "n.json:2: entry 1: test: a NUL byte inside a string");
	CHECK(!quarantine_has_test(q, "m::A"));
	quarantine_free(q);
}

/* A test id that is not UTF-8 (a TAP name can be any bytes) is written
 * with byte escapes and read back as the same bytes, so the entry matches
 * the test. */
TEST(quarantine_add_keeps_bytes_that_are_not_utf8)
{
	char *path = xasprintf("%s/q.json", check_tmpdir()), *err = NULL, *text = NULL;
	struct quarantine *q = quarantine_new(path);
	struct quarantine_new_entry ne = {"m::\xff\xfe x", "any", NULL, "o", "#1",
	                                  "2027-06-01",    NULL,  false};
	size_t len = 0;

	CHECK_INT(quarantine_add(q, &ne, NOW_MS, &err), 0);
	quarantine_free(q);
	CHECK_INT(util_read_file(path, 1 << 16, &text, &len), 0);
	CHECK(text != NULL && strstr(text, "\"m::\\udcff\\udcfe x\"") != NULL);
	CHECK(text != NULL && json_utf8_valid(text, len));
	q = NULL;
	CHECK_INT(quarantine_load(path, &q, &err), 0);
	CHECK(q != NULL && q->nerrors == 0 && quarantine_has_test(q, "m::\xff\xfe x"));
	free(text);
	free(err);
	quarantine_free(q);
	free(path);
}

/* 20 processes read the same (missing) file, each through paths[i % 2],
 * then each adds its own test: without the lock and the read under it most
 * adds are lost. real is the file they all reach. */
static void
quarantine_adds_in_parallel(const char *const paths[2], const char *real)
{
	char *err = NULL;
	struct quarantine *q = NULL;
	pid_t pids[20];
	int i, status;

	for (i = 0; i < 20; i++) {
		pids[i] = fork();
		CHECK(pids[i] >= 0);
		if (pids[i] == 0) {
			char test[32];
			struct quarantine_new_entry ne = {test, "any",        NULL, "o",
			                                  "#1", "2027-06-01", NULL, false};
			int rc = quarantine_load(paths[i % 2], &q, &err);

			if (rc == -ENOENT)
				q = quarantine_new(paths[i % 2]);
			snprintf(test, sizeof test, "m::P%d", i);
			usleep(20000);
			_exit(quarantine_add(q, &ne, NOW_MS, &err) == 0 ? 0 : 1);
		}
	}
	for (i = 0; i < 20; i++) {
		CHECK(waitpid(pids[i], &status, 0) == pids[i]);
		CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	}
	CHECK_INT(quarantine_load(real, &q, &err), 0);
	CHECK_INT(q->nerrors, 0);
	CHECK_INT(q->nentries, 20);
	for (i = 0; i < 20; i++) {
		char test[32];

		snprintf(test, sizeof test, "m::P%d", i);
		CHECK(quarantine_has_test(q, test));
	}
	quarantine_free(q);
}

TEST(quarantine_concurrent_adds_keep_every_entry)
{
	char *path = xasprintf("%s/c.json", check_tmpdir());
	const char *const paths[2] = {path, path};

	quarantine_adds_in_parallel(paths, path);
	free(path);
}

/* The same through two symbolic links in two directories to one file (a
 * shared quarantine file): every entry reaches that file, the links stay. */
TEST(quarantine_concurrent_adds_through_links)
{
	const char *tmp = check_tmpdir();
	char *real = xasprintf("%s/real/q.json", tmp), *dir = xasprintf("%s/real", tmp);
	char *link[2];
	struct stat st;
	int i;

	CHECK_INT(util_mkdir_p(dir), 0);
	for (i = 0; i < 2; i++) {
		char *d = xasprintf("%s/d%d", tmp, i + 1);

		CHECK_INT(util_mkdir_p(d), 0);
		link[i] = xasprintf("%s/q.json", d);
		CHECK_INT(symlink("../real/q.json", link[i]), 0);
		free(d);
	}
	quarantine_adds_in_parallel((const char *const *)link, real);
	for (i = 0; i < 2; i++) {
		CHECK_INT(lstat(link[i], &st), 0);
		CHECK(S_ISLNK(st.st_mode));
		free(link[i]);
	}
	free(real);
	free(dir);
}

TEST(quarantine_go_skip_quoting)
{
	const char *names[] = {"TestNames/should_(fail)",   "TestNames/a+b=c", "TestNames/[::1]:80",
	                       "TestNames/it's_$HOME;_ok",  "TestNames/x/y",   "TestPlain",
	                       "TestNames/bell\\a_nul\\x00"};
	char *p = driver_go.skip_args("example.com/demo", names, UTIL_ARRAY_LEN(names), true, NULL);

	CHECK_STR(p, "^TestNames$/^should_\\(fail\\)$|^TestNames$/^a\\+b=c$|"
	             "^TestNames$/^\\[::1\\]:80$|^TestNames$/^it's_\\$HOME;_ok$|"
	             "^TestNames$/^x$/^y$|^TestPlain$|^TestNames$/^bell\\\\a_nul\\\\x00$\n");
	free(p);
}

TEST(quarantine_exports)
{
	struct quarantine *q = parse_fixture("valid.json");
	char *s;

	s = quarantine_export(q, &driver_go, NULL, NULL);
	/* Only Go tests: the file's pytest node ids are not Go packages. */
	CHECK_STR(s, "go test -skip '^TestBackoff$' example.com/demo/retry\n"
	             "go test -skip '^TestEvict$/^small_\\(lru\\)$' example.com/demo/cache\n"
	             "go test -skip '^TestDial$' example.com/demo/net\n");
	free(s);
	s = quarantine_export(q, &driver_tap, NULL, NULL);
	CHECK_STR(s, "--deselect tests/test_sched.py::test_retry_backoff\n"
	             "--deselect tests/test_sched.py::test_clock_skew\n"
	             "--deselect 'tests/test_api.py::test_fetch[it'\\''s ok]'\n");
	free(s);
	s = quarantine_export(q, &driver_go, "example.com/demo/retry", NULL);
	CHECK_STR(s, "^TestBackoff$\n");
	free(s);
	s = quarantine_export(q, &driver_go, "example.com/demo", NULL);
	CHECK_STR(s, "\n");
	free(s);
	s = quarantine_export(q, &driver_tap, "tests/test_api.py", NULL);
	CHECK_STR(s, "--deselect 'tests/test_api.py::test_fetch[it'\\''s ok]'\n");
	free(s);
	quarantine_free(q);
}

TEST(quarantine_default_path_walks_up)
{
	char *root = xasprintf("%s/proj", check_tmpdir());
	char *sub = xasprintf("%s/a/b", root);
	char *marker = xasprintf("%s/go.mod", root), *p, *want;
	char *old = getcwd(NULL, 0);

	CHECK_INT(util_mkdir_p(sub), 0);
	CHECK_INT(util_write_file_atomic(marker, "module x\n", 9), 0);
	CHECK_INT(chdir(sub), 0);
	p = quarantine_default_path();
	want = xasprintf("%s/%s", root, QUARANTINE_DEFAULT_FILE);
	/* check_tmpdir() may sit behind a symbolic link: compare the tails. */
	CHECK(strlen(p) >= strlen("/proj/.flakesweep/quarantine.json"));
	CHECK_STR(p + strlen(p) - strlen("/proj/.flakesweep/quarantine.json"),
	          "/proj/.flakesweep/quarantine.json");
	free(p);
	free(want);
	CHECK_INT(chdir(root), 0);
	p = quarantine_default_path();
	CHECK_STR(p, QUARANTINE_DEFAULT_FILE);
	free(p);
	CHECK_INT(chdir(old), 0);
	free(old);
	free(root);
	free(sub);
	free(marker);
}

TEST(quarantine_remove_entries)
{
	char *src = fixture_path("valid.json"), *dst = xasprintf("%s/remove.json", check_tmpdir());
	char *text = NULL, *err = NULL;
	struct quarantine *q = NULL;
	size_t len, n0;
	int removed = 0;

	CHECK_INT(util_read_file(src, 1 << 20, &text, &len), 0);
	CHECK_INT(util_write_file_atomic(dst, text, len), 0);
	free(text);
	CHECK_INT(quarantine_load(dst, &q, &err), 0);
	n0 = q->nentries;
	CHECK(n0 >= 2);
	text = xstrdup(q->entries[0].test);
	CHECK_INT(quarantine_remove(q, "example.com/nope::TestNope", NULL, &removed, &err),
	          -ENOENT);
	CHECK(strstr(err, "no entry quarantines example.com/nope::TestNope") != NULL);
	free(err);
	CHECK_INT(quarantine_remove(q, text, "no-such-channel", &removed, &err), -ENOENT);
	free(err);
	/* The first entry goes with the separator after it. */
	CHECK_INT(quarantine_remove(q, text, NULL, &removed, &err), 0);
	CHECK(removed >= 1);
	CHECK_INT(q->nentries, n0 - (size_t)removed);
	CHECK_INT(q->nerrors, 0);
	CHECK(!quarantine_has_test(q, text));
	quarantine_free(q);
	q = NULL;
	CHECK_INT(quarantine_load(dst, &q, &err), 0);
	CHECK_INT(q->nentries, n0 - (size_t)removed);
	quarantine_free(q);
	free(text);
	free(src);
	free(dst);
}

/* The table: a test-flake on any channel, a race on its failing channel
 * (however it is written), nothing else without --force. */
TEST(quarantine_class_allows_what_the_table_allows)
{
	char *why;

	CHECK(quarantine_class_refusal("p::T", CLASSIFY_TEST_FLAKE, "any", "cpu=2") == NULL);
	CHECK(quarantine_class_refusal("p::T", CLASSIFY_RACE, "cpu=2,load=1", "cpu=2,load=1") ==
	      NULL);
	CHECK(quarantine_class_refusal("p::T", CLASSIFY_NONE, NULL, "any") == NULL);
	why = quarantine_class_refusal("p::T", CLASSIFY_RACE, "cpu=2", "any");
	CHECK_STR(why, "p::T is a race that fails at cpu=2, not on channel any: fix the race, or "
	               "quarantine it on cpu=2");
	free(why);
	why = quarantine_class_refusal("p::T", CLASSIFY_HARNESS_BUG, NULL, "any");
	CHECK(why != NULL && strstr(why, "p::T is harness-bug: the environment") == why);
	free(why);
	why = quarantine_class_refusal("p::T", CLASSIFY_UNEXPLAINED, NULL, "any");
	CHECK(why != NULL && strstr(why, "unexplained: there is not enough evidence") != NULL);
	free(why);
	why = quarantine_class_refusal("p::T", CLASSIFY_ISOLATION_BROKEN, NULL, "cpu=1");
	CHECK(why != NULL && strstr(why, "isolation-broken: a canary misbehaved") != NULL);
	free(why);
}
