/* SPDX-License-Identifier: MIT */
/*
 * sweep-secrets.c: the secrets of the sweep's environment kept out of
 * everything it records, shows or could post: the values of the
 * variables whose names look like secrets' and of the --mask-env names
 * are taken once and masked in every child's output as proc.c reads it.
 * The runs still get the variables. It never parses output.
 */
#include "config.h"

#include <stdlib.h>

#include "base/mask.h"
#include "engine/sweep-int.h"

extern char **environ;

void
sweep_secrets_begin(struct sweep *s)
{
	/* The runs get flakesweep's environment, less the variables it
	 * withholds and plus its own (TMPDIR, FLAKESWEEP_*): its secrets are
	 * theirs. */
	s->mask = mask_new();
	mask_add_environ(s->mask, environ, s->o->mask_env, (size_t)s->o->nmask_env);
	proc_set_mask(s->mask);
}

void
sweep_secrets_end(struct sweep *s)
{
	if (s->mask == NULL)
		return;
	proc_set_mask(NULL);
	mask_free(s->mask);
	s->mask = NULL;
}
