// The ingestion server's request bodies (core/server/ingestserver.h, server::Api) on a database in /dev/shm. The
// first byte picks the endpoint: 0 POST /v1/runs, 1 POST /v1/runs/{id}/iterations, 2 POST /v1/runs/{id}/finish (both
// on a run created for the input), 3 POST /v1/credit (no database). The rest is the body. A bad body must be refused
// with a 4xx reply whose body is an {"error": ...} object: an escaped exception (the HTTP layer's 500) or a 500
// reply is a finding. The database is started afresh every few thousand inputs, so that it stays small.

#include "core/server/ingestserver.h"
#include "tests/fuzz/fuzzutil.h"

#include <nlohmann/json.hpp>

#include <memory>

using namespace creditlab;

namespace {

const std::string& databasePath()
{
    static const std::string path = "/dev/shm/creditlab-fuzz-" + std::to_string(::getpid()) + "-serve.db";
    return path;
}

void removeDatabase()
{
    for (const char* suffix : { "", "-wal", "-shm", "-journal" })
        std::remove((databasePath() + suffix).c_str());
}

server::Api& api()
{
    static std::unique_ptr<server::Api> a;
    static std::size_t uses = 0;
    if (!a || ++uses % 4000 == 0) {
        a.reset();
        removeDatabase();
        a = std::make_unique<server::Api>(databasePath());
        static bool registered = false;
        if (!registered) {
            registered = true;
            std::atexit([] {
                a.reset();
                removeDatabase();
            });
        }
    }
    return *a;
}

void check(const char* endpoint, const server::Reply& r, std::string_view body)
{
    const bool ok = r.status == 200 || r.status == 201;
    const bool refused = r.status == 400 || r.status == 404 || r.status == 409 || r.status == 422;
    if (!ok && !refused)
        fuzz::finding(std::string(endpoint) + " answered HTTP " + std::to_string(r.status),
            r.body + "\nbody: " + std::string(body));
    const nlohmann::json j = nlohmann::json::parse(r.body, nullptr, false);
    if (j.is_discarded() || !j.is_object())
        fuzz::finding(std::string(endpoint) + ": the reply is not a JSON object", r.body);
    if (refused)
        fuzz::note(std::string(endpoint) + ": HTTP " + std::to_string(r.status) + " " + r.body);
    if (refused && !(j.contains("error") && j["error"].is_string()))
        fuzz::finding(std::string(endpoint) + ": a refusal without an error message", r.body);
}

std::int64_t newRun(server::Api& a)
{
    const server::Reply r = a.createRun(R"({"name":"fuzz"})", "fuzz");
    if (r.status != 201)
        fuzz::finding("cannot create a run", r.body);
    return nlohmann::json::parse(r.body).at("id").get<std::int64_t>();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size == 0)
        return 0;
    const std::string_view body = fuzz::text(data + 1, size - 1);
    const char* endpoint = "?";
    try {
        server::Api& a = api();
        switch (data[0] % 4) {
        case 0:
            endpoint = "createRun";
            check(endpoint, a.createRun(body, "fuzz"), body);
            break;
        case 1: {
            endpoint = "postIteration";
            const std::int64_t run = newRun(a);
            check(endpoint, a.postIteration(run, body), body);
            break;
        }
        case 2: {
            endpoint = "finishRun";
            const std::int64_t run = newRun(a);
            check(endpoint, a.finishRun(run, body), body);
            break;
        }
        default:
            endpoint = "credit";
            check(endpoint, a.credit(body), body);
            break;
        }
    } catch (const std::exception& e) {
        fuzz::unexpected(endpoint, e);
    }
    return 0;
}
