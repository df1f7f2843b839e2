/* SPDX-License-Identifier: MIT */
/*
 * test-parse-go.c: the Go run-output parser against real outputs: every Go
 * 1.19 reference fixture in tests/fixtures/reference, our Go 1.23 -test.v=test2json
 * fixtures and the captured runs of every Go case (tests/fixtures), each fed
 * whole and in 1- and 7-byte pieces, plus the corner cases the cases name.
 * The expected outcomes below are exact: names, statuses, reasons, package
 * failures, candidates, seeds.
 */
#include "config.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "drivers/outcome.h"
#include "drivers/parse-go.h"
#include "base/sanitize.h"
#include "base/util.h"

struct expect {
	const char *key;
	const char *summary;
};

/* tests/fixtures/reference/go119/DIR/RUN.raw.txt, exit status from its
 * MANIFEST.tsv, import path example.com/t2j/DIR, no test list. */
static const struct expect go119_expect[] = {
    {"pass/pass", "PASS TestAdd\n"
                  "PASS TestMul\n"},
    {"fail/fail", "PASS TestOK\n"
                  "FAIL TestBad\n"
                  "FAIL TestFatal\n"},
    {"skip/skip", "SKIP TestSkipped\n"
                  "SKIP TestSkipNow\n"
                  "PASS TestRuns\n"},
    {"subtests/subtests", "FAIL TestTable\n"
                          "PASS TestTable/zero\n"
                          "PASS TestTable/one\n"
                          "PASS TestTable/with_space\n"
                          "PASS TestTable/slash/inside\n"
                          "FAIL TestTable/bad\n"
                          "PASS TestNested\n"
                          "PASS TestNested/level1\n"
                          "SKIP TestNested/level1/level2\n"
                          "PASS TestNested/level1/level2#01\n"
                          "PASS TestNested/level1#01\n"},
    {"parallel/parallel", "PASS TestParA\n"
                          "FAIL TestParB\n"
                          "PASS TestSerial\n"
                          "FAIL TestGroup\n"
                          "PASS TestGroup/x\n"
                          "FAIL TestGroup/y\n"
                          "PASS TestGroup/z\n"},
    {"panic/panic", "PASS TestBefore\n"
                    "FAIL TestPanics\n"},
    {"subpanic/subpanic", "FAIL TestParent\n"
                          "PASS TestParent/ok\n"
                          "FAIL TestParent/boom\n"},
    {"timeout/timeout", "PASS TestQuick\n"
                        "HANG TestHangs (test timed out after 2s)\n"},
    {"timeoutpar/timeoutpar", "PASS TestQuick\n"
                              "HANG TestParHang1 (test timed out after 1s)\n"
                              "HANG TestParHang2 (test timed out after 1s)\n"
                              "PASS TestParDone\n"},
    {"osexit/osexit", "PASS TestFirst\n"
                      "FAIL TestExits (process exited with status 1 while running)\n"},
    {"osexit0/osexit0", "PASS TestFirst\n"
                        "FAIL TestExitsZero (process exited with status 0 while running)\n"},
    {"testmainfail/testmainfail", "package failed: exit status 3 with no test running\n"},
    {"lognonl/lognonl", "PASS TestNoNewline\n"
                        "PASS TestStderrNoNewline\n"
                        "PASS TestMultiLineLog\n"
                        "PASS TestLastNoNewline\n"},
    {"longline/longline", "PASS TestLong\n"},
    {"list/list", "package failed: exit status 0 without a final PASS line\n"},
    {"shuffle/shuffle_12345", "PASS TestOne\n"
                              "PASS TestThree\n"
                              "PASS TestTwo\n"
                              "PASS TestFour\n"
                              "seed 12345\n"},
    {"shuffle/shuffle_on", "PASS TestThree\n"
                           "PASS TestTwo\n"
                           "PASS TestFour\n"
                           "PASS TestOne\n"
                           "seed 1795996545864865823\n"},
    {"bench/bench", "package failed: FAIL with no failing test (exit status 1)\n"},
    {"mixed/examples", "PASS ExampleGood\n"
                       "FAIL ExampleBad\n"},
    {"notests/notests_nomatch", "selection failed\n"},
};

/* tests/fixtures/go123/FILE: the same packages built with Go 1.23 and run
 * with -test.v=test2json -test.paniconexit0, exit status from MANIFEST.tsv. */
static const struct expect go123_expect[] = {
    {"pass", "PASS TestAdd\n"
             "PASS TestMul\n"},
    {"fail", "PASS TestOK\n"
             "FAIL TestBad\n"
             "FAIL TestFatal\n"},
    {"skip", "SKIP TestSkipped\n"
             "SKIP TestSkipNow\n"
             "PASS TestRuns\n"},
    {"subtests", "FAIL TestTable\n"
                 "PASS TestTable/zero\n"
                 "PASS TestTable/one\n"
                 "PASS TestTable/with_space\n"
                 "PASS TestTable/slash/inside\n"
                 "FAIL TestTable/bad\n"
                 "PASS TestNested\n"
                 "PASS TestNested/level1\n"
                 "SKIP TestNested/level1/level2\n"
                 "PASS TestNested/level1/level2#01\n"
                 "PASS TestNested/level1#01\n"},
    {"parallel", "PASS TestParA\n"
                 "FAIL TestParB\n"
                 "PASS TestSerial\n"
                 "FAIL TestGroup\n"
                 "PASS TestGroup/x\n"
                 "FAIL TestGroup/y\n"
                 "PASS TestGroup/z\n"},
    {"panic", "PASS TestBefore\n"
              "FAIL TestPanics\n"},
    {"subpanic", "FAIL TestParent\n"
                 "PASS TestParent/ok\n"
                 "FAIL TestParent/boom\n"},
    {"timeout", "PASS TestQuick\n"
                "HANG TestHangs (test timed out after 2s)\n"},
    {"timeoutpar", "PASS TestQuick\n"
                   "HANG TestParHang1 (test timed out after 1s)\n"
                   "HANG TestParHang2 (test timed out after 1s)\n"
                   "PASS TestParDone\n"},
    {"osexit", "PASS TestFirst\n"
               "FAIL TestExits (process exited with status 1 while running)\n"},
    {"osexit0", "PASS TestFirst\n"
                "FAIL TestExitsZero\n"},
    {"osexit0_no_paniconexit0",
     "PASS TestFirst\n"
     "FAIL TestExitsZero (process exited with status 0 while running)\n"},
    {"testmainfail", "package failed: exit status 3 with no test running\n"},
    {"lognonl", "PASS TestNoNewline\n"
                "PASS TestStderrNoNewline\n"
                "PASS TestMultiLineLog\n"
                "PASS TestLastNoNewline\n"},
    {"longline", "PASS TestLong\n"},
    {"list", "package failed: exit status 0 without a final PASS line\n"},
    {"shuffle_12345", "PASS TestOne\n"
                      "PASS TestThree\n"
                      "PASS TestTwo\n"
                      "PASS TestFour\n"
                      "seed 12345\n"},
    {"shuffle_on", "PASS TestFour\n"
                   "PASS TestThree\n"
                   "PASS TestOne\n"
                   "PASS TestTwo\n"
                   "seed 1796005579612504486\n"},
    {"bench", "FAIL BenchmarkFails\n"},
    {"examples", "PASS ExampleGood\n"
                 "FAIL ExampleBad\n"},
    {"notests_nomatch", "selection failed\n"},
};

/* tests/fixtures/cases/CASE/FILE, exit status from the case's MANIFEST.tsv,
 * with the case's import path and its -test.list output (list.GO.txt). */
static const struct expect case_expect[] = {
    {"01-numcpu-zero-workers/cpu1.go119.txt", "FAIL TestParallelRangeVisitsItems\n"
                                              "PASS TestUnrelated\n"},
    {"01-numcpu-zero-workers/cpu2.go119.txt", "PASS TestParallelRangeVisitsItems\n"
                                              "PASS TestUnrelated\n"},
    {"01-numcpu-zero-workers/cpu1.go123.txt", "FAIL TestParallelRangeVisitsItems\n"
                                              "PASS TestUnrelated\n"},
    {"01-numcpu-zero-workers/cpu2.go123.txt", "PASS TestParallelRangeVisitsItems\n"
                                              "PASS TestUnrelated\n"},
    {"02-gomaxprocs1-hang/cpu1.go119.txt",
     "HANG TestPipelineSumsSquares (test timed out after 1s)\n"},
    {"02-gomaxprocs1-hang/cpu2.go119.txt", "PASS TestPipelineSumsSquares\n"
                                           "PASS TestAfterPipeline\n"},
    {"02-gomaxprocs1-hang/cpu1.go123.txt",
     "HANG TestPipelineSumsSquares (test timed out after 1s)\n"},
    {"02-gomaxprocs1-hang/cpu2.go123.txt", "PASS TestPipelineSumsSquares\n"
                                           "PASS TestAfterPipeline\n"},
    {"05-fixed-port-and-path-across-runs/alone.go119.txt", "PASS TestEchoServerOnDefaultPort\n"
                                                           "PASS TestCacheFileRoundTrip\n"},
    {"05-fixed-port-and-path-across-runs/together-a.go119.txt", "FAIL TestEchoServerOnDefaultPort\n"
                                                                "FAIL TestCacheFileRoundTrip\n"},
    {"05-fixed-port-and-path-across-runs/together-b.go119.txt", "PASS TestEchoServerOnDefaultPort\n"
                                                                "FAIL TestCacheFileRoundTrip\n"},
    {"05-fixed-port-and-path-across-runs/alone.go123.txt", "PASS TestEchoServerOnDefaultPort\n"
                                                           "PASS TestCacheFileRoundTrip\n"},
    {"05-fixed-port-and-path-across-runs/together-a.go123.txt", "FAIL TestEchoServerOnDefaultPort\n"
                                                                "FAIL TestCacheFileRoundTrip\n"},
    {"05-fixed-port-and-path-across-runs/together-b.go123.txt", "PASS TestEchoServerOnDefaultPort\n"
                                                                "FAIL TestCacheFileRoundTrip\n"},
    {"06-order-dependence-shuffle/source-order.go119.txt", "PASS TestRegisterDefaults\n"
                                                           "PASS TestLookupDefaultCodec\n"
                                                           "PASS TestOutputQuietByDefault\n"
                                                           "PASS TestSetVerbose\n"},
    {"06-order-dependence-shuffle/shuffle-1.go119.txt", "PASS TestRegisterDefaults\n"
                                                        "PASS TestLookupDefaultCodec\n"
                                                        "PASS TestSetVerbose\n"
                                                        "FAIL TestOutputQuietByDefault\n"
                                                        "seed 1\n"},
    {"06-order-dependence-shuffle/shuffle-2.go119.txt", "FAIL TestLookupDefaultCodec\n"
                                                        "PASS TestOutputQuietByDefault\n"
                                                        "PASS TestSetVerbose\n"
                                                        "PASS TestRegisterDefaults\n"
                                                        "seed 2\n"},
    {"06-order-dependence-shuffle/shuffle-3.go119.txt", "PASS TestRegisterDefaults\n"
                                                        "PASS TestSetVerbose\n"
                                                        "PASS TestLookupDefaultCodec\n"
                                                        "FAIL TestOutputQuietByDefault\n"
                                                        "seed 3\n"},
    {"06-order-dependence-shuffle/shuffle-4.go119.txt", "FAIL TestLookupDefaultCodec\n"
                                                        "PASS TestOutputQuietByDefault\n"
                                                        "PASS TestSetVerbose\n"
                                                        "PASS TestRegisterDefaults\n"
                                                        "seed 4\n"},
    {"06-order-dependence-shuffle/shuffle-5.go119.txt", "PASS TestRegisterDefaults\n"
                                                        "PASS TestOutputQuietByDefault\n"
                                                        "PASS TestLookupDefaultCodec\n"
                                                        "PASS TestSetVerbose\n"
                                                        "seed 5\n"},
    {"06-order-dependence-shuffle/shuffle-6.go119.txt", "PASS TestRegisterDefaults\n"
                                                        "PASS TestSetVerbose\n"
                                                        "FAIL TestOutputQuietByDefault\n"
                                                        "PASS TestLookupDefaultCodec\n"
                                                        "seed 6\n"},
    {"06-order-dependence-shuffle/source-order.go123.txt", "PASS TestRegisterDefaults\n"
                                                           "PASS TestLookupDefaultCodec\n"
                                                           "PASS TestOutputQuietByDefault\n"
                                                           "PASS TestSetVerbose\n"},
    {"06-order-dependence-shuffle/shuffle-1.go123.txt", "PASS TestRegisterDefaults\n"
                                                        "PASS TestLookupDefaultCodec\n"
                                                        "PASS TestSetVerbose\n"
                                                        "FAIL TestOutputQuietByDefault\n"
                                                        "seed 1\n"},
    {"06-order-dependence-shuffle/shuffle-2.go123.txt", "FAIL TestLookupDefaultCodec\n"
                                                        "PASS TestOutputQuietByDefault\n"
                                                        "PASS TestSetVerbose\n"
                                                        "PASS TestRegisterDefaults\n"
                                                        "seed 2\n"},
    {"06-order-dependence-shuffle/shuffle-3.go123.txt", "PASS TestRegisterDefaults\n"
                                                        "PASS TestSetVerbose\n"
                                                        "PASS TestLookupDefaultCodec\n"
                                                        "FAIL TestOutputQuietByDefault\n"
                                                        "seed 3\n"},
    {"06-order-dependence-shuffle/shuffle-4.go123.txt", "FAIL TestLookupDefaultCodec\n"
                                                        "PASS TestOutputQuietByDefault\n"
                                                        "PASS TestSetVerbose\n"
                                                        "PASS TestRegisterDefaults\n"
                                                        "seed 4\n"},
    {"06-order-dependence-shuffle/shuffle-5.go123.txt", "PASS TestRegisterDefaults\n"
                                                        "PASS TestOutputQuietByDefault\n"
                                                        "PASS TestLookupDefaultCodec\n"
                                                        "PASS TestSetVerbose\n"
                                                        "seed 5\n"},
    {"06-order-dependence-shuffle/shuffle-6.go123.txt", "PASS TestRegisterDefaults\n"
                                                        "PASS TestSetVerbose\n"
                                                        "FAIL TestOutputQuietByDefault\n"
                                                        "PASS TestLookupDefaultCodec\n"
                                                        "seed 6\n"},
    {"08-timeout-blames-wrong-test/timeout.go119.txt", "HANG TestStuck (test timed out after 1s)\n"
                                                       "PASS TestQuick\n"},
    {"08-timeout-blames-wrong-test/timeout.go123.txt", "HANG TestStuck (test timed out after 1s)\n"
                                                       "PASS TestQuick\n"},
    {"09-process-dies-mid-test/TestBackgroundPanic.go119.txt",
     "PASS TestBefore\n"
     "FAIL TestBackgroundPanic (process exited with status 2 while running)\n"},
    {"09-process-dies-mid-test/TestLogFatal.go119.txt",
     "PASS TestBefore\n"
     "FAIL TestLogFatal (process exited with status 1 while running)\n"},
    {"09-process-dies-mid-test/TestExitZero.go119.txt", "PASS TestBefore\n"
                                                        "FAIL TestExitZero\n"},
    {"09-process-dies-mid-test/TestExitZero-no-paniconexit0.go119.txt",
     "PASS TestBefore\n"
     "FAIL TestExitZero (process exited with status 0 while running)\n"},
    {"09-process-dies-mid-test/TestBackgroundPanic.go123.txt",
     "PASS TestBefore\n"
     "FAIL TestBackgroundPanic (process exited with status 2 while running)\n"},
    {"09-process-dies-mid-test/TestLogFatal.go123.txt",
     "PASS TestBefore\n"
     "FAIL TestLogFatal (process exited with status 1 while running)\n"},
    {"09-process-dies-mid-test/TestExitZero.go123.txt", "PASS TestBefore\n"
                                                        "FAIL TestExitZero\n"},
    {"09-process-dies-mid-test/TestExitZero-no-paniconexit0.go123.txt",
     "PASS TestBefore\n"
     "FAIL TestExitZero (process exited with status 0 while running)\n"},
    {"10-output-without-newline/full.go119.txt", "PASS TestProgressNoNewline\n"
                                                 "FAIL TestProgressThenFail\n"
                                                 "PASS TestProgressParallel\n"
                                                 "PASS TestProgressParallel/a\n"
                                                 "PASS TestProgressParallel/b\n"
                                                 "PASS TestNext\n"},
    {"10-output-without-newline/subset.go119.txt", "PASS TestProgressNoNewline\n"
                                                   "PASS TestNext\n"},
    {"10-output-without-newline/full.go123.txt", "PASS TestProgressNoNewline\n"
                                                 "FAIL TestProgressThenFail\n"
                                                 "PASS TestProgressParallel\n"
                                                 "PASS TestProgressParallel/a\n"
                                                 "PASS TestProgressParallel/b\n"
                                                 "PASS TestNext\n"},
    {"10-output-without-newline/subset.go123.txt", "PASS TestProgressNoNewline\n"
                                                   "PASS TestNext\n"},
    {"11-marker-lines-in-test-output/full.go119.txt",
     "SKIP TestChildHelper\n"
     "PASS TestCLIExitsNonZeroOnFailure\n"
     "PASS TestRendersSummary\n"
     "PASS TestLast\n"
     "unreliable: TestChildHelper reported both SKIP and FAIL in one run\n"},
    {"11-marker-lines-in-test-output/test2json-flag.go119.txt",
     "package failed: exit status 2 with no test running\n"},
    {"11-marker-lines-in-test-output/full.go123.txt", "SKIP TestChildHelper\n"
                                                      "PASS TestCLIExitsNonZeroOnFailure\n"
                                                      "PASS TestRendersSummary\n"
                                                      "PASS TestLast\n"},
    {"13-hostile-subtest-names/full.go119.txt", "FAIL TestNames\n"
                                                "PASS TestNames/should_pass\n"
                                                "FAIL TestNames/should_(fail)\n"
                                                "FAIL TestNames/a+b=c\n"
                                                "FAIL TestNames/x/y\n"
                                                "FAIL TestNames/[::1]:80\n"
                                                "FAIL TestNames/\xc3"
                                                "\xbc"
                                                "n\xc3"
                                                "\xaf"
                                                "c\xc3"
                                                "\xb6"
                                                "d\xc3"
                                                "\xa9"
                                                "_\xe2"
                                                "\x9c"
                                                "\x93"
                                                "\n"
                                                "FAIL TestNames/it's_$HOME;_ok\n"
                                                "FAIL TestNames/bell\\a_nul\\x00\n"
                                                "PASS TestNames/dup\n"
                                                "FAIL TestNames/dup#01\n"
                                                "FAIL TestNames/#00\n"
                                                "PASS TestNamesSibling\n"},
    {"13-hostile-subtest-names/confirm-01.go119.txt", "FAIL TestNames\n"
                                                      "PASS TestNames/should_pass\n"
                                                      "FAIL TestNames/should_(fail)\n"
                                                      "FAIL TestNames/a+b=c\n"
                                                      "FAIL TestNames/x/y\n"
                                                      "FAIL TestNames/[::1]:80\n"
                                                      "FAIL TestNames/\xc3"
                                                      "\xbc"
                                                      "n\xc3"
                                                      "\xaf"
                                                      "c\xc3"
                                                      "\xb6"
                                                      "d\xc3"
                                                      "\xa9"
                                                      "_\xe2"
                                                      "\x9c"
                                                      "\x93"
                                                      "\n"
                                                      "FAIL TestNames/it's_$HOME;_ok\n"
                                                      "FAIL TestNames/bell\\a_nul\\x00\n"
                                                      "PASS TestNames/dup\n"
                                                      "FAIL TestNames/dup#01\n"
                                                      "FAIL TestNames/#00\n"},
    {"13-hostile-subtest-names/confirm-02.go119.txt", "PASS TestNames\n"
                                                      "PASS TestNames/should_pass\n"},
    {"13-hostile-subtest-names/confirm-03.go119.txt", "FAIL TestNames\n"
                                                      "FAIL TestNames/should_(fail)\n"},
    {"13-hostile-subtest-names/confirm-04.go119.txt", "FAIL TestNames\n"
                                                      "FAIL TestNames/a+b=c\n"},
    {"13-hostile-subtest-names/confirm-05.go119.txt", "FAIL TestNames\n"
                                                      "FAIL TestNames/x/y\n"},
    {"13-hostile-subtest-names/confirm-06.go119.txt", "FAIL TestNames\n"
                                                      "FAIL TestNames/[::1]:80\n"},
    {"13-hostile-subtest-names/confirm-07.go119.txt", "FAIL TestNames\n"
                                                      "FAIL TestNames/\xc3"
                                                      "\xbc"
                                                      "n\xc3"
                                                      "\xaf"
                                                      "c\xc3"
                                                      "\xb6"
                                                      "d\xc3"
                                                      "\xa9"
                                                      "_\xe2"
                                                      "\x9c"
                                                      "\x93"
                                                      "\n"},
    {"13-hostile-subtest-names/confirm-08.go119.txt", "FAIL TestNames\n"
                                                      "FAIL TestNames/it's_$HOME;_ok\n"},
    {"13-hostile-subtest-names/confirm-09.go119.txt", "FAIL TestNames\n"
                                                      "FAIL TestNames/bell\\a_nul\\x00\n"},
    {"13-hostile-subtest-names/confirm-10.go119.txt", "PASS TestNames\n"
                                                      "PASS TestNames/dup\n"},
    {"13-hostile-subtest-names/confirm-11.go119.txt", "FAIL TestNames\n"
                                                      "FAIL TestNames/dup#01\n"},
    {"13-hostile-subtest-names/confirm-12.go119.txt", "FAIL TestNames\n"
                                                      "FAIL TestNames/#00\n"},
    {"13-hostile-subtest-names/confirm-13.go119.txt", "PASS TestNamesSibling\n"},
    {"13-hostile-subtest-names/naive.go119.txt", "PASS TestNames\n"
                                                 "selection failed\n"},
    {"13-hostile-subtest-names/full.go123.txt", "FAIL TestNames\n"
                                                "PASS TestNames/should_pass\n"
                                                "FAIL TestNames/should_(fail)\n"
                                                "FAIL TestNames/a+b=c\n"
                                                "FAIL TestNames/x/y\n"
                                                "FAIL TestNames/[::1]:80\n"
                                                "FAIL TestNames/\xc3"
                                                "\xbc"
                                                "n\xc3"
                                                "\xaf"
                                                "c\xc3"
                                                "\xb6"
                                                "d\xc3"
                                                "\xa9"
                                                "_\xe2"
                                                "\x9c"
                                                "\x93"
                                                "\n"
                                                "FAIL TestNames/it's_$HOME;_ok\n"
                                                "FAIL TestNames/bell\\a_nul\\x00\n"
                                                "PASS TestNames/dup\n"
                                                "FAIL TestNames/dup#01\n"
                                                "FAIL TestNames/#00\n"
                                                "PASS TestNamesSibling\n"},
    {"14-grandchild-holds-stdout/full.go119.txt", "PASS TestStartsHelperServer\n"},
    {"14-grandchild-holds-stdout/full.go123.txt", "PASS TestStartsHelperServer\n"},
    {"17-control-codes-and-invalid-utf8/full.go119.txt",
     "FAIL TestColoredCLIOutput\n"
     "FAIL TestBinaryName\n"
     "FAIL TestBinaryName/bad\xef\xbf\xbdname\n"},
    {"17-control-codes-and-invalid-utf8/confirm-01.go119.txt",
     "FAIL TestBinaryName\n"
     "FAIL TestBinaryName/bad\xef\xbf\xbdname\n"},
    {"17-control-codes-and-invalid-utf8/full.go123.txt",
     "FAIL TestColoredCLIOutput\n"
     "FAIL TestBinaryName\n"
     "FAIL TestBinaryName/bad\xef\xbf\xbdname\n"},
    {"19-report-body-markdown-and-size/full.go119.txt", "FAIL TestRendersReleaseNotes\n"},
    {"19-report-body-markdown-and-size/full.go123.txt", "FAIL TestRendersReleaseNotes\n"},
};

/* tests/fixtures/extra/FILE: our own package (see gen-go.sh), import path
 * example.com/extra. */
static const struct expect extra_expect[] = {
    {"subhang.go119.txt", "HANG TestSubHang (test timed out after 1s)\n"
                          "HANG TestSubHang/slow (test timed out after 1s)\n"
                          "HANG TestSubHang/slow/deeper (test timed out after 1s)\n"},
    {"subhang.go123.txt", "HANG TestSubHang (test timed out after 1s)\n"
                          "PASS TestSubHang/fast\n"
                          "HANG TestSubHang/slow (test timed out after 1s)\n"
                          "HANG TestSubHang/slow/deeper (test timed out after 1s)\n"},
    {"parcrash.go119.txt", "package failed: exit status 2 while 2 tests were running\n"
                           "candidate TestParallelCrash/a\n"
                           "candidate TestParallelCrash/b\n"},
    {"parcrash.go123.txt", "package failed: exit status 2 while 2 tests were running\n"
                           "candidate TestParallelCrash/a\n"
                           "candidate TestParallelCrash/b\n"},
};

static const char *const status_words[] = {"PASS", "FAIL", "SKIP", "HANG"};

static char *
read_data(const char *path, size_t *len)
{
	char *data = NULL;
	int rc = util_read_file(path, 64u << 20, &data, len);

	if (rc < 0 || data == NULL)
		check_fail(__FILE__, __LINE__, "cannot read %s (%d)", path, rc);
	return data;
}

/* The outcome in one line per fact, as the tables above spell it. */
static char *
summary(const struct outcome *o)
{
	struct buf b;
	size_t i;

	buf_init(&b);
	buf_add(&b, "", 0);
	for (i = 0; i < o->ntests; i++) {
		buf_printf(&b, "%s %s", status_words[o->tests[i].status], o->tests[i].name);
		if (o->tests[i].reason != NULL)
			buf_printf(&b, " (%s)", o->tests[i].reason);
		buf_addc(&b, '\n');
	}
	if (o->package_failed)
		buf_printf(&b, "package failed: %s\n", o->package_reason);
	for (i = 0; o->candidates != NULL && o->candidates[i] != NULL; i++)
		buf_printf(&b, "candidate %s\n", o->candidates[i]);
	if (o->unreliable)
		buf_printf(&b, "unreliable: %s\n", o->unreliable_reason);
	if (o->selection_failed)
		buf_adds(&b, "selection failed\n");
	if (o->seed != NULL)
		buf_printf(&b, "seed %s\n", o->seed);
	return buf_steal(&b);
}

/* Everything in the outcome, lines included, to compare chunkings. */
static char *
full_dump(const struct outcome *o)
{
	char *s = summary(o);
	struct buf b;
	size_t i;

	buf_init(&b);
	buf_adds(&b, s);
	free(s);
	for (i = 0; i < o->ntests; i++)
		buf_printf(&b, "[%s]\n%s\n", o->tests[i].name,
		           o->tests[i].lines != NULL ? o->tests[i].lines : "(null)");
	buf_printf(&b, "[package]\n%s\n", o->package_lines != NULL ? o->package_lines : "(null)");
	return buf_steal(&b);
}

static void
parse(const char *data, size_t len, const struct parse_go_opts *opts, const struct proc_exit *ex,
      size_t chunk, struct outcome *out)
{
	struct parse_go *p = parse_go_new(opts);
	size_t i;

	memset(out, 0, sizeof *out);
	for (i = 0; i < len; i += chunk)
		parse_go_feed(p, data + i, len - i < chunk ? len - i : chunk);
	parse_go_finish(p, ex, out);
	parse_go_free(p);
}

static void
expect_str(const char *label, const char *got, const char *want)
{
	if (strcmp(got, want) != 0)
		check_fail(__FILE__, __LINE__, "%s: got\n%s\nexpected\n%s", label, got, want);
}

/* Parses whole and in 1- and 7-byte pieces, checks the three agree, the
 * lines invariants hold and the summary is the expected one. */
static void
check_run(const char *label, const char *data, size_t len, const struct parse_go_opts *opts,
          const struct proc_exit *ex, const char *want)
{
	static const size_t chunks[] = {1, 7};
	struct outcome whole;
	char *s, *dump;
	size_t i;

	parse(data, len, opts, ex, len > 0 ? len : 1, &whole);
	s = summary(&whole);
	expect_str(label, s, want);
	free(s);
	for (i = 0; i < whole.ntests; i++) {
		const struct outcome_test *t = &whole.tests[i];
		bool bad = t->status == OUTCOME_FAIL || t->status == OUTCOME_HANG;

		if (bad != (t->lines != NULL))
			check_fail(__FILE__, __LINE__, "%s: %s has lines %p", label, t->name,
			           (void *)t->lines);
		if (t->lines != NULL && strlen(t->lines) > OUTCOME_LINES_CAP)
			check_fail(__FILE__, __LINE__, "%s: %s has %zu bytes of lines", label,
			           t->name, strlen(t->lines));
	}
	if (whole.package_lines != NULL && strlen(whole.package_lines) > OUTCOME_LINES_CAP)
		check_fail(__FILE__, __LINE__, "%s: package lines over the cap", label);
	dump = full_dump(&whole);
	for (i = 0; i < UTIL_ARRAY_LEN(chunks); i++) {
		struct outcome o;
		char *d;

		parse(data, len, opts, ex, chunks[i], &o);
		d = full_dump(&o);
		if (strcmp(d, dump) != 0)
			check_fail(__FILE__, __LINE__,
			           "%s: %zu-byte chunks give\n%s\nwhole gives\n%s", label,
			           chunks[i], d, dump);
		free(d);
		outcome_free(&o);
	}
	free(dump);
	outcome_free(&whole);
}

static const char *
find_expect(const struct expect *table, size_t n, const char *key)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (strcmp(table[i].key, key) == 0)
			return table[i].summary;
	}
	return NULL;
}

/* Splits a MANIFEST.tsv line into at most max fields (in place). */
static size_t
split_tabs(char *line, char **f, size_t max)
{
	size_t n = 0;

	while (n < max) {
		char *tab = strchr(line, '\t');

		f[n++] = line;
		if (tab == NULL)
			break;
		*tab = '\0';
		line = tab + 1;
	}
	return n;
}

/* A -test.list output as a NULL-terminated array pointing into text. */
static char **
split_lines(char *text)
{
	size_t n = 0;
	char **v = xcalloc(strlen(text) + 2, sizeof *v), *line = text;

	while (*line != '\0') {
		char *nl = strchr(line, '\n');

		if (nl != NULL)
			*nl = '\0';
		if (*line != '\0')
			v[n++] = line;
		if (nl == NULL)
			break;
		line = nl + 1;
	}
	v[n] = NULL;
	return v;
}

/* The directory of the Go 1.19 reference outputs, copied into the tree. */
static char *
go119_dir(void)
{
	return xasprintf("%s/tests/fixtures/reference/go119", check_srcdir());
}

TEST(parse_go_go119_reference_fixtures)
{
	char *shared = go119_dir();
	char *path = xasprintf("%s/MANIFEST.tsv", shared);
	char *manifest = read_data(path, NULL), *line, *save = NULL;
	size_t covered = 0;

	free(path);
	for (line = strtok_r(manifest, "\n", &save); line != NULL;
	     line = strtok_r(NULL, "\n", &save)) {
		char *f[5], *key, *raw, *data, *import;
		struct parse_go_opts opts;
		struct proc_exit ex = {0, 0, false};
		const char *want;
		size_t len;

		if (split_tabs(line, f, 5) < 4 || strcmp(f[0], "run") == 0)
			continue;
		raw = xasprintf("%s/%s/%s.raw.txt", shared, f[1], f[0]);
		if (util_read_file(raw, 64u << 20, &data, &len) < 0) {
			free(raw); /* a run kept only as test2json output */
			continue;
		}
		key = xasprintf("%s/%s", f[1], f[0]);
		want = find_expect(go119_expect, UTIL_ARRAY_LEN(go119_expect), key);
		if (want == NULL)
			check_fail(__FILE__, __LINE__, "no expectation for %s", key);
		import = xasprintf("example.com/t2j/%s", f[1]);
		memset(&opts, 0, sizeof opts);
		opts.import_path = import;
		ex.status = atoi(f[3]);
		check_run(key, data, len, &opts, &ex, want);
		covered++;
		free(import);
		free(key);
		free(raw);
		free(data);
	}
	CHECK_INT(covered, UTIL_ARRAY_LEN(go119_expect));
	free(manifest);
	free(shared);
}

TEST(parse_go_go123_framing_fixtures)
{
	char *dir = xasprintf("%s/tests/fixtures/go123", check_srcdir());
	char *path = xasprintf("%s/MANIFEST.tsv", dir);
	char *manifest = read_data(path, NULL), *line, *save = NULL;
	size_t covered = 0;

	for (line = strtok_r(manifest, "\n", &save); line != NULL;
	     line = strtok_r(NULL, "\n", &save)) {
		char *f[3], *file, *data, *key;
		struct parse_go_opts opts;
		struct proc_exit ex = {0, 0, false};
		const char *want;
		size_t len;

		if (split_tabs(line, f, 3) < 2)
			continue;
		file = xasprintf("%s/%s", dir, f[0]);
		data = read_data(file, &len);
		key = xstrndup(f[0], strlen(f[0]) - 4);
		want = find_expect(go123_expect, UTIL_ARRAY_LEN(go123_expect), key);
		if (want == NULL)
			check_fail(__FILE__, __LINE__, "no expectation for %s", key);
		memset(&opts, 0, sizeof opts);
		opts.framing_marker = true;
		ex.status = atoi(f[1]);
		check_run(key, data, len, &opts, &ex, want);
		covered++;
		free(key);
		free(file);
		free(data);
	}
	CHECK_INT(covered, UTIL_ARRAY_LEN(go123_expect));
	free(manifest);
	free(path);
	free(dir);
}

/* Runs one captured case output through check_run with the case's import
 * path and test list. */
static void
check_case_file(const char *casedir, const char *import, const char *key, const char *want,
                const char *file, int status)
{
	bool go123 = strstr(file, ".go123.") != NULL;
	char *path = xasprintf("%s/%s", casedir, file);
	char *listpath = xasprintf("%s/list.%s.txt", casedir, go123 ? "go123" : "go119");
	char *list = read_data(listpath, NULL), **listed = split_lines(list), *data;
	struct parse_go_opts opts;
	struct proc_exit ex = {status, 0, false};
	size_t len;

	if (want == NULL)
		check_fail(__FILE__, __LINE__, "no expectation for %s", key);
	data = read_data(path, &len);
	memset(&opts, 0, sizeof opts);
	opts.framing_marker = go123;
	opts.import_path = import;
	opts.listed = (const char *const *)listed;
	check_run(key, data, len, &opts, &ex, want);
	free(data);
	free(listed);
	free(list);
	free(listpath);
	free(path);
}

TEST(parse_go_case_fixtures)
{
	char *root = xasprintf("%s/tests/fixtures/cases", check_srcdir());
	DIR *d = opendir(root);
	struct dirent *de;
	size_t covered = 0;

	if (d == NULL)
		check_fail(__FILE__, __LINE__, "cannot open %s", root);
	while ((de = readdir(d)) != NULL) {
		char *casedir, *path, *manifest, *line, *save = NULL;

		if (de->d_name[0] == '.')
			continue;
		casedir = xasprintf("%s/%s", root, de->d_name);
		path = xasprintf("%s/MANIFEST.tsv", casedir);
		manifest = read_data(path, NULL);
		for (line = strtok_r(manifest, "\n", &save); line != NULL;
		     line = strtok_r(NULL, "\n", &save)) {
			char *f[3], *key, *import;

			if (split_tabs(line, f, 3) < 2 || strncmp(f[0], "list.", 5) == 0)
				continue;
			key = xasprintf("%s/%s", de->d_name, f[0]);
			import = xasprintf("example.com/case%.2s", de->d_name);
			check_case_file(casedir, import, key,
			                find_expect(case_expect, UTIL_ARRAY_LEN(case_expect), key),
			                f[0], atoi(f[1]));
			free(import);
			free(key);
			covered++;
		}
		free(manifest);
		free(path);
		free(casedir);
	}
	closedir(d);
	CHECK_INT(covered, UTIL_ARRAY_LEN(case_expect));
	free(root);
}

TEST(parse_go_extra_fixtures)
{
	char *dir = xasprintf("%s/tests/fixtures/extra", check_srcdir());
	char *path = xasprintf("%s/MANIFEST.tsv", dir);
	char *manifest = read_data(path, NULL), *line, *save = NULL;
	size_t covered = 0;

	for (line = strtok_r(manifest, "\n", &save); line != NULL;
	     line = strtok_r(NULL, "\n", &save)) {
		char *f[3];

		if (split_tabs(line, f, 3) < 2 || strncmp(f[0], "list.", 5) == 0)
			continue;
		check_case_file(dir, "example.com/extra", f[0],
		                find_expect(extra_expect, UTIL_ARRAY_LEN(extra_expect), f[0]), f[0],
		                atoi(f[1]));
		covered++;
	}
	CHECK_INT(covered, UTIL_ARRAY_LEN(extra_expect));
	free(manifest);
	free(path);
	free(dir);
}

/* Parses a case output whole with the case's settings. */
static void
parse_case(const char *casename, const char *file, const char *selected, const struct proc_exit *ex,
           struct outcome *out)
{
	bool go123 = strstr(file, ".go123.") != NULL;
	char *casedir = xasprintf("%s/tests/fixtures/cases/%s", check_srcdir(), casename);
	char *path = xasprintf("%s/%s", casedir, file);
	char *listpath = xasprintf("%s/list.%s.txt", casedir, go123 ? "go123" : "go119");
	char *list = read_data(listpath, NULL), **listed = split_lines(list);
	char *import = xasprintf("example.com/case%.2s", casename), *data;
	struct parse_go_opts opts;
	size_t len;

	data = read_data(path, &len);
	memset(&opts, 0, sizeof opts);
	opts.framing_marker = go123;
	opts.import_path = import;
	opts.listed = (const char *const *)listed;
	opts.selected = selected;
	parse(data, len, &opts, ex, len, out);
	free(data);
	free(import);
	free(listed);
	free(list);
	free(listpath);
	free(path);
	free(casedir);
}

static const struct outcome_test *
need_test(const struct outcome *o, const char *name)
{
	const struct outcome_test *t = outcome_find(o, name);

	if (t == NULL)
		check_fail(__FILE__, __LINE__, "no test %s in the outcome", name);
	return t;
}

TEST(parse_go_case08_hang_is_the_stuck_test)
{
	static const char *const files[] = {"timeout.go119.txt", "timeout.go123.txt"};
	struct proc_exit ex = {2, 0, false};
	size_t i;

	for (i = 0; i < UTIL_ARRAY_LEN(files); i++) {
		struct outcome o;
		const struct outcome_test *t;

		parse_case("08-timeout-blames-wrong-test", files[i], NULL, &ex, &o);
		t = need_test(&o, "TestStuck");
		CHECK_INT(t->status, OUTCOME_HANG);
		CHECK(strncmp(t->lines, "panic: test timed out after 1s\n", 31) == 0);
		CHECK(strstr(t->lines, "example.com/case08.TestStuck(") != NULL);
		CHECK(strstr(t->lines, "TestQuick") == NULL ||
		      strstr(t->lines, "running tests:") != NULL);
		CHECK(strstr(t->lines, "quick is done") == NULL);
		CHECK_INT(need_test(&o, "TestQuick")->status, OUTCOME_PASS);
		CHECK_INT(o.ntests, 2);
		CHECK(!o.package_failed);
		outcome_free(&o);
	}
}

TEST(parse_go_case08_killed_by_us_before_go_timeout)
{
	static const char *const files[] = {"timeout.go119.txt", "timeout.go123.txt"};
	struct proc_exit ex = {-1, 9, true};
	size_t i;

	for (i = 0; i < UTIL_ARRAY_LEN(files); i++) {
		char *path = xasprintf("%s/tests/fixtures/cases/08-timeout-blames-wrong-test/%s",
		                       check_srcdir(), files[i]);
		size_t len;
		char *data = read_data(path, &len), *cut = strstr(data, "panic: test timed out");
		struct parse_go_opts opts;
		struct outcome o;
		char *s;

		CHECK(cut != NULL);
		memset(&opts, 0, sizeof opts);
		opts.framing_marker = i == 1;
		opts.import_path = "example.com/case08";
		parse(data, (size_t)(cut - data), &opts, &ex, 7, &o);
		s = summary(&o);
		expect_str(files[i], s,
		           "HANG TestStuck (still running when the run was stopped at its time "
		           "limit)\n"
		           "PASS TestQuick\n");
		CHECK(strstr(need_test(&o, "TestStuck")->lines, "waiting for the reply") != NULL);
		free(s);
		outcome_free(&o);
		free(data);
		free(path);
	}
}

TEST(parse_go_case09_lines_of_the_dead_test)
{
	struct proc_exit ex2 = {2, 0, false}, ex1 = {1, 0, false};
	struct outcome o;
	const struct outcome_test *t;

	parse_case("09-process-dies-mid-test", "TestBackgroundPanic.go119.txt", NULL, &ex2, &o);
	t = need_test(&o, "TestBackgroundPanic");
	CHECK(strncmp(t->lines, "panic: assignment to entry in nil map\n", 38) == 0);
	CHECK(outcome_find(&o, "TestAfter") == NULL);
	outcome_free(&o);
	parse_case("09-process-dies-mid-test", "TestLogFatal.go123.txt", NULL, &ex1, &o);
	t = need_test(&o, "TestLogFatal");
	CHECK(strstr(t->lines, "config not found\n") != NULL);
	CHECK_STR(t->reason, "process exited with status 1 while running");
	outcome_free(&o);
}

TEST(parse_go_case10_glued_output_stays_with_its_test)
{
	static const char text[] = "=== RUN   TestProgressNoNewline\n"
	                           "uploading... 100%--- FAIL: TestProgressNoNewline (0.00s)\n"
	                           "FAIL\n";
	struct proc_exit ex = {1, 0, false};
	struct parse_go_opts opts;
	struct outcome o;

	parse_case("10-output-without-newline", "full.go119.txt", NULL, &ex, &o);
	CHECK_STR(need_test(&o, "TestProgressThenFail")->lines,
	          "retrying    print_test.go:16: gave up after 3 attempts\n");
	outcome_free(&o);
	memset(&opts, 0, sizeof opts);
	parse(text, sizeof text - 1, &opts, &ex, 1, &o);
	CHECK_INT(need_test(&o, "TestProgressNoNewline")->status, OUTCOME_FAIL);
	CHECK_STR(need_test(&o, "TestProgressNoNewline")->lines, "uploading... 100%\n");
	outcome_free(&o);
}

TEST(parse_go_case11_fakes_without_a_test_list)
{
	struct proc_exit ex = {0, 0, false};
	struct parse_go_opts opts;
	char *path =
	    xasprintf("%s/tests/fixtures/cases/11-marker-lines-in-test-output/full.go119.txt",
	              check_srcdir());
	size_t len;
	char *data = read_data(path, &len);

	/* Without -test.list the fake "=== RUN   TestGhost" starts a test,
	 * which exit 0 and the final PASS then call passed; never a failure. */
	memset(&opts, 0, sizeof opts);
	check_run("case 11 without a list", data, len, &opts, &ex,
	          "SKIP TestChildHelper\n"
	          "PASS TestCLIExitsNonZeroOnFailure\n"
	          "PASS TestRendersSummary\n"
	          "PASS TestGhost\n"
	          "PASS TestLast\n"
	          "unreliable: TestChildHelper reported both SKIP and FAIL in one run\n");
	free(data);
	free(path);
}

TEST(parse_go_case13_run_patterns_select_the_leaf)
{
	char *dir = xasprintf("%s/tests/fixtures/cases/13-hostile-subtest-names", check_srcdir());
	char *path = xasprintf("%s/patterns.tsv", dir);
	char *tsv = read_data(path, NULL), *line, *save = NULL;
	size_t rows = 0;

	for (line = strtok_r(tsv, "\n", &save); line != NULL; line = strtok_r(NULL, "\n", &save)) {
		char *f[3], *pat;
		struct proc_exit ex = {0, 0, false};
		struct outcome o;
		size_t i, nlen;

		CHECK_INT(split_tabs(line, f, 3), 3);
		pat = parse_go_run_pattern(f[1]);
		expect_str(f[1], pat, f[2]);
		free(pat);
		/* The stored confirm run: the leaf started, and only it, its
		 * parents and its own subtests did. */
		ex.status = strstr(f[0], "confirm-") != NULL ? 0 : 0;
		parse_case("13-hostile-subtest-names", f[0], f[1], &ex, &o);
		CHECK(!o.selection_failed);
		CHECK(outcome_find(&o, f[1]) != NULL);
		nlen = strlen(f[1]);
		for (i = 0; i < o.ntests; i++) {
			const char *n = o.tests[i].name;
			size_t l = strlen(n);
			bool ancestor = l < nlen && strncmp(f[1], n, l) == 0 && f[1][l] == '/';
			bool below = l >= nlen && strncmp(n, f[1], nlen) == 0 &&
			             (n[nlen] == '\0' || n[nlen] == '/');

			if (!ancestor && !below)
				check_fail(__FILE__, __LINE__, "pattern for %s also ran %s", f[1],
				           n);
		}
		outcome_free(&o);
		rows++;
	}
	CHECK_INT(rows, 13);
	free(tsv);
	free(path);
	free(dir);
}

TEST(parse_go_run_pattern_quotes_like_go)
{
	static const struct {
		const char *name, *pattern;
	} cases[] = {
	    {"TestX", "^TestX$"},
	    {"TestNames/should_(fail)", "^TestNames$/^should_\\(fail\\)$"},
	    {"TestNames/a+b=c", "^TestNames$/^a\\+b=c$"},
	    {"TestNames/x/y", "^TestNames$/^x$/^y$"},
	    {"TestNames/[::1]:80", "^TestNames$/^\\[::1\\]:80$"},
	    {"TestNames/it's_$HOME;_ok", "^TestNames$/^it's_\\$HOME;_ok$"},
	    {"TestNames/bell\\a_nul\\x00", "^TestNames$/^bell\\\\a_nul\\\\x00$"},
	    {"TestNames/#00", "^TestNames$/^#00$"},
	    {"T/.*?|{}^", "^T$/^\\.\\*\\?\\|\\{\\}\\^$"},
	    {"T/", "^T$/^$"},
	};
	size_t i;

	for (i = 0; i < UTIL_ARRAY_LEN(cases); i++) {
		char *p = parse_go_run_pattern(cases[i].name);

		expect_str(cases[i].name, p, cases[i].pattern);
		free(p);
	}
}

/* The polluter search's selection: one anchored alternation of top-level
 * tests, each quoted, in the order given. */
TEST(parse_go_run_alternation_selects_top_level_tests)
{
	char *one[] = {"TestVictim", NULL};
	char *two[] = {"TestSet.Verbose", "TestQuiet", NULL};
	char *p;

	p = parse_go_run_alternation(one);
	CHECK_STR(p, "^(TestVictim)$");
	free(p);
	p = parse_go_run_alternation(two);
	CHECK_STR(p, "^(TestSet\\.Verbose|TestQuiet)$");
	free(p);
}

TEST(parse_go_case13_naive_pattern_is_selection_failed)
{
	struct proc_exit ex = {0, 0, false};
	struct outcome o;
	char *s;

	parse_case("13-hostile-subtest-names", "naive.go119.txt", "TestNames/should_(fail)", &ex,
	           &o);
	s = summary(&o);
	expect_str("naive", s, "PASS TestNames\nselection failed\n");
	free(s);
	outcome_free(&o);
}

TEST(parse_go_case17_first_failure_line)
{
	static const char *const files[] = {"full.go119.txt", "full.go123.txt"};
	struct proc_exit ex = {1, 0, false};
	size_t i;

	for (i = 0; i < UTIL_ARRAY_LEN(files); i++) {
		struct outcome o;
		const struct outcome_test *t;
		char *clean, *line, *end;

		parse_case("17-control-codes-and-invalid-utf8", files[i], NULL, &ex, &o);
		t = need_test(&o, "TestColoredCLIOutput");
		/* Raw bytes kept: the colour codes and the invalid bytes. */
		CHECK(strstr(t->lines, "\x1b[31mexpected exit 0, got 1\x1b[0m (body \xff\xfe)") !=
		      NULL);
		CHECK(strstr(t->lines, "nul:\\x00 bell:\a") != NULL);
		clean = sanitize_text(t->lines, strlen(t->lines));
		line = strstr(clean, "bytes_test.go:18:");
		CHECK(line != NULL);
		end = strchr(line, '\n');
		CHECK(end != NULL);
		*end = '\0';
		CHECK_STR(
		    line,
		    "bytes_test.go:18: expected exit 0, got 1 (body \xef\xbf\xbd\xef\xbf\xbd)");
		free(clean);
		outcome_free(&o);
	}
}

TEST(parse_go_case17_name_only_reachable_as_fffd)
{
	char *path =
	    xasprintf("%s/tests/fixtures/cases/17-control-codes-and-invalid-utf8/patterns.tsv",
	              check_srcdir());
	char *tsv = read_data(path, NULL), *f[3], *pat, *nl = strchr(tsv, '\n');
	struct proc_exit ex = {1, 0, false};
	struct outcome o;

	if (nl != NULL)
		*nl = '\0';
	CHECK_INT(split_tabs(tsv, f, 3), 3);
	CHECK_STR(f[1], "TestBinaryName/bad\xef\xbf\xbdname");
	pat = parse_go_run_pattern(f[1]);
	CHECK_STR(pat, f[2]);
	parse_case("17-control-codes-and-invalid-utf8", f[0], f[1], &ex, &o);
	CHECK(!o.selection_failed);
	CHECK_INT(need_test(&o, f[1])->status, OUTCOME_FAIL);
	outcome_free(&o);
	free(pat);
	free(tsv);
	free(path);
}

TEST(parse_go_case19_lines_are_capped)
{
	static const char *const files[] = {"full.go119.txt", "full.go123.txt"};
	struct proc_exit ex = {1, 0, false};
	size_t i;

	for (i = 0; i < UTIL_ARRAY_LEN(files); i++) {
		struct outcome o;
		const char *lines;

		parse_case("19-report-body-markdown-and-size", files[i], NULL, &ex, &o);
		lines = need_test(&o, "TestRendersReleaseNotes")->lines;
		CHECK(strlen(lines) <= OUTCOME_LINES_CAP);
		/* The assertion first, then the output in order. */
		CHECK(strncmp(
		          lines,
		          "    golden_test.go:28: release notes differ from testdata/notes.golden\n"
		          "[... the output in order ...]\ngot:\n## Changes\n",
		          117) == 0);
		CHECK(strstr(lines, " bytes cut ...]\n") != NULL);
		CHECK(strstr(lines, "+    line 1499: aaaaaaaaaaaaaaaa changed\n") != NULL);
		outcome_free(&o);
	}
}

/* Cuts the reference output before Go's timeout panic: the process then
 * died with two parallel tests running. */
TEST(parse_go_crash_with_several_running_charges_the_package)
{
	char *dir = go119_dir();
	char *path = xasprintf("%s/timeoutpar/timeoutpar.raw.txt", dir);
	size_t len;
	char *data = read_data(path, &len), *cut = strstr(data, "panic:");
	struct proc_exit ex = {2, 0, false};
	struct parse_go_opts opts;

	CHECK(cut != NULL);
	memset(&opts, 0, sizeof opts);
	check_run("timeoutpar cut", data, (size_t)(cut - data), &opts, &ex,
	          "PASS TestQuick\n"
	          "PASS TestParDone\n"
	          "package failed: exit status 2 while 2 tests were running\n"
	          "candidate TestParHang1\n"
	          "candidate TestParHang2\n");
	free(data);
	free(path);
	free(dir);
}

TEST(parse_go_signal_while_one_test_runs)
{
	static const char text[] = "=== RUN   TestA\n--- PASS: TestA (0.00s)\n=== RUN   TestB\n"
	                           "    b_test.go:3: working\n";
	struct proc_exit ex = {-1, 11, false};
	struct parse_go_opts opts;

	memset(&opts, 0, sizeof opts);
	check_run("signal", text, sizeof text - 1, &opts, &ex,
	          "PASS TestA\nFAIL TestB (process killed by signal 11 while running)\n");
}

TEST(parse_go_subtest_crash_go119)
{
	/* Go 1.19 prints subtest results when the parent ends: a RUN of the
	 * next sibling shows the previous one finished. */
	static const char text[] = "=== RUN   TestX\n=== RUN   TestX/a\n=== RUN   TestX/b\n"
	                           "=== RUN   TestX/b/deep\n=== RUN   TestX/c\n"
	                           "panic: boom\n\ngoroutine 7 [running]:\n";
	struct proc_exit ex = {2, 0, false};
	struct parse_go_opts opts;

	memset(&opts, 0, sizeof opts);
	check_run("subtest crash", text, sizeof text - 1, &opts, &ex,
	          "FAIL TestX\nFAIL TestX/c (process exited with status 2 while running)\n");
}

TEST(parse_go_running_list_names_subtests)
{
	static const char text[] =
	    "\x16=== RUN   TestX\n\x16=== RUN   TestX/a\n\x16=== PAUSE TestX/a\n"
	    "\x16=== RUN   TestX/b\n\x16=== PAUSE TestX/b\n\x16=== CONT  TestX/a\n"
	    "\x16=== CONT  TestX/b\n\x16--- PASS: TestX/b (0.00s)\n"
	    "panic: test timed out after 5s\n\trunning tests:\n\t\tTestX (5s)\n\t\tTestX/a (5s)\n\n"
	    "goroutine 9 [chan receive]:\nexample.com/m.TestX.func1(0xc000)\n\t/x_test.go:9 +0x1\n";
	struct proc_exit ex = {2, 0, false};
	struct parse_go_opts opts;
	struct outcome o;

	memset(&opts, 0, sizeof opts);
	opts.framing_marker = true;
	opts.import_path = "example.com/m";
	check_run("running list", text, sizeof text - 1, &opts, &ex,
	          "HANG TestX (test timed out after 5s)\n"
	          "HANG TestX/a (test timed out after 5s)\n"
	          "PASS TestX/b\n");
	parse(text, sizeof text - 1, &opts, &ex, 3, &o);
	CHECK(strstr(need_test(&o, "TestX/a")->lines, "example.com/m.TestX.func1(") != NULL);
	CHECK(strstr(need_test(&o, "TestX/a")->lines, "\t\tTestX/a (5s)\n") != NULL);
	outcome_free(&o);
}

TEST(parse_go_indented_fake_result_is_output)
{
	static const char text[] = "=== RUN   TestX\n"
	                           "    --- FAIL: TestX (0.00s)\n"
	                           "        --- FAIL: TestX (0.00s)\n"
	                           "--- PASS: TestX (0.00s)\n"
	                           "=== RUN   TestY\n"
	                           "--- FAIL: TestY (0.00s)\n"
	                           "FAIL\n";
	struct proc_exit ex = {1, 0, false};
	struct parse_go_opts opts;

	memset(&opts, 0, sizeof opts);
	check_run("indented fake", text, sizeof text - 1, &opts, &ex, "PASS TestX\nFAIL TestY\n");
}

TEST(parse_go_framing_ignores_unmarked_lines)
{
	static const char text[] = "\x16=== RUN   TestA\n"
	                           "--- FAIL: TestA (0.00s)\n"
	                           "=== RUN   TestGhost\n"
	                           "FAIL\n"
	                           "\x16--- PASS: TestA (0.00s)\n"
	                           "\x16=== NAME  \n"
	                           "\x16=== RUN   TestB\n"
	                           "partial\x16--- FAIL: TestB (0.00s)\n"
	                           "\x16=== NAME  \n"
	                           "\x16"
	                           "FAIL\n";
	struct proc_exit ex = {1, 0, false};
	struct parse_go_opts opts;
	struct outcome o;

	memset(&opts, 0, sizeof opts);
	opts.framing_marker = true;
	check_run("framing", text, sizeof text - 1, &opts, &ex, "PASS TestA\nFAIL TestB\n");
	parse(text, sizeof text - 1, &opts, &ex, 2, &o);
	CHECK_STR(need_test(&o, "TestB")->lines, "partial\n");
	outcome_free(&o);
}

TEST(parse_go_long_line_then_glued_result)
{
	size_t n = 200000, i;
	char *text = xmalloc(n + 64);
	struct proc_exit ex = {1, 0, false};
	struct parse_go_opts opts;
	struct outcome o;
	int len;

	len = snprintf(text, 64, "=== RUN   TestLong\n");
	for (i = 0; i < n; i++)
		text[len + i] = 'x';
	len += (int)n;
	len += snprintf(text + len, 64, "--- FAIL: TestLong (0.00s)\nFAIL\n");
	memset(&opts, 0, sizeof opts);
	check_run("long line", text, (size_t)len, &opts, &ex, "FAIL TestLong\n");
	parse(text, (size_t)len, &opts, &ex, 4096, &o);
	CHECK(strstr(need_test(&o, "TestLong")->lines, " bytes cut ...]\n") != NULL);
	CHECK(strlen(need_test(&o, "TestLong")->lines) <= OUTCOME_LINES_CAP);
	outcome_free(&o);
	free(text);
}

TEST(parse_go_nul_bytes_in_output)
{
	static const char text[] = "=== RUN   TestN\na\0b\n--- FAIL: TestN (0.00s)\nFAIL\n";
	struct proc_exit ex = {1, 0, false};
	struct parse_go_opts opts;
	struct outcome o;

	memset(&opts, 0, sizeof opts);
	parse(text, sizeof text - 1, &opts, &ex, 1, &o);
	CHECK_STR(need_test(&o, "TestN")->lines, "a\\x00b\n");
	outcome_free(&o);
}

TEST(parse_go_no_output_at_all)
{
	struct proc_exit ex0 = {0, 0, false}, ex2 = {2, 0, false}, kill = {-1, 9, true};
	struct parse_go_opts opts;

	memset(&opts, 0, sizeof opts);
	check_run("empty exit 0", "", 0, &opts, &ex0,
	          "package failed: exit status 0 without a final PASS line\n");
	check_run("empty exit 2", "", 0, &opts, &ex2,
	          "package failed: exit status 2 with no test running\n");
	check_run("empty killed", "", 0, &opts, &kill,
	          "package failed: stopped at its time limit with no test running\n");
	parse_go_free(NULL);
}

TEST(parse_go_exit_after_final_pass)
{
	/* TestMain's leak check failing after m.Run() printed PASS. */
	static const char text[] = "=== RUN   TestA\n--- PASS: TestA (0.00s)\nPASS\n"
	                           "leak: 1 goroutine left\n";
	struct proc_exit ex = {1, 0, false};
	struct parse_go_opts opts;

	memset(&opts, 0, sizeof opts);
	check_run("leak", text, sizeof text - 1, &opts, &ex,
	          "PASS TestA\npackage failed: exit status 1 after the final PASS line\n");
}

TEST(parse_go_timeout_outside_any_test)
{
	/* TestMain blocked before m.Run(): Go's alarm fires with no test. */
	static const char text[] = "setting up\npanic: test timed out after 1s\n\n"
	                           "goroutine 1 [select]:\nmain.main()\n\t_testmain.go:47 +0x9b\n";
	struct proc_exit ex = {2, 0, false};
	struct parse_go_opts opts;
	struct outcome o;

	memset(&opts, 0, sizeof opts);
	check_run("timeout in TestMain", text, sizeof text - 1, &opts, &ex,
	          "package failed: test timed out after 1s with no test running\n");
	parse(text, sizeof text - 1, &opts, &ex, 5, &o);
	CHECK(strstr(o.package_lines, "setting up\npanic: test timed out after 1s\n") != NULL);
	CHECK(strstr(o.package_lines, "main.main()") != NULL);
	outcome_free(&o);
}

/* A chatty test logs 300 lines before its assertion, another panics after
 * 300 lines of plain output: each failure's lines start with the failure
 * (the assertion; the panic and its goroutine), and the report's first
 * lines are not log noise. */
TEST(parse_go_chatty_failure_first)
{
	struct proc_exit ex = {1, 0, false};
	struct parse_go_opts opts;
	struct outcome o;
	struct buf b;
	const char *lines, *panic;
	int i;

	buf_init(&b);
	buf_adds(&b, "=== RUN   TestChatty\n");
	for (i = 1; i <= 300; i++)
		buf_printf(&b, "    chatty_test.go:20: processed record %d of 300\n", i);
	buf_adds(&b, "    chatty_test.go:23: checksum mismatch: got 44851, want 44850\n"
	             "--- FAIL: TestChatty (0.01s)\n=== RUN   TestPanics\n");
	for (i = 1; i <= 300; i++)
		buf_printf(&b, "connecting to shard %d\n", i);
	buf_adds(&b, "--- FAIL: TestPanics (0.00s)\n"
	             "panic: runtime error: index out of range [3] with length 3 [recovered]\n"
	             "\tpanic: runtime error: index out of range [3] with length 3\n\n"
	             "goroutine 7 [running]:\ntesting.tRunner.func1.2({0x4f0e40, 0xc0000182b8})\n"
	             "\t/usr/lib/go-1.19/src/testing/testing.go:1396 +0x24e\n"
	             "example.com/m.TestPanics(0xc000007a00)\n\t/src/m/chatty_test.go:31 +0x1d\n"
	             "exit status 2\n");
	memset(&opts, 0, sizeof opts);
	opts.import_path = "example.com/m";
	parse(b.data, b.len, &opts, &ex, b.len, &o);
	lines = need_test(&o, "TestChatty")->lines;
	CHECK(strlen(lines) <= OUTCOME_LINES_CAP);
	CHECK(strncmp(lines, "    chatty_test.go:20: processed record 297 of 300\n", 51) == 0);
	/* The assertion is within the first five lines, the context after. */
	CHECK(strstr(lines, "checksum mismatch") - lines < 300);
	CHECK(strstr(lines, "[... the output in order ...]\n") != NULL);
	CHECK(strstr(lines, "processed record 1 of 300\n") != NULL);
	lines = need_test(&o, "TestPanics")->lines;
	panic = strstr(lines, "panic: runtime error: index out of range");
	CHECK(panic == lines);
	CHECK(strstr(lines, "chatty_test.go:31") < strstr(lines, "connecting to shard 1\n"));
	outcome_free(&o);
	buf_free(&b);
}
