/* SPDX-License-Identifier: MIT */
/*
 * jsonw.h: writes JSON text straight into a buffer, byte for byte as
 * cJSON_Print lays out the same tree (tabs, ":\t", ", " between array
 * items, cJSON's number formats) or, compact, as cJSON_PrintUnformatted
 * does, without building the tree. A writer
 * with many objects to save (results.json) uses it to skip the
 * allocations and the slow number printing; it never parses. Bytes that
 * are not UTF-8 become byte escapes, here and in jsonw_print, which every
 * JSON text printed from a tree goes through.
 */
#ifndef FLAKESWEEP_JSONW_H
#define FLAKESWEEP_JSONW_H

#include <stdbool.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "base/util.h"

#define JSONW_DEPTH 32

/* A text referred to instead of copied: it belongs at byte at of the
 * buffer, before what was written after it. */
struct jsonw_ref {
	size_t at;
	const char *s;
	size_t n;
};

struct jsonw_refs {
	struct jsonw_ref *v;
	size_t n, cap;
};

/* The containers open in b: each value goes into the innermost one, with
 * its key when that is an object (key is ignored in an array and at the
 * top, where one value is the whole text). */
struct jsonw {
	struct buf *b;
	int depth;
	bool array[JSONW_DEPTH];
	bool empty[JSONW_DEPTH];
	/* Where jsonw_reopen refers to its text instead of copying it, or
	 * NULL (jsonw_init). */
	struct jsonw_refs *refs;
	bool compact; /* laid out as cJSON_PrintUnformatted: jsonw_init_compact */
};

/* Starts writing at the end of b (not owned). */
void jsonw_init(struct jsonw *w, struct buf *b);
/* The same, laid out as cJSON_PrintUnformatted lays out the same tree (no
 * space, tab or newline between tokens): a journal line. */
void jsonw_init_compact(struct jsonw *w, struct buf *b);

/* Starts writing one item of an array that is depth containers deep (its
 * own bracket included), without the separator before it: the text that
 * jsonw_raw puts back at such a place. */
void jsonw_init_item(struct jsonw *w, struct buf *b, int depth);

void jsonw_object(struct jsonw *w, const char *key);
void jsonw_array(struct jsonw *w, const char *key);
/* Closes the innermost object or array. */
void jsonw_end(struct jsonw *w);

/* s, or null when s is NULL. Each byte of s that is not part of valid
 * UTF-8 is written as its byte escape, \\udc80 to \\udcff, which
 * json_parse reads back: a test id keeps its bytes. */
void jsonw_str(struct jsonw *w, const char *key, const char *s);
/* The first n bytes of s. */
void jsonw_strn(struct jsonw *w, const char *key, const char *s, size_t n);
/* A number as cJSON_CreateNumber(d) prints; jsonw_int for counts. */
void jsonw_num(struct jsonw *w, const char *key, double d);
/* The same number alone at the end of b, as cJSON_PrintUnformatted too
 * writes it. */
void jsonw_num_text(struct buf *b, double d);
void jsonw_int(struct jsonw *w, const char *key, int64_t v);
void jsonw_bool(struct jsonw *w, const char *key, bool v);
void jsonw_null(struct jsonw *w, const char *key);
/* A value written before at this same depth, n bytes, as it is. */
void jsonw_raw(struct jsonw *w, const char *key, const char *s, size_t n);
/* An object written before at this same depth and left open, n bytes:
 * its '{' and at least one member; more members follow, then jsonw_end.
 * With w->refs, s is not copied but referred to there: it must outlive
 * the use of the buffer. */
void jsonw_reopen(struct jsonw *w, const char *key, const char *s, size_t n);
/* cJSON_Print(item) (formatted) or cJSON_PrintUnformatted(item), each
 * byte of its strings that is not valid UTF-8 written as jsonw_str writes
 * it (see json_parse): every JSON text flakesweep writes from a tree. The
 * caller frees. */
char *jsonw_print(const cJSON *item, bool formatted);
/* A tree made elsewhere (NULL writes null), laid out at this depth. */
void jsonw_cjson(struct jsonw *w, const char *key, const cJSON *item);

#endif
