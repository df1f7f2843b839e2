/* SPDX-License-Identifier: MIT */
/*
 * http-uv.h: libcurl's multi interface driven by a libuv loop, the way
 * curl's docs/examples/multi-uv.c does it: one uv_poll_t per socket that
 * libcurl asks to watch, one uv_timer_t for libcurl's own timeouts. It
 * owns the multi handle and those libuv handles, and reports each
 * transfer that ends. It never sets an option on a transfer and never
 * reads a reply: what is sent, to whom and how a reply is judged belong
 * to the caller (github.c, engine/containers.c).
 */
#ifndef FLAKESWEEP_HTTP_UV_H
#define FLAKESWEEP_HTTP_UV_H

#include <curl/curl.h>
#include <uv.h>

struct http_uv;

/* A transfer added with http_uv_add() ended with result. It runs on the
 * loop; it may add or remove transfers and call http_uv_close(). */
typedef void (*http_uv_done_cb)(CURL *easy, CURLcode result, void *data);

/* The last libuv handle is closed and the http_uv freed. */
typedef void (*http_uv_closed_cb)(void *data);

/* A new multi handle on loop; done reports each transfer that ends. */
struct http_uv *http_uv_new(uv_loop_t *loop, http_uv_done_cb done, void *data);

/* Starts easy (set up by the caller, still owned by it) on the loop; from
 * inside a transfer's own callback, once libcurl's call returns. */
void http_uv_add(struct http_uv *h, CURL *easy);

/* Stops easy, ended or not, without a done report; the caller then
 * cleans it up. */
void http_uv_remove(struct http_uv *h, CURL *easy);

/* Ends the multi handle and closes every libuv handle; closed runs once
 * the last one is closed and h is freed. Transfers still added are the
 * caller's to remove first. Safe from a done callback: the teardown then
 * waits until libcurl's call returns. */
void http_uv_close(struct http_uv *h, http_uv_closed_cb closed, void *data);

#endif
