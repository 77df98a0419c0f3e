#include "core/interchange/chattemplate.h"

#include <initializer_list>

namespace creditlab {

namespace {

/// How one template writes a message: begin, the role, the end of the role, content, an end marker.
struct Markers {
    std::string_view begin;
    std::string_view roleEnd; ///< what ends the role name
    std::string_view contentPrefix; ///< stripped once from the start of the content
    std::string_view end;
    std::string_view altEnd; ///< a second end marker (Llama 3.1's <|eom_id|>), may be empty
};

constexpr Markers kChatMl { "<|im_start|>", "\n", "", "<|im_end|>", "" };
constexpr Markers kLlama3 { "<|start_header_id|>", "<|end_header_id|>", "\n\n", "<|eot_id|>", "<|eom_id|>" };

std::string_view trim(std::string_view s)
{
    const auto b = s.find_first_not_of(" \t\r\n");
    if (b == std::string_view::npos)
        return {};
    const auto e = s.find_last_not_of(" \t\r\n");
    return s.substr(b, e - b + 1);
}

/// The first end marker at or after `from`: its position and length; npos when none.
std::pair<std::size_t, std::size_t> findEnd(std::string_view text, std::size_t from, const Markers& m)
{
    std::size_t pos = text.find(m.end, from);
    std::size_t len = m.end.size();
    if (!m.altEnd.empty()) {
        const std::size_t alt = text.find(m.altEnd, from);
        if (alt < pos) {
            pos = alt;
            len = m.altEnd.size();
        }
    }
    return { pos, len };
}

} // namespace

ChatTemplate detectChatTemplate(std::string_view text)
{
    if (text.find(kChatMl.begin) != std::string_view::npos || text.find(kChatMl.end) != std::string_view::npos)
        return ChatTemplate::ChatMl;
    if (text.find(kLlama3.begin) != std::string_view::npos || text.find(kLlama3.end) != std::string_view::npos)
        return ChatTemplate::Llama3;
    return ChatTemplate::None;
}

std::vector<TemplateMessage> splitChatTemplate(
    std::string_view text, ChatTemplate format, std::string_view leadingRole, const TemplateMarkers* custom)
{
    std::vector<TemplateMessage> out;
    Markers m;
    switch (format) {
    case ChatTemplate::None:
        if (!leadingRole.empty() && !trim(text).empty())
            out.push_back({ std::string(leadingRole), std::string(text), true });
        return out;
    case ChatTemplate::ChatMl:
        m = kChatMl;
        break;
    case ChatTemplate::Llama3:
        m = kLlama3;
        if (text.substr(0, 17) == "<|begin_of_text|>")
            text.remove_prefix(17);
        break;
    case ChatTemplate::Custom:
        if (!custom || custom->begin.empty() || custom->end.empty())
            return splitChatTemplate(text, ChatTemplate::None, leadingRole);
        m = Markers { custom->begin, "\n", "", custom->end, "" };
        break;
    }

    std::size_t begin = text.find(m.begin);
    {
        // The leading text: inside a message opened before this text started.
        const std::size_t leadEnd = begin == std::string_view::npos ? text.size() : begin;
        const auto [end, endLen] = findEnd(text, 0, m);
        const bool closed = end < leadEnd;
        const std::string_view lead = text.substr(0, closed ? end : leadEnd);
        if (!leadingRole.empty() && (closed || !trim(lead).empty()))
            out.push_back({ std::string(leadingRole), std::string(lead), closed });
    }
    while (begin != std::string_view::npos) {
        TemplateMessage msg;
        const std::size_t roleStart = begin + m.begin.size();
        const std::size_t roleEnd = text.find(m.roleEnd, roleStart);
        const std::size_t next = text.find(m.begin, roleStart);
        if (roleEnd == std::string_view::npos || roleEnd > next) {
            // Cut inside the header: a role without content.
            msg.role
                = std::string(trim(text.substr(roleStart, next == std::string_view::npos ? next : next - roleStart)));
            out.push_back(std::move(msg));
            begin = next;
            continue;
        }
        msg.role = std::string(trim(text.substr(roleStart, roleEnd - roleStart)));
        std::size_t contentStart = roleEnd + m.roleEnd.size();
        if (!m.contentPrefix.empty() && text.substr(contentStart, m.contentPrefix.size()) == m.contentPrefix)
            contentStart += m.contentPrefix.size();
        const auto [end, endLen] = findEnd(text, contentStart, m);
        const std::size_t nextBegin = text.find(m.begin, contentStart);
        if (end != std::string_view::npos && end < nextBegin) {
            msg.content = std::string(text.substr(contentStart, end - contentStart));
            msg.closed = true;
            begin = text.find(m.begin, end + endLen);
        } else {
            const std::size_t stop = nextBegin == std::string_view::npos ? text.size() : nextBegin;
            msg.content = std::string(text.substr(contentStart, stop - contentStart));
            begin = nextBegin;
        }
        out.push_back(std::move(msg));
    }
    return out;
}

} // namespace creditlab
