/* SPDX-License-Identifier: MIT */
/*
 * bandaid.c: finds the band-aids of a change to a flaky test. git lists
 * the files the change touched and gives each one's versions; the
 * language's own parser (a small Go program built on first use, or a Python
 * script) compares the two versions of each file of the test's
 * directories. It only reads the checkout; it writes the two versions to a
 * private temporary directory and the built parser to the user's cache.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/datadir.h"
#include "base/gettext.h"
#include "base/hash.h"
#include "base/util.h"
#include "drivers/bandaid-reach.h"
#include "drivers/bandaid.h"
#include "drivers/pytest-env.h"
#include "engine/proc.h"

/* What one git or parser run may print, and a file's size, at most. */
#define BANDAID_OUTPUT_MAX (4u << 20)

struct bandaid_ctx {
	const char *top; /* the checkout's top directory */
	const char *before, *after;
	bool go;
	const char *test; /* the test's full name */
	char *func;       /* the test's function name */
	char *parser;     /* the Go parser's binary, or the Python script */
	char *python;     /* the Python that runs pytest (pytest-env.h) */
	char *tmp;        /* the private directory the versions are written to */
	char **dirs;      /* the directories that hold the test, relative to top */
	size_t ndirs;
	char **files; /* the files that declare the test after */
	size_t nfiles;
	char **shared_sync; /* the shared declarations a primitive was added to */
	size_t nshared_sync;
	char *uses; /* the names the test's function names after, or NULL */
};

extern char **environ;

/* Runs git -C top with args; its output (caller frees) in *out. Returns
 * git's exit status or a negative errno. */
static int
bandaid_git(const char *top, const char *const *args, char **out)
{
	const char *argv[16] = {"git", "-C", top};
	size_t n = 3;

	while (*args != NULL && n < 15)
		argv[n++] = *args++;
	argv[n] = NULL;
	return proc_capture((char *const *)argv, NULL, environ, BANDAID_OUTPUT_MAX, out);
}

/* The Go parser, built into the user's cache once per version of its
 * source with the go found on PATH. */
static char *
bandaid_go_parser(char **err)
{
	char *dir = datadir_find("flakesweep_bandaids.go"), *src, *text = NULL, *cache, *bin, *tmp,
	     *out = NULL;
	const char *home = getenv("XDG_CACHE_HOME");
	struct stat st;
	size_t len = 0;
	int rc;

	src = xasprintf("%s/flakesweep_bandaids.go", dir);
	free(dir);
	if (util_read_regular(src, BANDAID_OUTPUT_MAX, &text, &len) < 0) {
		*err = xasprintf(_("cannot read %s: %s"), src, strerror(errno));
		free(src);
		return NULL;
	}
	if (home != NULL && home[0] == '/')
		cache = xasprintf("%s/flakesweep", home);
	else if ((home = getenv("HOME")) != NULL && home[0] == '/')
		cache = xasprintf("%s/.cache/flakesweep", home);
	else
		cache = xasprintf("/tmp/flakesweep-%lu", (unsigned long)getuid());
	bin = xasprintf("%s/flakesweep_bandaids-%016llx", cache,
	                (unsigned long long)hash_fnv1a(text, len));
	free(text);
	if (stat(bin, &st) == 0 && S_ISREG(st.st_mode))
		goto out;
	tmp = xasprintf("%s.%ld", bin, (long)getpid());
	{
		char *argv[] = {"go", "build", "-o", tmp, src, NULL};

		rc = util_mkdir_p(cache) < 0 ? -errno
		                             : proc_capture(argv, cache, environ, 65536, &out);
	}
	if (rc == 0 && rename(tmp, bin) < 0)
		rc = -errno;
	if (rc != 0) {
		*err = xasprintf(_("cannot build the Go parser %s with go: %s"), src,
		                 rc < 0 ? strerror(-rc) : out);
		unlink(tmp);
		free(bin);
		bin = NULL;
	}
	free(tmp);
	free(out);
out:
	free(src);
	free(cache);
	return bin;
}

static bool
bandaid_has_dir(const struct bandaid_ctx *c, const char *path)
{
	const char *slash = strrchr(path, '/');
	size_t n = slash != NULL ? (size_t)(slash - path) : 0, i;

	for (i = 0; i < c->ndirs; i++)
		if (strlen(c->dirs[i]) == n && strncmp(c->dirs[i], path, n) == 0)
			return true;
	return false;
}

/* The directories of the files that declare the test at rev (NULL: the
 * working tree), and with keep those files. */
static void
bandaid_test_dirs(struct bandaid_ctx *c, const char *rev, bool keep)
{
	char *pattern = xasprintf(c->go ? "func %s(" : "def %s(", c->func), *out = NULL, *line,
	     *save = NULL;
	const char *args[] = {"grep", "-l", "-F", "-e", pattern, rev, "--", NULL};

	if (bandaid_git(c->top, args, &out) == 0) {
		for (line = strtok_r(out, "\n", &save); line != NULL;
		     line = strtok_r(NULL, "\n", &save)) {
			const char *path = line, *slash;

			if (rev != NULL && strncmp(line, rev, strlen(rev)) == 0 &&
			    line[strlen(rev)] == ':')
				path = line + strlen(rev) + 1;
			if (keep)
				util_strv_add(&c->files, &c->nfiles, path);
			if (bandaid_has_dir(c, path))
				continue;
			slash = strrchr(path, '/');
			c->dirs = xgrow(c->dirs, c->ndirs, sizeof *c->dirs);
			c->dirs[c->ndirs++] =
			    slash != NULL ? xstrndup(path, (size_t)(slash - path)) : xstrdup("");
		}
	}
	free(out);
	free(pattern);
}

/* Writes path's version at rev (NULL: the working tree) to file; returns
 * false when it has none there. *declares says whether it declares the
 * test. */
static bool
bandaid_version(const struct bandaid_ctx *c, const char *rev, const char *path, const char *file,
                bool *declares)
{
	char *text = NULL, *want = xasprintf(c->go ? "func %s(" : "def %s(", c->func);
	size_t len = 0;
	bool ok;

	if (rev != NULL) {
		char *spec = xasprintf("%s:%s", rev, path);
		const char *args[] = {"show", spec, NULL};

		ok = bandaid_git(c->top, args, &text) == 0;
		len = text != NULL ? strlen(text) : 0;
		free(spec);
	} else {
		char *full = xasprintf("%s/%s", c->top, path);

		ok = util_read_regular(full, BANDAID_OUTPUT_MAX, &text, &len) == 0;
		free(full);
	}
	ok = ok && util_write_file_replace(file, text, len) == 0;
	if (ok && strstr(text, want) != NULL)
		*declares = true;
	free(text);
	free(want);
	return ok;
}

/* Takes one finding of the parser, KIND<TAB>LINE<TAB>DECL<TAB>TEXT, in
 * path when it can touch the test (bandaid-reach.h): a skip or a rename
 * only in the test's own function; a synchronisation primitive in shared
 * code is kept until the names the test uses are known. */
static void
bandaid_add(struct bandaid_ctx *c, const char *path, bool declares, char *line,
            struct bandaid_list *out)
{
	char *fields[4];
	struct bandaid *b;
	enum bandaid_reach reach;
	bool stops; /* a skip or a rename: the test no longer runs */
	size_t i;

	for (i = 0, fields[0] = line; i < 3; i++) {
		char *tab = strchr(fields[i], '\t');

		if (tab == NULL)
			return;
		*tab = '\0';
		fields[i + 1] = tab + 1;
	}
	if (strcmp(fields[0], "uses") == 0) {
		if (c->uses == NULL) {
			c->uses = xstrdup(fields[3]);
		} else {
			char *more = xasprintf("%s %s", c->uses, fields[3]);

			free(c->uses);
			c->uses = more;
		}
		return;
	}
	reach = bandaid_reach(c->go, path, declares, fields[2], c->test);
	stops = strcmp(fields[0], "skip") == 0 || strcmp(fields[0], "renamed") == 0;
	if (reach == BANDAID_OTHER || (reach == BANDAID_SHARED && stops))
		return;
	if (strcmp(fields[0], "sync") == 0) {
		if (reach == BANDAID_OWN) {
			out->sync = true;
		} else {
			util_strv_add(&c->shared_sync, &c->nshared_sync, fields[2]);
		}
		return;
	}
	out->items = xgrow(out->items, out->n, sizeof *out->items);
	b = &out->items[out->n++];
	b->kind = xstrdup(fields[0]);
	b->file = xstrdup(path);
	b->line = atoi(fields[1]);
	b->text = xstrdup(fields[3]);
}

/* Compares the two versions of the changed file path; with uses_only,
 * takes only the names the test uses. */
static int
bandaid_file(struct bandaid_ctx *c, const char *path, bool uses_only, struct bandaid_list *out,
             char **err)
{
	char *bf = xasprintf("%s/before", c->tmp), *af = xasprintf("%s/after", c->tmp);
	char *output = NULL, *line, *save = NULL;
	bool declares = false, hb, ha;
	int rc;

	hb = bandaid_version(c, c->before, path, bf, &declares);
	ha = bandaid_version(c, c->after, path, af, &declares);
	{
		char *go_argv[] = {c->parser, hb ? bf : "", ha ? af : "", c->func, NULL};
		char *py_argv[] = {"python3", c->parser, hb ? bf : "", ha ? af : "", c->func, NULL};

		rc = proc_capture(c->go ? go_argv : py_argv, c->top, environ, BANDAID_OUTPUT_MAX,
		                  &output);
	}
	if (rc != 0) {
		*err = xasprintf(_("cannot read the change to %s: %s"), path,
		                 rc < 0 ? strerror(-rc) : output);
		rc = rc < 0 ? rc : -EINVAL;
	} else {
		for (line = strtok_r(output, "\n", &save); line != NULL;
		     line = strtok_r(NULL, "\n", &save))
			if (!uses_only || strncmp(line, "uses\t", 5) == 0)
				bandaid_add(c, path, declares, line, out);
	}
	unlink(bf);
	unlink(af);
	free(bf);
	free(af);
	free(output);
	return rc;
}

static int
bandaid_changed(struct bandaid_ctx *c, struct bandaid_list *out, char **err)
{
	const char *args[] = {"diff", "--name-only", c->before, c->after, "--", NULL};
	const char *ext = c->go ? ".go" : ".py";
	char *names = NULL, *line, *save = NULL;
	int rc;

	if (c->after == NULL)
		args[3] = "--", args[4] = NULL;
	rc = bandaid_git(c->top, args, &names);
	if (rc != 0) {
		*err = xasprintf(_("git cannot list the files changed from %s in %s: %s"),
		                 c->before, c->top, rc < 0 ? strerror(-rc) : names);
		free(names);
		return rc < 0 ? rc : -EINVAL;
	}
	rc = 0;
	for (line = strtok_r(names, "\n", &save); line != NULL && rc == 0;
	     line = strtok_r(NULL, "\n", &save)) {
		size_t n = strlen(line);

		if (n > strlen(ext) && strcmp(line + n - strlen(ext), ext) == 0 &&
		    bandaid_has_dir(c, line))
			rc = bandaid_file(c, line, false, out, err);
	}
	free(names);
	return rc;
}

/* Whether a synchronisation primitive added to shared code can affect the
 * test: it names the declaration that holds one. The names come from the
 * test's files, read again when the change left them alone. */
static int
bandaid_shared_sync(struct bandaid_ctx *c, struct bandaid_list *out, char **err)
{
	size_t i;
	int rc = 0;

	if (out->sync || c->nshared_sync == 0)
		return 0;
	for (i = 0; i < c->nfiles && c->uses == NULL && rc == 0; i++)
		rc = bandaid_file(c, c->files[i], true, out, err);
	for (i = 0; i < c->nshared_sync && rc == 0; i++)
		if (bandaid_reach_uses(c->uses != NULL ? c->uses : "", c->shared_sync[i]))
			out->sync = true;
	return rc;
}

int
bandaid_find(const char *root, const char *before, const char *after, const char *driver,
             const char *test, struct bandaid_list *out, char **err)
{
	struct bandaid_ctx c = {.before = before, .after = after, .test = test};
	const char *top_args[] = {"rev-parse", "--show-toplevel", NULL};
	char *top = NULL, tmpl[] = "/tmp/flakesweep-bandaid-XXXXXX";
	const char *base = getenv("TMPDIR");
	int rc = 0;

	memset(out, 0, sizeof *out);
	if (strcmp(driver, "go") != 0 && strcmp(driver, "pytest") != 0)
		return 0;
	c.go = strcmp(driver, "go") == 0;
	if (bandaid_git(root, top_args, &top) != 0) {
		*err = xasprintf(_("%s is not in a git checkout"), root);
		free(top);
		return -ENOENT;
	}
	top[strcspn(top, "\n")] = '\0';
	c.top = top;
	c.func = bandaid_test_func(c.go, test);
	c.tmp = base != NULL && base[0] == '/' ? xasprintf("%s/flakesweep-bandaid-XXXXXX", base)
	                                       : xstrdup(tmpl);
	c.parser = c.go ? bandaid_go_parser(err) : NULL;
	if (!c.go) {
		char *dir = datadir_find("flakesweep_bandaids.py");

		c.parser = xasprintf("%s/flakesweep_bandaids.py", dir);
		c.python = pytest_env_python();
		free(dir);
	}
	if (c.parser == NULL || mkdtemp(c.tmp) == NULL) {
		if (c.parser != NULL)
			*err =
			    xasprintf(_("cannot make a directory %s: %s"), c.tmp, strerror(errno));
		rc = -EIO;
		goto out;
	}
	bandaid_test_dirs(&c, before, false);
	bandaid_test_dirs(&c, after, true);
	rc = bandaid_changed(&c, out, err);
	if (rc == 0)
		rc = bandaid_shared_sync(&c, out, err);
	rmdir(c.tmp);
out:
	if (rc < 0)
		bandaid_list_free(out);
	util_strv_free_n(c.dirs, (int)c.ndirs);
	util_strv_free(c.files);
	util_strv_free(c.shared_sync);
	free(c.uses);
	free(c.parser);
	free(c.python);
	free(c.tmp);
	free(c.func);
	free(top);
	return rc;
}

bool
bandaid_skipped(const struct bandaid_list *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (strcmp(l->items[i].kind, "skip") == 0 ||
		    strcmp(l->items[i].kind, "renamed") == 0)
			return true;
	return false;
}

void
bandaid_list_free(struct bandaid_list *l)
{
	size_t i;

	for (i = 0; i < l->n; i++) {
		free(l->items[i].kind);
		free(l->items[i].file);
		free(l->items[i].text);
	}
	free(l->items);
	memset(l, 0, sizeof *l);
}
