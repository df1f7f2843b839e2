/* SPDX-License-Identifier: MIT */
/* test-json.c: where JSON text goes wrong, and what json_check refuses
 * that cJSON would take, cut or refuse later; jsonw writes what cJSON
 * prints. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "base/json.h"
#include "base/jsonw.h"

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

/* The numbers, strings and nesting results.json has, and the edges of
 * cJSON's number formats: each written by jsonw, from calls and from the
 * tree, is what cJSON_Print makes of the tree. */
TEST(jsonw_writes_what_cjson_prints)
{
	static const double nums[] = {0,
	                              -1,
	                              2147483647,
	                              2147483648.0,
	                              -2147483649.0,
	                              1e15,
	                              1e16,
	                              0.5,
	                              -0.25,
	                              0.123456,
	                              1e-5,
	                              0.0001,
	                              123456789.123456,
	                              1.0 / 3,
	                              0.1 + 0.2,
	                              0.999999,
	                              1e300,
	                              -0.0};
	/* Whole numbers past INT_MAX too (seconds to an expiry in 2099). */
	static const int64_t ints[] = {INT64_C(1) << 40,
	                               INT64_C(2272000000),
	                               -INT64_C(3000000000),
	                               INT32_MAX,
	                               INT32_MIN,
	                               INT64_C(999999999999999),
	                               -INT64_C(999999999999999),
	                               INT64_C(1000000000000000),
	                               INT64_C(1) << 55};
	const char *str = "a\"b\\c/\n\t\r\b\f\x01\x1f\x7f \xc3\xa9";
	cJSON *doc = cJSON_CreateObject(), *a, *o;
	struct jsonw w;
	struct buf b;
	char *want;
	size_t i;

	buf_init(&b);
	jsonw_init(&w, &b);
	jsonw_object(&w, NULL);
	jsonw_str(&w, "s", str);
	cJSON_AddStringToObject(doc, "s", str);
	jsonw_array(&w, "n");
	a = cJSON_AddArrayToObject(doc, "n");
	for (i = 0; i < sizeof nums / sizeof *nums; i++) {
		jsonw_num(&w, NULL, nums[i]);
		cJSON_AddItemToArray(a, cJSON_CreateNumber(nums[i]));
	}
	for (i = 0; i < sizeof ints / sizeof *ints; i++) {
		jsonw_int(&w, NULL, ints[i]);
		cJSON_AddItemToArray(a, cJSON_CreateNumber((double)ints[i]));
	}
	jsonw_end(&w);
	jsonw_array(&w, "cells");
	a = cJSON_AddArrayToObject(doc, "cells");
	for (i = 0; i < 2; i++) {
		jsonw_object(&w, NULL);
		o = cJSON_CreateObject();
		jsonw_null(&w, "noise");
		cJSON_AddNullToObject(o, "noise");
		jsonw_object(&w, "empty");
		cJSON_AddObjectToObject(o, "empty");
		jsonw_end(&w);
		jsonw_array(&w, "none");
		cJSON_AddArrayToObject(o, "none");
		jsonw_end(&w);
		jsonw_bool(&w, "ok", i == 1);
		cJSON_AddBoolToObject(o, "ok", i == 1);
		jsonw_end(&w);
		cJSON_AddItemToArray(a, o);
	}
	jsonw_end(&w);
	jsonw_object(&w, "e");
	cJSON_AddObjectToObject(doc, "e");
	jsonw_end(&w);
	jsonw_end(&w);
	want = cJSON_Print(doc);
	CHECK_STR(b.data, want);
	/* The same tree, written whole inside an array. */
	buf_reset(&b);
	jsonw_init(&w, &b);
	jsonw_array(&w, NULL);
	jsonw_cjson(&w, NULL, doc);
	jsonw_end(&w);
	a = cJSON_CreateArray();
	cJSON_AddItemToArray(a, doc);
	free(want);
	want = cJSON_Print(a);
	CHECK_STR(b.data, want);
	CHECK(strstr(b.data, "\"a\\\"b\\\\c/\\n\\t\\r\\b\\f\\u0001\\u001f\x7f \xc3\xa9\"") != NULL);
	cJSON_Delete(a);
	free(want);
	buf_free(&b);
}

/* Numbers by the thousand, decimals of up to six places (the rates and
 * shares results.json has) and any double: jsonw_num_text writes what
 * cJSON_PrintUnformatted does. */
TEST(jsonw_numbers_match_cjson)
{
	uint64_t x = 88172645463325252ULL;
	struct buf b;
	int i, bad = 0;

	buf_init(&b);
	for (i = 0; i < 30000; i++) {
		double d;
		cJSON *n;
		char *want;

		/* xorshift64: the same values every run. */
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		if (i % 3 == 0)
			d = (double)(int64_t)(x % 4000000001ULL - 2000000000) / 1e6;
		else if (i % 3 == 1)
			d = (double)(x % 1000001) / (i % 2 == 0 ? 1e6 : 1e3);
		else
			memcpy(&d, &x, sizeof d);
		n = cJSON_CreateNumber(d);
		want = cJSON_PrintUnformatted(n);
		buf_reset(&b);
		jsonw_num_text(&b, d);
		if (strcmp(b.data != NULL ? b.data : "", want) != 0 && bad++ < 5)
			CHECK_STR(b.data, want);
		cJSON_Delete(n);
		free(want);
	}
	CHECK_INT(bad, 0);
	buf_free(&b);
}

/* A byte that is not part of valid UTF-8 is written as its byte escape,
 * \udc80 to \udcff (by jsonw and by jsonw_print alike), and json_parse
 * reads it back: the strings keep their bytes, and the text is valid
 * UTF-8 JSON that json_check takes. */
TEST(json_byte_escapes_round_trip)
{
	/* Lone bytes, an é, an encoded surrogate and a cut character. */
	static const char raw[] = "a\xff\xfe b \xc3\xa9 \xed\xa0\x80 \xc3";
	static const char want[] = "\"a\\udcff\\udcfe b \xc3\xa9 \\udced\\udca0\\udc80 \\udcc3\"";
	cJSON *tree = cJSON_CreateString(raw), *back;
	const char *end = NULL, *why;
	struct buf b;
	struct jsonw w;
	size_t off;
	char *text;

	buf_init(&b);
	jsonw_init(&w, &b);
	jsonw_str(&w, NULL, raw);
	CHECK_STR(b.data, want);
	text = jsonw_print(tree, false);
	CHECK_STR(text, want);
	CHECK(json_utf8_valid(text, strlen(text)));
	CHECK_INT(json_check(text, strlen(text), &off, &why), 0);
	/* cJSON alone refuses the lone surrogates. */
	CHECK(cJSON_Parse(text) == NULL);
	back = json_parse(text, strlen(text), &end, false);
	CHECK(cJSON_IsString(back));
	if (cJSON_IsString(back))
		CHECK_STR(back->valuestring, raw);
	CHECK(end == text + strlen(text));
	cJSON_Delete(back);
	free(text);
	cJSON_Delete(tree);
	buf_free(&b);
}

/* What json_parse leaves as it is: a surrogate pair whose low half looks
 * like a byte escape, an escaped backslash before "udcff", escapes
 * outside the bytes 0x80 to 0xff; and where it says cJSON stopped. */
TEST(json_parse_reads_only_byte_escapes)
{
	static const char pair[] = "[\"\\ud83d\\udc80\", \"\\\\udcff\", \"\\udcFF\"]";
	static const char bad[] = "[\"\\udcff\", x]";
	const char *end = NULL, *why;
	cJSON *a = json_parse(pair, strlen(pair), NULL, false);
	size_t off;

	CHECK_INT(cJSON_GetArraySize(a), 3);
	if (cJSON_GetArraySize(a) == 3) {
		CHECK_STR(cJSON_GetArrayItem(a, 0)->valuestring, "\xf0\x9f\x92\x80");
		CHECK_STR(cJSON_GetArrayItem(a, 1)->valuestring, "\\udcff");
		CHECK_STR(cJSON_GetArrayItem(a, 2)->valuestring, "\xff");
	}
	cJSON_Delete(a);
	CHECK(json_parse("[\"\\udc41\"]", 10, NULL, false) == NULL);
	CHECK(json_check("[\"\\udc41\"]", 10, &off, &why) < 0);
	CHECK(json_parse("[\"\\ud800x\"]", 11, NULL, false) == NULL);
	/* Where cJSON stopped, in the text given. */
	CHECK(json_parse(bad, strlen(bad), &end, false) == NULL);
	CHECK(end == bad + 11); /* the x */
	CHECK(json_parse("[\"\\udcff\"] x", 13, &end, true) == NULL);
	a = json_parse("[\"\\udcff\"]  ", 13, &end, true);
	CHECK(a != NULL);
	cJSON_Delete(a);
}
