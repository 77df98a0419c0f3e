#pragma once

#include "core/interchange/jsonlfile.h"
#include "core/model/trajectory.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace creditlab {

/// The file layouts the importer understands (docs/import-formats.md describes each).
enum class ImportFormat {
    Auto, ///< detected from the first record
    Native, ///< the DESIGN.md interchange format
    Chat, ///< OpenAI-style chat records: `messages` (or rLLM's `chat_completions`)
    ShareGpt, ///< ShareGPT / AgentGym: `conversations` with `from` and `value`
    Verl, ///< verl rollout dumps (`trainer.rollout_data_dir`): `input`, `output`, `score`, `step`
    Steps, ///< one row per step (verl-agent style), reassembled into trajectories
    Mapped, ///< anything else, through a mapping file
};

/// "native", "chat", "sharegpt", "verl", "steps", "map" ("auto" for Auto).
std::string_view importFormatName(ImportFormat format);
/// Parses a format name, accepting a few aliases ("jsonl", "openai", "agentgym", "verl-agent");
/// nullopt for anything else.
std::optional<ImportFormat> parseImportFormat(std::string_view name);
/// The names parseImportFormat accepts, for help texts.
std::string importFormatNames();

/// A chat template's message markers, for splitting templated text into messages: a message is
/// `begin ROLE\n CONTENT end` (ChatML is begin `<|im_start|>`, end `<|im_end|>`).
struct TemplateMarkers {
    std::string begin;
    std::string end;
};

/// How to read a file.
struct ImportOptions {
    /// Options that name the format and leave the rest at their defaults.
    static ImportOptions as(ImportFormat format)
    {
        ImportOptions o;
        o.format = format;
        return o;
    }

    ImportFormat format = ImportFormat::Auto;
    /// A mapping file (YAML), or the name of a shipped mapping (shippedMappingNames(); a file of that name wins); when
    /// set, the format is Mapped whatever `format` says. Mapped without a mapPath means the shipped mapping that
    /// recognises the file.
    std::string mapPath;
    /// verl dumps: split turns at this marker pair instead of the detected template.
    std::optional<TemplateMarkers> markers;
    /// The group of every trajectory: the value of this field of the source (a kept member, dots for nested ones:
    /// `task_id`, `info.task.id`), so that several trials of one task are compared. Empty: the format's own groups.
    std::string groupBy;
    /// Native files: keep a second member named like one of ours as "source.<key>" instead of refusing the line (files
    /// exported before 2026-11-29 wrote a source field so named after ours).
    bool renameDuplicates = false;
};

/// A pull source of trajectories read from one file, in file order. Throws JsonlError naming the
/// file, line and field for a bad record, std::runtime_error for an unreadable file. One thread.
class TrajectorySource {
public:
    virtual ~TrajectorySource() = default;
    /// Reads the next trajectory into `out` (which may hold an earlier one: reuse its storage);
    /// false at the end.
    virtual bool next(Trajectory& out) = 0;
    virtual std::uint64_t bytesRead() const = 0;
    virtual std::uint64_t size() const = 0;

    /// For sources that read the whole file before returning their first trajectory (step rows): called from
    /// next(), on next()'s thread, about every few thousand lines with the bytes read so far; returning false
    /// stops the reading, and next() throws Cancelled.
    using ReadAheadProgress = std::function<bool(std::uint64_t bytesRead)>;
    void setReadAheadProgress(ReadAheadProgress progress) { m_readAhead = std::move(progress); }

    /// The file's format as its users know it ("OpenAI chat", "SWE-agent trajectory", a mapping file's `name:`), for
    /// the imported run's record; set by openTrajectorySource.
    const std::string& formatName() const { return m_formatName; }
    void setFormatName(std::string name) { m_formatName = std::move(name); }

protected:
    ReadAheadProgress m_readAhead;
    std::string m_formatName;
};

/// Tells the format of a file from its first non-blank line (a JSON document's first record). Mapped when one of the
/// shipped mappings recognises it (openTrajectorySource then uses that mapping). A line that is not a JSON object, or
/// that has native fields (id, group, reward) without another format's, reads as native, so that the native reader
/// reports what is wrong with it. Throws std::runtime_error naming the file when the file cannot be read or
/// is empty, or when its first record matches no known format. Any thread.
ImportFormat detectImportFormat(const TextInput& input);

/// The names of the mappings shipped with CreditLab (resources/mappings/), which detection tries first and --map
/// accepts by name: "tau-bench, fireact-gpt, ...".
std::string shippedMappingNames();

/// Opens `input` (a file, or text in memory) as a trajectory source in the given (or detected) format. Throws as detectImportFormat,
/// and std::runtime_error naming the mapping file when it is bad. Any thread.
std::unique_ptr<TrajectorySource> openTrajectorySource(const TextInput& input, const ImportOptions& options = {});

/// Several files as one source, read in order, each opened as openTrajectorySource opens it: one run from a directory
/// of files that hold one trajectory each. An id that two files share is refused (JsonlError naming the second file).
/// Throws as openTrajectorySource for the first file at once, for the others when they are reached. Any thread.
std::unique_ptr<TrajectorySource> openTrajectorySources(
    const std::vector<std::string>& files, const ImportOptions& options = {});

/// True when the format of `file` (detected, or named by `options`) holds one trajectory per file, so that a directory
/// of such files is one run: SWE-agent's .traj files, WebShop's human sessions (a mapping's `file_per_trajectory`).
bool isFilePerTrajectory(const std::string& file, const ImportOptions& options = {});

} // namespace creditlab
