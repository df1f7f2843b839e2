/* SPDX-License-Identifier: MIT */
/*
 * report-writer.h: writes results.json and report.txt on a thread of their
 * own, so that the loop that rewrites them every 2 s while a sweep runs
 * does not wait for the kernel to copy megabytes. One write at a time, in
 * the order given: a write starts only once the one before has ended. It
 * never makes the texts.
 */
#ifndef FLAKESWEEP_REPORT_WRITER_H
#define FLAKESWEEP_REPORT_WRITER_H

#include "base/jsonw.h"
#include "base/util.h"

struct report_writer;

/* A writer whose thread starts with the first report_writer_put. */
struct report_writer *report_writer_new(void);

/* Waits for the write in progress, then frees w. NULL is a no-op. */
void report_writer_free(struct report_writer *w);

/* Waits for the write in progress and returns its result: 0, or a
 * negative errno with *err (caller frees) naming the file. */
int report_writer_wait(struct report_writer *w, char **err);

/* Waits for the write in progress, leaving its result to
 * report_writer_wait: before what it borrowed is changed. */
void report_writer_idle(struct report_writer *w);

/* Waits for the write in progress, then starts writing json with the
 * texts of refs put in (results_json_write; both borrowed: left alone
 * until report_writer_wait or the next report_writer_put returns) to
 * DIR/results.json and text (taken) to DIR/report.txt, each replaced
 * atomically but not synced (util_write_file_replace), and returns. The
 * result of a write that report_writer_wait did not collect is replaced by
 * the next one's. */
void report_writer_put(struct report_writer *w, const char *dir, const struct buf *json,
                       const struct jsonw_refs *refs, char *text);

#endif
