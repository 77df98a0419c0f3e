// JSON documents as record lines: the layouts public agent logs come in besides JSON lines (issue 35). A JSON array
// of records (tau-bench), an object keyed by id (FireAct's trajs), one record per file (SWE-agent's .traj), or a list
// inside an object (AgentGym's {"episodes": [...]}; a mapping file's `records:` names it). Each record becomes one
// line of JSON at the line where it starts in the file, so that every importer reads it unchanged and every error
// names the file, that line and the field.
#include "core/interchange/importsource_p.h"
#include "core/interchange/jsonscanner.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
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

std::optional<std::string> parsedDocumentAsLines(
    const TextInput& input, std::string_view body, const std::string& recordsPath, bool opensDocument);

/// A top-level array of records as lines, made one at a time as the reader asks (so that an import's parser thread
/// makes them while its writer writes): each element minified, at the line where it starts in the file, in one pass
/// that copies strings in runs and counts brackets (the element's own JSON is checked by the importer that parses its
/// line). Anything broken at this level is reported by the full parse (parsedDocumentAsLines), which says where.
class ArrayFeed : public LineFeed {
public:
    ArrayFeed(std::shared_ptr<const std::string> text, std::size_t offset, std::string name)
        : m_text(std::move(text))
        , m_body(std::string_view(*m_text).substr(offset))
        , m_name(std::move(name))
    {
    }

    bool next(std::string_view& line, std::size_t& lineNumber) override
    {
        if (m_done)
            return false;
        if (!m_started) {
            skipSpace();
            if (m_i >= m_body.size() || m_body[m_i] != '[')
                fail();
            ++m_i;
            m_started = true;
        }
        skipSpace();
        if (m_i >= m_body.size())
            fail();
        if (m_body[m_i] == ']' && m_first) {
            ++m_i;
            finish();
            return false;
        }
        if (m_body[m_i] != '{')
            fail(); // not a record: the full parse names it
        lineNumber = 1 + m_newlines;
        m_line.clear();
        minifyElement();
        skipSpace();
        if (m_i < m_body.size() && m_body[m_i] == ',')
            ++m_i;
        else if (m_i < m_body.size() && m_body[m_i] == ']')
            ++m_i, finish();
        else
            fail();
        m_first = false;
        line = m_line;
        return true;
    }
    std::uint64_t bytesRead() const override { return m_i; }
    std::uint64_t size() const override { return m_body.size(); }

private:
    void skipSpace()
    {
        while (m_i < m_body.size()) {
            const char c = m_body[m_i];
            if (c == '\n')
                ++m_newlines;
            else if (c != ' ' && c != '\r' && c != '\t')
                break;
            ++m_i;
        }
    }

    /// The element at m_i (an object) into m_line, without the whitespace outside its strings.
    void minifyElement()
    {
        int depth = 0;
        bool inString = false;
        const std::string_view body = m_body;
        std::size_t i = m_i;
        while (i < body.size()) {
            if (inString) {
                // A string's text is copied in runs up to its closing quote (memchr), which most of a log's bytes are.
                const char* from = body.data() + i;
                const char* quote = static_cast<const char*>(std::memchr(from, '"', body.size() - i));
                if (!quote)
                    fail();
                std::size_t backslashes = 0; // an odd run of backslashes before it escapes the quote
                for (const char* b = quote; b > from && b[-1] == '\\'; --b)
                    ++backslashes;
                const std::size_t end = static_cast<std::size_t>(quote - body.data()) + 1;
                m_line.append(from, end - i);
                i = end;
                inString = backslashes % 2 == 1; // escaped: the string goes on
                continue;
            }
            const char c = body[i++];
            if (c == '\n') {
                ++m_newlines;
                while (i < body.size() && body[i] == ' ') // an indented line: its indentation at once
                    ++i;
                continue;
            }
            if (c == ' ' || c == '\r' || c == '\t')
                continue;
            m_line.push_back(c);
            if (c == '"')
                inString = true;
            else if (c == '{' || c == '[')
                ++depth;
            else if ((c == '}' || c == ']') && --depth == 0)
                break;
        }
        if (depth != 0 || inString)
            fail();
        m_i = i;
    }

    /// After the closing bracket: only whitespace may follow.
    void finish()
    {
        skipSpace();
        if (m_i != m_body.size())
            fail();
        m_done = true;
    }

    /// Something is broken at the array's level: the full parse says what and where (it throws JsonlError).
    [[noreturn]] void fail()
    {
        parsedDocumentAsLines(TextInput(m_name), m_body, {}, true);
        throw JsonlError(m_name, 1 + m_newlines, "", "not a JSON array of records");
    }

    std::shared_ptr<const std::string> m_text;
    std::string_view m_body;
    std::string m_name;
    std::string m_line;
    std::size_t m_i = 0;
    std::size_t m_newlines = 0;
    bool m_started = false, m_first = true, m_done = false;
};

/// Whether a record of one of the formats we read has `object`'s members (rather than being a map of records).
bool looksLikeRecord(const JsonDoc& doc, Index object)
{
    return doc.firstMember(object,
               { "turns", "messages", "chat_completions", "conversations", "traj", "trajectory", "history",
                   "transitions", "input", "output", "traj_uid", "observation", "action" })
        != kNone;
}

} // namespace

std::optional<DocumentLines> documentAsLines(const TextInput& input, const std::string& recordsPath)
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
    auto text = std::make_shared<const std::string>(readWhole(input));
    const std::size_t skip = text->rfind("\xEF\xBB\xBF", 0) == 0 ? 3 : 0; // a UTF-8 byte-order mark
    const std::string_view body = std::string_view(*text).substr(skip);
    // The common case, an array of records, without building the whole document's tree: its records are made into
    // lines one at a time as the importer reads them (ArrayFeed), each parsed once. Anything unusual takes the full
    // parse, which says where it breaks.
    if (recordsPath.empty()) {
        const std::size_t start = body.find_first_not_of(" \t\r\n");
        if (start != std::string_view::npos && body[start] == '[') {
            DocumentLines d;
            d.text = std::move(text);
            d.streamed = true;
            d.offset = skip;
            return d;
        }
    }
    auto lines = parsedDocumentAsLines(input, body, recordsPath, opensDocument);
    if (!lines)
        return std::nullopt;
    DocumentLines d;
    d.text = std::make_shared<const std::string>(std::move(*lines));
    return d;
}

TextInput DocumentLines::asInput(const TextInput& input) const
{
    TextInput lines(input.name, streamed ? std::string_view() : std::string_view(*text), input.idPrefix);
    lines.documentLines = true;
    if (streamed)
        lines.feed = [text = text, offset = offset, name = input.name] {
            return std::make_unique<ArrayFeed>(text, offset, name);
        };
    return lines;
}

namespace {

std::optional<std::string> parsedDocumentAsLines(
    const TextInput& input, std::string_view body, const std::string& recordsPath, bool opensDocument)
{
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

} // namespace

} // namespace creditlab::importer
