/* SPDX-License-Identifier: MIT */
/*
 * options.c: parses the stress command line into struct options. It checks
 * each value's syntax and nothing about the machine or the project.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"
#include "util.h"

enum {
	OPT_CPU = 256,
	OPT_LOAD,
	OPT_COUNT,
	OPT_CONFIRM,
	OPT_TIMEOUT,
	OPT_KILL_GRACE,
	OPT_KEEP,
	OPT_TAGS,
	OPT_BUILD_TAGS,
	OPT_SHUFFLE,
	OPT_RUN,
	OPT_SKIP,
	OPT_NO_RACE,
	OPT_ISOLATE_NET,
	OPT_QUIET,
	OPT_RESUME,
	OPT_FORCE,
	OPT_QUARANTINE,
	OPT_UI,
	OPT_JSON,
	OPT_DRIVER,
	OPT_TAP_SELECT,
	OPT_SCRUB_ENV,
	OPT_HELP,
};

static const struct option long_options[] = {
    {"cpu", required_argument, NULL, OPT_CPU},
    {"load", required_argument, NULL, OPT_LOAD},
    {"count", required_argument, NULL, OPT_COUNT},
    {"confirm", required_argument, NULL, OPT_CONFIRM},
    {"timeout", required_argument, NULL, OPT_TIMEOUT},
    {"kill-grace", required_argument, NULL, OPT_KILL_GRACE},
    {"keep", required_argument, NULL, OPT_KEEP},
    {"tags", required_argument, NULL, OPT_TAGS},
    {"build-tags", required_argument, NULL, OPT_BUILD_TAGS},
    {"shuffle", no_argument, NULL, OPT_SHUFFLE},
    {"run", required_argument, NULL, OPT_RUN},
    {"skip", required_argument, NULL, OPT_SKIP},
    {"no-race", no_argument, NULL, OPT_NO_RACE},
    {"isolate-net", no_argument, NULL, OPT_ISOLATE_NET},
    {"quiet", required_argument, NULL, OPT_QUIET},
    {"resume", required_argument, NULL, OPT_RESUME},
    {"force", no_argument, NULL, OPT_FORCE},
    {"quarantine", required_argument, NULL, OPT_QUARANTINE},
    {"ui", required_argument, NULL, OPT_UI},
    {"json", no_argument, NULL, OPT_JSON},
    {"driver", required_argument, NULL, OPT_DRIVER},
    {"tap-select", required_argument, NULL, OPT_TAP_SELECT},
    {"scrub-env", required_argument, NULL, OPT_SCRUB_ENV},
    {"help", no_argument, NULL, OPT_HELP},
    {NULL, 0, NULL, 0},
};

void
options_init(struct options *o)
{
	memset(o, 0, sizeof *o);
	o->loads = xmalloc(2 * sizeof *o->loads);
	o->loads[0] = 1;
	o->loads[1] = 2;
	o->nloads = 2;
	o->count = 500;
	o->confirm = 1000;
	o->timeout_ms = 120000;
	o->kill_grace_ms = 30000;
	o->keep = -1;
	o->race = true;
	o->driver = xstrdup("go");
	o->tap_select = xstrdup("arg");
}

static void
free_strv(char **v, int n)
{
	int i;

	for (i = 0; v != NULL && i < n; i++)
		free(v[i]);
	free(v);
}

void
options_free(struct options *o)
{
	free(o->cpus);
	free(o->loads);
	free_strv(o->tags, o->ntags);
	free(o->build_tags);
	free(o->run_re);
	free(o->skip_re);
	free(o->outdir);
	free(o->resume);
	free(o->quarantine);
	free(o->driver);
	free(o->tap_select);
	free_strv(o->packages, o->npackages);
	free_strv(o->command, o->ncommand);
	free_strv(o->scrub_env, o->nscrub_env);
	memset(o, 0, sizeof *o);
}

void
options_usage(void *f)
{
	fputs(_("Usage: flakesweep [stress] [OPTIONS] [PACKAGES...]\n"
	        "       flakesweep [stress] --driver tap [OPTIONS] -- COMMAND [ARGS...]\n"
	        "       flakesweep view DIR\n"
	        "       flakesweep report --results FILE --test ID --description FILE [OPTIONS]\n"
	        "       flakesweep report --rebuild DIR\n"
	        "       flakesweep quarantine list|check|add|export [OPTIONS]\n"
	        "       flakesweep gate BASE HEAD [--control HEAD2] [--probe]\n"
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
	        "  --timeout DUR      time limit of one run (default 2m)\n"
	        "  --kill-grace DUR   time after the limit before SIGKILL (default 30s)\n"
	        "  --keep N           cores left to the system (default by machine size)\n"
	        "  --tags LIST        build-tag levels to run (default: every level found)\n"
	        "  --shuffle          shuffle test order, one seed per run\n"
	        "  --run RE           skip the sweep; run the matching tests --count times\n"
	        "  --skip RE          do not run the matching tests\n"
	        "  --build-tags LIST  build tags added to every build (not levels)\n"
	        "  --no-race          build without the race detector\n"
	        "  --isolate-net      give each run its own network namespace (root)\n"
	        "  --quiet PERCENT    hold a lane while others take over PERCENT of it\n"
	        "  -o DIR             output directory (default ./flakesweep-out/TIMESTAMP)\n"
	        "  --resume DIR       continue the sweep recorded in DIR\n"
	        "  --force            resume even if the configuration or commit changed\n"
	        "  --scrub-env NAME   remove NAME from the runs' environment (repeatable)\n"
	        "  --quarantine FILE  quarantine file (default .flakesweep/quarantine.json)\n"
	        "  --ui full|line|none  front end (default full on a terminal, else line)\n"
	        "  --json             print results.json to standard output\n"
	        "  --driver go|tap    test framework (default go)\n"
	        "  --tap-select arg|env  how a TAP command is told which test to run\n"
	        "  --help, --version  print this help or the version\n"
	        "\n"
	        "Durations use Go's syntax (90s, 2m, 1h30m). Options also take one dash\n"
	        "(-cpu 1,2) and an equals sign (--cpu=1,2).\n"
	        "\n"
	        "Exit status: 0 nothing failed or hung; 1 a test failed or hung; 2 usage,\n"
	        "input or infrastructure error; 130 interrupted.\n"),
	      (FILE *)f);
}

static int
bad_value(const char *opt, const char *value, const char *expected)
{
	fprintf(stderr, _("flakesweep: invalid value \"%s\" for --%s: expected %s\n"), value, opt,
	        expected);
	return -1;
}

static int
parse_count(const char *opt, const char *value, int *out, int min)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(value, &end, 10);
	if (errno != 0 || *end != '\0' || end == value || v < min || v > OPTIONS_COUNT_MAX)
		return bad_value(opt, value,
		                 min > 0 ? _("a positive whole number, at most 100000000")
		                         : _("a whole number, at most 100000000"));
	*out = (int)v;
	return 0;
}

/* "N%" or "N", 1 to 99. */
static int
parse_percent(const char *opt, const char *value, int *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(value, &end, 10);
	if (*end == '%')
		end++;
	if (errno != 0 || *end != '\0' || end == value || v < 1 || v > 99)
		return bad_value(opt, value, _("a whole percentage from 1 to 99"));
	*out = (int)v;
	return 0;
}

static int
parse_list(const char *opt, const char *value, int **out, int *n)
{
	int *v, nv, i, j;

	if (util_parse_int_list(value, &v, &nv) < 0)
		return bad_value(opt, value, _("a comma-separated list of positive numbers"));
	for (i = 0; i < nv; i++) {
		for (j = 0; j < i; j++) {
			if (v[i] == v[j]) {
				free(v);
				return bad_value(opt, value,
				                 _("a list that names each value once"));
			}
		}
	}
	free(*out);
	*out = v;
	*n = nv;
	return 0;
}

static int
parse_dur(const char *opt, const char *value, int64_t *out)
{
	if (util_parse_duration(value, out) < 0)
		return bad_value(opt, value, _("a duration such as 90s, 2m or 1h30m"));
	return 0;
}

static void
set_str(char **dst, const char *v)
{
	free(*dst);
	*dst = xstrdup(v);
}

static void
split_tags(struct options *o, const char *value)
{
	char *copy = xstrdup(value), *save = NULL, *tok;

	free_strv(o->tags, o->ntags);
	o->tags = NULL;
	o->ntags = 0;
	for (tok = strtok_r(copy, ",", &save); tok != NULL; tok = strtok_r(NULL, ",", &save)) {
		o->tags = xrealloc(o->tags, sizeof *o->tags * (size_t)(o->ntags + 1));
		o->tags[o->ntags++] = xstrdup(tok);
	}
	free(copy);
}

int
options_parse(struct options *o, int argc, char **argv)
{
	int c, i, dd, rc = 0;

	/* Everything after the first "--" is the TAP command, untouched. */
	for (dd = 1; dd < argc && strcmp(argv[dd], "--") != 0; dd++)
		;
	for (i = dd + 1; i < argc; i++) {
		o->command = xrealloc(o->command, sizeof *o->command * (size_t)(o->ncommand + 2));
		o->command[o->ncommand++] = xstrdup(argv[i]);
		o->command[o->ncommand] = NULL;
	}
	optind = 0; /* 0 makes glibc reinitialise, so the parser can be run twice */
	opterr = 0;
	while ((c = getopt_long_only(dd, argv, ":o:", long_options, NULL)) != -1) {
		switch (c) {
		case OPT_CPU:
			o->given |= OPTIONS_GIVEN_CPU;
			rc = parse_list("cpu", optarg, &o->cpus, &o->ncpus);
			break;
		case OPT_LOAD:
			o->given |= OPTIONS_GIVEN_LOAD;
			rc = parse_list("load", optarg, &o->loads, &o->nloads);
			for (i = 0; rc == 0 && i < o->nloads; i++) {
				/* Each lane runs load x cpu processes at once. */
				if (o->loads[i] > OPTIONS_LOAD_MAX)
					rc = bad_value("load", optarg,
					               _("runs per core, each at most 64"));
			}
			break;
		case OPT_COUNT:
			o->given |= OPTIONS_GIVEN_COUNT;
			rc = parse_count("count", optarg, &o->count, 1);
			break;
		case OPT_CONFIRM:
			o->given |= OPTIONS_GIVEN_CONFIRM;
			rc = parse_count("confirm", optarg, &o->confirm, 0);
			break;
		case OPT_TIMEOUT:
			o->given |= OPTIONS_GIVEN_TIMEOUT;
			rc = parse_dur("timeout", optarg, &o->timeout_ms);
			if (rc == 0 && o->timeout_ms <= 0)
				rc = bad_value("timeout", optarg, _("a duration above zero"));
			break;
		case OPT_KILL_GRACE:
			rc = parse_dur("kill-grace", optarg, &o->kill_grace_ms);
			break;
		case OPT_KEEP:
			o->given |= OPTIONS_GIVEN_KEEP;
			rc = parse_count("keep", optarg, &o->keep, 0);
			break;
		case OPT_BUILD_TAGS:
			o->given |= OPTIONS_GIVEN_TAGS;
			set_str(&o->build_tags, optarg);
			break;
		case OPT_TAGS:
			o->given |= OPTIONS_GIVEN_TAGS;
			split_tags(o, optarg);
			break;
		case OPT_SHUFFLE:
			o->given |= OPTIONS_GIVEN_SHUFFLE;
			o->shuffle = true;
			break;
		case OPT_SCRUB_ENV:
			o->scrub_env = xrealloc(o->scrub_env,
			                        sizeof *o->scrub_env * (size_t)(o->nscrub_env + 1));
			o->scrub_env[o->nscrub_env++] = xstrdup(optarg);
			break;
		case OPT_RUN:
			o->given |= OPTIONS_GIVEN_RUN;
			set_str(&o->run_re, optarg);
			break;
		case OPT_SKIP:
			o->given |= OPTIONS_GIVEN_SKIP;
			set_str(&o->skip_re, optarg);
			break;
		case OPT_QUIET:
			rc = parse_percent("quiet", optarg, &o->quiet);
			break;
		case OPT_ISOLATE_NET:
			o->isolate_net = true;
			break;
		case OPT_NO_RACE:
			o->given |= OPTIONS_GIVEN_RACE;
			o->race = false;
			break;
		case 'o':
			/* Go's spelling -o=DIR reaches here as the short option. */
			set_str(&o->outdir, optarg[0] == '=' ? optarg + 1 : optarg);
			break;
		case OPT_RESUME:
			set_str(&o->resume, optarg);
			break;
		case OPT_FORCE:
			o->force = true;
			break;
		case OPT_QUARANTINE:
			set_str(&o->quarantine, optarg);
			break;
		case OPT_UI:
			if (strcmp(optarg, "full") == 0)
				o->ui = OPTIONS_UI_FULL;
			else if (strcmp(optarg, "line") == 0)
				o->ui = OPTIONS_UI_LINE;
			else if (strcmp(optarg, "none") == 0)
				o->ui = OPTIONS_UI_NONE;
			else
				rc = bad_value("ui", optarg, "full, line or none");
			break;
		case OPT_JSON:
			o->json = true;
			break;
		case OPT_DRIVER:
			o->given |= OPTIONS_GIVEN_DRIVER;
			if (strcmp(optarg, "go") != 0 && strcmp(optarg, "tap") != 0)
				rc = bad_value("driver", optarg, "go or tap");
			else
				set_str(&o->driver, optarg);
			break;
		case OPT_TAP_SELECT:
			if (strcmp(optarg, "arg") != 0 && strcmp(optarg, "env") != 0)
				rc = bad_value("tap-select", optarg, "arg or env");
			else
				set_str(&o->tap_select, optarg);
			break;
		case OPT_HELP:
			options_usage(stdout);
			return 1;
		case ':':
			fprintf(stderr, _("flakesweep: option %s needs a value\n"),
			        argv[optind - 1]);
			return -1;
		default:
			fprintf(stderr,
			        _("flakesweep: unknown option %s (see flakesweep --help)\n"),
			        argv[optind - 1]);
			return -1;
		}
		if (rc < 0)
			return -1;
	}
	if (optind < dd || o->ncommand > 0)
		o->given |= OPTIONS_GIVEN_PACKAGES;
	for (i = optind; i < dd; i++) {
		o->packages =
		    xrealloc(o->packages, sizeof *o->packages * (size_t)(o->npackages + 1));
		o->packages[o->npackages++] = xstrdup(argv[i]);
	}
	if (strcmp(o->driver, "tap") == 0 && o->ncommand == 0) {
		fprintf(stderr, "%s\n", _("flakesweep: --driver tap needs a command after --"));
		return -1;
	}
	if (strcmp(o->driver, "go") == 0 && o->ncommand > 0) {
		fprintf(stderr, "%s\n", _("flakesweep: a command after -- needs --driver tap"));
		return -1;
	}
	if (strcmp(o->driver, "go") == 0 && o->timeout_ms > OPTIONS_GO_TIMEOUT_MAX_MS) {
		/* Go's time.Duration holds at most 2562047h47m16s. */
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
	if (o->resume != NULL && o->outdir != NULL) {
		fprintf(stderr, "%s\n",
		        _("flakesweep: --resume DIR and -o DIR cannot be combined"));
		return -1;
	}
	return 0;
}
