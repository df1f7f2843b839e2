/* SPDX-License-Identifier: MIT */
/*
 * fuzz-json.c: libFuzzer target for json.c and jsonw's strings. Whatever
 * json_check accepts, json_parse must parse too (so readers that check
 * first never meet a cJSON error), json_parse's end lies inside the text,
 * and json_error always names a line and a column inside the text. The
 * input as a string (up to its first NUL), written by jsonw and by
 * jsonw_print, is valid UTF-8 JSON that json_parse reads back into the
 * same bytes.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "base/json.h"
#include "base/jsonw.h"
#include "base/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The input's bytes up to its first NUL, written as a JSON string and read
 * back. */
static void
fuzz_string(const char *text, size_t size)
{
	char *s = xstrndup(text, size), *printed;
	cJSON *item = cJSON_CreateString(s), *back;
	struct buf b;
	struct jsonw w;

	buf_init(&b);
	jsonw_init(&w, &b);
	jsonw_str(&w, NULL, s);
	printed = jsonw_print(item, false);
	if (strcmp(b.data, printed) != 0 || !json_utf8_valid(b.data, b.len) ||
	    json_check(b.data, b.len, &(size_t){0}, &(const char *){NULL}) != 0)
		abort();
	back = json_parse(b.data, b.len, NULL, false);
	if (!cJSON_IsString(back) || strcmp(back->valuestring, s) != 0)
		abort();
	cJSON_Delete(back);
	cJSON_Delete(item);
	free(printed);
	buf_free(&b);
	free(s);
}

/* Where json_parse says cJSON stopped in text that json_check refused. */
static void
fuzz_end(const char *text, size_t size)
{
	const char *end = NULL;
	cJSON *root = json_parse(text, size, &end, false);

	if (end == NULL || end < text || end > text + size)
		abort();
	cJSON_Delete(root);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data, *why = NULL;
	size_t off = 0;
	int line, col, nl = 1;
	size_t i;
	char *msg;

	fuzz_string(text, size);
	for (i = 0; i < size; i++)
		nl += text[i] == '\n';
	if (json_check(text, size, &off, &why) == 0) {
		size_t skip = size >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
		cJSON *root = json_parse(text + skip, size - skip, NULL, false);

		if (root == NULL)
			abort();
		cJSON_Delete(root);
		return 0;
	}
	fuzz_end(text, size);
	if (why == NULL || off > size)
		abort();
	json_pos(text, size, off, &line, &col);
	if (line < 1 || line > nl || col < 1)
		abort();
	msg = json_error(text, size, NULL);
	if (msg == NULL || strstr(msg, "invalid JSON (") == NULL)
		abort();
	free(msg);
	return 0;
}
