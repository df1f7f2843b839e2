/* SPDX-License-Identifier: MIT */
/*
 * timefmt.h: time as text: Go's duration syntax, RFC 3339 in UTC and
 * civil dates (YYYY-MM-DD). Pure functions; the clock is util_now_ms().
 */
#ifndef FLAKESWEEP_TIMEFMT_H
#define FLAKESWEEP_TIMEFMT_H

#include <stddef.h>
#include <stdint.h>

#define TIMEFMT_MS_PER_DAY INT64_C(86400000)

/* Parses a duration in Go's syntax ("90s", "2m", "1h30m", "1.5s", "250ms")
 * into *ms. Returns 0, or -EINVAL for anything else. */
int timefmt_parse_duration(const char *s, int64_t *ms);

/* Formats ms as Go would print it ("2m0s", "1.5s") into out (size bytes). */
void timefmt_format_duration(int64_t ms, char *out, size_t size);

/* Formats t (ms since the epoch) as RFC 3339 in UTC, e.g.
 * "2026-11-30T02:14:00Z", into out (at least 32 bytes). */
void timefmt_format_rfc3339(int64_t ms, char *out, size_t size);

/* Parses "YYYY-MM-DD" (a real date, 1970 or later) into days since
 * 1970-01-01. Returns 0 or -EINVAL. */
int timefmt_parse_date(const char *s, int64_t *days);

/* Parses "YYYY-MM-DD" (its midnight UTC) or "YYYY-MM-DDTHH:MM:SSZ" into
 * ms since the epoch. Returns 0 or -EINVAL. */
int timefmt_parse_time(const char *s, int64_t *ms);

#endif
