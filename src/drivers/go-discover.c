/* SPDX-License-Identifier: MIT */
/*
 * go-discover.c: the Go driver's discovery: the modules a sweep covers,
 * their packages with `go list`, each package's build-tag levels from its
 * _test.go files, and the toolchain. It builds and runs nothing.
 */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "drivers/go-discover.h"
#include "drivers/go-miss.h"
#include "drivers/go-modules.h"
#include "drivers/project.h"
#include "engine/options.h"
#include "engine/proc.h"
#include "base/util.h"

extern char **environ;

#define GO_DISCOVER_OUTPUT_MAX (16 << 20)

/* Build constraints that name a platform or toolchain, not a level. */
static const char *const go_discover_not_levels[] = {
    "aix",          "android", "darwin",  "dragonfly", "freebsd", "hurd",     "illumos",
    "ios",          "js",      "linux",   "nacl",      "netbsd",  "openbsd",  "plan9",
    "solaris",      "wasip1",  "windows", "zos",       "386",     "amd64",    "arm",
    "arm64",        "loong64", "mips",    "mipsle",    "mips64",  "mips64le", "ppc64",
    "ppc64le",      "riscv64", "s390x",   "wasm",      "cgo",     "gc",       "gccgo",
    "race",         "msan",    "asan",    "unix",      "ignore",  "purego",   "boringcrypto",
    "goexperiment",
};

static bool
go_discover_is_level_tag(const char *tag)
{
	size_t i;

	if (strncmp(tag, "go1", 3) == 0 || strncmp(tag, "goexperiment.", 13) == 0)
		return false;
	for (i = 0; i < UTIL_ARRAY_LEN(go_discover_not_levels); i++) {
		if (strcmp(tag, go_discover_not_levels[i]) == 0)
			return false;
	}
	return true;
}

static void
go_discover_add_unique(char ***v, size_t *n, const char *s)
{
	size_t i;

	for (i = 0; i < *n; i++) {
		if (strcmp((*v)[i], s) == 0)
			return;
	}
	util_strv_add(v, n, s);
}

/* Whether name is a Go test file's: NAME_test.go. */
bool
go_discover_is_test_file(const char *name)
{
	size_t len = strlen(name);

	return len > 8 && strcmp(name + len - 8, "_test.go") == 0;
}

/* The level tags of a package: identifiers in the build constraints
 * (//go:build or the older // +build lines, before the package clause) of
 * its _test.go files that name no platform or toolchain. */
static void
go_discover_scan_levels(const char *dir, char ***tags, size_t *ntags)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	while (d != NULL && (de = readdir(d)) != NULL) {
		char *path, *text, *line, *save = NULL;

		if (!go_discover_is_test_file(de->d_name))
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
				if (go_discover_is_level_tag(tag))
					go_discover_add_unique(tags, ntags, tag);
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
go_discover_level_wanted(const struct options *o, const char *level)
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
go_discover_add_pkg(struct pkg ***pkgs, size_t *n, const char *name, const char *dir,
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
go_discover_project(struct project *proj, const char *dir)
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
struct go_discover_listing {
	char *dir;
	char **patterns;
	size_t npatterns;
	char *what; /* how the report names it when it fails */
};

/* The level tags found in a walk of directories. */
struct go_discover_tag_walk {
	char **tags;
	size_t ntags;
};

struct go_discovery {
	const struct options *o;
	const char *root;
	struct go_discover_listing *v;
	size_t n;
	struct go_modules below; /* every module at or below the root */
	char *bad;               /* a pattern that names nothing: the sweep's error */
	char **warnings;
	size_t nwarnings;
};

static void
go_discover_listing_add(struct go_discovery *d, const char *dir, const char *pattern,
                        const char *what)
{
	struct go_discover_listing *l;
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
go_discover_gopath_mode(const char *dir)
{
	char *argv[] = {"go", "env", "GOMOD", NULL};
	char *line = proc_capture_line(argv, dir);
	bool yes = line == NULL;

	free(line);
	return yes;
}

/* Lists pattern in dir, a directory of the module at mod_dir, unless the
 * go.work go uses there leaves the module out: then adds it to left,
 * keeping the first such go.work in *work. Returns whether it is listed. */
static bool
go_discover_listing_module(struct go_discovery *d, const char *mod_dir, const char *dir,
                           const char *pattern, const char *what, struct go_modules *left,
                           char **work)
{
	char *w = go_modules_work_leaves_out(mod_dir);

	if (w == NULL) {
		go_discover_listing_add(d, dir, pattern, what);
		return true;
	}
	go_modules_add(left, mod_dir);
	if (*work == NULL)
		*work = w;
	else
		free(w);
	return false;
}

/* Warns, once each, of the modules of left that go.work leaves out. */
static void
go_discover_warn_left_out(struct go_discovery *d, const struct go_modules *left, const char *work)
{
	size_t i;

	for (i = 0; i < left->n; i++) {
		char *w = go_miss_left_out(&left->v[i], work, d->root);

		go_discover_add_unique(&d->warnings, &d->nwarnings, w);
		free(w);
	}
}

/* A pattern relative to the root ("./grpc/...", "."): listed in its own
 * directory, whose module Go finds, and, with "...", every module below
 * it, which `go list ./...` would not enter. A directory in no module is
 * not itself listed (Go would refuse it), outside GOPATH mode, when
 * modules lie below it. A module the go.work in use leaves out is not
 * listed (Go would refuse it) but warned of.
 * Returns -1 with *err for a directory that is not there, holds no module
 * at all or only modules that go.work leaves out. */
static int
go_discover_plan_relative(struct go_discovery *d, const char *pattern, char **err)
{
	const char *root = d->root;
	size_t len = strlen(pattern);
	bool recursive = len >= 3 && strcmp(pattern + len - 3, "...") == 0;
	char *base = xstrndup(pattern, recursive ? len - 3 : len), *dir, *home = NULL, *work = NULL;
	struct go_modules nested = {NULL, 0}, left = {NULL, 0};
	struct stat st;
	size_t i, listed = 0;
	bool gopath;
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
	home = go_modules_home(dir);
	gopath = home == NULL && go_discover_gopath_mode(dir);
	if (recursive)
		go_modules_below(dir, false, &nested);
	if (home == NULL && !gopath && nested.n == 0) {
		*err =
		    xasprintf(_("%s: no Go module in %s, above it or below it: expected a go.mod "
		                "(`go mod init`), or a go.work at the root"),
		              pattern, dir);
		rc = -1;
		goto out;
	}
	if (gopath)
		go_discover_listing_add(d, dir, recursive ? "./..." : ".", pattern);
	if (home != NULL && go_discover_listing_module(d, home, dir, recursive ? "./..." : ".",
	                                               pattern, &left, &work))
		listed++;
	for (i = 0; i < nested.n; i++) {
		const struct go_module *m = &nested.v[i];
		char *what = m->path != NULL ? xstrdup(m->path) : go_miss_dir(m, root);

		if (go_discover_listing_module(d, m->dir, m->dir, "./...", what, &left, &work))
			listed++;
		free(what);
	}
	if (left.n > 0 && listed == 0 && !gopath) {
		*err = go_miss_outside_work(pattern, &left, work, root);
		rc = -1;
	} else {
		go_discover_warn_left_out(d, &left, work);
	}
out:
	go_modules_free(&left);
	go_modules_free(&nested);
	free(work);
	free(home);
	free(dir);
	free(base);
	return rc;
}

/* What to list where: go.work's modules (warning of the modules at or
 * below the root it leaves out), or every module at and below the root,
 * when no pattern was given; else each pattern in the module that holds
 * it. Returns -1 with *err for a pattern that names nothing. */
static int
go_discover_plan(struct go_discovery *d, char **err)
{
	const struct options *o = d->o;
	struct go_modules work = {NULL, 0}, left = {NULL, 0};
	size_t i;
	int k;

	go_modules_below(d->root, true, &d->below);
	if (o->npackages == 0 && go_modules_work(d->root, &work)) {
		char *path = xasprintf("%s/go.work", d->root);

		for (i = 0; i < work.n; i++)
			go_discover_listing_add(d, work.v[i].dir, "./...",
			                        work.v[i].path != NULL ? work.v[i].path
			                                               : work.v[i].dir);
		for (i = 0; i < d->below.n; i++) {
			if (!go_modules_has(&work, d->below.v[i].dir))
				go_modules_add(&left, d->below.v[i].dir);
		}
		go_discover_warn_left_out(d, &left, path);
		go_modules_free(&left);
		go_modules_free(&work);
		free(path);
		return 0;
	}
	if (o->npackages == 0)
		return go_discover_plan_relative(d, "./...", err);
	for (k = 0; k < o->npackages; k++) {
		const char *p = o->packages[k];
		const struct go_module *m;

		if (p[0] == '.' || p[0] == '/') {
			if (go_discover_plan_relative(d, p, err) < 0)
				return -1;
			continue;
		}
		m = go_modules_owner(&d->below, p);
		go_discover_listing_add(d, m != NULL ? m->dir : d->root, p, p);
	}
	return 0;
}

/* Whether pkgs holds the package name at level. */
static bool
go_discover_has_pkg(struct pkg *const *pkgs, size_t npkgs, const char *name, const char *level)
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
go_discover_has_tests(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	bool yes = false;

	while (d != NULL && !yes && (de = readdir(d)) != NULL)
		yes = go_discover_is_test_file(de->d_name);
	if (d != NULL)
		closedir(d);
	return yes;
}

/* One package as `go list -e` gave it. */
struct go_discover_listed {
	const char *name, *dir; /* dir is "" for a pattern go could not resolve */
	int ntest, nxtest;
	const char *error; /* go's reason it could not load it, or "" */
};

/* Splits the record rec ("ImportPath\tDir\tN\tN\tError", cut in place)
 * into p. Returns false for text that is no record. */
static bool
go_discover_parse_listed(char *rec, struct go_discover_listed *p)
{
	char *f[5], *end;
	int i;

	f[0] = rec;
	for (i = 1; i < 5; i++) {
		f[i] = strchr(f[i - 1], '\t');
		if (f[i] == NULL)
			return false;
		*f[i]++ = '\0';
	}
	p->name = f[0];
	p->dir = f[1];
	p->ntest = (int)strtol(f[2], &end, 10);
	if (f[0][0] == '\0' || end == f[2] || *end != '\0')
		return false;
	p->nxtest = (int)strtol(f[3], &end, 10);
	if (end == f[3] || *end != '\0')
		return false;
	p->error = f[4];
	return true;
}

/* Whether pattern, one of a listing's, is an import path as given: the
 * relative ones are listed as "." or "./..." in their directory. */
static bool
go_discover_is_import_path(const char *pattern)
{
	return pattern[0] != '.' && pattern[0] != '/';
}

/* A pattern go could not resolve (p, with no directory): an import path
 * given is the sweep's error, keeping the first; a directory's listing
 * fails by the name the report gives it, with go's reason. */
static void
go_discover_unresolved(struct go_discovery *d, const struct go_discover_listing *l,
                       const struct go_discover_listed *p, struct pkg ***pkgs, size_t *npkgs)
{
	if (go_discover_is_import_path(p->name)) {
		if (d->bad == NULL)
			d->bad = go_miss_import_path(&d->below, d->root, p->name, p->error);
		return;
	}
	if (go_discover_has_pkg(*pkgs, *npkgs, l->what, "unit"))
		return;
	go_discover_add_pkg(pkgs, npkgs, l->what, l->dir, "unit");
	(*pkgs)[*npkgs - 1]->build_output =
	    xasprintf(_("go list cannot list %s: %s"), l->what, p->error);
}

/* Adds what one listed package holds to pkgs: without tag, its untagged
 * tests and a level for each tag of its test files; with tag, only that
 * level (a package whose test files all carry tag). A package go could not
 * load but that has test files fails with go's reason. */
static void
go_discover_list_one(const struct options *o, const struct go_discover_listed *p, const char *tag,
                     struct pkg ***pkgs, size_t *npkgs)
{
	char **tags = NULL;
	size_t ntags = 0, t;

	if (p->error[0] != '\0') {
		if (tag != NULL || !go_discover_has_tests(p->dir))
			return;
		go_discover_scan_levels(p->dir, &tags, &ntags);
		/* Only its build tags keep go from it (a test package behind a
		 * tag, named by its directory): its levels list it. */
		if (ntags > 0 && strstr(p->error, "build constraints exclude") != NULL)
			goto levels;
		if (!go_discover_has_pkg(*pkgs, *npkgs, p->name, "unit")) {
			go_discover_add_pkg(pkgs, npkgs, p->name, p->dir, "unit");
			(*pkgs)[*npkgs - 1]->build_output =
			    xasprintf(_("go list cannot load the package: %s"), p->error);
		}
		util_strv_free(tags);
		return;
	}
	if (tag != NULL) {
		/* Only where a test file carries the tag: the others' tests
		 * are the unit level's. */
		if (p->ntest + p->nxtest > 0 && !go_discover_has_pkg(*pkgs, *npkgs, p->name, tag))
			go_discover_scan_levels(p->dir, &tags, &ntags);
		for (t = 0; t < ntags; t++) {
			if (strcmp(tags[t], tag) == 0)
				go_discover_add_pkg(pkgs, npkgs, p->name, p->dir, tag);
		}
		util_strv_free(tags);
		return;
	}
	/* go list counts only files of the default build; a package whose
	 * tests all carry a tag still has levels. */
	if (p->ntest + p->nxtest > 0 && go_discover_level_wanted(o, "unit") &&
	    !go_discover_has_pkg(*pkgs, *npkgs, p->name, "unit"))
		go_discover_add_pkg(pkgs, npkgs, p->name, p->dir, "unit");
	go_discover_scan_levels(p->dir, &tags, &ntags);
levels:
	for (t = 0; t < ntags; t++) {
		if (go_discover_level_wanted(o, tags[t]) &&
		    !go_discover_has_pkg(*pkgs, *npkgs, p->name, tags[t]))
			go_discover_add_pkg(pkgs, npkgs, p->name, p->dir, tags[t]);
	}
	util_strv_free(tags);
}

/* Lists one directory's packages into pkgs, with tag set (and -tags tag)
 * or in the default build. A listing that fails becomes a package that
 * failed to build, so the rest goes on; returns -1 with *err only for the
 * caller to use when nothing else was found. */
static int
go_discover_list(struct go_discovery *d, const struct go_discover_listing *l, const char *tag,
                 struct pkg ***pkgs, size_t *npkgs, char **err)
{
	char **argv = NULL, *out = NULL, *rec, *end, *tab, *nl;
	bool *matched;
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
	rc = proc_capture(argv, l->dir, environ, GO_DISCOVER_OUTPUT_MAX, &out);
	util_strv_free(argv);
	if (rc != 0) {
		*err = rc < 0 ? xasprintf(_("go list failed: %s\n%s"), strerror(-rc), out)
		              : xasprintf(_("go list failed (exit %d):\n%s"), rc, out);
		free(out);
		return -1;
	}
	matched = xcalloc(l->npatterns + 1, sizeof *matched);
	for (rec = out; (end = strchr(rec, '\x1e')) != NULL; rec = end + 1) {
		struct go_discover_listed p;

		*end = '\0';
		/* Lines go wrote to stderr ("matched no packages") come before
		 * a record's first tab. */
		for (tab = rec + strcspn(rec, "\t"); (nl = strchr(rec, '\n')) != NULL && nl < tab;)
			rec = nl + 1;
		if (!go_discover_parse_listed(rec, &p))
			continue;
		for (i = 0; i < l->npatterns; i++)
			matched[i] = matched[i] || go_miss_match(l->patterns[i], p.name);
		if (p.dir[0] == '\0' && p.error[0] != '\0') {
			if (tag == NULL)
				go_discover_unresolved(d, l, &p, pkgs, npkgs);
			continue;
		}
		go_discover_list_one(d->o, &p, tag, pkgs, npkgs);
	}
	/* An import path with "..." that matched nothing: go only warns. */
	for (i = 0; i < l->npatterns && tag == NULL && d->bad == NULL; i++) {
		if (!matched[i] && go_discover_is_import_path(l->patterns[i]))
			d->bad = go_miss_import_path(&d->below, d->root, l->patterns[i], NULL);
	}
	free(matched);
	free(out);
	return 0;
}

static void
go_discover_tags_of_dir(const char *dir, void *arg)
{
	struct go_discover_tag_walk *w = arg;

	go_discover_scan_levels(dir, &w->tags, &w->ntags);
}

/* Lists the packages of l, then again under each level tag found in the
 * test files of its module's directories, and with the tag wanted: a test
 * package whose files all carry a tag is in no default listing. */
static int
go_discover_list_levels(struct go_discovery *d, const struct go_discover_listing *l,
                        struct pkg ***pkgs, size_t *npkgs, char **err)
{
	struct go_discover_tag_walk w = {NULL, 0};
	size_t t;
	int rc = go_discover_list(d, l, NULL, pkgs, npkgs, err);

	if (rc < 0)
		return rc;
	go_modules_walk(l->dir, true, go_discover_tags_of_dir, &w);
	for (t = 0; t < w.ntags && rc == 0; t++) {
		if (go_discover_level_wanted(d->o, w.tags[t]))
			rc = go_discover_list(d, l, w.tags[t], pkgs, npkgs, err);
	}
	util_strv_free(w.tags);
	return rc;
}

/* Warns, through proj, of a module whose go.mod asks for a newer Go than
 * the one here: CI builds it with that one. */
static void
go_discover_check_versions(const struct go_discovery *d, struct project *proj)
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
go_discovery_free(struct go_discovery *d)
{
	size_t i;

	for (i = 0; i < d->n; i++) {
		free(d->v[i].dir);
		free(d->v[i].what);
		util_strv_free(d->v[i].patterns);
	}
	free(d->v);
	go_modules_free(&d->below);
	util_strv_free(d->warnings);
	free(d->bad);
}

int
go_discover(const struct options *o, struct project *proj, struct pkg ***pkgs, size_t *npkgs,
            char **err)
{
	char *root = o->dir != NULL ? realpath(o->dir, NULL) : getcwd(NULL, 0), *first = NULL;
	struct go_discovery d = {o, root != NULL ? root : ".", NULL, 0, {NULL, 0}, NULL, NULL, 0};
	size_t i, failed = 0;

	*pkgs = NULL;
	*npkgs = 0;
	go_discover_project(proj, o->dir);
	if (proj->toolchain == NULL) {
		*err = xstrdup(_("cannot run `go env GOVERSION`: is Go installed and on PATH?"));
		free(root);
		return -1;
	}
	if (go_discover_plan(&d, err) < 0) {
		go_discovery_free(&d);
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

		if (go_discover_list_levels(&d, &d.v[i], pkgs, npkgs, &why) == 0)
			continue;
		failed++;
		if (first == NULL)
			first = xstrdup(why);
		go_discover_add_pkg(pkgs, npkgs, d.v[i].what, d.v[i].dir, "unit");
		(*pkgs)[*npkgs - 1]->build_output = why;
	}
	for (i = 0; i < d.nwarnings; i++)
		util_strv_add(&proj->warnings, &proj->nwarnings, d.warnings[i]);
	go_discover_check_versions(&d, proj);
	if (d.bad != NULL) {
		/* A pattern that names nothing: nothing runs. */
		free(first);
		first = d.bad;
		d.bad = NULL;
		failed = *npkgs;
	}
	go_discovery_free(&d);
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
