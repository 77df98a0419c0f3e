// creditlab-testserver: the tests' loopback servers as a process, for end-to-end tests that kill a server with a
// signal mid-run (and for trying the remote environment and the http judge by hand).
//
//   creditlab-testserver env DIALECT [--port N]   an AgentGym-style corridor game (tests/core/remote_test_server.h)
//   creditlab-testserver judge [--port N]         an OpenAI-style chat endpoint that labels every turn N
//                                                   (tests/core/fake_chat_server.h), at http://127.0.0.1:N/v1
//
// Prints "listening on http://127.0.0.1:PORT" once it accepts connections, then serves until killed.
#include "tests/core/fake_chat_server.h"
#include "tests/core/remote_test_server.h"

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <unistd.h>

namespace {

int usage()
{
    std::fprintf(stderr,
        "usage: creditlab-testserver env alfworld|webshop|searchqa|babyai [--port N]\n"
        "       creditlab-testserver judge [--port N]\n");
    return 2;
}

} // namespace

int main(int argc, char** argv)
{
    if (argc < 2)
        return usage();
    const std::string what = argv[1];
    std::string dialect;
    int first = 2;
    if (what == "env") {
        if (argc < 3)
            return usage();
        dialect = argv[2];
        if (dialect != "alfworld" && dialect != "webshop" && dialect != "searchqa" && dialect != "babyai")
            return usage();
        first = 3;
    } else if (what != "judge") {
        return usage();
    }
    int port = 0;
    for (int i = first; i < argc; ++i) {
        if (std::strcmp(argv[i], "--port") == 0 && i + 1 < argc)
            port = std::atoi(argv[++i]);
        else
            return usage();
    }
    // SIGTERM and SIGINT end the process at once (the point is to be killed); block them for the server threads.
    std::string url;
    std::unique_ptr<creditlab::test::RemoteTestServer> env;
    std::unique_ptr<creditlab::test::FakeChatServer> judge;
    if (what == "env") {
        env = std::make_unique<creditlab::test::RemoteTestServer>(dialect, false, port);
        if (env->port() <= 0) {
            std::fprintf(stderr, "creditlab-testserver: cannot listen on port %d\n", port);
            return 1;
        }
        url = env->url();
    } else {
        judge = std::make_unique<creditlab::test::FakeChatServer>(
            [](int, const nlohmann::json&) {
                return creditlab::test::ChatReply { 200,
                    creditlab::test::chatCompletion(
                        R"({"role": "N", "confidence": 0.9, "rationale": "every step counts here"})"),
                    0 };
            },
            port);
        if (judge->port() <= 0) {
            std::fprintf(stderr, "creditlab-testserver: cannot listen on port %d\n", port);
            return 1;
        }
        url = judge->baseUrl();
    }
    std::printf("listening on %s\n", url.c_str());
    std::fflush(stdout);
    for (;;)
        pause(); // until a signal ends the process
}
