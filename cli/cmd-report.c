/* SPDX-License-Identifier: MIT */
/*
 * cmd-report.c: `flakesweep report`: the bug report of one flaky test,
 * printed (--dry-run) or posted to GitHub Discussions; and `report
 * --rebuild DIR`, which writes results.json and report.txt again from the
 * journal in DIR.
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uv.h>

#include "cli.h"
#include "cmd.h"
#include "drivers/driver.h"
#include "github/github.h"
#include "engine/cpu-shim.h"
#include "engine/options.h"
#include "github/post-close.h"
#include "github/post-dry.h"
#include "github/post.h"
#include "decisions/quarantine.h"
#include "results/replay.h"
#include "results/report.h"
#include "base/sanitize.h"
#include "engine/sweep-config.h"
#include "engine/sweep.h"
#include "base/util.h"

enum {
	CMD_REPORT_RESULTS,
	CMD_REPORT_TEST,
	CMD_REPORT_DESCRIPTION,
	CMD_REPORT_NOTES,
	CMD_REPORT_DRY_RUN,
	CMD_REPORT_REBUILD,
	CMD_REPORT_CLOSE,
	CMD_REPORT_VERIFIED,
};

static const struct cli_option cmd_report_options[] = {
    {"results", true, CMD_REPORT_RESULTS},
    {"test", true, CMD_REPORT_TEST},
    {"description", true, CMD_REPORT_DESCRIPTION},
    {"notes", true, CMD_REPORT_NOTES},
    CLI_GITHUB_OPTIONS,
    {"dry-run", false, CMD_REPORT_DRY_RUN},
    {"rebuild", true, CMD_REPORT_REBUILD},
    {"close", false, CMD_REPORT_CLOSE},
    {"verified", true, CMD_REPORT_VERIFIED},
    {NULL, false, 0},
};

struct cmd_report_args {
	const char *results, *test, *desc_path, *notes_path, *rebuild, *verified;
	struct cli_github gh;
	bool dry_run, close;
	int nopts;
};

static void
cmd_report_usage(FILE *f)
{
	fputs(_("Usage: flakesweep report --results FILE --test ID [--description FILE]\n"
	        "                         [--notes FILE] [--repo OWNER/NAME] [--category NAME]\n"
	        "                         [--api-url URL] [--dry-run]\n"
	        "       flakesweep report --close --test ID --verified DIR [--repo OWNER/NAME]\n"
	        "                         [--api-url URL] [--dry-run]\n"
	        "\n"
	        "Posts the bug report of one flaky test to the repository's GitHub\n"
	        "Discussions, in the category \"Bugs\" unless --category names another.\n"
	        "The description and notes (Markdown without headings; - reads standard\n"
	        "input) go into a fixed template with the measured rates, the first\n"
	        "failure and the commands that reproduce it. When an open discussion\n"
	        "already names the test, the new evidence is added to it as a comment;\n"
	        "one closed as fixed is reopened with a comment saying it failed again.\n"
	        "Nothing is posted for a test that is not flaky, or when an open issue\n"
	        "names it.\n"
	        "\n"
	        "With --close, the verify record DIR/verify.json (verify -o DIR) must say\n"
	        "the test is fixed, at the commit checked out here, with no uncommitted\n"
	        "edit; then its evidence is added to the test's open discussion, which is\n"
	        "closed as resolved. Anything else exits 2 saying why.\n"
	        "\n"
	        "  --results FILE      results.json of the sweep\n"
	        "  --test ID           the test, as PACKAGE::TEST\n"
	        "  --description FILE  what happens, written by a person (needed for a new\n"
	        "                      discussion; a comment's text otherwise)\n"
	        "  --notes FILE        more to say, after the measurements\n"
	        "  --repo OWNER/NAME   the repository (default: the project's origin remote)\n"
	        "  --category NAME     the discussion category (default Bugs)\n"
	        "  --api-url URL       the GraphQL endpoint (https; http only on loopback)\n"
	        "  --dry-run           print the title and body (without --description,\n"
	        "                      the comment), then each GraphQL request and its\n"
	        "                      variables; send nothing\n"
	        "\n"
	        "The token comes from GH_TOKEN or GITHUB_TOKEN (GH_ENTERPRISE_TOKEN or\n"
	        "GITHUB_ENTERPRISE_TOKEN when GH_HOST names a GitHub Enterprise host).\n"
	        "\n"
	        "Exit status: 0 posted or commented (its URL on standard output) or\n"
	        "printed; 2 a usage or input error, a refusal, a GitHub error, or an open\n"
	        "issue that already names the test (its URL on standard output).\n"),
	      f);
}

static char *
cmd_report_read_text(const char *path, const char *what, int *rc)
{
	char *text = NULL;
	size_t len = 0;

	if (strcmp(path, "-") == 0) {
		struct buf b;
		char chunk[4096];
		size_t n;

		buf_init(&b);
		while ((n = fread(chunk, 1, sizeof chunk, stdin)) > 0) {
			if (b.len + n > POST_TEXT_MAX) {
				buf_free(&b);
				*rc = -EFBIG;
				fprintf(
				    stderr,
				    _("flakesweep: the %s text on standard input is over %d bytes\n"),
				    what, POST_TEXT_MAX);
				return NULL;
			}
			buf_add(&b, chunk, n);
		}
		*rc = 0;
		return buf_steal(&b);
	}
	*rc = util_read_file(path, POST_TEXT_MAX, &text, &len);
	if (*rc == -EFBIG)
		fprintf(stderr, _("flakesweep: the %s file is over %d bytes: %s\n"), what,
		        POST_TEXT_MAX, path);
	else if (*rc < 0)
		fprintf(stderr, _("flakesweep: cannot read the %s file %s: %s\n"), what, path,
		        strerror(-*rc));
	if (*rc == 0 && memchr(text, '\0', len) != NULL) {
		fprintf(stderr, _("flakesweep: the %s file %s is not text\n"), what, path);
		free(text);
		*rc = -EINVAL;
		return NULL;
	}
	return *rc == 0 ? text : NULL;
}

static int
cmd_report_set(void *arg, int id, const char *value)
{
	struct cmd_report_args *a = arg;

	a->nopts++;
	if (cli_github_set(&a->gh, id, value))
		return 0;
	switch (id) {
	case CMD_REPORT_RESULTS:
		a->results = value;
		break;
	case CMD_REPORT_TEST:
		a->test = value;
		break;
	case CMD_REPORT_DESCRIPTION:
		a->desc_path = value;
		break;
	case CMD_REPORT_NOTES:
		a->notes_path = value;
		break;
	case CMD_REPORT_DRY_RUN:
		a->dry_run = true;
		break;
	case CMD_REPORT_REBUILD:
		a->rebuild = value;
		break;
	case CMD_REPORT_CLOSE:
		a->close = true;
		break;
	case CMD_REPORT_VERIFIED:
		a->verified = value;
		break;
	}
	return 0;
}

static void
cmd_report_reproduce(void *arg, const struct results_test *t, const struct results_cell *c,
                     char **flakesweep, char **direct)
{
	sweep_repro_commands(arg, t, c, flakesweep, direct);
}

/* `report --rebuild DIR`: results.json and report.txt again, from the
 * journal alone (a simulated sweep's only with flags REPLAY_SIMULATED:
 * `plan -o`'s). Returns the exit status the sweep would have had. */
int
cmd_report_rebuild(const char *dir, unsigned flags)
{
	struct replay r;
	struct report_meta m;
	struct sweep_repro rp;
	struct options o;
	struct quarantine *q = NULL;
	char *path = xasprintf("%s/journal.jsonl", dir), *err = NULL;
	cJSON *header = NULL;
	size_t i;
	int rc;

	options_init(&o);
	rc = replay_journal_flags(path, flags, &r, &err);
	free(path);
	if (rc < 0) {
		fprintf(stderr, "flakesweep: %s\n", err);
		rc = 2;
		goto out;
	}
	if (r.torn)
		fprintf(stderr, "flakesweep: %s\n",
		        _("the journal's last line was torn and is ignored"));
	for (i = 0; i < r.run_ids.nwarnings; i++)
		fprintf(stderr, "flakesweep: %s\n", r.run_ids.warnings[i]);
	sweep_config_to_options(&r.header.config, &o);
	/* The reproduce lines preload the CPU shim as the runs did. */
	if (o.cpu_shim && strcmp(o.driver, "go") != 0) {
		char *shim = cpu_shim_find();

		for (i = 0; shim != NULL && i < r.npkgs; i++)
			if (r.pkgs[i]->driver_data == NULL)
				r.pkgs[i]->driver_data = xstrdup(shim);
		free(shim);
	}
	memset(&rp, 0, sizeof rp);
	rp.driver = driver_find(o.driver) != NULL ? driver_find(o.driver) : &driver_go;
	rp.o = &o;
	rp.config = &r.header.config;
	rp.root = r.header.project.root;
	/* The first lane as the journal recorded it, for the reproduce lines. */
	if (r.header.machine.nlanes > 0) {
		rp.cores = r.header.machine.lanes;
		rp.width = r.header.machine.width;
	}
	rp.pkgs = r.pkgs;
	rp.npkgs = r.npkgs;
	if (o.quarantine != NULL && quarantine_load(o.quarantine, &q, &err) < 0) {
		fprintf(stderr, "flakesweep: %s\n", err);
		free(err);
		err = NULL;
	}
	memset(&m, 0, sizeof m);
	m.status = r.end_status != NULL ? r.end_status : "interrupted";
	m.simulated = r.header.simulated;
	m.started_ms = r.started_ms;
	m.finished_ms = r.finished_ms;
	header = journal_header_encode(&r.header);
	journal_header_parts(header, &m.config, &m.machine, &m.project);
	m.machines = r.parts;
	m.pkgs = r.pkgs;
	m.npkgs = r.npkgs;
	m.reproduce = cmd_report_reproduce;
	m.arg = &rp;
	m.quarantine = q;
	m.now_ms = util_now_ms();
	if (report_write(dir, r.results, &m, &err) < 0) {
		fprintf(stderr, "flakesweep: %s\n", err);
		rc = 2;
	} else {
		rc = report_exit_status(r.results, &m);
	}
out:
	free(err);
	cJSON_Delete(header);
	quarantine_free(q);
	options_free(&o);
	replay_free(&r);
	return rc;
}

struct cmd_report_post {
	int status;
};

static void
cmd_report_note(const char *line, void *data)
{
	(void)data;
	sanitize_fprintf(stderr, "flakesweep: %s\n", line);
}

static void
cmd_report_done(const struct post_result *r, void *data)
{
	struct cmd_report_post *posted = data;

	switch (r->status) {
	case POST_POSTED:
		sanitize_fprintf(stdout, "%s\n", r->url);
		if (r->message != NULL)
			sanitize_fprintf(stderr, "flakesweep: %s\n", r->message);
		posted->status = 0;
		break;
	case POST_COMMENTED:
	case POST_CLOSED:
		sanitize_fprintf(stdout, "%s\n", r->url);
		sanitize_fprintf(stderr, "flakesweep: %s\n", r->message);
		posted->status = 0;
		break;
	case POST_EXISTS:
		sanitize_fprintf(stdout, "%s\n", r->url);
		sanitize_fprintf(stderr, "flakesweep: %s\n", r->message);
		posted->status = 2;
		break;
	default:
		sanitize_fprintf(stderr, "flakesweep: %s\n", r->message != NULL ? r->message : "?");
		posted->status = 2;
		break;
	}
	fflush(stdout);
}

/* Posts through post.h on a loop of its own; the exit status. */
static int
cmd_report_run(struct post_draft *d, const struct cli_github *gh, const char *close_comment)
{
	struct post_options o;
	struct cmd_report_post posted = {2};
	struct post *p;
	uv_loop_t loop;
	char *err = NULL;
	int status = 2;

	post_options_init(&o);
	o.category = gh->category;
	o.github.api_url = gh->api_url;
	o.github.note = cmd_report_note;
	o.close_comment = close_comment;
	uv_loop_init(&loop);
	if (post_start(&loop, d, &o, cmd_report_done, &posted, &p, &err) < 0) {
		sanitize_fprintf(stderr, "flakesweep: %s\n", err);
	} else {
		uv_run(&loop, UV_RUN_DEFAULT);
		status = posted.status;
	}
	uv_loop_close(&loop);
	free(err);
	return status;
}

/* A dry run: text (what a person reads: the post or the comment), then
 * each request the post would send; nothing is sent. The exit status. */
static int
cmd_report_dry(const struct post_draft *d, const struct cli_github *gh, const char *close_comment,
               const char *text)
{
	struct post_options o;
	char *requests, *err = NULL;

	post_options_init(&o);
	o.category = gh->category;
	o.github.api_url = gh->api_url;
	o.close_comment = close_comment;
	requests = post_dry_text(d, &o, &err);
	if (requests == NULL) {
		sanitize_fprintf(stderr, "flakesweep: %s\n", err);
		free(err);
		return 2;
	}
	sanitize_fprintf(stdout, "%s%s", text, requests);
	free(requests);
	return 0;
}

/* `report --close --test ID --verified DIR`: the verified fix closes the
 * test's discussion. */
static int
cmd_report_close(const struct cmd_report_args *a)
{
	struct post_draft *d = NULL;
	char *comment = NULL, *err = NULL;
	int status = 2;

	if (!a->close || a->verified == NULL || a->test == NULL || a->results != NULL ||
	    a->desc_path != NULL || a->notes_path != NULL) {
		fprintf(stderr, "%s\n",
		        _("flakesweep: usage: flakesweep report --close --test ID --verified DIR"));
		return 2;
	}
	if (post_close_prepare(a->verified, a->test, ".", a->gh.repo, &d, &comment, &err) < 0) {
		sanitize_fprintf(stderr, "flakesweep: %s\n", err);
		goto out;
	}
	if (a->dry_run) {
		status = cmd_report_dry(d, &a->gh, comment, comment);
		goto out;
	}
	status = cmd_report_run(d, &a->gh, comment);
	d = NULL;
out:
	post_draft_free(d);
	free(comment);
	free(err);
	return status;
}

static int
cmd_report(int argc, char **argv)
{
	struct cmd_report_args a;
	struct cli c = {cmd_report_options, cmd_report_set, &a, 0, 0, NULL, NULL};
	char *description = NULL, *notes = NULL, *err = NULL;
	struct post_input in;
	struct post_draft *d = NULL;
	int rc, status = 2;

	memset(&a, 0, sizeof a);
	switch (cli_parse(&c, argc, argv)) {
	case CLI_OK:
		break;
	case CLI_HELP:
		cmd_report_usage(stdout);
		return 0;
	case CLI_NO_VALUE:
		fprintf(stderr, _("flakesweep: option %s needs a value\n"), c.bad);
		return 2;
	default:
		cli_unknown(&c, "flakesweep report --help");
		return 2;
	}
	if (a.rebuild != NULL) {
		if (a.nopts != 1 || c.first < argc) {
			fprintf(stderr, "%s\n",
			        _("flakesweep: usage: flakesweep report --rebuild DIR"));
			return 2;
		}
		return cmd_report_rebuild(a.rebuild, 0);
	}
	if (c.first < argc) {
		sanitize_fprintf(stderr, _("flakesweep: report takes no arguments: %s\n"),
		                 argv[c.first]);
		return 2;
	}
	if (a.close || a.verified != NULL)
		return cmd_report_close(&a);
	if (a.results == NULL || a.test == NULL) {
		fprintf(stderr, "%s\n",
		        _("flakesweep: report needs --results FILE and --test ID (see flakesweep "
		          "report --help)"));
		return 2;
	}
	if (a.gh.category != NULL && *a.gh.category == '\0') {
		fprintf(stderr, "%s\n", _("flakesweep: --category is empty"));
		return 2;
	}
	if (a.gh.api_url != NULL) {
		char *url = github_endpoint(a.gh.api_url, &err);

		if (url == NULL) {
			sanitize_fprintf(stderr, "flakesweep: %s\n", err);
			free(err);
			return 2;
		}
		free(url);
	}
	if (a.desc_path != NULL) {
		description = cmd_report_read_text(a.desc_path, _("description"), &rc);
		if (rc < 0)
			goto out;
	}
	if (a.notes_path != NULL) {
		notes = cmd_report_read_text(a.notes_path, _("notes"), &rc);
		if (rc < 0)
			goto out;
	}
	memset(&in, 0, sizeof in);
	in.results_path = a.results;
	in.test_id = a.test;
	in.description = description;
	in.notes = notes;
	in.repo = a.gh.repo;
	rc = post_draft_new(&in, &d, &err);
	if (rc < 0) {
		sanitize_fprintf(stderr, "flakesweep: %s\n", err);
		goto out;
	}
	if (a.dry_run) {
		/* Without a description only a comment can be posted. */
		char *text = description == NULL
		                 ? post_draft_comment(d, false)
		                 : xasprintf("%s\n\n%s", post_draft_title(d), post_draft_body(d));

		status = cmd_report_dry(d, &a.gh, NULL, text);
		free(text);
		goto out;
	}
	status = cmd_report_run(d, &a.gh, NULL);
	d = NULL;
out:
	post_draft_free(d);
	free(err);
	free(description);
	free(notes);
	return status;
}

const struct cmd_entry cmd_report_entry = {"report", cmd_report};
