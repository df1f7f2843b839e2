/* SPDX-License-Identifier: MIT */
/*
 * runner.c: runs every registered unit test and every script under
 * tests/sh, each in its own process with a timeout, and prints TAP ending
 * in the line "N passed, N failed[, N skipped]". The same binary plays
 * helper children (`--child NAME`), as libuv's test runner does.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "cmd.h"
#include "base/util.h"

#define CHECK_EXIT_SKIP 77
#define CHECK_DEFAULT_TIMEOUT_S 120

static struct check_test *tests;
static char *self_path;

void
check_register(struct check_test *t)
{
	t->next = tests;
	tests = t;
}

void
check_fail(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s:%d: ", file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	fflush(NULL);
	_exit(1);
}

void
check_skip(const char *reason)
{
	fprintf(stderr, "SKIP %s\n", reason);
	fflush(NULL);
	_exit(CHECK_EXIT_SKIP);
}

static const char *
env_or(const char *name, const char *fallback)
{
	const char *v = getenv(name);

	return v != NULL && *v != '\0' ? v : fallback;
}

const char *
check_srcdir(void)
{
	return env_or("CHECK_SRCDIR", ".");
}

const char *
check_builddir(void)
{
	return env_or("CHECK_BUILDDIR", ".");
}

const char *
check_self(void)
{
	return self_path;
}

const char *
check_tmpdir(void)
{
	const char *dir = getenv("CHECK_TMPDIR");

	if (dir == NULL)
		check_fail(__FILE__, __LINE__, "CHECK_TMPDIR is not set");
	return dir;
}

int
check_one_core(void)
{
	cpu_set_t set;
	int core = -1, i;

	if (sched_getaffinity(0, sizeof set, &set) != 0)
		check_fail(__FILE__, __LINE__, "sched_getaffinity: %s", strerror(errno));
	for (i = 0; i < CPU_SETSIZE && core < 0; i++)
		core = CPU_ISSET(i, &set) ? i : -1;
	CPU_ZERO(&set);
	CPU_SET(core, &set);
	if (sched_setaffinity(0, sizeof set, &set) != 0)
		check_fail(__FILE__, __LINE__, "sched_setaffinity: %s", strerror(errno));
	return core;
}

static int
cmp_tests(const void *a, const void *b)
{
	const struct check_test *x = *(const struct check_test *const *)a;
	const struct check_test *y = *(const struct check_test *const *)b;

	return strcmp(x->name, y->name);
}

static int
cmp_strs(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Runs fn in a child process (or execs argv when fn is NULL) with its
 * output captured into a file, and waits at most timeout_s seconds.
 * Returns 0 pass, 1 fail, 2 skip; the output is left in *out. */
static int
run_isolated(const struct check_test *t, char **argv, int timeout_s, char **out)
{
	char logpath[] = "/tmp/flakesweep-check-log.XXXXXX";
	char dir[] = "/tmp/flakesweep-check.XXXXXX";
	int fd = mkstemp(logpath), status = 0, timed_out = 0;
	pid_t pid;
	struct timespec start, now;
	size_t len;

	if (fd < 0 || mkdtemp(dir) == NULL)
		fatal("mkstemp: %s", strerror(errno));
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		fatal("fork: %s", strerror(errno));
	if (pid == 0) {
		setpgid(0, 0);
		setenv("CHECK_TMPDIR", dir, 1);
		dup2(fd, 1);
		dup2(fd, 2);
		close(fd);
		if (t != NULL) {
			t->fn();
			fflush(NULL);
			_exit(0);
		}
		execvp(argv[0], argv);
		fprintf(stderr, "exec %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(fd);
	clock_gettime(CLOCK_MONOTONIC, &start);
	for (;;) {
		pid_t r = waitpid(pid, &status, WNOHANG);

		if (r == pid)
			break;
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec - start.tv_sec >= timeout_s) {
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			timed_out = 1;
			break;
		}
		usleep(2000);
	}
	/* Whatever the test left behind in its group goes with it. */
	kill(-pid, SIGKILL);
	util_rm_rf(dir);
	if (util_read_file(logpath, 1 << 20, out, &len) < 0)
		*out = xstrdup("");
	unlink(logpath);
	if (timed_out) {
		char *s = xasprintf("%s\ntimed out after %d s\n", *out, timeout_s);

		free(*out);
		*out = s;
		return 1;
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	if (WIFEXITED(status) && WEXITSTATUS(status) == CHECK_EXIT_SKIP)
		return 2;
	if (WIFSIGNALED(status)) {
		char *s = xasprintf("%s\nkilled by signal %d\n", *out, WTERMSIG(status));

		free(*out);
		*out = s;
	}
	return 1;
}

static void
print_diag(const char *out)
{
	const char *p = out;

	while (*p != '\0') {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);

		printf("# %.*s\n", (int)n, p);
		p += n + (nl != NULL);
	}
}

static const char *
skip_reason(const char *out)
{
	const char *s = strstr(out, "SKIP ");

	return s != NULL ? s + 5 : "";
}

/* A script may ask for a longer limit with a line "# timeout: SECONDS". */
static int
script_timeout(const char *path)
{
	char *text;
	const char *p;
	int t = CHECK_DEFAULT_TIMEOUT_S;

	if (util_read_file(path, 1 << 20, &text, NULL) < 0)
		return t;
	p = strstr(text, "# timeout: ");
	if (p != NULL)
		t = atoi(p + 11);
	free(text);
	return t > 0 ? t : CHECK_DEFAULT_TIMEOUT_S;
}

static int
matches(const char *name, int argc, char **argv)
{
	int i;

	if (argc == 0)
		return 1;
	for (i = 0; i < argc; i++) {
		if (strstr(name, argv[i]) != NULL)
			return 1;
	}
	return 0;
}

int
main(int argc, char **argv)
{
	struct check_test **list, *t;
	char **scripts = NULL, *shdir;
	size_t ntests = 0, nscripts = 0, i;
	int n = 0, passed = 0, failed = 0, skipped = 0, rc;
	DIR *d;
	struct dirent *de;

	self_path = realpath("/proc/self/exe", NULL);
	/* A sweep runs its own program as its canaries: in the in-process
	 * sweep tests that program is this one. */
	if (argc >= 2 && strcmp(argv[1], "canary") == 0)
		return cmd_canary_entry.run(argc - 1, argv + 1);
	if (argc >= 3 && strcmp(argv[1], "--child") == 0) {
		for (t = tests; t != NULL; t = t->next) {
			if (t->child != NULL && strcmp(t->name, argv[2]) == 0)
				return t->child(argc - 2, argv + 2);
		}
		fprintf(stderr, "no child mode %s\n", argv[2]);
		return 2;
	}
	setenv("FLAKESWEEP_TEST_SELF", self_path, 1);
	for (t = tests; t != NULL; t = t->next)
		ntests += t->fn != NULL;
	list = xcalloc(ntests, sizeof *list);
	ntests = 0;
	for (t = tests; t != NULL; t = t->next) {
		if (t->fn != NULL)
			list[ntests++] = t;
	}
	qsort(list, ntests, sizeof *list, cmp_tests);

	shdir = xasprintf("%s/tests/sh", check_srcdir());
	d = opendir(shdir);
	while (d != NULL && (de = readdir(d)) != NULL) {
		size_t len = strlen(de->d_name);

		if (len > 3 && strcmp(de->d_name + len - 3, ".sh") == 0) {
			scripts = xrealloc(scripts, sizeof *scripts * (nscripts + 1));
			scripts[nscripts++] = xstrdup(de->d_name);
		}
	}
	if (d != NULL)
		closedir(d);
	if (nscripts > 0)
		qsort(scripts, nscripts, sizeof *scripts, cmp_strs);

	if (argc >= 2 && strcmp(argv[1], "--help") == 0) {
		printf(
		    "usage: unit [--list | NAME...]\n"
		    "runs the unit tests and tests/sh scripts whose names contain a NAME (all without one)\n");
		rc = 0;
		goto out;
	}
	if (argc >= 2 && strcmp(argv[1], "--list") == 0) {
		for (i = 0; i < ntests; i++)
			printf("%s\n", list[i]->name);
		for (i = 0; i < nscripts; i++)
			printf("sh/%s\n", scripts[i]);
		rc = 0;
		goto out;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("TAP version 13\n");
	for (i = 0; i < ntests; i++) {
		char *out = NULL;

		if (!matches(list[i]->name, argc - 1, argv + 1))
			continue;
		rc = run_isolated(list[i], NULL, CHECK_DEFAULT_TIMEOUT_S, &out);
		n++;
		if (rc == 0) {
			printf("ok %d - %s\n", n, list[i]->name);
			passed++;
		} else if (rc == 2) {
			printf("ok %d - %s # SKIP %s", n, list[i]->name, skip_reason(out));
			skipped++;
		} else {
			printf("not ok %d - %s\n", n, list[i]->name);
			print_diag(out);
			failed++;
		}
		free(out);
	}
	for (i = 0; i < nscripts; i++) {
		char *name = xasprintf("sh/%s", scripts[i]);
		char *path = xasprintf("%s/%s", shdir, scripts[i]);
		char *av[] = {"bash", path, NULL};
		char *out = NULL;

		if (matches(name, argc - 1, argv + 1)) {
			rc = run_isolated(NULL, av, script_timeout(path), &out);
			n++;
			if (rc == 0) {
				printf("ok %d - %s\n", n, name);
				passed++;
			} else if (rc == 2) {
				printf("ok %d - %s # SKIP %s", n, name, skip_reason(out));
				skipped++;
			} else {
				printf("not ok %d - %s\n", n, name);
				print_diag(out);
				failed++;
			}
			free(out);
		}
		free(name);
		free(path);
	}
	printf("1..%d\n", n);
	if (skipped > 0)
		printf("%d passed, %d failed, %d skipped\n", passed, failed, skipped);
	else
		printf("%d passed, %d failed\n", passed, failed);
	rc = failed > 0 ? 1 : 0;
out:
	/* Freed so LeakSanitizer, in an --enable-asan build, sees no leak. */
	for (i = 0; i < nscripts; i++)
		free(scripts[i]);
	free(scripts);
	free(list);
	free(shdir);
	free(self_path);
	return rc;
}
