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
/// corrupted one (a wrong verb, a wrong number, or nonsense), which is usually invalid.
class NoisyExpertPolicy final : public Policy {
public:
    /// epsilon in [0, 1]; throws std::invalid_argument otherwise.
    explicit NoisyExpertPolicy(double epsilon);
    std::string_view name() const override { return "noisy-expert"; }
    void reset(std::uint64_t seed) override { m_state = seed; }
    std::string_view act(const Environment& env) override;
    double epsilon() const { return m_epsilon; }

private:
    double m_epsilon;
    std::uint64_t m_state = 0;
    std::string m_action;
};

/// The policy names makePolicy() knows: "expert", "noisy-expert", "random".
const std::vector<std::string>& policyNames();
/// Creates a policy by name; `epsilon` is used by noisy-expert only. The expert re-plans after every detour, so
/// outcomes mix only at high epsilon: on the train split with 50 steps, success is 100% at 0.3, 99.9% at 0.5,
/// about 81% at 0.7 (the default) and about 11% at 0.9. Throws std::invalid_argument for an unknown
/// name (listing the known ones) or a bad epsilon.
std::unique_ptr<Policy> makePolicy(std::string_view name, double epsilon = 0.7);

} // namespace creditlab::env
