/* SPDX-License-Identifier: MIT */
/*
 * cmd-quarantine.c: `flakesweep quarantine list|check|add|remove|export`. It
 * loads the quarantine file and the evidence named on the command line,
 * lets quarantine.c judge the entries and prints them as a table, JSON,
 * check lines or a skip list.
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "cli.h"
#include "cmd.h"
#include "drivers/driver.h"
#include "decisions/ledger.h"
#include "decisions/quarantine-class.h"
#include "decisions/quarantine.h"
#include "results/results-json.h"
#include "results/results.h"
#include "base/jsonw.h"
#include "base/sanitize.h"
#include "base/timefmt.h"
#include "base/util.h"

enum {
	QOPT_FILE,
	QOPT_RESULTS,
	QOPT_LEDGER,
	QOPT_MIN_RUNS,
	QOPT_NOW,
	QOPT_JSON,
	QOPT_OWNER,
	QOPT_ISSUE,
	QOPT_EXPIRES,
	QOPT_REASON,
	QOPT_FORMAT,
	QOPT_PACKAGE,
	QOPT_FORCE,
	QOPT_COUNT,
};

static const struct cli_option cmd_quarantine_options[] = {
    {"file", true, QOPT_FILE},
    {"quarantine", true, QOPT_FILE},
    {"results", true, QOPT_RESULTS},
    {"ledger", true, QOPT_LEDGER},
    {"min-runs", true, QOPT_MIN_RUNS},
    {"now", true, QOPT_NOW},
    {"json", false, QOPT_JSON},
    {"owner", true, QOPT_OWNER},
    {"issue", true, QOPT_ISSUE},
    {"expires", true, QOPT_EXPIRES},
    {"reason", true, QOPT_REASON},
    {"format", true, QOPT_FORMAT},
    {"package", true, QOPT_PACKAGE},
    {"force", false, QOPT_FORCE},
    {NULL, false, 0},
};

/* The spelling of each option in messages, by QOPT_x. */
static const char *const cmd_quarantine_opt_names[] = {
    "--file",  "--results", "--ledger", "--min-runs", "--now",     "--json",  "--owner",
    "--issue", "--expires", "--reason", "--format",   "--package", "--force",
};

/* Which options each subcommand takes, as bits of (1 << QOPT_x). */
#define QBIT(o) (1u << (o))
static const struct {
	const char *name;
	unsigned opts;
	int nargs, max_args; /* arguments: at least nargs, at most max_args */
} cmd_quarantine_commands[] = {
    {"list",
     QBIT(QOPT_FILE) | QBIT(QOPT_RESULTS) | QBIT(QOPT_LEDGER) | QBIT(QOPT_MIN_RUNS) |
         QBIT(QOPT_NOW) | QBIT(QOPT_JSON),
     0, 0},
    {"check",
     QBIT(QOPT_FILE) | QBIT(QOPT_RESULTS) | QBIT(QOPT_LEDGER) | QBIT(QOPT_MIN_RUNS) |
         QBIT(QOPT_NOW),
     0, 0},
    {"add",
     QBIT(QOPT_FILE) | QBIT(QOPT_NOW) | QBIT(QOPT_OWNER) | QBIT(QOPT_ISSUE) | QBIT(QOPT_EXPIRES) |
         QBIT(QOPT_REASON) | QBIT(QOPT_RESULTS) | QBIT(QOPT_FORCE),
     2, 2},
    {"remove", QBIT(QOPT_FILE), 1, 2},
    {"export", QBIT(QOPT_FILE) | QBIT(QOPT_FORMAT) | QBIT(QOPT_PACKAGE), 0, 0},
};

struct cmd_quarantine_args {
	int cmd;        /* index in cmd_quarantine_commands */
	unsigned given; /* QBIT()s of the options named */
	const char *file;
	const char *results_path;
	const char *ledger_path;
	int min_runs;
	int64_t now_ms;
	bool json;
	bool force; /* add: against what the test's class allows */
	const char *owner, *issue, *expires, *reason, *format, *package;
	char **args;
	int nargs;
};

static void
cmd_quarantine_usage(FILE *f)
{
	fputs(
	    _("Usage: flakesweep quarantine list [--file FILE] [--results FILE] [--ledger FILE]\n"
	      "                                  [--min-runs N] [--now TIME] [--json]\n"
	      "       flakesweep quarantine check [--file FILE] [--results FILE] [--ledger FILE]\n"
	      "                                   [--min-runs N] [--now TIME]\n"
	      "       flakesweep quarantine add TEST CHANNEL --owner NAME --issue REF\n"
	      "                                 --expires YYYY-MM-DD [--reason TEXT] [--file FILE]\n"
	      "                                 [--results FILE [--force --reason TEXT]]\n"
	      "       flakesweep quarantine remove TEST [CHANNEL] [--file FILE]\n"
	      "       flakesweep quarantine export --format go-skip|pytest-deselect\n"
	      "                                    [--package PACKAGE] [--file FILE]\n"
	      "\n"
	      "Each entry quarantines one test (PACKAGE::TEST) for one channel: cpu=C,\n"
	      "load=L, cpu=C,load=L, any, clock, rng, net or env:NAME. Its status comes\n"
	      "from the evidence given: active (the cause is still seen), stale (the\n"
	      "evidence shows it gone: remove the entry), overdue (expired and not shown\n"
	      "stale) or unproven (no evidence yet). remove takes out the test's entries\n"
	      "(only the one for CHANNEL when given), keeping the rest of the file as it is.\n"
	      "With --results, add takes only what the test's class there allows: a\n"
	      "test-flake on any channel, a race on the channel where it fails.\n"
	      "\n"
	      "Options:\n"
	      "  --file FILE, --quarantine FILE  the quarantine file (default\n"
	      "                     .flakesweep/quarantine.json in the project root)\n"
	      "  --results FILE     a sweep's results.json, as evidence\n"
	      "  --ledger FILE      an ambient ledger (JSON lines), as evidence\n"
	      "  --min-runs N       clean runs that prove an entry stale (default 100)\n"
	      "  --now TIME         judge at TIME (YYYY-MM-DD or RFC 3339 UTC), not now\n"
	      "  --json             list as JSON\n"
	      "  --format FORMAT    export as go-skip or pytest-deselect\n"
	      "  --package PACKAGE  export only that package's tests\n"
	      "  --force            add against what the test's class allows (needs --reason)\n"
	      "\n"
	      "Exit status: 0 fine; 1 check found a stale, overdue or invalid entry;\n"
	      "2 usage or input error.\n"),
	    f);
}

static int
cmd_quarantine_usage_error(const char *fmt, const char *arg)
{
	fputs("flakesweep: ", stderr);
	sanitize_fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	fputs(_("Try 'flakesweep quarantine --help'.\n"), stderr);
	return 2;
}

static int
cmd_quarantine_set(void *arg, int id, const char *value)
{
	struct cmd_quarantine_args *c = arg;
	char *end;
	long v;

	c->given |= QBIT(id);
	switch (id) {
	case QOPT_FILE:
		c->file = value;
		break;
	case QOPT_RESULTS:
		c->results_path = value;
		break;
	case QOPT_LEDGER:
		c->ledger_path = value;
		break;
	case QOPT_MIN_RUNS:
		errno = 0;
		v = strtol(value, &end, 10);
		if (errno != 0 || *end != '\0' || end == value || v < 1 || v > 1000000000)
			return cmd_quarantine_usage_error(
			    _("invalid value \"%s\" for --min-runs: expected a positive whole number"),
			    value);
		c->min_runs = (int)v;
		break;
	case QOPT_NOW:
		if (timefmt_parse_time(value, &c->now_ms) < 0)
			return cmd_quarantine_usage_error(
			    _("invalid value \"%s\" for --now: expected "
			      "YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ"),
			    value);
		break;
	case QOPT_JSON:
		c->json = true;
		break;
	case QOPT_OWNER:
		c->owner = value;
		break;
	case QOPT_ISSUE:
		c->issue = value;
		break;
	case QOPT_EXPIRES:
		c->expires = value;
		break;
	case QOPT_REASON:
		c->reason = value;
		break;
	case QOPT_FORMAT:
		c->format = value;
		break;
	case QOPT_PACKAGE:
		c->package = value;
		break;
	case QOPT_FORCE:
		c->force = true;
		break;
	}
	return 0;
}

/* Parses argv into c. Returns -1 to go on, else the exit status. */
static int
cmd_quarantine_parse_args(struct cmd_quarantine_args *c, int argc, char **argv)
{
	struct cli p = {cmd_quarantine_options, cmd_quarantine_set, c, 0, 0, NULL, NULL};
	int opt, optind;
	size_t i;

	memset(c, 0, sizeof *c);
	c->cmd = -1;
	c->min_runs = QUARANTINE_DEFAULT_MIN_RUNS;
	c->now_ms = util_now_ms();
	switch (cli_parse(&p, argc, argv)) {
	case CLI_OK:
		break;
	case CLI_HELP:
		cmd_quarantine_usage(stdout);
		return 0;
	case CLI_STOP:
		return p.stop;
	case CLI_NO_VALUE:
		return cmd_quarantine_usage_error(_("option %s needs a value"), p.bad);
	default:
		cli_unknown(&p, "flakesweep quarantine --help");
		return 2;
	}
	optind = p.first;
	if (optind >= argc)
		return cmd_quarantine_usage_error("%s",
		                                  _("quarantine: missing subcommand (list, check, "
		                                    "add, remove or export)"));
	for (i = 0; i < UTIL_ARRAY_LEN(cmd_quarantine_commands); i++) {
		if (strcmp(argv[optind], cmd_quarantine_commands[i].name) == 0)
			c->cmd = (int)i;
	}
	if (c->cmd < 0)
		return cmd_quarantine_usage_error(_("quarantine: unknown subcommand \"%s\""),
		                                  argv[optind]);
	for (opt = QOPT_FILE; opt < QOPT_COUNT; opt++) {
		if ((c->given & QBIT(opt)) && !(cmd_quarantine_commands[c->cmd].opts & QBIT(opt))) {
			fprintf(stderr, _("flakesweep: quarantine %s: %s does not apply\n"),
			        cmd_quarantine_commands[c->cmd].name,
			        cmd_quarantine_opt_names[opt]);
			fputs(_("Try 'flakesweep quarantine --help'.\n"), stderr);
			return 2;
		}
	}
	c->args = argv + optind + 1;
	c->nargs = argc - optind - 1;
	if (c->nargs < cmd_quarantine_commands[c->cmd].nargs ||
	    c->nargs > cmd_quarantine_commands[c->cmd].max_args) {
		if (c->nargs > cmd_quarantine_commands[c->cmd].max_args)
			return cmd_quarantine_usage_error(
			    _("quarantine: unexpected argument \"%s\""),
			    c->args[cmd_quarantine_commands[c->cmd].max_args]);
		if (strcmp(cmd_quarantine_commands[c->cmd].name, "remove") == 0)
			return cmd_quarantine_usage_error(
			    "%s", _("quarantine remove: expected TEST and maybe CHANNEL"));
		return cmd_quarantine_usage_error(
		    "%s", _("quarantine add: expected TEST and CHANNEL, then options"));
	}
	return -1;
}

/* Loads the quarantine file for c. A missing default file is an empty
 * list; a missing named one is an error, except for add, which creates
 * it. Returns NULL after printing the error. */
static struct quarantine *
cmd_quarantine_load(const struct cmd_quarantine_args *c)
{
	char *path = c->file != NULL ? xstrdup(c->file) : quarantine_default_path();
	struct quarantine *q = NULL;
	char *err = NULL;
	int rc = quarantine_load(path, &q, &err);

	if (rc == -ENOENT &&
	    (c->file == NULL || strcmp(cmd_quarantine_commands[c->cmd].name, "add") == 0))
		q = quarantine_new(path);
	else if (rc < 0)
		sanitize_fprintf(stderr, "flakesweep: %s\n", err);
	free(err);
	free(path);
	return q;
}

/* Loads the evidence named on the command line. Returns 0, or 2 after
 * printing the error. */
static int
cmd_quarantine_evidence(const struct cmd_quarantine_args *c, struct results **results,
                        struct ledger **ledger)
{
	char *err = NULL;

	*results = NULL;
	*ledger = NULL;
	if ((c->results_path != NULL && results_load(c->results_path, results, NULL, &err) < 0) ||
	    (c->ledger_path != NULL && ledger_load(c->ledger_path, ledger, &err) < 0)) {
		sanitize_fprintf(stderr, "flakesweep: %s\n", err);
		free(err);
		results_free(*results);
		*results = NULL;
		return 2;
	}
	return 0;
}

/* Prints q's problems to stderr (list, add, export refuse a file with
 * errors). Returns true when there was an error. */
static bool
cmd_quarantine_problems(const struct quarantine *q)
{
	size_t i;

	for (i = 0; i < q->nproblems; i++)
		sanitize_fprintf(stderr, "flakesweep: %s\n", q->problems[i].message);
	return q->nerrors > 0;
}

/* Display width of a UTF-8 string, one column per character. */
static size_t
cmd_quarantine_width(const char *s)
{
	size_t n = 0;

	for (; *s != '\0'; s++)
		n += ((unsigned char)*s & 0xC0) != 0x80;
	return n;
}

static int
cmd_quarantine_list(const struct cmd_quarantine_args *c, struct quarantine *q)
{
	enum { NCOLS = 8 };
	const char *head[NCOLS] = {_("STATUS"), _("TEST"),  _("CHANNEL"), _("EXPIRES"),
	                           _("LEFT"),   _("OWNER"), _("ISSUE"),   _("EVIDENCE")};
	char ***cells;
	size_t width[NCOLS], i, nrows = 0;
	int col;

	if (c->json) {
		cJSON *j = quarantine_to_json(q, c->min_runs, c->now_ms);
		char *s = jsonw_print(j, true);

		printf("%s\n", s);
		free(s);
		cJSON_Delete(j);
		return 0;
	}
	cells = xcalloc(q->nentries + 1, sizeof *cells);
	cells[nrows] = xcalloc(NCOLS, sizeof **cells);
	for (col = 0; col < NCOLS; col++)
		cells[nrows][col] = xstrdup(head[col]);
	nrows++;
	for (i = 0; i < q->nentries; i++) {
		const struct quarantine_entry *e = &q->entries[i];
		char left[48];
		struct buf ev;

		buf_init(&ev);
		quarantine_evidence_describe(e, &e->ev, &ev);
		quarantine_format_countdown(quarantine_countdown_s(e, c->now_ms), left,
		                            sizeof left);
		cells[nrows] = xcalloc(NCOLS, sizeof **cells);
		cells[nrows][0] = xstrdup(quarantine_status_name(e->status));
		cells[nrows][1] = sanitize_text(e->test, strlen(e->test));
		cells[nrows][2] = sanitize_text(e->channel, strlen(e->channel));
		cells[nrows][3] = sanitize_text(e->expires, strlen(e->expires));
		cells[nrows][4] = xstrdup(left);
		cells[nrows][5] = sanitize_text(e->owner, strlen(e->owner));
		cells[nrows][6] = sanitize_text(e->issue, strlen(e->issue));
		cells[nrows][7] = sanitize_text(ev.data, ev.len);
		buf_free(&ev);
		nrows++;
	}
	for (col = 0; col < NCOLS; col++) {
		width[col] = 0;
		for (i = 0; i < nrows; i++) {
			size_t w = cmd_quarantine_width(cells[i][col]);

			width[col] = w > width[col] ? w : width[col];
		}
	}
	for (i = 0; i < nrows; i++) {
		for (col = 0; col < NCOLS; col++) {
			fputs(cells[i][col], stdout);
			if (col + 1 < NCOLS)
				printf("%*s",
				       (int)(width[col] - cmd_quarantine_width(cells[i][col]) + 2),
				       "");
			free(cells[i][col]);
		}
		fputc('\n', stdout);
		free(cells[i]);
	}
	free(cells);
	return 0;
}

struct cmd_quarantine_line {
	int line;
	size_t seq;
	char *text;
};

static int
cmd_quarantine_cmp_lines(const void *a, const void *b)
{
	const struct cmd_quarantine_line *x = a, *y = b;

	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int
cmd_quarantine_check(const struct cmd_quarantine_args *c, struct quarantine *q)
{
	struct cmd_quarantine_line *lines = xcalloc(q->nproblems + q->nentries + 1, sizeof *lines);
	size_t n = 0, i;
	int rc = 0;

	/* Warnings are printed in line order with the rest; only errors, stale
	 * and overdue entries fail the check. */
	for (i = 0; i < q->nproblems; i++) {
		rc |= !q->problems[i].warning;
		lines[n].line = q->problems[i].line;
		lines[n].seq = n;
		lines[n].text = xstrdup(q->problems[i].message);
		n++;
	}
	for (i = 0; i < q->nentries; i++) {
		const struct quarantine_entry *e = &q->entries[i];
		struct buf b;

		if (e->status != QUARANTINE_STALE && e->status != QUARANTINE_OVERDUE)
			continue;
		buf_init(&b);
		if (e->status == QUARANTINE_STALE) {
			buf_printf(&b, _("%s:%d: entry %d: stale: %s [%s]: "), q->path, e->line,
			           e->index, e->test, e->channel);
			quarantine_evidence_describe(e, &e->ev, &b);
			buf_adds(&b, _("; remove the entry"));
		} else {
			buf_printf(&b, _("%s:%d: entry %d: overdue: %s [%s]: expired %s, "),
			           q->path, e->line, e->index, e->test, e->channel, e->expires);
			quarantine_evidence_describe(e, &e->ev, &b);
		}
		lines[n].line = e->line;
		lines[n].seq = n;
		lines[n].text = buf_steal(&b);
		n++;
		rc = 1;
	}
	if (n > 1)
		qsort(lines, n, sizeof *lines, cmd_quarantine_cmp_lines);
	for (i = 0; i < n; i++) {
		sanitize_fprintf(stdout, "%s\n", lines[i].text);
		free(lines[i].text);
	}
	free(lines);
	return rc;
}

/* add --results: the test's class there, into ne; refused (after saying
 * why) when the class does not allow the channel and --force --reason
 * does not override it. Returns 0 or -1. */
static int
cmd_quarantine_class(const struct cmd_quarantine_args *c, struct quarantine_new_entry *ne,
                     enum classify_class *klass)
{
	struct results *r = NULL;
	struct results_meta meta;
	const struct results_test *t;
	char *err = NULL, *why;
	int rc = 0;

	memset(&meta, 0, sizeof meta);
	if (results_load(c->results_path, &r, &meta, &err) < 0) {
		sanitize_fprintf(stderr, "flakesweep: %s\n", err);
		free(err);
		return -1;
	}
	t = quarantine_results_test(r, ne->test);
	*klass = t != NULL ? meta.tests[t - r->tests].klass : CLASSIFY_NONE;
	/* Evidence that does not name the test allows nothing. */
	why = t == NULL
	          ? xasprintf(_("%s is no test of these results: check its id, or add it "
	                        "without --results"),
	                      ne->test)
	          : quarantine_class_refusal(ne->test, *klass,
	                                     meta.tests[t - r->tests].class_channel, ne->channel);
	ne->klass = classify_name(*klass);
	if (why != NULL && c->force && c->reason != NULL) {
		ne->forced = true;
	} else if (why != NULL) {
		sanitize_fprintf(stderr,
		                 _("flakesweep: quarantine add: %s (%s; --force --reason TEXT adds "
		                   "it all the same)\n"),
		                 why, c->results_path);
		rc = -1;
	}
	free(why);
	results_meta_free(&meta);
	results_free(r);
	return rc;
}

static int
cmd_quarantine_add(const struct cmd_quarantine_args *c, struct quarantine *q)
{
	struct quarantine_new_entry ne;
	const struct quarantine_entry *e;
	enum classify_class klass = CLASSIFY_NONE;
	char *err = NULL;
	int rc;

	if (c->force && (c->results_path == NULL || c->reason == NULL))
		return cmd_quarantine_usage_error(
		    "%s", _("quarantine add: --force needs --results and --reason"));

	if (cmd_quarantine_problems(q))
		return 2;
	memset(&ne, 0, sizeof ne);
	ne.test = c->args[0];
	ne.channel = c->args[1];
	ne.reason = c->reason;
	ne.owner = c->owner;
	ne.issue = c->issue;
	ne.expires = c->expires;
	if (c->results_path != NULL && cmd_quarantine_class(c, &ne, &klass) < 0)
		return 2;
	rc = quarantine_add(q, &ne, c->now_ms, &err);
	if (rc < 0) {
		sanitize_fprintf(stderr, _("flakesweep: quarantine add: %s\n"), err);
		free(err);
		return 2;
	}
	e = &q->entries[q->nentries - 1];
	sanitize_fprintf(stdout, _("%s:%d: entry %d: added %s [%s], expires %s\n"), q->path,
	                 e->line, e->index, e->test, e->channel, e->expires);
	if (ne.forced)
		sanitize_fprintf(stdout, _("forced: %s is %s\n"), e->test, classify_name(klass));
	return 0;
}

static int
cmd_quarantine_remove(const struct cmd_quarantine_args *c, struct quarantine *q)
{
	const char *channel = c->nargs > 1 ? c->args[1] : NULL;
	char *err = NULL;
	int rc, removed = 0;

	if (cmd_quarantine_problems(q))
		return 2;
	rc = quarantine_remove(q, c->args[0], channel, &removed, &err);
	if (rc < 0) {
		sanitize_fprintf(stderr, _("flakesweep: quarantine remove: %s\n"), err);
		free(err);
		return 2;
	}
	sanitize_fprintf(stdout,
	                 ngettext("%s: removed %d entry of %s\n", "%s: removed %d entries of %s\n",
	                          (unsigned long)removed),
	                 q->path, removed, c->args[0]);
	return 0;
}

/* Where export finds the packages' modules: the directory that holds the
 * quarantine file's .flakesweep, else the current one. Caller frees. */
static char *
cmd_quarantine_root(const struct quarantine *q)
{
	char *path = realpath(q->path, NULL), *slash;
	const char *dot = "/.flakesweep/";

	if (path != NULL && (slash = strrchr(path, '/')) != NULL && slash - path >= 12 &&
	    strncmp(slash - 12, dot, 13) == 0) {
		slash[-12] = '\0';
		return path;
	}
	free(path);
	return getcwd(NULL, 0);
}

static int
cmd_quarantine_export(const struct cmd_quarantine_args *c, struct quarantine *q)
{
	const struct driver *drv;
	char *text, *root;

	if (c->format == NULL)
		return cmd_quarantine_usage_error("%s", _("quarantine export: --format is required "
		                                          "(go-skip or pytest-deselect)"));
	/* pytest runs through the tap driver, which deselects its tests. */
	if (strcmp(c->format, "go-skip") == 0)
		drv = &driver_go;
	else if (strcmp(c->format, "pytest-deselect") == 0)
		drv = &driver_tap;
	else
		return cmd_quarantine_usage_error(
		    _("invalid value \"%s\" for --format: expected go-skip "
		      "or pytest-deselect"),
		    c->format);
	if (cmd_quarantine_problems(q))
		return 2;
	root = cmd_quarantine_root(q);
	text = quarantine_export(q, drv, c->package, root);
	sanitize_write(stdout, text, strlen(text));
	free(text);
	free(root);
	return 0;
}

static int
cmd_quarantine(int argc, char **argv)
{
	struct cmd_quarantine_args c;
	struct quarantine *q = NULL;
	struct ledger *ledger = NULL;
	struct results *results = NULL;
	const char *cmd;
	int rc;

	rc = cmd_quarantine_parse_args(&c, argc, argv);
	if (rc >= 0)
		return rc;
	cmd = cmd_quarantine_commands[c.cmd].name;
	q = cmd_quarantine_load(&c);
	if (q == NULL)
		return 2;
	if (strcmp(cmd, "list") == 0 || strcmp(cmd, "check") == 0) {
		rc = cmd_quarantine_evidence(&c, &results, &ledger);
		if (rc != 0)
			goto out;
		quarantine_evaluate(q, results, ledger, c.min_runs, c.now_ms);
	}
	if (strcmp(cmd, "list") == 0)
		rc = cmd_quarantine_problems(q) ? 2 : cmd_quarantine_list(&c, q);
	else if (strcmp(cmd, "check") == 0)
		rc = cmd_quarantine_check(&c, q);
	else if (strcmp(cmd, "add") == 0)
		rc = cmd_quarantine_add(&c, q);
	else if (strcmp(cmd, "remove") == 0)
		rc = cmd_quarantine_remove(&c, q);
	else
		rc = cmd_quarantine_export(&c, q);
out:
	results_free(results);
	ledger_free(ledger);
	quarantine_free(q);
	return rc;
}

const struct cmd_entry cmd_quarantine_entry = {"quarantine", cmd_quarantine};
