#pragma once

// `recall`: the smallest task that needs memory. Turn 1's observation names a code word; the next turns only ask the
// agent to wait; the last turn asks for the code. An agent that sees the whole episode (policy.memory: episode)
// can answer; one that sees a window of the last turns cannot once the word has left the window (the word is not in
// the first observation, so window mode's scene does not keep it either). Used by the tests to show that memory
// reaches the policy, and by researchers as a sanity check of a memory setting.

#include "core/env/environment.h"

#include <cstdint>
#include <string>
#include <vector>

namespace creditlab::env::recall {

/// Episodes of `delay` + 2 turns: "Listen." -> any action; "The code is <word>." -> "wait"; then `delay` - 1 times
/// "Wait." -> "wait"; then "What is the code?" -> "say <word>", which ends the episode with reward 1 when the word is
/// right, else 0. Any other action is invalid ("Nothing happens.") and changes nothing. The word is drawn from
/// `words` code words by the seed; the train and eval splits draw from the same words (the task is the memory, not
/// generalisation to new words).
class RecallEnv final : public Environment {
public:
    /// `delay` (default 3: the word is asked for four turns after it was shown), `words` (default 8), `max_steps`
    /// (default 12).
    static std::vector<credit::ParamSpec> paramSpecs();
    explicit RecallEnv(const credit::Params& params);

    std::string_view name() const override { return "recall"; }
    const std::string& reset(std::uint64_t seed, Split split) override;
    const StepResult& step(std::string_view action) override;
    const std::vector<std::string>& admissibleCommands() const override { return m_admissible; }
    const std::string& goal() const override { return m_goal; }
    const std::string& initialObservation() const override { return m_initial; }
    std::string taskKey() const override;
    std::string taskSpec() const override { return "recall/" + m_word; }
    /// "phase=<n>|heard=<0/1>".
    std::string stateKey() const override;
    double progress() const override;
    bool done() const override { return m_done; }
    int stepCount() const override { return m_steps; }
    int maxSteps() const override { return m_maxSteps; }
    bool expertAction(std::string& out) const override;

    /// The code words, in order.
    static const std::vector<std::string>& codeWords();

private:
    int m_delay;
    int m_words;
    int m_maxSteps;
    std::uint64_t m_seed = 0;
    Split m_split = Split::Train;
    std::string m_word;
    std::string m_goal;
    std::string m_initial;
    std::vector<std::string> m_admissible;
    int m_phase = 0; ///< 0: listen, 1: the code, 2..delay: wait, delay + 1: the question
    int m_steps = 0;
    bool m_done = true;
    StepResult m_result;
};

} // namespace creditlab::env::recall
