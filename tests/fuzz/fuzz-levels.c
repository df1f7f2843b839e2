/* SPDX-License-Identifier: MIT */
/*
 * fuzz-levels.c: libFuzzer target for the levels file's parser. The input
 * is the file; an error must name the file and a line within it, and a
 * file read must come back the same through the journal header's form.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/levels.h"
#include "base/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct levels *lv = NULL, *back = NULL;
	struct levels_error e;
	char *err = NULL, *a, *b;
	size_t i, lines = 1;
	long line;
	cJSON *j;

	for (i = 0; i < size; i++)
		lines += data[i] == '\n';
	if (levels_parse("f.json", (const char *)data, size, &lv, &err) < 0) {
		if (strncmp(err, "f.json:", 7) != 0)
			abort();
		line = strtol(err + 7, NULL, 10);
		if (line < 1 || (size_t)line > lines)
			abort();
		free(err);
		return 0;
	}
	j = levels_json(lv);
	if (levels_decode(j, &back, &e) < 0)
		abort();
	a = cJSON_PrintUnformatted(j);
	cJSON_Delete(j);
	j = levels_json(back);
	b = cJSON_PrintUnformatted(j);
	if (strcmp(a, b) != 0)
		abort();
	cJSON_free(a);
	cJSON_free(b);
	cJSON_Delete(j);
	levels_free(lv);
	levels_free(back);
	return 0;
}
