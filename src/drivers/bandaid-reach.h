/* SPDX-License-Identifier: MIT */
/*
 * bandaid-reach.h: which tests a finding of the band-aid parsers can
 * touch (man 1 flakesweep, Band-aids). The parsers name the declaration
 * that holds each finding; a finding in a test's own function is that
 * test's alone, one in code the package's tests share (its non-test files,
 * a conftest.py, a helper of its test files) counts for each of them, and
 * one in another test's function for none but that test.
 */
#ifndef FLAKESWEEP_BANDAID_REACH_H
#define FLAKESWEEP_BANDAID_REACH_H

#include <stdbool.h>

enum bandaid_reach {
	BANDAID_OWN,    /* in the test's own function (or, pytest, its class) */
	BANDAID_SHARED, /* in code the test shares with its package */
	BANDAID_OTHER,  /* in another test's function, or out of the test's reach */
};

/* The function a test's full name runs (caller frees): Go's top-level test
 * without its subtests, pytest's function without its class and
 * parameters. */
char *bandaid_test_func(bool go, const char *test);

/* Whose is a finding in declaration decl (a function, Type.Method, a
 * class, a type or variable, "" for none) of the file path (relative to
 * the checkout), for test (its full name) of the go or pytest driver;
 * declares: path declares the test. A Go test file's other declarations
 * are the package's; a Python test file's are its own tests'. */
enum bandaid_reach bandaid_reach(bool go, const char *path, bool declares, const char *decl,
                                 const char *test);

/* True when a synchronisation primitive added to shared declaration decl
 * can affect a test whose function names uses (space-separated, as the
 * parsers list them): decl is "", or its name (for Type.Method, the type
 * or the method) is among uses. */
bool bandaid_reach_uses(const char *uses, const char *decl);

#endif
