/* SPDX-License-Identifier: MIT */
/*
 * parse-go-capture.c: the Go parser's bounded keeping of one test's output:
 * the first bytes up to PARSE_GO_CAPTURE_HEAD, a ring of the last
 * PARSE_GO_CAPTURE_TAIL, and a count of what fell between, all charged to
 * one budget per run (*stored) that goroutine stacks share. It owns those
 * bytes and their composition into one text with a "[... N bytes cut ...]"
 * line. It never decides which test output belongs to, never reads lines
 * and never sanitises.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/parse-go-capture.h"
#include "base/util.h"

/* A test's output keeps its head and its tail. */
#define PARSE_GO_CAPTURE_HEAD (OUTCOME_LINES_CAP * 3 / 4)
#define PARSE_GO_CAPTURE_TAIL (OUTCOME_LINES_CAP / 4)
/* Room left for the "[... N bytes cut ...]" line when composing. */
#define PARSE_GO_CAPTURE_MARK_ROOM 64

static void
parse_go_capture_bytes(struct parse_go_capture *c, size_t *stored, const char *data, size_t n)
{
	if (n == 0)
		return;
	if (c->hlen < PARSE_GO_CAPTURE_HEAD) {
		size_t take =
		    n < PARSE_GO_CAPTURE_HEAD - c->hlen ? n : PARSE_GO_CAPTURE_HEAD - c->hlen;

		if (c->hlen + take > c->hcap) {
			size_t ncap = c->hcap ? c->hcap * 2 : 256;

			while (ncap < c->hlen + take)
				ncap *= 2;
			if (ncap > PARSE_GO_CAPTURE_HEAD)
				ncap = PARSE_GO_CAPTURE_HEAD;
			if (*stored + (ncap - c->hcap) > PARSE_GO_CAPTURE_BUDGET) {
				c->cut += n;
				return;
			}
			*stored += ncap - c->hcap;
			c->head = xrealloc(c->head, ncap);
			c->hcap = ncap;
		}
		memcpy(c->head + c->hlen, data, take);
		c->hlen += take;
		data += take;
		n -= take;
		if (n == 0)
			return;
	}
	if (c->tail == NULL) {
		if (*stored + 2 * PARSE_GO_CAPTURE_TAIL > PARSE_GO_CAPTURE_BUDGET) {
			c->cut += n;
			return;
		}
		*stored += 2 * PARSE_GO_CAPTURE_TAIL;
		c->tail = xmalloc(2 * PARSE_GO_CAPTURE_TAIL);
	}
	if (n >= PARSE_GO_CAPTURE_TAIL) {
		c->cut += c->tlen + (n - PARSE_GO_CAPTURE_TAIL);
		memcpy(c->tail, data + n - PARSE_GO_CAPTURE_TAIL, PARSE_GO_CAPTURE_TAIL);
		c->tlen = PARSE_GO_CAPTURE_TAIL;
		return;
	}
	if (c->tlen + n > 2 * PARSE_GO_CAPTURE_TAIL) {
		size_t keep = PARSE_GO_CAPTURE_TAIL - n;

		c->cut += c->tlen - keep;
		memmove(c->tail, c->tail + c->tlen - keep, keep);
		c->tlen = keep;
	}
	memcpy(c->tail + c->tlen, data, n);
	c->tlen += n;
}

void
parse_go_capture_add(struct parse_go_capture *c, size_t *stored, const char *data, size_t n)
{
	const char *z;

	while ((z = memchr(data, '\0', n)) != NULL) {
		parse_go_capture_bytes(c, stored, data, (size_t)(z - data));
		parse_go_capture_bytes(c, stored, "\\x00", 4);
		n -= (size_t)(z - data) + 1;
		data = z + 1;
	}
	parse_go_capture_bytes(c, stored, data, n);
}

void
parse_go_capture_free(struct parse_go_capture *c, size_t *stored)
{
	*stored -= c->hcap + (c->tail != NULL ? 2 * PARSE_GO_CAPTURE_TAIL : 0);
	free(c->head);
	free(c->tail);
	memset(c, 0, sizeof *c);
}

char *
parse_go_capture_text(const struct parse_go_capture *c)
{
	struct buf b;
	size_t room, tstart = 0;
	uint64_t cut = c->cut;

	buf_init(&b);
	buf_add(&b, "", 0);
	if (cut == 0 && c->hlen + c->tlen <= OUTCOME_LINES_CAP) {
		buf_add(&b, c->head, c->hlen);
		buf_add(&b, c->tail, c->tlen);
		return buf_steal(&b);
	}
	room = OUTCOME_LINES_CAP - c->hlen - PARSE_GO_CAPTURE_MARK_ROOM;
	if (c->tlen > room) {
		tstart = c->tlen - room;
		cut += tstart;
	}
	if (c->tlen > tstart) {
		const char *nl = memchr(c->tail + tstart, '\n', c->tlen - tstart);

		if (nl != NULL && nl + 1 < c->tail + c->tlen) {
			cut += (size_t)(nl + 1 - (c->tail + tstart));
			tstart = (size_t)(nl + 1 - c->tail);
		}
	}
	buf_add(&b, c->head, c->hlen);
	if (b.len > 0 && b.data[b.len - 1] != '\n')
		buf_addc(&b, '\n');
	buf_printf(&b, "[... %llu bytes cut ...]\n", (unsigned long long)cut);
	buf_add(&b, c->tail + tstart, c->tlen - tstart);
	return buf_steal(&b);
}
