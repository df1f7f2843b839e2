/* SPDX-License-Identifier: MIT */
/*
 * fuzz-parse-tap.c: libFuzzer target for the TAP parser. The first bytes
 * choose the exit, the selection and the chunk size; the rest is the stream.
 * It checks the outcome's invariants, not just that nothing crashed.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/outcome.h"
#include "drivers/parse-tap.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct proc_exit ex;
	struct outcome out;
	struct parse_tap *p;
	size_t chunk, i;

	if (size < 3)
		return 0;
	memset(&ex, 0, sizeof ex);
	ex.timed_out = data[0] & 1;
	ex.signal = data[0] & 2 ? 9 : 0;
	ex.status = ex.signal != 0 ? -1 : data[1] % 4;
	chunk = (size_t)data[2] + 1;
	p = parse_tap_new(data[0] & 4 ? "a/b" : NULL);
	data += 3;
	size -= 3;
	for (i = 0; i < size; i += chunk)
		parse_tap_feed(p, (const char *)data + i, size - i < chunk ? size - i : chunk);
	memset(&out, 0, sizeof out);
	parse_tap_finish(p, &ex, &out);
	parse_tap_free(p);
	for (i = 0; i < out.ntests; i++) {
		const struct outcome_test *t = &out.tests[i];
		bool bad = t->status == OUTCOME_FAIL || t->status == OUTCOME_HANG;

		if (t->name == NULL || bad != (t->lines != NULL))
			abort();
		if (t->lines != NULL && strlen(t->lines) > OUTCOME_LINES_CAP)
			abort();
		if (i > 0 && outcome_find(&out, t->name) != t)
			abort(); /* names are unique */
	}
	if (out.package_failed && out.package_reason == NULL)
		abort();
	outcome_free(&out);
	return 0;
}
