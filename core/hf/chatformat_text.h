#pragma once

// Text helpers of ChatFormat (internal to core/hf): quoting template text in messages and Python's str.strip().

#include <string>
#include <string_view>

namespace creditlab::hf::chatformat {

/// `text` with newlines, tabs and carriage returns written as \n, \t, \r, cut to `maxBytes` (on a UTF-8 boundary)
/// with "..." after it; for messages that quote template output between '...'.
std::string quoted(std::string_view text, std::size_t maxBytes = 200);

/// Python's str.strip() (jinja2's `trim`): Unicode whitespace off both ends.
std::string strip(std::string_view text);

/// `text` without <think>...</think> blocks and the newlines right after each (how Qwen3 takes reasoning out of an
/// assistant's content); an unclosed <think> stays.
std::string withoutThink(std::string_view text);

} // namespace creditlab::hf::chatformat
