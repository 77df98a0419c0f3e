#pragma once

// Helpers shared by the filters, tests and methods of the Jinja engine (internal).

#include "core/hf/jinja_value.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace creditlab::hf::jinja {

class Renderer;

/// Python's len(): code points of a string, items of a list or dict, 0 for Undefined; throws for others.
std::size_t length(const Value& v);
/// An integer argument of `what` (bools count); throws otherwise.
std::int64_t intArg(const Value& v, const char* what);
/// jinja2's make_attrgetter: "a.b.0" looked up item by item (integers as indices).
Value attributeOf(const Value& item, const Value& attribute);
/// Python's int(text, base) and float(text): surrounding whitespace and digit underscores allowed.
bool parsePyInt(std::string_view text, int base, std::int64_t& out);
bool parsePyFloat(std::string_view text, double& out);
/// Python's round(x, ndigits) for a float (correctly rounded, ties to even).
double pyRound(double x, std::int64_t ndigits);
/// markupsafe.escape: & < > " ' as entities.
std::string htmlEscape(std::string_view s);
/// json.dumps's ensure_ascii: non-ASCII as \uXXXX (surrogate pairs above the BMP).
std::string asciiEscape(std::string_view json);
/// str.center (align 0), str.ljust (-1), str.rjust (1) to `width` code points with `fill`.
std::string pad(Renderer& r, const std::string& s, std::int64_t width, char32_t fill, int align);

} // namespace creditlab::hf::jinja
