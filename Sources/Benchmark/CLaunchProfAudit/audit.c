// audit.c — liblaunchprof-audit.so: the dynamic loader's time on each shared
// library of a launch, from the loader's own audit interface (rtld-audit(7)).
//
// `launchprof explain --loader` (and `run --loader`) puts it in LD_AUDIT with
// LD_DEBUG=files, LD_DEBUG_OUTPUT in a private folder and
// LAUNCHPROF_AUDIT_SOCKET naming a datagram socket launchprof listens on.
// The loader loads an audit library before it maps anything of the program,
// so every callback below sees the launch from the start:
//
//   la_version       the library is loaded: a socket pair is made, its
//                    receiving end (timestamping every datagram in the kernel,
//                    SO_TIMESTAMPNS) goes to launchprof, the loader's debug
//                    output is pointed at /dev/null while objects are mapped;
//   la_objsearch     the loader starts looking for a DT_NEEDED name;
//   la_objopen       that object is mapped (search + open + mmap done);
//   la_activity      LA_ACT_CONSISTENT: every object is relocated (glibc
//                    calls it after the relocation loop): the records so far
//                    are sent in one datagram, and the loader's debug output
//                    now goes to the channel, so each "calling init: X" line
//                    that _dl_init prints before X's constructors is a
//                    datagram the kernel stamps as it is written;
//   la_preinit       the constructors (the libraries' and then the
//                    program's) are done: the last record is sent, the debug
//                    output goes back to /dev/null, the channel is closed.
//
// Never breaks the program: la_objopen returns 0 (no la_symbind for any
// object; this library defines neither la_symbind nor la_pltenter, so binding
// is what it would be without it), la_objsearch returns the name it was given,
// every failure only stops the measurement (and says so in an `X` record),
// sends never block (MSG_DONTWAIT). No malloc: records go into a static
// buffer; numbers are formatted by hand. Everything runs on the thread the
// loader runs on, under its lock, so the state needs no atomics.
#define _GNU_SOURCE

#include "launchprof_format.h"

#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#define EXPORT __attribute__((visibility("default")))

/// Records wait here until they are sent (at LA_ACT_CONSISTENT): 256 KiB,
/// room for about 2,000 libraries with paths of 100 bytes; the rest are
/// counted as lost (`X overflow`). In .bss: pages are touched only as filled.
static char records[256 * 1024];
static size_t used;
static int overflowed;

/// The channel's sending end (a high, close-on-exec descriptor), or -1.
static int channel = -1;
/// The loader's LD_DEBUG_OUTPUT descriptor, or -1 when it was not found.
static int debug_fd = -1;
/// The main program's cookie: la_activity's for the initial namespace.
static uintptr_t *main_cookie;
/// 0: not recording; 1: mapping; 2: constructors; 3: done.
static int phase;

// MARK: - Formatting without the C library's stdio

static void append(const char *text, size_t length) {
    if (overflowed || length > sizeof records - used) {
        overflowed = 1;
        return;
    }
    memcpy(records + used, text, length);
    used += length;
}

static void append_text(const char *text) { append(text, strlen(text)); }

static void append_number(uint64_t value) {
    char digits[24];
    size_t at = sizeof digits;
    do {
        digits[--at] = (char)('0' + value % 10);
        value /= 10;
    } while (value != 0 && at > 0);
    append(digits + at, sizeof digits - at);
}

static uint64_t clock_ns(clockid_t clock) {
    struct timespec now;
    if (clock_gettime(clock, &now) != 0) return 0;
    return (uint64_t)now.tv_sec * UINT64_C(1000000000) + (uint64_t)now.tv_nsec;
}

/// `kind mono[ real]` and, for names, ` name` (newlines in a name, which a
/// path may hold, are sent as '?': one record a line).
static void record(char kind, const char *name, int with_real) {
    uint64_t mono = clock_ns(CLOCK_MONOTONIC);
    uint64_t real = with_real ? clock_ns(CLOCK_REALTIME) : 0;
    char head[2] = {kind, ' '};
    append(head, 2);
    append_number(mono);
    if (with_real) {
        append_text(" ");
        append_number(real);
    }
    if (name != NULL) {
        append_text(" ");
        size_t start = used;
        append_text(name);
        if (!overflowed)
            for (size_t i = start; i < used; i++)
                if (records[i] == '\n') records[i] = '?';
    }
    append_text("\n");
}

static void problem(const char *what) {
    append_text("X ");
    append_text(what);
    append_text("\n");
}

/// Sends what is buffered as one datagram, magic first; never blocks.
static void flush(void) {
    if (channel < 0) return;
    if (overflowed) {
        overflowed = 0;
        // Room for the note: drop the last records rather than the note.
        if (used > sizeof records - 64) used = sizeof records - 64;
        problem("overflow");
    }
    ssize_t sent = send(channel, records, used, MSG_DONTWAIT | MSG_NOSIGNAL);
    (void)sent;  // a lost datagram is a missing record, which launchprof reports
    used = 0;
    append_text(LP_AUDIT_MAGIC "\n");
}

// MARK: - The channel and the loader's debug output

/// Points `fd` at /dev/null (keeping its number); 0 on success.
static int silence(int fd) {
    int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (null < 0) return -1;
    int result = dup2(null, fd) < 0 ? -1 : 0;
    close(null);
    return result;
}

/// The descriptor the loader opened for LD_DEBUG_OUTPUT (`<value>.<pid>`),
/// found by comparing device and inode; -1 when there is none.
static int find_debug_output(void) {
    const char *prefix = secure_getenv("LD_DEBUG_OUTPUT");
    if (prefix == NULL || *prefix == '\0') return -1;
    static char path[4200];
    size_t length = strlen(prefix);
    if (length > 4096) return -1;
    memcpy(path, prefix, length);
    path[length++] = '.';
    char digits[24];
    size_t at = sizeof digits;
    uint64_t pid = (uint64_t)getpid();
    do {
        digits[--at] = (char)('0' + pid % 10);
        pid /= 10;
    } while (pid != 0 && at > 0);
    memcpy(path + length, digits + at, sizeof digits - at);
    path[length + sizeof digits - at] = '\0';
    struct stat wanted;
    if (stat(path, &wanted) != 0) return -1;
    for (int fd = 0; fd < 256; fd++) {
        struct stat seen;
        if (fstat(fd, &seen) == 0 && seen.st_dev == wanted.st_dev && seen.st_ino == wanted.st_ino) return fd;
    }
    return -1;
}

/// Makes the channel and hands its receiving end to launchprof; 0 on success.
static int open_channel(const char *socket_path) {
    struct sockaddr_un address = {.sun_family = AF_UNIX};
    size_t length = strlen(socket_path);
    if (length >= sizeof address.sun_path) return -1;
    memcpy(address.sun_path, socket_path, length);
    int pair[2];
    if (socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, pair) != 0) return -1;
    int on = 1, size = 1 << 20;
    // The kernel stamps each datagram when it is written; a larger send
    // buffer holds every "calling init" line of a big program.
    if (setsockopt(pair[0], SOL_SOCKET, SO_TIMESTAMPNS, &on, sizeof on) != 0) goto fail;
    (void)setsockopt(pair[1], SOL_SOCKET, SO_SNDBUF, &size, sizeof size);
    int messenger = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (messenger < 0) goto fail;
    char text[64] = LP_AUDIT_MAGIC " ";
    size_t at = strlen(text);
    uint64_t pid = (uint64_t)getpid();
    char digits[24];
    size_t d = sizeof digits;
    do {
        digits[--d] = (char)('0' + pid % 10);
        pid /= 10;
    } while (pid != 0 && d > 0);
    memcpy(text + at, digits + d, sizeof digits - d);
    at += sizeof digits - d;
    struct iovec part = {.iov_base = text, .iov_len = at};
    union {
        char bytes[CMSG_SPACE(sizeof(int))];
        struct cmsghdr align;
    } control;
    memset(&control, 0, sizeof control);
    struct msghdr message = {
        .msg_name = &address, .msg_namelen = sizeof address, .msg_iov = &part, .msg_iovlen = 1,
        .msg_control = control.bytes, .msg_controllen = sizeof control.bytes};
    struct cmsghdr *header = CMSG_FIRSTHDR(&message);
    header->cmsg_level = SOL_SOCKET;
    header->cmsg_type = SCM_RIGHTS;
    header->cmsg_len = CMSG_LEN(sizeof(int));
    memcpy(CMSG_DATA(header), &pair[0], sizeof(int));
    ssize_t sent = sendmsg(messenger, &message, MSG_DONTWAIT | MSG_NOSIGNAL);
    close(messenger);
    close(pair[0]);
    if (sent < 0) {
        close(pair[1]);
        return -1;
    }
    // Out of the program's way: a high number, closed at la_preinit.
    channel = fcntl(pair[1], F_DUPFD_CLOEXEC, 200);
    if (channel < 0) channel = pair[1];
    else close(pair[1]);
    return 0;
fail:
    close(pair[0]);
    close(pair[1]);
    return -1;
}

// MARK: - The audit interface

EXPORT unsigned int la_version(unsigned int version) {
    unsigned int answer = version < LAV_CURRENT ? version : LAV_CURRENT;
    const char *socket_path = secure_getenv(LP_AUDIT_SOCKET_VARIABLE);
    if (socket_path == NULL || *socket_path == '\0' || open_channel(socket_path) != 0) return answer;
    append_text(LP_AUDIT_MAGIC "\n");
    record(LP_AUDIT_RECORD_VERSION, NULL, 1);
    debug_fd = find_debug_output();
    if (debug_fd >= 0 && silence(debug_fd) == 0) {
        append_text("F ");
        append_number((uint64_t)debug_fd);
        append_text("\n");
    } else {
        debug_fd = -1;
        problem("no-debug-output");
    }
    phase = 1;
    return answer;
}

EXPORT char *la_objsearch(const char *name, uintptr_t *cookie, unsigned int flag) {
    (void)cookie;
    if (phase == 1 && flag == LA_SER_ORIG) record(LP_AUDIT_RECORD_SEARCH, name, 0);
    return (char *)name;
}

EXPORT unsigned int la_objopen(struct link_map *map, Lmid_t lmid, uintptr_t *cookie) {
    if (phase == 1 && lmid == LM_ID_BASE) {
        if (main_cookie == NULL) main_cookie = cookie;
        record(LP_AUDIT_RECORD_OPEN, map->l_name != NULL ? map->l_name : "", 0);
    }
    return 0;
}

EXPORT void la_activity(uintptr_t *cookie, unsigned int flag) {
    if (phase != 1 || flag != LA_ACT_CONSISTENT || cookie != main_cookie) return;
    record(LP_AUDIT_RECORD_CONSISTENT, NULL, 1);
    flush();
    // From here the loader's "calling init" lines are datagrams.
    if (debug_fd >= 0 && dup2(channel, debug_fd) < 0) debug_fd = -1;
    phase = 2;
}

EXPORT void la_preinit(uintptr_t *cookie) {
    (void)cookie;
    if (phase != 2) return;
    record(LP_AUDIT_RECORD_PREINIT, NULL, 1);
    flush();
    if (debug_fd >= 0) (void)silence(debug_fd);
    close(channel);
    channel = -1;
    phase = 3;
}
