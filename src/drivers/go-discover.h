/* SPDX-License-Identifier: MIT */
/*
 * go-discover.h: the Go driver's discovery of packages and their
 * build-tag levels (go list, go.mod, go.work).
 */
#ifndef FLAKESWEEP_GO_DISCOVER_H
#define FLAKESWEEP_GO_DISCOVER_H

#include <stdbool.h>
#include <stddef.h>

#include "drivers/driver.h"

/* The driver's discover operation (driver.h): fills *pkgs (caller frees
 * with driver_free_pkgs) and proj's root and toolchain. Returns 0, or -1
 * with *err (caller frees) when nothing could be listed. */
int go_discover(const struct options *o, struct project *proj, struct pkg ***pkgs, size_t *npkgs,
                char **err);

/* Whether name is a Go test file's: NAME_test.go. */
bool go_discover_is_test_file(const char *name);

#endif
