/* SPDX-License-Identifier: MIT */
/*
 * mask.c: the values of secret variables and their masking in text, whole
 * or as a stream. The values are kept longest first, so where several
 * begin at one byte the longest is masked; a stream holds back only the
 * bytes that are the beginning of some value, so what it passes on lags
 * the input by at most the longest value's length less one. It never
 * reads the environment itself: callers hand it entries.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mask.h"
#include "base/util.h"

struct mask_value {
	char *text;
	size_t len;
};

struct mask {
	struct mask_value *values; /* longest first */
	size_t n;
	bool first[256]; /* the first bytes of the values */
};

struct mask_stream {
	const struct mask *m;
	mask_out_cb out;
	void *arg;
	struct buf hold; /* bytes that may begin a value */
	size_t cover;    /* bytes at the start of hold inside a masked stretch */
};

struct mask *
mask_new(void)
{
	return xcalloc(1, sizeof(struct mask));
}

void
mask_free(struct mask *m)
{
	size_t i;

	if (m == NULL)
		return;
	for (i = 0; i < m->n; i++)
		free(m->values[i].text);
	free(m->values);
	free(m);
}

bool
mask_name_secret(const char *name)
{
	static const char *const words[] = {"TOKEN",   "SECRET",      "PASSWORD",   "PASSWD",
	                                    "API_KEY", "PRIVATE_KEY", "CREDENTIALS"};
	size_t i;

	for (i = 0; i < UTIL_ARRAY_LEN(words); i++) {
		if (strcasestr(name, words[i]) != NULL)
			return true;
	}
	return false;
}

static void
mask_add_bytes(struct mask *m, const char *v, size_t len)
{
	size_t i, at;

	if (len < MASK_MIN_LEN)
		return;
	for (i = 0; i < m->n; i++) {
		if (m->values[i].len == len && memcmp(m->values[i].text, v, len) == 0)
			return;
	}
	for (at = 0; at < m->n && m->values[at].len >= len; at++)
		;
	m->values = xrealloc(m->values, sizeof *m->values * (m->n + 1));
	memmove(m->values + at + 1, m->values + at, sizeof *m->values * (m->n - at));
	m->values[at].text = xmalloc(len);
	memcpy(m->values[at].text, v, len);
	m->values[at].len = len;
	m->n++;
	m->first[(unsigned char)v[0]] = true;
}

/* The value as an encoder escapes it between its quotes: a backslash
 * before each of the bytes in quoted (the backslash among them), \n, \r
 * and \t, and every other control byte (and DEL with del) as ctl does.
 * Added when it differs from the value. */
static void
mask_add_escaped(struct mask *m, const char *value, const char *quoted, const char *ctl, bool del)
{
	struct buf b;
	const char *p;

	buf_init(&b);
	for (p = value; *p != '\0'; p++) {
		unsigned char c = (unsigned char)*p;

		if (strchr(quoted, (char)c) != NULL)
			buf_printf(&b, "\\%c", c);
		else if (c == '\n')
			buf_adds(&b, "\\n");
		else if (c == '\r')
			buf_adds(&b, "\\r");
		else if (c == '\t')
			buf_adds(&b, "\\t");
		else if (c < 0x20 || (del && c == 0x7f))
			buf_printf(&b, ctl, c);
		else
			buf_addc(&b, (char)c);
	}
	if (strcmp(b.data, value) != 0)
		mask_add_bytes(m, b.data, b.len);
	buf_free(&b);
}

/* The value as a JSON string's contents, escaped as JSON encoders do. */
static void
mask_add_json(struct mask *m, const char *value)
{
	mask_add_escaped(m, value, "\"\\", "\\u%04x", false);
}

/* The value as Python's repr shows a str between its quotes (pytest
 * prints a failed comparison's operands so): backslashes doubled, \n,
 * \r and \t, other controls as \xNN, and ' escaped unless repr picks
 * double quotes (a value with ' and no "). */
static void
mask_add_repr(struct mask *m, const char *value)
{
	bool dquote = strchr(value, '\'') != NULL && strchr(value, '"') == NULL;

	mask_add_escaped(m, value, dquote ? "\\" : "'\\", "\\x%02x", true);
}

void
mask_add(struct mask *m, const char *value)
{
	const char *line, *nl;

	if (strlen(value) < MASK_MIN_LEN)
		return;
	mask_add_bytes(m, value, strlen(value));
	mask_add_json(m, value);
	mask_add_repr(m, value);
	/* A key of several lines is often printed a line at a time, behind
	 * a logger's prefix. */
	if (strchr(value, '\n') == NULL)
		return;
	for (line = value; *line != '\0'; line = *nl != '\0' ? nl + 1 : nl) {
		size_t len;

		nl = line + strcspn(line, "\n");
		len = (size_t)(nl - line);
		if (len > 0 && line[len - 1] == '\r')
			len--;
		mask_add_bytes(m, line, len);
	}
}

void
mask_add_environ(struct mask *m, char *const *env, char *const *names, size_t nnames)
{
	size_t i, j;

	for (i = 0; env != NULL && env[i] != NULL; i++) {
		const char *eq = strchr(env[i], '=');
		size_t k;
		char *name;

		if (eq == NULL)
			continue;
		k = (size_t)(eq - env[i]);
		for (j = 0; j < nnames; j++) {
			if (strlen(names[j]) == k && memcmp(names[j], env[i], k) == 0)
				break;
		}
		name = xmalloc(k + 1);
		memcpy(name, env[i], k);
		name[k] = '\0';
		if (j < nnames || mask_name_secret(name))
			mask_add(m, eq + 1);
		free(name);
	}
}

size_t
mask_count(const struct mask *m)
{
	return m->n;
}

/* The length of the longest value at p, 0 for none. With partial not
 * NULL, a longer value whose beginning is all of p's avail bytes sets it
 * and the answer waits for more bytes. */
static size_t
mask_longest(const struct mask *m, const char *p, size_t avail, bool *partial)
{
	size_t i;

	for (i = 0; i < m->n; i++) {
		const struct mask_value *v = &m->values[i];

		if (v->text[0] != p[0])
			continue;
		if (v->len > avail) {
			if (partial != NULL && memcmp(v->text, p, avail) == 0) {
				*partial = true;
				return 0;
			}
			continue;
		}
		if (memcmp(v->text, p, v->len) == 0)
			return v->len;
	}
	return 0;
}

/* Masks what can be decided of work's n bytes (all of them when final)
 * and passes it on; returns how many were decided. */
static size_t
mask_stream_scan(struct mask_stream *ms, const char *work, size_t n, bool final)
{
	const struct mask *m = ms->m;
	size_t i, lit = 0;

	for (i = 0; i < n; i++) {
		size_t len = 0;

		if (m->first[(unsigned char)work[i]]) {
			bool partial = false;

			len = mask_longest(m, work + i, n - i, final ? NULL : &partial);
			if (partial)
				break;
		}
		if (len > 0 && ms->cover == 0) {
			if (i > lit)
				ms->out(ms->arg, work + lit, i - lit);
			ms->out(ms->arg, MASK_MARK, sizeof MASK_MARK - 1);
		}
		if (len > ms->cover)
			ms->cover = len;
		if (ms->cover > 0) {
			ms->cover--;
			lit = i + 1;
		}
	}
	if (i > lit)
		ms->out(ms->arg, work + lit, i - lit);
	return i;
}

struct mask_stream *
mask_stream_new(const struct mask *m, mask_out_cb out, void *arg)
{
	struct mask_stream *ms = xcalloc(1, sizeof *ms);

	ms->m = m;
	ms->out = out;
	ms->arg = arg;
	buf_init(&ms->hold);
	return ms;
}

void
mask_stream_feed(struct mask_stream *ms, const char *data, size_t len)
{
	size_t done;

	if (len == 0)
		return;
	if (ms->hold.len == 0) {
		/* Most chunks: nothing held, scanned where they are. */
		done = mask_stream_scan(ms, data, len, false);
		if (done < len)
			buf_add(&ms->hold, data + done, len - done);
		return;
	}
	buf_add(&ms->hold, data, len);
	done = mask_stream_scan(ms, ms->hold.data, ms->hold.len, false);
	memmove(ms->hold.data, ms->hold.data + done, ms->hold.len - done);
	ms->hold.len -= done;
	ms->hold.data[ms->hold.len] = '\0';
}

void
mask_stream_flush(struct mask_stream *ms)
{
	mask_stream_scan(ms, ms->hold.data, ms->hold.len, true);
	buf_reset(&ms->hold);
	ms->cover = 0;
}

void
mask_stream_free(struct mask_stream *ms)
{
	if (ms == NULL)
		return;
	buf_free(&ms->hold);
	free(ms);
}

static void
mask_text_add(void *arg, const char *data, size_t len)
{
	buf_add(arg, data, len);
}

char *
mask_text(const struct mask *m, const char *s)
{
	struct buf b;
	struct mask_stream *ms;

	buf_init(&b);
	buf_reserve(&b, strlen(s));
	ms = mask_stream_new(m, mask_text_add, &b);
	mask_stream_feed(ms, s, strlen(s));
	mask_stream_flush(ms);
	mask_stream_free(ms);
	return buf_steal(&b);
}
