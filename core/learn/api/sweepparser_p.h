#pragma once

// The sweep file's YAML as sweepspec.cpp reads it: values checked for their type and range, nested maps flattened to
// dotted keys, random parameters' distributions and their samples, each error a ConfigError naming the file and the
// line. Internal.

#include "core/learn/api/rng.h"

#include <yaml-cpp/yaml.h>

#include <string>
#include <vector>

namespace creditlab::learn::detail {

/// A key of the file (dotted when nested) and its line.
struct Located {
    std::string key;
    int line = 0;
};

/// A random parameter: its distribution and arguments.
struct RandomParam {
    Located at;
    std::string kind; ///< log_uniform, uniform, int, choice
    double lo = 0.0, hi = 0.0;
    std::vector<std::string> choices;
};

/// The line of a node, from 1.
int lineOf(const YAML::Node& n);

/// Reads the values of one sweep file; every error is a ConfigError "source:line: what".
class SweepParser {
public:
    explicit SweepParser(std::string source);

    [[noreturn]] void fail(int line, const std::string& what) const;

    /// A plain value; `key` names it in the error.
    std::string scalar(const YAML::Node& n, const std::string& key) const;
    /// An integer in [min, max].
    long long integer(const YAML::Node& n, const std::string& key, long long min, long long max) const;
    /// A finite number.
    double number(const YAML::Node& n, const std::string& key) const;

    /// Flattens nested maps into dotted keys; `leaf` receives each non-map value.
    template <typename Leaf> void flatten(const YAML::Node& map, const std::string& prefix, Leaf&& leaf) const
    {
        for (const auto& item : map) {
            if (!item.first.IsScalar())
                fail(lineOf(item.first), "keys must be plain text");
            const std::string key = prefix.empty() ? item.first.Scalar() : prefix + "." + item.first.Scalar();
            if (item.second.IsMap() && !isDistribution(item.second))
                flatten(item.second, key, leaf);
            else
                leaf(Located { key, lineOf(item.first) }, item.second);
        }
    }

    /// Every map of the file, nested ones too, refuses what YAML refuses and yaml-cpp reads anyway:
    /// - a block map's last line without ':' ("  b" after "  a: {}"), which yaml-cpp reads as the key b with a null
    ///   value. An experiment's stored text adds lines after the file's last one, and read back with them such a line
    ///   is malformed, so the experiment's report and resume would fail after its run. Such a null value sits where
    ///   its key is; a written one ("b:", "b: ~", "{a, b}") does not.
    /// - a key given twice in one map. yaml-cpp keeps both and the later one won silently; a sweep whose `base:` came
    ///   twice (a map, then a file) parsed, but could not be stored.
    void checkMaps(const YAML::Node& n) const;

    /// A one-key map naming a distribution: {log_uniform: ...}, {uniform: ...}, {int: ...} or {choice: ...}.
    static bool isDistribution(const YAML::Node& n);

    /// The random parameter `at` as the file gives it, its arguments checked.
    RandomParam distribution(const Located& at, const YAML::Node& n) const;

private:
    std::string m_source;
};

/// One value of a random parameter, drawn from `rng`.
std::string sample(const RandomParam& p, Rng& rng);

} // namespace creditlab::learn::detail
