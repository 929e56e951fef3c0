// An independent reference for `launchprof run --ready window`: starts
// argv[1..] on $DISPLAY and prints the nanoseconds from just before the
// exec to the first MapNotify of a top-level, non-override-redirect window
// on the root (any client's: run it on a display of its own). Plain xcb,
// no X-Resource, no launchprof code; the program is killed after.
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <xcb/xcb.h>

extern char **environ;

static unsigned long long now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (unsigned long long)t.tv_sec * 1000000000ull + (unsigned long long)t.tv_nsec;
}

int main(int argc, char **argv) {
    if (argc < 2) return 2;
    xcb_connection_t *c = xcb_connect(NULL, NULL);
    if (xcb_connection_has_error(c)) return 3;
    xcb_window_t root = xcb_setup_roots_iterator(xcb_get_setup(c)).data->root;
    uint32_t mask = XCB_EVENT_MASK_SUBSTRUCTURE_NOTIFY;
    xcb_change_window_attributes(c, root, XCB_CW_EVENT_MASK, &mask);
    free(xcb_get_input_focus_reply(c, xcb_get_input_focus(c), NULL));  // the mask is in effect
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
    pid_t child;
    unsigned long long start = now();
    if (posix_spawnp(&child, argv[1], NULL, &attributes, argv + 1, environ) != 0) return 4;
    xcb_generic_event_t *event;
    unsigned long long mapped = 0;
    while (!mapped && (event = xcb_wait_for_event(c)) != NULL) {
        if ((event->response_type & 0x7f) == XCB_MAP_NOTIFY && !((xcb_map_notify_event_t *)event)->override_redirect) mapped = now();
        free(event);
    }
    kill(-child, SIGTERM);
    waitpid(child, NULL, 0);
    if (!mapped) return 5;
    printf("%llu\n", mapped - start);
    return 0;
}
