/* SPDX-License-Identifier: MIT */
/*
 * shard.c: stable shards (see shard.h). The plan is a function of the
 * shard count and the durations file alone: units the file does not know
 * ride in their bucket wherever the file's weights put it.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/hash.h"
#include "base/sanitize.h"
#include "base/util.h"
#include "drivers/driver.h"
#include "engine/options.h"
#include "engine/shard.h"
#include "results/results-json.h"
#include "results/results.h"

/* A unit the durations file weighs. */
struct shard_unit {
	char *package, *level;
	double weight;
};

const char *
shard_parse(const char *s, int *index, int *count)
{
	const char *expected = _("I/N, two whole numbers with 1 <= I <= N <= 512");
	char *end;
	long i, n;

	errno = 0;
	i = strtol(s, &end, 10);
	if (end == s || *end != '/' || errno != 0)
		return expected;
	s = end + 1;
	n = strtol(s, &end, 10);
	if (end == s || *end != '\0' || errno != 0 || i < 1 || n < i || n > SHARD_BUCKETS)
		return expected;
	*index = (int)i;
	*count = (int)n;
	return NULL;
}

int
shard_bucket(const char *package, const char *level)
{
	uint64_t h = HASH_FNV1A_INIT;
	const char *s;

	for (s = package; *s != '\0'; s++)
		h = hash_fnv1a_byte(h, (unsigned char)*s);
	h = hash_fnv1a_byte(h, '\n');
	for (s = level; *s != '\0'; s++)
		h = hash_fnv1a_byte(h, (unsigned char)*s);
	return (int)(h % SHARD_BUCKETS);
}

char *
shard_durations_path(const char *arg)
{
	struct stat st;

	return stat(arg, &st) == 0 && S_ISDIR(st.st_mode) ? xasprintf("%s/results.json", arg)
	                                                  : xstrdup(arg);
}

int
shard_durations_check(const char *arg, char **err)
{
	char *path = shard_durations_path(arg);
	/* O_NONBLOCK: opening a FIFO must not wait for a writer. */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC), rc = 0;
	struct stat st;

	if (fd < 0) {
		rc = -errno;
		*err = xasprintf(_("--durations: cannot read %s: %s"), path, strerror(-rc));
	} else if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		rc = -EINVAL;
		*err = xasprintf(_("--durations: %s is not a regular file"), path);
	}
	if (fd >= 0)
		close(fd);
	free(path);
	return rc;
}

/* Reads the units of a results.json (or an output directory's) with their
 * run time, or their test count when no package has a recorded time. */
static int
shard_read_durations(struct shard_plan *p, const char *arg, char **err)
{
	struct results *r = NULL;
	char *path;
	bool seconds = false;
	size_t i;
	int rc;

	rc = shard_durations_check(arg, err);
	if (rc < 0)
		return rc;
	path = shard_durations_path(arg);
	rc = results_load(path, &r, NULL, err);
	free(path);
	if (rc < 0)
		return rc;
	for (i = 0; i < r->npkgs; i++)
		seconds |= r->pkgs[i].ms > 0;
	p->basis = seconds ? SHARD_BY_SECONDS : SHARD_BY_TESTS;
	p->units = xcalloc(r->npkgs + 1, sizeof *p->units);
	for (i = 0; i < r->npkgs; i++) {
		struct shard_unit *u = &p->units[p->nunits++];

		u->package = xstrdup(r->pkgs[i].name);
		u->level = xstrdup(r->pkgs[i].level);
		u->weight = seconds ? (double)r->pkgs[i].ms / 1000 : 0;
	}
	if (!seconds)
		for (i = 0; i < r->ntests; i++)
			p->units[r->tests[i].pkg].weight++;
	results_free(r);
	return 0;
}

/* The bucket to place next: the heaviest not placed, lowest number first. */
static int
shard_heaviest(const struct shard_plan *p, const bool *placed)
{
	int b, best = -1;

	for (b = 0; b < SHARD_BUCKETS; b++)
		if (!placed[b] && (best < 0 || p->weight[b] > p->weight[best]))
			best = b;
	return best;
}

int
shard_plan_make(struct shard_plan *p, int count, const char *durations, char **err)
{
	double *load = xcalloc((size_t)count + 1, sizeof *load);
	int *buckets = xcalloc((size_t)count + 1, sizeof *buckets);
	bool placed[SHARD_BUCKETS] = {false};
	size_t i;
	int b, k, s;

	memset(p, 0, sizeof *p);
	p->count = count;
	p->basis = SHARD_BY_BUCKETS;
	if (durations != NULL && shard_read_durations(p, durations, err) < 0) {
		free(load);
		free(buckets);
		return -EINVAL;
	}
	for (i = 0; i < p->nunits; i++)
		p->weight[shard_bucket(p->units[i].package, p->units[i].level)] +=
		    p->units[i].weight;
	/* Longest first onto the least loaded shard; ties go to the shard
	 * with fewer buckets, then the lower number, so equal weights (no
	 * durations) deal the buckets round. A bucket that weighs nothing
	 * loads every shard alike, so for it every shard ties: the buckets
	 * the durations file does not know are dealt round too, not piled
	 * onto the shard that was least loaded when they came. */
	for (k = 0; k < SHARD_BUCKETS; k++) {
		b = shard_heaviest(p, placed);
		s = 0;
		for (i = 1; i < (size_t)count; i++) {
			bool tie = p->weight[b] == 0 || load[i] == load[s];

			if ((p->weight[b] > 0 && load[i] < load[s]) ||
			    (tie && buckets[i] < buckets[s]))
				s = (int)i;
		}
		placed[b] = true;
		p->owner[b] = s + 1;
		load[s] += p->weight[b];
		buckets[s]++;
	}
	free(load);
	free(buckets);
	return 0;
}

void
shard_plan_free(struct shard_plan *p)
{
	size_t i;

	for (i = 0; i < p->nunits; i++) {
		free(p->units[i].package);
		free(p->units[i].level);
	}
	free(p->units);
	memset(p, 0, sizeof *p);
}

int *
shard_plan_buckets(const struct shard_plan *p, int index, int *n)
{
	int *out = xcalloc(SHARD_BUCKETS + 1, sizeof *out);
	int b;

	*n = 0;
	for (b = 0; b < SHARD_BUCKETS; b++)
		if (p->owner[b] == index)
			out[(*n)++] = b;
	return out;
}

static bool
shard_has(const int *buckets, int n, int b)
{
	int i;

	for (i = 0; i < n; i++)
		if (buckets[i] == b)
			return true;
	return false;
}

void
shard_select(struct pkg **pkgs, size_t *npkgs, const int *buckets, int n)
{
	size_t i, kept = 0;

	for (i = 0; i < *npkgs; i++) {
		if (shard_has(buckets, n, shard_bucket(pkgs[i]->name, pkgs[i]->level)))
			pkgs[kept++] = pkgs[i];
		else
			driver_free_pkg(pkgs[i]);
	}
	*npkgs = kept;
}

double
shard_unit_weight(const struct shard_plan *p, const char *package, const char *level)
{
	size_t i;

	for (i = 0; i < p->nunits; i++)
		if (strcmp(p->units[i].package, package) == 0 &&
		    strcmp(p->units[i].level, level) == 0)
			return p->units[i].weight;
	return 0;
}

void
shard_plan_warn(const struct shard_plan *p, const char *durations, struct pkg *const *pkgs,
                size_t npkgs)
{
	size_t i, unknown = 0;

	if (durations == NULL)
		return;
	for (i = 0; i < npkgs; i++) {
		size_t k;

		for (k = 0; k < p->nunits; k++)
			if (strcmp(p->units[k].package, pkgs[i]->name) == 0 &&
			    strcmp(p->units[k].level, pkgs[i]->level) == 0)
				break;
		unknown += k == p->nunits;
	}
	if (unknown > 0)
		sanitize_fprintf(stderr,
		                 ngettext("flakesweep: %s does not know %zu package of %zu: it "
		                          "weighs nothing in the plan\n",
		                          "flakesweep: %s does not know %zu packages of %zu: they "
		                          "weigh nothing in the plan\n",
		                          (unsigned long)unknown),
		                 durations, unknown, npkgs);
}

static void
shard_print_weight(enum shard_basis basis, double w)
{
	if (basis == SHARD_BY_SECONDS)
		printf(_("%.1f s"), w);
	else if (basis == SHARD_BY_TESTS)
		printf(_("%.0f tests"), w);
	else
		printf("-");
}

void
shard_plan_print(const struct shard_plan *p, struct pkg *const *pkgs, size_t npkgs)
{
	static const char *const bases[] = {"buckets", "tests", "seconds"};
	size_t i;
	int s, n;

	printf(ngettext("shard plan: %d shard of %d buckets, weighed by %s\n",
	                "shard plan: %d shards of %d buckets, weighed by %s\n",
	                (unsigned long)p->count),
	       p->count, SHARD_BUCKETS, bases[p->basis]);
	for (s = 1; s <= p->count; s++) {
		double total = 0;

		n = 0;
		for (i = 0; i < npkgs; i++) {
			if (p->owner[shard_bucket(pkgs[i]->name, pkgs[i]->level)] != s)
				continue;
			total += shard_unit_weight(p, pkgs[i]->name, pkgs[i]->level);
			n++;
		}
		printf(ngettext("shard %d/%d: %d unit, expected ",
		                "shard %d/%d: %d units, expected ", (unsigned long)n),
		       s, p->count, n);
		shard_print_weight(p->basis, total);
		putchar('\n');
		for (i = 0; i < npkgs; i++) {
			const struct pkg *k = pkgs[i];

			if (p->owner[shard_bucket(k->name, k->level)] != s)
				continue;
			sanitize_fprintf(stdout, "  %s (%s) ", k->name, k->level);
			shard_print_weight(p->basis, shard_unit_weight(p, k->name, k->level));
			putchar('\n');
		}
	}
}

int
shard_plan_show(const struct options *o, char **err)
{
	const struct driver *d = driver_find(o->driver);
	struct project proj;
	struct shard_plan p;
	struct pkg **pkgs = NULL;
	size_t npkgs = 0;
	int rc;

	memset(&proj, 0, sizeof proj);
	rc = d->discover(o, &proj, &pkgs, &npkgs, err);
	if (rc == 0)
		rc =
		    shard_plan_make(&p, o->shard_count > 0 ? o->shard_count : 1, o->durations, err);
	if (rc == 0) {
		shard_plan_warn(&p, o->durations, pkgs, npkgs);
		shard_plan_print(&p, pkgs, npkgs);
		shard_plan_free(&p);
	}
	driver_free_pkgs(pkgs, npkgs);
	driver_free_project(&proj);
	return rc < 0 ? -1 : 0;
}
