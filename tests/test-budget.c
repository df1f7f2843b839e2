/* SPDX-License-Identifier: MIT */
/* --until's times: a time of day is the next one (tomorrow's once past
 * today), a date and time in UTC must be still to come, anything else is
 * refused. */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include "check.h"
#include "engine/budget.h"

TEST(budget_until_times)
{
	/* 2026-12-04 22:00:00 UTC, read in UTC. */
	int64_t now = INT64_C(1796421600000), ms = 0;
	bool tomorrow = true;

	setenv("TZ", "UTC", 1);
	tzset();
	CHECK_INT(budget_parse_until("23:30", now, &ms, &tomorrow), 0);
	CHECK(!tomorrow);
	CHECK(ms == now + INT64_C(5400000));
	CHECK_INT(budget_parse_until("07:00", now, &ms, &tomorrow), 0);
	CHECK(tomorrow);
	CHECK(ms == now + INT64_C(32400000));
	CHECK_INT(budget_parse_until("22:00:00", now, &ms, &tomorrow), 0);
	CHECK(tomorrow);
	CHECK_INT(budget_parse_until("2026-12-05T07:00:00Z", now, &ms, &tomorrow), 0);
	CHECK(ms == now + INT64_C(32400000));
	CHECK_INT(budget_parse_until("2026-12-04T21:59:59Z", now, &ms, &tomorrow), -ERANGE);
	CHECK_INT(budget_parse_until("2001-01-01", now, &ms, &tomorrow), -ERANGE);
	CHECK_INT(budget_parse_until("24:00", now, &ms, &tomorrow), -EINVAL);
	CHECK_INT(budget_parse_until("7am", now, &ms, &tomorrow), -EINVAL);
	CHECK_INT(budget_parse_until("07:00x", now, &ms, &tomorrow), -EINVAL);
	CHECK_INT(budget_parse_until("", now, &ms, &tomorrow), -EINVAL);
	unsetenv("TZ");
	tzset();
}
