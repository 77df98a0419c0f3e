#pragma once

// Text helpers shared by the credit estimators and the rollout trees: the action key of CONVENTIONS.md, UTF-8
// decoding to code points and a bounded Levenshtein distance. The one place that defines these rules; every
// caller uses them from here. Plain functions, any thread.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace creditlab::text {

/// CONVENTIONS.md's whitespace: the ASCII set (space, \t, \n, \v, \f, \r).
constexpr bool isAsciiSpace(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }
/// ASCII A-Z to a-z; every other byte (UTF-8 included) unchanged.
constexpr char lowerAscii(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

/// The action key (CONVENTIONS.md "Action key"): trimmed, inner ASCII whitespace runs collapsed to one space,
/// ASCII lower-cased. "  Go  North " and "go north" have the same key.
std::string actionKey(std::string_view action);
/// Appends actionKey(action) to `out`, without a temporary string.
void appendActionKey(std::string& out, std::string_view action);

/// A value no Unicode code point has: appendCodePoints() maps an invalid byte b to kInvalidByteBase + b.
inline constexpr char32_t kInvalidByteBase = 0x110000;
/// Appends the Unicode code points of UTF-8 `text` to `out`. A byte that does not start a valid sequence
/// becomes kInvalidByteBase + byte, so it only equals the same bad byte.
void appendCodePoints(std::string_view text, std::u32string& out);

/// The Levenshtein distance (unit-cost insert, delete, substitute) between `a` and `b` when it is at most `k`,
/// else k + 1. Ukkonen's band: only cells with |i - j| <= k can hold a value <= k. `prev` and `cur` are scratch
/// rows, reused between calls so that no call allocates once they have grown.
std::size_t boundedLevenshtein(std::u32string_view a, std::u32string_view b, std::size_t k,
    std::vector<std::size_t>& prev, std::vector<std::size_t>& cur);

/// Whether the normalised edit similarity 1 - lev(a, b) / max(|a|, |b|) is at least `threshold` (two empty
/// strings: similarity 1). A tolerance of 1e-9 on the count scale makes "2 edits in 10 is 0.8" hold at 0.8,
/// although 1 - 2/10 < 0.8 in binary floating point. `prev` and `cur` as for boundedLevenshtein().
bool similarAtLeast(std::u32string_view a, std::u32string_view b, double threshold, std::vector<std::size_t>& prev,
    std::vector<std::size_t>& cur);

/// `text` as a column of a terminal table, `width` characters (code points) wide: cut to width - 1 of them and
/// a '~' when longer (never inside a UTF-8 sequence), padded with spaces when shorter. A wide character (CJK)
/// counts as one.
std::string column(std::string_view text, std::size_t width);

} // namespace creditlab::text
