#include "core/env/remote.h"

#include "core/env/remote_client.h"

#include <algorithm>
#include <cstdio>
#include <iterator>
#include <optional>
#include <stdexcept>

namespace creditlab::env::remote {

namespace {

constexpr std::string_view kDialects[] = { "alfworld", "webshop", "searchqa", "babyai" };

/// The observation text of an answer: a string, the first element of WebShop's [obs, null], or the
/// "observation" (or WebShop's "state") member of an object; nullopt when there is none.
std::optional<std::string> observationOf(const nlohmann::json& j)
{
    if (j.is_string())
        return j.get<std::string>();
    if (j.is_array() && !j.empty() && j.front().is_string())
        return j.front().get<std::string>();
    if (j.is_object())
        for (const char* key : { "observation", "state" })
            if (j.contains(key) && j[key].is_string())
                return j[key].get<std::string>();
    return std::nullopt;
}

double numberOf(const nlohmann::json& j, const char* key)
{
    if (!j.is_object() || !j.contains(key))
        return 0.0;
    const auto& v = j[key];
    return v.is_number() ? v.get<double>() : (v.is_boolean() && v.get<bool>() ? 1.0 : 0.0);
}

std::vector<std::string> stringsOf(const nlohmann::json& j)
{
    std::vector<std::string> out;
    if (j.is_array())
        for (const auto& e : j)
            if (e.is_string())
                out.push_back(e.get<std::string>());
    return out;
}

/// The goal line of an observation: after "Your task is to: " (ALFWorld) or "Your goal: " (BabyAI) up to the
/// end of the line; otherwise the first non-empty line.
std::string goalOf(const std::string& observation)
{
    for (std::string_view marker : { "Your task is to: ", "Your goal: " }) {
        const auto at = observation.find(marker);
        if (at != std::string::npos) {
            const auto from = at + marker.size();
            return observation.substr(from, observation.find('\n', from) - from);
        }
    }
    std::size_t from = observation.find_first_not_of("\n ");
    if (from == std::string::npos)
        return {};
    return observation.substr(from, observation.find('\n', from) - from);
}

/// BabyAI lists its actions in the observation: `Available actions: ["turn left", "turn right", ...]`.
std::vector<std::string> listedActions(const std::string& observation)
{
    const std::string_view marker = "Available actions:";
    const auto at = observation.rfind(marker);
    if (at == std::string::npos)
        return {};
    const auto open = observation.find('[', at);
    const auto close = observation.find(']', open);
    if (open == std::string::npos || close == std::string::npos)
        return {};
    return stringsOf(nlohmann::json::parse(observation.substr(open, close - open + 1), nullptr, false));
}

} // namespace

std::string_view dialectName(Dialect dialect) { return kDialects[static_cast<std::size_t>(dialect)]; }

std::vector<credit::ParamSpec> RemoteEnv::paramSpecs()
{
    using credit::ParamType;
    return {
        { "dialect", ParamType::Choice, "alfworld", {}, {}, { "alfworld", "webshop", "searchqa", "babyai" },
            "the server's routes and field names (AgentGym's ALFWorld, WebShop, SearchQA or BabyAI server)" },
        { "url", ParamType::Text, "http://127.0.0.1:36001", {}, {}, {}, "the server: http://host[:port][/prefix]" },
        { "timeout_ms", ParamType::Int, "10000", 1, 3600000, {}, "connect, read and write timeout of one request" },
        { "retries", ParamType::Int, "2", 0, 20, {}, "extra attempts after a failed request (not a sent /step)" },
        { "backoff_ms", ParamType::Int, "100", 0, 600000, {}, "wait before the first retry; doubles after each" },
        { "max_steps", ParamType::Int, "30", 1, 100000, {}, "step limit of an episode" },
        { "eval_offset", ParamType::Int, "100000", 0, 2147483647, {},
            "task index of an eval episode = seed + eval_offset (train: the seed)" },
        { "world_type", ParamType::Choice, "Text", {}, {}, { "Text", "Embody", "Hybrid" },
            "ALFWorld's world_type sent with /reset" },
    };
}

namespace {

RemoteOptions optionsOf(const credit::Params& p)
{
    RemoteOptions o;
    const std::string& dialect = p.getChoice("dialect");
    for (std::size_t i = 0; i < std::size(kDialects); ++i)
        if (kDialects[i] == dialect)
            o.dialect = static_cast<Dialect>(i);
    o.url = p.getText("url");
    o.timeoutMs = static_cast<int>(p.getInt("timeout_ms"));
    o.retries = static_cast<int>(p.getInt("retries"));
    o.backoffMs = static_cast<int>(p.getInt("backoff_ms"));
    o.maxSteps = static_cast<int>(p.getInt("max_steps"));
    o.evalOffset = static_cast<std::uint64_t>(p.getInt("eval_offset"));
    o.worldType = p.getChoice("world_type");
    return o;
}

} // namespace

RemoteEnv::RemoteEnv(const credit::Params& params)
    : RemoteEnv(optionsOf(params))
{
}

// The client checks the URL now; nothing reaches the server before the first reset() (configs are validated by
// constructing their environment).
RemoteEnv::RemoteEnv(RemoteOptions options)
    : m_options(std::move(options))
    , m_client(std::make_unique<Client>(m_options))
{
}

RemoteEnv::~RemoteEnv()
{
    try {
        m_client->setRetries(0);
        close();
    } catch (const std::exception&) {
        // The server may be gone (that may be why the episode failed); its environment dies with it.
    }
}

namespace {

/// The id member's name in request bodies and queries: ALFWorld and BabyAI say "id", WebShop and SearchQA
/// "env_idx".
const char* idKey(Dialect d) { return d == Dialect::AlfWorld || d == Dialect::BabyAi ? "id" : "env_idx"; }

} // namespace

void RemoteEnv::create()
{
    // /create answers an int (WebShop, SearchQA) or {"id": n} (ALFWorld, BabyAI); both are accepted.
    const nlohmann::json answer = m_client->post("/create", nlohmann::json::object());
    if (answer.is_number_integer())
        m_id = answer.get<long long>();
    else if (answer.is_object() && answer.contains("id") && answer["id"].is_number_integer())
        m_id = answer["id"].get<long long>();
    else
        throw std::runtime_error("remote env " + m_client->url() + ": POST /create: no environment id in the answer "
            + answer.dump().substr(0, 200));
}

void RemoteEnv::close()
{
    if (m_id < 0)
        return;
    const long long id = m_id;
    m_id = -1;
    m_ready = false;
    // ALFWorld's and WebShop's servers have no /close: their environments live as long as the server.
    if (m_options.dialect == Dialect::SearchQa || m_options.dialect == Dialect::BabyAi)
        m_client->post("/close", { { idKey(m_options.dialect), id } });
}

const std::string& RemoteEnv::reset(std::uint64_t seed, Split split)
{
    m_seed = seed; // first: the task key names the task even when the server fails
    m_split = split;
    m_ready = false;
    if (m_id < 0)
        create();
    const std::uint64_t index = seed + (split == Split::Eval ? m_options.evalOffset : 0);
    const Dialect d = m_options.dialect;
    nlohmann::json body = { { idKey(d), m_id } };
    switch (d) {
    case Dialect::AlfWorld:
        body["game"] = index;
        body["world_type"] = m_options.worldType;
        break;
    case Dialect::WebShop:
        body["session_id"] = index;
        break;
    case Dialect::SearchQa:
        body["id"] = index;
        break;
    case Dialect::BabyAi:
        body["data_idx"] = index;
        break;
    }
    const nlohmann::json answer = m_client->post("/reset", body);
    const auto observation = observationOf(answer);
    if (!observation)
        throw std::runtime_error("remote env " + m_client->url() + ": POST /reset: no observation in the answer "
            + answer.dump().substr(0, 200));
    m_initial = *observation;
    m_observation = m_initial;
    if (d == Dialect::WebShop) {
        const auto instruction
            = observationOf(m_client->get("/instruction_text", std::string("env_idx=") + std::to_string(m_id)));
        m_goal = instruction ? *instruction : goalOf(m_initial);
    } else {
        m_goal = goalOf(m_initial);
    }
    m_admissible.clear();
    m_admissibleStale = true;
    if (d == Dialect::AlfWorld && answer.is_object() && answer.contains("available_actions")) {
        m_admissible = stringsOf(answer["available_actions"]);
        m_admissibleStale = false;
    }
    m_ready = true;
    m_done = false;
    m_steps = 0;
    m_progress = 0.0;
    m_result = StepResult {};
    return m_initial;
}

const StepResult& RemoteEnv::step(std::string_view action)
{
    if (!m_ready)
        throw std::logic_error("remote: step() before reset()");
    if (m_done)
        throw std::logic_error("remote: step() after the episode ended");
    const Dialect d = m_options.dialect;
    // A step is not idempotent: once its request was sent it is not sent again (see Client::post).
    const nlohmann::json answer
        = m_client->post("/step", { { idKey(d), m_id }, { "action", std::string(action) } }, false);
    const auto observation = observationOf(answer);
    if (!observation)
        throw std::runtime_error("remote env " + m_client->url() + ": POST /step: no observation in the answer "
            + answer.dump().substr(0, 200));
    // BabyAI's client takes `score` as the reward (its `reward` is discounted by the step count).
    const double reward = numberOf(answer, d == Dialect::BabyAi ? "score" : "reward");
    const bool serverDone
        = answer.is_object() && answer.contains("done") && answer["done"].is_boolean() && answer["done"].get<bool>();
    ++m_steps;
    m_done = serverDone || m_steps >= m_options.maxSteps;
    m_result = StepResult {};
    m_result.info.stateBefore = observationKey(m_observation);
    m_result.info.progressBefore = m_progress;
    m_observation = *observation;
    m_result.feedback = m_observation;
    m_result.done = m_done;
    m_result.reward = m_done ? reward : 0.0;
    m_result.success = serverDone && reward >= 1.0 - 1e-9;
    m_progress = std::clamp(reward, 0.0, 1.0);
    m_result.info.progress = m_progress;
    // ALFWorld's phrase for an action that did nothing; other servers embed feedback in a page, so search it.
    m_result.info.valid = m_observation.find("Nothing happens.") == std::string::npos;
    m_result.info.stateAfter = observationKey(m_observation);
    m_admissible.clear();
    m_admissibleStale = true;
    if (d == Dialect::AlfWorld && answer.contains("available_actions")) {
        m_admissible = stringsOf(answer["available_actions"]);
        m_admissibleStale = false;
    }
    return m_result;
}

const std::vector<std::string>& RemoteEnv::admissibleCommands() const
{
    if (!m_admissibleStale)
        return m_admissible;
    m_admissible.clear();
    if (m_ready && !m_done) {
        const std::string query = std::string(idKey(m_options.dialect)) + "=" + std::to_string(m_id);
        switch (m_options.dialect) {
        case Dialect::AlfWorld: {
            const nlohmann::json answer = m_client->get("/available_actions", query);
            m_admissible = stringsOf(answer.is_object() ? answer.value("available_actions", nlohmann::json()) : answer);
            break;
        }
        case Dialect::WebShop: {
            const nlohmann::json answer = m_client->get("/available_actions", query);
            // Leniently, as every other field: a has_search_bar that is not a boolean counts as false (value() would
            // throw the JSON library's type_error).
            if (answer.is_object() && answer.contains("has_search_bar") && answer["has_search_bar"].is_boolean()
                && answer["has_search_bar"].get<bool>())
                m_admissible.push_back("search[" + m_goal + "]");
            if (answer.is_object())
                for (const std::string& c : stringsOf(answer.value("clickables", nlohmann::json())))
                    m_admissible.push_back("click[" + c + "]");
            break;
        }
        case Dialect::BabyAi:
            m_admissible = listedActions(m_observation);
            break;
        case Dialect::SearchQa: // free text: search[query] or answer[text]
            break;
        }
    }
    m_admissibleStale = false;
    return m_admissible;
}

std::string RemoteEnv::fetchObservation() const
{
    if (m_id < 0)
        return m_observation;
    const std::string query = std::string(idKey(m_options.dialect)) + "=" + std::to_string(m_id);
    const nlohmann::json answer = m_client->get("/observation", query);
    const auto observation = observationOf(answer);
    if (!observation)
        throw std::runtime_error("remote env " + m_client->url() + ": GET /observation: no observation in the answer "
            + answer.dump().substr(0, 200));
    return *observation;
}

std::string RemoteEnv::taskKey() const
{
    std::string key = "remote:" + std::string(dialectName(m_options.dialect)) + ":seed=" + std::to_string(m_seed);
    if (m_split == Split::Eval)
        key += ":split=eval";
    return key;
}

std::string RemoteEnv::taskSpec() const
{
    const std::uint64_t index = m_seed + (m_split == Split::Eval ? m_options.evalOffset : 0);
    return std::string(dialectName(m_options.dialect)) + "/" + std::to_string(index);
}

std::string RemoteEnv::stateKey() const { return observationKey(m_observation); }

std::string RemoteEnv::observationKey(std::string_view observation)
{
    std::uint64_t h = 0xcbf29ce484222325ull; // FNV-1a 64
    for (const char c : observation)
        h = (h ^ static_cast<unsigned char>(c)) * 0x100000001b3ull;
    char text[21];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(h));
    return "obs:" + std::string(text);
}

} // namespace creditlab::env::remote
