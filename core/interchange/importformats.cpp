// Format names, detection and dispatch; the two conversation formats (OpenAI chat records and
// ShareGPT / AgentGym). verl dumps are in importverl.cpp, step rows in importsteps.cpp, mapping
// files in importmap.cpp.
#include "core/interchange/importformats.h"

#include "core/interchange/importmap_p.h"

#include <algorithm>
#include <filesystem>
#include <stdexcept>
#include <unordered_map>

namespace creditlab {

using namespace importer;

std::string_view importFormatName(ImportFormat format)
{
    switch (format) {
    case ImportFormat::Auto:
        return "auto";
    case ImportFormat::Native:
        return "native";
    case ImportFormat::Chat:
        return "chat";
    case ImportFormat::ShareGpt:
        return "sharegpt";
    case ImportFormat::Verl:
        return "verl";
    case ImportFormat::Steps:
        return "steps";
    case ImportFormat::Mapped:
        return "map";
    }
    return "?";
}

std::optional<ImportFormat> parseImportFormat(std::string_view name)
{
    if (name == "auto")
        return ImportFormat::Auto;
    if (name == "native" || name == "jsonl" || name == "creditlab")
        return ImportFormat::Native;
    if (name == "chat" || name == "openai" || name == "messages")
        return ImportFormat::Chat;
    if (name == "sharegpt" || name == "agentgym")
        return ImportFormat::ShareGpt;
    if (name == "verl")
        return ImportFormat::Verl;
    if (name == "steps" || name == "verl-agent")
        return ImportFormat::Steps;
    return std::nullopt;
}

std::string importFormatNames() { return "auto, native, chat (openai), sharegpt (agentgym), verl, steps (verl-agent)"; }

namespace {

using Kind = JsonDoc::Kind;

/// Record-level fields the conversation formats share: id, group, iteration, reward, success. The
/// members read are marked in `used` (by node index) so that the rest can be kept verbatim.
struct RecordFields {
    Index id = kNone, group = kNone, iteration = kNone, reward = kNone, success = kNone;
};

void readRecordFields(const JsonDoc& doc, const RecordFields& f, Trajectory& out)
{
    if (f.id != kNone)
        out.id = readId(doc, f.id, doc.key(f.id));
    if (f.group != kNone)
        out.group = readId(doc, f.group, doc.key(f.group));
    if (f.iteration != kNone)
        out.iteration = readIndex(doc, f.iteration, doc.key(f.iteration));
    if (f.reward != kNone)
        out.reward = readNumber(doc, f.reward, doc.key(f.reward));
    if (f.success != kNone)
        out.success = readBool(doc, f.success, doc.key(f.success));
}

void keepOthers(const JsonDoc& doc, std::initializer_list<Index> used, std::string& extra)
{
    const Index root = doc.root();
    for (Index m = doc.first(root); m != kNone; m = doc.next(root, m)) {
        bool isUsed = false;
        for (Index u : used)
            isUsed = isUsed || u == m;
        if (!isUsed)
            keepMember(extra, doc, m, KeptLevel::Trajectory);
    }
}

/// OpenAI-style chat records: `messages` (or rLLM's `chat_completions`) of system, user, assistant and
/// tool messages; rewards at the record level (`reward`, `score` or rLLM's `trajectory_reward`) or per message.
class ChatSource : public LineRecordSource {
public:
    /// `messages`: where the messages are (a mapping's `messages:`), instead of the usual names.
    ChatSource(const TextInput& input, std::optional<MapPath> messages)
        : LineRecordSource(input)
        , m_listPath(std::move(messages))
    {
    }

protected:
    void convert(const JsonDoc& doc, std::size_t lineNo, Trajectory& out) override
    {
        const Index root = doc.root();
        const Index list = m_listPath
            ? resolvePath(doc, root, *m_listPath)
            : doc.firstMember(root, { "messages", "chat_completions", "traj" }); // traj: tau-bench, FireAct
        if (list == kNone)
            fieldError(m_listPath ? m_listPath->text : "messages", "is required but missing");
        const std::string listName = m_listPath ? m_listPath->text : doc.key(list);
        if (doc.kind(list) != Kind::Array)
            fieldError(listName, "expected an array of messages");
        RecordFields f;
        f.id = doc.firstMember(root, { "id", "trajectory_id", "idx" });
        f.group = doc.firstMember(root, { "group", "group_id", "uid", "task_id" });
        f.iteration = doc.firstMember(root, { "iteration", "step", "global_step" });
        f.reward = doc.firstMember(root, { "reward", "score", "trajectory_reward" });
        f.success = doc.member(root, "success");
        readRecordFields(doc, f, out);

        m_messages.clear();
        std::size_t n = 0;
        for (Index m = doc.first(list); m != kNone; m = doc.next(list, m), ++n)
            readMessage(doc, m, listName + "[" + std::to_string(n) + "]", m_messages.emplace_back(), n);
        messagesToTurns(m_messages, out.turns, listName);
        if (out.id.empty())
            out.id = generatedId(lineNo);
        if (out.group.empty())
            out.group = m_groups.groupOf(out.iteration, out.turns.front().observation);
        keepOthers(doc, { list, f.id, f.group, f.iteration, f.reward, f.success }, out.extra);
    }

private:
    void readMessage(const JsonDoc& doc, Index m, const std::string& field, Message& msg, std::size_t index)
    {
        if (doc.kind(m) != Kind::Object)
            fieldError(field, "expected a message object");
        msg.index = index;
        Index role = kNone, content = kNone, toolCalls = kNone;
        for (Index c = doc.first(m); c != kNone; c = doc.next(m, c)) {
            if (doc.keyIs(c, "role"))
                role = c;
            else if (doc.keyIs(c, "content"))
                content = c;
            else if (doc.keyIs(c, "reward"))
                msg.reward = readNumber(doc, c, field + ".reward");
            else if (doc.keyIs(c, "score"))
                msg.score = readUnit(doc, c, field + ".score");
            else {
                if (doc.keyIs(c, "tool_calls"))
                    toolCalls = c;
                keepMember(msg.extra, doc, c, KeptLevel::Turn); // tool_calls, name, tool_call_id, ... verbatim
            }
        }
        if (role == kNone)
            fieldError(field + ".role", "is required but missing");
        readText(doc, role, field + ".role", msg.role);
        msg.isAction = msg.role == "assistant";
        if (content != kNone)
            readContent(doc, content, field + ".content", msg.text);
        if (toolCalls != kNone && msg.isAction)
            appendToolCalls(doc, toolCalls, field + ".tool_calls", msg.text);
    }

    /// The action of a tool-calling turn: `name(arguments)` per call, after the content.
    static void appendToolCalls(const JsonDoc& doc, Index calls, const std::string& field, std::string& text)
    {
        if (doc.kind(calls) == Kind::Null)
            return;
        if (doc.kind(calls) != Kind::Array)
            fieldError(field, "expected an array of tool calls");
        std::size_t n = 0;
        std::string name, args;
        for (Index c = doc.first(calls); c != kNone; c = doc.next(calls, c), ++n) {
            const std::string f = field + "[" + std::to_string(n) + "].function";
            const Index fn = doc.member(c, "function");
            if (fn == kNone)
                fieldError(f, "is required but missing");
            const Index nameNode = doc.member(fn, "name");
            if (nameNode == kNone)
                fieldError(f + ".name", "is required but missing");
            readText(doc, nameNode, f + ".name", name);
            args.clear();
            if (const Index a = doc.member(fn, "arguments"); a != kNone)
                args = doc.kind(a) == Kind::String ? doc.string(a) : std::string(doc.node(a).raw);
            if (!text.empty())
                text.push_back('\n');
            text += name + "(" + args + ")";
        }
    }

    std::vector<Message> m_messages;
    PromptGroups m_groups;
    std::optional<MapPath> m_listPath;
};

/// ShareGPT / AgentGym: `conversations` of `{"from": "human"|"gpt", "value": ...}`. AgentGym marks the
/// messages it trains on with `"loss": true`; a gpt message with `"loss": false` (the scripted "OK" after the
/// instructions) is context, not an action.
class ShareGptSource : public LineRecordSource {
public:
    using LineRecordSource::LineRecordSource;

protected:
    void convert(const JsonDoc& doc, std::size_t lineNo, Trajectory& out) override
    {
        const Index root = doc.root();
        const Index list = doc.member(root, "conversations");
        if (list == kNone)
            fieldError("conversations", "is required but missing");
        if (doc.kind(list) != Kind::Array)
            fieldError("conversations", "expected an array of messages");
        RecordFields f;
        f.id = doc.firstMember(root, { "id", "trajectory_id" });
        f.group = doc.firstMember(root, { "group", "group_id" });
        f.iteration = doc.firstMember(root, { "iteration", "step" });
        f.reward = doc.firstMember(root, { "reward", "score" });
        f.success = doc.member(root, "success");
        readRecordFields(doc, f, out);
        const Index item = doc.member(root, "item_id");
        std::string itemId;
        if (item != kNone)
            itemId = readId(doc, item, "item_id");

        m_messages.clear();
        std::size_t n = 0;
        for (Index m = doc.first(list); m != kNone; m = doc.next(list, m), ++n)
            readMessage(doc, m, "conversations[" + std::to_string(n) + "]", m_messages.emplace_back(), n);
        messagesToTurns(m_messages, out.turns, "conversations");
        if (out.id.empty()) {
            // AgentGym names the task instance (item_id); several samples of one item get #1, #2, ...
            if (!itemId.empty()) {
                const std::size_t seen = m_items[itemId]++;
                out.id = seen == 0 ? itemId : itemId + "#" + std::to_string(seen);
            } else {
                out.id = generatedId(lineNo);
            }
        }
        if (out.group.empty())
            out.group = !itemId.empty() ? itemId : m_groups.groupOf(out.iteration, out.turns.front().observation);
        if (!itemId.empty())
            out.task.key = itemId;
        keepOthers(doc, { list, f.id, f.group, f.iteration, f.reward, f.success }, out.extra);
    }

private:
    static void readMessage(const JsonDoc& doc, Index m, const std::string& field, Message& msg, std::size_t index)
    {
        if (doc.kind(m) != Kind::Object)
            fieldError(field, "expected a message object");
        msg.index = index;
        Index from = kNone, value = kNone;
        std::optional<bool> loss;
        for (Index c = doc.first(m); c != kNone; c = doc.next(m, c)) {
            if (doc.keyIs(c, "from"))
                from = c;
            else if (doc.keyIs(c, "value"))
                value = c;
            else if (doc.keyIs(c, "loss")) {
                if (doc.kind(c) != Kind::Null)
                    loss = readBool(doc, c, field + ".loss");
            } else if (doc.keyIs(c, "reward"))
                msg.reward = readNumber(doc, c, field + ".reward");
            else
                keepMember(msg.extra, doc, c, KeptLevel::Turn);
        }
        if (from == kNone)
            fieldError(field + ".from", "is required but missing");
        readText(doc, from, field + ".from", msg.role);
        if (value == kNone)
            fieldError(field + ".value", "is required but missing");
        readContent(doc, value, field + ".value", msg.text);
        const bool assistant
            = msg.role == "gpt" || msg.role == "assistant" || msg.role == "chatgpt" || msg.role == "model";
        msg.isAction = assistant && loss.value_or(true);
    }

    std::vector<Message> m_messages;
    PromptGroups m_groups;
    std::unordered_map<std::string, std::size_t> m_items;
};

/// The native format through the same interface.
class NativeSource : public TrajectorySource {
public:
    NativeSource(const TextInput& input, bool renameDuplicates)
        : m_reader(input)
    {
        m_reader.setRenameDuplicates(renameDuplicates);
    }
    bool next(Trajectory& out) override { return m_reader.next(out); }
    std::uint64_t bytesRead() const override { return m_reader.bytesRead(); }
    std::uint64_t size() const override { return m_reader.size(); }

private:
    JsonlFileReader m_reader;
};

bool isArray(const JsonDoc& doc, Index i) { return i != kNone && doc.kind(i) == Kind::Array; }

/// A JSON document's records read through the JSON-lines importers (documentAsLines): owns the lines.
class DocumentSource : public TrajectorySource {
public:
    DocumentSource(const TextInput& input, DocumentLines lines, const ImportOptions& options)
        : m_lines(std::move(lines))
    {
        m_inner = openTrajectorySource(m_lines.asInput(input), options);
        setFormatName(m_inner->formatName());
    }
    bool next(Trajectory& out) override
    {
        if (!m_started) { // the caller sets its read-ahead progress on this source, after construction
            m_inner->setReadAheadProgress(m_readAhead);
            m_started = true;
        }
        return m_inner->next(out);
    }
    std::uint64_t bytesRead() const override { return m_inner->bytesRead(); }
    std::uint64_t size() const override { return m_inner->size(); }

private:
    DocumentLines m_lines; ///< owns what the inner source reads
    std::unique_ptr<TrajectorySource> m_inner;
    bool m_started = false;
};

} // namespace

namespace importer {

std::unique_ptr<LineRecordSource> openChat(const TextInput& input, std::optional<MapPath> messages)
{
    return std::make_unique<ChatSource>(input, std::move(messages));
}
std::unique_ptr<LineRecordSource> openShareGpt(const TextInput& input)
{
    return std::make_unique<ShareGptSource>(input);
}

} // namespace importer

namespace {

/// What an unrecognised record came closest to, as "; it looks like ...: try ...", or empty.
std::string closestFormat(const JsonDoc& doc)
{
    const Index root = doc.root();
    // OpenAI messages under a name of their own.
    for (Index m = doc.first(root); m != kNone; m = doc.next(root, m))
        if (doc.kind(m) == Kind::Array && doc.size(m) > 0 && doc.kind(doc.first(m)) == Kind::Object
            && doc.member(doc.first(m), "role") != kNone && doc.member(doc.first(m), "content") != kNone)
            return "; it looks like an OpenAI chat record whose messages are under `" + doc.key(m)
                + "`: try a mapping file with `layout: chat` and `messages: " + doc.key(m) + "`";
    // The shipped mapping with most of its members present.
    std::string best;
    std::size_t bestFound = 0;
    for (const ShippedMapping& m : shippedMappings()) {
        const MapSpec& spec = *shippedMapSpec(m.name);
        std::size_t found = 0;
        std::string missing;
        for (const MapPath& p : spec.detectHas) {
            if (resolvePath(doc, root, p) != kNone)
                ++found;
            else
                missing += (missing.empty() ? "" : ", ") + p.text;
        }
        if (found > bestFound && !missing.empty()) {
            bestFound = found;
            best = "; closest: " + spec.name + " (shipped mapping " + std::string(m.name) + "), which also needs "
                + missing + ": if it is that format, try --map " + std::string(m.name);
        }
    }
    return best;
}

/// detectImportFormat(), and the shipped mapping's name in `mapping` when it says Mapped.
ImportFormat detect(const TextInput& input, std::string& mapping)
{
    if (!input.documentLines)
        if (const auto lines = importer::documentAsLines(input))
            return detect(lines->asInput(input), mapping);
    const std::string& path = input.name;
    LineReader lines(input);
    std::string_view line;
    if (!nextRecordLine(lines, line))
        throw std::runtime_error(path + ": holds no trajectories; nothing imported");
    JsonDoc doc;
    try {
        parseRecord(doc, line);
    } catch (const JsonlFieldError&) {
        // Not a JSON object: the native reader reports it with the field it was in, as it always has.
        return ImportFormat::Native;
    }
    const Index root = doc.root();
    if (isArray(doc, doc.member(root, "turns")))
        return ImportFormat::Native;
    // The shipped mappings first: they recognise public logs by more than one member (tau-bench's records are also
    // OpenAI chat records under `traj`, but their trials of one task belong in one group).
    for (const ShippedMapping& m : shippedMappings())
        if (detectMatches(*shippedMapSpec(m.name), doc)) {
            mapping = m.name;
            return ImportFormat::Mapped;
        }
    if (isArray(doc, doc.firstMember(root, { "messages", "chat_completions" })))
        return ImportFormat::Chat;
    // tau-bench's and FireAct's `traj`: OpenAI messages under another name.
    if (const Index traj = doc.member(root, "traj"); isArray(doc, traj) && doc.size(traj) > 0
        && doc.kind(doc.first(traj)) == Kind::Object && doc.member(doc.first(traj), "role") != kNone)
        return ImportFormat::Chat;
    if (isArray(doc, doc.member(root, "conversations")))
        return ImportFormat::ShareGpt;
    // Step rows before verl dumps: a step row may name its text input / output, but a verl dump has no trajectory id.
    if (doc.firstMember(root, { "traj_uid", "trajectory_id", "traj_id", "episode_id" }) != kNone
        && doc.firstMember(root, { "step_idx", "step_id", "step", "turn_idx" }) != kNone)
        return ImportFormat::Steps;
    if (doc.member(root, "input") != kNone && doc.member(root, "output") != kNone)
        return ImportFormat::Verl;
    // A native record missing its turns still reads as native, so that the native reader names what is missing.
    if (doc.firstMember(root, { "turns", "id", "group", "reward" }) != kNone)
        return ImportFormat::Native;
    std::string keys;
    for (Index m = doc.first(root); m != kNone; m = doc.next(root, m))
        keys += (keys.empty() ? "" : ", ") + doc.key(m);
    throw std::runtime_error(path + ":" + std::to_string(lines.lineNumber())
        + ": cannot tell the format from the first record (fields: " + keys + ")" + closestFormat(doc)
        + "; name it with --format (" + importFormatNames() + "), --map with a shipped mapping ("
        + shippedMappingNames() + "), or describe it with --map FILE (docs/import-formats.md)");
}

/// The shipped mapping `mapPath` names, when it is no file but a shipped mapping's name; else nullptr.
const MapSpec* shippedByName(const std::string& mapPath)
{
    if (mapPath.empty() || std::filesystem::exists(mapPath))
        return nullptr;
    return shippedMapSpec(mapPath);
}

} // namespace

ImportFormat detectImportFormat(const TextInput& input)
{
    std::string mapping;
    return detect(input, mapping);
}

std::string shippedMappingNames()
{
    std::string names;
    for (const ShippedMapping& m : shippedMappings())
        names += (names.empty() ? "" : ", ") + std::string(m.name);
    return names;
}

namespace {

/// Sets each trajectory's group to one of its kept source fields (ImportOptions::groupBy).
class GroupBySource : public TrajectorySource {
public:
    GroupBySource(std::unique_ptr<TrajectorySource> inner, const std::string& groupBy, std::string file)
        : m_inner(std::move(inner))
        , m_file(std::move(file))
    {
        m_path.text = groupBy;
        for (std::size_t start = 0;;) {
            const std::size_t dot = groupBy.find('.', start);
            m_path.segments.push_back(groupBy.substr(start, dot == std::string::npos ? dot : dot - start));
            if (dot == std::string::npos)
                break;
            start = dot + 1;
        }
        if (std::any_of(m_path.segments.begin(), m_path.segments.end(), [](const auto& s) { return s.empty(); }))
            throw std::runtime_error(
                "--group-by: \"" + groupBy + "\" is not a field path such as task_id or info.task");
        setFormatName(m_inner->formatName());
    }
    bool next(Trajectory& out) override
    {
        m_inner->setReadAheadProgress(m_readAhead);
        if (!m_inner->next(out))
            return false;
        // The kept fields under their source names (a field kept as "source.goal" is found as goal too).
        m_text = "{" + out.extra + "}";
        try {
            m_doc.parse(m_text);
        } catch (const JsonSyntaxError&) {
            throw std::runtime_error(m_file + ": trajectory \"" + out.id + "\": its kept fields are not valid JSON");
        }
        Index i = resolvePath(m_doc, m_doc.root(), m_path);
        if (i == kNone) {
            MapPath renamed = m_path;
            renamed.segments.front() = keptName(renamed.segments.front());
            i = resolvePath(m_doc, m_doc.root(), renamed);
        }
        if (i == kNone) {
            std::string keys;
            for (Index m = m_doc.first(m_doc.root()); m != kNone; m = m_doc.next(m_doc.root(), m))
                keys += (keys.empty() ? "" : ", ") + m_doc.key(m);
            throw std::runtime_error(m_file + ": trajectory \"" + out.id + "\": --group-by: no field \"" + m_path.text
                + "\" (its source fields: " + (keys.empty() ? std::string("none") : keys) + ")");
        }
        if (m_doc.kind(i) == Kind::String)
            m_doc.string(i, out.group);
        else
            out.group.assign(m_doc.node(i).raw);
        return true;
    }
    std::uint64_t bytesRead() const override { return m_inner->bytesRead(); }
    std::uint64_t size() const override { return m_inner->size(); }

private:
    std::unique_ptr<TrajectorySource> m_inner;
    std::string m_file;
    MapPath m_path;
    std::string m_text;
    JsonDoc m_doc;
};

std::unique_ptr<TrajectorySource> openOne(const TextInput& input, const ImportOptions& options);

} // namespace

std::unique_ptr<TrajectorySource> openTrajectorySource(const TextInput& input, const ImportOptions& options)
{
    if (options.groupBy.empty())
        return openOne(input, options);
    ImportOptions inner = options;
    inner.groupBy.clear();
    return std::make_unique<GroupBySource>(openOne(input, inner), options.groupBy, input.name);
}

namespace {

std::unique_ptr<TrajectorySource> openOne(const TextInput& input, const ImportOptions& options)
{
    const MapSpec* shipped = shippedByName(options.mapPath);
    if (!input.documentLines) {
        const std::string recordsPath = shipped ? shipped->records
            : options.mapPath.empty()           ? std::string()
                                                : importer::mappedRecordsPath(options.mapPath);
        if (auto lines = importer::documentAsLines(input, recordsPath))
            return std::make_unique<DocumentSource>(input, std::move(*lines), options);
    }
    if (shipped)
        return openMappedSpec(input, *shipped);
    if (!options.mapPath.empty()) {
        auto source = openMapped(input, options.mapPath);
        if (source->formatName().empty())
            source->setFormatName("map");
        return source;
    }
    ImportFormat format = options.format;
    std::string mapping;
    if (format == ImportFormat::Auto || format == ImportFormat::Mapped) // Mapped without a file: a shipped mapping
        format = detect(input, mapping);
    if (format == ImportFormat::Mapped) {
        if (mapping.empty())
            throw std::runtime_error(input.name
                + ": the map format needs a mapping file (--map FILE), and none of the shipped mappings ("
                + shippedMappingNames() + ") recognises this file");
        return openMappedSpec(input, *shippedMapSpec(mapping));
    }
    std::unique_ptr<TrajectorySource> source;
    switch (format) {
    case ImportFormat::Auto:
    case ImportFormat::Native:
        source = std::make_unique<NativeSource>(input, options.renameDuplicates);
        break;
    case ImportFormat::Chat:
        source = openChat(input);
        break;
    case ImportFormat::ShareGpt:
        source = openShareGpt(input);
        break;
    case ImportFormat::Verl:
        source = openVerl(input, options.markers);
        break;
    case ImportFormat::Steps:
        source = openSteps(input);
        break;
    case ImportFormat::Mapped:
        break;
    }
    if (source->formatName().empty())
        source->setFormatName(std::string(importFormatName(format)));
    return source;
}

} // namespace

namespace {

class FilesSource : public TrajectorySource {
public:
    FilesSource(std::vector<std::string> files, ImportOptions options)
        : m_files(std::move(files))
        , m_options(std::move(options))
    {
        std::error_code ec;
        for (const std::string& f : m_files) {
            const auto n = std::filesystem::file_size(f, ec);
            m_size += ec ? 0 : n;
        }
        open(0);
    }
    bool next(Trajectory& out) override
    {
        for (;;) {
            if (!m_current)
                return false;
            m_current->setReadAheadProgress(m_readAhead);
            if (m_current->next(out)) {
                if (auto [it, inserted] = m_ids.try_emplace(out.id, m_index); !inserted)
                    throw JsonlError(m_files[m_index], 1, "id",
                        "duplicate id \"" + out.id + "\" (first in " + m_files[it->second] + ")");
                return true;
            }
            m_done += m_current->size();
            open(m_index + 1);
        }
    }
    std::uint64_t bytesRead() const override { return m_done + (m_current ? m_current->bytesRead() : 0); }
    std::uint64_t size() const override { return std::max(m_size, bytesRead()); }

private:
    void open(std::size_t index)
    {
        m_current.reset();
        m_index = index;
        if (index >= m_files.size())
            return;
        m_current = openTrajectorySource(m_files[index], m_options);
        if (formatName().empty())
            setFormatName(m_current->formatName());
    }

    std::vector<std::string> m_files;
    ImportOptions m_options;
    std::unique_ptr<TrajectorySource> m_current;
    std::size_t m_index = 0;
    std::uint64_t m_size = 0, m_done = 0;
    std::unordered_map<std::string, std::size_t> m_ids;
};

} // namespace

std::unique_ptr<TrajectorySource> openTrajectorySources(
    const std::vector<std::string>& files, const ImportOptions& options)
{
    return std::make_unique<FilesSource>(files, options);
}

bool isFilePerTrajectory(const std::string& file, const ImportOptions& options)
{
    const MapSpec* spec = shippedByName(options.mapPath);
    if (!spec && !options.mapPath.empty())
        return loadMapSpec(options.mapPath).filePerTrajectory;
    if (!spec && (options.format == ImportFormat::Auto || options.format == ImportFormat::Mapped)) {
        std::string mapping;
        if (detect(TextInput(file), mapping) == ImportFormat::Mapped && !mapping.empty())
            spec = shippedMapSpec(mapping);
    }
    return spec && spec->filePerTrajectory;
}

} // namespace creditlab
