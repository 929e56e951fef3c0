// The X11 side of `--ready window` and `--ready frame` (docs/window.md):
// a connection to the X server that reports top-level windows being
// created, mapped, renamed and drawn into (DAMAGE), and tells whose they
// are (the X-Resource extension's client pid, else _NET_WM_PID).
//
// libxcb and its DAMAGE and X-Resource libraries are opened with dlopen on
// first use: launchprof links none of them, so it runs (and installs) on a
// machine without X; only a run that asks for a window needs them.
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
};

struct lp_window_event {
    int kind;
    uint32_t window;
    /// Whether the window asked the window manager to leave it alone
    /// (menus, tooltips, splash screens of some toolkits).
    int override_redirect;
    /// CLOCK_MONOTONIC when the event was read.
    uint64_t nanoseconds;
};

/// Connects to `display` (NULL: $DISPLAY) and starts watching the root
/// window's children. NULL on failure, with the reason in `error`.
lp_window_watch *lp_window_open(const char *display, char *error, size_t error_size);

/// The connection's descriptor, for poll(2).
int lp_window_fd(const lp_window_watch *watch);

/// The next event already received, without waiting; kind NONE when there
/// is none.
struct lp_window_event lp_window_next(lp_window_watch *watch);

/// Starts watching `window`: its own map, title changes, and (with
/// `damage`) everything drawn into it. Returns 0, -1 when the window is gone.
int lp_window_follow(lp_window_watch *watch, uint32_t window, int damage);

/// The pid of the client that created `window` (X-Resource extension,
/// local clients), else its _NET_WM_PID; 0 when neither says.
pid_t lp_window_pid(lp_window_watch *watch, uint32_t window, int *from_resource_extension);

/// Whether `window` is mapped now: 1 yes, 0 no, -1 gone.
int lp_window_is_mapped(lp_window_watch *watch, uint32_t window);

/// The window's title (_NET_WM_NAME, else WM_NAME) into `buffer`,
/// NUL-terminated and cut at `size`; its length, 0 when it has none, -1
/// when the window is gone.
int lp_window_title(lp_window_watch *watch, uint32_t window, char *buffer, size_t size);

/// Whether `window` shows one flat colour only (the server's background
/// paint, an empty map, a blank splash): 1 yes, 0 it has content, -1 gone.
int lp_window_is_blank(lp_window_watch *watch, uint32_t window);

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
