/* SPDX-License-Identifier: MIT */
/*
 * go-skip.h: the Go driver's skip command (see driver.h, skip_args).
 */
#ifndef FLAKESWEEP_GO_SKIP_H
#define FLAKESWEEP_GO_SKIP_H

#include <stdbool.h>
#include <stddef.h>

/* The command that runs package's tests except the n tests named, ending
 * in a newline: from the directory of its module (found at or below root,
 * or none when root is NULL or holds no module of the package), entered in
 * a subshell ("(cd api && go test ...)") when it is not the current one, with the
 * module's toolchain (`go env GOVERSION` there): `go test -skip` from Go
 * 1.20, before it a comment line and `go test -run` naming the package's
 * other tests. When bare, only the -skip pattern. Caller frees. */
char *go_skip_args(const char *package, const char *const *tests, size_t n, bool bare,
                   const char *root);

#endif
