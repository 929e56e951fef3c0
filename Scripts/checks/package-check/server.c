// A tiny TCP server for Scripts/checks/check-package.sh (`--ready port:N`): waits
// 20 ms, listens on 127.0.0.1:PORT, and accepts and closes connections until
// a signal ends it. Linked statically, so it runs in any root.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv) {
    long port = argc == 2 ? strtol(argv[1], NULL, 10) : 0;
    if (port < 1 || port > 65535) {
        fprintf(stderr, "usage: server PORT (1-65535)\n");
        return 2;
    }
    struct timespec pause = {0, 20 * 1000 * 1000};
    nanosleep(&pause, NULL);
    int listener = socket(AF_INET, SOCK_STREAM, 0);
    int yes = 1;
    setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons((unsigned short)port)};
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (listener < 0 || bind(listener, (struct sockaddr *)&address, sizeof address) != 0 || listen(listener, 16) != 0) {
        perror("server: listen");
        return 1;
    }
    for (;;) {
        int connection = accept(listener, NULL, NULL);
        if (connection >= 0) close(connection);
    }
}
