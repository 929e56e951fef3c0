// launchprof_window.h: top-level windows seen through libxcb, opened with
// dlopen. C because xcb's replies, iterators and event structures are
// macros and unions Swift reads badly, and because the libraries must be
// loaded only when a run asks for a window.
#define _GNU_SOURCE
#include "launchprof_window.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <xcb/damage.h>
#include <xcb/res.h>
#include <xcb/xcb.h>

// The functions launchprof calls, resolved from the libraries at run time.
#define LP_XCB_FUNCTIONS(X)                                                                                            \
    X(xcb_connect) X(xcb_connection_has_error) X(xcb_disconnect) X(xcb_get_setup) X(xcb_setup_roots_iterator)         \
    X(xcb_change_window_attributes) X(xcb_get_file_descriptor) X(xcb_poll_for_event) X(xcb_flush)                    \
    X(xcb_intern_atom) X(xcb_intern_atom_reply) X(xcb_get_property) X(xcb_get_property_reply)                        \
    X(xcb_get_property_value) X(xcb_get_property_value_length) X(xcb_get_window_attributes)                          \
    X(xcb_get_window_attributes_reply) X(xcb_get_extension_data) X(xcb_generate_id) X(xcb_get_geometry)              \
    X(xcb_get_geometry_reply) X(xcb_get_image) X(xcb_get_image_reply) X(xcb_get_image_data)                           \
    X(xcb_get_image_data_length)
#define LP_DAMAGE_FUNCTIONS(X) X(xcb_damage_query_version) X(xcb_damage_query_version_reply) X(xcb_damage_create)
#define LP_RES_FUNCTIONS(X)                                                                                            \
    X(xcb_res_query_client_ids) X(xcb_res_query_client_ids_reply) X(xcb_res_query_client_ids_ids_iterator)           \
    X(xcb_res_client_id_value_value) X(xcb_res_client_id_value_next)

#define LP_DECLARE(name) __typeof__(&name) name;
struct lp_xcb {
    LP_XCB_FUNCTIONS(LP_DECLARE)
    LP_DAMAGE_FUNCTIONS(LP_DECLARE)
    LP_RES_FUNCTIONS(LP_DECLARE)
    xcb_extension_t *damage_id;
    xcb_extension_t *res_id;
    int has_damage, has_res;
};

struct lp_window_watch {
    struct lp_xcb x;
    xcb_connection_t *connection;
    xcb_window_t root;
    uint8_t damage_event;
    int damage_ready;
    xcb_atom_t net_wm_pid, net_wm_name, wm_name, utf8_string;
};

static uint64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/// Resolves every function of one library; 0 when all are there.
#define LP_RESOLVE(name)                                                                                               \
    if ((x->name = (__typeof__(&name))dlsym(handle, #name)) == NULL) return -1;
static int load_core(struct lp_xcb *x, void *handle) {
    LP_XCB_FUNCTIONS(LP_RESOLVE)
    return 0;
}
static int load_damage(struct lp_xcb *x, void *handle) {
    LP_DAMAGE_FUNCTIONS(LP_RESOLVE)
    x->damage_id = dlsym(handle, "xcb_damage_id");
    return x->damage_id ? 0 : -1;
}
static int load_res(struct lp_xcb *x, void *handle) {
    LP_RES_FUNCTIONS(LP_RESOLVE)
    x->res_id = dlsym(handle, "xcb_res_id");
    return x->res_id ? 0 : -1;
}

static xcb_atom_t atom(struct lp_window_watch *w, const char *name) {
    xcb_intern_atom_reply_t *reply =
        w->x.xcb_intern_atom_reply(w->connection, w->x.xcb_intern_atom(w->connection, 0, (uint16_t)strlen(name), name), NULL);
    xcb_atom_t result = reply ? reply->atom : XCB_ATOM_NONE;
    free(reply);
    return result;
}

lp_window_watch *lp_window_open(const char *display, char *error, size_t error_size) {
    void *core = dlopen("libxcb.so.1", RTLD_NOW | RTLD_LOCAL);
    if (core == NULL) {
        snprintf(error, error_size, "cannot load libxcb.so.1 (install libxcb1): %s", dlerror());
        return NULL;
    }
    lp_window_watch *w = calloc(1, sizeof *w);
    if (w == NULL || load_core(&w->x, core) != 0) {
        snprintf(error, error_size, "libxcb.so.1 lacks a function launchprof needs");
        free(w);
        return NULL;
    }
    void *damage = dlopen("libxcb-damage.so.0", RTLD_NOW | RTLD_LOCAL);
    w->x.has_damage = damage != NULL && load_damage(&w->x, damage) == 0;
    void *res = dlopen("libxcb-res.so.0", RTLD_NOW | RTLD_LOCAL);
    w->x.has_res = res != NULL && load_res(&w->x, res) == 0;

    int screen_number = 0;
    w->connection = w->x.xcb_connect(display, &screen_number);
    if (w->x.xcb_connection_has_error(w->connection)) {
        const char *name = display ? display : getenv("DISPLAY");
        snprintf(error, error_size, "cannot connect to the X display '%s'%s", name ? name : "",
                 name ? "" : " ($DISPLAY is not set: use --display virtual, or run under an X session)");
        w->x.xcb_disconnect(w->connection);
        free(w);
        return NULL;
    }
    xcb_screen_iterator_t screens = w->x.xcb_setup_roots_iterator(w->x.xcb_get_setup(w->connection));
    for (int i = 0; i < screen_number && screens.rem > 0; i++) {
        screens.data++;
        screens.rem--;
    }
    w->root = screens.data->root;
    uint32_t mask = XCB_EVENT_MASK_SUBSTRUCTURE_NOTIFY;
    w->x.xcb_change_window_attributes(w->connection, w->root, XCB_CW_EVENT_MASK, &mask);
    if (w->x.has_damage) {
        const xcb_query_extension_reply_t *extension = w->x.xcb_get_extension_data(w->connection, w->x.damage_id);
        if (extension && extension->present) {
            // The version must be asked before DAMAGE may be used.
            free(w->x.xcb_damage_query_version_reply(
                w->connection, w->x.xcb_damage_query_version(w->connection, XCB_DAMAGE_MAJOR_VERSION, XCB_DAMAGE_MINOR_VERSION),
                NULL));
            w->damage_event = extension->first_event + XCB_DAMAGE_NOTIFY;
            w->damage_ready = 1;
        }
    }
    if (w->x.has_res) {
        const xcb_query_extension_reply_t *extension = w->x.xcb_get_extension_data(w->connection, w->x.res_id);
        w->x.has_res = extension && extension->present;
    }
    w->net_wm_pid = atom(w, "_NET_WM_PID");
    w->net_wm_name = atom(w, "_NET_WM_NAME");
    w->wm_name = XCB_ATOM_WM_NAME;
    w->utf8_string = atom(w, "UTF8_STRING");
    w->x.xcb_flush(w->connection);
    return w;
}

int lp_window_fd(const lp_window_watch *w) { return w->x.xcb_get_file_descriptor(w->connection); }

int lp_window_has_damage(const lp_window_watch *w) { return w->damage_ready; }

struct lp_window_event lp_window_next(lp_window_watch *w) {
    struct lp_window_event result = {LP_WINDOW_NONE, 0, 0, 0};
    for (;;) {
        xcb_generic_event_t *event = w->x.xcb_poll_for_event(w->connection);
        if (event == NULL) {
            if (w->x.xcb_connection_has_error(w->connection)) result.kind = LP_WINDOW_BROKEN;
            return result;
        }
        result.nanoseconds = now_ns();
        uint8_t type = event->response_type & 0x7f;
        if (type == XCB_CREATE_NOTIFY) {
            xcb_create_notify_event_t *created = (xcb_create_notify_event_t *)event;
            if (created->parent == w->root) {
                result.kind = LP_WINDOW_CREATED;
                result.window = created->window;
                result.override_redirect = created->override_redirect;
            }
        } else if (type == XCB_MAP_NOTIFY) {
            xcb_map_notify_event_t *mapped = (xcb_map_notify_event_t *)event;
            result.kind = LP_WINDOW_MAPPED;
            result.window = mapped->window;
            result.override_redirect = mapped->override_redirect;
        } else if (type == XCB_PROPERTY_NOTIFY) {
            xcb_property_notify_event_t *property = (xcb_property_notify_event_t *)event;
            if (property->atom == w->net_wm_name || property->atom == w->wm_name) {
                result.kind = LP_WINDOW_RENAMED;
                result.window = property->window;
            }
        } else if (w->damage_ready && type == w->damage_event) {
            xcb_damage_notify_event_t *damaged = (xcb_damage_notify_event_t *)event;
            result.kind = LP_WINDOW_DAMAGED;
            result.window = damaged->drawable;
        }
        free(event);
        if (result.kind != LP_WINDOW_NONE) return result;
    }
}

int lp_window_follow(lp_window_watch *w, uint32_t window, int damage) {
    uint32_t mask = XCB_EVENT_MASK_STRUCTURE_NOTIFY | XCB_EVENT_MASK_PROPERTY_CHANGE;
    w->x.xcb_change_window_attributes(w->connection, window, XCB_CW_EVENT_MASK, &mask);
    if (damage && w->damage_ready) {
        // Every rectangle drawn is reported, not only the first: the
        // server's own background paint at map time is not the program's
        // first frame, so the caller may need the next one.
        xcb_damage_damage_t id = w->x.xcb_generate_id(w->connection);
        w->x.xcb_damage_create(w->connection, id, window, XCB_DAMAGE_REPORT_LEVEL_RAW_RECTANGLES);
    }
    w->x.xcb_flush(w->connection);
    return lp_window_is_mapped(w, window) < 0 ? -1 : 0;
}

int lp_window_is_mapped(lp_window_watch *w, uint32_t window) {
    xcb_get_window_attributes_reply_t *reply =
        w->x.xcb_get_window_attributes_reply(w->connection, w->x.xcb_get_window_attributes(w->connection, window), NULL);
    if (reply == NULL) return -1;
    int mapped = reply->map_state != XCB_MAP_STATE_UNMAPPED;
    free(reply);
    return mapped;
}

static xcb_get_property_reply_t *property(lp_window_watch *w, uint32_t window, xcb_atom_t name, xcb_atom_t type,
                                          uint32_t words) {
    return w->x.xcb_get_property_reply(w->connection, w->x.xcb_get_property(w->connection, 0, window, name, type, 0, words),
                                       NULL);
}

pid_t lp_window_pid(lp_window_watch *w, uint32_t window, int *from_resource_extension) {
    *from_resource_extension = 0;
    if (w->x.has_res) {
        xcb_res_client_id_spec_t spec = {.client = window, .mask = XCB_RES_CLIENT_ID_MASK_LOCAL_CLIENT_PID};
        xcb_res_query_client_ids_reply_t *reply = w->x.xcb_res_query_client_ids_reply(
            w->connection, w->x.xcb_res_query_client_ids(w->connection, 1, &spec), NULL);
        pid_t pid = 0;
        if (reply != NULL) {
            xcb_res_client_id_value_iterator_t ids = w->x.xcb_res_query_client_ids_ids_iterator(reply);
            for (; ids.rem > 0; w->x.xcb_res_client_id_value_next(&ids)) {
                if ((ids.data->spec.mask & XCB_RES_CLIENT_ID_MASK_LOCAL_CLIENT_PID) && ids.data->length == 4) {
                    pid = (pid_t)*w->x.xcb_res_client_id_value_value(ids.data);
                    break;
                }
            }
            free(reply);
        }
        if (pid > 0) {
            *from_resource_extension = 1;
            return pid;
        }
    }
    xcb_get_property_reply_t *reply = property(w, window, w->net_wm_pid, XCB_ATOM_CARDINAL, 1);
    pid_t pid = 0;
    if (reply != NULL && w->x.xcb_get_property_value_length(reply) == 4) pid = *(uint32_t *)w->x.xcb_get_property_value(reply);
    free(reply);
    return pid;
}

int lp_window_title(lp_window_watch *w, uint32_t window, char *buffer, size_t size) {
    if (size == 0) return -1;
    buffer[0] = 0;
    xcb_get_property_reply_t *reply = property(w, window, w->net_wm_name, w->utf8_string, 1024);
    if (reply == NULL) return -1;
    if (w->x.xcb_get_property_value_length(reply) <= 0) {
        free(reply);
        reply = property(w, window, w->wm_name, XCB_ATOM_ANY, 1024);
        if (reply == NULL) return -1;
    }
    int length = w->x.xcb_get_property_value_length(reply);
    if (length < 0) length = 0;
    if ((size_t)length >= size) length = (int)size - 1;
    memcpy(buffer, w->x.xcb_get_property_value(reply), (size_t)length);
    buffer[length] = 0;
    free(reply);
    return length;
}

int lp_window_is_blank(lp_window_watch *w, uint32_t window) {
    xcb_get_geometry_reply_t *geometry =
        w->x.xcb_get_geometry_reply(w->connection, w->x.xcb_get_geometry(w->connection, window), NULL);
    if (geometry == NULL) return -1;
    // Bounded: a huge window is judged by its top-left 4096x4096 pixels.
    uint16_t width = geometry->width > 4096 ? 4096 : geometry->width;
    uint16_t height = geometry->height > 4096 ? 4096 : geometry->height;
    free(geometry);
    if (width == 0 || height == 0) return 1;
    xcb_get_image_reply_t *image = w->x.xcb_get_image_reply(
        w->connection, w->x.xcb_get_image(w->connection, XCB_IMAGE_FORMAT_Z_PIXMAP, window, 0, 0, width, height, ~0u), NULL);
    if (image == NULL) return -1;
    const uint8_t *data = w->x.xcb_get_image_data(image);
    int length = w->x.xcb_get_image_data_length(image);
    // Bits per pixel from the length (ZPixmap rows are padded to 32 bits):
    // compare pixel by pixel for 32 bpp, else byte by byte (a flat colour
    // repeats its bytes at the pixel's period either way).
    int stride = (length > 0 && length / height >= width * 4) ? 4 : 1;
    int blank = 1;
    for (int i = stride; i + stride <= length; i += stride) {
        if (memcmp(data + i, data, (size_t)stride) != 0) {
            blank = 0;
            break;
        }
    }
    free(image);
    return blank;
}

void lp_window_close(lp_window_watch *w) {
    if (w == NULL) return;
    w->x.xcb_disconnect(w->connection);
    free(w);
}

/// What the thread that owns Xvfb needs: the program and the pipe end
/// Xvfb writes its display number to; it reports the pid back.
struct xvfb_start {
    const char *xvfb;
    int write_end;
    pid_t pid;
    int started[2];
};

/// The thread that starts Xvfb and waits for it. PR_SET_PDEATHSIG fires
/// when the *thread* that forked the child ends, so the fork happens on a
/// thread that lives exactly as long as Xvfb does: Xvfb dies with launchprof
/// (whatever ends it), never because a worker thread came and went.
static void *xvfb_thread(void *argument) {
    struct xvfb_start *start = argument;
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid == 0) {
        // Async-signal-safe calls only. The thread that forked had
        // launchprof's signal mask (Dispatch blocks most signals in its
        // threads) and its ignored signals (SIGPIPE): both are inherited
        // across exec, and a blocked SIGTERM would keep Xvfb alive forever.
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        for (int number = 1; number < NSIG; number++) signal(number, SIG_DFL);
        prctl(PR_SET_PDEATHSIG, SIGTERM);
        if (getppid() != parent) _exit(1);
        setpgid(0, 0);
        int null = open("/dev/null", O_RDWR);
        if (null >= 0) {
            dup2(null, 0);
            dup2(null, 1);
            dup2(null, 2);
        }
        // -displayfd: Xvfb picks a free display and writes its number
        // (once: -noreset, or a server reset would write it again into a
        // closed pipe and die of SIGPIPE when the last client leaves).
        if (dup2(start->write_end, 3) < 0) _exit(126);
        // Nothing else of launchprof's (or its caller's) descriptors.
        for (int fd = 4; fd < 1024; fd++) close(fd);
        char *arguments[] = {(char *)start->xvfb, "-displayfd", "3", "-screen", "0", "1280x800x24", "-nolisten", "tcp", "-noreset", NULL};
        execvp(start->xvfb, arguments);
        _exit(127);
    }
    start->pid = pid;
    int started = start->started[1];
    (void)!write(started, "x", 1);
    close(started);
    if (pid > 0) {
        int status;
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
    }
    return NULL;
}

pid_t lp_window_start_xvfb(const char *xvfb, int *display, char *error, size_t error_size) {
    int ends[2];
    static struct xvfb_start start;
    if (pipe2(ends, O_CLOEXEC) != 0 || pipe2(start.started, O_CLOEXEC) != 0) {
        snprintf(error, error_size, "pipe2: %s", strerror(errno));
        return -1;
    }
    start.xvfb = xvfb;
    start.write_end = ends[1];
    start.pid = -1;
    pthread_t thread;
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
    int created = pthread_create(&thread, &attributes, xvfb_thread, &start);
    pthread_attr_destroy(&attributes);
    if (created != 0) {
        snprintf(error, error_size, "pthread_create: %s", strerror(created));
        close(ends[0]);
        close(ends[1]);
        return -1;
    }
    char byte;
    while (read(start.started[0], &byte, 1) < 0 && errno == EINTR) {
    }
    close(start.started[0]);
    close(ends[1]);
    pid_t pid = start.pid;
    if (pid < 0) {
        snprintf(error, error_size, "fork: cannot start %s", xvfb);
        close(ends[0]);
        return -1;
    }
    char text[32] = {0};
    size_t have = 0;
    struct pollfd wait = {ends[0], POLLIN, 0};
    while (have < sizeof text - 1 && poll(&wait, 1, 10000) > 0) {
        ssize_t n = read(ends[0], text + have, sizeof text - 1 - have);
        if (n <= 0) break;
        have += (size_t)n;
        if (memchr(text, '\n', have)) break;
    }
    close(ends[0]);
    if (have == 0 || !memchr(text, '\n', have)) {
        kill(pid, SIGKILL);
        snprintf(error, error_size, "%s did not start (is it installed? apt-get install xvfb)", xvfb);
        return -1;
    }
    *display = atoi(text);
    return pid;
}
