/* SPDX-License-Identifier: MIT */
/* test-util.c: durations, lists, quoting and buffers. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "hash.h"
#include "timefmt.h"
#include "util.h"

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
