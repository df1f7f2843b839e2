/* SPDX-License-Identifier: MIT */
/*
 * cli.c: the option parser every subcommand shares (see cli.h). It builds
 * getopt_long_only's table from the command's own, so the Go and GNU
 * spellings behave the same in every command. Names are taken whole: a
 * prefix is an unknown option, so --for can never be read as --force.
 */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "base/sanitize.h"
#include "base/util.h"

/* getopt's values for the table's options: above every character. */
#define CLI_FIRST 256

/* The edit distance between a and b (insertions, deletions, changes and
 * swaps of two neighbours), or CLI_FAR when it is over CLI_NEAR. */
#define CLI_NEAR 2
#define CLI_FAR (CLI_NEAR + 1)
static int
cli_distance(const char *a, size_t na, const char *b)
{
	size_t nb = strlen(b), i, j;
	int d[64][64], best;

	if (na >= 64 || nb >= 64 || (na > nb ? na - nb : nb - na) > CLI_NEAR)
		return CLI_FAR;
	for (i = 0; i <= na; i++)
		d[i][0] = (int)i;
	for (j = 0; j <= nb; j++)
		d[0][j] = (int)j;
	for (i = 1; i <= na; i++) {
		for (j = 1; j <= nb; j++) {
			best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
			if (d[i - 1][j] + 1 < best)
				best = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < best)
				best = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    d[i - 2][j - 2] + 1 < best)
				best = d[i - 2][j - 2] + 1;
			d[i][j] = best;
		}
	}
	return d[na][nb] > CLI_NEAR ? CLI_FAR : d[na][nb];
}

/* The options of tables a and b that the unknown bad begins ("--conf" for
 * --confirm; "--fo" for --for, --force: several joined by ", --"), or
 * else the long option nearest to it ("--cuont=20"), when one is near
 * enough to be a slip of the fingers. Several are joined in a buffer the
 * next call reuses. */
const char *
cli_nearest_of(const struct cli_option *a, const struct cli_option *b, const char *bad)
{
	static char joined[256];
	const struct cli_option *tables[2] = {a, b}, *t;
	const char *name = NULL, *begun = NULL;
	size_t i, k, n, nbegun = 0, len = 0;
	int best = CLI_FAR, d;

	bad += strspn(bad, "-");
	n = strcspn(bad, "=");
	if (n < 2)
		return NULL;
	joined[0] = '\0';
	for (k = 0; k < 2 && (t = tables[k]) != NULL; k++) {
		for (i = 0; t[i].name != NULL; i++) {
			d = t[i].name[1] == '\0' || n < 3 ? CLI_FAR
			                                  : cli_distance(bad, n, t[i].name);
			if (d < best) {
				best = d;
				name = t[i].name;
			}
			if (strncmp(bad, t[i].name, n) != 0)
				continue;
			begun = t[i].name;
			if (nbegun++ > 0 && len < sizeof joined)
				len += (size_t)snprintf(joined + len, sizeof joined - len, ", --");
			if (len < sizeof joined)
				len += (size_t)snprintf(joined + len, sizeof joined - len, "%s",
				                        begun);
		}
	}
	return nbegun == 1 ? begun : nbegun > 1 ? joined : name;
}

static const char *
cli_nearest(const struct cli *c, const char *bad)
{
	return cli_nearest_of(c->options, NULL, bad);
}

/* The option of c's table that arg (one or two dashes, maybe "=VALUE")
 * names whole, or NULL. */
static const struct cli_option *
cli_find(const struct cli *c, const char *arg, const char **value)
{
	size_t i, n;

	if (arg[0] != '-' || arg[1] == '\0')
		return NULL;
	arg += arg[1] == '-' ? 2 : 1;
	n = strcspn(arg, "=");
	for (i = 0; c->options[i].name != NULL; i++) {
		if (strlen(c->options[i].name) != n || strncmp(arg, c->options[i].name, n) != 0)
			continue;
		*value = arg[n] == '=' ? arg + n + 1 : NULL;
		return &c->options[i];
	}
	return NULL;
}

/* The first word of argv[1..argc) before "--" that looks like an option
 * and names none of c's whole (getopt would take a prefix), or NULL. The
 * value of an option that takes one is skipped, whatever it looks like. */
static const char *
cli_first_unknown(const struct cli *c, int argc, char **argv, bool has_o)
{
	const struct cli_option *o;
	const char *value;
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
		const char *a = argv[i];

		if (a[0] != '-' || a[1] == '\0')
			continue;
		if ((o = cli_find(c, a, &value)) != NULL) {
			if (o->value && value == NULL)
				i++;
			continue;
		}
		if (strcmp(a, "--help") == 0 || strcmp(a, "-help") == 0)
			continue;
		if (has_o && a[1] == 'o') {
			if (a[2] == '\0')
				i++;
			continue;
		}
		return a;
	}
	return NULL;
}

enum cli_status
cli_parse(struct cli *c, int argc, char **argv)
{
	struct option *longs;
	size_t n = 0, nl, i;
	const char *shorts = ":";
	enum cli_status st = CLI_OK;
	int opt;

	while (c->options[n].name != NULL)
		n++;
	longs = xcalloc(n + 2, sizeof *longs);
	for (i = 0, nl = 0; i < n; i++) {
		/* -o is a short option only: -o DIR, -oDIR and -o=DIR. */
		if (strcmp(c->options[i].name, "o") == 0) {
			shorts = ":o:";
			continue;
		}
		longs[nl].name = c->options[i].name;
		longs[nl].has_arg = c->options[i].value ? required_argument : no_argument;
		longs[nl++].val = CLI_FIRST + (int)i;
	}
	longs[nl].name = "help";
	longs[nl].val = CLI_FIRST + (int)n;
	c->bad = NULL;
	c->near = NULL;
	c->stop = 0;
	if ((c->bad = cli_first_unknown(c, argc, argv, shorts[1] == 'o')) != NULL) {
		c->near = cli_nearest(c, c->bad);
		c->first = 1;
		free(longs);
		return CLI_UNKNOWN;
	}
	optind = 0; /* 0 makes glibc reinitialise, so the parser can run twice */
	opterr = 0;
	while (st == CLI_OK && (opt = getopt_long_only(argc, argv, shorts, longs, NULL)) != -1) {
		const char *value = optarg;

		if (opt == 'o') {
			for (i = 0; strcmp(c->options[i].name, "o") != 0; i++)
				;
			opt = CLI_FIRST + (int)i;
			/* Go's spelling -o=DIR reaches here as the short option. */
			if (value[0] == '=')
				value++;
		}
		if (opt == ':') {
			c->bad = argv[optind - 1];
			st = CLI_NO_VALUE;
		} else if (opt < CLI_FIRST || (size_t)(opt - CLI_FIRST) > n) {
			c->bad = argv[optind - 1];
			c->near = cli_nearest(c, c->bad);
			st = CLI_UNKNOWN;
		} else if ((size_t)(opt - CLI_FIRST) == n) {
			st = CLI_HELP;
		} else {
			const struct cli_option *o = &c->options[opt - CLI_FIRST];

			c->stop = c->set(c->arg, o->id, o->value ? value : NULL);
			if (c->stop != 0)
				st = CLI_STOP;
		}
	}
	c->first = optind;
	free(longs);
	return st;
}

enum cli_status
cli_take(struct cli *c, int argc, char **argv, char ***rest, int *nrest)
{
	char **out = xcalloc((size_t)argc + 1, sizeof *out);
	int i, n = 0;

	c->bad = NULL;
	c->stop = 0;
	out[n++] = argv[0];
	for (i = 1; i < argc; i++) {
		const struct cli_option *o;
		const char *value = NULL;

		if (strcmp(argv[i], "--") == 0) {
			while (i < argc)
				out[n++] = argv[i++];
			break;
		}
		if ((o = cli_find(c, argv[i], &value)) == NULL) {
			out[n++] = argv[i];
			continue;
		}
		if (o->value && value == NULL) {
			if (i + 1 >= argc) {
				c->bad = argv[i];
				free(out);
				return CLI_NO_VALUE;
			}
			value = argv[++i];
		}
		c->stop = c->set(c->arg, o->id, o->value ? value : NULL);
		if (c->stop != 0) {
			free(out);
			return CLI_STOP;
		}
	}
	*rest = out;
	*nrest = n;
	return CLI_OK;
}

bool
cli_github_set(struct cli_github *g, int id, const char *value)
{
	switch (id) {
	case CLI_REPO:
		g->repo = value;
		return true;
	case CLI_API_URL:
		g->api_url = value;
		return true;
	case CLI_CATEGORY:
		g->category = value;
		return true;
	default:
		return false;
	}
}

int
cli_print_file(const char *dir, const char *name)
{
	char *path = xasprintf("%s/%s", dir, name), *text = NULL;
	size_t len = 0;
	int rc = util_read_file(path, (size_t)1 << 30, &text, &len);

	if (rc == 0) {
		sanitize_write(stdout, text, len);
		fflush(stdout);
	}
	free(text);
	free(path);
	return rc;
}

void
cli_unknown(const struct cli *c, const char *see)
{
	if (c->near != NULL && see != NULL)
		sanitize_fprintf(stderr,
		                 _("flakesweep: unknown option %s (did you mean --%s? see %s)\n"),
		                 c->bad, c->near, see);
	else if (c->near != NULL)
		sanitize_fprintf(stderr, _("flakesweep: unknown option %s (did you mean --%s?)\n"),
		                 c->bad, c->near);
	else if (see != NULL)
		sanitize_fprintf(stderr, _("flakesweep: unknown option %s (see %s)\n"), c->bad,
		                 see);
	else
		sanitize_fprintf(stderr, _("flakesweep: unknown option %s\n"), c->bad);
}

int
cli_set_string(void *arg, int id, const char *value)
{
	(void)id;
	*(const char **)arg = value;
	return 0;
}

int
cli_parse_plain(struct cli *c, int argc, char **argv, void (*usage)(FILE *f))
{
	switch (cli_parse(c, argc, argv)) {
	case CLI_OK:
		return 0;
	case CLI_HELP:
		usage(stdout);
		return 1;
	case CLI_NO_VALUE:
		sanitize_fprintf(stderr, _("flakesweep: option %s needs a value\n"), c->bad);
		return -1;
	case CLI_UNKNOWN:
		cli_unknown(c, NULL);
		return -1;
	case CLI_STOP:
		break;
	}
	return -1;
}
