#include "core/judge/httpjudge.h"

#include "core/credit/params.h"
#include "core/model/unavailable.h"
#include "core/storage/store.h"
#include "core/storage/storesync.h"

#include <curl/curl.h>
#include <nlohmann/json.hpp>
#include <sqlite3.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <unordered_map>

namespace creditlab::judge {

namespace {

using credit::ParamType;

/// One request's outcome: the answer, or why there is none.
struct Outcome {
    std::optional<ChatAnswer> answer;
    std::string error;
    int attempts = 0;
    bool down = false; ///< the last attempt found no server (Attempt::down)
};

std::size_t appendBody(char* data, std::size_t size, std::size_t count, void* user)
{
    static_cast<std::string*>(user)->append(data, size * count);
    return size * count;
}

/// Whether a failed attempt is worth repeating: transport errors, timeouts, 408, 429, 5xx and answers the
/// model got wrong (TRIAGE §8.4 retries those); not other 4xx (a wrong URL, model or key stays wrong).
struct Attempt {
    std::optional<ChatAnswer> answer;
    std::string error;
    bool retryable = true;
    bool down = false; ///< nothing answered: refused or reset connection, no answer, HTTP 502/503/504 (not a timeout)
};

/// One worker thread's connection: reusing the easy handle keeps the connection to the server alive between
/// requests.
using CurlHandle = std::unique_ptr<CURL, decltype(&curl_easy_cleanup)>;

Attempt attemptOnce(CURL* h, const HttpJudge::Settings& s, const std::string& body)
{
    Attempt a;
    if (!h) {
        a.error = "curl_easy_init failed";
        return a;
    }
    curl_easy_reset(h); // clears the options, keeps the open connections
    std::string url = s.url;
    while (!url.empty() && url.back() == '/')
        url.pop_back();
    url += "/chat/completions";
    curl_slist* headers = curl_slist_append(nullptr, "Content-Type: application/json");
    // No "Expect: 100-continue" on large bodies: servers that never answer it would stall each request 1 s.
    headers = curl_slist_append(headers, "Expect:");
    if (!s.apiKey.empty())
        headers = curl_slist_append(headers, ("Authorization: Bearer " + s.apiKey).c_str());
    std::unique_ptr<curl_slist, decltype(&curl_slist_free_all)> headerList(headers, &curl_slist_free_all);
    std::string response;
    curl_easy_setopt(h, CURLOPT_URL, url.c_str());
    curl_easy_setopt(h, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(h, CURLOPT_POSTFIELDS, body.c_str());
    curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE, static_cast<long>(body.size()));
    curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, &appendBody);
    curl_easy_setopt(h, CURLOPT_WRITEDATA, &response);
    curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, s.timeoutMs);
    curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L); // worker threads: no SIGALRM for DNS timeouts
    const CURLcode rc = curl_easy_perform(h);
    if (rc != CURLE_OK) {
        a.error = rc == CURLE_OPERATION_TIMEDOUT ? "timeout after " + std::to_string(s.timeoutMs) + " ms"
                                                 : std::string("transport: ") + curl_easy_strerror(rc);
        // A slow model times out on one prompt; a server that is gone fails every request like this.
        a.down = rc != CURLE_OPERATION_TIMEDOUT;
        return a;
    }
    long status = 0;
    curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
    if (status != 200) {
        a.error = "HTTP " + std::to_string(status) + ": " + response.substr(0, 200);
        a.retryable = status == 408 || status == 429 || status >= 500;
        a.down = status == 502 || status == 503 || status == 504; // a proxy or load balancer with no model behind it
        return a;
    }
    try {
        a.answer = parseChatCompletion(response);
    } catch (const std::runtime_error& e) {
        a.error = e.what();
    }
    return a;
}

Outcome request(CURL* h, const HttpJudge::Settings& s, const std::string& window)
{
    const nlohmann::json body = { { "model", s.model },
        { "messages",
            nlohmann::json::array({ { { "role", "system" }, { "content", judgeSystemPrompt() } },
                { { "role", "user" }, { "content", window } } }) },
        { "temperature", s.temperature }, { "max_tokens", s.maxTokens }, { "stream", false } };
    // The window quotes the policy's actions, which need not be valid UTF-8 (a byte-level policy can stop inside a
    // character): such bytes are sent as U+FFFD, where dump() would throw on this worker thread.
    const std::string text = body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    Outcome out;
    for (int attempt = 0; attempt <= s.retries; ++attempt) {
        if (attempt > 0) // exponential backoff: backoff_ms, 2x, 4x, ...
            std::this_thread::sleep_for(std::chrono::milliseconds(s.backoffMs << std::min(attempt - 1, 10)));
        ++out.attempts;
        Attempt a = attemptOnce(h, s, text);
        if (a.answer) {
            out.answer = std::move(a.answer);
            return out;
        }
        out.error = std::move(a.error);
        out.down = a.down;
        if (!a.retryable)
            break;
    }
    // The reason is stored and shown: never with the key in it, even when a server echoes the request.
    if (!s.apiKey.empty())
        for (auto at = out.error.find(s.apiKey); at != std::string::npos; at = out.error.find(s.apiKey, at))
            out.error.replace(at, s.apiKey.size(), "***");
    return out;
}

void initCurl()
{
    static std::once_flag once;
    std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

} // namespace

ChatAnswer parseChatCompletion(std::string_view response)
{
    try {
        const auto j = nlohmann::json::parse(response);
        const auto& content = j.at("choices").at(0).at("message").at("content");
        if (!content.is_string())
            throw std::runtime_error("message content is not a string");
        return parseChatAnswer(content.get<std::string>());
    } catch (const nlohmann::json::exception& e) {
        throw std::runtime_error(std::string("response is not a chat completion: ") + e.what());
    }
}

const std::vector<credit::ParamSpec>& HttpJudge::params()
{
    static const std::vector<credit::ParamSpec> specs {
        { "url", ParamType::Text, "http://127.0.0.1:8000/v1", {}, {}, {},
            "base URL of an OpenAI-compatible API; requests go to {url}/chat/completions" },
        { "model", ParamType::Text, "Qwen/Qwen3-8B", {}, {}, {}, "the model name the server knows" },
        { "api_key_env", ParamType::Text, "", {}, {}, {},
            "name of the environment variable holding the API key (empty: no key sent)" },
        { "concurrency", ParamType::Int, "4", 1, 64, {}, "simultaneous requests" },
        { "timeout_ms", ParamType::Int, "60000", 1, 3600000, {}, "time limit of one request" },
        { "retries", ParamType::Int, "2", 0, 10, {}, "attempts after a failed one" },
        { "backoff_ms", ParamType::Int, "500", 0, 60000, {}, "wait before the first retry; doubles each retry" },
        { "temperature", ParamType::Double, "0", 0, 2, {}, "sampling temperature (TRIAGE: 0)" },
        { "max_tokens", ParamType::Int, "4096", 1, 1000000, {}, "answer length limit, thinking included" },
    };
    return specs;
}

std::unique_ptr<HttpJudge> HttpJudge::create(
    const std::vector<std::pair<std::string, std::string>>& assignments, Store* store)
{
    const credit::Params p = credit::Params::resolve(std::string(kName), params(), assignments);
    Settings s;
    s.url = p.getText("url");
    s.model = p.getText("model");
    s.apiKeyEnv = p.getText("api_key_env");
    s.concurrency = static_cast<int>(p.getInt("concurrency"));
    s.timeoutMs = static_cast<long>(p.getInt("timeout_ms"));
    s.retries = static_cast<int>(p.getInt("retries"));
    s.backoffMs = static_cast<long>(p.getInt("backoff_ms"));
    s.temperature = p.getDouble("temperature");
    s.maxTokens = static_cast<long>(p.getInt("max_tokens"));
    if (s.url.empty())
        throw credit::ParamError("judge http: url is empty");
    if (s.model.empty())
        throw credit::ParamError("judge http: model is empty");
    if (!s.apiKeyEnv.empty()) {
        const char* key = std::getenv(s.apiKeyEnv.c_str());
        if (key && *key)
            s.apiKey = key;
        else if (store) // a run: refuse to start rather than fail every turn with HTTP 401
            throw std::invalid_argument(
                "judge http: the environment variable " + s.apiKeyEnv + " (judge.api_key_env) is not set");
    }
    initCurl();
    return std::unique_ptr<HttpJudge>(new HttpJudge(std::move(s), store));
}

HttpJudge::HttpJudge(Settings settings, Store* store)
    : m_settings(std::move(settings))
    , m_store(store)
{
}

HttpJudge::~HttpJudge() = default;

std::string HttpJudge::tag() const
{
    return std::string(kName) + ":model=" + m_settings.model + ",url=" + m_settings.url;
}

void HttpJudge::restart(std::uint64_t stream)
{
    (void)stream;
    m_judged = 0;
    m_cached = 0;
    m_requests = 0;
    m_failures.clear();
}

std::vector<Verdict> HttpJudge::judge(const Trajectory& t, std::span<const std::optional<Role>> oracle)
{
    (void)oracle;
    return judgeBatch(std::span<const Trajectory>(&t, 1), {}).front();
}

std::vector<std::vector<Verdict>> HttpJudge::judgeBatch(
    std::span<const Trajectory> trajectories, std::span<const std::vector<std::optional<Role>>> oracle)
{
    (void)oracle; // an LLM judge never sees the environment's truth
    struct Item {
        std::size_t trajectory = 0;
        std::size_t turn = 0;
        std::string window;
        std::string key;
        std::size_t miss = 0; ///< index into `misses` of the request that answers it
    };
    std::vector<std::vector<Verdict>> out(trajectories.size());
    std::vector<Item> items;
    for (std::size_t i = 0; i < trajectories.size(); ++i) {
        out[i].resize(trajectories[i].turns.size());
        for (std::size_t k = 0; k < trajectories[i].turns.size(); ++k) {
            Item item { i, k, judgeWindow(trajectories[i], k), {}, 0 };
            // The key covers everything the model sees: the model name, the system prompt and the window.
            item.key = sha256Hex(m_settings.model + '\0' + judgeSystemPrompt() + '\0' + item.window);
            items.push_back(std::move(item));
        }
    }
    m_judged += static_cast<std::int64_t>(items.size());

    // 1. Cached answers (the store's thread); the remaining distinct prompts become requests.
    std::vector<std::size_t> misses; // the first item of each distinct uncached prompt
    std::unordered_map<std::string, std::size_t> missOfKey;
    std::optional<Statement> lookup;
    if (m_store)
        lookup = m_store->database().prepare(
            "SELECT role, rationale, confidence FROM judge_cache WHERE key = ?1 AND role IS NOT NULL");
    for (std::size_t n = 0; n < items.size(); ++n) {
        Item& item = items[n];
        if (lookup) {
            lookup->reset();
            lookup->bind(1, item.key);
            if (lookup->step()) {
                if (const auto role = parseRole(lookup->columnTextView(0))) {
                    out[item.trajectory][item.turn] = { role, roleScore(*role), std::nullopt, lookup->columnOptText(1),
                        lookup->columnOptDouble(2) };
                    ++m_cached;
                    continue;
                }
            }
        }
        const auto [it, added] = missOfKey.emplace(item.key, misses.size());
        if (added)
            misses.push_back(n);
        item.miss = it->second;
    }

    // 2. The requests, at most `concurrency` at a time (the worker threads touch no store).
    std::vector<Outcome> outcomes(misses.size());
    std::atomic<std::size_t> next { 0 };
    const auto work = [&] {
        CurlHandle curl(curl_easy_init(), &curl_easy_cleanup);
        for (std::size_t m = next++; m < misses.size(); m = next++)
            outcomes[m] = request(curl.get(), m_settings, items[misses[m]].window);
    };
    std::vector<std::thread> workers;
    const auto threads = std::min<std::size_t>(static_cast<std::size_t>(m_settings.concurrency), misses.size());
    for (std::size_t w = 0; w < threads; ++w)
        workers.emplace_back(work);
    for (auto& w : workers)
        w.join();

    // 3. The cache (one transaction unless the caller holds one), then verdicts and failures.
    if (m_store && !misses.empty()) {
        Database& db = m_store->database();
        std::optional<Transaction> tx;
        if (sqlite3_get_autocommit(db.handle()))
            tx.emplace(db);
        Statement insert = db.prepare("INSERT OR REPLACE INTO judge_cache (key, model, role, confidence, rationale, "
                                      "error, attempts, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)");
        const std::string now = currentTimestamp();
        for (std::size_t m = 0; m < misses.size(); ++m) {
            const Outcome& o = outcomes[m];
            insert.reset();
            insert.bind(1, items[misses[m]].key).bind(2, m_settings.model);
            if (o.answer)
                insert.bind(3, roleName(o.answer->role))
                    .bind(4, o.answer->confidence)
                    .bind(5, o.answer->rationale)
                    .bindNull(6);
            else
                insert.bindNull(3).bindNull(4).bindNull(5).bind(6, o.error);
            insert.bind(7, o.attempts).bind(8, now);
            insert.exec();
        }
        if (tx)
            tx->commit();
    }
    std::size_t down = 0;
    const Outcome* firstDown = nullptr;
    for (const Outcome& o : outcomes) {
        m_requests += o.attempts;
        if (!o.answer && o.down) {
            firstDown = firstDown ? firstDown : &o;
            ++down;
        }
    }
    // The endpoint went away (its answers so far are cached): the caller may wait and judge the batch again,
    // instead of training on turns that lost their labels to an outage.
    if (down > 0)
        throw ServiceUnavailable("judge http " + m_settings.url + ": " + std::to_string(down) + " of "
            + std::to_string(outcomes.size()) + " requests found no server (" + firstDown->error + ")");
    for (std::size_t n = 0; n < items.size(); ++n) {
        const Item& item = items[n];
        Verdict& v = out[item.trajectory][item.turn];
        if (v.role)
            continue;
        if (const Outcome& o = outcomes[item.miss]; o.answer) {
            v = { o.answer->role, roleScore(o.answer->role), std::nullopt, o.answer->rationale, o.answer->confidence };
            if (misses[item.miss] != n)
                ++m_cached; // answered by an identical prompt earlier in the batch
        } else {
            m_failures.push_back({ trajectories[item.trajectory].id, item.turn, o.error });
        }
    }
    return out;
}

} // namespace creditlab::judge
