/* SPDX-License-Identifier: MIT */
/*
 * compare-bandaids.h: the band-aids of each test a comparison holds, read
 * from the change between the commits its two results name (bandaid.h),
 * for compare and verify. It never changes the checkout.
 */
#ifndef FLAKESWEEP_COMPARE_BANDAIDS_H
#define FLAKESWEEP_COMPARE_BANDAIDS_H

#include <cjson/cJSON.h>

#include "results/compare.h"

/* Looks for the band-aids of every test of c that failed or hung before,
 * in the change from before's commit (pb: its project object) to after's
 * (pa), or to the working tree of root when pa says dirty or root is
 * given (verify: the checkout it ran in); root NULL is after's. Nothing
 * is looked for when a side names no commit, both name the same clean
 * one, or the checkout is gone. Returns 0, or a negative errno with *err
 * (caller frees); the tests looked at before keep what was found. */
int compare_bandaids(struct compare *c, const cJSON *pb, const cJSON *pa, const char *root,
                     char **err);

#endif
