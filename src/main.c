/* SPDX-License-Identifier: MIT */
/*
 * main.c: the composition root. It sets up the locale, picks the
 * subcommand, parses its options and hands over to the module that runs
 * it. Nothing else in flakesweep is global.
 */
#include "config.h"

#include <errno.h>
#include <locale.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <uv.h>

#include "bisect.h"
#include "compare.h"
#include "follow.h"
#include "gate.h"
#include "options.h"
#include "out-line.h"
#include "post.h"
#include "quarantine.h"
#include "results-json.h"
#include "sequential.h"
#include "sweep.h"
#include "ui.h"
#include "util.h"
#include "verify.h"

#define MAIN_PROGRESS_MS 5000

static void
main_signal_cb(uv_signal_t *h, int signum)
{
	(void)signum;
	sweep_interrupt(h->data);
}

/* Prints a file of the output directory to stdout. */
static void
main_print_file(const char *dir, const char *name)
{
	char *path = xasprintf("%s/%s", dir, name), *text = NULL;
	size_t len = 0;

	if (util_read_file(path, (size_t)1 << 30, &text, &len) == 0) {
		fwrite(text, 1, len, stdout);
		fflush(stdout);
	}
	free(text);
	free(path);
}

struct main_command {
	const char *name;
	int (*run)(int argc, char **argv);
};

static int main_run_sweep(struct options *o);

/* After the loop ran out: prints results.json (--json) or the report on
 * stdout, frees the sweep, the loop and the options. Returns the sweep's
 * exit status. */
static int
main_finish(uv_loop_t *loop, struct sweep *s, struct options *o)
{
	int rc = sweep_exit_status(s);

	if (o->json)
		main_print_file(sweep_outdir(s), "results.json");
	else if (sweep_phase(s) == SWEEP_PHASE_DONE && rc != 2)
		main_print_file(sweep_outdir(s), "report.txt");
	if (rc != 2)
		fprintf(stderr, _("flakesweep: results in %s\n"), sweep_outdir(s));
	sweep_free(s);
	if (uv_loop_close(loop) != 0)
		fprintf(stderr, "flakesweep: %s\n", _("handles left open at exit"));
	options_free(o);
	return rc;
}

/* The sweep under the dashboard (--ui full): the dashboard stays after the
 * sweep ends, until the user quits. */
static int
main_run_full(struct options *o)
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
		return main_run_sweep(o);
	}
	s = sweep_new(&loop, o, ui_observer(ui), &err);
	if (s == NULL) {
		ui_free(ui);
		uv_run(&loop, UV_RUN_DEFAULT);
		uv_loop_close(&loop);
		fprintf(stderr, "flakesweep: %s\n", err);
		free(err);
		options_free(o);
		return 2;
	}
	ui_attach_sweep(ui, s);
	if (sweep_start(s, &err) < 0) {
		ui_close(ui);
		fprintf(stderr, "flakesweep: %s\n", err);
		free(err);
	}
	uv_run(&loop, UV_RUN_DEFAULT);
	ui_free(ui);
	uv_run(&loop, UV_RUN_DEFAULT);
	return main_finish(&loop, s, o);
}

static int
main_run_sweep(struct options *o)
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
			return main_run_full(o);
	}
	progress = o->ui == OPTIONS_UI_LINE;
	signal(SIGPIPE, SIG_IGN);
	uv_loop_init(&loop);
	ol = out_line_new(&loop, stderr, progress, MAIN_PROGRESS_MS);
	s = sweep_new(&loop, o, out_line_observer(ol), &err);
	if (s == NULL) {
		fprintf(stderr, "flakesweep: %s\n", err);
		free(err);
		out_line_observer(ol)->finished(ol, NULL);
		uv_run(&loop, UV_RUN_DEFAULT);
		uv_loop_close(&loop);
		out_line_free(ol);
		options_free(o);
		return 2;
	}
	for (i = 0; i < UTIL_ARRAY_LEN(sigs); i++) {
		uv_signal_init(&loop, &sigs[i]);
		sigs[i].data = s;
		uv_signal_start(&sigs[i], main_signal_cb, signums[i]);
		/* The sweep's own handles keep the loop alive, not these. */
		uv_unref((uv_handle_t *)&sigs[i]);
	}
	if (sweep_start(s, &err) < 0) {
		fprintf(stderr, "flakesweep: %s\n", err);
		free(err);
	}
	uv_run(&loop, UV_RUN_DEFAULT);
	for (i = 0; i < UTIL_ARRAY_LEN(sigs); i++)
		uv_close((uv_handle_t *)&sigs[i], NULL);
	uv_run(&loop, UV_RUN_DEFAULT);
	out_line_free(ol);
	return main_finish(&loop, s, o);
}

static int
main_stress(int argc, char **argv)
{
	struct options o;
	int rc;

	options_init(&o);
	rc = options_parse(&o, argc, argv);
	if (rc != 0) {
		options_free(&o);
		return rc > 0 ? 0 : 2;
	}
	return main_run_sweep(&o);
}

/* `report --rebuild DIR` rebuilds results from a journal; every other
 * form of `report` posts a bug report. */
static int
main_report(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (strcmp(a, "--rebuild") == 0 || strcmp(a, "-rebuild") == 0) {
			if (i + 1 >= argc || argc != 3) {
				fprintf(stderr, "%s\n",
				        _("flakesweep: usage: flakesweep report --rebuild DIR"));
				return 2;
			}
			return sweep_rebuild(argv[i + 1]);
		}
		if (strncmp(a, "--rebuild=", 10) == 0)
			return argc == 2 ? sweep_rebuild(a + 10) : 2;
	}
	return post_main(argc, argv);
}

/* ---- compare, verify, bisect: thin glue over compare.c, verify.c,
 * sequential.c and bisect.c ---- */

/* Takes "--NAME VALUE" or "--NAME=VALUE" (one or two dashes) at argv[*i];
 * returns the value, advancing *i, or NULL when argv[*i] is not it. A
 * missing value is reported and sets *bad. */
static const char *
main_opt(int argc, char **argv, int *i, const char *name, bool *bad)
{
	const char *a = argv[*i];
	size_t n = strlen(name);

	if (a[0] != '-')
		return NULL;
	a += a[1] == '-' ? 2 : 1;
	if (strncmp(a, name, n) != 0)
		return NULL;
	if (a[n] == '=')
		return a + n + 1;
	if (a[n] != '\0')
		return NULL;
	if (*i + 1 >= argc) {
		fprintf(stderr, _("flakesweep: %s needs a value\n"), argv[*i]);
		*bad = true;
		return NULL;
	}
	return argv[++*i];
}

/* A rate or share: a number in (0, 1]. */
static bool
main_rate(const char *opt, const char *v, double *out)
{
	char *end;

	errno = 0;
	*out = strtod(v, &end);
	if (errno != 0 || end == v || *end != '\0' || !(*out > 0 && *out <= 1)) {
		fprintf(stderr, _("flakesweep: --%s %s: expected a number above 0, at most 1\n"),
		        opt, v);
		return false;
	}
	return true;
}

/* Reads a results.json, or the one in an output directory. */
static struct results *
main_load_results(const char *arg)
{
	struct results *r = NULL;
	struct stat st;
	char *path, *err = NULL;

	path = stat(arg, &st) == 0 && S_ISDIR(st.st_mode) ? xasprintf("%s/results.json", arg)
	                                                  : xstrdup(arg);
	if (results_load(path, &r, NULL, &err) < 0) {
		fprintf(stderr, "flakesweep: %s\n", err);
		free(err);
	}
	free(path);
	return r;
}

/* Takes --level, --margin, --alpha into co; true when argv[*i] was one. */
static bool
main_compare_opt(int argc, char **argv, int *i, struct compare_options *co, bool *bad)
{
	const char *v;

	if ((v = main_opt(argc, argv, i, "level", bad)) != NULL)
		*bad |= !main_rate("level", v, &co->level);
	else if ((v = main_opt(argc, argv, i, "margin", bad)) != NULL)
		*bad |= !main_rate("margin", v, &co->margin);
	else if ((v = main_opt(argc, argv, i, "alpha", bad)) != NULL)
		*bad |= !main_rate("alpha", v, &co->alpha);
	return v != NULL;
}

static int
main_compare(int argc, char **argv)
{
	struct compare_options co;
	struct results *before = NULL, *after = NULL;
	struct compare *c = NULL;
	char **ids = NULL, *paths[2] = {NULL, NULL}, *text;
	size_t nids = 0, npaths = 0;
	bool json = false, bad = false;
	const char *v;
	int i, rc = 2;

	compare_options_default(&co);
	for (i = 1; i < argc && !bad; i++) {
		if ((v = main_opt(argc, argv, &i, "test", &bad)) != NULL)
			util_strv_add(&ids, &nids, v);
		else if (strcmp(argv[i], "--json") == 0 || strcmp(argv[i], "-json") == 0)
			json = true;
		else if (bad || main_compare_opt(argc, argv, &i, &co, &bad))
			continue;
		else if (argv[i][0] != '-' && npaths < 2)
			paths[npaths++] = argv[i];
		else
			bad = true;
	}
	if (bad || npaths != 2) {
		fprintf(
		    stderr, "%s\n",
		    _("flakesweep: usage: flakesweep compare BEFORE AFTER [--test ID]... [--json] "
		      "[--level RATE] [--margin SHARE] [--alpha A]"));
		goto out;
	}
	before = main_load_results(paths[0]);
	after = before != NULL ? main_load_results(paths[1]) : NULL;
	if (after == NULL)
		goto out;
	c = compare_new(before, after, &co);
	if (json) {
		cJSON *j = compare_to_json(c, paths[0], paths[1]);

		text = cJSON_Print(j);
		printf("%s\n", text);
		cJSON_Delete(j);
	} else {
		text = compare_to_text(c, ids, nids);
		fputs(text, stdout);
	}
	free(text);
	rc = compare_exit_status(c, ids, nids);
out:
	compare_free(c);
	results_free(before);
	results_free(after);
	util_strv_free(ids);
	return rc;
}

/* Splits argv into the options of verify or bisect, handled by take, and
 * the sweep options left for options_parse (argv[0] kept). */
static char **
main_split(int argc, char **argv, bool (*take)(void *, int, char **, int *, bool *), void *arg,
           int *nrest, bool *bad)
{
	char **rest = NULL;
	size_t n = 0;
	int i;

	util_strv_add(&rest, &n, argv[0]);
	for (i = 1; i < argc && !*bad; i++) {
		if (strcmp(argv[i], "--") == 0) {
			for (; i < argc; i++)
				util_strv_add(&rest, &n, argv[i]);
			break;
		}
		if (!take(arg, argc, argv, &i, bad) && !*bad)
			util_strv_add(&rest, &n, argv[i]);
	}
	*nrest = (int)n;
	return rest;
}

struct main_seq_args {
	const char *test, *results, *good, *bad;
	long long budget;
	struct compare_options co;
};

static bool
main_seq_take(void *arg, int argc, char **argv, int *i, bool *bad)
{
	struct main_seq_args *a = arg;
	const char *v;
	char *end;

	if ((v = main_opt(argc, argv, i, "test", bad)) != NULL)
		a->test = v;
	else if ((v = main_opt(argc, argv, i, "results", bad)) != NULL)
		a->results = v;
	else if ((v = main_opt(argc, argv, i, "good", bad)) != NULL)
		a->good = v;
	else if ((v = main_opt(argc, argv, i, "bad", bad)) != NULL)
		a->bad = v;
	else if ((v = main_opt(argc, argv, i, "budget", bad)) != NULL) {
		errno = 0;
		a->budget = strtoll(v, &end, 10);
		if (errno != 0 || end == v || *end != '\0' || a->budget < 1 ||
		    a->budget > OPTIONS_COUNT_MAX) {
			fprintf(
			    stderr,
			    _("flakesweep: --budget %s: expected a positive whole number, at most "
			      "100000000\n"),
			    v);
			*bad = true;
		}
	} else
		return main_compare_opt(argc, argv, i, &a->co, bad);
	return true;
}

/* Parses verify's or bisect's command line into a and o. Returns 0, or
 * the exit status to leave with. */
static int
main_seq_parse(int argc, char **argv, struct main_seq_args *a, struct options *o)
{
	bool bad = false;
	int nrest, rc;
	char **rest;

	memset(a, 0, sizeof *a);
	a->budget = 1000;
	compare_options_default(&a->co);
	options_init(o);
	rest = main_split(argc, argv, main_seq_take, a, &nrest, &bad);
	rc = bad ? -1 : options_parse(o, nrest, rest);
	util_strv_free(rest);
	return rc == 0 ? 0 : rc > 0 ? 1 : 2;
}

/* The go driver runs the test's own package unless packages were named. */
static void
main_seq_package(struct options *o, const char *package)
{
	if (strcmp(o->driver, "go") == 0 && o->npackages == 0 && package != NULL) {
		size_t n = 0;

		util_strv_add(&o->packages, &n, package);
		o->npackages = (int)n;
	}
}

static int
main_verify(int argc, char **argv)
{
	struct main_seq_args a;
	struct options o;
	struct results *before = NULL, *after = NULL;
	struct verify_plan vp;
	struct sequential_result r = {0};
	struct compare *c = NULL;
	char *err = NULL, *text, *ids[1];
	int rc;

	rc = main_seq_parse(argc, argv, &a, &o);
	if (rc != 0)
		goto out;
	rc = 2;
	if (a.test == NULL || a.results == NULL) {
		fprintf(stderr, "%s\n",
		        _("flakesweep: usage: flakesweep verify --test ID --results BEFORE "
		          "[--budget N] [-o DIR] [sweep options]"));
		goto out;
	}
	before = main_load_results(a.results);
	if (before == NULL)
		goto out;
	if (verify_plan(before, a.test, &a.co, &vp, &err) < 0 ||
	    (main_seq_package(&o, vp.package),
	     sequential_run(&o, vp.test->test, vp.cpu, vp.load, vp.p0, vp.p1, a.budget, &r, &err)) <
	        0) {
		fprintf(stderr, "flakesweep: %s: %s\n", a.results, err);
		goto out;
	}
	printf(_("verify at cpu %d load %d: %lld runs, %lld failed; the sequential test %s "
	         "(rate %.4g not fixed against %.4g fixed; a fixed-count design needs %lld)\n"),
	       vp.cpu, vp.load, (long long)r.runs, (long long)r.failures,
	       r.state == STATS_SPRT_ACCEPT_P1   ? _("says fixed")
	       : r.state == STATS_SPRT_ACCEPT_P0 ? _("says not fixed")
	                                         : _("did not decide within the budget"),
	       vp.p0, vp.p1, (long long)vp.fixed_runs);
	if (r.exit_status == 130) {
		rc = 130;
		goto out;
	}
	after = main_load_results(r.outdir);
	if (after == NULL)
		goto out;
	c = compare_new(before, after, &a.co);
	ids[0] = (char *)a.test;
	text = compare_to_text(c, ids, 1);
	fputs(text, stdout);
	free(text);
	fprintf(stderr, _("flakesweep: results in %s\n"), r.outdir);
	/* The sequential test answers; compare's fixed-count verdict is shown
	 * beside it. */
	rc = r.state == STATS_SPRT_ACCEPT_P1 ? 0 : 1;
out:
	free(err);
	free(r.outdir);
	compare_free(c);
	results_free(before);
	results_free(after);
	options_free(&o);
	return rc;
}

static void
main_bisect_probed(void *arg, const struct bisect_commit *c)
{
	(void)arg;
	fprintf(stderr, _("flakesweep: %.12s %s after %lld runs, %lld failed%s\n"), c->sha,
	        bisect_state_name(c->state), (long long)c->runs, (long long)c->failures,
	        c->resumed ? _(" (from its journal)") : "");
}

static int
main_bisect(int argc, char **argv)
{
	struct main_seq_args a;
	struct options o;
	struct results *before = NULL;
	struct bisect_config cfg = {0};
	struct bisect b = {0};
	struct verify_plan vp;
	char *err = NULL, *text, *cwd = NULL;
	int rc;

	rc = main_seq_parse(argc, argv, &a, &o);
	if (rc != 0)
		goto out;
	rc = 2;
	if (a.test == NULL || a.good == NULL || a.bad == NULL || o.outdir == NULL) {
		fprintf(
		    stderr, "%s\n",
		    _("flakesweep: usage: flakesweep bisect --good REV --bad REV --test ID -o DIR "
		      "[--results FILE] [--budget N] [sweep options]"));
		goto out;
	}
	cfg.cpu = cfg.load = 1;
	cfg.p0 = 0.1;
	cfg.p1 = a.co.level > 0 ? a.co.level : cfg.p0 / 10;
	cfg.test = strstr(a.test, "::") != NULL ? strstr(a.test, "::") + 2 : a.test;
	if (a.results != NULL) {
		before = main_load_results(a.results);
		if (before == NULL)
			goto out;
		if (verify_plan(before, a.test, &a.co, &vp, &err) < 0) {
			fprintf(stderr, "flakesweep: %s: %s\n", a.results, err);
			goto out;
		}
		main_seq_package(&o, vp.package);
		cfg.cpu = vp.cpu;
		cfg.load = vp.load;
		cfg.p0 = vp.p0;
		cfg.p1 = vp.p1;
		cfg.test = vp.test->test;
	}
	cwd = getcwd(NULL, 0);
	cfg.repo = cwd != NULL ? cwd : ".";
	cfg.good = a.good;
	cfg.bad = a.bad;
	cfg.outdir = o.outdir;
	cfg.budget = a.budget;
	cfg.sweep = &o;
	o.outdir = NULL;
	rc = bisect_run(&cfg, &b, main_bisect_probed, NULL, &err);
	if (rc < 0) {
		fprintf(stderr, "flakesweep: %s\n", err);
		rc = rc == -EINTR ? 130 : 2;
		goto out;
	}
	text = bisect_to_text(&b);
	fputs(text, stdout);
	free(text);
	rc = bisect_first_bad(&b) != NULL ? 0 : 1;
out:
	free(err);
	free(cwd);
	free((char *)cfg.outdir);
	bisect_free(&b);
	results_free(before);
	options_free(&o);
	return rc;
}

static const struct main_command main_commands[] = {
    {"stress", main_stress}, {"quarantine", quarantine_main}, {"gate", gate_main},
    {"report", main_report}, {"view", follow_main},           {"compare", main_compare},
    {"verify", main_verify}, {"bisect", main_bisect},
};

int
main(int argc, char **argv)
{
	size_t i;

	setlocale(LC_ALL, "");
	/* An uninstalled build finds its catalogues through FLAKESWEEP_LOCALEDIR. */
	bindtextdomain(PACKAGE, getenv("FLAKESWEEP_LOCALEDIR") != NULL
	                            ? getenv("FLAKESWEEP_LOCALEDIR")
	                            : LOCALEDIR);
	textdomain(PACKAGE);

	if (argc >= 2 && (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-version") == 0)) {
		printf("flakesweep %s\n", PACKAGE_VERSION);
		return 0;
	}
	if (argc >= 2 && argv[1][0] != '-') {
		for (i = 0; i < UTIL_ARRAY_LEN(main_commands); i++) {
			if (strcmp(argv[1], main_commands[i].name) == 0)
				return main_commands[i].run(argc - 1, argv + 1);
		}
	}
	return main_stress(argc, argv);
}
