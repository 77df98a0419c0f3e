#pragma once

// The generated worlds' random stream. Torch-free, header-only.

#include <cstddef>
#include <cstdint>
#include <vector>

namespace creditlab::env {

/// splitmix64 (Steele, Lea and Flood 2014): a small, portable, seeded stream, the same sequence on every platform,
/// so a catalog or knowledge base generated from a seed is the same everywhere. Not thread-safe.
class SplitMix64 {
public:
    explicit SplitMix64(std::uint64_t seed)
        : m_state(seed)
    {
    }
    std::uint64_t next()
    {
        std::uint64_t z = (m_state += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    /// Uniform in [0, n); n > 0.
    int below(int n) { return static_cast<int>(next() % static_cast<std::uint64_t>(n)); }
    /// Uniform in [0, 1).
    double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
    /// A uniformly chosen element of a non-empty vector.
    template <typename T> const T& pick(const std::vector<T>& v)
    {
        return v[static_cast<std::size_t>(below(static_cast<int>(v.size())))];
    }

private:
    std::uint64_t m_state;
};

} // namespace creditlab::env
