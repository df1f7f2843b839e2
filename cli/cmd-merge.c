/* SPDX-License-Identifier: MIT */
/*
 * cmd-merge.c: `flakesweep merge -o OUT DIR...`. It lets merge.c write
 * one journal from the shards' and rebuilds results.json and report.txt
 * from it as `report --rebuild` does, so a merged directory reads like any
 * other (view, report, compare, and another merge).
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "cmd.h"
#include "base/sanitize.h"
#include "base/util.h"
#include "results/merge.h"

enum {
	CMD_MERGE_OUT,
};

static const struct cli_option cmd_merge_options[] = {
    {"o", true, CMD_MERGE_OUT},
    {NULL, false, 0},
};

static void
cmd_merge_usage(FILE *f)
{
	fputs(_("Usage: flakesweep merge -o OUT DIR...\n"
	        "\n"
	        "Merges the output directories of the shards of one sweep (--shard I/N),\n"
	        "or earlier merges of them, into OUT: one journal with each shard's\n"
	        "provenance, and results.json and report.txt as of one sweep. Shards of\n"
	        "another commit or configuration, and a shard given twice, are refused.\n"
	        "\n"
	        "Exit status: 0 nothing failed or hung; 1 a test failed or hung; 2 usage,\n"
	        "input or infrastructure error.\n"),
	      f);
}

/* OUT must be new or empty, as -o is for a sweep. Returns 1 when it made
 * OUT, 0 when OUT was there and empty, -1 after an error on stderr. */
static int
cmd_merge_outdir(const char *out)
{
	struct dirent *e;
	DIR *d;
	int n = 0;

	if (out[0] == '\0') {
		fputs(_("flakesweep: -o: expected a directory name\n"), stderr);
		return -1;
	}
	d = opendir(out);
	if (d == NULL) {
		if (errno != ENOENT || util_mkdir_p(out) < 0) {
			sanitize_fprintf(stderr, _("flakesweep: cannot create %s: %s\n"), out,
			                 strerror(errno));
			return -1;
		}
		return 1;
	}
	while ((e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			n++;
	closedir(d);
	if (n > 0) {
		sanitize_fprintf(
		    stderr, _("flakesweep: %s is not empty: merge writes a new directory\n"), out);
		return -1;
	}
	return 0;
}

/* A failed merge takes back what it wrote: OUT as it found it. */
static void
cmd_merge_undo(const char *out, bool made)
{
	struct dirent *e;
	char *path;
	DIR *d;

	if (made) {
		util_rm_rf(out);
		return;
	}
	d = opendir(out);
	if (d == NULL)
		return;
	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		path = xasprintf("%s/%s", out, e->d_name);
		util_rm_rf(path);
		free(path);
	}
	closedir(d);
}

static int
cmd_merge(int argc, char **argv)
{
	const char *out = NULL;
	char **warnings = NULL;
	size_t i;
	int made, rc;
	struct cli c = {cmd_merge_options, cli_set_string, &out, 0, 0, NULL, NULL};
	char *err = NULL;

	rc = cli_parse_plain(&c, argc, argv, cmd_merge_usage);
	if (rc != 0)
		return rc > 0 ? 0 : 2;
	if (out == NULL || argc - c.first < 1) {
		fputs(_("flakesweep: usage: flakesweep merge -o OUT DIR...\n"), stderr);
		return 2;
	}
	made = cmd_merge_outdir(out);
	if (made < 0)
		return 2;
	rc = merge_journals(out, argv + c.first, argc - c.first, &warnings, &err);
	for (i = 0; warnings != NULL && warnings[i] != NULL; i++)
		sanitize_fprintf(stderr, "flakesweep: %s\n", warnings[i]);
	util_strv_free(warnings);
	if (rc < 0) {
		sanitize_fprintf(stderr, "flakesweep: %s\n", err);
		free(err);
		cmd_merge_undo(out, made == 1);
		return 2;
	}
	return cmd_report_rebuild(out, 0);
}

const struct cmd_entry cmd_merge_entry = {"merge", cmd_merge};
