/* SPDX-License-Identifier: MIT */
/*
 * jsonw.c: JSON text in cJSON_Print's layout, written as it goes. Objects
 * open with "{\n", put each member on its own line indented by one tab a
 * level as "key":<tab>value and close on the parent's indent; arrays stay
 * on one line with ", " between items. Numbers follow cJSON's print_number:
 * %1.15g when it reads back within DBL_EPSILON, else %1.17g, always with a
 * '.' whatever the locale; ints and decimals of up to six places get the
 * same digits without printf. Strings keep valid UTF-8 as it is and write
 * every other byte as its byte escape, \\udc80 to \\udcff (json_parse
 * reads them back). It never parses and never builds a tree.
 */
#include "config.h"

#include <float.h>
#include <limits.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "base/jsonw.h"

static const char jsonw_tabs[] = "\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t";

void
jsonw_init(struct jsonw *w, struct buf *b)
{
	memset(w, 0, sizeof *w);
	w->b = b;
}

void
jsonw_init_compact(struct jsonw *w, struct buf *b)
{
	jsonw_init(w, b);
	w->compact = true;
}

void
jsonw_init_item(struct jsonw *w, struct buf *b, int depth)
{
	jsonw_init(w, b);
	if (depth < 1 || depth > JSONW_DEPTH)
		fatal("JSON nested deeper than %d", JSONW_DEPTH);
	w->depth = depth;
	w->array[depth - 1] = true;
	w->empty[depth - 1] = true;
}

/* s as a JSON string, escaped as cJSON escapes: '"', '\\' and the bytes
 * below 32; valid UTF-8 passes as it is, and each other byte is written as
 * its byte escape (see json_parse). */
static void
jsonw_string(struct buf *b, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + n, *run;

	buf_addc(b, '"');
	while (p < end) {
		char esc[8];

		for (run = p; p < end && *p >= 32 && *p < 0x80 && *p != '"' && *p != '\\'; p++)
			;
		buf_add(b, run, (size_t)(p - run));
		if (p == end)
			break;
		if (*p >= 0x80) {
			size_t k = json_utf8_len((const char *)p, (size_t)(end - p));

			if (k > 0)
				buf_add(b, p, k);
			else
				buf_printf(b, "\\u%04x", 0xDC00 | *p);
			p += k > 0 ? k : 1;
			continue;
		}
		switch (*p) {
		case '"':
		case '\\':
			esc[0] = '\\';
			esc[1] = (char)*p;
			esc[2] = '\0';
			break;
		case '\b':
			strcpy(esc, "\\b");
			break;
		case '\f':
			strcpy(esc, "\\f");
			break;
		case '\n':
			strcpy(esc, "\\n");
			break;
		case '\r':
			strcpy(esc, "\\r");
			break;
		case '\t':
			strcpy(esc, "\\t");
			break;
		default:
			snprintf(esc, sizeof esc, "\\u%04x", *p);
			break;
		}
		buf_adds(b, esc);
		p++;
	}
	buf_addc(b, '"');
}

/* Writes what comes before a value: the separator after the previous
 * one and, in an object, the indent and the key. */
static void
jsonw_key(struct jsonw *w, const char *key)
{
	int i = w->depth - 1;

	if (w->depth == 0)
		return;
	if (w->array[i]) {
		if (!w->empty[i])
			buf_add(w->b, ", ", w->compact ? 1 : 2);
	} else {
		if (!w->empty[i])
			buf_add(w->b, ",\n", w->compact ? 1 : 2);
		if (!w->compact)
			buf_add(w->b, jsonw_tabs, (size_t)w->depth);
		jsonw_string(w->b, key != NULL ? key : "", key != NULL ? strlen(key) : 0);
		buf_add(w->b, ":\t", w->compact ? 1 : 2);
	}
	w->empty[i] = false;
}

static void
jsonw_open(struct jsonw *w, const char *key, bool array)
{
	jsonw_key(w, key);
	if (w->depth >= JSONW_DEPTH || w->depth >= (int)sizeof jsonw_tabs - 1)
		fatal("JSON nested deeper than %d", JSONW_DEPTH);
	buf_adds(w->b, array ? "[" : w->compact ? "{" : "{\n");
	w->array[w->depth] = array;
	w->empty[w->depth] = true;
	w->depth++;
}

void
jsonw_object(struct jsonw *w, const char *key)
{
	jsonw_open(w, key, false);
}

void
jsonw_array(struct jsonw *w, const char *key)
{
	jsonw_open(w, key, true);
}

void
jsonw_end(struct jsonw *w)
{
	int i = --w->depth;

	if (w->array[i]) {
		buf_addc(w->b, ']');
		return;
	}
	if (w->compact) {
		buf_addc(w->b, '}');
		return;
	}
	if (!w->empty[i])
		buf_addc(w->b, '\n');
	buf_add(w->b, jsonw_tabs, (size_t)i);
	buf_addc(w->b, '}');
}

void
jsonw_strn(struct jsonw *w, const char *key, const char *s, size_t n)
{
	jsonw_key(w, key);
	jsonw_string(w->b, s, n);
}

void
jsonw_str(struct jsonw *w, const char *key, const char *s)
{
	if (s == NULL)
		jsonw_null(w, key);
	else
		jsonw_strn(w, key, s, strlen(s));
}

/* The digits of v (|v| < 2^63) in out, which has room for 21 bytes;
 * returns their length. */
static size_t
jsonw_itoa(int64_t v, char *out)
{
	char tmp[24];
	uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
	size_t n = 0, len = 0;

	do {
		tmp[n++] = (char)('0' + u % 10);
		u /= 10;
	} while (u > 0);
	if (v < 0)
		out[len++] = '-';
	while (n > 0)
		out[len++] = tmp[--n];
	return len;
}

/* d as print_number writes an item whose valueint is vi. Decimals with
 * at most six places between 1e-4 and 1e9 (rates and shares rounded to
 * them) are exact with 15 digits, so their %1.15g is written directly:
 * the double nearest k / 1e6 prints as k / 1e6 (DBL_DIG is 15). */
static void
jsonw_number(struct buf *b, double d, int vi)
{
	char s[64];
	double back;
	size_t n;

	if (isnan(d) || isinf(d)) {
		buf_add(b, "null", 4);
		return;
	}
	/* An int prints as %d would (-0 keeps its sign in %g). */
	if (d == (double)vi && !signbit(d)) {
		buf_add(b, s, jsonw_itoa(vi, s));
		return;
	}
	if (fabs(d) >= 1e-4 && fabs(d) < 1e9) {
		long long k = llround(d * 1e6);

		if ((double)k / 1e6 == d && k % 1000000 != 0) {
			long long u = llabs(k);
			int frac = (int)(u % 1000000), digits = 6;

			n = d < 0 ? (s[0] = '-', 1) : 0;
			n += jsonw_itoa(u / 1000000, s + n);
			while (frac % 10 == 0) {
				frac /= 10;
				digits--;
			}
			s[n++] = '.';
			n += (size_t)snprintf(s + n, sizeof s - n, "%0*d", digits, frac);
			buf_add(b, s, n);
			return;
		}
	}
	snprintf(s, sizeof s, "%1.15g", d);
	back = strtod(s, NULL);
	if (!(fabs(back - d) <= fmax(fabs(back), fabs(d)) * DBL_EPSILON))
		snprintf(s, sizeof s, "%1.17g", d);
	for (n = 0; s[n] != '\0'; n++) {
		if (s[n] == localeconv()->decimal_point[0])
			s[n] = '.';
	}
	buf_add(b, s, n);
}

void
jsonw_num_text(struct buf *b, double d)
{
	int vi;

	/* cJSON_CreateNumber's valueint. */
	if (isnan(d) || d >= (double)INT_MAX)
		vi = INT_MAX;
	else if (d <= (double)INT_MIN)
		vi = INT_MIN;
	else
		vi = (int)d;
	jsonw_number(b, d, vi);
}

void
jsonw_num(struct jsonw *w, const char *key, double d)
{
	jsonw_key(w, key);
	jsonw_num_text(w->b, d);
}

void
jsonw_int(struct jsonw *w, const char *key, int64_t v)
{
	char s[24];

	/* cJSON prints an int as "%d", and any other whole number of at most
	 * 15 digits as "%1.15g" does: its digits (seconds to an expiry
	 * years away are past INT_MAX). */
	if (v <= -INT64_C(1000000000000000) || v >= INT64_C(1000000000000000)) {
		jsonw_num(w, key, (double)v);
		return;
	}
	jsonw_key(w, key);
	buf_add(w->b, s, jsonw_itoa(v, s));
}

void
jsonw_bool(struct jsonw *w, const char *key, bool v)
{
	jsonw_key(w, key);
	buf_adds(w->b, v ? "true" : "false");
}

void
jsonw_null(struct jsonw *w, const char *key)
{
	jsonw_key(w, key);
	buf_add(w->b, "null", 4);
}

void
jsonw_raw(struct jsonw *w, const char *key, const char *s, size_t n)
{
	jsonw_key(w, key);
	buf_add(w->b, s, n);
}

void
jsonw_reopen(struct jsonw *w, const char *key, const char *s, size_t n)
{
	jsonw_key(w, key);
	if (w->depth >= JSONW_DEPTH)
		fatal("JSON nested deeper than %d", JSONW_DEPTH);
	if (w->refs != NULL) {
		struct jsonw_refs *r = w->refs;

		if (r->n == r->cap) {
			r->cap = r->cap > 0 ? r->cap * 2 : 1024;
			r->v = xrealloc(r->v, r->cap * sizeof *r->v);
		}
		r->v[r->n].at = w->b->len;
		r->v[r->n].s = s;
		r->v[r->n].n = n;
		r->n++;
	} else {
		buf_add(w->b, s, n);
	}
	w->array[w->depth] = false;
	w->empty[w->depth] = false;
	w->depth++;
}

void
jsonw_cjson(struct jsonw *w, const char *key, const cJSON *item)
{
	const cJSON *c;

	if (item == NULL) {
		jsonw_null(w, key);
		return;
	}
	switch (item->type & 0xff) {
	case cJSON_False:
	case cJSON_True:
		jsonw_bool(w, key, (item->type & 0xff) == cJSON_True);
		break;
	case cJSON_Number:
		jsonw_key(w, key);
		jsonw_number(w->b, item->valuedouble, item->valueint);
		break;
	case cJSON_String:
		jsonw_strn(w, key, item->valuestring != NULL ? item->valuestring : "",
		           item->valuestring != NULL ? strlen(item->valuestring) : 0);
		break;
	case cJSON_Raw:
		jsonw_key(w, key);
		buf_adds(w->b, item->valuestring != NULL ? item->valuestring : "");
		break;
	case cJSON_Array:
	case cJSON_Object:
		jsonw_open(w, key, (item->type & 0xff) == cJSON_Array);
		for (c = item->child; c != NULL; c = c->next)
			jsonw_cjson(w, c->string, c);
		jsonw_end(w);
		break;
	default:
		jsonw_null(w, key);
		break;
	}
}

char *
jsonw_print(const cJSON *item, bool formatted)
{
	char *text = formatted ? cJSON_Print(item) : cJSON_PrintUnformatted(item);
	struct buf b;
	size_t i, k, n;

	if (text == NULL)
		fatal("%s", _("out of memory"));
	n = strlen(text);
	if (json_utf8_valid(text, n))
		return text;
	/* cJSON copies every byte from 0x80 up as it is, and writes such
	 * bytes only inside strings: each that is not valid UTF-8 becomes its
	 * byte escape, as jsonw_string writes it. */
	buf_init(&b);
	for (i = 0; i<n; i += k> 0 ? k : 1) {
		k = json_utf8_len(text + i, n - i);
		if (k > 0)
			buf_add(&b, text + i, k);
		else
			buf_printf(&b, "\\u%04x", 0xDC00 | (unsigned char)text[i]);
	}
	free(text);
	return buf_steal(&b);
}
