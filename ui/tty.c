/* SPDX-License-Identifier: MIT */
/*
 * tty.c: the terminal's state under curses and its restoration (see
 * tty.h). The crash path uses only write(), tcsetattr(), signal() and
 * raise() on strings saved at start, because nothing else is safe inside
 * a signal handler.
 */
#include "config.h"

#include <curses.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>
#include <wchar.h>

#include "tty.h"
#include "base/util.h"

#define TTY_RESET_MAX 256

static const int tty_crash_signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};

static SCREEN *tty_screen;
static bool tty_on, tty_handlers;
static int tty_out_fd = -1, tty_in_fd = -1;
static struct termios tty_saved;
static bool tty_saved_ok;
/* rmkx, sgr0, cnorm and rmcup, saved for the crash handler. */
static char tty_reset[TTY_RESET_MAX];
static size_t tty_reset_len;
static struct sigaction tty_old_actions[UTIL_ARRAY_LEN(tty_crash_signals)];

static void
tty_reset_add(const char *cap)
{
	char *s = tigetstr(cap);
	size_t n;

	if (s == NULL || s == (char *)-1)
		return;
	n = strlen(s);
	if (tty_reset_len + n < sizeof tty_reset) {
		memcpy(tty_reset + tty_reset_len, s, n);
		tty_reset_len += n;
	}
}

static void
tty_crash(int sig)
{
	ssize_t w;

	if (tty_on && tty_out_fd >= 0) {
		w = write(tty_out_fd, tty_reset, tty_reset_len);
		w = write(tty_out_fd, "\r\n", 2);
		(void)w;
	}
	if (tty_saved_ok && tty_in_fd >= 0)
		tcsetattr(tty_in_fd, TCSAFLUSH, &tty_saved);
	signal(sig, SIG_DFL);
	raise(sig);
}

static void
tty_fatal_hook(void)
{
	tty_stop();
}

/* Home and End as terminals send them whatever TERM says: tmux under
 * TERM=xterm-256color sends ESC [1~ and ESC [4~, which xterm's description
 * does not read as Home and End. Other keys the description binds are
 * left alone. */
static void
tty_define_keys(void)
{
	static const struct {
		const char *seq;
		int key;
	} keys[] = {
	    {"\033[1~", KEY_HOME}, {"\033[4~", KEY_END}, {"\033[7~", KEY_HOME},
	    {"\033[8~", KEY_END},  {"\033[H", KEY_HOME}, {"\033[F", KEY_END},
	    {"\033OH", KEY_HOME},  {"\033OF", KEY_END},
	};
	size_t i;

	for (i = 0; i < UTIL_ARRAY_LEN(keys); i++) {
		int had = key_defined(keys[i].seq);

		/* xterm's description reads ESC [1~ and ESC [4~ as Find and
		 * Select, which no key of the dashboard uses. */
		if (had == 0 || had == KEY_FIND || had == KEY_SELECT) {
			define_key(keys[i].seq, 0);
			define_key(keys[i].seq, keys[i].key);
		}
	}
}

int
tty_start(const struct tty_config *cfg, char **err)
{
	const char *type = cfg->type != NULL ? cfg->type : getenv("TERM");
	size_t i;

	*err = NULL;
	tty_out_fd = fileno(cfg->out);
	tty_in_fd = fileno(cfg->in);
	tty_saved_ok = isatty(tty_in_fd) && tcgetattr(tty_in_fd, &tty_saved) == 0;
	tty_screen = newterm(type, cfg->out, cfg->in);
	if (tty_screen == NULL) {
		*err =
		    xasprintf(_("cannot use the terminal type \"%s\""), type != NULL ? type : "");
		return -1;
	}
	set_term(tty_screen);
	tty_on = true;
	cbreak();
	noecho();
	nonl();
	intrflush(stdscr, FALSE);
	keypad(stdscr, TRUE);
	tty_define_keys();
	/* Clicks and the wheel; the terminal keeps selecting with Shift. */
	mousemask(BUTTON1_CLICKED | BUTTON1_PRESSED | BUTTON4_PRESSED | BUTTON5_PRESSED, NULL);
	mouseinterval(0);
	nodelay(stdscr, TRUE);
	set_escdelay(25);
	curs_set(0);
	if (has_colors())
		start_color();
	tty_reset_len = 0;
	tty_reset_add("rmkx");
	tty_reset_add("sgr0");
	tty_reset_add("cnorm");
	tty_reset_add("rmcup");
	if (cfg->handlers) {
		struct sigaction sa;

		memset(&sa, 0, sizeof sa);
		sa.sa_handler = tty_crash;
		sigemptyset(&sa.sa_mask);
		sa.sa_flags = SA_RESETHAND;
		for (i = 0; i < UTIL_ARRAY_LEN(tty_crash_signals); i++)
			sigaction(tty_crash_signals[i], &sa, &tty_old_actions[i]);
		util_set_fatal_hook(tty_fatal_hook);
		tty_handlers = true;
	}
	return 0;
}

void
tty_stop(void)
{
	size_t i;

	if (tty_on) {
		tty_on = false;
		curs_set(1);
		endwin();
	}
	if (tty_handlers) {
		tty_handlers = false;
		for (i = 0; i < UTIL_ARRAY_LEN(tty_crash_signals); i++)
			sigaction(tty_crash_signals[i], &tty_old_actions[i], NULL);
		util_set_fatal_hook(NULL);
	}
}

void
tty_free(void)
{
	if (tty_screen != NULL && !tty_on) {
		delscreen(tty_screen);
		tty_screen = NULL;
	}
}

void
tty_suspend(void)
{
	if (!tty_on)
		return;
	def_prog_mode();
	endwin();
}

void
tty_resume(void)
{
	if (!tty_on)
		return;
	reset_prog_mode();
	clearok(curscr, TRUE);
	refresh();
}

void
tty_size(int fd, int *rows, int *cols)
{
	struct winsize ws;

	if (ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_row > 0 && ws.ws_col > 0) {
		*rows = ws.ws_row;
		*cols = ws.ws_col;
	}
}

bool
tty_usable(int fd, const char **why)
{
	const char *t = getenv("TERM");

	if (!isatty(fd)) {
		*why = _("the output is not a terminal");
		return false;
	}
	if (t == NULL || *t == '\0' || strcmp(t, "dumb") == 0) {
		*why = _("TERM is dumb or not set");
		return false;
	}
	*why = NULL;
	return true;
}

char *
tty_screen_text(bool roles)
{
	struct buf b, r;
	int y, x, rows, cols;

	buf_init(&b);
	getmaxyx(stdscr, rows, cols);
	for (y = 0; y < rows; y++) {
		size_t keep, rkeep = 0;

		buf_init(&r);
		keep = b.len;
		for (x = 0; x < cols; x++) {
			cchar_t cc;
			wchar_t wch[CCHARW_MAX + 1];
			attr_t attrs = 0;
			short pair = 0;
			char mb[8], role = ' ';
			int w, n;

			if (mvwin_wch(stdscr, y, x, &cc) == ERR)
				break;
			memset(wch, 0, sizeof wch);
			getcchar(&cc, wch, &attrs, &pair, NULL);
			if (wch[0] == L'\0')
				wch[0] = L' ';
			w = wcwidth(wch[0]);
			n = (int)wcrtomb(mb, wch[0], NULL);
			if (n <= 0) {
				mb[0] = '?';
				n = 1;
			}
			buf_add(&b, mb, (size_t)n);
			if (wch[0] != L' ')
				keep = b.len;
			if (pair > 0)
				role = (char)('A' + pair - 2);
			else if (attrs & A_REVERSE)
				role = 'r';
			else if (attrs & A_BOLD)
				role = 'b';
			else if (attrs & A_DIM)
				role = 'd';
			else if (attrs & A_UNDERLINE)
				role = 'u';
			buf_addc(&r, role);
			if (role != ' ')
				rkeep = r.len;
			if (w > 1)
				x += w - 1;
		}
		b.len = keep;
		buf_addc(&b, '\n');
		if (roles) {
			buf_add(&b, r.data != NULL ? r.data : "", rkeep);
			buf_addc(&b, '\n');
		}
		buf_free(&r);
	}
	return buf_steal(&b);
}
