/* SPDX-License-Identifier: MIT */
/*
 * ledger.h: reads an ambient-input ledger (JSON lines of test, outcome and
 * channels, man 5 flakesweep, AMBIENT LEDGER) and merges the lines of each
 * test into one record. It never judges what a channel means: the gate and
 * the quarantine do.
 */
#ifndef FLAKESWEEP_LEDGER_H
#define FLAKESWEEP_LEDGER_H

#include <stdbool.h>
#include <stddef.h>

/* Largest ledger read (bytes) and longest line accepted (bytes). */
#define LEDGER_MAX_BYTES ((size_t)256 << 20)
#define LEDGER_MAX_LINE ((size_t)1 << 20)

/* One channel of one test, over every line of that test. */
struct ledger_channel {
	char *name;    /* "clock", "rng", "net" or "env:NAME" */
	long runs;     /* runs (lines not skipped) that showed the channel */
	long failures; /* of those, runs that failed or errored */
};

/* Every line of one test, merged. */
struct ledger_test {
	char *test;                      /* the test id, PACKAGE::TEST */
	int line;                        /* the first line that named it (1-based) */
	long lines;                      /* lines, skipped ones included */
	long runs;                       /* lines whose outcome is not "skipped" */
	long failures;                   /* lines whose outcome is "failed" or "error" */
	struct ledger_channel *channels; /* sorted by name, each once */
	size_t nchannels;
};

struct ledger {
	char *path;                /* as given, for messages */
	struct ledger_test *tests; /* sorted by test id */
	size_t ntests;
};

/* True when s is an ambient channel a ledger may carry: "clock", "rng",
 * "net" or "env:NAME", NAME being 1 to 255 printable ASCII characters
 * other than space and '='. */
bool ledger_channel_valid(const char *s);

/* Parses len bytes of ledger text; path only names the source in
 * messages. Blank lines are skipped. Returns 0 and a new ledger in *out
 * (ledger_free), or -EINVAL with *err set to one line "PATH:LINE: what is
 * wrong" (caller frees) for the first malformed line. */
int ledger_parse(const char *path, const char *text, size_t len, struct ledger **out, char **err);

/* Reads and parses the ledger at path (at most LEDGER_MAX_BYTES). Returns 0,
 * -EINVAL as ledger_parse, or a negative errno from reading; *err is set
 * whenever the return is not 0. */
int ledger_load(const char *path, struct ledger **out, char **err);

/* Frees l and everything it owns; NULL is a no-op. */
void ledger_free(struct ledger *l);

/* The merged record of test, or NULL. The pointer lives as long as l. */
const struct ledger_test *ledger_find(const struct ledger *l, const char *test);

/* The channel record named name within t, or NULL. */
const struct ledger_channel *ledger_test_channel(const struct ledger_test *t, const char *name);

/* True when a and b carry exactly the same channel names. */
bool ledger_same_channels(const struct ledger_test *a, const struct ledger_test *b);

#endif
