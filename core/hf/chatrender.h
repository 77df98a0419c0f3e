#pragma once

// Chat templates as transformers applies them: apply_chat_template(messages, tokenize=False) renders the tokenizer's
// chat_template (tokenizer_config.json) with the messages, add_generation_prompt, the special tokens' strings and
// any extra keyword arguments (tools, documents, enable_thinking, ...).

#include "core/hf/jinja.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace creditlab::hf {

/// The special tokens' strings a chat template sees; an absent one is not defined in the template (transformers
/// leaves out tokens that are unset or null).
struct ChatTokens {
    std::optional<std::string> bos;
    std::optional<std::string> eos;
    std::optional<std::string> unk;
    std::optional<std::string> pad;
};

/// A tokenizer_config.json's chat template and special tokens.
struct ChatTemplateConfig {
    std::string source; ///< the template's text
    std::string name; ///< "default" or the name picked from a list of named templates
    ChatTokens tokens;
};

/// Reads `config` (a tokenizer_config.json's content): `chat_template` as a string, or as a list of
/// {"name", "template"} from which `templateName` is picked ("default" unless asked otherwise); `bos_token`,
/// `eos_token`, `unk_token` and `pad_token` as strings or {"content": ...} objects. Throws HfError naming `fileName`
/// and the key where the template is missing or malformed.
ChatTemplateConfig readChatTemplateConfig(const nlohmann::ordered_json& config,
    std::string_view templateName = "default", std::string_view fileName = "tokenizer_config.json");
/// readChatTemplateConfig() of a file; throws HfError naming it when it cannot be read or is not JSON.
ChatTemplateConfig loadChatTemplateConfig(const std::filesystem::path& file, std::string_view templateName = "default");

/// A model folder's template as transformers finds it: `chat_template.jinja` when the folder has one (transformers
/// 4.49 and later save it apart), else `chat_template.json`'s, else tokenizer_config.json's `chat_template`; the special
/// tokens from tokenizer_config.json. Throws HfError naming the folder when there is no template.
ChatTemplateConfig loadFolderChatTemplate(const std::filesystem::path& folder, std::string_view templateName = "default");

/// Parses a config's template, named "chat template (FILE)" in errors.
jinja::Template parseChatTemplate(const ChatTemplateConfig& config, std::string_view fileName = "tokenizer_config.json",
    const jinja::Limits& limits = {});

/// The variables transformers gives the template, in its order: messages, tools and documents (None unless `extra`
/// sets them, as transformers passes them), add_generation_prompt, the defined special tokens, then every member of
/// `extra` (which may override any of these).
nlohmann::ordered_json chatContext(const nlohmann::ordered_json& messages, bool addGenerationPrompt,
    const nlohmann::ordered_json& extra, const ChatTokens& tokens);

/// apply_chat_template(messages, tokenize=False, add_generation_prompt=..., **extra): the rendered prompt text.
/// Throws HfError naming the template and line (a template's raise_exception() carries its message). Any thread.
std::string renderChat(const jinja::Template& chatTemplate, const nlohmann::ordered_json& messages,
    bool addGenerationPrompt, const nlohmann::ordered_json& extra, const ChatTokens& tokens,
    const jinja::Limits& limits = {}, const jinja::Clock& clock = {});

} // namespace creditlab::hf
