/* SPDX-License-Identifier: MIT */
/*
 * prompt.c: edits the answer to a question (see prompt.h). It keeps bytes
 * as typed; what is shown goes through draw_text() like everything else.
 */
#include "config.h"

#include <curses.h>
#include <stdlib.h>
#include <string.h>

#include "prompt.h"

#define PROMPT_ESC 27
#define PROMPT_MAX 4096

void
prompt_init(struct prompt *p)
{
	memset(p, 0, sizeof *p);
	buf_init(&p->text);
}

void
prompt_free(struct prompt *p)
{
	free(p->question);
	free(p->error);
	free(p->note);
	buf_free(&p->text);
	memset(p, 0, sizeof *p);
}

void
prompt_start(struct prompt *p, enum prompt_kind kind, const char *question, const char *def,
             prompt_done_cb done, void *arg)
{
	free(p->question);
	p->question = xstrdup(question);
	free(p->error);
	p->error = NULL;
	free(p->note);
	p->note = NULL;
	buf_reset(&p->text);
	if (def != NULL)
		buf_adds(&p->text, def);
	p->cursor = p->text.len;
	p->fresh = p->text.len > 0;
	p->kind = kind;
	p->done = done;
	p->arg = arg;
	p->active = true;
}

void
prompt_set_error(struct prompt *p, const char *error)
{
	free(p->error);
	p->error = error != NULL ? xstrdup(error) : NULL;
}

void
prompt_set_note(struct prompt *p, const char *note)
{
	free(p->note);
	p->note = note != NULL ? xstrdup(note) : NULL;
}

void
prompt_cancel(struct prompt *p)
{
	p->active = false;
}

/* Ends the prompt and calls done, which may start another one. */
static void
prompt_finish(struct prompt *p, const char *answer)
{
	prompt_done_cb done = p->done;
	void *arg = p->arg;
	char *copy = answer != NULL ? xstrdup(answer) : NULL;

	p->active = false;
	if (done != NULL)
		done(arg, copy);
	free(copy);
}

/* The offset of the character before (dir < 0) or after off. */
static size_t
prompt_step(const struct prompt *p, size_t off, int dir)
{
	if (dir < 0) {
		while (off > 0) {
			off--;
			if (((unsigned char)p->text.data[off] & 0xc0) != 0x80)
				break;
		}
		return off;
	}
	while (off < p->text.len) {
		off++;
		if (off == p->text.len || ((unsigned char)p->text.data[off] & 0xc0) != 0x80)
			break;
	}
	return off;
}

/* Deletes the bytes [from, to) of the answer; the cursor goes to from. */
static void
prompt_delete(struct prompt *p, size_t from, size_t to)
{
	if (to <= from)
		return;
	memmove(p->text.data + from, p->text.data + to, p->text.len - to + 1);
	p->text.len -= to - from;
	p->cursor = from;
}

/* Edits the answer for an editing key; false when key is not one. */
static bool
prompt_edit(struct prompt *p, int key)
{
	size_t at;

	switch (key) {
	case KEY_LEFT:
		p->cursor = prompt_step(p, p->cursor, -1);
		return true;
	case KEY_RIGHT:
		p->cursor = prompt_step(p, p->cursor, 1);
		return true;
	case KEY_HOME:
	case 'a' & 0x1f:
		p->cursor = 0;
		return true;
	case KEY_END:
	case 'e' & 0x1f:
		p->cursor = p->text.len;
		return true;
	case KEY_BACKSPACE:
	case 127:
	case 8:
		prompt_delete(p, prompt_step(p, p->cursor, -1), p->cursor);
		return true;
	case KEY_DC:
		prompt_delete(p, p->cursor, prompt_step(p, p->cursor, 1));
		return true;
	case 'w' & 0x1f:
		/* Back over spaces, then over the word. */
		at = p->cursor;
		while (at > 0 && p->text.data[at - 1] == ' ')
			at--;
		while (at > 0 && p->text.data[at - 1] != ' ')
			at--;
		prompt_delete(p, at, p->cursor);
		return true;
	case 'k' & 0x1f:
		prompt_delete(p, p->cursor, p->text.len);
		return true;
	case 'u' & 0x1f:
		prompt_delete(p, 0, p->text.len);
		return true;
	default:
		return false;
	}
}

void
prompt_key(struct prompt *p, int key)
{
	char c;

	if (!p->active)
		return;
	if (key == PROMPT_ESC || key == ('g' & 0x1f)) {
		prompt_finish(p, p->kind == PROMPT_YESNO ? "n" : NULL);
		return;
	}
	if (p->kind == PROMPT_YESNO) {
		if (key == 'y' || key == 'Y')
			prompt_finish(p, "y");
		else if (key == 'n' || key == 'N' || key == '\n' || key == '\r' || key == KEY_ENTER)
			prompt_finish(p, "n");
		return;
	}
	if (key == '\n' || key == '\r' || key == KEY_ENTER) {
		prompt_finish(p, p->text.data != NULL ? p->text.data : "");
		return;
	}
	if (p->text.data == NULL)
		buf_adds(&p->text, "");
	if (prompt_edit(p, key)) {
		p->fresh = false;
		return;
	}
	if (key < 0x20 || key >= 0x100 || key == 127 || p->text.len >= PROMPT_MAX)
		return;
	/* The first character typed replaces the default. */
	if (p->fresh)
		prompt_delete(p, 0, p->text.len);
	p->fresh = false;
	c = (char)key;
	buf_add(&p->text, &c, 1);
	memmove(p->text.data + p->cursor + 1, p->text.data + p->cursor,
	        p->text.len - 1 - p->cursor);
	p->text.data[p->cursor++] = c;
	p->text.data[p->text.len] = '\0';
}
