#pragma once

// The Jinja parser (internal): jinja2's grammar over the lexer's tokens.

#include "core/hf/jinja_ast.h"

#include <string_view>

namespace creditlab::hf::jinja {

/// Parses a template; throws JinjaError with the line for a syntax error, an unknown filter or test, or nesting
/// deeper than `maxDepth`.
std::shared_ptr<const Program> parseProgram(std::string_view source, int maxDepth);

} // namespace creditlab::hf::jinja
