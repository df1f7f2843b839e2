/* SPDX-License-Identifier: MIT */
/*
 * sanitize.c: one pass over raw bytes that keeps printable text and drops
 * what a terminal or a Markdown renderer would act on. It never touches the
 * raw copy it was given, which stays the evidence.
 */
#include "config.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/sanitize.h"
#include "base/util.h"

#define SANITIZE_ESC 0x1b
#define SANITIZE_BEL 0x07

/* Decodes one UTF-8 character at s (n > 0 bytes). Returns its length and
 * sets *cp, or returns the length of the maximal invalid subpart (at least
 * 1) and sets *cp to -1, following the Unicode standard's table of
 * well-formed byte sequences. */
static size_t
sanitize_decode(const unsigned char *s, size_t n, int32_t *cp)
{
	unsigned char b = s[0];
	unsigned char lo = 0x80, hi = 0xbf;
	size_t need, i;
	int32_t v;

	*cp = -1;
	if (b < 0x80) {
		*cp = b;
		return 1;
	}
	if (b >= 0xc2 && b <= 0xdf) {
		need = 1;
		v = b & 0x1f;
	} else if (b >= 0xe0 && b <= 0xef) {
		need = 2;
		v = b & 0x0f;
		if (b == 0xe0)
			lo = 0xa0;
		else if (b == 0xed)
			hi = 0x9f;
	} else if (b >= 0xf0 && b <= 0xf4) {
		need = 3;
		v = b & 0x07;
		if (b == 0xf0)
			lo = 0x90;
		else if (b == 0xf4)
			hi = 0x8f;
	} else {
		return 1;
	}
	for (i = 1; i <= need; i++) {
		if (i >= n || s[i] < lo || s[i] > hi)
			return i;
		v = (v << 6) | (s[i] & 0x3f);
		lo = 0x80;
		hi = 0xbf;
	}
	*cp = v;
	return need + 1;
}

/* Format characters that reorder or hide text. */
static bool
sanitize_invisible(int32_t cp)
{
	return cp == 0x061c || cp == 0x200e || cp == 0x200f || (cp >= 0x202a && cp <= 0x202e) ||
	       (cp >= 0x2066 && cp <= 0x2069) || cp == 0xfeff || (cp >= 0xfff9 && cp <= 0xfffb);
}

/* Skips a control string (OSC, DCS, SOS, PM, APC) starting at i, just after
 * its introducer: up to BEL, ST (ESC \ or U+009C) or, when unterminated, the
 * line end, which stays. Returns the index after it. */
static size_t
sanitize_skip_string(const unsigned char *s, size_t n, size_t i)
{
	while (i < n) {
		if (s[i] == SANITIZE_BEL)
			return i + 1;
		if (s[i] == SANITIZE_ESC && i + 1 < n && s[i + 1] == '\\')
			return i + 2;
		if (s[i] == 0xc2 && i + 1 < n && s[i + 1] == 0x9c)
			return i + 2;
		if (s[i] == '\n' || s[i] == '\r')
			return i;
		i++;
	}
	return i;
}

/* Skips a CSI's parameters, intermediates and final byte, starting just
 * after "ESC [". A byte that cannot belong to it ends it there. */
static size_t
sanitize_skip_csi(const unsigned char *s, size_t n, size_t i)
{
	while (i < n && s[i] >= 0x30 && s[i] <= 0x3f)
		i++;
	while (i < n && s[i] >= 0x20 && s[i] <= 0x2f)
		i++;
	if (i < n && s[i] >= 0x40 && s[i] <= 0x7e)
		i++;
	return i;
}

/* Skips the escape sequence whose ESC is at i; returns the index after it. */
static size_t
sanitize_skip_escape(const unsigned char *s, size_t n, size_t i)
{
	unsigned char c;

	if (++i >= n)
		return i;
	c = s[i];
	switch (c) {
	case '[':
		return sanitize_skip_csi(s, n, i + 1);
	case ']':
	case 'P':
	case 'X':
	case '^':
	case '_':
		return sanitize_skip_string(s, n, i + 1);
	default:
		break;
	}
	if (c >= 0x20 && c <= 0x2f) {
		/* nF: intermediates, then one final byte ("ESC ( B"). */
		while (i < n && s[i] >= 0x20 && s[i] <= 0x2f)
			i++;
		if (i < n && s[i] >= 0x30 && s[i] <= 0x7e)
			i++;
		return i;
	}
	if (c >= 0x30 && c <= 0x7e)
		return i + 1;
	return i;
}

char *
sanitize_text(const char *raw, size_t len)
{
	const unsigned char *s = (const unsigned char *)raw;
	struct buf b;
	size_t i = 0, line = 0;

	buf_init(&b);
	buf_add(&b, "", 0);
	while (i < len) {
		unsigned char c = s[i];
		int32_t cp;
		size_t n;

		if (c == '\n') {
			buf_addc(&b, '\n');
			line = b.len;
			i++;
		} else if (c == '\r') {
			/* "\r\n" and a final "\r" end a line; any other \r
			 * starts it again. */
			if (i + 1 < len && s[i + 1] != '\r' && s[i + 1] != '\n') {
				b.len = line;
				b.data[b.len] = '\0';
			}
			i++;
		} else if (c == '\t' || (c >= 0x20 && c < 0x7f)) {
			/* A run of them at once: most text is nothing else. */
			for (n = i + 1; n < len && (s[n] == '\t' || (s[n] >= 0x20 && s[n] < 0x7f));
			     n++)
				;
			buf_add(&b, s + i, n - i);
			i = n;
		} else if (c == SANITIZE_ESC) {
			i = sanitize_skip_escape(s, len, i);
		} else if (c < 0x80) {
			i++;
		} else {
			n = sanitize_decode(s + i, len - i, &cp);
			if (cp < 0) {
				buf_add(&b, "\xef\xbf\xbd", 3);
			} else if (cp == 0x9b) {
				n = sanitize_skip_csi(s, len, i + n) - i;
			} else if (cp == 0x90 || cp == 0x98 || cp == 0x9d || cp == 0x9e ||
			           cp == 0x9f) {
				n = sanitize_skip_string(s, len, i + n) - i;
			} else if (cp == 0x85 || cp == 0x2028 || cp == 0x2029) {
				buf_addc(&b, '\n');
				line = b.len;
			} else if (cp < 0xa0 || sanitize_invisible(cp)) {
				/* C1 controls and invisible format characters. */
			} else {
				buf_add(&b, s + i, n);
			}
			i += n;
		}
	}
	return buf_steal(&b);
}

void
sanitize_write(FILE *f, const char *raw, size_t len)
{
	char *clean = sanitize_text(raw, len);

	fputs(clean, f);
	free(clean);
}

void
sanitize_fprintf(FILE *f, const char *fmt, ...)
{
	va_list ap;
	char *raw;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&raw, fmt, ap);
	va_end(ap);
	if (n < 0)
		fatal("%s", _("out of memory"));
	sanitize_write(f, raw, (size_t)n);
	free(raw);
}

bool
sanitize_shell_escapes(const char *word)
{
	const unsigned char *s = (const unsigned char *)word;
	size_t len = strlen(word), i = 0, n;
	int32_t cp;

	while (i < len) {
		n = sanitize_decode(s + i, len - i, &cp);
		if (cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp < 0xa0) ||
		    sanitize_invisible(cp) || cp == 0x2028 || cp == 0x2029)
			return true;
		i += n;
	}
	return false;
}

char *
sanitize_shell_ansi(const char *word)
{
	const unsigned char *s = (const unsigned char *)word;
	size_t len = strlen(word), i = 0, n, k;
	struct buf b;
	int32_t cp;

	buf_init(&b);
	buf_adds(&b, "$'");
	while (i < len) {
		n = sanitize_decode(s + i, len - i, &cp);
		if (cp == '\\' || cp == '\'') {
			buf_addc(&b, '\\');
			buf_addc(&b, (char)cp);
		} else if (cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp < 0xa0) ||
		           sanitize_invisible(cp) || cp == 0x2028 || cp == 0x2029) {
			for (k = 0; k < n; k++)
				buf_printf(&b, "\\x%02x", s[i + k]);
		} else {
			buf_add(&b, s + i, n);
		}
		i += n;
	}
	buf_addc(&b, '\'');
	return buf_steal(&b);
}

char *
sanitize_shell_quote(const char *s)
{
	struct buf b;
	const char *p;
	int safe = *s != '\0';

	for (p = s; *p != '\0'; p++) {
		if (!strchr(
		        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+@%",
		        *p))
			safe = 0;
	}
	if (safe)
		return xstrdup(s);
	/* Bytes no display shows as they are (a name that is not UTF-8):
	 * spelled as escapes, so the line pasted selects them. */
	if (sanitize_shell_escapes(s))
		return sanitize_shell_ansi(s);
	buf_init(&b);
	buf_addc(&b, '\'');
	for (p = s; *p != '\0'; p++) {
		if (*p == '\'')
			buf_adds(&b, "'\\''");
		else
			buf_addc(&b, *p);
	}
	buf_addc(&b, '\'');
	return buf_steal(&b);
}
