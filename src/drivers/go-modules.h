/* SPDX-License-Identifier: MIT */
/*
 * go-modules.h: the Go modules of a repository, as the Go driver's
 * discovery needs them: go.work's use list, every go.mod below a
 * directory (skipping what Go skips), and what a go.mod says of itself.
 */
#ifndef FLAKESWEEP_GO_MODULES_H
#define FLAKESWEEP_GO_MODULES_H

#include <stdbool.h>
#include <stddef.h>

struct go_module {
	char *dir;  /* absolute */
	char *path; /* its module path, or NULL when go.mod has none */
	char *go;   /* its go directive ("1.21"), or NULL */
};

struct go_modules {
	struct go_module *v;
	size_t n;
};

/* Appends the modules of go.work's use directives in dir. Returns 1 when
 * dir has a go.work, 0 when it has none. */
int go_modules_work(const char *dir, struct go_modules *out);

/* Calls fn for dir and each directory below it, in name order, skipping
 * vendor, testdata, names that start with a dot or an underscore and
 * symbolic links, as `go list ./...` does; with in_module, also every
 * directory that holds a go.mod of its own (another module) and what lies
 * below it. */
void go_modules_walk(const char *dir, bool in_module, void (*fn)(const char *dir, void *arg),
                     void *arg);

/* Appends every module at or below dir (at dir too when self), in
 * directory order, skipping vendor, testdata and names that start with a
 * dot or an underscore, as `go list ./...` does. */
void go_modules_below(const char *dir, bool self, struct go_modules *out);

/* The directory (absolute) of the module go finds when it runs in dir:
 * the first of dir and the directories above it that has a go.mod; NULL
 * when none has. Caller frees. */
char *go_modules_home(const char *dir);

/* Appends the module at dir, with what its go.mod says of itself. */
void go_modules_add(struct go_modules *m, const char *dir);

/* Whether m holds the module at dir (absolute). */
bool go_modules_has(const struct go_modules *m, const char *dir);

/* The path of the go.work that go uses in mod_dir (absolute; $GOWORK's,
 * or the first one in it or above it), when that go.work does not use the
 * module at mod_dir: go leaves it out. NULL when go leaves nothing out
 * there. Caller frees. */
char *go_modules_work_leaves_out(const char *mod_dir);

/* The module whose path is the longest prefix of the import path pattern
 * (path itself or path/...), or NULL. */
const struct go_module *go_modules_owner(const struct go_modules *m, const char *pattern);

/* The module path in a go.mod text, or NULL (caller frees). */
char *go_modules_mod_path(const char *text);

/* The go directive's version in a go.mod text ("1.21"), or NULL. */
char *go_modules_mod_go(const char *text);

/* Whether version ("1.21", "1.21.3") asks for more than the toolchain
 * ("go1.19.8") gives, comparing major and minor. */
bool go_modules_newer(const char *version, const char *toolchain);

void go_modules_free(struct go_modules *m);

#endif
