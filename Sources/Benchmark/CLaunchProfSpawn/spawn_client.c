// launchprof's side of the spawner protocol, and the record and notify
// sockets that carry their sender's pid (SCM_CREDENTIALS). C because
// ancillary data (CMSG_*) are macros Swift cannot import.
#define _GNU_SOURCE
#include "launchprof_spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

pid_t lp_spawn_start(const char *path, int *control) {
    int ends[2];
    if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, ends) != 0) return -1;
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attributes;
    posix_spawn_file_actions_init(&actions);
    posix_spawnattr_init(&attributes);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    // stderr stays launchprof's: the spawner reports only what makes it quit.
    posix_spawn_file_actions_adddup2(&actions, ends[1], LP_SPAWN_CONTROL_FD);
    // Nothing else of launchprof's: a descriptor its process left
    // inheritable (a pipe a library user reads until EOF, one of the many a
    // test suite opens at once) would stay open in the spawner for its whole
    // life, and its reader would never see EOF. The suite hung so: an
    // lp-spawn held 1,000 of the test process's pipes. (glibc 2.34+.)
    posix_spawn_file_actions_addclosefrom_np(&actions, LP_SPAWN_CONTROL_FD + 1);
    sigset_t empty;
    sigemptyset(&empty);
    posix_spawnattr_setsigmask(&attributes, &empty);
    // Its own process group: a kill of launchprof's group (a CI runner
    // giving up on the job) leaves the spawner alive to clean up the run.
    posix_spawnattr_setpgroup(&attributes, 0);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETPGROUP);
    char *argv[] = {(char *)"lp-spawn", NULL};
    pid_t pid = -1;
    int result = posix_spawn(&pid, path, &actions, &attributes, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    close(ends[1]);
    if (result != 0) {
        close(ends[0]);
        errno = result;
        return -1;
    }
    *control = ends[0];
    return pid;
}

static int send_with_descriptors(int socket, const void *data, size_t size, const int *fds, uint32_t count) {
    struct iovec vector = {.iov_base = (void *)data, .iov_len = size};
    struct msghdr header = {.msg_iov = &vector, .msg_iovlen = 1};
    union {
        char bytes[CMSG_SPACE(sizeof(int) * (LP_SPAWN_MAX_FDS + 1))];
        struct cmsghdr align;
    } control;
    memset(&control, 0, sizeof control);
    if (count > 0) {
        header.msg_control = control.bytes;
        header.msg_controllen = CMSG_SPACE(sizeof(int) * count);
        struct cmsghdr *message = CMSG_FIRSTHDR(&header);
        message->cmsg_level = SOL_SOCKET;
        message->cmsg_type = SCM_RIGHTS;
        message->cmsg_len = CMSG_LEN(sizeof(int) * count);
        memcpy(CMSG_DATA(message), fds, sizeof(int) * count);
    }
    ssize_t sent;
    do {
        sent = sendmsg(socket, &header, MSG_NOSIGNAL);
    } while (sent < 0 && errno == EINTR);
    if (sent < 0) return -1;
    if ((size_t)sent != size) {
        errno = EMSGSIZE;
        return -1;
    }
    return 0;
}

int lp_spawn_send(int control, const struct lp_spawn_request *request, const void *payload, size_t payload_size,
                  const int *fds, uint32_t fd_count) {
    if (fd_count > LP_SPAWN_MAX_FDS) {
        errno = EINVAL;
        return -1;
    }
    if (request->kind != LP_SPAWN_REQUEST_SPAWN) return send_with_descriptors(control, request, sizeof *request, NULL, 0);
    int memory = memfd_create("launchprof-spawn-request", MFD_CLOEXEC);
    if (memory < 0) return -1;
    const char *bytes = payload;
    size_t written = 0;
    while (written < payload_size) {
        ssize_t count = write(memory, bytes + written, payload_size - written);
        if (count < 0) {
            if (errno == EINTR) continue;
            int saved = errno;
            close(memory);
            errno = saved;
            return -1;
        }
        written += (size_t)count;
    }
    int all[LP_SPAWN_MAX_FDS + 1];
    all[0] = memory;
    if (fd_count > 0) memcpy(all + 1, fds, sizeof(int) * fd_count);
    int result = send_with_descriptors(control, request, sizeof *request, all, fd_count + 1);
    int saved = errno;
    close(memory);
    errno = saved;
    return result;
}

int lp_spawn_receive(int control, struct lp_spawn_reply *reply, int dont_wait) {
    ssize_t count;
    do {
        count = recv(control, reply, sizeof *reply, dont_wait ? MSG_DONTWAIT : 0);
    } while (count < 0 && errno == EINTR);
    if (count < 0) return -1;
    if (count == 0) return 0;
    if ((size_t)count != sizeof *reply || reply->magic != LP_SPAWN_MAGIC) {
        errno = EPROTO;
        return -1;
    }
    reply->message[sizeof reply->message - 1] = 0;
    reply->largest_name[sizeof reply->largest_name - 1] = 0;
    reply->process_name[sizeof reply->process_name - 1] = 0;
    return 1;
}

int lp_record_socket(int ends[2]) {
    if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, ends) != 0) return -1;
    int on = 1;
    if (setsockopt(ends[0], SOL_SOCKET, SO_PASSCRED, &on, sizeof on) != 0 ||
        fcntl(ends[0], F_SETFL, fcntl(ends[0], F_GETFL) | O_NONBLOCK) != 0) {
        int saved = errno;
        close(ends[0]);
        close(ends[1]);
        errno = saved;
        return -1;
    }
    return 0;
}

/// recvmsg with room for credentials and descriptors; closes every
/// descriptor received and reports the sender's pid.
static ssize_t receive_credentials(int fd, void *buffer, size_t capacity, pid_t *sender, int *truncated) {
    struct iovec vector = {.iov_base = buffer, .iov_len = capacity};
    union {
        char bytes[CMSG_SPACE(sizeof(struct ucred)) + CMSG_SPACE(sizeof(int) * 253)];
        struct cmsghdr align;
    } control;
    struct msghdr header = {
        .msg_iov = &vector, .msg_iovlen = 1, .msg_control = control.bytes, .msg_controllen = sizeof control.bytes};
    ssize_t count;
    do {
        count = recvmsg(fd, &header, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
    } while (count < 0 && errno == EINTR);
    *sender = 0;
    if (truncated) *truncated = 0;
    if (count < 0) return -1;
    if (truncated && (header.msg_flags & MSG_TRUNC)) *truncated = 1;
    for (struct cmsghdr *message = CMSG_FIRSTHDR(&header); message; message = CMSG_NXTHDR(&header, message)) {
        if (message->cmsg_level != SOL_SOCKET) continue;
        if (message->cmsg_type == SCM_CREDENTIALS && message->cmsg_len >= CMSG_LEN(sizeof(struct ucred))) {
            struct ucred credentials;
            memcpy(&credentials, CMSG_DATA(message), sizeof credentials);
            *sender = credentials.pid;
        } else if (message->cmsg_type == SCM_RIGHTS) {
            size_t bytes = message->cmsg_len - CMSG_LEN(0);
            for (size_t i = 0; i < bytes / sizeof(int); i++) {
                int received;
                memcpy(&received, CMSG_DATA(message) + i * sizeof(int), sizeof received);
                close(received);
            }
        }
    }
    if (header.msg_flags & MSG_CTRUNC) {
        // Descriptors beyond the buffer were closed by the kernel; the
        // credentials come first, so the sender is still known.
    }
    return count;
}

ssize_t lp_record_receive(int fd, void *buffer, size_t capacity, pid_t *sender, int *truncated) {
    return receive_credentials(fd, buffer, capacity, sender, truncated);
}

ssize_t lp_notify_receive(int fd, void *buffer, size_t capacity, pid_t *sender) {
    return receive_credentials(fd, buffer, capacity, sender, NULL);
}

int lp_pipe(int ends[2], int flags) { return pipe2(ends, flags); }

// MARK: - The loader audit library's channel

int lp_audit_listen(const char *path) {
    struct sockaddr_un address = {.sun_family = AF_UNIX};
    size_t length = strlen(path);
    if (length >= sizeof address.sun_path) {
        errno = ENAMETOOLONG;
        return -1;
    }
    memcpy(address.sun_path, path, length);
    int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd < 0) return -1;
    if (bind(fd, (struct sockaddr *)&address, sizeof address) != 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}

/// The descriptors an SCM_RIGHTS header carries: the first kept in `*keep`
/// when `keep` is not NULL and nothing is kept yet, every other one closed
/// (a hostile sender may attach any number).
static void take_rights(struct cmsghdr *header, int *keep) {
    size_t count = (header->cmsg_len - CMSG_LEN(0)) / sizeof(int);
    for (size_t index = 0; index < count; index++) {
        int received;
        memcpy(&received, CMSG_DATA(header) + index * sizeof(int), sizeof(int));
        if (keep != NULL && *keep < 0) *keep = received;
        else close(received);
    }
}

/// One datagram of `fd` into `message`'s buffer and control space, retried
/// on EINTR, never blocking, descriptors received close-on-exec.
static ssize_t receive_datagram(int fd, struct msghdr *message) {
    ssize_t length;
    do {
        length = recvmsg(fd, message, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
    } while (length < 0 && errno == EINTR);
    return length;
}

ssize_t lp_audit_receive_channel(int fd, void *buffer, size_t capacity, int *channel) {
    *channel = -1;
    union {
        char bytes[CMSG_SPACE(sizeof(int) * 8)];
        struct cmsghdr align;
    } control;
    struct iovec part = {.iov_base = buffer, .iov_len = capacity};
    struct msghdr message = {.msg_iov = &part, .msg_iovlen = 1, .msg_control = control.bytes, .msg_controllen = sizeof control.bytes};
    ssize_t length = receive_datagram(fd, &message);
    if (length < 0) return -1;
    for (struct cmsghdr *header = CMSG_FIRSTHDR(&message); header != NULL; header = CMSG_NXTHDR(&message, header)) {
        if (header->cmsg_level == SOL_SOCKET && header->cmsg_type == SCM_RIGHTS) take_rights(header, channel);
    }
    return length;
}

ssize_t lp_audit_receive_stamped(int fd, void *buffer, size_t capacity, uint64_t *stamp, int *truncated) {
    *stamp = 0;
    *truncated = 0;
    union {
        char bytes[CMSG_SPACE(sizeof(struct timespec)) + CMSG_SPACE(sizeof(int) * 8)];
        struct cmsghdr align;
    } control;
    struct iovec part = {.iov_base = buffer, .iov_len = capacity};
    struct msghdr message = {.msg_iov = &part, .msg_iovlen = 1, .msg_control = control.bytes, .msg_controllen = sizeof control.bytes};
    ssize_t length = receive_datagram(fd, &message);
    if (length < 0) return -1;
    if (message.msg_flags & MSG_TRUNC) *truncated = 1;
    for (struct cmsghdr *header = CMSG_FIRSTHDR(&message); header != NULL; header = CMSG_NXTHDR(&message, header)) {
        if (header->cmsg_level != SOL_SOCKET) continue;
        if (header->cmsg_type == SCM_TIMESTAMPNS && header->cmsg_len >= CMSG_LEN(sizeof(struct timespec))) {
            struct timespec when;
            memcpy(&when, CMSG_DATA(header), sizeof when);
            if (when.tv_sec >= 0) *stamp = (uint64_t)when.tv_sec * UINT64_C(1000000000) + (uint64_t)when.tv_nsec;
        } else if (header->cmsg_type == SCM_RIGHTS) {
            take_rights(header, NULL);  // a channel carries none
        }
    }
    return length;
}
