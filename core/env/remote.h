#pragma once

// `remote`: an environment served over HTTP in the style of AgentGym (one FastAPI server per environment). The
// routes and field names differ per server, so a dialect picks them (../shared/reference/peers.md §A.3):
//
//   dialect   create               reset body                           step answer                  actions
//   alfworld  POST /create {"id"}  {id, game, world_type}               {observation, reward, done}  in the answers
//   webshop   POST /create int     {env_idx, session_id}  -> [obs,null] {state, reward, done}        GET
//   /available_actions searchqa  POST /create int     {env_idx, id}                        {observation, reward, done}
//   none (free text) babyai    POST /create {"id"}  {id, data_idx}                       {observation, score, done}
//   "Available actions:"
//
// The task index sent to the server (game, session_id, id, data_idx) is the task seed on the train split and
// seed + eval_offset on the eval split. A remote server exposes no canonical state, so the state key is a hash
// of the observation text ("obs:<16 hex digits>", FNV-1a 64): two states with the same text share a key. There
// is no expert, no oracle role and no progress potential (progress is the last reward, clamped to [0, 1]).

#include "core/env/environment.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace creditlab::env::remote {

/// Which server's routes and field names the client speaks.
enum class Dialect : std::uint8_t { AlfWorld, WebShop, SearchQa, BabyAi };

/// "alfworld", "webshop", "searchqa" or "babyai".
std::string_view dialectName(Dialect dialect);

/// The connection settings of a RemoteEnv.
struct RemoteOptions {
    Dialect dialect = Dialect::AlfWorld;
    std::string url = "http://127.0.0.1:36001"; ///< scheme, host, port and an optional path prefix
    int timeoutMs = 10000; ///< connect, read and write timeout of one attempt
    int retries = 2; ///< extra attempts after a failed one, waiting backoffMs, then twice as long, ...
    int backoffMs = 100;
    int maxSteps = 30;
    std::uint64_t evalOffset = 100000; ///< added to the seed to form the task index of an eval episode
    std::string worldType = "Text"; ///< ALFWorld's world_type: Text, Embody or Hybrid
};

/// An Environment whose episodes run on an AgentGym-style HTTP server. One instance per thread (it owns one
/// HTTP client). The server-side environment is created on the first reset() and closed on destruction.
/// Every call that reaches the server blocks for at most (retries + 1) * timeout_ms plus the backoff, and
/// throws std::runtime_error naming the URL, the route and what failed when the server is down, times out,
/// answers a status other than 200 or answers {"error": ...} (AgentGym reports errors with HTTP 200).
/// Transport failures are retried with exponential backoff, except a /step whose request was sent: a second
/// attempt could act twice, so it fails at once. Nothing cancels.
class RemoteEnv final : public Environment {
public:
    /// `dialect`, `url`, `timeout_ms`, `retries`, `backoff_ms`, `max_steps`, `eval_offset`, `world_type`.
    static std::vector<credit::ParamSpec> paramSpecs();
    explicit RemoteEnv(const credit::Params& params);
    explicit RemoteEnv(RemoteOptions options);
    /// Closes the server-side environment (errors are ignored: the server may be gone).
    ~RemoteEnv() override;
    RemoteEnv(const RemoteEnv&) = delete;
    RemoteEnv& operator=(const RemoteEnv&) = delete;

    std::string_view name() const override { return "remote"; }
    /// Creates the server-side environment when there is none yet, then resets it to the task index.
    const std::string& reset(std::uint64_t seed, Split split) override;
    const StepResult& step(std::string_view action) override;
    /// The server's available actions (WebShop's clickables as click[...], plus search[<instruction>] where
    /// there is a search bar); empty for searchqa, whose actions are free text. Fetched once per state.
    const std::vector<std::string>& admissibleCommands() const override;
    /// The "Your task is to: ..." (or "Your goal: ...") line of the initial observation; WebShop's instruction.
    const std::string& goal() const override { return m_goal; }
    const std::string& initialObservation() const override { return m_initial; }
    /// "remote:<dialect>:seed=17", "remote:<dialect>:seed=17:split=eval".
    std::string taskKey() const override;
    /// "<dialect>/<task index>": the server's own task numbering.
    std::string taskSpec() const override;
    /// "obs:<hash of the current observation>" (see the file comment).
    std::string stateKey() const override;
    double progress() const override { return m_progress; }
    bool done() const override { return m_done; }
    int stepCount() const override { return m_steps; }
    int maxSteps() const override { return m_options.maxSteps; }
    /// A remote server has no expert.
    bool expertAction(std::string&) const override { return false; }

    /// The current observation as the server tells it now (GET /observation; the last one where there is no
    /// such route). Throws as the class comment says.
    std::string fetchObservation() const;
    /// Closes the server-side environment now (POST /close where the dialect has it); reset() creates a new one.
    void close();
    const RemoteOptions& options() const { return m_options; }
    /// The server-side environment id; -1 before the first reset().
    long long remoteId() const { return m_id; }

    /// The state key of an observation text: "obs:" + 16 hex digits of its FNV-1a 64 hash.
    static std::string observationKey(std::string_view observation);

private:
    class Client;
    void create();

    RemoteOptions m_options;
    std::unique_ptr<Client> m_client;
    long long m_id = -1;
    std::uint64_t m_seed = 0;
    Split m_split = Split::Train;
    bool m_ready = false;
    bool m_done = false;
    int m_steps = 0;
    double m_progress = 0.0;
    std::string m_goal;
    std::string m_initial;
    std::string m_observation;
    StepResult m_result;
    mutable std::vector<std::string> m_admissible;
    mutable bool m_admissibleStale = true;
};

} // namespace creditlab::env::remote
