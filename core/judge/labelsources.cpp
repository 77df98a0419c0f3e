#include "core/judge/labelsources.h"

#include <algorithm>
#include <array>
#include <map>
#include <sqlite3.h>
#include <stdexcept>
#include <unordered_map>

namespace creditlab::judge {

namespace {

constexpr std::string_view kUnspecified = "unspecified";

/// A read transaction when the connection has none, so that all queries see one state.
class ReadScope {
public:
    explicit ReadScope(Database& db)
        : m_db(db)
        , m_own(sqlite3_get_autocommit(db.handle()) != 0)
    {
        if (m_own)
            m_db.exec("BEGIN");
    }
    ~ReadScope()
    {
        if (m_own) {
            try {
                m_db.exec("COMMIT");
            } catch (...) {
            }
        }
    }
    ReadScope(const ReadScope&) = delete;
    ReadScope& operator=(const ReadScope&) = delete;

private:
    Database& m_db;
    bool m_own;
};

void requireRun(Store& store, std::int64_t runId)
{
    if (!store.run(runId))
        throw StoreError(store.path() + ": no run with id " + std::to_string(runId));
}

/// One source kind: its name prefix, the query of its labels (trajectory row id, turn index, name, role) and
/// the query of its names on a run. Roles stored on turns are grouped by their role_source.
struct Kind {
    std::string_view prefix;
    const char* labelsSql;
    const char* namesSql;
};
constexpr std::array<Kind, 3> kKinds { {
    { "human",
        "SELECT h.trajectory_id, h.idx, h.annotator, h.role FROM human_label h "
        "JOIN trajectory t ON t.id = h.trajectory_id WHERE t.run_id = ?",
        "SELECT DISTINCT h.annotator FROM human_label h JOIN trajectory t ON t.id = h.trajectory_id "
        "WHERE t.run_id = ?" },
    { "judge",
        "SELECT j.trajectory_id, j.idx, j.judge, j.role FROM judge_label j "
        "JOIN trajectory t ON t.id = j.trajectory_id WHERE t.run_id = ?",
        "SELECT DISTINCT j.judge FROM judge_label j JOIN trajectory t ON t.id = j.trajectory_id WHERE t.run_id = ?" },
    { "turn",
        "SELECT u.trajectory_id, u.idx, u.role_source, u.role FROM turn u "
        "JOIN trajectory t ON t.id = u.trajectory_id WHERE t.run_id = ? AND u.role IS NOT NULL",
        "SELECT DISTINCT u.role_source FROM turn u JOIN trajectory t ON t.id = u.trajectory_id "
        "WHERE t.run_id = ? AND u.role IS NOT NULL" },
} };

/// The source name of a row's name column (column `column` of `st`).
std::string sourceName(const Kind& kind, const Statement& st, int column)
{
    if (kind.prefix != "turn")
        return std::string(kind.prefix) + ":" + st.columnText(column);
    const std::optional<std::string> roleSource = st.columnOptText(column);
    return "turn:" + (roleSource && !roleSource->empty() ? *roleSource : std::string(kUnspecified));
}

std::string joined(const std::vector<std::string>& names)
{
    std::string s;
    for (const auto& n : names)
        s += (s.empty() ? "" : ", ") + n;
    return s;
}

} // namespace

const std::vector<std::optional<Role>>* RunLabels::find(const std::string& source) const
{
    for (std::size_t s = 0; s < sources.size(); ++s)
        if (sources[s] == source)
            return &labels[s];
    return nullptr;
}

std::vector<bool> RunLabels::successFlags() const
{
    std::vector<bool> out;
    out.reserve(turns.size());
    for (const TurnRef& t : turns)
        out.push_back(t.success);
    return out;
}

std::int64_t RunLabels::labelledCount(const std::string& source) const
{
    const auto* l = find(source);
    return l ? std::count_if(l->begin(), l->end(), [](const auto& r) { return r.has_value(); }) : 0;
}

std::vector<std::string> labelSources(Store& store, std::int64_t runId)
{
    ReadScope scope(store.database());
    requireRun(store, runId);
    std::vector<std::string> out;
    for (const Kind& kind : kKinds) {
        Statement st = store.database().prepare(kind.namesSql);
        st.bind(1, runId);
        std::vector<std::string> names;
        while (st.step())
            names.push_back(sourceName(kind, st, 0));
        std::sort(names.begin(), names.end());
        names.erase(std::unique(names.begin(), names.end()), names.end()); // NULL and '' role_source coincide
        out.insert(out.end(), names.begin(), names.end());
    }
    return out;
}

RunLabels loadRunLabels(Store& store, std::int64_t runId, const std::vector<std::string>& sources)
{
    ReadScope scope(store.database());
    const std::vector<std::string> known = labelSources(store, runId);
    RunLabels r;
    r.runId = runId;
    r.sources = sources.empty() ? known : sources;
    for (const std::string& s : r.sources)
        if (std::find(known.begin(), known.end(), s) == known.end())
            throw std::invalid_argument("run " + std::to_string(runId) + " has no labels from '" + s + "'"
                + (known.empty() ? " (it has no labels at all)" : " (sources: " + joined(known) + ")"));
    std::map<std::string, std::size_t> index;
    for (std::size_t s = 0; s < r.sources.size(); ++s)
        index.emplace(r.sources[s], s);

    struct Span {
        std::size_t offset;
        std::int64_t count;
    };
    std::unordered_map<std::int64_t, Span> spans;
    for (const TrajectoryInfo& t : store.trajectories(runId)) {
        spans.emplace(t.rowId, Span { r.turns.size(), t.turnCount });
        for (int k = 0; k < t.turnCount; ++k)
            r.turns.push_back(TurnRef { t.rowId, k, t.successOrDefault() });
    }
    r.labels.assign(r.sources.size(), std::vector<std::optional<Role>>(r.turns.size()));

    for (const Kind& kind : kKinds) {
        const bool wanted = std::any_of(r.sources.begin(), r.sources.end(),
            [p = std::string(kind.prefix) + ":"](const std::string& s) { return s.starts_with(p); });
        if (!wanted)
            continue;
        Statement st = store.database().prepare(kind.labelsSql);
        st.bind(1, runId);
        while (st.step()) {
            const std::string name = sourceName(kind, st, 2);
            const auto s = index.find(name);
            const auto span = spans.find(st.columnInt(0));
            const std::int64_t turn = st.columnInt(1);
            if (s == index.end() || span == spans.end() || turn < 0 || turn >= span->second.count)
                continue;
            r.labels[s->second][span->second.offset + static_cast<std::size_t>(turn)] = parseRole(st.columnTextView(3));
        }
    }
    return r;
}

std::string resolveSource(const std::vector<std::string>& sources, const std::string& wanted, const std::string& prefix)
{
    if (std::find(sources.begin(), sources.end(), wanted) != sources.end())
        return wanted;
    if (!prefix.empty()) {
        const std::string full = prefix + ":" + wanted;
        if (std::find(sources.begin(), sources.end(), full) != sources.end())
            return full;
    }
    // A prefix of a name ends where a parameter list or a ':' begins: "noisy" matches "judge:noisy:...".
    const auto matchesPrefix = [](const std::string& name, const std::string& start) {
        return name.size() > start.size() && name.starts_with(start)
            && (name[start.size()] == ':' || name[start.size()] == ',');
    };
    // Each source matches at a depth: 0 for the whole name, k for the tail after its k-th ':'. The shallowest
    // matches win, so "oracle" means judge:oracle rather than turn:judge:oracle when both exist.
    std::vector<std::string> matches;
    std::size_t best = std::string::npos;
    for (const std::string& s : sources) {
        if (!prefix.empty() && s.substr(0, s.find(':')) != prefix)
            continue;
        std::size_t depth = matchesPrefix(s, wanted) ? 0 : std::string::npos;
        std::size_t k = 1;
        for (std::size_t p = s.find(':'); depth == std::string::npos && p != std::string::npos;
             p = s.find(':', p + 1), ++k) {
            const std::string tail = s.substr(p + 1);
            if (tail == wanted || matchesPrefix(tail, wanted))
                depth = k;
        }
        if (depth == std::string::npos || depth > best)
            continue;
        if (depth < best)
            matches.clear();
        best = depth;
        matches.push_back(s);
    }
    const std::string what = prefix.empty() ? "label source" : prefix + " label source";
    if (matches.size() == 1)
        return matches.front();
    if (matches.empty())
        throw std::invalid_argument("no " + what + " '" + wanted + "'"
            + (sources.empty() ? " (the run has no labels)" : " (sources: " + joined(sources) + ")"));
    throw std::invalid_argument("'" + wanted + "' matches several label sources: " + joined(matches));
}

std::int64_t storeJudgeLabels(Store& store, const std::string& judge, const std::vector<TurnRef>& turns,
    const std::vector<std::optional<Role>>& roles)
{
    if (turns.size() != roles.size())
        throw std::invalid_argument("storeJudgeLabels: turns and roles differ in length");
    std::unique_ptr<Transaction> tx;
    if (sqlite3_get_autocommit(store.database().handle()) != 0)
        tx = store.begin();
    const std::string now = currentTimestamp();
    std::int64_t written = 0;
    for (std::size_t i = 0; i < turns.size(); ++i) {
        if (!roles[i])
            continue;
        store.setJudgeLabel(
            JudgeLabel { turns[i].trajectoryRowId, turns[i].turn, judge, *roles[i], std::nullopt, std::nullopt, now });
        ++written;
    }
    if (tx)
        tx->commit();
    return written;
}

RunLabels mergeRunLabels(const std::vector<RunLabels>& runs)
{
    RunLabels out;
    std::array<std::vector<std::string>, 3> byKind;
    for (const RunLabels& r : runs)
        for (const std::string& s : r.sources)
            for (std::size_t k = 0; k < kKinds.size(); ++k)
                if (s.starts_with(std::string(kKinds[k].prefix) + ":"))
                    byKind[k].push_back(s);
    for (auto& names : byKind) {
        std::sort(names.begin(), names.end());
        names.erase(std::unique(names.begin(), names.end()), names.end());
        out.sources.insert(out.sources.end(), names.begin(), names.end());
    }
    std::size_t total = 0;
    for (const RunLabels& r : runs)
        total += r.turns.size();
    out.turns.reserve(total);
    out.labels.assign(out.sources.size(), std::vector<std::optional<Role>>(total));
    for (const RunLabels& r : runs) {
        const std::size_t offset = out.turns.size();
        out.turns.insert(out.turns.end(), r.turns.begin(), r.turns.end());
        for (std::size_t s = 0; s < r.sources.size(); ++s) {
            const auto it = std::find(out.sources.begin(), out.sources.end(), r.sources[s]);
            std::copy(r.labels[s].begin(), r.labels[s].end(),
                out.labels[std::size_t(it - out.sources.begin())].begin() + std::ptrdiff_t(offset));
        }
    }
    return out;
}

bool mirrorsStoredSource(const std::string& source, const std::vector<std::string>& sources)
{
    if (!source.starts_with("turn:"))
        return false;
    const std::string stored = source.substr(5);
    return std::find(sources.begin(), sources.end(), stored) != sources.end();
}

bool hasTwoSources(const std::vector<std::string>& sources)
{
    return std::count_if(sources.begin(), sources.end(), [&sources](const std::string& s) {
        return !mirrorsStoredSource(s, sources);
    }) >= 2;
}

std::vector<LabelledRun> labelledRuns(Store& store)
{
    std::vector<RunInfo> runs = store.runs();
    std::sort(runs.begin(), runs.end(), [](const RunInfo& a, const RunInfo& b) { return a.id > b.id; });
    std::vector<LabelledRun> out;
    for (RunInfo& run : runs)
        if (std::vector<std::string> sources = labelSources(store, run.id); !sources.empty())
            out.push_back(LabelledRun { std::move(run), std::move(sources) });
    return out;
}

std::optional<std::int64_t> defaultAgreementRun(const std::vector<LabelledRun>& runs)
{
    // The newest run with labels may have only one source (a training run's judge labels): nothing to compare there,
    // while an older run holds the human labels to compare with its judge.
    for (const LabelledRun& r : runs)
        if (hasTwoSources(r.sources))
            return r.run.id;
    if (runs.empty())
        return std::nullopt;
    return runs.front().run.id;
}

SourcesAlpha alphaAcrossSources(const RunLabels& labels)
{
    SourcesAlpha out;
    for (const auto& s : labels.sources)
        if (s.starts_with("human:"))
            out.coders.push_back(s);
    out.overHumans = out.coders.size() >= 2;
    if (!out.overHumans) {
        out.coders.clear();
        for (const auto& s : labels.sources)
            if (!mirrorsStoredSource(s, labels.sources))
                out.coders.push_back(s);
    }
    if (out.coders.size() >= 2) {
        std::vector<std::vector<std::optional<Role>>> values;
        for (const auto& c : out.coders)
            values.push_back(*labels.find(c));
        out.result = krippendorffAlpha(values);
    }
    return out;
}

std::vector<TurnText> turnTexts(Store& store, const std::vector<TurnRef>& turns)
{
    ReadScope scope(store.database());
    Statement st = store.database().prepare("SELECT t.ext_id, u.action FROM turn u "
                                            "JOIN trajectory t ON t.id = u.trajectory_id "
                                            "WHERE u.trajectory_id = ? AND u.idx = ?");
    std::vector<TurnText> out;
    out.reserve(turns.size());
    for (const TurnRef& t : turns) {
        st.reset();
        st.bind(1, t.trajectoryRowId);
        st.bind(2, t.turn);
        out.push_back(st.step() ? TurnText { st.columnText(0), st.columnText(1) } : TurnText {});
    }
    return out;
}

} // namespace creditlab::judge
