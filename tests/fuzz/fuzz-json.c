/* SPDX-License-Identifier: MIT */
/*
 * fuzz-json.c: libFuzzer target for json.c. Whatever json_check accepts,
 * cJSON must parse too (so readers that check first never meet a cJSON
 * error), and json_error always names a line and a column inside the text.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "base/json.h"
#include "base/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data, *why = NULL;
	size_t off = 0;
	int line, col, nl = 1;
	size_t i;
	char *msg;

	for (i = 0; i < size; i++)
		nl += text[i] == '\n';
	if (json_check(text, size, &off, &why) == 0) {
		size_t skip = size >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
		cJSON *root = cJSON_ParseWithLength(text + skip, size - skip);

		if (root == NULL)
			abort();
		cJSON_Delete(root);
		return 0;
	}
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
