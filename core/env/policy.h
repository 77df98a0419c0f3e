#pragma once

// Scripted policies over any Environment: the expert, the noisy expert and the random policy.

#include "core/env/environment.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace creditlab::env {

/// Chooses the next action text from the environment's current state. Seeded and deterministic.
/// One instance per thread.
class Policy {
public:
    virtual ~Policy() = default;
    virtual std::string_view name() const = 0;
    /// Restarts the policy's random stream; call at the start of each episode.
    virtual void reset(std::uint64_t seed) = 0;
    /// The next action; the view stays valid until the next act() or the environment's next step().
    virtual std::string_view act(const Environment& env) = 0;
};

/// The environment's expert (Environment::expertAction); throws std::logic_error when it has none.
class ExpertPolicy final : public Policy {
public:
    std::string_view name() const override { return "expert"; }
    void reset(std::uint64_t) override { }
    std::string_view act(const Environment& env) override;

private:
    std::string m_action;
};

/// The environment's searching expert (Environment::searchExpertAction): decides only from what it has seen.
class SearchExpertPolicy final : public Policy {
public:
    std::string_view name() const override { return "search-expert"; }
    void reset(std::uint64_t) override { }
    std::string_view act(const Environment& env) override;

private:
    std::string m_action;
};

/// A uniformly random admissible command.
class RandomPolicy final : public Policy {
public:
    std::string_view name() const override { return "random"; }
    void reset(std::uint64_t seed) override { m_state = seed; }
    std::string_view act(const Environment& env) override;

private:
    std::uint64_t m_state = 0;
};

/// The expert with probability 1 - epsilon; otherwise, with equal chance, a random admissible command or a
/// corrupted one (a wrong verb, a wrong number, or nonsense), which is usually invalid. The expert re-plans after
/// such a slip, so slips alone rarely fail an episode; so a share kMistakeShare of the noisy steps are instead a
/// wrong decision that persists, where the environment offers one (Environment::mistakenExpertAction): the policy
/// then pursues a wrong task (the household: a wrong object, or a wrong destination) with the same slips, and when
/// it is done believes it has finished and wanders (random admissible commands). It never returns to the real task.
class NoisyExpertPolicy final : public Policy {
public:
    /// The share of noisy steps that are a persistent wrong decision. With 50 steps on the household's train split
    /// (creditlab-cli env rollout, 400 episodes), success is about 97% at epsilon 0.1, 90% at 0.3, 80% at 0.5, 55%
    /// at 0.7 (the default; 51% over the first 200) and 4% at 0.9; without mistakes it was 100% up to 0.5 and 85%
    /// at 0.7.
    static constexpr double kMistakeShare = 0.03;

    /// epsilon and mistakeShare in [0, 1]; throws std::invalid_argument otherwise. A mistakeShare of 0 gives slips
    /// only, the policy as it was before persistent mistakes (longer episodes: at epsilon 0.5 they average 22
    /// steps instead of 15, which matters for SFT's noisy demonstrations).
    explicit NoisyExpertPolicy(double epsilon, double mistakeShare = kMistakeShare);
    std::string_view name() const override { return "noisy-expert"; }
    void reset(std::uint64_t seed) override;
    std::string_view act(const Environment& env) override;
    double epsilon() const { return m_epsilon; }

private:
    double m_epsilon;
    double m_mistakeShare;
    std::uint64_t m_state = 0;
    std::uint64_t m_mistakeState = 0; ///< a stream of its own, drawn only on noisy steps
    std::uint64_t m_mistake = 0; ///< the wrong decision being pursued; 0: none yet
    std::string m_action;
};

/// The policy names makePolicy() knows: "expert", "noisy-expert", "random".
const std::vector<std::string>& policyNames();
/// Creates a policy by name; `epsilon` is used by noisy-expert only (success rates at NoisyExpertPolicy's
/// kMistakeShare). Throws std::invalid_argument for an unknown name (listing the known ones) or a bad epsilon.
std::unique_ptr<Policy> makePolicy(std::string_view name, double epsilon = 0.7);

} // namespace creditlab::env
