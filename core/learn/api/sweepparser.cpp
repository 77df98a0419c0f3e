// Reading a sweep file's YAML (sweepparser_p.h): typed values, dotted keys, random distributions and their samples.
// Torch-free.
#include "core/learn/api/sweepparser_p.h"

#include "core/learn/api/trainconfig.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <map>

namespace creditlab::learn::detail {

namespace {

std::string formatNumber(double v)
{
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, r.ptr);
}

} // namespace

int lineOf(const YAML::Node& n) { return n.Mark().line + 1; }

SweepParser::SweepParser(std::string source)
    : m_source(std::move(source))
{
}

void SweepParser::fail(int line, const std::string& what) const
{
    throw ConfigError(m_source + ":" + std::to_string(line) + ": " + what);
}

std::string SweepParser::scalar(const YAML::Node& n, const std::string& key) const
{
    if (!n.IsScalar())
        fail(lineOf(n), key + ": expected a value");
    return n.Scalar();
}

long long SweepParser::integer(const YAML::Node& n, const std::string& key, long long min, long long max) const
{
    const std::string text = scalar(n, key);
    long long v = 0;
    const auto r = std::from_chars(text.data(), text.data() + text.size(), v);
    if (r.ec != std::errc() || r.ptr != text.data() + text.size())
        fail(lineOf(n), key + ": expected an integer, got '" + text + "'");
    if (v < min || v > max)
        fail(lineOf(n),
            key + ": " + text + " is out of range [" + std::to_string(min) + ", " + std::to_string(max) + "]");
    return v;
}

double SweepParser::number(const YAML::Node& n, const std::string& key) const
{
    const std::string text = scalar(n, key);
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0' || !std::isfinite(v))
        fail(lineOf(n), key + ": expected a number, got '" + text + "'");
    return v;
}

void SweepParser::checkMaps(const YAML::Node& n) const
{
    if (n.IsMap()) {
        std::map<std::string, int> seen; // plain keys and their lines
        for (const auto& item : n) {
            const YAML::Mark key = item.first.Mark(), value = item.second.Mark();
            if (item.second.IsNull() && key.line == value.line && key.column == value.column)
                fail(key.line + 1,
                    "'" + item.first.Scalar() + "' has no ':' after it (write '" + item.first.Scalar()
                        + ":' for an empty value)");
            if (item.first.IsScalar())
                if (const auto [at, first] = seen.emplace(item.first.Scalar(), key.line + 1); !first)
                    fail(key.line + 1,
                        item.first.Scalar() + ": given twice (also on line " + std::to_string(at->second) + ")");
            checkMaps(item.second);
        }
    } else if (n.IsSequence()) {
        for (const auto& e : n)
            checkMaps(e);
    }
}

bool SweepParser::isDistribution(const YAML::Node& n)
{
    if (!n.IsMap() || n.size() != 1)
        return false;
    const std::string k = n.begin()->first.Scalar();
    return k == "log_uniform" || k == "uniform" || k == "int" || k == "choice";
}

RandomParam SweepParser::distribution(const Located& at, const YAML::Node& n) const
{
    if (!isDistribution(n))
        fail(at.line,
            at.key
                + ": expected {log_uniform: [lo, hi]}, {uniform: [lo, hi]}, {int: [lo, hi]} or "
                  "{choice: [a, b, ...]}");
    RandomParam p;
    p.at = at;
    p.kind = n.begin()->first.Scalar();
    const YAML::Node args = n.begin()->second;
    if (!args.IsSequence() || args.size() == 0)
        fail(at.line, at.key + ": " + p.kind + ": expected a list");
    if (p.kind == "choice") {
        for (const auto& c : args)
            p.choices.push_back(scalar(c, at.key));
        return p;
    }
    if (args.size() != 2)
        fail(at.line, at.key + ": " + p.kind + ": expected [lo, hi]");
    p.lo = number(args[0], at.key);
    p.hi = number(args[1], at.key);
    if (p.kind == "int" && (p.lo != std::floor(p.lo) || p.hi != std::floor(p.hi)))
        fail(at.line, at.key + ": int: the bounds must be integers");
    // Sampling converts them to 64-bit integers: beyond that range the conversion is undefined.
    if (p.kind == "int" && (std::fabs(p.lo) > 9.0e15 || std::fabs(p.hi) > 9.0e15))
        fail(at.line, at.key + ": int: the bounds must be within -9e15 and 9e15");
    if (p.lo > p.hi)
        fail(at.line, at.key + ": " + p.kind + ": lo must not exceed hi");
    if (p.kind == "log_uniform" && p.lo <= 0.0)
        fail(at.line, at.key + ": log_uniform: the bounds must be positive");
    return p;
}

std::string sample(const RandomParam& p, Rng& rng)
{
    const double u = rng.uniform();
    if (p.kind == "choice")
        return p.choices[rng.below(p.choices.size())];
    if (p.kind == "int")
        return std::to_string(static_cast<long long>(p.lo)
            + static_cast<long long>(rng.below(static_cast<std::uint64_t>(p.hi - p.lo) + 1)));
    if (p.kind == "log_uniform")
        return formatNumber(std::exp(std::log(p.lo) + u * (std::log(p.hi) - std::log(p.lo))));
    return formatNumber(p.lo + u * (p.hi - p.lo));
}

} // namespace creditlab::learn::detail
