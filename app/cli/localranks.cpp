// `train --nproc N`: local ranks of a data-parallel run (localranks.h).
#include "localranks.h"

#include <netinet/in.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <thread>

extern char** environ;

namespace creditlab::cli {

namespace {

volatile sig_atomic_t g_forward = 0; ///< the last SIGINT or SIGTERM received, to pass on to the ranks

void remember(int signal) { g_forward = signal; }

/// A TCP port nothing listens on now, on 127.0.0.1 (rank 0 serves the store there).
int freePort()
{
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        return 29500;
    sockaddr_in a {};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    int port = 29500;
    if (::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0
        && ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) == 0)
        port = ntohs(a.sin_port);
    ::close(fd);
    return port;
}

std::string describe(int status)
{
    if (WIFSIGNALED(status))
        return std::string("was killed by signal ") + std::to_string(WTERMSIG(status)) + " ("
            + ::strsignal(WTERMSIG(status)) + ")";
    return "exited with status " + std::to_string(WEXITSTATUS(status));
}

int exitCodeOf(int status) { return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status); }

} // namespace

std::vector<std::string> ownArguments()
{
    std::ifstream in("/proc/self/cmdline", std::ios::binary);
    const std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::vector<std::string> args;
    std::size_t start = 0;
    for (std::size_t i = 0; i < all.size(); ++i)
        if (all[i] == '\0') {
            args.push_back(all.substr(start, i - start));
            start = i + 1;
        }
    return args;
}

std::vector<std::string> withoutOption(std::vector<std::string> args, const std::string& name)
{
    std::vector<std::string> out;
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (args[i] == name) {
            ++i; // its value
            continue;
        }
        if (args[i].rfind(name + "=", 0) == 0)
            continue;
        out.push_back(std::move(args[i]));
    }
    return out;
}

int runLocalRanks(int nproc, const std::vector<std::string>& args, double graceSeconds)
{
    const std::string port = std::to_string(freePort());
    const std::string self = "/proc/self/exe";
    char resolved[4096] = {};
    const ssize_t n = ::readlink(self.c_str(), resolved, sizeof resolved - 1);
    const std::string exe = n > 0 ? std::string(resolved, static_cast<std::size_t>(n)) : args.front();

    struct sigaction sa { };
    sa.sa_handler = remember;
    ::sigemptyset(&sa.sa_mask);
    struct sigaction oldInt {
    }, oldTerm {};
    ::sigaction(SIGINT, &sa, &oldInt);
    ::sigaction(SIGTERM, &sa, &oldTerm);

    const pid_t parent = ::getpid();
    std::vector<pid_t> pids;
    for (int rank = 0; rank < nproc; ++rank) {
        const pid_t pid = ::fork();
        if (pid < 0) {
            std::perror("creditlab-cli: fork");
            for (pid_t p : pids)
                ::kill(p, SIGKILL);
            return 1;
        }
        if (pid == 0) {
            // Its own process group: a terminal's Ctrl+C reaches this process alone, which passes it on once (a second
            // one would make the ranks quit at once instead of after their iteration).
            ::setpgid(0, 0);
            // The ranks die with the launcher (a killed launcher must not leave a run writing on its own).
            ::prctl(PR_SET_PDEATHSIG, SIGKILL);
            if (::getppid() != parent)
                ::_exit(1);
            ::signal(SIGINT, SIG_DFL);
            ::signal(SIGTERM, SIG_DFL);
            ::setenv("RANK", std::to_string(rank).c_str(), 1);
            ::setenv("LOCAL_RANK", std::to_string(rank).c_str(), 1);
            ::setenv("WORLD_SIZE", std::to_string(nproc).c_str(), 1);
            ::setenv("LOCAL_WORLD_SIZE", std::to_string(nproc).c_str(), 1);
            ::setenv("MASTER_ADDR", "127.0.0.1", 1);
            ::setenv("MASTER_PORT", port.c_str(), 1);
            ::unsetenv("TORCHELASTIC_USE_AGENT_STORE");
            std::vector<char*> argv;
            argv.push_back(const_cast<char*>(exe.c_str()));
            for (std::size_t i = 1; i < args.size(); ++i)
                argv.push_back(const_cast<char*>(args[i].c_str()));
            argv.push_back(nullptr);
            ::execve(exe.c_str(), argv.data(), environ);
            std::perror("creditlab-cli: exec");
            ::_exit(127);
        }
        pids.push_back(pid);
    }

    std::vector<bool> running(pids.size(), true);
    int left = nproc, result = 0, firstFailed = -1;
    auto killAt = std::chrono::steady_clock::time_point::max();
    int forwarded = 0;
    while (left > 0) {
        if (g_forward != 0 && g_forward != forwarded) {
            forwarded = g_forward;
            for (std::size_t r = 0; r < pids.size(); ++r)
                if (running[r])
                    ::kill(pids[r], forwarded);
        }
        int status = 0;
        const pid_t done = ::waitpid(-1, &status, WNOHANG);
        if (done > 0) {
            for (std::size_t r = 0; r < pids.size(); ++r)
                if (pids[r] == done && running[r]) {
                    running[r] = false;
                    --left;
                    if (exitCodeOf(status) != 0 && firstFailed < 0) {
                        firstFailed = static_cast<int>(r);
                        result = exitCodeOf(status);
                        std::fprintf(stderr, "creditlab-cli: rank %d of %d %s; stopping the other ranks\n", firstFailed,
                            nproc, describe(status).c_str());
                        killAt = std::chrono::steady_clock::now()
                            + std::chrono::milliseconds(static_cast<std::int64_t>(graceSeconds * 1000));
                    }
                }
            continue;
        }
        if (std::chrono::steady_clock::now() >= killAt) {
            for (std::size_t r = 0; r < pids.size(); ++r)
                if (running[r]) {
                    std::fprintf(stderr, "creditlab-cli: rank %zu did not stop after rank %d failed; killing it\n", r,
                        firstFailed);
                    ::kill(pids[r], SIGKILL);
                }
            killAt = std::chrono::steady_clock::time_point::max();
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    ::sigaction(SIGINT, &oldInt, nullptr);
    ::sigaction(SIGTERM, &oldTerm, nullptr);
    return result;
}

} // namespace creditlab::cli
