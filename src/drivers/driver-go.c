/* SPDX-License-Identifier: MIT */
/*
 * driver-go.c: the Go driver. It discovers packages and their build-tag
 * levels with `go list`, builds each into a test binary with `go test -c`,
 * lists its tests with -test.list, and gives the argv of one run. Parsing a
 * run's output is parse-go.c's job.
 */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "drivers/driver.h"
#include "drivers/parser-adapter.h"
#include "drivers/go-modules.h"
#include "drivers/go-skip.h"
#include "drivers/parse-go.h"
#include "engine/proc.h"
#include "drivers/project.h"
#include "base/util.h"

extern char **environ;

#define DRIVER_GO_OUTPUT_MAX (16 << 20)
/* The largest _test.go file searched for a test's definition (bytes). */
#define DRIVER_GO_SOURCE_MAX ((size_t)4 << 20)

/* Build constraints that name a platform or toolchain, not a level. */
static const char *const driver_go_not_levels[] = {
    "aix",          "android", "darwin",  "dragonfly", "freebsd", "hurd",     "illumos",
    "ios",          "js",      "linux",   "nacl",      "netbsd",  "openbsd",  "plan9",
    "solaris",      "wasip1",  "windows", "zos",       "386",     "amd64",    "arm",
    "arm64",        "loong64", "mips",    "mipsle",    "mips64",  "mips64le", "ppc64",
    "ppc64le",      "riscv64", "s390x",   "wasm",      "cgo",     "gc",       "gccgo",
    "race",         "msan",    "asan",    "unix",      "ignore",  "purego",   "boringcrypto",
    "goexperiment",
};

static bool
driver_go_is_level_tag(const char *tag)
{
	size_t i;

	if (strncmp(tag, "go1", 3) == 0 || strncmp(tag, "goexperiment.", 13) == 0)
		return false;
	for (i = 0; i < UTIL_ARRAY_LEN(driver_go_not_levels); i++) {
		if (strcmp(tag, driver_go_not_levels[i]) == 0)
			return false;
	}
	return true;
}

static void
driver_go_add_unique(char ***v, size_t *n, const char *s)
{
	size_t i;

	for (i = 0; i < *n; i++) {
		if (strcmp((*v)[i], s) == 0)
			return;
	}
	util_strv_add(v, n, s);
}

/* Whether name is a Go test file's: NAME_test.go. */
static bool
driver_go_is_test_file(const char *name)
{
	size_t len = strlen(name);

	return len > 8 && strcmp(name + len - 8, "_test.go") == 0;
}

/* The level tags of a package: identifiers in the build constraints
 * (//go:build or the older // +build lines, before the package clause) of
 * its _test.go files that name no platform or toolchain. */
static void
driver_go_scan_levels(const char *dir, char ***tags, size_t *ntags)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	while (d != NULL && (de = readdir(d)) != NULL) {
		char *path, *text, *line, *save = NULL;

		if (!driver_go_is_test_file(de->d_name))
			continue;
		path = xasprintf("%s/%s", dir, de->d_name);
		if (util_read_file(path, 1 << 22, &text, NULL) < 0) {
			free(path);
			continue;
		}
		for (line = strtok_r(text, "\n", &save);
		     line != NULL && strncmp(line, "package ", 8) != 0;
		     line = strtok_r(NULL, "\n", &save)) {
			const char *p;

			if (strncmp(line, "//go:build ", 11) == 0)
				p = line + 11;
			else if (strncmp(line, "// +build ", 10) == 0)
				p = line + 10;
			else
				continue;
			while (*p != '\0') {
				const char *start;
				char *tag;

				while (*p != '\0' && !(isalnum((unsigned char)*p) || *p == '_'))
					p++;
				start = p;
				while (isalnum((unsigned char)*p) || *p == '_' || *p == '.')
					p++;
				if (p == start)
					continue;
				tag = xstrndup(start, (size_t)(p - start));
				if (driver_go_is_level_tag(tag))
					driver_go_add_unique(tags, ntags, tag);
				free(tag);
			}
		}
		free(text);
		free(path);
	}
	if (d != NULL)
		closedir(d);
}

static bool
driver_go_level_wanted(const struct options *o, const char *level)
{
	int i;

	if (o->tags == NULL)
		return true;
	for (i = 0; i < o->ntags; i++) {
		if (strcmp(o->tags[i], level) == 0)
			return true;
	}
	return false;
}

static void
driver_go_add_pkg(struct pkg ***pkgs, size_t *n, const char *name, const char *dir,
                  const char *level)
{
	struct pkg *p = xcalloc(1, sizeof *p);

	p->name = xstrdup(name);
	p->dir = xstrdup(dir);
	p->level = xstrdup(level);
	*pkgs = xrealloc(*pkgs, sizeof **pkgs * (*n + 1));
	(*pkgs)[(*n)++] = p;
}

/* The project of the module at dir (NULL: the current directory). */
static void
driver_go_project(struct project *proj, const char *dir)
{
	char *cwd = dir != NULL ? xstrdup(dir) : getcwd(NULL, 0);
	char *mod_argv[] = {"go", "list", "-m", "-f", "{{.Dir}}", NULL};
	char *ver_argv[] = {"go", "env", "GOVERSION", NULL};
	char *root;

	root = proc_capture_line(mod_argv, dir);
	proj->root = root != NULL ? root : xstrdup(cwd != NULL ? cwd : ".");
	proj->toolchain = proc_capture_line(ver_argv, dir);
	project_read_git(proj);
	free(cwd);
}

/* One `go list` run: where, and the patterns it lists there. */
struct driver_go_listing {
	char *dir;
	char **patterns;
	size_t npatterns;
	char *what; /* how the report names it when it fails */
};

/* The level tags found in a walk of directories. */
struct driver_go_tag_walk {
	char **tags;
	size_t ntags;
};

struct driver_go_discovery {
	const struct options *o;
	struct driver_go_listing *v;
	size_t n;
	struct go_modules below; /* every module at or below the root */
};

static void
driver_go_listing_add(struct driver_go_discovery *d, const char *dir, const char *pattern,
                      const char *what)
{
	struct driver_go_listing *l;
	size_t i;

	for (i = 0; i < d->n; i++) {
		if (strcmp(d->v[i].dir, dir) == 0) {
			util_strv_add(&d->v[i].patterns, &d->v[i].npatterns, pattern);
			return;
		}
	}
	d->v = xrealloc(d->v, sizeof *d->v * (d->n + 1));
	l = &d->v[d->n++];
	l->dir = xstrdup(dir);
	l->patterns = NULL;
	l->npatterns = 0;
	l->what = xstrdup(what);
	util_strv_add(&l->patterns, &l->npatterns, pattern);
}

/* Whether go works in GOPATH mode in dir (GO111MODULE=off), where no
 * module is needed: `go env GOMOD` is empty then, and /dev/null in module
 * mode with no go.mod. */
static bool
driver_go_gopath_mode(const char *dir)
{
	char *argv[] = {"go", "env", "GOMOD", NULL};
	char *line = proc_capture_line(argv, dir);
	bool yes = line == NULL;

	free(line);
	return yes;
}

/* A pattern relative to the root ("./grpc/...", "."): listed in its own
 * directory, whose module Go finds, and, with "...", every module below
 * it, which `go list ./...` would not enter. A directory in no module is
 * not itself listed (Go would refuse it), outside GOPATH mode, when
 * modules lie below it.
 * Returns -1 with *err for a directory that is not there or holds no
 * module at all. */
static int
driver_go_plan_relative(struct driver_go_discovery *d, const char *root, const char *pattern,
                        char **err)
{
	size_t len = strlen(pattern);
	bool recursive = len >= 3 && strcmp(pattern + len - 3, "...") == 0;
	char *base = xstrndup(pattern, recursive ? len - 3 : len), *dir;
	struct go_modules nested = {NULL, 0};
	struct stat st;
	bool inside;
	size_t i;
	int rc = 0;

	if (recursive && strlen(base) > 0 && base[strlen(base) - 1] == '/')
		base[strlen(base) - 1] = '\0';
	dir = base[0] == '/'                              ? xstrdup(base)
	      : base[0] == '\0' || strcmp(base, ".") == 0 ? xstrdup(root)
	                                                  : xasprintf("%s/%s", root, base);
	if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode)) {
		*err = xasprintf(_("%s: no such directory in %s: expected a package directory, a "
		                   "pattern ending in /... or an import path"),
		                 pattern, root);
		rc = -1;
		goto out;
	}
	inside = go_modules_inside(dir) || driver_go_gopath_mode(dir);
	if (recursive)
		go_modules_below(dir, false, &nested);
	if (!inside && nested.n == 0) {
		*err =
		    xasprintf(_("%s: no Go module in %s, above it or below it: expected a go.mod "
		                "(`go mod init`), or a go.work at the root"),
		              pattern, dir);
		rc = -1;
		goto out;
	}
	if (inside)
		driver_go_listing_add(d, dir, recursive ? "./..." : ".", pattern);
	for (i = 0; i < nested.n; i++) {
		const struct go_module *m = &nested.v[i];
		size_t rlen = strlen(root);
		char *what = m->path != NULL ? xstrdup(m->path)
		             : strncmp(m->dir, root, rlen) == 0 && m->dir[rlen] == '/'
		                 ? xasprintf(".%s", m->dir + rlen)
		                 : xstrdup(m->dir);

		driver_go_listing_add(d, m->dir, "./...", what);
		free(what);
	}
out:
	go_modules_free(&nested);
	free(dir);
	free(base);
	return rc;
}

/* What to list where: go.work's modules, or every module at and below the
 * root, when no pattern was given; else each pattern in the module that
 * holds it. Returns -1 with *err for a pattern that names nothing. */
static int
driver_go_plan(struct driver_go_discovery *d, const char *root, char **err)
{
	const struct options *o = d->o;
	struct go_modules work = {NULL, 0};
	size_t i;
	int k;

	go_modules_below(root, true, &d->below);
	if (o->npackages == 0 && go_modules_work(root, &work)) {
		for (i = 0; i < work.n; i++)
			driver_go_listing_add(d, work.v[i].dir, "./...",
			                      work.v[i].path != NULL ? work.v[i].path
			                                             : work.v[i].dir);
		go_modules_free(&work);
		return 0;
	}
	if (o->npackages == 0)
		return driver_go_plan_relative(d, root, "./...", err);
	for (k = 0; k < o->npackages; k++) {
		const char *p = o->packages[k];
		const struct go_module *m;

		if (p[0] == '.' || p[0] == '/') {
			if (driver_go_plan_relative(d, root, p, err) < 0)
				return -1;
			continue;
		}
		m = go_modules_owner(&d->below, p);
		driver_go_listing_add(d, m != NULL ? m->dir : root, p, p);
	}
	return 0;
}

/* Whether pkgs holds the package name at level. */
static bool
driver_go_has_pkg(struct pkg *const *pkgs, size_t npkgs, const char *name, const char *level)
{
	size_t i;

	for (i = 0; i < npkgs; i++) {
		if (strcmp(pkgs[i]->name, name) == 0 && strcmp(pkgs[i]->level, level) == 0)
			return true;
	}
	return false;
}

/* Whether dir holds a _test.go file. */
static bool
driver_go_has_tests(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	bool yes = false;

	while (d != NULL && !yes && (de = readdir(d)) != NULL)
		yes = driver_go_is_test_file(de->d_name);
	if (d != NULL)
		closedir(d);
	return yes;
}

/* One package as `go list -e` gave it. */
struct driver_go_listed {
	char name[4096], dir[4096];
	int ntest, nxtest;
	const char *error; /* go's reason it could not load it, or "" */
};

/* Adds what one listed package holds to pkgs: without tag, its untagged
 * tests and a level for each tag of its test files; with tag, only that
 * level (a package whose test files all carry tag). A package go could not
 * load but that has test files fails with go's reason. */
static void
driver_go_list_one(const struct options *o, const struct driver_go_listed *p, const char *tag,
                   struct pkg ***pkgs, size_t *npkgs)
{
	char **tags = NULL;
	size_t ntags = 0, t;

	if (p->error[0] != '\0') {
		if (tag != NULL || !driver_go_has_tests(p->dir))
			return;
		driver_go_scan_levels(p->dir, &tags, &ntags);
		/* Only its build tags keep go from it (a test package behind a
		 * tag, named by its directory): its levels list it. */
		if (ntags > 0 && strstr(p->error, "build constraints exclude") != NULL)
			goto levels;
		if (!driver_go_has_pkg(*pkgs, *npkgs, p->name, "unit")) {
			driver_go_add_pkg(pkgs, npkgs, p->name, p->dir, "unit");
			(*pkgs)[*npkgs - 1]->build_output =
			    xasprintf(_("go list cannot load the package: %s"), p->error);
		}
		util_strv_free(tags);
		return;
	}
	if (tag != NULL) {
		/* Only where a test file carries the tag: the others' tests
		 * are the unit level's. */
		if (p->ntest + p->nxtest > 0 && !driver_go_has_pkg(*pkgs, *npkgs, p->name, tag))
			driver_go_scan_levels(p->dir, &tags, &ntags);
		for (t = 0; t < ntags; t++) {
			if (strcmp(tags[t], tag) == 0)
				driver_go_add_pkg(pkgs, npkgs, p->name, p->dir, tag);
		}
		util_strv_free(tags);
		return;
	}
	/* go list counts only files of the default build; a package whose
	 * tests all carry a tag still has levels. */
	if (p->ntest + p->nxtest > 0 && driver_go_level_wanted(o, "unit") &&
	    !driver_go_has_pkg(*pkgs, *npkgs, p->name, "unit"))
		driver_go_add_pkg(pkgs, npkgs, p->name, p->dir, "unit");
	driver_go_scan_levels(p->dir, &tags, &ntags);
levels:
	for (t = 0; t < ntags; t++) {
		if (driver_go_level_wanted(o, tags[t]) &&
		    !driver_go_has_pkg(*pkgs, *npkgs, p->name, tags[t]))
			driver_go_add_pkg(pkgs, npkgs, p->name, p->dir, tags[t]);
	}
	util_strv_free(tags);
}

/* Lists one directory's packages into pkgs, with tag set (and -tags tag)
 * or in the default build. A listing that fails becomes a package that
 * failed to build, so the rest goes on; returns -1 with *err only for the
 * caller to use when nothing else was found. */
static int
driver_go_list(const struct driver_go_discovery *d, const struct driver_go_listing *l,
               const char *tag, struct pkg ***pkgs, size_t *npkgs, char **err)
{
	char **argv = NULL, *out = NULL, *rec, *end, *tab, *nl;
	size_t n = 0, i;
	int rc;

	util_strv_add(&argv, &n, "go");
	util_strv_add(&argv, &n, "list");
	util_strv_add(&argv, &n, "-e");
	if (tag != NULL) {
		char *tags = d->o->build_tags != NULL ? xasprintf("%s,%s", tag, d->o->build_tags)
		                                      : xstrdup(tag);

		util_strv_add(&argv, &n, "-tags");
		util_strv_add(&argv, &n, tags);
		free(tags);
	}
	util_strv_add(&argv, &n, "-f");
	/* A record ends with \x1e: go's error may span lines. */
	util_strv_add(&argv, &n,
	              "{{.ImportPath}}\t{{.Dir}}\t{{len .TestGoFiles}}\t{{len .XTestGoFiles}}\t"
	              "{{if .Error}}{{.Error}}{{end}}\x1e");
	for (i = 0; i < l->npatterns; i++)
		util_strv_add(&argv, &n, l->patterns[i]);
	rc = proc_capture(argv, l->dir, environ, DRIVER_GO_OUTPUT_MAX, &out);
	util_strv_free(argv);
	if (rc != 0) {
		*err = rc < 0 ? xasprintf(_("go list failed: %s\n%s"), strerror(-rc), out)
		              : xasprintf(_("go list failed (exit %d):\n%s"), rc, out);
		free(out);
		return -1;
	}
	for (rec = out; (end = strchr(rec, '\x1e')) != NULL; rec = end + 1) {
		struct driver_go_listed p;
		int used = 0;

		*end = '\0';
		/* Lines go wrote to stderr ("matched no packages") come before
		 * a record's first tab. */
		for (tab = rec + strcspn(rec, "\t"); (nl = strchr(rec, '\n')) != NULL && nl < tab;)
			rec = nl + 1;
		if (sscanf(rec, "%4095[^\t]\t%4095[^\t]\t%d\t%d\t%n", p.name, p.dir, &p.ntest,
		           &p.nxtest, &used) != 4 ||
		    used == 0)
			continue;
		p.error = rec + used;
		driver_go_list_one(d->o, &p, tag, pkgs, npkgs);
	}
	free(out);
	return 0;
}

static void
driver_go_tags_of_dir(const char *dir, void *arg)
{
	struct driver_go_tag_walk *w = arg;

	driver_go_scan_levels(dir, &w->tags, &w->ntags);
}

/* Lists the packages of l, then again under each level tag found in the
 * test files of its module's directories, and with the tag wanted: a test
 * package whose files all carry a tag is in no default listing. */
static int
driver_go_list_levels(const struct driver_go_discovery *d, const struct driver_go_listing *l,
                      struct pkg ***pkgs, size_t *npkgs, char **err)
{
	struct driver_go_tag_walk w = {NULL, 0};
	size_t t;
	int rc = driver_go_list(d, l, NULL, pkgs, npkgs, err);

	if (rc < 0)
		return rc;
	go_modules_walk(l->dir, true, driver_go_tags_of_dir, &w);
	for (t = 0; t < w.ntags && rc == 0; t++) {
		if (driver_go_level_wanted(d->o, w.tags[t]))
			rc = driver_go_list(d, l, w.tags[t], pkgs, npkgs, err);
	}
	util_strv_free(w.tags);
	return rc;
}

/* Warns, through proj, of a module whose go.mod asks for a newer Go than
 * the one here: CI builds it with that one. */
static void
driver_go_check_versions(const struct driver_go_discovery *d, struct project *proj)
{
	size_t i, k;
	char *w;

	for (i = 0; i < d->n; i++) {
		for (k = 0; k < d->below.n; k++) {
			const struct go_module *m = &d->below.v[k];

			if (strcmp(m->dir, d->v[i].dir) != 0 ||
			    !go_modules_newer(m->go, proj->toolchain))
				continue;
			w = xasprintf(
			    _("module %s asks for go %s in its go.mod; the local Go is %s, "
			      "so its builds may differ from CI's"),
			    m->path != NULL ? m->path : m->dir, m->go, proj->toolchain);
			util_strv_add(&proj->warnings, &proj->nwarnings, w);
			free(w);
		}
	}
}

static void
driver_go_discovery_free(struct driver_go_discovery *d)
{
	size_t i;

	for (i = 0; i < d->n; i++) {
		free(d->v[i].dir);
		free(d->v[i].what);
		util_strv_free(d->v[i].patterns);
	}
	free(d->v);
	go_modules_free(&d->below);
}

static int
driver_go_discover(const struct options *o, struct project *proj, struct pkg ***pkgs, size_t *npkgs,
                   char **err)
{
	struct driver_go_discovery d = {o, NULL, 0, {NULL, 0}};
	char *root = o->dir != NULL ? realpath(o->dir, NULL) : getcwd(NULL, 0), *first = NULL;
	size_t i, failed = 0;

	*pkgs = NULL;
	*npkgs = 0;
	driver_go_project(proj, o->dir);
	if (proj->toolchain == NULL) {
		*err = xstrdup(_("cannot run `go env GOVERSION`: is Go installed and on PATH?"));
		free(root);
		return -1;
	}
	if (driver_go_plan(&d, root != NULL ? root : ".", err) < 0) {
		driver_go_discovery_free(&d);
		free(root);
		return -1;
	}
	/* Several modules: the root is where the sweep stands. */
	if (d.n > 1 && root != NULL) {
		free(proj->root);
		proj->root = xstrdup(root);
	}
	for (i = 0; i < d.n; i++) {
		char *why = NULL;

		if (driver_go_list_levels(&d, &d.v[i], pkgs, npkgs, &why) == 0)
			continue;
		failed++;
		if (first == NULL)
			first = xstrdup(why);
		driver_go_add_pkg(pkgs, npkgs, d.v[i].what, d.v[i].dir, "unit");
		(*pkgs)[*npkgs - 1]->build_output = why;
	}
	driver_go_check_versions(&d, proj);
	driver_go_discovery_free(&d);
	free(root);
	if (failed == *npkgs) {
		/* Nothing listed: the listing's error is the sweep's. */
		driver_free_pkgs(*pkgs, *npkgs);
		*pkgs = NULL;
		*npkgs = 0;
		*err = first != NULL ? first : xstrdup(_("no package with tests matched"));
		return -1;
	}
	free(first);
	return 0;
}

static char *
driver_go_binary_name(const struct pkg *pkg, const char *bindir)
{
	char *name = xasprintf("%s/%s.%s.test", bindir, pkg->name, pkg->level), *p;

	for (p = name + strlen(bindir) + 1; *p != '\0'; p++) {
		if (*p == '/')
			*p = '_';
	}
	return name;
}

static char **
driver_go_build_argv(const struct options *o, const struct project *proj, struct pkg *pkg,
                     const char *bindir)
{
	char **argv = NULL;
	size_t n = 0;

	(void)proj;
	free(pkg->binary);
	pkg->binary = driver_go_binary_name(pkg, bindir);
	util_strv_add(&argv, &n, "go");
	util_strv_add(&argv, &n, "test");
	util_strv_add(&argv, &n, "-c");
	util_strv_add(&argv, &n, "-o");
	util_strv_add(&argv, &n, pkg->binary);
	if (o->race)
		util_strv_add(&argv, &n, "-race");
	if (o->cover)
		util_strv_add(&argv, &n, "-cover");
	if (strcmp(pkg->level, "unit") != 0 || o->build_tags != NULL) {
		char *tags;

		if (strcmp(pkg->level, "unit") == 0)
			tags = xstrdup(o->build_tags);
		else if (o->build_tags != NULL)
			tags = xasprintf("%s,%s", pkg->level, o->build_tags);
		else
			tags = xstrdup(pkg->level);
		util_strv_add(&argv, &n, "-tags");
		util_strv_add(&argv, &n, tags);
		free(tags);
	}
	util_strv_add(&argv, &n, pkg->name);
	return argv;
}

/* "go1.23.5" from the `go version BINARY` line "BINARY: go1.23.5". */
static char *
driver_go_binary_version(const char *binary)
{
	char *argv[] = {"go", "version", (char *)binary, NULL};
	char *line = proc_capture_line(argv, NULL), *v, *end;

	if (line == NULL)
		return NULL;
	v = strstr(line, ": go");
	if (v == NULL) {
		free(line);
		return NULL;
	}
	v += 2;
	end = v + strcspn(v, " \t");
	v = xstrndup(v, (size_t)(end - v));
	free(line);
	return v;
}

static bool
driver_go_has_marker(const char *version)
{
	int major = 0, minor = 0;

	if (version == NULL || sscanf(version, "go%d.%d", &major, &minor) != 2)
		return false;
	return major > 1 || (major == 1 && minor >= 20);
}

static char **
driver_go_list_argv(const struct options *o, struct pkg *pkg)
{
	char **argv = NULL;
	size_t n = 0;

	(void)o;
	if (access(pkg->binary, X_OK) < 0) {
		/* go test -c writes nothing for a package with no test files at
		 * this level: nothing to run, and no failure. */
		pkg->empty = true;
		return NULL;
	}
	util_strv_add(&argv, &n, pkg->binary);
	util_strv_add(&argv, &n, "-test.list");
	util_strv_add(&argv, &n, ".*");
	return argv;
}

/* The listing runs TestMain, which may itself be flaky (the sweep tries
 * it three times) or hang (its limit is a run's). */
static int
driver_go_listed(const struct options *o, struct pkg *pkg, int rc, const char *listing)
{
	char *out = xstrdup(listing), *line, *save = NULL;
	char **tests = NULL;
	size_t n = 0;

	if (rc == -ETIMEDOUT) {
		pkg->build_ok = false;
		free(pkg->build_output);
		pkg->build_output =
		    xasprintf(_("%s -test.list passed its time limit of %lld ms:\n%s"), pkg->binary,
		              (long long)DRIVER_LIST_LIMIT_MS(o), out);
		free(out);
		return -1;
	}
	/* A TestMain that fails after m.Run() still printed the list. */
	if (rc != 0 && strstr(out, "\nTest") == NULL && strncmp(out, "Test", 4) != 0) {
		pkg->build_ok = false;
		free(pkg->build_output);
		pkg->build_output =
		    xasprintf(_("%s -test.list failed (exit %d):\n%s"), pkg->binary, rc, out);
		free(out);
		return -1;
	}
	for (line = strtok_r(out, "\n", &save); line != NULL; line = strtok_r(NULL, "\n", &save)) {
		/* Benchmarks do not run without -test.bench. */
		if (strncmp(line, "Test", 4) == 0 || strncmp(line, "Example", 7) == 0 ||
		    strncmp(line, "Fuzz", 4) == 0)
			util_strv_add(&tests, &n, line);
	}
	free(out);
	util_strv_free(pkg->tests);
	pkg->tests = tests;
	pkg->ntests = n;
	pkg->empty = n == 0;
	free(pkg->toolchain);
	pkg->toolchain = driver_go_binary_version(pkg->binary);
	pkg->framing_marker = driver_go_has_marker(pkg->toolchain);
	return 0;
}

/* Whether the binary's regexp package compiles re: -test.list compiles its
 * pattern whole (and a pattern that compiles whole compiles in each of the
 * '/'-separated elements -test.run and -test.skip match level by level). */
static int
driver_go_check_regexp(const struct options *o, const struct pkg *pkg, const char *opt,
                       const char *re, char **err)
{
	char *arg = xasprintf("-test.list=%s", re), *out = NULL, *why;
	char *argv[] = {pkg->binary, arg, NULL};
	int rc;

	rc = proc_capture_limit(argv, pkg->dir, environ, DRIVER_GO_OUTPUT_MAX,
	                        DRIVER_LIST_LIMIT_MS(o), &out);
	free(arg);
	why = strstr(out, "invalid regexp");
	if (rc != 0 && why != NULL) {
		/* "testing: invalid regexp in -test.list (PATTERN): error
		 * parsing regexp: ...": keep Go's reason. */
		char *reason = strstr(why, "): ");

		reason = reason != NULL ? reason + 3 : why;
		reason[strcspn(reason, "\n")] = '\0';
		*err = xasprintf(_("invalid regexp for --%s \"%s\": %s"), opt, re, reason);
		free(out);
		return -1;
	}
	free(out);
	return 0;
}

static int
driver_go_check(const struct options *o, const struct pkg *pkg, char **err)
{
	if (o->run_re != NULL && driver_go_check_regexp(o, pkg, "run", o->run_re, err) < 0)
		return -1;
	if (o->skip_re != NULL && driver_go_check_regexp(o, pkg, "skip", o->skip_re, err) < 0)
		return -1;
	return 0;
}

/* For Go 1.19, which has no -test.skip: a -test.run pattern naming the
 * listed top-level tests that run_re (when set) and not skip_re select.
 * POSIX extended regexps stand in for Go's syntax, which they share for
 * the usual patterns; one that does not compile selects nothing. Caller
 * frees. */
static char *
driver_go_spared_pattern(const struct pkg *pkg, const char *run_re, const char *skip_re)
{
	regex_t run, skip;
	struct buf b;
	bool have_run = run_re != NULL, any = false;
	size_t i;

	if (regcomp(&skip, skip_re, REG_EXTENDED | REG_NOSUB) != 0)
		return xstrdup("^$");
	if (have_run && regcomp(&run, run_re, REG_EXTENDED | REG_NOSUB) != 0) {
		regfree(&skip);
		return xstrdup("^$");
	}
	buf_init(&b);
	buf_adds(&b, "^(");
	for (i = 0; i < pkg->ntests; i++) {
		if (have_run && regexec(&run, pkg->tests[i], 0, NULL, 0) != 0)
			continue;
		if (regexec(&skip, pkg->tests[i], 0, NULL, 0) == 0)
			continue;
		buf_printf(&b, "%s%s", any ? "|" : "", pkg->tests[i]);
		any = true;
	}
	buf_adds(&b, ")$");
	regfree(&skip);
	if (have_run)
		regfree(&run);
	if (!any) {
		buf_free(&b);
		return xstrdup("^$");
	}
	return buf_steal(&b);
}

static char **
driver_go_run_argv(const struct options *o, const struct pkg *pkg, const struct driver_run *r)
{
	char **argv = NULL, *s, *pat = NULL;
	size_t n = 0;

	(void)o;
	util_strv_add(&argv, &n, pkg->binary);
	util_strv_add(&argv, &n, pkg->framing_marker ? "-test.v=test2json" : "-test.v");
	util_strv_add(&argv, &n, "-test.paniconexit0");
	util_strv_add(&argv, &n, "-test.count=1");
	s = xasprintf("-test.cpu=%d", r->cpu);
	util_strv_add(&argv, &n, s);
	free(s);
	s = xasprintf("-test.timeout=%lldms", (long long)r->timeout_ms);
	util_strv_add(&argv, &n, s);
	free(s);
	if (r->seed != NULL) {
		s = xasprintf("-test.shuffle=%s", r->seed);
		util_strv_add(&argv, &n, s);
		free(s);
	}
	if (r->test != NULL)
		pat = parse_go_run_pattern(r->test);
	else if (r->skip_re != NULL && !pkg->framing_marker)
		/* Go 1.19 has no -test.skip: run the listed tests it spares. */
		pat = driver_go_spared_pattern(pkg, r->run_re, r->skip_re);
	else if (r->run_re != NULL)
		pat = xstrdup(r->run_re);
	else if (pkg->run_filter != NULL)
		pat = xstrdup(pkg->run_filter);
	if (pat != NULL) {
		s = xasprintf("-test.run=%s", pat);
		util_strv_add(&argv, &n, s);
		free(s);
		free(pat);
	}
	if (r->skip_re != NULL && r->test == NULL && pkg->framing_marker) {
		s = xasprintf("-test.skip=%s", r->skip_re);
		util_strv_add(&argv, &n, s);
		free(s);
	}
	return argv;
}

PARSER_ADAPTER(driver_go_parser, struct parse_go, parse_go_feed, parse_go_finish, parse_go_free)

static struct driver_parser *
driver_go_parser_new(const struct pkg *pkg, const char *selected)
{
	struct parse_go_opts opts;

	memset(&opts, 0, sizeof opts);
	opts.framing_marker = pkg->framing_marker;
	opts.import_path = pkg->name;
	opts.listed = (const char *const *)pkg->tests;
	opts.selected = selected;
	return driver_go_parser_wrap(parse_go_new(&opts));
}

static char *
driver_go_reproduce(const struct pkg *pkg, const struct driver_run *r, const int *cpus, int count)
{
	const char *test = r->test, *seed = r->seed;
	int64_t timeout_ms = r->timeout_ms;
	int ncpus = r->cpu;
	struct buf b;
	char *q, *pat;
	int i;

	buf_init(&b);
	q = util_shell_quote(pkg->dir);
	buf_printf(&b, "cd %s && taskset -c ", q);
	free(q);
	for (i = 0; i < ncpus; i++)
		buf_printf(&b, "%s%d", i > 0 ? "," : "", cpus[i]);
	q = util_shell_quote(pkg->binary);
	buf_printf(&b, " %s -test.v -test.paniconexit0", q);
	free(q);
	if (test != NULL) {
		pat = parse_go_run_pattern(test);
		q = util_shell_quote(pat);
		buf_printf(&b, " -test.run %s", q);
		free(q);
		free(pat);
	} else if (r->run_re != NULL || pkg->run_filter != NULL) {
		q = util_shell_quote(r->run_re != NULL ? r->run_re : pkg->run_filter);
		buf_printf(&b, " -test.run %s", q);
		free(q);
	}
	buf_printf(&b, " -test.cpu %d -test.count %d", ncpus, count);
	if (seed != NULL)
		buf_printf(&b, " -test.shuffle %s", seed);
	/* -test.timeout bounds the whole binary, all count runs: the sweep's
	 * limit for each of them. */
	buf_printf(&b, " -test.timeout %lldms", (long long)timeout_ms * count);
	return buf_steal(&b);
}

static char *
driver_go_package_args(const struct pkg *pkg)
{
	return util_shell_quote(pkg->name);
}

static char **
driver_go_run_env(const struct options *o, const struct pkg *pkg, const struct driver_run *r)
{
	(void)o;
	(void)pkg;
	(void)r;
	return NULL;
}

static int
driver_go_cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Finds "func TOPLEVEL(" in the package directory's _test.go files (in
 * name order) and returns the file's name and the line, or 0. */
static int
driver_go_find_test_func(const char *dir, const char *test, char **file)
{
	char *top = xstrndup(test, strcspn(test, "/")), *needle = xasprintf("func %s(", top);
	char **names = NULL;
	size_t count = 0, i;
	int line = 0;
	DIR *d = opendir(dir);
	struct dirent *de;

	*file = NULL;
	while (d != NULL && (de = readdir(d)) != NULL) {
		if (driver_go_is_test_file(de->d_name) && count < 10000) {
			names = xrealloc(names, sizeof *names * (count + 1));
			names[count++] = xstrdup(de->d_name);
		}
	}
	if (d != NULL)
		closedir(d);
	if (count > 0)
		qsort(names, count, sizeof *names, driver_go_cmp_names);
	for (i = 0; i < count && line == 0; i++) {
		char *path = xasprintf("%s/%s", dir, names[i]), *text = NULL;

		if (project_read_file(path, DRIVER_GO_SOURCE_MAX, &text) == 0) {
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
	for (i = 0; i < count; i++)
		free(names[i]);
	free(names);
	free(needle);
	free(top);
	return line;
}

static int
driver_go_locate_test(const char *root, const char *package, const char *test, char **dir,
                      char **file, int *line)
{
	struct go_modules mods = {NULL, 0};
	const struct go_module *m;
	size_t len;

	*dir = *file = NULL;
	*line = 0;
	/* The module at the root, or one below it (a repository of several). */
	go_modules_below(root, true, &mods);
	m = go_modules_owner(&mods, package);
	if (m == NULL || strstr(package, "..") != NULL) {
		go_modules_free(&mods);
		return -ENOENT;
	}
	len = strlen(m->path);
	*dir =
	    package[len] == '\0' ? xstrdup(m->dir) : xasprintf("%s/%s", m->dir, package + len + 1);
	*line = driver_go_find_test_func(*dir, test, file);
	go_modules_free(&mods);
	return 0;
}

/* A Go test id names a package path, not a .py file (those are
 * pytest's, swept through the tap driver). */
static bool
driver_go_owns_test(const char *id)
{
	const char *sep = strstr(id, "::");

	return sep != NULL && !(sep - id >= 3 && strncmp(sep - 3, ".py", 3) == 0);
}

const struct driver driver_go = {
    .name = "go",
    .own_timeout = true,
    .discover = driver_go_discover,
    .build_argv = driver_go_build_argv,
    .build_in_pkg_dir = true,
    .list_argv = driver_go_list_argv,
    .listed = driver_go_listed,
    .check = driver_go_check,
    .run_argv = driver_go_run_argv,
    .run_env = driver_go_run_env,
    .parser_new = driver_go_parser_new,
    .filter = parse_go_run_pattern,
    .select_in_order = parse_go_run_alternation,
    .package_args = driver_go_package_args,
    .reproduce = driver_go_reproduce,
    .locate_test = driver_go_locate_test,
    .owns_test = driver_go_owns_test,
    .skip_args = go_skip_args,
};
