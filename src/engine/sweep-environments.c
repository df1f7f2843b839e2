/* SPDX-License-Identifier: MIT */
/*
 * sweep-environments.c: the sweep's side of environment levels (man 1
 * flakesweep, ENVIRONMENT LEVELS). A package at such a level belongs to
 * its walkthrough, the nearest directory at or above it with a Dockerfile
 * and deploy/kind/up.sh. Before the `built` barrier each walkthrough's
 * image is built with `docker build` from the project's root, tagged with
 * the directory's name. The scheduler gives each environment a whole lane;
 * here it is brought up (--env-up, KIND_CLUSTER_NAME=flaky-NAME), its
 * containers (labelled io.x-k8s.kind.cluster=flaky-NAME, as kind labels its
 * nodes) are pinned to that lane's cores as they start and once more when
 * up is done, and it is taken down (--env-down) after the last run. Each
 * up and down is an "env" line in the journal. A failure fails the
 * walkthrough's packages with the reason and the sweep ends with exit
 * status 2; the other levels are swept as usual.
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cjson/cJSON.h>

#include "base/gettext.h"
#include "base/util.h"
#include "drivers/driver.h"
#include "engine/containers.h"
#include "engine/sweep-int.h"

extern char **environ;

/* The label kind gives its nodes; an up that starts plain containers
 * labels them the same way. */
#define SWEEP_ENV_LABEL "io.x-k8s.kind.cluster"
#define SWEEP_ENV_OUTPUT_MAX (256 * 1024)
/* What a failure's message quotes of the command's output. */
#define SWEEP_ENV_QUOTE 2000
/* Time limits of one image build, one up and one down (ms). */
#define SWEEP_ENV_IMAGE_MS (30 * 60 * 1000)
#define SWEEP_ENV_UP_MS (30 * 60 * 1000)
#define SWEEP_ENV_DOWN_MS (10 * 60 * 1000)

#define SWEEP_ENV_UP_DEFAULT "./deploy/kind/up.sh"
#define SWEEP_ENV_DOWN_DEFAULT                                        \
	"if [ -e deploy/kind/down.sh ]; then ./deploy/kind/down.sh; " \
	"else kind delete cluster --name \"$KIND_CLUSTER_NAME\"; fi"

struct sweep_env {
	struct sweep *s;
	int id;
	char *dir;         /* the walkthrough, absolute */
	char *name;        /* its directory's name: the image's tag */
	char *cluster;     /* flaky-NAME */
	int lane;          /* the lane it holds, or -1 */
	char *cpuset;      /* that lane's cores ("2,3") */
	const char *event; /* "image", "up" or "down" in flight, or NULL */
	struct proc *proc; /* that command */
	struct buf out;    /* its output */
	int64_t at_ms;     /* when it began (ms since the epoch) */
	struct containers *watch;
	char **pinned; /* containers pinned since up began */
	size_t npinned;
};

/* The command that brings env up (up) or down: its level's in the levels
 * file, else --env-up or --env-down, else the walkthrough's scripts. */
static char *
sweep_envs_command(const struct sweep *s, const struct sweep_env *env, bool up)
{
	const struct levels_level *l;
	size_t i;

	for (i = 0; i < s->npkgs; i++) {
		if (s->pkg_env[i] != env->id ||
		    (l = levels_find(s->hdr.config.level_config, s->pkgs[i]->level)) == NULL)
			continue;
		if ((up ? l->up : l->down) != NULL)
			return up ? l->up : l->down;
		break;
	}
	if (up)
		return s->o->env_up != NULL ? s->o->env_up : (char *)SWEEP_ENV_UP_DEFAULT;
	return s->o->env_down != NULL ? s->o->env_down : (char *)SWEEP_ENV_DOWN_DEFAULT;
}

bool
sweep_envs_level(const struct sweep *s, const struct pkg *p)
{
	return plan_env_level(s->hdr.config.level_config, p->level);
}

static bool
sweep_envs_is_file(const char *dir, const char *name)
{
	char *path = xasprintf("%s/%s", dir, name);
	struct stat st;
	bool ok = stat(path, &st) == 0 && S_ISREG(st.st_mode);

	free(path);
	return ok;
}

/* The walkthrough holding dir: the nearest directory at or above it, up
 * to root, with a Dockerfile and deploy/kind/up.sh. NULL when none does.
 * Caller frees. */
static char *
sweep_envs_walkthrough(const char *dir, const char *root)
{
	char *d = xstrdup(dir), *slash;
	size_t rlen = root != NULL ? strlen(root) : 0;

	for (;;) {
		if (sweep_envs_is_file(d, "Dockerfile") &&
		    sweep_envs_is_file(d, "deploy/kind/up.sh"))
			return d;
		slash = strrchr(d, '/');
		if (slash == NULL || slash == d || (size_t)(slash - d) < rlen)
			break;
		*slash = '\0';
	}
	free(d);
	return NULL;
}

/* Fails the packages of environment e (every environment level's when e
 * is -1) with why, loudly: exit status 2. */
static void
sweep_envs_fail(struct sweep *s, int e, const char *why)
{
	size_t i;

	s->infra_error = true;
	for (i = 0; i < s->npkgs; i++) {
		struct pkg *p = s->pkgs[i];

		if (!sweep_envs_level(s, p) || !plan_pkg_runs(p) || (e >= 0 && s->pkg_env[i] != e))
			continue;
		p->build_ok = false;
		free(p->build_output);
		p->build_output = xstrdup(why);
	}
}

/* Environment e's packages that run, as a journal line's array. */
static cJSON *
sweep_envs_pkgs(const struct sweep *s, int e)
{
	cJSON *a = cJSON_CreateArray();
	size_t i;

	for (i = 0; i < s->npkgs; i++)
		if (s->pkg_env[i] == e)
			cJSON_AddItemToArray(a, cJSON_CreateNumber((double)i));
	return a;
}

/* The command's failure as the user reads it: what ran, how it ended, and
 * the end of its output. Caller frees. */
static char *
sweep_envs_why(const struct sweep_env *env, const char *what, const struct proc_exit *ex)
{
	const char *out = env->out.data != NULL ? env->out.data : "";
	size_t len = env->out.len;
	char how[64];

	if (ex->timed_out)
		snprintf(how, sizeof how, "%s", _("passed its time limit"));
	else if (ex->signal != 0)
		snprintf(how, sizeof how, _("was killed by signal %d"), ex->signal);
	else
		snprintf(how, sizeof how, _("exited with status %d"), ex->status);
	if (len > SWEEP_ENV_QUOTE) {
		out += len - SWEEP_ENV_QUOTE;
		len = SWEEP_ENV_QUOTE;
	}
	return xasprintf(_("environment %s (%s): %s %s:\n%.*s"), env->cluster, env->dir, what, how,
	                 (int)len, out);
}

static void
sweep_envs_output(void *arg, const char *data, size_t len)
{
	struct sweep_env *env = arg;

	if (env->out.len < SWEEP_ENV_OUTPUT_MAX)
		buf_add(&env->out, data, len);
}

/* Adds the variables that name env to a command's or a run's
 * environment. */
static void
sweep_envs_name(const struct sweep_env *env, char ***envp, size_t *n)
{
	char *v = xasprintf("KIND_CLUSTER_NAME=%s", env->cluster);

	util_strv_add(envp, n, v);
	free(v);
	v = xasprintf("FLAKESWEEP_ENV=%s", env->cluster);
	util_strv_add(envp, n, v);
	free(v);
}

/* flakesweep's environment with env's names in place of any inherited.
 * Caller frees with util_strv_free. */
static char **
sweep_envs_environ(const struct sweep_env *env)
{
	char **envp = NULL;
	size_t n = 0, i;

	for (i = 0; environ[i] != NULL; i++)
		if (strncmp(environ[i], "KIND_CLUSTER_NAME=", 18) != 0 &&
		    strncmp(environ[i], "FLAKESWEEP_ENV=", 15) != 0)
			util_strv_add(&envp, &n, environ[i]);
	sweep_envs_name(env, &envp, &n);
	return envp;
}

/* Spawns argv for env (its event), pinned to cpus when not NULL, with
 * KIND_CLUSTER_NAME and FLAKESWEEP_ENV set. Returns proc_spawn's result. */
static int
sweep_envs_spawn(struct sweep_env *env, const char *event, char **argv, const char *cwd,
                 const cpu_set_t *cpus, int64_t limit_ms, proc_done_cb done)
{
	char **envp = sweep_envs_environ(env);
	struct proc_spec spec;
	int rc;

	memset(&spec, 0, sizeof spec);
	spec.argv = argv;
	spec.envp = envp;
	spec.cwd = cwd;
	spec.cpus = cpus;
	spec.term_after_ms = limit_ms;
	spec.kill_after_ms = limit_ms + 30000;
	spec.drain_ms = 1000;
	buf_free(&env->out);
	buf_init(&env->out);
	env->event = event;
	env->at_ms = util_now_ms();
	rc = proc_spawn(env->s->loop, &spec, sweep_envs_output, done, env, &env->proc);
	util_strv_free(envp);
	if (rc < 0) {
		env->event = NULL;
		env->proc = NULL;
	}
	return rc;
}

/* An "env" line: env's up or down began at at_ms and took ms; error NULL
 * when it succeeded. */
static void
sweep_envs_journal(struct sweep_env *env, const char *event, int64_t ms, const char *error)
{
	struct sweep *s = env->s;
	cJSON *line = cJSON_CreateObject();

	cJSON_AddStringToObject(line, "type", "env");
	cJSON_AddStringToObject(line, "event", event);
	cJSON_AddStringToObject(line, "env", env->cluster);
	cJSON_AddStringToObject(line, "walkthrough", env->dir);
	cJSON_AddNumberToObject(line, "lane", env->lane);
	cJSON_AddStringToObject(line, "cpuset", env->cpuset != NULL ? env->cpuset : "");
	cJSON_AddNumberToObject(line, "at_ms", (double)env->at_ms);
	cJSON_AddNumberToObject(line, "ms", (double)ms);
	if (strcmp(event, "up") == 0)
		cJSON_AddNumberToObject(line, "containers", (double)env->npinned);
	cJSON_AddItemToObject(line, "pkgs", sweep_envs_pkgs(s, env->id));
	if (error != NULL)
		cJSON_AddStringToObject(line, "error", error);
	sweep_journal_check(s, journal_write(s->journal, line));
	cJSON_Delete(line);
}

/* ---- images ---- */

static void
sweep_envs_image_done(void *arg, const struct proc_exit *ex, bool leaked, int64_t elapsed_ms)
{
	struct sweep_env *env = arg;
	struct sweep *s = env->s;

	(void)leaked;
	(void)elapsed_ms;
	env->event = NULL;
	env->proc = NULL;
	s->images_running--;
	/* Killed by the sweep's end (an interrupt). */
	if (s->finished || s->interrupting)
		return;
	if (ex->status != 0 || ex->timed_out) {
		char *why = sweep_envs_why(env, "docker build", ex);

		sweep_message(s, "%s", why);
		sweep_envs_fail(s, env->id, why);
		free(why);
	}
	if (s->images_running == 0)
		build_next(s);
}

/* docker build -t NAME -f DIR/Dockerfile ROOT, as CI's kind jobs build. */
static void
sweep_envs_image(struct sweep *s, struct sweep_env *env)
{
	char **argv = NULL, *file = xasprintf("%s/Dockerfile", env->dir), *why;
	size_t n = 0;
	int rc;

	util_strv_add(&argv, &n, "docker");
	util_strv_add(&argv, &n, "build");
	util_strv_add(&argv, &n, "-t");
	util_strv_add(&argv, &n, env->name);
	util_strv_add(&argv, &n, "-f");
	util_strv_add(&argv, &n, file);
	util_strv_add(&argv, &n, s->proj.root);
	rc = sweep_envs_spawn(env, "image", argv, s->proj.root, NULL, SWEEP_ENV_IMAGE_MS,
	                      sweep_envs_image_done);
	util_strv_free(argv);
	free(file);
	if (rc == 0) {
		s->images_running++;
		return;
	}
	why = xasprintf(_("environment %s (%s): cannot run docker build: %s"), env->cluster,
	                env->dir, strerror(-rc));
	sweep_message(s, "%s", why);
	sweep_envs_fail(s, env->id, why);
	free(why);
}

/* The environment of the walkthrough at dir, added when new. */
static int
sweep_envs_of(struct sweep *s, char *dir)
{
	struct sweep_env *env;
	const char *base;
	size_t i;

	for (i = 0; i < s->nenvs; i++) {
		if (strcmp(s->envs[i]->dir, dir) == 0) {
			free(dir);
			return (int)i;
		}
	}
	env = xcalloc(1, sizeof *env);
	env->s = s;
	env->id = (int)s->nenvs;
	env->dir = dir;
	base = strrchr(dir, '/');
	env->name = xstrdup(base != NULL && base[1] != '\0' ? base + 1 : dir);
	env->cluster = xasprintf("flaky-%s", env->name);
	env->lane = -1;
	buf_init(&env->out);
	s->envs = xrealloc(s->envs, sizeof *s->envs * (s->nenvs + 1));
	s->envs[s->nenvs++] = env;
	return env->id;
}

void
sweep_envs_find(struct sweep *s)
{
	size_t i;

	if (s->pkg_env != NULL)
		return;
	s->pkg_env = xmalloc(sizeof *s->pkg_env * (s->npkgs + 1));
	for (i = 0; i < s->npkgs; i++) {
		struct pkg *p = s->pkgs[i];
		char *dir;

		s->pkg_env[i] = -1;
		if (!sweep_envs_level(s, p) || !plan_pkg_runs(p))
			continue;
		dir = sweep_envs_walkthrough(p->dir, s->proj.root);
		if (dir == NULL) {
			char *why = xasprintf(_("%s (%s) is in no walkthrough: no directory at or "
			                        "above %s has a Dockerfile and deploy/kind/up.sh"),
			                      p->name, p->level, p->dir);

			sweep_message(s, "%s", why);
			s->infra_error = true;
			p->build_ok = false;
			free(p->build_output);
			p->build_output = why;
			continue;
		}
		s->pkg_env[i] = sweep_envs_of(s, dir);
	}
}

bool
sweep_envs_images(struct sweep *s)
{
	char *err = NULL, *sock;
	size_t i;

	if (s->images_begun)
		return s->images_running > 0;
	s->images_begun = true;
	sweep_envs_find(s);
	if (s->nenvs == 0)
		return false;
	sock = containers_socket(&err);
	if (sock != NULL)
		containers_ping(sock, &err);
	free(sock);
	if (err != NULL) {
		sweep_message(s, "%s", err);
		sweep_envs_fail(s, -1, err);
		free(err);
		return false;
	}
	for (i = 0; i < s->nenvs; i++)
		sweep_envs_image(s, s->envs[i]);
	return s->images_running > 0;
}

/* ---- up and down ---- */

static bool
sweep_envs_seen(void *arg, const char *id)
{
	struct sweep_env *env = arg;
	size_t i;

	for (i = 0; i < env->npinned; i++)
		if (strcmp(env->pinned[i], id) == 0)
			return true;
	return false;
}

/* containers_pin_cb: journals each container of env pinned, once. */
static void
sweep_envs_pinned(void *arg, const char *id, const char *cpuset, int64_t latency_ms,
                  const char *error)
{
	struct sweep_env *env = arg;
	struct sweep *s = env->s;
	int *pkgs;
	size_t i, n = 0;

	if (id == NULL) {
		if (!s->finished && env->lane >= 0 && env->watch != NULL)
			sweep_message(s, _("Docker's event stream ended: %s"), error);
		return;
	}
	if (sweep_envs_seen(env, id))
		return;
	util_strv_add(&env->pinned, &env->npinned, id);
	pkgs = xmalloc(sizeof *pkgs * (s->npkgs + 1));
	for (i = 0; i < s->npkgs; i++)
		if (s->pkg_env[i] == env->id)
			pkgs[n++] = (int)i;
	sweep_containers_journal_pin(s, id, cpuset, latency_ms, error, pkgs, n);
	free(pkgs);
}

static void
sweep_envs_down_done(void *arg, const struct proc_exit *ex, bool leaked, int64_t elapsed_ms)
{
	struct sweep_env *env = arg;
	struct sweep *s = env->s;
	char *why = NULL;

	(void)leaked;
	env->event = NULL;
	env->proc = NULL;
	/* The sweep ended meanwhile: nothing is journaled after its end. */
	if (s->finished)
		return;
	if (ex->status != 0 || ex->timed_out) {
		why = sweep_envs_why(env, _("down"), ex);
		sweep_message(s, "%s", why);
		s->infra_error = true;
	}
	/* On the wall clock of at_ms, so that at_ms + ms never passes a later
	 * line's at_ms (the run's own time is on the monotonic clock). */
	sweep_envs_journal(env, "down", util_now_ms() - env->at_ms, why);
	free(why);
	if (sweep_sched(s) != NULL)
		sched_env_release(sweep_sched(s), env->id);
	env->lane = -1;
	sweep_drive(s);
}

/* The lane's cores as a set and as "2,3". */
static void
sweep_envs_lane(const struct sweep *s, int lane, cpu_set_t *set, char **cpuset)
{
	struct buf b;
	int k;

	CPU_ZERO(set);
	buf_init(&b);
	for (k = 0; k < s->lanes.width; k++) {
		CPU_SET(s->lanes.cores[lane][k], set);
		buf_printf(&b, "%s%d", k > 0 ? "," : "", s->lanes.cores[lane][k]);
	}
	*cpuset = buf_steal(&b);
}

void
sweep_envs_down(struct sweep *s, int e, int lane)
{
	struct sweep_env *env = s->envs[e];
	char *argv[] = {"sh", "-c", sweep_envs_command(s, env, false), NULL};
	cpu_set_t set;
	char *why;
	int rc;

	containers_close(env->watch);
	env->watch = NULL;
	free(env->cpuset);
	sweep_envs_lane(s, lane, &set, &env->cpuset);
	rc = sweep_envs_spawn(env, "down", argv, env->dir, &set, SWEEP_ENV_DOWN_MS,
	                      sweep_envs_down_done);
	if (rc == 0)
		return;
	why = xasprintf(_("environment %s (%s): cannot run down: %s"), env->cluster, env->dir,
	                strerror(-rc));
	sweep_message(s, "%s", why);
	s->infra_error = true;
	sweep_envs_journal(env, "down", 0, why);
	free(why);
	sched_env_release(sweep_sched(s), e);
	env->lane = -1;
}

/* The environment did not come up: its packages fail with why, its runs
 * are dropped, and it is taken down (the scheduler calls down). */
static void
sweep_envs_up_failed(struct sweep_env *env, int64_t ms, const char *why)
{
	struct sweep *s = env->s;

	sweep_message(s, "%s", why);
	sweep_envs_journal(env, "up", ms, why);
	sweep_envs_fail(s, env->id, why);
	sched_env_drop(sweep_sched(s), env->id);
}

static void
sweep_envs_up_done(void *arg, const struct proc_exit *ex, bool leaked, int64_t elapsed_ms)
{
	struct sweep_env *env = arg;
	struct sweep *s = env->s;
	char *why = NULL, *sock, *label;

	(void)leaked;
	env->event = NULL;
	env->proc = NULL;
	/* Killed by the sweep's end: sweep_envs_stop took it down. */
	if (sweep_sched(s) == NULL || s->finished)
		return;
	if (ex->status != 0 || ex->timed_out) {
		why = sweep_envs_why(env, _("up"), ex);
	} else {
		/* What started before the event stream was open, or was there
		 * already. */
		label = xasprintf("%s=%s", SWEEP_ENV_LABEL, env->cluster);
		sock = containers_socket(&why);
		if (sock != NULL)
			containers_pin_labelled(sock, label, env->cpuset, sweep_envs_seen,
			                        sweep_envs_pinned, env, &why);
		if (why == NULL && env->npinned == 0)
			why = xasprintf(_("environment %s (%s): up left no container labelled %s"),
			                env->cluster, env->dir, label);
		free(sock);
		free(label);
	}
	if (why != NULL) {
		sweep_envs_up_failed(env, util_now_ms() - env->at_ms, why);
		free(why);
	} else {
		sweep_envs_journal(env, "up", util_now_ms() - env->at_ms, NULL);
		sched_env_ready(sweep_sched(s), env->id);
	}
	sweep_drive(s);
}

void
sweep_envs_up(struct sweep *s, int e, int lane)
{
	struct sweep_env *env = s->envs[e];
	char *argv[] = {"sh", "-c", sweep_envs_command(s, env, true), NULL};
	char *err = NULL, *sock, *label;
	cpu_set_t set;
	int rc;

	env->lane = lane;
	free(env->cpuset);
	sweep_envs_lane(s, lane, &set, &env->cpuset);
	util_strv_free(env->pinned);
	env->pinned = NULL;
	env->npinned = 0;
	env->at_ms = util_now_ms();
	label = xasprintf("%s=%s", SWEEP_ENV_LABEL, env->cluster);
	sock = containers_socket(&err);
	if (sock != NULL)
		containers_watch(s->loop, sock, label, env->cpuset, sweep_envs_pinned, env,
		                 &env->watch, &err);
	free(sock);
	free(label);
	if (err == NULL) {
		rc = sweep_envs_spawn(env, "up", argv, env->dir, &set, SWEEP_ENV_UP_MS,
		                      sweep_envs_up_done);
		if (rc == 0)
			return;
		err = xasprintf(_("environment %s (%s): cannot run up: %s"), env->cluster, env->dir,
		                strerror(-rc));
	}
	sweep_envs_up_failed(env, 0, err);
	free(err);
}

void
sweep_envs_run_env(const struct sweep *s, int pkg, char ***env, size_t *n)
{
	size_t i, k = 0;

	if (pkg < 0 || s->pkg_env == NULL || s->pkg_env[pkg] < 0)
		return;
	/* The environment's name replaces one flakesweep inherited. */
	for (i = 0; i < *n; i++) {
		if (strncmp((*env)[i], "KIND_CLUSTER_NAME=", 18) == 0)
			free((*env)[i]);
		else
			(*env)[k++] = (*env)[i];
	}
	(*env)[k] = NULL;
	*n = k;
	sweep_envs_name(s->envs[s->pkg_env[pkg]], env, n);
}

char *
sweep_envs_label(const struct sweep *s, int env)
{
	const struct sweep_env *e;

	if (env < 0 || (size_t)env >= s->nenvs)
		return NULL;
	e = s->envs[env];
	return xasprintf("%s %s", e->cluster, e->event != NULL ? e->event : "ready");
}

void
sweep_envs_stop(struct sweep *s)
{
	char **envp, *out = NULL;
	size_t i;

	for (i = 0; i < s->nenvs; i++) {
		struct sweep_env *env = s->envs[i];
		char *argv[] = {"sh", "-c", sweep_envs_command(s, env, false), NULL};

		containers_close(env->watch);
		env->watch = NULL;
		if (env->proc != NULL && strcmp(env->event, "down") != 0)
			proc_signal(env->proc, SIGKILL);
		if (env->lane < 0 || (env->event != NULL && strcmp(env->event, "down") == 0))
			continue;
		/* An interrupted sweep leaves no environment up: down, and
		 * wait for it. */
		envp = sweep_envs_environ(env);
		env->at_ms = util_now_ms();
		if (proc_capture(argv, env->dir, envp, SWEEP_ENV_OUTPUT_MAX, &out) != 0)
			sweep_message(s, _("environment %s (%s): down failed:\n%s"), env->cluster,
			              env->dir, out != NULL ? out : "");
		sweep_envs_journal(env, "down", util_now_ms() - env->at_ms, NULL);
		free(out);
		out = NULL;
		util_strv_free(envp);
		env->lane = -1;
	}
}

void
sweep_envs_free(struct sweep *s)
{
	size_t i;

	for (i = 0; i < s->nenvs; i++) {
		struct sweep_env *env = s->envs[i];

		containers_close(env->watch);
		free(env->dir);
		free(env->name);
		free(env->cluster);
		free(env->cpuset);
		buf_free(&env->out);
		util_strv_free(env->pinned);
		free(env);
	}
	free(s->envs);
	free(s->pkg_env);
}
