/* SPDX-License-Identifier: MIT */
/* test-sweep-config.c: the journal header encoded, decoded and diffed, and
 * the values it refuses. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "engine/sweep-config.h"
#include "base/util.h"

/* The header of a TAP sweep at cpu 1,2 and load 3 on lanes {0,1} {2,3}. */
static void
header_of(struct journal_header *h)
{
	struct options o;
	const char *levels[] = {"unit"};
	static const int lanes[] = {0, 1, 2, 3};

	options_init(&o);
	free(o.driver);
	o.driver = xstrdup("tap");
	o.cpus = xcalloc(2, sizeof *o.cpus);
	o.cpus[0] = 1;
	o.cpus[1] = 2;
	o.ncpus = 2;
	o.loads[0] = 3;
	o.nloads = 1;
	o.count = 7;
	o.run_re = xstrdup("^TestA$");
	util_strv_add(&o.command, &(size_t){0}, "./t.sh");
	o.ncommand = 1;
	memset(h, 0, sizeof *h);
	h->started_ms = 1764468000000LL;
	sweep_config_from_options(&h->config, &o, levels, 1, NULL);
	h->machine.cores = 4;
	h->machine.nlanes = 2;
	h->machine.width = 2;
	h->machine.lanes = xcalloc(4, sizeof *h->machine.lanes);
	memcpy(h->machine.lanes, lanes, sizeof lanes);
	h->project.driver = xstrdup("tap");
	h->project.root = xstrdup("/src/p");
	options_free(&o);
}

TEST(sweep_config_header_round_trip)
{
	struct journal_header h, back;
	struct options o;
	char *a, *b, *err = NULL, *diff;
	cJSON *line;

	header_of(&h);
	line = journal_header_encode(&h);
	a = cJSON_PrintUnformatted(line);
	CHECK_INT(journal_header_decode(line, "j", 1, &back, &err), 0);
	cJSON_Delete(line);
	line = journal_header_encode(&back);
	b = cJSON_PrintUnformatted(line);
	CHECK_STR(b, a);
	CHECK_STR(a, "{\"type\":\"header\",\"schema\":\"flakesweep/journal/v1\",\"started\":"
	             "\"2025-11-30T02:00:00Z\",\"config\":{\"cpu\":[1,2],\"load\":[3],\"count\":7,"
	             "\"confirm\":1000,\"timeout_ms\":120000,\"kill_grace_ms\":30000,\"shuffle\":"
	             "false,\"run\":\"^TestA$\",\"skip\":null,\"levels\":[\"unit\"],\"tags\":null,"
	             "\"race\":true,\"isolate_net\":false,\"tap_select\":\"arg\",\"env\":{},"
	             "\"quarantine\":null,\"build_tags\":null,"
	             "\"driver\":\"tap\",\"packages\":[],\"command\":[\"./t.sh\"],\"tz\":\"UTC\","
	             "\"locale\":\"C\"},\"machine\":{"
	             "\"cores\":4,\"keep\":0,\"lanes\":[[0,1],[2,3]]},\"project\":{\"driver\":"
	             "\"tap\",\"root\":\"/src/p\",\"commit\":null,\"toolchain\":null,\"origin\":"
	             "null}}");
	/* Back into options: the TAP command comes back with the rest. */
	options_init(&o);
	sweep_config_to_options(&back.config, &o);
	CHECK_STR(o.driver, "tap");
	CHECK_INT(o.ncommand, 1);
	CHECK_STR(o.command[0], "./t.sh");
	CHECK(o.command[1] == NULL);
	CHECK_STR(o.run_re, "^TestA$");
	CHECK_INT(o.count, 7);
	/* --resume compares only what the command line named. */
	CHECK(sweep_config_diff(&o, &back.config) == NULL);
	o.given = OPTIONS_GIVEN_COUNT | OPTIONS_GIVEN_CPU;
	o.count = 8;
	o.ncpus = 1;
	diff = sweep_config_diff(&o, &back.config);
	CHECK_STR(diff, " --count --cpu");
	free(diff);
	options_free(&o);
	cJSON_Delete(line);
	free(a);
	free(b);
	journal_header_free(&h);
	journal_header_free(&back);
}

/* --quiet is kept only when given, and comes back to a --resume that
 * does not give it again; one that does wins. */
TEST(sweep_config_header_keeps_quiet)
{
	struct journal_header h, back;
	struct options o;
	char *err = NULL;
	cJSON *line;

	header_of(&h);
	h.config.quiet = 30;
	line = journal_header_encode(&h);
	CHECK_INT(cJSON_GetObjectItem(cJSON_GetObjectItem(line, "config"), "quiet")->valueint, 30);
	CHECK_INT(journal_header_decode(line, "j", 1, &back, &err), 0);
	CHECK_INT(back.config.quiet, 30);
	options_init(&o);
	sweep_config_to_options(&back.config, &o);
	CHECK_INT(o.quiet, 30);
	o.quiet = 10;
	sweep_config_to_options(&back.config, &o);
	CHECK_INT(o.quiet, 10);
	options_free(&o);
	cJSON_Delete(line);
	journal_header_free(&h);
	journal_header_free(&back);
}

/* --no-cpu-shim outlives the sweep: a resume runs without the shim, and
 * a rebuild's reproduce lines leave it out. */
TEST(sweep_config_header_keeps_no_cpu_shim)
{
	struct journal_header h, back;
	struct options o;
	char *err = NULL;
	cJSON *line;

	header_of(&h);
	line = journal_header_encode(&h);
	CHECK(cJSON_GetObjectItem(cJSON_GetObjectItem(line, "config"), "cpu_shim") == NULL);
	cJSON_Delete(line);
	h.config.cpu_shim = false;
	line = journal_header_encode(&h);
	CHECK(cJSON_IsFalse(cJSON_GetObjectItem(cJSON_GetObjectItem(line, "config"), "cpu_shim")));
	CHECK_INT(journal_header_decode(line, "j", 1, &back, &err), 0);
	CHECK(!back.config.cpu_shim);
	options_init(&o);
	o.cpu_shim_path = xstrdup("/lib/shim.so");
	sweep_config_to_options(&back.config, &o);
	CHECK(!o.cpu_shim);
	CHECK(o.cpu_shim_path == NULL);
	options_free(&o);
	cJSON_Delete(line);
	journal_header_free(&h);
	journal_header_free(&back);
}

/* --containers, --clusters, --env-up and --env-down outlive the sweep, so
 * --resume runs with them; at their defaults the header leaves them out. */
TEST(sweep_config_header_keeps_container_and_environment_options)
{
	struct journal_header h, back;
	struct options o;
	char *err = NULL;
	cJSON *line, *config;

	header_of(&h);
	line = journal_header_encode(&h);
	config = cJSON_GetObjectItem(line, "config");
	CHECK(cJSON_GetObjectItem(config, "containers") == NULL);
	CHECK(cJSON_GetObjectItem(config, "clusters") == NULL);
	CHECK(cJSON_GetObjectItem(config, "env_up") == NULL);
	CHECK_INT(journal_header_decode(line, "j", 1, &back, &err), 0);
	CHECK_INT(back.config.containers, 4);
	CHECK_INT(back.config.clusters, 2);
	CHECK(back.config.env_up == NULL && back.config.env_down == NULL);
	cJSON_Delete(line);
	journal_header_free(&back);
	h.config.containers = 1;
	h.config.clusters = 3;
	h.config.env_up = xstrdup("./up --fast");
	h.config.env_down = xstrdup("./down");
	line = journal_header_encode(&h);
	CHECK_INT(journal_header_decode(line, "j", 1, &back, &err), 0);
	options_init(&o);
	sweep_config_to_options(&back.config, &o);
	CHECK_INT(o.containers, 1);
	CHECK_INT(o.clusters, 3);
	CHECK_STR(o.env_up, "./up --fast");
	CHECK_STR(o.env_down, "./down");
	options_free(&o);
	cJSON_Delete(line);
	journal_header_free(&h);
	journal_header_free(&back);
}

/* Decodes the header with one config key set to value (JSON). */
static void
bad_config(const char *key, const char *value, const char *want)
{
	struct journal_header h;
	char *err = NULL, *full = xasprintf("j.jsonl:1: %s", want);
	cJSON *line;

	header_of(&h);
	line = journal_header_encode(&h);
	journal_header_free(&h);
	cJSON_DeleteItemFromObject(cJSON_GetObjectItem(line, "config"), key);
	cJSON_AddItemToObject(cJSON_GetObjectItem(line, "config"), key, cJSON_Parse(value));
	CHECK_INT(journal_header_decode(line, "j.jsonl", 1, &h, &err), -EINVAL);
	CHECK_STR(err, full);
	free(err);
	free(full);
	cJSON_Delete(line);
}

TEST(sweep_config_header_refuses_what_the_command_line_refuses)
{
	bad_config("count", "-7",
	           "config.count: expected a positive whole number, at most 100000000");
	bad_config("count", "0",
	           "config.count: expected a positive whole number, at most 100000000");
	bad_config("count", "\"5\"",
	           "config.count: expected a positive whole number, at most 100000000");
	bad_config("confirm", "100000001",
	           "config.confirm: expected a whole number, at most 100000000");
	bad_config("cpu", "[0]", "config.cpu: expected a comma-separated list of positive numbers");
	bad_config("cpu", "[]", "config.cpu: expected a comma-separated list of positive numbers");
	bad_config("load", "[2,2]", "config.load: expected a list that names each value once");
	bad_config("timeout_ms", "0", "config.timeout_ms: expected a duration above zero");
	bad_config("driver", "\"cargo\"",
	           "config.driver: expected go, tap, pytest, gtest or ctest");
	bad_config("load", "[65]", "config.load: expected runs per core, each at most 64");
	bad_config("tap_select", "\"both\"", "config.tap_select: expected arg or env");
	bad_config("pytest_unit", "\"module\"", "config.pytest_unit: expected file or dir");
	bad_config("env", "{\"GOFLAGS\":1}", "config.env: expected an object of strings");
	bad_config("command", "[]", "config.command: expected the command after --");
	bad_config("command", "[1]", "config.command: expected an array of strings");
	bad_config("shuffle", "1", "config.shuffle: expected true or false");
	bad_config("run", "7", "config.run: expected a string or null");
	bad_config("quiet", "100", "config.quiet: expected a whole percentage from 1 to 99");
	bad_config("quiet", "2.5", "config.quiet: expected a whole number");
	bad_config("containers", "0",
	           "config.containers: expected a positive whole number, at most 100000000");
	bad_config("env_up", "null", "config.env_up: expected a string");
	bad_config("mask_env", "\"DB_PASS\"", "config.mask_env: expected an array of strings");
	bad_config("mask_env", "[\"DB_PASS=hunter2\"]",
	           "config.mask_env: expected an array of variable names (no \"=\", none empty)");
	bad_config("mask_env", "[\"\"]",
	           "config.mask_env: expected an array of variable names (no \"=\", none empty)");
}

/* --mask-env outlives the sweep, names only: a resume masks them, and
 * names given again are added to them. */
TEST(sweep_config_header_keeps_mask_env_names)
{
	struct journal_header h, back;
	struct options o;
	char *err = NULL, *text;
	cJSON *line;

	header_of(&h);
	line = journal_header_encode(&h);
	CHECK(cJSON_GetObjectItem(cJSON_GetObjectItem(line, "config"), "mask_env") == NULL);
	cJSON_Delete(line);
	options_init(&o);
	options_add_mask_env(&o, "DB_PASS");
	options_add_mask_env(&o, "DB_PASS");
	options_add_mask_env(&o, "API");
	util_strv_free_n(h.config.mask_env, h.config.nmask_env);
	h.config.mask_env = o.mask_env;
	h.config.nmask_env = o.nmask_env;
	o.mask_env = NULL;
	o.nmask_env = 0;
	options_free(&o);
	line = journal_header_encode(&h);
	text = cJSON_PrintUnformatted(
	    cJSON_GetObjectItem(cJSON_GetObjectItem(line, "config"), "mask_env"));
	CHECK_STR(text, "[\"DB_PASS\",\"API\"]");
	free(text);
	CHECK_INT(journal_header_decode(line, "j", 1, &back, &err), 0);
	CHECK_INT(back.config.nmask_env, 2);
	options_init(&o);
	options_add_mask_env(&o, "API");
	options_add_mask_env(&o, "NEW_NAME");
	sweep_config_to_options(&back.config, &o);
	CHECK_INT(o.nmask_env, 3);
	CHECK_STR(o.mask_env[0], "API");
	CHECK_STR(o.mask_env[1], "NEW_NAME");
	CHECK_STR(o.mask_env[2], "DB_PASS");
	options_free(&o);
	cJSON_Delete(line);
	journal_header_free(&h);
	journal_header_free(&back);
}

/* --resume where fewer cores are allowed than the header's kept-back cores
 * and widest run need is refused, naming both and what fits. */
TEST(sweep_config_cores_short)
{
	struct journal_header h;
	char *why;

	header_of(&h);
	h.machine.keep = 2;
	CHECK(sweep_config_cores_short(&h, "out", 4) == NULL);
	CHECK(sweep_config_cores_short(&h, "out", 64) == NULL);
	why = sweep_config_cores_short(&h, "out", 3);
	CHECK_STR(why, "out was swept with --keep 2 and runs up to --cpu 2, 4 cores in all, and "
	               "flakesweep may use 3 here: resume it where it may use 4, or keep fewer "
	               "cores back with --keep 1 --force");
	free(why);
	why = sweep_config_cores_short(&h, "out", 1);
	CHECK_STR(why, "out was swept with --keep 2 and runs up to --cpu 2, 4 cores in all, and "
	               "flakesweep may use 1 here: resume it where it may use 4");
	free(why);
	h.machine.keep = 0;
	CHECK(sweep_config_cores_short(&h, "out", 2) == NULL);
	journal_header_free(&h);
}

/* A tree that differed from its commit is recorded as "dirty": true in the
 * project object and read back; a clean one writes no field, and a value
 * that is no boolean is refused naming the field. */
TEST(sweep_config_header_keeps_dirty)
{
	struct journal_header h, back;
	char *err = NULL;
	cJSON *line, *project;

	header_of(&h);
	line = journal_header_encode(&h);
	CHECK(cJSON_GetObjectItem(cJSON_GetObjectItem(line, "project"), "dirty") == NULL);
	cJSON_Delete(line);
	h.project.dirty = true;
	line = journal_header_encode(&h);
	project = cJSON_GetObjectItem(line, "project");
	CHECK(cJSON_IsTrue(cJSON_GetObjectItem(project, "dirty")));
	CHECK_INT(journal_header_decode(line, "j", 1, &back, &err), 0);
	CHECK(back.project.dirty);
	journal_header_free(&back);
	cJSON_ReplaceItemInObject(project, "dirty", cJSON_CreateString("yes"));
	CHECK(journal_header_decode(line, "j", 1, &back, &err) < 0);
	CHECK(err != NULL && strstr(err, "dirty: expected true or false") != NULL);
	free(err);
	cJSON_Delete(line);
	journal_header_free(&h);
	journal_header_free(&back);
}
