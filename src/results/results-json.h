/* SPDX-License-Identifier: MIT */
/*
 * results-json.h: the one owner of results.json (schema
 * flakesweep/results/v1, DESIGN section 5, man 5 flakesweep). The writer
 * turns struct results into the document; the reader, results_load, turns a
 * file back into struct results plus what the document says around them,
 * validating every cell once so no other module walks the JSON.
 */
#ifndef FLAKESWEEP_RESULTS_JSON_H
#define FLAKESWEEP_RESULTS_JSON_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdint.h>

#include "base/jsonw.h"
#include "base/util.h"
#include "results/report.h"
#include "results/results.h"

#define RESULTS_JSON_SCHEMA "flakesweep/results/v1"
/* The largest results.json results_load reads. */
#define RESULTS_JSON_MAX ((size_t)1 << 30)

/* What the document says of one package besides its counts. */
struct results_meta_pkg {
	bool build_ok;
	char *build_output; /* "" when it built */
	char *toolchain;    /* or NULL */
};

/* What the document says of one test besides its cells and first failure. */
struct results_meta_test {
	char *reproduce_flakesweep; /* NULL when "reproduce" is null */
	char *reproduce_direct;     /* NULL when "reproduce" is null */
	bool quarantined;
	bool provisional; /* its verdict could still change when it was written */
	char *cascade_of; /* the test whose failures it followed, or NULL */
	/* The first failure's lines as the file has them (one string is split
	 * at its newlines), NULL-terminated; NULL when it has none. */
	char **first_lines;
};

/* Everything of a results.json that is not in struct results. Strings are
 * as the file has them (not sanitised); NULL when absent. */
struct results_meta {
	char *status;        /* "running", "complete" or "interrupted" */
	bool simulated;      /* a plan's virtual runs (`plan -o`) */
	int64_t started_ms;  /* ms since the epoch */
	int64_t finished_ms; /* 0 when "finished" is null */
	/* project */
	char *driver, *root, *commit, *toolchain;
	/* machine */
	int cores, keep;
	int nlanes, lane_width;        /* lanes and the cores of the first lane */
	struct results_meta_pkg *pkgs; /* parallel to results.pkgs */
	size_t npkgs;
	struct results_meta_test *tests; /* parallel to results.tests */
	size_t ntests;
	/* The objects as read, so the document can be written back whole. */
	cJSON *machine, *project, *config;
};

/* The text of results.json, a newline at its end (caller frees), written
 * as it goes without a tree: the cost of a rewrite while a sweep runs.
 * When m has a quarantine, its entries' statuses are judged on r first. */
char *results_json_text(const struct results *r, const struct report_meta *m);

/* The same text into out, emptied first: a writer that rewrites the file
 * keeps out between rewrites (report_keep_json_buf), so the memory of a
 * text of megabytes is not taken and given back each time. With refs (not
 * NULL, emptied first), the tests' texts that m->cache kept are not
 * copied into out but listed in refs (jsonw_reopen): the file is out with
 * each of them put in at its place, valid until the next rewrite. */
void results_json_write(struct buf *out, struct jsonw_refs *refs, const struct results *r,
                        const struct report_meta *m);

/* The same document as a tree (caller frees with cJSON_Delete), for a
 * reader that walks it. */
cJSON *results_to_json(const struct results *r, const struct report_meta *m);

/* Reads path into a new *out (caller frees with results_free) and, when
 * meta is not NULL, *meta (caller frees with results_meta_free). Checks the
 * schema and every cell (phase "sweep" or "confirm", cpu >= 1, load >= 1,
 * whole counts with 0 <= failures + hangs <= runs). Returns 0, or a
 * negative errno with *out NULL and *err (caller frees) naming the file,
 * the line and column of a syntax error or the line and field of a bad
 * value. */
int results_load(const char *path, struct results **out, struct results_meta *meta, char **err);

/* The same with flags: a simulated sweep's document ("simulated": true,
 * written by `plan -o`) is refused with journal_simulated_refusal unless
 * flags has RESULTS_LOAD_SIMULATED (view's). */
#define RESULTS_LOAD_SIMULATED 1u
int results_load_flags(const char *path, unsigned flags, struct results **out,
                       struct results_meta *meta, char **err);

/* Frees what results_load put in m. NULL is a no-op. */
void results_meta_free(struct results_meta *m);

#endif
