#pragma once

// Internals shared by the foreign-format importers (importformats.cpp, importverl.cpp, importsteps.cpp,
// importmap.cpp). Not installed; core only.

#include "core/interchange/importformats.h"
#include "core/interchange/jsondoc.h"
#include "core/interchange/jsonl.h"
#include "core/interchange/jsonlfile.h"

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace creditlab::importer {

using Index = JsonDoc::Index;
constexpr Index kNone = JsonDoc::kNone;

/// Throws JsonlFieldError for `field`.
[[noreturn]] void fieldError(std::string field, std::string message);

/// Where a kept member goes: beside our trajectory fields or our turn fields.
enum class KeptLevel { Trajectory, Turn };
/// Appends the member `member` of a parsed record to `extra` as `"key":value`, verbatim; a member named like one of
/// our fields at `level` is kept as `"source.key"` (keptName()), so that an export never writes a key twice.
void keepMember(std::string& extra, const JsonDoc& doc, Index member, KeptLevel level);
/// Appends `"key":rawJson` to `extra` (renamed as keepMember does).
void keepRaw(std::string& extra, std::string_view key, std::string_view rawJson, KeptLevel level);

/// A required string value. Errors name `field`.
void readText(const JsonDoc& doc, Index i, const std::string& field, std::string& out);
/// A number (or a boolean, read as 0 / 1).
double readNumber(const JsonDoc& doc, Index i, const std::string& field);
/// A boolean (or a number, non-zero is true).
bool readBool(const JsonDoc& doc, Index i, const std::string& field);
/// An id: a non-empty string, or an integer number written as text.
std::string readId(const JsonDoc& doc, Index i, const std::string& field);
/// A non-negative integer (an iteration or a step index).
std::int64_t readIndex(const JsonDoc& doc, Index i, const std::string& field);
/// A score in [0, 1].
double readUnit(const JsonDoc& doc, Index i, const std::string& field);
/// A TRIAGE role label, "D", "E", "N" or "R".
Role readRole(const JsonDoc& doc, Index i, const std::string& field);
/// OpenAI message content: a string, null (empty), or an array of parts whose `text` members are joined.
void readContent(const JsonDoc& doc, Index i, const std::string& field, std::string& out);

/// Names groups after identical prompts: the same (iteration, prompt) gets the same group, "p0", "p1", ...
/// in order of first appearance (prefixed "it<N>-" when the iteration is known). Prompts are remembered by
/// length and 64-bit hash, not by text, so that a large file's prompts are not all kept in memory.
class PromptGroups {
public:
    std::string groupOf(const std::optional<std::int64_t>& iteration, const std::string& prompt);

private:
    std::map<std::tuple<std::int64_t, std::size_t, std::size_t>, std::string> m_groups;
};

/// One message of a conversation, in any of the conversation formats.
struct Message {
    bool isAction = false; ///< an assistant message: a turn's action
    std::string role; ///< the source's role name
    std::string text;
    std::string extra; ///< unknown members, `"k":v,...`
    std::optional<double> reward;
    std::optional<double> score;
    bool truncated = false; ///< templated text that ended before the message's end marker
    std::size_t index = 0; ///< position in the source's message list
};

/// Turns a conversation into turns: each action message is a turn's action, and the messages since the
/// previous action (joined by newlines) its observation. Messages after the last action become the last
/// turn's feedback. Each turn keeps `"message_index":N` (the action's position) in Turn::extra, then
/// `"truncated":true` when cut, the action's unknown members, and `"context":[...]` listing the
/// observation messages that carried unknown members. Throws JsonlFieldError (`field`) when there is no action.
void messagesToTurns(std::vector<Message>& messages, std::vector<Turn>& turns, const std::string& field);

/// Base of the line-per-trajectory formats: reads lines, parses each into a JsonDoc and lets the
/// subclass fill the trajectory; turns field errors into JsonlError(file, line, field) and refuses
/// duplicate ids.
class LineRecordSource : public TrajectorySource {
public:
    explicit LineRecordSource(const TextInput& input);
    bool next(Trajectory& out) override;
    std::uint64_t bytesRead() const override { return m_lines.bytesRead(); }
    std::uint64_t size() const override { return m_lines.size(); }

    /// Called after convert() with the record, to complete the trajectory (a mapping over a built-in format).
    using RecordHook = std::function<void(const JsonDoc& doc, Trajectory& out)>;
    void setRecordHook(RecordHook hook) { m_hook = std::move(hook); }

protected:
    /// Fills `out` from the record `doc` (line `lineNo`). Throws JsonlFieldError.
    virtual void convert(const JsonDoc& doc, std::size_t lineNo, Trajectory& out) = 0;
    /// Resets `out` for reuse.
    static void clear(Trajectory& out);
    /// The id of a record without one: the input's prefix and the line number ("line-7").
    std::string generatedId(std::size_t lineNo) const { return m_idPrefix + std::to_string(lineNo); }

    std::string m_path;
    std::string m_idPrefix;
    LineReader m_lines;
    JsonDoc m_doc;
    std::unordered_map<std::string, std::size_t> m_idLines;
    RecordHook m_hook;
};

/// Reads the next non-blank line (a UTF-8 byte-order mark on line 1 is skipped); false at the end.
bool nextRecordLine(LineReader& lines, std::string_view& line);
/// Parses `line` into `doc`, turning syntax errors into JsonlFieldError (with the column), and
/// requires an object.
void parseRecord(JsonDoc& doc, std::string_view line);

/// When `input` is one JSON document rather than JSON lines: its records as JSON lines (importdocument.cpp). Each
/// record is one minified line at the line where it starts in the file (blank lines before it, which the readers
/// skip); a record taken from an object keyed by id, or the one record of a file, gets `"id"` (the key, or the file's
/// name without extension) when it has none. `recordsPath` (a mapping's `records:`) names the list of records inside
/// the document. nullopt for JSON lines. Throws JsonlError naming the file, line and field.
struct DocumentLines {
    std::shared_ptr<const std::string> text; ///< the lines; or, streamed, the whole document
    bool streamed = false; ///< a top-level array: its records are made into lines one at a time, as they are read
    std::size_t offset = 0; ///< streamed: where the document starts in `text` (after a byte-order mark)
    /// What reads these lines: named, and with the generated ids' prefix, as `input`.
    TextInput asInput(const TextInput& input) const;
};
std::optional<DocumentLines> documentAsLines(const TextInput& input, const std::string& recordsPath = {});

/// A source path of a mapping file: member names (or array indices, negative from the end) joined by dots.
struct MapPath {
    std::string text; ///< as written, for error messages
    std::vector<std::string> segments;
    bool empty() const { return segments.empty(); }
};
/// OpenAI chat records; `messages` names where their messages are (a mapping's `messages:`) instead of the usual names.
std::unique_ptr<LineRecordSource> openChat(const TextInput& input, std::optional<MapPath> messages = std::nullopt);
std::unique_ptr<LineRecordSource> openShareGpt(const TextInput& input);
std::unique_ptr<TrajectorySource> openVerl(const TextInput& input, const std::optional<TemplateMarkers>& markers);
std::unique_ptr<TrajectorySource> openSteps(const TextInput& input);
std::unique_ptr<TrajectorySource> openMapped(const TextInput& input, const std::string& mapPath);
/// A mapping file's `records:` (the path of the list of records inside a JSON document); empty when it has none.
/// Throws std::runtime_error naming the file when it cannot be read.
std::string mappedRecordsPath(const std::string& mapPath);
/// When the turns' rewards sum to the trajectory's reward (the source's step rewards include the outcome, as
/// verl-agent's and AgentGym's do), takes the outcome off the last turn, so that it is counted once: ours are
/// intermediate rewards (CONVENTIONS.md: a step's reward is r_t + [t = T] R). Rewards that do not sum to it are left as
/// they are.
void countOutcomeOnce(Trajectory& t);

} // namespace creditlab::importer
