/* SPDX-License-Identifier: MIT */
/*
 * control-int.h: what the control socket's two halves share (control.h
 * says what the socket is). The sweep's half (control.c) runs on the
 * sweep's loop: it encodes the status, carries out commands and replies.
 * The server (control-thread.c) runs on a thread and a loop of its own:
 * it accepts views, sends them the hello and the last status the sweep
 * published, reads their lines and refuses a bad command at once, so a
 * sweep busy with its runs never keeps a view waiting for what it
 * already has. Between them: texts shared by reference and two queues
 * under one mutex, each side waking the other with a uv_async_t.
 */
#ifndef FLAKESWEEP_CONTROL_INT_H
#define FLAKESWEEP_CONTROL_INT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include <cjson/cJSON.h>
#include <uv.h>

/* One line as sent, its newline included, shared by every write of it
 * and freed with the last reference. */
struct control_text {
	atomic_int refs;
	size_t len;
	char data[];
};

/* A copy of s and a newline, one reference held. */
struct control_text *control_text_new(const char *s);
struct control_text *control_text_ref(struct control_text *t);
/* NULL is a no-op. */
void control_text_unref(struct control_text *t);

/* A command on its way to the sweep, then its reply on the way back. */
struct control_msg {
	uint64_t conn; /* the view's number */
	cJSON *cmd;    /* the command's object, NULL for a line that is none */
	char *error;   /* the reply's error, or NULL for ok */
	bool refused;  /* refused by the server: error set, nothing to do */
	struct control_msg *next;
};

void control_msg_free(struct control_msg *m);
/* Appends m to the list *q. */
void control_msg_push(struct control_msg **q, struct control_msg *m);

struct control_share {
	pthread_mutex_t mu;
	/* Under mu. */
	struct control_text *status;  /* the last status published */
	uint64_t status_seq;          /* bumped at each */
	struct control_msg *commands; /* to the sweep */
	struct control_msg *replies;  /* to the server */
	bool want_status;             /* a view attached: the sweep publishes anew */
	bool close;                   /* the sweep ended: the last status, then close */
	bool ended;                   /* the server's thread is done */
	/* Read by the sweep's timer without the lock. */
	atomic_int views;
	uv_async_t *to_sweep;  /* on the sweep's loop */
	uv_async_t *to_server; /* on the server's */
};

struct control_server;

/* Binds and listens on name (bind(2)'s path), then serves it on a thread
 * of its own with hello (borrowed until control_server_join) as each
 * view's first line. Returns 0, or a negative errno with the server freed
 * and *srv NULL. */
int control_server_start(struct control_share *sh, const char *name,
                         const struct control_text *hello, struct control_server **srv);

/* Waits for the server's thread, which has ended (sh->ended), and frees
 * it. NULL is a no-op. */
void control_server_join(struct control_server *srv);

#endif
