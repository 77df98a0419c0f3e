#include "core/labelfile.h"

#include "core/atomicfile.h"
#include "core/jsonlfile.h"
#include "core/jsonscanner.h"
#include "core/store.h"

#include <cmath>
#include <unordered_map>

namespace creditlab {

LabelFileError::LabelFileError(std::string file, std::size_t line, Problem problem, std::string field,
    std::string message, std::string detail, std::int64_t lastTurn)
    : JsonlError(std::move(file), line, std::move(field), std::move(message))
    , m_problem(problem)
    , m_detail(std::move(detail))
    , m_lastTurn(lastTurn)
{
}

void appendLabelLine(std::string& out, const std::string& trajectoryId, const HumanLabel& label)
{
    // Keys in alphabetical order: the order the workbench has always written (QJsonObject sorts its keys).
    out += "{\"annotator\":";
    appendJsonString(out, label.annotator);
    out += ",\"role\":";
    appendJsonString(out, roleName(label.role));
    out += ",\"trajectory\":";
    appendJsonString(out, trajectoryId);
    out += ",\"turn\":" + std::to_string(label.turn) + "}";
}

namespace {

using Kind = JsonScanner::Kind;
using Problem = LabelFileError::Problem;

/// Where the import may put labels: the training trajectories of one run, or of every run.
std::vector<std::int64_t> runsOf(Store& store, std::optional<std::int64_t> runId)
{
    if (runId) {
        if (!store.run(*runId))
            throw StoreError(store.path() + ": no run with id " + std::to_string(*runId));
        return { *runId };
    }
    std::vector<std::int64_t> ids;
    for (const RunInfo& run : store.runs())
        ids.push_back(run.id);
    return ids;
}

struct Target {
    std::int64_t rowId = 0;
    std::int64_t runId = 0;
    std::int64_t turnCount = 0;
};

/// The trajectories of `runs` by JSONL id: per id the first trajectory of each run that has it, runs in order.
std::unordered_map<std::string, std::vector<Target>> targetsOf(Store& store, const std::vector<std::int64_t>& runs)
{
    std::unordered_map<std::string, std::vector<Target>> byId;
    for (const std::int64_t run : runs)
        for (const TrajectoryInfo& info : store.trajectories(run)) {
            std::vector<Target>& targets = byId[info.id];
            if (targets.empty() || targets.back().runId != run)
                targets.push_back(Target { info.rowId, run, info.turnCount });
        }
    return byId;
}

/// The members of one line that the format knows; a member of the wrong type reads as absent, the last of a
/// repeated member counts.
struct RawLine {
    std::optional<std::string> trajectory;
    std::optional<double> turn;
    std::optional<std::string> annotator;
    std::optional<std::string> role;
};

void readOptionalString(JsonScanner& scanner, std::optional<std::string>& out)
{
    if (scanner.peek() != Kind::String) {
        scanner.skipValue();
        out.reset();
        return;
    }
    out.emplace();
    scanner.readString(*out);
}

/// Throws JsonSyntaxError for anything but one JSON object.
RawLine parseLine(std::string_view line)
{
    JsonScanner scanner(line);
    if (scanner.peek() != Kind::Object)
        scanner.fail(std::string("expected an object, got ") + JsonScanner::kindName(scanner.peek()));
    scanner.expect('{');
    RawLine raw;
    std::string key;
    for (bool first = true; scanner.nextMember(key, nullptr, first); first = false) {
        if (key == "trajectory") {
            readOptionalString(scanner, raw.trajectory);
        } else if (key == "annotator") {
            readOptionalString(scanner, raw.annotator);
        } else if (key == "role") {
            readOptionalString(scanner, raw.role);
        } else if (key == "turn" && scanner.peek() == Kind::Number) {
            raw.turn = scanner.readNumber();
        } else {
            if (key == "turn")
                raw.turn.reset();
            scanner.skipValue();
        }
    }
    scanner.expectEnd();
    return raw;
}

std::string_view trimmed(std::string_view text)
{
    constexpr std::string_view kSpace = " \t\n\v\f\r";
    const std::size_t begin = text.find_first_not_of(kSpace);
    if (begin == std::string_view::npos)
        return {};
    return text.substr(begin, text.find_last_not_of(kSpace) - begin + 1);
}

} // namespace

LabelExportResult exportLabelFile(Store& store, std::optional<std::int64_t> runId, const std::string& path)
{
    const std::vector<std::int64_t> runs = runsOf(store, runId);
    AtomicFile file(path);
    LabelExportResult result;
    std::string line;
    for (const std::int64_t run : runs)
        for (const TrajectoryInfo& info : store.trajectories(run)) {
            const std::vector<HumanLabel> labels = store.humanLabels(info.rowId);
            result.trajectories += labels.empty() ? 0 : 1;
            for (const HumanLabel& label : labels) {
                line.clear();
                appendLabelLine(line, info.id, label);
                line += '\n';
                file.write(line);
                ++result.labels;
            }
        }
    file.commit();
    return result;
}

std::vector<LabelLine> readLabelFile(Store& store, std::optional<std::int64_t> runId, const std::string& path)
{
    const auto byId = targetsOf(store, runsOf(store, runId));
    const char* const where = runId ? "in the run" : "in the database";
    LineReader reader(path);
    std::vector<LabelLine> out;
    std::string_view text;
    while (reader.next(text)) {
        const std::size_t lineNo = reader.lineNumber();
        if (lineNo == 1 && text.substr(0, 3) == "\xEF\xBB\xBF")
            text.remove_prefix(3); // some editors start UTF-8 files with a byte-order mark
        text = trimmed(text);
        if (text.empty())
            continue;
        const auto bad = [&](Problem problem, const char* field, std::string message, std::string detail = {},
                             std::int64_t lastTurn = -1) {
            return LabelFileError(path, lineNo, problem, field, std::move(message), std::move(detail), lastTurn);
        };
        RawLine raw;
        try {
            raw = parseLine(text);
        } catch (const JsonSyntaxError& e) {
            throw bad(Problem::NotAnObject, "", "not a JSON object (" + e.message + ")", e.message);
        }
        const auto found = raw.trajectory ? byId.find(*raw.trajectory) : byId.end();
        if (found == byId.end())
            throw bad(Problem::UnknownTrajectory, "trajectory", std::string("no trajectory with this id ") + where);
        if (found->second.size() > 1) {
            std::string runs;
            for (const Target& t : found->second)
                runs += (runs.empty() ? "" : ", ") + std::to_string(t.runId);
            throw bad(Problem::AmbiguousTrajectory, "trajectory",
                "this id names trajectories of several runs (" + runs + "): name the run to import into", runs);
        }
        const Target& target = found->second.front();
        const double turn = raw.turn.value_or(-1.0);
        if (!(turn >= 0.0 && turn < double(target.turnCount) && turn == std::floor(turn)))
            throw bad(Problem::BadTurn, "turn",
                "expected a turn index from 0 to " + std::to_string(target.turnCount - 1), {}, target.turnCount - 1);
        const std::string_view annotator = trimmed(raw.annotator ? std::string_view(*raw.annotator) : "");
        if (annotator.empty())
            throw bad(Problem::EmptyAnnotator, "annotator", "expected a non-empty name");
        const std::optional<Role> role = raw.role ? parseRole(*raw.role) : std::nullopt;
        if (!role)
            throw bad(Problem::BadRole, "role", "expected one of D, E, N, R");
        out.push_back(LabelLine { target.rowId, *raw.trajectory, int(turn), std::string(annotator), *role });
    }
    return out;
}

void storeLabels(Store& store, const std::vector<LabelLine>& labels)
{
    auto transaction = store.begin();
    for (const LabelLine& label : labels)
        store.setHumanLabel(label.trajectoryRowId, label.turn, label.annotator, label.role);
    transaction->commit();
}

std::vector<LabelLine> importLabelFile(Store& store, std::optional<std::int64_t> runId, const std::string& path)
{
    std::vector<LabelLine> labels = readLabelFile(store, runId, path);
    storeLabels(store, labels);
    return labels;
}

} // namespace creditlab
