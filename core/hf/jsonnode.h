#pragma once

// A read-only view of one value of a JSON file that knows its key path, so that every error names the file and the
// key: `tokenizer.json: key "model.merges[3]": expected a string or a pair of strings`. Internal to creditlab_hf.

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace creditlab::hf::detail {

/// Parses `text` as JSON; a syntax error is an HfError naming `source` and the line.
nlohmann::json parseJson(std::string_view text, const std::string& source);

/// One value in a parsed document with its key path ("" for the root). Borrows the document and the source name.
class JsonNode {
public:
    JsonNode(const nlohmann::json& value, const std::string& source, std::string key = {});

    const nlohmann::json& value() const { return m_value; }
    const std::string& key() const { return m_key; }
    const std::string& source() const { return m_source; }
    bool isNull() const { return m_value.is_null(); }

    /// The member `name` of this object; absent (or this not an object) is an error.
    JsonNode at(std::string_view name) const;
    /// The member `name`, or nullopt when it is absent or null.
    std::optional<JsonNode> find(std::string_view name) const;
    /// Element `index` of this array (checked by the caller's loop over arraySize()).
    JsonNode operator[](std::size_t index) const;

    std::size_t arraySize() const;
    void expectObject() const;
    std::string string() const;
    std::string_view stringView() const;
    bool boolean() const;
    std::int64_t integer() const;

    /// `name` as a boolean, `fallback` when absent or null.
    bool flag(std::string_view name, bool fallback) const;
    /// `name` as a string when present, not null and a string; nullopt when absent or null.
    std::optional<std::string> optionalString(std::string_view name) const;

    /// Throws HfError "SOURCE: key \"KEY\": WHAT" (or "SOURCE: WHAT" at the root).
    [[noreturn]] void fail(std::string_view what) const;

private:
    JsonNode child(const nlohmann::json& value, std::string_view name) const;

    const nlohmann::json& m_value;
    const std::string& m_source;
    std::string m_key;
};

/// A JSON value quoted for an error message, shortened to about 60 characters.
std::string quoteForError(const nlohmann::json& value);

} // namespace creditlab::hf::detail
