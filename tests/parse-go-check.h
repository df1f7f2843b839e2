/* SPDX-License-Identifier: MIT */
/*
 * parse-go-check.h: what the Go parser tests share (parse-go-check.c).
 */
#ifndef FLAKESWEEP_TESTS_PARSE_GO_CHECK_H
#define FLAKESWEEP_TESTS_PARSE_GO_CHECK_H

#include <stddef.h>

#include "base/proc-exit.h"
#include "drivers/outcome.h"
#include "drivers/parse-go.h"

char *read_data(const char *path, size_t *len);
char *summary(const struct outcome *o);
void parse(const char *data, size_t len, const struct parse_go_opts *opts,
           const struct proc_exit *ex, size_t chunk, struct outcome *out);
void expect_str(const char *label, const char *got, const char *want);
void check_run(const char *label, const char *data, size_t len, const struct parse_go_opts *opts,
               const struct proc_exit *ex, const char *want);
size_t split_tabs(char *line, char **f, size_t max);
char **split_lines(char *text);
char *go119_dir(void);
void parse_case(const char *casename, const char *file, const char *selected,
                const struct proc_exit *ex, struct outcome *out);
const struct outcome_test *need_test(const struct outcome *o, const char *name);

#endif
