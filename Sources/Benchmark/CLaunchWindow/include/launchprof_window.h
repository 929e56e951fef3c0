// The X11 side of `--ready window` and `--ready frame` (docs/window.md):
// a connection to the X server that reports top-level windows being
// created, mapped, renamed and drawn into (DAMAGE), and tells whose they
// are (the X-Resource extension's client pid, else _NET_WM_PID).
//
// libxcb and its DAMAGE and X-Resource libraries are opened with dlopen on
// first use: launchprof links none of them, so it runs (and installs) on a
// machine without X; only a run that asks for a window needs them.
//
// Nothing here waits without a deadline. Opening a connection waits at
// most until the deadline it is given, and returns at once when the
// interrupt descriptor becomes readable. After that no call waits at all:
// a question about a window is a request whose answer is collected later
// (`lp_window_ask`, `lp_window_answer`), when the connection's descriptor
// is readable in the caller's poll. A frozen X server leaves questions
// unanswered; it never stops the caller.
#ifndef LAUNCHPROF_WINDOW_H
#define LAUNCHPROF_WINDOW_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct lp_window_watch lp_window_watch;

enum lp_window_event_kind {
    LP_WINDOW_NONE = 0,
    /// A window was created as a child of the root window (a top-level).
    LP_WINDOW_CREATED = 1,
    /// A watched window (or a root child) was mapped.
    LP_WINDOW_MAPPED = 2,
    /// Something was drawn into a watched window (DAMAGE).
    LP_WINDOW_DAMAGED = 3,
    /// A watched window's title changed (WM_NAME or _NET_WM_NAME).
    LP_WINDOW_RENAMED = 4,
    /// The connection to the X server broke.
    LP_WINDOW_BROKEN = 5,
    /// A top-level (or watched) window was destroyed: its id is free, and
    /// the server gives it to the next client that connects.
    LP_WINDOW_DESTROYED = 6,
};

struct lp_window_event {
    int kind;
    uint32_t window;
    /// Whether the window asked the window manager to leave it alone
    /// (menus, tooltips, splash screens of some toolkits).
    int override_redirect;
    /// CLOCK_MONOTONIC when the event was read.
    uint64_t nanoseconds;
    /// The last of this connection's requests the server had handled when
    /// it made the event: the event came before that request's reply, and
    /// after the replies of the requests before it.
    uint32_t sequence;
};

enum lp_window_open_status {
    LP_WINDOW_OPEN_OK = 0,
    /// The server refused (authorization), or libxcb is missing: retrying
    /// would not help.
    LP_WINDOW_OPEN_FAILED = 1,
    /// The deadline passed: nothing listened, or a server accepted and did
    /// not answer.
    LP_WINDOW_OPEN_TIMED_OUT = 2,
    /// The interrupt descriptor became readable.
    LP_WINDOW_OPEN_INTERRUPTED = 3,
};

/// Connects to `display` (NULL: $DISPLAY) and starts watching the root
/// window's children, waiting at most until `deadline` (CLOCK_MONOTONIC
/// nanoseconds) and no longer once `interrupt_fd` (-1: none) is readable. A
/// connection refused (no server yet, or one resetting) is tried again
/// every 20 ms until the deadline. NULL on failure, with `*status` and the
/// reason in `error`.
lp_window_watch *lp_window_open(const char *display, uint64_t deadline, int interrupt_fd, int *status, char *error,
                                size_t error_size);

/// The connection's descriptor, for poll(2).
int lp_window_fd(const lp_window_watch *watch);

/// Whether the connection broke (the server died or reset).
int lp_window_is_broken(const lp_window_watch *watch);

/// The next event already received, without waiting; kind NONE when there
/// is none.
struct lp_window_event lp_window_next(lp_window_watch *watch);

/// Starts watching `window`: its own map, title changes, and (with
/// `damage`) everything drawn into it. Sends requests and waits for none.
void lp_window_follow(lp_window_watch *watch, uint32_t window, int damage);

enum lp_window_question {
    /// The pid of the client that created the window: X-Resource's
    /// LocalClientPID, else _NET_WM_PID; 0 when neither says.
    LP_WINDOW_ASK_OWNER = 1,
    /// Whether the window is mapped: 1 yes, 0 no.
    LP_WINDOW_ASK_MAPPED = 2,
    /// The window's title (_NET_WM_NAME, else WM_NAME, at most 4 KiB): its
    /// length, copied into the answer's buffer.
    LP_WINDOW_ASK_TITLE = 3,
    /// Whether the part of the window on the screen shows one flat colour
    /// only (the server's background paint, an empty map, a blank splash):
    /// 1 yes (or nothing of it is on the screen, or it cannot be read), 0
    /// it has content.
    LP_WINDOW_ASK_BLANK = 4,
};

/// At most this many questions are unanswered at once, each with at most
/// one request in flight: a server that stops reading can never fill the
/// socket's buffer, so no write ever waits.
#define LP_WINDOW_MAX_ASKED 64

/// Asks `question` about `window`: a ticket for `lp_window_answer`, or -1
/// when LP_WINDOW_MAX_ASKED questions are unanswered already.
int lp_window_ask(lp_window_watch *watch, uint32_t window, int question);

struct lp_window_answer {
    /// 1 answered, 0 not yet, -1 the window is gone, -2 the connection
    /// broke.
    int state;
    /// What the question asked for (see lp_window_question).
    int value;
    /// For OWNER: 1 when the pid came from the X-Resource extension.
    int from_resource_extension;
    /// The request whose reply (or error) answered: the answer is what the
    /// server knew when it handled that request, after every event whose
    /// sequence is lower.
    uint32_t sequence;
};

/// The answer to `ticket` if it came, without waiting. Once the state is
/// not 0 the ticket is free again. For TITLE the text is copied into
/// `title` (NUL-terminated, cut at `title_size`).
struct lp_window_answer lp_window_answer(lp_window_watch *watch, int ticket, char *title, size_t title_size);

/// Forgets every unanswered question (a run ended): their answers are
/// dropped when they come, and their tickets are free only then, so the
/// bound on requests in flight holds across runs.
void lp_window_forget_all(lp_window_watch *watch);

/// How many questions are unanswered, and when the oldest was asked
/// (CLOCK_MONOTONIC; 0 when none).
int lp_window_unanswered(const lp_window_watch *watch, uint64_t *oldest);

/// Whether the server has the DAMAGE extension (needed for `frame`).
int lp_window_has_damage(const lp_window_watch *watch);

void lp_window_close(lp_window_watch *watch);

/// Starts `Xvfb -displayfd` on a free display number, as a child that dies
/// with this process (PR_SET_PDEATHSIG). Returns its pid and writes the
/// display number, or -1 with the reason in `error`.
pid_t lp_window_start_xvfb(const char *xvfb, int *display, char *error, size_t error_size);

#ifdef __cplusplus
}
#endif

#endif
