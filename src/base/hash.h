/* SPDX-License-Identifier: MIT */
/*
 * hash.h: the one hash, 64-bit FNV-1a (offset basis 14695981039346656037,
 * prime 1099511628211), for the string maps, the Go parser's prefix
 * hashes and the post marker. It is not a defence against chosen keys.
 */
#ifndef FLAKESWEEP_HASH_H
#define FLAKESWEEP_HASH_H

#include <stddef.h>
#include <stdint.h>

#define HASH_FNV1A_INIT UINT64_C(14695981039346656037)
#define HASH_FNV1A_PRIME UINT64_C(1099511628211)

/* Folds one byte into h, so a caller can hash every prefix in one pass. */
static inline uint64_t
hash_fnv1a_byte(uint64_t h, unsigned char c)
{
	return (h ^ c) * HASH_FNV1A_PRIME;
}

/* The hash of the n bytes at s. */
static inline uint64_t
hash_fnv1a(const void *s, size_t n)
{
	const unsigned char *p = s;
	uint64_t h = HASH_FNV1A_INIT;
	size_t i;

	for (i = 0; i < n; i++)
		h = hash_fnv1a_byte(h, p[i]);
	return h;
}

/* The hash of a NUL-terminated string. */
static inline uint64_t
hash_fnv1a_str(const char *s)
{
	uint64_t h = HASH_FNV1A_INIT;

	for (; *s != '\0'; s++)
		h = hash_fnv1a_byte(h, (unsigned char)*s);
	return h;
}

#endif
