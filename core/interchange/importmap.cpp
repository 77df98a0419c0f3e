// Mapping files applied: a YAML file names, for each of our fields, the source field that holds it
// (docs/import-formats.md, "Mapping files"; importmapspec.cpp reads it). Four layouts: a record per trajectory with a
// list of turns, a row per step, a text transcript, and an OpenAI chat record the mapping completes.
#include "core/interchange/importmap_p.h"

#include <algorithm>
#include <filesystem>
#include <memory>
#include <unordered_set>

namespace creditlab::importer {

namespace {

using Kind = JsonDoc::Kind;

/// Where a turn's references start. Each of prev / next / record may live in another document (step rows).
struct Scope {
    const JsonDoc* self = nullptr;
    Index selfNode = kNone;
    const JsonDoc* prev = nullptr;
    Index prevNode = kNone;
    const JsonDoc* next = nullptr;
    Index nextNode = kNone;
    const JsonDoc* record = nullptr;
    Index recordNode = kNone;

    /// A record's own scope: its root is both the element and the record (no neighbours).
    static Scope of(const JsonDoc& doc)
    {
        Scope s;
        s.self = s.record = &doc;
        s.selfNode = s.recordNode = doc.root();
        return s;
    }
};

struct Found {
    const JsonDoc* doc = nullptr;
    Index node = kNone;
    const MapRef* ref = nullptr;
    explicit operator bool() const { return node != kNone; }
};

Found find(const MapField& field, const Scope& s)
{
    for (const MapRef& r : field.refs) {
        const JsonDoc* doc = nullptr;
        Index from = kNone;
        switch (r.base) {
        case RefBase::Self:
            doc = s.self, from = s.selfNode;
            break;
        case RefBase::Previous:
            doc = s.prev, from = s.prevNode;
            break;
        case RefBase::Next:
            doc = s.next, from = s.nextNode;
            break;
        case RefBase::Record:
            doc = s.record, from = s.recordNode;
            break;
        }
        if (doc && from != kNone)
            if (const Index i = resolvePath(*doc, from, r.path); i != kNone)
                return { doc, i, &r };
    }
    return {};
}

/// True when every alternative of `field` refers to another turn (so that, past the list's end, it is empty rather
/// than missing).
bool onlyRelative(const MapField& field)
{
    return !field.empty() && std::all_of(field.refs.begin(), field.refs.end(), [](const MapRef& r) {
        return r.base == RefBase::Previous || r.base == RefBase::Next;
    });
}

/// True when the member `member` is the whole target of one of `fields`' own (Self or Record, one-segment) paths.
bool consumed(const JsonDoc& doc, Index member, RefBase base, std::initializer_list<const MapField*> fields)
{
    for (const MapField* f : fields)
        for (const MapRef& r : f->refs)
            if (r.base == base && r.path.segments.size() == 1 && doc.keyIs(member, r.path.segments.front()))
                return true;
    return false;
}

/// The trajectory fields (id, group, iteration, reward, success, outcome) from the record scope `s`; true when it gave
/// the reward.
bool readRecordFields(const MapSpec& m, const Scope& s, Trajectory& out)
{
    if (const Found f = find(m.id, s))
        out.id = readId(*f.doc, f.node, m.id.text());
    if (const Found f = find(m.group, s)) {
        // A group key may be any value (a task's instruction, a number): its text names the group.
        if (f.doc->kind(f.node) == Kind::String || f.doc->kind(f.node) == Kind::Number)
            out.group = readId(*f.doc, f.node, m.group.text());
        else
            readLooseText(*f.doc, f.node, m.group.text(), out.group);
    }
    if (const Found f = find(m.iteration, s))
        out.iteration = readIndex(*f.doc, f.node, m.iteration.text());
    bool reward = false;
    if (const Found f = find(m.reward, s))
        out.reward = readNumber(*f.doc, f.node, m.reward.text()), reward = true;
    if (const Found f = find(m.success, s))
        out.success = readBool(*f.doc, f.node, m.success.text());
    if (const Found f = find(m.outcomeFrom, s)) {
        std::string text;
        readLooseText(*f.doc, f.node, m.outcomeFrom.text(), text);
        if (const auto v = outcomeOf(m, text, m.outcomeFrom.text())) {
            out.reward = *v, reward = true;
            if (find(m.success, s).node == kNone)
                out.success = *v > 0.0;
        }
    }
    return reward;
}

/// One turn from the scope `s` (its element and neighbours). `field` names the element in errors.
void readTurn(const MapSpec& m, const Scope& s, const std::string& field, Turn& t)
{
    auto name = [&](const MapField& f) { return field + "." + f.text(); };
    if (const Found f = find(m.observation, s))
        readLooseText(*f.doc, f.node, name(m.observation), t.observation);
    else if (!onlyRelative(m.observation)) // the first turn has no previous one: its observation is empty
        fieldError(name(m.observation), "is required but missing");
    if (const Found f = find(m.action, s))
        readLooseText(*f.doc, f.node, name(m.action), t.action);
    else
        fieldError(name(m.action), "is required but missing");
    if (const Found f = find(m.feedback, s))
        readLooseText(*f.doc, f.node, name(m.feedback), t.feedback.emplace());
    if (const Found f = find(m.turnReward, s))
        t.reward = readNumber(*f.doc, f.node, name(m.turnReward));
    if (const Found f = find(m.role, s))
        t.role = readRole(*f.doc, f.node, name(m.role));
    if (const Found f = find(m.score, s))
        t.score = readUnit(*f.doc, f.node, name(m.score));
    if (const Found f = find(m.valid, s))
        t.valid = readBool(*f.doc, f.node, name(m.valid));
    const JsonDoc& doc = *s.self;
    if (doc.kind(s.selfNode) == Kind::Object)
        for (Index c = doc.first(s.selfNode); c != kNone; c = doc.next(s.selfNode, c))
            if (!consumed(doc, c, RefBase::Self,
                    { &m.observation, &m.action, &m.feedback, &m.turnReward, &m.role, &m.score, &m.valid }))
                keepMember(t.extra, doc, c, KeptLevel::Turn);
}

/// True when the element of scope `s` is a list's terminal element: the last, with an action that only the next
/// element would give (a session's final page). It is kept whole as the trajectory's `final_step`.
bool isTerminal(const MapSpec& m, const Scope& s)
{
    return s.next == nullptr && onlyRelative(m.action) && !find(m.action, s);
}

void keepRecordMembers(const MapSpec& m, const JsonDoc& doc, Index root, Trajectory& out)
{
    if (doc.kind(root) != Kind::Object)
        return;
    for (Index c = doc.first(root); c != kNone; c = doc.next(root, c))
        if (!consumed(
                doc, c, RefBase::Record, { &m.id, &m.group, &m.iteration, &m.reward, &m.success, &m.turns, &m.text }))
            keepMember(out.extra, doc, c, KeptLevel::Trajectory);
}

/// A record per trajectory, its turns in a list.
class TurnsSource : public LineRecordSource {
public:
    TurnsSource(const TextInput& input, const MapSpec& spec)
        : LineRecordSource(input)
        , m_spec(spec)
    {
    }

protected:
    void convert(const JsonDoc& doc, std::size_t lineNo, Trajectory& out) override
    {
        const MapSpec& m = m_spec;
        const Index root = doc.root();
        Scope record = Scope::of(doc);
        const bool hasReward = readRecordFields(m, record, out);
        const Found list = find(m.turns, record);
        if (!list)
            fieldError(m.turns.text(), "is required but missing");
        if (doc.kind(list.node) != Kind::Array)
            fieldError(m.turns.text(), "expected an array of turns");
        m_elements.clear();
        for (Index e = doc.first(list.node); e != kNone; e = doc.next(list.node, e))
            m_elements.push_back(e);
        for (std::size_t k = 0; k < m_elements.size(); ++k) {
            Scope s = record;
            s.selfNode = m_elements[k];
            s.prev = k > 0 ? &doc : nullptr;
            s.prevNode = k > 0 ? m_elements[k - 1] : kNone;
            s.next = k + 1 < m_elements.size() ? &doc : nullptr;
            s.nextNode = k + 1 < m_elements.size() ? m_elements[k + 1] : kNone;
            if (k + 1 == m_elements.size() && k > 0 && isTerminal(m, s)) {
                keepRaw(out.extra, "final_step", doc.node(s.selfNode).raw, KeptLevel::Trajectory);
                break;
            }
            readTurn(m, s, list.ref->path.text + "[" + std::to_string(k) + "]", out.turns.emplace_back());
        }
        if (hasReward && !m.turnReward.empty())
            countOutcomeOnce(out);
        if (out.id.empty())
            out.id = generatedId(lineNo);
        if (out.group.empty())
            out.group
                = m_groups.groupOf(out.iteration, out.turns.empty() ? std::string() : out.turns.front().observation);
        keepRecordMembers(m, doc, root, out);
    }

private:
    const MapSpec& m_spec;
    std::vector<Index> m_elements;
    PromptGroups m_groups;
};

/// A record per trajectory, its turns in a text: each run of action lines (by prefix or pattern) is a turn's action; the
/// text before it (since the previous action) its observation; the text after the last action the last turn's feedback.
class TranscriptSource : public LineRecordSource {
public:
    TranscriptSource(const TextInput& input, const MapSpec& spec)
        : LineRecordSource(input)
        , m_spec(spec)
    {
    }

protected:
    void convert(const JsonDoc& doc, std::size_t lineNo, Trajectory& out) override
    {
        const MapSpec& m = m_spec;
        Scope record = Scope::of(doc);
        readRecordFields(m, record, out);
        const Found f = find(m.text, record);
        if (!f)
            fieldError(m.text.text(), "is required but missing");
        std::string text;
        readLooseText(doc, f.node, m.text.text(), text);
        std::string block; // the text since the last action line
        bool lastWasAction = false;
        const auto trimmed = [](std::string s) {
            const std::size_t b = s.find_first_not_of("\r\n");
            const std::size_t e = s.find_last_not_of("\r\n \t");
            return b == std::string::npos || e == std::string::npos || e < b ? std::string() : s.substr(b, e - b + 1);
        };
        std::size_t start = 0;
        while (start <= text.size()) {
            std::size_t end = text.find('\n', start);
            if (end == std::string::npos)
                end = text.size();
            std::string line = text.substr(start, end - start);
            if (!line.empty() && line.back() == '\r')
                line.pop_back();
            std::optional<std::string> action;
            if (!m.actionPrefix.empty() && line.rfind(m.actionPrefix, 0) == 0) {
                action = line.substr(m.actionPrefix.size());
            } else if (m.actionPattern) {
                std::smatch match;
                // At most a line's first 64 KiB is matched (see outcomeOf()); without a group the action is the line.
                const std::string head = line.size() > 64 * 1024 ? line.substr(0, 64 * 1024) : line;
                if (std::regex_search(head, match, *m.actionPattern))
                    action = match.size() > 1 && match[1].matched ? match[1].str() : line;
            }
            if (action && lastWasAction) { // consecutive action lines are one action ("Thought: …" then "Action: …")
                out.turns.back().action += '\n';
                out.turns.back().action += *action;
            } else if (action) {
                Turn& t = out.turns.emplace_back();
                t.observation = trimmed(block);
                t.action = std::move(*action);
                block.clear();
            } else {
                block += line;
                block.push_back('\n');
            }
            lastWasAction = action.has_value();
            start = end + 1;
        }
        if (out.turns.empty())
            fieldError(m.text.text(),
                "has no action line (lines starting with \"" + m.actionPrefix + "\""
                    + (m.actionPattern ? std::string(", or matching action_pattern") : std::string()) + ")");
        if (std::string rest = trimmed(block); !rest.empty())
            out.turns.back().feedback = std::move(rest);
        if (out.id.empty())
            out.id = generatedId(lineNo);
        if (out.group.empty())
            out.group = m_groups.groupOf(out.iteration, out.turns.front().observation);
        keepRecordMembers(m, doc, doc.root(), out);
    }

private:
    const MapSpec& m_spec;
    PromptGroups m_groups;
};

/// A row per step. Consecutive rows with the same `trajectory:` key are one trajectory; without a key, the whole input
/// is one (a file per session). Trajectory fields are read from the last row that has them; a row's turn fields may
/// refer to the previous and the next row.
class StepsSource : public TrajectorySource {
public:
    StepsSource(const TextInput& input, const MapSpec& spec)
        : m_spec(spec)
        , m_path(input.name)
        , m_lines(input)
    {
    }

    bool next(Trajectory& out) override
    {
        const MapSpec& m = m_spec;
        m_rows.clear();
        if (m_pending)
            m_rows.push_back(std::move(m_pending));
        for (;;) {
            std::string_view line;
            if (!nextRecordLine(m_lines, line))
                break;
            auto row = std::make_unique<Row>();
            row->text.assign(line);
            row->line = m_lines.lineNumber();
            try {
                parseRecord(row->doc, row->text);
                Scope s = Scope::of(row->doc);
                if (const Found f = find(m.trajectoryKey, s))
                    readLooseText(*f.doc, f.node, m.trajectoryKey.text(), row->key);
            } catch (const JsonlFieldError& e) {
                throw JsonlError(m_path, row->line, e.field, e.message, e.column);
            }
            if (!m_rows.empty() && row->key != m_rows.front()->key) {
                m_pending = std::move(row);
                break;
            }
            m_rows.push_back(std::move(row));
        }
        if (m_rows.empty())
            return false;
        out.id.clear();
        out.group.clear();
        out.iteration.reset();
        out.reward = 0.0;
        out.success.reset();
        out.task = {};
        out.turns.clear();
        out.extra.clear();
        const std::size_t firstLine = m_rows.front()->line;
        std::size_t lineNo = firstLine;
        bool rewardSeen = false;
        try {
            for (auto it = m_rows.rbegin(); it != m_rows.rend(); ++it) { // trajectory fields: the last row with them
                lineNo = (*it)->line;
                Trajectory fields;
                Scope s = Scope::of((*it)->doc);
                const bool hasReward = readRecordFields(m, s, fields);
                if (out.id.empty())
                    out.id = fields.id;
                if (out.group.empty())
                    out.group = fields.group;
                if (!out.iteration)
                    out.iteration = fields.iteration;
                if (!rewardSeen && hasReward)
                    out.reward = fields.reward, rewardSeen = true;
                if (!out.success)
                    out.success = fields.success;
            }
            for (std::size_t k = 0; k < m_rows.size(); ++k) {
                lineNo = m_rows[k]->line;
                Scope s = Scope::of(m_rows[k]->doc);
                if (k > 0)
                    s.prev = &m_rows[k - 1]->doc, s.prevNode = m_rows[k - 1]->doc.root();
                if (k + 1 < m_rows.size())
                    s.next = &m_rows[k + 1]->doc, s.nextNode = m_rows[k + 1]->doc.root();
                if (k + 1 == m_rows.size() && k > 0 && isTerminal(m, s)) {
                    keepRaw(out.extra, "final_step", m_rows[k]->doc.node(s.selfNode).raw, KeptLevel::Trajectory);
                    break;
                }
                readTurn(m, s, "row", out.turns.emplace_back());
            }
        } catch (const JsonlFieldError& e) {
            throw JsonlError(m_path, lineNo, e.field, e.message, e.column);
        }
        if (rewardSeen && !m.turnReward.empty())
            countOutcomeOnce(out);
        if (out.id.empty())
            out.id = !m.trajectoryKey.empty() && !m_rows.front()->key.empty()
                ? m_rows.front()->key
                : std::filesystem::path(m_path).stem().string() + (m_count > 0 ? "-" + std::to_string(firstLine) : "");
        if (out.group.empty())
            out.group
                = m_groups.groupOf(out.iteration, out.turns.empty() ? std::string() : out.turns.front().observation);
        if (auto [it, inserted] = m_idLines.try_emplace(out.id, firstLine); !inserted)
            throw JsonlError(m_path, firstLine, "id",
                "duplicate id \"" + out.id + "\" (first on line " + std::to_string(it->second) + ")");
        ++m_count;
        return true;
    }
    std::uint64_t bytesRead() const override { return m_lines.bytesRead(); }
    std::uint64_t size() const override { return m_lines.size(); }

private:
    struct Row {
        std::string text; ///< the row's line (its JsonDoc points into it)
        JsonDoc doc;
        std::size_t line = 0;
        std::string key;
    };
    const MapSpec& m_spec;
    std::string m_path;
    LineReader m_lines;
    std::vector<std::unique_ptr<Row>> m_rows;
    std::unique_ptr<Row> m_pending;
    PromptGroups m_groups;
    std::unordered_map<std::string, std::size_t> m_idLines;
    std::size_t m_count = 0;
};

/// Keeps a loaded mapping alive beside the source that refers to it.
class OwningSource : public TrajectorySource {
public:
    OwningSource(std::shared_ptr<const MapSpec> spec, std::unique_ptr<TrajectorySource> inner)
        : m_spec(std::move(spec))
        , m_inner(std::move(inner))
    {
        setFormatName(m_inner->formatName());
    }
    bool next(Trajectory& out) override
    {
        m_inner->setReadAheadProgress(m_readAhead);
        return m_inner->next(out);
    }
    std::uint64_t bytesRead() const override { return m_inner->bytesRead(); }
    std::uint64_t size() const override { return m_inner->size(); }

private:
    std::shared_ptr<const MapSpec> m_spec;
    std::unique_ptr<TrajectorySource> m_inner;
};

} // namespace

std::unique_ptr<TrajectorySource> openMappedSpec(const TextInput& input, const MapSpec& spec)
{
    std::unique_ptr<TrajectorySource> source;
    switch (spec.layout) {
    case MapLayout::Turns:
        source = std::make_unique<TurnsSource>(input, spec);
        break;
    case MapLayout::Transcript:
        source = std::make_unique<TranscriptSource>(input, spec);
        break;
    case MapLayout::Steps:
        source = std::make_unique<StepsSource>(input, spec);
        break;
    case MapLayout::Chat: {
        auto chat = openChat(input,
            spec.messages.empty() ? std::optional<MapPath>() : std::optional<MapPath>(spec.messages.refs.front().path));
        chat->setRecordHook([&spec](const JsonDoc& doc, Trajectory& out) {
            Scope record = Scope::of(doc);
            readRecordFields(spec, record, out);
        });
        source = std::move(chat);
        break;
    }
    }
    source->setFormatName(spec.name.empty() ? "map" : spec.name);
    return source;
}

std::unique_ptr<TrajectorySource> openMapped(const TextInput& input, const std::string& mapPath)
{
    // The mapping file's errors come before the data file's.
    auto spec = std::make_shared<const MapSpec>(loadMapSpec(mapPath));
    return std::make_unique<OwningSource>(spec, openMappedSpec(input, *spec));
}

std::string mappedRecordsPath(const std::string& mapPath) { return loadMapSpec(mapPath).records; }

} // namespace creditlab::importer
