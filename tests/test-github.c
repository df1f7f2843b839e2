/* SPDX-License-Identifier: MIT */
/*
 * test-github.c: the GraphQL client: endpoints, tokens, how GitHub's
 * replies and faults are classified, masking, and the asynchronous post
 * against the local stand-in for GitHub (tests/server), which checks each
 * document against GitHub's published schema. Each test that runs a loop
 * closes it with every handle gone.
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <curl/curl.h>

#include "check.h"
#include "github/github.h"
#include "github/post.h"
#include "base/util.h"

#define TOKEN "ghp_testTOKEN0123456789abcdefABCDEF"

static void
clear_env(void)
{
	unsetenv("GH_HOST");
	unsetenv("GH_TOKEN");
	unsetenv("GITHUB_TOKEN");
	unsetenv("GH_ENTERPRISE_TOKEN");
	unsetenv("GITHUB_ENTERPRISE_TOKEN");
	unsetenv("FLAKESWEEP_GITHUB_TIMEOUT");
	unsetenv("FLAKESWEEP_HTTP_TRACE");
	setenv("TZ", "UTC", 1);
}

TEST(github_endpoints)
{
	char *err = NULL, *url;

	clear_env();
	url = github_endpoint(NULL, &err);
	CHECK_STR(url, "https://api.github.com/graphql");
	free(url);
	setenv("GH_HOST", "GitHub.Example.com", 1);
	url = github_endpoint(NULL, &err);
	CHECK_STR(url, "https://github.example.com/api/graphql");
	free(url);
	url = github_web_base();
	CHECK_STR(url, "https://github.example.com");
	free(url);
	setenv("GH_HOST", "acme.ghe.com", 1);
	url = github_endpoint(NULL, &err);
	CHECK_STR(url, "https://api.acme.ghe.com/graphql");
	free(url);
	setenv("GH_HOST", "github.com", 1);
	url = github_endpoint(NULL, &err);
	CHECK_STR(url, "https://api.github.com/graphql");
	free(url);
	setenv("GH_HOST", "evil/host", 1);
	CHECK(github_endpoint(NULL, &err) == NULL);
	CHECK_STR(err, "GH_HOST is not a host name: evil/host");
	free(err);
	unsetenv("GH_HOST");
	url = github_endpoint("https://gh.example.com/api/graphql", &err);
	CHECK_STR(url, "https://gh.example.com/api/graphql");
	free(url);
	url = github_endpoint("http://127.0.0.1:8080/graphql", &err);
	CHECK_STR(url, "http://127.0.0.1:8080/graphql");
	free(url);
	url = github_endpoint("http://localhost/graphql", &err);
	CHECK_STR(url, "http://localhost/graphql");
	free(url);
	url = github_endpoint("http://[::1]:9/graphql", &err);
	CHECK_STR(url, "http://[::1]:9/graphql");
	free(url);
	CHECK(github_endpoint("http://example.com/graphql", &err) == NULL);
	CHECK_STR(err, "--api-url must be https (http only on a loopback address): "
	               "http://example.com/graphql");
	free(err);
	CHECK(github_endpoint("ftp://127.0.0.1/graphql", &err) == NULL);
	free(err);
	CHECK(github_endpoint("https://user:pw@gh.example.com/graphql", &err) == NULL);
	CHECK_STR(err, "--api-url must not carry credentials");
	free(err);
	CHECK(github_endpoint("not a url", &err) == NULL);
	free(err);
}

/* Plain HTTP only to a loopback address: an IP literal in 127.0.0.0/8 or
 * ::1, or the name localhost, never a name that merely starts with 127. */
TEST(github_endpoint_loopback)
{
	static const char *const refused[] = {
	    "http://127.attacker.example:18850/graphql",
	    "http://127.0.0.1.nip.io/graphql",
	    "http://localhost.attacker.example/graphql",
	    "http://127/graphql",
	    "http://[::2]/graphql",
	    "http://128.0.0.1/graphql",
	    "http://0.0.0.0/graphql",
	    "http://[::ffff:10.0.0.1]/graphql",
	};
	static const char *const accepted[] = {"http://127.254.3.1:9/graphql",
	                                       "http://LocalHost:9/graphql"};
	char *url, *err = NULL;
	size_t i;

	for (i = 0; i < sizeof refused / sizeof *refused; i++) {
		url = github_endpoint(refused[i], &err);
		if (url != NULL)
			check_fail(__FILE__, __LINE__, "%s was taken for loopback", refused[i]);
		free(url);
		free(err);
		err = NULL;
	}
	for (i = 0; i < sizeof accepted / sizeof *accepted; i++) {
		url = github_endpoint(accepted[i], &err);
		CHECK_STR(url, accepted[i]);
		free(url);
	}
}

/* localhost is resolved before any connection, every address must be
 * loopback, and libcurl is pinned to the addresses checked. */
TEST(github_loopback_pin)
{
	struct sockaddr_in v4 = {0}, v4b = {0};
	struct sockaddr_in6 v6 = {0};
	struct addrinfo a = {0}, b = {0}, c = {0};
	char *entry = NULL, *err = NULL;

	v4.sin_family = AF_INET;
	inet_pton(AF_INET, "127.0.0.1", &v4.sin_addr);
	v6.sin6_family = AF_INET6;
	v6.sin6_addr = in6addr_loopback;
	v4b.sin_family = AF_INET;
	inet_pton(AF_INET, "192.0.2.2", &v4b.sin_addr);
	a.ai_family = AF_INET;
	a.ai_addr = (struct sockaddr *)&v4;
	a.ai_addrlen = sizeof v4;
	a.ai_next = &b;
	b.ai_family = AF_INET6;
	b.ai_addr = (struct sockaddr *)&v6;
	b.ai_addrlen = sizeof v6;
	CHECK_INT(github_loopback_pin("localhost", 8080, &a, &entry, &err), 0);
	CHECK_STR(entry, "localhost:8080:127.0.0.1,[::1]");
	free(entry);
	entry = NULL;
	/* One address elsewhere, and nothing is pinned. */
	b.ai_next = &c;
	c.ai_family = AF_INET;
	c.ai_addr = (struct sockaddr *)&v4b;
	c.ai_addrlen = sizeof v4b;
	CHECK_INT(github_loopback_pin("localhost", 8080, &a, &entry, &err), -EINVAL);
	CHECK(entry == NULL);
	CHECK_STR(err, "--api-url: localhost resolves to 192.0.2.2, not a loopback address");
	free(err);
	err = NULL;
	CHECK_INT(github_loopback_pin("localhost", 8080, NULL, &entry, &err), -EINVAL);
	CHECK_STR(err, "--api-url: localhost resolves to no address");
	free(err);
}

static int
new_client(uv_loop_t *loop, struct github **gh, char **err)
{
	struct github_config cfg;

	github_config_init(&cfg);
	return github_new(loop, &cfg, gh, err);
}

/* Links GitHub answers with: https on the web host of the endpoint in use,
 * and nothing a terminal would act on. */
TEST(github_web_urls)
{
	static const char *const refused[] = {
	    "http://github.com/o/n/discussions/1",
	    "https://github.com.evil.example/o/n/discussions/1",
	    "https://github.com/o/n/discussions/1\x1b]0;PWNED\x07",
	    "https://github.com/o/n/discussions/1\xc2\x9b",
	    "https://github.com/o/n/discussions/1 x",
	    "https://user@github.com/o/n/discussions/1",
	    "https://ghe.example.com/o/n/discussions/1",
	    "javascript:alert(1)",
	};
	uv_loop_t loop;
	struct github *gh;
	struct github_config cfg;
	char *err = NULL;
	size_t i;

	clear_env();
	uv_loop_init(&loop);
	setenv("GH_TOKEN", TOKEN, 1);
	CHECK_INT(new_client(&loop, &gh, &err), 0);
	CHECK(github_web_url_ok(gh, "https://github.com/o/n/discussions/1"));
	CHECK(github_web_url_ok(gh, "https://GitHub.com/o/n/issues/2"));
	for (i = 0; i < sizeof refused / sizeof *refused; i++) {
		if (github_web_url_ok(gh, refused[i]))
			check_fail(__FILE__, __LINE__, "%s was accepted", refused[i]);
	}
	github_free(gh);
	/* Enterprise: the GH_HOST host, not github.com. */
	setenv("GH_HOST", "ghe.example.com", 1);
	setenv("GH_ENTERPRISE_TOKEN", "ent", 1);
	CHECK_INT(new_client(&loop, &gh, &err), 0);
	CHECK(github_web_url_ok(gh, "https://ghe.example.com/o/n/discussions/1"));
	CHECK(!github_web_url_ok(gh, "https://github.com/o/n/discussions/1"));
	github_free(gh);
	/* A loopback stand-in may answer with its own host. */
	github_config_init(&cfg);
	cfg.api_url = "http://127.0.0.1:9/graphql";
	CHECK_INT(github_new(&loop, &cfg, &gh, &err), 0);
	CHECK(github_web_url_ok(gh, "http://127.0.0.1:9/o/n/discussions/1"));
	CHECK(!github_web_url_ok(gh, "http://127.0.0.2/o/n/discussions/1"));
	github_free(gh);
	uv_run(&loop, UV_RUN_DEFAULT);
	CHECK_INT(uv_loop_close(&loop), 0);
	clear_env();
}

TEST(github_token_sources)
{
	uv_loop_t loop;
	struct github *gh;
	char *err = NULL, s[80];

	clear_env();
	uv_loop_init(&loop);
	CHECK_INT(new_client(&loop, &gh, &err), -EINVAL);
	CHECK_STR(err,
	          "no GitHub token: set GH_TOKEN or GITHUB_TOKEN (a token with the public_repo "
	          "or repo scope, or Discussions write access)");
	free(err);
	setenv("GITHUB_TOKEN", "second", 1);
	CHECK_INT(new_client(&loop, &gh, &err), 0);
	CHECK_STR(github_token_source(gh), "GITHUB_TOKEN");
	github_free(gh);
	setenv("GH_TOKEN", TOKEN, 1);
	CHECK_INT(new_client(&loop, &gh, &err), 0);
	CHECK_STR(github_token_source(gh), "GH_TOKEN");
	snprintf(s, sizeof s, "a %s b %s", TOKEN, TOKEN);
	github_mask(gh, s);
	CHECK(strstr(s, "ghp_") == NULL);
	CHECK_INT(strlen(s), 5 + 2 * strlen(TOKEN));
	CHECK_INT(strspn(s + 2, "*"), strlen(TOKEN));
	github_free(gh);
	/* Enterprise hosts take only the enterprise variables. */
	setenv("GH_HOST", "ghe.example.com", 1);
	CHECK_INT(new_client(&loop, &gh, &err), -EINVAL);
	CHECK_STR(err, "no GitHub token: set GH_ENTERPRISE_TOKEN or GITHUB_ENTERPRISE_TOKEN (a "
	               "token with the public_repo or repo scope, or Discussions write access)");
	free(err);
	setenv("GITHUB_ENTERPRISE_TOKEN", "ent", 1);
	CHECK_INT(new_client(&loop, &gh, &err), 0);
	CHECK_STR(github_token_source(gh), "GITHUB_ENTERPRISE_TOKEN");
	github_free(gh);
	unsetenv("GH_HOST");
	/* A token that would break the header is refused, not sent. */
	setenv("GH_TOKEN", "abc\r\nX-Evil: 1", 1);
	CHECK_INT(new_client(&loop, &gh, &err), -EINVAL);
	CHECK_STR(err, "the token in GH_TOKEN contains spaces or control characters");
	free(err);
	uv_run(&loop, UV_RUN_DEFAULT);
	CHECK_INT(uv_loop_close(&loop), 0);
}

struct cls {
	struct github_reply r;
	cJSON *json;
	char *message, *type;
};

static void
classify(struct cls *c, int code, long status, const char *body, int64_t retry_after,
         const char *remaining, const char *reset, bool mutation)
{
	struct github_exchange x;

	memset(&x, 0, sizeof x);
	x.curl_code = code;
	x.curl_error = code == CURLE_GOT_NOTHING ? "Empty reply from server" : "";
	x.status = status;
	x.body = body;
	x.len = strlen(body);
	x.retry_after_s = retry_after;
	x.rl_remaining = remaining;
	x.rl_reset = reset;
	x.now_ms = 1764468000000LL; /* 2026-11-30T02:00:00Z */
	x.mutation = mutation;
	x.url = "https://api.github.com/graphql";
	x.timeout_ms = 30000;
	x.token_source = "GH_TOKEN";
	github_classify(&x, &c->r, &c->json, &c->message, &c->type);
}

static void
cls_free(struct cls *c)
{
	cJSON_Delete(c->json);
	free(c->message);
	free(c->type);
}

static char *
reference(const char *name)
{
	char *path, *text = NULL;

	path = xasprintf("%s/tests/fixtures/reference/github-graphql/%s", check_srcdir(), name);
	if (util_read_file(path, 1 << 20, &text, NULL) < 0)
		check_fail(__FILE__, __LINE__, "cannot read %s", path);
	free(path);
	return text;
}

TEST(github_classify_reference_errors)
{
	struct cls c;
	char *body;

	clear_env();
	body = reference("err_http401_bad_credentials.response.json");
	classify(&c, 0, 401, body, 0, NULL, NULL, false);
	CHECK_INT(c.r.error, GITHUB_ERR_AUTH);
	CHECK_STR(c.message, "GitHub rejected the token in GH_TOKEN (bad credentials)");
	CHECK(!c.r.transient);
	cls_free(&c);
	free(body);

	body = reference("err_http403_secondary_rate_limit.response.json");
	classify(&c, 0, 403, body, 60, "4000", "1764471600", true);
	CHECK_INT(c.r.error, GITHUB_ERR_RATE_LIMITED);
	CHECK_INT(c.r.retry_at_ms, 1764468060000LL);
	CHECK(c.r.transient);
	CHECK(!c.r.maybe_applied);
	CHECK_STR(c.message, "GitHub's rate limit was reached: try again after 02:01");
	cls_free(&c);
	/* Without Retry-After: a minute, as GitHub asks. */
	classify(&c, 0, 403, body, 0, "4000", "1764471600", false);
	CHECK_INT(c.r.error, GITHUB_ERR_RATE_LIMITED);
	CHECK_INT(c.r.retry_at_ms, 1764468060000LL);
	cls_free(&c);
	free(body);

	body = reference("err_rate_limited.response.json");
	classify(&c, 0, 200, body, 0, "0", "1764471600", false);
	CHECK_INT(c.r.error, GITHUB_ERR_RATE_LIMITED);
	CHECK_STR(c.type, "RATE_LIMITED");
	CHECK_INT(c.r.retry_at_ms, 1764471600000LL);
	CHECK_STR(c.message, "GitHub's rate limit was reached: try again after 03:00");
	cls_free(&c);
	classify(&c, 0, 200, body, 0, "0", "4102444800", false);
	CHECK_STR(c.message, "GitHub's rate limit was reached: try again after 2100-01-01 00:00");
	cls_free(&c);
	free(body);

	body = reference("err_not_found.response.json");
	classify(&c, 0, 200, body, 0, NULL, NULL, false);
	CHECK_INT(c.r.error, GITHUB_ERR_NOT_FOUND);
	CHECK_STR(c.message,
	          "GitHub found nothing: Could not resolve to a Repository with the name "
	          "'OWNER/missing'.");
	CHECK(c.r.data != NULL);
	cls_free(&c);
	free(body);

	body = reference("err_forbidden_integration.response.json");
	classify(&c, 0, 200, body, 0, NULL, NULL, true);
	CHECK_INT(c.r.error, GITHUB_ERR_SCOPE);
	CHECK_STR(c.type, "FORBIDDEN");
	CHECK_STR(c.message, "the token in GH_TOKEN may not do this (Resource not accessible by "
	                     "integration): posting needs Discussions write access, or the "
	                     "public_repo scope (repo for a private repository)");
	CHECK(!c.r.maybe_applied);
	cls_free(&c);
	free(body);

	body = reference("err_validation_undefined_field.response.json");
	classify(&c, 0, 200, body, 0, NULL, NULL, false);
	CHECK_INT(c.r.error, GITHUB_ERR_INVALID);
	CHECK_STR(c.type, "argumentNotAccepted");
	CHECK_STR(
	    c.message,
	    "GitHub refused the request: Field 'discussions' doesn't accept argument 'closed'");
	cls_free(&c);
	free(body);

	body = reference("03_create_discussion.response.json");
	classify(&c, 0, 200, body, 0, NULL, NULL, true);
	CHECK_INT(c.r.error, GITHUB_OK);
	CHECK(c.message == NULL);
	CHECK(c.r.data != NULL);
	cls_free(&c);
	free(body);
}

TEST(github_classify_faults)
{
	struct cls c;

	clear_env();
	classify(&c, 0, 200, "{\"errors\":[{\"type\":\"INSUFFICIENT_SCOPES\",\"message\":\"no\"}]}",
	         0, NULL, NULL, false);
	CHECK_INT(c.r.error, GITHUB_ERR_SCOPE);
	CHECK_STR(c.message,
	          "the token in GH_TOKEN is missing a scope: it needs public_repo (repo for a "
	          "private repository)");
	cls_free(&c);
	classify(&c, 0, 502, "<html>We couldn't respond to your request in time.</html>", 0, NULL,
	         NULL, true);
	CHECK_INT(c.r.error, GITHUB_ERR_SERVER);
	CHECK(c.r.transient);
	CHECK(c.r.maybe_applied);
	CHECK_STR(c.message, "GitHub answered HTTP 502: try again later");
	cls_free(&c);
	classify(&c, 0, 429, "", 2, NULL, NULL, false);
	CHECK_INT(c.r.error, GITHUB_ERR_RATE_LIMITED);
	CHECK_INT(c.r.retry_at_ms, 1764468002000LL);
	cls_free(&c);
	classify(&c, 0, 403, "{\"message\":\"Must have admin rights to Repository.\"}", 0, "4999",
	         NULL, false);
	CHECK_INT(c.r.error, GITHUB_ERR_SCOPE);
	CHECK_STR(c.message, "GitHub refused the request (HTTP 403): Must have admin rights to "
	                     "Repository.");
	cls_free(&c);
	classify(&c, 0, 404, "{\"message\":\"Not Found\"}", 0, NULL, NULL, false);
	CHECK_INT(c.r.error, GITHUB_ERR_INVALID);
	CHECK_STR(c.message,
	          "GitHub answered HTTP 404 for https://api.github.com/graphql: Not Found");
	cls_free(&c);
	classify(&c, 0, 200, "not json", 0, NULL, NULL, false);
	CHECK_INT(c.r.error, GITHUB_ERR_PROTOCOL);
	cls_free(&c);
	classify(&c, 0, 200, "{\"data\":null}", 0, NULL, NULL, false);
	CHECK_INT(c.r.error, GITHUB_ERR_PROTOCOL);
	cls_free(&c);
	classify(&c, CURLE_OPERATION_TIMEDOUT, 0, "", 0, NULL, NULL, true);
	CHECK_INT(c.r.error, GITHUB_ERR_TIMEOUT);
	CHECK(c.r.transient);
	CHECK(c.r.maybe_applied);
	CHECK_STR(c.message, "GitHub did not answer within 30s (https://api.github.com/graphql)");
	cls_free(&c);
	classify(&c, CURLE_GOT_NOTHING, 0, "", 0, NULL, NULL, true);
	CHECK_INT(c.r.error, GITHUB_ERR_NETWORK);
	CHECK(c.r.maybe_applied);
	CHECK_STR(c.message,
	          "cannot reach https://api.github.com/graphql: Empty reply from server");
	cls_free(&c);
	classify(&c, CURLE_COULDNT_CONNECT, 0, "", 0, NULL, NULL, true);
	CHECK(c.r.transient);
	CHECK(!c.r.maybe_applied);
	cls_free(&c);
	classify(&c, CURLE_PEER_FAILED_VERIFICATION, 0, "", 0, NULL, NULL, false);
	CHECK(!c.r.transient);
	CHECK(strstr(c.message, "SSL_CERT_FILE or CURL_CA_BUNDLE") != NULL);
	cls_free(&c);
	/* A server message is one bounded, clean line. */
	{
		struct buf b;

		buf_init(&b);
		buf_adds(&b, "{\"errors\":[{\"message\":\"line\\none\\u001b[31m");
		while (b.len < 2000)
			buf_adds(&b, "xxxxxxxxxx");
		buf_adds(&b, "\"}]}");
		classify(&c, 0, 200, b.data, 0, NULL, NULL, false);
		CHECK(strchr(c.message, '\n') == NULL);
		CHECK(strchr(c.message, '\x1b') == NULL);
		CHECK(strlen(c.message) < 400);
		cls_free(&c);
		buf_free(&b);
	}
}

/* ---- Against the stand-in ---- */

struct standin {
	pid_t pid;
	int port;
	char *log;
};

/* Starts tests/server/graphql-standin.js on a port it picks; skips the
 * test when node is not installed at all. */
static void
standin_start(struct standin *s, const char *test_id)
{
	const char *tmp = check_tmpdir();
	char *script = xasprintf("%s/tests/server/graphql-standin.js", check_srcdir());
	char *modules =
	    xasprintf("%s/tests/server/node_modules/@octokit/graphql-schema", check_srcdir());
	char *portfile = xasprintf("%s/standin.port", tmp);
	struct stat st;
	int i;

	if (system("command -v node >/dev/null 2>&1") != 0)
		check_skip("node is not installed");
	if (stat(modules, &st) < 0 && getenv("STANDIN_NODE_MODULES") != NULL) {
		/* A tree without tests/server/node_modules (make distcheck): run a
		 * copy of the script beside the installed copy named there. */
		char *dir = xasprintf("%s/server", tmp), *text = NULL, *copy, *link;

		CHECK_INT(util_mkdir_p(dir), 0);
		CHECK_INT(util_read_file(script, 1 << 20, &text, NULL), 0);
		copy = xasprintf("%s/graphql-standin.js", dir);
		CHECK_INT(util_write_file_atomic(copy, text, strlen(text)), 0);
		link = xasprintf("%s/node_modules", dir);
		CHECK_INT(symlink(getenv("STANDIN_NODE_MODULES"), link), 0);
		free(modules);
		modules = xasprintf("%s/@octokit/graphql-schema", link);
		free(script);
		script = copy;
		free(link);
		free(text);
		free(dir);
	}
	if (stat(modules, &st) < 0)
		check_skip("tests/server/node_modules is missing: run (cd tests/server "
		           "&& npm ci) to test the GitHub calls");
	s->log = xasprintf("%s/standin.log", tmp);
	setenv("STANDIN_TOKEN", TOKEN, 1);
	s->pid = fork();
	if (s->pid == 0) {
		execlp("node", "node", script, "--port-file", portfile, "--log", s->log, "--test",
		       test_id, "--lifetime", "100", "--idle", "60", "--delay", "8000",
		       (char *)NULL);
		_exit(127);
	}
	CHECK(s->pid > 0);
	for (i = 0; i < 400; i++) {
		char *text = NULL;

		if (util_read_file(portfile, 64, &text, NULL) == 0) {
			s->port = atoi(text);
			free(text);
			break;
		}
		usleep(50000);
	}
	if (s->port <= 0)
		check_fail(__FILE__, __LINE__, "the stand-in did not start");
	free(portfile);
	free(modules);
	free(script);
}

static void
standin_stop(struct standin *s)
{
	kill(s->pid, SIGTERM);
	waitpid(s->pid, NULL, 0);
	free(s->log);
}

struct outcome_box {
	int calls;
	enum post_status status;
	char *url, *message;
};

static void
done_cb(const struct post_result *r, void *data)
{
	struct outcome_box *o = data;

	o->calls++;
	o->status = r->status;
	o->url = r->url != NULL ? xstrdup(r->url) : NULL;
	o->message = r->message != NULL ? xstrdup(r->message) : NULL;
}

static char *
demo_results(void)
{
	/* The demo results without a project on disk: --repo names the target. */
	char *src = xasprintf("%s/tests/fixtures/post/demo/results.json", check_srcdir());
	char *dir = xasprintf("%s/out", check_tmpdir()), *dst, *text = NULL;

	CHECK_INT(util_mkdir_p(dir), 0);
	CHECK_INT(util_read_file(src, 1 << 20, &text, NULL), 0);
	dst = xasprintf("%s/results.json", dir);
	CHECK_INT(util_write_file_atomic(dst, text, strlen(text)), 0);
	free(text);
	free(dir);
	free(src);
	return dst;
}

static void
cancel_cb(uv_timer_t *t)
{
	post_cancel(t->data);
	uv_close((uv_handle_t *)t, NULL);
}

static void
run_post(struct standin *s, const char *scenario, struct outcome_box *o, bool cancel_soon)
{
	static const char id[] = "example.com/widgets/cache::TestCache/evicts_under_pressure";
	struct post_input in;
	struct post_draft *d;
	struct post_options opt;
	struct post *p;
	char *results = demo_results(), *err = NULL, *url;
	uv_loop_t loop;
	uv_timer_t t;

	memset(&in, 0, sizeof in);
	in.results_path = results;
	in.test_id = id;
	in.description = "It fails now and then.";
	in.repo = "demo/widgets";
	CHECK_INT(post_draft_new(&in, &d, &err), 0);
	url = xasprintf("http://127.0.0.1:%d/%s/graphql", s->port, scenario);
	post_options_init(&opt);
	opt.github.api_url = url;
	opt.github.timeout_ms = 5000;
	uv_loop_init(&loop);
	CHECK_INT(post_start(&loop, d, &opt, done_cb, o, &p, &err), 0);
	if (cancel_soon) {
		/* Cancel while the first request waits for its (slow) reply. */
		uv_timer_init(&loop, &t);
		t.data = p;
		uv_timer_start(&t, cancel_cb, 300, 0);
	}
	uv_run(&loop, UV_RUN_DEFAULT);
	CHECK_INT(uv_loop_close(&loop), 0);
	CHECK_INT(o->calls, 1);
	free(url);
	free(results);
}

TEST(github_async_post_against_standin)
{
	struct standin s = {0};
	struct outcome_box o;

	clear_env();
	setenv("GH_TOKEN", TOKEN, 1);
	standin_start(&s, "example.com/widgets/cache::TestCache/evicts_under_pressure");
	memset(&o, 0, sizeof o);
	run_post(&s, "ok", &o, false);
	CHECK_INT(o.status, POST_POSTED);
	CHECK_STR(o.url, "https://github.com/demo/widgets/discussions/40");
	free(o.url);
	free(o.message);
	/* The second post of the same test finds the first and comments. */
	memset(&o, 0, sizeof o);
	run_post(&s, "ok", &o, false);
	CHECK_INT(o.status, POST_COMMENTED);
	CHECK_STR(o.url, "https://github.com/demo/widgets/discussions/40#discussioncomment-4001");
	free(o.url);
	free(o.message);
	/* Cancelled mid-call: the callback runs once, every handle closes. */
	memset(&o, 0, sizeof o);
	run_post(&s, "slow", &o, true);
	CHECK_INT(o.status, POST_CANCELLED);
	free(o.url);
	free(o.message);
	{
		char *log = NULL;

		CHECK_INT(util_read_file(s.log, 1 << 20, &log, NULL), 0);
		CHECK(strstr(log, "valid=no") == NULL);
		CHECK(strstr(log, "ok 3 CreateDiscussion 200 valid=yes auth=ok ua=ok") != NULL);
		/* No create after the first was found: a comment instead. */
		CHECK(strstr(log, "ok 6 AddDiscussionComment 200 valid=yes") != NULL);
		CHECK(strstr(log, "ok 7 ") == NULL);
		CHECK(strstr(log, TOKEN) == NULL);
		free(log);
	}
	standin_stop(&s);
}
