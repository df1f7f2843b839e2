/* SPDX-License-Identifier: MIT */
/*
 * build.c: the build phase of a sweep: builds every package unpinned, as
 * many at once as the machine has cores, before the `built` barrier, then
 * splits each tagged level down to the tests its tag adds. It never
 * starts a run: the sweep phase begins when the last build is done.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "engine/exclusive.h"
#include "engine/sweep-int.h"

extern char **environ;

#define BUILD_OUTPUT_MAX (1 << 20)
/* A generous time limit for building one package (ms): an hour. */
#define BUILD_LIMIT_MS (60 * 60 * 1000)

/* A tagged level runs only the tests its tag adds: those the untagged
 * binary of the same package does not list. */
static void
build_split_levels(struct sweep *s)
{
	size_t i, j, k;

	for (i = 0; i < s->npkgs; i++) {
		struct pkg *p = s->pkgs[i];
		const struct pkg *unit = NULL;
		char **keep = NULL;
		size_t nkeep = 0;
		struct buf re;

		if (!p->build_ok || p->empty || strcmp(p->level, "unit") == 0)
			continue;
		for (j = 0; j < s->npkgs; j++) {
			if (strcmp(s->pkgs[j]->name, p->name) == 0 &&
			    strcmp(s->pkgs[j]->level, "unit") == 0 && s->pkgs[j]->build_ok)
				unit = s->pkgs[j];
		}
		for (j = 0; j < p->ntests; j++) {
			bool dup = false;

			for (k = 0; unit != NULL && k < unit->ntests; k++)
				dup = dup || strcmp(unit->tests[k], p->tests[j]) == 0;
			if (!dup)
				util_strv_add(&keep, &nkeep, p->tests[j]);
		}
		util_strv_free(p->tests);
		p->tests = keep;
		p->ntests = nkeep;
		if (nkeep == 0) {
			p->empty = true;
			continue;
		}
		if (unit == NULL)
			continue;
		buf_init(&re);
		buf_adds(&re, "^(");
		for (j = 0; j < nkeep; j++)
			buf_printf(&re, "%s%s", j > 0 ? "|" : "", keep[j]);
		buf_adds(&re, ")$");
		free(p->run_filter);
		p->run_filter = buf_steal(&re);
	}
}

/* Checks --exclusive's PKG::TEST patterns now that the packages listed
 * their tests: one that matches none stops the sweep before its first run
 * (exit 2), and one whose packages list none says only the package part
 * was checked. Returns whether it stopped the sweep. */
static bool
build_exclusive_unmatched(struct sweep *s)
{
	char *err =
	    exclusive_unmatched(s->o->exclusive, s->o->nexclusive, s->o->dir, s->pkgs, s->npkgs);
	int i;

	if (err == NULL) {
		for (i = 0; i < s->o->nexclusive; i++) {
			err = exclusive_unlisted(s->o->exclusive, i, s->o->dir, s->pkgs, s->npkgs);
			if (err != NULL)
				sweep_message(s, "%s", err);
			free(err);
		}
		return false;
	}
	sweep_message(s, "%s", err);
	free(err);
	s->infra_error = true;
	sweep_interrupt(s);
	return true;
}

static void
build_all_done(struct sweep *s)
{
	size_t i;

	build_split_levels(s);
	/* Images are built before the barrier too. */
	if (sweep_envs_images(s))
		return;
	sweep_watch_containers(s);
	for (i = 0; i < s->npkgs; i++) {
		sweep_journal_check(s, journal_write_build(s->journal, (int)i, s->pkgs[i]));
		results_add_pkg(s->results, s->pkgs[i]->name, s->pkgs[i]->level);
		if (!s->pkgs[i]->build_ok && !s->pkgs[i]->empty) {
			sweep_message(
			    s, _("%s (%s) failed to build or to list its tests; the rest goes on"),
			    s->pkgs[i]->name, s->pkgs[i]->level);
			sweep_problem(s, OBSERVER_BUILD_FAILED, s->pkgs[i]->name,
			              _("%s (%s) failed to build or to list its tests"),
			              s->pkgs[i]->name, s->pkgs[i]->level);
		}
	}
	s->dirty = true;
	if (build_exclusive_unmatched(s))
		return;
	sweep_begin_sweep(s);
}

void
build_on_output(void *arg, const char *data, size_t len)
{
	struct sweep_build *b = arg;

	if (b->out.len < BUILD_OUTPUT_MAX)
		buf_add(&b->out, data, len);
}

void
build_finish(struct sweep_build *b)
{
	struct sweep *s = b->s;
	struct pkg *p = s->pkgs[b->pkg];
	struct sweep_build **pp;

	for (pp = &s->builds; *pp != NULL; pp = &(*pp)->next) {
		if (*pp == b) {
			*pp = b->next;
			break;
		}
	}
	s->builds_running--;
	s->builds_done++;
	if (s->interrupting) {
		p->build_ok = false;
	} else if (p->build_ok && !p->empty && !s->checked && s->driver->check != NULL) {
		char *err = NULL;

		s->checked = true;
		if (s->driver->check(s->o, p, &err) < 0) {
			/* A command-line value the framework rejects: every run
			 * would fail the same way. */
			sweep_message(s, "%s", err);
			free(err);
			s->infra_error = true;
			sweep_interrupt(s);
		}
	}
	buf_free(&b->out);
	free(b);
	/* A signal that stopped a capture stops the sweep, as it would have
	 * a moment later. */
	if (proc_interrupted() != 0)
		sweep_interrupt(s);
	if (s->interrupting) {
		if (s->builds_running == 0)
			sweep_finish(s, "interrupted");
		return;
	}
	build_next(s);
}

static void
build_on_done(void *arg, const struct proc_exit *ex, bool leaked, int64_t elapsed_ms)
{
	struct sweep_build *b = arg;
	struct sweep *s = b->s;
	struct pkg *p = s->pkgs[b->pkg];

	(void)leaked;
	(void)elapsed_ms;
	b->proc = NULL;
	if (s->interrupting) {
		p->build_ok = false;
	} else if (ex->status == 0 && !ex->timed_out) {
		p->build_ok = true;
		if (s->driver->list_argv != NULL) {
			/* The listing goes on in b's place among the builds. */
			listing_start(b);
			return;
		}
		s->driver->prepare(s->o, p);
	} else {
		p->build_ok = false;
		free(p->build_output);
		p->build_output = ex->timed_out ? xasprintf(_("the build passed its time limit of "
		                                              "%d minutes:\n%s"),
		                                            BUILD_LIMIT_MS / 60000,
		                                            b->out.data ? b->out.data : "")
		                                : buf_steal(&b->out);
	}
	build_finish(b);
}

void
build_next(struct sweep *s)
{
	char *bindir = xasprintf("%s/bin", s->outdir);

	while (s->next_build < s->npkgs && s->builds_running < (size_t)s->build_parallel) {
		size_t i = s->next_build++;
		struct pkg *p = s->pkgs[i];
		char **argv;
		struct sweep_build *b;
		struct proc_spec spec;
		int rc;

		if (p->build_output != NULL) {
			/* Discovery could not list it (a module that does not
			 * load): failed already, nothing to build. */
			s->builds_done++;
			continue;
		}
		argv = s->driver->build_argv(s->o, &s->proj, p, bindir);
		if (argv == NULL) {
			p->build_ok = true;
			s->driver->prepare(s->o, p);
			s->builds_done++;
			continue;
		}
		b = xcalloc(1, sizeof *b);
		b->s = s;
		b->pkg = (int)i;
		buf_init(&b->out);
		memset(&spec, 0, sizeof spec);
		spec.argv = argv;
		spec.envp = environ;
		spec.cwd = s->driver->build_in_pkg_dir ? p->dir : s->proj.root;
		spec.term_after_ms = BUILD_LIMIT_MS;
		spec.kill_after_ms = BUILD_LIMIT_MS + 30000;
		spec.drain_ms = 1000;
		rc = proc_spawn(s->loop, &spec, build_on_output, build_on_done, b, &b->proc);
		util_strv_free(argv);
		if (rc < 0) {
			p->build_ok = false;
			p->build_output = xasprintf(_("cannot run the build: %s"), strerror(-rc));
			buf_free(&b->out);
			free(b);
			s->builds_done++;
			continue;
		}
		b->next = s->builds;
		s->builds = b;
		s->builds_running++;
	}
	free(bindir);
	if (s->builds_done == s->npkgs && s->builds_running == 0)
		build_all_done(s);
}

void
sweep_build_progress(const struct sweep *s, int64_t *done, int64_t *total)
{
	*done = (int64_t)s->builds_done;
	*total = (int64_t)s->npkgs;
}
