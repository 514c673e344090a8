#ifndef THUMBTABLE_CNCURSESW_PROCESS_H
#define THUMBTABLE_CNCURSESW_PROCESS_H

// What the terminal code does to the whole process, beside curses' screen (shim.h): the emergency restore, signals
// as events, the quit watch, and stopping for Ctrl-Z. Read by CursesProcess.swift.

#include "shim.h"

// Emergency restore for signals that end the process before Swift code can run: a crash must not leave the
// terminal raw and in the alternate screen. Only async-signal-safe calls (write, tcsetattr) on state saved before
// curses started. The state lives in a function-local static: Swift emits inline functions from a header, but not
// a header's global variables. `active` says whether curses holds the terminal now (not before, not after, not
// while the process is suspended), so an exit at another time writes nothing.
struct cnc_restore_state {
    int input;
    int output;
    struct termios termios;
    int termios_valid;
    char reset[256];
    size_t reset_length;
    volatile sig_atomic_t active;
};

static inline struct cnc_restore_state *cnc_restore_state(void) {
    static struct cnc_restore_state state;
    return &state;
}

// `input` and `output`: the terminal's descriptors (stdin and stdout, or the controlling terminal's).
static inline void cnc_save_terminal_state(int input, int output, const char *reset, size_t length) {
    struct cnc_restore_state *state = cnc_restore_state();
    state->input = input;
    state->output = output;
    if (tcgetattr(input, &state->termios) == 0) state->termios_valid = 1;
    if (length > sizeof state->reset) length = sizeof state->reset;
    memcpy(state->reset, reset, length);
    state->reset_length = length;
}

static inline void cnc_set_terminal_active(int active) { cnc_restore_state()->active = active; }

static inline void cnc_emergency_restore(void) {
    struct cnc_restore_state *state = cnc_restore_state();
    if (!state->active) return;
    state->active = 0;
    if (state->reset_length > 0) { ssize_t n = write(state->output, state->reset, state->reset_length); (void)n; }
    if (state->termios_valid) tcsetattr(state->input, TCSANOW, &state->termios);
}

static void cnc_fatal_signal_handler(int sig) {
    cnc_emergency_restore();
    signal(sig, SIG_DFL);
    raise(sig);
}

static void cnc_restore_at_exit(void) { cnc_emergency_restore(); }

// Every signal whose default action ends the process gets the emergency restore: crashes and traps for good, the
// others (SIGTERM, SIGUSR1, the real-time signals...) until the app turns them into events of its loop. An exit()
// from anywhere while curses holds the terminal restores it too.
static inline void cnc_install_fatal_signal_handlers(void) {
    int signals[] = {
        SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGSYS,
        SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGXCPU, SIGXFSZ,
        SIGPOLL,
#ifdef SIGPWR
        SIGPWR,
#endif
#ifdef SIGSTKFLT
        SIGSTKFLT,
#endif
    };
    for (unsigned i = 0; i < sizeof signals / sizeof signals[0]; i++) signal(signals[i], cnc_fatal_signal_handler);
    for (int sig = SIGRTMIN; sig <= SIGRTMAX; sig++) signal(sig, cnc_fatal_signal_handler);
    static int registered = 0;
    if (!registered) { registered = 1; atexit(cnc_restore_at_exit); }
}

// Signals as events, and quitting that does not depend on the main queue.
//
// The handler only writes the signal's number to two pipes: one read by the app's loop on the main queue, one by
// the quit watch, a thread of its own outside libdispatch's pools. The main queue is drained by a pool thread; when
// tasks block every pool thread (a FIFO opened for reading), the loop never runs, and neither keys nor signals
// would end the program. The quit watch notices: a signal that ends the process, or a q or Ctrl-C typed, that the
// loop has not taken within half a second (for a key: and not within three more seconds of being handed back) ends
// the process itself, after the emergency restore.
//
// To see a q the watch must read the keys, and a tty cannot be peeked at: every other byte it reads is held (in
// order, under a lock) and handed back to the loop, which puts it before what it reads next (`cnc_return_held_input`),
// so no key is ever lost: a loop merely slow for half a second (a loaded machine) gets all its keys, in order. The
// watch wakes the loop with a 0 on its pipe (no signal has the number 0).
struct cnc_quit_watch {
    int loop_pipe[2];
    int watch_pipe[2];
    volatile sig_atomic_t input_beats;
    volatile sig_atomic_t done;
    volatile sig_atomic_t q_quits;
    // The terminal's input: stdin, or the controlling terminal's descriptor.
    volatile sig_atomic_t input;
    pthread_t thread;
    int started;
};

static inline struct cnc_quit_watch *cnc_quit_watch(void) {
    static struct cnc_quit_watch watch = { { -1, -1 }, { -1, -1 }, 0, 0, 1, STDIN_FILENO, 0, 0 };
    return &watch;
}

// The bytes the watch read and the loop has not yet taken back. ncurses' own input queue, where they go back,
// holds fewer than 140 (FIFO_SIZE), so the watch holds at most 128 and reads no more while they wait.
enum { CNC_HELD_MAX = 128 };
struct cnc_held_input {
    pthread_mutex_t lock;
    unsigned char bytes[CNC_HELD_MAX];
    int count;
};

static inline struct cnc_held_input *cnc_held_input(void) {
    static struct cnc_held_input held = { PTHREAD_MUTEX_INITIALIZER, { 0 }, 0 };
    return &held;
}

// Puts the bytes the watch held back before the terminal's next input (ncurses' ungetch, last byte first), so the
// loop reads them, keys and escape sequences alike, as if it had read them itself. Returns how many.
static inline int cnc_return_held_input(void) {
    struct cnc_held_input *held = cnc_held_input();
    pthread_mutex_lock(&held->lock);
    int count = held->count;
    for (int i = count - 1; i >= 0; i--) ungetch(held->bytes[i]);
    held->count = 0;
    pthread_mutex_unlock(&held->lock);
    return count;
}

static void cnc_signal_event_handler(int sig) {
    int saved = errno;
    struct cnc_quit_watch *watch = cnc_quit_watch();
    unsigned char byte = (unsigned char)sig;
    ssize_t n = write(watch->loop_pipe[1], &byte, 1);
    n = write(watch->watch_pipe[1], &byte, 1);
    (void)n;
    errno = saved;
}

static inline void cnc_sleep_ms(long ms) {
    struct timespec t = { ms / 1000, (ms % 1000) * 1000000L }, rest;
    while (nanosleep(&t, &rest) != 0 && errno == EINTR) t = rest;
}

// Ends the process if the loop has not ended it by now.
static inline void cnc_quit_unless_done(int status) {
    if (cnc_quit_watch()->done) return;
    cnc_emergency_restore();
    _exit(status);
}

static void *cnc_quit_watch_thread(void *unused) {
    (void)unused;
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, NULL);
    // Named, so that ps, a debugger and the tests (which watch what it reads) can tell it apart.
    prctl(PR_SET_NAME, "quit watch", 0, 0, 0);
    struct cnc_quit_watch *watch = cnc_quit_watch();
    for (;;) {
        int input_fd = watch->input;
        struct pollfd fds[2] = { { input_fd, POLLIN, 0 }, { watch->watch_pipe[0], POLLIN, 0 } };
        if (poll(fds, 2, -1) < 0) continue;
        if (watch->done) return NULL;
        if (fds[1].revents & POLLIN) {
            unsigned char sig;
            if (read(watch->watch_pipe[0], &sig, 1) == 1 && sig != SIGTSTP && sig != SIGCONT) {
                cnc_sleep_ms(500);
                cnc_quit_unless_done(128 + sig);
            }
        }
        if (fds[0].revents & (POLLIN | POLLHUP)) {
            // Keys waiting: the loop reads them at once when it runs. Look at them only if it has not for 500 ms.
            sig_atomic_t beats = watch->input_beats;
            cnc_sleep_ms(500);
            struct pollfd input = { input_fd, POLLIN, 0 };
            if (watch->done || watch->input_beats != beats || poll(&input, 1, 0) != 1) continue;
            struct cnc_held_input *held = cnc_held_input();
            pthread_mutex_lock(&held->lock);
            ssize_t n = 0;
            int room = CNC_HELD_MAX - held->count;
            if (room > 0) {
                int flags = fcntl(input_fd, F_GETFL);
                fcntl(input_fd, F_SETFL, flags | O_NONBLOCK);
                n = read(input_fd, held->bytes + held->count, (size_t)room);
                fcntl(input_fd, F_SETFL, flags);
            }
            int quit = -1;
            for (ssize_t i = 0; i < n; i++) {
                unsigned char key = held->bytes[held->count + i];
                if (key == 'q' && watch->q_quits && quit < 0) quit = 0;
                if (key == 3 && quit < 0) quit = 130;
            }
            if (n > 0) held->count += (int)n;
            sig_atomic_t taken = watch->input_beats;
            pthread_mutex_unlock(&held->lock);
            if (n > 0) {
                unsigned char wake = 0;
                ssize_t w = write(watch->loop_pipe[1], &wake, 1);
                (void)w;
            }
            if (quit >= 0) {
                // A loop that is only slow (a loaded machine) takes the q back within seconds and quits as usual,
                // writing what it writes at the end; only one that does not is stuck, and is ended here.
                for (int waited = 0; waited < 3000 && !watch->done && watch->input_beats == taken; waited += 50) {
                    cnc_sleep_ms(50);
                }
                if (!watch->done && watch->input_beats == taken) cnc_quit_unless_done(quit);
            } else if (n <= 0 && room <= 0) {
                // Full: wait for the loop to take the held bytes back rather than spin on the readable terminal.
                cnc_sleep_ms(100);
            }
        }
    }
}

// Routes `signals` to the loop's pipe (its read end: the return value) and starts the quit watch on the terminal's
// input `input`; -1 on failure.
static inline int cnc_start_signal_events(const int *signals, int count, int input) {
    struct cnc_quit_watch *watch = cnc_quit_watch();
    watch->input = input;
    if (!watch->started) {
        if (pipe2(watch->loop_pipe, O_CLOEXEC | O_NONBLOCK) != 0) return -1;
        if (pipe2(watch->watch_pipe, O_CLOEXEC | O_NONBLOCK) != 0) return -1;
        if (pthread_create(&watch->thread, NULL, cnc_quit_watch_thread, NULL) != 0) return -1;
        pthread_detach(watch->thread);
        watch->started = 1;
    }
    watch->done = 0;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = cnc_signal_event_handler;
    action.sa_flags = SA_RESTART;
    sigemptyset(&action.sa_mask);
    for (int i = 0; i < count; i++) sigaction(signals[i], &action, NULL);
    return watch->loop_pipe[0];
}

// The loop read its keys: the quit watch leaves them alone.
static inline void cnc_input_beat(void) { cnc_quit_watch()->input_beats++; }

// Whether q quits where the user is (not in a pane, where it goes back, nor in the filter, where it is typed).
static inline void cnc_set_q_quits(int quits) { cnc_quit_watch()->q_quits = quits; }

// The loop has ended and given the terminal back: the quit watch stands down.
static inline void cnc_quit_watch_done(void) { cnc_quit_watch()->done = 1; }

// Stops the process as SIGTSTP's default action would (Ctrl-Z), returning once it is continued (SIGCONT). The
// app's own SIGTSTP handling is set aside meanwhile, and the signal is sent to this thread alone, unblocked here,
// so no other thread or signal descriptor takes it. In an orphaned process group (no shell to continue it) the
// kernel discards the signal and this returns at once.
static inline void cnc_stop_process(void) {
    struct sigaction stop, previous;
    memset(&stop, 0, sizeof stop);
    stop.sa_handler = SIG_DFL;
    sigemptyset(&stop.sa_mask);
    sigaction(SIGTSTP, &stop, &previous);
    sigset_t tstp, mask;
    sigemptyset(&tstp);
    sigaddset(&tstp, SIGTSTP);
    raise(SIGTSTP);
    pthread_sigmask(SIG_UNBLOCK, &tstp, &mask);
    pthread_sigmask(SIG_SETMASK, &mask, NULL);
    sigaction(SIGTSTP, &previous, NULL);
}

#endif
