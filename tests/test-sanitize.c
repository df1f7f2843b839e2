/* SPDX-License-Identifier: MIT */
/*
 * test-sanitize.c: what reaches a terminal or a Markdown body from test
 * output: no escape sequences, no control bytes, valid UTF-8, carriage
 * return redraws resolved (case 17).
 */
#include "config.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "base/sanitize.h"
#include "base/util.h"

static void
check_clean(const char *raw, size_t len, const char *want)
{
	char *got = sanitize_text(raw, len);

	if (strcmp(got, want) != 0)
		check_fail(__FILE__, __LINE__, "sanitize gave \"%s\", expected \"%s\"", got, want);
	free(got);
}

#define CLEAN(raw, want) check_clean(raw, sizeof raw - 1, want)

/* True when s is valid UTF-8 with no control byte other than \n and \t and
 * no C1 control. */
static bool
safe_text(const char *s)
{
	const unsigned char *u = (const unsigned char *)s;

	while (*u != '\0') {
		size_t n, i;

		if (*u < 0x80) {
			if ((*u < 0x20 && *u != '\n' && *u != '\t') || *u == 0x7f)
				return false;
			u++;
			continue;
		}
		if (*u >= 0xc2 && *u <= 0xdf)
			n = 1;
		else if (*u >= 0xe0 && *u <= 0xef)
			n = 2;
		else if (*u >= 0xf0 && *u <= 0xf4)
			n = 3;
		else
			return false;
		if (*u == 0xc2 && u[1] >= 0x80 && u[1] <= 0x9f)
			return false;
		for (i = 1; i <= n; i++) {
			if (u[i] < 0x80 || u[i] > 0xbf)
				return false;
		}
		u += n + 1;
	}
	return true;
}

TEST(sanitize_escape_sequences)
{
	CLEAN("\x1b[1m\x1b[32mPASS\x1b[0m step 1\n", "PASS step 1\n");
	CLEAN("\x1b]0;owned title\x07\x1b[2J\x1b[Hscreen cleared\n", "screen cleared\n");
	CLEAN("a\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\b", "alinkb");
	CLEAN("\x1bPq#0;2;0;0;0\x1b\\after", "after");
	CLEAN("x\x1b(By\x1b"
	      "7z\x1b"
	      "c!",
	      "xyz!");
	CLEAN("\x1b[38;5;196mred\x1b[m", "red");
	/* An OSC without its terminator stops at the line end. */
	CLEAN("\x1b]0;no end\nnext line\n", "\nnext line\n");
	CLEAN("trailing escape\x1b", "trailing escape");
	CLEAN("\x1b[", "");
	/* The 8-bit forms. */
	CLEAN("a\xc2\x9b"
	      "31mb\xc2\x9d"
	      "0;t\x07"
	      "c",
	      "abc");
}

TEST(sanitize_controls)
{
	CLEAN("nul:\0 bell:\a backspace:x\b del:\x7f\n", "nul: bell: backspace:x del:\n");
	CLEAN("tab\tkept\n", "tab\tkept\n");
	CLEAN("\x01\x02\x03\x0b\x0c\x0e\x1f.", ".");
	CLEAN("c1:\xc2\x80\xc2\x8f.", "c1:.");
	CLEAN("apc:\xc2\x9fhidden\xc2\x9cshown", "apc:shown");
}

TEST(sanitize_carriage_returns)
{
	CLEAN("progress  10%\rprogress  50%\rprogress 100%\n", "progress 100%\n");
	CLEAN("crlf\r\nline\r\n", "crlf\nline\n");
	CLEAN("ends with cr\r", "ends with cr");
	CLEAN("a\r\r\nb", "a\nb");
	CLEAN("first\nsecond\rSECOND\n", "first\nSECOND\n");
}

TEST(sanitize_invalid_utf8)
{
	CLEAN("(body \xff\xfe)", "(body \xef\xbf\xbd\xef\xbf\xbd)");
	CLEAN("caf\xe9!", "caf\xef\xbf\xbd!");
	/* A truncated sequence is one maximal subpart. */
	CLEAN("cut utf8: \xe2\x82\n", "cut utf8: \xef\xbf\xbd\n");
	/* Overlong forms and surrogates are not UTF-8. */
	CLEAN("\xc0\xaf", "\xef\xbf\xbd\xef\xbf\xbd");
	CLEAN("\xed\xa0\x80", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
	CLEAN("\xf4\x90\x80\x80", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
	CLEAN("\xf0\x9f\x98", "\xef\xbf\xbd");
	/* Valid text stays as it is. */
	CLEAN("\xc3\xbcn\xc3\xaf"
	      "c\xc3\xb6"
	      "d\xc3\xa9 \xe2\x9c\x93 \xf0\x9f\x98\x80",
	      "\xc3\xbcn\xc3\xaf"
	      "c\xc3\xb6"
	      "d\xc3\xa9 \xe2\x9c\x93 \xf0\x9f\x98\x80");
	CLEAN("U+FFFD \xef\xbf\xbd stays", "U+FFFD \xef\xbf\xbd stays");
}

TEST(sanitize_invisible_and_separators)
{
	CLEAN("line separator:\xe2\x80\xa8paragraph separator:\xe2\x80\xa9 bom:\xef\xbb\xbf\n",
	      "line separator:\nparagraph separator:\n bom:\n");
	CLEAN("abc\xe2\x80\xae"
	      "fed\xe2\x81\xa6x\xe2\x80\x8f",
	      "abcfedx");
	CLEAN("nel\xc2\x85next", "nel\nnext");
	CLEAN("", "");
}

TEST(sanitize_case17_output)
{
	char *path =
	    xasprintf("%s/tests/fixtures/cases/17-control-codes-and-invalid-utf8/full.go119.txt",
	              check_srcdir());
	char *raw, *clean;
	size_t len;

	CHECK_INT(util_read_file(path, 1 << 20, &raw, &len), 0);
	clean = sanitize_text(raw, len);
	CHECK(safe_text(clean));
	CHECK(strstr(clean, "progress 100%\n") != NULL);
	CHECK(strstr(clean, "owned title") == NULL);
	CHECK(strstr(clean, "    bytes_test.go:18: expected exit 0, got 1 (body "
	                    "\xef\xbf\xbd\xef\xbf\xbd)\n") != NULL);
	CHECK(strstr(clean,
	             "latin1: caf\xef\xbf\xbd, binary: \xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd, "
	             "cut utf8: \xef\xbf\xbd\n") != NULL);
	free(clean);
	free(raw);
	free(path);
}

TEST(sanitize_every_byte_pair_is_safe)
{
	unsigned char in[4];
	unsigned a, b;

	for (a = 0; a < 256; a++) {
		for (b = 0; b < 256; b++) {
			char *out;

			in[0] = (unsigned char)a;
			in[1] = (unsigned char)b;
			in[2] = 0xe2;
			in[3] = 0x82;
			out = sanitize_text((const char *)in, sizeof in);
			if (!safe_text(out))
				check_fail(__FILE__, __LINE__, "unsafe output for %02x %02x", a, b);
			free(out);
		}
	}
}

/* The print helpers clean the whole formatted text, NULs in raw bytes
 * included. */
TEST(sanitize_print_helpers)
{
	char *got = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&got, &len);

	sanitize_fprintf(f, "%s: %s failed at cpu %d\n", "sweep",
	                 "t\x1b]0;PWNED\x07 \x1b[2J\xc2\x9b"
	                 "2Jx\xe2\x80\xae",
	                 1);
	sanitize_write(f, "a\0b\x1b]52;c;SGk=\x07\n", 17);
	fclose(f);
	CHECK_STR(got, "sweep: t x failed at cpu 1\nab\n");
	free(got);
}
