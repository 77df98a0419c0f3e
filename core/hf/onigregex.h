#pragma once

// A compiled Oniguruma regex (UTF-8, Ruby syntax: the engine and defaults of the Rust tokenizers crate's `onig`).
// Compiled once; searching is const and safe from any number of threads at once. Internal to creditlab_hf.

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>

struct re_pattern_buffer; // Oniguruma's regex_t, kept out of the header (Oniguruma is a private dependency)
struct re_registers; // Oniguruma's OnigRegion

namespace creditlab::hf::detail {

/// A match region for Regex::search, one per thread and call chain (it is scratch space).
class RegexRegion {
public:
    RegexRegion();
    ~RegexRegion();
    RegexRegion(const RegexRegion&) = delete;
    RegexRegion& operator=(const RegexRegion&) = delete;
    re_registers* get() const { return m_region; }

private:
    re_registers* m_region;
};

class Regex {
public:
    /// Compiles `pattern`. When it does not compile, `error` gets Oniguruma's message and valid() is false.
    Regex(std::string_view pattern, std::string& error);
    ~Regex();
    Regex(const Regex&) = delete;
    Regex& operator=(const Regex&) = delete;

    bool valid() const { return m_regex != nullptr; }

    /// Calls `onMatch(begin, end)` for each match in `text` from left to right, as the onig crate's `find_iter`
    /// does: an empty match right after the previous match is skipped by one character. `text` is valid UTF-8.
    template <typename OnMatch> void forEachMatch(std::string_view text, RegexRegion& region, OnMatch&& onMatch) const
    {
        std::size_t from = 0;
        std::size_t lastMatchEnd = std::string_view::npos;
        while (from <= text.size()) {
            const auto found = search(text, from, region);
            if (found.first == std::string_view::npos)
                return;
            if (found.first == found.second && found.second == lastMatchEnd) {
                from += from < text.size() ? characterLength(text, from) : 1;
                continue;
            }
            from = found.second;
            lastMatchEnd = found.second;
            onMatch(found.first, found.second);
        }
    }

private:
    /// The first match at or after `from`: (begin, end), or (npos, npos). A search error (the retry limit) throws.
    std::pair<std::size_t, std::size_t> search(std::string_view text, std::size_t from, RegexRegion& region) const;
    static std::size_t characterLength(std::string_view text, std::size_t at);

    re_pattern_buffer* m_regex = nullptr;
};

/// Rust's `char::is_alphanumeric`: the Unicode Alphabetic property (Oniguruma's table) or a numeric category.
bool isAlphanumericChar(char32_t c);

} // namespace creditlab::hf::detail
