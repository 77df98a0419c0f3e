#pragma once

// Mapping files (docs/import-formats.md, "Mapping files"): what one says, read by importmapspec.cpp, and the sources
// that apply it, in importmap.cpp. Core only.

#include "core/interchange/importsource_p.h"

#include <optional>
#include <regex>
#include <string>
#include <vector>

namespace creditlab::importer {

/// Where a turn field's path starts: the turn's own element, the previous or the next one in the list (`@prev.`,
/// `@next.`), or the whole record (`@record.`).
enum class RefBase { Self, Previous, Next, Record };

struct MapRef {
    RefBase base = RefBase::Self;
    MapPath path;
};

/// One of our fields: alternative source paths, of which the first that is present wins (a YAML list gives several).
struct MapField {
    std::vector<MapRef> refs;
    bool empty() const { return refs.empty(); }
    /// The paths as written, "a | b", for error messages.
    std::string text() const;
};

/// How the records hold trajectories.
enum class MapLayout {
    Turns, ///< a record is a trajectory; `turns:` names its list of turns
    Steps, ///< a record is one step; consecutive records with the same `trajectory:` key (or a whole file) are one
    Transcript, ///< a record is a trajectory whose turns are in a text: action lines, each followed by what came back
    Chat, ///< a record is an OpenAI chat record (`base: chat`); the mapping adds trajectory fields and the outcome
};

struct MapSpec {
    std::string file; ///< the mapping file (or "shipped mapping NAME"), for errors
    std::string name; ///< the format's name, for the imported run
    MapLayout layout = MapLayout::Turns;
    std::string records; ///< the list of records inside a JSON document
    // Detection, for shipped mappings: members the first record must have, and texts it must match.
    std::vector<MapPath> detectHas;
    std::vector<std::pair<MapPath, std::regex>> detectMatches;
    bool filePerTrajectory = false; ///< each file holds one trajectory (so several files import as one run)
    // The trajectory's fields, relative to the record (in the Steps layout: the last row that has them).
    MapField id, group, iteration, reward, success;
    MapField outcomeFrom; ///< the text the outcome is read from ...
    std::optional<std::regex> outcomePattern; ///< ... by this expression's first group: true/false or a number
    MapField turns; ///< Turns: the list of turns
    MapField trajectoryKey; ///< Steps: rows with the same value form a trajectory
    MapField text; ///< Transcript: the transcript
    MapField messages; ///< Chat: the list of messages, when not under one of the usual names
    std::string actionPrefix; ///< Transcript: an action line starts with this (removed) ...
    std::optional<std::regex> actionPattern; ///< ... or matches this (its first group is the action)
    // The turn's fields, relative to one turn (a list element, a step row).
    MapField observation, action, feedback, turnReward, role, score, valid;
};

/// Reads a mapping file; `yaml` is its text when it is a shipped one (`file` then names it for errors). Throws
/// std::runtime_error naming the file, line and key.
MapSpec loadMapSpec(const std::string& file, const std::string* yaml = nullptr);

/// The value of `path` from `from` (kNone when absent).
Index resolvePath(const JsonDoc& doc, Index from, const MapPath& path);

/// A text field read leniently: a string; null as empty; OpenAI content parts joined; anything else as its JSON.
void readLooseText(const JsonDoc& doc, Index i, const std::string& field, std::string& out);

/// The outcome in `text` by the spec's pattern: 1 or 0 for true / false (any case), or the number; nullopt when the
/// text does not match. Throws JsonlFieldError (`field`) when the group is neither.
std::optional<double> outcomeOf(const MapSpec& spec, const std::string& text, const std::string& field);

/// True when the record `doc` has what the spec's `detect:` asks for (false when it asks for nothing).
bool detectMatches(const MapSpec& spec, const JsonDoc& doc);

/// The mappings shipped with CreditLab (core/mappings/*.yaml, compiled in), in detection order.
struct ShippedMapping {
    std::string_view name; ///< the file's name without ".yaml": "swe-agent"
    std::string_view yaml;
};
const std::vector<ShippedMapping>& shippedMappings();
/// The parsed shipped mapping `name`, or nullptr.
const MapSpec* shippedMapSpec(std::string_view name);

/// Opens `input` through `spec`.
std::unique_ptr<TrajectorySource> openMappedSpec(const TextInput& input, const MapSpec& spec);

} // namespace creditlab::importer
