/* SPDX-License-Identifier: MIT */
/*
 * fuzz-journal.c: libFuzzer target for the journal reader. The input is a
 * journal.jsonl; it is replayed, and either the error names the file and a
 * line, or every pair holds values the command line would take and
 * every warning names the file.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "input-file.h"
#include "results/replay.h"
#include "base/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_file("journal", "jsonl", data, size);
	struct replay r;
	char *err = NULL;
	size_t i;

	if (replay_journal(path, &r, &err) < 0) {
		if (err == NULL || strncmp(err, path, strlen(path)) != 0 ||
		    err[strlen(path)] != ':')
			abort();
		free(err);
		replay_free(&r);
		return 0;
	}
	for (i = 0; i < r.runs.npairs; i++) {
		const struct plan_pair *p = r.runs.pairs[i];

		if (p->cpu < 1 || p->cpu > UTIL_LIST_MAX || p->load < 1 ||
		    p->load > UTIL_LIST_MAX ||
		    (p->pkg != PLAN_CANARY && (p->pkg < 0 || (size_t)p->pkg >= r.npkgs)))
			abort();
	}
	/* A repeated run is counted once, and the warning names the file. */
	for (i = 0; i < r.run_ids.nwarnings; i++) {
		if (strncmp(r.run_ids.warnings[i], path, strlen(path)) != 0 ||
		    r.run_ids.warnings[i][strlen(path)] != ':')
			abort();
	}
	for (i = 0; i < r.nunfinished; i++) {
		if (r.unfinished[i].run < 1 || r.unfinished[i].pid < 1)
			abort();
	}
	replay_free(&r);
	return 0;
}
