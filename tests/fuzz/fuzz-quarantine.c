/* SPDX-License-Identifier: MIT */
/*
 * fuzz-quarantine.c: libFuzzer target for the quarantine file's parser. The
 * input is the file; it is parsed, judged and exported, and the invariants
 * of the result are checked: every problem names the file, every valid entry
 * has its required fields and a parsed channel, line numbers are in range.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "decisions/quarantine.h"
#include "base/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct quarantine *q = quarantine_parse("f.json", (const char *)data, size);
	struct quarantine_channel ch;
	size_t i, lines = 1;
	int nerrors = 0;
	char *s;
	cJSON *j;

	for (i = 0; i < size; i++)
		lines += data[i] == '\n';
	for (i = 0; i < q->nproblems; i++) {
		if (strncmp(q->problems[i].message, "f.json:", 7) != 0)
			abort();
		if (q->problems[i].line < 1 || (size_t)q->problems[i].line > lines)
			abort();
		nerrors += !q->problems[i].warning;
	}
	if (nerrors != q->nerrors)
		abort();
	for (i = 0; i < q->nentries; i++) {
		const struct quarantine_entry *e = &q->entries[i];

		if (e->line < 1 || (size_t)e->line > lines)
			abort();
		if (!e->valid)
			continue;
		if (e->test == NULL || e->channel == NULL || e->owner == NULL || e->issue == NULL ||
		    e->expires == NULL || quarantine_channel_parse(e->channel, &ch) < 0 ||
		    strstr(e->test, "::") == NULL)
			abort();
	}
	quarantine_evaluate(q, NULL, NULL, 100, 0);
	s = quarantine_export(q, &driver_go, NULL);
	free(s);
	s = quarantine_export(q, &driver_tap, NULL);
	free(s);
	j = quarantine_to_json(q, 100, 0);
	cJSON_Delete(j);
	quarantine_free(q);
	return 0;
}
