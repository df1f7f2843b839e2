/* SPDX-License-Identifier: MIT */
/*
 * main.c: the composition root. It sets up the locale, picks the
 * subcommand, parses its options and hands over to the module that runs
 * it. Nothing else in flakesweep is global.
 */
#include "config.h"

#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <uv.h>

#include "follow.h"
#include "gate.h"
#include "options.h"
#include "out-line.h"
#include "post.h"
#include "quarantine.h"
#include "sanitize.h"
#include "sweep.h"
#include "ui.h"
#include "util.h"

#define MAIN_PROGRESS_MS 5000

static void
main_signal_cb(uv_signal_t *h, int signum)
{
	(void)signum;
	sweep_interrupt(h->data);
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

	/* From memory: the files may be missing when the disk filled up. */
	if (o->json
	        ? sweep_results(s)->npkgs > 0
	        : sweep_phase(s) == SWEEP_PHASE_DONE && (rc != 2 || sweep_results(s)->runs > 0)) {
		char *text = sweep_report(s, o->json);

		sanitize_write(stdout, text, strlen(text));
		fflush(stdout);
		free(text);
	}
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
		uv_signal_start(&sigs[i], main_signal_cb, signums[i]);
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

static const struct main_command main_commands[] = {
    {"stress", main_stress}, {"quarantine", quarantine_main}, {"gate", gate_main},
    {"report", main_report}, {"view", follow_main},
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
