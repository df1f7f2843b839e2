/* SPDX-License-Identifier: MIT */
/*
 * quarantine-file.h: the text of a quarantine file, byte by byte. A small
 * scanner finds where each entry and member of the (already valid) JSON
 * lies, for line numbers in messages; the splice adds an entry in the
 * file's own style without reprinting the rest, the cut takes one out. Entries, channels and
 * statuses are quarantine.h's business.
 */
#ifndef FLAKESWEEP_QUARANTINE_FILE_H
#define FLAKESWEEP_QUARANTINE_FILE_H

#include <stdbool.h>
#include <stddef.h>

#include "decisions/quarantine.h"
#include "base/util.h"

/* The fields of an entry, in the order a new file writes them. */
extern const char *const quarantine_file_fields[];
enum quarantine_field {
	QUARANTINE_FIELD_TEST,
	QUARANTINE_FIELD_CHANNEL,
	QUARANTINE_FIELD_REASON,
	QUARANTINE_FIELD_OWNER,
	QUARANTINE_FIELD_ISSUE,
	QUARANTINE_FIELD_EXPIRES,
	QUARANTINE_FIELD_CLASS,  /* optional: the test's class when it was added */
	QUARANTINE_FIELD_FORCED, /* optional: true, written as a JSON true */
	QUARANTINE_FIELD_COUNT,
};

/* The enum quarantine_field of a member name, or -1. */
int quarantine_file_field_index(const char *name);

/* Where things are in the text. cJSON parses and checks the file but keeps
 * no positions, so a small scanner walks the same (already valid) text to
 * find each entry and member: for line numbers in messages, and for
 * splicing a new entry in without reprinting the rest. cJSON keeps members
 * in file order, so the k-th member found here is the k-th child there. */
struct quarantine_file_member {
	size_t key, key_end, value, value_end;
};

struct quarantine_file_elem {
	size_t start, end; /* the element's text is [start, end) */
	bool object;
	size_t open, close; /* object: offsets of '{' and '}' */
	struct quarantine_file_member *members;
	size_t nmembers;
};

struct quarantine_file_pos {
	size_t open, close; /* the top-level array's '[' and ']' */
	struct quarantine_file_elem *elems;
	size_t nelems;
};

#define QUARANTINE_FILE_SCAN_FAIL ((size_t)-1)

/* Line numbers for offsets that mostly grow, without rescanning the text
 * from its start each time. */
struct quarantine_file_cursor {
	const char *s;
	size_t n;
	size_t off;
	int line;
};

/* The first offset at or after i that is not JSON white space. */
size_t quarantine_file_skip_ws(const char *s, size_t n, size_t i);

/* Fills p for the top-level array of s (quarantine_file_pos_free). Returns
 * 0 or -EINVAL. */
int quarantine_file_scan(const char *s, size_t n, struct quarantine_file_pos *p);
void quarantine_file_pos_free(struct quarantine_file_pos *p);

/* The 1-based line of offset off in s. */
int quarantine_file_line_of(const char *s, size_t n, size_t off);

/* The line of off, scanning on from the cursor's last offset. */
int quarantine_file_cursor_line(struct quarantine_file_cursor *c, size_t off);

/* Writes into out the text of q with a new entry holding values (by enum
 * quarantine_field; NULL leaves a field out) spliced in after the last,
 * in the style of the first. Returns 0, or -EINVAL when the text has no
 * place for it. */
int quarantine_file_splice(const struct quarantine *q, const char *values[], struct buf *out);

/* Writes into out the text of q without its index-th (0-based) element:
 * the element and the separator before it (after it, for the first), so
 * cutting the entry quarantine_file_splice added last gives back the text
 * it was added to; the only element leaves "[]". Returns 0, or -EINVAL when the text cannot be
 * scanned or has no such element. */
int quarantine_file_cut(const struct quarantine *q, size_t index, struct buf *out);

#endif
