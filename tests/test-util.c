/* SPDX-License-Identifier: MIT */
/* test-util.c: durations, lists, quoting and buffers. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "cmd.h"
#include "base/hash.h"
#include "base/idset.h"
#include "base/timefmt.h"
#include "engine/cpu-shim.h"
#include "engine/options.h"
#include "base/sanitize.h"
#include "base/util.h"

TEST(util_duration_go_forms)
{
	int64_t ms = 0;

	CHECK_INT(timefmt_parse_duration("90s", &ms), 0);
	CHECK_INT(ms, 90000);
	CHECK_INT(timefmt_parse_duration("2m", &ms), 0);
	CHECK_INT(ms, 120000);
	CHECK_INT(timefmt_parse_duration("1h30m", &ms), 0);
	CHECK_INT(ms, 5400000);
	CHECK_INT(timefmt_parse_duration("1.5s", &ms), 0);
	CHECK_INT(ms, 1500);
	CHECK_INT(timefmt_parse_duration("250ms", &ms), 0);
	CHECK_INT(ms, 250);
	CHECK_INT(timefmt_parse_duration("10", &ms), -22);
	CHECK_INT(timefmt_parse_duration("s", &ms), -22);
	CHECK_INT(timefmt_parse_duration("-1s", &ms), -22);
	CHECK_INT(timefmt_parse_duration("", &ms), -22);
}

TEST(util_duration_format)
{
	char out[32];

	timefmt_format_duration(120000, out, sizeof out);
	CHECK_STR(out, "2m0s");
	timefmt_format_duration(1500, out, sizeof out);
	CHECK_STR(out, "1.5s");
	timefmt_format_duration(5400000, out, sizeof out);
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

TEST(sanitize_shell_quote)
{
	char *q = sanitize_shell_quote("^TestX$/^a_b$");

	CHECK_STR(q, "'^TestX$/^a_b$'");
	free(q);
	q = sanitize_shell_quote("it's");
	CHECK_STR(q, "'it'\\''s'");
	free(q);
	q = sanitize_shell_quote("plain-word_1.2");
	CHECK_STR(q, "plain-word_1.2");
	free(q);
	/* Printable UTF-8 stays as it is, in single quotes. */
	q = sanitize_shell_quote("caf\xc3\xa9 test");
	CHECK_STR(q, "'caf\xc3\xa9 test'");
	free(q);
}

/* A name that is not UTF-8, or holds a control, is spelled with escapes a
 * shell reads back to the same bytes (a display would show U+FFFD, and the
 * line pasted would select nothing). */
TEST(sanitize_shell_quote_escapes_bytes)
{
	const char *words[] = {"^a\xff\xfe"
	                       "b$",
	                       "it's\x1b[31m\\", "tab\there\xe2\x80\xae"};
	const char *want[] = {"$'^a\\xff\\xfeb$'", "$'it\\'s\\x1b[31m\\\\'",
	                      "$'tab\\x09here\\xe2\\x80\\xae'"};
	char *script = xasprintf("%s/quote.sh", check_tmpdir());
	size_t i;

	for (i = 0; i < sizeof words / sizeof *words; i++) {
		char *q = sanitize_shell_quote(words[i]), *cmd, *out = NULL;
		size_t len = 0;
		FILE *f;

		CHECK_STR(q, want[i]);
		/* bash reads the escapes back to the very bytes. */
		cmd = xasprintf("printf %%s %s", q);
		CHECK_INT(util_write_file_atomic(script, cmd, strlen(cmd)), 0);
		free(cmd);
		cmd = xasprintf("bash %s", script);
		f = popen(cmd, "r");
		CHECK(f != NULL);
		CHECK(getdelim(&out, &len, '\0', f) >= 0);
		CHECK_STR(out, words[i]);
		pclose(f);
		free(out);
		free(cmd);
		free(q);
	}
	free(script);
}

/* The published FNV-1a 64 vectors: strmap and ledger used an offset basis
 * with its last digit missing (1469598103934665603). */
TEST(util_fnv1a_vectors)
{
	CHECK(hash_fnv1a_str("") == UINT64_C(0xcbf29ce484222325));
	CHECK(hash_fnv1a_str("a") == UINT64_C(0xaf63dc4c8601ec8c));
	CHECK(hash_fnv1a_str("foobar") == UINT64_C(0x85944171f73967e8));
	CHECK(hash_fnv1a("foobar!", 6) == UINT64_C(0x85944171f73967e8));
}

TEST(util_xvasprintf_has_no_fixed_limit)
{
	char *big = xcalloc(5001, 1), *s;

	memset(big, 'x', 5000);
	s = xasprintf("<%s>", big);
	CHECK_INT((int)strlen(s), 5002);
	free(s);
	free(big);
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
	CHECK_INT(cmd_stress_parse(&o, 5, gtest), 0);
	CHECK_STR(o.cpu_shim_path, check_self());
	options_free(&o);
	options_init(&o);
	CHECK_INT(cmd_stress_parse(&o, 5, off), 0);
	CHECK(!o.cpu_shim && o.cpu_shim_path == NULL);
	CHECK_STR(o.packages[0], "build");
	options_free(&o);
	options_init(&o);
	CHECK_INT(cmd_stress_parse(&o, 2, go), 0);
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

/* util_lock_file follows a chain of links, relative to each link's own
 * directory, to the file they lead to (there or not), and refuses a loop. */
TEST(util_lock_file_follows_links)
{
	const char *tmp = check_tmpdir();
	char *a = xasprintf("%s/a", tmp);
	char *in = xasprintf("%s/d/in", tmp), *d = xasprintf("%s/d", tmp), *target = NULL;
	char *want = xasprintf("%s/d/../real.json", tmp), *loop = xasprintf("%s/loop", tmp);
	int fd;

	CHECK_INT(util_mkdir_p(d), 0);
	CHECK_INT(symlink("d/in", a), 0);
	CHECK_INT(symlink("../real.json", in), 0);
	fd = util_lock_file(a, &target);
	CHECK(fd >= 0);
	CHECK_STR(target, want);
	close(fd);
	free(target);
	CHECK_INT(symlink("loop", loop), 0);
	CHECK_INT(util_lock_file(loop, &target), -ELOOP);
	CHECK(target == NULL);
	free(a);
	free(in);
	free(d);
	free(want);
	free(loop);
}

/* Each id is new once, dense or not: the bits grow past their first
 * words, and ids near INT64_MAX go to the table, which grows too. */
TEST(idset_adds_each_id_once)
{
	struct idset *s = idset_new();
	int64_t i;

	for (i = 1; i <= 5000; i++)
		CHECK(idset_add(s, i));
	CHECK(!idset_add(s, 1));
	CHECK(!idset_add(s, 4999));
	for (i = 0; i < 1000; i++)
		CHECK(idset_add(s, INT64_MAX - i * 7919));
	CHECK(!idset_add(s, INT64_MAX));
	CHECK(!idset_add(s, INT64_MAX - 999 * 7919));
	CHECK(idset_add(s, (int64_t)1 << 26));
	CHECK(!idset_add(s, (int64_t)1 << 26));
	CHECK(idset_add(s, ((int64_t)1 << 26) - 1));
	CHECK(!idset_add(s, ((int64_t)1 << 26) - 1));
	CHECK(idset_add(s, 9007199254740992LL));
	idset_free(s);
	idset_free(NULL);
}
