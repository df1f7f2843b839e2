/* SPDX-License-Identifier: MIT */
/*
 * clipboard.h: the terminal's clipboard through OSC 52, which works over
 * ssh: the one escape sequence flakesweep writes on purpose. Its payload
 * is base64, so no byte of the text copied reaches the terminal as is.
 * Inside tmux the sequence goes twice: as is, for tmux's set-clipboard,
 * and wrapped in tmux's DCS passthrough, for allow-passthrough.
 */
#ifndef FLAKESWEEP_UI_CLIPBOARD_H
#define FLAKESWEEP_UI_CLIPBOARD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* The standard base64 (RFC 4648, with padding) of len bytes; caller
 * frees. */
char *clipboard_base64(const char *data, size_t len);

/* The bytes that set the clipboard to text: "ESC ] 52 ; c ; BASE64 BEL",
 * then, when tmux, "ESC P tmux; ESC ESC ] 52 ; c ; BASE64 BEL ESC \".
 * Caller frees. */
char *clipboard_osc52(const char *text, bool tmux);

/* Writes clipboard_osc52(text, $TMUX is set) to the terminal out and
 * flushes it. Returns 0 or a negative errno. */
int clipboard_copy(FILE *out, const char *text);

#endif
