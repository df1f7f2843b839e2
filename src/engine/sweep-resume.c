/* SPDX-License-Identifier: MIT */
/*
 * sweep-resume.c: the journal's resume line (the run ids after which the
 * sweep went on, the names it masks). What a resumed sweep owes its
 * journal is the scheduler core's: each phase's plan, once whole, starts
 * with the runs the journal already holds at each pair, up to the pair's
 * target. It never runs anything itself.
 */
#include "config.h"

#include "engine/sweep-int.h"

void
sweep_resume_line(struct sweep *s)
{
	cJSON *line = cJSON_CreateObject();

	cJSON_AddStringToObject(line, "type", "resume");
	cJSON_AddNumberToObject(line, "after_run", (double)s->next_run);
	/* Every name masked and withheld now, so a later resume masks and
	 * withholds them too. */
	if (s->o->nmask_env > 0)
		cJSON_AddItemToObject(
		    line, "mask_env",
		    cJSON_CreateStringArray((const char *const *)s->o->mask_env, s->o->nmask_env));
	if (s->o->nscrub_env > 0)
		cJSON_AddItemToObject(line, "scrub_env",
		                      cJSON_CreateStringArray((const char *const *)s->o->scrub_env,
		                                              s->o->nscrub_env));
	sweep_journal_check(s, journal_write(s->journal, line));
	cJSON_Delete(line);
}
