// Mapping files: reading one (the YAML keys docs/import-formats.md lists), resolving its paths in a record, the outcome
// from text, and detection for the shipped ones.
#include "core/interchange/importmap_p.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <stdexcept>

namespace creditlab::importer {

namespace {

using Kind = JsonDoc::Kind;

std::string where(const std::string& file, const YAML::Node& node)
{
    return file + ":" + std::to_string(node.Mark().line + 1);
}

MapPath parsePath(const std::string& file, const YAML::Node& node, const std::string& key, const std::string& text)
{
    MapPath p;
    p.text = text;
    std::size_t start = 0;
    for (;;) {
        const std::size_t dot = text.find('.', start);
        std::string seg = text.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
        if (seg.empty())
            throw std::runtime_error(where(file, node) + ": " + key + ": empty segment in path \"" + text + "\"");
        p.segments.push_back(std::move(seg));
        if (dot == std::string::npos)
            break;
        start = dot + 1;
    }
    return p;
}

MapRef parseRef(
    const std::string& file, const YAML::Node& node, const std::string& key, std::string text, bool turnLevel)
{
    MapRef ref;
    for (auto [prefix, base] :
        { std::pair { "@prev.", RefBase::Previous }, { "@next.", RefBase::Next }, { "@record.", RefBase::Record } })
        if (text.rfind(prefix, 0) == 0) {
            if (!turnLevel && base != RefBase::Record)
                throw std::runtime_error(where(file, node) + ": " + key + ": " + prefix
                    + " refers to another turn, which only a turn's field can do");
            ref.base = base;
            text.erase(0, std::string_view(prefix).size());
            break;
        }
    if (!turnLevel)
        ref.base = RefBase::Record;
    if (!text.empty() && text.front() == '@')
        throw std::runtime_error(
            where(file, node) + ": " + key + ": unknown reference \"" + text + "\" (known: @prev., @next., @record.)");
    ref.path = parsePath(file, node, key, text);
    return ref;
}

/// A field: one path, or a list of alternatives.
MapField parseField(const std::string& file, const YAML::Node& node, const std::string& key, bool turnLevel)
{
    MapField f;
    if (node.IsScalar() && !node.Scalar().empty()) {
        f.refs.push_back(parseRef(file, node, key, node.Scalar(), turnLevel));
        return f;
    }
    if (node.IsSequence() && node.size() > 0) {
        for (const YAML::Node& alt : node) {
            if (!alt.IsScalar() || alt.Scalar().empty())
                throw std::runtime_error(where(file, alt) + ": " + key + ": each alternative is a field path");
            f.refs.push_back(parseRef(file, alt, key, alt.Scalar(), turnLevel));
        }
        return f;
    }
    throw std::runtime_error(where(file, node) + ": " + key
        + ": expected a field path such as steps or meta.id, or a list of them (the first present wins)");
}

std::regex parseRegex(const std::string& file, const YAML::Node& node, const std::string& key)
{
    if (!node.IsScalar() || node.Scalar().empty())
        throw std::runtime_error(where(file, node) + ": " + key + ": expected a regular expression");
    // Counts in repeats ({n,m}) and back-references (\n) above 1000: libstdc++'s regex compiler overflows on long
    // ones (found by fuzz_import_map) and builds one state per repeat, so they are refused here.
    const std::string& text = node.Scalar();
    const auto number = [&](std::size_t& i) { // the digits at i, as a count (past 1000: refused)
        const std::size_t start = i;
        while (i < text.size() && text[i] >= '0' && text[i] <= '9')
            ++i;
        if (i - start > 4 || (i > start && std::stoi(text.substr(start, i - start)) > 1000))
            throw std::runtime_error(where(file, node) + ": " + key
                + ": a repeat count or back-reference above 1000 in the regular expression: " + text);
    };
    for (std::size_t i = 0; i < text.size();) {
        if (text[i] == '\\') {
            ++i;
            if (i < text.size() && text[i] >= '0' && text[i] <= '9')
                number(i); // a back-reference
            else
                ++i;
        } else if (text[i] == '{') { // {n}, {n,} or {n,m}
            ++i;
            number(i);
            if (i < text.size() && text[i] == ',')
                ++i, number(i);
        } else {
            ++i;
        }
    }
    try {
        return std::regex(node.Scalar(), std::regex::ECMAScript);
    } catch (const std::regex_error& e) {
        throw std::runtime_error(
            where(file, node) + ": " + key + ": not a regular expression (" + e.what() + "): " + node.Scalar());
    }
}

std::string scalar(const std::string& file, const YAML::Node& node, const std::string& key)
{
    if (!node.IsScalar())
        throw std::runtime_error(where(file, node) + ": " + key + ": expected a single value");
    return node.Scalar();
}

/// The most text a regular expression of a mapping is run over (outcomeOf()).
constexpr std::size_t kRegexTextLimit = 64 * 1024;

constexpr const char* kKnownKeys
    = "name, detect, records, layout, file_per_trajectory, id, group, iteration, reward, "
      "success, outcome, turns, trajectory, text, messages, action_prefix, action_pattern, "
      "observation, action, feedback, turn_reward, role, score, valid";

} // namespace

std::string MapField::text() const
{
    std::string out;
    for (const MapRef& r : refs) {
        if (!out.empty())
            out += " | ";
        out += r.path.text;
    }
    return out;
}

MapSpec loadMapSpec(const std::string& file, const std::string* yaml)
{
    YAML::Node root;
    try {
        root = yaml ? YAML::Load(*yaml) : YAML::LoadFile(file);
    } catch (const YAML::BadFile&) {
        throw std::runtime_error(file + ": cannot open the mapping file");
    } catch (const YAML::Exception& e) {
        throw std::runtime_error(file + ":" + std::to_string(e.mark.line + 1) + ": " + e.msg);
    }
    if (!root.IsMap())
        throw std::runtime_error(file + ": a mapping file is a YAML map of our field names to source paths");
    MapSpec s;
    s.file = file;
    const std::pair<const char*, MapField MapSpec::*> recordFields[] = { { "id", &MapSpec::id },
        { "group", &MapSpec::group }, { "iteration", &MapSpec::iteration }, { "reward", &MapSpec::reward },
        { "success", &MapSpec::success }, { "turns", &MapSpec::turns }, { "trajectory", &MapSpec::trajectoryKey },
        { "text", &MapSpec::text }, { "messages", &MapSpec::messages } };
    const std::pair<const char*, MapField MapSpec::*> turnFields[] = { { "observation", &MapSpec::observation },
        { "action", &MapSpec::action }, { "feedback", &MapSpec::feedback }, { "turn_reward", &MapSpec::turnReward },
        { "role", &MapSpec::role }, { "score", &MapSpec::score }, { "valid", &MapSpec::valid } };
    for (const auto& entry : root) {
        if (!entry.first.IsScalar())
            throw std::runtime_error(
                where(file, entry.first) + ": a key must be one of our field names, not a list or a map");
        const std::string key = entry.first.Scalar();
        const YAML::Node& value = entry.second;
        if (const auto* k = std::find_if(
                std::begin(recordFields), std::end(recordFields), [&](const auto& p) { return key == p.first; });
            k != std::end(recordFields)) {
            s.*(k->second) = parseField(file, value, key, false);
        } else if (const auto* t = std::find_if(
                       std::begin(turnFields), std::end(turnFields), [&](const auto& p) { return key == p.first; });
                   t != std::end(turnFields)) {
            s.*(t->second) = parseField(file, value, key, true);
        } else if (key == "name") {
            s.name = scalar(file, value, key);
        } else if (key == "records") {
            s.records = scalar(file, value, key);
            if (s.records.empty())
                throw std::runtime_error(where(file, value)
                    + ": records: expected the path of the list of records, such as episodes or data.items");
        } else if (key == "layout") {
            const std::string v = scalar(file, value, key);
            if (v == "turns")
                s.layout = MapLayout::Turns;
            else if (v == "steps")
                s.layout = MapLayout::Steps;
            else if (v == "transcript")
                s.layout = MapLayout::Transcript;
            else if (v == "chat")
                s.layout = MapLayout::Chat;
            else
                throw std::runtime_error(
                    where(file, value) + ": layout: unknown \"" + v + "\" (known: turns, steps, transcript, chat)");
        } else if (key == "file_per_trajectory") {
            const std::string v = scalar(file, value, key);
            if (v != "true" && v != "false")
                throw std::runtime_error(where(file, value) + ": file_per_trajectory: expected true or false");
            s.filePerTrajectory = v == "true";
        } else if (key == "action_prefix") {
            s.actionPrefix = scalar(file, value, key);
        } else if (key == "action_pattern") {
            s.actionPattern = parseRegex(file, value, key);
        } else if (key == "outcome") {
            if (!value.IsMap() || !value["from"] || !value["match"])
                throw std::runtime_error(where(file, value)
                    + ": outcome: expected `from:` (the text's path) and `match:` (a regular expression whose first "
                      "group is true, false or a number)");
            s.outcomeFrom = parseField(file, value["from"], "outcome.from", false);
            s.outcomePattern = parseRegex(file, value["match"], "outcome.match");
        } else if (key == "detect") {
            if (!value.IsMap())
                throw std::runtime_error(where(file, value) + ": detect: expected `has:` and / or `matches:`");
            for (const auto& d : value) {
                const std::string dk = d.first.IsScalar() ? d.first.Scalar() : std::string();
                if (dk == "has" && d.second.IsSequence()) {
                    for (const YAML::Node& p : d.second)
                        s.detectHas.push_back(parsePath(file, p, "detect.has", scalar(file, p, "detect.has")));
                } else if (dk == "matches" && d.second.IsMap()) {
                    for (const auto& m : d.second)
                        s.detectMatches.emplace_back(
                            parsePath(file, m.first, "detect.matches", scalar(file, m.first, "detect.matches")),
                            parseRegex(file, m.second, "detect.matches"));
                } else {
                    throw std::runtime_error(where(file, d.first)
                        + ": detect: expected `has: [paths]` and / or `matches: {path: regular expression}`");
                }
            }
        } else {
            throw std::runtime_error(
                where(file, entry.first) + ": unknown key \"" + key + "\" (known: " + kKnownKeys + ")");
        }
    }
    if (s.id.empty() && s.layout != MapLayout::Chat) { // the record's own id (or the one a document's key gave it)
        MapRef ref;
        ref.base = RefBase::Record;
        ref.path.text = "id";
        ref.path.segments = { "id" };
        s.id.refs.push_back(std::move(ref));
    }
    const auto require = [&](const MapField& f, const char* key, const char* what) {
        if (f.empty())
            throw std::runtime_error(file + ": \"" + key + "\" is required " + what);
    };
    switch (s.layout) {
    case MapLayout::Turns:
        require(s.turns, "turns", "(the source path of the list of turns)");
        require(s.observation, "observation", "(the source path of our observation)");
        require(s.action, "action", "(the source path of our action)");
        break;
    case MapLayout::Steps:
        require(s.observation, "observation", "(the source path of our observation, in a step row)");
        require(s.action, "action", "(the source path of our action, in a step row; @next.url for the next page's)");
        break;
    case MapLayout::Transcript:
        require(s.text, "text", "with layout: transcript (the source path of the transcript)");
        if (s.actionPrefix.empty() && !s.actionPattern)
            throw std::runtime_error(file
                + ": layout: transcript needs action_prefix (such as \"> \") or action_pattern (a regular expression)");
        break;
    case MapLayout::Chat:
        break;
    }
    return s;
}

Index resolvePath(const JsonDoc& doc, Index from, const MapPath& path)
{
    Index cur = from;
    for (const std::string& seg : path.segments) {
        if (cur == kNone)
            return kNone;
        if (doc.kind(cur) == Kind::Object) {
            cur = doc.member(cur, seg);
            continue;
        }
        const bool negative = seg.size() > 1 && seg.front() == '-';
        const std::string_view digits = negative ? std::string_view(seg).substr(1) : std::string_view(seg);
        if (doc.kind(cur) != Kind::Array || digits.empty()
            || digits.find_first_not_of("0123456789") != std::string::npos)
            return kNone;
        // An index beyond std::size_t (a fuzzed map's "r.2222…2.v" threw std::out_of_range) is past the end of any
        // array: nothing there, like any other index past its end.
        std::size_t n = 0;
        if (std::from_chars(digits.data(), digits.data() + digits.size(), n).ec != std::errc())
            return kNone;
        if (negative) { // -1 is the last element
            const std::size_t size = doc.size(cur);
            if (n > size)
                return kNone;
            n = size - n;
        }
        Index c = doc.first(cur);
        while (c != kNone && n-- > 0)
            c = doc.next(cur, c);
        cur = c;
    }
    return cur;
}

void readLooseText(const JsonDoc& doc, Index i, const std::string& field, std::string& out)
{
    switch (doc.kind(i)) {
    case Kind::String:
    case Kind::Null:
        readContent(doc, i, field, out);
        return;
    case Kind::Array:
        if (doc.size(i) > 0 && doc.kind(doc.first(i)) == Kind::Object && doc.member(doc.first(i), "text") != kNone) {
            readContent(doc, i, field, out);
            return;
        }
        break;
    default:
        break;
    }
    out.assign(doc.node(i).raw);
}

std::optional<double> outcomeOf(const MapSpec& spec, const std::string& text, const std::string& field)
{
    // The outcome is looked for in the text's last 64 KiB: it is said at the end, and libstdc++'s regex search
    // recurses per character it matches (a pattern like "(.|\n)*" over megabytes would overflow the stack).
    const std::string tail = text.size() > kRegexTextLimit ? text.substr(text.size() - kRegexTextLimit) : text;
    std::smatch m;
    if (!spec.outcomePattern || !std::regex_search(tail, m, *spec.outcomePattern))
        return std::nullopt;
    std::string v = m.size() > 1 ? m[1].str() : m[0].str();
    std::string lower = v;
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
    if (lower == "true" || lower == "yes" || lower == "success")
        return 1.0;
    if (lower == "false" || lower == "no" || lower == "failure")
        return 0.0;
    double x = 0.0;
    const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), x);
    if (ec != std::errc() || end != v.data() + v.size() || !std::isfinite(x))
        fieldError(field, "the outcome \"" + v + "\" is neither true, false nor a number");
    return x;
}

bool detectMatches(const MapSpec& spec, const JsonDoc& doc)
{
    if (spec.detectHas.empty() && spec.detectMatches.empty())
        return false;
    for (const MapPath& p : spec.detectHas)
        if (resolvePath(doc, doc.root(), p) == kNone)
            return false;
    std::string text;
    for (const auto& [p, re] : spec.detectMatches) {
        const Index i = resolvePath(doc, doc.root(), p);
        if (i == kNone)
            return false;
        readLooseText(doc, i, p.text, text);
        if (text.size() > kRegexTextLimit) // what detection looks for is near the start (see outcomeOf())
            text.resize(kRegexTextLimit);
        if (!std::regex_search(text, re))
            return false;
    }
    return true;
}

const MapSpec* shippedMapSpec(std::string_view name)
{
    static const std::vector<MapSpec> specs = [] {
        std::vector<MapSpec> out;
        for (const ShippedMapping& m : shippedMappings()) {
            const std::string text(m.yaml);
            out.push_back(loadMapSpec("shipped mapping " + std::string(m.name), &text));
        }
        return out;
    }();
    const auto& all = shippedMappings();
    for (std::size_t i = 0; i < all.size(); ++i)
        if (all[i].name == name)
            return &specs[i];
    return nullptr;
}

} // namespace creditlab::importer
