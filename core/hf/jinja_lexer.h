#pragma once

// The Jinja lexer (internal): jinja2's lexer with trim_blocks and lstrip_blocks, `-`/`+` whitespace control, comments
// and {% raw %}, newlines normalised to "\n" and one trailing newline dropped (keep_trailing_newline=False).

#include "core/hf/jinja_value.h"

#include <string>
#include <string_view>
#include <vector>

namespace creditlab::hf::jinja {

enum class Tok { Data, VarBegin, VarEnd, BlockBegin, BlockEnd, Name, String, Int, Float, Op, Eof };

struct Token {
    Tok type = Tok::Eof;
    int line = 1;
    std::string text; ///< Data, Name, String (decoded), Op
    std::int64_t i = 0;
    double f = 0;
};

/// Splits `source` into tokens; throws JinjaError (with its line) for unterminated tags, comments, strings, raw
/// blocks and unbalanced brackets.
std::vector<Token> tokenize(std::string_view source);

} // namespace creditlab::hf::jinja
