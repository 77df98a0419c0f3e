// serve: the live ingestion server (core/server/ingestserver.h; docs/serve.md).
#include "commands.h"

#include "core/server/ingestserver.h"
#include "core/storage/paths.h"

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <thread>

namespace creditlab::cli {

namespace {

std::atomic<bool> g_terminated { false };

void onTerminate(int) { g_terminated = true; }

} // namespace

void addServeCommand(CLI::App& app)
{
    struct Options {
        DbOption db;
        std::string host = "127.0.0.1";
        int port = 8765;
        std::string tokenEnv = "CREDITLAB_SERVE_TOKEN";
        bool tokenEnvGiven = false;
        double maxBodyMb = 256.0;
        int threads = 8;
        double rate = 50.0;
        bool quiet = false;
    };
    auto o = std::make_shared<Options>();
    CLI::App* cmd = app.add_subcommand("serve", "Serve a database over HTTP: trainers post runs into it and ask for credit");
    cmd->add_option("--db", o->db.path, "Database file (default: " + defaultDatabasePath() + ")")->type_name("FILE");
    cmd->add_option("--host", o->host, "Address to listen on; anything but loopback needs a token")
        ->capture_default_str()
        ->type_name("ADDRESS");
    cmd->add_option("--port", o->port, "Port; 0 picks a free one")->capture_default_str()->check(CLI::Range(0, 65535));
    auto* tokenEnv = cmd->add_option("--token-env", o->tokenEnv,
                             "Environment variable holding the bearer token; when it is set, requests need "
                             "\"Authorization: Bearer <token>\"")
                         ->capture_default_str()
                         ->type_name("NAME");
    cmd->add_option("--max-body-mb", o->maxBodyMb, "Largest request body, in MiB")
        ->capture_default_str()
        ->check(CLI::Range(0.001, 4096.0));
    cmd->add_option("--threads", o->threads, "Requests handled at once")->capture_default_str()->check(CLI::Range(1, 256));
    cmd->add_option("--rate", o->rate, "Requests per second per client address (bursts of twice that); 0: no limit")
        ->capture_default_str()
        ->check(CLI::Range(0.0, 1e6));
    cmd->add_flag("--quiet,-q", o->quiet, "Do not log each request");
    cmd->footer("Endpoints (JSON): GET /v1/health, POST /v1/runs, GET /v1/runs[/{id}], POST /v1/runs/{id}/iterations,\n"
                "POST /v1/runs/{id}/finish, POST /v1/credit, POST /v1/merge (a database file: sweep trial --post).\n"
                "docs/serve.md describes them; a Python client is in\n"
                "resources/clients/python/. The token is read from the environment, never from the command line,\n"
                "and is neither logged nor stored. Ctrl+C stops the server after the requests in progress.");
    cmd->callback([o, tokenEnv] {
        server::ServerOptions options;
        options.database = o->db.resolved();
        options.host = o->host;
        options.port = o->port;
        options.maxBodyBytes = static_cast<std::size_t>(o->maxBodyMb * 1024.0 * 1024.0);
        options.threads = o->threads;
        options.ratePerSecond = o->rate;
        const char* token = std::getenv(o->tokenEnv.c_str());
        if (token && *token) {
            options.token = std::string(token);
        } else if (tokenEnv->count() > 0) {
            throw CLI::ValidationError("--token-env", "the environment variable " + o->tokenEnv + " is not set");
        }
        if (!server::isLoopback(o->host) && !options.token)
            throw CLI::ValidationError("--host",
                o->host + " is reachable from other machines; set a token (" + o->tokenEnv
                    + ", or --token-env NAME) before listening there");
        std::mutex logMutex;
        if (!o->quiet)
            options.log = [&logMutex](const std::string& line) {
                std::lock_guard lock(logMutex);
                std::fprintf(stderr, "%s\n", line.c_str());
            };
        server::IngestServer srv(options);
        std::printf("listening on http://%s:%d/v1 (database %s; %s)\n", o->host.c_str(), srv.port(),
            options.database.c_str(), options.token ? "token required" : "no token");
        std::fflush(stdout);
        std::signal(SIGTERM, onTerminate);
        std::thread watcher([&srv] {
            while (!g_interrupted && !g_terminated)
                std::this_thread::sleep_for(std::chrono::milliseconds(100));
            srv.stop();
        });
        srv.run();
        g_terminated = true;
        watcher.join();
        std::printf("stopped\n");
    });
}

} // namespace creditlab::cli
