// Reading the ingestion API's requests (api_p.h): refusals and their replies, the checks every body goes through,
// and a body's records read through the importers.
#include "core/server/api_p.h"

#include "core/interchange/jsonl.h"
#include "core/interchange/jsonscanner.h"

#include <regex>

namespace creditlab::server {

[[noreturn]] void refuse(int status, std::string field, std::string message)
{
    throw Refusal { status, std::move(message), std::move(field) };
}

Reply errorReply(const Refusal& r)
{
    std::string body = "{\"error\":";
    appendJsonString(body, r.message);
    if (!r.field.empty()) {
        body += ",\"field\":";
        appendJsonString(body, r.field);
    }
    body += '}';
    return Reply { r.status, std::move(body) };
}

void parseBody(JsonDoc& doc, std::string_view body)
{
    try {
        doc.parse(body);
    } catch (const JsonSyntaxError& e) {
        refuse(400, "", "invalid JSON at byte " + std::to_string(e.offset + 1) + ": " + e.message);
    }
    if (doc.kind(doc.root()) != Kind::Object)
        refuse(
            400, "", std::string("the body must be a JSON object, got ") + JsonScanner::kindName(doc.kind(doc.root())));
}

void requireKnownMembers(const JsonDoc& doc, std::initializer_list<std::string_view> known)
{
    const Index root = doc.root();
    for (Index m = doc.first(root); m != kNone; m = doc.next(root, m)) {
        bool found = false;
        for (const std::string_view k : known)
            found = found || doc.keyIs(m, k);
        if (!found) {
            std::string list;
            for (const std::string_view k : known)
                list += (list.empty() ? "" : ", ") + std::string(k);
            refuse(422, doc.key(m), "unknown field (known: " + list + ")");
        }
    }
}

std::string readString(const JsonDoc& doc, Index i, const std::string& field)
{
    if (doc.kind(i) != Kind::String)
        refuse(422, field, std::string("expected a string, got ") + JsonScanner::kindName(doc.kind(i)));
    return doc.string(i);
}

std::int64_t readIteration(const JsonDoc& doc, Index i, const std::string& field)
{
    const std::string_view raw = doc.node(i).raw;
    if (doc.kind(i) != Kind::Number || raw.find_first_of(".eE-") != std::string_view::npos || raw.size() > 15)
        refuse(422, field, "expected a non-negative integer below 10^15, got " + std::string(raw.substr(0, 40)));
    return static_cast<std::int64_t>(doc.number(i));
}

RecordOptions readRecordOptions(const JsonDoc& doc)
{
    RecordOptions o;
    const Index root = doc.root();
    if (const Index f = doc.member(root, "format"); f != kNone) {
        const std::string name = readString(doc, f, "format");
        const auto format = parseImportFormat(name);
        if (!format)
            refuse(422, "format", "unknown format \"" + name + "\" (known: " + importFormatNames() + ")");
        if (*format == ImportFormat::Mapped)
            refuse(422, "format", "mapping files are not read over HTTP; post one of the other formats");
        o.import.format = *format;
    }
    if (const Index m = doc.member(root, "markers"); m != kNone) {
        if (doc.kind(m) != Kind::Array || doc.size(m) != 2)
            refuse(422, "markers", "expected [begin, end], two strings");
        const Index b = doc.first(m);
        o.import.markers
            = TemplateMarkers { readString(doc, b, "markers[0]"), readString(doc, doc.next(m, b), "markers[1]") };
        if (o.import.markers->begin.empty())
            refuse(422, "markers[0]", "must not be empty");
    }
    return o;
}

namespace {

/// The importers speak of a file's lines ("first on line 3"); here a line is a position in the array.
std::string linesToPositions(const std::string& message)
{
    static const std::regex line(R"(\b(on )?line (\d+))");
    std::string out;
    auto from = message.cbegin();
    for (std::sregex_iterator it(message.begin(), message.end(), line), end; it != end; ++it) {
        out.append(from, (*it)[0].first);
        out += (*it)[1].matched ? "at " : "";
        out += "trajectories[" + std::to_string(std::stoull((*it)[2].str()) - 1) + "]";
        from = (*it)[0].second;
    }
    out.append(from, message.cend());
    return out;
}

} // namespace

std::vector<Trajectory> readRecords(
    const JsonDoc& doc, const RecordOptions& options, const std::string& idPrefix, bool allowEmpty)
{
    const Index list = doc.member(doc.root(), "trajectories");
    if (list == kNone)
        refuse(422, "trajectories", "is required but missing");
    if (doc.kind(list) != Kind::Array)
        refuse(422, "trajectories", "expected an array of records");
    std::vector<Trajectory> out;
    if (doc.size(list) == 0) {
        if (!allowEmpty)
            refuse(422, "trajectories", "is empty");
        return out;
    }
    // One record per line. A JSON value's raw text holds line breaks only as whitespace between tokens (inside a
    // string they must be escaped), so they become spaces.
    std::string text;
    text.reserve(doc.node(list).raw.size());
    std::size_t i = 0;
    for (Index e = doc.first(list); e != kNone; e = doc.next(list, e), ++i) {
        if (doc.kind(e) != Kind::Object)
            refuse(422, "trajectories[" + std::to_string(i) + "]",
                std::string("expected an object, got ") + JsonScanner::kindName(doc.kind(e)));
        const std::size_t from = text.size();
        text += doc.node(e).raw;
        for (std::size_t k = from; k < text.size(); ++k)
            if (text[k] == '\n' || text[k] == '\r')
                text[k] = ' ';
        text += '\n';
    }
    const TextInput input("trajectories", text, idPrefix);
    ImportOptions import = options.import;
    if (import.format == ImportFormat::Auto) {
        try {
            import.format = detectImportFormat(input);
        } catch (const std::runtime_error&) {
            std::string keys;
            const Index first = doc.first(list);
            for (Index m = doc.first(first); m != kNone; m = doc.next(first, m))
                keys += (keys.empty() ? "" : ", ") + doc.key(m);
            refuse(422, "format",
                "cannot tell the format from trajectories[0] (fields: " + keys + "); name it in \"format\" ("
                    + importFormatNames() + ")");
        }
    }
    try {
        const auto source = openTrajectorySource(input, import);
        Trajectory t;
        while (source->next(t))
            out.push_back(t);
    } catch (const JsonlError& e) {
        const std::string at = "trajectories[" + std::to_string(e.line() - 1) + "]";
        refuse(422, e.field().empty() ? at : at + "." + e.field(), linesToPositions(e.message()));
    } catch (const std::runtime_error& e) {
        refuse(422, "trajectories", e.what());
    }
    return out;
}

} // namespace creditlab::server
