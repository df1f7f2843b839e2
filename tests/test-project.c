/* SPDX-License-Identifier: MIT */
/* project.c: HEAD through a branch, packed-refs and a worktree's gitdir
 * file, the origin url from config, and a .git that is a FIFO (which must
 * not block the reader). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "check.h"
#include "drivers/project.h"
#include "base/util.h"

#define PROJECT_HASH_A "0123456789abcdef0123456789abcdef01234567"
#define PROJECT_HASH_B "89abcdef0123456789abcdef0123456789abcdef"

static void
project_write(const char *dir, const char *name, const char *text)
{
	char *path = xasprintf("%s/%s", dir, name);
	FILE *f = fopen(path, "w");

	CHECK(f != NULL);
	fputs(text, f);
	fclose(f);
	free(path);
}

TEST(project_git_branch_packed_and_worktree)
{
	char *top = xasprintf("%s/checkout", check_tmpdir());
	char *git = xasprintf("%s/.git", top), *sub = xasprintf("%s/a/b", top);
	char *wt = xasprintf("%s/worktree", check_tmpdir());
	char *wtgit = xasprintf("%s/worktrees/wt", git);
	struct project_git g;

	CHECK_INT(util_mkdir_p(sub), 0);
	CHECK_INT(util_mkdir_p(git), 0);
	CHECK_INT(util_mkdir_p(wtgit), 0);
	CHECK_INT(util_mkdir_p(wt), 0);
	{
		char *refs = xasprintf("%s/refs/heads", git);

		CHECK_INT(util_mkdir_p(refs), 0);
		free(refs);
	}
	project_write(git, "HEAD", "ref: refs/heads/main\n");
	project_write(git, "refs/heads/main", PROJECT_HASH_A "\n");
	project_write(git, "config",
	              "[core]\n\tbare = false\n[remote \"upstream\"]\n\turl = x\n"
	              "[remote \"origin\"]\n\turl = \"git@github.com:o/n.git\" \n");
	project_write(git, "packed-refs",
	              "# pack-refs with: peeled\n" PROJECT_HASH_B " refs/heads/other\n");
	CHECK_INT(project_git_find(sub, &g), 0);
	CHECK(strstr(g.top, "/checkout") != NULL);
	CHECK_STR(g.commit, PROJECT_HASH_A);
	CHECK_STR(g.origin, "git@github.com:o/n.git");
	project_git_free(&g);

	/* A worktree: .git is a file naming its gitdir, whose commondir
	 * holds the config and packed-refs. */
	{
		char *line = xasprintf("gitdir: %s\n", wtgit);

		project_write(wt, ".git", line);
		free(line);
	}
	project_write(wtgit, "HEAD", "ref: refs/heads/other\n");
	project_write(wtgit, "commondir", "../..\n");
	CHECK_INT(project_git_find(wt, &g), 0);
	CHECK_STR(g.commit, PROJECT_HASH_B);
	CHECK_STR(g.origin, "git@github.com:o/n.git");
	project_git_free(&g);

	/* Detached. */
	project_write(wtgit, "HEAD", PROJECT_HASH_A "\n");
	CHECK_INT(project_git_find(wt, &g), 0);
	CHECK_STR(g.commit, PROJECT_HASH_A);
	project_git_free(&g);
	free(wtgit);
	free(wt);
	free(sub);
	free(git);
	free(top);
}

TEST(project_git_fifo_never_blocks)
{
	char *dir = xasprintf("%s/fifo", check_tmpdir()), *dotgit = xasprintf("%s/.git", dir);
	struct project_git g;
	int rc;

	CHECK_INT(util_mkdir_p(dir), 0);
	CHECK_INT(mkfifo(dotgit, 0600), 0);
	/* Opening the FIFO for reading would wait for a writer forever. */
	rc = project_git_find(dir, &g);
	if (rc == 0)
		CHECK(strcmp(g.top, dir) != 0);
	else
		CHECK_INT(rc, -ENOENT);
	project_git_free(&g);
	free(dotgit);
	free(dir);
}
