/* SPDX-License-Identifier: MIT */
/*
 * quarantine-file.c: where things are in a quarantine file's text, and
 * the splice that appends an entry in the file's own style (see
 * quarantine-file.h). It never judges an entry.
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "decisions/quarantine-file.h"
#include "base/jsonw.h"
#include "base/util.h"

/* The fields of an entry, in the order a new file writes them. */
const char *const quarantine_file_fields[] = {
    "test", "channel", "reason", "owner", "issue", "expires", "class", "forced",
};

int
quarantine_file_field_index(const char *name)
{
	size_t i;

	for (i = 0; i < QUARANTINE_FIELD_COUNT; i++) {
		if (strcmp(quarantine_file_fields[i], name) == 0)
			return (int)i;
	}
	return -1;
}

size_t
quarantine_file_skip_ws(const char *s, size_t n, size_t i)
{
	while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\n'))
		i++;
	return i;
}

static size_t quarantine_file_scan_value(const char *s, size_t n, size_t i, int depth);

static size_t
quarantine_file_scan_string(const char *s, size_t n, size_t i)
{
	if (i >= n || s[i] != '"')
		return QUARANTINE_FILE_SCAN_FAIL;
	for (i++; i < n; i++) {
		if (s[i] == '\\')
			i++;
		else if (s[i] == '"')
			return i + 1;
	}
	return QUARANTINE_FILE_SCAN_FAIL;
}

static size_t
quarantine_file_scan_container(const char *s, size_t n, size_t i, int depth)
{
	char close = s[i] == '{' ? '}' : ']';
	bool object = s[i] == '{';

	if (depth > 1000)
		return QUARANTINE_FILE_SCAN_FAIL;
	i = quarantine_file_skip_ws(s, n, i + 1);
	if (i < n && s[i] == close)
		return i + 1;
	for (;;) {
		if (object) {
			i = quarantine_file_scan_string(s, n, i);
			if (i == QUARANTINE_FILE_SCAN_FAIL)
				return i;
			i = quarantine_file_skip_ws(s, n, i);
			if (i >= n || s[i] != ':')
				return QUARANTINE_FILE_SCAN_FAIL;
			i = quarantine_file_skip_ws(s, n, i + 1);
		}
		i = quarantine_file_scan_value(s, n, i, depth + 1);
		if (i == QUARANTINE_FILE_SCAN_FAIL)
			return i;
		i = quarantine_file_skip_ws(s, n, i);
		if (i < n && s[i] == close)
			return i + 1;
		if (i >= n || s[i] != ',')
			return QUARANTINE_FILE_SCAN_FAIL;
		i = quarantine_file_skip_ws(s, n, i + 1);
	}
}

static size_t
quarantine_file_scan_value(const char *s, size_t n, size_t i, int depth)
{
	if (i >= n)
		return QUARANTINE_FILE_SCAN_FAIL;
	if (s[i] == '"')
		return quarantine_file_scan_string(s, n, i);
	if (s[i] == '{' || s[i] == '[')
		return quarantine_file_scan_container(s, n, i, depth);
	while (i < n && strchr(",]} \t\r\n", s[i]) == NULL)
		i++;
	return i;
}

void
quarantine_file_pos_free(struct quarantine_file_pos *p)
{
	size_t i;

	for (i = 0; i < p->nelems; i++)
		free(p->elems[i].members);
	free(p->elems);
	memset(p, 0, sizeof *p);
}

/* Fills p for the top-level array of s; returns 0 or -EINVAL. */
int
quarantine_file_scan(const char *s, size_t n, struct quarantine_file_pos *p)
{
	size_t i = 0;

	memset(p, 0, sizeof *p);
	if (n >= 3 && memcmp(s, "\xEF\xBB\xBF", 3) == 0)
		i = 3;
	i = quarantine_file_skip_ws(s, n, i);
	if (i >= n || s[i] != '[')
		return -EINVAL;
	p->open = i;
	i = quarantine_file_skip_ws(s, n, i + 1);
	while (i < n && s[i] != ']') {
		struct quarantine_file_elem *e;
		size_t end;

		p->elems = xgrow(p->elems, p->nelems, sizeof *p->elems);
		e = &p->elems[p->nelems++];
		memset(e, 0, sizeof *e);
		e->start = i;
		if (s[i] == '{') {
			e->object = true;
			e->open = i;
			i = quarantine_file_skip_ws(s, n, i + 1);
			while (i < n && s[i] != '}') {
				struct quarantine_file_member *m;

				e->members = xgrow(e->members, e->nmembers, sizeof *e->members);
				m = &e->members[e->nmembers++];
				m->key = i;
				m->key_end = quarantine_file_scan_string(s, n, i);
				if (m->key_end == QUARANTINE_FILE_SCAN_FAIL)
					goto fail;
				i = quarantine_file_skip_ws(s, n, m->key_end);
				if (i >= n || s[i] != ':')
					goto fail;
				m->value = quarantine_file_skip_ws(s, n, i + 1);
				m->value_end = quarantine_file_scan_value(s, n, m->value, 2);
				if (m->value_end == QUARANTINE_FILE_SCAN_FAIL)
					goto fail;
				i = quarantine_file_skip_ws(s, n, m->value_end);
				if (i < n && s[i] == ',')
					i = quarantine_file_skip_ws(s, n, i + 1);
				else if (i >= n || s[i] != '}')
					goto fail;
			}
			if (i >= n)
				goto fail;
			e->close = i;
			end = i + 1;
		} else {
			end = quarantine_file_scan_value(s, n, i, 1);
			if (end == QUARANTINE_FILE_SCAN_FAIL)
				goto fail;
		}
		e->end = end;
		i = quarantine_file_skip_ws(s, n, end);
		if (i < n && s[i] == ',')
			i = quarantine_file_skip_ws(s, n, i + 1);
		else if (i >= n || s[i] != ']')
			goto fail;
	}
	if (i >= n)
		goto fail;
	p->close = i;
	return 0;
fail:
	quarantine_file_pos_free(p);
	return -EINVAL;
}

/* 1-based line of offset off in s. */
int
quarantine_file_line_of(const char *s, size_t n, size_t off)
{
	size_t i;
	int line = 1;

	for (i = 0; i < off && i < n; i++)
		line += s[i] == '\n';
	return line;
}

int
quarantine_file_cursor_line(struct quarantine_file_cursor *c, size_t off)
{
	if (off < c->off) {
		c->off = 0;
		c->line = 1;
	}
	for (; c->off < off && c->off < c->n; c->off++)
		c->line += c->s[c->off] == '\n';
	return c->line;
}

/* s as a JSON string literal, printed by cJSON. */
static void
quarantine_file_json_string(struct buf *b, const char *s)
{
	cJSON *str = cJSON_CreateString(s);
	char *p = jsonw_print(str, false);

	buf_adds(b, p);
	cJSON_free(p);
	cJSON_Delete(str);
}

/* The layout of an existing file, taken from its text. */
struct quarantine_file_style {
	const char *open_to_key; /* between '{' and the first key */
	size_t open_to_key_len;
	const char *key_to_value; /* between a key and its value */
	size_t key_to_value_len;
	char *between;        /* between a value and the next key, comma included */
	const char *to_close; /* between the last value and '}' */
	size_t to_close_len;
	int order[QUARANTINE_FIELD_COUNT]; /* fields in the order the first entry has them */
};

static void
quarantine_file_render_entry(struct buf *b, const struct quarantine_file_style *st,
                             const char *values[])
{
	int i;
	bool first = true;

	buf_addc(b, '{');
	buf_add(b, st->open_to_key, st->open_to_key_len);
	for (i = 0; i < QUARANTINE_FIELD_COUNT; i++) {
		int f = st->order[i];

		if (values[f] == NULL)
			continue;
		if (!first)
			buf_adds(b, st->between);
		first = false;
		quarantine_file_json_string(b, quarantine_file_fields[f]);
		buf_add(b, st->key_to_value, st->key_to_value_len);
		if (f == QUARANTINE_FIELD_FORCED)
			buf_adds(b, "true");
		else
			quarantine_file_json_string(b, values[f]);
	}
	buf_add(b, st->to_close, st->to_close_len);
	buf_addc(b, '}');
}

/* Writes into out the text of q with a new entry holding values spliced
 * in. Returns 0 or -EINVAL when q's text cannot be scanned. */
int
quarantine_file_splice(const struct quarantine *q, const char *values[], struct buf *out)
{
	struct quarantine_file_style st;
	struct quarantine_file_pos pos;
	const struct quarantine_file_elem *first, *last;
	int i, n = 0;
	size_t k;
	bool seen[QUARANTINE_FIELD_COUNT] = {false};

	bool fresh = q->text == NULL || quarantine_file_skip_ws(q->text, q->len, 0) == q->len;

	memset(&st, 0, sizeof st);
	memset(&pos, 0, sizeof pos);
	if (!fresh && quarantine_file_scan(q->text, q->len, &pos) < 0)
		return -EINVAL;
	first = pos.nelems > 0 ? &pos.elems[0] : NULL;
	if (first != NULL && (!first->object || first->nmembers == 0)) {
		quarantine_file_pos_free(&pos);
		return -EINVAL;
	}
	if (first == NULL) {
		/* Two-space indentation, one member per line. */
		st.open_to_key = "\n    ";
		st.open_to_key_len = 5;
		st.key_to_value = ": ";
		st.key_to_value_len = 2;
		st.between = xstrdup(",\n    ");
		st.to_close = "\n  ";
		st.to_close_len = 3;
		for (i = 0; i < QUARANTINE_FIELD_COUNT; i++)
			st.order[i] = i;
	} else {
		const struct quarantine_file_member *m0 = &first->members[0];
		const struct quarantine_file_member *ml = &first->members[first->nmembers - 1];

		st.open_to_key = q->text + first->open + 1;
		st.open_to_key_len = m0->key - first->open - 1;
		st.key_to_value = q->text + m0->key_end;
		st.key_to_value_len = m0->value - m0->key_end;
		if (first->nmembers >= 2)
			st.between = xstrndup(q->text + m0->value_end,
			                      first->members[1].key - m0->value_end);
		else
			st.between = xasprintf(",%.*s", (int)st.open_to_key_len, st.open_to_key);
		st.to_close = q->text + ml->value_end;
		st.to_close_len = first->close - ml->value_end;
		/* Known fields in the first entry's order, then the others. */
		for (k = 0; k < first->nmembers; k++) {
			char *key = xstrndup(q->text + first->members[k].key + 1,
			                     first->members[k].key_end - first->members[k].key - 2);
			int f = quarantine_file_field_index(key);

			free(key);
			if (f >= 0 && !seen[f]) {
				seen[f] = true;
				st.order[n++] = f;
			}
		}
		for (i = 0; i < QUARANTINE_FIELD_COUNT; i++) {
			if (!seen[i])
				st.order[n++] = i;
		}
	}
	buf_reset(out);
	if (fresh) {
		buf_adds(out, "[\n  ");
		quarantine_file_render_entry(out, &st, values);
		buf_adds(out, "\n]\n");
	} else if (first == NULL) {
		buf_add(out, q->text, pos.open + 1);
		buf_adds(out, "\n  ");
		quarantine_file_render_entry(out, &st, values);
		buf_adds(out, "\n");
		buf_add(out, q->text + pos.close, q->len - pos.close);
	} else {
		last = &pos.elems[pos.nelems - 1];
		buf_add(out, q->text, last->end);
		if (pos.nelems >= 2)
			buf_add(out, q->text + pos.elems[0].end,
			        pos.elems[1].start - pos.elems[0].end);
		else
			buf_printf(out, ",%.*s", (int)(first->start - pos.open - 1),
			           q->text + pos.open + 1);
		quarantine_file_render_entry(out, &st, values);
		buf_add(out, q->text + last->end, q->len - last->end);
	}
	free(st.between);
	quarantine_file_pos_free(&pos);
	return 0;
}

int
quarantine_file_cut(const struct quarantine *q, size_t index, struct buf *out)
{
	struct quarantine_file_pos pos;
	size_t from, to;

	memset(&pos, 0, sizeof pos);
	if (q->text == NULL || quarantine_file_scan(q->text, q->len, &pos) < 0)
		return -EINVAL;
	if (index >= pos.nelems) {
		quarantine_file_pos_free(&pos);
		return -EINVAL;
	}
	buf_reset(out);
	if (pos.nelems == 1) {
		buf_add(out, q->text, pos.open + 1);
		buf_add(out, q->text + pos.close, q->len - pos.close);
		quarantine_file_pos_free(&pos);
		return 0;
	}
	if (index > 0) {
		from = pos.elems[index - 1].end;
		to = pos.elems[index].end;
	} else {
		from = pos.elems[0].start;
		to = pos.elems[1].start;
	}
	buf_add(out, q->text, from);
	buf_add(out, q->text + to, q->len - to);
	quarantine_file_pos_free(&pos);
	return 0;
}
