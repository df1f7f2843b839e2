/* SPDX-License-Identifier: MIT */
/*
 * go-miss.h: what the Go driver's discovery says of a pattern that names
 * no package it can sweep: an import path no module here holds, and a
 * module that the go.work in use leaves out.
 */
#ifndef FLAKESWEEP_GO_MISS_H
#define FLAKESWEEP_GO_MISS_H

#include <stdbool.h>

#include "drivers/go-modules.h"

/* Whether the import path path matches pattern as go matches them: each
 * "..." matches any string, and "x/..." matches x too; go's sets all, std
 * and cmd match every path. */
bool go_miss_match(const char *pattern, const char *path);

/* A module's directory as messages name it: "./tools" below root, "." at
 * root, else absolute. Caller frees. */
char *go_miss_dir(const struct go_module *m, const char *root);

/* Why the import path pattern names no package (why: go's reason, or NULL
 * when it matched nothing): the module at or below root (below) whose
 * path holds it and the package it lacks, or that it is neither a
 * directory nor an import path of those modules, with what was expected.
 * Caller frees. */
char *go_miss_import_path(const struct go_modules *below, const char *root, const char *pattern,
                          const char *why);

/* The error of a pattern whose every module (left) the go.work at work
 * leaves out. Caller frees. */
char *go_miss_outside_work(const char *pattern, const struct go_modules *left, const char *work,
                           const char *root);

/* The warning for the module m, which the go.work at work leaves out of a
 * sweep. Caller frees. */
char *go_miss_left_out(const struct go_module *m, const char *work, const char *root);

#endif
