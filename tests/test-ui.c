/* SPDX-License-Identifier: MIT */
/*
 * test-ui.c: the dashboard's golden screens, tig's way: ncurses draws on a
 * virtual terminal of a fixed size (newterm on a file), a key script is
 * fed one key at a time when the loop has nothing left to do, the clock is
 * fixed, and the screen is dumped as text and compared with
 * tests/golden/ui/NAME.txt. The model comes from a journal of the demo
 * sweep (tests/fixtures/ui); a fake source plays the live sweep's
 * commands. UI_GOLDEN_UPDATE=1 rewrites the golden files instead.
 */
#include "config.h"

#include <errno.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <curses.h>

#include "action.h"
#include "board.h"
#include "clipboard.h"
#include "ui.h"
#include "check.h"
#include "results/compare.h"
#include "results/decisions.h"
#include "engine/replay-status.h"
#include "results/replay.h"
#include "results/results-json.h"
#include "results/shardset.h"
#include "base/util.h"

/* The live fixture keeps the journal up to this line: mid-confirm. */
#define TEST_UI_LIVE_LINES 200

enum test_ui_kind {
	TEST_UI_VIEW, /* `flakesweep view` of the finished demo sweep */
	TEST_UI_LIVE, /* a sweep running here: the fake source takes commands */
};

struct test_ui {
	uv_loop_t loop;
	struct replay r;
	struct ui *ui;
	enum test_ui_kind kind;
	char *dir, *journal, *qpath;
	FILE *out, *in;
	char *out_path;
	/* What the fake sweep was asked. */
	bool paused, interrupted;
	int confirms, confirm_count;
	char *confirm_test;
};

static int64_t test_ui_now;

static int64_t
test_ui_clock(void)
{
	return test_ui_now;
}

static char *
test_ui_read(const char *path)
{
	char *text = NULL;
	size_t len;

	if (util_read_file(path, (size_t)64 << 20, &text, &len) < 0)
		return NULL;
	return text;
}

static void
test_ui_write(const char *path, const char *text)
{
	CHECK_INT(util_write_file_atomic(path, text, strlen(text)), 0);
}

/* Copies the first lines lines of from (all when lines <= 0) to to. */
static void
test_ui_copy(const char *from, const char *to, int lines)
{
	char *text = test_ui_read(from), *p;

	if (text == NULL)
		check_fail(__FILE__, __LINE__, "cannot read %s", from);
	for (p = text; lines > 0 && *p != '\0'; p++) {
		if (*p == '\n' && --lines == 0) {
			p[1] = '\0';
			break;
		}
	}
	test_ui_write(to, text);
	free(text);
}

/* ---- the fake source ---- */

/* A fake 64-core machine for the lane overview: 0 for the demo's own,
 * 7 for 7 lanes of 8 (keep 8; cpu 1,2,4,8 x load 1,2,3), 15 for 15 lanes
 * of 4 (keep 4; cpu 1,2,4 x load 1,2,3). */
static int test_ui_machine;

/* The fake source gives the model known ETAs. */
static bool test_ui_eta;

/* The fake source puts an environment on the last lane. */
static bool test_ui_environment;

/* The terminal's input bytes, or NULL for none. */
static const char *test_ui_input;

static const char *const test_ui_pkgs[] = {
    "example.com/x/cache/lru",
    "example.com/x/auth/oidc",
    "example.com/x/storage/raft",
    "example.com/x/pkg/scheduler",
    "example.com/x/replication/streaming",
    "example.com/x/integration/cluster",
    "example.com/x/api/grpc",
    "example.com/x/storage/wal",
    "example.com/x/net/dialer",
    "example.com/x/cmd/agent",
    "example.com/x/metrics/export",
    "example.com/x/index/btree",
};

/* Lane l of the fake machine runs cpu x load, or is idle (load 0). */
static void
test_ui_fake_pair(int l, int *cpu, int *load)
{
	static const int cpu7[] = {1, 2, 8, 4, 1, 2, 0}, load7[] = {3, 2, 1, 3, 1, 3, 0};
	static const int cpus15[] = {1, 2, 4};

	if (test_ui_machine == 7) {
		*cpu = cpu7[l];
		*load = load7[l];
	} else if (l >= 13) {
		*cpu = *load = 0;
	} else {
		*cpu = cpus15[(l % 9) / 3];
		*load = l % 3 + 1;
	}
}

/* Puts the fake machine's lanes, busy as a live sweep keeps them, into m
 * (--timeout 5m: some runs near it, some past it). */
static void
test_ui_fake_machine(struct model *m, int64_t now_ms)
{
	struct sweep_status st, old;
	int width = test_ui_machine == 7 ? 8 : 4, nlanes = test_ui_machine;
	int cores[64] = {0}, l, i, k, c, n = 0;

	memset(&st, 0, sizeof st);
	for (i = 0; i < nlanes * width; i++)
		cores[i] = i;
	status_set_lanes(&st, nlanes, width, cores);
	for (l = 0; l < nlanes; l++) {
		struct status_lane *sl = &st.lanes[l];
		int cpu, load;

		test_ui_fake_pair(l, &cpu, &load);
		if (load == 0)
			continue;
		sl->load = load;
		for (k = 0; k < load; k++) {
			for (i = 0; i + cpu <= width; i += cpu) {
				const char *pkg = test_ui_pkgs[n % UTIL_ARRAY_LEN(test_ui_pkgs)];
				int64_t age_s = (n * 53 + l * 31) % 320 + 1;

				/* The last core first, as a scheduler may place them. */
				status_add_run(&st, l, n, cores + l * width + i, cpu, load,
				               n % 7 == 3 ? RESULTS_CONFIRM : RESULTS_SWEEP, pkg,
				               n % 7 == 3 ? "TestLeaderElection2" : NULL,
				               now_ms - age_s * 1000);
				for (c = i; c < i + cpu; c++)
					sl->core_runs[c]++;
				n++;
			}
		}
	}
	if (test_ui_machine == 7)
		status_hold(&st, 6, test_ui_pkgs[2], NULL, 8, 2);
	memset(&old, 0, sizeof old);
	old.lanes = m->lanes;
	old.nlanes = m->nlanes;
	status_free(&old);
	m->lanes = st.lanes;
	m->nlanes = nlanes;
	m->width = width;
	m->machine_cores = 64;
	m->keep = 64 - nlanes * width;
	m->timeout_ms = 300000;
}

static void
test_ui_update(void *arg, struct model *m, int64_t now_ms)
{
	struct test_ui *t = arg;
	struct status_lane *l;

	model_update_replay(m, &t->r, t->dir, now_ms);
	if (test_ui_machine != 0) {
		test_ui_fake_machine(m, now_ms);
		return;
	}
	if (test_ui_eta) {
		/* Mid-sweep: 10 minutes of sweep left, 90 with the confirm
		 * runs the failures so far will get. */
		m->phase = SWEEP_PHASE_SWEEP;
		m->eta_s = 600;
		m->total_eta_s = 5400;
		m->projected = 160;
	}
	if (t->kind != TEST_UI_LIVE)
		return;
	if (test_ui_environment && m->nlanes > 1)
		m->lanes[m->nlanes - 1].environment = xstrdup("e2e up");
	/* A live lane: two runs in flight, one of them a confirm run, and a
	 * held task waiting for the lane to go back to load 1. */
	m->paused = t->paused;
	if (m->nlanes < 1)
		return;
	l = &m->lanes[0];
	l->load = 2;
	l->core_runs[0] = 2;
	l->core_runs[1] = 1;
	l->runs = xcalloc(2, sizeof *l->runs);
	l->nruns = 2;
	l->runs[0].cores = xstrdup("c0");
	l->runs[0].pkg = xstrdup("flakesweep-demo");
	l->runs[0].cpu = 1;
	l->runs[0].load = 2;
	l->runs[0].phase = RESULTS_SWEEP;
	l->runs[0].started_ms = now_ms - 3000;
	l->runs[1].cores = xstrdup("c0-c1");
	l->runs[1].pkg = xstrdup("flakesweep-demo");
	l->runs[1].test = xstrdup("TestLoadSensitive");
	l->runs[1].cpu = 2;
	l->runs[1].load = 2;
	l->runs[1].phase = RESULTS_CONFIRM;
	l->runs[1].started_ms = now_ms - 41000;
	l->held = xstrdup("flakesweep-demo TestSometimesHangs cpu 2 load 1");
	l->held_why = xstrdup("waits for the lane to empty: it runs at load 2");
}

static int
test_ui_confirm(void *arg, const char *test_id, int count)
{
	struct test_ui *t = arg;

	t->confirms++;
	t->confirm_count = count;
	free(t->confirm_test);
	t->confirm_test = xstrdup(test_id);
	return 0;
}

static int
test_ui_pause(void *arg, bool paused)
{
	struct test_ui *t = arg;

	t->paused = paused;
	return 0;
}

static void
test_ui_interrupt(void *arg)
{
	struct test_ui *t = arg;

	t->interrupted = true;
	/* The sweep stops its runs and reports its end. */
	ui_finished(t->ui);
}

static void
test_ui_reproduce(void *arg, struct model *m, size_t i, const char **fs, const char **direct)
{
	(void)arg;
	model_reproduce(m, NULL, i, fs, direct);
}

/* ---- the fixture ---- */

struct test_ui_opts {
	int colors; /* enum draw_colors, or -1 to detect */
	int utf8;
	const char *journal; /* a journal to use instead of the demo's */
	const char *repo;
	const char *api_url;
	bool no_color; /* NO_COLOR set */
	bool signals;  /* the dashboard's signal and crash handlers */
};

static void
test_ui_start(struct test_ui *t, enum test_ui_kind kind, int rows, int cols,
              const struct test_ui_opts *o)
{
	const char *tmp = check_tmpdir();
	char *src = realpath(check_srcdir(), NULL);
	struct ui_config cfg;
	struct ui_source s;
	char *from, *err = NULL, num[16];

	memset(t, 0, sizeof *t);
	t->kind = kind;
	if (setlocale(LC_ALL, o->utf8 ? "C.UTF-8" : "C") == NULL)
		check_skip("the C.UTF-8 locale is not installed");
	/* Paths on screen are relative to the test's directory, so the
	 * screens do not depend on where it is. */
	CHECK(src != NULL);
	CHECK_INT(chdir(tmp), 0);
	t->dir = xstrdup("out");
	util_mkdir_p(t->dir);
	t->journal = xasprintf("%s/journal.jsonl", t->dir);
	if (o->journal != NULL) {
		test_ui_write(t->journal, o->journal);
	} else {
		from = xasprintf("%s/tests/fixtures/ui/demo/journal.jsonl", src);
		test_ui_copy(from, t->journal, kind == TEST_UI_LIVE ? TEST_UI_LIVE_LINES : 0);
		free(from);
		from = xasprintf("%s/tests/fixtures/ui/demo/results.json", src);
		t->out_path = xasprintf("%s/results.json", t->dir);
		test_ui_copy(from, t->out_path, 0);
		free(t->out_path);
		free(from);
	}
	t->qpath = xstrdup("quarantine.json");
	from = xasprintf("%s/tests/fixtures/ui/quarantine.json", src);
	test_ui_copy(from, t->qpath, 0);
	free(from);
	free(src);
	if (replay_journal_flags(t->journal, REPLAY_SIMULATED, &t->r, &err) < 0)
		check_fail(__FILE__, __LINE__, "replay: %s", err);
	/* A view an hour after the sweep began; a live sweep a minute in. */
	test_ui_now = t->r.started_ms + (kind == TEST_UI_LIVE ? 60000 : 3600000);
	util_set_clock(test_ui_clock);
	snprintf(num, sizeof num, "%d", rows);
	setenv("LINES", num, 1);
	snprintf(num, sizeof num, "%d", cols);
	setenv("COLUMNS", num, 1);
	if (o->no_color)
		setenv("NO_COLOR", "1", 1);
	else
		unsetenv("NO_COLOR");
	t->out_path = xstrdup("terminal.out");
	t->out = fopen(t->out_path, "w");
	if (test_ui_input != NULL)
		test_ui_write("terminal.in", test_ui_input);
	t->in = fopen(test_ui_input != NULL ? "terminal.in" : "/dev/null", "r");
	CHECK(t->out != NULL && t->in != NULL);
	ui_config_init(&cfg);
	cfg.out = t->out;
	cfg.in = t->in;
	cfg.term = "xterm-256color";
	cfg.key_fd = -1;
	cfg.signals = o->signals;
	cfg.colors = o->colors;
	cfg.utf8 = o->utf8;
	cfg.mode = kind == TEST_UI_VIEW ? "view" : NULL;
	cfg.outdir = t->dir;
	cfg.quarantine = t->qpath;
	cfg.repo = o->repo;
	cfg.api_url = o->api_url;
	CHECK_INT(uv_loop_init(&t->loop), 0);
	t->ui = ui_new(&t->loop, &cfg, kind == TEST_UI_LIVE ? MODEL_LIVE : MODEL_VIEW, &err);
	if (t->ui == NULL)
		check_skip(err != NULL ? err : "no terminal description for xterm-256color");
	memset(&s, 0, sizeof s);
	s.arg = t;
	s.update = test_ui_update;
	s.reproduce = test_ui_reproduce;
	if (kind == TEST_UI_LIVE) {
		s.confirm = test_ui_confirm;
		s.pause = test_ui_pause;
		s.interrupt = test_ui_interrupt;
	}
	ui_set_source(t->ui, &s);
	ui_draw(t->ui);
}

static void
test_ui_stop(struct test_ui *t)
{
	ui_close(t->ui);
	ui_free(t->ui);
	uv_run(&t->loop, UV_RUN_DEFAULT);
	CHECK_INT(uv_loop_close(&t->loop), 0);
	replay_free(&t->r);
	fclose(t->out);
	fclose(t->in);
	free(t->dir);
	free(t->journal);
	free(t->qpath);
	free(t->out_path);
	free(t->confirm_test);
	util_set_clock(NULL);
}

/* Runs the loop until nothing is pending that a key should wait for. */
static void
test_ui_idle(struct test_ui *t)
{
	int spins = 0;

	uv_run(&t->loop, UV_RUN_NOWAIT);
	while (ui_busy(t->ui) && spins++ < 2000)
		uv_run(&t->loop, UV_RUN_ONCE);
	CHECK(!ui_busy(t->ui));
}

/* Feeds a key script: characters stand for themselves, <Name> for a key
 * as the action table writes it (<Down>, <PgDn>, <Enter>, <Esc>...). Each
 * key waits for the loop to be idle, and a frame is drawn after it. */
static void
test_ui_keys(struct test_ui *t, const char *script)
{
	const char *p = script;

	while (*p != '\0') {
		int key;

		if (*p == '<' && p[1] != '\0' && strchr(p + 1, '>') != NULL && p[1] != '>') {
			const char *end = strchr(p + 1, '>');
			char *name = xstrndup(p + 1, (size_t)(end - p - 1));

			key = strcmp(name, "BS") == 0 ? action_key_code("Backspace")
			                              : action_key_code(name);
			if (key == 0)
				check_fail(__FILE__, __LINE__, "unknown key <%s>", name);
			free(name);
			p = end + 1;
		} else {
			key = (unsigned char)*p++;
		}
		test_ui_idle(t);
		if (ui_closed(t->ui))
			check_fail(__FILE__, __LINE__, "key %d after the dashboard closed", key);
		ui_key(t->ui, key);
		ui_draw(t->ui);
	}
	test_ui_idle(t);
	ui_draw(t->ui);
}

/* Compares text with tests/golden/ui/NAME.txt (or writes it there). */
static void
test_ui_compare(const char *name, const char *text)
{
	char *path = xasprintf("%s/tests/golden/ui/%s.txt", check_srcdir(), name);
	char *want;

	if (getenv("UI_GOLDEN_UPDATE") != NULL) {
		test_ui_write(path, text);
		free(path);
		return;
	}
	want = test_ui_read(path);
	if (want == NULL || strcmp(want, text) != 0) {
		const char *a = want != NULL ? want : "", *b = text;
		int line = 1;

		while (*a != '\0' && *a == *b) {
			line += *a == '\n';
			a++;
			b++;
		}
		check_fail(__FILE__, __LINE__,
		           "the screen differs from %s at line %d (UI_GOLDEN_UPDATE=1 rewrites "
		           "it); the screen:\n%s",
		           path, line, text);
	}
	free(want);
	free(path);
}

static void
test_ui_golden(struct test_ui *t, const char *name, int rows, int cols)
{
	char *text = ui_screen_text(t->ui, false);
	char *full = xasprintf("%s-%dx%d", name, cols, rows);

	test_ui_compare(full, text);
	free(full);
	free(text);
}

typedef void (*test_ui_check_cb)(struct test_ui *t);

static void
test_ui_scenario(const char *name, enum test_ui_kind kind, int rows, int cols, const char *keys,
                 test_ui_check_cb check)
{
	struct test_ui t;
	struct test_ui_opts o = {0, 1, NULL, NULL, NULL, false, false};

	test_ui_start(&t, kind, rows, cols, &o);
	test_ui_keys(&t, keys);
	test_ui_golden(&t, name, rows, cols);
	if (check != NULL)
		check(&t);
	test_ui_stop(&t);
}

/* One scenario at 80x24 and at 120x40, each in its own test process. */
#define TEST_UI_GOLDEN(name, kind, keys, check)                      \
	TEST(ui_golden_##name##_80x24)                               \
	{                                                            \
		test_ui_scenario(#name, kind, 24, 80, keys, check);  \
	}                                                            \
	TEST(ui_golden_##name##_120x40)                              \
	{                                                            \
		test_ui_scenario(#name, kind, 40, 120, keys, check); \
	}

static char *
test_ui_decisions(struct test_ui *t)
{
	/* The project's file, beside the quarantine file. */
	char *text = test_ui_read(DECISIONS_FILE);

	(void)t;
	return text != NULL ? text : xstrdup("");
}

static void
test_ui_check_confirm(struct test_ui *t)
{
	char *d = test_ui_decisions(t);

	CHECK_INT(t->confirms, 1);
	CHECK_INT(t->confirm_count, 25);
	CHECK_STR(t->confirm_test, "example.com/flakesweep-demo::TestLoadSensitive");
	/* Queued, not run: not confirmed yet. */
	CHECK(strstr(d, "confirmed") == NULL);
	free(d);
}

/* Typing replaces the default (10): 5, not 105. */
static void
test_ui_check_confirm_typed(struct test_ui *t)
{
	CHECK_INT(t->confirms, 1);
	CHECK_INT(t->confirm_count, 5);
}

/* A cursor key keeps the default and edits it: 1, 7, 0. */
static void
test_ui_check_confirm_edited(struct test_ui *t)
{
	CHECK_INT(t->confirms, 1);
	CHECK_INT(t->confirm_count, 170);
}

static void
test_ui_check_quarantine(struct test_ui *t)
{
	char *q = test_ui_read(t->qpath), *d = test_ui_decisions(t);

	CHECK(q != NULL);
	CHECK(strstr(q, "\"test\": \"example.com/flakesweep-demo::TestNeedsTwoCPUs\"") != NULL);
	CHECK(strstr(q, "\"channel\": \"cpu=1,load=1\"") != NULL);
	CHECK(strstr(q, "\"owner\": \"alice\"") != NULL);
	CHECK(strstr(q, "\"issue\": \"#77\"") != NULL);
	CHECK(strstr(q, "\"expires\": \"2026-12-14\"") != NULL);
	/* The entries already there are kept byte for byte. */
	CHECK(strstr(q, "\"reason\": \"hangs on a channel receive\"") != NULL);
	CHECK(strstr(d, "\"decision\":\t\"quarantined\"") != NULL);
	free(q);
	free(d);
}

static void
test_ui_check_dismiss(struct test_ui *t)
{
	char *d = test_ui_decisions(t);

	CHECK(strstr(d, "\"decision\":\t\"dismissed\"") != NULL);
	CHECK(strstr(d, "TestSometimesHangs") != NULL);
	free(d);
}

static void
test_ui_check_quarantine_undone(struct test_ui *t)
{
	char *src = xasprintf("%s/tests/fixtures/ui/quarantine.json", check_srcdir());
	char *want = test_ui_read(src), *q = test_ui_read(t->qpath), *d = test_ui_decisions(t);

	/* The quarantine file is back byte for byte; no decision is left. */
	CHECK_STR(q, want);
	CHECK(strstr(d, "TestNeedsTwoCPUs") == NULL);
	free(src);
	free(want);
	free(q);
	free(d);
}

static void
test_ui_check_dismiss_undone(struct test_ui *t)
{
	char *d = test_ui_decisions(t);

	CHECK(strstr(d, "dismissed") == NULL);
	CHECK(strstr(d, "TestSometimesHangs") == NULL);
	free(d);
}

static void
test_ui_check_paused(struct test_ui *t)
{
	CHECK(t->paused);
}

static void
test_ui_check_resumed(struct test_ui *t)
{
	CHECK(!t->paused);
}

static void
test_ui_check_closed(struct test_ui *t)
{
	CHECK(ui_closed(t->ui));
}

static void
test_ui_check_interrupted(struct test_ui *t)
{
	CHECK(t->interrupted);
	CHECK(ui_closed(t->ui));
}

static void
test_ui_check_still_running(struct test_ui *t)
{
	CHECK(!t->interrupted);
	CHECK(!ui_closed(t->ui));
}

static void
test_ui_check_no_confirm(struct test_ui *t)
{
	CHECK_INT(t->confirms, 0);
}

/* Each pane, each key. */
TEST_UI_GOLDEN(view, TEST_UI_VIEW, "", NULL)
TEST_UI_GOLDEN(live, TEST_UI_LIVE, "", NULL)
TEST_UI_GOLDEN(down, TEST_UI_VIEW, "jj", NULL)
TEST_UI_GOLDEN(arrows, TEST_UI_VIEW, "<Down><Down><Down><Up>", NULL)
TEST_UI_GOLDEN(up, TEST_UI_VIEW, "jjjk", NULL)
TEST_UI_GOLDEN(bottom, TEST_UI_VIEW, "G", NULL)
TEST_UI_GOLDEN(top, TEST_UI_VIEW, "G<Up>g", NULL)
TEST_UI_GOLDEN(end_home, TEST_UI_VIEW, "<End><Home><Down>", NULL)
TEST_UI_GOLDEN(page_list, TEST_UI_VIEW, "<PgDn>", NULL)
TEST_UI_GOLDEN(page_list_up, TEST_UI_VIEW, "<PgDn><PgUp>", NULL)
TEST_UI_GOLDEN(details, TEST_UI_VIEW, "jj<Enter>", NULL)
TEST_UI_GOLDEN(details_scroll, TEST_UI_VIEW, "jj<Enter>jjj", NULL)
TEST_UI_GOLDEN(details_page, TEST_UI_VIEW, "jjj<Enter><PgDn>", NULL)
TEST_UI_GOLDEN(details_space_bottom, TEST_UI_VIEW, "jjj<Enter><Space>G", NULL)
TEST_UI_GOLDEN(details_back, TEST_UI_VIEW, "jj<Enter>j<Esc>", NULL)
TEST_UI_GOLDEN(details_backspace, TEST_UI_VIEW, "<Enter><Backspace>j", NULL)
TEST_UI_GOLDEN(tab_lanes, TEST_UI_LIVE, "<Tab><Tab><Tab>", NULL)
TEST_UI_GOLDEN(tab_detail, TEST_UI_VIEW, "<Tab>", NULL)
TEST_UI_GOLDEN(tab_quarantine, TEST_UI_VIEW, "<Tab><Tab>j", NULL)
TEST_UI_GOLDEN(shift_tab, TEST_UI_VIEW, "<Shift-Tab>", NULL)
TEST_UI_GOLDEN(filter_prompt, TEST_UI_VIEW, "/Hang", NULL)
TEST_UI_GOLDEN(filter, TEST_UI_VIEW, "/hang<Enter>", NULL)
TEST_UI_GOLDEN(filter_none, TEST_UI_VIEW, "/nothing<Enter>", NULL)
TEST_UI_GOLDEN(filter_clear, TEST_UI_VIEW, "/hang<Enter>/<Ctrl-L><BS><BS><BS><BS><Enter>", NULL)
TEST_UI_GOLDEN(confirm_prompt, TEST_UI_LIVE, "c", NULL)
TEST_UI_GOLDEN(confirm, TEST_UI_LIVE, "c<BS><BS>25<Enter>", test_ui_check_confirm)
TEST_UI_GOLDEN(slide, TEST_UI_VIEW, ">>>>", NULL)
TEST_UI_GOLDEN(slide_back, TEST_UI_VIEW, ">>>><<", NULL)
TEST_UI_GOLDEN(confirm_typed, TEST_UI_LIVE, "c5<Enter>", test_ui_check_confirm_typed)
TEST_UI_GOLDEN(confirm_edited, TEST_UI_LIVE, "c<Left>7<Enter>", test_ui_check_confirm_edited)
TEST_UI_GOLDEN(confirm_cancel, TEST_UI_LIVE, "c<Esc>", test_ui_check_no_confirm)
TEST_UI_GOLDEN(confirm_bad, TEST_UI_LIVE, "c<BS><BS>x<Enter>", test_ui_check_no_confirm)
TEST_UI_GOLDEN(confirm_view, TEST_UI_VIEW, "c", NULL)
TEST_UI_GOLDEN(quarantine_prompt, TEST_UI_VIEW, "jjjQ", NULL)
TEST_UI_GOLDEN(quarantine, TEST_UI_VIEW, "jjjQ<Enter>alice<Enter>#77<Enter><Enter>",
               test_ui_check_quarantine)
TEST_UI_GOLDEN(quarantine_undo, TEST_UI_VIEW, "jjjQ<Enter>alice<Enter>#77<Enter><Enter>u",
               test_ui_check_quarantine_undone)
TEST_UI_GOLDEN(quarantine_empty_owner, TEST_UI_VIEW, "jjjQ<Enter><Enter>", NULL)
TEST_UI_GOLDEN(quarantine_cancel, TEST_UI_VIEW, "jjjQ<Enter>alice<Esc>", NULL)
TEST_UI_GOLDEN(quarantine_bad_channel, TEST_UI_VIEW, "jjjQ<BS><BS><BS><BS><BS>loud=3<Enter>", NULL)
TEST_UI_GOLDEN(quarantine_duplicate, TEST_UI_VIEW, "jQ<Enter>", NULL)
/* A date that is no date is asked again, saying so; the owner answered
 * before is offered on the next Q. */
TEST_UI_GOLDEN(quarantine_bad_date, TEST_UI_VIEW,
               "jjjQ<Enter>alice<Enter>#77<Enter>2026-13-01<Enter>", NULL)
TEST_UI_GOLDEN(quarantine_owner_again, TEST_UI_VIEW,
               "jjjQ<Enter>alice<Enter>#77<Enter><Enter>gjjQ<Enter>", NULL)
TEST_UI_GOLDEN(dismiss_prompt, TEST_UI_VIEW, "jd", NULL)
TEST_UI_GOLDEN(dismiss, TEST_UI_VIEW, "jd<Enter>known: waits on a real network<Enter>",
               test_ui_check_dismiss)
TEST_UI_GOLDEN(dismiss_undo, TEST_UI_VIEW, "jd<Enter>known: waits on a real network<Enter>u",
               test_ui_check_dismiss_undone)
TEST_UI_GOLDEN(pause, TEST_UI_LIVE, "P", test_ui_check_paused)
TEST_UI_GOLDEN(resume, TEST_UI_LIVE, "PP", test_ui_check_resumed)
TEST_UI_GOLDEN(pause_view, TEST_UI_VIEW, "P", NULL)
TEST_UI_GOLDEN(help, TEST_UI_VIEW, "?", NULL)
TEST_UI_GOLDEN(help_page, TEST_UI_VIEW, "<F1><PgDn>", NULL)
TEST_UI_GOLDEN(help_closed, TEST_UI_VIEW, "?j?j", NULL)
TEST_UI_GOLDEN(redraw, TEST_UI_VIEW, "j<Ctrl-L>", NULL)
TEST_UI_GOLDEN(unbound, TEST_UI_VIEW, "x", NULL)
TEST_UI_GOLDEN(quit_prompt, TEST_UI_LIVE, "q", test_ui_check_still_running)
TEST_UI_GOLDEN(quit_no, TEST_UI_LIVE, "qn", test_ui_check_still_running)
TEST_UI_GOLDEN(post_failing, TEST_UI_VIEW, "jjp", NULL)

TEST(ui_quit_yes)
{
	struct test_ui t;
	struct test_ui_opts o = {0, 1, NULL, NULL, NULL, false, false};

	test_ui_start(&t, TEST_UI_LIVE, 24, 80, &o);
	test_ui_keys(&t, "qy");
	test_ui_check_interrupted(&t);
	test_ui_stop(&t);
}

TEST(ui_quit_view)
{
	struct test_ui t;
	struct test_ui_opts o = {0, 1, NULL, NULL, NULL, false, false};

	test_ui_start(&t, TEST_UI_VIEW, 24, 80, &o);
	test_ui_keys(&t, "q");
	test_ui_check_closed(&t);
	test_ui_stop(&t);
}

/* Resizing redraws for the new size, and back. */
TEST(ui_golden_resize)
{
	struct test_ui t;
	struct test_ui_opts o = {0, 1, NULL, NULL, NULL, false, false};

	test_ui_start(&t, TEST_UI_LIVE, 40, 120, &o);
	test_ui_keys(&t, "j");
	ui_resize(t.ui, 24, 80);
	ui_draw(t.ui);
	test_ui_golden(&t, "resize-down", 24, 80);
	ui_resize(t.ui, 40, 120);
	ui_draw(t.ui);
	test_ui_golden(&t, "resize-up", 40, 120);
	ui_resize(t.ui, 10, 50);
	ui_draw(t.ui);
	test_ui_golden(&t, "resize-small", 10, 50);
	test_ui_stop(&t);
}

/* A terminal too small for the layout shows what fits and says so. */
TEST(ui_golden_too_small)
{
	struct test_ui t;
	struct test_ui_opts o = {0, 1, NULL, NULL, NULL, false, false};

	test_ui_start(&t, TEST_UI_VIEW, 12, 50, &o);
	test_ui_keys(&t, "j");
	test_ui_golden(&t, "too-small", 12, 50);
	ui_resize(t.ui, 3, 20);
	ui_draw(t.ui);
	test_ui_golden(&t, "tiny", 3, 20);
	test_ui_stop(&t);
}

/* Without UTF-8: ASCII glyphs. */
TEST(ui_golden_ascii)
{
	struct test_ui t;
	struct test_ui_opts o = {0, 0, NULL, NULL, NULL, false, false};

	test_ui_start(&t, TEST_UI_LIVE, 24, 80, &o);
	test_ui_keys(&t, "jj");
	test_ui_golden(&t, "ascii", 24, 80);
	test_ui_stop(&t);
}

/* The colours: each cell's role in 256, 8 and no colours. */
static void
test_ui_roles(int colors, const char *name)
{
	struct test_ui t;
	struct test_ui_opts o = {colors, 1, NULL, NULL, NULL, false, false};
	char *text;

	test_ui_start(&t, TEST_UI_LIVE, 24, 80, &o);
	test_ui_keys(&t, "jj");
	text = ui_screen_text(t.ui, true);
	test_ui_compare(name, text);
	free(text);
	test_ui_stop(&t);
}

TEST(ui_golden_colors_256)
{
	test_ui_roles(2, "roles-256");
}

TEST(ui_golden_colors_8)
{
	test_ui_roles(1, "roles-8");
}

TEST(ui_golden_colors_none)
{
	test_ui_roles(0, "roles-none");
}

/* NO_COLOR turns colours off whatever the terminal has. */
static bool
test_ui_has_colors(bool no_color)
{
	struct test_ui t;
	struct test_ui_opts o = {-1, 1, NULL, NULL, NULL, no_color, false};
	char *text, *p;
	bool colors = false;
	int line = 0;

	test_ui_start(&t, TEST_UI_VIEW, 24, 80, &o);
	text = ui_screen_text(t.ui, true);
	/* Rows of text and rows of roles alternate; uppercase roles are
	 * colours. */
	for (p = text; *p != '\0'; p++) {
		if (*p == '\n')
			line++;
		else if (line % 2 == 1 && *p >= 'A' && *p <= 'Z')
			colors = true;
	}
	free(text);
	test_ui_stop(&t);
	return colors;
}

TEST(ui_no_color)
{
	CHECK(test_ui_has_colors(false));
	CHECK(!test_ui_has_colors(true));
}

/* A test whose name and output carry escape sequences (a window title, a
 * clear screen, cursor moves, colours, a DCS string, 8-bit CSI, a carriage
 * return) changes nothing on screen: the golden screen shows the text
 * without them, and no byte of them reaches the terminal. */
static const char test_ui_hostile[] =
    "{\"type\":\"header\",\"schema\":\"flakesweep/journal/v1\",\"started\":\"2026-11-30T02:00:00Z\","
    "\"config\":{\"cpu\":[1],\"load\":[1],\"count\":2,\"confirm\":0,\"timeout_ms\":1000,"
    "\"run\":null,\"driver\":\"tap\",\"command\":[\"./evil.sh\"]},"
    "\"machine\":{\"cores\":1,\"keep\":0,\"lanes\":[[0]]},"
    "\"project\":{\"driver\":\"tap\",\"root\":\"/nonexistent\",\"commit\":null}}\n"
    "{\"type\":\"build\",\"pkg\":0,\"package\":\"./evil.sh\",\"level\":\"unit\","
    "\"dir\":\"/nonexistent\",\"ok\":true,\"tests\":[]}\n"
    "{\"type\":\"set\",\"id\":1,\"pkg\":0,\"order\":[\"Pok\"]}\n"
    "{\"type\":\"run\",\"run\":1,\"pkg\":0,\"phase\":\"sweep\",\"cpu\":1,\"load\":1,\"lane\":0,"
    "\"ms\":5,\"exit\":1,\"set\":1,\"fail\":[\"TestEvil/\\u001b]0;pwned\\u0007a\\u001b[2Jb\"],"
    "\"lines\":{\"TestEvil/\\u001b]0;pwned\\u0007a\\u001b[2Jb\":"
    "\"\\u001b]0;pwned-title\\u0007\\u001b[2J\\u001b[H\\u001b[5;5HXXXX \\u001b[31mred\\u001b[0m"
    " done\\nspinner 10%\\rspinner 100%\\n\\u001bP+q544e\\u001b\\\\after dcs\\n"
    "\\u009b2Jc1 csi\\u0007\\u0008 end\\n\"}}\n"
    "{\"type\":\"set\",\"id\":2,\"pkg\":0,\"order\":[\"Pok\",\"PTestEvil/\\u001b]0;pwned\\u0007a"
    "\\u001b[2Jb\"]}\n"
    "{\"type\":\"run\",\"run\":2,\"pkg\":0,\"phase\":\"sweep\",\"cpu\":1,\"load\":1,\"lane\":0,"
    "\"ms\":5,\"exit\":0,\"set\":2}\n"
    "{\"type\":\"end\",\"status\":\"complete\",\"finished\":\"2026-11-30T02:00:10Z\"}\n";

/* A journal whose red canary passed: the header line leads with that. */
static const char test_ui_unclean[] =
    "{\"type\":\"header\",\"schema\":\"flakesweep/journal/v1\",\"started\":\"2026-11-30T02:00:00Z\","
    "\"config\":{\"cpu\":[1],\"load\":[1],\"count\":1,\"confirm\":0,\"timeout_ms\":1000,"
    "\"run\":null,\"driver\":\"tap\",\"command\":[\"./t.sh\"]},"
    "\"machine\":{\"cores\":1,\"keep\":0,\"lanes\":[[0]]},"
    "\"project\":{\"driver\":\"tap\",\"root\":\"/nonexistent\",\"commit\":null}}\n"
    "{\"type\":\"build\",\"pkg\":0,\"package\":\"./t.sh\",\"level\":\"unit\","
    "\"dir\":\"/nonexistent\",\"ok\":true,\"tests\":[]}\n"
    "{\"type\":\"set\",\"id\":1,\"pkg\":0,\"order\":[\"Pok\"]}\n"
    "{\"type\":\"run\",\"run\":1,\"pkg\":0,\"phase\":\"sweep\",\"cpu\":1,\"load\":1,\"lane\":0,"
    "\"ms\":5,\"exit\":0,\"set\":1}\n"
    "{\"type\":\"canary\",\"canary\":1,\"kind\":\"red\",\"cpu\":1,\"load\":1,\"lane\":0,"
    "\"ms\":4,\"exit\":0,\"unexpected\":true,\"why\":\"passed; it must fail every run\"}\n"
    "{\"type\":\"end\",\"status\":\"complete\",\"finished\":\"2026-11-30T02:00:10Z\"}\n";

TEST(ui_header_harness_not_clean)
{
	struct test_ui t;
	struct test_ui_opts o = {0, 1, test_ui_unclean, NULL, NULL, false, false};
	char *screen;

	test_ui_start(&t, TEST_UI_VIEW, 24, 80, &o);
	screen = ui_screen_text(t.ui, false);
	CHECK(strncmp(screen,
	              "HARNESS NOT CLEAN (1 unexpected canary runs): red canary at cpu 1 load 1 "
	              "(canary",
	              80) == 0);
	free(screen);
	test_ui_stop(&t);
}

TEST(ui_golden_escapes)
{
	struct test_ui t;
	struct test_ui_opts o = {2, 1, test_ui_hostile, NULL, NULL, false, false};
	char *screen, *bytes, *path = xasprintf("%s/terminal.out", check_tmpdir());

	test_ui_start(&t, TEST_UI_VIEW, 24, 80, &o);
	test_ui_keys(&t, "<Enter>");
	test_ui_golden(&t, "escapes", 24, 80);
	screen = ui_screen_text(t.ui, false);
	CHECK(strstr(screen, "pwned") == NULL);
	CHECK(strstr(screen, "TestEvil/ab") != NULL);
	CHECK(strstr(screen, "XXXX red done") != NULL);
	CHECK(strstr(screen, "spinner 100%") != NULL);
	CHECK(strstr(screen, "spinner 10%") == NULL);
	CHECK(strstr(screen, "after dcs") != NULL);
	free(screen);
	test_ui_stop(&t);
	bytes = test_ui_read(path);
	free(path);
	CHECK(bytes != NULL);
	/* What curses sent: none of the test's sequences. */
	CHECK(strstr(bytes, "pwned") == NULL);
	CHECK(strstr(bytes, "\033]") == NULL);
	CHECK(strstr(bytes, "\033P") == NULL);
	CHECK(strstr(bytes, "\x9b") == NULL);
	CHECK(strstr(bytes, "+q544e") == NULL);
	free(bytes);
}

/* The action table, the help screen and the man page agree. */
TEST(ui_keys_table)
{
	const struct action *a;
	size_t n, i;

	a = action_table(&n);
	CHECK(n > 10);
	for (i = 0; i < n; i++) {
		const char *p = a[i].names;
		int k;

		/* Every key written in the table is bound to its action... */
		while (*p != '\0') {
			size_t len = strcspn(p, ",");
			char *name = xstrndup(p, len);
			int code = action_key_code(name);

			if (code == 0 || action_for_key(code) != &a[i])
				check_fail(__FILE__, __LINE__,
				           "key \"%s\" of \"%s\" is not bound to it", name,
				           a[i].names);
			free(name);
			p += len;
			while (*p == ',' || *p == ' ')
				p++;
		}
		/* ... and every bound key is bound once. */
		for (k = 0; k < ACTION_MAX_KEYS && a[i].keys[k] != 0; k++)
			CHECK(action_for_key(a[i].keys[k]) == &a[i]);
		CHECK(a[i].help != NULL && a[i].help[0] != '.');
	}
}

/* The keys of the KEY BINDINGS list: one ".It Cm KEY" line per entry,
 * its other names after " , Cm " (as "j, Down" reads), "\\&" dropped. An
 * ".It" without a text of its own renders as an empty item, so a line in
 * a row of them is an entry by itself, never joined to the next. */
static void
test_ui_man_keys(char *section, char ***entries, size_t *n)
{
	struct buf b;
	char *line, *save = NULL;

	*entries = NULL;
	*n = 0;
	buf_init(&b);
	for (line = strtok_r(section, "\n", &save); line != NULL;
	     line = strtok_r(NULL, "\n", &save)) {
		const char *k = line + 7;

		if (strncmp(line, ".It Cm ", 7) != 0)
			continue;
		buf_reset(&b);
		buf_add(&b, "", 0);
		while (*k != '\0') {
			size_t len = strstr(k, " , Cm ") != NULL ? (size_t)(strstr(k, " , Cm ") - k)
			                                         : strlen(k);

			if (strncmp(k, "\\&", 2) == 0) {
				k += 2;
				len -= 2;
			}
			buf_printf(&b, "%s%.*s", b.len > 0 ? ", " : "", (int)len, k);
			k += len;
			if (*k != '\0')
				k += 6;
		}
		util_strv_add(entries, n, b.data);
	}
	buf_free(&b);
}

TEST(ui_keys_man_page)
{
	char *path = xasprintf("%s/man/flakesweep.1", check_srcdir());
	char *man = test_ui_read(path), *sec, *end, *want = action_mdoc(), **entries;
	const struct action *a;
	size_t n, nentries, i;

	CHECK(man != NULL);
	sec = strstr(man, "\n.Sh KEY BINDINGS\n");
	if (sec == NULL)
		check_fail(__FILE__, __LINE__, "%s has no KEY BINDINGS section", path);
	end = strstr(sec + 1, "\n.Sh ");
	if (end != NULL)
		end[1] = '\0';
	test_ui_man_keys(sec, &entries, &nentries);
	a = action_table(&n);
	for (i = 0; i < n || i < nentries; i++) {
		if (i >= n || i >= nentries || strcmp(entries[i], a[i].names) != 0)
			check_fail(
			    __FILE__, __LINE__,
			    "KEY BINDINGS of %s, entry %zu: \"%s\", the action table (ui/action.c): "
			    "\"%s\"; a list that agrees:\n%s",
			    path, i + 1, i < nentries ? entries[i] : "(none)",
			    i < n ? a[i].names : "(none)", want);
	}
	util_strv_free(entries);
	free(want);
	free(man);
	free(path);
}

TEST(ui_keys_help_screen)
{
	struct test_ui t;
	struct test_ui_opts o = {0, 1, NULL, NULL, NULL, false, false};
	const struct action *a;
	size_t n, i;
	char *screen, *all;
	struct buf b;

	/* A screen tall enough for the whole help. */
	test_ui_start(&t, TEST_UI_VIEW, 80, 200, &o);
	test_ui_keys(&t, "?");
	screen = ui_screen_text(t.ui, false);
	buf_init(&b);
	buf_adds(&b, screen);
	all = b.data;
	for (a = action_table(&n), i = 0; i < n; i++) {
		char *line = xasprintf("  %-16s%s", a[i].names, a[i].help);

		if (strstr(all, line) == NULL)
			check_fail(__FILE__, __LINE__, "the help screen lacks \"%s\":\n%s", line,
			           all);
		free(line);
	}
	buf_free(&b);
	free(screen);
	test_ui_stop(&t);
}

/* p: the description in $EDITOR, the preview, then no: nothing sent. */
static void
test_ui_editor(const char *text)
{
	char *path = xasprintf("%s/editor.sh", check_tmpdir());
	char *script = xasprintf("#!/bin/sh\nprintf '%%s\\n' '%s' >>\"$1\"\n", text);

	test_ui_write(path, script);
	chmod(path, 0755);
	setenv("EDITOR", path, 1);
	free(script);
	free(path);
}

static bool
test_ui_exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

TEST(ui_post_preview)
{
	struct test_ui t;
	struct test_ui_opts o = {0, 1, NULL, "demo/widgets", NULL, false, false};
	char *screen;

	test_ui_editor("It misses its deadline when another run shares the core.");
	setenv("GH_TOKEN", "ghp_notUsedHere0123456789", 1);
	test_ui_start(&t, TEST_UI_VIEW, 40, 120, &o);
	test_ui_keys(&t, "p");
	screen = ui_screen_text(t.ui, false);
	if (strstr(screen, "Post to demo/widgets") == NULL ||
	    strstr(screen, "example.com/flakesweep-demo: TestLoadSensitive fails intermittently") ==
	        NULL ||
	    strstr(screen, "It misses its deadline when another run shares the core.") == NULL)
		check_fail(__FILE__, __LINE__, "no preview:\n%s", screen);
	free(screen);
	test_ui_keys(&t, "jn");
	screen = ui_screen_text(t.ui, false);
	CHECK(strstr(screen, "post cancelled: nothing was sent") != NULL);
	CHECK(strstr(screen, "Post to") == NULL);
	free(screen);
	test_ui_stop(&t);
}

/* d when the project's decisions.json is cut short: the message names the
 * file, the line and column and what was expected there; the file is left
 * as it was. */
TEST(ui_dismiss_broken_decisions)
{
	struct test_ui t;
	struct test_ui_opts o = {0, 1, NULL, NULL, NULL, false, false};
	const char *broken = "{\"tests\": {}, BROKEN";
	const char *want =
	    "decisions.json:1:15: invalid JSON (expected a member name in double quotes)";
	char *screen, *after;

	test_ui_start(&t, TEST_UI_VIEW, 40, 120, &o);
	test_ui_write(DECISIONS_FILE, broken);
	test_ui_keys(&t, "jd<Enter>known: waits on a real network<Enter>");
	screen = ui_screen_text(t.ui, false);
	if (strstr(screen, want) == NULL)
		check_fail(__FILE__, __LINE__, "no line and column:\n%s", screen);
	free(screen);
	after = test_ui_read(DECISIONS_FILE);
	CHECK_STR(after, broken);
	free(after);
	test_ui_stop(&t);
}

/* d when the project's decisions.json is a symbolic link to a shared file:
 * the decision reaches the shared file and the link stays a link. */
TEST(ui_dismiss_through_a_link)
{
	struct test_ui t;
	struct test_ui_opts o = {0, 1, NULL, NULL, NULL, false, false};
	struct stat st;
	char *shared;

	test_ui_start(&t, TEST_UI_VIEW, 24, 80, &o);
	CHECK_INT(util_mkdir_p("shared"), 0);
	CHECK_INT(symlink("shared/decisions.json", DECISIONS_FILE), 0);
	test_ui_keys(&t, "jd<Enter>known: waits on a real network<Enter>");
	CHECK_INT(lstat(DECISIONS_FILE, &st), 0);
	CHECK(S_ISLNK(st.st_mode));
	shared = test_ui_read("shared/decisions.json");
	CHECK(shared != NULL && strstr(shared, "\"decision\":\t\"dismissed\"") != NULL);
	free(shared);
	test_ui_stop(&t);
}

/* p without a token: refused before the editor opens, saying why. */
TEST(ui_post_no_token)
{
	struct test_ui t;
	struct test_ui_opts o = {0,     1,    NULL, "demo/widgets", "http://127.0.0.1:9/graphql",
	                         false, false};
	char *screen;

	unsetenv("GH_TOKEN");
	unsetenv("GITHUB_TOKEN");
	unsetenv("GH_HOST");
	test_ui_editor("It misses its deadline.");
	test_ui_start(&t, TEST_UI_VIEW, 24, 80, &o);
	test_ui_keys(&t, "p");
	screen = ui_screen_text(t.ui, false);
	if (strstr(screen, "not posted: no GitHub token: set GH_TOKEN or GITHUB_TOKEN") == NULL)
		check_fail(__FILE__, __LINE__, "no refusal:\n%s", screen);
	free(screen);
	/* The editor never ran: no description file. */
	CHECK(!test_ui_exists("out/posts"));
	test_ui_stop(&t);
}

/* p with an empty description posts nothing. */
TEST(ui_post_empty)
{
	struct test_ui t;
	struct test_ui_opts o = {0, 1, NULL, "demo/widgets", NULL, false, false};
	char *screen;

	test_ui_editor("# only a comment");
	setenv("GH_TOKEN", "ghp_notUsedHere0123456789", 1);
	test_ui_start(&t, TEST_UI_VIEW, 24, 80, &o);
	test_ui_keys(&t, "jp");
	screen = ui_screen_text(t.ui, false);
	CHECK(strstr(screen, "the description is empty: nothing is posted") != NULL);
	free(screen);
	test_ui_stop(&t);
}

/* A board on a virtual terminal of rows x cols, as test_ui_start() sets
 * one up. */
static struct board *
test_ui_board(int rows, int cols, FILE **out, FILE **in, const struct compare *cmp,
              const struct results *before, const struct results *after)
{
	struct board_config bc;
	struct board *b;
	char *err = NULL, num[16];

	if (setlocale(LC_ALL, "C.UTF-8") == NULL)
		check_skip("the C.UTF-8 locale is not installed");
	CHECK_INT(chdir(check_tmpdir()), 0);
	snprintf(num, sizeof num, "%d", rows);
	setenv("LINES", num, 1);
	snprintf(num, sizeof num, "%d", cols);
	setenv("COLUMNS", num, 1);
	*out = fopen("terminal.out", "w");
	*in = fopen("/dev/null", "r");
	CHECK(*out != NULL && *in != NULL);
	board_config_init(&bc);
	bc.out = *out;
	bc.in = *in;
	bc.term = "xterm-256color";
	bc.handlers = false;
	bc.colors = 0;
	bc.utf8 = 1;
	b = cmp != NULL
	        ? board_new_compare(&bc, cmp, before, after, "before.json", "after.json", &err)
	        : board_new_bisect(&bc, "sh t.sh::TestRace", &err);
	if (b == NULL)
		check_skip(err != NULL ? err : "no terminal description for xterm-256color");
	return b;
}

static void
test_ui_board_golden(struct board *b, const char *name, int rows, int cols)
{
	char *text = board_screen_text(b, false);
	char *full = xasprintf("%s-%dx%d", name, cols, rows);

	test_ui_compare(full, text);
	free(full);
	free(text);
}

static struct results *
test_ui_load(const char *name)
{
	char *path = xasprintf("%s/tests/fixtures/ui/compare/%s", check_srcdir(), name);
	struct results *r = NULL;
	char *err = NULL;

	if (results_load(path, &r, NULL, &err) < 0)
		check_fail(__FILE__, __LINE__, "%s: %s", path, err);
	free(path);
	return r;
}

/* compare's board from two tiny results: the list of verdicts, the
 * second test (p::TestRace, rarer) selected with j, its heatmaps before
 * and after side by side. */
static void
test_ui_compare_board(int rows, int cols)
{
	struct results *before = test_ui_load("before.json"), *after = test_ui_load("after.json");
	struct compare_options co;
	struct compare *cmp;
	struct board *b;
	FILE *out, *in;

	compare_options_default(&co);
	cmp = compare_new(before, after, &co);
	b = test_ui_board(rows, cols, &out, &in, cmp, before, after);
	board_key(b, 'j');
	test_ui_board_golden(b, "compare", rows, cols);
	board_key(b, 'q');
	CHECK(board_quit(b));
	board_free(b);
	compare_free(cmp);
	results_free(before);
	results_free(after);
	fclose(out);
	fclose(in);
}

TEST(ui_golden_compare_80x24)
{
	test_ui_compare_board(24, 80);
}

TEST(ui_golden_compare_120x40)
{
	test_ui_compare_board(40, 120);
}

/* Judges commit i of b as the bisect does, narrowing the range. */
static void
test_ui_judge(struct bisect *b, size_t i, enum bisect_state s, int64_t runs, int64_t failures)
{
	b->commits[i].state = s;
	b->commits[i].runs = runs;
	b->commits[i].failures = failures;
	if (s == BISECT_FLAKY)
		b->hi = i;
	else if (s == BISECT_CLEAN)
		b->lo = i;
}

/* bisect's board fed a synthetic bisect of ten commits whose flake came
 * with commit 7: commit 5 skipped, commit 4 clean (46 runs), commit 8
 * flaky (2 of 14), commit 6 clean, then commit 7 being probed; then commit 7 flaky (1 of
 * 7) and the end: commit 7 is the first bad one. */
static void
test_ui_bisect_board(int rows, int cols)
{
	struct bisect b = {0};
	const struct bisect_observer *obs;
	struct board *board;
	FILE *out, *in;
	size_t i;

	b.ncommits = 10;
	b.commits = xcalloc(b.ncommits, sizeof *b.commits);
	for (i = 0; i < b.ncommits; i++) {
		b.commits[i].sha = xasprintf("%02zu%038zu", i + 1, (size_t)0);
		b.commits[i].subject = xasprintf("commit %zu", i + 1);
	}
	b.hi = b.ncommits - 1;
	b.commits[0].state = BISECT_CLEAN;
	b.commits[b.hi].state = BISECT_FLAKY;
	board = test_ui_board(rows, cols, &out, &in, NULL, NULL, NULL);
	obs = board_bisect_observer(board);
	obs->listed(obs->arg, &b);
	obs->probing(obs->arg, &b, 4);
	test_ui_judge(&b, 4, BISECT_SKIPPED, 0, 0);
	obs->probed(obs->arg, &b, 4);
	obs->probing(obs->arg, &b, 3);
	test_ui_judge(&b, 3, BISECT_CLEAN, 46, 0);
	obs->probed(obs->arg, &b, 3);
	obs->probing(obs->arg, &b, 7);
	test_ui_judge(&b, 7, BISECT_FLAKY, 14, 2);
	obs->probed(obs->arg, &b, 7);
	obs->probing(obs->arg, &b, 5);
	test_ui_judge(&b, 5, BISECT_CLEAN, 46, 0);
	obs->probed(obs->arg, &b, 5);
	obs->probing(obs->arg, &b, 6);
	test_ui_board_golden(board, "bisect", rows, cols);
	test_ui_judge(&b, 6, BISECT_FLAKY, 7, 1);
	obs->probed(obs->arg, &b, 6);
	board_bisect_finished(board);
	test_ui_board_golden(board, "bisect_done", rows, cols);
	board_free(board);
	bisect_free(&b);
	fclose(out);
	fclose(in);
}

TEST(ui_golden_bisect_80x24)
{
	test_ui_bisect_board(24, 80);
}

TEST(ui_golden_bisect_120x40)
{
	test_ui_bisect_board(40, 120);
}

/* The model on its own: short names, the worst pair as a channel. */
TEST(ui_model_names)
{
	char *s;

	s = status_short_pkg("example.com/m/grpc/grpchealth");
	CHECK_STR(s, "grpc/grpchealth");
	free(s);
	s = status_short_pkg("example.com/flakesweep-demo");
	CHECK_STR(s, "flakesweep-demo");
	free(s);
	s = status_short_pkg("./evil.sh");
	CHECK_STR(s, "evil.sh");
	free(s);
	s = model_worst_channel(NULL);
	CHECK_STR(s, "any");
	free(s);
}

/* The channel offered for a quarantine: any when it failed at every cpu
 * and load, load=L when at every cpu only at load L, else the worst pair. */
static char *
test_ui_channel(const int (*fails)[2], int n)
{
	struct results_cell cells[4];
	struct results_test t;
	int i;

	memset(&t, 0, sizeof t);
	memset(cells, 0, sizeof cells);
	for (i = 0; i < n; i++) {
		cells[i].cpu = 1 + i / 2;
		cells[i].load = 1 + i % 2;
		cells[i].runs = 100;
		cells[i].failures = fails[i][0];
		cells[i].hangs = fails[i][1];
	}
	t.cells = cells;
	t.ncells = n;
	return model_worst_channel(&t);
}

TEST(ui_model_default_channel)
{
	/* (cpu 1, load 1), (1, 2), (2, 1), (2, 2) */
	static const int everywhere[4][2] = {{3, 0}, {1, 0}, {0, 2}, {5, 0}};
	static const int load2[4][2] = {{0, 0}, {4, 0}, {0, 0}, {2, 1}};
	static const int one_cpu[4][2] = {{3, 0}, {7, 0}, {0, 0}, {0, 0}};
	static const int none[4][2] = {{0, 0}, {0, 0}, {0, 0}, {0, 0}};
	char *s;

	s = test_ui_channel(everywhere, 4);
	CHECK_STR(s, "any");
	free(s);
	s = test_ui_channel(load2, 4);
	CHECK_STR(s, "load=2");
	free(s);
	s = test_ui_channel(one_cpu, 4);
	CHECK_STR(s, "cpu=1,load=2");
	free(s);
	s = test_ui_channel(none, 4);
	CHECK_STR(s, "any");
	free(s);
}

/* A fatal error and a crash give the terminal back: curses' exit sequence
 * (rmcup leaves the alternate screen) is the last thing written. */
static void
test_ui_die(bool crash)
{
	struct test_ui t;
	struct test_ui_opts o = {0, 1, NULL, NULL, NULL, false, true};
	char *bytes, *enter, *leave;
	int status = 0;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		test_ui_start(&t, TEST_UI_VIEW, 24, 80, &o);
		test_ui_keys(&t, "j");
		fflush(t.out);
		if (crash)
			raise(SIGSEGV);
		fatal("a broken invariant");
	}
	CHECK_INT(waitpid(pid, &status, 0), pid);
	if (crash)
		CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV);
	else
		CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 2);
	bytes = test_ui_read("terminal.out");
	CHECK(bytes != NULL);
	enter = strstr(bytes, "\033[?1049h");
	leave = strstr(bytes, "\033[?1049l");
	CHECK(enter != NULL);
	CHECK(leave != NULL && leave > enter);
	free(bytes);
}

TEST(ui_fatal_restores)
{
	CHECK_INT(chdir(check_tmpdir()), 0);
	test_ui_die(false);
}

TEST(ui_crash_restores)
{
	CHECK_INT(chdir(check_tmpdir()), 0);
	test_ui_die(true);
}

/* The lane overview of a 64-core machine: every lane in sight at each
 * size, runs near and past --timeout marked. */
static void
test_ui_machine_golden(int machine, const char *name, int rows, int cols, const char *keys)
{
	test_ui_machine = machine;
	test_ui_scenario(name, TEST_UI_LIVE, rows, cols, keys, NULL);
	test_ui_machine = 0;
}

TEST(ui_golden_lanes64x7)
{
	test_ui_machine_golden(7, "lanes64x7", 24, 80, "");
	test_ui_machine_golden(7, "lanes64x7", 40, 120, "");
	test_ui_machine_golden(7, "lanes64x7", 50, 200, "");
}

TEST(ui_golden_lanes64x15)
{
	test_ui_machine_golden(15, "lanes64x15", 24, 80, "");
	test_ui_machine_golden(15, "lanes64x15", 40, 120, "");
	test_ui_machine_golden(15, "lanes64x15", 50, 200, "");
}

/* The simulated sweep `plan --cores 256 --cpu 1,2,4,8 --load 1,2 --count
 * 4 --canaries 0 -o` wrote of the dozen packages with every time of
 * tests/fixtures/plan/dozen.json times 1000 (runs of 12 to 360 s), its
 * start moved to 2026-12-04T23:57:46Z (tests/fixtures/plan/simulated.jsonl),
 * in view: whole, and cut after lines lines (0: whole), as a sweep still
 * running elsewhere. Every lane shows the runs it carried and its cores'
 * busy share, lanes sharing cells at 80x24; the header, the plan's wall
 * time. */
static void
test_ui_simulated_golden(const char *name, int lines, int rows, int cols)
{
	char *from = xasprintf("%s/tests/fixtures/plan/simulated.jsonl", check_srcdir());
	char *text = test_ui_read(from), *p = text;
	struct test_ui_opts o = {0, 1, NULL, NULL, NULL, false, false};
	struct test_ui t;

	CHECK(text != NULL);
	while (lines > 0 && (p = strchr(p, '\n')) != NULL && --lines > 0)
		p++;
	if (p != NULL && p != text)
		p[1] = '\0';
	o.journal = text;
	test_ui_start(&t, TEST_UI_VIEW, rows, cols, &o);
	test_ui_golden(&t, name, rows, cols);
	test_ui_stop(&t);
	free(text);
	free(from);
}

TEST(ui_golden_simulated256)
{
	test_ui_simulated_golden("simulated256", 0, 24, 80);
	test_ui_simulated_golden("simulated256", 0, 50, 200);
	test_ui_simulated_golden("simulated256_half", 200, 24, 80);
	test_ui_simulated_golden("simulated256_half", 200, 50, 200);
}

/* Enter on a lane lists its runs by core number (c8 before c10); Esc
 * goes back to the overview. */
TEST(ui_golden_lanes_open)
{
	test_ui_machine_golden(7, "lanes_open", 40, 120, "<Shift-Tab>j<Enter>");
	test_ui_machine_golden(7, "lanes_open_back", 24, 80, "<Shift-Tab>jj<Enter><Esc>");
}

/* ---- a view of two shards (tests/fixtures/view-shards) ---- */

struct test_ui_shards {
	struct replay r[2];
	struct sweep_status st[2];
	bool live; /* both attached, a run in flight on each one's lane 0 */
	int n;     /* directories in the view: both, or shard 1's alone */
	struct results *merged;
};

static void
test_ui_shards_update(void *arg, struct model *m, int64_t now_ms)
{
	struct test_ui_shards *s = arg;
	struct model_shard_in in[2] = {{"out", &s->r[0], NULL, NULL}, {"s2", &s->r[1], NULL, NULL}};
	struct shardset_part parts[2];
	struct results *old = s->merged;
	int k;

	for (k = 0; k < s->n; k++) {
		parts[k] = (struct shardset_part){s->r[k].results, s->r[k].started_ms,
		                                  s->r[k].header.config.shard_index, in[k].dir};
		if (s->live)
			in[k].st = &s->st[k];
	}
	s->merged = shardset_results(parts, (size_t)s->n);
	model_update_shards(m, s->merged, in, (size_t)s->n, now_ms);
	results_free(old);
}

/* `flakesweep view out s2`: shard 1 in out, shard 2 in s2, merged; with
 * ndirs 1, shard 1's directory alone. */
static void
test_ui_shards_golden(const char *name, int rows, int cols, bool live, int ndirs)
{
	struct test_ui_opts o = {0, 1, NULL, NULL, NULL, false, false};
	struct test_ui_shards sh;
	struct ui_source src;
	struct test_ui t;
	char *text[2], *err = NULL, *from;
	size_t len;
	int k;

	memset(&sh, 0, sizeof sh);
	for (k = 0; k < 2; k++) {
		from = xasprintf("%s/tests/fixtures/view-shards/s%d/journal.jsonl", check_srcdir(),
		                 k + 1);
		CHECK_INT(util_read_file(from, (size_t)1 << 20, &text[k], &len), 0);
		free(from);
	}
	o.journal = text[0];
	test_ui_start(&t, TEST_UI_VIEW, rows, cols, &o);
	util_mkdir_p("s2");
	test_ui_write("s2/journal.jsonl", text[1]);
	CHECK_INT(replay_journal("out/journal.jsonl", &sh.r[0], &err), 0);
	CHECK_INT(replay_journal("s2/journal.jsonl", &sh.r[1], &err), 0);
	sh.live = live;
	sh.n = ndirs;
	for (k = 0; live && k < 2; k++) {
		int cores[1] = {k};

		replay_status(&sh.r[k], &sh.st[k]);
		sh.st[k].lanes[0].load = 1;
		sh.st[k].lanes[0].core_runs[0] = 1;
		status_add_run(&sh.st[k], 0, 7 + k, cores, 1, 1, RESULTS_SWEEP,
		               k == 0 ? "shards/bravo" : "shards/echo", NULL, test_ui_now - 2000);
	}
	memset(&src, 0, sizeof src);
	src.arg = &sh;
	src.update = test_ui_shards_update;
	src.reproduce = test_ui_reproduce;
	ui_set_source(t.ui, &src);
	ui_changed(t.ui);
	test_ui_keys(&t, "");
	test_ui_golden(&t, name, rows, cols);
	test_ui_stop(&t);
	for (k = 0; k < 2; k++) {
		replay_free(&sh.r[k]);
		status_free(&sh.st[k]);
		free(text[k]);
	}
	results_free(sh.merged);
}

/* Two finished shards: one header over both, a line per host, the tests
 * of both merged (TestNeedsTwoCPUs ran in shard 2, TestOneCPUOnly in
 * shard 1: its first failure's log is in out). */
TEST(ui_golden_shards_80x24)
{
	test_ui_shards_golden("shards", 24, 80, false, 2);
}

TEST(ui_golden_shards_120x40)
{
	test_ui_shards_golden("shards", 40, 120, false, 2);
}

/* Shard 1 of 2 without shard 2: the header says which shard is missing. */
TEST(ui_golden_shards_missing_80x24)
{
	test_ui_shards_golden("shards_missing", 24, 80, false, 1);
}

/* Both attached: each host's lanes under its line, numbered as its sweep
 * numbers them. */
TEST(ui_golden_shards_live_120x40)
{
	test_ui_shards_golden("shards_live", 40, 120, true, 2);
}

/* A sweep whose levels file makes docker_it a container level: three of
 * its containers pinned to the kept-back core 0, one not. */
static const char test_ui_pinned[] =
    "{\"type\":\"header\",\"schema\":\"flakesweep/journal/v1\",\"started\":"
    "\"2026-11-30T03:05:03Z\",\"config\":{\"cpu\":[1],\"load\":[1,2],\"count\":10,"
    "\"confirm\":0,\"levels\":[\"unit\",\"docker_it\"],\"driver\":\"go\",\"level_config\":"
    "{\"docker_it\":{\"kind\":\"containers\",\"label\":\"com.example.pin=yes\"}}},"
    "\"machine\":{\"cores\":5,\"keep\":1,\"lanes\":[[1,2],[3,4]]},\"project\":{\"driver\":"
    "\"go\",\"root\":\"/src/l\"}}\n"
    "{\"type\":\"build\",\"pkg\":0,\"package\":\"example.com/l/unit\",\"level\":\"unit\","
    "\"dir\":\"/src/l/unit\",\"ok\":true,\"tests\":[\"TestUnit\"]}\n"
    "{\"type\":\"build\",\"pkg\":1,\"package\":\"example.com/l/store/it\",\"level\":"
    "\"docker_it\",\"dir\":\"/src/l/store/it\",\"ok\":true,\"tests\":[\"TestPinned\"]}\n"
    "{\"type\":\"phase\",\"phase\":\"sweep\",\"at_ms\":1796007907388}\n"
    "{\"type\":\"run\",\"run\":1,\"pkg\":1,\"phase\":\"sweep\",\"cpu\":1,\"load\":1,"
    "\"lane\":0,\"ms\":1600,\"exit\":0,\"pass\":[\"TestPinned\"]}\n"
    "{\"type\":\"pin\",\"container\":\"4f3a2b1c9d8e7f6a5b4c\",\"cpuset\":\"0\","
    "\"latency_ms\":12,\"pkgs\":[1]}\n"
    "{\"type\":\"run\",\"run\":2,\"pkg\":1,\"phase\":\"sweep\",\"cpu\":1,\"load\":2,"
    "\"lane\":1,\"ms\":1700,\"exit\":1,\"fail\":[\"TestPinned\"],\"lines\":{\"TestPinned\":"
    "\"    it_test.go:30: the container runs on cores \\\"0-2\\\", want \\\"0\\\"\\n\"}}\n"
    "{\"type\":\"pin\",\"container\":\"0a1b2c3d4e5f60718293\",\"cpuset\":\"0\","
    "\"latency_ms\":41,\"pkgs\":[1]}\n"
    "{\"type\":\"pin\",\"container\":\"9f8e7d6c5b4a39281706\",\"cpuset\":\"0\","
    "\"latency_ms\":0,\"error\":\"No such container\",\"pkgs\":[1]}\n"
    "{\"type\":\"run\",\"run\":3,\"pkg\":0,\"phase\":\"sweep\",\"cpu\":1,\"load\":1,"
    "\"lane\":0,\"ms\":5,\"exit\":0,\"pass\":[\"TestUnit\"]}\n"
    "{\"type\":\"pin\",\"container\":\"77aa88bb99cc00dd11ee\",\"cpuset\":\"0\","
    "\"latency_ms\":9,\"pkgs\":[1]}\n";

/* The lane overview has a line for the kept-back core and the containers
 * pinned there; the detail of a test at a container level says its level,
 * label and pinning. */
static void
test_ui_pinned_golden(const char *name, enum test_ui_kind kind, const char *keys, int rows,
                      int cols)
{
	struct test_ui t;
	struct test_ui_opts o = {0, 1, test_ui_pinned, NULL, NULL, false, false};

	test_ui_start(&t, kind, rows, cols, &o);
	test_ui_keys(&t, keys);
	test_ui_golden(&t, name, rows, cols);
	test_ui_stop(&t);
}

TEST(ui_golden_pinned)
{
	test_ui_pinned_golden("pinned", TEST_UI_LIVE, "", 24, 80);
	test_ui_pinned_golden("pinned", TEST_UI_LIVE, "", 40, 120);
	test_ui_pinned_golden("pinned_detail", TEST_UI_LIVE, "<Enter>", 24, 80);
	test_ui_pinned_golden("pinned_detail", TEST_UI_LIVE, "<Enter>", 40, 120);
	/* A view of the journal: the lanes' title line says it. */
	test_ui_pinned_golden("pinned_view", TEST_UI_VIEW, "", 24, 80);
}

/* An environment that holds a lane shows on that lane. */
TEST(ui_golden_environment)
{
	test_ui_environment = true;
	test_ui_pinned_golden("environment", TEST_UI_LIVE, "", 24, 80);
	test_ui_environment = false;
}

/* L shows the event log: where the sweep is, its problems, first
 * failures in run order and decisions; any other key closes it. */
TEST_UI_GOLDEN(log, TEST_UI_VIEW, "L", NULL)
TEST_UI_GOLDEN(log_closed, TEST_UI_VIEW, "Lj", NULL)

/* Home and End as tmux sends them under TERM=xterm-256color (ESC [1~ and
 * ESC [4~), and as xterm does (ESC OH, ESC OF), all read as Home and End. */
TEST(ui_keys_home_end)
{
	struct test_ui t;
	struct test_ui_opts o = {0, 1, NULL, NULL, NULL, false, false};
	int i, want[] = {KEY_HOME, KEY_END, KEY_HOME, KEY_END, KEY_HOME, KEY_END};

	test_ui_input = "\033[1~\033[4~\033OH\033OF\033[H\033[F";
	test_ui_start(&t, TEST_UI_VIEW, 24, 80, &o);
	test_ui_input = NULL;
	nodelay(stdscr, FALSE);
	for (i = 0; i < (int)UTIL_ARRAY_LEN(want); i++)
		CHECK_INT(wgetch(stdscr), want[i]);
	nodelay(stdscr, TRUE);
	test_ui_stop(&t);
}

/* A mouse event at (y, x) as the terminal reports it. */
static void
test_ui_mouse(struct test_ui *t, int y, int x, mmask_t bstate)
{
	MEVENT ev;

	memset(&ev, 0, sizeof ev);
	ev.y = y;
	ev.x = x;
	ev.bstate = bstate;
	CHECK_INT(ungetmouse(&ev), OK);
	ui_key(t->ui, wgetch(stdscr));
	test_ui_idle(t);
	ui_draw(t->ui);
}

/* A click on the list's third row selects its test; the wheel down over
 * the list moves the selection three down (the last test); a click on
 * the lanes focuses them. */
TEST(ui_golden_mouse)
{
	struct test_ui t;
	struct test_ui_opts o = {0, 1, NULL, NULL, NULL, false, false};

	test_ui_start(&t, TEST_UI_VIEW, 40, 120, &o);
	test_ui_mouse(&t, 5, 10, BUTTON1_CLICKED);
	test_ui_golden(&t, "mouse", 40, 120);
	test_ui_mouse(&t, 3, 10, BUTTON1_CLICKED);
	test_ui_mouse(&t, 8, 10, BUTTON5_PRESSED);
	test_ui_golden(&t, "mouse_wheel", 40, 120);
	test_ui_mouse(&t, 1, 10, BUTTON1_PRESSED);
	test_ui_golden(&t, "mouse_lanes", 40, 120);
	test_ui_stop(&t);
}

/* The list follows the filter while it is typed; Esc in the prompt puts
 * back the filter it had; Esc on the list clears the filter. */
TEST_UI_GOLDEN(filter_live, TEST_UI_VIEW, "/need", NULL)
TEST_UI_GOLDEN(filter_cancel, TEST_UI_VIEW, "/hang<Enter>/<BS><BS><BS><BS>s<Esc>", NULL)
TEST_UI_GOLDEN(filter_esc, TEST_UI_VIEW, "/hang<Enter><Esc>", NULL)

/* Three tests whose orders differ: TestBeta failed most (5, but of 24
 * runs with its confirm runs), TestZeta at the highest rate (2 of 4),
 * TestAlpha first by name (1 of 4). */
static const char test_ui_sort_journal[] =
    "{\"type\":\"header\",\"schema\":\"flakesweep/journal/v1\",\"started\":\"2026-11-30T02:00:00Z\",\"config\":{\"cpu\":[1],\"load\":[1],\"count\":4,\"confirm\":0,\"timeout_ms\":1000,\"run\":null,\"driver\":\"tap\",\"command\":[\"./t.sh\"]},\"machine\":{\"cores\":1,\"keep\":0,\"lanes\":[[0]]},\"project\":{\"driver\":\"tap\",\"root\":\"/nonexistent\",\"commit\":null}}\n"
    "{\"type\":\"build\",\"pkg\":0,\"package\":\"./t.sh\",\"level\":\"unit\",\"dir\":\"/nonexistent\",\"ok\":true,\"tests\":[]}\n"
    "{\"type\":\"set\",\"id\":1,\"pkg\":0,\"order\":[\"PTestAlpha\",\"PTestBeta\",\"PTestZeta\"]}\n"
    "{\"type\":\"run\",\"run\":1,\"pkg\":0,\"phase\":\"sweep\",\"cpu\":1,\"load\":1,\"lane\":0,\"ms\":5,\"exit\":1,\"set\":1,\"fail\":[\"TestZeta\",\"TestBeta\"]}\n"
    "{\"type\":\"run\",\"run\":2,\"pkg\":0,\"phase\":\"sweep\",\"cpu\":1,\"load\":1,\"lane\":0,\"ms\":5,\"exit\":1,\"set\":1,\"fail\":[\"TestZeta\",\"TestAlpha\"]}\n"
    "{\"type\":\"run\",\"run\":3,\"pkg\":0,\"phase\":\"sweep\",\"cpu\":1,\"load\":1,\"lane\":0,\"ms\":5,\"exit\":0,\"set\":1}\n"
    "{\"type\":\"run\",\"run\":4,\"pkg\":0,\"phase\":\"sweep\",\"cpu\":1,\"load\":1,\"lane\":0,\"ms\":5,\"exit\":0,\"set\":1}\n"
    "{\"type\":\"set\",\"id\":2,\"pkg\":0,\"order\":[\"PTestBeta\"]}\n"
    "{\"type\":\"run\",\"run\":5,\"pkg\":0,\"phase\":\"confirm\",\"cpu\":1,\"load\":1,\"lane\":0,\"ms\":5,\"exit\":1,\"set\":2,\"fail\":[\"TestBeta\"],\"test\":\"TestBeta\"}\n"
    "{\"type\":\"run\",\"run\":6,\"pkg\":0,\"phase\":\"confirm\",\"cpu\":1,\"load\":1,\"lane\":0,\"ms\":5,\"exit\":0,\"set\":2,\"test\":\"TestBeta\"}\n"
    "{\"type\":\"run\",\"run\":7,\"pkg\":0,\"phase\":\"confirm\",\"cpu\":1,\"load\":1,\"lane\":0,\"ms\":5,\"exit\":0,\"set\":2,\"test\":\"TestBeta\"}\n"
    "{\"type\":\"run\",\"run\":8,\"pkg\":0,\"phase\":\"confirm\",\"cpu\":1,\"load\":1,\"lane\":0,\"ms\":5,\"exit\":0,\"set\":2,\"test\":\"TestBeta\"}\n"
    "{\"type\":\"run\",\"run\":9,\"pkg\":0,\"phase\":\"confirm\",\"cpu\":1,\"load\":1,\"lane\":0,\"ms\":5,\"exit\":1,\"set\":2,\"fail\":[\"TestBeta\"],\"test\":\"TestBeta\"}\n"
    "{\"type\":\"run\",\"run\":10,\"pkg\":0,\"phase\":\"confirm\",\"cpu\":1,\"load\":1,\"lane\":0,\"ms\":5,\"exit\":0,\"set\":2,\"test\":\"TestBeta\"}\n"
    "{\"type\":\"run\",\"run\":11,\"pkg\":0,\"phase\":\"confirm\",\"cpu\":1,\"load\":1,\"lane\":0,\"ms\":5,\"exit\":0,\"set\":2,\"test\":\"TestBeta\"}\n"
    "{\"type\":\"run\",\"run\":12,\"pkg\":0,\"phase\":\"confirm\",\"cpu\":1,\"load\":1,\"lane\":0,\"ms\":5,\"exit\":0,\"set\":2,\"test\":\"TestBeta\"}\n"
    "{\"type\":\"run\",\"run\":13,\"pkg\":0,\"phase\":\"confirm\",\"cpu\":1,\"load\":1,\"lane\":0,\"ms\":5,\"exit\":1,\"set\":2,\"fail\":[\"TestBeta\"],\"test\":\"TestBeta\"}\n"
    "{\"type\":\"run\",\"run\":14,\"pkg\":0,\"phase\":\"confirm\",\"cpu\":1,\"load\":1,\"lane\":0,\"ms\":5,\"exit\":0,\"set\":2,\"test\":\"TestBeta\"}\n"
    "{\"type\":\"run\",\"run\":15,\"pkg\":0,\"phase\":\"confirm\",\"cpu\":1,\"load\":1,\"lane\":0,\"ms\":5,\"exit\":0,\"set\":2,\"test\":\"TestBeta\"}\n"
    "{\"type\":\"run\",\"run\":16,\"pkg\":0,\"phase\":\"confirm\",\"cpu\":1,\"load\":1,\"lane\":0,\"ms\":5,\"exit\":0,\"set\":2,\"test\":\"TestBeta\"}\n"
    "{\"type\":\"run\",\"run\":17,\"pkg\":0,\"phase\":\"confirm\",\"cpu\":1,\"load\":1,\"lane\":0,\"ms\":5,\"exit\":1,\"set\":2,\"fail\":[\"TestBeta\"],\"test\":\"TestBeta\"}\n"
    "{\"type\":\"run\",\"run\":18,\"pkg\":0,\"phase\":\"confirm\",\"cpu\":1,\"load\":1,\"lane\":0,\"ms\":5,\"exit\":0,\"set\":2,\"test\":\"TestBeta\"}\n"
    "{\"type\":\"run\",\"run\":19,\"pkg\":0,\"phase\":\"confirm\",\"cpu\":1,\"load\":1,\"lane\":0,\"ms\":5,\"exit\":0,\"set\":2,\"test\":\"TestBeta\"}\n"
    "{\"type\":\"run\",\"run\":20,\"pkg\":0,\"phase\":\"confirm\",\"cpu\":1,\"load\":1,\"lane\":0,\"ms\":5,\"exit\":0,\"set\":2,\"test\":\"TestBeta\"}\n"
    "{\"type\":\"run\",\"run\":21,\"pkg\":0,\"phase\":\"confirm\",\"cpu\":1,\"load\":1,\"lane\":0,\"ms\":5,\"exit\":0,\"set\":2,\"test\":\"TestBeta\"}\n"
    "{\"type\":\"run\",\"run\":22,\"pkg\":0,\"phase\":\"confirm\",\"cpu\":1,\"load\":1,\"lane\":0,\"ms\":5,\"exit\":0,\"set\":2,\"test\":\"TestBeta\"}\n"
    "{\"type\":\"run\",\"run\":23,\"pkg\":0,\"phase\":\"confirm\",\"cpu\":1,\"load\":1,\"lane\":0,\"ms\":5,\"exit\":0,\"set\":2,\"test\":\"TestBeta\"}\n"
    "{\"type\":\"run\",\"run\":24,\"pkg\":0,\"phase\":\"confirm\",\"cpu\":1,\"load\":1,\"lane\":0,\"ms\":5,\"exit\":0,\"set\":2,\"test\":\"TestBeta\"}\n"
    "{\"type\":\"end\",\"status\":\"complete\",\"finished\":\"2026-11-30T02:00:10Z\"}\n";

/* s sorts by failure rate, then by name, then back as listed; the
 * selection stays on its test. */
static void
test_ui_sort(const char *keys, const char *name)
{
	struct test_ui t;
	struct test_ui_opts o = {0, 1, test_ui_sort_journal, NULL, NULL, false, false};

	test_ui_start(&t, TEST_UI_VIEW, 24, 80, &o);
	test_ui_keys(&t, keys);
	test_ui_golden(&t, name, 24, 80);
	test_ui_stop(&t);
}

TEST(ui_golden_sort)
{
	test_ui_sort("", "sort_listed");
	test_ui_sort("s", "sort_rate");
	test_ui_sort("ss", "sort_name");
	test_ui_sort("jsss", "sort_back");
}

/* A click on a lane's cell selects it (L5 at 80x24: the third row's
 * second cell), and Enter lists its runs. */
TEST(ui_golden_mouse_lane)
{
	struct test_ui t;
	struct test_ui_opts o = {0, 1, NULL, NULL, NULL, false, false};

	test_ui_machine = 7;
	test_ui_start(&t, TEST_UI_LIVE, 24, 80, &o);
	test_ui_mouse(&t, 4, 50, BUTTON1_CLICKED);
	test_ui_keys(&t, "<Enter>");
	test_ui_golden(&t, "mouse_lane", 24, 80);
	test_ui_stop(&t);
	test_ui_machine = 0;
}

/* The header shows the sweep's ETA and the whole night's, confirm runs
 * projected; at 80 columns the ETA stays when the total cannot. */
TEST(ui_golden_eta)
{
	test_ui_eta = true;
	test_ui_scenario("eta", TEST_UI_LIVE, 24, 80, "", NULL);
	test_ui_scenario("eta", TEST_UI_LIVE, 40, 120, "", NULL);
	test_ui_eta = false;
}

/* In a live sweep the log starts with what the sweep told while the
 * dashboard watched, with times: new failures and problems. */
TEST(ui_golden_log_live)
{
	struct test_ui t;
	struct test_ui_opts o = {0, 1, NULL, NULL, NULL, false, false};

	test_ui_start(&t, TEST_UI_LIVE, 24, 80, &o);
	model_add_event(ui_model(t.ui), test_ui_now - 42000, false,
	                "new: example.com/flakesweep-demo::TestCanaryRed failed at cpu 1 load 1 "
	                "(sweep run 1)");
	model_add_event(ui_model(t.ui), test_ui_now - 2000, true,
	                "example.com/broken (unit) failed to build or to list its tests");
	test_ui_keys(&t, "L");
	test_ui_golden(&t, "log_live", 24, 80);
	test_ui_stop(&t);
}

TEST(ui_clipboard_osc52_bytes)
{
	static const char *const vectors[][2] = {
	    {"", ""},
	    {"f", "Zg=="},
	    {"fo", "Zm8="},
	    {"foo", "Zm9v"},
	    {"foob", "Zm9vYg=="},
	    {"fooba", "Zm9vYmE="},
	    {"foobar", "Zm9vYmFy"},
	};
	char *b, *seq;
	size_t i, esc = 0;

	for (i = 0; i < sizeof vectors / sizeof vectors[0]; i++) {
		b = clipboard_base64(vectors[i][0], strlen(vectors[i][0]));
		CHECK_STR(b, vectors[i][1]);
		free(b);
	}
	seq = clipboard_osc52("hi", false);
	CHECK_STR(seq, "\033]52;c;aGk=\a");
	free(seq);
	seq = clipboard_osc52("hi", true);
	CHECK_STR(seq, "\033]52;c;aGk=\a\033Ptmux;\033\033]52;c;aGk=\a\033\\");
	free(seq);
	/* A text holding escapes reaches the terminal only as base64. */
	seq = clipboard_osc52("\033]2;owned\a\033[2J", false);
	for (i = 0; seq[i] != '\0'; i++)
		esc += seq[i] == '\033' || seq[i] == '\a';
	CHECK_INT(esc, 2);
	free(seq);
}

/* Everything written to the dashboard's terminal so far. */
static char *
test_ui_terminal(struct test_ui *t)
{
	char *text = NULL;
	size_t len = 0;

	fflush(t->out);
	CHECK_INT(util_read_file(t->out_path, 64u << 20, &text, &len), 0);
	return text;
}

/* Whether the terminal got the OSC 52 sequence for text. */
static bool
test_ui_copied(struct test_ui *t, const char *text)
{
	char *term = test_ui_terminal(t), *seq = clipboard_osc52(text, false);
	bool found = memmem(term, strlen(term), seq, strlen(seq)) != NULL;

	free(seq);
	free(term);
	return found;
}

TEST(ui_yank_copies_with_osc52)
{
	struct test_ui t;
	struct test_ui_opts o = {0, 1, NULL, NULL, NULL, false, false};
	char *screen;

	unsetenv("TMUX");
	test_ui_start(&t, TEST_UI_VIEW, 40, 120, &o);
	test_ui_keys(&t, "y");
	CHECK(test_ui_copied(&t,
	                     "cd /work/main/data/demo && flakesweep stress --cpu 2 --load 1 "
	                     "--count 10 --run '^TestLoadSensitive$' example.com/flakesweep-demo"));
	screen = ui_screen_text(t.ui, false);
	CHECK(strstr(screen, "copied the reproduce command to the clipboard (OSC 52); y again "
	                     "copies the direct command") != NULL);
	free(screen);
	test_ui_keys(&t, "yy");
	CHECK(test_ui_copied(&t, "cd /work/main/data/demo && taskset -c 0,1 "
	                         "/tmp/flakesweep-demo/bin/example.com_flakesweep-demo.unit.test "
	                         "-test.v -test.paniconexit0 -test.run '^TestLoadSensitive$' "
	                         "-test.cpu 2 -test.count 10 -test.timeout 3000ms"));
	/* No post: after the direct command comes the id. */
	CHECK(test_ui_copied(&t, "example.com/flakesweep-demo::TestLoadSensitive"));
	screen = ui_screen_text(t.ui, false);
	CHECK(strstr(screen, "copied the test id to the clipboard (OSC 52); y again copies the "
	                     "reproduce command") != NULL);
	free(screen);
	test_ui_stop(&t);
}

TEST(ui_open_log_in_pager)
{
	struct test_ui t;
	struct test_ui_opts o = {0, 1, NULL, NULL, NULL, false, false};
	char *pager = xasprintf("%s/pager.sh", check_tmpdir()), *script, *paged, *screen;

	script = xasprintf("#!/bin/sh\ncp \"$1\" '%s/paged.txt'\n", check_tmpdir());
	test_ui_write(pager, script);
	chmod(pager, 0755);
	setenv("PAGER", pager, 1);
	test_ui_start(&t, TEST_UI_VIEW, 40, 120, &o);
	util_mkdir_p("out/runs");
	test_ui_write("out/runs/3.log",
	              "=== RUN   TestLoadSensitive\n--- FAIL: TestLoadSensitive\n");
	test_ui_keys(&t, "o");
	paged = test_ui_read("paged.txt");
	CHECK(paged != NULL);
	CHECK_STR(paged, "=== RUN   TestLoadSensitive\n--- FAIL: TestLoadSensitive\n");
	free(paged);
	/* A log not kept says so. */
	test_ui_keys(&t, "jjo");
	screen = ui_screen_text(t.ui, false);
	CHECK(strstr(screen, "cannot open out/runs/1.log") != NULL);
	free(screen);
	test_ui_stop(&t);
	unsetenv("PAGER");
	free(script);
	free(pager);
}

/* A terminal too small for the layout cannot show a prompt whole: a key
 * that would ask (Q, c, d, p, /, S, u) is refused with a message that says
 * so, and nothing is asked blind. */
TEST(ui_golden_too_small_refuses_questions)
{
	struct test_ui t;
	struct test_ui_opts o = {0, 1, NULL, NULL, NULL, false, false};

	test_ui_start(&t, TEST_UI_VIEW, 15, 60, &o);
	test_ui_keys(&t, "Q");
	test_ui_golden(&t, "too-small-asks", 15, 60);
	test_ui_stop(&t);
}
