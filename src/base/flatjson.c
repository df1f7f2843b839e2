/* SPDX-License-Identifier: MIT */
/*
 * flatjson.c: splits a flat JSON object line into members without a tree.
 * It accepts a strict subset of JSON and refuses the rest (escapes, bytes
 * above 127, nesting, null, exponents, blanks), so a line it takes
 * reads the same as with cJSON. A decimal of at most 15 digits is an exact
 * integer divided by an exact power of ten, one correctly rounded
 * operation, which is what strtod gives.
 */
#include "config.h"

#include <string.h>

#include "base/flatjson.h"

/* The end of a string's bytes at p (the closing quote), or NULL. */
static const char *
flatjson_string_end(const char *p, const char *end)
{
	for (; p < end; p++) {
		unsigned char c = (unsigned char)*p;

		if (c == '"')
			return p;
		if (c < 0x20 || c == '\\' || c >= 0x80)
			return NULL;
	}
	return NULL;
}

static bool
flatjson_digit(char c)
{
	return c >= '0' && c <= '9';
}

int
flatjson_split(const char *line, size_t len, struct flatjson_member *m)
{
	const char *p = line, *end = line + len, *q;
	int n = 0;

	if (len > 0 && end[-1] == '\n')
		end--;
	if (p == end || *p++ != '{')
		return -1;
	for (;;) {
		if (n == FLATJSON_MAX || p == end || *p != '"')
			return -1;
		q = flatjson_string_end(++p, end);
		if (q == NULL || q + 1 >= end || q[1] != ':')
			return -1;
		m[n].key = p;
		m[n].klen = (size_t)(q - p);
		p = q + 2;
		if (p == end)
			return -1;
		if (*p == '"') {
			q = flatjson_string_end(++p, end);
			if (q == NULL)
				return -1;
			m[n].kind = FLATJSON_STRING;
			m[n].val = p;
			m[n].vlen = (size_t)(q - p);
			p = q + 1;
		} else if (*p == '[') {
			m[n].kind = FLATJSON_ARRAY;
			m[n].val = ++p;
			while (p < end && (flatjson_digit(*p) || *p == ','))
				p++;
			if (p == end || *p != ']')
				return -1;
			m[n].vlen = (size_t)(p++ - m[n].val);
		} else if (end - p >= 4 && memcmp(p, "true", 4) == 0) {
			m[n].kind = FLATJSON_TRUE;
			m[n].val = p;
			m[n].vlen = 4;
			p += 4;
		} else if (end - p >= 5 && memcmp(p, "false", 5) == 0) {
			m[n].kind = FLATJSON_FALSE;
			m[n].val = p;
			m[n].vlen = 5;
			p += 5;
		} else if (*p == '-' || flatjson_digit(*p)) {
			m[n].kind = FLATJSON_NUMBER;
			m[n].val = p++;
			while (p < end && (flatjson_digit(*p) || *p == '.'))
				p++;
			m[n].vlen = (size_t)(p - m[n].val);
		} else {
			return -1;
		}
		n++;
		if (p == end)
			return -1;
		if (*p == '}')
			return p + 1 == end ? n : -1;
		if (*p++ != ',')
			return -1;
	}
}

bool
flatjson_is(const struct flatjson_member *m, const char *key)
{
	return strlen(key) == m->klen && memcmp(m->key, key, m->klen) == 0;
}

/* The digits of s (n bytes, an optional '-' first) with at most one '.',
 * as an integer, and how many came after the point. */
static bool
flatjson_digits(const char *s, size_t n, int maxdigits, bool *neg, uint64_t *v, int *frac)
{
	size_t i = 0;
	int digits = 0;
	bool point = false;

	*neg = n > 0 && s[0] == '-';
	*v = 0;
	*frac = 0;
	if (*neg)
		i++;
	if (i == n || !flatjson_digit(s[i]))
		return false;
	for (; i < n; i++) {
		if (s[i] == '.') {
			/* One point, with digits on both sides. */
			if (point || i + 1 == n)
				return false;
			point = true;
			continue;
		}
		if (!flatjson_digit(s[i]) || ++digits > maxdigits)
			return false;
		*v = *v * 10 + (uint64_t)(s[i] - '0');
		*frac += point;
	}
	return true;
}

bool
flatjson_int(const char *s, size_t n, int64_t min, int64_t max, int64_t *out)
{
	uint64_t v;
	int64_t x;
	int frac;
	bool neg;

	if (!flatjson_digits(s, n, 16, &neg, &v, &frac) || frac > 0)
		return false;
	x = neg ? -(int64_t)v : (int64_t)v;
	if (x < min || x > max)
		return false;
	*out = x;
	return true;
}

bool
flatjson_double(const char *s, size_t n, double *out)
{
	static const double pow10[] = {1e0, 1e1, 1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
	                               1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};
	uint64_t v;
	int frac;
	bool neg;
	double x;

	/* 15 digits stay below 2^53: the integer is exact, and so is 10^15. */
	if (!flatjson_digits(s, n, 15, &neg, &v, &frac))
		return false;
	x = (double)v / pow10[frac];
	*out = neg ? -x : x;
	return true;
}
