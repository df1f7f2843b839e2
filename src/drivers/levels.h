/* SPDX-License-Identifier: MIT */
/*
 * levels.h: what each level of a project needs (man 5 flakesweep, LEVELS
 * FILE): the project's .flakesweep/levels.json says, for a level (a build
 * tag), whether its tests are plain unit tests, start containers (and
 * which label those containers carry) or need an environment (and the
 * commands that bring it up and down). Without the file the
 * `testcontainers` level starts containers labelled
 * org.testcontainers=true, the `functional` level needs an environment
 * and every other level is a unit level. It reads
 * and checks the file and the copy the journal header keeps; it never
 * starts a container or an environment.
 */
#ifndef FLAKESWEEP_LEVELS_H
#define FLAKESWEEP_LEVELS_H

#include <cjson/cJSON.h>
#include <stddef.h>

/* The file, relative to the project's root. */
#define LEVELS_FILE ".flakesweep/levels.json"
/* The file is read only up to this size (bytes). */
#define LEVELS_MAX_BYTES (1 << 20)

enum levels_kind {
	LEVELS_UNIT,
	LEVELS_CONTAINERS,
	LEVELS_ENVIRONMENT,
};

struct levels_level {
	char *name; /* the build tag */
	enum levels_kind kind;
	char *label;     /* containers: the label ("key=value" or "key") to pin */
	char *up, *down; /* environment: shell commands run in the walkthrough's
	                  * directory (NULL: --env-up, --env-down or the
	                  * walkthrough's deploy/kind scripts) */
};

/* A project's levels: those the file names, in its order. */
struct levels {
	struct levels_level *v;
	size_t n;
};

/* Reads ROOT/.flakesweep/levels.json into *out (caller frees with
 * levels_free). Returns 0 with *out NULL when the file does not exist, 0
 * with *out set, or a negative errno with *err (caller frees) as
 * "PATH:LINE: WHERE: expected WHAT" (or PATH:LINE:COL for invalid JSON). */
int levels_load(const char *root, struct levels **out, char **err);

/* Parses the file's text (len bytes; path names it in errors). Same
 * returns as levels_load. */
int levels_parse(const char *path, const char *text, size_t len, struct levels **out, char **err);

/* The levels as the journal header keeps them: an object of level name to
 * {"kind", "label"} or {"kind", "up", "down"}. Caller frees. */
cJSON *levels_json(const struct levels *lv);

/* Where a levels object goes wrong: the level's name (NULL for the object
 * itself), its member (NULL for the level itself), both borrowed from the
 * object, and what was expected there (static, translated). */
struct levels_error {
	const char *name, *key, *expected;
	int nth; /* the name's occurrence (from 0) that is wrong */
};

/* Decodes what levels_json wrote (a header's config.level_config, or the
 * file's "levels" object). Returns 0 and *out, or -EINVAL with *e. */
int levels_decode(const cJSON *o, struct levels **out, struct levels_error *e);

/* Where e is, under prefix: "PREFIX.NAME.KEY", "PREFIX.NAME" or "PREFIX".
 * Caller frees. */
char *levels_where(const char *prefix, const struct levels_error *e);

/* The level named name in lv, with the defaults above when lv is NULL or
 * does not name it; NULL for a unit level. */
const struct levels_level *levels_find(const struct levels *lv, const char *name);

/* "unit", "containers" or "environment". */
const char *levels_kind_name(enum levels_kind kind);

/* Frees lv; NULL is a no-op. */
void levels_free(struct levels *lv);

#endif
