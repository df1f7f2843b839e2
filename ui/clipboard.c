/* SPDX-License-Identifier: MIT */
/*
 * clipboard.c: OSC 52 (see clipboard.h). It writes nothing but the
 * sequence, and never reads the terminal's answer.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "clipboard.h"
#include "base/util.h"

char *
clipboard_base64(const char *data, size_t len)
{
	static const char digits[] =
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	const unsigned char *s = (const unsigned char *)data;
	char *out = xmalloc((len + 2) / 3 * 4 + 1), *o = out;
	size_t i;

	for (i = 0; i + 2 < len; i += 3) {
		*o++ = digits[s[i] >> 2];
		*o++ = digits[((s[i] & 3) << 4) | (s[i + 1] >> 4)];
		*o++ = digits[((s[i + 1] & 15) << 2) | (s[i + 2] >> 6)];
		*o++ = digits[s[i + 2] & 63];
	}
	if (i < len) {
		*o++ = digits[s[i] >> 2];
		if (i + 1 < len) {
			*o++ = digits[((s[i] & 3) << 4) | (s[i + 1] >> 4)];
			*o++ = digits[(s[i + 1] & 15) << 2];
		} else {
			*o++ = digits[(s[i] & 3) << 4];
			*o++ = '=';
		}
		*o++ = '=';
	}
	*o = '\0';
	return out;
}

char *
clipboard_osc52(const char *text, bool tmux)
{
	char *b64 = clipboard_base64(text, strlen(text)), *out;

	if (tmux)
		out = xasprintf("\033]52;c;%s\a\033Ptmux;\033\033]52;c;%s\a\033\\", b64, b64);
	else
		out = xasprintf("\033]52;c;%s\a", b64);
	free(b64);
	return out;
}

int
clipboard_copy(FILE *out, const char *text)
{
	const char *tmux = getenv("TMUX");
	char *seq = clipboard_osc52(text, tmux != NULL && *tmux != '\0');
	size_t n = strlen(seq);
	int rc = 0;

	if (fwrite(seq, 1, n, out) != n || fflush(out) != 0)
		rc = -EIO;
	free(seq);
	return rc;
}
