/* SPDX-License-Identifier: MIT */
/* test-levels.c: .flakesweep/levels.json read, each error it refuses with
 * its line, and the journal header's copy of it. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "drivers/driver.h"
#include "drivers/levels.h"
#include "engine/sweep-config.h"
#include "engine/sweep.h"
#include "results/merge.h"
#include "base/util.h"

/* The error levels_parse gives for text, or "ok". Caller frees. */
static char *
levels_error_of(const char *text)
{
	struct levels *lv = NULL;
	char *err = NULL;

	if (levels_parse("p/levels.json", text, strlen(text), &lv, &err) == 0) {
		levels_free(lv);
		return xstrdup("ok");
	}
	CHECK(lv == NULL);
	return err;
}

TEST(levels_file_good)
{
	const char *text = "{\n"
	                   "  \"levels\": {\n"
	                   "    \"integration\": {\"kind\": \"containers\", \"label\": \"ci=1\"},\n"
	                   "    \"docker\": {\"kind\": \"containers\"},\n"
	                   "    \"e2e\": {\"kind\": \"environment\", \"up\": \"make up\",\n"
	                   "            \"down\": \"make down\"},\n"
	                   "    \"testcontainers\": {\"kind\": \"unit\"}\n"
	                   "  }\n"
	                   "}\n";
	struct levels *lv = NULL;
	const struct levels_level *l;
	char *err = NULL, *json;
	cJSON *o;

	CHECK_INT(levels_parse("p/levels.json", text, strlen(text), &lv, &err), 0);
	CHECK(err == NULL);
	CHECK_INT((int)lv->n, 4);
	l = levels_find(lv, "integration");
	CHECK(l != NULL && l->kind == LEVELS_CONTAINERS);
	CHECK_STR(l->label, "ci=1");
	/* A container level without a label pins testcontainers' one. */
	CHECK_STR(levels_find(lv, "docker")->label, "org.testcontainers=true");
	l = levels_find(lv, "e2e");
	CHECK(l != NULL && l->kind == LEVELS_ENVIRONMENT);
	CHECK_STR(l->up, "make up");
	CHECK_STR(l->down, "make down");
	CHECK(l->label == NULL);
	/* Named unit, testcontainers starts no containers; unnamed is unit. */
	CHECK(levels_find(lv, "testcontainers") == NULL);
	CHECK(levels_find(lv, "unit") == NULL);
	CHECK(levels_find(lv, "other") == NULL);
	CHECK_STR(driver_level_kind(lv, "integration"), "containers");
	CHECK_STR(driver_level_kind(lv, "e2e"), "environment");
	CHECK_STR(driver_level_kind(lv, "testcontainers"), "unit");
	/* Without a file: today's defaults. */
	CHECK_STR(driver_level_kind(NULL, "testcontainers"), "containers");
	CHECK_STR(levels_find(NULL, "testcontainers")->label, "org.testcontainers=true");
	CHECK_STR(driver_level_kind(NULL, "integration"), "unit");
	o = levels_json(lv);
	json = cJSON_PrintUnformatted(o);
	CHECK_STR(json,
	          "{\"integration\":{\"kind\":\"containers\",\"label\":\"ci=1\"},"
	          "\"docker\":{\"kind\":\"containers\",\"label\":\"org.testcontainers=true\"},"
	          "\"e2e\":{\"kind\":\"environment\",\"up\":\"make up\",\"down\":\"make "
	          "down\"},\"testcontainers\":{\"kind\":\"unit\"}}");
	free(json);
	cJSON_Delete(o);
	levels_free(lv);
}

TEST(levels_file_errors)
{
	static const struct {
		const char *text, *err;
	} cases[] = {
	    {"{\n  \"levels\": {\n    \"a\": {\"kind\": \"container\"}\n  }\n}\n",
	     "p/levels.json:3: levels.a.kind: expected \"unit\", \"containers\" or \"environment\""},
	    {"{\"levels\": {\n\"a\": {\n\"kind\": \"unit\",\n\"label\": \"x=1\"}}}",
	     "p/levels.json:4: levels.a.label: expected no label: only a containers level has one"},
	    {"{\"levels\": {\n\"a\": {\"kind\": \"containers\",\n \"label\": \"a b\"}}}",
	     "p/levels.json:3: levels.a.label: expected a label as \"key=value\" or \"key\", "
	     "without blanks"},
	    {"{\"levels\": {\n\"a\": {\"kind\": \"containers\",\n \"label\": \"=x\"}}}",
	     "p/levels.json:3: levels.a.label: expected a label as \"key=value\" or \"key\", "
	     "without blanks"},
	    {"{\"levels\": {\"e\": {\"kind\": \"environment\",\n\"up\": 1, \"down\": \"d\"}}}",
	     "p/levels.json:2: levels.e.up: expected a command (a string)"},
	    {"{\"levels\": {\"c\": {\"kind\": \"containers\",\n\n\"down\": \"d\"}}}",
	     "p/levels.json:3: levels.c.down: expected no command: only an environment level has "
	     "up and down"},
	    {"{\"levels\": {\"a\": {\"kind\": \"unit\",\n\"lable\": \"x\"}}}",
	     "p/levels.json:2: levels.a.lable: expected no such member (kind, label, up or down)"},
	    {"{\"levels\": {\"a\": {}}}", "p/levels.json:1: levels.a.kind: expected \"unit\", "
	                                  "\"containers\" or \"environment\""},
	    {"{\"levels\": {\n\"a\": \"containers\"}}",
	     "p/levels.json:2: levels.a: expected an object with \"kind\" and its settings"},
	    {"{\"levels\": {\n\"a\": {\"kind\": \"unit\"},\n\"a\": {\"kind\": \"unit\"}}}",
	     "p/levels.json:3: levels.a: expected each level named once"},
	    {"{\"levels\": {\"a\": {\"kind\": \"unit\",\n\"kind\": \"containers\"}}}",
	     "p/levels.json:2: levels.a.kind: expected each member once"},
	    {"{\"levels\": {\n\"a b\": {\"kind\": \"unit\"}}}",
	     "p/levels.json:2: levels.a b: expected a build tag (letters, digits, '_' and '.') as "
	     "the name"},
	    {"{\n\"levels\": []}",
	     "p/levels.json:2: levels: expected an object of levels (build tags) to their kinds"},
	    {"{\"levels\": {\"a\": {\"kind\": \"unit\"}},\n\"levels\": {\"b\": {\"kind\": \"unit\"}}}",
	     "p/levels.json:2: levels: expected each member once"},
	    {"{\"levels\": {},\n\"x\": 1,\n\"levels\": []}",
	     "p/levels.json:2: x: expected no such member (only \"levels\")"},
	    {"{\"levels\": {\"a\": {\"kind\": \"unit\"},\n\"b\": {\"kind\": \"unit\"},\n"
	     "\"a\": {\"kind\": \"containers\"}}}",
	     "p/levels.json:3: levels.a: expected each level named once"},
	    {"{\"levels\": {\"e\": {\"kind\": \"environment\", \"up\": \"u\",\n\"down\": \"d\",\n"
	     "\"up\": \"v\"}}}",
	     "p/levels.json:3: levels.e.up: expected each member once"},
	    {"{\"levels\": {},\n\"level\": {}}",
	     "p/levels.json:2: level: expected no such member (only \"levels\")"},
	    {"[]", "p/levels.json:1: expected an object {\"levels\": {...}}"},
	    {"{\"levels\": {\n\"a\": {\"kind\": \"unit\",}}}",
	     "p/levels.json:2:22: invalid JSON (expected a member name in double quotes)"},
	};
	size_t i;

	for (i = 0; i < UTIL_ARRAY_LEN(cases); i++) {
		char *err = levels_error_of(cases[i].text);

		CHECK_STR(err, cases[i].err);
		free(err);
	}
}

TEST(levels_load_absent_and_too_big)
{
	struct levels *lv = (struct levels *)1;
	const char *dir = check_tmpdir();
	char *err = NULL, *path, *big;

	CHECK_INT(levels_load(dir, &lv, &err), 0);
	CHECK(lv == NULL && err == NULL);
	path = xasprintf("%s/.flakesweep", dir);
	CHECK_INT(util_mkdir_p(path), 0);
	free(path);
	path = xasprintf("%s/%s", dir, LEVELS_FILE);
	big = xcalloc(LEVELS_MAX_BYTES + 2, 1);
	memset(big, ' ', LEVELS_MAX_BYTES + 1);
	CHECK_INT(util_write_file_atomic(path, big, LEVELS_MAX_BYTES + 1), 0);
	CHECK_INT(levels_load(dir, &lv, &err), -EFBIG);
	CHECK(lv == NULL);
	free(big);
	big = xasprintf("%s: expected at most 1048576 bytes", path);
	CHECK_STR(err, big);
	free(big);
	free(err);
	free(path);
}

/* The header keeps the file's levels; a damaged copy names config.level_config. */
TEST(levels_in_journal_header)
{
	const char *line_text =
	    "{\"type\":\"header\",\"schema\":\"flakesweep/journal/v1\",\"config\":{\"cpu\":[1],"
	    "\"load\":[1],\"count\":1,\"confirm\":0,\"levels\":[\"it\"],\"driver\":\"go\","
	    "\"level_config\":{\"it\":{\"kind\":\"containers\",\"label\":\"x=y\"}}}}";
	struct journal_header h;
	cJSON *line = cJSON_Parse(line_text), *back, *lc;
	char *err = NULL, *a, *b;

	CHECK_INT(journal_header_decode(line, "j", 1, &h, &err), 0);
	CHECK(h.config.level_config != NULL);
	CHECK_STR(levels_find(h.config.level_config, "it")->label, "x=y");
	back = journal_header_encode(&h);
	lc = cJSON_GetObjectItem(cJSON_GetObjectItem(back, "config"), "level_config");
	a = cJSON_PrintUnformatted(lc);
	b = cJSON_PrintUnformatted(
	    cJSON_GetObjectItem(cJSON_GetObjectItem(line, "config"), "level_config"));
	CHECK_STR(a, b);
	free(a);
	free(b);
	cJSON_Delete(back);
	journal_header_free(&h);
	cJSON_ReplaceItemInObject(
	    cJSON_GetObjectItem(cJSON_GetObjectItem(line, "config"), "level_config"), "it",
	    cJSON_Parse("{\"kind\":\"containers\",\"up\":\"u\"}"));
	CHECK_INT(journal_header_decode(line, "j", 7, &h, &err), -EINVAL);
	CHECK_STR(err, "j:7: config.level_config.it.up: expected no command: only an environment "
	               "level has up and down");
	free(err);
	cJSON_Delete(line);
}

/* A sweep whose project has a levels file it cannot use does not start:
 * the error names the file and the line, and nothing was built or run. */
TEST(levels_bad_file_stops_the_sweep)
{
	const char *dir = check_tmpdir();
	char *path = xasprintf("%s/.flakesweep", dir), *err = NULL, *want;
	const char *text = "{\"levels\": {\n  \"it\": {\"kind\": \"docker\"}}}\n";
	struct options o;
	struct sweep *s;
	uv_loop_t loop;

	CHECK_INT(util_mkdir_p(path), 0);
	free(path);
	path = xasprintf("%s/%s", dir, LEVELS_FILE);
	CHECK_INT(util_write_file_atomic(path, text, strlen(text)), 0);
	options_init(&o);
	free(o.driver);
	o.driver = xstrdup("tap");
	util_strv_add(&o.command, &(size_t){0}, "/bin/true");
	o.ncommand = 1;
	o.dir = xstrdup(dir);
	o.outdir = xasprintf("%s/out", dir);
	uv_loop_init(&loop);
	s = sweep_new(&loop, &o, NULL, &err);
	CHECK(s != NULL);
	CHECK_INT(sweep_start(s, &err), -1);
	want = xasprintf("%s:2: levels.it.kind: expected \"unit\", \"containers\" or "
	                 "\"environment\"",
	                 path);
	CHECK_STR(err, want);
	uv_run(&loop, UV_RUN_DEFAULT);
	CHECK_INT(sweep_exit_status(s), 2);
	sweep_free(s);
	CHECK_INT(uv_loop_close(&loop), 0);
	free(want);
	free(err);
	free(path);
	options_free(&o);
}

/* Shards whose levels files differ are not merged. */
TEST(levels_merge_refuses_other_levels)
{
	static const char *const lc[] = {
	    "", ",\"level_config\":{\"it\":{\"kind\":\"containers\",\"label\":\"a=b\"}}"};
	const char *tmp = check_tmpdir();
	char *dirs[2], *out = xasprintf("%s/merged", tmp), *err = NULL, *want, **warnings;
	int i;

	for (i = 0; i < 2; i++) {
		char *path, *line;

		dirs[i] = xasprintf("%s/s%d", tmp, i + 1);
		CHECK_INT(util_mkdir_p(dirs[i]), 0);
		path = xasprintf("%s/journal.jsonl", dirs[i]);
		line = xasprintf("{\"type\":\"header\",\"schema\":\"flakesweep/journal/v1\","
		                 "\"config\":{\"cpu\":[1],\"load\":[1],\"count\":1,\"confirm\":0,"
		                 "\"driver\":\"go\",\"shard\":{\"index\":%d,\"count\":2,"
		                 "\"buckets\":[%d]}%s}}\n"
		                 "{\"type\":\"end\",\"status\":\"complete\"}\n",
		                 i + 1, i, lc[i]);
		CHECK_INT(util_write_file_atomic(path, line, strlen(line)), 0);
		free(line);
		free(path);
	}
	CHECK(merge_journals(out, dirs, 2, &warnings, &err) < 0);
	CHECK(warnings == NULL);
	want = xasprintf("%s and %s differ in config.level_config: shards of different "
	                 "configurations cannot be merged",
	                 dirs[0], dirs[1]);
	CHECK_STR(err, want);
	free(want);
	free(err);
	free(out);
	free(dirs[0]);
	free(dirs[1]);
}
