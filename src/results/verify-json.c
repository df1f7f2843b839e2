/* SPDX-License-Identifier: MIT */
/*
 * verify-json.c: writes verify.json, the record of one verify, in
 * cJSON_Print's layout through jsonw. It never reads results.
 */
#include "config.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "base/gettext.h"
#include "base/jsonw.h"
#include "base/util.h"
#include "results/stats.h"
#include "results/verify-json.h"

const char *
verify_json_decision(int state)
{
	return state == STATS_SPRT_ACCEPT_P1   ? "fixed"
	       : state == STATS_SPRT_ACCEPT_P0 ? "not-fixed"
	                                       : "undecided";
}

int
verify_json_write(const char *dir, const struct verify_json *v, char **err)
{
	cJSON *root = cJSON_CreateObject(), *pairs;
	char *text, *path = xasprintf("%s/verify.json", dir);
	int64_t runs = 0;
	size_t i;
	int rc;

	cJSON_AddStringToObject(root, "schema", VERIFY_JSON_SCHEMA);
	cJSON_AddStringToObject(root, "test", v->test);
	cJSON_AddStringToObject(root, "verdict", v->verdict);
	if (v->commit != NULL)
		cJSON_AddStringToObject(root, "commit", v->commit);
	else
		cJSON_AddNullToObject(root, "commit");
	cJSON_AddBoolToObject(root, "dirty", v->dirty);
	pairs = cJSON_AddArrayToObject(root, "pairs");
	for (i = 0; i < v->npairs; i++) {
		const struct verify_json_pair *p = &v->pairs[i];
		cJSON *o = cJSON_CreateObject();

		cJSON_AddNumberToObject(o, "cpu", p->cpu);
		cJSON_AddNumberToObject(o, "load", p->load);
		cJSON_AddNumberToObject(o, "runs", (double)p->runs);
		cJSON_AddNumberToObject(o, "failures", (double)p->failures);
		cJSON_AddStringToObject(o, "decision", verify_json_decision(p->state));
		cJSON_AddItemToArray(pairs, o);
		runs += p->runs;
	}
	cJSON_AddNumberToObject(root, "runs", (double)runs);
	if (v->compared != NULL)
		cJSON_AddItemToObject(root, "bandaids", compare_bandaids_json(v->compared));
	else
		cJSON_AddArrayToObject(root, "bandaids");
	text = jsonw_print(root, true);
	rc = util_write_file_atomic(path, text, strlen(text));
	if (rc < 0)
		*err = xasprintf(_("cannot write %s: %s"), path, strerror(-rc));
	free(text);
	free(path);
	cJSON_Delete(root);
	return rc;
}
