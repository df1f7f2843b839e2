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
	buf_free(&p->text);
	memset(p, 0, sizeof *p);
}

void
prompt_start(struct prompt *p, enum prompt_kind kind, const char *question, const char *def,
             prompt_done_cb done, void *arg)
{
	free(p->question);
	p->question = xstrdup(question);
	buf_reset(&p->text);
	if (def != NULL)
		buf_adds(&p->text, def);
	p->kind = kind;
	p->done = done;
	p->arg = arg;
	p->active = true;
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

void
prompt_key(struct prompt *p, int key)
{
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
	switch (key) {
	case '\n':
	case '\r':
	case KEY_ENTER:
		prompt_finish(p, p->text.data != NULL ? p->text.data : "");
		return;
	case KEY_BACKSPACE:
	case 127:
	case 8:
		/* Back over a whole UTF-8 character. */
		while (p->text.len > 0) {
			unsigned char c = (unsigned char)p->text.data[--p->text.len];

			if ((c & 0xc0) != 0x80)
				break;
		}
		if (p->text.data != NULL)
			p->text.data[p->text.len] = '\0';
		return;
	case 'u' & 0x1f:
		buf_reset(&p->text);
		return;
	default:
		break;
	}
	if (key >= 0x20 && key < 0x100 && key != 127 && p->text.len < PROMPT_MAX)
		buf_addc(&p->text, (char)key);
}
