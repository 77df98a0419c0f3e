#include "core/jsonl.h"

#include "core/jsonscanner.h"

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

    /// Parses one line with a running notion of "which field are we in", so that every error,
    /// syntax errors included, names its field.
    class TrajectoryParser {
    public:
        explicit TrajectoryParser(std::string_view line)
            : m_scanner(line)
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
            expectKind(Kind::String, "a string");
            std::string s;
            m_scanner.readString(s);
            return s;
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
            out = Trajectory {};
            m_field.clear();
            if (m_scanner.peek() != Kind::Object)
                throw JsonlFieldError { "", std::string("a line must hold one JSON object, got ")
                                            + JsonScanner::kindName(m_scanner.peek()),
                    m_scanner.offset() + 1 };
            m_scanner.expect('{');
            enum Seen : unsigned { kId = 1, kGroup = 2, kReward = 4, kTurns = 8 };
            unsigned required = 0;
            std::vector<std::string> seenKeys;
            std::string key;
            std::string_view rawKey;
            for (bool first = true; m_scanner.nextMember(key, &rawKey, first); first = false) {
                if (std::find(seenKeys.begin(), seenKeys.end(), key) != seenKeys.end()) {
                    m_field = key;
                    fieldError("appears twice");
                }
                seenKeys.push_back(key);
                m_field = key;
                if (key == "id") {
                    out.id = readString();
                    if (out.id.empty())
                        fieldError("must not be empty");
                    required |= kId;
                } else if (key == "group") {
                    out.group = readString();
                    required |= kGroup;
                } else if (key == "reward") {
                    out.reward = readNumber();
                    required |= kReward;
                } else if (key == "success") {
                    out.success = readBoolOrNumber();
                } else if (key == "task") {
                    out.task.key = readString();
                } else if (key == "env") {
                    out.task.env = readString();
                } else if (key == "goal") {
                    out.task.goal = readString();
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
            }
            m_scanner.expectEnd();
            m_field.clear();
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
            for (bool first = true; m_scanner.nextElement(first); first = false) {
                m_prefix = "turns[" + std::to_string(turns.size()) + "].";
                m_field.assign(m_prefix.data(), m_prefix.size() - 1);
                turns.emplace_back();
                parseTurn(turns.back());
            }
        }

        void parseTurn(Turn& turn)
        {
            expectKind(Kind::Object, "an object");
            m_scanner.expect('{');
            bool haveObservation = false;
            bool haveAction = false;
            std::vector<std::string> seenKeys;
            std::string key;
            std::string_view rawKey;
            for (bool first = true; m_scanner.nextMember(key, &rawKey, first); first = false) {
                setField(m_prefix, key);
                if (std::find(seenKeys.begin(), seenKeys.end(), key) != seenKeys.end())
                    fieldError("appears twice");
                seenKeys.push_back(key);
                if (key == "observation") {
                    turn.observation = readString();
                    haveObservation = true;
                } else if (key == "action") {
                    turn.action = readString();
                    haveAction = true;
                } else if (key == "feedback") {
                    turn.feedback = readString();
                } else if (key == "reward") {
                    turn.reward = readNumber();
                } else if (key == "valid") {
                    turn.valid = readBoolOrNumber();
                } else if (key == "state") {
                    turn.state = readString();
                } else if (key == "progress") {
                    turn.progress = readUnitNumber();
                } else if (key == "role") {
                    const std::string text = readString();
                    turn.role = parseRole(text);
                    if (!turn.role)
                        fieldError("expected one of \"D\", \"E\", \"N\", \"R\", got \"" + text + "\"");
                } else if (key == "role_source") {
                    turn.roleSource = readString();
                } else if (key == "score") {
                    turn.score = readUnitNumber();
                } else {
                    keepUnknown(turn.extra, rawKey);
                }
            }
            if (!haveObservation) {
                setField(m_prefix, "observation");
                fieldError("is required but missing");
            }
            if (!haveAction) {
                setField(m_prefix, "action");
                fieldError("is required but missing");
            }
        }

        JsonScanner m_scanner;
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

void parseTrajectory(std::string_view line, Trajectory& out) { TrajectoryParser(line).parse(out); }

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
        if (!u.extra.empty()) {
            out.push_back(',');
            out += u.extra;
        }
        out.push_back('}');
    }
    out.push_back(']');
    if (!t.extra.empty()) {
        out.push_back(',');
        out += t.extra;
    }
    out.push_back('}');
}

} // namespace creditlab
