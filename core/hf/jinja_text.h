#pragma once

// UTF-8 text as Python's str sees it (internal to the Jinja engine): code points, Unicode whitespace and case.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace creditlab::hf::jinja::text {

/// The byte offset of each code point of `s`, plus s.size() at the end. A byte that does not start valid UTF-8 counts
/// as one code point, so that any bytes round-trip.
std::vector<std::size_t> codePointOffsets(std::string_view s);
std::size_t codePointCount(std::string_view s);
/// Decodes the code point at `pos` and advances `pos` (an invalid byte decodes as itself).
char32_t decode(std::string_view s, std::size_t& pos);
void encode(std::string& out, char32_t c);
/// str.isspace() of one code point.
bool isSpace(char32_t c);
bool isAlnum(char32_t c); ///< re's \w without the underscore
bool isAlpha(char32_t c);
bool isDigit(char32_t c);
bool isUpper(char32_t c);
bool isLower(char32_t c);
char32_t toUpper(char32_t c);
char32_t toLower(char32_t c);
bool isPrintable(char32_t c); ///< str.isprintable() of one code point

std::string upper(std::string_view s);
std::string lower(std::string_view s);
std::string capitalize(std::string_view s); ///< str.capitalize()
std::string pyTitle(std::string_view s); ///< str.title()
std::string jinjaTitle(std::string_view s); ///< jinja2's |title filter
std::string swapcase(std::string_view s);

/// str.strip/lstrip/rstrip: `chars` null strips whitespace, else any code point of *chars.
std::string strip(std::string_view s, const std::string* chars, bool left, bool right);
/// str.split(sep, maxsplit) and rsplit; sep null splits on whitespace runs.
std::vector<std::string> split(std::string_view s, const std::string* sep, long long maxsplit, bool fromRight);
std::vector<std::string> splitlines(std::string_view s, bool keepends);
std::string replace(std::string_view s, std::string_view from, std::string_view to, long long count);
std::size_t count(std::string_view s, std::string_view sub);

} // namespace creditlab::hf::jinja::text
