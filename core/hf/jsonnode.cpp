#include "core/hf/jsonnode.h"

#include "core/hf/error.h"

#include <algorithm>

namespace creditlab::hf::detail {

nlohmann::json parseJson(std::string_view text, const std::string& source)
{
    try {
        return nlohmann::json::parse(text.begin(), text.end());
    } catch (const nlohmann::json::parse_error& e) {
        // nlohmann's byte is 1-based and points just past the offending character.
        const std::size_t at = std::min(e.byte > 0 ? e.byte - 1 : 0, text.size());
        const auto line = 1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n');
        std::string reason = e.what();
        if (const auto colon = reason.find(": "); colon != std::string::npos)
            reason = reason.substr(colon + 2);
        throw HfError(source + ": line " + std::to_string(line) + ": not valid JSON (" + reason + ")");
    } catch (const nlohmann::json::exception& e) { // a number out of range has no position
        std::string reason = e.what();
        if (const auto bracket = reason.find("] "); bracket != std::string::npos)
            reason = reason.substr(bracket + 2);
        throw HfError(source + ": not valid JSON (" + reason + ")");
    }
}

std::string quoteForError(const nlohmann::json& value)
{
    std::string text = value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    if (text.size() > 60)
        text = text.substr(0, 57) + "...";
    return text;
}

JsonNode::JsonNode(const nlohmann::json& value, const std::string& source, std::string key)
    : m_value(value)
    , m_source(source)
    , m_key(std::move(key))
{
}

JsonNode JsonNode::child(const nlohmann::json& value, std::string_view name) const
{
    return JsonNode(value, m_source, m_key.empty() ? std::string(name) : m_key + "." + std::string(name));
}

JsonNode JsonNode::at(std::string_view name) const
{
    expectObject();
    const auto it = m_value.find(name);
    if (it == m_value.end()) {
        const JsonNode missing(m_value, m_source, m_key.empty() ? std::string(name) : m_key + "." + std::string(name));
        missing.fail("missing");
    }
    return child(*it, name);
}

std::optional<JsonNode> JsonNode::find(std::string_view name) const
{
    expectObject();
    const auto it = m_value.find(name);
    if (it == m_value.end() || it->is_null())
        return std::nullopt;
    return child(*it, name);
}

JsonNode JsonNode::operator[](std::size_t index) const
{
    return JsonNode(m_value[index], m_source, m_key + "[" + std::to_string(index) + "]");
}

std::size_t JsonNode::arraySize() const
{
    if (!m_value.is_array())
        fail("expected an array");
    return m_value.size();
}

void JsonNode::expectObject() const
{
    if (!m_value.is_object())
        fail("expected an object");
}

std::string JsonNode::string() const { return std::string(stringView()); }

std::string_view JsonNode::stringView() const
{
    if (!m_value.is_string())
        fail("expected a string");
    return m_value.get_ref<const std::string&>();
}

bool JsonNode::boolean() const
{
    if (!m_value.is_boolean())
        fail("expected true or false");
    return m_value.get<bool>();
}

std::int64_t JsonNode::integer() const
{
    if (m_value.is_number_unsigned() && m_value.get<std::uint64_t>() > static_cast<std::uint64_t>(INT64_MAX))
        fail("expected an integer");
    if (!m_value.is_number_integer())
        fail("expected an integer");
    return m_value.get<std::int64_t>();
}

bool JsonNode::flag(std::string_view name, bool fallback) const
{
    const auto node = find(name);
    return node ? node->boolean() : fallback;
}

std::optional<std::string> JsonNode::optionalString(std::string_view name) const
{
    const auto node = find(name);
    if (!node)
        return std::nullopt;
    return node->string();
}

void JsonNode::fail(std::string_view what) const
{
    if (m_key.empty())
        throw HfError(m_source + ": " + std::string(what));
    throw HfError(m_source + ": key \"" + m_key + "\": " + std::string(what));
}

} // namespace creditlab::hf::detail
