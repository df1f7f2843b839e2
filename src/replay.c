/* SPDX-License-Identifier: MIT */
/*
 * replay.c: reads a journal back into packages, results and per-pair run
 * counts. Build lines give the packages, run lines feed results exactly as
 * the live sweep did, and spawn lines without a run line are the runs that
 * were in flight when the sweep stopped.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "interference.h"
#include "journal.h"
#include "replay.h"
#include "util.h"

struct replay_ctx {
	struct replay *r;
	const char *path;
	char *err;
};

static struct replay_pair *
replay_pair_get(struct replay *r, enum results_phase phase, int pkg, const char *test, int cpu,
                int load)
{
	struct replay_pair *p;
	size_t i;

	for (i = 0; i < r->npairs; i++) {
		p = &r->pairs[i];
		if (p->phase == phase && p->pkg == pkg && p->cpu == cpu && p->load == load &&
		    ((p->test == NULL && test == NULL) ||
		     (p->test != NULL && test != NULL && strcmp(p->test, test) == 0)))
			return p;
	}
	r->pairs = xrealloc(r->pairs, sizeof *r->pairs * (r->npairs + 1));
	p = &r->pairs[r->npairs++];
	memset(p, 0, sizeof *p);
	p->phase = phase;
	p->pkg = pkg;
	p->test = test != NULL ? xstrdup(test) : NULL;
	p->cpu = cpu;
	p->load = load;
	return p;
}

static void
replay_forget_spawn(struct replay *r, int64_t run)
{
	size_t i;

	for (i = 0; i < r->nunfinished; i++) {
		if (r->unfinished[i].run == run) {
			r->unfinished[i] = r->unfinished[--r->nunfinished];
			return;
		}
	}
}

static int64_t
replay_parse_time(const cJSON *line, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(line, key);
	struct tm tm;

	if (!cJSON_IsString(v))
		return 0;
	memset(&tm, 0, sizeof tm);
	if (strptime(v->valuestring, "%Y-%m-%dT%H:%M:%SZ", &tm) == NULL)
		return 0;
	return (int64_t)timegm(&tm) * 1000;
}

static int
replay_bad(struct replay_ctx *c, int lineno, const char *what)
{
	c->err = xasprintf(_("%s:%d: %s"), c->path, lineno, what);
	return -EINVAL;
}

static int
replay_line(void *arg, struct journal_reader *reader, const cJSON *line, int lineno)
{
	struct replay_ctx *c = arg;
	struct replay *r = c->r;
	const char *type = journal_line_type(line);

	if (strcmp(type, "header") == 0) {
		if (r->header != NULL)
			return replay_bad(c, lineno, _("a second header line"));
		r->header = cJSON_Duplicate(line, 1);
		r->started_ms = replay_parse_time(line, "started");
		return 0;
	}
	if (r->header == NULL)
		return replay_bad(c, lineno, _("expected the header line first"));
	if (strcmp(type, "build") == 0) {
		struct pkg *p;
		int idx;

		if (journal_decode_build(line, &p, &idx) < 0 || (size_t)idx != r->npkgs)
			return replay_bad(c, lineno, _("malformed build line"));
		r->pkgs = xrealloc(r->pkgs, sizeof *r->pkgs * (r->npkgs + 1));
		r->pkgs[r->npkgs++] = p;
		results_add_pkg(r->results, p->name, p->level);
	} else if (strcmp(type, "spawn") == 0) {
		const cJSON *run = cJSON_GetObjectItemCaseSensitive(line, "run");
		const cJSON *pid = cJSON_GetObjectItemCaseSensitive(line, "pid");
		const cJSON *start = cJSON_GetObjectItemCaseSensitive(line, "start");
		struct replay_spawn *s;

		if (!cJSON_IsNumber(run) || !cJSON_IsNumber(pid) || !cJSON_IsNumber(start))
			return replay_bad(c, lineno, _("malformed spawn line"));
		r->unfinished =
		    xrealloc(r->unfinished, sizeof *r->unfinished * (r->nunfinished + 1));
		s = &r->unfinished[r->nunfinished++];
		s->run = (int64_t)run->valuedouble;
		if (s->run > r->max_run)
			r->max_run = s->run;
		s->pid = pid->valueint;
		s->start_ticks = (uint64_t)start->valuedouble;
	} else if (strcmp(type, "run") == 0) {
		struct journal_run jr;
		struct outcome o;
		struct replay_pair *p;

		memset(&o, 0, sizeof o);
		if (journal_decode_run(reader, line, &jr, &o) < 0 || jr.pkg < 0 ||
		    (size_t)jr.pkg >= r->npkgs) {
			outcome_free(&o);
			return replay_bad(c, lineno, _("malformed run line"));
		}
		results_add_run(r->results, jr.pkg, jr.phase, jr.cpu, jr.load, &o, jr.log, jr.run);
		results_add_cores(r->results, jr.pkg, &o, jr.cores, jr.ncores);
		results_add_order(r->results, jr.pkg, jr.phase, &o);
		interference_add_run(r->results, jr.pkg, &o, jr.overlapped);
		if (jr.has_noise)
			results_add_noise(r->results, jr.pkg, jr.phase, jr.cpu, jr.load, &o,
			                  jr.noise_ms, (double)jr.ms * jr.cpu);
		if (jr.leaked)
			results_note_leak(r->results, jr.pkg);
		p = replay_pair_get(r, jr.phase, jr.pkg, jr.selected, jr.cpu, jr.load);
		p->runs++;
		p->ms += jr.ms;
		if (jr.run > r->max_run)
			r->max_run = jr.run;
		replay_forget_spawn(r, jr.run);
		outcome_free(&o);
	} else if (strcmp(type, "confirm") == 0) {
		const cJSON *test = cJSON_GetObjectItemCaseSensitive(line, "test");
		const cJSON *count = cJSON_GetObjectItemCaseSensitive(line, "count");

		if (!cJSON_IsString(test) || !cJSON_IsNumber(count))
			return replay_bad(c, lineno, _("malformed confirm line"));
		r->confirm_tests =
		    xrealloc(r->confirm_tests, sizeof *r->confirm_tests * (r->nconfirms + 1));
		r->confirm_counts =
		    xrealloc(r->confirm_counts, sizeof *r->confirm_counts * (r->nconfirms + 1));
		r->confirm_tests[r->nconfirms] = xstrdup(test->valuestring);
		r->confirm_counts[r->nconfirms++] = count->valueint;
	} else if (strcmp(type, "end") == 0) {
		const cJSON *st = cJSON_GetObjectItemCaseSensitive(line, "status");

		free(r->end_status);
		r->end_status = xstrdup(cJSON_IsString(st) ? st->valuestring : "complete");
		r->finished_ms = replay_parse_time(line, "finished");
	} else if (strcmp(type, "resume") == 0) {
		free(r->end_status);
		r->end_status = NULL;
		r->finished_ms = 0;
	}
	/* set lines are the reader's; unknown types are skipped so newer
	 * journals still read. */
	return 0;
}

int
replay_journal(const char *path, struct replay *r, char **err)
{
	struct replay_ctx c = {r, path, NULL};
	char *rerr = NULL;
	int rc;

	memset(r, 0, sizeof *r);
	r->results = results_new();
	rc = journal_read(path, replay_line, &c, &r->torn, &rerr);
	if (rc < 0) {
		*err = c.err != NULL ? c.err : rerr;
		if (c.err != NULL)
			free(rerr);
		return rc;
	}
	free(rerr);
	if (r->header == NULL) {
		*err = xasprintf(_("%s: no header line: not a flakesweep journal"), path);
		return -EINVAL;
	}
	return 0;
}

void
replay_free(struct replay *r)
{
	size_t i;

	cJSON_Delete(r->header);
	driver_free_pkgs(r->pkgs, r->npkgs);
	results_free(r->results);
	for (i = 0; i < r->npairs; i++)
		free(r->pairs[i].test);
	free(r->pairs);
	free(r->unfinished);
	for (i = 0; i < r->nconfirms; i++)
		free(r->confirm_tests[i]);
	free(r->confirm_tests);
	free(r->confirm_counts);
	free(r->end_status);
	memset(r, 0, sizeof *r);
}
