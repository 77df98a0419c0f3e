/* An LD_PRELOAD library for tst_no_network: records every connect() and sendto() to an internet address (IPv4 or
 * IPv6; local sockets are allowed) in the file named by $CREDITLAB_CONNECT_LOG, one line per attempt, and lets it
 * proceed. A CreditLab program must contact no address the user did not configure (issue 22 §8). */
#include <arpa/inet.h>
#include <dlfcn.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

extern "C" {

static void record(const struct sockaddr* addr, const char* call)
{
    if (!addr || (addr->sa_family != AF_INET && addr->sa_family != AF_INET6))
        return;
    const char* path = getenv("CREDITLAB_CONNECT_LOG");
    if (!path)
        return;
    char host[INET6_ADDRSTRLEN] = "?";
    int port = 0;
    if (addr->sa_family == AF_INET) {
        const struct sockaddr_in* in = reinterpret_cast<const struct sockaddr_in*>(addr);
        inet_ntop(AF_INET, &in->sin_addr, host, sizeof host);
        port = ntohs(in->sin_port);
    } else {
        const struct sockaddr_in6* in6 = reinterpret_cast<const struct sockaddr_in6*>(addr);
        inet_ntop(AF_INET6, &in6->sin6_addr, host, sizeof host);
        port = ntohs(in6->sin6_port);
    }
    FILE* f = fopen(path, "a");
    if (f) {
        fprintf(f, "%s %s %d (pid %d)\n", call, host, port, static_cast<int>(getpid()));
        fclose(f);
    }
}

int connect(int fd, const struct sockaddr* addr, socklen_t len)
{
    static int (*real)(int, const struct sockaddr*, socklen_t);
    if (!real)
        real = reinterpret_cast<int (*)(int, const struct sockaddr*, socklen_t)>(dlsym(RTLD_NEXT, "connect"));
    record(addr, "connect");
    return real(fd, addr, len);
}

ssize_t sendto(int fd, const void* buf, size_t n, int flags, const struct sockaddr* addr, socklen_t len)
{
    static ssize_t (*real)(int, const void*, size_t, int, const struct sockaddr*, socklen_t);
    if (!real)
        real = reinterpret_cast<ssize_t (*)(int, const void*, size_t, int, const struct sockaddr*, socklen_t)>(
            dlsym(RTLD_NEXT, "sendto"));
    record(addr, "sendto");
    return real(fd, buf, n, flags, addr, len);
}

} // extern "C"
