/* SPDX-License-Identifier: MIT */
/*
 * sweep-containers.c: the sweep's side of container levels (man 1
 * flakesweep, CONTAINER LEVELS). When a package about to be swept is at a
 * container level, it starts containers.c on the kept-back cores and
 * journals each container pinned ("pin" lines, man 5 flakesweep). When
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

/* The label of the containers to pin. */
#define SWEEP_CONTAINERS_LABEL "org.testcontainers=true"

bool
sweep_containers_level(const struct pkg *p)
{
	return strcmp(driver_level_kind(p->level), "containers") == 0;
}

static void
sweep_containers_pinned(void *arg, const char *id, const char *cpuset, int64_t latency_ms,
                        const char *error)
{
	struct sweep *s = arg;
	int *pkgs;
	size_t i, j, n = 0;

	if (id == NULL) {
		if (!s->finished)
			sweep_message(s, _("Docker's event stream ended: %s"), error);
		return;
	}
	/* The engine does not say which run started it: every container
	 * level with a run alive counts it (one, with --containers 1). */
	pkgs = xmalloc(sizeof *pkgs * (s->nlive + 1));
	for (i = 0; i < s->nlive; i++) {
		int pkg = s->live[i]->pub.pkg;

		for (j = 0; j < i && s->live[j]->pub.pkg != pkg; j++)
			;
		if (j == i && sweep_containers_level(s->pkgs[pkg]))
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
	for (i = 0; i < n; i++) {
		cJSON_AddItemToArray(a, cJSON_CreateNumber(pkgs[i]));
		results_note_pin(s->results, pkgs[i], cpuset, latency_ms, error == NULL);
	}
	sweep_journal_check(s, journal_write(s->journal, line));
	cJSON_Delete(line);
}

void
sweep_watch_containers(struct sweep *s)
{
	struct buf cpuset;
	char *err = NULL, *sock = NULL;
	size_t i;
	int k;

	for (i = 0; i < s->npkgs; i++)
		if (sweep_containers_level(s->pkgs[i]) && s->pkgs[i]->build_ok &&
		    !s->pkgs[i]->empty)
			break;
	if (i == s->npkgs || s->containers != NULL)
		return;
	buf_init(&cpuset);
	for (k = 0; k < s->lanes.keep; k++)
		buf_printf(&cpuset, "%s%d", k > 0 ? "," : "", s->lanes.kept[k]);
	if (s->lanes.keep == 0)
		err = xstrdup(_("a container level needs a core kept back for its containers "
		                "(--keep 1 or more)"));
	else if ((sock = containers_socket(&err)) != NULL)
		containers_watch(s->loop, sock, SWEEP_CONTAINERS_LABEL, cpuset.data,
		                 sweep_containers_pinned, s, &s->containers, &err);
	free(sock);
	buf_free(&cpuset);
	if (err == NULL)
		return;
	sweep_message(s, "%s", err);
	s->infra_error = true;
	for (i = 0; i < s->npkgs; i++) {
		struct pkg *p = s->pkgs[i];

		if (!sweep_containers_level(p) || !p->build_ok || p->empty)
			continue;
		p->build_ok = false;
		free(p->build_output);
		p->build_output = xstrdup(err);
	}
	free(err);
}
