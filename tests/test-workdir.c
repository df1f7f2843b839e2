/* SPDX-License-Identifier: MIT */
/*
 * test-workdir.c: the private copy of a package's directory (what is
 * copied, linked and left out) and the debris watch (an entry a live run
 * may still own is not debris yet; one a run removes never is).
 */
#include "config.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "engine/workdir.h"
#include "base/util.h"

static void
put(const char *dir, const char *name, const char *text, mode_t mode)
{
	char *path = xasprintf("%s/%s", dir, name);
	FILE *f = fopen(path, "w");

	CHECK(f != NULL);
	fputs(text, f);
	fclose(f);
	CHECK_INT(chmod(path, mode), 0);
	free(path);
}

static char *
slurp(const char *dir, const char *name)
{
	char *path = xasprintf("%s/%s", dir, name), *data = NULL;

	CHECK_INT(util_read_file(path, 1 << 22, &data, NULL), 0);
	free(path);
	return data;
}

TEST(workdir_copy_links_what_it_need_not_copy)
{
	const char *tmp = check_tmpdir();
	char *src = xasprintf("%s/pkg", tmp), *dst = xasprintf("%s/out/tmp/1/work", tmp);
	char *p, *err = NULL, link[PATH_MAX];
	struct stat st;
	ssize_t n;

	CHECK_INT(util_mkdir_p(src), 0);
	put(src, "run.sh", "#!/bin/sh\n", 0755);
	p = xasprintf("%s/testdata", src);
	CHECK_INT(mkdir(p, 0755), 0);
	put(p, "input.txt", "abc\n", 0644);
	free(p);
	p = xasprintf("%s/.git", src);
	CHECK_INT(mkdir(p, 0755), 0);
	free(p);
	p = xasprintf("%s/fifo", src);
	CHECK_INT(mkfifo(p, 0644), 0);
	free(p);
	p = xasprintf("%s/to-input", src);
	CHECK_INT(symlink("testdata/input.txt", p), 0);
	free(p);
	p = xasprintf("%s/big", src);
	put(src, "big", "", 0644);
	CHECK_INT(truncate(p, WORKDIR_COPY_MAX + 1), 0);
	free(p);
	/* The output directory inside the package's: left out. */
	p = xasprintf("%s/out", src);
	CHECK_INT(mkdir(p, 0755), 0);

	CHECK_INT(workdir_copy(src, dst, p, &err), 0);
	CHECK(err == NULL);
	free(p);
	p = slurp(dst, "run.sh");
	CHECK_STR(p, "#!/bin/sh\n");
	free(p);
	p = xasprintf("%s/run.sh", dst);
	CHECK_INT(lstat(p, &st), 0);
	CHECK_INT(st.st_mode & 07777, 0755);
	free(p);
	p = slurp(dst, "testdata/input.txt");
	CHECK_STR(p, "abc\n");
	free(p);
	p = xasprintf("%s/to-input", dst);
	n = readlink(p, link, sizeof link - 1);
	CHECK(n > 0);
	link[n > 0 ? n : 0] = '\0';
	CHECK_STR(link, "testdata/input.txt");
	free(p);
	p = xasprintf("%s/.git", dst);
	n = readlink(p, link, sizeof link - 1);
	CHECK(n > 0);
	link[n > 0 ? n : 0] = '\0';
	free(p);
	p = xasprintf("%s/.git", src);
	CHECK_STR(link, p);
	free(p);
	/* Reflinked where the filesystem can, else a link to the original. */
	p = xasprintf("%s/big", dst);
	CHECK_INT(stat(p, &st), 0);
	CHECK_INT(st.st_size, WORKDIR_COPY_MAX + 1);
	free(p);
	p = xasprintf("%s/fifo", dst);
	CHECK(lstat(p, &st) < 0);
	free(p);
	p = xasprintf("%s/out", dst);
	CHECK(lstat(p, &st) < 0);
	free(p);
	/* The source is not touched. */
	p = xasprintf("%s/out", src);
	CHECK_INT(rmdir(p), 0);
	free(p);
	free(src);
	free(dst);
}

TEST(workdir_watch_waits_for_the_runs_that_may_own_an_entry)
{
	const char *dir = check_tmpdir();
	struct workdir_watch *w;
	struct workdir_debris *d;
	size_t n;
	char *p;

	put(dir, "input.txt", "x", 0644);
	w = workdir_watch_new(dir);
	CHECK(!workdir_watch_dirty(w));
	/* Run 1 ends while run 2 (started after it) runs: "left" may be
	 * run 2's. */
	put(dir, "left", "", 0644);
	p = xasprintf("%s/__pycache__", dir);
	CHECK_INT(mkdir(p, 0755), 0);
	free(p);
	d = workdir_watch_scan(w, 1, 2, 2, &n);
	CHECK(d == NULL);
	CHECK_INT(n, 0);
	CHECK(!workdir_watch_dirty(w));
	/* Run 3 starts; run 2 ends: run 3 started after "left" was seen, so
	 * "left" outlived every run that may have made it. */
	d = workdir_watch_scan(w, 2, 3, 3, &n);
	CHECK_INT(n, 1);
	CHECK_STR(d[0].path, "left");
	CHECK_INT(d[0].run, 1);
	workdir_debris_free(d, n);
	CHECK(workdir_watch_dirty(w));
	/* A file run 4 held while run 3 ended, gone when run 4 ends: never
	 * debris; "left" is found once only. */
	put(dir, "held", "", 0644);
	d = workdir_watch_scan(w, 3, 4, 4, &n);
	CHECK_INT(n, 0);
	p = xasprintf("%s/held", dir);
	CHECK_INT(unlink(p), 0);
	free(p);
	d = workdir_watch_scan(w, 4, INT64_MAX, 4, &n);
	CHECK(d == NULL);
	CHECK_INT(n, 0);
	/* Debris someone removed no longer makes runs start dirty. */
	p = xasprintf("%s/left", dir);
	CHECK_INT(unlink(p), 0);
	free(p);
	d = workdir_watch_scan(w, 5, INT64_MAX, 5, &n);
	CHECK_INT(n, 0);
	CHECK(!workdir_watch_dirty(w));
	workdir_watch_free(w);
	workdir_watch_free(NULL);
}

/* Sets dir's mtime secs seconds back. */
static void
age(const char *dir, int secs)
{
	struct timespec t[2] = {{0, UTIME_OMIT}, {time(NULL) - secs, 0}};

	CHECK_INT(utimensat(AT_FDCWD, dir, t, 0), 0);
}

/* A directory whose mtime lies well in the past is listed again only when
 * its mtime changes; one changed a moment ago is listed every time. */
TEST(workdir_watch_lists_again_when_the_mtime_changes)
{
	char *dir = xasprintf("%s/pkg", check_tmpdir());
	struct workdir_watch *w;
	struct workdir_debris *d;
	size_t n;

	CHECK_INT(mkdir(dir, 0755), 0);
	put(dir, "input.txt", "x", 0644);
	w = workdir_watch_new(dir);
	/* Changed just now: "a" is seen without any help from the mtime. */
	put(dir, "a", "", 0644);
	d = workdir_watch_scan(w, 1, INT64_MAX, 1, &n);
	CHECK_INT(n, 1);
	CHECK_STR(d[0].path, "a");
	workdir_debris_free(d, n);
	/* An hour old: listed once more, then trusted. A file slipped in
	 * with the mtime put back is not seen: the listing was reused. */
	age(dir, 3600);
	d = workdir_watch_scan(w, 2, INT64_MAX, 2, &n);
	CHECK_INT(n, 0);
	put(dir, "b", "", 0644);
	age(dir, 3600);
	d = workdir_watch_scan(w, 3, INT64_MAX, 3, &n);
	CHECK_INT(n, 0);
	/* A real change moves the mtime: "c" (and "b") are found. */
	put(dir, "c", "", 0644);
	d = workdir_watch_scan(w, 4, INT64_MAX, 4, &n);
	CHECK_INT(n, 2);
	CHECK_STR(d[0].path, "b");
	CHECK_STR(d[1].path, "c");
	workdir_debris_free(d, n);
	workdir_watch_free(w);
	free(dir);
}
