#include "commands.h"

#include <cmath>
#include <cstdio>
#include <unistd.h>

namespace creditlab::cli {

std::atomic<bool> g_interrupted { false };

std::string formatClock(double seconds)
{
    if (seconds < 0 || !std::isfinite(seconds))
        return "?";
    const long s = std::lround(seconds);
    char out[32];
    if (s >= 3600)
        std::snprintf(out, sizeof out, "%ld:%02ld:%02ld", s / 3600, (s / 60) % 60, s % 60);
    else
        std::snprintf(out, sizeof out, "%ld:%02ld", s / 60, s % 60);
    return out;
}

ProgressLine::ProgressLine(std::string label)
    : m_label(std::move(label))
    , m_tty(::isatty(STDERR_FILENO) != 0)
{
}

ProgressLine::~ProgressLine() { clear(); }

bool ProgressLine::update(double fraction, const std::string& counts, double etaSeconds)
{
    if (g_interrupted.load())
        return false;
    if (!m_tty)
        return true;
    char eta[32] = "";
    if (etaSeconds >= 0.0) {
        const long s = std::lround(etaSeconds);
        std::snprintf(eta, sizeof eta, ", ETA %ld:%02ld", s / 60, s % 60);
    }
    std::fprintf(stderr, "\r\033[K%s %5.1f%% %s%s", m_label.c_str(), 100.0 * fraction, counts.c_str(), eta);
    std::fflush(stderr);
    m_shown = true;
    return true;
}

void ProgressLine::clear()
{
    if (m_shown) {
        std::fprintf(stderr, "\r\033[K");
        std::fflush(stderr);
        m_shown = false;
    }
}

} // namespace creditlab::cli
