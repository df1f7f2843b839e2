/* SPDX-License-Identifier: MIT */
/*
 * verify.c: the plan of a verify. The pair is the one compare would judge
 * the test at (the highest Wilson lower bound of before's failures),
 * because that is where a fix has to show; the rates come from the same
 * numbers compare uses, so a verify that says fixed agrees with compare.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "base/util.h"
#include "results/verify.h"

int
verify_plan(const struct results *before, const char *test_id, const struct compare_options *co,
            struct verify_plan *vp, char **err)
{
	struct results *none = results_new();
	struct compare *c;
	const struct compare_test *ct;
	const struct compare_pair *p;
	double hi;
	int rc = 0;

	memset(vp, 0, sizeof *vp);
	vp->test = results_find(before, test_id);
	if (vp->test == NULL) {
		*err = xasprintf(_("no test %s in the results before"), test_id);
		results_free(none);
		return -ENOENT;
	}
	vp->package = vp->test->pkg >= 0 && (size_t)vp->test->pkg < before->npkgs
	                  ? before->pkgs[vp->test->pkg].name
	                  : NULL;
	c = compare_new(before, none, co);
	ct = compare_find(c, test_id);
	if (ct == NULL || ct->decisive < 0 || ct->pairs[ct->decisive].before.failures == 0) {
		*err = xasprintf(_("test %s never failed in the results before: nothing to verify"),
		                 test_id);
		rc = -EINVAL;
		goto out;
	}
	p = &ct->pairs[ct->decisive];
	vp->cpu = p->cpu;
	vp->load = p->load;
	vp->before = p->before;
	results_wilson(p->before.failures, p->before.runs, &vp->p0, &hi);
	vp->p1 = p->level;
	vp->fixed_runs = p->runs_needed;
	if (!(vp->p1 < vp->p0)) {
		*err = xasprintf(_("the fixed level %g is not below the rate before (at least %g)"),
		                 vp->p1, vp->p0);
		rc = -EINVAL;
	}
out:
	compare_free(c);
	results_free(none);
	return rc;
}
