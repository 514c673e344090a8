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

// Swift 6 rejects the curses globals (stdscr, COLORS, COLOR_PAIRS, LINES, COLS) as shared mutable
// state; these accessors read them. All calls happen on the main actor.
static inline WINDOW *cnc_stdscr(void) { return stdscr; }
static inline int cnc_colors(void) { return COLORS; }
static inline int cnc_color_pairs(void) { return COLOR_PAIRS; }
static inline int cnc_lines(void) { return LINES; }
static inline int cnc_cols(void) { return COLS; }

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

#endif
