/* SPDX-License-Identifier: MIT */
/*
 * check.h: the unit-test framework. TEST(name) registers a test; the runner
 * (tests/runner.c) runs each one in its own process with a timeout and
 * prints TAP. CHILD(name) registers a helper mode, so the test binary can
 * also play a fake test binary: `unit --child NAME ARGS...`.
 */
#ifndef FLAKESWEEP_CHECK_H
#define FLAKESWEEP_CHECK_H

#include <stdint.h>
#include <string.h>

struct check_test {
	const char *name;
	const char *file;
	void (*fn)(void);
	int (*child)(int argc, char **argv);
	struct check_test *next;
};

void check_register(struct check_test *t);
void check_fail(const char *file, int line, const char *fmt, ...)
    __attribute__((noreturn, format(printf, 3, 4)));

/* Paths the tests need, from the environment the runner sets up. */
const char *check_srcdir(void);   /* the source tree's top (tests read fixtures there) */
const char *check_builddir(void); /* the build tree's top (the built binaries) */
const char *check_self(void);     /* this test binary, for --child modes */
/* A new empty directory for this test, removed by the runner afterwards.
 * The string is owned by the framework. */
const char *check_tmpdir(void);
/* Pins the running test's process to the first core it may use and
 * returns that core: a sweep it starts then has one lane, so its runs
 * never overlap, whatever the host's timing. */
int check_one_core(void);
/* Marks the running test skipped with a reason; does not return. */
void check_skip(const char *reason) __attribute__((noreturn));

#define TEST(tname)                                                                              \
	static void test_##tname(void);                                                          \
	static struct check_test check_t_##tname = {#tname, __FILE__, test_##tname, NULL, NULL}; \
	__attribute__((constructor)) static void check_reg_##tname(void)                         \
	{                                                                                        \
		check_register(&check_t_##tname);                                                \
	}                                                                                        \
	static void test_##tname(void)

#define CHILD(cname)                                                                              \
	static int child_##cname(int argc, char **argv);                                          \
	static struct check_test check_c_##cname = {#cname, __FILE__, NULL, child_##cname, NULL}; \
	__attribute__((constructor)) static void check_regc_##cname(void)                         \
	{                                                                                         \
		check_register(&check_c_##cname);                                                 \
	}                                                                                         \
	static int child_##cname(int argc, char **argv)

#define CHECK(c)                                                  \
	do {                                                      \
		if (!(c))                                         \
			check_fail(__FILE__, __LINE__, "%s", #c); \
	} while (0)

#define CHECK_INT(a, b)                                                                       \
	do {                                                                                  \
		long long check_a_ = (long long)(a), check_b_ = (long long)(b);               \
		if (check_a_ != check_b_)                                                     \
			check_fail(__FILE__, __LINE__, "%s == %lld, expected %s == %lld", #a, \
			           check_a_, #b, check_b_);                                   \
	} while (0)

#define CHECK_STR(a, b)                                                                      \
	do {                                                                                 \
		const char *check_a_ = (a), *check_b_ = (b);                                 \
		if (check_a_ == NULL || check_b_ == NULL || strcmp(check_a_, check_b_) != 0) \
			check_fail(__FILE__, __LINE__, "%s is \"%s\", expected \"%s\"", #a,  \
			           check_a_ ? check_a_ : "(null)",                           \
			           check_b_ ? check_b_ : "(null)");                          \
	} while (0)

#endif
