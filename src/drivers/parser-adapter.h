/* SPDX-License-Identifier: MIT */
/*
 * parser-adapter.h: the one adapter between struct driver_parser and a
 * framework's parser (parse-*.h), which knows nothing of drivers. A
 * driver names its parser's type and functions once,
 *
 *	PARSER_ADAPTER(driver_tap_parser, struct parse_tap, parse_tap_feed,
 *	               parse_tap_finish, parse_tap_free)
 *
 * and driver_tap_parser_wrap(p) returns the driver_parser that feeds,
 * finishes and frees p (it takes ownership of p). A driver whose
 * framework has a report pipe sets feed_report on what wrap returned,
 * reaching its parser as ((struct PREFIX *)dp)->p.
 */
#ifndef FLAKESWEEP_PARSER_ADAPTER_H
#define FLAKESWEEP_PARSER_ADAPTER_H

#include <stdlib.h>

#include "drivers/driver.h"
#include "base/util.h"

#define PARSER_ADAPTER(prefix, type, feed_fn, finish_fn, free_fn)                           \
	struct prefix {                                                                     \
		struct driver_parser base;                                                  \
		type *p;                                                                    \
	};                                                                                  \
	static void prefix##_feed(struct driver_parser *dp, const char *data, size_t len)   \
	{                                                                                   \
		feed_fn(((struct prefix *)dp)->p, data, len);                               \
	}                                                                                   \
	static void prefix##_finish(struct driver_parser *dp, const struct proc_exit *exit, \
	                            struct outcome *out)                                    \
	{                                                                                   \
		finish_fn(((struct prefix *)dp)->p, exit, out);                             \
	}                                                                                   \
	static void prefix##_free(struct driver_parser *dp)                                 \
	{                                                                                   \
		free_fn(((struct prefix *)dp)->p);                                          \
		free(dp);                                                                   \
	}                                                                                   \
	static struct driver_parser *prefix##_wrap(type *p)                                 \
	{                                                                                   \
		struct prefix *a = xcalloc(1, sizeof *a);                                   \
                                                                                            \
		a->p = p;                                                                   \
		a->base.feed = prefix##_feed;                                               \
		a->base.finish = prefix##_finish;                                           \
		a->base.free = prefix##_free;                                               \
		return &a->base;                                                            \
	}

#endif
