/* SPDX-License-Identifier: MIT */
/*
 * fuzz-parse-go.c: libFuzzer target for the Go run-output parser (and the
 * sanitiser that shows its lines). The first bytes choose the options, the
 * exit and the chunk size; the rest is the run's output. It checks the
 * outcome's invariants, not just that nothing crashed.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/outcome.h"
#include "drivers/parse-go.h"
#include "base/sanitize.h"
#include "base/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const fuzz_listed[] = {"TestA", "TestB", "TestX", NULL};

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct parse_go_opts opts;
	struct proc_exit ex;
	struct outcome out;
	struct parse_go *p;
	size_t chunk, i;
	char *s;

	if (size < 3)
		return 0;
	memset(&opts, 0, sizeof opts);
	opts.framing_marker = data[0] & 1;
	opts.listed = data[0] & 2 ? fuzz_listed : NULL;
	opts.selected = data[0] & 4 ? "TestA/sub" : NULL;
	opts.import_path = data[0] & 8 ? "example.com/m" : NULL;
	ex.timed_out = data[0] & 16;
	ex.signal = data[0] & 32 ? 9 : 0;
	ex.status = ex.signal != 0 ? -1 : data[1] % 4;
	chunk = (size_t)data[2] + 1;
	data += 3;
	size -= 3;

	p = parse_go_new(&opts);
	for (i = 0; i < size; i += chunk)
		parse_go_feed(p, (const char *)data + i, size - i < chunk ? size - i : chunk);
	memset(&out, 0, sizeof out);
	parse_go_finish(p, &ex, &out);
	parse_go_free(p);
	for (i = 0; i < out.ntests; i++) {
		const struct outcome_test *t = &out.tests[i];
		bool bad = t->status == OUTCOME_FAIL || t->status == OUTCOME_HANG;

		if (t->name == NULL || t->name[0] == '\0' || bad != (t->lines != NULL))
			abort();
		if (t->lines != NULL && strlen(t->lines) > OUTCOME_LINES_CAP)
			abort();
	}
	if (out.package_failed && out.package_reason == NULL)
		abort();
	if (out.package_lines != NULL && strlen(out.package_lines) > OUTCOME_LINES_CAP)
		abort();
	outcome_free(&out);

	s = sanitize_text((const char *)data, size);
	free(s);
	s = xstrndup((const char *)data, size);
	free(parse_go_run_pattern(s));
	free(s);
	return 0;
}
