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
#include "parse-go-check.h"
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
