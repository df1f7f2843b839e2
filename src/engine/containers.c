/* SPDX-License-Identifier: MIT */
/*
 * containers.c: follows the Docker Engine's event stream and pins each
 * labelled container to the kept-back cores as it starts. One streaming
 * GET /events (filtered to start events of containers with the label)
 * stays open on the sweep's loop through http-uv; each event line becomes
 * one POST /containers/ID/update with the CPU set. Whether the engine
 * answers is checked once, synchronously, before anything is followed, so
 * a container level without an engine fails at once with the reason.
 */
#include "config.h"

#include <curl/curl.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "base/gettext.h"
#include "base/http-uv.h"
#include "base/jsonw.h"
#include "base/util.h"
#include "engine/containers.h"

#define CONTAINERS_PING_MS 3000
#define CONTAINERS_LINE_MAX (64 * 1024)

struct containers_xfer {
	struct containers *c;
	CURL *easy;
	bool events;      /* the event stream, else one update */
	char *id;         /* update: the container */
	int64_t event_ms; /* update: the start event's time */
	char *body;       /* update: the request */
	struct buf in;    /* what the engine sent */
	struct curl_slist *headers;
	char errbuf[CURL_ERROR_SIZE];
	struct containers_xfer *next;
};

struct containers {
	struct http_uv *h;
	char *sock;
	char *label;
	char *cpuset;
	containers_pin_cb pinned;
	void *arg;
	struct containers_xfer *xfers;
	bool closing;
};

char *
containers_socket(char **err)
{
	const char *host = getenv("DOCKER_HOST");

	if (host == NULL || host[0] == '\0')
		return xstrdup("/var/run/docker.sock");
	if (strncmp(host, "unix://", 7) == 0 && host[7] != '\0')
		return xstrdup(host + 7);
	*err = xasprintf(_("cannot reach Docker at %s: only a unix socket (unix://PATH) is "
	                   "supported"),
	                 host);
	return NULL;
}

static CURL *
containers_easy(const char *sock, const char *path, char *errbuf)
{
	CURL *e = curl_easy_init();
	char *url = xasprintf("http://localhost%s", path);

	if (e == NULL)
		fatal("%s", _("out of memory"));
	curl_easy_setopt(e, CURLOPT_UNIX_SOCKET_PATH, sock);
	curl_easy_setopt(e, CURLOPT_URL, url);
	curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(e, CURLOPT_ERRORBUFFER, errbuf);
	curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, (long)CONTAINERS_PING_MS);
	errbuf[0] = '\0';
	free(url);
	return e;
}

static size_t
containers_sink_cb(char *data, size_t size, size_t n, void *arg)
{
	struct buf *in = arg;

	if (in->len < CONTAINERS_LINE_MAX * 16)
		buf_add(in, data, size * n);
	return size * n;
}

static size_t
containers_discard_cb(char *data, size_t size, size_t n, void *arg)
{
	(void)data;
	(void)arg;
	return size * n;
}

int
containers_ping(const char *sock, char **err)
{
	char errbuf[CURL_ERROR_SIZE];
	CURL *e = containers_easy(sock, "/_ping", errbuf);
	long status = 0, os_errno = 0;
	CURLcode rc;

	curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, (long)CONTAINERS_PING_MS);
	curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, containers_discard_cb);
	rc = curl_easy_perform(e);
	curl_easy_getinfo(e, CURLINFO_RESPONSE_CODE, &status);
	curl_easy_getinfo(e, CURLINFO_OS_ERRNO, &os_errno);
	curl_easy_cleanup(e);
	if (rc != CURLE_OK) {
		/* The socket's errno says more than libcurl's "localhost port 80". */
		*err =
		    xasprintf(_("cannot reach Docker at %s: %s"), sock,
		              rc == CURLE_COULDNT_CONNECT && os_errno != 0 ? strerror((int)os_errno)
		              : errbuf[0] != '\0'                          ? errbuf
		                                  : curl_easy_strerror(rc));
		return -EHOSTUNREACH;
	}
	if (status != 200) {
		*err = xasprintf(_("cannot reach Docker at %s: /_ping answered HTTP %ld"), sock,
		                 status);
		return -EHOSTUNREACH;
	}
	return 0;
}

/* One synchronous request with a JSON body or none; the answer into *in.
 * Returns the HTTP status, or -1 with *err. */
static long
containers_call(const char *sock, const char *path, const char *body, struct buf *in, char **err)
{
	char errbuf[CURL_ERROR_SIZE];
	CURL *e = containers_easy(sock, path, errbuf);
	struct curl_slist *headers = NULL;
	long status = -1;
	CURLcode rc;

	curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, 10000L);
	curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, containers_sink_cb);
	curl_easy_setopt(e, CURLOPT_WRITEDATA, in);
	if (body != NULL) {
		headers = curl_slist_append(NULL, "Content-Type: application/json");
		curl_easy_setopt(e, CURLOPT_HTTPHEADER, headers);
		curl_easy_setopt(e, CURLOPT_POSTFIELDS, body);
	}
	rc = curl_easy_perform(e);
	if (rc == CURLE_OK)
		curl_easy_getinfo(e, CURLINFO_RESPONSE_CODE, &status);
	else
		*err = xstrdup(errbuf[0] != '\0' ? errbuf : curl_easy_strerror(rc));
	curl_easy_cleanup(e);
	curl_slist_free_all(headers);
	return status;
}

int
containers_pin_labelled(const char *sock, const char *label, const char *cpuset,
                        containers_skip_fn skip, containers_pin_cb pinned, void *arg, char **err)
{
	cJSON *filters = cJSON_CreateObject(), *list, *c, *body;
	char *json, *q, *path, *update;
	struct buf in;
	long status;

	cJSON_AddItemToArray(cJSON_AddArrayToObject(filters, "label"), cJSON_CreateString(label));
	json = jsonw_print(filters, false);
	cJSON_Delete(filters);
	body = cJSON_CreateObject();
	cJSON_AddStringToObject(body, "CpusetCpus", cpuset);
	update = jsonw_print(body, false);
	cJSON_Delete(body);
	q = curl_easy_escape(NULL, json, 0);
	path = xasprintf("/containers/json?filters=%s", q);
	curl_free(q);
	free(json);
	buf_init(&in);
	status = containers_call(sock, path, NULL, &in, err);
	free(path);
	if (status != 200) {
		if (status >= 0)
			*err = xasprintf(_("HTTP %ld: %.*s"), status, (int)in.len,
			                 in.data != NULL ? in.data : "");
		buf_free(&in);
		free(update);
		return -EHOSTUNREACH;
	}
	buf_add(&in, "", 1);
	list = cJSON_Parse(in.data);
	buf_free(&in);
	cJSON_ArrayForEach(c, list)
	{
		const char *id = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(c, "Id"));
		int64_t t0 = util_now_ms();
		char *why = NULL;

		if (id == NULL || (skip != NULL && skip(arg, id)))
			continue;
		path = xasprintf("/containers/%s/update", id);
		buf_init(&in);
		status = containers_call(sock, path, update, &in, &why);
		free(path);
		if (status >= 0 && status != 200)
			why = xasprintf(_("HTTP %ld: %.*s"), status, (int)in.len,
			                in.data != NULL ? in.data : "");
		buf_free(&in);
		pinned(arg, id, cpuset, util_now_ms() - t0, why);
		free(why);
	}
	cJSON_Delete(list);
	free(update);
	return 0;
}

static void
containers_xfer_free(struct containers_xfer *x)
{
	struct containers_xfer **pp;

	for (pp = &x->c->xfers; *pp != NULL; pp = &(*pp)->next) {
		if (*pp == x) {
			*pp = x->next;
			break;
		}
	}
	curl_easy_cleanup(x->easy);
	curl_slist_free_all(x->headers);
	buf_free(&x->in);
	free(x->id);
	free(x->body);
	free(x);
}

static size_t
containers_keep_cb(char *data, size_t size, size_t n, void *arg)
{
	struct containers_xfer *x = arg;

	if (x->in.len < CONTAINERS_LINE_MAX)
		buf_add(&x->in, data, size * n);
	return size * n;
}

static struct containers_xfer *
containers_xfer_new(struct containers *c, const char *path)
{
	struct containers_xfer *x = xcalloc(1, sizeof *x);

	x->c = c;
	buf_init(&x->in);
	x->easy = containers_easy(c->sock, path, x->errbuf);
	curl_easy_setopt(x->easy, CURLOPT_PRIVATE, x);
	x->next = c->xfers;
	c->xfers = x;
	return x;
}

/* POST /containers/ID/update {"CpusetCpus": cpuset}. */
static void
containers_pin(struct containers *c, const char *id, int64_t event_ms)
{
	char *path = xasprintf("/containers/%s/update", id);
	struct containers_xfer *x = containers_xfer_new(c, path);
	cJSON *body = cJSON_CreateObject();

	free(path);
	x->id = xstrdup(id);
	x->event_ms = event_ms;
	cJSON_AddStringToObject(body, "CpusetCpus", c->cpuset);
	x->body = jsonw_print(body, false);
	cJSON_Delete(body);
	x->headers = curl_slist_append(NULL, "Content-Type: application/json");
	curl_easy_setopt(x->easy, CURLOPT_HTTPHEADER, x->headers);
	curl_easy_setopt(x->easy, CURLOPT_POSTFIELDS, x->body);
	curl_easy_setopt(x->easy, CURLOPT_TIMEOUT_MS, 10000L);
	curl_easy_setopt(x->easy, CURLOPT_WRITEFUNCTION, containers_keep_cb);
	curl_easy_setopt(x->easy, CURLOPT_WRITEDATA, x);
	http_uv_add(c->h, x->easy);
}

/* One line of the event stream: a start event, as JSON. */
static void
containers_event(void *arg, const char *s, size_t n)
{
	struct containers *c = arg;
	char *text = xstrndup(s, n);
	cJSON *ev = cJSON_Parse(text);
	const cJSON *id = cJSON_GetObjectItemCaseSensitive(ev, "id");
	const cJSON *nano = cJSON_GetObjectItemCaseSensitive(ev, "timeNano");

	free(text);
	if (cJSON_IsString(id) && id->valuestring[0] != '\0' && !c->closing)
		containers_pin(c, id->valuestring,
		               cJSON_IsNumber(nano) ? (int64_t)(nano->valuedouble / 1e6)
		                                    : util_now_ms());
	cJSON_Delete(ev);
}

static size_t
containers_events_cb(char *data, size_t size, size_t n, void *arg)
{
	struct containers_xfer *x = arg;

	util_feed_lines(&x->in, CONTAINERS_LINE_MAX, data, size * n, containers_event, x->c);
	return size * n;
}

static void
containers_done_cb(CURL *easy, CURLcode result, void *arg)
{
	struct containers *c = arg;
	struct containers_xfer *x = NULL;
	long status = 0;
	char *why = NULL;

	curl_easy_getinfo(easy, CURLINFO_PRIVATE, (char **)&x);
	curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &status);
	if (result != CURLE_OK)
		why = xstrdup(x->errbuf[0] != '\0' ? x->errbuf : curl_easy_strerror(result));
	else if (!x->events && status != 200)
		why = xasprintf(_("HTTP %ld: %.*s"), status, (int)x->in.len,
		                x->in.data != NULL ? x->in.data : "");
	if (x->events)
		c->pinned(c->arg, NULL, c->cpuset, 0,
		          why != NULL ? why : _("the engine ended its event stream"));
	else
		c->pinned(c->arg, x->id, c->cpuset, util_now_ms() - x->event_ms, why);
	free(why);
	http_uv_remove(c->h, easy);
	containers_xfer_free(x);
}

int
containers_watch(uv_loop_t *loop, const char *sock, const char *label, const char *cpuset,
                 containers_pin_cb pinned, void *arg, struct containers **out, char **err)
{
	struct containers *c;
	struct containers_xfer *x;
	cJSON *filters, *a;
	char *json, *q, *path;
	int rc;

	*out = NULL;
	rc = containers_ping(sock, err);
	if (rc < 0)
		return rc;
	c = xcalloc(1, sizeof *c);
	c->sock = xstrdup(sock);
	c->label = xstrdup(label);
	c->cpuset = xstrdup(cpuset);
	c->pinned = pinned;
	c->arg = arg;
	c->h = http_uv_new(loop, containers_done_cb, c);
	filters = cJSON_CreateObject();
	a = cJSON_AddArrayToObject(filters, "type");
	cJSON_AddItemToArray(a, cJSON_CreateString("container"));
	a = cJSON_AddArrayToObject(filters, "event");
	cJSON_AddItemToArray(a, cJSON_CreateString("start"));
	a = cJSON_AddArrayToObject(filters, "label");
	cJSON_AddItemToArray(a, cJSON_CreateString(label));
	json = jsonw_print(filters, false);
	cJSON_Delete(filters);
	q = curl_easy_escape(NULL, json, 0);
	path = xasprintf("/events?filters=%s", q);
	curl_free(q);
	free(json);
	x = containers_xfer_new(c, path);
	free(path);
	x->events = true;
	curl_easy_setopt(x->easy, CURLOPT_WRITEFUNCTION, containers_events_cb);
	curl_easy_setopt(x->easy, CURLOPT_WRITEDATA, x);
	http_uv_add(c->h, x->easy);
	*out = c;
	return 0;
}

static void
containers_closed_cb(void *arg)
{
	struct containers *c = arg;

	free(c->sock);
	free(c->label);
	free(c->cpuset);
	free(c);
}

void
containers_close(struct containers *c)
{
	if (c == NULL || c->closing)
		return;
	c->closing = true;
	while (c->xfers != NULL) {
		http_uv_remove(c->h, c->xfers->easy);
		containers_xfer_free(c->xfers);
	}
	http_uv_close(c->h, containers_closed_cb, c);
}
