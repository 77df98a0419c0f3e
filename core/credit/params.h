#pragma once

#include <limits>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace creditlab::credit {

/// Text: free text, validated by its reader (e.g. a judge's confusion matrix); no range.
enum class ParamType { Bool, Int, Double, Choice, Text };

/// The metadata of one estimator parameter: the CLI, config validation and GUI forms read it.
struct ParamSpec {
    std::string name; ///< dotted key, e.g. "lambda" or "c.D"
    ParamType type = ParamType::Double;
    std::string defaultValue; ///< in the text form `--set` takes
    double min = -std::numeric_limits<double>::infinity(); ///< inclusive, numbers only
    double max = std::numeric_limits<double>::infinity(); ///< inclusive, numbers only
    std::vector<std::string> choices; ///< Choice only
    std::string doc; ///< one line
    bool minExclusive = false; ///< the range is (min, ... instead of [min, ...
    bool maxExclusive = false; ///< the range is ..., max) instead of ..., max]

    /// "bool", "int", "double", "text" or "one of a|b|c".
    std::string typeName() const;
    /// "[0, 1]", "(0, 0.5)" style range text; empty for Bool, Choice, Text and unbounded numbers.
    std::string rangeText() const;
};

/// A bad `--set`: unknown key, bad value, out of range. `what()` names the key.
class ParamError : public std::invalid_argument {
public:
    using std::invalid_argument::invalid_argument;
};

/// Resolved, validated parameter values of one estimator. Immutable after resolve(). Any thread.
class Params {
public:
    /// Applies `assignments` ("key", "value") over the defaults of `specs`. Throws ParamError naming
    /// the key and the method for an unknown key, an unparsable value or one out of range.
    static Params resolve(const std::string& method, const std::vector<ParamSpec>& specs,
        const std::vector<std::pair<std::string, std::string>>& assignments);

    bool getBool(const std::string& name) const;
    long long getInt(const std::string& name) const;
    double getDouble(const std::string& name) const;
    const std::string& getChoice(const std::string& name) const;
    const std::string& getText(const std::string& name) const;

    /// The normalised text of any parameter ("0.5", "true", "turn"); throws std::logic_error when unknown.
    const std::string& textOf(const std::string& name) const;

    /// "key=value,key=value" in key order, every parameter included: the tag stored with credits.
    std::string canonical() const;

private:
    struct Value {
        ParamType type;
        std::string text;
        double number = 0.0;
        bool flag = false;
    };
    const Value& find(const std::string& name, ParamType type) const;
    std::map<std::string, Value> m_values;
};

/// Checks one value against `spec` under the full key `key` ("credit.alpha"): empty when it is valid, else the
/// reason, naming the key (what Params::resolve would throw).
std::string checkValue(const std::string& key, const ParamSpec& spec, const std::string& text);

/// Splits "key=value"; throws ParamError when there is no '='.
std::pair<std::string, std::string> splitAssignment(const std::string& text);
/// Splits each of a list of "key=value" texts (the CLI's repeated --set).
std::vector<std::pair<std::string, std::string>> splitAssignments(const std::vector<std::string>& texts);

} // namespace creditlab::credit
