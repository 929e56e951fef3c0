// launchprof_window.h: top-level windows seen through libxcb, opened with
// dlopen. C because xcb's replies, iterators and event structures are
// macros and unions Swift reads badly, and because the libraries must be
// loaded only when a run asks for a window.
//
// No call here waits for the server without a deadline. libxcb's own
// connect (xcb_connect) and its reply functions (xcb_*_reply,
// xcb_get_extension_data) wait forever for a server that accepted and
// froze; they are not used. The socket is connected here, non-blocking;
// the handshake runs on a thread of its own over that socket, and a
// deadline or an interrupt ends it by shutting the socket down. Every
// later request is collected with xcb_poll_for_reply, which never waits.
#define _GNU_SOURCE
#include "launchprof_window.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <xcb/damage.h>
#include <xcb/res.h>
#include <xcb/xcb.h>
#include <xcb/xcbext.h>

// The functions launchprof calls, resolved from the libraries at run time.
#define LP_XCB_FUNCTIONS(X)                                                                                            \
    X(xcb_connect_to_fd) X(xcb_parse_display) X(xcb_connection_has_error) X(xcb_disconnect) X(xcb_get_setup)          \
    X(xcb_setup_roots_iterator) X(xcb_change_window_attributes) X(xcb_get_file_descriptor) X(xcb_poll_for_event)      \
    X(xcb_flush) X(xcb_poll_for_reply) X(xcb_discard_reply) X(xcb_prefetch_extension_data) X(xcb_intern_atom)        \
    X(xcb_get_property) X(xcb_get_property_value) X(xcb_get_property_value_length) X(xcb_get_window_attributes)      \
    X(xcb_get_extension_data) X(xcb_generate_id) X(xcb_get_geometry) X(xcb_translate_coordinates) X(xcb_get_image)   \
    X(xcb_get_image_data) X(xcb_get_image_data_length) X(xcb_get_input_focus)
#define LP_DAMAGE_FUNCTIONS(X) X(xcb_damage_query_version) X(xcb_damage_create)
#define LP_RES_FUNCTIONS(X)                                                                                            \
    X(xcb_res_query_client_ids) X(xcb_res_query_client_ids_ids_iterator) X(xcb_res_client_id_value_value)           \
    X(xcb_res_client_id_value_next)

/// libXau's entry (X11/Xauth.h), declared here so that no libXau header is
/// needed to build: the authorization cookie xcb_connect would have read.
typedef struct {
    unsigned short family;
    unsigned short address_length;
    char *address;
    unsigned short number_length;
    char *number;
    unsigned short name_length;
    char *name;
    unsigned short data_length;
    char *data;
} lp_xauth;
typedef lp_xauth *(*lp_xau_best)(unsigned short family, unsigned short address_length, const char *address,
                                 unsigned short number_length, const char *number, int types_length, char **types,
                                 const int *type_lengths);
typedef void (*lp_xau_dispose)(lp_xauth *auth);

#define LP_DECLARE(name) __typeof__(&name) name;
struct lp_xcb {
    LP_XCB_FUNCTIONS(LP_DECLARE)
    LP_DAMAGE_FUNCTIONS(LP_DECLARE)
    LP_RES_FUNCTIONS(LP_DECLARE)
    xcb_extension_t *damage_id;
    xcb_extension_t *res_id;
    int has_damage, has_res;
    lp_xau_best xau_best;
    lp_xau_dispose xau_dispose;
};

/// One unanswered question: which, about what, the request in flight and
/// what the earlier requests of the same question said.
struct lp_ticket {
    int used;
    /// Forgotten by the run that asked: dropped when its answer comes.
    int orphan;
    int question;
    uint32_t window;
    int stage;
    unsigned int sequence;
    uint64_t asked_at;
    int16_t x, y;
    uint16_t width, height;
};

struct lp_window_watch {
    struct lp_xcb x;
    xcb_connection_t *connection;
    xcb_window_t root;
    uint16_t screen_width, screen_height;
    uint8_t damage_event;
    int damage_ready;
    xcb_atom_t net_wm_pid, net_wm_name, wm_name, utf8_string;
    struct lp_ticket tickets[LP_WINDOW_MAX_ASKED];
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

// MARK: - Waiting with a deadline

/// Waits until `fd` has `events`, the deadline passes or `interrupt_fd` is
/// readable: 1, 0 or -1.
static int wait_for(int fd, short events, uint64_t deadline, int interrupt_fd) {
    for (;;) {
        uint64_t now = now_ns();
        if (now >= deadline) return 0;
        uint64_t left = (deadline - now + 999999) / 1000000;
        struct pollfd fds[2] = {{fd, events, 0}, {interrupt_fd, POLLIN, 0}};
        int ready = poll(fds, interrupt_fd >= 0 ? 2 : 1, left > 1000 ? 1000 : (int)left);
        if (ready < 0 && errno != EINTR) return 0;
        if (ready <= 0) continue;
        if (interrupt_fd >= 0 && fds[1].revents) return -1;
        if (fds[0].revents) return 1;
    }
}

/// Sleeps 20 ms, or less before the deadline or an interrupt: -1 interrupted.
static int pause_before_retry(uint64_t deadline, int interrupt_fd) {
    uint64_t until = now_ns() + 20000000u;
    if (until > deadline) until = deadline;
    struct pollfd fd = {interrupt_fd, POLLIN, 0};
    for (;;) {
        uint64_t now = now_ns();
        if (now >= until) return 0;
        int ready = poll(&fd, interrupt_fd >= 0 ? 1 : 0, (int)((until - now + 999999) / 1000000));
        if (ready > 0) return -1;
    }
}

// MARK: - Connecting

/// Where a display's server listens, and the authorization that goes with it.
struct lp_address {
    struct sockaddr_storage address;
    socklen_t length;
    unsigned short auth_family;
    char auth_address[256];
    unsigned short auth_address_length;
};

enum { LP_FAMILY_INTERNET = 0, LP_FAMILY_INTERNET6 = 6, LP_FAMILY_LOCAL = 256 };

static void local_auth(struct lp_address *a) {
    a->auth_family = LP_FAMILY_LOCAL;
    if (gethostname(a->auth_address, sizeof a->auth_address) != 0) a->auth_address[0] = 0;
    a->auth_address[sizeof a->auth_address - 1] = 0;
    a->auth_address_length = (unsigned short)strlen(a->auth_address);
}

static int unix_address(struct lp_address *a, const char *path, int abstract) {
    struct sockaddr_un *un = (struct sockaddr_un *)&a->address;
    memset(un, 0, sizeof *un);
    un->sun_family = AF_UNIX;
    size_t length = strlen(path);
    if (length + (size_t)abstract >= sizeof un->sun_path) return -1;
    memcpy(un->sun_path + abstract, path, length);
    a->length = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + (size_t)abstract + length);
    local_auth(a);
    return 0;
}

/// The places to try for a display, in xcb's order: the abstract socket,
/// then the socket file, for a local display; the TCP address otherwise.
static int display_addresses(const char *host, int number, struct lp_address *out, int capacity, char *error,
                             size_t error_size) {
    int count = 0;
    char path[108];
    if (host[0] == '/') {
        if (unix_address(&out[count], host, 0) == 0) count++;
        return count;
    }
    if (host[0] == 0 || strcmp(host, "unix") == 0) {
        snprintf(path, sizeof path, "/tmp/.X11-unix/X%d", number);
        if (unix_address(&out[count], path, 1) == 0) count++;
        if (unix_address(&out[count], path, 0) == 0) count++;
        return count;
    }
    char port[16];
    snprintf(port, sizeof port, "%d", 6000 + number);
    struct addrinfo hints = {.ai_socktype = SOCK_STREAM}, *found = NULL;
    int failed = getaddrinfo(host, port, &hints, &found);
    if (failed != 0) {
        snprintf(error, error_size, "cannot resolve the X display's host '%s': %s", host, gai_strerror(failed));
        return 0;
    }
    for (struct addrinfo *each = found; each != NULL && count < capacity; each = each->ai_next) {
        struct lp_address *a = &out[count];
        if (each->ai_addrlen > sizeof a->address) continue;
        memcpy(&a->address, each->ai_addr, each->ai_addrlen);
        a->length = each->ai_addrlen;
        if (each->ai_family == AF_INET) {
            struct in_addr ip = ((struct sockaddr_in *)each->ai_addr)->sin_addr;
            if ((ntohl(ip.s_addr) >> 24) == 127) {
                local_auth(a);  // loopback: the cookie of the local host, as xcb does
            } else {
                a->auth_family = LP_FAMILY_INTERNET;
                memcpy(a->auth_address, &ip, 4);
                a->auth_address_length = 4;
            }
        } else if (each->ai_family == AF_INET6) {
            a->auth_family = LP_FAMILY_INTERNET6;
            memcpy(a->auth_address, &((struct sockaddr_in6 *)each->ai_addr)->sin6_addr, 16);
            a->auth_address_length = 16;
        } else {
            continue;
        }
        count++;
    }
    freeaddrinfo(found);
    return count;
}

/// Connects a non-blocking socket to `a`: the descriptor; -1 refused (or
/// nothing there: worth another try); -2 the deadline or the interrupt.
static int connect_socket(const struct lp_address *a, uint64_t deadline, int interrupt_fd, int *status, int *error_number) {
    int fd = socket(a->address.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        *error_number = errno;
        return -1;
    }
    if (connect(fd, (const struct sockaddr *)&a->address, a->length) == 0) return fd;
    if (errno != EINPROGRESS) {
        *error_number = errno;
        close(fd);
        return -1;
    }
    int ready = wait_for(fd, POLLOUT, deadline, interrupt_fd);
    if (ready <= 0) {
        *status = ready < 0 ? LP_WINDOW_OPEN_INTERRUPTED : LP_WINDOW_OPEN_TIMED_OUT;
        close(fd);
        return -2;
    }
    int result = 0;
    socklen_t size = sizeof result;
    getsockopt(fd, SOL_SOCKET, SO_ERROR, &result, &size);
    if (result != 0) {
        *error_number = result;
        close(fd);
        return -1;
    }
    return fd;
}

/// The handshake, on a thread of its own: xcb_connect_to_fd writes the
/// setup request and reads the answer, waiting as long as the server
/// takes. The opener ends that wait by shutting the socket down.
struct lp_handshake {
    struct lp_xcb *x;
    int fd;
    xcb_auth_info_t auth;
    int has_auth;
    xcb_connection_t *connection;
    int done;
};

static void *handshake_thread(void *argument) {
    struct lp_handshake *h = argument;
    h->connection = h->x->xcb_connect_to_fd(h->fd, h->has_auth ? &h->auth : NULL);
    (void)!write(h->done, "x", 1);
    return NULL;
}

/// Runs the handshake over the connected `fd` (owned by xcb from here):
/// the connection, NULL on failure (*status says whether the deadline or
/// the interrupt ended it; else the server closed or refused).
static xcb_connection_t *handshake(struct lp_xcb *x, int fd, const struct lp_address *a, int number, uint64_t deadline,
                                   int interrupt_fd, int *status) {
    struct lp_handshake h = {.x = x, .fd = fd};
    lp_xauth *cookie = NULL;
    if (x->xau_best) {
        char display_number[16];
        snprintf(display_number, sizeof display_number, "%d", number);
        char *names[] = {"MIT-MAGIC-COOKIE-1"};
        int lengths[] = {18};
        cookie = x->xau_best(a->auth_family, a->auth_address_length, a->auth_address,
                             (unsigned short)strlen(display_number), display_number, 1, names, lengths);
        if (cookie) {
            h.auth = (xcb_auth_info_t){cookie->name_length, cookie->name, cookie->data_length, cookie->data};
            h.has_auth = 1;
        }
    }
    int done[2];
    // A second descriptor of the socket: shutdown(2) acts on the socket,
    // and this one stays valid however xcb closes its own.
    int guard = dup(fd);
    if (guard < 0 || pipe2(done, O_CLOEXEC) != 0) {
        if (guard >= 0) close(guard);
        close(fd);
        if (cookie) x->xau_dispose(cookie);
        return NULL;
    }
    h.done = done[1];
    sigset_t all, previous;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &previous);  // signals are launchprof's main thread's
    pthread_t thread;
    int created = pthread_create(&thread, NULL, handshake_thread, &h);
    pthread_sigmask(SIG_SETMASK, &previous, NULL);
    if (created != 0) {
        close(done[0]);
        close(done[1]);
        close(guard);
        close(fd);
        if (cookie) x->xau_dispose(cookie);
        return NULL;
    }
    int ready = wait_for(done[0], POLLIN, deadline, interrupt_fd);
    if (ready <= 0) {
        *status = ready < 0 ? LP_WINDOW_OPEN_INTERRUPTED : LP_WINDOW_OPEN_TIMED_OUT;
        shutdown(guard, SHUT_RDWR);  // the thread's read returns at once
    }
    pthread_join(thread, NULL);
    close(done[0]);
    close(done[1]);
    close(guard);
    if (cookie) x->xau_dispose(cookie);
    if (ready <= 0 || x->xcb_connection_has_error(h.connection)) {
        x->xcb_disconnect(h.connection);
        return NULL;
    }
    return h.connection;
}

/// Sends a request that is answered at once by any server (GetInputFocus)
/// and waits for its answer: every reply to an earlier request is then
/// read, so xcb's functions that would wait for one (the extensions' data)
/// find it there. 1 answered, 0 deadline or broken, -1 interrupted.
static int fence(lp_window_watch *w, uint64_t deadline, int interrupt_fd) {
    unsigned int sequence = w->x.xcb_get_input_focus(w->connection).sequence;
    w->x.xcb_flush(w->connection);
    int fd = w->x.xcb_get_file_descriptor(w->connection);
    for (;;) {
        void *reply = NULL;
        xcb_generic_error_t *error = NULL;
        if (w->x.xcb_poll_for_reply(w->connection, sequence, &reply, &error)) {
            free(reply);
            free(error);
            return w->x.xcb_connection_has_error(w->connection) ? 0 : 1;
        }
        int ready = wait_for(fd, POLLIN, deadline, interrupt_fd);
        if (ready <= 0) return ready;
    }
}

static xcb_atom_t atom_answer(lp_window_watch *w, unsigned int sequence) {
    void *reply = NULL;
    xcb_generic_error_t *error = NULL;
    xcb_atom_t result = XCB_ATOM_NONE;
    // After the fence: the answer is here (poll, never wait).
    if (w->x.xcb_poll_for_reply(w->connection, sequence, &reply, &error) && reply)
        result = ((xcb_intern_atom_reply_t *)reply)->atom;
    free(reply);
    free(error);
    return result;
}

/// Everything after the handshake: the root's children watched, the
/// extensions and atoms asked, all answered within the deadline.
static int start_watching(lp_window_watch *w, int screen_number, uint64_t deadline, int interrupt_fd, int *status) {
    xcb_screen_iterator_t screens = w->x.xcb_setup_roots_iterator(w->x.xcb_get_setup(w->connection));
    if (screens.rem <= 0) return -1;
    for (int i = 0; i < screen_number && screens.rem > 1; i++) {
        screens.data++;
        screens.rem--;
    }
    w->root = screens.data->root;
    w->screen_width = screens.data->width_in_pixels;
    w->screen_height = screens.data->height_in_pixels;
    uint32_t mask = XCB_EVENT_MASK_SUBSTRUCTURE_NOTIFY;
    w->x.xcb_change_window_attributes(w->connection, w->root, XCB_CW_EVENT_MASK, &mask);
    if (w->x.has_damage) w->x.xcb_prefetch_extension_data(w->connection, w->x.damage_id);
    if (w->x.has_res) w->x.xcb_prefetch_extension_data(w->connection, w->x.res_id);
    const char *names[] = {"_NET_WM_PID", "_NET_WM_NAME", "UTF8_STRING"};
    unsigned int atoms[3];
    for (int i = 0; i < 3; i++) atoms[i] = w->x.xcb_intern_atom(w->connection, 0, (uint16_t)strlen(names[i]), names[i]).sequence;
    int answered = fence(w, deadline, interrupt_fd);
    if (answered <= 0) {
        *status = answered < 0 ? LP_WINDOW_OPEN_INTERRUPTED : LP_WINDOW_OPEN_TIMED_OUT;
        return -1;
    }
    w->net_wm_pid = atom_answer(w, atoms[0]);
    w->net_wm_name = atom_answer(w, atoms[1]);
    w->utf8_string = atom_answer(w, atoms[2]);
    w->wm_name = XCB_ATOM_WM_NAME;
    if (w->x.has_damage) {
        const xcb_query_extension_reply_t *extension = w->x.xcb_get_extension_data(w->connection, w->x.damage_id);
        if (extension && extension->present) {
            // The version must be asked before DAMAGE may be used; the
            // server handles requests in order, so its answer is not needed.
            w->x.xcb_discard_reply(w->connection, w->x.xcb_damage_query_version(w->connection, XCB_DAMAGE_MAJOR_VERSION,
                                                                                XCB_DAMAGE_MINOR_VERSION)
                                                       .sequence);
            w->damage_event = extension->first_event + XCB_DAMAGE_NOTIFY;
            w->damage_ready = 1;
        }
    }
    if (w->x.has_res) {
        const xcb_query_extension_reply_t *extension = w->x.xcb_get_extension_data(w->connection, w->x.res_id);
        w->x.has_res = extension && extension->present;
    }
    w->x.xcb_flush(w->connection);
    return 0;
}

lp_window_watch *lp_window_open(const char *display, uint64_t deadline, int interrupt_fd, int *status, char *error,
                                size_t error_size) {
    *status = LP_WINDOW_OPEN_FAILED;
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
    void *xau = dlopen("libXau.so.6", RTLD_NOW | RTLD_LOCAL);
    if (xau) {
        w->x.xau_best = (lp_xau_best)dlsym(xau, "XauGetBestAuthByAddr");
        w->x.xau_dispose = (lp_xau_dispose)dlsym(xau, "XauDisposeAuth");
        if (w->x.xau_dispose == NULL) w->x.xau_best = NULL;
    }

    const char *name = display ? display : getenv("DISPLAY");
    char *host = NULL;
    int number = 0, screen = 0;
    if (name == NULL || name[0] == 0 || !w->x.xcb_parse_display(name, &host, &number, &screen)) {
        snprintf(error, error_size, "cannot connect to the X display '%s': %s", name ? name : "",
                 name ? "not a display name (like :0 or host:1.0)"
                      : "$DISPLAY is not set: use --display virtual, or run under an X session");
        free(w);
        return NULL;
    }
    struct lp_address addresses[8];
    int count = display_addresses(host, number, addresses, 8, error, error_size);
    free(host);
    if (count == 0) {
        if (error[0] == 0) snprintf(error, error_size, "cannot connect to the X display '%s': no socket for it", name);
        free(w);
        return NULL;
    }
    // Tried again until the deadline: a server that is starting, or
    // resetting after its last client left (Xvfb without -noreset, as
    // xvfb-run starts it), refuses or closes connections for a moment. No
    // socket at all (ENOENT; an abstract name's refusal says nothing) is no
    // server: that fails at once.
    int error_number = 0, accepted = 0, closed = 0;
    for (;;) {
        int worth_retrying = 0;
        for (int i = 0; i < count; i++) {
            int abstract = addresses[i].address.ss_family == AF_UNIX && ((struct sockaddr_un *)&addresses[i].address)->sun_path[0] == 0;
            int attempt_error = 0;
            int fd = connect_socket(&addresses[i], deadline, interrupt_fd, status, &attempt_error);
            if (fd == -2) break;
            if (fd < 0) {
                if (!abstract || error_number == 0) error_number = attempt_error;
                if (!abstract && attempt_error != ENOENT) worth_retrying = 1;
                continue;
            }
            accepted = 1;
            w->connection = handshake(&w->x, fd, &addresses[i], number, deadline, interrupt_fd, status);
            // Closed during the handshake: a server resetting (a moment), or
            // one refusing this client (every time; it said why on stderr).
            worth_retrying = w->connection == NULL && ++closed < 5;
            break;
        }
        if (w->connection != NULL || *status != LP_WINDOW_OPEN_FAILED || !worth_retrying) break;
        if (now_ns() >= deadline) {
            *status = LP_WINDOW_OPEN_TIMED_OUT;
            break;
        }
        if (pause_before_retry(deadline, interrupt_fd) < 0) {
            *status = LP_WINDOW_OPEN_INTERRUPTED;
            break;
        }
    }
    if (w->connection == NULL) {
        if (*status == LP_WINDOW_OPEN_INTERRUPTED)
            snprintf(error, error_size, "interrupted while connecting to the X display '%s'", name);
        else if (closed >= 5)
            snprintf(error, error_size,
                     "cannot connect to the X display '%s': its server closed the connection during the X handshake %d "
                     "times (authorization refused? check XAUTHORITY)",
                     name, closed);
        else if (accepted)
            snprintf(error, error_size,
                     "cannot connect to the X display '%s': its server accepted the connection but did not complete the "
                     "X handshake before the timeout (a frozen server, or one refusing this client: check XAUTHORITY)",
                     name);
        else
            snprintf(error, error_size, "cannot connect to the X display '%s': %s%s", name,
                     strerror(error_number ? error_number : ECONNREFUSED),
                     *status == LP_WINDOW_OPEN_TIMED_OUT ? " (tried again until the timeout)" : "");
        free(w);
        return NULL;
    }
    if (start_watching(w, screen, deadline, interrupt_fd, status) != 0) {
        snprintf(error, error_size,
                 *status == LP_WINDOW_OPEN_INTERRUPTED
                     ? "interrupted while connecting to the X display '%s'"
                     : "the X server at '%s' stopped answering while launchprof connected (before the timeout)",
                 name);
        if (*status == LP_WINDOW_OPEN_FAILED) *status = LP_WINDOW_OPEN_TIMED_OUT;
        w->x.xcb_disconnect(w->connection);
        free(w);
        return NULL;
    }
    *status = LP_WINDOW_OPEN_OK;
    return w;
}

int lp_window_fd(const lp_window_watch *w) { return w->x.xcb_get_file_descriptor(w->connection); }

int lp_window_is_broken(const lp_window_watch *w) { return w->x.xcb_connection_has_error(w->connection) != 0; }

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
        result.sequence = event->full_sequence;
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
        } else if (type == XCB_DESTROY_NOTIFY) {
            result.kind = LP_WINDOW_DESTROYED;
            result.window = ((xcb_destroy_notify_event_t *)event)->window;
        } else if (w->damage_ready && type == w->damage_event) {
            xcb_damage_notify_event_t *damaged = (xcb_damage_notify_event_t *)event;
            result.kind = LP_WINDOW_DAMAGED;
            result.window = damaged->drawable;
        }
        free(event);
        if (result.kind != LP_WINDOW_NONE) return result;
    }
}

void lp_window_follow(lp_window_watch *w, uint32_t window, int damage) {
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
}

// MARK: - Questions and their answers

static unsigned int get_property(lp_window_watch *w, uint32_t window, xcb_atom_t name, xcb_atom_t type) {
    // At most 1024 words: a title is capped at 4 KiB.
    return w->x.xcb_get_property(w->connection, 0, window, name, type, 0, 1024).sequence;
}

/// Sends the request of `t`'s current stage.
static void send_stage(lp_window_watch *w, struct lp_ticket *t) {
    xcb_connection_t *c = w->connection;
    switch (t->question * 10 + t->stage) {
    case LP_WINDOW_ASK_OWNER * 10 + 0: {
        xcb_res_client_id_spec_t spec = {.client = t->window, .mask = XCB_RES_CLIENT_ID_MASK_LOCAL_CLIENT_PID};
        t->sequence = w->x.xcb_res_query_client_ids(c, 1, &spec).sequence;
        break;
    }
    case LP_WINDOW_ASK_OWNER * 10 + 1: t->sequence = get_property(w, t->window, w->net_wm_pid, XCB_ATOM_CARDINAL); break;
    case LP_WINDOW_ASK_MAPPED * 10 + 0: t->sequence = w->x.xcb_get_window_attributes(c, t->window).sequence; break;
    case LP_WINDOW_ASK_TITLE * 10 + 0: t->sequence = get_property(w, t->window, w->net_wm_name, w->utf8_string); break;
    case LP_WINDOW_ASK_TITLE * 10 + 1: t->sequence = get_property(w, t->window, w->wm_name, XCB_ATOM_ANY); break;
    case LP_WINDOW_ASK_BLANK * 10 + 0: t->sequence = w->x.xcb_get_geometry(c, t->window).sequence; break;
    case LP_WINDOW_ASK_BLANK * 10 + 1: t->sequence = w->x.xcb_translate_coordinates(c, t->window, w->root, 0, 0).sequence; break;
    case LP_WINDOW_ASK_BLANK * 10 + 2:
        t->sequence =
            w->x.xcb_get_image(c, XCB_IMAGE_FORMAT_Z_PIXMAP, t->window, t->x, t->y, t->width, t->height, ~0u).sequence;
        break;
    }
    w->x.xcb_flush(c);
}

/// Drops the answers of forgotten questions that came.
static void collect_orphans(lp_window_watch *w) {
    for (int i = 0; i < LP_WINDOW_MAX_ASKED; i++) {
        struct lp_ticket *t = &w->tickets[i];
        if (!t->used || !t->orphan) continue;
        void *reply = NULL;
        xcb_generic_error_t *error = NULL;
        if (w->x.xcb_poll_for_reply(w->connection, t->sequence, &reply, &error)) t->used = 0;
        free(reply);
        free(error);
    }
}

int lp_window_ask(lp_window_watch *w, uint32_t window, int question) {
    if (question < LP_WINDOW_ASK_OWNER || question > LP_WINDOW_ASK_BLANK) return -1;
    collect_orphans(w);
    for (int i = 0; i < LP_WINDOW_MAX_ASKED; i++) {
        struct lp_ticket *t = &w->tickets[i];
        if (t->used) continue;
        *t = (struct lp_ticket){.used = 1, .question = question, .window = window, .asked_at = now_ns()};
        // Without X-Resource, the owner is the _NET_WM_PID property alone.
        if (question == LP_WINDOW_ASK_OWNER && !w->x.has_res) t->stage = 1;
        send_stage(w, t);
        return i;
    }
    return -1;
}

/// Whether `pixels` (a ZPixmap image of `width` x `height`) is one colour.
static int is_flat(const uint8_t *data, int length, int width, int height) {
    // Bits per pixel from the length (ZPixmap rows are padded to 32 bits):
    // compare pixel by pixel for 32 bpp, else byte by byte (a flat colour
    // repeats its bytes at the pixel's period either way).
    int stride = (length > 0 && height > 0 && length / height >= width * 4) ? 4 : 1;
    for (int i = stride; i + stride <= length; i += stride)
        if (memcmp(data + i, data, (size_t)stride) != 0) return 0;
    return 1;
}

/// Takes the reply to `t`'s current stage: 1 the question is answered
/// (into `answer`), 0 another request was sent.
static int take_reply(lp_window_watch *w, struct lp_ticket *t, void *reply, xcb_generic_error_t *error,
                      struct lp_window_answer *answer, char *title, size_t title_size) {
    answer->state = 1;
    switch (t->question * 10 + t->stage) {
    case LP_WINDOW_ASK_OWNER * 10 + 0:
        if (reply) {
            xcb_res_client_id_value_iterator_t ids = w->x.xcb_res_query_client_ids_ids_iterator(reply);
            for (; ids.rem > 0; w->x.xcb_res_client_id_value_next(&ids)) {
                if ((ids.data->spec.mask & XCB_RES_CLIENT_ID_MASK_LOCAL_CLIENT_PID) && ids.data->length == 4) {
                    answer->value = (int)*w->x.xcb_res_client_id_value_value(ids.data);
                    answer->from_resource_extension = answer->value > 0;
                    if (answer->value > 0) return 1;
                }
            }
        }
        if (error && error->error_code == XCB_WINDOW) {
            answer->state = -1;
            return 1;
        }
        t->stage = 1;  // a remote client: what it claims
        return 0;
    case LP_WINDOW_ASK_OWNER * 10 + 1:
        if (reply && w->x.xcb_get_property_value_length(reply) == 4)
            answer->value = (int)*(uint32_t *)w->x.xcb_get_property_value(reply);
        if (!reply) answer->state = -1;
        return 1;
    case LP_WINDOW_ASK_MAPPED * 10 + 0:
        if (!reply) answer->state = -1;
        else answer->value = ((xcb_get_window_attributes_reply_t *)reply)->map_state != XCB_MAP_STATE_UNMAPPED;
        return 1;
    case LP_WINDOW_ASK_TITLE * 10 + 0:
    case LP_WINDOW_ASK_TITLE * 10 + 1: {
        if (!reply) {
            answer->state = -1;
            return 1;
        }
        int length = w->x.xcb_get_property_value_length(reply);
        if (length <= 0 && t->stage == 0) {
            t->stage = 1;
            return 0;
        }
        if (length < 0) length = 0;
        if (title_size == 0) return 1;
        if ((size_t)length >= title_size) length = (int)title_size - 1;
        memcpy(title, w->x.xcb_get_property_value(reply), (size_t)length);
        title[length] = 0;
        answer->value = length;
        return 1;
    }
    case LP_WINDOW_ASK_BLANK * 10 + 0: {
        if (!reply) {
            answer->state = -1;
            return 1;
        }
        xcb_get_geometry_reply_t *geometry = reply;
        t->width = geometry->width;
        t->height = geometry->height;
        t->stage = 1;
        return 0;
    }
    case LP_WINDOW_ASK_BLANK * 10 + 1: {
        if (!reply) {
            answer->state = -1;
            return 1;
        }
        // GetImage of a window is refused (BadMatch) unless the whole
        // rectangle is on the screen: a window wider than the screen, or
        // placed at its edge, is judged by the part that is on it.
        xcb_translate_coordinates_reply_t *origin = reply;
        int left = origin->dst_x < 0 ? -origin->dst_x : 0;
        int top = origin->dst_y < 0 ? -origin->dst_y : 0;
        int right = t->width, bottom = t->height;
        if (origin->dst_x + right > w->screen_width) right = w->screen_width - origin->dst_x;
        if (origin->dst_y + bottom > w->screen_height) bottom = w->screen_height - origin->dst_y;
        // Bounded: judged by at most 4096x4096 pixels of it.
        if (right - left > 4096) right = left + 4096;
        if (bottom - top > 4096) bottom = top + 4096;
        if (right <= left || bottom <= top) {
            answer->value = 1;  // nothing of it on the screen: nothing seen drawn
            return 1;
        }
        t->x = (int16_t)left;
        t->y = (int16_t)top;
        t->width = (uint16_t)(right - left);
        t->height = (uint16_t)(bottom - top);
        t->stage = 2;
        return 0;
    }
    case LP_WINDOW_ASK_BLANK * 10 + 2:
        if (!reply) {
            // BadMatch: not viewable now (an ancestor unmapped); not gone.
            answer->value = 1;
            if (error && (error->error_code == XCB_WINDOW || error->error_code == XCB_DRAWABLE)) answer->state = -1;
            return 1;
        }
        answer->value = is_flat(w->x.xcb_get_image_data(reply), w->x.xcb_get_image_data_length(reply), t->width, t->height);
        return 1;
    }
    answer->state = -1;
    return 1;
}

struct lp_window_answer lp_window_answer(lp_window_watch *w, int ticket, char *title, size_t title_size) {
    struct lp_window_answer answer = {0, 0, 0, 0};
    if (title_size > 0) title[0] = 0;
    if (ticket < 0 || ticket >= LP_WINDOW_MAX_ASKED || !w->tickets[ticket].used) {
        answer.state = -1;
        return answer;
    }
    struct lp_ticket *t = &w->tickets[ticket];
    for (;;) {
        void *reply = NULL;
        xcb_generic_error_t *error = NULL;
        if (!w->x.xcb_poll_for_reply(w->connection, t->sequence, &reply, &error)) return answer;  // not yet
        if (w->x.xcb_connection_has_error(w->connection)) {
            free(reply);
            free(error);
            t->used = 0;
            answer.state = -2;
            return answer;
        }
        int done = take_reply(w, t, reply, error, &answer, title, title_size);
        free(reply);
        free(error);
        if (done) {
            t->used = 0;
            answer.sequence = t->sequence;
            return answer;
        }
        answer = (struct lp_window_answer){0, 0, 0, 0};
        send_stage(w, t);
    }
}

void lp_window_forget_all(lp_window_watch *w) {
    for (int i = 0; i < LP_WINDOW_MAX_ASKED; i++)
        if (w->tickets[i].used) w->tickets[i].orphan = 1;
    collect_orphans(w);
    // What the previous run left queued is of no use to the next.
    for (;;) {
        xcb_generic_event_t *event = w->x.xcb_poll_for_event(w->connection);
        if (event == NULL) break;
        free(event);
    }
}

int lp_window_unanswered(const lp_window_watch *w, uint64_t *oldest) {
    int count = 0;
    *oldest = 0;
    for (int i = 0; i < LP_WINDOW_MAX_ASKED; i++) {
        const struct lp_ticket *t = &w->tickets[i];
        if (!t->used) continue;
        count++;
        if (*oldest == 0 || t->asked_at < *oldest) *oldest = t->asked_at;
    }
    return count;
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
