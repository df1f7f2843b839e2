/* SPDX-License-Identifier: MIT */
/*
 * sweep-containers.c: the sweep's side of container levels (man 1
 * flakesweep, CONTAINER LEVELS). When a package about to be swept is at a
 * container level (levels.h: the project's levels file, or testcontainers),
 * it starts containers.c on the kept-back cores, once for each label those
 * levels pin, and journals each container pinned ("pin" lines, man 5
 * flakesweep). When
 * the engine cannot be reached, or no core is kept back, those packages
 * fail with the reason, as a failed build does, and the sweep ends with
 * exit status 2; the other levels are swept as usual.
 */
#include "config.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "base/gettext.h"
#include "base/util.h"
#include "drivers/driver.h"
#include "engine/containers.h"
#include "engine/sweep-int.h"

/* One label's containers followed on the engine. */
struct sweep_watch {
	struct sweep *s;
	const char *label; /* borrowed from the levels */
	struct containers *c;
};

/* The container level of p, or NULL. */
static const struct levels_level *
sweep_containers_of(const struct sweep *s, const struct pkg *p)
{
	const struct levels_level *l = levels_find(s->hdr.config.level_config, p->level);

	return l != NULL && l->kind == LEVELS_CONTAINERS ? l : NULL;
}

bool
sweep_containers_level(const struct sweep *s, const struct pkg *p)
{
	return sweep_containers_of(s, p) != NULL;
}

static void
sweep_containers_pinned(void *arg, const char *id, const char *cpuset, int64_t latency_ms,
                        const char *error)
{
	struct sweep_watch *w = arg;
	struct sweep *s = w->s;
	int *pkgs;
	size_t i, j, n = 0;

	if (id == NULL) {
		if (!s->finished)
			sweep_message(s, _("Docker's event stream ended: %s"), error);
		return;
	}
	/* The engine does not say which run started it: every level with
	 * this label and a run alive counts it (one, with --containers 1). */
	pkgs = xcalloc(s->nlive + 1, sizeof *pkgs);
	for (i = 0; i < s->nlive; i++) {
		int pkg = s->live[i]->pub.pkg;
		const struct levels_level *l;

		for (j = 0; j < i && s->live[j]->pub.pkg != pkg; j++)
			;
		if (j == i && (l = sweep_containers_of(s, s->pkgs[pkg])) != NULL &&
		    strcmp(l->label, w->label) == 0)
			pkgs[n++] = pkg;
	}
	sweep_containers_journal_pin(s, id, cpuset, latency_ms, error, pkgs, n);
	free(pkgs);
}

void
sweep_containers_journal_pin(struct sweep *s, const char *id, const char *cpuset,
                             int64_t latency_ms, const char *error, const int *pkgs, size_t n)
{
	cJSON *line = cJSON_CreateObject(), *a;
	size_t i;

	cJSON_AddStringToObject(line, "type", "pin");
	cJSON_AddStringToObject(line, "container", id);
	cJSON_AddStringToObject(line, "cpuset", cpuset);
	cJSON_AddNumberToObject(line, "latency_ms", (double)latency_ms);
	if (error != NULL) {
		cJSON_AddStringToObject(line, "error", error);
		sweep_message(s, _("cannot pin container %.12s: %s"), id, error);
	}
	a = cJSON_AddArrayToObject(line, "pkgs");
	for (i = 0; i < n; i++)
		cJSON_AddItemToArray(a, cJSON_CreateNumber(pkgs[i]));
	results_note_pin(s->results, id, cpuset, pkgs, n, latency_ms, error);
	sweep_journal_check(s, journal_write(s->journal, line));
	cJSON_Delete(line);
}

/* Follows the engine for every label of a container level with packages
 * to run. Returns 0, or -1 with *err (caller frees). */
static int
sweep_containers_follow(struct sweep *s, char **err)
{
	struct buf cpuset;
	char *sock = NULL;
	size_t i, j;
	int k, rc = 0;

	buf_init(&cpuset);
	for (k = 0; k < s->lanes.keep; k++)
		buf_printf(&cpuset, "%s%d", k > 0 ? "," : "", s->lanes.kept[k]);
	if (s->lanes.keep == 0) {
		*err = xstrdup(_("a container level needs a core kept back for its containers "
		                 "(--keep 1 or more)"));
		rc = -1;
		goto out;
	}
	if ((sock = containers_socket(err)) == NULL) {
		rc = -1;
		goto out;
	}
	s->watches = xcalloc(s->npkgs + 1, sizeof *s->watches);
	for (i = 0; i < s->npkgs && rc == 0; i++) {
		const struct levels_level *l = sweep_containers_of(s, s->pkgs[i]);

		if (l == NULL || !s->pkgs[i]->build_ok || s->pkgs[i]->empty)
			continue;
		for (j = 0; j < s->nwatches && strcmp(s->watches[j].label, l->label) != 0; j++)
			;
		if (j < s->nwatches)
			continue;
		s->watches[j].s = s;
		s->watches[j].label = l->label;
		s->nwatches++;
		if (containers_watch(s->loop, sock, l->label, cpuset.data, sweep_containers_pinned,
		                     &s->watches[j], &s->watches[j].c, err) < 0)
			rc = -1;
	}
out:
	free(sock);
	buf_free(&cpuset);
	return rc;
}

void
sweep_watch_containers(struct sweep *s)
{
	char *err = NULL;
	size_t i;

	for (i = 0; i < s->npkgs; i++)
		if (sweep_containers_level(s, s->pkgs[i]) && s->pkgs[i]->build_ok &&
		    !s->pkgs[i]->empty)
			break;
	if (i == s->npkgs || s->watches != NULL)
		return;
	if (sweep_containers_follow(s, &err) == 0)
		return;
	sweep_message(s, "%s", err);
	s->infra_error = true;
	for (i = 0; i < s->npkgs; i++) {
		struct pkg *p = s->pkgs[i];

		if (!sweep_containers_level(s, p) || !p->build_ok || p->empty)
			continue;
		p->build_ok = false;
		free(p->build_output);
		p->build_output = xstrdup(err);
	}
	free(err);
}

void
sweep_containers_close(struct sweep *s)
{
	size_t i;

	for (i = 0; i < s->nwatches; i++)
		containers_close(s->watches[i].c);
	free(s->watches);
	s->watches = NULL;
	s->nwatches = 0;
}
