/* SPDX-License-Identifier: MIT */
/*
 * github.c: a GraphQL client for GitHub on libcurl's multi interface,
 * driven by libuv through http-uv.c, so the loop never blocks on the
 * network. It knows GitHub's endpoints, token variables, error shapes,
 * retries and rate limits, and nothing about discussions or tests. The
 * token never leaves this file: it is handed to libcurl, masked in every
 * reply, message and trace, and wiped when the client is freed.
 */
#include "config.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <netdb.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <curl/curl.h>

#include "github/github.h"
#include "base/http-uv.h"
#include "base/jsonw.h"
#include "base/sanitize.h"
#include "base/timefmt.h"
#include "base/util.h"

#define GITHUB_API_URL "https://api.github.com/graphql"
#define GITHUB_REPLY_MAX (16u << 20)
#define GITHUB_MESSAGE_MAX 300
#define GITHUB_DEFAULT_CONNECT_TIMEOUT_MS 10000
#define GITHUB_DEFAULT_TIMEOUT_MS 30000
#define GITHUB_DEFAULT_MAX_WAIT_MS 90000
#define GITHUB_DEFAULT_BACKOFF_MS 1000
#define GITHUB_DEFAULT_MUTATION_GAP_MS 1000
#define GITHUB_DEFAULT_ATTEMPTS 4
/* A secondary limit without Retry-After: GitHub asks for at least a minute. */
#define GITHUB_SECONDARY_WAIT_MS 60000

struct github_call {
	char *request; /* the JSON body sent */
	size_t request_len;
	bool mutation;
	github_reply_cb cb;
	void *data;
	int attempts;
	int64_t backoff_ms;
	CURL *easy;
	struct curl_slist *headers;
	struct buf reply;
	bool reply_too_big;
	char errbuf[CURL_ERROR_SIZE];
};

struct github {
	struct http_uv *http;  /* NULL once closed */
	uv_timer_t wait_timer; /* backoff, rate-limit waits, mutation spacing */
	int open_handles;      /* wait_timer and http */
	int depth;             /* >0 while code of this file is on the stack */
	bool closing;
	struct github_config cfg;
	char *url;
	bool loopback;
	struct curl_slist *resolve; /* localhost pinned to its checked addresses */
	char *token;
	const char *token_source;
	char *user_agent;
	struct github_call *call;
	int64_t last_mutation_ms; /* monotonic; 0: none yet */
};

static void github_send(struct github *gh);
static void github_maybe_destroy(struct github *gh);
static void github_done_cb(CURL *easy, CURLcode result, void *data);

void
github_config_init(struct github_config *cfg)
{
	const char *v;
	int64_t ms;

	memset(cfg, 0, sizeof *cfg);
	v = getenv("FLAKESWEEP_GITHUB_TIMEOUT");
	if (v != NULL && timefmt_parse_duration(v, &ms) == 0 && ms > 0)
		cfg->timeout_ms = ms;
	v = getenv("FLAKESWEEP_HTTP_TRACE");
	if (v != NULL && *v != '\0')
		cfg->trace = stderr;
}

/* An IP literal in 127.0.0.0/8, or ::1 (bracketed as URLs write it). */
static bool
github_host_is_loopback_ip(const char *host)
{
	char v6[INET6_ADDRSTRLEN];
	struct in6_addr a6;
	struct in_addr a4;
	size_t n = strlen(host);

	if (inet_pton(AF_INET, host, &a4) == 1)
		return (ntohl(a4.s_addr) >> 24) == 127;
	if (n < 3 || n - 2 >= sizeof v6 || host[0] != '[' || host[n - 1] != ']')
		return false;
	memcpy(v6, host + 1, n - 2);
	v6[n - 2] = '\0';
	return inet_pton(AF_INET6, v6, &a6) == 1 && IN6_IS_ADDR_LOOPBACK(&a6);
}

/* The name localhost, whose addresses github_new checks and pins, or a
 * loopback IP literal; never a name that only looks like one. */
static bool
github_host_is_loopback(const char *host)
{
	return strcasecmp(host, "localhost") == 0 || strcmp(host, "::1") == 0 ||
	       github_host_is_loopback_ip(host);
}

int
github_loopback_pin(const char *host, int port, const struct addrinfo *ai, char **entry, char **err)
{
	struct buf b;
	char addr[INET6_ADDRSTRLEN];

	*err = NULL;
	if (ai == NULL) {
		*err = xasprintf(_("--api-url: %s resolves to no address"), host);
		return -EINVAL;
	}
	buf_init(&b);
	buf_printf(&b, "%s:%d:", host, port);
	for (; ai != NULL; ai = ai->ai_next) {
		bool ok = false;

		addr[0] = '\0';
		if (ai->ai_family == AF_INET) {
			const struct sockaddr_in *s = (const struct sockaddr_in *)ai->ai_addr;

			inet_ntop(AF_INET, &s->sin_addr, addr, sizeof addr);
			ok = (ntohl(s->sin_addr.s_addr) >> 24) == 127;
		} else if (ai->ai_family == AF_INET6) {
			const struct sockaddr_in6 *s = (const struct sockaddr_in6 *)ai->ai_addr;

			inet_ntop(AF_INET6, &s->sin6_addr, addr, sizeof addr);
			ok = IN6_IS_ADDR_LOOPBACK(&s->sin6_addr);
		}
		if (!ok) {
			*err = xasprintf(_("--api-url: %s resolves to %s, not a loopback address"),
			                 host, addr[0] != '\0' ? addr : "?");
			buf_free(&b);
			return -EINVAL;
		}
		buf_printf(&b, ai->ai_family == AF_INET6 ? "%s[%s]" : "%s%s",
		           b.data[b.len - 1] == ':' ? "" : ",", addr);
	}
	*entry = buf_steal(&b);
	return 0;
}

/* GH_HOST, lower-cased, when it names a host other than github.com. */
static char *
github_host_env(void)
{
	const char *v = getenv("GH_HOST");
	char *h, *p;

	if (v == NULL || *v == '\0')
		return NULL;
	h = xstrdup(v);
	for (p = h; *p != '\0'; p++)
		*p = (char)tolower((unsigned char)*p);
	if (strcmp(h, "github.com") == 0 || strcmp(h, "api.github.com") == 0) {
		free(h);
		return NULL;
	}
	return h;
}

static bool
github_host_is_ghe_com(const char *host)
{
	size_t n = strlen(host);

	return n > 8 && strcmp(host + n - 8, ".ghe.com") == 0;
}

static bool
github_host_is_safe(const char *h)
{
	const char *p;

	if (*h == '\0')
		return false;
	for (p = h; *p != '\0'; p++) {
		if (!isalnum((unsigned char)*p) && *p != '.' && *p != '-' && *p != ':')
			return false;
	}
	return true;
}

char *
github_endpoint(const char *api_url, char **err)
{
	CURLU *u;
	char *scheme = NULL, *host = NULL, *ret = NULL;

	*err = NULL;
	if (api_url == NULL) {
		char *h = github_host_env();

		if (h == NULL)
			return xstrdup(GITHUB_API_URL);
		if (!github_host_is_safe(h))
			*err = xasprintf(_("GH_HOST is not a host name: %s"), h);
		else if (github_host_is_ghe_com(h))
			ret = xasprintf("https://api.%s/graphql", h);
		else
			ret = xasprintf("https://%s/api/graphql", h);
		free(h);
		return ret;
	}
	u = curl_url();
	if (curl_url_set(u, CURLUPART_URL, api_url, 0) != CURLUE_OK ||
	    curl_url_get(u, CURLUPART_SCHEME, &scheme, 0) != CURLUE_OK ||
	    curl_url_get(u, CURLUPART_HOST, &host, 0) != CURLUE_OK) {
		*err = xasprintf(_("--api-url is not a URL: %s"), api_url);
		goto out;
	}
	if (strcmp(scheme, "https") != 0 &&
	    !(strcmp(scheme, "http") == 0 && github_host_is_loopback(host))) {
		*err = xasprintf(_("--api-url must be https (http only on a loopback address): %s"),
		                 api_url);
		goto out;
	}
	{
		char *user = NULL;

		if (curl_url_get(u, CURLUPART_USER, &user, 0) == CURLUE_OK) {
			curl_free(user);
			*err = xstrdup(_("--api-url must not carry credentials"));
			goto out;
		}
	}
	ret = xstrdup(api_url);
out:
	curl_free(scheme);
	curl_free(host);
	curl_url_cleanup(u);
	return ret;
}

char *
github_web_base(void)
{
	char *h = github_host_env(), *ret;

	if (h == NULL || !github_host_is_safe(h)) {
		free(h);
		return xstrdup("https://github.com");
	}
	ret = xasprintf("https://%s", h);
	free(h);
	return ret;
}

bool
github_web_url_ok(const struct github *gh, const char *url)
{
	CURLU *u = curl_url(), *api = curl_url();
	char *scheme = NULL, *host = NULL, *user = NULL, *api_host = NULL, *web = NULL;
	const char *p;
	bool ok = false;

	for (p = url; p != NULL && *p != '\0'; p++) {
		if ((unsigned char)*p <= 0x20 || (unsigned char)*p >= 0x7f)
			goto out;
	}
	if (url == NULL || curl_url_set(u, CURLUPART_URL, url, 0) != CURLUE_OK ||
	    curl_url_get(u, CURLUPART_SCHEME, &scheme, 0) != CURLUE_OK ||
	    curl_url_get(u, CURLUPART_HOST, &host, 0) != CURLUE_OK ||
	    curl_url_get(u, CURLUPART_USER, &user, 0) != CURLUE_NO_USER ||
	    curl_url_set(api, CURLUPART_URL, gh->url, 0) != CURLUE_OK ||
	    curl_url_get(api, CURLUPART_HOST, &api_host, 0) != CURLUE_OK)
		goto out;
	web = github_web_base();
	if (gh->loopback && strcasecmp(host, api_host) == 0)
		ok = strcmp(scheme, "https") == 0 || strcmp(scheme, "http") == 0;
	else if (strcmp(scheme, "https") == 0)
		ok = strcasecmp(host, web + strlen("https://")) == 0 ||
		     strcasecmp(host, api_host) == 0 ||
		     (strncasecmp(api_host, "api.", 4) == 0 && strcasecmp(host, api_host + 4) == 0);
out:
	free(web);
	curl_free(scheme);
	curl_free(host);
	curl_free(user);
	curl_free(api_host);
	curl_url_cleanup(u);
	curl_url_cleanup(api);
	return ok;
}

bool
github_is_github_host(const char *host)
{
	char *h;
	bool ok;

	if (strcasecmp(host, "github.com") == 0 || strcasecmp(host, "www.github.com") == 0 ||
	    strcasecmp(host, "ssh.github.com") == 0)
		return true;
	h = github_host_env();
	ok = h != NULL && strcasecmp(host, h) == 0;
	free(h);
	return ok;
}

/* The token variables, public first, as GitHub's own CLI reads them. */
static const char *const github_token_vars[] = {"GH_TOKEN", "GITHUB_TOKEN", "GH_ENTERPRISE_TOKEN",
                                                "GITHUB_ENTERPRISE_TOKEN"};

bool
github_env_token_in(const char *s)
{
	size_t i;

	for (i = 0; s != NULL && i < sizeof github_token_vars / sizeof *github_token_vars; i++) {
		const char *v = getenv(github_token_vars[i]);

		if (v != NULL && *v != '\0' && strstr(s, v) != NULL)
			return true;
	}
	return false;
}

/* Reads the token for the endpoint's host, the way GitHub's own CLI does. */
static int
github_read_token(bool enterprise, char **token, const char **source, char **err)
{
	const char *const *vars = github_token_vars + (enterprise ? 2 : 0);
	const char *p;
	size_t i;

	for (i = 0; i < 2; i++) {
		const char *v = getenv(vars[i]);

		if (v == NULL || *v == '\0')
			continue;
		for (p = v; *p != '\0'; p++) {
			/* A token goes into a header: no spaces, no line breaks. */
			if ((unsigned char)*p <= 0x20 || (unsigned char)*p >= 0x7f) {
				*err = xasprintf(_("the token in %s contains spaces or control "
				                   "characters"),
				                 vars[i]);
				return -EINVAL;
			}
		}
		*token = xstrdup(v);
		*source = vars[i];
		return 0;
	}
	*err = xasprintf(_("no GitHub token: set %s or %s (a token with the public_repo or repo "
	                   "scope, or Discussions write access)"),
	                 vars[0], vars[1]);
	return -EINVAL;
}

int
github_check_token(char **err)
{
	char *h = github_host_env(), *token = NULL;
	const char *source;
	int rc = github_read_token(h != NULL && !github_host_is_ghe_com(h), &token, &source, err);

	free(token);
	free(h);
	return rc;
}

void
github_mask(const struct github *gh, char *s)
{
	size_t n;
	char *p;

	if (gh == NULL || s == NULL || gh->token == NULL)
		return;
	n = strlen(gh->token);
	if (n == 0)
		return;
	while ((p = strstr(s, gh->token)) != NULL)
		memset(p, '*', n);
}

static void
github_mask_buf(const struct github *gh, char *s, size_t len)
{
	size_t n, i;

	if (gh->token == NULL || (n = strlen(gh->token)) == 0 || len < n)
		return;
	for (i = 0; i + n <= len; i++) {
		if (memcmp(s + i, gh->token, n) == 0) {
			memset(s + i, '*', n);
			i += n - 1;
		}
	}
}

const char *
github_token_source(const struct github *gh)
{
	return gh->token_source;
}

void
github_format_until(int64_t ms, int64_t now_ms, char *out, size_t size)
{
	time_t t = (time_t)(ms / 1000), n = (time_t)(now_ms / 1000);
	struct tm tm, tn;

	localtime_r(&t, &tm);
	localtime_r(&n, &tn);
	if (tm.tm_year == tn.tm_year && tm.tm_yday == tn.tm_yday)
		strftime(out, size, "%H:%M", &tm);
	else
		strftime(out, size, "%Y-%m-%d %H:%M", &tm);
}

/* One line of at most GITHUB_MESSAGE_MAX bytes from text a server sent. */
static char *
github_one_line(const char *s)
{
	char *clean = sanitize_text(s, strlen(s)), *p;
	size_t n;

	if (clean == NULL)
		return xstrdup("");
	for (p = clean; *p != '\0'; p++) {
		if (*p == '\n' || *p == '\r' || *p == '\t')
			*p = ' ';
	}
	n = strlen(clean);
	if (n > GITHUB_MESSAGE_MAX) {
		n = GITHUB_MESSAGE_MAX;
		/* Cut before a UTF-8 continuation byte, never inside a character. */
		while (n > 0 && ((unsigned char)clean[n] & 0xC0) == 0x80)
			n--;
		clean[n] = '\0';
	}
	return clean;
}

const char *
github_json_string(const cJSON *obj, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);

	return cJSON_IsString(v) ? v->valuestring : NULL;
}

static bool
github_curl_code_is_transient(int code)
{
	switch (code) {
	case CURLE_OPERATION_TIMEDOUT:
	case CURLE_COULDNT_CONNECT:
	case CURLE_COULDNT_RESOLVE_HOST:
	case CURLE_GOT_NOTHING:
	case CURLE_SEND_ERROR:
	case CURLE_RECV_ERROR:
	case CURLE_PARTIAL_FILE:
	case CURLE_HTTP2:
	case CURLE_HTTP2_STREAM:
		return true;
	default:
		return false;
	}
}

/* Whether the request surely never reached GitHub's application. */
static bool
github_curl_code_before_sending(int code)
{
	return code == CURLE_COULDNT_CONNECT || code == CURLE_COULDNT_RESOLVE_HOST ||
	       code == CURLE_COULDNT_RESOLVE_PROXY || code == CURLE_SSL_CONNECT_ERROR ||
	       code == CURLE_PEER_FAILED_VERIFICATION || code == CURLE_SSL_CACERT_BADFILE ||
	       code == CURLE_UNSUPPORTED_PROTOCOL || code == CURLE_URL_MALFORMAT;
}

static void
github_classify_rate_limit(const struct github_exchange *x, struct github_reply *r, char **message)
{
	char until[32];
	int64_t at = 0;

	if (x->retry_after_s > 0)
		at = x->now_ms + x->retry_after_s * 1000;
	else if (x->rl_remaining != NULL && strcmp(x->rl_remaining, "0") == 0 &&
	         x->rl_reset != NULL && atoll(x->rl_reset) > 0)
		at = (int64_t)atoll(x->rl_reset) * 1000;
	else if (x->rl_reset != NULL && atoll(x->rl_reset) > 0 && x->status == 200)
		at = (int64_t)atoll(x->rl_reset) * 1000;
	if (at < x->now_ms + 1000)
		at = x->now_ms + (at == 0 ? GITHUB_SECONDARY_WAIT_MS : 1000);
	r->error = GITHUB_ERR_RATE_LIMITED;
	r->transient = true;
	r->retry_at_ms = at;
	github_format_until(at, x->now_ms, until, sizeof until);
	*message = xasprintf(_("GitHub's rate limit was reached: try again after %s"), until);
}

static void
github_classify_graphql_errors(const struct github_exchange *x, const cJSON *errors,
                               struct github_reply *r, char **message, char **type)
{
	const cJSON *e, *chosen = NULL;
	const char *t = NULL, *msg;
	char *line;

	/* The first error with a type GitHub documents wins; else the first. */
	cJSON_ArrayForEach(e, errors)
	{
		const char *et = github_json_string(e, "type");

		if (et != NULL) {
			chosen = e;
			t = et;
			break;
		}
	}
	if (chosen == NULL) {
		chosen = cJSON_GetArrayItem(errors, 0);
		t = github_json_string(cJSON_GetObjectItemCaseSensitive(chosen, "extensions"),
		                       "code");
	}
	msg = github_json_string(chosen, "message");
	line = github_one_line(msg != NULL ? msg : "");
	*type = t != NULL ? xstrdup(t) : NULL;
	if (t != NULL && strcmp(t, "RATE_LIMITED") == 0) {
		github_classify_rate_limit(x, r, message);
	} else if (t != NULL && strcmp(t, "NOT_FOUND") == 0) {
		r->error = GITHUB_ERR_NOT_FOUND;
		*message = xasprintf(_("GitHub found nothing: %s"), line);
	} else if (t != NULL && strcmp(t, "INSUFFICIENT_SCOPES") == 0) {
		r->error = GITHUB_ERR_SCOPE;
		*message = xasprintf(_("the token in %s is missing a scope: it needs public_repo "
		                       "(repo for a private repository)"),
		                     x->token_source);
	} else if (t != NULL && strcmp(t, "FORBIDDEN") == 0) {
		r->error = GITHUB_ERR_SCOPE;
		*message = xasprintf(_("the token in %s may not do this (%s): posting needs "
		                       "Discussions write access, or the public_repo scope (repo "
		                       "for a private repository)"),
		                     x->token_source, line);
	} else {
		r->error = GITHUB_ERR_INVALID;
		*message = xasprintf(_("GitHub refused the request: %s"), line);
	}
	free(line);
}

void
github_classify(const struct github_exchange *x, struct github_reply *r, cJSON **json,
                char **message, char **type)
{
	const char *msg = NULL;
	cJSON *root = NULL;
	const cJSON *errors, *data;

	memset(r, 0, sizeof *r);
	*json = NULL;
	*message = NULL;
	*type = NULL;
	r->http_status = x->status;
	if (x->curl_code != 0) {
		r->transient = github_curl_code_is_transient(x->curl_code);
		r->maybe_applied = x->mutation && !github_curl_code_before_sending(x->curl_code);
		if (x->curl_code == CURLE_OPERATION_TIMEDOUT) {
			char d[32];

			timefmt_format_duration(x->timeout_ms, d, sizeof d);
			r->error = GITHUB_ERR_TIMEOUT;
			*message = xasprintf(_("GitHub did not answer within %s (%s)"), d, x->url);
		} else {
			char *why = github_one_line(x->curl_error != NULL && *x->curl_error != '\0'
			                                ? x->curl_error
			                                : curl_easy_strerror(x->curl_code));

			r->error = GITHUB_ERR_NETWORK;
			if (x->curl_code == CURLE_PEER_FAILED_VERIFICATION ||
			    x->curl_code == CURLE_SSL_CACERT_BADFILE)
				*message = xasprintf(_("cannot reach %s: %s (a custom CA goes in "
				                       "SSL_CERT_FILE or CURL_CA_BUNDLE)"),
				                     x->url, why);
			else
				*message = xasprintf(_("cannot reach %s: %s"), x->url, why);
			free(why);
		}
		return;
	}
	if (x->len > 0)
		/* len + 1 takes in the NUL, so trailing garbage is refused. */
		root = cJSON_ParseWithLengthOpts(x->body, x->len + 1, NULL, 1);
	*json = root;
	if (x->status < 200 || x->status > 299) {
		char *line;

		msg = github_json_string(root, "message");
		line = github_one_line(msg != NULL ? msg : "");
		if (x->status == 401) {
			r->error = GITHUB_ERR_AUTH;
			*message = xasprintf(_("GitHub rejected the token in %s (bad credentials)"),
			                     x->token_source);
		} else if ((x->status == 403 || x->status == 429) &&
		           (x->retry_after_s > 0 || x->status == 429 ||
		            (x->rl_remaining != NULL && strcmp(x->rl_remaining, "0") == 0) ||
		            strstr(line, "rate limit") != NULL)) {
			github_classify_rate_limit(x, r, message);
		} else if (x->status == 403) {
			r->error = GITHUB_ERR_SCOPE;
			*message = xasprintf(_("GitHub refused the request (HTTP 403): %s"), line);
		} else if (x->status >= 500) {
			r->error = GITHUB_ERR_SERVER;
			r->transient = true;
			r->maybe_applied = x->mutation;
			*message =
			    xasprintf(_("GitHub answered HTTP %ld: try again later"), x->status);
		} else {
			r->error = GITHUB_ERR_INVALID;
			*message = xasprintf(_("GitHub answered HTTP %ld for %s: %s"), x->status,
			                     x->url, *line != '\0' ? line : _("no reason given"));
		}
		free(line);
		return;
	}
	if (!cJSON_IsObject(root)) {
		r->error = GITHUB_ERR_PROTOCOL;
		*message =
		    xasprintf(_("%s did not answer with JSON (HTTP %ld)"), x->url, x->status);
		return;
	}
	errors = cJSON_GetObjectItemCaseSensitive(root, "errors");
	data = cJSON_GetObjectItemCaseSensitive(root, "data");
	if (cJSON_IsArray(errors) && cJSON_GetArraySize(errors) > 0) {
		github_classify_graphql_errors(x, errors, r, message, type);
		r->data = cJSON_IsObject(data) ? data : NULL;
		return;
	}
	if (!cJSON_IsObject(data)) {
		r->error = GITHUB_ERR_PROTOCOL;
		*message = xasprintf(_("%s answered without data (HTTP %ld)"), x->url, x->status);
		return;
	}
	r->data = data;
}

/* The trace: what libcurl says and the headers both ways, never bodies,
 * never TLS data, and never the Authorization header or the token. */
static int
github_debug_cb(CURL *easy, curl_infotype type, char *text, size_t size, void *userp)
{
	struct github *gh = userp;
	const char *prefix;
	char *copy, *line, *save = NULL;

	(void)easy;
	switch (type) {
	case CURLINFO_TEXT:
		prefix = "* ";
		break;
	case CURLINFO_HEADER_IN:
		prefix = "< ";
		break;
	case CURLINFO_HEADER_OUT:
		prefix = "> ";
		break;
	default:
		return 0;
	}
	copy = xstrndup(text, size);
	github_mask(gh, copy);
	for (line = strtok_r(copy, "\r\n", &save); line != NULL;
	     line = strtok_r(NULL, "\r\n", &save)) {
		char *clean;

		if (strncasecmp(line, "authorization:", 14) == 0)
			line = "Authorization: (hidden)";
		clean = github_one_line(line);
		fprintf(gh->cfg.trace, "%s%s\n", prefix, clean);
		free(clean);
	}
	fflush(gh->cfg.trace);
	free(copy);
	return 0;
}

static size_t
github_write_cb(char *ptr, size_t size, size_t nmemb, void *userp)
{
	struct github_call *c = userp;
	size_t n = size * nmemb;

	if (c->reply.len + n > GITHUB_REPLY_MAX) {
		c->reply_too_big = true;
		return 0;
	}
	buf_add(&c->reply, ptr, n);
	return n;
}

static void
github_wait_closed(uv_handle_t *h)
{
	struct github *gh = h->data;

	gh->open_handles--;
	github_maybe_destroy(gh);
}

static void
github_http_closed(void *data)
{
	struct github *gh = data;

	gh->open_handles--;
	github_maybe_destroy(gh);
}

/* Sets gh->loopback from gh->url; the name localhost is resolved now and
 * every address checked, then pinned (gh->resolve). */
static int
github_pin_localhost(struct github *gh, char **err)
{
	CURLU *u = curl_url();
	char *host = NULL, *port = NULL, *entry = NULL;
	struct addrinfo hints, *ai = NULL;
	int rc = 0;

	if (curl_url_set(u, CURLUPART_URL, gh->url, 0) != CURLUE_OK ||
	    curl_url_get(u, CURLUPART_HOST, &host, 0) != CURLUE_OK ||
	    curl_url_get(u, CURLUPART_PORT, &port, CURLU_DEFAULT_PORT) != CURLUE_OK)
		goto out;
	gh->loopback = github_host_is_loopback(host);
	if (!gh->loopback || strcasecmp(host, "localhost") != 0)
		goto out;
	memset(&hints, 0, sizeof hints);
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	if (getaddrinfo(host, NULL, &hints, &ai) != 0)
		ai = NULL;
	rc = github_loopback_pin(host, atoi(port), ai, &entry, err);
	if (rc == 0)
		gh->resolve = curl_slist_append(NULL, entry);
out:
	if (ai != NULL)
		freeaddrinfo(ai);
	free(entry);
	curl_free(host);
	curl_free(port);
	curl_url_cleanup(u);
	return rc;
}

int
github_new(uv_loop_t *loop, const struct github_config *cfg, struct github **out, char **err)
{
	static bool curl_ready;
	struct github *gh;
	char *url, *h;
	int rc;

	*out = NULL;
	*err = NULL;
	url = github_endpoint(cfg->api_url, err);
	if (url == NULL)
		return -EINVAL;
	if (!curl_ready) {
		/* libcurl would write TLS session keys there, token included. */
		unsetenv("SSLKEYLOGFILE");
		if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
			free(url);
			*err = xstrdup(_("libcurl could not be initialised"));
			return -EINVAL;
		}
		curl_ready = true;
	}
	gh = xcalloc(1, sizeof *gh);
	gh->cfg = *cfg;
	if (gh->cfg.connect_timeout_ms <= 0)
		gh->cfg.connect_timeout_ms = GITHUB_DEFAULT_CONNECT_TIMEOUT_MS;
	if (gh->cfg.timeout_ms <= 0)
		gh->cfg.timeout_ms = GITHUB_DEFAULT_TIMEOUT_MS;
	if (gh->cfg.max_wait_ms <= 0)
		gh->cfg.max_wait_ms = GITHUB_DEFAULT_MAX_WAIT_MS;
	if (gh->cfg.backoff_ms <= 0)
		gh->cfg.backoff_ms = GITHUB_DEFAULT_BACKOFF_MS;
	if (gh->cfg.mutation_gap_ms <= 0)
		gh->cfg.mutation_gap_ms = GITHUB_DEFAULT_MUTATION_GAP_MS;
	if (gh->cfg.max_attempts <= 0)
		gh->cfg.max_attempts = GITHUB_DEFAULT_ATTEMPTS;
	gh->url = url;
	rc = github_pin_localhost(gh, err);
	if (rc == 0) {
		h = github_host_env();
		rc = github_read_token(h != NULL && !github_host_is_ghe_com(h), &gh->token,
		                       &gh->token_source, err);
		free(h);
	}
	if (rc < 0) {
		curl_slist_free_all(gh->resolve);
		free(gh->url);
		free(gh);
		return rc;
	}
	gh->user_agent =
	    xasprintf("flakesweep/%s (+https://github.com/flakesweep/flakesweep)", PACKAGE_VERSION);
	gh->http = http_uv_new(loop, github_done_cb, gh);
	uv_timer_init(loop, &gh->wait_timer);
	gh->wait_timer.data = gh;
	gh->open_handles = 2;
	*out = gh;
	return 0;
}

static void
github_call_free(struct github_call *c)
{
	if (c == NULL)
		return;
	if (c->request != NULL) {
		/* The body carries nothing secret, but it may be large. */
		free(c->request);
	}
	curl_slist_free_all(c->headers);
	buf_free(&c->reply);
	free(c);
}

/* Ends the attempt in flight, if any, without a reply. */
static void
github_abort_easy(struct github *gh)
{
	struct github_call *c = gh->call;

	if (c == NULL || c->easy == NULL)
		return;
	http_uv_remove(gh->http, c->easy);
	curl_easy_cleanup(c->easy);
	c->easy = NULL;
	curl_slist_free_all(c->headers);
	c->headers = NULL;
}

static void github_note(struct github *gh, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
github_note(struct github *gh, const char *fmt, ...)
{
	va_list ap;
	char *text;

	if (gh->cfg.note == NULL)
		return;
	va_start(ap, fmt);
	text = xvasprintf(fmt, ap);
	va_end(ap);
	github_mask(gh, text);
	gh->cfg.note(text, gh->cfg.note_data);
	free(text);
}

static void
github_wait_cb(uv_timer_t *t)
{
	struct github *gh = t->data;

	gh->depth++;
	if (gh->call != NULL && !gh->closing)
		github_send(gh);
	gh->depth--;
	github_maybe_destroy(gh);
}

static void
github_deliver(struct github *gh, const struct github_reply *r)
{
	struct github_call *c = gh->call;

	gh->call = NULL;
	c->cb(r, c->data);
	github_call_free(c);
}

/* The attempt in flight ended with curl_code: retry, or hand the reply over. */
static void
github_finish(struct github *gh, CURLcode code)
{
	struct github_call *c = gh->call;
	struct github_exchange x;
	struct github_reply r;
	struct curl_header *hdr;
	curl_off_t retry_after = 0;
	long status = 0;
	cJSON *json = NULL;
	char *message = NULL, *type = NULL, *remaining = NULL, *reset = NULL;

	curl_easy_getinfo(c->easy, CURLINFO_RESPONSE_CODE, &status);
	curl_easy_getinfo(c->easy, CURLINFO_RETRY_AFTER, &retry_after);
	if (curl_easy_header(c->easy, "x-ratelimit-remaining", 0, CURLH_HEADER, -1, &hdr) ==
	    CURLHE_OK)
		remaining = xstrdup(hdr->value);
	if (curl_easy_header(c->easy, "x-ratelimit-reset", 0, CURLH_HEADER, -1, &hdr) == CURLHE_OK)
		reset = xstrdup(hdr->value);
	if (code == CURLE_WRITE_ERROR && c->reply_too_big)
		code = CURLE_FILESIZE_EXCEEDED;
	github_abort_easy(gh);
	/* A server that repeats the token must not get it shown anywhere. */
	if (c->reply.data != NULL)
		github_mask_buf(gh, c->reply.data, c->reply.len);
	github_mask_buf(gh, c->errbuf, strlen(c->errbuf));
	memset(&x, 0, sizeof x);
	x.curl_code = code;
	x.curl_error = c->errbuf;
	x.status = code == CURLE_OK ? status : 0;
	x.body = c->reply.data != NULL ? c->reply.data : "";
	x.len = c->reply.len;
	x.retry_after_s = (int64_t)retry_after;
	x.rl_remaining = remaining;
	x.rl_reset = reset;
	x.now_ms = util_now_ms();
	x.mutation = c->mutation;
	x.url = gh->url;
	x.timeout_ms = gh->cfg.timeout_ms;
	x.token_source = gh->token_source;
	github_classify(&x, &r, &json, &message, &type);
	github_mask(gh, message);
	r.message = message;
	r.type = type;
	r.attempts = c->attempts;
	if (r.error != GITHUB_OK && r.transient && !c->mutation &&
	    c->attempts < gh->cfg.max_attempts) {
		int64_t delay = c->backoff_ms;

		if (r.error == GITHUB_ERR_RATE_LIMITED && r.retry_at_ms - x.now_ms > delay)
			delay = r.retry_at_ms - x.now_ms;
		if (delay <= gh->cfg.max_wait_ms) {
			char d[32];

			timefmt_format_duration(delay, d, sizeof d);
			if (r.error == GITHUB_ERR_RATE_LIMITED)
				github_note(
				    gh, _("GitHub's rate limit: waiting %s before trying again"),
				    d);
			else
				github_note(gh, _("waiting %s before trying again: %s"), d,
				            message);
			c->backoff_ms *= 2;
			buf_reset(&c->reply);
			c->reply_too_big = false;
			uv_timer_start(&gh->wait_timer, github_wait_cb, (uint64_t)delay, 0);
			goto out;
		}
	}
	github_deliver(gh, &r);
out:
	cJSON_Delete(json);
	free(message);
	free(type);
	free(remaining);
	free(reset);
}

/* A transfer ended; the reply callback may start another call or free us. */
static void
github_done_cb(CURL *easy, CURLcode result, void *data)
{
	struct github *gh = data;

	if (gh->call == NULL || gh->call->easy != easy)
		return;
	gh->depth++;
	github_finish(gh, result);
	gh->depth--;
	github_maybe_destroy(gh);
}

static void
github_send(struct github *gh)
{
	struct github_call *c = gh->call;
	CURL *e;
	const char *ca;
	int64_t now = util_mono_ms();

	if (c->mutation && gh->last_mutation_ms != 0 &&
	    now - gh->last_mutation_ms < gh->cfg.mutation_gap_ms) {
		uv_timer_start(&gh->wait_timer, github_wait_cb,
		               (uint64_t)(gh->cfg.mutation_gap_ms - (now - gh->last_mutation_ms)),
		               0);
		return;
	}
	if (c->mutation)
		gh->last_mutation_ms = now;
	c->attempts++;
	c->errbuf[0] = '\0';
	e = curl_easy_init();
	if (e == NULL)
		fatal("%s", _("out of memory"));
	c->easy = e;
	c->headers = curl_slist_append(NULL, "Content-Type: application/json");
	c->headers = curl_slist_append(c->headers, "Accept: application/json");
	curl_easy_setopt(e, CURLOPT_URL, gh->url);
	curl_easy_setopt(e, CURLOPT_PROTOCOLS_STR, gh->loopback ? "http,https" : "https");
	curl_easy_setopt(e, CURLOPT_FOLLOWLOCATION, 0L);
	curl_easy_setopt(e, CURLOPT_POST, 1L);
	curl_easy_setopt(e, CURLOPT_POSTFIELDS, c->request);
	curl_easy_setopt(e, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)c->request_len);
	curl_easy_setopt(e, CURLOPT_HTTPHEADER, c->headers);
	curl_easy_setopt(e, CURLOPT_USERAGENT, gh->user_agent);
	curl_easy_setopt(e, CURLOPT_HTTPAUTH, CURLAUTH_BEARER);
	curl_easy_setopt(e, CURLOPT_XOAUTH2_BEARER, gh->token);
	curl_easy_setopt(e, CURLOPT_ERRORBUFFER, c->errbuf);
	curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, (long)gh->cfg.connect_timeout_ms);
	curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, (long)gh->cfg.timeout_ms);
	curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(e, CURLOPT_ACCEPT_ENCODING, "");
	curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, github_write_cb);
	curl_easy_setopt(e, CURLOPT_WRITEDATA, c);
	curl_easy_setopt(e, CURLOPT_SSL_VERIFYPEER, 1L);
	curl_easy_setopt(e, CURLOPT_SSL_VERIFYHOST, 2L);
	ca = getenv("CURL_CA_BUNDLE");
	if (ca == NULL || *ca == '\0')
		ca = getenv("SSL_CERT_FILE");
	if (ca != NULL && *ca != '\0')
		curl_easy_setopt(e, CURLOPT_CAINFO, ca);
	ca = getenv("SSL_CERT_DIR");
	if (ca != NULL && *ca != '\0')
		curl_easy_setopt(e, CURLOPT_CAPATH, ca);
	if (c->mutation) {
		/* On a reused connection that dies before any reply, libcurl sends
		 * the request again by itself: for a mutation that can post twice.
		 * A fresh connection is never retried that way. */
		curl_easy_setopt(e, CURLOPT_FRESH_CONNECT, 1L);
		curl_easy_setopt(e, CURLOPT_FORBID_REUSE, 1L);
	}
	if (gh->loopback)
		curl_easy_setopt(e, CURLOPT_NOPROXY, "*");
	if (gh->resolve != NULL)
		curl_easy_setopt(e, CURLOPT_RESOLVE, gh->resolve);
	if (gh->cfg.trace != NULL) {
		curl_easy_setopt(e, CURLOPT_DEBUGFUNCTION, github_debug_cb);
		curl_easy_setopt(e, CURLOPT_DEBUGDATA, gh);
		curl_easy_setopt(e, CURLOPT_VERBOSE, 1L);
	}
	http_uv_add(gh->http, e);
}

int
github_call(struct github *gh, const char *document, cJSON *variables, bool mutation,
            github_reply_cb cb, void *data)
{
	struct github_call *c;
	cJSON *body;
	char *text;

	if (gh->call != NULL || gh->closing) {
		cJSON_Delete(variables);
		return -EBUSY;
	}
	body = cJSON_CreateObject();
	cJSON_AddStringToObject(body, "query", document);
	cJSON_AddItemToObject(body, "variables",
	                      variables != NULL ? variables : cJSON_CreateObject());
	text = jsonw_print(body, false);
	cJSON_Delete(body);
	c = xcalloc(1, sizeof *c);
	c->request = xstrdup(text);
	c->request_len = strlen(text);
	cJSON_free(text);
	c->mutation = mutation;
	c->cb = cb;
	c->data = data;
	c->backoff_ms = gh->cfg.backoff_ms;
	buf_init(&c->reply);
	gh->call = c;
	gh->depth++;
	github_send(gh);
	gh->depth--;
	return 0;
}

static void
github_maybe_destroy(struct github *gh)
{
	if (!gh->closing || gh->depth > 0)
		return;
	if (gh->http != NULL) {
		struct http_uv *http = gh->http;

		github_abort_easy(gh);
		github_call_free(gh->call);
		gh->call = NULL;
		gh->http = NULL;
		uv_timer_stop(&gh->wait_timer);
		uv_close((uv_handle_t *)&gh->wait_timer, github_wait_closed);
		http_uv_close(http, github_http_closed, gh);
		return;
	}
	if (gh->open_handles > 0)
		return;
	if (gh->token != NULL) {
		/* Wipe it where the compiler cannot drop the write. */
		volatile char *p = gh->token;

		while (*p != '\0')
			*p++ = '\0';
		free(gh->token);
	}
	curl_slist_free_all(gh->resolve);
	free(gh->url);
	free(gh->user_agent);
	free(gh);
}

void
github_free(struct github *gh)
{
	if (gh == NULL || gh->closing)
		return;
	gh->closing = true;
	github_maybe_destroy(gh);
}
