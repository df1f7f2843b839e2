/* SPDX-License-Identifier: MIT */
/*
 * test-ui-views.c: the dashboard's other screens and keys on the fixture of
 * test-ui.c (ui-check.h): posting, compare and bisect boards, the lane
 * overview at many cores, a view of shards, pinned and environment lanes,
 * the mouse, sorting, the log, the clipboard and the pager.
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
