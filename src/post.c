/* SPDX-License-Identifier: MIT */
/*
 * post.c: the bug report of one flaky test (DESIGN section 9): reads
 * results.json, refuses what must not be posted, renders the fixed
 * template, and drives the GitHub calls that find an earlier report and
 * create the discussion. It never posts for a test that is not flaky,
 * never posts twice, and puts nothing from test output outside a code
 * block. HTTP is github.c's business; this file never touches a socket.
 */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "decisions.h"
#include "github.h"
#include "post.h"
#include "results.h"
#include "sanitize.h"
#include "util.h"

#define POST_RESULTS_MAX ((size_t)1 << 30)
#define POST_SOURCE_MAX ((size_t)4 << 20)
#define POST_TITLE_MAX 250
#define POST_NAME_MAX 1000
/* The first failure is cut to this many bytes even when the post has room:
 * its head says what failed and its tail how; a reader wants no more. */
#define POST_EXCERPT_MAX 24000
/* Below this many bytes for the first failure, the text is what is too long. */
#define POST_EXCERPT_MIN 2000
#define POST_SEARCH_PHRASE_MAX 120
#define POST_DEFAULT_CATEGORY "Bugs"
#define POST_DEFAULT_CREATES 3

/* One (cpu, load) pair, sweep and confirm cells summed. */
struct post_pair {
	int cpu, load;
	int64_t runs, failures, hangs;
};

struct post_draft {
	char *test_id;    /* exactly as in results.json: the key of decisions.json */
	char *test_shown; /* the same, safe to print */
	char *package, *test, *level;
	char *driver, *toolchain, *commit;
	int cores, keep, nlanes, lane_width;
	struct post_pair *pairs;
	size_t npairs;
	int64_t runs[2], failures[2], hangs[2]; /* [0] sweep, [1] confirm */
	bool has_first;
	char *ff_phase, *ff_seed, *ff_log;
	int ff_cpu, ff_load;
	char **ff_lines; /* sanitised */
	size_t ff_nlines;
	char *repro_flakesweep, *repro_direct;
	char *description, *notes;
	char *repo;     /* where it is posted, or NULL */
	char *src_repo; /* where the source is, for links, or NULL */
	char *web_base;
	char *source_path; /* relative to the repository's top, or NULL */
	int source_line;   /* 0: source_path is the package's directory */
	char *closed_url;
	char hash[17];
	char *marker;
	char *decisions_path;
	char *title, *body;
};

void
post_test_hash(const char *id, char *out)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	const unsigned char *p;

	for (p = (const unsigned char *)id; *p != '\0'; p++) {
		h ^= *p;
		h *= 0x100000001b3ULL;
	}
	snprintf(out, 17, "%016llx", (unsigned long long)h);
}

/* ---- Text helpers ---- */

/* Splits text at '\n' (a '\r' before it dropped) into new lines. */
static char **
split_lines(const char *text, size_t *n)
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

static void
free_lines(char **v, size_t n)
{
	size_t i;

	for (i = 0; v != NULL && i < n; i++)
		free(v[i]);
	free(v);
}

/* One line from outside, safe to show: no control sequences, valid UTF-8,
 * tabs kept only when keep_tabs. */
static char *
clean_line(const char *s, size_t n, bool keep_tabs)
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
static void
cut_utf8(char *s, size_t max)
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
static char *
clean_name(const char *s)
{
	char *c = clean_line(s, strlen(s), false);

	cut_utf8(c, POST_NAME_MAX);
	return c;
}

/* Multi-line text a person wrote: clean lines, no trailing spaces at the
 * end, no blank lines around it. */
static char *
clean_text(const char *text)
{
	size_t n, i, first = 0, last;
	char **lines = split_lines(text, &n);
	struct buf b;

	buf_init(&b);
	while (first < n && strspn(lines[first], " \t") == strlen(lines[first]))
		first++;
	last = n;
	while (last > first && strspn(lines[last - 1], " \t") == strlen(lines[last - 1]))
		last--;
	for (i = first; i < last; i++) {
		char *c = clean_line(lines[i], strlen(lines[i]), true);
		size_t len = strlen(c);

		while (len > 0 && (c[len - 1] == ' ' || c[len - 1] == '\t'))
			len--;
		buf_add(&b, c, len);
		buf_addc(&b, '\n');
		free(c);
	}
	free_lines(lines, n);
	return buf_steal(&b);
}

static size_t
longest_run(const char *s, char ch)
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
add_repeat(struct buf *b, char ch, size_t n)
{
	while (n-- > 0)
		buf_addc(b, ch);
}

/* An inline code span that nothing inside can close. */
static void
md_code(struct buf *b, const char *s)
{
	size_t ticks = longest_run(s, '`') + 1, len = strlen(s);
	bool pad =
	    len > 0 && (s[0] == '`' || s[len - 1] == '`' || s[0] == ' ' || s[len - 1] == ' ');

	if (len == 0) {
		buf_adds(b, "` `");
		return;
	}
	add_repeat(b, '`', ticks);
	if (pad)
		buf_addc(b, ' ');
	buf_adds(b, s);
	if (pad)
		buf_addc(b, ' ');
	add_repeat(b, '`', ticks);
}

/* A fenced block whose fence is longer than any backtick run inside, so
 * nothing in text can end it and nothing in it renders as Markdown. */
static void
md_fence(struct buf *b, const char *info, const char *text)
{
	size_t ticks = longest_run(text, '`') + 1, len = strlen(text);

	if (ticks < 3)
		ticks = 3;
	add_repeat(b, '`', ticks);
	buf_adds(b, info);
	buf_addc(b, '\n');
	buf_adds(b, text);
	if (len == 0 || text[len - 1] != '\n')
		buf_addc(b, '\n');
	add_repeat(b, '`', ticks);
	buf_addc(b, '\n');
}

/* A URL path, each byte outside the unreserved set percent-encoded. */
static void
url_path(struct buf *b, const char *path)
{
	const unsigned char *p;

	for (p = (const unsigned char *)path; *p != '\0'; p++) {
		if (isalnum(*p) || strchr("-._~/", *p) != NULL)
			buf_addc(b, (char)*p);
		else
			buf_printf(b, "%%%02X", *p);
	}
}

/* A percentage with two significant digits, locale-free: "0.12", "1.5",
 * "12". Caller frees. */
static char *
fmt_pct(double pct)
{
	long long v, scale = 1;
	int k = 0, i;

	if (pct <= 0)
		return xstrdup("0");
	if (pct >= 10)
		return xasprintf("%lld", (long long)(pct + 0.5));
	while (pct * pow(10, k) < 10 && k < 6)
		k++;
	v = (long long)(pct * pow(10, k) + 0.5);
	if (v >= 100 && k > 0) {
		v = (v + 5) / 10;
		k--;
	}
	if (k == 0)
		return xasprintf("%lld", v);
	for (i = 0; i < k; i++)
		scale *= 10;
	return xasprintf("%lld.%0*lld", v / scale, k, v % scale);
}

/* ---- Checks on what a person wrote ---- */

static bool
is_fence_line(const char *line, char *ch, size_t *len)
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
is_blank(const char *line)
{
	return strspn(line, " \t") == strlen(line);
}

static bool
is_atx_heading(const char *line)
{
	size_t indent = strspn(line, " "), n;

	if (indent > 3)
		return false;
	n = strspn(line + indent, "#");
	return n >= 1 && n <= 6 &&
	       (line[indent + n] == '\0' || line[indent + n] == ' ' || line[indent + n] == '\t');
}

static bool
is_setext_underline(const char *line)
{
	size_t indent = strspn(line, " "), n;

	if (indent > 3 || (line[indent] != '=' && line[indent] != '-'))
		return false;
	n = strspn(line + indent, line[indent] == '=' ? "=" : "-");
	return is_blank(line + indent + n);
}

static bool
is_html_heading(const char *line)
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
post_check_text(const char *text, const char *what, char **err)
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
	lines = split_lines(text, &n);
	buf_init(&outside);
	for (i = 0; i < n; i++) {
		const char *l = lines[i];
		char ch;
		size_t len;

		if (fence_len > 0) {
			if (is_fence_line(l, &ch, &len) && ch == fence_ch && len >= fence_len &&
			    is_blank(l + strspn(l, " ") + len))
				fence_len = 0;
			continue;
		}
		if (is_fence_line(l, &ch, &len)) {
			fence_ch = ch;
			fence_len = len;
			fence_line = i + 1;
			continue;
		}
		buf_adds(&outside, l);
		buf_addc(&outside, '\n');
		if (is_atx_heading(l) || is_html_heading(l) ||
		    (i > 0 && is_setext_underline(l) && !is_blank(lines[i - 1]) &&
		     !is_fence_line(lines[i - 1], &ch, &len))) {
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
	free_lines(lines, n);
	return rc;
}

/* Cells as results.json must hold them: an array of objects whose counts
 * are whole numbers with 0 <= failures + hangs <= runs. */
static bool
cells_valid(const cJSON *cells)
{
	const cJSON *c;

	if (!cJSON_IsArray(cells))
		return false;
	cJSON_ArrayForEach(c, cells)
	{
		const cJSON *r = cJSON_GetObjectItemCaseSensitive(c, "runs");
		const cJSON *f = cJSON_GetObjectItemCaseSensitive(c, "failures");
		const cJSON *h = cJSON_GetObjectItemCaseSensitive(c, "hangs");

		if (!cJSON_IsObject(c) || !cJSON_IsNumber(r) || !cJSON_IsNumber(f) ||
		    !cJSON_IsNumber(h) || r->valuedouble < 0 || f->valuedouble < 0 ||
		    h->valuedouble < 0 || f->valuedouble + h->valuedouble > r->valuedouble ||
		    r->valuedouble > 9e15)
			return false;
	}
	return true;
}

/* ---- Repositories ---- */

static bool
valid_owner(const char *s, size_t n)
{
	size_t i;

	if (n == 0 || n > 39)
		return false;
	for (i = 0; i < n; i++) {
		if (!isalnum((unsigned char)s[i]) && s[i] != '-')
			return false;
	}
	return true;
}

static bool
valid_name(const char *s, size_t n)
{
	size_t i;

	if (n == 0 || n > 100 || (n == 1 && s[0] == '.') || (n == 2 && s[0] == '.' && s[1] == '.'))
		return false;
	for (i = 0; i < n; i++) {
		if (!isalnum((unsigned char)s[i]) && s[i] != '-' && s[i] != '_' && s[i] != '.')
			return false;
	}
	return true;
}

/* Checks "OWNER/NAME" (an optional ".git" and "/" dropped) into a new string. */
static int
parse_owner_name(const char *path, char **repo)
{
	const char *slash = strchr(path, '/');
	size_t nlen;

	if (slash == NULL || !valid_owner(path, (size_t)(slash - path)))
		return -EINVAL;
	nlen = strlen(slash + 1);
	if (nlen > 0 && slash[nlen] == '/')
		nlen--;
	if (nlen > 4 && strncmp(slash + 1 + nlen - 4, ".git", 4) == 0)
		nlen -= 4;
	if (!valid_name(slash + 1, nlen))
		return -EINVAL;
	*repo = xasprintf("%.*s/%.*s", (int)(slash - path), path, (int)nlen, slash + 1);
	return 0;
}

int
post_parse_remote(const char *url, char **repo)
{
	const char *scheme_end = strstr(url, "://"), *host, *path;
	char *h;
	size_t hlen;
	int rc;

	*repo = NULL;
	if (scheme_end != NULL) {
		size_t slen = (size_t)(scheme_end - url);

		if (!((slen == 5 && strncmp(url, "https", 5) == 0) ||
		      (slen == 4 && strncmp(url, "http", 4) == 0) ||
		      (slen == 3 && strncmp(url, "ssh", 3) == 0) ||
		      (slen == 3 && strncmp(url, "git", 3) == 0) ||
		      (slen == 7 && strncmp(url, "git+ssh", 7) == 0)))
			return -EINVAL;
		host = scheme_end + 3;
		path = strchr(host, '/');
		if (path == NULL)
			return -EINVAL;
		hlen = (size_t)(path - host);
		path++;
	} else {
		/* scp-like: [user@]host:OWNER/NAME */
		const char *colon = strchr(url, ':');

		if (colon == NULL || memchr(url, '/', (size_t)(colon - url)) != NULL)
			return -EINVAL;
		host = url;
		hlen = (size_t)(colon - url);
		path = colon + 1;
		if (*path == '/')
			path++;
	}
	h = xstrndup(host, hlen);
	{
		/* Drop user info (never shown) and a port. */
		char *at = strrchr(h, '@'), *start = at != NULL ? at + 1 : h, *port;

		memmove(h, start, strlen(start) + 1);
		port = strchr(h, ':');
		if (port != NULL)
			*port = '\0';
	}
	rc = github_is_github_host(h) ? parse_owner_name(path, repo) : -EINVAL;
	free(h);
	return rc;
}

/* The url of remote "origin" in a git config text, or NULL. */
static char *
git_config_origin(const char *config)
{
	size_t n, i;
	char **lines = split_lines(config, &n), *url = NULL;
	bool in_origin = false;

	for (i = 0; i < n && url == NULL; i++) {
		char *l = lines[i] + strspn(lines[i], " \t");

		if (*l == '[') {
			in_origin = strncmp(l, "[remote \"origin\"]", 17) == 0;
			continue;
		}
		if (in_origin && strncasecmp(l, "url", 3) == 0) {
			char *v = l + 3, *end;

			v += strspn(v, " \t");
			if (*v != '=')
				continue;
			v++;
			v += strspn(v, " \t");
			end = v + strlen(v);
			while (end > v && (end[-1] == ' ' || end[-1] == '\t'))
				end--;
			if (end - v >= 2 && *v == '"' && end[-1] == '"') {
				v++;
				end--;
			}
			url = xstrndup(v, (size_t)(end - v));
		}
	}
	free_lines(lines, n);
	return url;
}

/* Reads a file of the project or its git checkout, only if it is a regular
 * file: a FIFO or a device planted there must not block the report (the
 * open does not wait for a writer; fstat checks what was opened). */
static int
project_read(const char *path, size_t max, char **text)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC), rc = -EINVAL;
	struct stat st;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode))
		rc = util_read_fd(fd, max, text, NULL);
	close(fd);
	return rc;
}

/* Finds the git checkout holding dir: its top directory and origin URL
 * (either may come back NULL). Reads .git/config by hand, so no git
 * process runs; a worktree's .git file and commondir are followed. */
static void
git_find(const char *dir, char **top, char **origin)
{
	char *d = realpath(dir, NULL);

	*top = NULL;
	*origin = NULL;
	while (d != NULL) {
		char *dotgit = xasprintf("%s/.git", d), *gitdir = NULL, *text = NULL;
		struct stat st;

		if (stat(dotgit, &st) == 0) {
			if (S_ISDIR(st.st_mode)) {
				gitdir = xstrdup(dotgit);
			} else if (project_read(dotgit, 4096, &text) == 0 &&
			           strncmp(text, "gitdir:", 7) == 0) {
				char *g = text + 7 + strspn(text + 7, " ");

				g[strcspn(g, "\r\n")] = '\0';
				gitdir = *g == '/' ? xstrdup(g) : xasprintf("%s/%s", d, g);
			}
			free(text);
			text = NULL;
		}
		free(dotgit);
		if (gitdir != NULL) {
			char *common = xasprintf("%s/commondir", gitdir), *cfg;

			if (project_read(common, 4096, &text) == 0) {
				char *c = text;

				c[strcspn(c, "\r\n")] = '\0';
				cfg = *c == '/' ? xasprintf("%s/config", c)
				                : xasprintf("%s/%s/config", gitdir, c);
			} else {
				cfg = xasprintf("%s/config", gitdir);
			}
			free(text);
			text = NULL;
			if (project_read(cfg, 1 << 20, &text) == 0)
				*origin = git_config_origin(text);
			free(text);
			free(cfg);
			free(common);
			free(gitdir);
			*top = d;
			return;
		}
		if (strcmp(d, "/") == 0) {
			free(d);
			return;
		}
		{
			char *slash = strrchr(d, '/');

			if (slash == d)
				slash[1] = '\0';
			else
				*slash = '\0';
		}
	}
}

/* The module path in a go.mod text, or NULL. */
static char *
go_mod_module(const char *text)
{
	size_t n, i;
	char **lines = split_lines(text, &n), *mod = NULL;

	for (i = 0; i < n && mod == NULL; i++) {
		char *l = lines[i] + strspn(lines[i], " \t"), *end;

		if (strncmp(l, "module", 6) != 0 || (l[6] != ' ' && l[6] != '\t'))
			continue;
		l += 6;
		l += strspn(l, " \t");
		if (*l == '"') {
			l++;
			end = strchr(l, '"');
		} else {
			end = l + strcspn(l, " \t/");
			while (*end == '/' && end[1] != '/') {
				end++;
				end += strcspn(end, " \t/");
			}
		}
		if (end != NULL && end > l)
			mod = xstrndup(l, (size_t)(end - l));
	}
	free_lines(lines, n);
	return mod;
}

static int
cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Finds "func TOPLEVEL(" in the package directory's _test.go files (in
 * name order) and returns the file's name and the line, or 0. */
static int
find_test_func(const char *dir, const char *test, char **file)
{
	char *top = xstrndup(test, strcspn(test, "/")), *needle = xasprintf("func %s(", top);
	char **names = NULL;
	size_t count = 0, i;
	int line = 0;
	DIR *d = opendir(dir);
	struct dirent *de;

	*file = NULL;
	while (d != NULL && (de = readdir(d)) != NULL) {
		size_t len = strlen(de->d_name);

		if (len > 8 && strcmp(de->d_name + len - 8, "_test.go") == 0 && count < 10000) {
			names = xrealloc(names, sizeof *names * (count + 1));
			names[count++] = xstrdup(de->d_name);
		}
	}
	if (d != NULL)
		closedir(d);
	if (count > 0)
		qsort(names, count, sizeof *names, cmp_names);
	for (i = 0; i < count && line == 0; i++) {
		char *path = xasprintf("%s/%s", dir, names[i]), *text = NULL;

		if (project_read(path, POST_SOURCE_MAX, &text) == 0) {
			const char *p = text;
			int ln = 1;

			while (*p != '\0') {
				if (strncmp(p, needle, strlen(needle)) == 0) {
					line = ln;
					*file = xstrdup(names[i]);
					break;
				}
				p = strchr(p, '\n');
				if (p == NULL)
					break;
				p++;
				ln++;
			}
		}
		free(text);
		free(path);
	}
	free_lines(names, count);
	free(needle);
	free(top);
	return line;
}

/* Finds the test's source in the project (Go only): sets d->source_path
 * (relative to the checkout's top) and d->source_line. */
static void
locate_source(struct post_draft *d, const char *root, const char *top)
{
	char *gomod = xasprintf("%s/go.mod", root), *text = NULL, *mod = NULL, *dir = NULL;
	char *file = NULL, *real_dir = NULL;
	size_t toplen = strlen(top);
	int line;

	if (d->driver == NULL || strcmp(d->driver, "go") != 0 ||
	    project_read(gomod, 1 << 20, &text) < 0)
		goto out;
	mod = go_mod_module(text);
	if (mod == NULL)
		goto out;
	if (strcmp(d->package, mod) == 0)
		dir = xstrdup(root);
	else if (strncmp(d->package, mod, strlen(mod)) == 0 && d->package[strlen(mod)] == '/' &&
	         strstr(d->package, "..") == NULL)
		dir = xasprintf("%s/%s", root, d->package + strlen(mod) + 1);
	else
		goto out;
	real_dir = realpath(dir, NULL);
	if (real_dir == NULL || strncmp(real_dir, top, toplen) != 0 ||
	    (real_dir[toplen] != '/' && real_dir[toplen] != '\0' && strcmp(top, "/") != 0))
		goto out;
	{
		const char *rel = real_dir + toplen;

		while (*rel == '/')
			rel++;
		line = find_test_func(real_dir, d->test, &file);
		if (line > 0) {
			d->source_path =
			    *rel != '\0' ? xasprintf("%s/%s", rel, file) : xstrdup(file);
			d->source_line = line;
		} else {
			d->source_path = xstrdup(rel);
			d->source_line = 0;
		}
	}
out:
	free(real_dir);
	free(file);
	free(dir);
	free(mod);
	free(text);
	free(gomod);
}

/* ---- Reading results.json ---- */

static const char *
jstr(const cJSON *obj, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);

	return cJSON_IsString(v) ? v->valuestring : NULL;
}

static int64_t
jint(const cJSON *obj, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
	double x = cJSON_IsNumber(v) ? v->valuedouble : 0;

	return x > 0 && x < 9e15 ? (int64_t)x : 0;
}

static char *
jname(const cJSON *obj, const char *key)
{
	const char *s = jstr(obj, key);

	return s != NULL ? clean_name(s) : NULL;
}

static void
add_pair(struct post_draft *d, const cJSON *cell)
{
	int cpu = (int)jint(cell, "cpu"), load = (int)jint(cell, "load");
	const char *phase = jstr(cell, "phase");
	int ph = phase != NULL && strcmp(phase, "confirm") == 0;
	int64_t runs = jint(cell, "runs"), failures = jint(cell, "failures"),
	        hangs = jint(cell, "hangs");
	size_t i;

	d->runs[ph] += runs;
	d->failures[ph] += failures;
	d->hangs[ph] += hangs;
	for (i = 0; i < d->npairs; i++) {
		if (d->pairs[i].cpu == cpu && d->pairs[i].load == load)
			break;
	}
	if (i == d->npairs) {
		d->pairs = xrealloc(d->pairs, sizeof *d->pairs * (d->npairs + 1));
		memset(&d->pairs[i], 0, sizeof d->pairs[i]);
		d->pairs[i].cpu = cpu;
		d->pairs[i].load = load;
		d->npairs++;
	}
	d->pairs[i].runs += runs;
	d->pairs[i].failures += failures;
	d->pairs[i].hangs += hangs;
}

/* A cell where every run failed or hung: the test is failing there. */
static const cJSON *
failing_cell(const cJSON *cells)
{
	const cJSON *c;

	cJSON_ArrayForEach(c, cells)
	{
		int64_t runs = jint(c, "runs");

		if (runs > 0 && jint(c, "failures") + jint(c, "hangs") >= runs)
			return c;
	}
	return NULL;
}

static void
read_first_failure(struct post_draft *d, const cJSON *ff)
{
	const cJSON *lines = cJSON_GetObjectItemCaseSensitive(ff, "lines"), *l, *seed;

	if (!cJSON_IsObject(ff))
		return;
	d->has_first = true;
	d->ff_phase = jname(ff, "phase");
	d->ff_cpu = (int)jint(ff, "cpu");
	d->ff_load = (int)jint(ff, "load");
	d->ff_log = jname(ff, "log");
	seed = cJSON_GetObjectItemCaseSensitive(ff, "seed");
	if (cJSON_IsString(seed))
		d->ff_seed = clean_name(seed->valuestring);
	else if (cJSON_IsNumber(seed) && fabs(seed->valuedouble) <= 9007199254740992.0)
		d->ff_seed = xasprintf("%lld", (long long)seed->valuedouble);
	/* "lines" is an array of lines; one string with newlines is taken too. */
	if (cJSON_IsString(lines)) {
		size_t n, i;
		char **v = split_lines(lines->valuestring, &n);

		d->ff_lines = xcalloc(n + 1, sizeof *d->ff_lines);
		for (i = 0; i < n; i++)
			d->ff_lines[i] = clean_line(v[i], strlen(v[i]), true);
		d->ff_nlines = n;
		free_lines(v, n);
		return;
	}
	d->ff_lines = xcalloc((size_t)cJSON_GetArraySize(lines) + 1, sizeof *d->ff_lines);
	cJSON_ArrayForEach(l, lines)
	{
		if (cJSON_IsString(l))
			d->ff_lines[d->ff_nlines++] =
			    clean_line(l->valuestring, strlen(l->valuestring), true);
	}
}

static int
cmp_pairs(const void *a, const void *b)
{
	const struct post_pair *x = a, *y = b;

	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	return x->load < y->load ? -1 : x->load > y->load;
}

/* ---- Rendering ---- */

static void
render_title(struct post_draft *d)
{
	char *t = xasprintf("%s: %s fails intermittently", d->package, d->test);

	if (strlen(t) > POST_TITLE_MAX) {
		/* Keep the end, which says what the post is. */
		char *name = xstrdup(d->test);

		cut_utf8(name, POST_TITLE_MAX / 2);
		free(t);
		t = xasprintf("%s: %s… fails intermittently", d->package, name);
		cut_utf8(t, POST_TITLE_MAX);
		free(name);
	}
	free(d->title);
	d->title = t;
}

static void
count_phrase(struct buf *b, int64_t failures, int64_t hangs, int64_t runs)
{
	buf_printf(b, failures == 1 ? _("%lld failure") : _("%lld failures"), (long long)failures);
	if (hangs > 0)
		buf_printf(b, hangs == 1 ? _(" and %lld hang") : _(" and %lld hangs"),
		           (long long)hangs);
	buf_printf(b, runs == 1 ? _(" in %lld run") : _(" in %lld runs"), (long long)runs);
}

/* The first failure's lines, cut to budget bytes when needed: the head
 * and the tail, with a line that says how much was cut and where the
 * whole output is. */
static char *
render_excerpt(const struct post_draft *d, size_t budget)
{
	struct buf b;
	size_t total = 0, i, head_end = 0, tail_start, used = 0;

	for (i = 0; i < d->ff_nlines; i++)
		total += strlen(d->ff_lines[i]) + 1;
	buf_init(&b);
	if (total <= budget) {
		for (i = 0; i < d->ff_nlines; i++) {
			buf_adds(&b, d->ff_lines[i]);
			buf_addc(&b, '\n');
		}
		return buf_steal(&b);
	}
	/* Lines from the start while they fit in half the budget ... */
	while (head_end < d->ff_nlines && used + strlen(d->ff_lines[head_end]) + 1 <= budget / 2)
		used += strlen(d->ff_lines[head_end++]) + 1;
	/* ... and from the end in what is left. */
	tail_start = d->ff_nlines;
	while (tail_start > head_end &&
	       used + strlen(d->ff_lines[tail_start - 1]) + 1 <= budget - budget / 8)
		used += strlen(d->ff_lines[--tail_start]) + 1;
	for (i = 0; i < head_end; i++) {
		buf_adds(&b, d->ff_lines[i]);
		buf_addc(&b, '\n');
	}
	if (head_end == 0 && d->ff_nlines > 0) {
		/* A first line longer than the budget: keep its start. */
		char *part = xstrdup(d->ff_lines[0]);

		cut_utf8(part, budget / 2);
		buf_adds(&b, part);
		buf_addc(&b, '\n');
		used += strlen(part) + 1;
		free(part);
	}
	buf_printf(&b,
	           _("[... %zu bytes cut here; the whole output is in %s in the sweep's output "
	             "directory ...]\n"),
	           total - used, d->ff_log != NULL ? d->ff_log : _("the run's log"));
	for (i = tail_start; i < d->ff_nlines; i++) {
		buf_adds(&b, d->ff_lines[i]);
		buf_addc(&b, '\n');
	}
	return buf_steal(&b);
}

static void
render_table(struct buf *b, const struct post_draft *d)
{
	int loads[64], cpus[64];
	size_t nl = 0, nc = 0, i, j, k;

	for (i = 0; i < d->npairs; i++) {
		for (j = 0; j < nl && loads[j] != d->pairs[i].load; j++)
			;
		if (j == nl && nl < UTIL_ARRAY_LEN(loads))
			loads[nl++] = d->pairs[i].load;
		for (j = 0; j < nc && cpus[j] != d->pairs[i].cpu; j++)
			;
		if (j == nc && nc < UTIL_ARRAY_LEN(cpus))
			cpus[nc++] = d->pairs[i].cpu;
	}
	/* The pairs are sorted by cpu, then load; sort the loads too. */
	for (i = 1; i < nl; i++) {
		for (j = i; j > 0 && loads[j - 1] > loads[j]; j--) {
			int t = loads[j];

			loads[j] = loads[j - 1];
			loads[j - 1] = t;
		}
	}
	buf_adds(b, "| |");
	for (j = 0; j < nl; j++)
		buf_printf(b, " load %d |", loads[j]);
	buf_adds(b, "\n|---|");
	for (j = 0; j < nl; j++)
		buf_adds(b, "---:|");
	buf_addc(b, '\n');
	for (i = 0; i < nc; i++) {
		buf_printf(b, "| **cpu %d** |", cpus[i]);
		for (j = 0; j < nl; j++) {
			const struct post_pair *p = NULL;

			for (k = 0; k < d->npairs; k++) {
				if (d->pairs[k].cpu == cpus[i] && d->pairs[k].load == loads[j])
					p = &d->pairs[k];
			}
			if (p == NULL) {
				buf_adds(b, " – |");
				continue;
			}
			buf_printf(b, " %lld/%lld", (long long)p->failures, (long long)p->runs);
			if (p->hangs > 0)
				buf_printf(b, p->hangs == 1 ? " (%lld hang)" : " (%lld hangs)",
				           (long long)p->hangs);
			buf_adds(b, " |");
		}
		buf_addc(b, '\n');
	}
}

static bool
is_hex_commit(const char *s)
{
	size_t n = s != NULL ? strlen(s) : 0;

	return n >= 7 && n <= 64 && strspn(s, "0123456789abcdef") == n;
}

/* The body with the first failure cut to budget bytes. The template is
 * English whatever the user's locale: it is written for the project's
 * maintainers, not for the person posting. */
static char *
render_body(const struct post_draft *d, size_t budget)
{
	struct buf b;
	int64_t runs = d->runs[0] + d->runs[1], fails = d->failures[0] + d->failures[1],
	        hangs = d->hangs[0] + d->hangs[1];
	double lo, hi;
	char *r, *l, *h;

	buf_init(&b);
	buf_adds(&b, "## What happens");
	buf_adds(&b, "\n\n");
	buf_adds(&b, d->description);
	buf_addc(&b, '\n');

	buf_adds(&b, "- Test: ");
	md_code(&b, d->test);
	buf_adds(&b, " in package ");
	md_code(&b, d->package);
	if (d->level != NULL) {
		buf_adds(&b, ", level ");
		md_code(&b, d->level);
	}
	buf_adds(&b, "\n- Commit: ");
	if (d->commit == NULL) {
		buf_adds(&b, "unknown (the project is not a git checkout)");
	} else if (d->src_repo != NULL && is_hex_commit(d->commit)) {
		buf_printf(&b, "[`%.12s`](%s/%s/commit/%s)", d->commit, d->web_base, d->src_repo,
		           d->commit);
	} else {
		md_code(&b, d->commit);
	}
	if (d->toolchain != NULL) {
		buf_adds(&b, "\n- Toolchain: ");
		md_code(&b, d->toolchain);
	}
	if (d->cores > 0) {
		buf_printf(&b, "\n- Machine: %d cores, %d kept for the system", d->cores, d->keep);
		if (d->nlanes > 0)
			buf_printf(
			    &b, d->nlanes == 1 ? ", %d lane of %d cores" : ", %d lanes of %d cores",
			    d->nlanes, d->lane_width);
	}
	results_wilson(fails + hangs, runs, &lo, &hi);
	r = fmt_pct(runs > 0 ? 100.0 * (double)(fails + hangs) / (double)runs : 0);
	l = fmt_pct(100.0 * lo);
	h = fmt_pct(100.0 * hi);
	buf_adds(&b, "\n- Measured: ");
	count_phrase(&b, fails, hangs, runs);
	buf_printf(&b, " (%s%%, 95%% interval %s–%s%%)", r, l, h);
	free(r);
	free(l);
	free(h);
	buf_adds(&b, "\n\n");

	buf_adds(&b, "Failures/runs at each CPU count and load, sweep and confirm runs together:");
	buf_adds(&b, "\n\n");
	render_table(&b, d);
	buf_addc(&b, '\n');
	buf_adds(&b, "In the sweep, with the rest of its package: ");
	count_phrase(&b, d->failures[0], d->hangs[0], d->runs[0]);
	buf_adds(&b, ". Alone, in confirm runs: ");
	count_phrase(&b, d->failures[1], d->hangs[1], d->runs[1]);
	buf_adds(&b, ".\n\n");

	if (d->has_first) {
		char *excerpt = render_excerpt(d, budget);

		buf_printf(&b, "The first failure, in a %s run at cpu %d, load %d",
		           d->ff_phase != NULL ? d->ff_phase : "sweep", d->ff_cpu, d->ff_load);
		if (d->ff_seed != NULL) {
			buf_adds(&b, ", shuffle seed ");
			md_code(&b, d->ff_seed);
		}
		if (d->ff_log != NULL) {
			buf_adds(&b, " (log ");
			md_code(&b, d->ff_log);
			buf_adds(&b, " in the sweep's output directory)");
		}
		buf_adds(&b, ":\n\n");
		md_fence(&b, "text", excerpt);
		buf_addc(&b, '\n');
		free(excerpt);
	} else {
		buf_adds(&b, "No output of the first failure was kept.");
		buf_adds(&b, "\n\n");
	}
	if (d->repro_flakesweep != NULL) {
		buf_adds(&b, "Reproduce it at the pair where it failed most, with the same load:");
		buf_adds(&b, "\n\n");
		md_fence(&b, "sh", d->repro_flakesweep);
		buf_addc(&b, '\n');
	}
	if (d->repro_direct != NULL) {
		buf_adds(&b, "Or run it directly, pinned to the same number of cores:");
		buf_adds(&b, "\n\n");
		md_fence(&b, "sh", d->repro_direct);
		buf_addc(&b, '\n');
	}
	if (d->notes != NULL) {
		buf_adds(&b, d->notes);
		buf_addc(&b, '\n');
	}

	buf_adds(&b, "## Why");
	buf_adds(&b, "\n\n");
	buf_adds(&b, "Not triaged yet.");
	buf_adds(&b, "\n\n");
	buf_adds(&b, "## Expected");
	buf_adds(&b, "\n\n");
	md_code(&b, d->test);
	buf_adds(&b, " passes every run at every pair of CPU count and load.");
	buf_adds(&b, "\n\n");
	buf_adds(&b, "## References");
	buf_adds(&b, "\n\n");
	if (d->src_repo != NULL && d->source_path != NULL && is_hex_commit(d->commit)) {
		buf_adds(&b, d->source_line > 0 ? "- The test's source at the commit: "
		                                : "- The test's package at the commit: ");
		buf_printf(&b, "%s/%s/%s/%s/", d->web_base, d->src_repo,
		           d->source_line > 0 ? "blob" : "tree", d->commit);
		url_path(&b, d->source_path);
		if (d->source_line > 0)
			buf_printf(&b, "#L%d", d->source_line);
		buf_addc(&b, '\n');
	}
	if (d->closed_url != NULL)
		buf_printf(&b, "- An earlier report, closed: %s\n", d->closed_url);
	buf_adds(&b, "- Test id: ");
	md_code(&b, d->test_shown);
	buf_adds(&b, ", measured by flakesweep");
	buf_adds(&b, "\n\n");
	buf_printf(&b, "<!-- %s -->\n", d->marker);
	return buf_steal(&b);
}

/* Renders the body within POST_BODY_MAX bytes, cutting the first failure
 * as far as needed. Returns 0, or -EFBIG when the description and notes
 * alone leave no room. */
static int
render(struct post_draft *d)
{
	size_t excerpt = 0, i;
	char *body;

	render_title(d);
	for (i = 0; i < d->ff_nlines; i++)
		excerpt += strlen(d->ff_lines[i]) + 1;
	if (excerpt > POST_EXCERPT_MAX)
		excerpt = POST_EXCERPT_MAX;
	body = render_body(d, excerpt);
	/* Cutting keeps whole lines, so it may cut less than asked: shrink the
	 * budget by what is still over until it fits. */
	while (strlen(body) > POST_BODY_MAX) {
		size_t over = strlen(body) - POST_BODY_MAX + 200;

		free(body);
		if (excerpt < over + POST_EXCERPT_MIN)
			return -EFBIG;
		excerpt -= over;
		body = render_body(d, excerpt);
	}
	free(d->body);
	d->body = body;
	return 0;
}

/* ---- Drafts ---- */

void
post_draft_free(struct post_draft *d)
{
	if (d == NULL)
		return;
	free(d->test_id);
	free(d->test_shown);
	free(d->package);
	free(d->test);
	free(d->level);
	free(d->driver);
	free(d->toolchain);
	free(d->commit);
	free(d->pairs);
	free(d->ff_phase);
	free(d->ff_seed);
	free(d->ff_log);
	free_lines(d->ff_lines, d->ff_nlines);
	free(d->repro_flakesweep);
	free(d->repro_direct);
	free(d->description);
	free(d->notes);
	free(d->repo);
	free(d->src_repo);
	free(d->web_base);
	free(d->source_path);
	free(d->closed_url);
	free(d->marker);
	free(d->decisions_path);
	free(d->title);
	free(d->body);
	free(d);
}

static char *
results_dir(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (slash == NULL)
		return xstrdup(".");
	if (slash == path)
		return xstrdup("/");
	return xstrndup(path, (size_t)(slash - path));
}

/* Fills d from the results' project, machine and test entries. */
static void
draft_read(struct post_draft *d, const cJSON *root, const cJSON *t)
{
	const cJSON *project = cJSON_GetObjectItemCaseSensitive(root, "project");
	const cJSON *machine = cJSON_GetObjectItemCaseSensitive(root, "machine");
	const cJSON *lanes = cJSON_GetObjectItemCaseSensitive(machine, "lanes");
	const cJSON *repro = cJSON_GetObjectItemCaseSensitive(t, "reproduce");
	const cJSON *c;
	const char *id = jstr(t, "id"), *sep = strstr(id, "::");

	d->test_id = xstrdup(id);
	d->test_shown = clean_name(id);
	d->package = jname(t, "package");
	if (d->package == NULL && sep != NULL) {
		char *pkg = xstrndup(id, (size_t)(sep - id));

		d->package = clean_name(pkg);
		free(pkg);
	}
	if (d->package == NULL)
		d->package = xstrdup("");
	d->test = jname(t, "test");
	if (d->test == NULL)
		d->test = clean_name(sep != NULL ? sep + 2 : id);
	d->level = jname(t, "level");
	d->driver = jname(project, "driver");
	d->toolchain = jname(project, "toolchain");
	d->commit = jname(project, "commit");
	d->cores = (int)jint(machine, "cores");
	d->keep = (int)jint(machine, "keep");
	d->nlanes = cJSON_GetArraySize(lanes);
	d->lane_width = cJSON_GetArraySize(cJSON_GetArrayItem(lanes, 0));
	cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(t, "cells"))
	{
		add_pair(d, c);
	}
	if (d->npairs > 1)
		qsort(d->pairs, d->npairs, sizeof *d->pairs, cmp_pairs);
	read_first_failure(d, cJSON_GetObjectItemCaseSensitive(t, "first_failure"));
	if (cJSON_IsObject(repro)) {
		const char *f = jstr(repro, "flakesweep"), *x = jstr(repro, "direct");

		d->repro_flakesweep = f != NULL ? clean_line(f, strlen(f), false) : NULL;
		d->repro_direct = x != NULL ? clean_line(x, strlen(x), false) : NULL;
	}
}

/* Where the report goes and where links point. */
static int
draft_repos(struct post_draft *d, const cJSON *root, const char *repo, char **err)
{
	const cJSON *project = cJSON_GetObjectItemCaseSensitive(root, "project");
	const char *proot = jstr(project, "root");
	char *top = NULL, *origin = NULL, *origin_repo = NULL;

	if (repo != NULL && parse_owner_name(repo, &d->repo) < 0) {
		*err = xasprintf(_("--repo must be OWNER/NAME: %s"), repo);
		return -EINVAL;
	}
	if (proot != NULL)
		git_find(proot, &top, &origin);
	if (origin != NULL && post_parse_remote(origin, &origin_repo) < 0)
		origin_repo = NULL;
	if (d->repo == NULL && origin_repo != NULL)
		d->repo = xstrdup(origin_repo);
	/* Links need the source's own repository: the origin when it is on
	 * GitHub; --repo only when there is no origin to say otherwise. */
	if (origin_repo != NULL)
		d->src_repo = xstrdup(origin_repo);
	else if (origin == NULL && d->repo != NULL)
		d->src_repo = xstrdup(d->repo);
	if (top != NULL && proot != NULL)
		locate_source(d, proot, top);
	free(top);
	free(origin);
	free(origin_repo);
	return 0;
}

/* The refusal when a token would be shown or posted; it names neither the
 * variable nor the value. */
#define POST_TOKEN_REFUSAL                                                                 \
	N_("the report holds the value of a GitHub token from the environment: remove it " \
	   "from the results, the description and the notes; nothing was shown or sent")

static bool
post_draft_holds_token(const struct post_draft *d)
{
	return github_env_token_in(d->title) || github_env_token_in(d->body);
}

int
post_draft_new(const struct post_input *in, struct post_draft **out, char **err)
{
	struct post_draft *d = NULL;
	char *text = NULL, *shown = NULL;
	size_t len = 0;
	cJSON *root = NULL, *tests, *t, *found = NULL;
	const cJSON *bad;
	const char *schema, *verdict;
	int rc;

	*out = NULL;
	*err = NULL;
	rc = post_check_text(in->description, _("description"), err);
	if (rc == 0 && in->notes != NULL)
		rc = post_check_text(in->notes, _("notes"), err);
	if (rc < 0)
		return rc;
	shown = clean_name(in->test_id);
	rc = util_read_file(in->results_path, POST_RESULTS_MAX, &text, &len);
	if (rc < 0) {
		*err = xasprintf(_("cannot read %s: %s"), in->results_path, strerror(-rc));
		goto out;
	}
	/* len + 1 takes in the NUL, so trailing garbage is refused. */
	root = cJSON_ParseWithLengthOpts(text, len + 1, NULL, 1);
	free(text);
	schema = jstr(root, "schema");
	tests = cJSON_GetObjectItemCaseSensitive(root, "tests");
	if (schema == NULL || strncmp(schema, "flakesweep/results/", 19) != 0 ||
	    !cJSON_IsArray(tests)) {
		*err = xasprintf(_("%s is not a flakesweep results file"), in->results_path);
		rc = -EBADMSG;
		goto out;
	}
	cJSON_ArrayForEach(t, tests)
	{
		const char *id = jstr(t, "id");

		if (id != NULL && strcmp(id, in->test_id) == 0) {
			found = t;
			break;
		}
	}
	if (found == NULL) {
		*err = xasprintf(_("%s is not in %s"), shown, in->results_path);
		rc = -EINVAL;
		goto out;
	}
	if (!cells_valid(cJSON_GetObjectItemCaseSensitive(found, "cells"))) {
		*err = xasprintf(_("%s: the cells of %s are malformed (expected an array of cells "
		                   "with 0 <= failures + hangs <= runs)"),
		                 in->results_path, shown);
		rc = -EBADMSG;
		goto out;
	}
	verdict = jstr(found, "verdict");
	bad = failing_cell(cJSON_GetObjectItemCaseSensitive(found, "cells"));
	if ((verdict != NULL && strcmp(verdict, "failing") == 0) || bad != NULL) {
		if (bad != NULL)
			*err =
			    xasprintf(_("%s is failing, not flaky: it failed all %lld runs at cpu "
			                "%lld, load %lld; flakesweep posts only flaky tests"),
			              shown, (long long)jint(bad, "runs"),
			              (long long)jint(bad, "cpu"), (long long)jint(bad, "load"));
		else
			*err = xasprintf(_("%s is failing, not flaky; flakesweep posts only flaky "
			                   "tests"),
			                 shown);
		rc = -EINVAL;
		goto out;
	}
	d = xcalloc(1, sizeof *d);
	draft_read(d, root, found);
	if ((verdict != NULL && strcmp(verdict, "passed") == 0) ||
	    d->failures[0] + d->failures[1] + d->hangs[0] + d->hangs[1] == 0) {
		*err = xasprintf(_("%s passed every run (%lld): there is nothing to report"), shown,
		                 (long long)(d->runs[0] + d->runs[1]));
		rc = -EINVAL;
		goto out;
	}
	d->description = clean_text(in->description);
	d->notes = in->notes != NULL ? clean_text(in->notes) : NULL;
	d->web_base = github_web_base();
	post_test_hash(in->test_id, d->hash);
	d->marker = xasprintf("flakesweep:id=%s", d->hash);
	{
		char *dir = results_dir(in->results_path);

		d->decisions_path = xasprintf("%s/%s", dir, DECISIONS_FILE);
		free(dir);
	}
	rc = draft_repos(d, root, in->repo, err);
	if (rc < 0)
		goto out;
	rc = render(d);
	if (rc < 0) {
		*err = xasprintf(_("the description and notes are too long: the report must stay "
		                   "under %d bytes"),
		                 POST_BODY_MAX);
		rc = -EINVAL;
		goto out;
	}
	text = cJSON_PrintUnformatted(found);
	if (github_env_token_in(text) || post_draft_holds_token(d)) {
		*err = xstrdup(_(POST_TOKEN_REFUSAL));
		rc = -EPERM;
	}
	cJSON_free(text);
	if (rc < 0)
		goto out;
	*out = d;
	d = NULL;
out:
	post_draft_free(d);
	cJSON_Delete(root);
	free(shown);
	return rc;
}

const char *
post_draft_title(const struct post_draft *d)
{
	return d->title;
}

const char *
post_draft_body(const struct post_draft *d)
{
	return d->body;
}

const char *
post_draft_repo(const struct post_draft *d)
{
	return d->repo;
}

const char *
post_draft_test(const struct post_draft *d)
{
	return d->test_id;
}

const char *
post_draft_marker(const struct post_draft *d)
{
	return d->marker;
}

const char *
post_draft_decisions_path(const struct post_draft *d)
{
	return d->decisions_path;
}

void
post_draft_set_closed_report(struct post_draft *d, const char *url)
{
	free(d->closed_url);
	d->closed_url = url != NULL ? clean_name(url) : NULL;
	if (render(d) < 0) {
		/* The link made it too long: leave it out rather than not post. */
		free(d->closed_url);
		d->closed_url = NULL;
		render(d);
	}
}

/* ---- Finding reports ---- */

static bool
name_char(unsigned char c)
{
	return isalnum(c) || c == '_' || c == '/' || c >= 0x80;
}

static bool
contains_bounded(const char *hay, const char *needle)
{
	size_t n = strlen(needle);
	const char *p = hay;

	if (hay == NULL || n == 0)
		return false;
	while ((p = strstr(p, needle)) != NULL) {
		bool left = p == hay || !name_char((unsigned char)p[-1]);
		bool right = !name_char((unsigned char)p[n]);

		if (left && right)
			return true;
		p++;
	}
	return false;
}

bool
post_names_test(const char *title, const char *body, const char *test, const char *marker)
{
	if (body != NULL && marker != NULL && strstr(body, marker) != NULL)
		return true;
	return contains_bounded(title, test) || contains_bounded(body, test);
}

/* A phrase for GitHub's search: no quotes or backslashes, bounded. */
static char *
search_phrase(const char *s)
{
	char *p = xstrdup(s), *q;

	for (q = p; *q != '\0'; q++) {
		if (*q == '"' || *q == '\\')
			*q = ' ';
	}
	cut_utf8(p, POST_SEARCH_PHRASE_MAX);
	return p;
}

/* ---- The post ---- */

static const char post_doc_repo[] = "query RepoAndCategories($owner: String!, $name: String!) {\n"
                                    "  repository(owner: $owner, name: $name) {\n"
                                    "    id\n"
                                    "    nameWithOwner\n"
                                    "    hasDiscussionsEnabled\n"
                                    "    discussionCategories(first: 25) {\n"
                                    "      nodes { id name slug }\n"
                                    "      pageInfo { hasNextPage endCursor }\n"
                                    "    }\n"
                                    "  }\n"
                                    "}\n";

static const char post_doc_find[] =
    "query FindReports($owner: String!, $name: String!, $discussionsByMarker: String!,\n"
    "                  $discussionsByName: String!, $issuesByMarker: String!,\n"
    "                  $issuesByName: String!) {\n"
    "  repository(owner: $owner, name: $name) {\n"
    "    discussions(first: 30, orderBy: {field: CREATED_AT, direction: DESC}) {\n"
    "      nodes { number url title body closed }\n"
    "    }\n"
    "  }\n"
    "  discussionsByMarker: search(type: DISCUSSION, query: $discussionsByMarker, first: 20) {\n"
    "    nodes { ... on Discussion { number url title body closed } }\n"
    "  }\n"
    "  discussionsByName: search(type: DISCUSSION, query: $discussionsByName, first: 20) {\n"
    "    nodes { ... on Discussion { number url title body closed } }\n"
    "  }\n"
    "  issuesByMarker: search(type: ISSUE, query: $issuesByMarker, first: 20) {\n"
    "    nodes { ... on Issue { number url title body closed } }\n"
    "  }\n"
    "  issuesByName: search(type: ISSUE, query: $issuesByName, first: 20) {\n"
    "    nodes { ... on Issue { number url title body closed } }\n"
    "  }\n"
    "}\n";

static const char post_doc_create[] =
    "mutation CreateDiscussion($input: CreateDiscussionInput!) {\n"
    "  createDiscussion(input: $input) {\n"
    "    clientMutationId\n"
    "    discussion { id number url }\n"
    "  }\n"
    "}\n";

struct post {
	uv_loop_t *loop;
	struct post_draft *d;
	struct github *gh;
	uv_timer_t timer;
	bool timer_open;
	char *category;
	int max_creates;
	int creates;
	bool created_maybe; /* a create may have landed: a match with our marker is ours */
	post_done_cb cb;
	void *data;
	bool done;
	char *owner, *name;
	char *repo_id, *category_id;
	github_note_cb note;
	void *note_data;
	int64_t max_wait_ms;
};

void
post_options_init(struct post_options *o)
{
	memset(o, 0, sizeof *o);
	github_config_init(&o->github);
}

static void
post_closed(uv_handle_t *h)
{
	struct post *p = h->data;

	free(p->category);
	free(p->owner);
	free(p->name);
	free(p->repo_id);
	free(p->category_id);
	free(p);
}

static void
post_finish(struct post *p, enum post_status status, const char *url, const char *message)
{
	struct post_result r;
	char *msg = message != NULL ? xstrdup(message) : NULL;
	char *u = url != NULL ? xstrdup(url) : NULL;

	if (p->done)
		goto out;
	p->done = true;
	if (u != NULL && !github_web_url_ok(p->gh, u)) {
		/* Never printed raw, stored or linked: a server could send anything. */
		char *shown = sanitize_text(u, strlen(u));

		github_mask(p->gh, shown);
		free(msg);
		msg =
		    xasprintf(status == POST_POSTED
		                  ? _("GitHub answered with a discussion URL that is not a GitHub "
		                      "page (%s); the discussion may exist, but nothing was "
		                      "recorded")
		                  : _("GitHub answered with a URL that is not a GitHub page: %s"),
		              shown);
		free(shown);
		free(u);
		u = NULL;
		status = POST_FAILED;
	}
	memset(&r, 0, sizeof r);
	r.status = status;
	github_mask(p->gh, u);
	github_mask(p->gh, msg);
	r.url = u;
	r.message = msg;
	if (status == POST_POSTED) {
		int rc = decisions_record(p->d->decisions_path, p->d->test_id, "posted", u, NULL,
		                          util_now_ms());

		r.recorded = rc == 0;
		if (rc < 0) {
			free(msg);
			msg = xasprintf(_("posted, but it could not be recorded in %s: %s"),
			                p->d->decisions_path, strerror(-rc));
			r.message = msg;
		}
	}
	p->cb(&r, p->data);
	uv_timer_stop(&p->timer);
	github_free(p->gh);
	p->gh = NULL;
	post_draft_free(p->d);
	p->d = NULL;
	uv_close((uv_handle_t *)&p->timer, post_closed);
out:
	free(msg);
	free(u);
}

static void post_find(struct post *p);
static void post_create(struct post *p);

static void
post_note(struct post *p, const char *line)
{
	if (p->note != NULL)
		p->note(line, p->note_data);
}

static void
post_repo_reply(const struct github_reply *r, void *data)
{
	struct post *p = data;
	const cJSON *repo = cJSON_GetObjectItemCaseSensitive(r->data, "repository"), *cats, *c;
	const char *id;
	struct buf names;
	char *msg;

	if (r->error == GITHUB_ERR_NOT_FOUND || (r->error == GITHUB_OK && cJSON_IsNull(repo))) {
		msg =
		    xasprintf(_("repository %s/%s was not found, or the token in %s cannot see it"),
		              p->owner, p->name, github_token_source(p->gh));
		post_finish(p, POST_FAILED, NULL, msg);
		free(msg);
		return;
	}
	if (r->error != GITHUB_OK) {
		post_finish(p, POST_FAILED, NULL, r->message);
		return;
	}
	id = jstr(repo, "id");
	cats = cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetObjectItemCaseSensitive(repo, "discussionCategories"), "nodes");
	if (id == NULL || !cJSON_IsArray(cats)) {
		post_finish(p, POST_FAILED, NULL,
		            _("unexpected reply from GitHub: no repository id"));
		return;
	}
	if (!cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(repo, "hasDiscussionsEnabled"))) {
		msg = xasprintf(_("Discussions are not enabled in %s/%s"), p->owner, p->name);
		post_finish(p, POST_FAILED, NULL, msg);
		free(msg);
		return;
	}
	p->repo_id = xstrdup(id);
	buf_init(&names);
	cJSON_ArrayForEach(c, cats)
	{
		const char *name = jstr(c, "name"), *slug = jstr(c, "slug"), *cid = jstr(c, "id");

		if (name == NULL || cid == NULL)
			continue;
		if (strcasecmp(name, p->category) == 0 ||
		    (slug != NULL && strcasecmp(slug, p->category) == 0)) {
			p->category_id = xstrdup(cid);
			break;
		}
		{
			char *clean = clean_name(name);

			buf_printf(&names, "%s%s", names.len > 0 ? ", " : "", clean);
			free(clean);
		}
	}
	if (p->category_id == NULL) {
		msg = xasprintf(_("%s/%s has no discussion category \"%s\"; it has: %s (choose one "
		                  "with --category)"),
		                p->owner, p->name, p->category,
		                names.len > 0 ? names.data : _("none"));
		buf_free(&names);
		post_finish(p, POST_FAILED, NULL, msg);
		free(msg);
		return;
	}
	buf_free(&names);
	post_find(p);
}

struct post_match {
	const char *open_url, *open_kind, *closed_url;
	bool open_ours;
};

static void
scan_nodes(const struct post *p, const cJSON *nodes, const char *kind, struct post_match *m)
{
	const cJSON *n;

	cJSON_ArrayForEach(n, nodes)
	{
		const char *url = jstr(n, "url"), *title = jstr(n, "title"),
		           *body = jstr(n, "body");

		if (url == NULL || !post_names_test(title, body, p->d->test, p->d->marker))
			continue;
		if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(n, "closed"))) {
			if (m->closed_url == NULL)
				m->closed_url = url;
			continue;
		}
		if (m->open_url == NULL ||
		    (!m->open_ours && body != NULL && strstr(body, p->d->marker) != NULL)) {
			m->open_url = url;
			m->open_kind = kind;
			m->open_ours = body != NULL && strstr(body, p->d->marker) != NULL;
		}
	}
}

static const cJSON *
search_nodes(const cJSON *data, const char *alias)
{
	return cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(data, alias),
	                                        "nodes");
}

static void
post_find_reply(const struct github_reply *r, void *data)
{
	struct post *p = data;
	struct post_match m;
	char *msg;

	if (r->error != GITHUB_OK) {
		post_finish(p, POST_FAILED, NULL, r->message);
		return;
	}
	memset(&m, 0, sizeof m);
	scan_nodes(p,
	           cJSON_GetObjectItemCaseSensitive(
	               cJSON_GetObjectItemCaseSensitive(
	                   cJSON_GetObjectItemCaseSensitive(r->data, "repository"), "discussions"),
	               "nodes"),
	           "discussion", &m);
	scan_nodes(p, search_nodes(r->data, "discussionsByMarker"), "discussion", &m);
	scan_nodes(p, search_nodes(r->data, "discussionsByName"), "discussion", &m);
	scan_nodes(p, search_nodes(r->data, "issuesByMarker"), "issue", &m);
	scan_nodes(p, search_nodes(r->data, "issuesByName"), "issue", &m);
	if (m.open_url != NULL && p->created_maybe && m.open_ours) {
		/* Our own create landed though its reply was lost. */
		post_finish(p, POST_POSTED, m.open_url, NULL);
		return;
	}
	if (m.open_url != NULL) {
		msg = xasprintf(strcmp(m.open_kind, "issue") == 0
		                    ? _("an open issue already names %s: %s")
		                    : _("an open discussion already names %s: %s"),
		                p->d->test_shown, m.open_url);
		post_finish(p, POST_EXISTS, m.open_url, msg);
		free(msg);
		return;
	}
	if (m.closed_url != NULL && github_web_url_ok(p->gh, m.closed_url))
		post_draft_set_closed_report(p->d, m.closed_url);
	post_create(p);
}

static void
post_find(struct post *p)
{
	cJSON *v = cJSON_CreateObject();
	char *phrase = search_phrase(p->d->test);
	char *repo = xasprintf("repo:%s/%s", p->owner, p->name);
	char *q;
	int rc;

	cJSON_AddStringToObject(v, "owner", p->owner);
	cJSON_AddStringToObject(v, "name", p->name);
	q = xasprintf("%s \"%s\"", repo, p->d->marker);
	cJSON_AddStringToObject(v, "discussionsByMarker", q);
	free(q);
	q = xasprintf("%s \"%s\"", repo, phrase);
	cJSON_AddStringToObject(v, "discussionsByName", q);
	free(q);
	q = xasprintf("%s is:issue \"%s\"", repo, p->d->marker);
	cJSON_AddStringToObject(v, "issuesByMarker", q);
	free(q);
	q = xasprintf("%s is:issue \"%s\"", repo, phrase);
	cJSON_AddStringToObject(v, "issuesByName", q);
	free(q);
	free(repo);
	free(phrase);
	rc = github_call(p->gh, post_doc_find, v, false, post_find_reply, p);
	if (rc < 0)
		post_finish(p, POST_FAILED, NULL, strerror(-rc));
}

static void
post_timer_cb(uv_timer_t *t)
{
	post_find(t->data);
}

static void
post_create_reply(const struct github_reply *r, void *data)
{
	struct post *p = data;
	const cJSON *disc = cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetObjectItemCaseSensitive(r->data, "createDiscussion"), "discussion");
	const char *url = jstr(disc, "url");
	int64_t delay;
	char d[32], *line;

	if (r->error == GITHUB_OK && url != NULL) {
		post_finish(p, POST_POSTED, url, NULL);
		return;
	}
	if (r->error == GITHUB_OK) {
		/* Answered, but not with the discussion: look before trying again. */
		p->created_maybe = true;
	} else {
		if (!r->transient || p->creates >= p->max_creates) {
			post_finish(p, POST_FAILED, NULL, r->message);
			return;
		}
		p->created_maybe = p->created_maybe || r->maybe_applied;
	}
	if (p->creates >= p->max_creates) {
		post_finish(p, POST_FAILED, NULL,
		            _("unexpected reply from GitHub to createDiscussion"));
		return;
	}
	delay = (int64_t)1000 << p->creates;
	if (r->error == GITHUB_ERR_RATE_LIMITED) {
		int64_t until = r->retry_at_ms - util_now_ms();

		if (until > p->max_wait_ms) {
			post_finish(p, POST_FAILED, NULL, r->message);
			return;
		}
		if (until > delay)
			delay = until;
	}
	util_format_duration(delay, d, sizeof d);
	if (r->error == GITHUB_ERR_RATE_LIMITED)
		line =
		    xasprintf(_("GitHub's rate limit: waiting %s, then looking for the discussion "
		                "again before another try"),
		              d);
	else
		line = xasprintf(_("%s; looking for the discussion again in %s before another try"),
		                 r->message != NULL ? r->message : _("unexpected reply"), d);
	post_note(p, line);
	free(line);
	uv_timer_start(&p->timer, post_timer_cb, (uint64_t)delay, 0);
}

static void
post_create(struct post *p)
{
	cJSON *v = cJSON_CreateObject(), *input = cJSON_CreateObject();
	char *cmid = xasprintf("flakesweep-%s-%d", p->d->hash, p->creates + 1);
	int rc;

	cJSON_AddStringToObject(input, "repositoryId", p->repo_id);
	cJSON_AddStringToObject(input, "categoryId", p->category_id);
	cJSON_AddStringToObject(input, "title", p->d->title);
	cJSON_AddStringToObject(input, "body", p->d->body);
	cJSON_AddStringToObject(input, "clientMutationId", cmid);
	cJSON_AddItemToObject(v, "input", input);
	free(cmid);
	if (post_draft_holds_token(p->d)) {
		/* A link GitHub answered with may have added it. */
		cJSON_Delete(v);
		post_finish(p, POST_FAILED, NULL, _(POST_TOKEN_REFUSAL));
		return;
	}
	p->creates++;
	rc = github_call(p->gh, post_doc_create, v, true, post_create_reply, p);
	if (rc < 0)
		post_finish(p, POST_FAILED, NULL, strerror(-rc));
}

int
post_start(uv_loop_t *loop, struct post_draft *d, const struct post_options *o, post_done_cb cb,
           void *data, struct post **out, char **err)
{
	struct post *p;
	struct github *gh;
	const char *slash;
	int rc;

	*out = NULL;
	*err = NULL;
	if (d->repo == NULL) {
		*err = xstrdup(_("no GitHub repository to post to: the project has no origin "
		                 "remote on GitHub; name one with --repo OWNER/NAME"));
		post_draft_free(d);
		return -EINVAL;
	}
	rc = github_new(loop, &o->github, &gh, err);
	if (rc < 0) {
		post_draft_free(d);
		return rc;
	}
	p = xcalloc(1, sizeof *p);
	p->loop = loop;
	p->d = d;
	p->gh = gh;
	p->category = xstrdup(o->category != NULL ? o->category : POST_DEFAULT_CATEGORY);
	p->max_creates = o->max_creates > 0 ? o->max_creates : POST_DEFAULT_CREATES;
	p->max_wait_ms = o->github.max_wait_ms > 0 ? o->github.max_wait_ms : 90000;
	p->cb = cb;
	p->data = data;
	p->note = o->github.note;
	p->note_data = o->github.note_data;
	slash = strchr(d->repo, '/');
	p->owner = xstrndup(d->repo, (size_t)(slash - d->repo));
	p->name = xstrdup(slash + 1);
	uv_timer_init(loop, &p->timer);
	p->timer.data = p;
	{
		cJSON *v = cJSON_CreateObject();

		cJSON_AddStringToObject(v, "owner", p->owner);
		cJSON_AddStringToObject(v, "name", p->name);
		rc = github_call(gh, post_doc_repo, v, false, post_repo_reply, p);
	}
	if (rc < 0) {
		post_finish(p, POST_FAILED, NULL, strerror(-rc));
		return 0;
	}
	*out = p;
	return 0;
}

void
post_cancel(struct post *p)
{
	if (p != NULL && !p->done)
		post_finish(p, POST_CANCELLED, NULL, _("cancelled"));
}

/* ---- flakesweep report ---- */

enum {
	OPT_RESULTS = 256,
	OPT_TEST,
	OPT_DESCRIPTION,
	OPT_NOTES,
	OPT_REPO,
	OPT_CATEGORY,
	OPT_API_URL,
	OPT_DRY_RUN,
	OPT_HELP,
};

static const struct option post_long_options[] = {
    {"results", required_argument, NULL, OPT_RESULTS},
    {"test", required_argument, NULL, OPT_TEST},
    {"description", required_argument, NULL, OPT_DESCRIPTION},
    {"notes", required_argument, NULL, OPT_NOTES},
    {"repo", required_argument, NULL, OPT_REPO},
    {"category", required_argument, NULL, OPT_CATEGORY},
    {"api-url", required_argument, NULL, OPT_API_URL},
    {"dry-run", no_argument, NULL, OPT_DRY_RUN},
    {"help", no_argument, NULL, OPT_HELP},
    {NULL, 0, NULL, 0},
};

static void
post_usage(FILE *f)
{
	fputs(_("Usage: flakesweep report --results FILE --test ID --description FILE\n"
	        "                         [--notes FILE] [--repo OWNER/NAME] [--category NAME]\n"
	        "                         [--api-url URL] [--dry-run]\n"
	        "\n"
	        "Posts the bug report of one flaky test to the repository's GitHub\n"
	        "Discussions, in the category \"Bugs\" unless --category names another.\n"
	        "The description and notes (Markdown without headings; - reads standard\n"
	        "input) go into a fixed template with the measured rates, the first\n"
	        "failure and the commands that reproduce it. Nothing is posted for a test\n"
	        "that is not flaky, or when an open discussion or issue already names it.\n"
	        "\n"
	        "  --results FILE      results.json of the sweep\n"
	        "  --test ID           the test, as PACKAGE::TEST\n"
	        "  --description FILE  what happens, written by a person\n"
	        "  --notes FILE        more to say, after the measurements\n"
	        "  --repo OWNER/NAME   the repository (default: the project's origin remote)\n"
	        "  --category NAME     the discussion category (default Bugs)\n"
	        "  --api-url URL       the GraphQL endpoint (https; http only on loopback)\n"
	        "  --dry-run           print the title and body; send nothing\n"
	        "\n"
	        "The token comes from GH_TOKEN or GITHUB_TOKEN (GH_ENTERPRISE_TOKEN or\n"
	        "GITHUB_ENTERPRISE_TOKEN when GH_HOST names a GitHub Enterprise host).\n"
	        "\n"
	        "Exit status: 0 posted (its URL on standard output) or printed; 2 a usage\n"
	        "or input error, a refusal, a GitHub error, or an open report that already\n"
	        "names the test (its URL on standard output).\n"),
	      f);
}

static char *
read_text(const char *path, const char *what, int *rc)
{
	char *text = NULL;
	size_t len = 0;

	if (strcmp(path, "-") == 0) {
		struct buf b;
		char chunk[4096];
		size_t n;

		buf_init(&b);
		while ((n = fread(chunk, 1, sizeof chunk, stdin)) > 0) {
			if (b.len + n > POST_TEXT_MAX) {
				buf_free(&b);
				*rc = -EFBIG;
				fprintf(
				    stderr,
				    _("flakesweep: the %s text on standard input is over %d bytes\n"),
				    what, POST_TEXT_MAX);
				return NULL;
			}
			buf_add(&b, chunk, n);
		}
		*rc = 0;
		return buf_steal(&b);
	}
	*rc = util_read_file(path, POST_TEXT_MAX, &text, &len);
	if (*rc == -EFBIG)
		fprintf(stderr, _("flakesweep: the %s file is over %d bytes: %s\n"), what,
		        POST_TEXT_MAX, path);
	else if (*rc < 0)
		fprintf(stderr, _("flakesweep: cannot read the %s file %s: %s\n"), what, path,
		        strerror(-*rc));
	if (*rc == 0 && memchr(text, '\0', len) != NULL) {
		fprintf(stderr, _("flakesweep: the %s file %s is not text\n"), what, path);
		free(text);
		*rc = -EINVAL;
		return NULL;
	}
	return *rc == 0 ? text : NULL;
}

struct post_cli {
	int status;
};

static void
post_cli_note(const char *line, void *data)
{
	(void)data;
	sanitize_fprintf(stderr, "flakesweep: %s\n", line);
}

static void
post_cli_done(const struct post_result *r, void *data)
{
	struct post_cli *cli = data;

	switch (r->status) {
	case POST_POSTED:
		sanitize_fprintf(stdout, "%s\n", r->url);
		if (r->message != NULL)
			sanitize_fprintf(stderr, "flakesweep: %s\n", r->message);
		cli->status = 0;
		break;
	case POST_EXISTS:
		sanitize_fprintf(stdout, "%s\n", r->url);
		sanitize_fprintf(stderr, "flakesweep: %s\n", r->message);
		cli->status = 2;
		break;
	default:
		sanitize_fprintf(stderr, "flakesweep: %s\n", r->message != NULL ? r->message : "?");
		cli->status = 2;
		break;
	}
	fflush(stdout);
}

int
post_main(int argc, char **argv)
{
	const char *results = NULL, *test = NULL, *desc_path = NULL, *notes_path = NULL;
	const char *repo = NULL, *category = NULL, *api_url = NULL;
	bool dry_run = false;
	char *description = NULL, *notes = NULL, *err = NULL;
	struct post_input in;
	struct post_draft *d = NULL;
	struct post_options o;
	struct post *p;
	struct post_cli cli = {2};
	uv_loop_t loop;
	int c, rc, status = 2;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long_only(argc, argv, ":", post_long_options, NULL)) != -1) {
		switch (c) {
		case OPT_RESULTS:
			results = optarg;
			break;
		case OPT_TEST:
			test = optarg;
			break;
		case OPT_DESCRIPTION:
			desc_path = optarg;
			break;
		case OPT_NOTES:
			notes_path = optarg;
			break;
		case OPT_REPO:
			repo = optarg;
			break;
		case OPT_CATEGORY:
			category = optarg;
			break;
		case OPT_API_URL:
			api_url = optarg;
			break;
		case OPT_DRY_RUN:
			dry_run = true;
			break;
		case OPT_HELP:
			post_usage(stdout);
			return 0;
		case ':':
			fprintf(stderr, _("flakesweep: option %s needs a value\n"),
			        argv[optind - 1]);
			return 2;
		default:
			fprintf(stderr,
			        _("flakesweep: unknown option %s (see flakesweep report --help)\n"),
			        argv[optind - 1]);
			return 2;
		}
	}
	if (optind < argc) {
		sanitize_fprintf(stderr, _("flakesweep: report takes no arguments: %s\n"),
		                 argv[optind]);
		return 2;
	}
	if (results == NULL || test == NULL || desc_path == NULL) {
		fprintf(stderr, "%s\n",
		        _("flakesweep: report needs --results FILE, --test ID and --description "
		          "FILE (see flakesweep report --help)"));
		return 2;
	}
	if (category != NULL && *category == '\0') {
		fprintf(stderr, "%s\n", _("flakesweep: --category is empty"));
		return 2;
	}
	if (api_url != NULL) {
		char *url = github_endpoint(api_url, &err);

		if (url == NULL) {
			sanitize_fprintf(stderr, "flakesweep: %s\n", err);
			free(err);
			return 2;
		}
		free(url);
	}
	description = read_text(desc_path, _("description"), &rc);
	if (rc < 0)
		goto out;
	if (notes_path != NULL) {
		notes = read_text(notes_path, _("notes"), &rc);
		if (rc < 0)
			goto out;
	}
	memset(&in, 0, sizeof in);
	in.results_path = results;
	in.test_id = test;
	in.description = description;
	in.notes = notes;
	in.repo = repo;
	rc = post_draft_new(&in, &d, &err);
	if (rc < 0) {
		sanitize_fprintf(stderr, "flakesweep: %s\n", err);
		goto out;
	}
	if (dry_run) {
		sanitize_fprintf(stdout, "%s\n\n%s", post_draft_title(d), post_draft_body(d));
		status = 0;
		goto out;
	}
	post_options_init(&o);
	o.category = category;
	o.github.api_url = api_url;
	o.github.note = post_cli_note;
	uv_loop_init(&loop);
	rc = post_start(&loop, d, &o, post_cli_done, &cli, &p, &err);
	d = NULL;
	if (rc < 0) {
		sanitize_fprintf(stderr, "flakesweep: %s\n", err);
	} else {
		uv_run(&loop, UV_RUN_DEFAULT);
		status = cli.status;
	}
	uv_loop_close(&loop);
out:
	post_draft_free(d);
	free(err);
	free(description);
	free(notes);
	return status;
}
