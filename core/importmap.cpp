// Mapping files: a YAML file that names, for each of our fields, the path of the source field that holds
// it (docs/import-formats.md). Paths are member names joined by dots; a number indexes an array.
#include "core/importsource_p.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <charconv>
#include <stdexcept>

namespace creditlab::importer {

namespace {

using Kind = JsonDoc::Kind;

struct Path {
    std::string text; ///< as written, for error messages
    std::vector<std::string> segments;
    bool empty() const { return segments.empty(); }
};

struct FieldMap {
    // The trajectory's fields, relative to the record.
    Path id, group, iteration, reward, success, turns;
    // The turn's fields, relative to one element of the turn list.
    Path observation, action, feedback, turnReward, role, score;
};

Path parsePath(const std::string& mapPath, const std::string& key, const std::string& text)
{
    Path p;
    p.text = text;
    std::size_t start = 0;
    for (;;) {
        const std::size_t dot = text.find('.', start);
        std::string seg = text.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
        if (seg.empty())
            throw std::runtime_error(mapPath + ": " + key + ": empty segment in path \"" + text + "\"");
        p.segments.push_back(std::move(seg));
        if (dot == std::string::npos)
            break;
        start = dot + 1;
    }
    return p;
}

/// The mapping file's YAML; its errors name the file (and the line).
YAML::Node loadYaml(const std::string& mapPath)
{
    try {
        return YAML::LoadFile(mapPath);
    } catch (const YAML::BadFile&) {
        throw std::runtime_error(mapPath + ": cannot open the mapping file");
    } catch (const YAML::Exception& e) {
        throw std::runtime_error(mapPath + ":" + std::to_string(e.mark.line + 1) + ": " + e.msg);
    }
}

FieldMap loadMap(const std::string& mapPath)
{
    const YAML::Node root = loadYaml(mapPath);
    if (!root.IsMap())
        throw std::runtime_error(mapPath + ": a mapping file is a YAML map of our field names to source paths");
    FieldMap m;
    const std::pair<const char*, Path FieldMap::*> keys[] = { { "id", &FieldMap::id }, { "group", &FieldMap::group },
        { "iteration", &FieldMap::iteration }, { "reward", &FieldMap::reward }, { "success", &FieldMap::success },
        { "turns", &FieldMap::turns }, { "observation", &FieldMap::observation }, { "action", &FieldMap::action },
        { "feedback", &FieldMap::feedback }, { "turn_reward", &FieldMap::turnReward }, { "role", &FieldMap::role },
        { "score", &FieldMap::score } };
    for (const auto& entry : root) {
        if (entry.first.IsScalar() && entry.first.Scalar() == "records") // read by mappedRecordsPath()
            continue;
        if (!entry.first.IsScalar())
            throw std::runtime_error(mapPath + ":" + std::to_string(entry.first.Mark().line + 1)
                + ": a key must be one of our field names, not a list or a map");
        const std::string key = entry.first.Scalar();
        const auto* k = std::find_if(std::begin(keys), std::end(keys), [&](const auto& p) { return key == p.first; });
        if (k == std::end(keys))
            throw std::runtime_error(mapPath + ":" + std::to_string(entry.first.Mark().line + 1) + ": unknown key \""
                + key
                + "\" (known: records, id, group, iteration, reward, success, turns, observation, action, feedback, "
                  "turn_reward, role, score)");
        if (!entry.second.IsScalar())
            throw std::runtime_error(mapPath + ":" + std::to_string(entry.second.Mark().line + 1) + ": " + key
                + ": expected a field path such as steps or meta.id");
        m.*(k->second) = parsePath(mapPath, key, entry.second.Scalar());
    }
    for (auto [key, path] :
        { std::pair { "turns", &m.turns }, { "observation", &m.observation }, { "action", &m.action } })
        if (path->empty())
            throw std::runtime_error(mapPath + ": \"" + key + "\" is required (the source path of our " + key + ")");
    return m;
}

std::string recordsPathOf(const std::string& mapPath)
{
    const YAML::Node root = loadYaml(mapPath);
    if (!root.IsMap() || !root["records"])
        return {};
    const YAML::Node records = root["records"];
    if (!records.IsScalar() || records.Scalar().empty())
        throw std::runtime_error(mapPath + ":" + std::to_string(records.Mark().line + 1)
            + ": records: expected the path of the list of records, such as episodes or data.items");
    return records.Scalar();
}

Index resolve(const JsonDoc& doc, Index from, const Path& path)
{
    Index cur = from;
    for (const std::string& seg : path.segments) {
        if (cur == kNone)
            return kNone;
        if (doc.kind(cur) == Kind::Object) {
            cur = doc.member(cur, seg);
        } else if (doc.kind(cur) == Kind::Array && !seg.empty()
            && seg.find_first_not_of("0123456789") == std::string::npos) {
            // An index beyond std::size_t (a fuzzed map's "r.2222…2.v" threw std::out_of_range) is past the
            // end of any array: nothing there, like any other index past its end.
            std::size_t n = 0;
            if (std::from_chars(seg.data(), seg.data() + seg.size(), n).ec != std::errc())
                return kNone;
            Index c = doc.first(cur);
            while (c != kNone && n-- > 0)
                c = doc.next(cur, c);
            cur = c;
        } else {
            return kNone;
        }
    }
    return cur;
}

/// True when a member of `object` is the whole target of one of `paths` (so it need not be kept).
bool consumed(const JsonDoc& doc, Index member, std::initializer_list<const Path*> paths)
{
    for (const Path* p : paths)
        if (p->segments.size() == 1 && doc.keyIs(member, p->segments.front()))
            return true;
    return false;
}

class MappedSource : public LineRecordSource {
public:
    MappedSource(const TextInput& input, FieldMap map)
        : LineRecordSource(input)
        , m_map(std::move(map))
    {
    }

protected:
    void convert(const JsonDoc& doc, std::size_t lineNo, Trajectory& out) override
    {
        const FieldMap& m = m_map;
        const Index root = doc.root();
        auto find = [&](const Path& p) { return p.empty() ? kNone : resolve(doc, root, p); };
        if (const Index i = find(m.id); i != kNone)
            out.id = readId(doc, i, m.id.text);
        if (const Index i = find(m.group); i != kNone)
            out.group = readId(doc, i, m.group.text);
        if (const Index i = find(m.iteration); i != kNone)
            out.iteration = readIndex(doc, i, m.iteration.text);
        if (const Index i = find(m.reward); i != kNone)
            out.reward = readNumber(doc, i, m.reward.text);
        if (const Index i = find(m.success); i != kNone)
            out.success = readBool(doc, i, m.success.text);
        const Index list = find(m.turns);
        if (list == kNone)
            fieldError(m.turns.text, "is required but missing");
        if (doc.kind(list) != Kind::Array)
            fieldError(m.turns.text, "expected an array of turns");
        std::size_t n = 0;
        for (Index e = doc.first(list); e != kNone; e = doc.next(list, e), ++n)
            readTurn(doc, e, m.turns.text + "[" + std::to_string(n) + "]", out.turns.emplace_back());
        if (out.id.empty())
            out.id = generatedId(lineNo);
        if (out.group.empty())
            out.group
                = m_groups.groupOf(out.iteration, out.turns.empty() ? std::string() : out.turns.front().observation);
        for (Index c = doc.first(root); c != kNone; c = doc.next(root, c))
            if (!consumed(doc, c, { &m.id, &m.group, &m.iteration, &m.reward, &m.success, &m.turns }))
                keepMember(out.extra, doc, c, KeptLevel::Trajectory);
    }

private:
    void readTurn(const JsonDoc& doc, Index e, const std::string& field, Turn& t)
    {
        const FieldMap& m = m_map;
        auto find = [&](const Path& p) { return p.empty() ? kNone : resolve(doc, e, p); };
        auto name = [&](const Path& p) { return field + "." + p.text; };
        const Index obs = find(m.observation);
        if (obs == kNone)
            fieldError(name(m.observation), "is required but missing");
        readText(doc, obs, name(m.observation), t.observation);
        const Index act = find(m.action);
        if (act == kNone)
            fieldError(name(m.action), "is required but missing");
        readText(doc, act, name(m.action), t.action);
        if (const Index i = find(m.feedback); i != kNone)
            readText(doc, i, name(m.feedback), t.feedback.emplace());
        if (const Index i = find(m.turnReward); i != kNone)
            t.reward = readNumber(doc, i, name(m.turnReward));
        if (const Index i = find(m.role); i != kNone)
            t.role = readRole(doc, i, name(m.role));
        if (const Index i = find(m.score); i != kNone)
            t.score = readUnit(doc, i, name(m.score));
        if (doc.kind(e) == Kind::Object)
            for (Index c = doc.first(e); c != kNone; c = doc.next(e, c))
                if (!consumed(doc, c, { &m.observation, &m.action, &m.feedback, &m.turnReward, &m.role, &m.score }))
                    keepMember(t.extra, doc, c, KeptLevel::Turn);
    }

    FieldMap m_map;
    PromptGroups m_groups;
};

} // namespace

std::unique_ptr<TrajectorySource> openMapped(const TextInput& input, const std::string& mapPath)
{
    FieldMap map = loadMap(mapPath); // the mapping file's errors come before the data file's
    return std::make_unique<MappedSource>(input, std::move(map));
}

std::string mappedRecordsPath(const std::string& mapPath) { return recordsPathOf(mapPath); }

} // namespace creditlab::importer
