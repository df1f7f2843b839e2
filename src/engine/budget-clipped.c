/* SPDX-License-Identifier: MIT */
/*
 * budget-clipped.c: the runs whose time limit a budget clipped to the
 * time it had left, recorded where the report reads them: the config
 * results.json copies (clipped_limits) as they are counted, and the
 * journal's clipped line at the end, so a rebuilt report has them too.
 */
#include "config.h"

#include "engine/budget.h"
#include "engine/sweep-int.h"
#include "results/journal.h"

void
budget_clipped_note(struct sweep *s)
{
	cJSON *config = cJSON_GetObjectItemCaseSensitive(s->header, "config");
	cJSON *n = cJSON_CreateNumber((double)++s->hdr.config.clipped_limits);

	if (config == NULL)
		cJSON_Delete(n);
	else if (cJSON_HasObjectItem(config, "clipped_limits"))
		cJSON_ReplaceItemInObjectCaseSensitive(config, "clipped_limits", n);
	else
		cJSON_AddItemToObject(config, "clipped_limits", n);
	s->dirty = true;
}

void
budget_clipped_journal(struct sweep *s)
{
	cJSON *line;

	if (s->hdr.config.clipped_limits == 0 || s->journal == NULL || s->header == NULL)
		return;
	line = cJSON_CreateObject();
	cJSON_AddStringToObject(line, "type", "clipped");
	cJSON_AddNumberToObject(line, "limits", (double)s->hdr.config.clipped_limits);
	sweep_journal_check(s, journal_write(s->journal, line));
	cJSON_Delete(line);
}
