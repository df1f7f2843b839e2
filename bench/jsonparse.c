/* SPDX-License-Identifier: MIT */
/*
 * jsonparse.c: the floor of reading a journal: each line of a file parsed
 * with cJSON and freed, nothing else. bench/rebuild.sh times a rebuild
 * against it. Usage: jsonparse FILE; prints the number of lines.
 */
#include <stdio.h>
#include <stdlib.h>

#include <cjson/cJSON.h>

int
main(int argc, char **argv)
{
	FILE *f = argc == 2 ? fopen(argv[1], "re") : NULL;
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	long n = 0;

	if (f == NULL) {
		fprintf(stderr, "usage: jsonparse FILE\n");
		return 2;
	}
	while ((len = getline(&line, &cap, f)) > 0) {
		cJSON *o = cJSON_ParseWithLength(line, (size_t)len);

		if (o == NULL) {
			fprintf(stderr, "jsonparse: line %ld: invalid JSON\n", n + 1);
			return 1;
		}
		cJSON_Delete(o);
		n++;
	}
	printf("%ld\n", n);
	free(line);
	fclose(f);
	return 0;
}
