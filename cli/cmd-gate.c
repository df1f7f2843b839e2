/* SPDX-License-Identifier: MIT */
/*
 * cmd-gate.c: `flakesweep gate BASE HEAD [--control HEAD2] [--probe]`. It
 * loads the ledgers, lets gate.c judge them, sweeps the probe tests when
 * asked (gate-probe.c) and prints one verdict per line or JSON.
 */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cli.h"
#include "cmd.h"
#include "decisions/gate-probe.h"
#include "decisions/gate.h"
#include "decisions/ledger.h"
#include "base/jsonw.h"
#include "base/sanitize.h"
#include "base/util.h"

enum {
	CMD_GATE_CONTROL,
	CMD_GATE_PROBE,
	CMD_GATE_PROBE_DIR,
	CMD_GATE_PROBE_COUNT,
	CMD_GATE_PROBE_OUT,
	CMD_GATE_INTEGRATION,
	CMD_GATE_ALLOW_ENV,
	CMD_GATE_JSON,
};

static const struct cli_option cmd_gate_options[] = {
    {"control", true, CMD_GATE_CONTROL},
    {"probe", false, CMD_GATE_PROBE},
    {"probe-dir", true, CMD_GATE_PROBE_DIR},
    {"probe-count", true, CMD_GATE_PROBE_COUNT},
    {"probe-out", true, CMD_GATE_PROBE_OUT},
    {"integration", true, CMD_GATE_INTEGRATION},
    {"allow-env", true, CMD_GATE_ALLOW_ENV},
    {"json", false, CMD_GATE_JSON},
    {NULL, false, 0},
};

struct cmd_gate_args {
	struct gate_options o;
	struct gate_probe_options po;
	const char *control;
	bool probe, json;
};

static void
cmd_gate_usage(FILE *f)
{
	fputs(_("Usage: flakesweep gate BASE HEAD [--control HEAD2] [--integration RE]\n"
	        "                       [--allow-env LIST] [--json] [--probe [--probe-dir DIR]\n"
	        "                       [--probe-count N] [--probe-out DIR]]\n"
	        "\n"
	        "Compares two ambient ledgers (JSON lines of test, outcome and channels,\n"
	        "written by the same suite on the base and the head tree) and gives one\n"
	        "verdict per test whose channels grew: block (a socket outside an\n"
	        "integration path), needs-freeze (an environment read not allowed, or\n"
	        "clock or rng added to a test that failed in head), probe (clock or rng\n"
	        "added, no failure yet) or allow. A test whose channels differ between\n"
	        "HEAD and the control HEAD2 is unstable and gets no verdict.\n"
	        "\n"
	        "Options:\n"
	        "  --control HEAD2    a second ledger of the head tree\n"
	        "  --integration RE   extended regular expression matched against the\n"
	        "                     test id: integration tests may open sockets\n"
	        "                     (default: integration)\n"
	        "  --allow-env LIST   environment names whose reads are allowed\n"
	        "                     (comma-separated, default CI)\n"
	        "  --json             print the verdicts as JSON\n"
	        "  --probe            sweep the probe tests (pytest node ids, run in\n"
	        "                     --probe-dir, default .) --probe-count times (20)\n"
	        "                     at each pair; a failure makes them needs-freeze\n"
	        "  --probe-out DIR    the probe sweep's output directory\n"
	        "\n"
	        "Exit status: 0 nothing blocked; 1 a test is blocked; 2 usage or input\n"
	        "error.\n"),
	      f);
}

static int
cmd_gate_usage_error(const char *fmt, const char *arg)
{
	fputs("flakesweep: ", stderr);
	sanitize_fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	fputs(_("Try 'flakesweep gate --help'.\n"), stderr);
	return 2;
}

static void
cmd_gate_print(const struct gate_result *r)
{
	size_t i;

	for (i = 0; i < r->nrows; i++)
		sanitize_fprintf(stdout, "%-12s  %s  %s\n", gate_verdict_name(r->rows[i].verdict),
		                 r->rows[i].test, r->rows[i].reason);
	fprintf(stderr,
	        _("gate: %zu block, %zu needs-freeze, %zu probe, %zu allow, %zu unstable\n"),
	        r->counts[GATE_BLOCK], r->counts[GATE_NEEDS_FREEZE], r->counts[GATE_PROBE],
	        r->counts[GATE_ALLOW], r->counts[GATE_UNSTABLE]);
}

static int
cmd_gate_set(void *arg, int id, const char *value)
{
	struct cmd_gate_args *a = arg;
	char *end;
	long v;

	switch (id) {
	case CMD_GATE_CONTROL:
		a->control = value;
		break;
	case CMD_GATE_PROBE:
		a->probe = true;
		break;
	case CMD_GATE_PROBE_DIR:
		a->po.dir = value;
		break;
	case CMD_GATE_PROBE_OUT:
		a->po.outdir = value;
		break;
	case CMD_GATE_PROBE_COUNT:
		v = strtol(value, &end, 10);
		if (*end != '\0' || end == value || v < 1 || v > 1000000)
			return cmd_gate_usage_error(_("invalid value \"%s\" for --probe-count: "
			                              "expected a positive whole number"),
			                            value);
		a->po.count = (int)v;
		break;
	case CMD_GATE_INTEGRATION:
		a->o.integration = value;
		break;
	case CMD_GATE_ALLOW_ENV:
		a->o.allow_env = value;
		break;
	case CMD_GATE_JSON:
		a->json = true;
		break;
	}
	return 0;
}

static int
cmd_gate(int argc, char **argv)
{
	struct cmd_gate_args a = {{NULL, NULL}, {NULL, NULL, 20, true}, NULL, false, false};
	struct cli c = {cmd_gate_options, cmd_gate_set, &a, 0, 0, NULL, NULL};
	struct ledger *l[3] = {NULL, NULL, NULL};
	struct gate_result r;
	const char *paths[3];
	char *err = NULL;
	int i, rc = 2;

	memset(&r, 0, sizeof r);
	switch (cli_parse(&c, argc, argv)) {
	case CLI_OK:
		break;
	case CLI_HELP:
		cmd_gate_usage(stdout);
		return 0;
	case CLI_STOP:
		return c.stop;
	case CLI_NO_VALUE:
		return cmd_gate_usage_error(_("option %s needs a value"), c.bad);
	default:
		cli_unknown(&c, "flakesweep gate --help");
		return 2;
	}
	if (argc - c.first != 2)
		return cmd_gate_usage_error("%s", _("gate: expected two ledgers, BASE and HEAD"));
	paths[0] = argv[c.first];
	paths[1] = argv[c.first + 1];
	paths[2] = a.control;
	for (i = 0; i < 3; i++) {
		if (paths[i] != NULL && ledger_load(paths[i], &l[i], &err) < 0) {
			sanitize_fprintf(stderr, "flakesweep: %s\n", err);
			goto out;
		}
	}
	if (gate_compare(l[0], l[1], l[2], &a.o, &r, &err) < 0) {
		rc = cmd_gate_usage_error("%s", err);
		goto out;
	}
	/* Probe tests are swept; a failure promotes them to needs-freeze. */
	a.po.progress = !a.json;
	if (a.probe && gate_probe(&r, &a.po, &err) < 0) {
		sanitize_fprintf(stderr, "flakesweep: %s\n", err);
		goto out;
	}
	if (a.json) {
		cJSON *j = gate_result_json(&r);
		char *s = jsonw_print(j, true);

		printf("%s\n", s);
		free(s);
		cJSON_Delete(j);
	} else {
		cmd_gate_print(&r);
	}
	rc = r.counts[GATE_BLOCK] > 0 ? 1 : 0;
out:
	free(err);
	gate_result_free(&r);
	for (i = 0; i < 3; i++)
		ledger_free(l[i]);
	return rc;
}

const struct cmd_entry cmd_gate_entry = {"gate", cmd_gate};
