/* SPDX-License-Identifier: MIT */
/*
 * verify.c: the plan of a verify. The pairs are those where the test
 * failed before, because a fix has to show at each of them; the worst
 * comes first (the highest Wilson lower bound of before's failures, the
 * pair compare judges the test at), so a fix that does not work is
 * caught with the fewest runs. The rates come from the same numbers
 * compare uses, so a verify that says fixed agrees with compare.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "results/verify.h"

/* A pair with what it is sorted by. */
struct verify_rank {
	struct verify_pair pair;
	double rate;
};

static int
verify_rank_cmp(const void *a, const void *b)
{
	const struct verify_rank *x = a, *y = b;

	if (x->pair.p0 != y->pair.p0)
		return x->pair.p0 > y->pair.p0 ? -1 : 1;
	if (x->rate != y->rate)
		return x->rate > y->rate ? -1 : 1;
	if (x->pair.cpu != y->pair.cpu)
		return x->pair.cpu < y->pair.cpu ? -1 : 1;
	return x->pair.load < y->pair.load ? -1 : x->pair.load > y->pair.load;
}

int
verify_plan(const struct results *before, const char *test_id, const struct compare_options *co,
            struct verify_plan *vp, char **err)
{
	struct results *none = results_new();
	struct verify_rank *ranks = NULL;
	struct compare *c;
	const struct compare_test *ct;
	size_t n = 0, i;
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
	for (i = 0; ct != NULL && i < (size_t)ct->npairs; i++) {
		const struct compare_pair *p = &ct->pairs[i];
		struct verify_pair *vpp;

		if (p->before.failures == 0)
			continue;
		ranks = xrealloc(ranks, sizeof *ranks * (n + 1));
		vpp = &ranks[n].pair;
		vpp->cpu = p->cpu;
		vpp->load = p->load;
		vpp->before = p->before;
		results_wilson(p->before.failures, p->before.runs, &vpp->p0, &hi);
		vpp->p1 = p->level;
		vpp->fixed_runs = p->runs_needed;
		ranks[n++].rate = (double)p->before.failures / (double)p->before.runs;
		if (!(vpp->p1 < vpp->p0) && rc == 0) {
			*err =
			    xasprintf(_("the fixed level %g is not below the rate before at cpu %d "
			                "load %d (at least %g)"),
			              vpp->p1, vpp->cpu, vpp->load, vpp->p0);
			rc = -EINVAL;
		}
	}
	if (n == 0) {
		*err = xasprintf(_("test %s never failed in the results before: nothing to verify"),
		                 test_id);
		rc = -EINVAL;
	}
	if (rc < 0)
		goto out;
	qsort(ranks, n, sizeof *ranks, verify_rank_cmp);
	vp->pairs = xmalloc(sizeof *vp->pairs * n);
	for (i = 0; i < n; i++)
		vp->pairs[i] = ranks[i].pair;
	vp->npairs = n;
	vp->alpha = VERIFY_ALPHA;
	vp->beta = VERIFY_BETA / (double)n;
out:
	free(ranks);
	compare_free(c);
	results_free(none);
	return rc;
}

void
verify_plan_free(struct verify_plan *vp)
{
	free(vp->pairs);
	memset(vp, 0, sizeof *vp);
}
