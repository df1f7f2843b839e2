/* SPDX-License-Identifier: MIT */
/*
 * test-tmpdir-pool.c: the runs' TMPDIRs, reused: an empty one comes back
 * under the next run's name (renamed once when that run takes it in the
 * same turn of the loop), one the run changed (an entry, its mode, a
 * link in its place) is never taken back, and the idle ones go at the end
 * (and at the start, those a killed sweep left).
 */
#include "config.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "engine/tmpdir-pool.h"
#include "base/util.h"

/* The names in dir, sorted, joined by spaces. */
static char *
names(const char *dir)
{
	struct dirent **v;
	struct buf b;
	int i, n = scandir(dir, &v, NULL, alphasort);

	buf_init(&b);
	for (i = 0; i < n; i++) {
		if (strcmp(v[i]->d_name, ".") != 0 && strcmp(v[i]->d_name, "..") != 0)
			buf_printf(&b, "%s%s", b.len > 0 ? " " : "", v[i]->d_name);
		free(v[i]);
	}
	free(v);
	buf_addc(&b, '\0');
	return buf_steal(&b);
}

/* Checks that the names in dir, as names() joins them, are want. */
static void
check_names(const char *dir, const char *want)
{
	char *got = names(dir);

	CHECK_STR(got, want);
	free(got);
}

TEST(tmpdir_pool_reuses_empty_dirs)
{
	char *dir = xasprintf("%s/pool", check_tmpdir()), *p1, *p2, *p3, *f;
	struct tmpdir_pool *pool;
	struct stat st;
	FILE *fp;

	CHECK_INT(mkdir(dir, 0755), 0);
	/* An idle one a killed sweep left goes; a kept TMPDIR stays. */
	p1 = xasprintf("%s/.idle-7", dir);
	CHECK_INT(mkdir(p1, 0755), 0);
	free(p1);
	p1 = xasprintf("%s/9", dir);
	CHECK_INT(mkdir(p1, 0755), 0);
	pool = tmpdir_pool_new(dir);
	check_names(dir, "9");
	CHECK_INT(rmdir(p1), 0);
	free(p1);
	p1 = xasprintf("%s/1", dir);
	p2 = xasprintf("%s/2", dir);
	p3 = xasprintf("%s/3", dir);
	CHECK_INT(tmpdir_pool_take(pool, p1), 0);
	CHECK_INT(stat(p1, &st), 0);
	CHECK(S_ISDIR(st.st_mode));
	/* Left empty: taken back, under its name until the turn ends, and
	 * run 2 gets the same directory. */
	CHECK(tmpdir_pool_give(pool, p1));
	check_names(dir, "1");
	tmpdir_pool_settle(pool);
	check_names(dir, ".idle-0");
	CHECK_INT(tmpdir_pool_take(pool, p2), 0);
	check_names(dir, "2");
	/* A file left behind: not taken back, and run 3's is a new one. */
	f = xasprintf("%s/left", p2);
	fp = fopen(f, "w");
	CHECK(fp != NULL);
	fclose(fp);
	CHECK(!tmpdir_pool_give(pool, p2));
	CHECK_INT(tmpdir_pool_take(pool, p3), 0);
	check_names(dir, "2 3");
	CHECK_INT(unlink(f), 0);
	free(f);
	/* Its mode changed, or a link in its place: not taken back. */
	CHECK_INT(chmod(p2, 0700), 0);
	CHECK(!tmpdir_pool_give(pool, p2));
	CHECK_INT(rmdir(p2), 0);
	CHECK_INT(symlink(p3, p2), 0);
	CHECK(!tmpdir_pool_give(pool, p2));
	CHECK_INT(unlink(p2), 0);
	check_names(dir, "3");
	CHECK(tmpdir_pool_give(pool, p3));
	tmpdir_pool_settle(pool);
	check_names(dir, ".idle-1");
	/* The end removes the idle ones, and one given back in the last
	 * turn. */
	CHECK_INT(tmpdir_pool_take(pool, p1), 0);
	CHECK(tmpdir_pool_give(pool, p1));
	check_names(dir, "1");
	tmpdir_pool_free(pool);
	check_names(dir, "");
	CHECK_INT(rmdir(dir), 0);
	free(p1);
	free(p2);
	free(p3);
	free(dir);
}

/* A new directory of the pool's, its last change an hour ago, found empty
 * and so stamped. */
static void
stamped(struct tmpdir_pool *pool, const char *path, const struct timespec *old)
{
	CHECK_INT(tmpdir_pool_take(pool, path), 0);
	CHECK_INT(utimensat(AT_FDCWD, path, old, 0), 0);
	CHECK(tmpdir_pool_give(pool, path));
}

/* A file left in the directory of path: not taken back, even with the
 * directory's mtime set back to old (when old is not NULL). */
static void
left_file(struct tmpdir_pool *pool, const char *path, const struct timespec *old)
{
	char *f = xasprintf("%s/left", path);
	struct stat st;
	FILE *fp;

	CHECK_INT(tmpdir_pool_take(pool, path), 0);
	fp = fopen(f, "w");
	CHECK(fp != NULL);
	fclose(fp);
	if (old != NULL) {
		CHECK_INT(utimensat(AT_FDCWD, path, old, 0), 0);
		CHECK_INT(stat(path, &st), 0);
		CHECK(st.st_mtim.tv_sec == old[1].tv_sec && st.st_mtim.tv_nsec == 0);
	}
	CHECK(!tmpdir_pool_give(pool, path));
	CHECK_INT(unlink(f), 0);
	CHECK_INT(rmdir(path), 0);
	free(f);
}

/* A directory found empty long after its last change is taken back on its
 * stamps alone; an entry left in it, even with its mtime set back, is
 * still seen. */
TEST(tmpdir_pool_trusts_old_stamps_only_while_unchanged)
{
	char *dir = xasprintf("%s/stamped", check_tmpdir()), *p1, *p2;
	struct timespec old[2] = {{0, 0}, {0, 0}};
	struct tmpdir_pool *pool;

	CHECK_INT(mkdir(dir, 0755), 0);
	pool = tmpdir_pool_new(dir);
	p1 = xasprintf("%s/1", dir);
	p2 = xasprintf("%s/2", dir);
	old[0].tv_sec = old[1].tv_sec = time(NULL) - 3600;
	stamped(pool, p1, old);
	/* Left as it was: taken back. */
	CHECK_INT(tmpdir_pool_take(pool, p2), 0);
	CHECK(tmpdir_pool_give(pool, p2));
	tmpdir_pool_settle(pool);
	check_names(dir, ".idle-0");
	left_file(pool, p2, NULL);
	stamped(pool, p1, old);
	left_file(pool, p2, old);
	check_names(dir, "");
	tmpdir_pool_free(pool);
	CHECK_INT(rmdir(dir), 0);
	free(p1);
	free(p2);
	free(dir);
}

/* A new directory's mtime is set well back, so that its first return can
 * already be judged by its stamps: an entry made in it stamps a later one. */
TEST(tmpdir_pool_backdates_new_dirs)
{
	char *dir = xasprintf("%s/backdated", check_tmpdir()), *p1, *p2;
	struct tmpdir_pool *pool;
	struct stat st;

	CHECK_INT(mkdir(dir, 0755), 0);
	pool = tmpdir_pool_new(dir);
	p1 = xasprintf("%s/1", dir);
	p2 = xasprintf("%s/2", dir);
	CHECK_INT(tmpdir_pool_take(pool, p1), 0);
	CHECK_INT(lstat(p1, &st), 0);
	CHECK(st.st_mtim.tv_sec + 2 < time(NULL));
	CHECK(tmpdir_pool_give(pool, p1));
	tmpdir_pool_settle(pool);
	check_names(dir, ".idle-0");
	/* Judged by its stamps now: a file made in it is still seen. */
	left_file(pool, p2, NULL);
	tmpdir_pool_free(pool);
	CHECK_INT(rmdir(dir), 0);
	free(p1);
	free(p2);
	free(dir);
}

/* A TMPDIR given back and taken again in the same turn of the loop is
 * renamed once, straight to the next run's name: no idle name between. */
TEST(tmpdir_pool_renames_once_within_a_turn)
{
	char *dir = xasprintf("%s/turn", check_tmpdir()), *p1, *p2, *p3;
	struct tmpdir_pool *pool;
	struct stat st1, st2;

	CHECK_INT(mkdir(dir, 0755), 0);
	pool = tmpdir_pool_new(dir);
	p1 = xasprintf("%s/1", dir);
	p2 = xasprintf("%s/2", dir);
	p3 = xasprintf("%s/3", dir);
	CHECK_INT(tmpdir_pool_take(pool, p1), 0);
	CHECK_INT(lstat(p1, &st1), 0);
	CHECK(tmpdir_pool_give(pool, p1));
	CHECK_INT(tmpdir_pool_take(pool, p2), 0);
	CHECK_INT(lstat(p2, &st2), 0);
	CHECK(st1.st_ino == st2.st_ino);
	check_names(dir, "2");
	/* Nothing was left to settle: the next idle name is still the first. */
	tmpdir_pool_settle(pool);
	CHECK(tmpdir_pool_give(pool, p2));
	tmpdir_pool_settle(pool);
	check_names(dir, ".idle-0");
	CHECK_INT(tmpdir_pool_take(pool, p3), 0);
	CHECK_INT(lstat(p3, &st2), 0);
	CHECK(st1.st_ino == st2.st_ino);
	CHECK(tmpdir_pool_give(pool, p3));
	tmpdir_pool_free(pool);
	check_names(dir, "");
	CHECK_INT(rmdir(dir), 0);
	free(p1);
	free(p2);
	free(p3);
	free(dir);
}
