#pragma once

// The trainer's random stream: small, fast, device-independent and easy to checkpoint. Torch-free.

#include <cstdint>

namespace creditlab::learn {

/// SplitMix64 (Steele, Lea and Flood 2014). Every random choice of a run (tasks, sampled tokens,
/// minibatch order) comes from one Rng whose state is saved with each checkpoint, so a resumed run
/// continues exactly. Not thread-safe.
class Rng {
public:
    explicit Rng(std::uint64_t seed = 0)
        : m_state(seed)
    {
    }
    std::uint64_t next()
    {
        std::uint64_t z = (m_state += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }
    /// Uniform in [0, 1).
    double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
    /// Uniform in [0, n); n > 0.
    std::uint64_t below(std::uint64_t n) { return next() % n; }
    std::uint64_t state() const { return m_state; }
    void setState(std::uint64_t state) { m_state = state; }

private:
    std::uint64_t m_state;
};

} // namespace creditlab::learn
