/* SPDX-License-Identifier: MIT */
/*
 * report-writer.c: one thread that writes the files a rewrite made, while
 * the loop goes on. The thread blocks every signal, so that a signal meant
 * for the loop (or a signalfd) never lands on it. It writes nothing but
 * what it is handed.
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

#include "results/report-writer.h"

struct report_writer {
	pthread_t thread;
	bool started;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	/* The write handed over and not yet done, under mu. */
	bool pending, quit;
	char *dir;
	const struct buf *json;
	const struct jsonw_refs *refs;
	char *text;
	/* The result of the last write done, under mu. */
	int rc;
	char *err;
};

struct report_writer *
report_writer_new(void)
{
	struct report_writer *w = xcalloc(1, sizeof *w);

	pthread_mutex_init(&w->mu, NULL);
	pthread_cond_init(&w->cv, NULL);
	return w;
}

/* results.json's text: json with the texts of refs put in, as pieces
 * (*n of them) for writev. */
static struct iovec *
report_writer_pieces(const struct buf *json, const struct jsonw_refs *refs, int *n)
{
	struct iovec *v = xcalloc(2 * refs->n + 2, sizeof *v);
	size_t i, at = 0;
	int k = 0;

	for (i = 0; i < refs->n; i++) {
		v[k].iov_base = json->data + at;
		v[k++].iov_len = refs->v[i].at - at;
		v[k].iov_base = (void *)refs->v[i].s;
		v[k++].iov_len = refs->v[i].n;
		at = refs->v[i].at;
	}
	v[k].iov_base = json->data != NULL ? json->data + at : NULL;
	v[k++].iov_len = json->len - at;
	*n = k;
	return v;
}

/* Writes what was handed over; returns 0 or a negative errno with *err. */
static int
report_writer_files(const char *dir, const struct buf *json, const struct jsonw_refs *refs,
                    const char *text, char **err)
{
	char *path = xasprintf("%s/results.json", dir);
	int n;
	struct iovec *v = report_writer_pieces(json, refs, &n);
	int rc = util_write_file_replacev(path, v, n);

	free(v);
	if (rc == 0) {
		free(path);
		path = xasprintf("%s/report.txt", dir);
		rc = util_write_file_replace(path, text, strlen(text));
	}
	if (rc < 0)
		*err = xasprintf("%s: %s", path, strerror(-rc));
	free(path);
	return rc;
}

static void *
report_writer_main(void *arg)
{
	struct report_writer *w = arg;

	pthread_mutex_lock(&w->mu);
	for (;;) {
		char *err = NULL;
		int rc;

		while (!w->pending && !w->quit)
			pthread_cond_wait(&w->cv, &w->mu);
		if (!w->pending)
			break;
		pthread_mutex_unlock(&w->mu);
		rc = report_writer_files(w->dir, w->json, w->refs, w->text, &err);
		pthread_mutex_lock(&w->mu);
		free(w->dir);
		free(w->text);
		w->dir = w->text = NULL;
		w->json = NULL;
		w->refs = NULL;
		w->rc = rc;
		free(w->err);
		w->err = err;
		w->pending = false;
		pthread_cond_broadcast(&w->cv);
	}
	pthread_mutex_unlock(&w->mu);
	return NULL;
}

int
report_writer_wait(struct report_writer *w, char **err)
{
	int rc;

	pthread_mutex_lock(&w->mu);
	while (w->pending)
		pthread_cond_wait(&w->cv, &w->mu);
	rc = w->rc;
	*err = w->err;
	w->rc = 0;
	w->err = NULL;
	pthread_mutex_unlock(&w->mu);
	return rc;
}

void
report_writer_idle(struct report_writer *w)
{
	pthread_mutex_lock(&w->mu);
	while (w->pending)
		pthread_cond_wait(&w->cv, &w->mu);
	pthread_mutex_unlock(&w->mu);
}

void
report_writer_put(struct report_writer *w, const char *dir, const struct buf *json,
                  const struct jsonw_refs *refs, char *text)
{
	report_writer_idle(w);
	if (!w->started) {
		sigset_t all, old;

		/* The thread inherits the signal mask it is created with. */
		sigfillset(&all);
		pthread_sigmask(SIG_SETMASK, &all, &old);
		if (pthread_create(&w->thread, NULL, report_writer_main, w) != 0)
			fatal("%s", _("out of memory"));
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		w->started = true;
	}
	pthread_mutex_lock(&w->mu);
	w->dir = xstrdup(dir);
	w->json = json;
	w->refs = refs;
	w->text = text;
	w->pending = true;
	pthread_cond_broadcast(&w->cv);
	pthread_mutex_unlock(&w->mu);
}

void
report_writer_free(struct report_writer *w)
{
	if (w == NULL)
		return;
	if (w->started) {
		pthread_mutex_lock(&w->mu);
		w->quit = true;
		pthread_cond_broadcast(&w->cv);
		pthread_mutex_unlock(&w->mu);
		pthread_join(w->thread, NULL);
	}
	pthread_mutex_destroy(&w->mu);
	pthread_cond_destroy(&w->cv);
	free(w->err);
	free(w);
}
