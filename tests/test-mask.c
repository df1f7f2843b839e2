/* SPDX-License-Identifier: MIT */
/* test-mask.c: which variables are secrets, and their values masked in
 * text, whole and as a stream cut at every byte. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "base/mask.h"
#include "base/util.h"

static void
collect(void *arg, const char *data, size_t len)
{
	buf_add(arg, data, len);
}

/* text through a stream cut into chunks of step bytes (0: whole). */
static char *
stream(const struct mask *m, const char *text, size_t step)
{
	struct buf b;
	struct mask_stream *ms = mask_stream_new(m, collect, &b);
	size_t i, len = strlen(text);

	buf_init(&b);
	for (i = 0; i<len; i += step> 0 ? step : len)
		mask_stream_feed(ms, text + i, step > 0 && len - i > step ? step : len - i);
	mask_stream_flush(ms);
	mask_stream_free(ms);
	return buf_steal(&b);
}

/* Every cut of text gives want. */
static void
check_masked(const struct mask *m, const char *text, const char *want)
{
	size_t step, len = strlen(text);
	char *got = mask_text(m, text);

	CHECK_STR(got, want);
	free(got);
	for (step = 1; step <= len; step++) {
		got = stream(m, text, step);
		CHECK_STR(got, want);
		free(got);
	}
}

TEST(mask_names_that_look_like_secrets)
{
	CHECK(mask_name_secret("AWS_SECRET_ACCESS_KEY"));
	CHECK(mask_name_secret("CI_JOB_TOKEN"));
	CHECK(mask_name_secret("npm_token"));
	CHECK(mask_name_secret("PGPASSWORD"));
	CHECK(mask_name_secret("MYSQL_PASSWD"));
	CHECK(mask_name_secret("OPENAI_API_KEY"));
	CHECK(mask_name_secret("SSH_PRIVATE_KEY"));
	CHECK(mask_name_secret("GOOGLE_APPLICATION_CREDENTIALS"));
	CHECK(!mask_name_secret("HOME"));
	CHECK(!mask_name_secret("DB_PASS"));
	CHECK(!mask_name_secret("KEY"));
}

TEST(mask_environ_takes_secret_names_and_given_names_not_short_values)
{
	char *env[] = {"HOME=/home/someone",
	               "CI_JOB_TOKEN=jobtoken123",
	               "NPM_TOKEN=short",
	               "DB_PASS=hunter2hunter2",
	               "OTHER=visible-value",
	               "BROKEN",
	               NULL};
	char *names[] = {"DB_PASS"};
	struct mask *m = mask_new();
	char *got;

	mask_add_environ(m, env, names, 1);
	CHECK_INT((int)mask_count(m), 2);
	got = mask_text(m, "a jobtoken123 b short c hunter2hunter2 d visible-value /home/someone");
	CHECK_STR(got, "a *** b short c *** d visible-value /home/someone");
	free(got);
	mask_free(m);
}

TEST(mask_stream_finds_a_value_across_chunk_boundaries)
{
	struct mask *m = mask_new();

	mask_add(m, "s3cr3t-value");
	check_masked(m, "before s3cr3t-value after\n", "before *** after\n");
	check_masked(m, "s3cr3t-values3cr3t-value", "******");
	/* A beginning that never completes is passed on at the end. */
	check_masked(m, "s3cr3t-valu", "s3cr3t-valu");
	check_masked(m, "ss3cr3t-value s3cr3t", "s*** s3cr3t");
	mask_free(m);
}

TEST(mask_longest_value_first_and_overlaps_as_one_stretch)
{
	struct mask *m = mask_new();

	mask_add(m, "secret1");
	mask_add(m, "secret123");
	check_masked(m, "x secret123 y secret12 z", "x *** y ***2 z");
	mask_free(m);
	/* Two values that overlap in the text: no byte of either shows. */
	m = mask_new();
	mask_add(m, "abcdefgh");
	mask_add(m, "efghijkl");
	check_masked(m, "<abcdefghijkl>", "<***>");
	check_masked(m, "<efghijklabcdefgh>", "<******>");
	mask_free(m);
}

TEST(mask_adds_lines_and_json_form_of_a_value)
{
	struct mask *m = mask_new();
	char *got;

	mask_add(m, "-----BEGIN KEY-----\r\nMIIBOgIBAAJBAK\nshort\n-----END KEY-----");
	got = mask_text(m, "log: MIIBOgIBAAJBAK\nlog: short\n");
	CHECK_STR(got, "log: ***\nlog: short\n");
	free(got);
	mask_free(m);
	m = mask_new();
	mask_add(m, "pa\"ss\\word");
	got = mask_text(m, "{\"longrepr\": \"x pa\\\"ss\\\\word y\"} pa\"ss\\word");
	CHECK_STR(got, "{\"longrepr\": \"x *** y\"} ***");
	free(got);
	mask_free(m);
}

/* pytest's assertion messages show a str by repr: 'pa"ss\\word12', and
 * with a ' in it "it's\\tab" (double quotes, ' left) or 'it\'s"x' (both). */
TEST(mask_adds_python_repr_form_of_a_value)
{
	struct mask *m = mask_new();
	char *got;

	mask_add(m, "pa\"ss\\word12");
	mask_add(m, "it's\tkey99");
	mask_add(m, "q'uo\"te\x01zz");
	got = mask_text(m, "assert 'pa\"ss\\\\word12' == x\n"
	                   "E  \"it's\\tkey99\"\n"
	                   "E  'q\\'uo\"te\\x01zz'\n");
	CHECK_STR(got, "assert '***' == x\nE  \"***\"\nE  '***'\n");
	free(got);
	mask_free(m);
}

TEST(mask_without_values_passes_text_as_it_is)
{
	struct mask *m = mask_new();

	mask_add(m, "12345");
	CHECK_INT((int)mask_count(m), 0);
	check_masked(m, "12345 and more", "12345 and more");
	mask_free(m);
}
