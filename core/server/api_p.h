#pragma once

// Private to the ingestion API's files (api.cpp, api_request.cpp, api_credit.cpp): refusing a request, and reading
// its body. The handlers throw a Refusal anywhere inside guarded(), which turns it into the error reply.

#include "core/interchange/importformats.h"
#include "core/interchange/jsondoc.h"
#include "core/model/trajectory.h"
#include "core/server/ingestserver.h"

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

namespace creditlab::server {

using Index = JsonDoc::Index;
using Kind = JsonDoc::Kind;
constexpr Index kNone = JsonDoc::kNone;

/// A refused request: thrown inside the handlers, turned into a Reply at their edge.
struct Refusal {
    int status;
    std::string message;
    std::string field;
};

[[noreturn]] void refuse(int status, std::string field, std::string message);

/// {"error": message, "field": field}, the field left out when empty.
Reply errorReply(const Refusal& r);

/// Runs `fn`, turning a Refusal into its reply.
template <typename Fn> Reply guarded(Fn&& fn)
{
    try {
        return fn();
    } catch (const Refusal& r) {
        return errorReply(r);
    }
}

/// Parses a request body, which must be one JSON object.
void parseBody(JsonDoc& doc, std::string_view body);
/// Refuses members of the body's object that are not in `known`: a misspelt "metric" must not pass silently.
void requireKnownMembers(const JsonDoc& doc, std::initializer_list<std::string_view> known);

std::string readString(const JsonDoc& doc, Index i, const std::string& field);
std::int64_t readIteration(const JsonDoc& doc, Index i, const std::string& field);

/// The records of a batch, read through the importers exactly as a file would be: `format`, `markers` and the
/// array `trajectories` of the body. Each record is one line of an in-memory JSONL text, so that the importers'
/// line numbers map back to array positions, and a bad record is refused naming "trajectories[i].field".
struct RecordOptions {
    ImportOptions import;
};

RecordOptions readRecordOptions(const JsonDoc& doc);
/// The body's `trajectories` as trajectories; records without an id of their own get `idPrefix` and their line
/// number (TextInput::idPrefix). An empty array is refused unless `allowEmpty`.
std::vector<Trajectory> readRecords(
    const JsonDoc& doc, const RecordOptions& options, const std::string& idPrefix, bool allowEmpty);

} // namespace creditlab::server
