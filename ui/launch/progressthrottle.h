#pragma once

#include "core/model/vocabulary.h"

#include <chrono>

namespace creditlab::ui {

/// Which of the trainer's progress reports the GUI's training worker passes on. Reports within a phase come as often
/// as SFT steps do; the worker sends them at most about every `interval` (STYLE rule 7), so that the Monitor repaints
/// at a bounded rate. A report that changes what the Monitor's phase line shows always passes, however soon after the
/// last: a new phase (SFT, Evaluating, RL), a wait for a server, and a report with metrics (a finished iteration, or
/// SFT's summary, after which the Monitor shows RL). Before, only a new phase passed: SFT's summary, 100 ms after the
/// last SFT step, was dropped, and the Monitor said "SFT" until the first RL iteration had finished. Plain C++ with
/// std types; one instance per run, used on the worker thread.
class ProgressThrottle {
public:
    using Clock = std::chrono::steady_clock;

    explicit ProgressThrottle(Clock::duration interval = std::chrono::milliseconds(100))
        : m_interval(interval)
    {
    }

    /// Whether to send a report of `phase` arriving at `now`; `hasMetrics`: it carries metrics. Remembers the ones it
    /// lets through.
    bool admit(Phase phase, bool hasMetrics, Clock::time_point now)
    {
        // What the report makes the Monitor's phase line say: its phase, and with metrics what follows it.
        const bool changesPhaseLine = !m_sent || phase != m_lastPhase || hasMetrics != m_lastHadMetrics;
        const bool pass = hasMetrics || phase == Phase::Waiting || changesPhaseLine || now - m_lastSent >= m_interval;
        if (pass) {
            m_sent = true;
            m_lastPhase = phase;
            m_lastHadMetrics = hasMetrics;
            m_lastSent = now;
        }
        return pass;
    }

private:
    Clock::duration m_interval;
    bool m_sent = false; ///< nothing was sent yet
    Phase m_lastPhase = Phase::Setup;
    bool m_lastHadMetrics = false;
    Clock::time_point m_lastSent {};
};

} // namespace creditlab::ui
