/* SPDX-License-Identifier: MIT */
/*
 * input-file.c: the input of a fuzz target written to a file (input-file.h).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "input-file.h"

const char *
fuzz_file(const char *name, const char *ext, const uint8_t *data, size_t size)
{
	static char path[96];
	FILE *f;

	if (path[0] == '\0')
		snprintf(path, sizeof path, "/tmp/fuzz-%s-%d.%s", name, (int)getpid(), ext);
	f = fopen(path, "w");
	if (f == NULL || fwrite(data, 1, size, f) != size || fclose(f) != 0)
		abort();
	return path;
}
