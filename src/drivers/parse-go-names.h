/* SPDX-License-Identifier: MIT */
/*
 * parse-go-names.h: a hash map from a test name (bytes and a length) to a
 * non-negative index, for the Go parser's tests and listed names. Keys are
 * borrowed; the map owns only its slots.
 */
#ifndef FLAKESWEEP_PARSE_GO_NAMES_H
#define FLAKESWEEP_PARSE_GO_NAMES_H

#include <stddef.h>
#include <stdint.h>

struct parse_go_names_entry {
	uint64_t hash;
	const char *key;
	size_t len;
	int val; /* -1: empty slot */
};

/* Zero-initialised: empty. */
struct parse_go_names {
	struct parse_go_names_entry *e;
	size_t cap, n;
};

/* The index of the len bytes at key, whose hash_fnv1a() is h, or -1. */
int parse_go_names_get(const struct parse_go_names *m, const char *key, size_t len, uint64_t h);

/* Adds key (len bytes) with val >= 0. key must outlive the map; it is
 * not copied. */
void parse_go_names_put(struct parse_go_names *m, const char *key, size_t len, int val);

/* Frees the slots and empties m. */
void parse_go_names_free(struct parse_go_names *m);

#endif
