#include "core/interchange/labelfile.h"

#include "core/interchange/jsonlfile.h"
#include "core/interchange/jsonscanner.h"
#include "core/storage/atomicfile.h"
#include "core/storage/humannote.h"
#include "core/storage/store.h"

#include <cmath>
#include <map>
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
    appendLabelLine(out, trajectoryId, label.turn, label.annotator, label.role, nullptr);
}

void appendLabelLine(std::string& out, const std::string& trajectoryId, int turn, const std::string& annotator,
    std::optional<Role> role, const LabelNote* note)
{
    // Keys in alphabetical order: the order the workbench has always written (QJsonObject sorts its keys). A note's
    // members only when set, so that a line of a label alone reads as it always did.
    out += "{\"annotator\":";
    appendJsonString(out, annotator);
    if (note && !note->comment.empty()) {
        out += ",\"comment\":";
        appendJsonString(out, note->comment);
    }
    if (note && note->flagged)
        out += ",\"flagged\":true";
    if (role) {
        out += ",\"role\":";
        appendJsonString(out, roleName(*role));
    }
    if (note && note->skipped)
        out += ",\"skipped\":true";
    out += ",\"trajectory\":";
    appendJsonString(out, trajectoryId);
    out += ",\"turn\":" + std::to_string(turn) + "}";
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
    bool hasRole = false; ///< "role" was there, of whatever type
    // The note's members; a member of the wrong type is remembered as such (a bad note is refused, not dropped).
    std::optional<bool> flagged;
    std::optional<bool> skipped;
    std::optional<std::string> comment;
    const char* badNote = nullptr; ///< the first note member of the wrong type
    bool hasNote() const { return flagged || skipped || comment; }
};

/// Reads a note's boolean member; a value of another type is recorded in `raw.badNote`.
void readNoteFlag(JsonScanner& scanner, const char* key, std::optional<bool>& out, RawLine& raw)
{
    const Kind kind = scanner.peek();
    if (kind == Kind::True || kind == Kind::False) {
        out = scanner.readBool();
        return;
    }
    scanner.skipValue();
    out.reset();
    if (!raw.badNote)
        raw.badNote = key;
}

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
            raw.hasRole = true;
            readOptionalString(scanner, raw.role);
        } else if (key == "flagged") {
            readNoteFlag(scanner, "flagged", raw.flagged, raw);
        } else if (key == "skipped") {
            readNoteFlag(scanner, "skipped", raw.skipped, raw);
        } else if (key == "comment") {
            if (scanner.peek() != Kind::String && !raw.badNote)
                raw.badNote = "comment";
            readOptionalString(scanner, raw.comment);
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
    struct Entry {
        std::optional<Role> role;
        std::optional<LabelNote> note;
    };
    for (const std::int64_t run : runs)
        for (const TrajectoryInfo& info : store.trajectories(run)) {
            // A turn's label and note by the same annotator share a line: by turn, then annotator (byte order, as
            // the store sorts them).
            std::map<std::pair<int, std::string>, Entry> entries;
            for (const HumanLabel& label : store.humanLabels(info.rowId))
                entries[{ label.turn, label.annotator }].role = label.role;
            for (const HumanNote& note : humanNotes(store, info.rowId))
                if (!note.isEmpty())
                    entries[{ note.turn, note.annotator }].note
                        = LabelNote { note.flagged, note.skipped, note.comment };
            result.trajectories += entries.empty() ? 0 : 1;
            for (const auto& [key, entry] : entries) {
                line.clear();
                appendLabelLine(line, info.id, key.first, key.second, entry.role, entry.note ? &*entry.note : nullptr);
                line += '\n';
                file.write(line);
                result.labels += entry.role ? 1 : 0;
                result.notes += entry.note ? 1 : 0;
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
        if (raw.badNote)
            throw bad(Problem::BadNote, raw.badNote,
                std::string_view(raw.badNote) == "comment" ? "expected a string" : "expected true or false");
        const std::optional<Role> role = raw.role ? parseRole(*raw.role) : std::nullopt;
        // A note may stand alone (a turn skipped or flagged without a label); a role that is there must be valid.
        if (!role && (raw.hasRole || !raw.hasNote()))
            throw bad(Problem::BadRole, "role", "expected one of D, E, N, R");
        std::optional<LabelNote> note;
        if (raw.hasNote())
            note = LabelNote { raw.flagged.value_or(false), raw.skipped.value_or(false), raw.comment.value_or("") };
        out.push_back(LabelLine { target.rowId, *raw.trajectory, int(turn), std::string(annotator), role, note });
    }
    return out;
}

void storeLabels(Store& store, const std::vector<LabelLine>& labels)
{
    auto transaction = store.begin();
    for (const LabelLine& label : labels) {
        if (label.role)
            store.setHumanLabel(label.trajectoryRowId, label.turn, label.annotator, *label.role);
        if (label.note)
            setHumanNote(store,
                HumanNote { label.trajectoryRowId, label.turn, label.annotator, label.note->flagged,
                    label.note->skipped, label.note->comment, {} });
    }
    transaction->commit();
}

std::vector<LabelLine> importLabelFile(Store& store, std::optional<std::int64_t> runId, const std::string& path)
{
    std::vector<LabelLine> labels = readLabelFile(store, runId, path);
    storeLabels(store, labels);
    return labels;
}

} // namespace creditlab
