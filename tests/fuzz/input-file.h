/* SPDX-License-Identifier: MIT */
/*
 * input-file.h: for the targets whose reader takes a path: the input
 * written to a file of this process.
 */
#ifndef FLAKESWEEP_INPUT_FILE_H
#define FLAKESWEEP_INPUT_FILE_H

#include <stddef.h>
#include <stdint.h>

/* Writes the size bytes of data to /tmp/fuzz-NAME-PID.EXT, replacing what
 * the last call wrote, and returns that path (static); aborts when it
 * cannot. */
const char *fuzz_file(const char *name, const char *ext, const uint8_t *data, size_t size);

#endif
