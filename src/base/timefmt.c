/* SPDX-License-Identifier: MIT */
/*
 * timefmt.c: time as text (see timefmt.h): Go durations both ways, RFC 3339
 * in UTC, and civil dates counted in days since 1970-01-01 without
 * timegm() or a time zone. It never reads the clock.
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/timefmt.h"
#include "base/util.h"

int
timefmt_parse_duration(const char *s, int64_t *ms)
{
	static const struct {
		const char *unit;
		double ms;
	} units[] = {
	    {"ns", 1e-6}, {"us", 1e-3}, {"µs", 1e-3},  {"ms", 1.0},
	    {"s", 1e3},   {"m", 60e3},  {"h", 3600e3},
	};
	double total = 0;
	const char *p = s;

	if (s == NULL || *s == '\0')
		return -EINVAL;
	if (strcmp(s, "0") == 0) {
		*ms = 0;
		return 0;
	}
	while (*p != '\0') {
		char *end;
		double v;
		size_t i, best = 0, bestlen = 0;

		if (!((*p >= '0' && *p <= '9') || *p == '.'))
			return -EINVAL;
		v = strtod(p, &end);
		if (end == p)
			return -EINVAL;
		p = end;
		for (i = 0; i < UTIL_ARRAY_LEN(units); i++) {
			size_t n = strlen(units[i].unit);

			if (strncmp(p, units[i].unit, n) == 0 && n > bestlen) {
				best = i;
				bestlen = n;
			}
		}
		if (bestlen == 0)
			return -EINVAL;
		total += v * units[best].ms;
		p += bestlen;
	}
	if (total > 9e15)
		return -EINVAL;
	*ms = (int64_t)(total + 0.5);
	return 0;
}

void
timefmt_format_duration(int64_t ms, char *out, size_t size)
{
	int64_t h = ms / 3600000, m = ms / 60000 % 60, s = ms / 1000 % 60, frac = ms % 1000;
	struct buf b;

	buf_init(&b);
	if (h > 0)
		buf_printf(&b, "%lldh", (long long)h);
	if (h > 0 || m > 0)
		buf_printf(&b, "%lldm", (long long)m);
	if (frac != 0) {
		char f[8];
		int i;

		snprintf(f, sizeof f, "%03lld", (long long)frac);
		for (i = 2; i > 0 && f[i] == '0'; i--)
			f[i] = '\0';
		buf_printf(&b, "%lld.%ss", (long long)s, f);
	} else {
		buf_printf(&b, "%llds", (long long)s);
	}
	snprintf(out, size, "%s", b.data);
	buf_free(&b);
}

void
timefmt_format_rfc3339(int64_t ms, char *out, size_t size)
{
	time_t t = (time_t)(ms / 1000);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(out, size, "%Y-%m-%dT%H:%M:%SZ", &tm);
}
/* Days since 1970-01-01 in the proleptic Gregorian calendar, after
 * Howard Hinnant's days_from_civil: no timegm(), no time zone. */
static int64_t
timefmt_days_from_civil(int64_t y, int m, int d)
{
	int64_t era, yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

static int
timefmt_days_in_month(int y, int m)
{
	static const int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
	bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;

	return m == 2 && leap ? 29 : days[m - 1];
}

static bool
timefmt_digits(const char *s, int n, int *out)
{
	int i, v = 0;

	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		v = v * 10 + (s[i] - '0');
	}
	*out = v;
	return true;
}

int
timefmt_parse_date(const char *s, int64_t *days)
{
	int y, m, d;

	if (s == NULL || strlen(s) != 10 || s[4] != '-' || s[7] != '-')
		return -EINVAL;
	if (!timefmt_digits(s, 4, &y) || !timefmt_digits(s + 5, 2, &m) ||
	    !timefmt_digits(s + 8, 2, &d))
		return -EINVAL;
	if (y < 1970 || m < 1 || m > 12 || d < 1 || d > timefmt_days_in_month(y, m))
		return -EINVAL;
	*days = timefmt_days_from_civil(y, m, d);
	return 0;
}

int
timefmt_parse_time(const char *s, int64_t *ms)
{
	int64_t days;
	int hh, mm, ss;
	char date[11];

	if (s == NULL || strlen(s) < 10)
		return -EINVAL;
	memcpy(date, s, 10);
	date[10] = '\0';
	if (timefmt_parse_date(date, &days) < 0)
		return -EINVAL;
	if (s[10] == '\0') {
		*ms = days * TIMEFMT_MS_PER_DAY;
		return 0;
	}
	if (strlen(s) != 20 || (s[10] != 'T' && s[10] != 't') || s[13] != ':' || s[16] != ':' ||
	    (s[19] != 'Z' && s[19] != 'z'))
		return -EINVAL;
	if (!timefmt_digits(s + 11, 2, &hh) || !timefmt_digits(s + 14, 2, &mm) ||
	    !timefmt_digits(s + 17, 2, &ss) || hh > 23 || mm > 59 || ss > 59)
		return -EINVAL;
	*ms = days * TIMEFMT_MS_PER_DAY + ((int64_t)hh * 3600 + mm * 60 + ss) * 1000;
	return 0;
}
