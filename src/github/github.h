/* SPDX-License-Identifier: MIT */
/*
 * github.h: a small client for GitHub's GraphQL API (POST
 * https://api.github.com/graphql, or https://HOST/api/graphql for GitHub
 * Enterprise Server), on libcurl's multi interface driven by a libuv loop,
 * so a call never blocks the loop. It owns the token: the token is read
 * from the environment, never from the command line, and never appears in
 * anything this module hands out (messages, replies, traces).
 */
#ifndef FLAKESWEEP_GITHUB_H
#define FLAKESWEEP_GITHUB_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <cjson/cJSON.h>
#include <uv.h>

struct github;

/* What went wrong with a call, most specific first. */
enum github_error {
	GITHUB_OK = 0,
	GITHUB_ERR_AUTH,         /* HTTP 401: the token is wrong, expired or revoked */
	GITHUB_ERR_SCOPE,        /* FORBIDDEN, INSUFFICIENT_SCOPES or a plain 403 */
	GITHUB_ERR_NOT_FOUND,    /* NOT_FOUND: missing, or invisible to the token */
	GITHUB_ERR_RATE_LIMITED, /* a primary or secondary rate limit; see retry_at_ms */
	GITHUB_ERR_TIMEOUT,      /* no whole reply within the time limit */
	GITHUB_ERR_NETWORK,      /* no connection, or it broke before a reply */
	GITHUB_ERR_SERVER,       /* HTTP 5xx */
	GITHUB_ERR_INVALID,      /* GitHub refused the request itself (validation) */
	GITHUB_ERR_PROTOCOL,     /* the reply is not shaped like GitHub's */
	GITHUB_ERR_CANCELLED,    /* github_free() ended the call */
};

/* The outcome of one call, valid only during the reply callback. */
struct github_reply {
	enum github_error error;
	long http_status;    /* 0 when no HTTP reply arrived */
	bool maybe_applied;  /* a mutation may have taken effect though it failed */
	bool transient;      /* worth retrying later: 5xx, timeout, broken link, rate limit */
	const cJSON *data;   /* the reply's "data" member, or NULL */
	const char *type;    /* errors[0].type or extensions.code, or NULL */
	const char *message; /* one line for the user, token masked; NULL on success */
	int64_t retry_at_ms; /* for GITHUB_ERR_RATE_LIMITED: epoch ms it ends, or 0 */
	int attempts;        /* HTTP requests this call took */
};

typedef void (*github_reply_cb)(const struct github_reply *reply, void *data);
/* A progress line for the user ("waiting 2s: ..."), token masked. */
typedef void (*github_note_cb)(const char *line, void *data);

struct github_config {
	const char *api_url;        /* NULL: from GH_HOST, else https://api.github.com/graphql */
	int64_t connect_timeout_ms; /* 0: 10 s */
	int64_t timeout_ms;         /* whole request, per attempt; 0: 30 s */
	int64_t max_wait_ms;        /* longest wait honoured for a rate limit; 0: 90 s */
	int64_t backoff_ms;         /* first retry delay, doubling; 0: 1 s */
	int64_t mutation_gap_ms;    /* least time between mutations; 0: 1 s */
	int max_attempts;           /* per query; mutations are never retried here; 0: 4 */
	FILE *trace;                /* a masked HTTP trace (headers only), or NULL */
	github_note_cb note;        /* optional */
	void *note_data;
};

/* Fills cfg with zeros, meaning every default, then reads the optional
 * environment overrides FLAKESWEEP_GITHUB_TIMEOUT (a Go duration) and
 * FLAKESWEEP_HTTP_TRACE (non-empty: trace to stderr). */
void github_config_init(struct github_config *cfg);

/* The endpoint for cfg: api_url when set (it must be https, or http on a
 * loopback address), else https://HOST/api/graphql for GH_HOST (a GHE.com
 * host gets https://api.HOST/graphql), else GitHub's. Returns a new string
 * (caller frees), or NULL with *err set to a one-line message (caller
 * frees). */
char *github_endpoint(const char *api_url, char **err);

struct addrinfo;

/* Checks that ai, what the name host (localhost) resolved to, holds only
 * loopback addresses, and sets *entry to the CURLOPT_RESOLVE line
 * "HOST:PORT:ADDR,..." that pins libcurl to exactly those, so a later
 * resolution cannot send the token elsewhere. Returns 0, or -EINVAL with
 * *err set and *entry untouched. */
int github_loopback_pin(const char *host, int port, const struct addrinfo *ai, char **entry,
                        char **err);

/* The web address that repository links start with: https://github.com, or
 * https://HOST for an Enterprise GH_HOST. Caller frees. */
char *github_web_base(void);

/* Whether host names GitHub for repository URLs: github.com (and its
 * www. and ssh. names) or the GH_HOST host. */
bool github_is_github_host(const char *host);

/* Creates a client on loop. Reads the token (GH_TOKEN, then GITHUB_TOKEN;
 * for an Enterprise GH_HOST, GH_ENTERPRISE_TOKEN, then
 * GITHUB_ENTERPRISE_TOKEN) and checks the endpoint. Returns 0, or -EINVAL
 * with *err set to one line for the user (caller frees). */
int github_new(uv_loop_t *loop, const struct github_config *cfg, struct github **out, char **err);

/* Starts one GraphQL call: document is the query or mutation text (copied),
 * variables a JSON object (taken over; NULL for none). Queries are retried
 * on 5xx, timeouts, broken connections and rate limits that end within
 * max_wait_ms, with backoff; a mutation is sent once, at least
 * mutation_gap_ms after the previous one, and its caller decides what to
 * do next (reply->maybe_applied). cb runs exactly once, on the loop,
 * unless github_free() comes first. Returns 0, or -EBUSY while another
 * call is going on (one at a time, as GitHub asks). */
int github_call(struct github *gh, const char *document, cJSON *variables, bool mutation,
                github_reply_cb cb, void *data);

/* Cancels any call without running its callback, closes the client's
 * handles and frees it once they are closed (so run the loop afterwards).
 * May be called from a reply callback. NULL is a no-op. */
void github_free(struct github *gh);

/* Replaces every copy of the client's token in s (in place) with '*'. */
void github_mask(const struct github *gh, char *s);

/* The name of the environment variable the token came from. */
const char *github_token_source(const struct github *gh);

/* True when url, a link GitHub answered with, may be shown, stored and
 * linked: printable ASCII, no credentials, https on the web host for the
 * endpoint in use (github.com for api.github.com, the GH_HOST or
 * --api-url host for Enterprise), or on a loopback endpoint's own host, as
 * a local stand-in answers. */
bool github_web_url_ok(const struct github *gh, const char *url);

/* True when s holds the value of a token variable (GH_TOKEN, GITHUB_TOKEN,
 * GH_ENTERPRISE_TOKEN, GITHUB_ENTERPRISE_TOKEN), so that text must not be
 * shown or sent. s may be NULL. */
bool github_env_token_in(const char *s);

/* Whether a token for the endpoint's host (GH_HOST) is set and usable, as
 * github_new would read it, before anything is written: 0, or -EINVAL
 * with *err (caller frees) saying which variables to set. */
int github_check_token(char **err);

/* One finished HTTP exchange, as the client saw it. */
struct github_exchange {
	int curl_code;            /* a CURLcode: 0 when a reply came */
	const char *curl_error;   /* libcurl's reason, or "" */
	long status;              /* HTTP status, or 0 */
	const char *body;         /* the raw reply, NUL-terminated */
	size_t len;               /* its length in bytes */
	int64_t retry_after_s;    /* the Retry-After header in seconds, or 0 */
	const char *rl_remaining; /* x-ratelimit-remaining, or NULL */
	const char *rl_reset;     /* x-ratelimit-reset (epoch seconds), or NULL */
	int64_t now_ms;           /* when it ended, ms since the epoch */
	bool mutation;            /* the request was a mutation */
	const char *url;          /* the endpoint, for messages */
	int64_t timeout_ms;       /* the limit it ran under, for messages */
	const char *token_source; /* the variable the token came from, for messages */
};

/* Classifies one exchange (GitHub's rules: non-2xx by status and
 * "message"; 2xx by errors[].type, then errors[].extensions.code). On
 * return r->data points into *json (caller frees with cJSON_Delete) and
 * r->message and r->type into *message and *type (caller frees); nothing
 * is masked yet. For the client itself and for tests. */
void github_classify(const struct github_exchange *x, struct github_reply *r, cJSON **json,
                     char **message, char **type);

/* Formats epoch ms as local "HH:MM", or "YYYY-MM-DD HH:MM" when it is not
 * today, into out (size bytes). */
void github_format_until(int64_t ms, int64_t now_ms, char *out, size_t size);

/* The string member key of obj, or NULL when it is missing or not a
 * string (borrowed from obj). */
const char *github_json_string(const cJSON *obj, const char *key);

#endif
