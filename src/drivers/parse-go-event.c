/* SPDX-License-Identifier: MIT */
/*
 * parse-go-event.c: a Go framing line read into an event (parse-go-event.h).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "drivers/parse-go-event.h"

/* A test name as the testing package writes it: never empty, no spaces
 * (it rewrites them to '_'), no NUL. */
static bool
parse_go_valid_name(const char *s, size_t n)
{
	return n > 0 && memchr(s, ' ', n) == NULL && memchr(s, '\0', n) == NULL &&
	       memchr(s, PARSE_GO_MARKER, n) == NULL;
}

bool
parse_go_event_read(const char *s, size_t n, enum parse_go_mode mode, struct parse_go_event *ev)
{
	size_t indent = 0;

	while (n > 0 && s[n - 1] == '\r')
		n--;
	memset(ev, 0, sizeof *ev);
	ev->test = -1;
	ev->ms = -1;
	if (mode != PARSE_GO_GLUED) {
		while (indent < n && s[indent] == ' ')
			indent++;
	}
	s += indent;
	n -= indent;
	ev->indent = indent;
	if (n >= 4 && memcmp(s, "=== ", 4) == 0) {
		size_t k = 4, kw;

		if (indent > 0 && mode != PARSE_GO_FRAMED)
			return false;
		while (k < n && s[k] >= 'A' && s[k] <= 'Z')
			k++;
		kw = k - 4;
		if (k < n && s[k] != ' ')
			return false;
		while (k < n && s[k] == ' ')
			k++;
		ev->name = s + k;
		ev->namelen = n - k;
		if (kw == 3 && memcmp(s + 4, "RUN", 3) == 0)
			ev->kind = PARSE_GO_EV_RUN;
		else if (kw == 5 && memcmp(s + 4, "PAUSE", 5) == 0)
			ev->kind = PARSE_GO_EV_PAUSE;
		else if (kw == 4 && memcmp(s + 4, "CONT", 4) == 0)
			ev->kind = PARSE_GO_EV_CONT;
		else if (kw == 4 && memcmp(s + 4, "NAME", 4) == 0)
			ev->kind = PARSE_GO_EV_NAME;
		else
			return false;
		if (ev->kind == PARSE_GO_EV_NAME && ev->namelen == 0)
			return true;
		return parse_go_valid_name(ev->name, ev->namelen);
	}
	if (n >= 10 && memcmp(s, "--- ", 4) == 0 && s[8] == ':' && s[9] == ' ') {
		const char *name = s + 10, *end = s + n, *sp;

		if (memcmp(s + 4, "PASS", 4) == 0)
			ev->status = OUTCOME_PASS;
		else if (memcmp(s + 4, "FAIL", 4) == 0)
			ev->status = OUTCOME_FAIL;
		else if (memcmp(s + 4, "SKIP", 4) == 0)
			ev->status = OUTCOME_SKIP;
		else
			return false;
		ev->kind = PARSE_GO_EV_REPORT;
		sp = memchr(name, ' ', (size_t)(end - name));
		if (sp != NULL) {
			/* " (1.23s)" and nothing after it. */
			const char *d = sp + 2;
			bool digits = false;

			if (end - sp < 6 || sp[1] != '(' || end[-1] != ')' || end[-2] != 's')
				return false;
			while (d < end - 2 && *d >= '0' && *d <= '9') {
				d++;
				digits = true;
			}
			if (!digits || d >= end - 2 || *d != '.')
				return false;
			d++;
			digits = false;
			while (d < end - 2 && *d >= '0' && *d <= '9') {
				d++;
				digits = true;
			}
			if (!digits || d != end - 2)
				return false;
			ev->ms = (int64_t)(strtod(sp + 2, NULL) * 1000.0 + 0.5);
			end = sp;
		}
		ev->name = name;
		ev->namelen = (size_t)(end - name);
		return parse_go_valid_name(ev->name, ev->namelen);
	}
	if (mode != PARSE_GO_GLUED && indent == 0 && n == 4 &&
	    (memcmp(s, "PASS", 4) == 0 || memcmp(s, "FAIL", 4) == 0)) {
		ev->kind = PARSE_GO_EV_FINAL;
		ev->status = s[0] == 'P' ? OUTCOME_PASS : OUTCOME_FAIL;
		return true;
	}
	return false;
}
