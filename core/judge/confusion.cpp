#include "core/judge/confusion.h"

#include "core/interchange/jsonscanner.h"

#include <charconv>
#include <cmath>
#include <vector>

namespace creditlab::judge {

namespace {

constexpr double kRowTolerance = 1e-6;

bool isSeparator(char c) { return c == ',' || c == ';' || c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

/// Splits at separators, dropping empty pieces.
std::vector<std::string_view> tokens(std::string_view text)
{
    std::vector<std::string_view> out;
    std::size_t i = 0;
    while (i < text.size()) {
        while (i < text.size() && isSeparator(text[i]))
            ++i;
        const std::size_t b = i;
        while (i < text.size() && !isSeparator(text[i]))
            ++i;
        if (i > b)
            out.push_back(text.substr(b, i - b));
    }
    return out;
}

double parseProbability(std::string_view text, std::string_view where)
{
    double v = 0.0;
    const char* b = text.data();
    const char* e = b + text.size();
    if (b != e && *b == '+')
        ++b;
    const auto [ptr, ec] = std::from_chars(b, e, v);
    if (ec != std::errc() || ptr != e || !std::isfinite(v))
        throw ConfusionError(
            "confusion matrix: " + std::string(where) + ": '" + std::string(text) + "' is not a number");
    return v;
}

std::string number(double v)
{
    std::string s;
    appendJsonNumber(s, v);
    return s;
}

} // namespace

ConfusionMatrix::ConfusionMatrix()
{
    for (std::size_t i = 0; i < kRoleCount; ++i)
        m_rows[i][i] = 1.0;
}

ConfusionMatrix::ConfusionMatrix(const Rows& rows)
    : m_rows(rows)
{
    for (std::size_t i = 0; i < kRoleCount; ++i) {
        const std::string name(roleName(kRoles[i]));
        double sum = 0.0;
        for (std::size_t j = 0; j < kRoleCount; ++j) {
            const double p = rows[i][j];
            if (!std::isfinite(p) || p < 0.0 || p > 1.0)
                throw ConfusionError("confusion matrix: cell " + name + ":" + std::string(roleName(kRoles[j])) + " = "
                    + (std::isfinite(p) ? number(p) : std::string("a non-finite value")) + " is outside [0, 1]");
            sum += p;
        }
        if (std::abs(sum - 1.0) > kRowTolerance)
            throw ConfusionError(
                "confusion matrix: row " + name + " (true role " + name + ") sums to " + number(sum) + ", not 1");
    }
}

ConfusionMatrix ConfusionMatrix::fromAccuracy(double accuracy)
{
    if (!(accuracy >= 0.0 && accuracy <= 1.0))
        throw ConfusionError("judge accuracy must lie in [0, 1], got "
            + (std::isfinite(accuracy) ? number(accuracy) : std::string("a non-finite value")));
    Rows rows {};
    const double off = (1.0 - accuracy) / 3.0;
    for (std::size_t i = 0; i < kRoleCount; ++i)
        for (std::size_t j = 0; j < kRoleCount; ++j)
            rows[i][j] = i == j ? accuracy : off;
    return ConfusionMatrix(rows);
}

ConfusionMatrix ConfusionMatrix::parse(std::string_view text, const ConfusionMatrix& base)
{
    const std::vector<std::string_view> parts = tokens(text);
    if (parts.empty())
        throw ConfusionError("confusion matrix: empty text (expected cells like D:D=0.9 or 16 numbers)");
    Rows rows = base.m_rows;
    if (text.find(':') == std::string_view::npos) {
        // 16 numbers, row-major.
        if (parts.size() != kRoleCount * kRoleCount)
            throw ConfusionError("confusion matrix: expected 16 numbers (rows and columns D, E, N, R), got "
                + std::to_string(parts.size()));
        for (std::size_t k = 0; k < parts.size(); ++k)
            rows[k / kRoleCount][k % kRoleCount] = parseProbability(parts[k], "number " + std::to_string(k + 1));
        return ConfusionMatrix(rows);
    }
    std::array<bool, kRoleCount> named {};
    std::array<std::array<bool, kRoleCount>, kRoleCount> seen {};
    for (std::string_view cell : parts) {
        const std::size_t colon = cell.find(':');
        const std::size_t eq = cell.find('=');
        const auto truth = colon == std::string_view::npos ? std::nullopt : parseRole(cell.substr(0, colon));
        const auto judged = colon == std::string_view::npos || eq == std::string_view::npos || eq < colon
            ? std::nullopt
            : parseRole(cell.substr(colon + 1, eq - colon - 1));
        if (!truth || !judged)
            throw ConfusionError("confusion matrix: cell '" + std::string(cell)
                + "': expected TRUE:JUDGED=p with roles D, E, N or R, e.g. R:D=0.3");
        const std::size_t i = roleIndex(*truth);
        const std::size_t j = roleIndex(*judged);
        if (seen[i][j])
            throw ConfusionError("confusion matrix: cell " + std::string(cell.substr(0, eq)) + " is given twice");
        seen[i][j] = true;
        if (!named[i])
            rows[i].fill(0.0); // a named row consists of its listed cells only
        named[i] = true;
        rows[i][j] = parseProbability(cell.substr(eq + 1), "cell " + std::string(cell.substr(0, eq)));
    }
    return ConfusionMatrix(rows);
}

Role ConfusionMatrix::sample(Role truth, double u) const
{
    const Row& row = m_rows[roleIndex(truth)];
    double cumulative = 0.0;
    std::size_t last = roleIndex(truth);
    for (std::size_t j = 0; j < kRoleCount; ++j) {
        if (row[j] <= 0.0)
            continue;
        last = j;
        cumulative += row[j];
        if (u < cumulative)
            return kRoles[j];
    }
    return kRoles[last];
}

std::string ConfusionMatrix::toString() const
{
    std::string s;
    for (std::size_t i = 0; i < kRoleCount; ++i)
        for (std::size_t j = 0; j < kRoleCount; ++j)
            if (m_rows[i][j] > 0.0) {
                if (!s.empty())
                    s += ';';
                s += std::string(roleName(kRoles[i])) + ":" + std::string(roleName(kRoles[j])) + "="
                    + number(m_rows[i][j]);
            }
    return s;
}

} // namespace creditlab::judge
