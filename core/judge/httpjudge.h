#pragma once

// The `http` judge (issue 9): TRIAGE's role classifier (triage.md §3) served by any OpenAI-compatible
// chat-completions endpoint (vLLM, llama.cpp server, Ollama, ...).

#include "core/judge/judge.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace creditlab::judge {

/// The judge's answer for one turn, parsed from the message content.
struct ChatAnswer {
    Role role = Role::N;
    std::optional<std::string> rationale;
    std::optional<double> confidence; ///< in [0, 1]
};

/// Parses the message content of a chat completion strictly: one JSON object with `role` exactly "D", "E",
/// "N" or "R", an optional string `rationale` and an optional number `confidence` in [0, 1]; other members
/// (TRIAGE's auxiliary scores, triage.md §8.2) are ignored. Two wrappers are tolerated, nothing else: a
/// leading `<think>...</think>` block (TRIAGE's default judge is a thinking model, and servers without a
/// reasoning parser return its thoughts in the content) and one Markdown fence around the object
/// (```` ```json ... ``` ```` or ```` ``` ... ``` ````). Throws std::runtime_error saying what is wrong. Any thread.
ChatAnswer parseChatAnswer(std::string_view content);

/// Parses a chat-completions response body (HTTP 200): the content of `choices[0].message` as parseChatAnswer()
/// does. Throws std::runtime_error saying what is wrong ("response is not a chat completion: ..." when the body is
/// not JSON or has no string content there). Any thread.
ChatAnswer parseChatCompletion(std::string_view response);

/// TRIAGE's judge prompt (triage.md §3.4, verbatim up to its output format), asking for one object
/// `{"role", "rationale", "confidence"}` for the CURRENT step: the single-label variant of §8.3, so that each
/// call yields exactly one primary role per segment. Any thread.
const std::string& judgeSystemPrompt();

/// The user message for turn `k` of `t` (triage.md §3.2): the task goal, up to five previous
/// action-observation pairs, the CURRENT action and its immediate observation, up to five future pairs;
/// never the outcome. A turn's immediate observation is its `feedback`, else the next turn's observation.
/// Any thread.
std::string judgeWindow(const Trajectory& t, std::size_t k);

/// A turn the judge could not label, and why (HTTP status, timeout, malformed answer, ...).
struct JudgeFailure {
    std::string trajectory; ///< the trajectory's id
    std::size_t turn = 0;
    std::string reason;
};

/// The `http` judge. Parameters (`judge.<key>`): `url` (the base URL; requests go to {url}/chat/completions),
/// `model`, `api_key_env` (the NAME of the environment variable holding the API key, sent as
/// "Authorization: Bearer"; the key itself is never a parameter, never stored, never part of the tag),
/// `concurrency` (simultaneous requests), `timeout_ms` (per request), `retries` (after a failed attempt,
/// with exponential backoff from `backoff_ms`), `temperature`, `max_tokens`.
///
/// Each turn is one request (libcurl, http or https). Answers are cached in the store's `judge_cache`
/// table under SHA-256(model, prompt), so a turn whose prompt was answered before is never requested again.
/// A turn that fails after every retry gets a verdict without a role; the failure is counted, listed by
/// failures() and written to the cache table with its reason (a failed prompt is asked again on a later
/// pass). Not thread-safe: judge() runs on the store's thread and uses up to `concurrency` worker threads
/// for the requests, joined before it returns; it cannot be cancelled (bounded by timeouts and retries).
class HttpJudge final : public Judge {
public:
    static constexpr std::string_view kName = "http";

    /// The parameter metadata.
    static const std::vector<credit::ParamSpec>& params();
    /// Resolves the parameters (throws credit::ParamError naming the key) and reads the key from the variable
    /// named by `api_key_env`. With a `store` (a run) that variable must be set (std::invalid_argument
    /// otherwise) and answers are cached; without one (config validation, rollouts to a file) nothing is cached.
    static std::unique_ptr<HttpJudge> create(
        const std::vector<std::pair<std::string, std::string>>& assignments, Store* store);
    ~HttpJudge() override;

    /// "http:model=<model>,url=<url>".
    std::string tag() const override;
    /// Judges every turn; `oracle` is not used (an LLM judge never sees the environment's truth).
    std::vector<Verdict> judge(const Trajectory& trajectory, std::span<const std::optional<Role>> oracle) override;
    /// Judges every turn of the batch, up to `concurrency` requests in flight across all its trajectories;
    /// identical prompts in the batch are asked once. Throws ServiceUnavailable (core/model/unavailable.h) when any
    /// request found no server (Attempt::down), after caching the answers that came: asked again, the batch
    /// sends only the requests that failed.
    std::vector<std::vector<Verdict>> judgeBatch(
        std::span<const Trajectory> trajectories, std::span<const std::vector<std::optional<Role>>> oracle) override;
    /// Resets the counters and the failure list.
    void restart(std::uint64_t stream) override;

    /// Turns judged, answered without a request of their own (from the cache, or by an identical prompt
    /// earlier in the batch), and failed since the last restart().
    std::int64_t judgedTurns() const { return m_judged; }
    std::int64_t cachedTurns() const { return m_cached; }
    std::int64_t failedTurns() const { return static_cast<std::int64_t>(m_failures.size()); }
    /// HTTP requests sent since the last restart(), retries included.
    std::int64_t requests() const { return m_requests; }
    const std::vector<JudgeFailure>& failures() const { return m_failures; }

    struct Settings {
        std::string url;
        std::string model;
        std::string apiKeyEnv;
        std::string apiKey; ///< read from the environment; never stored
        int concurrency = 4;
        long timeoutMs = 60000;
        int retries = 2;
        long backoffMs = 500;
        double temperature = 0.0;
        long maxTokens = 4096;
    };

private:
    HttpJudge(Settings settings, Store* store);

    Settings m_settings;
    Store* m_store = nullptr;
    std::int64_t m_judged = 0;
    std::int64_t m_cached = 0;
    std::int64_t m_requests = 0;
    std::vector<JudgeFailure> m_failures;
};

} // namespace creditlab::judge
