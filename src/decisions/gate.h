/* SPDX-License-Identifier: MIT */
/*
 * gate.h: the ambient-input gate (DESIGN section 8; man 5 flakesweep,
 * AMBIENT LEDGER). It compares the ledger of a base tree with the ledger of
 * a head tree and gives one verdict per test whose channels grew; a second
 * head ledger (the control) marks tests whose channels are not stable. It
 * only reads ledgers: it never runs a test.
 */
#ifndef FLAKESWEEP_GATE_H
#define FLAKESWEEP_GATE_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "decisions/ledger.h"

/* Ordered from the mildest; a test's verdict is the worst of its added
 * channels. UNSTABLE stands apart: such a test gets no verdict. */
enum gate_verdict {
	GATE_ALLOW,
	GATE_PROBE,
	GATE_NEEDS_FREEZE,
	GATE_BLOCK,
	GATE_UNSTABLE,
	GATE_NVERDICTS,
};

#define GATE_DEFAULT_INTEGRATION "integration"
#define GATE_DEFAULT_ALLOW_ENV "CI"

struct gate_options {
	/* POSIX extended regular expression; a test whose id matches is an
	 * integration test, allowed to open sockets. NULL: the default. */
	const char *integration;
	/* Comma-separated environment names whose reads are allowed. NULL: the
	 * default; "" allows none. */
	const char *allow_env;
};

/* One test with a verdict (or UNSTABLE). */
struct gate_row {
	char *test;
	enum gate_verdict verdict;
	char *added;  /* the channels head added, comma-separated */
	char *reason; /* why, one line, translated */
};

struct gate_result {
	struct gate_row *rows; /* sorted by test id */
	size_t nrows;
	size_t counts[GATE_NVERDICTS];
};

/* Compares base with head (and, when control is not NULL, head with
 * control) under o. A test's channels grew when head shows a channel that
 * base does not (a test new in head grew by all its channels). Fills *out
 * (gate_result_free). Returns 0, or -EINVAL with *err set (caller frees)
 * when o->integration is not a valid expression. */
int gate_compare(const struct ledger *base, const struct ledger *head, const struct ledger *control,
                 const struct gate_options *o, struct gate_result *out, char **err);

/* Frees what gate_compare put in r (not r itself). */
void gate_result_free(struct gate_result *r);

/* "allow", "probe", "needs-freeze", "block" or "unstable" (not
 * translated). */
const char *gate_verdict_name(enum gate_verdict v);

/* The result as JSON (schema flakesweep/gate/v1). Caller cJSON_Delete()s
 * it. */
cJSON *gate_result_json(const struct gate_result *r);

#endif
