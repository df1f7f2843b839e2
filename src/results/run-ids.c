/* SPDX-License-Identifier: MIT */
/*
 * run-ids.c: the run ids a reader of a journal has counted, and its
 * warnings for the run lines that repeat one. It reads no file.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "results/run-ids.h"
#include "base/idset.h"
#include "base/util.h"

bool
run_ids_first(struct run_ids *ids, int64_t run, const char *path, int lineno)
{
	char *w;

	if (ids->seen == NULL)
		ids->seen = idset_new();
	if (idset_add(ids->seen, run))
		return true;
	if (ids->nwarnings > RUN_IDS_WARNINGS)
		return false;
	w = ids->nwarnings < RUN_IDS_WARNINGS
	        ? xasprintf(_("%s:%d: run %lld again; counted once"), path, lineno, (long long)run)
	        : xasprintf(_("%s: more run lines repeat an earlier run's id; each run is "
	                      "counted once"),
	                    path);
	util_strv_add(&ids->warnings, &ids->nwarnings, w);
	free(w);
	return false;
}

void
run_ids_free(struct run_ids *ids)
{
	idset_free(ids->seen);
	util_strv_free(ids->warnings);
	memset(ids, 0, sizeof *ids);
}
