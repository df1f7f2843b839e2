/* SPDX-License-Identifier: MIT */
/*
 * test-go-miss.c: Go's package patterns matched as go matches them, which
 * decides whether an import path pattern named anything, and how a module
 * is named by its directory.
 */
#include "config.h"

#include <stdlib.h>

#include "check.h"
#include "drivers/go-miss.h"

TEST(go_miss_match_patterns)
{
	CHECK(go_miss_match("example.com/m/pkg", "example.com/m/pkg"));
	CHECK(!go_miss_match("example.com/m/pkg", "example.com/m/pkg/net"));
	CHECK(!go_miss_match("example.com/m/pk", "example.com/m/pkg"));
	CHECK(go_miss_match("example.com/m/...", "example.com/m"));
	CHECK(go_miss_match("example.com/m/...", "example.com/m/pkg/net"));
	CHECK(!go_miss_match("example.com/m/...", "example.com/mx"));
	CHECK(go_miss_match("example.com/m...", "example.com/mx/y"));
	CHECK(go_miss_match("example.com/.../net", "example.com/m/pkg/net"));
	CHECK(!go_miss_match("example.com/.../net", "example.com/m/pkg/nett"));
	CHECK(go_miss_match("all", "example.com/m/pkg"));
	CHECK(go_miss_match("std", "fmt"));
}

TEST(go_miss_dir_names)
{
	struct go_module m = {(char *)"/r/tools", NULL, NULL};
	char *s;

	s = go_miss_dir(&m, "/r");
	CHECK_STR(s, "./tools");
	free(s);
	s = go_miss_dir(&m, "/r/tools");
	CHECK_STR(s, ".");
	free(s);
	s = go_miss_dir(&m, "/r/to");
	CHECK_STR(s, "/r/tools");
	free(s);
}
