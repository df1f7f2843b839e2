/* SPDX-License-Identifier: MIT */
/* test-util.c: durations, lists, quoting and buffers. */
#include "config.h"

#include <stdlib.h>

#include "check.h"
#include "cpu-shim.h"
#include "options.h"
#include "util.h"

TEST(util_duration_go_forms)
{
	int64_t ms = 0;

	CHECK_INT(util_parse_duration("90s", &ms), 0);
	CHECK_INT(ms, 90000);
	CHECK_INT(util_parse_duration("2m", &ms), 0);
	CHECK_INT(ms, 120000);
	CHECK_INT(util_parse_duration("1h30m", &ms), 0);
	CHECK_INT(ms, 5400000);
	CHECK_INT(util_parse_duration("1.5s", &ms), 0);
	CHECK_INT(ms, 1500);
	CHECK_INT(util_parse_duration("250ms", &ms), 0);
	CHECK_INT(ms, 250);
	CHECK_INT(util_parse_duration("10", &ms), -22);
	CHECK_INT(util_parse_duration("s", &ms), -22);
	CHECK_INT(util_parse_duration("-1s", &ms), -22);
	CHECK_INT(util_parse_duration("", &ms), -22);
}

TEST(util_duration_format)
{
	char out[32];

	util_format_duration(120000, out, sizeof out);
	CHECK_STR(out, "2m0s");
	util_format_duration(1500, out, sizeof out);
	CHECK_STR(out, "1.5s");
	util_format_duration(5400000, out, sizeof out);
	CHECK_STR(out, "1h30m0s");
}

TEST(util_int_list)
{
	int *v = NULL, n = 0;

	CHECK_INT(util_parse_int_list("1,2,4", &v, &n), 0);
	CHECK_INT(n, 3);
	CHECK_INT(v[2], 4);
	free(v);
	CHECK_INT(util_parse_int_list("1,,2", &v, &n), -22);
	CHECK_INT(util_parse_int_list("0", &v, &n), -22);
	CHECK_INT(util_parse_int_list("1,x", &v, &n), -22);
}

TEST(util_shell_quote)
{
	char *q = util_shell_quote("^TestX$/^a_b$");

	CHECK_STR(q, "'^TestX$/^a_b$'");
	free(q);
	q = util_shell_quote("it's");
	CHECK_STR(q, "'it'\\''s'");
	free(q);
	q = util_shell_quote("plain-word_1.2");
	CHECK_STR(q, "plain-word_1.2");
	free(q);
}

TEST(options_go_and_gnu_spellings)
{
	struct options o;
	char *argv[] = {"stress", "-cpu", "1,2",       "--load=2", "-count=7",  "--timeout", "90s",
	                "-o",     "out",  "--shuffle", "sync",     "./pkg/...", NULL};

	options_init(&o);
	CHECK_INT(options_parse(&o, 12, argv), 0);
	CHECK_INT(o.ncpus, 2);
	CHECK_INT(o.cpus[1], 2);
	CHECK_INT(o.nloads, 1);
	CHECK_INT(o.loads[0], 2);
	CHECK_INT(o.count, 7);
	CHECK_INT(o.timeout_ms, 90000);
	CHECK_STR(o.outdir, "out");
	CHECK(o.shuffle);
	CHECK_INT(o.npackages, 2);
	CHECK_STR(o.packages[1], "./pkg/...");
	options_free(&o);
}

TEST(options_tap_command_after_dashes)
{
	struct options o;
	char *argv[] = {"stress", "--driver", "tap", "--count", "3",
	                "--",     "prove",    "-v",  "t/x.t",   NULL};

	options_init(&o);
	CHECK_INT(options_parse(&o, 9, argv), 0);
	CHECK_STR(o.driver, "tap");
	CHECK_INT(o.ncommand, 3);
	CHECK_STR(o.command[1], "-v");
	CHECK(o.command[3] == NULL);
	CHECK_INT(o.npackages, 0);
	options_free(&o);
}

TEST(options_errors)
{
	struct options o;
	char *bad_cpu[] = {"stress", "--cpu", "1,0", NULL};
	char *unknown[] = {"stress", "--frobnicate", NULL};
	char *missing[] = {"stress", "--count", NULL};
	char *tap[] = {"stress", "--driver", "tap", NULL};

	options_init(&o);
	CHECK_INT(options_parse(&o, 3, bad_cpu), -1);
	options_free(&o);
	options_init(&o);
	CHECK_INT(options_parse(&o, 2, unknown), -1);
	options_free(&o);
	options_init(&o);
	CHECK_INT(options_parse(&o, 2, missing), -1);
	options_free(&o);
	options_init(&o);
	CHECK_INT(options_parse(&o, 3, tap), -1);
	options_free(&o);
}

static void
collect_line(void *arg, const char *s, size_t n)
{
	buf_printf(arg, "[%.*s]", (int)n, s);
}

TEST(util_feed_lines_cut)
{
	static const char text[] = "abcdef\n\nxy\nz";
	struct buf line, got;
	size_t i;

	buf_init(&line);
	buf_init(&got);
	for (i = 0; i < sizeof text - 1; i++)
		util_feed_lines(&line, 3, text + i, 1, collect_line, &got);
	buf_addc(&got, '\0');
	CHECK_STR(got.data, "[abc][][xy]");
	CHECK_INT(line.len, 1);
	buf_free(&line);
	buf_free(&got);
}

TEST(options_cpu_shim)
{
	struct options o;
	char *gtest[] = {"stress", "--driver", "gtest", "--", "./a_test", NULL};
	char *off[] = {"stress", "--no-cpu-shim", "--driver", "ctest", "build", NULL};
	char *go[] = {"stress", "./...", NULL};
	char *p;

	setenv("FLAKESWEEP_CPU_SHIM", check_self(), 1);
	options_init(&o);
	CHECK_INT(options_parse(&o, 5, gtest), 0);
	CHECK_STR(o.cpu_shim_path, check_self());
	options_free(&o);
	options_init(&o);
	CHECK_INT(options_parse(&o, 5, off), 0);
	CHECK(!o.cpu_shim && o.cpu_shim_path == NULL);
	CHECK_STR(o.packages[0], "build");
	options_free(&o);
	options_init(&o);
	CHECK_INT(options_parse(&o, 2, go), 0);
	CHECK(o.cpu_shim && o.cpu_shim_path == NULL);
	options_free(&o);
	setenv("FLAKESWEEP_CPU_SHIM", "/nonexistent/flakesweep-cpu.so", 1);
	p = cpu_shim_find();
	CHECK(p == NULL);
	unsetenv("FLAKESWEEP_CPU_SHIM");
	p = cpu_shim_preload(NULL, "/l/s.so");
	CHECK_STR(p, "/l/s.so");
	free(p);
	p = cpu_shim_preload("libm.so.6", "/l/s.so");
	CHECK_STR(p, "libm.so.6:/l/s.so");
	free(p);
	p = cpu_shim_asan_options("halt_on_error=0");
	CHECK_STR(p, "halt_on_error=0:verify_asan_link_order=0");
	free(p);
}
