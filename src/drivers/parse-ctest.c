/* SPDX-License-Identifier: MIT */
/*
 * parse-ctest.c: reads ctest's test listing (cJSON) and one run's console
 * lines and JUnit report (libxml2), as parse-ctest.h describes. It owns no
 * process and never parses XML by hand.
 */
#include "config.h"

#include <cjson/cJSON.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/outcome.h"
#include "drivers/parse-ctest.h"
#include "base/util.h"

#define PARSE_CTEST_LINE_MAX 65536
#define PARSE_CTEST_REPORT_MAX (64 << 20)

struct parse_ctest {
	char *test;
	struct buf line;
	bool in_report;
	bool report_over;
	struct buf report;
	char **timeouts; /* tests the console says ctest timed out */
	size_t ntimeouts;
	struct buf console;
	uint64_t console_cut;
};

struct parse_ctest *
parse_ctest_new(const char *test)
{
	struct parse_ctest *p = xcalloc(1, sizeof *p);

	p->test = xstrdup(test);
	buf_init(&p->line);
	buf_init(&p->report);
	buf_init(&p->console);
	return p;
}

void
parse_ctest_free(struct parse_ctest *p)
{
	if (p == NULL)
		return;
	free(p->test);
	buf_free(&p->line);
	buf_free(&p->report);
	buf_free(&p->console);
	util_strv_free(p->timeouts);
	free(p);
}

/* "1/1 Test #4: NAME .....***Timeout   1.02 sec": remembers NAME. */
static void
parse_ctest_console(struct parse_ctest *p, const char *s, size_t n)
{
	const char *t = memmem(s, n, " Test #", 7), *colon, *dots;
	char *name;

	if (t == NULL || memmem(s, n, "***Timeout", 10) == NULL)
		return;
	colon = memchr(t, ':', (size_t)(s + n - t));
	dots = memmem(s, n, " ..", 3);
	if (colon == NULL || dots == NULL || dots < colon + 2)
		return;
	name = xstrndup(colon + 2, (size_t)(dots - colon - 2));
	util_strv_add(&p->timeouts, &p->ntimeouts, name);
	free(name);
}

static void
parse_ctest_line(void *arg, const char *s, size_t n)
{
	struct parse_ctest *p = arg;

	if (p->in_report) {
		if (p->report.len + n + 1 > PARSE_CTEST_REPORT_MAX) {
			p->report_over = true;
			return;
		}
		buf_add(&p->report, s, n);
		buf_addc(&p->report, '\n');
		return;
	}
	if (n == strlen(PARSE_CTEST_JUNIT_MARK) && memcmp(s, PARSE_CTEST_JUNIT_MARK, n) == 0) {
		p->in_report = true;
		return;
	}
	parse_ctest_console(p, s, n);
	outcome_keep(&p->console, &p->console_cut, s, n);
	outcome_keep(&p->console, &p->console_cut, "\n", 1);
}

void
parse_ctest_feed(struct parse_ctest *p, const char *data, size_t len)
{
	util_feed_lines(&p->line, PARSE_CTEST_LINE_MAX, data, len, parse_ctest_line, p);
}

static bool
parse_ctest_timed_out(const struct parse_ctest *p, const char *name)
{
	size_t i;

	for (i = 0; i < p->ntimeouts; i++) {
		if (strcmp(p->timeouts[i], name) == 0)
			return true;
	}
	return false;
}

static const xmlNode *
parse_ctest_child(const xmlNode *n, const char *name)
{
	for (n = n->children; n != NULL; n = n->next) {
		if (n->type == XML_ELEMENT_NODE && strcmp((const char *)n->name, name) == 0)
			return n;
	}
	return NULL;
}

/* A <testcase>'s time attribute (seconds) in ms, or -1. */
static int64_t
parse_ctest_time(const xmlNode *tc)
{
	xmlChar *time = xmlGetProp(tc, (const xmlChar *)"time");
	char *end = NULL;
	double s = time != NULL ? strtod((const char *)time, &end) : -1;
	int64_t ms = end != NULL && end != (char *)time && *end == '\0' && s >= 0 && s < 1e9
	                 ? (int64_t)(s * 1000.0 + 0.5)
	                 : -1;

	xmlFree(time);
	return ms;
}

/* Adds one <testcase>; returns whether it failed or hung. */
static bool
parse_ctest_case(struct parse_ctest *p, const xmlNode *tc, struct outcome *out)
{
	xmlChar *name = xmlGetProp(tc, (const xmlChar *)"name");
	xmlChar *status = xmlGetProp(tc, (const xmlChar *)"status");
	const xmlNode *sysout = parse_ctest_child(tc, "system-out");
	struct outcome_test *t;
	int st = OUTCOME_PASS;
	bool failed = false;

	if (name == NULL || (status != NULL && strcmp((const char *)status, "disabled") == 0))
		goto out;
	if (parse_ctest_child(tc, "failure") != NULL)
		st = parse_ctest_timed_out(p, (const char *)name) ? OUTCOME_HANG : OUTCOME_FAIL;
	else if (parse_ctest_child(tc, "skipped") != NULL ||
	         (status != NULL && strcmp((const char *)status, "notrun") == 0))
		st = OUTCOME_SKIP;
	t = outcome_add(out, xstrdup((const char *)name), (enum outcome_status)st, NULL);
	t->ms = parse_ctest_time(tc);
	if (st == OUTCOME_FAIL || st == OUTCOME_HANG) {
		xmlChar *text = sysout != NULL ? xmlNodeGetContent(sysout) : NULL;
		struct buf b;
		uint64_t cut = 0;

		buf_init(&b);
		if (text != NULL)
			outcome_keep(&b, &cut, (const char *)text, strlen((const char *)text));
		t->lines = outcome_kept(&b, cut);
		buf_free(&b);
		xmlFree(text);
		if (st == OUTCOME_HANG)
			t->reason = xstrdup("ctest stopped it at its TIMEOUT property");
		failed = true;
	}
out:
	xmlFree(name);
	xmlFree(status);
	return failed;
}

/* Reads the report into out; returns a package reason when it is not one. */
static char *
parse_ctest_report(struct parse_ctest *p, struct outcome *out, bool *any_fail)
{
	xmlDoc *doc;
	const xmlNode *root, *n;
	char *reason = NULL;

	if (p->report_over)
		return xstrdup("ctest's JUnit report is over 64 MiB");
	doc = xmlReadMemory(
	    p->report.data != NULL ? p->report.data : "", (int)p->report.len, "junit.xml", NULL,
	    XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING | XML_PARSE_HUGE);
	if (doc == NULL) {
		const xmlError *e = xmlGetLastError();

		return xasprintf("ctest's JUnit report is not XML: line %d: %s",
		                 e != NULL ? e->line : 0,
		                 e != NULL && e->message != NULL ? e->message : "empty\n");
	}
	root = xmlDocGetRootElement(doc);
	if (root == NULL || strcmp((const char *)root->name, "testsuite") != 0) {
		reason = xstrdup("ctest's JUnit report has no <testsuite> root");
		goto out;
	}
	for (n = root->children; n != NULL; n = n->next) {
		if (n->type == XML_ELEMENT_NODE && strcmp((const char *)n->name, "testcase") == 0)
			*any_fail |= parse_ctest_case(p, n, out);
	}
out:
	xmlFreeDoc(doc);
	return reason;
}

void
parse_ctest_finish(struct parse_ctest *p, const struct proc_exit *ex, struct outcome *out)
{
	char *pkg = NULL;
	bool any_fail = false;

	if (p->line.len > 0) {
		parse_ctest_line(p, p->line.data, p->line.len);
		buf_reset(&p->line);
	}
	if (p->in_report) {
		pkg = parse_ctest_report(p, out, &any_fail);
		if (pkg != NULL) {
			/* Drop the trailing newline libxml2 puts on its messages. */
			size_t len = strlen(pkg);

			if (len > 0 && pkg[len - 1] == '\n')
				pkg[len - 1] = '\0';
		}
	} else {
		struct outcome_test *t =
		    outcome_add(out, xstrdup(p->test), ex->timed_out ? OUTCOME_HANG : OUTCOME_FAIL,
		                outcome_kept(&p->console, p->console_cut));

		if (ex->timed_out)
			t->reason =
			    xstrdup("still running when the run was stopped at its time limit");
		else if (ex->signal != 0)
			t->reason =
			    xasprintf("process killed by signal %d while running", ex->signal);
		else
			t->reason =
			    xasprintf("process exited with status %d while running", ex->status);
		any_fail = true;
	}
	if (pkg == NULL && !any_fail && (ex->status != 0 || ex->signal != 0)) {
		if (ex->signal != 0)
			pkg = xasprintf("killed by signal %d with no test failing", ex->signal);
		else
			pkg = xasprintf("exit status %d with no test failing", ex->status);
	}
	if (pkg != NULL) {
		out->package_failed = true;
		out->package_reason = pkg;
		out->package_lines =
		    p->console.len > 0 ? outcome_kept(&p->console, p->console_cut) : NULL;
	}
	if (outcome_find(out, p->test) == NULL)
		out->selection_failed = true;
}

static bool
parse_ctest_disabled(const cJSON *t)
{
	const cJSON *prop;

	cJSON_ArrayForEach(prop, cJSON_GetObjectItemCaseSensitive(t, "properties"))
	{
		const cJSON *name = cJSON_GetObjectItemCaseSensitive(prop, "name");

		if (cJSON_IsString(name) && strcmp(name->valuestring, "DISABLED") == 0)
			return cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(prop, "value"));
	}
	return false;
}

int
parse_ctest_list(const char *json, char ***tests, size_t *ntests, char **err)
{
	cJSON *root = cJSON_Parse(json);
	const cJSON *list, *t;
	char **v = NULL;
	size_t n = 0, k = 0;

	if (root == NULL) {
		const char *at = cJSON_GetErrorPtr();

		*err = xasprintf(_("not JSON (at byte %ld)"),
		                 at != NULL && at >= json ? (long)(at - json) : 0L);
		return -1;
	}
	list = cJSON_GetObjectItemCaseSensitive(root, "tests");
	if (!cJSON_IsArray(list)) {
		*err = xstrdup(_("no \"tests\" array: expected ctest's json-v1 listing"));
		cJSON_Delete(root);
		return -1;
	}
	cJSON_ArrayForEach(t, list)
	{
		const cJSON *name = cJSON_GetObjectItemCaseSensitive(t, "name");

		k++;
		if (!cJSON_IsString(name)) {
			*err = xasprintf(_("test %zu has no \"name\" string"), k);
			util_strv_free(v);
			cJSON_Delete(root);
			return -1;
		}
		if (!parse_ctest_disabled(t))
			util_strv_add(&v, &n, name->valuestring);
	}
	cJSON_Delete(root);
	if (v == NULL)
		v = xcalloc(1, sizeof *v);
	*tests = v;
	*ntests = n;
	return 0;
}
