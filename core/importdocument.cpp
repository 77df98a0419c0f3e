// JSON documents as record lines: the layouts public agent logs come in besides JSON lines (issue 35). A JSON array
// of records (tau-bench), an object keyed by id (FireAct's trajs), one record per file (SWE-agent's .traj), or a list
// inside an object (AgentGym's {"episodes": [...]}; a mapping file's `records:` names it). Each record becomes one
// line of JSON at the line where it starts in the file, so that every importer reads it unchanged and every error
// names the file, that line and the field.
#include "core/importsource_p.h"
#include "core/jsonscanner.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace creditlab::importer {

namespace {

using Kind = JsonDoc::Kind;

/// The whole input's text (a file read at once, or the memory it names).
std::string readWhole(const TextInput& input)
{
    if (input.memory)
        return std::string(*input.memory);
    std::ifstream in(input.name, std::ios::binary | std::ios::ate);
    if (!in)
        throw std::runtime_error(input.name + ": cannot open the file");
    // One allocation and one read (a string stream grew and copied a large log several times).
    std::string text(static_cast<std::size_t>(std::max<std::streamoff>(0, in.tellg())), '\0');
    in.seekg(0);
    if (!in.read(text.data(), static_cast<std::streamsize>(text.size())))
        throw std::runtime_error(input.name + ": cannot read the file");
    return text;
}

/// `raw` JSON with the whitespace outside strings removed: one line.
void appendMinified(std::string& out, std::string_view raw)
{
    bool inString = false;
    for (std::size_t i = 0; i < raw.size(); ++i) {
        const char c = raw[i];
        if (inString) {
            out.push_back(c);
            if (c == '\\' && i + 1 < raw.size())
                out.push_back(raw[++i]);
            else if (c == '"')
                inString = false;
        } else if (c == '"') {
            inString = true;
            out.push_back(c);
        } else if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
            out.push_back(c);
        }
    }
}

/// A top-level array of objects as lines, each element minified at the line where it starts, in one pass that skips
/// strings and counts brackets (the elements' own JSON is checked by the importer that parses their lines). nullopt
/// when `body` is not such an array, or is broken at this level.
std::optional<std::string> arrayAsLines(std::string_view body)
{
    std::size_t i = 0;
    const auto skipSpace = [&] {
        while (i < body.size() && (body[i] == ' ' || body[i] == '\n' || body[i] == '\r' || body[i] == '\t'))
            ++i;
    };
    skipSpace();
    if (i >= body.size() || body[i] != '[')
        return std::nullopt;
    ++i;
    std::string out;
    out.reserve(body.size() / 2);
    std::size_t newlines = static_cast<std::size_t>(std::count(body.begin(), body.begin() + i, '\n'));
    std::size_t line = 1; // the output's current line
    for (bool first = true;; first = false) {
        const std::size_t before = i;
        skipSpace();
        newlines += static_cast<std::size_t>(std::count(body.begin() + before, body.begin() + i, '\n'));
        if (i >= body.size())
            return std::nullopt;
        if (body[i] == ']' && first)
            break;
        if (body[i] != '{')
            return std::nullopt; // not a record: the full parse names it
        while (line < newlines + 1) {
            out.push_back('\n');
            ++line;
        }
        int depth = 0;
        bool inString = false;
        while (i < body.size()) {
            if (inString) {
                // A string's text is copied in runs up to its closing quote (memchr), which most of a log's bytes are.
                const char* from = body.data() + i;
                const char* quote = static_cast<const char*>(std::memchr(from, '"', body.size() - i));
                if (!quote)
                    return std::nullopt;
                std::size_t backslashes = 0; // an odd run of backslashes before it escapes the quote
                for (const char* b = quote; b > from && b[-1] == '\\'; --b)
                    ++backslashes;
                const std::size_t end = static_cast<std::size_t>(quote - body.data()) + 1;
                out.append(from, end - i);
                i = end;
                inString = backslashes % 2 == 1; // escaped: the string goes on
                continue;
            }
            const char c = body[i++];
            if (c == '\n') {
                ++newlines;
                // An indented line: skip its indentation at once.
                while (i < body.size() && body[i] == ' ')
                    ++i;
                continue;
            }
            if (c == ' ' || c == '\r' || c == '\t')
                continue;
            out.push_back(c);
            if (c == '"')
                inString = true;
            else if (c == '{' || c == '[')
                ++depth;
            else if ((c == '}' || c == ']') && --depth == 0)
                break;
        }
        if (depth != 0 || inString)
            return std::nullopt;
        out.push_back('\n');
        ++line;
        const std::size_t after = i;
        skipSpace();
        newlines += static_cast<std::size_t>(std::count(body.begin() + after, body.begin() + i, '\n'));
        if (i < body.size() && body[i] == ',') {
            ++i;
            continue;
        }
        if (i < body.size() && body[i] == ']')
            break;
        return std::nullopt;
    }
    ++i; // ']'
    skipSpace();
    if (i != body.size())
        return std::nullopt;
    return out;
}

/// Whether a record of one of the formats we read has `object`'s members (rather than being a map of records).
bool looksLikeRecord(const JsonDoc& doc, Index object)
{
    return doc.firstMember(object,
               { "turns", "messages", "chat_completions", "conversations", "traj", "trajectory", "history",
                   "transitions", "input", "output", "traj_uid", "observation", "action" })
        != kNone;
}

} // namespace

std::optional<std::string> documentAsLines(const TextInput& input, const std::string& recordsPath)
{
    // JSON lines unless the first line opens an array, or opens an object it does not close (a document printed over
    // several lines). A first line that is a whole (or a broken) one-line record stays JSON lines, so that the readers
    // name what is wrong with it as they always have.
    bool opensDocument = false; // "[" or "{" alone on the first line: clearly a printed document
    {
        LineReader lines(input);
        std::string_view first;
        if (!nextRecordLine(lines, first))
            return std::nullopt;
        while (!first.empty() && (first.front() == ' ' || first.front() == '\t'))
            first.remove_prefix(1);
        while (!first.empty() && (first.back() == ' ' || first.back() == '\t' || first.back() == '\r'))
            first.remove_suffix(1);
        if (first.empty() || (first.front() != '[' && first.front() != '{'))
            return std::nullopt; // not JSON at all: the readers say so
        if (first.front() == '{' && first.back() == '}' && recordsPath.empty())
            return std::nullopt;
        opensDocument = first == "[" || first == "{" || first.front() == '[';
    }
    std::string text = readWhole(input);
    std::size_t skip = text.rfind("\xEF\xBB\xBF", 0) == 0 ? 3 : 0; // a UTF-8 byte-order mark
    const std::string_view body = std::string_view(text).substr(skip);
    // The common case, an array of records, without building the whole document's tree: each element is parsed
    // once, by the importer that reads its line. Anything unusual takes the full parse below, which says where.
    if (recordsPath.empty())
        if (auto lines = arrayAsLines(body))
            return lines;
    JsonDoc doc;
    try {
        doc.parse(body);
    } catch (const JsonSyntaxError& e) {
        if (!opensDocument && recordsPath.empty())
            return std::nullopt; // a broken first record of JSON lines: the readers name its field
        // Where it broke: the line and column of the offset.
        const std::size_t offset = std::min(e.offset, body.size());
        const std::size_t line = 1 + static_cast<std::size_t>(std::count(body.begin(), body.begin() + offset, '\n'));
        const std::size_t lineStart = body.rfind('\n', offset == 0 ? 0 : offset - 1);
        const std::size_t column = lineStart == std::string_view::npos || offset == 0 ? offset + 1 : offset - lineStart;
        throw JsonlError(input.name, line, "",
            "invalid JSON (" + e.message
                + "): neither JSON lines (one record per line) nor one JSON document (an array of records, an object "
                  "of records keyed by id, or one record)",
            column);
    }
    const Index root = doc.root();
    struct Record {
        Index node;
        std::string id; ///< added as "id" where the record has none (its key, or the file's name)
    };
    std::vector<Record> records;
    std::string where; ///< how the records were found, for errors
    const auto elementsOf = [&](Index list, const std::string& name) {
        for (Index e = doc.first(list); e != kNone; e = doc.next(list, e))
            records.push_back({ e, {} });
        where = name;
    };
    if (!recordsPath.empty()) {
        Index cur = root;
        std::size_t start = 0;
        while (cur != kNone && start <= recordsPath.size()) {
            const std::size_t dot = recordsPath.find('.', start);
            const std::string segment
                = recordsPath.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
            cur = doc.kind(cur) == Kind::Object ? doc.member(cur, segment) : kNone;
            if (dot == std::string::npos)
                break;
            start = dot + 1;
        }
        if (cur == kNone || doc.kind(cur) != Kind::Array)
            throw JsonlError(input.name, 1, recordsPath, "the mapping's records: names no list of records here");
        elementsOf(cur, recordsPath);
    } else if (doc.kind(root) == Kind::Array) {
        elementsOf(root, "");
    } else if (doc.kind(root) == Kind::Object) {
        bool allObjects = doc.size(root) > 0;
        bool allStrings = doc.size(root) > 0; // text transcripts keyed by id (ReAct's prompts)
        Index onlyList = kNone;
        std::size_t lists = 0;
        for (Index m = doc.first(root); m != kNone; m = doc.next(root, m)) {
            allObjects = allObjects && doc.kind(m) == Kind::Object;
            allStrings = allStrings && doc.kind(m) == Kind::String;
            if (doc.kind(m) == Kind::Array && doc.size(m) > 0 && doc.kind(doc.first(m)) == Kind::Object) {
                onlyList = m;
                ++lists;
            }
        }
        if (looksLikeRecord(doc, root)) {
            records.push_back({ root, std::filesystem::path(input.name).stem().string() });
        } else if (allObjects || allStrings) {
            for (Index m = doc.first(root); m != kNone; m = doc.next(root, m))
                records.push_back({ m, doc.key(m) });
        } else if (lists == 1) {
            elementsOf(onlyList, doc.key(onlyList));
        } else {
            records.push_back({ root, std::filesystem::path(input.name).stem().string() });
        }
    } else {
        return std::nullopt;
    }

    std::string out;
    out.reserve(body.size());
    std::size_t line = 1; // the output's line the next record would start on
    std::size_t counted = 0, newlines = 0; // newlines in body[0, counted)
    for (std::size_t k = 0; k < records.size(); ++k) {
        const Index node = records[k].node;
        const bool transcript = doc.kind(node) == Kind::String && !records[k].id.empty();
        if (doc.kind(node) != Kind::Object && !transcript) {
            const std::size_t offset = static_cast<std::size_t>(doc.node(node).raw.data() - body.data());
            const std::size_t lineOf
                = 1 + static_cast<std::size_t>(std::count(body.begin(), body.begin() + offset, '\n'));
            throw JsonlError(input.name, lineOf, (where.empty() ? "" : where) + "[" + std::to_string(k) + "]",
                "expected a record (a JSON object)");
        }
        const std::size_t offset = static_cast<std::size_t>(doc.node(node).raw.data() - body.data());
        newlines += static_cast<std::size_t>(std::count(body.begin() + counted, body.begin() + offset, '\n'));
        counted = offset;
        const std::size_t startLine = 1 + newlines;
        while (line < startLine) {
            out.push_back('\n');
            ++line;
        }
        std::string_view raw = doc.node(node).raw;
        if (transcript) { // a text keyed by id: {"id": key, "text": the text}
            out += "{\"id\":";
            appendJsonString(out, records[k].id);
            out += ",\"text\":";
            out += raw; // a string has no whitespace outside itself
            out.push_back('}');
        } else if (!records[k].id.empty() && doc.member(node, "id") == kNone) {
            out += "{\"id\":";
            appendJsonString(out, records[k].id);
            raw.remove_prefix(1); // '{'
            std::string rest;
            appendMinified(rest, raw);
            if (rest != "}")
                out.push_back(',');
            out += rest;
        } else {
            appendMinified(out, raw);
        }
        out.push_back('\n');
        ++line;
    }
    return out;
}

} // namespace creditlab::importer
