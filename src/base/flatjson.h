/* SPDX-License-Identifier: MIT */
/*
 * flatjson.h: a fast path for the lines a journal has millions of: one
 * flat JSON object (strings without escapes or bytes above 127, whole and
 * decimal numbers without exponents, true, false, arrays of whole numbers) split
 * into its members without building a tree. Any other line is refused,
 * and the caller reads it with cJSON as before: this path only takes
 * lines it reads exactly as cJSON does.
 */
#ifndef FLAKESWEEP_FLATJSON_H
#define FLAKESWEEP_FLATJSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FLATJSON_MAX 24

enum flatjson_kind {
	FLATJSON_STRING,
	FLATJSON_NUMBER,
	FLATJSON_TRUE,
	FLATJSON_FALSE,
	FLATJSON_ARRAY, /* of whole numbers, val is what is between the brackets */
};

struct flatjson_member {
	const char *key; /* not NUL-terminated: klen bytes */
	size_t klen;
	enum flatjson_kind kind;
	const char *val; /* vlen bytes; a string without its quotes */
	size_t vlen;
};

/* Splits line (len bytes, a newline at the end or not) into at most
 * FLATJSON_MAX members, in order. Returns their number, or -1 when the
 * line is anything but such a flat object. */
int flatjson_split(const char *line, size_t len, struct flatjson_member *m);

/* True when member m is named key. */
bool flatjson_is(const struct flatjson_member *m, const char *key);

/* Reads a whole number ("-12", at most 16 digits) in [min, max]. False
 * for anything else (a fraction, an exponent, out of bounds). */
bool flatjson_int(const char *s, size_t n, int64_t min, int64_t max, int64_t *out);

/* Reads a decimal number ("-0.125", at most 15 digits, no exponent) as
 * strtod rounds it. False for anything else. */
bool flatjson_double(const char *s, size_t n, double *out);

#endif
