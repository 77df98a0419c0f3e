// Helpers shared by the foreign-format importers: typed reads with field names, verbatim unknown
// members, prompt groups, conversations to turns, and the line-per-record source.
#include "core/interchange/importsource_p.h"

#include <algorithm>
#include <cmath>

namespace creditlab::importer {

using Kind = JsonDoc::Kind;

void fieldError(std::string field, std::string message)
{
    throw JsonlFieldError { std::move(field), std::move(message), 0 };
}

namespace {

[[noreturn]] void kindError(const JsonDoc& doc, Index i, const std::string& field, const char* want)
{
    fieldError(field, std::string("expected ") + want + ", got " + JsonScanner::kindName(doc.kind(i)));
}

} // namespace

void keepMember(std::string& extra, const JsonDoc& doc, Index member, KeptLevel level)
{
    const std::string key = doc.key(member);
    if (isNativeKey(key, level == KeptLevel::Turn)) {
        keepRaw(extra, key, doc.node(member).raw, level);
        return;
    }
    if (!extra.empty())
        extra.push_back(',');
    extra.append(doc.node(member).rawKey);
    extra.push_back(':');
    extra.append(doc.node(member).raw);
}

void keepRaw(std::string& extra, std::string_view key, std::string_view rawJson, KeptLevel level)
{
    if (!extra.empty())
        extra.push_back(',');
    appendJsonString(extra, isNativeKey(key, level == KeptLevel::Turn) ? keptName(key) : std::string(key));
    extra.push_back(':');
    extra.append(rawJson);
}

void readText(const JsonDoc& doc, Index i, const std::string& field, std::string& out)
{
    if (doc.kind(i) != Kind::String)
        kindError(doc, i, field, "a string");
    doc.string(i, out);
}

double readNumber(const JsonDoc& doc, Index i, const std::string& field)
{
    const Kind k = doc.kind(i);
    if (k == Kind::Number) {
        const double v = doc.number(i);
        if (!std::isfinite(v))
            fieldError(field, "number out of range: " + std::string(doc.node(i).raw));
        return v;
    }
    if (k == Kind::True || k == Kind::False)
        return doc.boolean(i) ? 1.0 : 0.0;
    kindError(doc, i, field, "a number");
}

bool readBool(const JsonDoc& doc, Index i, const std::string& field)
{
    const Kind k = doc.kind(i);
    if (k == Kind::True || k == Kind::False)
        return doc.boolean(i);
    if (k == Kind::Number)
        return doc.number(i) != 0.0;
    kindError(doc, i, field, "a boolean");
}

std::string readId(const JsonDoc& doc, Index i, const std::string& field)
{
    if (doc.kind(i) == Kind::Number) {
        const double v = doc.number(i);
        if (v != std::floor(v) || std::fabs(v) > 9.0e15)
            fieldError(field, "expected a string or an integer id");
        return std::string(doc.node(i).raw);
    }
    std::string s;
    readText(doc, i, field, s);
    if (s.empty())
        fieldError(field, "must not be empty");
    return s;
}

std::int64_t readIndex(const JsonDoc& doc, Index i, const std::string& field)
{
    if (doc.kind(i) != Kind::Number)
        kindError(doc, i, field, "a number");
    const double v = doc.number(i);
    if (v < 0 || v != std::floor(v) || v > 9.0e15)
        fieldError(field, "must be a non-negative integer");
    return static_cast<std::int64_t>(v);
}

double readUnit(const JsonDoc& doc, Index i, const std::string& field)
{
    const double v = readNumber(doc, i, field);
    if (!(v >= 0.0 && v <= 1.0))
        fieldError(field, "must be in [0, 1], got " + std::string(doc.node(i).raw));
    return v;
}

Role readRole(const JsonDoc& doc, Index i, const std::string& field)
{
    std::string s;
    readText(doc, i, field, s);
    const auto role = parseRole(s);
    if (!role)
        fieldError(field, "expected one of \"D\", \"E\", \"N\", \"R\", got \"" + s + "\"");
    return *role;
}

void readContent(const JsonDoc& doc, Index i, const std::string& field, std::string& out)
{
    out.clear();
    const Kind k = doc.kind(i);
    if (k == Kind::String) {
        doc.string(i, out);
        return;
    }
    if (k == Kind::Null)
        return;
    if (k != Kind::Array)
        kindError(doc, i, field, "a string, null or an array of parts");
    // Content parts ({"type": "text", "text": ...}); parts without text (images) are left out.
    std::size_t n = 0;
    for (Index p = doc.first(i); p != kNone; p = doc.next(i, p), ++n) {
        const Index text = doc.member(p, "text");
        if (text == kNone)
            continue;
        if (!out.empty())
            out.push_back('\n');
        std::string part;
        readText(doc, text, field + "[" + std::to_string(n) + "].text", part);
        out += part;
    }
}

void countOutcomeOnce(Trajectory& t)
{
    double sum = 0.0;
    bool anyStepReward = false;
    for (const Turn& u : t.turns) {
        sum += u.rewardOrDefault();
        anyStepReward = anyStepReward || u.reward.has_value();
    }
    if (anyStepReward && !t.turns.empty() && std::abs(sum - t.reward) <= 1e-9 * std::max(1.0, std::abs(t.reward)))
        t.turns.back().reward = t.turns.back().rewardOrDefault() - t.reward;
}

std::string PromptGroups::groupOf(const std::optional<std::int64_t>& iteration, const std::string& prompt)
{
    auto [it, inserted]
        = m_groups.try_emplace({ iteration.value_or(-1), prompt.size(), std::hash<std::string> {}(prompt) });
    if (inserted)
        it->second = (iteration ? "it" + std::to_string(*iteration) + "-" : std::string()) + "p"
            + std::to_string(m_groups.size() - 1);
    return it->second;
}

void messagesToTurns(std::vector<Message>& messages, std::vector<Turn>& turns, const std::string& field)
{
    turns.clear();
    std::string observation;
    std::string context; // the observation messages that carry unknown members, as JSON objects
    auto addContext = [&](const Message& m) {
        if (m.extra.empty() && !m.truncated)
            return;
        context += context.empty() ? "[" : ",";
        context += "{\"index\":" + std::to_string(m.index) + ",\"role\":";
        appendJsonString(context, m.role);
        if (m.truncated)
            context += ",\"truncated\":true";
        if (!m.extra.empty())
            context += "," + m.extra;
        context += "}";
    };
    for (Message& m : messages) {
        if (!m.isAction) {
            if (!observation.empty() && !m.text.empty())
                observation.push_back('\n');
            observation += m.text;
            addContext(m);
            continue;
        }
        Turn& t = turns.emplace_back();
        t.observation = std::move(observation);
        observation.clear();
        t.action = std::move(m.text);
        t.reward = m.reward;
        t.score = m.score;
        t.extra = "\"message_index\":" + std::to_string(m.index);
        if (m.truncated)
            t.extra += ",\"truncated\":true";
        if (!m.extra.empty())
            t.extra += "," + m.extra;
        if (!context.empty()) {
            t.extra += ",\"context\":" + context + "]";
            context.clear();
        }
    }
    if (turns.empty())
        fieldError(field, "holds no assistant message, so no turn");
    if (!observation.empty() || !context.empty()) {
        Turn& last = turns.back();
        last.feedback = std::move(observation);
        if (!context.empty())
            last.extra += ",\"feedback_context\":" + context + "]";
    }
}

bool nextRecordLine(LineReader& lines, std::string_view& line)
{
    for (;;) {
        if (!lines.next(line))
            return false;
        if (lines.lineNumber() == 1 && line.substr(0, 3) == "\xEF\xBB\xBF")
            line.remove_prefix(3);
        if (line.find_first_not_of(" \t") != std::string_view::npos)
            return true;
    }
}

void parseRecord(JsonDoc& doc, std::string_view line)
{
    try {
        doc.parse(line);
    } catch (const JsonSyntaxError& e) {
        throw JsonlFieldError { "", "invalid JSON: " + e.message, e.offset + 1 };
    }
    if (doc.kind(doc.root()) != Kind::Object)
        throw JsonlFieldError { "",
            std::string("a line must hold one JSON object, got ") + JsonScanner::kindName(doc.kind(doc.root())), 1 };
}

LineRecordSource::LineRecordSource(const TextInput& input)
    : m_path(input.name)
    , m_idPrefix(input.idPrefix)
    , m_lines(input)
{
}

void LineRecordSource::clear(Trajectory& out)
{
    out.id.clear();
    out.group.clear();
    out.task = Task {};
    out.reward = 0.0;
    out.success.reset();
    out.iteration.reset();
    out.turns.clear();
    out.extra.clear();
}

bool LineRecordSource::next(Trajectory& out)
{
    std::string_view line;
    if (!nextRecordLine(m_lines, line))
        return false;
    const std::size_t lineNo = m_lines.lineNumber();
    try {
        parseRecord(m_doc, line);
        clear(out);
        convert(m_doc, lineNo, out);
        if (m_hook)
            m_hook(m_doc, out);
    } catch (const JsonlFieldError& e) {
        throw JsonlError(m_path, lineNo, e.field, e.message, e.column);
    }
    auto [it, inserted] = m_idLines.try_emplace(out.id, lineNo);
    if (!inserted)
        throw JsonlError(
            m_path, lineNo, "id", "duplicate id \"" + out.id + "\" (first on line " + std::to_string(it->second) + ")");
    return true;
}

} // namespace creditlab::importer
