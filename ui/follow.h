/* SPDX-License-Identifier: MIT */
/*
 * follow.h: `flakesweep view DIR`, the dashboard on a sweep's journal: a
 * finished sweep, or one running elsewhere, followed as its journal grows.
 * It only reads the sweep; decisions taken in it are written to
 * decisions.json and the quarantine file like in a live dashboard.
 */
#ifndef FLAKESWEEP_UI_FOLLOW_H
#define FLAKESWEEP_UI_FOLLOW_H

/* `flakesweep view DIR [--quarantine FILE] [--repo OWNER/NAME] [--category
 * NAME] [--api-url URL]`; argv[0] is "view". Returns the exit status: 0, or
 * 2 on a usage error or a journal that cannot be read. Without a usable
 * terminal it prints DIR/report.txt instead. */
int follow_main(int argc, char **argv);

#endif
