/* SPDX-License-Identifier: MIT */
/*
 * markdown.c: Markdown that nothing from outside can break (see
 * markdown.h): clean lines and names, UTF-8-safe cuts, code spans and
 * fences longer than any backtick run inside, and the heading checks on
 * text a person wrote. It knows nothing about tests or GitHub.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "github/markdown.h"
#include "base/sanitize.h"
#include "base/util.h"

/* The longest name from a results file shown (bytes). */
#define MARKDOWN_NAME_MAX 1000

/* Splits text at '\n' (a '\r' before it dropped) into new lines. */
char **
markdown_split_lines(const char *text, size_t *n)
{
	char **v = NULL;
	size_t count = 0;
	const char *p = text;

	while (*p != '\0') {
		const char *nl = strchr(p, '\n');
		size_t len = nl != NULL ? (size_t)(nl - p) : strlen(p);
		size_t keep = len;

		if (keep > 0 && p[keep - 1] == '\r')
			keep--;
		v = xrealloc(v, sizeof *v * (count + 1));
		v[count++] = xstrndup(p, keep);
		p += len + (nl != NULL);
	}
	*n = count;
	return v;
}

void
markdown_free_lines(char **v, size_t n)
{
	size_t i;

	for (i = 0; v != NULL && i < n; i++)
		free(v[i]);
	free(v);
}

/* One line from outside, safe to show: no control sequences, valid UTF-8,
 * tabs kept only when keep_tabs. */
char *
markdown_clean_line(const char *s, size_t n, bool keep_tabs)
{
	char *c = sanitize_text(s, n), *p;

	if (c == NULL)
		return xstrdup("");
	for (p = c; *p != '\0'; p++) {
		if (*p == '\n' || *p == '\r' || (*p == '\t' && !keep_tabs) ||
		    ((unsigned char)*p < 0x20 && *p != '\t'))
			*p = ' ';
	}
	return c;
}

/* Cuts s to at most max bytes, never inside a UTF-8 character. */
void
markdown_cut_utf8(char *s, size_t max)
{
	size_t n = strlen(s);

	if (n <= max)
		return;
	n = max;
	while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
		n--;
	s[n] = '\0';
}

/* A name from the results file: one clean line of bounded length. */
char *
markdown_clean_name(const char *s)
{
	char *c = markdown_clean_line(s, strlen(s), false);

	markdown_cut_utf8(c, MARKDOWN_NAME_MAX);
	return c;
}

/* Multi-line text a person wrote: clean lines, no trailing spaces at the
 * end, no blank lines around it. */
char *
markdown_clean_text(const char *text)
{
	size_t n, i, first = 0, last;
	char **lines = markdown_split_lines(text, &n);
	struct buf b;

	buf_init(&b);
	while (first < n && strspn(lines[first], " \t") == strlen(lines[first]))
		first++;
	last = n;
	while (last > first && strspn(lines[last - 1], " \t") == strlen(lines[last - 1]))
		last--;
	for (i = first; i < last; i++) {
		char *c = markdown_clean_line(lines[i], strlen(lines[i]), true);
		size_t len = strlen(c);

		while (len > 0 && (c[len - 1] == ' ' || c[len - 1] == '\t'))
			len--;
		buf_add(&b, c, len);
		buf_addc(&b, '\n');
		free(c);
	}
	markdown_free_lines(lines, n);
	return buf_steal(&b);
}

static size_t
markdown_longest_run(const char *s, char ch)
{
	size_t best = 0, cur = 0;

	for (; *s != '\0'; s++) {
		cur = *s == ch ? cur + 1 : 0;
		if (cur > best)
			best = cur;
	}
	return best;
}

static void
markdown_add_repeat(struct buf *b, char ch, size_t n)
{
	while (n-- > 0)
		buf_addc(b, ch);
}

/* An inline code span that nothing inside can close. */
void
markdown_code(struct buf *b, const char *s)
{
	size_t ticks = markdown_longest_run(s, '`') + 1, len = strlen(s);
	bool pad =
	    len > 0 && (s[0] == '`' || s[len - 1] == '`' || s[0] == ' ' || s[len - 1] == ' ');

	if (len == 0) {
		buf_adds(b, "` `");
		return;
	}
	markdown_add_repeat(b, '`', ticks);
	if (pad)
		buf_addc(b, ' ');
	buf_adds(b, s);
	if (pad)
		buf_addc(b, ' ');
	markdown_add_repeat(b, '`', ticks);
}

/* A fenced block whose fence is longer than any backtick run inside, so
 * nothing in text can end it and nothing in it renders as Markdown. */
void
markdown_fence(struct buf *b, const char *info, const char *text)
{
	size_t ticks = markdown_longest_run(text, '`') + 1, len = strlen(text);

	if (ticks < 3)
		ticks = 3;
	markdown_add_repeat(b, '`', ticks);
	buf_adds(b, info);
	buf_addc(b, '\n');
	buf_adds(b, text);
	if (len == 0 || text[len - 1] != '\n')
		buf_addc(b, '\n');
	markdown_add_repeat(b, '`', ticks);
	buf_addc(b, '\n');
}

/* A URL path, each byte outside the unreserved set percent-encoded. */
void
markdown_url_path(struct buf *b, const char *path)
{
	const unsigned char *p;

	for (p = (const unsigned char *)path; *p != '\0'; p++) {
		if (isalnum(*p) || strchr("-._~/", *p) != NULL)
			buf_addc(b, (char)*p);
		else
			buf_printf(b, "%%%02X", *p);
	}
}

static bool
markdown_is_fence_line(const char *line, char *ch, size_t *len)
{
	size_t indent = strspn(line, " "), n;

	if (indent > 3 || (line[indent] != '`' && line[indent] != '~'))
		return false;
	n = strspn(line + indent, line[indent] == '`' ? "`" : "~");
	if (n < 3)
		return false;
	*ch = line[indent];
	*len = n;
	return true;
}

static bool
markdown_is_blank(const char *line)
{
	return strspn(line, " \t") == strlen(line);
}

static bool
markdown_is_atx_heading(const char *line)
{
	size_t indent = strspn(line, " "), n;

	if (indent > 3)
		return false;
	n = strspn(line + indent, "#");
	return n >= 1 && n <= 6 &&
	       (line[indent + n] == '\0' || line[indent + n] == ' ' || line[indent + n] == '\t');
}

static bool
markdown_is_setext_underline(const char *line)
{
	size_t indent = strspn(line, " "), n;

	if (indent > 3 || (line[indent] != '=' && line[indent] != '-'))
		return false;
	n = strspn(line + indent, line[indent] == '=' ? "=" : "-");
	return markdown_is_blank(line + indent + n);
}

static bool
markdown_is_html_heading(const char *line)
{
	const char *p;

	for (p = line; (p = strchr(p, '<')) != NULL; p++) {
		if ((p[1] == 'h' || p[1] == 'H') && p[2] >= '1' && p[2] <= '6' &&
		    (p[3] == '>' || p[3] == ' '))
			return true;
	}
	return false;
}

int
markdown_check_text(const char *text, const char *what, char **err)
{
	size_t n, i, fence_len = 0, fence_line = 0;
	char **lines, fence_ch = 0;
	struct buf outside;
	int rc = 0;

	*err = NULL;
	if (text == NULL || strspn(text, " \t\r\n") == strlen(text)) {
		*err = xasprintf(_("the %s text is empty"), what);
		return -EINVAL;
	}
	lines = markdown_split_lines(text, &n);
	buf_init(&outside);
	for (i = 0; i < n; i++) {
		const char *l = lines[i];
		char ch;
		size_t len;

		if (fence_len > 0) {
			if (markdown_is_fence_line(l, &ch, &len) && ch == fence_ch &&
			    len >= fence_len && markdown_is_blank(l + strspn(l, " ") + len))
				fence_len = 0;
			continue;
		}
		if (markdown_is_fence_line(l, &ch, &len)) {
			fence_ch = ch;
			fence_len = len;
			fence_line = i + 1;
			continue;
		}
		buf_adds(&outside, l);
		buf_addc(&outside, '\n');
		if (markdown_is_atx_heading(l) || markdown_is_html_heading(l) ||
		    (i > 0 && markdown_is_setext_underline(l) && !markdown_is_blank(lines[i - 1]) &&
		     !markdown_is_fence_line(lines[i - 1], &ch, &len))) {
			*err = xasprintf(
			    _("the %s text has a Markdown heading on line %zu: the report's "
			      "sections are fixed, so write it without headings"),
			    what, i + 1);
			rc = -EINVAL;
			break;
		}
	}
	/* What is left open would swallow the rest of the report. */
	if (rc == 0 && fence_len > 0) {
		*err =
		    xasprintf(_("the %s text opens a code block on line %zu and never closes it"),
		              what, fence_line);
		rc = -EINVAL;
	}
	if (rc == 0 && outside.data != NULL) {
		const char *open = outside.data, *p;

		while ((p = strstr(open, "<!--")) != NULL) {
			const char *close = strstr(p + 4, "-->");

			if (close == NULL) {
				*err = xasprintf(
				    _("the %s text opens an HTML comment (<!--) and never "
				      "closes it"),
				    what);
				rc = -EINVAL;
				break;
			}
			open = close + 3;
		}
	}
	buf_free(&outside);
	markdown_free_lines(lines, n);
	return rc;
}
