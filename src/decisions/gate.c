/* SPDX-License-Identifier: MIT */
/*
 * gate.c: judges what a change did to each test's ambient inputs by
 * comparing two ledgers, and checks a second head ledger for noise. It
 * reads ledgers only; the probe sweep that would run tests belongs to the
 * stress engine.
 */
#include "config.h"

#include <errno.h>
#include <regex.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decisions/gate.h"
#include "base/util.h"

const char *
gate_verdict_name(enum gate_verdict v)
{
	switch (v) {
	case GATE_ALLOW:
		return "allow";
	case GATE_PROBE:
		return "probe";
	case GATE_NEEDS_FREEZE:
		return "needs-freeze";
	case GATE_BLOCK:
		return "block";
	default:
		return "unstable";
	}
}

static bool
gate_env_allowed(const char *allow, const char *name)
{
	size_t n = strlen(name);
	const char *p = allow;

	while (*p != '\0') {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);

		if (len == n && strncmp(p, name, n) == 0)
			return true;
		if (comma == NULL)
			break;
		p = comma + 1;
	}
	return false;
}

/* The verdict one added channel earns, and why (appended to why). */
static enum gate_verdict
gate_judge_channel(const char *ch, const struct ledger_test *head, bool integration,
                   const char *allow_env, struct buf *why)
{
	if (strcmp(ch, "net") == 0) {
		if (integration) {
			buf_printf(why, _("%s: integration test"), ch);
			return GATE_ALLOW;
		}
		buf_printf(why, _("%s: socket opened outside an integration path"), ch);
		return GATE_BLOCK;
	}
	if (strncmp(ch, "env:", 4) == 0) {
		if (gate_env_allowed(allow_env, ch + 4)) {
			buf_printf(why, _("%s: allowed by --allow-env"), ch);
			return GATE_ALLOW;
		}
		buf_printf(why, _("%s: environment read not in --allow-env"), ch);
		return GATE_NEEDS_FREEZE;
	}
	/* clock or rng: harmless until the test fails with it. */
	if (head->failures > 0) {
		buf_printf(why,
		           _("%s: added and the test failed in head (failed: %ld of %ld runs)"), ch,
		           head->failures, head->runs);
		return GATE_NEEDS_FREEZE;
	}
	buf_printf(why, _("%s: added, no failure in head yet (runs: %ld)"), ch, head->runs);
	return GATE_PROBE;
}

static void
gate_add_row(struct gate_result *r, const char *test, enum gate_verdict v, char *added,
             char *reason)
{
	struct gate_row *row;

	r->rows = xgrow(r->rows, r->nrows, sizeof *r->rows);
	row = &r->rows[r->nrows++];
	row->test = xstrdup(test);
	row->verdict = v;
	row->added = added;
	row->reason = reason;
	r->counts[v]++;
}

/* The channels of a that b lacks, as "x, y" into out (may be empty). */
static void
gate_diff(const struct ledger_test *a, const struct ledger_test *b, const char *sep,
          struct buf *out)
{
	size_t i;

	for (i = 0; a != NULL && i < a->nchannels; i++) {
		if (b != NULL && ledger_test_channel(b, a->channels[i].name) != NULL)
			continue;
		if (out->len > 0)
			buf_adds(out, sep);
		buf_adds(out, a->channels[i].name);
	}
}

/* Adds an UNSTABLE row when head and control disagree about test; returns
 * true when it did. */
static bool
gate_check_control(struct gate_result *r, const char *test, const struct ledger_test *h,
                   const struct ledger_test *c)
{
	struct buf more, less, why;

	if (h != NULL && c != NULL && ledger_same_channels(h, c))
		return false;
	buf_init(&more);
	buf_init(&less);
	buf_init(&why);
	if (h == NULL) {
		buf_adds(&why, _("not in the head ledger, only in the control"));
	} else if (c == NULL) {
		buf_adds(&why, _("not in the control ledger"));
	} else {
		gate_diff(h, c, ", ", &more);
		gate_diff(c, h, ", ", &less);
		buf_adds(&why, _("channels differ between head runs:"));
		if (more.len > 0)
			buf_printf(&why, _(" only head has %s"), more.data);
		if (more.len > 0 && less.len > 0)
			buf_addc(&why, ';');
		if (less.len > 0)
			buf_printf(&why, _(" only the control has %s"), less.data);
	}
	/* No verdict, so no channel is reported as added. */
	gate_add_row(r, test, GATE_UNSTABLE, xstrdup(""), buf_steal(&why));
	buf_free(&more);
	buf_free(&less);
	return true;
}

static int
gate_cmp_rows(const void *a, const void *b)
{
	return strcmp(((const struct gate_row *)a)->test, ((const struct gate_row *)b)->test);
}

int
gate_compare(const struct ledger *base, const struct ledger *head, const struct ledger *control,
             const struct gate_options *o, struct gate_result *out, char **err)
{
	const char *integration = o->integration ? o->integration : GATE_DEFAULT_INTEGRATION;
	const char *allow_env = o->allow_env ? o->allow_env : GATE_DEFAULT_ALLOW_ENV;
	regex_t re;
	size_t i;
	int rc;

	memset(out, 0, sizeof *out);
	*err = NULL;
	rc = regcomp(&re, integration, REG_EXTENDED | REG_NOSUB);
	if (rc != 0) {
		char msg[256];

		regerror(rc, &re, msg, sizeof msg);
		*err = xasprintf(_("invalid value \"%s\" for --integration: %s"), integration, msg);
		return -EINVAL;
	}
	for (i = 0; i < head->ntests; i++) {
		const struct ledger_test *h = &head->tests[i];
		const struct ledger_test *b = ledger_find(base, h->test);
		enum gate_verdict worst = GATE_ALLOW;
		bool integ;
		struct buf added, why;
		size_t k;

		if (control != NULL &&
		    gate_check_control(out, h->test, h, ledger_find(control, h->test)))
			continue;
		buf_init(&added);
		gate_diff(h, b, ",", &added);
		if (added.len == 0) {
			buf_free(&added);
			continue;
		}
		integ = regexec(&re, h->test, 0, NULL, 0) == 0;
		buf_init(&why);
		for (k = 0; k < h->nchannels; k++) {
			const char *ch = h->channels[k].name;
			enum gate_verdict v;

			if (b != NULL && ledger_test_channel(b, ch) != NULL)
				continue;
			if (why.len > 0)
				buf_adds(&why, "; ");
			v = gate_judge_channel(ch, h, integ, allow_env, &why);
			worst = v > worst ? v : worst;
		}
		gate_add_row(out, h->test, worst, buf_steal(&added), buf_steal(&why));
	}
	/* Tests the control ran but head did not are unstable too. */
	for (i = 0; control != NULL && i < control->ntests; i++) {
		if (ledger_find(head, control->tests[i].test) == NULL)
			gate_check_control(out, control->tests[i].test, NULL, &control->tests[i]);
	}
	if (out->nrows > 1)
		qsort(out->rows, out->nrows, sizeof *out->rows, gate_cmp_rows);
	regfree(&re);
	return 0;
}

void
gate_result_free(struct gate_result *r)
{
	size_t i;

	for (i = 0; i < r->nrows; i++) {
		free(r->rows[i].test);
		free(r->rows[i].added);
		free(r->rows[i].reason);
	}
	free(r->rows);
	memset(r, 0, sizeof *r);
}

cJSON *
gate_result_json(const struct gate_result *r)
{
	cJSON *root = cJSON_CreateObject(), *rows, *counts;
	size_t i;
	int v;

	cJSON_AddStringToObject(root, "schema", "flakesweep/gate/v1");
	rows = cJSON_AddArrayToObject(root, "tests");
	for (i = 0; i < r->nrows; i++) {
		cJSON *o = cJSON_CreateObject(), *added;
		const char *p = r->rows[i].added;

		cJSON_AddStringToObject(o, "test", r->rows[i].test);
		cJSON_AddStringToObject(o, "verdict", gate_verdict_name(r->rows[i].verdict));
		added = cJSON_AddArrayToObject(o, "added");
		while (*p != '\0') {
			const char *comma = strchr(p, ',');
			size_t n = comma ? (size_t)(comma - p) : strlen(p);
			char *one = xstrndup(p, n);

			cJSON_AddItemToArray(added, cJSON_CreateString(one));
			free(one);
			p += n + (comma != NULL);
		}
		cJSON_AddStringToObject(o, "reason", r->rows[i].reason);
		cJSON_AddItemToArray(rows, o);
	}
	counts = cJSON_AddObjectToObject(root, "counts");
	for (v = 0; v < GATE_NVERDICTS; v++)
		cJSON_AddNumberToObject(counts, gate_verdict_name(v), (double)r->counts[v]);
	return root;
}
