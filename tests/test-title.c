/* SPDX-License-Identifier: MIT */
/* test-title.c: the window title: its text from the model, the one
 * sequence that sets it with the text cleaned, and no title at all for
 * output that is not a terminal. */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "title.h"
#include "base/util.h"

TEST(title_text_progress)
{
	struct model *m = model_new(MODEL_LIVE);
	char *t;

	m->done = 29;
	m->target = 80;
	m->eta_s = 600;
	m->total_eta_s = 15000;
	m->flaky = 2;
	m->failing = 1;
	t = title_text(m);
	CHECK_STR(t, "flakesweep 36% ETA 4h10m 2 flaky 1 failing");
	free(t);
	m->paused = true;
	t = title_text(m);
	CHECK_STR(t, "flakesweep 36% paused 2 flaky 1 failing");
	free(t);
	m->finished = true;
	m->status = xstrdup("complete");
	t = title_text(m);
	CHECK_STR(t, "flakesweep complete 2 flaky 1 failing");
	free(t);
	model_free(m);
}

/* The text goes through sanitize_text: a test name cannot end the title
 * and start its own sequence. */
TEST(title_write_clean)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	CHECK(f != NULL);
	title_write(f, TITLE_OSC, "flakesweep 36%");
	title_write(f, TITLE_OSC, "x\033]0;pwned\007y\nz");
	title_write(f, TITLE_NONE, "nothing");
	fclose(f);
	CHECK_STR(buf, "\033]2;flakesweep 36%\007\033]2;xy z\007");
	free(buf);
}

/* A file or a pipe never gets a title; a terminal under tmux or of an
 * xterm-like type does. */
TEST(title_mode_terminals)
{
	char *path = xasprintf("%s/title.out", check_tmpdir());
	FILE *file = fopen(path, "w"), *pty = NULL;
	int master = posix_openpt(O_RDWR | O_NOCTTY), slave;

	CHECK(file != NULL);
	CHECK_INT(title_mode_for(file, "xterm-256color", "/tmp/tmux-0/default,1,0"), TITLE_NONE);
	if (master < 0 || grantpt(master) < 0 || unlockpt(master) < 0)
		check_skip("no pseudo-terminal");
	slave = open(ptsname(master), O_RDWR | O_NOCTTY);
	CHECK(slave >= 0);
	pty = fdopen(slave, "w");
	CHECK(pty != NULL);
	CHECK_INT(title_mode_for(pty, "vt100", "/tmp/tmux-0/default,1,0"), TITLE_OSC);
	CHECK_INT(title_mode_for(pty, "xterm-256color", NULL), TITLE_OSC);
	CHECK_INT(title_mode_for(pty, "vt100", NULL), TITLE_NONE);
	fclose(pty);
	close(master);
	fclose(file);
	free(path);
}
