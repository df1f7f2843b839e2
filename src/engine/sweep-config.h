/* SPDX-License-Identifier: MIT */
/*
 * sweep-config.h: the journal's header line, typed (DESIGN section 5, man 5
 * flakesweep): the settings a sweep ran with, the machine's lanes and the
 * project. It is the one module that reads or writes header keys: --resume,
 * `report --rebuild` and `view` decode the header here, with the command
 * line's rules for every value (options.h), and --resume diffs it against
 * the command line.
 */
#ifndef FLAKESWEEP_SWEEP_CONFIG_H
#define FLAKESWEEP_SWEEP_CONFIG_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdint.h>

#include "drivers/levels.h"
#include "engine/options.h"
#include "results/journal-header.h"

/* Fills c from the options of a sweep that found these levels. */
void sweep_config_from_options(struct sweep_config *c, const struct options *o,
                               const char *const *levels, int nlevels, const char *quarantine);

/* Records each variable of names (NULL-terminated, or NULL) that is set
 * in flakesweep's own environment. */
void sweep_config_keep_env(struct sweep_config *c, const char *const *names);

/* Sets what c records in o, for --resume and `report --rebuild`: every
 * setting, the driver, the package patterns and the TAP command; the
 * quarantine file only when o names none. */
void sweep_config_to_options(const struct sweep_config *c, struct options *o);

/* The settings the command line named that differ from c, as " --count
 * --cpu" phrases; NULL when none. */
char *sweep_config_diff(const struct options *o, const struct sweep_config *c);

/* Why the sweep of header h cannot go on where flakesweep may use ncores
 * cores: its kept-back cores (machine.keep) and its widest run (--cpu)
 * need more. Returns that refusal for outdir (caller frees), or NULL when
 * they fit. */
char *sweep_config_cores_short(const struct journal_header *h, const char *outdir, int ncores);

#endif
