/* SPDX-License-Identifier: MIT */
/*
 * sweep-resume.c: what a resumed sweep owes its journal. Each phase's
 * plan, once whole, starts with the runs the journal already holds at each
 * pair, up to the pair's target: a pair the journal asked for more than
 * once (--confirm and a confirm line, or two confirm lines) is counted
 * against everything asked of it, so a confirm request is served once and
 * a complete sweep's resume runs nothing. It never runs anything itself.
 */
#include "config.h"

#include "engine/sweep-int.h"

void
sweep_resume_count(struct sweep *s)
{
	const struct plan_pair *done;
	struct plan_pair *p;
	int id;

	for (id = 0; id < sched_npairs(s->sched); id++) {
		p = sched_pair_data(s->sched, id);
		done = plan_find(&s->replay.runs, p->phase, p->pkg, p->test, p->cpu, p->load);
		if (done == NULL)
			continue;
		p->runs = done->runs < p->target ? done->runs : p->target;
		p->ms = done->ms;
		sched_mark_done(s->sched, id, p->runs, done->ms);
	}
}

void
sweep_resume_line(struct sweep *s)
{
	cJSON *line = cJSON_CreateObject();

	cJSON_AddStringToObject(line, "type", "resume");
	cJSON_AddNumberToObject(line, "after_run", (double)s->next_run);
	/* Every name masked now, so a later resume masks them too. */
	if (s->o->nmask_env > 0) {
		cJSON *names = cJSON_AddArrayToObject(line, "mask_env");
		int i;

		for (i = 0; i < s->o->nmask_env; i++)
			cJSON_AddItemToArray(names, cJSON_CreateString(s->o->mask_env[i]));
	}
	sweep_journal_check(s, journal_write(s->journal, line));
	cJSON_Delete(line);
}
