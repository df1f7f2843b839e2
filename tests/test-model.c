/* SPDX-License-Identifier: MIT */
/* test-model.c: the dashboard model's timeline: the whole sweep's ETA
 * counts the confirm runs the failures so far will get, a pause freezes
 * both estimates and does not count in the pace, and the problems no
 * test list shows are counted. A view attached to a sweep keeps its own
 * copy of the packages that did not build. A skip-flaky test is listed. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "model.h"
#include "results/replay.h"
#include "base/util.h"

/* The demo journal's first lines lines, replayed into r. */
static void
test_model_replay(int lines, struct replay *r)
{
	char *from = xasprintf("%s/tests/fixtures/ui/demo/journal.jsonl", check_srcdir());
	char *to = xasprintf("%s/journal-%d.jsonl", check_tmpdir(), lines);
	char *text = NULL, *p, *err = NULL;
	size_t len;

	CHECK_INT(util_read_file(from, (size_t)1 << 24, &text, &len), 0);
	for (p = text; *p != '\0'; p++) {
		if (*p == '\n' && --lines == 0) {
			p[1] = '\0';
			break;
		}
	}
	CHECK_INT(util_write_file_atomic(to, text, strlen(text)), 0);
	if (replay_journal(to, r, &err) < 0)
		check_fail(__FILE__, __LINE__, "replay: %s", err);
	free(text);
	free(from);
	free(to);
}

TEST(model_eta_projects_confirm)
{
	struct model *m = model_new(MODEL_VIEW);
	struct replay a, b;
	int64_t t0 = 1796007910000;

	/* Mid-sweep: 3 runs of 40, then 10 s later 14. */
	test_model_replay(12, &a);
	test_model_replay(40, &b);
	model_update_replay(m, &a, "out", t0);
	CHECK_INT(m->phase, SWEEP_PHASE_SWEEP);
	CHECK_INT(m->done, 3);
	model_update_replay(m, &b, "out", t0 + 10000);
	CHECK_INT(m->done, 14);
	CHECK_INT(m->target, 40);
	/* 11 runs in 10 s, 26 left: 23 s. Four tests failed in the sweep so
	 * far: 4 x 4 pairs x --confirm 10 runs to come, 186 runs: 169 s. */
	CHECK_INT(m->flaky + m->failing, 4);
	CHECK_INT(m->eta_s, 23);
	CHECK_INT(m->projected, 160);
	CHECK_INT(m->total_eta_s, 169);
	/* Paused for a minute: both stay. */
	m->paused = true;
	model_eta(m, t0 + 10000);
	model_eta(m, t0 + 70000);
	CHECK_INT(m->eta_s, 23);
	CHECK_INT(m->total_eta_s, 169);
	/* Resumed: the minute paused is not in the pace (else 26 runs at
	 * 70/11 s each, 165 s). */
	m->paused = false;
	model_eta(m, t0 + 70000);
	CHECK_INT(m->eta_s, 23);
	CHECK_INT(m->total_eta_s, 169);
	model_free(m);
	replay_free(&a);
	replay_free(&b);
}

/* The status a sweep pushed names a package that did not build: the model
 * lists it, and the status and the model are each freed whole, once. */
TEST(model_attached_build_failed)
{
	struct model *m = model_new(MODEL_VIEW);
	struct sweep_status st;
	struct replay a;

	test_model_replay(12, &a);
	memset(&st, 0, sizeof st);
	util_strv_add(&st.build_failed, &st.nbuild_failed, "example.com/m/broken (unit)");
	model_update_attached(m, &a, &st, NULL, "out", 1796007910000);
	CHECK_INT(m->nbuild_failed, 1);
	CHECK_STR(m->build_failed[0], "example.com/m/broken (unit)");
	CHECK_INT(st.nbuild_failed, 1);
	CHECK_STR(st.build_failed[0], "example.com/m/broken (unit)");
	status_free(&st);
	CHECK_STR(m->build_failed[0], "example.com/m/broken (unit)");
	model_free(m);
	replay_free(&a);
}

/* The quarantine file says whether a test is quarantined: after its entry
 * is removed (quarantine remove), a decision to quarantine no longer shows
 * the test as quarantined, and it is to decide again. */
TEST(model_quarantine_removed_takes_the_decision_back)
{
	struct model *m = model_new(MODEL_VIEW);
	struct model_test *mt = NULL;
	struct replay r;
	char *id;
	size_t i;

	test_model_replay(419, &r);
	model_update_replay(m, &r, "out", 1796007910000);
	model_list_tests(m);
	CHECK(m->ntests > 0);
	m->decisions = xcalloc(1, sizeof *m->decisions);
	m->ndecisions = 1;
	id = xstrdup(m->tests[0].id);
	m->decisions[0].test = xstrdup(id);
	m->decisions[0].decision = xstrdup("quarantined");
	m->decisions[0].channel = xstrdup("cpu-1-load-2");
	m->decisions[0].time = xstrdup("2026-12-04T08:00:00Z");
	quarantine_free(m->quarantine);
	m->quarantine = quarantine_new("q.json");
	model_list_tests(m);
	for (i = 0; i < m->ntests; i++) {
		if (strcmp(m->tests[i].id, id) == 0)
			mt = &m->tests[i];
	}
	CHECK(mt != NULL);
	CHECK(mt->decision == NULL);
	CHECK(!mt->quarantined);
	CHECK(mt->verdict == RESULTS_FAILING || mt->undecided);
	free(id);
	model_free(m);
	replay_free(&r);
}

/* A test that skipped itself in some runs is listed with its skips and
 * needs no decision: nothing failed to decide about. One that skipped every
 * run is not listed. */
TEST(model_lists_skip_flaky_tests)
{
	struct model *m = model_new(MODEL_VIEW);
	struct results *r = results_new();
	struct outcome o;
	int pkg = results_add_pkg(r, "example.com/m", "unit"), i;

	for (i = 1; i <= 4; i++) {
		memset(&o, 0, sizeof o);
		outcome_add(&o, xstrdup("TestSome"), i % 2 == 0 ? OUTCOME_SKIP : OUTCOME_PASS,
		            NULL);
		outcome_add(&o, xstrdup("TestAll"), OUTCOME_SKIP, NULL);
		results_add_run(r, pkg, RESULTS_SWEEP, 1, 1, &o, NULL, i);
		outcome_free(&o);
	}
	m->results = r;
	model_list_tests(m);
	CHECK_INT(m->ntests, 1);
	CHECK_STR(m->tests[0].name, "TestSome");
	CHECK(m->tests[0].verdict == RESULTS_SKIP_FLAKY);
	CHECK_INT(m->tests[0].skipped, 2);
	CHECK_INT(m->tests[0].runs, 2);
	CHECK(!m->tests[0].undecided);
	m->results = NULL;
	model_free(m);
	results_free(r);
}
