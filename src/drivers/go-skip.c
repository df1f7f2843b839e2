/* SPDX-License-Identifier: MIT */
/*
 * go-skip.c: the command that runs a Go package's tests but a few, one that
 * works where it is printed: from the directory of the package's module
 * (a repository of several modules has no go.mod at its root) and with the
 * module's toolchain, whose `go test` has -skip only from Go 1.20. Go's
 * regexp cannot exclude, so before 1.20 a -run names the other tests. A
 * line that enters a module does it in a subshell, so the lines run
 * together, pasted into one shell or as a script.
 */
#include "config.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/gettext.h"
#include "base/sanitize.h"
#include "base/util.h"
#include "drivers/go-modules.h"
#include "drivers/go-skip.h"
#include "drivers/parse-go.h"
#include "drivers/project.h"
#include "engine/proc.h"

/* A _test.go file is a few hundred kilobytes at most. */
#define GO_SKIP_SOURCE_MAX ((size_t)4 << 20)

/* Where the skip command runs: the module and the package within it. */
struct go_skip_place {
	char *cd;        /* the module directory relative to the current one, or NULL: here */
	char *target;    /* the package as `go test` takes it there */
	char *pkg_dir;   /* the package's directory, or NULL when not found */
	char *toolchain; /* "go1.19.8", or NULL when unknown */
};

/* to relative to from (both absolute): "" for from itself. */
static char *
go_skip_relative(const char *from, const char *to)
{
	size_t common = 0, i;
	struct buf b;

	for (i = 0; from[i] != '\0' && from[i] == to[i]; i++) {
		if (from[i] == '/')
			common = i;
	}
	if ((from[i] == '\0' || from[i] == '/') && (to[i] == '\0' || to[i] == '/'))
		common = i;
	buf_init(&b);
	buf_add(&b, "", 0);
	/* One ".." for each component of from below the common prefix. */
	for (i = common; from[i] != '\0'; i++) {
		if (from[i] == '/')
			buf_printf(&b, "%s..", b.len > 0 ? "/" : "");
	}
	if (to[common] == '/')
		buf_printf(&b, "%s%s", b.len > 0 ? "/" : "", to + common + 1);
	return buf_steal(&b);
}

/* Finds package's module at or below root and asks its toolchain. */
static void
go_skip_place_find(struct go_skip_place *pl, const char *package, const char *root)
{
	char *ver_argv[] = {"go", "env", "GOVERSION", NULL};
	struct go_modules mods = {NULL, 0};
	const struct go_module *m;
	char *cwd, *rel;
	size_t len;

	memset(pl, 0, sizeof *pl);
	if (root != NULL)
		go_modules_below(root, true, &mods);
	m = go_modules_owner(&mods, package);
	if (m == NULL || strstr(package, "..") != NULL) {
		pl->target = xstrdup(package);
		go_modules_free(&mods);
		return;
	}
	len = strlen(m->path);
	pl->target = package[len] == '\0' ? xstrdup(".") : xasprintf("./%s", package + len + 1);
	pl->pkg_dir =
	    package[len] == '\0' ? xstrdup(m->dir) : xasprintf("%s/%s", m->dir, package + len + 1);
	pl->toolchain = proc_capture_line(ver_argv, m->dir);
	cwd = getcwd(NULL, 0);
	rel = cwd != NULL && cwd[0] == '/' ? go_skip_relative(cwd, m->dir) : xstrdup(m->dir);
	if (rel[0] != '\0')
		pl->cd = sanitize_shell_quote(rel);
	free(rel);
	free(cwd);
	go_modules_free(&mods);
}

static void
go_skip_place_free(struct go_skip_place *pl)
{
	free(pl->cd);
	free(pl->target);
	free(pl->pkg_dir);
	free(pl->toolchain);
}

static int
go_skip_cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Appends to *names each "func TestXxx(" of text, as `go test` finds
 * tests: "Test" then nothing or a character that is not a lower-case
 * letter; TestMain is no test. */
static void
go_skip_scan(const char *text, char ***names, size_t *n)
{
	const char *p = text;

	while (p != NULL && *p != '\0') {
		if (strncmp(p, "func Test", 9) == 0) {
			size_t len = strcspn(p + 5, "( \t[\n");
			const char *name = p + 5;

			if (name[len] == '(' && !(name[4] >= 'a' && name[4] <= 'z') &&
			    !(len == 8 && strncmp(name, "TestMain", 8) == 0)) {
				*names = xrealloc(*names, sizeof **names * (*n + 2));
				(*names)[(*n)++] = xstrndup(name, len);
			}
		}
		p = strchr(p, '\n');
		if (p != NULL)
			p++;
	}
}

/* The top-level tests of the package in dir that no test of skip (n
 * names, subtests too) covers, sorted, NULL-terminated; NULL when dir
 * holds no test. Caller frees each and the array. */
static char **
go_skip_others(const char *dir, const char *const *skip, size_t n)
{
	char **names = NULL, **kept;
	size_t count = 0, nkept = 0, i, j;
	DIR *d = opendir(dir);
	struct dirent *de;

	while (d != NULL && (de = readdir(d)) != NULL) {
		size_t len = strlen(de->d_name);
		char *path, *text = NULL;

		if (len <= 8 || strcmp(de->d_name + len - 8, "_test.go") != 0)
			continue;
		path = xasprintf("%s/%s", dir, de->d_name);
		if (project_read_file(path, GO_SKIP_SOURCE_MAX, &text) == 0)
			go_skip_scan(text, &names, &count);
		free(text);
		free(path);
	}
	if (d != NULL)
		closedir(d);
	if (count == 0)
		return NULL;
	qsort(names, count, sizeof *names, go_skip_cmp_names);
	kept = xcalloc(count + 1, sizeof *kept);
	for (i = 0; i < count; i++) {
		bool drop = nkept > 0 && strcmp(kept[nkept - 1], names[i]) == 0;

		/* A quarantined subtest leaves out its whole top-level test (a
		 * copy of a dropped name is dropped again here). */
		for (j = 0; j < n && !drop; j++)
			drop =
			    strncmp(skip[j], names[i], strlen(names[i])) == 0 &&
			    (skip[j][strlen(names[i])] == '\0' || skip[j][strlen(names[i])] == '/');
		if (drop)
			free(names[i]);
		else
			kept[nkept++] = names[i];
	}
	free(names);
	return kept;
}

/* The -skip pattern of the tests: Go splits it at unbracketed '/' and '|'
 * and matches each level of a name against its own element, so the -run
 * pattern of each test, joined. */
static char *
go_skip_pattern(const char *const *tests, size_t n)
{
	struct buf pat;
	size_t i;

	buf_init(&pat);
	buf_add(&pat, "", 0);
	for (i = 0; i < n; i++) {
		char *one = parse_go_run_pattern(tests[i]);

		buf_printf(&pat, "%s%s", i > 0 ? "|" : "", one);
		free(one);
	}
	return buf_steal(&pat);
}

/* The line `go test FLAG PATTERN TARGET` at pl: in a subshell that enters
 * the module's directory when it is not the current one, so that lines
 * run one after another in one shell each start from where they were
 * printed. */
static char *
go_skip_command(const struct go_skip_place *pl, const char *flag, const char *pattern)
{
	char *qp = sanitize_shell_quote(pattern), *qpkg = sanitize_shell_quote(pl->target), *line;

	line = pl->cd != NULL ? xasprintf("(cd %s && go test %s %s %s)\n", pl->cd, flag, qp, qpkg)
	                      : xasprintf("go test %s %s %s\n", flag, qp, qpkg);
	free(qpkg);
	free(qp);
	return line;
}

/* Before Go 1.20: a comment, then a -run of the package's other tests
 * when they are known. */
static void
go_skip_old(struct buf *out, const struct go_skip_place *pl, const char *package,
            const char *const *tests, size_t n, const char *skip_line)
{
	char **others = pl->pkg_dir != NULL ? go_skip_others(pl->pkg_dir, tests, n) : NULL;
	size_t i;

	if (others == NULL) {
		buf_printf(
		    out,
		    _("# %s has no -skip (Go 1.20 added it), and Go's -run cannot leave a test "
		      "out without naming the others, which are not known here\n"),
		    pl->toolchain);
		buf_adds(out, skip_line);
	} else if (others[0] == NULL) {
		buf_printf(
		    out,
		    _("# %s has no -skip (Go 1.20 added it); every test of %s is quarantined: "
		      "nothing to run\n"),
		    pl->toolchain, package);
	} else {
		char *re = parse_go_run_alternation(others),
		     *line = go_skip_command(pl, "-run", re);

		buf_printf(out,
		           _("# %s has no -skip (Go 1.20 added it): a -run of the package's other "
		             "tests instead\n"),
		           pl->toolchain);
		buf_adds(out, line);
		free(line);
		free(re);
	}
	for (i = 0; others != NULL && others[i] != NULL; i++)
		free(others[i]);
	free(others);
}

char *
go_skip_args(const char *package, const char *const *tests, size_t n, bool bare, const char *root)
{
	char *pat = go_skip_pattern(tests, n), *line;
	struct go_skip_place pl;
	struct buf out;

	if (bare) {
		line = xasprintf("%s\n", pat);
		free(pat);
		return line;
	}
	go_skip_place_find(&pl, package, root);
	line = go_skip_command(&pl, "-skip", pat);
	buf_init(&out);
	buf_add(&out, "", 0);
	if (go_modules_newer("1.20", pl.toolchain))
		go_skip_old(&out, &pl, package, tests, n, line);
	else
		buf_adds(&out, line);
	free(line);
	free(pat);
	go_skip_place_free(&pl);
	return buf_steal(&out);
}
