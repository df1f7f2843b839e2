/* SPDX-License-Identifier: MIT */
/*
 * fuzz-ledger.c: libFuzzer target for the ambient ledger's reader. The input
 * is a ledger; a parsed one must be sorted, with sane counts, and the gate
 * must judge it against itself (no row) and against an empty base.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "decisions/gate.h"
#include "decisions/ledger.h"
#include "base/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct gate_options o = {NULL, NULL};
	struct ledger *l = NULL, *empty = NULL;
	struct gate_result r;
	char *err = NULL;
	size_t i, j;

	if (ledger_parse("f.jsonl", (const char *)data, size, &l, &err) < 0) {
		if (err == NULL || strncmp(err, "f.jsonl:", 8) != 0)
			abort();
		free(err);
		return 0;
	}
	for (i = 0; i < l->ntests; i++) {
		const struct ledger_test *t = &l->tests[i];

		if (i > 0 && strcmp(l->tests[i - 1].test, t->test) >= 0)
			abort();
		if (t->runs > t->lines || t->failures > t->runs || ledger_find(l, t->test) != t)
			abort();
		for (j = 0; j < t->nchannels; j++) {
			if (!ledger_channel_valid(t->channels[j].name) ||
			    t->channels[j].runs > t->runs ||
			    (j > 0 && strcmp(t->channels[j - 1].name, t->channels[j].name) >= 0))
				abort();
		}
	}
	if (gate_compare(l, l, l, &o, &r, &err) < 0 || r.nrows != 0)
		abort();
	gate_result_free(&r);
	if (ledger_parse("e.jsonl", "", 0, &empty, &err) < 0)
		abort();
	if (gate_compare(empty, l, NULL, &o, &r, &err) < 0)
		abort();
	gate_result_free(&r);
	ledger_free(empty);
	ledger_free(l);
	return 0;
}
