/* SPDX-License-Identifier: MIT */
/*
 * ui-check.h: the dashboard tests' fixture (test-ui.c): a virtual
 * terminal, the demo sweep's journal, the fake source, key scripts and
 * golden screens; test-ui-views.c uses it too.
 */
#ifndef FLAKESWEEP_TESTS_UI_CHECK_H
#define FLAKESWEEP_TESTS_UI_CHECK_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <uv.h>

#include "ui.h"
#include "results/replay.h"

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

struct test_ui_opts {
	int colors; /* enum draw_colors, or -1 to detect */
	int utf8;
	const char *journal; /* a journal to use instead of the demo's */
	const char *repo;
	const char *api_url;
	bool no_color; /* NO_COLOR set */
	bool signals;  /* the dashboard's signal and crash handlers */
};

typedef void (*test_ui_check_cb)(struct test_ui *t);

extern int64_t test_ui_now;
extern int test_ui_machine;
extern bool test_ui_eta;
extern bool test_ui_environment;
extern const char *test_ui_input;

void test_ui_compare(const char *name, const char *text);
void test_ui_golden(struct test_ui *t, const char *name, int rows, int cols);
void test_ui_idle(struct test_ui *t);
void test_ui_keys(struct test_ui *t, const char *script);
char *test_ui_read(const char *path);
void test_ui_reproduce(void *arg, struct model *m, size_t i, const char **fs, const char **direct);
void test_ui_scenario(const char *name, enum test_ui_kind kind, int rows, int cols,
                      const char *keys, test_ui_check_cb check);
void test_ui_start(struct test_ui *t, enum test_ui_kind kind, int rows, int cols,
                   const struct test_ui_opts *o);
void test_ui_stop(struct test_ui *t);
void test_ui_write(const char *path, const char *text);

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

#endif
