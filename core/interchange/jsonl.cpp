#include "core/interchange/jsonl.h"

#include "core/interchange/jsondoc.h"
#include "core/interchange/jsonscanner.h"

#include <algorithm>
#include <cmath>

namespace creditlab {

JsonlError::JsonlError(std::string file, std::size_t line, std::string field, std::string message, std::size_t column)
    : std::runtime_error([&] {
        std::string what = file + ":" + std::to_string(line);
        if (column > 0)
            what += ":" + std::to_string(column);
        what += ": ";
        if (!field.empty())
            what += "field \"" + field + "\": ";
        return what + message;
    }())
    , m_file(std::move(file))
    , m_line(line)
    , m_field(std::move(field))
    , m_message(std::move(message))
{
}

namespace {

using Kind = JsonScanner::Kind;

constexpr std::string_view kTrajectoryKeys[]
    = { "id", "group", "reward", "success", "task", "env", "goal", "iteration", "turns" };
constexpr std::string_view kTurnKeys[] = { "observation", "action", "feedback", "reward", "valid", "state", "progress",
    "role", "role_source", "score", "credit" };

/// Parses one line with a running notion of "which field are we in", so that every error,
/// syntax errors included, names its field.
class TrajectoryParser {
public:
    explicit TrajectoryParser(std::string_view line, bool renameDuplicates = false)
        : m_scanner(line)
        , m_renameDuplicates(renameDuplicates)
    {
    }

    void parse(Trajectory& out)
    {
        try {
            parseTrajectory(out);
        } catch (const JsonSyntaxError& e) {
            throw JsonlFieldError { m_field, "invalid JSON: " + e.message, e.offset + 1 };
        }
    }

private:
    [[noreturn]] void fieldError(std::string message) { throw JsonlFieldError { m_field, std::move(message), 0 }; }

    void expectKind(Kind want, const char* what)
    {
        const Kind got = m_scanner.peek();
        if (got != want && !(want == Kind::True && got == Kind::False))
            fieldError(std::string("expected ") + what + ", got " + JsonScanner::kindName(got));
    }

    std::string readString()
    {
        std::string s;
        readStringInto(s);
        return s;
    }

    /// Reads into an existing string, reusing its capacity: the importer recycles trajectories,
    /// so in steady state parsing allocates nothing.
    void readStringInto(std::string& s)
    {
        expectKind(Kind::String, "a string");
        m_scanner.readString(s);
    }

    void readStringInto(std::optional<std::string>& s)
    {
        if (!s)
            s.emplace();
        readStringInto(*s);
    }

    double readNumber()
    {
        expectKind(Kind::Number, "a number");
        return m_scanner.readNumber();
    }

    double readUnitNumber()
    {
        const double v = readNumber();
        if (!(v >= 0.0 && v <= 1.0))
            fieldError("must be in [0, 1], got " + std::to_string(v));
        return v;
    }

    bool readBoolOrNumber()
    {
        const Kind k = m_scanner.peek();
        if (k == Kind::True || k == Kind::False)
            return m_scanner.readBool();
        if (k == Kind::Number)
            return m_scanner.readNumber() != 0.0;
        fieldError(std::string("expected a boolean, got ") + JsonScanner::kindName(k));
    }

    void keepUnknown(std::string& extra, std::string_view rawKey)
    {
        const std::string_view raw = m_scanner.skipValue();
        if (!extra.empty())
            extra.push_back(',');
        extra.append(rawKey);
        extra.push_back(':');
        extra.append(raw);
    }

    void setField(std::string_view prefix, std::string_view key)
    {
        m_field.assign(prefix);
        m_field.append(key);
    }

    void parseTrajectory(Trajectory& out)
    {
        // Reset in place, keeping string and vector capacity (see readStringInto).
        out.id.clear();
        out.group.clear();
        out.reward = 0.0;
        out.success.reset();
        out.iteration.reset();
        out.extra.clear();
        bool haveTaskKey = false, haveEnv = false, haveGoal = false;
        m_field.clear();
        if (m_scanner.peek() != Kind::Object)
            throw JsonlFieldError { "",
                std::string("a line must hold one JSON object, got ") + JsonScanner::kindName(m_scanner.peek()),
                m_scanner.offset() + 1 };
        m_scanner.expect('{');
        enum Seen : unsigned { kId = 1, kGroup = 2, kReward = 4, kTurns = 8 };
        unsigned required = 0;
        m_unknownKeys.clear();
        std::uint32_t seen = 0;
        std::string& key = m_key;
        std::string_view rawKey;
        for (bool first = true; m_scanner.nextMember(key, &rawKey, first); first = false) {
            m_field = key;
            if (checkDuplicate(key, kTrajectoryKeys, seen, m_unknownKeys)) {
                keepRenamed(out.extra, key);
            } else if (key == "id") {
                readStringInto(out.id);
                if (out.id.empty())
                    fieldError("must not be empty");
                required |= kId;
            } else if (key == "group") {
                readStringInto(out.group);
                required |= kGroup;
            } else if (key == "reward") {
                out.reward = readNumber();
                required |= kReward;
            } else if (key == "success") {
                out.success = readBoolOrNumber();
            } else if (key == "task") {
                readStringInto(out.task.key);
                haveTaskKey = true;
            } else if (key == "env") {
                readStringInto(out.task.env);
                haveEnv = true;
            } else if (key == "goal") {
                readStringInto(out.task.goal);
                haveGoal = true;
            } else if (key == "iteration") {
                const double v = readNumber();
                if (v < 0 || v != std::floor(v) || v > 9.0e15)
                    fieldError("must be a non-negative integer");
                out.iteration = static_cast<std::int64_t>(v);
            } else if (key == "turns") {
                parseTurns(out.turns);
                required |= kTurns;
            } else {
                keepUnknown(out.extra, rawKey);
            }
            m_field.clear();
        }
        m_scanner.expectEnd();
        m_field.clear();
        if (!haveTaskKey)
            out.task.key.reset();
        if (!haveEnv)
            out.task.env.reset();
        if (!haveGoal)
            out.task.goal.reset();
        if (!(required & kTurns))
            out.turns.clear();
        if (!(required & kId))
            missing("id");
        if (!(required & kGroup))
            missing("group");
        if (!(required & kReward))
            missing("reward");
        if (!(required & kTurns))
            missing("turns");
    }

    [[noreturn]] void missing(const char* field)
    {
        m_field = field;
        fieldError("is required but missing");
    }

    void parseTurns(std::vector<Turn>& turns)
    {
        expectKind(Kind::Array, "an array");
        m_scanner.expect('[');
        std::size_t n = 0;
        for (bool first = true; m_scanner.nextElement(first); first = false) {
            m_prefix = "turns[" + std::to_string(n) + "].";
            m_field.assign(m_prefix.data(), m_prefix.size() - 1);
            if (n == turns.size())
                turns.emplace_back();
            parseTurn(turns[n++]);
        }
        turns.resize(n);
    }

    void parseTurn(Turn& turn)
    {
        expectKind(Kind::Object, "an object");
        m_scanner.expect('{');
        m_field.clear();
        bool haveObservation = false;
        bool haveAction = false;
        bool haveFeedback = false, haveState = false, haveRoleSource = false, haveCredits = false;
        turn.reward.reset();
        turn.valid.reset();
        turn.progress.reset();
        turn.role.reset();
        turn.score.reset();
        turn.tokens.reset();
        turn.extra.clear();
        m_turnUnknownKeys.clear();
        std::uint32_t seen = 0;
        std::string& key = m_key;
        std::string_view rawKey;
        for (bool first = true; m_scanner.nextMember(key, &rawKey, first); first = false) {
            setField(m_prefix, key);
            if (checkDuplicate(key, kTurnKeys, seen, m_turnUnknownKeys)) {
                keepRenamed(turn.extra, key);
            } else if (key == "observation") {
                readStringInto(turn.observation);
                haveObservation = true;
            } else if (key == "action") {
                readStringInto(turn.action);
                haveAction = true;
            } else if (key == "feedback") {
                readStringInto(turn.feedback);
                haveFeedback = true;
            } else if (key == "reward") {
                turn.reward = readNumber();
            } else if (key == "valid") {
                turn.valid = readBoolOrNumber();
            } else if (key == "state") {
                readStringInto(turn.state);
                haveState = true;
            } else if (key == "progress") {
                turn.progress = readUnitNumber();
            } else if (key == "role") {
                const std::string text = readString();
                turn.role = parseRole(text);
                if (!turn.role)
                    fieldError("expected one of \"D\", \"E\", \"N\", \"R\", got \"" + text + "\"");
            } else if (key == "role_source") {
                readStringInto(turn.roleSource);
                haveRoleSource = true;
            } else if (key == "score") {
                turn.score = readUnitNumber();
            } else if (key == "credit") {
                parseCredits(turn.credits);
                haveCredits = true;
            } else {
                keepUnknown(turn.extra, rawKey);
            }
            // Past the value: a syntax error from here on is not about this member.
            m_field.clear();
        }
        if (!haveCredits)
            turn.credits.clear();
        if (!haveFeedback)
            turn.feedback.reset();
        if (!haveState)
            turn.state.reset();
        if (!haveRoleSource)
            turn.roleSource.reset();
        if (!haveObservation) {
            setField(m_prefix, "observation");
            fieldError("is required but missing");
        }
        if (!haveAction) {
            setField(m_prefix, "action");
            fieldError("is required but missing");
        }
    }

    /// `"credit": {"method": number, ...}`: per-method credit, kept sorted by method name.
    void parseCredits(std::vector<std::pair<std::string, double>>& credits)
    {
        credits.clear();
        expectKind(Kind::Object, "an object of method names to numbers");
        m_scanner.expect('{');
        const std::string base = m_field;
        std::string method;
        for (bool first = true; m_scanner.nextMember(method, nullptr, first); first = false) {
            m_field = base + "." + method;
            for (const auto& c : credits)
                if (c.first == method)
                    fieldError("appears twice");
            credits.emplace_back(method, readNumber());
        }
        m_field = base;
        std::sort(credits.begin(), credits.end());
    }

    /// Refuses a member that appears twice: known names through a bit mask, others by lookup. True for a second
    /// member named like one of ours when duplicates are renamed: files exported before 2026-11-29 wrote a source
    /// field so named after ours (it is kept as "source.<name>", as the importers keep such fields now).
    template <std::size_t N>
    bool checkDuplicate(const std::string& key, const std::string_view (&known)[N], std::uint32_t& seen,
        std::vector<std::string>& unknownKeys)
    {
        for (std::size_t i = 0; i < N; ++i) {
            if (key == known[i]) {
                if (seen & (1u << i)) {
                    if (m_renameDuplicates)
                        return true;
                    fieldError("appears twice (a file exported before 2026-11-29 may repeat a source field under one "
                               "of our names: --rename-duplicates reads the second as source." + key + ")");
                }
                seen |= 1u << i;
                return false;
            }
        }
        if (std::find(unknownKeys.begin(), unknownKeys.end(), key) != unknownKeys.end())
            fieldError("appears twice");
        unknownKeys.push_back(key);
        return false;
    }

    /// Keeps the member at the scanner as "source.<key>" (a duplicate of one of ours, renamed).
    void keepRenamed(std::string& extra, const std::string& key)
    {
        const std::string_view raw = m_scanner.skipValue();
        if (!extra.empty())
            extra.push_back(',');
        appendJsonString(extra, keptName(key));
        extra.push_back(':');
        extra.append(raw);
    }

    JsonScanner m_scanner;
    bool m_renameDuplicates = false;
    std::vector<std::string> m_unknownKeys; ///< unknown members of the trajectory object
    std::vector<std::string> m_turnUnknownKeys; ///< unknown members of the current turn
    std::string m_key;
    std::string m_field;
    std::string m_prefix;
};

void appendKey(std::string& out, bool& first, std::string_view key)
{
    if (!first)
        out.push_back(',');
    first = false;
    out.push_back('"');
    out.append(key);
    out += "\":";
}

} // namespace

void parseTrajectory(std::string_view line, Trajectory& out, bool renameDuplicates)
{
    TrajectoryParser(line, renameDuplicates).parse(out);
}

bool isNativeKey(std::string_view key, bool turn)
{
    if (turn)
        return std::find(std::begin(kTurnKeys), std::end(kTurnKeys), key) != std::end(kTurnKeys);
    return std::find(std::begin(kTrajectoryKeys), std::end(kTrajectoryKeys), key) != std::end(kTrajectoryKeys);
}

std::string keptName(std::string_view key) { return "source." + std::string(key); }

namespace {
/// Appends `,extra` after our members of one object. Members stored before the importers renamed their collisions
/// (keptName) may repeat one of our keys: they are renamed here, so that the line never holds a key twice.
void appendExtra(std::string& out, const std::string& extra, bool turn)
{
    out.push_back(',');
    // The top-level keys only (nested objects, such as a chat turn's context messages, may hold "role"): one pass
    // that skips strings and counts brackets.
    bool collides = false;
    int depth = 0;
    for (std::size_t i = 0; i < extra.size() && !collides; ++i) {
        const char c = extra[i];
        if (c == '{' || c == '[') {
            ++depth;
        } else if (c == '}' || c == ']') {
            --depth;
        } else if (c == '"') {
            const std::size_t begin = i + 1;
            for (++i; i < extra.size() && extra[i] != '"'; ++i)
                if (extra[i] == '\\')
                    ++i;
            collides = depth == 0 && i + 1 < extra.size() && extra[i + 1] == ':'
                && isNativeKey(std::string_view(extra).substr(begin, i - begin), turn);
        }
    }
    if (!collides) {
        out += extra;
        return;
    }
    JsonDoc doc;
    const std::string wrapped = "{" + extra + "}";
    try {
        doc.parse(wrapped);
    } catch (const std::exception&) {
        out += extra; // not members of an object: written as stored
        return;
    }
    bool first = true;
    for (auto m = doc.first(doc.root()); m != JsonDoc::kNone; m = doc.next(doc.root(), m)) {
        if (!first)
            out.push_back(',');
        first = false;
        const std::string key = doc.key(m);
        if (isNativeKey(key, turn))
            appendJsonString(out, keptName(key));
        else
            out.append(doc.node(m).rawKey);
        out.push_back(':');
        out.append(doc.node(m).raw);
    }
}
} // namespace

void formatTrajectory(const Trajectory& t, std::string& out)
{
    out.push_back('{');
    bool first = true;
    appendKey(out, first, "id");
    appendJsonString(out, t.id);
    appendKey(out, first, "group");
    appendJsonString(out, t.group);
    if (t.task.key) {
        appendKey(out, first, "task");
        appendJsonString(out, *t.task.key);
    }
    if (t.task.env) {
        appendKey(out, first, "env");
        appendJsonString(out, *t.task.env);
    }
    if (t.task.goal) {
        appendKey(out, first, "goal");
        appendJsonString(out, *t.task.goal);
    }
    appendKey(out, first, "reward");
    appendJsonNumber(out, t.reward);
    if (t.success) {
        appendKey(out, first, "success");
        out += *t.success ? "true" : "false";
    }
    if (t.iteration) {
        appendKey(out, first, "iteration");
        out += std::to_string(*t.iteration);
    }
    appendKey(out, first, "turns");
    out.push_back('[');
    for (std::size_t i = 0; i < t.turns.size(); ++i) {
        const Turn& u = t.turns[i];
        if (i > 0)
            out.push_back(',');
        out.push_back('{');
        bool f = true;
        appendKey(out, f, "observation");
        appendJsonString(out, u.observation);
        appendKey(out, f, "action");
        appendJsonString(out, u.action);
        if (u.feedback) {
            appendKey(out, f, "feedback");
            appendJsonString(out, *u.feedback);
        }
        if (u.reward) {
            appendKey(out, f, "reward");
            appendJsonNumber(out, *u.reward);
        }
        if (u.valid) {
            appendKey(out, f, "valid");
            out += *u.valid ? "true" : "false";
        }
        if (u.state) {
            appendKey(out, f, "state");
            appendJsonString(out, *u.state);
        }
        if (u.progress) {
            appendKey(out, f, "progress");
            appendJsonNumber(out, *u.progress);
        }
        if (u.role) {
            appendKey(out, f, "role");
            appendJsonString(out, roleName(*u.role));
        }
        if (u.roleSource) {
            appendKey(out, f, "role_source");
            appendJsonString(out, *u.roleSource);
        }
        if (u.score) {
            appendKey(out, f, "score");
            appendJsonNumber(out, *u.score);
        }
        if (!u.credits.empty()) {
            appendKey(out, f, "credit");
            out.push_back('{');
            for (std::size_t k = 0; k < u.credits.size(); ++k) {
                if (k > 0)
                    out.push_back(',');
                appendJsonString(out, u.credits[k].first);
                out.push_back(':');
                appendJsonNumber(out, u.credits[k].second);
            }
            out.push_back('}');
        }
        if (!u.extra.empty())
            appendExtra(out, u.extra, true);
        out.push_back('}');
    }
    out.push_back(']');
    if (!t.extra.empty())
        appendExtra(out, t.extra, false);
    out.push_back('}');
}

} // namespace creditlab
