#include "core/credit/params.h"

#include "core/interchange/jsonscanner.h"

#include <charconv>
#include <cmath>
#include <sstream>

namespace creditlab::credit {

namespace {
std::string formatNumber(double v)
{
    if (std::isinf(v))
        return v > 0 ? "inf" : "-inf";
    std::string s;
    appendJsonNumber(s, v);
    return s;
}

bool parseDouble(const std::string& text, double& out)
{
    const char* b = text.data();
    const char* e = b + text.size();
    if (b != e && *b == '+')
        ++b;
    const auto [ptr, ec] = std::from_chars(b, e, out);
    return ec == std::errc() && ptr == e && std::isfinite(out);
}
} // namespace

std::string ParamSpec::typeName() const
{
    switch (type) {
    case ParamType::Bool:
        return "bool";
    case ParamType::Int:
        return "int";
    case ParamType::Double:
        return "double";
    case ParamType::Text:
        return "text";
    case ParamType::Choice: {
        std::string s = "one of ";
        for (std::size_t i = 0; i < choices.size(); ++i)
            s += (i ? "|" : "") + choices[i];
        return s;
    }
    }
    return "?";
}

std::string ParamSpec::rangeText() const
{
    if (type == ParamType::Bool || type == ParamType::Choice || type == ParamType::Text)
        return {};
    if (std::isinf(min) && std::isinf(max))
        return {};
    return (minExclusive ? "(" : "[") + formatNumber(min) + ", " + formatNumber(max) + (maxExclusive ? ")" : "]");
}

std::string checkValue(const std::string& key, const ParamSpec& spec, const std::string& text)
{
    ParamSpec named = spec;
    named.name = key;
    try {
        Params::resolve("config", { named }, { { key, text } });
        return {};
    } catch (const ParamError& e) {
        // "parameter 'seed' of method config: -5 is outside [0, ...]" reads as "seed: -5 is outside [0, ...]".
        const std::string what = e.what();
        const std::string prefix = "parameter '" + key + "' of method config";
        return what.rfind(prefix, 0) == 0 ? key + what.substr(prefix.size()) : what;
    }
}

std::pair<std::string, std::string> splitAssignment(const std::string& text)
{
    const auto eq = text.find('=');
    if (eq == std::string::npos || eq == 0)
        throw ParamError("--set '" + text + "': expected key=value");
    return { text.substr(0, eq), text.substr(eq + 1) };
}

std::vector<std::pair<std::string, std::string>> splitAssignments(const std::vector<std::string>& texts)
{
    std::vector<std::pair<std::string, std::string>> out;
    out.reserve(texts.size());
    for (const std::string& t : texts)
        out.push_back(splitAssignment(t));
    return out;
}

Params Params::resolve(const std::string& method, const std::vector<ParamSpec>& specs,
    const std::vector<std::pair<std::string, std::string>>& assignments)
{
    std::map<std::string, std::string> texts;
    for (const ParamSpec& s : specs)
        texts[s.name] = s.defaultValue;
    for (const auto& [key, value] : assignments) {
        if (!texts.count(key)) {
            std::string known;
            for (const ParamSpec& s : specs)
                known += (known.empty() ? "" : ", ") + s.name;
            throw ParamError("unknown parameter '" + key + "' for method " + method
                + (known.empty() ? " (it takes none)" : " (parameters: " + known + ")"));
        }
        texts[key] = value;
    }
    Params p;
    for (const ParamSpec& s : specs) {
        const std::string& text = texts[s.name];
        Value v { s.type, text };
        const std::string where = "parameter '" + s.name + "' of method " + method;
        switch (s.type) {
        case ParamType::Bool:
            if (text == "true" || text == "1")
                v.flag = true;
            else if (text == "false" || text == "0")
                v.flag = false;
            else
                throw ParamError(where + ": expected true or false, got '" + text + "'");
            v.text = v.flag ? "true" : "false";
            break;
        case ParamType::Int:
        case ParamType::Double: {
            if (!parseDouble(text, v.number))
                throw ParamError(where + ": expected a number, got '" + text + "'");
            if (s.type == ParamType::Int && v.number != std::floor(v.number))
                throw ParamError(where + ": expected an integer, got '" + text + "'");
            if (v.number < s.min || v.number > s.max || (s.minExclusive && v.number == s.min)
                || (s.maxExclusive && v.number == s.max))
                throw ParamError(where + ": " + text + " is outside " + s.rangeText());
            v.text = formatNumber(v.number);
            break;
        }
        case ParamType::Text:
            break;
        case ParamType::Choice: {
            bool ok = false;
            for (const auto& c : s.choices)
                ok = ok || c == text;
            if (!ok)
                throw ParamError(where + ": expected " + s.typeName() + ", got '" + text + "'");
            break;
        }
        }
        p.m_values.emplace(s.name, std::move(v));
    }
    return p;
}

const Params::Value& Params::find(const std::string& name, ParamType type) const
{
    const auto it = m_values.find(name);
    if (it == m_values.end()
        || (it->second.type != type && !(type == ParamType::Double && it->second.type == ParamType::Int)))
        throw std::logic_error("estimator reads undeclared parameter '" + name + "'");
    return it->second;
}

bool Params::getBool(const std::string& name) const { return find(name, ParamType::Bool).flag; }
long long Params::getInt(const std::string& name) const
{
    return static_cast<long long>(find(name, ParamType::Int).number);
}
double Params::getDouble(const std::string& name) const { return find(name, ParamType::Double).number; }
const std::string& Params::getChoice(const std::string& name) const { return find(name, ParamType::Choice).text; }
const std::string& Params::getText(const std::string& name) const { return find(name, ParamType::Text).text; }

const std::string& Params::textOf(const std::string& name) const
{
    const auto it = m_values.find(name);
    if (it == m_values.end())
        throw std::logic_error("unknown parameter '" + name + "'");
    return it->second.text;
}

std::string Params::canonical() const
{
    std::string s;
    for (const auto& [name, v] : m_values)
        s += (s.empty() ? "" : ",") + name + "=" + v.text;
    return s;
}

} // namespace creditlab::credit
