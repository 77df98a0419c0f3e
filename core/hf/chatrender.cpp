#include "core/hf/chatrender.h"

#include "core/hf/error.h"

#include <fstream>
#include <sstream>

namespace creditlab::hf {

namespace {

std::optional<std::string> specialToken(const nlohmann::ordered_json& config, const char* key, std::string_view file)
{
    const auto it = config.find(key);
    if (it == config.end() || it->is_null())
        return std::nullopt;
    if (it->is_string())
        return it->get<std::string>();
    if (it->is_object()) {
        const auto content = it->find("content");
        if (content != it->end() && content->is_string())
            return content->get<std::string>();
    }
    throw HfError(
        std::string(file) + ": key \"" + key + "\": expected a string or an object with a \"content\" string");
}

} // namespace

ChatTemplateConfig readChatTemplateConfig(
    const nlohmann::ordered_json& config, std::string_view templateName, std::string_view fileName)
{
    const std::string file(fileName);
    if (!config.is_object())
        throw HfError(file + ": expected a JSON object");
    ChatTemplateConfig out;
    const auto it = config.find("chat_template");
    if (it == config.end() || it->is_null())
        throw HfError(file + ": key \"chat_template\": missing (the tokenizer has no chat template)");
    if (it->is_string()) {
        out.source = it->get<std::string>();
        out.name = "default";
    } else if (it->is_array()) {
        std::string names;
        for (const auto& entry : *it) {
            if (!entry.is_object() || !entry.contains("name") || !entry["name"].is_string()
                || !entry.contains("template") || !entry["template"].is_string())
                throw HfError(file + ": key \"chat_template\": expected a list of {\"name\", \"template\"} strings");
            const std::string name = entry["name"].get<std::string>();
            names += (names.empty() ? "" : ", ") + name;
            if (name == templateName) {
                out.source = entry["template"].get<std::string>();
                out.name = name;
            }
        }
        if (out.name.empty())
            throw HfError(file + ": key \"chat_template\": no template named \"" + std::string(templateName)
                + "\" (it has: " + names + ")");
    } else {
        throw HfError(file + ": key \"chat_template\": expected a string or a list of named templates");
    }
    out.tokens.bos = specialToken(config, "bos_token", fileName);
    out.tokens.eos = specialToken(config, "eos_token", fileName);
    out.tokens.unk = specialToken(config, "unk_token", fileName);
    out.tokens.pad = specialToken(config, "pad_token", fileName);
    return out;
}

ChatTemplateConfig loadChatTemplateConfig(const std::filesystem::path& file, std::string_view templateName)
{
    std::ifstream in(file, std::ios::binary);
    if (!in)
        throw HfError(file.string() + ": cannot be read");
    std::ostringstream text;
    text << in.rdbuf();
    nlohmann::ordered_json config;
    try {
        config = nlohmann::ordered_json::parse(text.str());
    } catch (const nlohmann::json::exception& e) {
        throw HfError(file.string() + ": not JSON: " + e.what());
    }
    return readChatTemplateConfig(config, templateName, file.filename().string());
}

ChatTemplateConfig loadFolderChatTemplate(const std::filesystem::path& folder, std::string_view templateName)
{
    namespace fs = std::filesystem;
    auto readText = [](const fs::path& file) {
        std::ifstream in(file, std::ios::binary);
        if (!in)
            throw HfError(file.string() + ": cannot be read");
        std::ostringstream text;
        text << in.rdbuf();
        return text.str();
    };
    auto parse = [](const fs::path& file, const std::string& text) {
        try {
            return nlohmann::ordered_json::parse(text);
        } catch (const nlohmann::json::exception& e) {
            throw HfError(file.string() + ": not JSON: " + e.what());
        }
    };
    nlohmann::ordered_json config = nlohmann::ordered_json::object();
    std::string fileName = "tokenizer_config.json";
    if (fs::exists(folder / fileName)) {
        config = parse(folder / fileName, readText(folder / fileName));
        if (!config.is_object())
            throw HfError((folder / fileName).string() + ": expected a JSON object");
    }
    if (fs::exists(folder / "chat_template.jinja")) {
        fileName = "chat_template.jinja";
        config["chat_template"] = readText(folder / fileName);
    } else if (fs::exists(folder / "chat_template.json")) {
        fileName = "chat_template.json";
        const auto doc = parse(folder / fileName, readText(folder / fileName));
        if (!doc.is_object() || !doc.contains("chat_template"))
            throw HfError((folder / fileName).string() + ": key \"chat_template\": missing");
        config["chat_template"] = doc["chat_template"];
    } else if (!config.contains("chat_template")) {
        throw HfError(folder.string()
            + ": no chat template (chat_template.jinja, or chat_template in "
              "tokenizer_config.json): a base model, not an instruct one?");
    }
    return readChatTemplateConfig(config, templateName, fileName);
}

jinja::Template parseChatTemplate(
    const ChatTemplateConfig& config, std::string_view fileName, const jinja::Limits& limits)
{
    return jinja::Template::parse(config.source, "chat template (" + std::string(fileName) + ")", limits);
}

nlohmann::ordered_json chatContext(const nlohmann::ordered_json& messages, bool addGenerationPrompt,
    const nlohmann::ordered_json& extra, const ChatTokens& tokens)
{
    nlohmann::ordered_json context = nlohmann::ordered_json::object();
    context["messages"] = messages;
    context["tools"] = nullptr;
    context["documents"] = nullptr;
    context["add_generation_prompt"] = addGenerationPrompt;
    if (tokens.bos)
        context["bos_token"] = *tokens.bos;
    if (tokens.eos)
        context["eos_token"] = *tokens.eos;
    if (tokens.unk)
        context["unk_token"] = *tokens.unk;
    if (tokens.pad)
        context["pad_token"] = *tokens.pad;
    if (extra.is_object())
        for (const auto& [key, value] : extra.items())
            context[key] = value;
    else if (!extra.is_null())
        throw HfError("renderChat: the extra template arguments must be a JSON object");
    return context;
}

std::string renderChat(const jinja::Template& chatTemplate, const nlohmann::ordered_json& messages,
    bool addGenerationPrompt, const nlohmann::ordered_json& extra, const ChatTokens& tokens,
    const jinja::Limits& limits, const jinja::Clock& clock)
{
    return chatTemplate.render(chatContext(messages, addGenerationPrompt, extra, tokens), limits, clock);
}

} // namespace creditlab::hf
