#ifndef THUMBTABLE_CNCURSESW_SHIM_H
#define THUMBTABLE_CNCURSESW_SHIM_H

// Wide-character curses (cchar_t, add_wch) needs these before <curses.h>.
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif
#include <locale.h>
#include <wchar.h>
#include <ncursesw/curses.h>
#include <ncursesw/term.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <time.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <termios.h>
#include <unistd.h>
#include <string.h>

// Swift 6 rejects the curses globals (stdscr, COLORS, COLOR_PAIRS, LINES, COLS) as shared mutable
// state; these accessors read them. All calls happen on the main actor.
static inline WINDOW *cnc_stdscr(void) { return stdscr; }
static inline int cnc_colors(void) { return COLORS; }
static inline int cnc_color_pairs(void) { return COLOR_PAIRS; }
static inline int cnc_lines(void) { return LINES; }
static inline int cnc_cols(void) { return COLS; }

// The stream on descriptor `fd` for curses: the process's own stdin and stdout (Swift-6-unsafe globals) when `fd`
// is theirs, so that a screen on the standard streams draws through stdout as before; otherwise a new stream on
// `fd` (the controlling terminal, /dev/tty), never closed: the quit watch may still be polling its descriptor.
static inline FILE *cnc_stream(int fd, const char *mode) {
    if (fd == STDIN_FILENO && mode[0] == 'r') return stdin;
    if (fd == STDOUT_FILENO && mode[0] == 'w') return stdout;
    return fdopen(fd, mode);
}

// newterm with terminfo entry `type` (NULL: TERM's), which may be a direct-colour entry for TERM's terminal. Unlike
// initscr, it returns NULL instead of exiting when the entry is unusable.
static inline SCREEN *cnc_newterm(const char *type, FILE *output, FILE *input) { return newterm(type, output, input); }

// Writes bytes to `output` (the stream curses draws through: see cnc_newterm) after what curses has buffered there,
// and flushes: sequences curses knows nothing of reach the terminal in order.
static inline void cnc_send(FILE *output, const unsigned char *bytes, size_t count) {
    fwrite(bytes, 1, count, output);
    fflush(output);
}

// What terminfo entry `name` says about colour, read before curses starts: 0 with `colors` (its colors number, 0
// if it has none) and `indexed_below` (the colour numbers setaf sends as palette indexes rather than as RGB: all of
// them for a palette entry; 8, 16 or 256 for a direct one, found by asking setaf), or -1 when terminfo has no
// such entry. tiparm is variadic, which Swift cannot call. The description is freed again, as in cnc_check_terminal.
static inline int cnc_probe_entry(const char *name, int *colors, int *indexed_below) {
    int status = 0;
    if (setupterm(name, STDOUT_FILENO, &status) != OK) return -1;
    int count = tigetnum("colors");
    *colors = count > 0 ? count : 0;
    *indexed_below = *colors;
    char *setaf = tigetstr("setaf");
    if (*colors > 256 && setaf != NULL && setaf != (char *)-1) {
        static const int probes[] = { 256, 16, 8 };
        *indexed_below = 0;
        for (unsigned i = 0; i < sizeof probes / sizeof probes[0]; i++) {
            const char *out = tiparm(setaf, probes[i] - 1);
            if (out != NULL && strstr(out, "38:2") == NULL && strstr(out, "38;2;") == NULL) {
                *indexed_below = probes[i];
                break;
            }
        }
    }
    del_curterm(cur_term);
    return 0;
}

// Attribute and key macros Swift cannot import.
static inline attr_t cnc_a_bold(void) { return A_BOLD; }
static inline attr_t cnc_a_dim(void) { return A_DIM; }
static inline attr_t cnc_a_reverse(void) { return A_REVERSE; }
static inline attr_t cnc_a_underline(void) { return A_UNDERLINE; }
static inline attr_t cnc_a_italic(void) { return A_ITALIC; }
static inline int cnc_key_mouse(void) { return KEY_MOUSE; }
static inline int cnc_key_resize(void) { return KEY_RESIZE; }
static inline mmask_t cnc_mouse_all(void) { return ALL_MOUSE_EVENTS | REPORT_MOUSE_POSITION; }
static inline mmask_t cnc_button1_pressed(void) { return BUTTON1_PRESSED; }
static inline mmask_t cnc_button1_released(void) { return BUTTON1_RELEASED; }
static inline mmask_t cnc_button1_clicked(void) { return BUTTON1_CLICKED; }
static inline mmask_t cnc_button1_double_clicked(void) { return BUTTON1_DOUBLE_CLICKED; }
static inline mmask_t cnc_button4_pressed(void) { return BUTTON4_PRESSED; }
static inline mmask_t cnc_button5_pressed(void) {
#ifdef BUTTON5_PRESSED
    return BUTTON5_PRESSED;
#else
    return 0;
#endif
}

// The window size from the kernel: ioctl is variadic, which Swift cannot call. Returns 0 on success.
static inline int cnc_window_size(int fd, int *rows, int *cols) {
    struct winsize ws;
    if (ioctl(fd, TIOCGWINSZ, &ws) != 0 || ws.ws_row == 0 || ws.ws_col == 0) return -1;
    *rows = ws.ws_row;
    *cols = ws.ws_col;
    return 0;
}

// Whether terminfo entry `name` (TERM's, or the entry run on in its place) can run a full-screen program: 0 if it
// can, 1 if the name is empty, 2 if terminfo does not know it, 3 if it cannot address the cursor (cup), like
// TERM=dumb. Checked before newterm, which would otherwise take a terminal it cannot draw on. The description is
// freed again: newterm reads its own.
static inline int cnc_check_terminal(const char *name) {
    if (name == NULL || name[0] == '\0') return 1;
    int status = 0;
    if (setupterm(name, STDOUT_FILENO, &status) != OK) return 2;
    char *cup = tigetstr("cup");
    int addressable = cup != NULL && cup != (char *)-1;
    del_curterm(cur_term);
    return addressable ? 0 : 3;
}

// Set the wide-character cell that Swift cannot build itself: setcchar's pair argument is a short, and the
// extended (int) pair goes through its opts pointer.
static inline int cnc_setcchar(cchar_t *cell, const wchar_t *text, attr_t attrs, int pair) {
    return setcchar(cell, text, attrs, 0, &pair);
}

#endif
