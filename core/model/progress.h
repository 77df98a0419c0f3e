#pragma once

#include <cstdint>
#include <functional>
#include <stdexcept>

namespace creditlab {

/// Progress of a long job, reported through a ProgressCallback.
struct Progress {
    std::uint64_t done = 0; ///< units done (bytes for file jobs)
    std::uint64_t total = 0; ///< units in all; 0 when unknown
    std::uint64_t items = 0; ///< trajectories (or iterations) finished
    std::uint64_t subItems = 0; ///< turns finished
    double elapsedSeconds = 0.0;

    double fraction() const { return total > 0 ? static_cast<double>(done) / static_cast<double>(total) : 0.0; }
    /// Seconds left at the rate so far; negative when unknown.
    double etaSeconds() const
    {
        const double f = fraction();
        return f > 0.0 && elapsedSeconds > 0.0 ? elapsedSeconds * (1.0 - f) / f : -1.0;
    }
};

/// Called from the worker's thread, at most about every 100 ms; returning false cancels the job.
using ProgressCallback = std::function<bool(const Progress&)>;

/// Thrown by a job whose ProgressCallback returned false; everything it did was rolled back.
class Cancelled : public std::runtime_error {
public:
    Cancelled()
        : std::runtime_error("cancelled")
    {
    }
};

} // namespace creditlab
