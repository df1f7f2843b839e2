/* SPDX-License-Identifier: MIT */
/* test-json.c: where JSON text goes wrong, and what json_check refuses
 * that cJSON would take, cut or refuse later. */
#include "config.h"

#include <stdlib.h>

#include "check.h"
#include "base/json.h"

static void
check_bad(const char *text, size_t len, const char *want)
{
	char *msg = json_error(text, len, NULL);

	CHECK_STR(msg, want);
	free(msg);
}

TEST(json_error_names_line_column_and_what_was_expected)
{
	size_t off;
	const char *why;

	CHECK_INT(json_check("{\"a\": [1, \"\\u00e9\\ud83d\\ude00\", true]}\n", 39, &off, &why), 0);
	check_bad("{\n  \"a\": 1,\n}", 13,
	          "3:1: invalid JSON (expected a member name in double quotes)");
	check_bad("[1 2]", 5, "1:4: invalid JSON (expected ',' or ']')");
	check_bad("{\"a\": \"x", 8,
	          "1:9: invalid JSON (the text ends inside a string (expected a "
	          "closing \"))");
	check_bad("[\"\xc3\xa9\xff\"]", 6, "1:4: invalid JSON (not valid UTF-8)");
	check_bad("[\"a\0b\"]", 7, "1:4: invalid JSON (a NUL byte inside a string)");
	check_bad("[\"a\tb\"]", 7,
	          "1:4: invalid JSON (a control character inside a string (write it as \\uXXXX))");
	/* cJSON cuts a string at \u0000 and refuses a lone surrogate. */
	check_bad("[\"a\\u0000\"]", 11,
	          "1:4: invalid JSON (a NUL character (\\u0000) inside a string)");
	check_bad("\"2\\ude225\"", 10,
	          "1:3: invalid JSON (a lone surrogate escape (not a character))");
	check_bad("[\"\\ud83dx\"]", 11,
	          "1:3: invalid JSON (a lone surrogate escape (not a character))");
	check_bad("[] x", 4, "1:4: invalid JSON (expected the end of the text after the value)");
}
