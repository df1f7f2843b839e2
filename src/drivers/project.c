/* SPDX-License-Identifier: MIT */
/*
 * project.c: the checkout a project lives in (see project.h). It reads
 * .git, gitdir files, commondir, HEAD, refs, packed-refs, config and the
 * index by hand, each capped and each opened only when it is a regular
 * file.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "drivers/project.h"
#include "base/util.h"

#define PROJECT_SMALL_MAX ((size_t)4096)
#define PROJECT_FILE_MAX ((size_t)16 << 20)
/* An index of about a million paths. */
#define PROJECT_INDEX_MAX ((size_t)256 << 20)

/* An index entry's flags (gitformat-index(5)): assume-valid, extended,
 * the stage, and in the extended flags skip-worktree and intent-to-add. */
#define PROJECT_CE_VALID 0x8000
#define PROJECT_CE_EXTENDED 0x4000
#define PROJECT_CE_STAGE(f) (((f) >> 12) & 3)
#define PROJECT_CE_SKIP_WORKTREE 0x4000
#define PROJECT_CE_INTENT_TO_ADD 0x2000
#define PROJECT_S_IFGITLINK 0160000

/* Reads a regular file of at most max bytes, NUL-terminated, never
 * waiting on a FIFO. Returns 0 or a negative errno. */
int
project_read_file(const char *path, size_t max, char **out)
{
	*out = NULL;
	return util_read_regular(path, max, out, NULL);
}

/* The first line of a small file, without its end; NULL if unreadable. */
static char *
project_read_line(const char *path)
{
	char *text = NULL;

	if (project_read_file(path, PROJECT_SMALL_MAX, &text) < 0)
		return NULL;
	text[strcspn(text, "\r\n")] = '\0';
	return text;
}

/* A path named in a git file, relative to base unless absolute. */
static char *
project_path(const char *base, const char *rel)
{
	return rel[0] == '/' ? xstrdup(rel) : xasprintf("%s/%s", base, rel);
}

/* The url of remote "origin" in a git config text, or NULL. */
static char *
project_config_origin(const char *config)
{
	const char *p = config;
	bool in_origin = false;

	while (*p != '\0') {
		size_t len = strcspn(p, "\n");
		char *line = xstrndup(p, len), *l = line + strspn(line, " \t"), *url = NULL;

		p += len + (p[len] == '\n');
		l[strcspn(l, "\r")] = '\0';
		if (*l == '[') {
			in_origin = strncmp(l, "[remote \"origin\"]", 17) == 0;
		} else if (in_origin && strncasecmp(l, "url", 3) == 0) {
			char *v = l + 3, *end;

			v += strspn(v, " \t");
			if (*v == '=') {
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
		free(line);
		if (url != NULL)
			return url;
	}
	return NULL;
}

static bool
project_is_hex(const char *s)
{
	size_t n = strspn(s, "0123456789abcdef");

	return (n == 40 || n == 64) && s[n] == '\0';
}

/* The commit a ref names: its loose file in gitdir or the common dir, else
 * its line in packed-refs. NULL when there is none. */
static char *
project_resolve_ref(const char *gitdir, const char *common, const char *ref)
{
	const char *dirs[] = {gitdir, common};
	char *path, *line, *packed = NULL, *found = NULL;
	size_t i, rlen = strlen(ref);
	const char *p;

	if (strstr(ref, "..") != NULL)
		return NULL;
	for (i = 0; i < UTIL_ARRAY_LEN(dirs); i++) {
		path = xasprintf("%s/%s", dirs[i], ref);
		line = project_read_line(path);
		free(path);
		if (line != NULL && project_is_hex(line))
			return line;
		free(line);
	}
	path = xasprintf("%s/packed-refs", common);
	if (project_read_file(path, PROJECT_FILE_MAX, &packed) == 0) {
		for (p = packed; *p != '\0' && found == NULL;
		     p += strcspn(p, "\n"), p += *p == '\n') {
			size_t hex = strspn(p, "0123456789abcdef");

			if ((hex == 40 || hex == 64) && p[hex] == ' ' &&
			    strncmp(p + hex + 1, ref, rlen) == 0 &&
			    (p[hex + 1 + rlen] == '\n' || p[hex + 1 + rlen] == '\r' ||
			     p[hex + 1 + rlen] == '\0'))
				found = xstrndup(p, hex);
		}
	}
	free(packed);
	free(path);
	return found;
}

/* Fills g from the git directory of the checkout at top. */
static void
project_read_gitdir(struct project_git *g, const char *gitdir)
{
	char *path = xasprintf("%s/commondir", gitdir), *line = project_read_line(path), *common;
	char *text = NULL, *head;

	free(path);
	common = line != NULL ? project_path(gitdir, line) : xstrdup(gitdir);
	free(line);
	path = xasprintf("%s/config", common);
	if (project_read_file(path, PROJECT_FILE_MAX, &text) == 0)
		g->origin = project_config_origin(text);
	free(text);
	free(path);
	path = xasprintf("%s/HEAD", gitdir);
	head = project_read_line(path);
	free(path);
	if (head != NULL && strncmp(head, "ref:", 4) == 0)
		g->commit = project_resolve_ref(gitdir, common, head + 4 + strspn(head + 4, " "));
	else if (head != NULL && project_is_hex(head))
		g->commit = xstrdup(head);
	free(head);
	free(common);
}

int
project_git_find(const char *dir, struct project_git *g)
{
	char *d = realpath(dir, NULL);

	memset(g, 0, sizeof *g);
	while (d != NULL) {
		char *dotgit = xasprintf("%s/.git", d), *gitdir = NULL, *line;
		struct stat st;

		if (stat(dotgit, &st) == 0 && S_ISDIR(st.st_mode)) {
			gitdir = xstrdup(dotgit);
		} else if ((line = project_read_line(dotgit)) != NULL) {
			if (strncmp(line, "gitdir:", 7) == 0)
				gitdir = project_path(d, line + 7 + strspn(line + 7, " "));
			free(line);
		}
		free(dotgit);
		if (gitdir != NULL) {
			project_read_gitdir(g, gitdir);
			g->gitdir = gitdir;
			g->top = d;
			return 0;
		}
		if (strcmp(d, "/") == 0)
			break;
		*(strrchr(d, '/') == d ? d + 1 : strrchr(d, '/')) = '\0';
	}
	free(d);
	return -ENOENT;
}

void
project_git_free(struct project_git *g)
{
	free(g->top);
	free(g->gitdir);
	free(g->commit);
	free(g->origin);
	memset(g, 0, sizeof *g);
}

/* The big-endian number in the n bytes at p. */
static uint32_t
project_be(const unsigned char *p, int n)
{
	uint32_t v = 0;
	int i;

	for (i = 0; i < n; i++)
		v = v << 8 | p[i];
	return v;
}

/* Sets name to the path of the index entry whose name field starts at
 * e[0] and may run to e[max - 1], in index version `version` (version 4
 * strips a count of bytes from the previous name and adds the rest).
 * Returns the bytes the name field takes, or 0 when it is malformed. */
static size_t
project_index_name(struct buf *name, const unsigned char *e, size_t max, uint32_t version)
{
	size_t used = 0, strip, n;
	unsigned char c;

	if (version < 4) {
		n = strnlen((const char *)e, max);
		if (n == max)
			return 0;
		buf_reset(name);
		buf_add(name, e, n);
		return n + 1;
	}
	/* git's varint: each continued byte adds one before the shift. */
	if (used == max)
		return 0;
	c = e[used++];
	strip = c & 127;
	while (c & 128) {
		if (used == max || strip > SIZE_MAX >> 8)
			return 0;
		c = e[used++];
		strip = ((strip + 1) << 7) + (c & 127);
	}
	n = strnlen((const char *)e + used, max - used);
	if (n == max - used || strip > name->len)
		return 0;
	name->len -= strip;
	buf_add(name, e + used, n);
	return used + n + 1;
}

/* Whether the working file of an index entry differs from the stat data
 * git recorded: missing, another size or another mtime (the nanoseconds
 * only where git recorded them). */
static bool
project_entry_differs(const char *path, const unsigned char *e)
{
	uint32_t nsec = project_be(e + 12, 4);
	struct stat st;

	if (lstat(path, &st) != 0)
		return true;
	return (uint32_t)st.st_size != project_be(e + 36, 4) ||
	       (uint32_t)st.st_mtim.tv_sec != project_be(e + 8, 4) ||
	       (nsec != 0 && (uint32_t)st.st_mtim.tv_nsec != nsec);
}

int
project_git_differs(const struct project_git *g, char **changed)
{
	char *path = xasprintf("%s/index", g->gitdir), *text = NULL;
	const unsigned char *p;
	size_t len = 0, off = 12, hashlen, fixed, hdr, used;
	uint32_t version, n, i, flags, ext;
	struct buf name, file;
	int rc;

	*changed = NULL;
	buf_init(&name);
	buf_init(&file);
	rc = util_read_regular(path, PROJECT_INDEX_MAX, &text, &len);
	if (rc < 0)
		goto out;
	p = (const unsigned char *)text;
	rc = -EINVAL;
	if (len < 12 || memcmp(p, "DIRC", 4) != 0)
		goto out;
	version = project_be(p + 4, 4);
	n = project_be(p + 8, 4);
	if (version < 2 || version > 4)
		goto out;
	hashlen = g->commit != NULL && strlen(g->commit) == 64 ? 32 : 20;
	/* ctime, mtime, dev, ino, mode, uid, gid, size, the hash, flags. */
	fixed = 40 + hashlen + 2;
	for (i = 0; i < n; i++) {
		const unsigned char *e = p + off;

		if (len - off < fixed)
			goto out;
		flags = project_be(e + fixed - 2, 2);
		hdr = fixed;
		ext = 0;
		if (flags & PROJECT_CE_EXTENDED) {
			if (version < 3 || len - off < fixed + 2)
				goto out;
			ext = project_be(e + fixed, 2);
			hdr += 2;
		}
		used = project_index_name(&name, e + hdr, len - off - hdr, version);
		if (used == 0)
			goto out;
		/* Versions 2 and 3 pad each entry with NULs to 8 bytes. */
		off += version < 4 ? (hdr + used - 1 + 8) & ~(size_t)7 : hdr + used;
		if (off > len)
			goto out;
		if ((flags & PROJECT_CE_VALID) ||
		    (ext & (PROJECT_CE_SKIP_WORKTREE | PROJECT_CE_INTENT_TO_ADD)) ||
		    (project_be(e + 24, 4) & S_IFMT) == PROJECT_S_IFGITLINK)
			continue;
		buf_reset(&file);
		buf_printf(&file, "%s/%s", g->top, name.data);
		if (PROJECT_CE_STAGE(flags) != 0 || project_entry_differs(file.data, e)) {
			*changed = buf_steal(&name);
			rc = 1;
			goto out;
		}
	}
	rc = 0;
out:
	buf_free(&name);
	buf_free(&file);
	free(text);
	free(path);
	return rc;
}

void
project_read_git(struct project *proj)
{
	struct project_git g;
	char *changed = NULL;

	if (project_git_find(proj->root, &g) < 0)
		return;
	proj->dirty = g.commit != NULL && project_git_differs(&g, &changed) == 1;
	free(changed);
	proj->commit = g.commit;
	proj->origin = g.origin;
	g.commit = g.origin = NULL;
	project_git_free(&g);
}
