/* SPDX-License-Identifier: MIT */
/*
 * merge.c: the shards of a sweep as one journal (see merge.h). A part is a
 * shard's own journal, or one of the parts an earlier merge wrote, so a
 * merge of merges equals the merge of their shards. Parts are ordered by
 * when they started (then by shard), which makes the first failure of a
 * test the one of the earliest shard that had it, whatever the order of
 * the directories on the command line.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/flatjson.h"
#include "base/jsonw.h"
#include "base/timefmt.h"
#include "base/util.h"
#include "drivers/outcome.h"
#include "results/journal-header.h"
#include "results/journal.h"
#include "results/merge.h"
#include "results/run-ids.h"
#include "results/shardset.h"

struct merge_input {
	const char *dir;
	char *path; /* its journal */
	cJSON *header;
	bool merged;         /* it holds part lines */
	struct run_ids runs; /* its run lines copied */
};

struct merge_part {
	struct merge_input *in;
	int ordinal; /* which part of in's journal, from 0 */
	cJSON *prov; /* the part line to write */
	int64_t started_ms, finished_ms;
	int index, count; /* the shard */
	bool complete;
	/* The numbers it uses, and where they move: new = old - min + base. */
	int64_t min[4], max[4], base[4];
};

/* The numbered things of a journal. */
enum { MERGE_PKG, MERGE_SET, MERGE_RUN, MERGE_CANARY, MERGE_KINDS };

struct merge {
	const char *out;
	struct merge_input *ins;
	int nins;
	struct merge_part *parts;
	size_t nparts;
	/* pass 1: the input being read and its current part */
	struct merge_input *cur_in;
	struct merge_part *cur;
	int ordinal;
	/* pass 2 */
	FILE *f;
	const struct merge_part *want;
	struct buf line; /* a fast line being copied */
	char **warn;     /* the logs not carried, a line each */
	size_t nwarn;
	bool overlapped; /* the merged journal's default, as its defaults lines say */
	char *err;
};

static int64_t
merge_num(const cJSON *line, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(line, key);

	return cJSON_IsNumber(v) ? (int64_t)v->valuedouble : -1;
}

static int64_t
merge_time(const cJSON *obj, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
	int64_t ms = 0;

	if (cJSON_IsString(v))
		timefmt_parse_time(v->valuestring, &ms);
	return ms;
}

static void
merge_shard_of(const cJSON *shard, int *index, int *count)
{
	*index = (int)merge_num(shard, "index");
	*count = (int)merge_num(shard, "count");
}

static struct merge_part *
merge_new_part(struct merge *m)
{
	struct merge_part *p;
	int k;

	m->parts = xrealloc(m->parts, sizeof *m->parts * (m->nparts + 1));
	p = &m->parts[m->nparts++];
	memset(p, 0, sizeof *p);
	p->in = m->cur_in;
	p->ordinal = m->ordinal++;
	for (k = 0; k < MERGE_KINDS; k++) {
		p->min[k] = INT64_MAX;
		p->max[k] = -1;
	}
	return p;
}

/* A shard's own journal is one part; its provenance comes from the header. */
static void
merge_part_from_header(struct merge *m, struct merge_part *p)
{
	const cJSON *h = m->cur_in->header;
	const cJSON *config = cJSON_GetObjectItemCaseSensitive(h, "config");
	const cJSON *machine = cJSON_GetObjectItemCaseSensitive(h, "machine");
	const cJSON *host = cJSON_GetObjectItemCaseSensitive(machine, "host");
	char *abs = realpath(m->cur_in->dir, NULL);

	merge_shard_of(cJSON_GetObjectItemCaseSensitive(config, "shard"), &p->index, &p->count);
	p->started_ms = merge_time(h, "started");
	p->prov = cJSON_CreateObject();
	cJSON_AddStringToObject(p->prov, "type", "part");
	cJSON_AddStringToObject(p->prov, "dir", abs != NULL ? abs : m->cur_in->dir);
	cJSON_AddStringToObject(p->prov, "host", cJSON_IsString(host) ? host->valuestring : "");
	cJSON_AddItemToObject(
	    p->prov, "shard",
	    cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(config, "shard"), 1));
	cJSON_AddItemToObject(p->prov, "started",
	                      cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(h, "started"), 1));
	cJSON_AddItemToObject(p->prov, "machine", cJSON_Duplicate(machine, 1));
	free(abs);
}

static void
merge_see(struct merge_part *p, int k, int64_t v)
{
	if (v < 0)
		return;
	if (v < p->min[k])
		p->min[k] = v;
	if (v > p->max[k])
		p->max[k] = v;
}

/* Pass 1: the parts of one journal and the numbers each uses. */
static int
merge_scan_line(void *arg, struct journal_reader *reader, const cJSON *line, int lineno)
{
	struct merge *m = arg;
	const char *type = journal_line_type(line);

	if (strcmp(type, "header") == 0) {
		const cJSON *config = cJSON_GetObjectItemCaseSensitive(line, "config");

		if (journal_header_simulated(line)) {
			m->err = journal_simulated_refusal(m->cur_in->path);
			return -EPERM;
		}
		if (!cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(config, "shard"))) {
			m->err = xasprintf(_("%s:%d: not a shard: its sweep had no --shard I/N"),
			                   m->cur_in->path, lineno);
			return -EINVAL;
		}
		m->cur_in->header = cJSON_Duplicate(line, 1);
		return 0;
	}
	if (strcmp(type, "part") == 0) {
		m->cur_in->merged = true;
		m->cur = merge_new_part(m);
		m->cur->prov = cJSON_Duplicate(line, 1);
		merge_shard_of(cJSON_GetObjectItemCaseSensitive(line, "shard"), &m->cur->index,
		               &m->cur->count);
		m->cur->started_ms = merge_time(line, "started");
		m->cur->finished_ms = merge_time(line, "finished");
		m->cur->complete = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(line, "complete"));
		return 0;
	}
	if (m->cur == NULL) {
		m->cur = merge_new_part(m);
		merge_part_from_header(m, m->cur);
	}
	if (strcmp(type, "end") == 0 && !m->cur_in->merged) {
		const cJSON *st = cJSON_GetObjectItemCaseSensitive(line, "status");

		m->cur->complete = cJSON_IsString(st) && strcmp(st->valuestring, "complete") == 0;
		m->cur->finished_ms = merge_time(line, "finished");
	} else if (strcmp(type, "resume") == 0 && !m->cur_in->merged) {
		m->cur->complete = false;
	} else if (strcmp(type, "build") == 0) {
		merge_see(m->cur, MERGE_PKG, merge_num(line, "pkg"));
	} else if (strcmp(type, "set") == 0) {
		merge_see(m->cur, MERGE_SET, merge_num(line, "id"));
	} else if (strcmp(type, "spawn") == 0) {
		merge_see(m->cur, MERGE_RUN, merge_num(line, "run"));
	} else if (strcmp(type, "run") == 0) {
		/* Checked here, so a bad line is blamed on its own journal
		 * and not on the merged one. */
		struct journal_run jr;
		struct outcome o;
		char *why = NULL;

		memset(&o, 0, sizeof o);
		journal_decode_run(reader, line, &jr, &o, &why);
		outcome_free(&o);
		if (why != NULL) {
			m->err = xasprintf("%s:%d: %s", m->cur_in->path, lineno, why);
			free(why);
			return -EINVAL;
		}
		merge_see(m->cur, MERGE_RUN, jr.run);
	} else if (strcmp(type, "canary") == 0) {
		merge_see(m->cur, MERGE_CANARY, merge_num(line, "canary"));
	}
	return 0;
}

/* Pass 1 for the lines a journal has millions of, unparsed. */
static int
merge_scan_fast(void *arg, struct journal_reader *reader, const struct journal_fast *line,
                int lineno)
{
	struct merge *m = arg;

	(void)reader;
	(void)lineno;
	if (m->cur == NULL) {
		m->cur = merge_new_part(m);
		merge_part_from_header(m, m->cur);
	}
	merge_see(m->cur, MERGE_RUN, line->run.run);
	return 1;
}

static int
merge_scan(struct merge *m, struct merge_input *in)
{
	char *rerr = NULL;
	bool torn = false;
	int rc;

	in->path = xasprintf("%s/journal.jsonl", in->dir);
	m->cur_in = in;
	m->cur = NULL;
	m->ordinal = 0;
	rc = journal_read_fast(in->path, merge_scan_line, merge_scan_fast, m, &torn, &rerr);
	if (rc < 0 && m->err == NULL)
		m->err = rerr != NULL ? rerr : xasprintf(_("%s: cannot read"), in->path);
	else
		free(rerr);
	if (rc == 0 && in->header == NULL) {
		m->err = xasprintf(_("%s: no header line: not a flakesweep journal"), in->path);
		rc = -EINVAL;
	}
	if (rc == 0 && m->cur == NULL) {
		m->cur = merge_new_part(m);
		merge_part_from_header(m, m->cur);
	}
	return rc;
}

static int
merge_check(struct merge *m)
{
	const struct merge_input *a = &m->ins[0];
	size_t i, j;
	int k, rc = 0;

	for (k = 1; k < m->nins && rc == 0; k++)
		rc = shardset_check_headers(a->dir, a->header, m->ins[k].dir, m->ins[k].header,
		                            &m->err);
	for (i = 1; i < m->nparts && rc == 0; i++) {
		const struct merge_part *p = &m->parts[i];

		for (j = 0; j < i && rc == 0; j++)
			rc = shardset_check_index(m->parts[j].in->dir, m->parts[j].index,
			                          m->parts[j].count, p->in->dir, p->index, p->count,
			                          &m->err);
	}
	return rc;
}

static int
merge_part_cmp(const void *a, const void *b)
{
	const struct merge_part *x = a, *y = b;

	return shardset_cmp(x->started_ms, x->index, y->started_ms, y->index);
}

/* Sorts the parts and gives each the numbers after the parts before it. */
static void
merge_place(struct merge *m)
{
	int64_t next[MERGE_KINDS] = {0, 1, 1, 1};
	size_t i;
	int k;

	qsort(m->parts, m->nparts, sizeof *m->parts, merge_part_cmp);
	for (i = 0; i < m->nparts; i++) {
		struct merge_part *p = &m->parts[i];

		for (k = 0; k < MERGE_KINDS; k++) {
			p->base[k] = next[k];
			if (p->max[k] >= 0)
				next[k] += p->max[k] - p->min[k] + 1;
		}
	}
}

static void
merge_move(const struct merge_part *p, cJSON *line, const char *key, int k)
{
	cJSON *v = cJSON_GetObjectItemCaseSensitive(line, key);

	if (cJSON_IsNumber(v) && p->max[k] >= 0)
		cJSON_SetNumberValue(v, v->valuedouble - (double)p->min[k] + (double)p->base[k]);
}

/* Adds a line to the warnings merge_journals hands back. */
static void
merge_warn(struct merge *m, const char *src, const char *why)
{
	char *line = xasprintf("%s: %s", src, why);

	util_strv_add(&m->warn, &m->nwarn, line);
	free(line);
}

/* Opens rel, a relative name inside dir, following no symbolic link on
 * the way (a runs/ that links out of the shard is refused as its log
 * would be): returns the descriptor, or -1 with errno (ELOOP or ENOTDIR
 * for a link). */
static int
merge_open_inside(const char *dir, const char *rel)
{
	char *copy = xstrdup(rel), *part = copy, *slash;
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), fd, saved;

	while (dfd >= 0 && (slash = strchr(part, '/')) != NULL) {
		*slash = '\0';
		fd = *part == '\0'
		         ? dup(dfd)
		         : openat(dfd, part, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		saved = errno;
		close(dfd);
		errno = saved;
		dfd = fd;
		part = slash + 1;
	}
	fd = dfd >= 0 ? openat(dfd, part, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC) : -1;
	saved = errno;
	if (dfd >= 0)
		close(dfd);
	free(copy);
	errno = saved;
	return fd;
}

/* Carries the kept log from (relative to part p's directory) to to
 * (relative to the merge's): a hard link to the very file opened, else a
 * copy of it. Only a regular file inside the part's directory is carried:
 * a symbolic link (to a secret, in a tampered shard), a FIFO, a device, a
 * name that leaves the directory or a missing file is skipped with a
 * warning naming it. A log never kept is skipped in silence when
 * optional. Returns 0 when the
 * log was carried, 1 when skipped, or a negative errno with m->err. */
static int
merge_link(struct merge *m, const struct merge_part *p, const char *from, const char *to,
           bool optional)
{
	char *src = xasprintf("%s/%s", p->in->dir, from), *dst = xasprintf("%s/%s", m->out, to);
	char *wrapped = xasprintf("/%s/", from), *data = NULL, fdpath[40];
	struct stat st;
	size_t len = 0;
	int fd = -1, rc = 1;

	if (from[0] == '/' || strstr(wrapped, "/../") != NULL) {
		merge_warn(m, src, _("leaves its shard's directory: not carried into the merge"));
		goto out;
	}
	fd = merge_open_inside(p->in->dir, from);
	if (fd < 0 && errno == ENOENT) {
		/* A shard copied without its runs/ is merged all the same. */
		if (!optional)
			merge_warn(m, src, _("missing: not carried into the merge"));
		goto out;
	}
	if (fd < 0 && errno != ELOOP && errno != ENOTDIR) {
		rc = -errno;
		m->err = xasprintf(_("cannot copy %s to %s: %s"), src, dst, strerror(-rc));
		goto out;
	}
	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		merge_warn(m, src, _("not a regular file: not carried into the merge"));
		goto out;
	}
	snprintf(fdpath, sizeof fdpath, "/proc/self/fd/%d", fd);
	rc = 0;
	if (linkat(AT_FDCWD, fdpath, AT_FDCWD, dst, AT_SYMLINK_FOLLOW) < 0) {
		rc = util_read_fd(fd, SIZE_MAX, &data, &len);
		if (rc == 0)
			rc = util_write_file_atomic(dst, data, len);
		if (rc < 0)
			m->err = xasprintf(_("cannot copy %s to %s: %s"), src, dst, strerror(-rc));
	}
out:
	if (fd >= 0)
		close(fd);
	free(data);
	free(wrapped);
	free(src);
	free(dst);
	return rc;
}

/* Carries a kept log to the run's new number; a log not carried leaves
 * the line. */
static int
merge_log(struct merge *m, const struct merge_part *p, cJSON *line)
{
	cJSON *log = cJSON_GetObjectItemCaseSensitive(line, "log");
	char *rel;
	int rc;

	if (!cJSON_IsString(log))
		return 0;
	rel = xasprintf("runs/%lld.log", (long long)merge_num(line, "run"));
	rc = merge_link(m, p, log->valuestring, rel, false);
	if (rc == 1)
		cJSON_DeleteItemFromObjectCaseSensitive(line, "log");
	else
		cJSON_SetValuestring(log, rel);
	free(rel);
	return rc < 0 ? rc : 0;
}

/* An unexpected canary's log (runs/canary-N.log, named by its number
 * alone) follows the canary to its new number. */
static int
merge_canary(struct merge *m, const struct merge_part *p, cJSON *line)
{
	char *from = xasprintf("runs/canary-%lld.log", (long long)merge_num(line, "canary")), *to;
	int rc;

	merge_move(p, line, "canary", MERGE_CANARY);
	to = xasprintf("runs/canary-%lld.log", (long long)merge_num(line, "canary"));
	rc = merge_link(m, p, from, to, true);
	free(from);
	free(to);
	return rc < 0 ? rc : 0;
}

static int
merge_emit(struct merge *m, const cJSON *obj)
{
	char *text = jsonw_print(obj, false);

	fputs(text, m->f);
	fputc('\n', m->f);
	free(text);
	return 0;
}

/* Before a run line is copied: a defaults line when the merged journal's
 * default overlapped is not the one of the part being read, whose own
 * defaults lines are not copied (the parts before it may say otherwise). */
static void
merge_defaults(struct merge *m, const struct journal_reader *reader)
{
	cJSON *line;

	if (journal_reader_overlapped(reader) == m->overlapped)
		return;
	m->overlapped = !m->overlapped;
	line = cJSON_CreateObject();
	cJSON_AddStringToObject(line, "type", "defaults");
	cJSON_AddBoolToObject(line, "overlapped", m->overlapped);
	merge_emit(m, line);
	cJSON_Delete(line);
}

/* Pass 2: the lines of the wanted part, moved. */
static int
merge_copy_line(void *arg, struct journal_reader *reader, const cJSON *orig, int lineno)
{
	struct merge *m = arg;
	const struct merge_part *p = m->want;
	const char *type = journal_line_type(orig);
	cJSON *line;
	int rc = 0;

	if (strcmp(type, "header") == 0 || strcmp(type, "defaults") == 0)
		return 0;
	if (strcmp(type, "part") == 0) {
		m->ordinal++;
		return 0;
	}
	if (m->ordinal != p->ordinal || strcmp(type, "phase") == 0 || strcmp(type, "end") == 0 ||
	    strcmp(type, "resume") == 0)
		return 0;
	/* A run's line again (pass 1 checked its id) is counted once. */
	if (strcmp(type, "run") == 0 &&
	    !run_ids_first(&p->in->runs, merge_num(orig, "run"), p->in->path, lineno))
		return 0;
	line = cJSON_Duplicate(orig, 1);
	if (strcmp(type, "build") == 0) {
		merge_move(p, line, "pkg", MERGE_PKG);
	} else if (strcmp(type, "set") == 0) {
		merge_move(p, line, "id", MERGE_SET);
		merge_move(p, line, "pkg", MERGE_PKG);
	} else if (strcmp(type, "spawn") == 0) {
		merge_move(p, line, "run", MERGE_RUN);
	} else if (strcmp(type, "run") == 0) {
		merge_defaults(m, reader);
		merge_move(p, line, "run", MERGE_RUN);
		merge_move(p, line, "pkg", MERGE_PKG);
		merge_move(p, line, "set", MERGE_SET);
		rc = merge_log(m, p, line);
	} else if (strcmp(type, "canary") == 0) {
		rc = merge_canary(m, p, line);
	} else if (strcmp(type, "pin") == 0 || strcmp(type, "env") == 0) {
		cJSON *x;

		/* The container or environment levels' packages it credits. */
		cJSON_ArrayForEach(x, cJSON_GetObjectItemCaseSensitive(line, "pkgs"))
		{
			if (cJSON_IsNumber(x) && p->max[MERGE_PKG] >= 0)
				cJSON_SetNumberValue(x, x->valuedouble - (double)p->min[MERGE_PKG] +
				                            (double)p->base[MERGE_PKG]);
		}
	}
	if (rc == 0)
		merge_emit(m, line);
	cJSON_Delete(line);
	return rc;
}

/* Which numbered thing member x of a fast line is, or -1. */
static int
merge_fast_kind(const struct journal_fast *line, const struct flatjson_member *x)
{
	if (flatjson_is(x, "run"))
		return MERGE_RUN;
	if (line->kind == JOURNAL_FAST_RUN && flatjson_is(x, "pkg"))
		return MERGE_PKG;
	if (line->kind == JOURNAL_FAST_RUN && flatjson_is(x, "set"))
		return MERGE_SET;
	return -1;
}

/* A number of a fast line as cJSON_PrintUnformatted writes what cJSON
 * read of it, moved by k's offset when k >= 0. False when only cJSON can
 * tell ("-0", more digits than a double holds). */
static bool
merge_fast_number(struct buf *b, const struct merge_part *p, const char *s, size_t n, int k)
{
	int64_t i;
	double d;

	if (n > 0 && s[0] == '-' && n == 2 && s[1] == '0')
		return false;
	if (flatjson_int(s, n, -JOURNAL_NUM_MAX, JOURNAL_NUM_MAX, &i))
		d = (double)i;
	else if (k < 0 && flatjson_double(s, n, &d))
		;
	else
		return false;
	if (k >= 0 && p->max[k] >= 0)
		d = d - (double)p->min[k] + (double)p->base[k];
	jsonw_num_text(b, d);
	return true;
}

/* A fast line as merge_copy_line would write it, into m->line; false when
 * the slow path must (a line with a kept log: the log may not be carried). */
static bool
merge_fast_text(struct merge *m, const struct merge_part *p, const struct journal_fast *line)
{
	struct buf *b = &m->line;
	int i, k;

	buf_reset(b);
	buf_addc(b, '{');
	for (i = 0; i < line->nmembers; i++) {
		const struct flatjson_member *x = &line->members[i];
		const char *v = x->val, *end = x->val + x->vlen, *comma;

		buf_adds(b, i > 0 ? ",\"" : "\"");
		buf_add(b, x->key, x->klen);
		buf_add(b, "\":", 2);
		k = merge_fast_kind(line, x);
		switch (x->kind) {
		case FLATJSON_STRING:
			if (line->kind == JOURNAL_FAST_RUN && flatjson_is(x, "log"))
				return false;
			buf_addc(b, '"');
			buf_add(b, v, (size_t)(end - v));
			buf_addc(b, '"');
			break;
		case FLATJSON_NUMBER:
			if (!merge_fast_number(b, p, v, x->vlen, k))
				return false;
			break;
		case FLATJSON_TRUE:
			buf_adds(b, "true");
			break;
		case FLATJSON_FALSE:
			buf_adds(b, "false");
			break;
		case FLATJSON_ARRAY:
			buf_addc(b, '[');
			for (; v < end; v = comma + 1) {
				comma = memchr(v, ',', (size_t)(end - v));
				if (comma == NULL)
					comma = end;
				if (!merge_fast_number(b, p, v, (size_t)(comma - v), -1))
					return false;
				if (comma < end)
					buf_addc(b, ',');
			}
			buf_addc(b, ']');
			break;
		}
	}
	buf_add(b, "}\n", 2);
	return true;
}

/* Pass 2 for the lines a journal has millions of: written again from
 * their members, without a tree, byte for byte as merge_copy_line. */
static int
merge_copy_fast(void *arg, struct journal_reader *reader, const struct journal_fast *line,
                int lineno)
{
	struct merge *m = arg;
	const struct merge_part *p = m->want;

	if (m->ordinal != p->ordinal)
		return 1;
	if (line->kind == JOURNAL_FAST_RUN)
		merge_defaults(m, reader);
	/* A line the fast path cannot write goes to merge_copy_line, which
	 * checks its run id itself. */
	if (!merge_fast_text(m, p, line))
		return 0;
	if (line->kind == JOURNAL_FAST_RUN &&
	    !run_ids_first(&p->in->runs, line->run.run, p->in->path, lineno))
		return 1;
	fwrite(m->line.data, 1, m->line.len, m->f);
	return 1;
}

/* The merged header: the earliest part's, with every shard's buckets. */
static cJSON *
merge_header(const struct merge *m)
{
	cJSON *h = cJSON_Duplicate(m->parts[0].in->header, 1);
	cJSON *config = cJSON_GetObjectItemCaseSensitive(h, "config");
	cJSON *shard = cJSON_CreateObject(), *indexes, *buckets;
	bool have[512] = {false};
	size_t i;
	int b;

	for (i = 0; i < m->nparts; i++) {
		const cJSON *s = cJSON_GetObjectItemCaseSensitive(m->parts[i].prov, "shard"), *x;

		cJSON_ArrayForEach(x, cJSON_GetObjectItemCaseSensitive(s, "buckets"))
		{
			if (cJSON_IsNumber(x) && x->valuedouble >= 0 && x->valuedouble < 512)
				have[(int)x->valuedouble] = true;
		}
	}
	cJSON_AddNumberToObject(shard, "index", m->parts[0].index);
	cJSON_AddNumberToObject(shard, "count", m->parts[0].count);
	buckets = cJSON_AddArrayToObject(shard, "buckets");
	for (b = 0; b < 512; b++)
		if (have[b])
			cJSON_AddItemToArray(buckets, cJSON_CreateNumber(b));
	indexes = cJSON_AddArrayToObject(shard, "merged");
	for (b = 1; b <= m->parts[0].count; b++)
		for (i = 0; i < m->nparts; i++)
			if (m->parts[i].index == b)
				cJSON_AddItemToArray(indexes, cJSON_CreateNumber(b));
	cJSON_ReplaceItemInObjectCaseSensitive(config, "shard", shard);
	return h;
}

static int
merge_write(struct merge *m)
{
	char *path = xasprintf("%s/journal.jsonl", m->out), *runs = xasprintf("%s/runs", m->out);
	cJSON *h, *end;
	char when[40];
	int64_t finished = 0;
	bool complete = true, have[513] = {false};
	int count = m->parts[0].count, held = 0;
	size_t i;
	int rc = 0;

	if (util_mkdir_p(runs) < 0 || (m->f = fopen(path, "wx")) == NULL) {
		m->err = xasprintf(_("cannot create %s: %s"), path, strerror(errno));
		free(path);
		free(runs);
		return -EIO;
	}
	h = merge_header(m);
	merge_emit(m, h);
	cJSON_Delete(h);
	for (i = 0; i < m->nparts && rc == 0; i++) {
		struct merge_part *p = &m->parts[i];
		char *rerr = NULL;
		bool torn;

		if (p->finished_ms > finished)
			finished = p->finished_ms;
		complete &= p->complete;
		if (p->index >= 1 && p->index <= 512 && !have[p->index]) {
			have[p->index] = true;
			held++;
		}
		cJSON_DeleteItemFromObjectCaseSensitive(p->prov, "complete");
		cJSON_DeleteItemFromObjectCaseSensitive(p->prov, "finished");
		cJSON_AddBoolToObject(p->prov, "complete", p->complete);
		if (p->finished_ms > 0) {
			timefmt_format_rfc3339(p->finished_ms, when, sizeof when);
			cJSON_AddStringToObject(p->prov, "finished", when);
		}
		merge_emit(m, p->prov);
		m->want = p;
		m->ordinal = p->in->merged ? -1 : 0;
		rc = journal_read_fast(p->in->path, merge_copy_line, merge_copy_fast, m, &torn,
		                       &rerr);
		if (rc < 0 && m->err == NULL)
			m->err = rerr;
		else
			free(rerr);
	}
	end = cJSON_CreateObject();
	cJSON_AddStringToObject(end, "type", "end");
	/* Shards missing make the merge partial, whatever the parts say. */
	cJSON_AddStringToObject(end, "status",
	                        held < count ? "partial"
	                        : complete   ? "complete"
	                                     : "interrupted");
	timefmt_format_rfc3339(finished, when, sizeof when);
	cJSON_AddStringToObject(end, "finished", when);
	merge_emit(m, end);
	cJSON_Delete(end);
	if ((fflush(m->f) != 0 || fsync(fileno(m->f)) < 0) && rc == 0) {
		m->err = xasprintf(_("cannot write %s: %s"), path, strerror(errno));
		rc = -EIO;
	}
	fclose(m->f);
	free(path);
	free(runs);
	return rc;
}

int
merge_journals(const char *out, char *const *dirs, int n, char ***warnings, char **err)
{
	struct merge m;
	size_t i, nwarnings = 0;
	int k, rc = 0;

	memset(&m, 0, sizeof m);
	buf_init(&m.line);
	m.out = out;
	m.nins = n;
	m.ins = xcalloc((size_t)n + 1, sizeof *m.ins);
	for (k = 0; k < n && rc == 0; k++) {
		m.ins[k].dir = dirs[k];
		rc = merge_scan(&m, &m.ins[k]);
	}
	if (rc == 0)
		rc = merge_check(&m);
	if (rc == 0) {
		merge_place(&m);
		rc = merge_write(&m);
	}
	for (i = 0; i < m.nparts; i++)
		cJSON_Delete(m.parts[i].prov);
	free(m.parts);
	*warnings = NULL;
	for (i = 0; i < m.nwarn; i++)
		util_strv_add(warnings, &nwarnings, m.warn[i]);
	util_strv_free(m.warn);
	for (k = 0; k < n; k++) {
		for (i = 0; i < m.ins[k].runs.nwarnings; i++)
			util_strv_add(warnings, &nwarnings, m.ins[k].runs.warnings[i]);
		run_ids_free(&m.ins[k].runs);
		free(m.ins[k].path);
		cJSON_Delete(m.ins[k].header);
	}
	free(m.ins);
	buf_free(&m.line);
	*err = m.err;
	return rc;
}
