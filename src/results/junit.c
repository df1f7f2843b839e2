/* SPDX-License-Identifier: MIT */
/*
 * junit.c: writes an output directory's results as JUnit XML with
 * libxml2's xmlwriter: a testsuites root, one testsuite per package, one
 * testcase per test, Surefire's flakyFailure and flakyError for the failed
 * and hung runs of a flaky test, and the rates, causes and verdicts in
 * each suite's properties (Surefire has none per test case). Every string
 * is cleaned of what XML 1.0 cannot hold first. It never changes the
 * directory it reads.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <libxml/xmlwriter.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/gettext.h"
#include "base/sanitize.h"
#include "base/util.h"
#include "results/causes.h"
#include "results/junit-runs.h"
#include "results/junit.h"
#include "results/replay.h"

/* The lines of a run's output a stack trace shows, and its bytes. */
#define JUNIT_TRACE_LINES 40
#define JUNIT_TRACE_BYTES 8192

/* One journal read for the report, with the suffix its suites' names take
 * (a verify's pair) or "". */
struct junit_part {
	char *path;
	char *suffix;
	struct replay replay;
	struct junit_runs runs;
	struct causes *causes;
};

/* s as XML 1.0 holds it: sanitize_text's valid UTF-8 without controls,
 * less the noncharacters U+FFFE and U+FFFF, which XML forbids too. */
static char *
junit_clean(const char *s)
{
	char *t = sanitize_text(s, strlen(s));
	size_t i, j;

	for (i = j = 0; t[i] != '\0'; i++) {
		if ((unsigned char)t[i] == 0xef && (unsigned char)t[i + 1] == 0xbf &&
		    ((unsigned char)t[i + 2] == 0xbe || (unsigned char)t[i + 2] == 0xbf)) {
			i += 2;
			continue;
		}
		t[j++] = t[i];
	}
	t[j] = '\0';
	return t;
}

static void
junit_attr(xmlTextWriterPtr w, const char *name, const char *value)
{
	char *v = junit_clean(value);

	xmlTextWriterWriteAttribute(w, BAD_CAST name, BAD_CAST v);
	free(v);
}

static void junit_attrf(xmlTextWriterPtr w, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void
junit_attrf(xmlTextWriterPtr w, const char *name, const char *fmt, ...)
{
	va_list ap;
	char *v;

	va_start(ap, fmt);
	v = xvasprintf(fmt, ap);
	va_end(ap);
	junit_attr(w, name, v);
	free(v);
}

static void
junit_text(xmlTextWriterPtr w, const char *text)
{
	char *v = junit_clean(text);

	xmlTextWriterWriteString(w, BAD_CAST v);
	free(v);
}

static void
junit_property(xmlTextWriterPtr w, const char *name, const char *value)
{
	xmlTextWriterStartElement(w, BAD_CAST "property");
	junit_attr(w, "name", name);
	junit_attr(w, "value", value);
	xmlTextWriterEndElement(w);
}

/* The first lines of a run's output: where it failed. */
static char *
junit_trace(const struct junit_bad *b)
{
	const char *s = b->lines != NULL ? b->lines : "";
	size_t n = 0, lines = 0;

	while (s[n] != '\0' && lines < JUNIT_TRACE_LINES && n < JUNIT_TRACE_BYTES)
		if (s[n++] == '\n')
			lines++;
	if (n == 0 && b->reason != NULL)
		return xstrdup(b->reason);
	return xstrndup(s, n);
}

/* "sweep cpu 2 load 1, cores 0,1, seed 42, run 17: why". */
static char *
junit_message(const struct junit_bad *b)
{
	struct buf m;

	buf_init(&m);
	buf_printf(&m, "%s cpu %d load %d", results_phase_name(b->phase), b->cpu, b->load);
	if (b->cores != NULL)
		buf_printf(&m, ", cores %s", b->cores);
	if (b->seed != NULL)
		buf_printf(&m, ", seed %s", b->seed);
	buf_printf(&m, ", run %lld", (long long)b->run);
	if (b->reason != NULL)
		buf_printf(&m, ": %s", b->reason);
	return buf_steal(&m);
}

/* A flakyFailure or flakyError (element), with its stackTrace. */
static void
junit_flaky_run(xmlTextWriterPtr w, const char *element, const char *type,
                const struct junit_bad *b)
{
	char *message = junit_message(b), *trace = junit_trace(b);

	xmlTextWriterStartElement(w, BAD_CAST element);
	junit_attr(w, "message", message);
	junit_attr(w, "type", type);
	xmlTextWriterStartElement(w, BAD_CAST "stackTrace");
	junit_text(w, trace);
	xmlTextWriterEndElement(w);
	xmlTextWriterEndElement(w);
	free(message);
	free(trace);
}

/* A failure or error (element) holding the first lines of run b. */
static void
junit_bad_run(xmlTextWriterPtr w, const char *element, const char *type, const struct junit_bad *b)
{
	char *message = junit_message(b), *trace = junit_trace(b);

	xmlTextWriterStartElement(w, BAD_CAST element);
	junit_attr(w, "message", message);
	junit_attr(w, "type", type);
	junit_text(w, trace);
	xmlTextWriterEndElement(w);
	free(message);
	free(trace);
}

static void
junit_testcase(xmlTextWriterPtr w, const struct results *r, const struct results_test *t,
               const struct junit_test_runs *tr)
{
	enum results_verdict v = results_verdict(t);
	size_t i;

	xmlTextWriterStartElement(w, BAD_CAST "testcase");
	junit_attr(w, "name", t->test);
	junit_attr(w, "classname", r->pkgs[t->pkg].name);
	junit_attrf(w, "time", "%.3f", (double)junit_runs_median_ms(tr) / 1000.0);
	if (v == RESULTS_FLAKY || v == RESULTS_CASCADE) {
		for (i = 0; i < tr->nfails; i++)
			junit_flaky_run(w, "flakyFailure", "failure", &tr->fails[i]);
		for (i = 0; i < tr->nhangs; i++)
			junit_flaky_run(w, "flakyError", "hang", &tr->hangs[i]);
	} else if (v == RESULTS_FAILING && tr->nfails > 0) {
		junit_bad_run(w, "failure", "failure", &tr->fails[0]);
	} else if (v == RESULTS_FAILING && tr->nhangs > 0) {
		junit_bad_run(w, "error", "hang", &tr->hangs[0]);
	} else if (v == RESULTS_SKIPPED) {
		xmlTextWriterStartElement(w, BAD_CAST "skipped");
		junit_attr(w, "message", _("skipped itself in every run"));
		xmlTextWriterEndElement(w);
	}
	xmlTextWriterEndElement(w);
}

/* A test's properties: its verdict, its failed and hung runs, each cell's
 * rate and its causes. */
static void
junit_test_properties(xmlTextWriterPtr w, const struct junit_part *p, size_t i)
{
	const struct results_test *t = &p->replay.results->tests[i];
	const struct junit_test_runs *tr = &p->runs.tests[i];
	cJSON *causes = causes_json(p->causes, i), *c;
	struct buf names;
	char *name;
	int k;

	name = xasprintf("flakesweep.test.%s.verdict", t->test);
	junit_property(w, name, results_verdict_name(results_verdict(t)));
	free(name);
	if (tr->total_fails + tr->total_hangs > 0) {
		char *v = xasprintf("%lld failed, %lld hung; %zu and %zu listed",
		                    (long long)tr->total_fails, (long long)tr->total_hangs,
		                    tr->nfails, tr->nhangs);

		name = xasprintf("flakesweep.test.%s.bad_runs", t->test);
		junit_property(w, name, v);
		free(name);
		free(v);
	}
	for (k = 0; k < t->ncells; k++) {
		const struct results_cell *cell = &t->cells[k];
		char *v = xasprintf("%lld/%lld", (long long)(cell->failures + cell->hangs),
		                    (long long)cell->runs);

		name = xasprintf("flakesweep.test.%s.rate.%s.cpu%d.load%d", t->test,
		                 results_phase_name(cell->phase), cell->cpu, cell->load);
		junit_property(w, name, v);
		free(name);
		free(v);
	}
	buf_init(&names);
	cJSON_ArrayForEach(c, causes)
	{
		const cJSON *cause = cJSON_GetObjectItemCaseSensitive(c, "cause");

		if (cJSON_IsString(cause))
			buf_printf(&names, "%s%s", names.len > 0 ? "," : "", cause->valuestring);
	}
	if (names.len > 0) {
		name = xasprintf("flakesweep.test.%s.cause", t->test);
		junit_property(w, name, names.data);
		free(name);
	}
	buf_free(&names);
	cJSON_Delete(causes);
}

/* Says where the testcases' times of package pkg come from when any test
 * ran without a time of its own (an older journal, or a framework that
 * reports none): the median of the runs it started in. */
static void
junit_time_property(xmlTextWriterPtr w, const struct junit_part *p, int pkg)
{
	const struct results *r = p->replay.results;
	size_t i;

	for (i = 0; i < r->ntests; i++) {
		const struct junit_test_runs *tr = &p->runs.tests[i];

		if (r->tests[i].pkg == pkg && tr->nruns > 0 && tr->nown == 0) {
			junit_property(w, "flakesweep.time",
			               "runs: the journal has no per-test times for some tests; "
			               "their time is the median of the runs they started in");
			return;
		}
	}
}

/* The testsuite of package pkg of part p; empty packages have none. */
static void
junit_suite(xmlTextWriterPtr w, const struct junit_part *p, int pkg)
{
	const struct results *r = p->replay.results;
	const struct results_pkg *rp = &r->pkgs[pkg];
	int64_t tests = 0, failures = 0, errors = 0, skipped = 0, flakes = 0, ms = 0;
	const char *status = p->replay.end_status != NULL ? p->replay.end_status : "running";
	const struct journal_project *proj = &p->replay.header.project;
	size_t i;

	for (i = 0; i < r->ntests; i++) {
		enum results_verdict v;

		if (r->tests[i].pkg != pkg)
			continue;
		v = results_verdict(&r->tests[i]);
		tests++;
		ms += junit_runs_median_ms(&p->runs.tests[i]);
		failures += v == RESULTS_FAILING && p->runs.tests[i].nfails > 0;
		errors += v == RESULTS_FAILING && p->runs.tests[i].nfails == 0 &&
		          p->runs.tests[i].nhangs > 0;
		skipped += v == RESULTS_SKIPPED;
		flakes += v == RESULTS_FLAKY || v == RESULTS_CASCADE;
	}
	if (tests == 0)
		return;
	xmlTextWriterStartElement(w, BAD_CAST "testsuite");
	if (rp->level != NULL && strcmp(rp->level, "unit") != 0)
		junit_attrf(w, "name", "%s [%s]%s", rp->name, rp->level, p->suffix);
	else
		junit_attrf(w, "name", "%s%s", rp->name, p->suffix);
	junit_attrf(w, "time", "%.3f", (double)ms / 1000.0);
	junit_attrf(w, "tests", "%lld", (long long)tests);
	junit_attrf(w, "failures", "%lld", (long long)failures);
	junit_attrf(w, "errors", "%lld", (long long)errors);
	junit_attrf(w, "skipped", "%lld", (long long)skipped);
	junit_attrf(w, "flakes", "%lld", (long long)flakes);
	xmlTextWriterStartElement(w, BAD_CAST "properties");
	junit_property(w, "flakesweep.status", status);
	if (strcmp(status, "complete") != 0)
		junit_property(w, "flakesweep.incomplete", "true");
	if (proj->driver != NULL)
		junit_property(w, "flakesweep.driver", proj->driver);
	if (proj->commit != NULL)
		junit_property(w, "flakesweep.commit", proj->commit);
	junit_time_property(w, p, pkg);
	for (i = 0; i < r->ntests; i++)
		if (r->tests[i].pkg == pkg)
			junit_test_properties(w, p, i);
	xmlTextWriterEndElement(w);
	for (i = 0; i < r->ntests; i++)
		if (r->tests[i].pkg == pkg)
			junit_testcase(w, r, &r->tests[i], &p->runs.tests[i]);
	xmlTextWriterEndElement(w);
}

static void
junit_part_free(struct junit_part *p)
{
	causes_free(p->causes);
	junit_runs_free(&p->runs);
	replay_free(&p->replay);
	free(p->path);
	free(p->suffix);
}

static int
junit_part_read(struct junit_part *p, char **err)
{
	int rc = replay_journal(p->path, &p->replay, err);

	if (rc < 0)
		return rc;
	rc = junit_runs_read(p->path, p->replay.results, JUNIT_RUNS_CAP, &p->runs, err);
	if (rc < 0)
		return rc;
	p->causes = causes_new(p->replay.results);
	return 0;
}

static int
junit_pair_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The journals of dir: its own, else those of a verify's pair
 * directories (cpu-C-load-L), in name order. */
static int
junit_find(const char *dir, char ***names, size_t *n, char **err)
{
	char *path = xasprintf("%s/journal.jsonl", dir);
	struct stat st;
	struct dirent *e;
	DIR *d;
	int rc;

	*names = NULL;
	*n = 0;
	if (stat(path, &st) == 0) {
		free(path);
		util_strv_add(names, n, "");
		return 0;
	}
	free(path);
	d = opendir(dir);
	if (d == NULL) {
		rc = -errno;
		*err = xasprintf("%s: %s", dir, strerror(errno));
		return rc;
	}
	while ((e = readdir(d)) != NULL) {
		int cpu, load, used = 0;

		if (sscanf(e->d_name, "cpu-%d-load-%d%n", &cpu, &load, &used) != 2 ||
		    e->d_name[used] != '\0')
			continue;
		path = xasprintf("%s/%s/journal.jsonl", dir, e->d_name);
		if (stat(path, &st) == 0)
			util_strv_add(names, n, e->d_name);
		free(path);
	}
	closedir(d);
	if (*n == 0) {
		*err = xasprintf(_("%s: no journal.jsonl: expected the output directory of a "
		                   "sweep, confirm, merge or verify"),
		                 dir);
		return -ENOENT;
	}
	qsort(*names, *n, sizeof **names, junit_pair_cmp);
	return 0;
}

int
junit_write(const char *dir, const char *path, char **err)
{
	struct junit_part *parts = NULL;
	xmlTextWriterPtr w = NULL;
	xmlBufferPtr xb = NULL;
	char **names = NULL;
	size_t n = 0, i;
	int rc, pkg;

	rc = junit_find(dir, &names, &n, err);
	if (rc < 0)
		goto out;
	parts = xcalloc(n, sizeof *parts);
	for (i = 0; i < n && rc == 0; i++) {
		parts[i].path = names[i][0] == '\0'
		                    ? xasprintf("%s/journal.jsonl", dir)
		                    : xasprintf("%s/%s/journal.jsonl", dir, names[i]);
		parts[i].suffix = names[i][0] == '\0' ? xstrdup("") : xasprintf(" (%s)", names[i]);
		rc = junit_part_read(&parts[i], err);
	}
	if (rc < 0)
		goto out;
	xb = xmlBufferCreate();
	w = xb != NULL ? xmlNewTextWriterMemory(xb, 0) : NULL;
	if (w == NULL)
		fatal("out of memory");
	xmlTextWriterSetIndent(w, 1);
	xmlTextWriterSetIndentString(w, BAD_CAST "  ");
	xmlTextWriterStartDocument(w, NULL, "UTF-8", NULL);
	xmlTextWriterStartElement(w, BAD_CAST "testsuites");
	for (i = 0; i < n; i++)
		for (pkg = 0; (size_t)pkg < parts[i].replay.results->npkgs; pkg++)
			junit_suite(w, &parts[i], pkg);
	xmlTextWriterEndElement(w);
	xmlTextWriterEndDocument(w);
	xmlFreeTextWriter(w);
	if (strcmp(path, "-") == 0) {
		rc = fwrite(xmlBufferContent(xb), 1, (size_t)xmlBufferLength(xb), stdout) ==
		                 (size_t)xmlBufferLength(xb) &&
		             fflush(stdout) == 0
		         ? 0
		         : -EIO;
		if (rc < 0)
			*err = xasprintf(_("cannot write standard output: %s"), strerror(EIO));
	} else {
		rc = util_write_file_atomic(path, (const char *)xmlBufferContent(xb),
		                            (size_t)xmlBufferLength(xb));
		if (rc < 0)
			*err = xasprintf(_("cannot write %s: %s"), path, strerror(-rc));
	}
out:
	if (xb != NULL)
		xmlBufferFree(xb);
	for (i = 0; parts != NULL && i < n; i++)
		junit_part_free(&parts[i]);
	free(parts);
	util_strv_free(names);
	return rc;
}
