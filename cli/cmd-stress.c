/* SPDX-License-Identifier: MIT */
/*
 * cmd-stress.c: `flakesweep [stress]`, the sweep itself. It maps the
 * command line onto struct options, picks the front end (the dashboard,
 * the line or none), forwards SIGINT, SIGTERM and SIGHUP to the sweep and
 * prints the report or results.json at the end.
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <uv.h>

#include "cli.h"
#include "cmd.h"
#include "engine/adaptive.h"
#include "engine/cpu-shim.h"
#include "engine/options.h"
#include "engine/out-line.h"
#include "base/sanitize.h"
#include "base/timefmt.h"
#include "engine/shard.h"
#include "engine/sweep.h"
#include "results/junit.h"
#include "ui.h"
#include "base/util.h"

#define CMD_STRESS_PROGRESS_MS 5000

static const struct cli_option cmd_stress_options[] = {
    {"cpu", true, OPTIONS_CPU},
    {"load", true, OPTIONS_LOAD},
    {"count", true, OPTIONS_COUNT},
    {"confirm", true, OPTIONS_CONFIRM},
    {"for", true, OPTIONS_FOR},
    {"until", true, OPTIONS_UNTIL},
    {"adaptive", false, OPTIONS_ADAPTIVE},
    {"count-min", true, OPTIONS_COUNT_MIN},
    {"timeout", true, OPTIONS_TIMEOUT},
    {"kill-grace", true, OPTIONS_KILL_GRACE},
    {"keep", true, OPTIONS_KEEP},
    {"containers", true, OPTIONS_CONTAINERS},
    {"clusters", true, OPTIONS_CLUSTERS},
    {"env-up", true, OPTIONS_ENV_UP},
    {"env-down", true, OPTIONS_ENV_DOWN},
    {"tags", true, OPTIONS_TAGS},
    {"build-tags", true, OPTIONS_BUILD_TAGS},
    {"shuffle", false, OPTIONS_SHUFFLE},
    {"run", true, OPTIONS_RUN},
    {"skip", true, OPTIONS_SKIP},
    {"no-race", false, OPTIONS_NO_RACE},
    {"cover", false, OPTIONS_COVER},
    {"isolate-net", false, OPTIONS_ISOLATE_NET},
    {"private-workdir", false, OPTIONS_PRIVATE_WORKDIR},
    {"quiet", true, OPTIONS_QUIET},
    {"canaries", true, OPTIONS_CANARIES},
    {"o", true, OPTIONS_OUTDIR},
    {"resume", true, OPTIONS_RESUME},
    {"force", false, OPTIONS_FORCE},
    {"quarantine", true, OPTIONS_QUARANTINE},
    {"ui", true, OPTIONS_UI},
    {"json", false, OPTIONS_JSON},
    {"junit", true, OPTIONS_JUNIT},
    {"driver", true, OPTIONS_DRIVER},
    {"tap-select", true, OPTIONS_TAP_SELECT},
    {"scrub-env", true, OPTIONS_SCRUB_ENV},
    {"mask-env", true, OPTIONS_MASK_ENV},
    {"pytest-unit", true, OPTIONS_PYTEST_UNIT},
    {"no-cpu-shim", false, OPTIONS_NO_CPU_SHIM},
    {"shard", true, OPTIONS_SHARD},
    {"durations", true, OPTIONS_DURATIONS},
    {"shard-plan", false, OPTIONS_SHARD_PLAN},
    {"tz", true, OPTIONS_TZ},
    {"locale", true, OPTIONS_LOCALE},
    {"exclusive", true, OPTIONS_EXCLUSIVE},
    {"lease-dir", true, OPTIONS_LEASE_DIR},
    {"lease-ttl", true, OPTIONS_LEASE_TTL},
    {NULL, false, 0},
};

static void
cmd_stress_usage(FILE *f)
{
	fputs(_("Usage: flakesweep [stress] [OPTIONS] [PACKAGES...]\n"
	        "       flakesweep [stress] --driver tap [OPTIONS] -- COMMAND [ARGS...]\n"
	        "       flakesweep [stress] --driver gtest [OPTIONS] -- BINARY...\n"
	        "       flakesweep [stress] --driver ctest [OPTIONS] [BUILD_DIR]\n"
	        "       flakesweep view DIR...\n"
	        "       flakesweep report --results FILE --test ID --description FILE [OPTIONS]\n"
	        "       flakesweep report --rebuild DIR\n"
	        "       flakesweep quarantine list|check|add|remove|export [OPTIONS]\n"
	        "       flakesweep gate BASE HEAD [--control HEAD2] [--probe]\n"
	        "       flakesweep compare BEFORE AFTER [--test ID]... [--json]\n"
	        "       flakesweep verify --test ID --results BEFORE [OPTIONS]\n"
	        "       flakesweep bisect --good REV --bad REV --test ID [-o DIR] [OPTIONS]\n"
	        "       flakesweep merge -o OUT DIR...\n"
	        "       flakesweep plan --durations FILE [--cores N] [OPTIONS]\n"
	        "\n"
	        "Runs every package of a project many times at each pair of CPU count and\n"
	        "load, each run pinned to its own cores, then runs each test that failed\n"
	        "alone at every pair to measure its failure rate.\n"
	        "\n"
	        "Options:\n"
	        "  --cpu LIST         cores per run (default 1,2,4, clipped to the machine)\n"
	        "  --load LIST        runs per core (default 1,2)\n"
	        "  --count N          sweep runs per package and pair (default 500)\n"
	        "  --confirm N        confirm runs per failed test and pair (default 1000)\n"
	        "  --for DUR          a time budget instead of --count: runs per pair chosen\n"
	        "                     so the sweep and confirm end within DUR (90m, 8h)\n"
	        "  --until TIME       the same, ending by TIME (07:00, or 2026-12-05T07:00:00Z)\n"
	        "  --adaptive         with a budget: after --count-min runs a pair, runs go\n"
	        "                     where the failure rates' intervals are widest\n"
	        "  --count-min N      runs every pair gets first with --adaptive (default 30)\n"
	        "  --timeout DUR      time limit of one run (default 2m)\n"
	        "  --kill-grace DUR   time after the limit before SIGKILL (default 30s)\n"
	        "  --keep N           cores left to the system (default by machine size)\n"
	        "  --containers N     runs of container levels at once (default 4)\n"
	        "  --clusters N       environments up at once (default 2)\n"
	        "  --env-up CMD       brings a walkthrough's environment up\n"
	        "  --env-down CMD     takes it down\n"
	        "  --tags LIST        build-tag levels to run (default: every level found)\n"
	        "  --shuffle          shuffle test order, one seed per run\n"
	        "  --run RE           skip the sweep; run the matching tests --count times\n"
	        "  --skip RE          do not run the matching tests\n"
	        "  --build-tags LIST  build tags added to every build (not levels)\n"
	        "  --no-race          build without the race detector\n"
	        "  --cover            build with coverage (go test -c -cover), as CI may\n"
	        "  --isolate-net      give each run its own network namespace (root)\n"
	        "  --private-workdir  run each run in its own copy of its package's directory\n"
	        "  --tz ZONE          every run's TZ (default UTC; inherit: the caller's)\n"
	        "  --locale NAME      every run's LC_ALL (default C; inherit: the caller's)\n"
	        "  --exclusive NAME=PATTERN  never two runs of the group at once (repeatable)\n"
	        "  --lease-dir DIR    the groups' leases, shared with other sweeps\n"
	        "  --lease-ttl DUR    a lease not refreshed for DUR is stale (default 10m)\n"
	        "  --quiet PERCENT    hold a lane while others take over PERCENT of it\n"
	        "  --canaries PERCENT canary runs that check flakesweep itself (1%, 0: off)\n"
	        "  -o DIR             output directory (default ./flakesweep-out/TIMESTAMP)\n"
	        "  --resume DIR       continue the sweep recorded in DIR\n"
	        "  --force            resume even if the configuration or commit changed\n"
	        "  --scrub-env NAME   remove NAME from the runs' environment (repeatable)\n"
	        "  --mask-env NAME    mask NAME's value in what is recorded (repeatable)\n"
	        "  --quarantine FILE  quarantine file (default .flakesweep/quarantine.json)\n"
	        "  --ui full|line|none  front end (default full on a terminal, else line)\n"
	        "  --json             print results.json to standard output\n"
	        "  --junit FILE       write the results as JUnit XML to FILE at the end\n"
	        "  --driver go|tap|pytest|gtest|ctest  test framework (default go)\n"
	        "  --tap-select arg|env  how a TAP command is told which test to run\n"
	        "  --pytest-unit file|dir  what one pytest run sweeps (default file)\n"
	        "  --no-cpu-shim      do not preload the library that makes sysconf and\n"
	        "                     friends answer a run's CPU count (non-Go drivers)\n"
	        "  --shard I/N        sweep only shard I of N (stable: see --shard-plan)\n"
	        "  --durations FILE   an earlier results.json that weighs the shards, or\n"
	        "                     plans a budget's first count\n"
	        "  --shard-plan       print which packages each shard sweeps, and stop\n"
	        "  --help, --version  print this help or the version\n"
	        "\n"
	        "Durations use Go's syntax (90s, 2m, 1h30m). Options also take one dash\n"
	        "(-cpu 1,2) and an equals sign (--cpu=1,2).\n"
	        "\n"
	        "Exit status: 0 nothing failed or hung; 1 a test failed or hung; 2 usage,\n"
	        "input or infrastructure error; 130 interrupted.\n"),
	      f);
}

static int
cmd_stress_set(void *arg, int id, const char *value)
{
	const char *expected = NULL;
	size_t i;

	if (options_set(arg, (enum options_key)id, value, &expected) == 0)
		return 0;
	for (i = 0; cmd_stress_options[i].id != id; i++)
		;
	fprintf(stderr, _("flakesweep: invalid value \"%s\" for --%s: expected %s\n"), value,
	        cmd_stress_options[i].name, expected);
	return -1;
}

/* --durations weighs shards: refused without --shard or --shard-plan,
 * where it would do nothing, and when the file cannot be read, before any
 * package is discovered. */
static int
cmd_stress_check_durations(const struct options *o)
{
	char *err = NULL;

	if (o->durations == NULL)
		return 0;
	if (o->shard_count == 0 && !o->shard_plan && o->for_ms <= 0 && o->until == NULL) {
		fprintf(stderr, "%s\n",
		        _("flakesweep: --durations weighs the shards or plans a budget: it needs "
		          "--shard, --shard-plan, --for or --until"));
		return -1;
	}
	if (shard_durations_check(o->durations, &err) < 0) {
		sanitize_fprintf(stderr, "flakesweep: %s\n", err);
		free(err);
		return -1;
	}
	return 0;
}

/* --for and --until: one of them, never with --resume (the budget goes on
 * from the journal); --until HH:MM past today is said to be tomorrow's. */
static int
cmd_stress_check_budget(const struct options *o)
{
	char when[40];

	if (o->for_ms > 0 && o->until != NULL) {
		fprintf(stderr, "%s\n", _("flakesweep: --for and --until cannot be combined"));
		return -1;
	}
	if (o->resume != NULL && (o->for_ms > 0 || o->until != NULL)) {
		fprintf(stderr, "%s\n",
		        _("flakesweep: --for and --until cannot be given to --resume: the budget "
		          "goes on from the journal"));
		return -1;
	}
	if ((o->adaptive || o->count_min != ADAPTIVE_COUNT_MIN) &&
	    ((o->for_ms <= 0 && o->until == NULL) || (o->given & OPTIONS_GIVEN_COUNT))) {
		fprintf(stderr, "%s\n",
		        _("flakesweep: --adaptive and --count-min need a time budget (--for or "
		          "--until) and no --count"));
		return -1;
	}
	if (o->count_min != ADAPTIVE_COUNT_MIN && !o->adaptive) {
		fprintf(stderr, "%s\n", _("flakesweep: --count-min needs --adaptive"));
		return -1;
	}
	if (o->until_tomorrow) {
		timefmt_format_rfc3339(o->until_ms, when, sizeof when);
		sanitize_fprintf(stderr,
		                 _("flakesweep: --until %s is past today: the sweep ends by %s "
		                   "tomorrow (%s)\n"),
		                 o->until, o->until, when);
	}
	return 0;
}

int
cmd_stress_parse(struct options *o, int argc, char **argv)
{
	return cmd_stress_parse_for(o, argc, argv, NULL);
}

int
cmd_stress_parse_for(struct options *o, int argc, char **argv, const struct cmd_stress_host *host)
{
	struct cli c = {cmd_stress_options, cmd_stress_set, o, 0, 0, NULL, NULL};
	char *see;
	int i, dd;

	/* Everything after the first "--" is the TAP command, untouched. */
	for (dd = 1; dd < argc && strcmp(argv[dd], "--") != 0; dd++)
		;
	for (i = dd + 1; i < argc; i++)
		options_add_command_arg(o, argv[i]);
	switch (cli_parse(&c, dd, argv)) {
	case CLI_OK:
		break;
	case CLI_HELP:
		if (host != NULL)
			host->usage(stdout);
		else
			cmd_stress_usage(stdout);
		return 1;
	case CLI_NO_VALUE:
		fprintf(stderr, _("flakesweep: option %s needs a value\n"), c.bad);
		return -1;
	case CLI_UNKNOWN:
		if (host != NULL)
			c.near = cli_nearest_of(cmd_stress_options, host->options, c.bad);
		see = host != NULL ? xasprintf("flakesweep %s --help", host->name)
		                   : xstrdup("flakesweep --help");
		cli_unknown(&c, see);
		free(see);
		return -1;
	default:
		return -1;
	}
	for (i = c.first; i < dd; i++)
		options_add_package(o, argv[i]);
	if (cmd_stress_check_budget(o) < 0)
		return -1;
	if (options_check_command(o->driver, o->ncommand) != NULL && o->ncommand == 0) {
		fprintf(stderr, _("flakesweep: --driver %s needs a command after --\n"), o->driver);
		return -1;
	}
	if (options_check_timeout(o->driver, o->timeout_ms) != NULL) {
		fprintf(stderr, "%s\n",
		        _("flakesweep: --timeout is at most 2562047h with the go driver"));
		return -1;
	}
	if ((o->outdir != NULL && o->outdir[0] == '\0') ||
	    (o->resume != NULL && o->resume[0] == '\0')) {
		fprintf(stderr, "%s\n",
		        _("flakesweep: -o and --resume need a directory name, not an empty one"));
		return -1;
	}
	if (options_check_command(o->driver, o->ncommand) != NULL) {
		fprintf(stderr, "%s\n",
		        _("flakesweep: a command after -- needs --driver tap, gtest or ctest"));
		return -1;
	}
	/* Go runs are told their CPU count (-test.cpu, GOMAXPROCS); every
	 * other framework learns it from sysconf and friends. */
	if (o->cpu_shim && strcmp(o->driver, "go") != 0)
		o->cpu_shim_path = cpu_shim_find();
	if (o->resume != NULL && o->outdir != NULL) {
		fprintf(stderr, "%s\n",
		        _("flakesweep: --resume DIR and -o DIR cannot be combined"));
		return -1;
	}
	return cmd_stress_check_durations(o);
}

int
cmd_stress_parse_after(struct cli *own, struct options *o, int argc, char **argv,
                       const struct cmd_stress_host *host)
{
	char **rest = NULL;
	int nrest = 0, rc;

	switch (cli_take(own, argc, argv, &rest, &nrest)) {
	case CLI_OK:
		break;
	case CLI_NO_VALUE:
		sanitize_fprintf(stderr, _("flakesweep: option %s needs a value\n"), own->bad);
		return 2;
	default:
		return own->stop;
	}
	rc = cmd_stress_parse_for(o, nrest, rest, host);
	free(rest);
	return rc == 0 ? 0 : rc > 0 ? 1 : 2;
}

static void
cmd_stress_signal_cb(uv_signal_t *h, int signum)
{
	(void)signum;
	sweep_interrupt(h->data);
}

static int cmd_stress_run_sweep(struct options *o);

/* --junit FILE: the results of outdir as JUnit XML, an interrupted
 * sweep's marked incomplete. Returns rc, or 2 when FILE was not written. */
static int
cmd_stress_junit(const char *outdir, const char *file, int rc)
{
	char *err = NULL;

	if (junit_write(outdir, file, &err) == 0)
		return rc;
	sanitize_fprintf(stderr, "flakesweep: --junit: %s\n", err);
	free(err);
	return 2;
}

/* After the loop ran out: prints results.json (--json) or the report on
 * stdout, frees the sweep, the loop and the options. Returns the sweep's
 * exit status. */
static int
cmd_stress_finish(uv_loop_t *loop, struct sweep *s, struct options *o)
{
	int rc = sweep_exit_status(s);

	/* From memory: the files may be missing when the disk filled up. An
	 * interrupted sweep prints its results however early it stopped. */
	if (o->json
	        ? sweep_results(s)->npkgs > 0 || rc == 130
	        : sweep_phase(s) == SWEEP_PHASE_DONE && (rc != 2 || sweep_results(s)->runs > 0)) {
		char *text = sweep_report(s, o->json);

		sanitize_write(stdout, text, strlen(text));
		fflush(stdout);
		free(text);
	}
	if (rc != 2)
		fprintf(stderr, _("flakesweep: results in %s\n"), sweep_outdir(s));
	if (o->junit != NULL && (rc != 2 || sweep_results(s)->runs > 0))
		rc = cmd_stress_junit(sweep_outdir(s), o->junit, rc);
	sweep_free(s);
	if (uv_loop_close(loop) != 0)
		fprintf(stderr, "flakesweep: %s\n", _("handles left open at exit"));
	options_free(o);
	return rc;
}

/* The sweep under the dashboard (--ui full): the dashboard stays after the
 * sweep ends, until the user quits. */
static int
cmd_stress_run_full(struct options *o)
{
	uv_loop_t loop;
	struct ui_config cfg;
	struct ui *ui;
	struct sweep *s;
	char *err = NULL;

	signal(SIGPIPE, SIG_IGN);
	uv_loop_init(&loop);
	ui_config_init(&cfg);
	cfg.quarantine = o->quarantine;
	cfg.key_fd = isatty(STDIN_FILENO) ? STDIN_FILENO : -1;
	ui = ui_new(&loop, &cfg, MODEL_LIVE, &err);
	if (ui == NULL) {
		fprintf(stderr, _("flakesweep: no dashboard (%s); using --ui line\n"), err);
		free(err);
		uv_loop_close(&loop);
		o->ui = OPTIONS_UI_LINE;
		return cmd_stress_run_sweep(o);
	}
	s = sweep_new(&loop, o, ui_observer(ui), &err);
	if (s == NULL) {
		ui_free(ui);
		uv_run(&loop, UV_RUN_DEFAULT);
		uv_loop_close(&loop);
		sanitize_fprintf(stderr, "flakesweep: %s\n", err);
		free(err);
		options_free(o);
		return 2;
	}
	ui_attach_sweep(ui, s);
	if (sweep_start(s, &err) < 0) {
		ui_close(ui);
		sanitize_fprintf(stderr, "flakesweep: %s\n", err);
		free(err);
	}
	uv_run(&loop, UV_RUN_DEFAULT);
	ui_free(ui);
	uv_run(&loop, UV_RUN_DEFAULT);
	return cmd_stress_finish(&loop, s, o);
}

static int
cmd_stress_run_sweep(struct options *o)
{
	uv_loop_t loop;
	uv_signal_t sigs[3];
	static const int signums[] = {SIGINT, SIGTERM, SIGHUP};
	struct out_line *ol;
	struct sweep *s;
	char *err = NULL;
	bool progress;
	size_t i;

	if (o->ui == OPTIONS_UI_AUTO || o->ui == OPTIONS_UI_FULL) {
		const char *why = NULL;
		bool usable = ui_usable(STDOUT_FILENO, &why);

		/* Auto also wants the keyboard: a terminal on stdin. */
		if (o->ui == OPTIONS_UI_AUTO && usable && !isatty(STDIN_FILENO))
			usable = false;
		else if (o->ui == OPTIONS_UI_FULL && !usable)
			fprintf(stderr, _("flakesweep: no dashboard (%s); using --ui line\n"), why);
		o->ui = usable ? OPTIONS_UI_FULL : OPTIONS_UI_LINE;
		if (usable)
			return cmd_stress_run_full(o);
	}
	progress = o->ui == OPTIONS_UI_LINE;
	signal(SIGPIPE, SIG_IGN);
	uv_loop_init(&loop);
	ol = out_line_new(&loop, stderr, progress, CMD_STRESS_PROGRESS_MS);
	s = sweep_new(&loop, o, out_line_observer(ol), &err);
	if (s == NULL) {
		sanitize_fprintf(stderr, "flakesweep: %s\n", err);
		free(err);
		out_line_observer(ol)->finished(ol);
		uv_run(&loop, UV_RUN_DEFAULT);
		uv_loop_close(&loop);
		out_line_free(ol);
		options_free(o);
		return 2;
	}
	out_line_attach(ol, s);
	for (i = 0; i < UTIL_ARRAY_LEN(sigs); i++) {
		uv_signal_init(&loop, &sigs[i]);
		sigs[i].data = s;
		uv_signal_start(&sigs[i], cmd_stress_signal_cb, signums[i]);
		/* The sweep's own handles keep the loop alive, not these. */
		uv_unref((uv_handle_t *)&sigs[i]);
	}
	if (sweep_start(s, &err) < 0) {
		sanitize_fprintf(stderr, "flakesweep: %s\n", err);
		free(err);
	}
	uv_run(&loop, UV_RUN_DEFAULT);
	for (i = 0; i < UTIL_ARRAY_LEN(sigs); i++)
		uv_close((uv_handle_t *)&sigs[i], NULL);
	uv_run(&loop, UV_RUN_DEFAULT);
	out_line_free(ol);
	return cmd_stress_finish(&loop, s, o);
}

static int
cmd_stress(int argc, char **argv)
{
	struct options o;
	int rc;

	options_init(&o);
	rc = cmd_stress_parse(&o, argc, argv);
	if (rc != 0) {
		options_free(&o);
		return rc > 0 ? 0 : 2;
	}
	if (o.shard_plan) {
		char *err = NULL;

		rc = shard_plan_show(&o, &err) < 0 ? 2 : 0;
		if (err != NULL)
			sanitize_fprintf(stderr, "flakesweep: %s\n", err);
		free(err);
		options_free(&o);
		return rc;
	}
	return cmd_stress_run_sweep(&o);
}

const struct cmd_entry cmd_stress_entry = {"stress", cmd_stress};
