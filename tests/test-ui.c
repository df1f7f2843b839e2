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
#include "ui-check.h"
#include "results/compare.h"
#include "results/decisions.h"
#include "engine/replay-status.h"
#include "results/replay.h"
#include "results/results-json.h"
#include "results/shardset.h"
#include "base/util.h"

/* The live fixture keeps the journal up to this line: mid-confirm. */
#define TEST_UI_LIVE_LINES 200

int64_t test_ui_now;

static int64_t
test_ui_clock(void)
{
	return test_ui_now;
}

char *
test_ui_read(const char *path)
{
	char *text = NULL;
	size_t len;

	if (util_read_file(path, (size_t)64 << 20, &text, &len) < 0)
		return NULL;
	return text;
}

void
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
int test_ui_machine;

/* The fake source gives the model known ETAs. */
bool test_ui_eta;

/* The fake source puts an environment on the last lane. */
bool test_ui_environment;

/* The terminal's input bytes, or NULL for none. */
const char *test_ui_input;

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

void
test_ui_reproduce(void *arg, struct model *m, size_t i, const char **fs, const char **direct)
{
	(void)arg;
	model_reproduce(m, NULL, i, fs, direct);
}

/* ---- the fixture ---- */

void
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

void
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
void
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
void
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
void
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

void
test_ui_golden(struct test_ui *t, const char *name, int rows, int cols)
{
	char *text = ui_screen_text(t->ui, false);
	char *full = xasprintf("%s-%dx%d", name, cols, rows);

	test_ui_compare(full, text);
	free(full);
	free(text);
}

void
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
