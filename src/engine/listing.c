/* SPDX-License-Identifier: MIT */
/*
 * listing.c: the second step of a package's build, the listing of its
 * tests (go: the test binary's -test.list, which runs its TestMain), run
 * on the loop as builds are, so a listing that blocks costs only its own
 * package: it ends at its time limit and fails the package, naming the
 * limit, while the other builds, listings and the sweep's timers go on.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "engine/sweep-int.h"

extern char **environ;

/* A listing that exits non-zero is tried again, this many tries at most:
 * setup code may itself be flaky. One that reaches its limit is the last. */
#define LISTING_TRIES 3

static void listing_spawn(struct sweep_build *b);

static void
listing_on_done(void *arg, const struct proc_exit *ex, bool leaked, int64_t elapsed_ms)
{
	struct sweep_build *b = arg;
	struct sweep *s = b->s;
	struct pkg *p = s->pkgs[b->pkg];
	int rc = ex->timed_out ? -ETIMEDOUT : ex->signal != 0 ? 128 + ex->signal : ex->status;

	(void)leaked;
	(void)elapsed_ms;
	b->proc = NULL;
	if (s->interrupting) {
		build_finish(b);
		return;
	}
	if (rc > 0 && ++b->tries < LISTING_TRIES) {
		listing_spawn(b);
		return;
	}
	s->driver->listed(s->o, p, rc, b->out.data != NULL ? b->out.data : "");
	build_finish(b);
}

static void
listing_spawn(struct sweep_build *b)
{
	struct sweep *s = b->s;
	struct pkg *p = s->pkgs[b->pkg];
	struct proc_spec spec;
	char **argv;
	int rc;

	argv = s->driver->list_argv(s->o, p);
	if (argv == NULL) {
		build_finish(b);
		return;
	}
	buf_free(&b->out);
	buf_init(&b->out);
	memset(&spec, 0, sizeof spec);
	spec.argv = argv;
	spec.envp = environ;
	spec.cwd = p->dir;
	spec.kill_after_ms = DRIVER_LIST_LIMIT_MS(s->o);
	spec.drain_ms = 1000;
	rc = proc_spawn(s->loop, &spec, build_on_output, listing_on_done, b, &b->proc);
	util_strv_free(argv);
	if (rc < 0) {
		p->build_ok = false;
		free(p->build_output);
		p->build_output = xasprintf(_("cannot run the listing: %s"), strerror(-rc));
		build_finish(b);
	}
}

void
listing_start(struct sweep_build *b)
{
	b->tries = 0;
	listing_spawn(b);
}
