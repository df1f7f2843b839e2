/* SPDX-License-Identifier: MIT */
/*
 * project.c: the checkout a project lives in (see project.h). It reads
 * .git, gitdir files, commondir, HEAD, refs, packed-refs and config by
 * hand, each capped and each opened only when it is a regular file.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "drivers/project.h"
#include "base/util.h"

#define PROJECT_SMALL_MAX ((size_t)4096)
#define PROJECT_FILE_MAX ((size_t)16 << 20)

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
			free(gitdir);
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
	free(g->commit);
	free(g->origin);
	memset(g, 0, sizeof *g);
}

void
project_read_git(struct project *proj)
{
	struct project_git g;

	if (project_git_find(proj->root, &g) < 0)
		return;
	proj->commit = g.commit;
	proj->origin = g.origin;
	g.commit = g.origin = NULL;
	project_git_free(&g);
}
