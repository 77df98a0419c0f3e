#include "core/env/recall.h"

#include "core/env/splitmix.h"

#include <stdexcept>

namespace creditlab::env::recall {

namespace {
constexpr const char* kInvalid = "Nothing happens.";
}

const std::vector<std::string>& RecallEnv::codeWords()
{
    static const std::vector<std::string> words { "red", "blue", "green", "gold", "pink", "gray", "black", "white",
        "amber", "olive", "coral", "ivory", "azure", "lilac", "plum", "teal" };
    return words;
}

std::vector<credit::ParamSpec> RecallEnv::paramSpecs()
{
    using credit::ParamType;
    return {
        { "delay", ParamType::Int, "3", 1, 1000, {}, "turns between the code and the question (the code is shown at turn 1)" },
        { "words", ParamType::Int, "8", 2, 16, {}, "how many code words the seed draws from" },
        { "max_steps", ParamType::Int, "12", 1, 100000, {}, "step limit of an episode" },
    };
}

RecallEnv::RecallEnv(const credit::Params& params)
    : m_delay(static_cast<int>(params.getInt("delay")))
    , m_words(static_cast<int>(params.getInt("words")))
    , m_maxSteps(static_cast<int>(params.getInt("max_steps")))
{
}

const std::string& RecallEnv::reset(std::uint64_t seed, Split split)
{
    m_seed = seed;
    m_split = split;
    SplitMix64 random(seed * 2 + (split == Split::Eval ? 1 : 0));
    m_word = codeWords()[static_cast<std::size_t>(random.below(m_words))];
    m_goal = "remember the code and say it when asked.";
    m_initial = "Listen.";
    m_phase = 0;
    m_steps = 0;
    m_done = false;
    m_admissible = { "wait" };
    for (int k = 0; k < m_words; ++k)
        m_admissible.push_back("say " + codeWords()[static_cast<std::size_t>(k)]);
    return m_initial;
}

const StepResult& RecallEnv::step(std::string_view action)
{
    if (m_done)
        throw std::logic_error("recall: step() after the episode ended (call reset())");
    m_result = StepResult();
    m_result.info.stateBefore = stateKey();
    m_result.info.progressBefore = progress();
    ++m_steps;
    const bool asking = m_phase == m_delay + 1;
    const bool valid = asking ? action.rfind("say ", 0) == 0 : action == "wait";
    m_result.info.valid = valid;
    if (!valid) {
        m_result.feedback = kInvalid;
        m_result.info.role = Role::R;
    } else if (asking) {
        m_result.success = action.substr(4) == m_word;
        m_result.reward = m_result.success ? 1.0 : 0.0;
        m_result.feedback = m_result.success ? "Correct." : "Wrong.";
        m_result.info.role = m_result.success ? Role::D : Role::R;
        m_done = true;
    } else {
        ++m_phase;
        m_result.info.gainedInformation = m_phase == 1;
        m_result.info.role = m_phase == 1 ? Role::E : Role::N;
        m_result.feedback = m_phase == 1 ? "The code is " + m_word + "."
            : m_phase == m_delay + 1     ? std::string("What is the code?")
                                         : std::string("Wait.");
    }
    if (!m_done && m_steps >= m_maxSteps)
        m_done = true;
    m_result.done = m_done;
    m_result.info.stateAfter = stateKey();
    m_result.info.progress = progress();
    return m_result;
}

std::string RecallEnv::taskKey() const
{
    return "recall:seed=" + std::to_string(m_seed) + (m_split == Split::Eval ? ":split=eval" : "");
}

std::string RecallEnv::stateKey() const
{
    return "phase=" + std::to_string(m_phase) + "|heard=" + (m_phase >= 1 ? "1" : "0");
}

double RecallEnv::progress() const
{
    return static_cast<double>(m_phase) / static_cast<double>(m_delay + 2);
}

bool RecallEnv::expertAction(std::string& out) const
{
    if (m_done)
        return false;
    out = m_phase == m_delay + 1 ? "say " + m_word : "wait";
    return true;
}

} // namespace creditlab::env::recall
