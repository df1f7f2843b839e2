/* SPDX-License-Identifier: MIT */
/*
 * json.c: checks JSON text the way RFC 8259 reads it and says where it
 * goes wrong, for every reader of a JSON file (journal, results, ledger,
 * quarantine, decisions). cJSON parses; this only finds the line, the
 * column and what was expected, and refuses what cJSON lets through:
 * invalid UTF-8 and raw control characters (NUL included) in strings.
 * json_parse hands cJSON the text with its byte escapes (\\udc80 to
 * \\udcff, what jsonw writes for a byte that is not UTF-8) made bytes.
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "base/json.h"
#include "base/util.h"

/* A low surrogate that stands for the byte 0x80 to 0xff of its low 8 bits
 * (Python's "surrogateescape", PEP 383). */
#define JSON_BYTE_ESCAPE(cp) ((cp) >= 0xDC80 && (cp) <= 0xDCFF)

struct json_scan {
	const unsigned char *s;
	size_t n, i;
	const char *why; /* what was expected, set where the scan stops */
};

/* Length of the valid UTF-8 character at s (n > 0 bytes), or 0 when it is
 * not one: overlong forms, surrogates and code points past U+10FFFF are
 * refused (RFC 3629). */
static size_t
json_utf8_char(const unsigned char *s, size_t n)
{
	size_t len, k;
	uint32_t cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xC2 && s[0] <= 0xDF)
		len = 2, cp = s[0] & 0x1F;
	else if (s[0] >= 0xE0 && s[0] <= 0xEF)
		len = 3, cp = s[0] & 0x0F;
	else if (s[0] >= 0xF0 && s[0] <= 0xF4)
		len = 4, cp = s[0] & 0x07;
	else
		return 0;
	if (n < len)
		return 0;
	for (k = 1; k < len; k++) {
		if ((s[k] & 0xC0) != 0x80)
			return 0;
		cp = cp << 6 | (s[k] & 0x3F);
	}
	if ((len == 3 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) ||
	    (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)))
		return 0;
	return len;
}

size_t
json_utf8_len(const char *s, size_t n)
{
	return n > 0 ? json_utf8_char((const unsigned char *)s, n) : 0;
}

bool
json_utf8_valid(const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, k;

	while (i < n) {
		k = json_utf8_char(u + i, n - i);
		if (k == 0)
			return false;
		i += k;
	}
	return true;
}

static void
json_scan_ws(struct json_scan *sc)
{
	while (sc->i < sc->n && strchr(" \t\r\n", sc->s[sc->i]) != NULL && sc->s[sc->i] != '\0')
		sc->i++;
}

static bool
json_scan_fail(struct json_scan *sc, const char *why)
{
	sc->why = why;
	return false;
}

/* The 4 hex digits of a \\u escape at sc->i + 1 into *cp. */
static bool
json_scan_hex4(struct json_scan *sc, uint32_t *cp)
{
	int h;

	*cp = 0;
	for (h = 0; h < 4; h++) {
		unsigned char d;

		if (++sc->i >= sc->n)
			return json_scan_fail(sc, _("the text ends inside a string (expected a "
			                            "closing \")"));
		d = sc->s[sc->i];
		if (d >= '0' && d <= '9')
			*cp = *cp << 4 | (uint32_t)(d - '0');
		else if ((d | 0x20) >= 'a' && (d | 0x20) <= 'f')
			*cp = *cp << 4 | (uint32_t)((d | 0x20) - 'a' + 10);
		else
			return json_scan_fail(sc, _("expected 4 hexadecimal digits after \\u"));
	}
	sc->i++;
	return true;
}

/* A \\u escape, sc->i at the u: a character, a surrogate pair, or a byte
 * escape (\\udc80 to \\udcff, which json_parse reads as the byte). NUL
 * and other lone surrogates are refused: no reader can keep them in a C
 * string or in UTF-8 (cJSON cuts at the one and refuses the other). */
static bool
json_scan_escape(struct json_scan *sc)
{
	size_t at = sc->i - 1;
	uint32_t cp, low;

	if (!json_scan_hex4(sc, &cp))
		return false;
	if (cp == 0) {
		sc->i = at;
		return json_scan_fail(sc, _("a NUL character (\\u0000) inside a string"));
	}
	if (JSON_BYTE_ESCAPE(cp))
		return true;
	if (cp >= 0xDC00 && cp <= 0xDFFF) {
		sc->i = at;
		return json_scan_fail(sc, _("a lone surrogate escape (not a character)"));
	}
	if (cp < 0xD800 || cp > 0xDBFF)
		return true;
	if (sc->n - sc->i < 2 || sc->s[sc->i] != '\\' || sc->s[sc->i + 1] != 'u') {
		sc->i = at;
		return json_scan_fail(sc, _("a lone surrogate escape (not a character)"));
	}
	sc->i++;
	if (!json_scan_hex4(sc, &low))
		return false;
	if (low < 0xDC00 || low > 0xDFFF) {
		sc->i = at;
		return json_scan_fail(sc, _("a lone surrogate escape (not a character)"));
	}
	return true;
}

static bool
json_scan_string(struct json_scan *sc)
{
	sc->i++; /* the opening quote */
	while (sc->i < sc->n) {
		unsigned char c = sc->s[sc->i];
		size_t k;

		if (c == '"') {
			sc->i++;
			return true;
		}
		if (c < 0x20)
			return json_scan_fail(sc, c == 0 ? _("a NUL byte inside a string")
			                                 : _("a control character inside a string "
			                                     "(write it as \\uXXXX)"));
		if (c == '\\') {
			if (++sc->i >= sc->n)
				break;
			if (strchr("\"\\/bfnrt", sc->s[sc->i]) != NULL && sc->s[sc->i] != '\0') {
				sc->i++;
				continue;
			}
			if (sc->s[sc->i] != 'u')
				return json_scan_fail(sc,
				                      _("expected an escape such as \\n, \\\" or "
				                        "\\u0041 after a backslash"));
			if (!json_scan_escape(sc))
				return false;
			continue;
		}
		k = json_utf8_char(sc->s + sc->i, sc->n - sc->i);
		if (k == 0)
			return json_scan_fail(sc, _("not valid UTF-8"));
		sc->i += k;
	}
	sc->i = sc->n;
	return json_scan_fail(sc, _("the text ends inside a string (expected a closing \")"));
}

static bool
json_scan_digits(struct json_scan *sc)
{
	size_t start = sc->i;

	while (sc->i < sc->n && sc->s[sc->i] >= '0' && sc->s[sc->i] <= '9')
		sc->i++;
	return sc->i > start || json_scan_fail(sc, _("expected a digit"));
}

static bool
json_scan_number(struct json_scan *sc)
{
	if (sc->s[sc->i] == '-')
		sc->i++;
	if (sc->i < sc->n && sc->s[sc->i] == '0')
		sc->i++;
	else if (!json_scan_digits(sc))
		return false;
	if (sc->i < sc->n && sc->s[sc->i] == '.') {
		sc->i++;
		if (!json_scan_digits(sc))
			return false;
	}
	if (sc->i < sc->n && (sc->s[sc->i] == 'e' || sc->s[sc->i] == 'E')) {
		sc->i++;
		if (sc->i < sc->n && (sc->s[sc->i] == '+' || sc->s[sc->i] == '-'))
			sc->i++;
		if (!json_scan_digits(sc))
			return false;
	}
	return true;
}

static bool json_scan_value(struct json_scan *sc, int depth);

static bool
json_scan_container(struct json_scan *sc, int depth)
{
	bool object = sc->s[sc->i] == '{';
	char close = object ? '}' : ']';

	if (depth > CJSON_NESTING_LIMIT)
		return json_scan_fail(sc, _("nested too deeply"));
	sc->i++;
	json_scan_ws(sc);
	if (sc->i < sc->n && sc->s[sc->i] == close) {
		sc->i++;
		return true;
	}
	for (;;) {
		if (object) {
			if (sc->i >= sc->n || sc->s[sc->i] != '"')
				return json_scan_fail(sc, _("expected a member name in double "
				                            "quotes"));
			if (!json_scan_string(sc))
				return false;
			json_scan_ws(sc);
			if (sc->i >= sc->n || sc->s[sc->i] != ':')
				return json_scan_fail(sc, _("expected ':' after the member name"));
			sc->i++;
		}
		if (!json_scan_value(sc, depth + 1))
			return false;
		json_scan_ws(sc);
		if (sc->i < sc->n && sc->s[sc->i] == close) {
			sc->i++;
			return true;
		}
		if (sc->i >= sc->n || sc->s[sc->i] != ',')
			return json_scan_fail(sc, object ? _("expected ',' or '}'")
			                                 : _("expected ',' or ']'"));
		sc->i++;
		json_scan_ws(sc);
	}
}

static bool
json_scan_value(struct json_scan *sc, int depth)
{
	static const char *const words[] = {"true", "false", "null"};
	size_t k;

	json_scan_ws(sc);
	if (sc->i >= sc->n)
		return json_scan_fail(sc, _("the text ends where a value was expected"));
	switch (sc->s[sc->i]) {
	case '"':
		return json_scan_string(sc);
	case '{':
	case '[':
		return json_scan_container(sc, depth);
	default:
		break;
	}
	if (sc->s[sc->i] == '-' || (sc->s[sc->i] >= '0' && sc->s[sc->i] <= '9'))
		return json_scan_number(sc);
	for (k = 0; k < UTIL_ARRAY_LEN(words); k++) {
		size_t len = strlen(words[k]);

		if (sc->n - sc->i >= len && memcmp(sc->s + sc->i, words[k], len) == 0) {
			sc->i += len;
			return true;
		}
	}
	return json_scan_fail(sc, _("expected a value (an object, array, string, number, true, "
	                            "false or null)"));
}

int
json_check(const char *text, size_t len, size_t *off, const char **why)
{
	struct json_scan sc = {(const unsigned char *)text, len, 0, NULL};

	/* A byte order mark is tolerated, as cJSON's callers skip it. */
	if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0)
		sc.i = 3;
	if (json_scan_value(&sc, 1)) {
		json_scan_ws(&sc);
		if (sc.i == len)
			return 0;
		sc.why = _("expected the end of the text after the value");
	}
	*off = sc.i;
	*why = sc.why;
	return -EINVAL;
}

void
json_pos(const char *text, size_t len, size_t off, int *line, int *col)
{
	size_t i, start = 0;

	*line = 1;
	if (off > len)
		off = len;
	for (i = 0; i < off; i++) {
		if (text[i] == '\n') {
			(*line)++;
			start = i + 1;
		}
	}
	/* Columns count characters, not bytes, as editors show them. */
	*col = 1;
	for (i = start; i < off; i++)
		*col += ((unsigned char)text[i] & 0xC0) != 0x80;
}

const char *
json_why(const char *text, size_t len, const char *errptr, size_t *off)
{
	const char *why = NULL;

	if (json_check(text, len, off, &why) == 0) {
		/* The text is valid JSON that cJSON still refused (out of its
		 * limits): the best place to point at is where it stopped. */
		*off = errptr != NULL && errptr >= text && errptr <= text + len
		           ? (size_t)(errptr - text)
		           : 0;
		why = _("beyond what this reader takes");
	}
	return why;
}

char *
json_error(const char *text, size_t len, const char *errptr)
{
	size_t off = 0;
	const char *why = json_why(text, len, errptr, &off);
	int line, col;

	json_pos(text, len, off, &line, &col);
	return xasprintf(_("%d:%d: invalid JSON (%s)"), line, col, why);
}

/* The code unit of the \\u escape at s (n bytes), or -1 when s is not one. */
static long
json_unit(const char *s, size_t n)
{
	long cp = 0;
	size_t k;

	if (n < 6 || s[0] != '\\' || s[1] != 'u')
		return -1;
	for (k = 2; k < 6; k++) {
		int d = (unsigned char)s[k];

		if (d >= '0' && d <= '9')
			cp = cp << 4 | (d - '0');
		else if ((d | 0x20) >= 'a' && (d | 0x20) <= 'f')
			cp = cp << 4 | ((d | 0x20) - 'a' + 10);
		else
			return -1;
	}
	return cp;
}

/* Copies text (n bytes) to out, each byte escape inside a string as its
 * byte, and returns the length written. With stop, it stops once *stop
 * bytes are written and sets *stop to the offset in text reached. */
static size_t
json_unescape(const char *text, size_t n, char *out, size_t *stop)
{
	size_t i = 0, o = 0, k;
	bool str = false;

	while (i < n && (stop == NULL || o < *stop)) {
		long cp = str ? json_unit(text + i, n - i) : -1;

		if (JSON_BYTE_ESCAPE(cp)) {
			out[o++] = (char)(cp & 0xFF);
			i += 6;
			continue;
		}
		k = 1;
		if (cp >= 0xD800 && cp <= 0xDBFF && json_unit(text + i + 6, n - i - 6) >= 0)
			k = 12; /* a pair: its low half is not a byte escape */
		else if (str && text[i] == '\\')
			k = n - i < 2 ? 1 : 2;
		else if (text[i] == '"')
			str = !str;
		memcpy(out + o, text + i, k);
		i += k;
		o += k;
	}
	if (stop != NULL)
		*stop = i;
	return o;
}

/* True when text (n bytes) has a \\udc escape, upper or lower case. */
static bool
json_has_byte_escape(const char *text, size_t n)
{
	const char *p = text, *end = text + n;

	while ((p = memchr(p, '\\', (size_t)(end - p))) != NULL) {
		if (end - p >= 4 && p[1] == 'u' && (p[2] | 0x20) == 'd' && (p[3] | 0x20) == 'c')
			return true;
		p += end - p >= 2 ? 2 : 1;
	}
	return false;
}

cJSON *
json_parse(const char *text, size_t len, const char **end, bool nul_end)
{
	const char *stopped = NULL;
	size_t at;
	char *plain;
	cJSON *root;

	if (!json_has_byte_escape(text, len))
		return cJSON_ParseWithLengthOpts(text, len, end, nul_end);
	plain = xmalloc(len + 1);
	root = cJSON_ParseWithLengthOpts(plain, json_unescape(text, len, plain, NULL), &stopped,
	                                 nul_end);
	if (end != NULL) {
		/* Where cJSON stopped, back in text. */
		at = stopped != NULL ? (size_t)(stopped - plain) : 0;
		json_unescape(text, len, plain, &at);
		*end = text + at;
	}
	free(plain);
	return root;
}
