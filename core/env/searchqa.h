#pragma once

// `searchqa`: multi-hop question answering over a search engine, in the style of Search-R1 (Jin et al. 2025):
// the agent issues `<search>query</search>` and reads the top-k passages between <information> and
// </information>, then ends the episode with `<answer>text</answer>`, scored by exact match after SQuAD's
// normalisation. The knowledge base is generated from a seed (searchqa_kb.h). Like `household` and `shop` it
// exposes validity, a progress potential, information gain, a canonical state key and an oracle role per step.

#include "core/env/environment.h"
#include "core/env/searchqa_kb.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace creditlab::env::searchqa {

/// The searchqa environment. One instance per thread; instances of the same knowledge base (seed, size) share it
/// read-only. Actions: the first `<search>...</search>` or `<answer>...</answer>` in the action text (text around
/// it, such as a <think> block, is ignored); anything else is invalid (feedback "Invalid action: ...", saying how to
/// search and answer, as Search-R1 answers an unparsable turn). An answer ends the episode: reward 1 when it equals
/// the gold answer after normalizeAnswer(), else 0.
class SearchQaEnv final : public Environment {
public:
    static constexpr int kDefaultKbSize = 2000;
    /// `max_steps` (default 6), `kb_size` (default 2000 entities), `kb_seed` (default 0), `top_k` (default 3).
    static std::vector<credit::ParamSpec> paramSpecs();
    /// Builds or joins the shared knowledge base of (kb_seed, kb_size).
    explicit SearchQaEnv(const credit::Params& params);
    /// The defaults.
    SearchQaEnv();

    std::string_view name() const override { return "searchqa"; }
    const std::string& reset(std::uint64_t seed, Split split) override;
    const StepResult& step(std::string_view action) override;
    /// A search for every name the agent has read (the question's entity, names in passages shown) and an answer
    /// for every name and literal in the passages shown: the finite choice a random policy draws from.
    const std::vector<std::string>& admissibleCommands() const override;
    const std::string& goal() const override { return m_question.text; }
    const std::string& initialObservation() const override { return m_initial; }
    /// "searchqa:seed=17", "searchqa:seed=17:split=eval", with ":kb=<seed>/<size>" for a knowledge base not the
    /// default.
    std::string taskKey() const override;
    std::string taskSpec() const override { return m_question.spec(*m_kb); }
    /// "known=<hops read>/<hops>|read=<passage ids, sorted>|answer=<normalised answer or ->".
    std::string stateKey() const override;
    double progress() const override { return m_progress; }
    bool done() const override { return m_done; }
    int stepCount() const override { return m_steps; }
    int maxSteps() const override { return m_maxSteps; }
    /// Searches each hop's entity by its exact name, then answers: hops + 1 steps.
    bool expertAction(std::string& out) const override;
    /// Searches the question itself first, as a Search-R1 agent does; then follows, by name, the next link it
    /// has read; answers once the passage stating the answer has been shown.
    bool searchExpertAction(std::string& out) const override;

    /// For tests and tools.
    const KnowledgeBase& knowledgeBase() const { return *m_kb; }
    const Question& question() const { return m_question; }
    int topK() const { return m_topK; }
    /// Passages shown so far this episode (sorted ids).
    const std::vector<int>& read() const { return m_read; }
    /// The passages of the last search, best first.
    const std::vector<int>& lastResults() const { return m_lastResults; }
    /// How many hops of the chain the agent has read in order from the start (0 .. hops).
    int hopsKnown() const;
    bool answered() const { return m_answered; }

private:
    bool execute(std::string_view action);
    bool hasRead(int passage) const;
    double potential() const;

    std::shared_ptr<const KnowledgeBase> m_kb;
    int m_maxSteps = 6;
    int m_topK = 3;
    Question m_question;
    std::uint64_t m_seed = 0;
    Split m_split = Split::Train;
    bool m_ready = false;
    bool m_done = false;
    int m_steps = 0;
    double m_progress = 0.0;
    std::vector<int> m_read;
    std::vector<int> m_lastResults;
    std::vector<std::string> m_queries; ///< normalised queries searched this episode
    bool m_repeatedQuery = false; ///< the last search repeated one searched before
    bool m_newPassage = false; ///< the last search showed a passage not shown before
    bool m_answered = false;
    bool m_correct = false;
    std::string m_answer; ///< normalised
    std::string m_initial;
    StepResult m_result;
    mutable std::vector<std::string> m_admissible;
    mutable bool m_admissibleStale = true;
};

} // namespace creditlab::env::searchqa
