/* SPDX-License-Identifier: MIT */
/*
 * test-post.c: the bug report: the rendered title and body against golden
 * files, the refusals, what test output may and may not do to the
 * Markdown, the size limit, remotes, markers and decisions.json.
 * FLAKESWEEP_UPDATE_GOLDEN=1 rewrites the golden files instead.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "results/decisions.h"
#include "github/markdown.h"
#include "github/post-repro.h"
#include "github/post.h"
#include "base/json.h"
#include "base/util.h"

#define DEMO_ID "example.com/widgets/cache::TestCache/evicts_under_pressure"
#define NASTY_ID "example.com/widgets/render::TestRendersReleaseNotes"
#define NAMES_ID "example.com/widgets/render::TestNames/`tick`_@octocat_#12"

static char *
slurp(const char *path)
{
	char *text = NULL;

	if (util_read_file(path, 16 << 20, &text, NULL) < 0)
		check_fail(__FILE__, __LINE__, "cannot read %s", path);
	return text;
}

static char *
fixture(const char *rel)
{
	char *path = xasprintf("%s/tests/fixtures/post/%s", check_srcdir(), rel);
	char *text = slurp(path);

	free(path);
	return text;
}

static void
put(const char *path, const char *text)
{
	CHECK_INT(util_write_file_atomic(path, text, strlen(text)), 0);
}

/* Copies the demo project into the test's directory, makes it a git
 * checkout whose origin is on GitHub, and writes its results.json (root
 * pointing at the copy) to DIR/out/results.json. Returns that path. */
static char *
demo_setup(const char *origin)
{
	const char *tmp = check_tmpdir();
	char *p, *text, *root, *results, *at;
	struct buf b;

	p = xasprintf("%s/project/cache", tmp);
	CHECK_INT(util_mkdir_p(p), 0);
	free(p);
	p = xasprintf("%s/project/.git", tmp);
	CHECK_INT(util_mkdir_p(p), 0);
	free(p);
	p = xasprintf("%s/out", tmp);
	CHECK_INT(util_mkdir_p(p), 0);
	free(p);
	text = fixture("demo/project/go.mod");
	p = xasprintf("%s/project/go.mod", tmp);
	put(p, text);
	free(p);
	free(text);
	text = fixture("demo/project/cache/cache_test.go");
	p = xasprintf("%s/project/cache/cache_test.go", tmp);
	put(p, text);
	free(p);
	free(text);
	if (origin != NULL) {
		text = xasprintf(
		    "[core]\n\trepositoryformatversion = 0\n[remote \"upstream\"]\n\turl = "
		    "https://github.com/other/fork.git\n[remote \"origin\"]\n\turl = "
		    "%s\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n",
		    origin);
		p = xasprintf("%s/project/.git/config", tmp);
		put(p, text);
		free(p);
		free(text);
	}
	root = xasprintf("%s/project", tmp);
	text = fixture("demo/results.json");
	CHECK(strstr(text, "@ROOT@") != NULL);
	buf_init(&b);
	/* Every @ROOT@: the project's root and the reproduce commands. */
	for (p = text; (at = strstr(p, "@ROOT@")) != NULL; p = at + 6) {
		buf_add(&b, p, (size_t)(at - p));
		buf_adds(&b, root);
	}
	buf_adds(&b, p);
	results = xasprintf("%s/out/results.json", tmp);
	put(results, b.data);
	buf_free(&b);
	free(text);
	free(root);
	return results;
}

/* Compares title + blank line + body (the --dry-run form) with a golden
 * file, or rewrites it when FLAKESWEEP_UPDATE_GOLDEN is set. */
static void
check_golden(const struct post_draft *d, const char *name)
{
	char *path = xasprintf("%s/tests/golden/post/%s", check_srcdir(), name);
	char *got = xasprintf("%s\n\n%s", post_draft_title(d), post_draft_body(d));
	char *want = NULL;

	if (getenv("FLAKESWEEP_UPDATE_GOLDEN") != NULL) {
		put(path, got);
	} else if (util_read_file(path, 1 << 20, &want, NULL) < 0) {
		check_fail(__FILE__, __LINE__, "no golden file %s", path);
	} else if (strcmp(got, want) != 0) {
		char *actual = xasprintf("%s/%s", check_tmpdir(), name);
		size_t i = 0, line = 1;

		put(actual, got);
		while (got[i] != '\0' && got[i] == want[i]) {
			line += got[i] == '\n';
			i++;
		}
		fprintf(stderr, "rendered report differs from %s at line %zu (see %s)\n", path,
		        line, actual);
		check_fail(__FILE__, __LINE__, "golden mismatch: %s", name);
	}
	free(want);
	free(got);
	free(path);
}

static struct post_draft *
draft(const char *results, const char *id, const char *desc, const char *notes, const char *repo,
      int want_rc, const char *want_err)
{
	struct post_input in;
	struct post_draft *d = NULL;
	char *err = NULL;
	int rc;

	memset(&in, 0, sizeof in);
	in.results_path = results;
	in.test_id = id;
	in.description = desc;
	in.notes = notes;
	in.repo = repo;
	rc = post_draft_new(&in, &d, &err);
	if (rc != want_rc)
		check_fail(__FILE__, __LINE__, "post_draft_new: %d (%s), expected %d", rc,
		           err ? err : "", want_rc);
	if (want_err != NULL)
		CHECK_STR(err, want_err);
	free(err);
	return d;
}

TEST(post_golden_demo_flaky)
{
	char *results, *desc = fixture("demo/description.md"), *notes = fixture("demo/notes.md");
	struct post_draft *d;

	unsetenv("GH_HOST");
	results = demo_setup("git@github.com:demo/widgets.git");
	d = draft(results, DEMO_ID, desc, notes, NULL, 0, NULL);
	CHECK_STR(post_draft_repo(d), "demo/widgets");
	CHECK_STR(
	    post_draft_title(d),
	    "example.com/widgets/cache: TestCache/evicts_under_pressure fails intermittently");
	CHECK_STR(post_draft_marker(d), "flakesweep:id=39f57fb92e50b991");
	check_golden(d, "demo-flaky.md");
	/* No path of this machine; the commit and the test's line at it. */
	CHECK(strstr(post_draft_body(d), check_tmpdir()) == NULL);
	CHECK(strstr(post_draft_body(d), "(https://github.com/demo/widgets/commit/"
	                                 "4f2a9c1e7b3d5a6f8e9d0c1b2a3f4e5d6c7b8a90)") != NULL);
	CHECK(strstr(post_draft_body(d), "https://github.com/demo/widgets/blob/"
	                                 "4f2a9c1e7b3d5a6f8e9d0c1b2a3f4e5d6c7b8a90/cache/"
	                                 "cache_test.go#L11") != NULL);
	CHECK(strstr(post_draft_body(d), "\ncd cache && taskset -c 4,5,6,7 go test -race -v -run "
	                                 "'^TestCache$/^evicts_under_pressure$' -cpu 4 -count 1000 "
	                                 "-timeout 120000000ms\n") != NULL);
	/* An earlier, closed report goes into References. */
	post_draft_set_closed_report(d, "https://github.com/demo/widgets/discussions/7");
	CHECK(strstr(
	          post_draft_body(d),
	          "- An earlier report, closed: https://github.com/demo/widgets/discussions/7\n") !=
	      NULL);
	check_golden(d, "demo-flaky-closed.md");
	post_draft_free(d);
	free(results);
	free(desc);
	free(notes);
}

TEST(post_repo_from_origin_forms)
{
	static const char *const origins[] = {
	    "https://github.com/demo/widgets.git",
	    "https://github.com/demo/widgets",
	    "git@github.com:demo/widgets.git",
	    "ssh://git@github.com/demo/widgets.git",
	    "ssh://git@ssh.github.com:443/demo/widgets.git",
	    "https://x-access-token:secret@github.com/demo/widgets.git",
	};
	size_t i;
	char *desc = fixture("demo/description.md");

	unsetenv("GH_HOST");
	for (i = 0; i < UTIL_ARRAY_LEN(origins); i++) {
		char *results = demo_setup(origins[i]);
		struct post_draft *d = draft(results, DEMO_ID, desc, NULL, NULL, 0, NULL);

		CHECK_STR(post_draft_repo(d), "demo/widgets");
		CHECK(strstr(post_draft_body(d), "secret") == NULL);
		post_draft_free(d);
		free(results);
	}
	free(desc);
}

TEST(post_repo_flag_and_foreign_origin)
{
	char *desc = fixture("demo/description.md"), *results;
	struct post_draft *d;

	unsetenv("GH_HOST");
	/* --repo wins over the origin; links still point at the origin. */
	results = demo_setup("git@github.com:demo/widgets.git");
	d = draft(results, DEMO_ID, desc, NULL, "demo/other", 0, NULL);
	CHECK_STR(post_draft_repo(d), "demo/other");
	CHECK(strstr(post_draft_body(d), "https://github.com/demo/widgets/blob/") != NULL);
	post_draft_free(d);
	free(results);
	/* An origin elsewhere: no repository to post to, and no links. */
	results = demo_setup("https://gitlab.com/demo/widgets.git");
	d = draft(results, DEMO_ID, desc, NULL, NULL, 0, NULL);
	CHECK(post_draft_repo(d) == NULL);
	CHECK(strstr(post_draft_body(d), "https://") == NULL);
	CHECK(strstr(post_draft_body(d), "- Commit: `4f2a9c1e7b3d5a6f8e9d0c1b2a3f4e5d6c7b8a90`") !=
	      NULL);
	post_draft_free(d);
	/* ... and --repo then posts there without claiming the source. */
	d = draft(results, DEMO_ID, desc, NULL, "demo/widgets", 0, NULL);
	CHECK_STR(post_draft_repo(d), "demo/widgets");
	CHECK(strstr(post_draft_body(d), "/blob/") == NULL);
	post_draft_free(d);
	free(results);
	results = demo_setup(NULL);
	draft(results, DEMO_ID, desc, NULL, "demo", -EINVAL, "--repo must be OWNER/NAME: demo");
	draft(results, DEMO_ID, desc, NULL, "demo/wid gets", -EINVAL,
	      "--repo must be OWNER/NAME: demo/wid gets");
	free(results);
	free(desc);
}

TEST(post_enterprise_links)
{
	char *desc = fixture("demo/description.md"), *results;
	struct post_draft *d;

	setenv("GH_HOST", "github.example.com", 1);
	results = demo_setup("git@github.example.com:demo/widgets.git");
	d = draft(results, DEMO_ID, desc, NULL, NULL, 0, NULL);
	CHECK_STR(post_draft_repo(d), "demo/widgets");
	CHECK(strstr(post_draft_body(d), "(https://github.example.com/demo/widgets/commit/") !=
	      NULL);
	post_draft_free(d);
	free(results);
	unsetenv("GH_HOST");
	free(desc);
}

TEST(post_refusals)
{
	char *desc = fixture("demo/description.md"), *results;

	unsetenv("GH_HOST");
	results = demo_setup("git@github.com:demo/widgets.git");
	draft(results, "example.com/widgets/cache::TestNope", desc, NULL, NULL, -EINVAL, NULL);
	draft(results, "example.com/widgets/clock::TestClock/skew", desc, NULL, NULL, -EINVAL,
	      "example.com/widgets/clock::TestClock/skew is failing, not flaky: it failed all 500 "
	      "runs at cpu 1, load 1; flakesweep posts only flaky tests");
	draft(results, "example.com/widgets/parse::TestParse", desc, NULL, NULL, -EINVAL,
	      "example.com/widgets/parse::TestParse passed every run (3000): there is nothing to "
	      "report");
	draft(results, DEMO_ID, "  \n\t\n", NULL, NULL, -EINVAL, "the description text is empty");
	draft(results, DEMO_ID, desc, "\n", NULL, -EINVAL, "the notes text is empty");
	draft(
	    results, DEMO_ID, "Text.\n\n## Details\nmore\n", NULL, NULL, -EINVAL,
	    "the description text has a Markdown heading on line 3: the report's sections are fixed, "
	    "so write it without headings");
	draft("/nonexistent/results.json", DEMO_ID, desc, NULL, NULL, -ENOENT,
	      "cannot read /nonexistent/results.json: No such file or directory");
	{
		char *bad = xasprintf("%s/bad.json", check_tmpdir());

		put(bad, "{\"tests\": []}");
		draft(bad, DEMO_ID, desc, NULL, NULL, -EBADMSG, NULL);
		free(bad);
	}
	free(results);
	free(desc);
}

/* A test that fails only when runs of its package overlap: "alone" in the
 * post is the runs with no other run of its package alive (not the confirm
 * runs, which can overlap each other), and the measured cause is the
 * post's "Why", with its advice. */
TEST(post_alone_means_alone_and_why_has_the_cause)
{
	char *path = xasprintf("%s/r.json", check_tmpdir());
	struct post_draft *d;
	const char *body;

	put(path,
	    "{\"schema\":\"flakesweep/results/v1\",\"project\":{},\"tests\":[{\"id\":\"p::T\","
	    "\"package\":\"p\",\"test\":\"T\",\"level\":\"unit\",\"verdict\":\"flaky\",\"cells\":["
	    "{\"phase\":\"sweep\",\"cpu\":1,\"load\":1,\"runs\":40,\"failures\":12,\"hangs\":0,"
	    "\"overlapped\":{\"runs\":20,\"failures\":12}},"
	    "{\"phase\":\"sweep\",\"cpu\":1,\"load\":2,\"runs\":40,\"failures\":14,\"hangs\":0,"
	    "\"overlapped\":{\"runs\":20,\"failures\":14}},"
	    "{\"phase\":\"confirm\",\"cpu\":1,\"load\":1,\"runs\":40,\"failures\":3,\"hangs\":0,"
	    "\"overlapped\":{\"runs\":6,\"failures\":3}},"
	    "{\"phase\":\"confirm\",\"cpu\":1,\"load\":2,\"runs\":40,\"failures\":0,\"hangs\":0}],"
	    "\"reproduce\":{\"flakesweep\":\"flakesweep stress --load 2 p\",\"direct\":\"go test -run T\"}}]}");
	d = draft(path, "p::T", "Text.", NULL, NULL, 0, NULL);
	body = post_draft_body(d);
	CHECK(strstr(body, "In confirm runs of the test by itself: 3 failures in 80 runs. Alone, "
	                   "with no other run of its package alive: 0 failed of 114; overlapping "
	                   "another run of its package: 29 failed of 46.") != NULL);
	CHECK(strstr(body, "## Why\n\nNot triaged yet. What flakesweep measured:\n\n```text\n"
	                   "cause (interference): fails when runs of its package overlap: 29/46 "
	                   "overlapped against 0/114 alone") != NULL);
	CHECK(strstr(body, "bind to FLAKESWEEP_PORT_BASE's window") != NULL);
	/* One process running it in sequence cannot reproduce it: no direct
	 * command, and a line that says why. */
	CHECK(strstr(body, "go test -run T") == NULL);
	CHECK(strstr(body, "No direct command: it fails when runs of its package overlap") != NULL);
	CHECK(strstr(body, "flakesweep stress --load 2 p") != NULL);
	post_draft_free(d);
	free(path);
}

TEST(post_verdict_from_cells)
{
	/* A results file that calls a test flaky although it failed every run
	 * at one pair: the cells decide, and it is not posted. */
	char *path = xasprintf("%s/r.json", check_tmpdir());

	put(path,
	    "{\"schema\":\"flakesweep/results/v1\",\"project\":{},\"tests\":[{\"id\":\"p::T\","
	    "\"package\":\"p\",\"test\":\"T\",\"level\":\"unit\","
	    "\"verdict\":\"flaky\",\"cells\":[{\"phase\":\"confirm\",\"cpu\":2,\"load\":1,"
	    "\"runs\":10,\"failures\":9,\"hangs\":1},{\"phase\":\"sweep\",\"cpu\":1,\"load\":"
	    "1,\"runs\":10,\"failures\":1,\"hangs\":0}]}]}");
	draft(
	    path, "p::T", "Text.", NULL, NULL, -EINVAL,
	    "p::T is failing, not flaky: it failed all 10 runs at cpu 2, load 1; flakesweep posts "
	    "only flaky tests");
	free(path);
}

TEST(markdown_check_text_headings)
{
	char *err = NULL;

	CHECK_INT(markdown_check_text("Plain text with #12 and #hashtag.\n", "notes", &err), 0);
	CHECK_INT(
	    markdown_check_text("A list:\n\n- one\n- two\n\n---\n\nafter a rule\n", "notes", &err),
	    0);
	CHECK_INT(markdown_check_text("```\n# not a heading in a fence\n```\n", "notes", &err), 0);
	CHECK_INT(markdown_check_text("~~~~\n## inside\n~~~\nstill inside\n~~~~\n", "notes", &err),
	          0);
	CHECK_INT(markdown_check_text("    # indented code\n", "notes", &err), 0);
	CHECK_INT(markdown_check_text("# Title\n", "notes", &err), -EINVAL);
	CHECK_STR(err, "the notes text has a Markdown heading on line 1: the report's sections are "
	               "fixed, so write it without headings");
	free(err);
	CHECK_INT(markdown_check_text("ok\n   ###### six\n", "notes", &err), -EINVAL);
	free(err);
	CHECK_INT(markdown_check_text("#\n", "notes", &err), -EINVAL);
	free(err);
	CHECK_INT(markdown_check_text("Setext\n======\n", "notes", &err), -EINVAL);
	free(err);
	CHECK_INT(markdown_check_text("Setext two\n---\n", "notes", &err), -EINVAL);
	free(err);
	CHECK_INT(markdown_check_text("Some <h2>html</h2> heading\n", "notes", &err), -EINVAL);
	free(err);
	CHECK_INT(markdown_check_text("Some code:\n\n```go\nx := 1\n", "description", &err),
	          -EINVAL);
	CHECK_STR(err, "the description text opens a code block on line 3 and never closes it");
	free(err);
	CHECK_INT(markdown_check_text("Hidden <!-- from here on\n", "notes", &err), -EINVAL);
	CHECK_STR(err, "the notes text opens an HTML comment (<!--) and never closes it");
	free(err);
	CHECK_INT(markdown_check_text("A <!-- closed --> comment.\n\n```\n<!-- in code\n```\n",
	                              "notes", &err),
	          0);
	CHECK_INT(markdown_check_text("", "notes", &err), -EINVAL);
	free(err);
	CHECK_INT(markdown_check_text(NULL, "notes", &err), -EINVAL);
	free(err);
}

TEST(post_draft_parse_remote_forms)
{
	char *r = NULL;

	unsetenv("GH_HOST");
	CHECK_INT(post_draft_parse_remote("https://github.com/o-1/n.a_b-c.git", &r), 0);
	CHECK_STR(r, "o-1/n.a_b-c");
	free(r);
	CHECK_INT(post_draft_parse_remote("https://github.com/o/n/", &r), 0);
	CHECK_STR(r, "o/n");
	free(r);
	CHECK_INT(post_draft_parse_remote("git@github.com:o/n", &r), 0);
	CHECK_STR(r, "o/n");
	free(r);
	CHECK_INT(post_draft_parse_remote("git://github.com/o/n.git", &r), 0);
	CHECK_STR(r, "o/n");
	free(r);
	CHECK_INT(post_draft_parse_remote("https://user:pw@github.com/o/n.git", &r), 0);
	CHECK_STR(r, "o/n");
	free(r);
	CHECK_INT(post_draft_parse_remote("https://gitlab.com/o/n.git", &r), -EINVAL);
	CHECK_INT(post_draft_parse_remote("https://github.com.evil.example/o/n.git", &r), -EINVAL);
	CHECK_INT(post_draft_parse_remote("https://github.com/o", &r), -EINVAL);
	CHECK_INT(post_draft_parse_remote("https://github.com/o/n/extra", &r), -EINVAL);
	CHECK_INT(post_draft_parse_remote("https://github.com/o/..", &r), -EINVAL);
	CHECK_INT(post_draft_parse_remote("file:///srv/git/n.git", &r), -EINVAL);
	CHECK_INT(post_draft_parse_remote("/srv/git/n.git", &r), -EINVAL);
	CHECK_INT(post_draft_parse_remote("git@ghe.example.com:o/n.git", &r), -EINVAL);
	setenv("GH_HOST", "ghe.example.com", 1);
	CHECK_INT(post_draft_parse_remote("git@ghe.example.com:o/n.git", &r), 0);
	CHECK_STR(r, "o/n");
	free(r);
	unsetenv("GH_HOST");
}

TEST(post_marker_and_names)
{
	char h[17];
	const char *m = "flakesweep:id=39f57fb92e50b991";

	post_draft_hash(DEMO_ID, h);
	CHECK_STR(h, "39f57fb92e50b991");
	post_draft_hash("", h);
	CHECK_STR(h, "cbf29ce484222325");
	CHECK(post_names_test("x", "body\n<!-- flakesweep:id=39f57fb92e50b991 -->", "TestA", m));
	CHECK(post_names_test("TestA fails", "", "TestA", m));
	CHECK(post_names_test("flaky", "`TestA/sub` failed again", "TestA/sub", m));
	CHECK(!post_names_test("TestA/sub fails", "", "TestA", m));
	CHECK(!post_names_test("TestAB fails", "", "TestA", m));
	CHECK(!post_names_test("pkg: TestA/sub_more fails", "", "TestA/sub", m));
	CHECK(!post_names_test("x", "flakesweep:id=0000000000000000", "TestA", m));
	CHECK(!post_names_test(NULL, NULL, "TestA", m));
}

/* Every occurrence of needle in text, outside fenced blocks and code
 * spans (CommonMark's rules for backtick fences and spans). */
static int
count_outside_code(const char *text, const char *needle)
{
	char *copy = xstrdup(text), *line, *save = NULL;
	size_t fence = 0;
	int count = 0;

	for (line = strtok_r(copy, "\n", &save); line != NULL; line = strtok_r(NULL, "\n", &save)) {
		size_t ticks = strspn(line, "`");

		if (fence > 0) {
			if (ticks >= fence && line[ticks] == '\0')
				fence = 0;
			continue;
		}
		if (ticks >= 3) {
			fence = ticks;
			continue;
		}
		{
			/* Drop code spans: a run of n backticks up to the next run of n. */
			struct buf b;
			const char *p = line;

			buf_init(&b);
			while (*p != '\0') {
				size_t n = strspn(p, "`");
				const char *q;

				if (n == 0) {
					buf_addc(&b, *p++);
					continue;
				}
				for (q = p + n; *q != '\0'; q++) {
					size_t m = strspn(q, "`");

					if (m == n)
						break;
					q += m > 0 ? m - 1 : 0;
				}
				if (*q == '\0') {
					buf_add(&b, p, n);
					p += n;
				} else {
					p = q + n;
				}
			}
			for (p = b.data != NULL ? b.data : ""; (p = strstr(p, needle)) != NULL; p++)
				count++;
			buf_free(&b);
		}
	}
	free(copy);
	return count;
}

TEST(post_nasty_output_stays_in_code)
{
	char *results = xasprintf("%s/tests/fixtures/post/nasty/results.json", check_srcdir());
	char *desc = fixture("nasty/description.md");
	static const char *const leaks[] = {"@octocat", "@github",   "@someone", "#1",   "#12",
	                                    "GH-2",     "<details>", "**bold**", "\x1b", "\x07"};
	struct post_draft *d;
	const char *body;
	size_t i;

	unsetenv("GH_HOST");
	d = draft(results, NASTY_ID, desc, NULL, "demo/widgets", 0, NULL);
	body = post_draft_body(d);
	CHECK(strlen(body) <= POST_BODY_MAX);
	CHECK(strlen(body) > 20000); /* cut to be read, not to nothing */
	CHECK(strlen(body) < 30000);
	/* The output has runs of 5 backticks: the fence has 6. */
	CHECK(strstr(body, "``````text\n") != NULL);
	CHECK(strstr(body, "bytes cut here; the whole output is in runs/sweep-000777.log in the "
	                   "sweep's output directory ...]") != NULL);
	/* The head and the tail both survive the cut. */
	CHECK(strstr(body, "=== RUN   TestRendersReleaseNotes") != NULL);
	CHECK(strstr(body, "--- FAIL: TestRendersReleaseNotes (0.03s)") != NULL);
	for (i = 0; i < UTIL_ARRAY_LEN(leaks); i++) {
		if (count_outside_code(body, leaks[i]) != 0)
			check_fail(__FILE__, __LINE__, "%s appears outside a code block", leaks[i]);
	}
	CHECK(strchr(body, '\x1b') == NULL);
	CHECK(strchr(body, '\x7f') == NULL);
	/* Invalid bytes became U+FFFD. */
	CHECK(strstr(body, "caf\xef\xbf\xbd and cut \xef\xbf\xbd") != NULL);
	CHECK(strstr(body, "shuffle seed `1700000000123456789`") != NULL);
	check_golden(d, "nasty-trimmed.md");
	post_draft_free(d);

	/* A test name made of backticks, a mention and a reference. */
	d = draft(results, NAMES_ID, desc, NULL, "demo/widgets", 0, NULL);
	body = post_draft_body(d);
	for (i = 0; i < UTIL_ARRAY_LEN(leaks); i++) {
		if (count_outside_code(body, leaks[i]) != 0)
			check_fail(__FILE__, __LINE__, "%s appears outside a code block", leaks[i]);
	}
	CHECK(strstr(body, "- Test: ``TestNames/`tick`_@octocat_#12`` in package") != NULL);
	CHECK(strstr(body,
	             "names_test.go:9: expected exit 0, got 1 (body \xef\xbf\xbd\xef\xbf\xbd)") !=
	      NULL);
	check_golden(d, "nasty-names.md");
	post_draft_free(d);
	free(results);
	free(desc);
}

TEST(post_description_too_long)
{
	char *results = xasprintf("%s/tests/fixtures/post/nasty/results.json", check_srcdir());
	struct buf b;
	int i;

	buf_init(&b);
	for (i = 0; i < 900; i++)
		buf_adds(
		    &b,
		    "A description that goes on and on about the same thing, line after line.\n");
	draft(results, NASTY_ID, b.data, NULL, "demo/widgets", -EINVAL,
	      "the description and notes are too long: the report must stay under 60000 bytes");
	buf_free(&b);
	free(results);
}

TEST(post_long_description_cuts_more_output)
{
	char *results = xasprintf("%s/tests/fixtures/post/nasty/results.json", check_srcdir());
	struct post_draft *d;
	struct buf b;
	int i;

	buf_init(&b);
	for (i = 0; i < 560; i++)
		buf_adds(
		    &b,
		    "A description that goes on and on about the same thing, line after line.\n");
	d = draft(results, NASTY_ID, b.data, NULL, "demo/widgets", 0, NULL);
	CHECK(strlen(post_draft_body(d)) <= POST_BODY_MAX);
	CHECK(strlen(post_draft_body(d)) > POST_BODY_MAX - 1000);
	CHECK(strstr(post_draft_body(d), "bytes cut here") != NULL);
	CHECK(strstr(post_draft_body(d), "--- FAIL: TestRendersReleaseNotes (0.03s)") != NULL);
	post_draft_free(d);
	buf_free(&b);
	free(results);
}

TEST(post_long_title_is_cut)
{
	char *path = xasprintf("%s/r.json", check_tmpdir());
	struct buf name, json;
	struct post_draft *d;
	char *id;
	int i;

	buf_init(&name);
	buf_adds(&name, "TestLong/");
	for (i = 0; i < 60; i++)
		buf_adds(&name, "é_x_");
	id = xasprintf("p::%s", name.data);
	buf_init(&json);
	buf_printf(&json,
	           "{\"schema\":\"flakesweep/results/v1\",\"project\":{},\"tests\":[{\"id\":\"%s\","
	           "\"package\":\"p\",\"test\":\"%s\",\"level\":\"unit\",\"verdict\":\"flaky\","
	           "\"cells\":[{\"phase\":\"sweep\",\"cpu\":1,\"load\":1,\"runs\":10,"
	           "\"failures\":1,\"hangs\":0}]}]}",
	           id, name.data);
	put(path, json.data);
	d = draft(path, id, "Text.", NULL, NULL, 0, NULL);
	CHECK(strlen(post_draft_title(d)) <= 250);
	CHECK(strstr(post_draft_title(d), "… fails intermittently") != NULL);
	/* No first failure and no reproduce commands: said, not invented. */
	CHECK(strstr(post_draft_body(d), "No output of the first failure was kept.") != NULL);
	CHECK(strstr(post_draft_body(d), "```sh") == NULL);
	post_draft_free(d);
	buf_free(&json);
	buf_free(&name);
	free(id);
	free(path);
}

TEST(decisions_record_and_load)
{
	char *path = xasprintf("%s/decisions.json", check_tmpdir()), *text;
	struct decision *v;
	size_t n;

	CHECK_INT(decisions_load(path, &v, &n), 0);
	CHECK_INT(n, 0);
	decisions_free(v, n);
	CHECK_INT(decisions_record(path, "p::TestA", "confirmed", NULL, NULL, 1764468840000LL), 0);
	CHECK_INT(decisions_record(path, "p::TestB", "posted",
	                           "https://github.com/o/n/discussions/1", NULL, 1764468900000LL),
	          0);
	/* A later decision replaces the earlier one and keeps unknown members. */
	text = slurp(path);
	{
		char *at = strstr(text, "\"decision\":\t\"confirmed\"");
		struct buf b;

		CHECK(at != NULL);
		buf_init(&b);
		buf_add(&b, text, (size_t)(at - text));
		buf_adds(&b, "\"owner\": \"alice\", ");
		buf_adds(&b, at);
		put(path, b.data);
		buf_free(&b);
	}
	free(text);
	CHECK_INT(decisions_record(path, "p::TestA", "posted",
	                           "https://github.com/o/n/discussions/2", NULL, 1764469000000LL),
	          0);
	CHECK_INT(decisions_load(path, &v, &n), 0);
	CHECK_INT(n, 2);
	CHECK_STR(decisions_find(v, n, "p::TestA")->decision, "posted");
	CHECK_STR(decisions_find(v, n, "p::TestA")->url, "https://github.com/o/n/discussions/2");
	CHECK_STR(decisions_find(v, n, "p::TestA")->time, "2025-11-30T02:16:40Z");
	CHECK_STR(decisions_find(v, n, "p::TestB")->url, "https://github.com/o/n/discussions/1");
	CHECK(decisions_find(v, n, "p::TestC") == NULL);
	decisions_free(v, n);
	text = slurp(path);
	CHECK(strstr(text, "\"schema\":\t\"flakesweep/decisions/v1\"") != NULL);
	CHECK(strstr(text, "\"owner\":\t\"alice\"") != NULL);
	free(text);
	put(path, "[1, 2]");
	CHECK_INT(decisions_load(path, &v, &n), -EBADMSG);
	CHECK_INT(decisions_record(path, "p::TestA", "posted", NULL, NULL, 0), -EBADMSG);
	free(path);
}

/* A decisions.json that is a symbolic link to a shared file: the decisions
 * reach the shared file and the links stay links, and writers through two
 * links at once lose nothing. */
TEST(decisions_record_through_links)
{
	const char *tmp = check_tmpdir();
	char *real = xasprintf("%s/real", tmp), *shared = xasprintf("%s/real/decisions.json", tmp);
	char *links[2], *dir;
	struct decision *v;
	struct stat st;
	size_t n;
	pid_t pids[2];
	int i, k, status;

	CHECK_INT(util_mkdir_p(real), 0);
	for (i = 0; i < 2; i++) {
		dir = xasprintf("%s/d%d", tmp, i + 1);
		CHECK_INT(util_mkdir_p(dir), 0);
		links[i] = xasprintf("%s/decisions.json", dir);
		CHECK_INT(symlink("../real/decisions.json", links[i]), 0);
		free(dir);
	}
	/* The shared file is not there yet: the first decision creates it. */
	CHECK_INT(decisions_record(links[0], "p::TestA", "confirmed", NULL, NULL, 0), 0);
	CHECK_INT(lstat(links[0], &st), 0);
	CHECK(S_ISLNK(st.st_mode));
	CHECK_INT(decisions_undo(links[1], "p::TestA", NULL), 0);
	CHECK_INT(lstat(links[1], &st), 0);
	CHECK(S_ISLNK(st.st_mode));
	for (i = 0; i < 2; i++) {
		pids[i] = fork();
		CHECK(pids[i] >= 0);
		if (pids[i] == 0) {
			for (k = 0; k < 10; k++) {
				char *test = xasprintf("p::Test%d_%d", i, k);

				if (decisions_record(links[i], test, "dismissed", NULL, "r", 0) < 0)
					_exit(1);
				free(test);
			}
			_exit(0);
		}
	}
	for (i = 0; i < 2; i++) {
		CHECK(waitpid(pids[i], &status, 0) == pids[i]);
		CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
		CHECK_INT(lstat(links[i], &st), 0);
		CHECK(S_ISLNK(st.st_mode));
		free(links[i]);
	}
	CHECK_INT(decisions_load(shared, &v, &n), 0);
	CHECK_INT(n, 20);
	decisions_free(v, n);
	free(shared);
	free(real);
}

static void
check_decisions_refused(const char *text, const char *want)
{
	char *path = xasprintf("%s/decisions.json", check_tmpdir()), *why, *full;
	struct decision *v = NULL;
	size_t n = 0;

	put(path, text);
	CHECK_INT(decisions_load(path, &v, &n), -EBADMSG);
	why = decisions_problem(path);
	full = xasprintf("%s%s", path, want);
	CHECK_STR(why, full);
	free(full);
	free(why);
	free(path);
}

TEST(decisions_values_checked_on_read)
{
	check_decisions_refused("{\"tests\": {\"p::T\": {\"decision\": \"maybe\"}}}",
	                        ": tests: \"p::T\": decision: \"maybe\" is not posted, confirmed, "
	                        "quarantined, dismissed or closed");
	check_decisions_refused("{\"tests\": {\"p::T\": {\"decision\": \"posted\", \"url\": 7}}}",
	                        ": tests: \"p::T\": url: expected a string");
	check_decisions_refused("{\"tests\": {\"p::T\": 1}}",
	                        ": tests: \"p::T\": expected an object");
	check_decisions_refused("{\"tests\": {\"p::\xff\": {\"decision\": \"posted\"}}}",
	                        ":1:16: invalid JSON (not valid UTF-8)");
	check_decisions_refused("{\"tests\": {\n}", ":2:2: invalid JSON (expected ',' or '}')");
}

TEST(decisions_record_dismiss_reason)
{
	char *path = xasprintf("%s/decisions.json", check_tmpdir());
	struct decision *v = NULL;
	size_t n = 0;

	CHECK_INT(decisions_record(path, "p::TestC", "dismissed", NULL, "machine was swapping",
	                           1764468840000LL),
	          0);
	CHECK_INT(decisions_load(path, &v, &n), 0);
	CHECK_INT(n, 1);
	CHECK_STR(v[0].decision, "dismissed");
	CHECK_STR(v[0].reason, "machine was swapping");
	CHECK(v[0].url == NULL);
	decisions_free(v, n);
	free(path);
}

/* A test id that is not UTF-8 is written with byte escapes, so the file
 * is UTF-8 JSON, and read back as its bytes. */
TEST(decisions_keep_bytes_that_are_not_utf8)
{
	char *path = xasprintf("%s/decisions.json", check_tmpdir()), *text;
	struct decision *v = NULL;
	size_t n = 0;

	CHECK_INT(decisions_record(path, "p::T\xff\xfe", "confirmed", NULL, NULL, 0), 0);
	text = slurp(path);
	CHECK(strstr(text, "\"p::T\\udcff\\udcfe\":") != NULL);
	CHECK(json_utf8_valid(text, strlen(text)));
	free(text);
	CHECK_INT(decisions_load(path, &v, &n), 0);
	CHECK(decisions_find(v, n, "p::T\xff\xfe") != NULL);
	decisions_free(v, n);
	CHECK_INT(decisions_undo(path, "p::T\xff\xfe", NULL), 0);
	free(path);
}

TEST(decisions_history_and_undo)
{
	char *path = xasprintf("%s/decisions.json", check_tmpdir()), *text;
	struct decision *v = NULL, d, undone;
	size_t n = 0;

	memset(&d, 0, sizeof d);
	d.test = "p::TestA";
	d.decision = "dismissed";
	d.reason = "canary";
	CHECK_INT(decisions_record_one(path, &d, 1764468840000LL), 0);
	d.decision = "quarantined";
	d.reason = NULL;
	d.channel = "cpu=2,load=1";
	CHECK_INT(decisions_record_one(path, &d, 1764468900000LL), 0);
	text = slurp(path);
	CHECK_STR(text, "{\n"
	                "\t\"schema\":\t\"flakesweep/decisions/v1\",\n"
	                "\t\"tests\":\t{\n"
	                "\t\t\"p::TestA\":\t{\n"
	                "\t\t\t\"decision\":\t\"quarantined\",\n"
	                "\t\t\t\"channel\":\t\"cpu=2,load=1\",\n"
	                "\t\t\t\"time\":\t\"2025-11-30T02:15:00Z\",\n"
	                "\t\t\t\"history\":\t[{\n"
	                "\t\t\t\t\t\"decision\":\t\"dismissed\",\n"
	                "\t\t\t\t\t\"reason\":\t\"canary\",\n"
	                "\t\t\t\t\t\"time\":\t\"2025-11-30T02:14:00Z\"\n"
	                "\t\t\t\t}]\n"
	                "\t\t}\n"
	                "\t}\n"
	                "}\n");
	free(text);
	CHECK_INT(decisions_load(path, &v, &n), 0);
	CHECK_INT(n, 1);
	CHECK_STR(v[0].channel, "cpu=2,load=1");
	CHECK_INT(v[0].nhistory, 1);
	CHECK_STR(v[0].history[0].decision, "dismissed");
	CHECK_STR(v[0].history[0].reason, "canary");
	decisions_free(v, n);
	/* Undo: the quarantine goes, the dismissal is back; then nothing. */
	CHECK_INT(decisions_undo(path, "p::TestA", &undone), 0);
	CHECK_STR(undone.decision, "quarantined");
	CHECK_STR(undone.channel, "cpu=2,load=1");
	decision_clear(&undone);
	CHECK_INT(decisions_load(path, &v, &n), 0);
	CHECK_INT(n, 1);
	CHECK_STR(v[0].decision, "dismissed");
	CHECK_STR(v[0].reason, "canary");
	CHECK(v[0].channel == NULL);
	CHECK_INT(v[0].nhistory, 0);
	decisions_free(v, n);
	CHECK_INT(decisions_undo(path, "p::TestA", NULL), 0);
	CHECK_INT(decisions_undo(path, "p::TestA", NULL), -ENOENT);
	text = slurp(path);
	CHECK_STR(text,
	          "{\n\t\"schema\":\t\"flakesweep/decisions/v1\",\n\t\"tests\":\t{\n\t}\n}\n");
	free(text);
	check_decisions_refused("{\"tests\": {\"p::T\": {\"decision\": \"posted\", \"history\": "
	                        "[{\"decision\": \"gone\"}]}}}",
	                        ": tests: \"p::T\": history[0]: decision: \"gone\" is not posted, "
	                        "confirmed, quarantined, dismissed or closed");
	free(path);
}

TEST(decisions_load_both_project_over_sweep)
{
	char *a = xasprintf("%s/sweep.json", check_tmpdir());
	char *b = xasprintf("%s/project.json", check_tmpdir());
	struct decision *v = NULL;
	size_t n = 0;

	CHECK_INT(decisions_record(a, "p::TestA", "posted", "https://x/1", NULL, 0), 0);
	CHECK_INT(decisions_record(a, "p::TestB", "confirmed", NULL, NULL, 0), 0);
	CHECK_INT(decisions_record(b, "p::TestB", "dismissed", NULL, "canary", 0), 0);
	CHECK_INT(decisions_load_both(a, b, &v, &n), 0);
	CHECK_INT(n, 2);
	CHECK_STR(decisions_find(v, n, "p::TestA")->decision, "posted");
	CHECK_STR(decisions_find(v, n, "p::TestB")->decision, "dismissed");
	decisions_free(v, n);
	free(a);
	free(b);
}

TEST(post_repro_relative_to_the_root)
{
	const char *tmp = check_tmpdir();
	char *top = xasprintf("%s/repo", tmp), *sub = xasprintf("%s/repo/mod/pkg", tmp), *line,
	     *got, *real;
	struct post_repro_build race = {true, NULL}, tags = {false, "integration e2e"};

	CHECK_INT(util_mkdir_p(sub), 0);
	real = realpath(top, NULL);
	CHECK(real != NULL);
	/* The flakesweep line from the root: no cd at all. */
	line = xasprintf("cd %s && flakesweep stress --cpu 2 --load 1 --count 10 --run '^TestX$' "
	                 "example.com/m/pkg",
	                 top);
	got = post_repro_relative(line, real, NULL, &race);
	CHECK_STR(got, "flakesweep stress --cpu 2 --load 1 --count 10 --run '^TestX$' "
	               "example.com/m/pkg");
	free(got);
	free(line);
	/* The Go binary becomes go test in the package's directory. */
	line = xasprintf("export TZ=UTC && cd %s && taskset -c 0,1 %s/out/bin/x.test -test.v "
	                 "-test.paniconexit0 -test.run '^TestX$' -test.cpu 2 -test.count 10 "
	                 "-test.shuffle 42 -test.timeout 30000ms",
	                 sub, tmp);
	got = post_repro_relative(line, real, "go", &tags);
	CHECK_STR(got, "export TZ=UTC && cd mod/pkg && taskset -c 0,1 go test -tags 'integration "
	               "e2e' -v -run '^TestX$' -cpu 2 -count 10 -shuffle 42 -timeout 30000ms");
	free(got);
	/* Another driver's binary in the output directory: left out. */
	CHECK(post_repro_relative(line, real, "tap", &race) == NULL);
	free(line);
	/* A directory outside the checkout: left out. */
	line = xasprintf("cd %s && flakesweep stress ./...", tmp);
	CHECK(post_repro_relative(line, real, NULL, &race) == NULL);
	free(line);
	/* No cd: kept, unless it holds an absolute path. */
	got = post_repro_relative("flakesweep --cpu 1 ./cache", real, NULL, &race);
	CHECK_STR(got, "flakesweep --cpu 1 ./cache");
	free(got);
	CHECK(post_repro_relative("taskset -c 0 /home/me/x.test -test.v", real, "go", &race) ==
	      NULL);
	free(real);
	free(top);
	free(sub);
}
