/* SPDX-License-Identifier: MIT */
/*
 * mask.h: the values of secret variables, and text with each occurrence
 * of one replaced by MASK_MARK, as CI systems mask secrets. A stream is
 * masked as it arrives: a value split across two chunks is still found.
 * It knows nothing about tests, files or where text goes.
 */
#ifndef FLAKESWEEP_MASK_H
#define FLAKESWEEP_MASK_H

#include <stdbool.h>
#include <stddef.h>

/* What a masked stretch of text becomes: one mark for each value, or for
 * values that overlap in the text. */
#define MASK_MARK "***"
/* Values shorter than this (bytes) are not masked: "true", "1234" and the
 * like are everywhere in output. */
#define MASK_MIN_LEN 6

struct mask;

struct mask *mask_new(void);
void mask_free(struct mask *m);

/* Whether a variable's name looks like a secret's: it holds TOKEN,
 * SECRET, PASSWORD, PASSWD, API_KEY, PRIVATE_KEY or CREDENTIALS, in any
 * case. */
bool mask_name_secret(const char *name);

/* Adds value to the set: itself, each of its lines when it has several,
 * and its JSON string form when that differs (a run's report stream
 * writes JSON). Values shorter than MASK_MIN_LEN bytes, and repeats, are
 * not added. */
void mask_add(struct mask *m, const char *value);

/* Adds the values of the entries ("NAME=value") of env whose name looks
 * like a secret's (mask_name_secret) or is one of the nnames names. */
void mask_add_environ(struct mask *m, char *const *env, char *const *names, size_t nnames);

/* How many values the set holds (the JSON forms and lines counted). */
size_t mask_count(const struct mask *m);

/* A new string: s with every value masked. */
char *mask_text(const struct mask *m, const char *s);

/* Where a stream's masked bytes go; data is valid only during the call. */
typedef void (*mask_out_cb)(void *arg, const char *data, size_t len);

struct mask_stream;

/* A stream over m's values (m must outlive it; values added to m later
 * are masked from then on) whose masked bytes go to out. */
struct mask_stream *mask_stream_new(const struct mask *m, mask_out_cb out, void *arg);

/* Masks len more bytes of the stream. Bytes that may begin a value are
 * held back (at most the longest value's length less one) until the
 * next chunk shows whether they do. */
void mask_stream_feed(struct mask_stream *ms, const char *data, size_t len);

/* The stream has ended: passes on what was held back. The stream may go
 * on afterwards as a new one. */
void mask_stream_flush(struct mask_stream *ms);

/* Frees the stream without passing on what it holds: mask_stream_flush
 * first for that. */
void mask_stream_free(struct mask_stream *ms);

#endif
