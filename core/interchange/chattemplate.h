#pragma once

#include "core/interchange/importformats.h"

#include <string>
#include <string_view>
#include <vector>

namespace creditlab {

/// The chat templates whose markers the verl importer splits at.
enum class ChatTemplate {
    None, ///< plain text: no markers found
    ChatMl, ///< Qwen and others: `<|im_start|>ROLE\n ... <|im_end|>`
    Llama3, ///< `<|start_header_id|>ROLE<|end_header_id|>\n\n ... <|eot_id|>` (or `<|eom_id|>`)
    Custom, ///< a user-given marker pair: `BEGIN ROLE\n ... END`
};

/// One message cut out of templated text.
struct TemplateMessage {
    std::string role;
    std::string content;
    bool closed = false; ///< false when the text ended before the message's end marker (truncated)
};

/// The template whose markers occur in `text` (ChatML first, then Llama 3); None when neither does.
ChatTemplate detectChatTemplate(std::string_view text);

/// Splits templated text into messages. Text before the first begin marker belongs to a message of
/// `leadingRole` (how a verl response starts: inside the assistant message the prompt opened); it is
/// dropped when `leadingRole` is empty or the text is blank. Text between an end marker and the next
/// begin marker (newlines) is dropped. The Llama 3 `<|begin_of_text|>` marker is ignored. `custom` is
/// used with ChatTemplate::Custom. A message whose end marker is missing has `closed == false`. Any thread.
std::vector<TemplateMessage> splitChatTemplate(std::string_view text, ChatTemplate format,
    std::string_view leadingRole = {}, const TemplateMarkers* custom = nullptr);

} // namespace creditlab
