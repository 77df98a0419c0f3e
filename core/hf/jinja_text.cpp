#include "core/hf/jinja_text.h"

#include "core/hf/bytelevel.h"

#include <utf8proc.h>

#include <algorithm>

namespace creditlab::hf::jinja::text {

char32_t decode(std::string_view s, std::size_t& pos)
{
    const auto b = static_cast<unsigned char>(s[pos]);
    auto cont
        = [&](std::size_t k) { return pos + k < s.size() && (static_cast<unsigned char>(s[pos + k]) & 0xC0) == 0x80; };
    int len = 0;
    char32_t c = b;
    if (b < 0x80) {
        len = 1;
    } else if ((b & 0xE0) == 0xC0 && b >= 0xC2 && cont(1)) {
        len = 2;
        c = b & 0x1F;
    } else if ((b & 0xF0) == 0xE0 && cont(1) && cont(2)) {
        len = 3;
        c = b & 0x0F;
    } else if ((b & 0xF8) == 0xF0 && b <= 0xF4 && cont(1) && cont(2) && cont(3)) {
        len = 4;
        c = b & 0x07;
    } else {
        ++pos;
        return b; // an invalid byte stands for itself
    }
    for (int k = 1; k < len; ++k)
        c = (c << 6) | (static_cast<unsigned char>(s[pos + k]) & 0x3F);
    pos += len;
    return c;
}

void encode(std::string& out, char32_t c)
{
    detail::appendUtf8(out, c); // the tokenizer's encoder (bytelevel.h)
}

std::vector<std::size_t> codePointOffsets(std::string_view s)
{
    std::vector<std::size_t> offsets;
    offsets.reserve(s.size() + 1);
    std::size_t pos = 0;
    while (pos < s.size()) {
        offsets.push_back(pos);
        decode(s, pos);
    }
    offsets.push_back(s.size());
    return offsets;
}

std::size_t codePointCount(std::string_view s)
{
    std::size_t n = 0;
    for (std::size_t pos = 0; pos < s.size(); ++n)
        decode(s, pos);
    return n;
}

bool isSpace(char32_t c)
{
    return (c >= 0x09 && c <= 0x0D) || (c >= 0x1C && c <= 0x20) || c == 0x85 || c == 0xA0 || c == 0x1680
        || (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F || c == 0x3000;
}

static utf8proc_category_t category(char32_t c)
{
    return c > 0x10FFFF ? UTF8PROC_CATEGORY_CN : utf8proc_category(static_cast<utf8proc_int32_t>(c));
}

bool isAlpha(char32_t c)
{
    const auto k = category(c);
    return k >= UTF8PROC_CATEGORY_LU && k <= UTF8PROC_CATEGORY_LO;
}

bool isDigit(char32_t c) { return category(c) == UTF8PROC_CATEGORY_ND; }

bool isAlnum(char32_t c)
{
    const auto k = category(c);
    return isAlpha(c) || k == UTF8PROC_CATEGORY_ND || k == UTF8PROC_CATEGORY_NL || k == UTF8PROC_CATEGORY_NO;
}

bool isUpper(char32_t c) { return category(c) == UTF8PROC_CATEGORY_LU || category(c) == UTF8PROC_CATEGORY_LT; }

bool isLower(char32_t c) { return category(c) == UTF8PROC_CATEGORY_LL; }

char32_t toUpper(char32_t c)
{
    return c > 0x10FFFF ? c : static_cast<char32_t>(utf8proc_toupper(static_cast<utf8proc_int32_t>(c)));
}

char32_t toLower(char32_t c)
{
    return c > 0x10FFFF ? c : static_cast<char32_t>(utf8proc_tolower(static_cast<utf8proc_int32_t>(c)));
}

bool isPrintable(char32_t c)
{
    if (c == ' ')
        return true;
    switch (category(c)) {
    case UTF8PROC_CATEGORY_CC:
    case UTF8PROC_CATEGORY_CF:
    case UTF8PROC_CATEGORY_CS:
    case UTF8PROC_CATEGORY_CO:
    case UTF8PROC_CATEGORY_CN:
    case UTF8PROC_CATEGORY_ZL:
    case UTF8PROC_CATEGORY_ZP:
    case UTF8PROC_CATEGORY_ZS:
        return false;
    default:
        return true;
    }
}

template <typename F> static std::string mapChars(std::string_view s, F f)
{
    std::string out;
    out.reserve(s.size());
    for (std::size_t pos = 0; pos < s.size();)
        encode(out, f(decode(s, pos)));
    return out;
}

std::string upper(std::string_view s)
{
    // Python's full case mapping turns ß into "SS"; utf8proc's simple one gives U+1E9E. Other one-to-many mappings
    // (ligatures, a few Greek and Armenian letters) stay simple: docs/hf-chat-templates.md.
    std::string out;
    out.reserve(s.size());
    for (std::size_t pos = 0; pos < s.size();) {
        const char32_t c = decode(s, pos);
        if (c == 0xDF)
            out += "SS";
        else
            encode(out, toUpper(c));
    }
    return out;
}

std::string lower(std::string_view s) { return mapChars(s, toLower); }

std::string swapcase(std::string_view s)
{
    return mapChars(s, [](char32_t c) { return isUpper(c) ? toLower(c) : toUpper(c); });
}

std::string capitalize(std::string_view s)
{
    bool first = true;
    return mapChars(s, [&](char32_t c) {
        const char32_t r = first ? toUpper(c) : toLower(c);
        first = false;
        return r;
    });
}

std::string pyTitle(std::string_view s)
{
    bool previousCased = false;
    return mapChars(s, [&](char32_t c) {
        const char32_t r = previousCased ? toLower(c) : toUpper(c);
        previousCased = isUpper(c) || isLower(c) || category(c) == UTF8PROC_CATEGORY_LT;
        return r;
    });
}

std::string jinjaTitle(std::string_view s)
{
    // jinja2: re.split(r"([-\s({\[<]+)") and each piece's first character upper-cased, the rest lower-cased.
    bool wordStart = true;
    return mapChars(s, [&](char32_t c) {
        const bool separator = isSpace(c) || c == '-' || c == '(' || c == '{' || c == '[' || c == '<';
        const char32_t r = separator ? c : (wordStart ? toUpper(c) : toLower(c));
        wordStart = separator;
        return r;
    });
}

std::string strip(std::string_view s, const std::string* chars, bool left, bool right)
{
    std::vector<char32_t> set;
    if (chars) {
        for (std::size_t pos = 0; pos < chars->size();)
            set.push_back(decode(*chars, pos));
    }
    auto strippable
        = [&](char32_t c) { return chars ? std::find(set.begin(), set.end(), c) != set.end() : isSpace(c); };
    const auto offsets = codePointOffsets(s);
    std::size_t begin = 0;
    std::size_t end = offsets.size() - 1;
    auto at = [&](std::size_t k) {
        std::size_t pos = offsets[k];
        return decode(s, pos);
    };
    if (left)
        while (begin < end && strippable(at(begin)))
            ++begin;
    if (right)
        while (end > begin && strippable(at(end - 1)))
            --end;
    return std::string(s.substr(offsets[begin], offsets[end] - offsets[begin]));
}

std::vector<std::string> split(std::string_view s, const std::string* sep, long long maxsplit, bool fromRight)
{
    std::vector<std::string> parts;
    if (maxsplit < 0)
        maxsplit = static_cast<long long>(s.size()) + 1;
    if (sep) {
        if (!fromRight) {
            std::size_t start = 0;
            for (std::size_t hit; maxsplit > 0 && (hit = s.find(*sep, start)) != std::string_view::npos; --maxsplit) {
                parts.emplace_back(s.substr(start, hit - start));
                start = hit + sep->size();
            }
            parts.emplace_back(s.substr(start));
        } else {
            std::size_t end = s.size();
            for (; maxsplit > 0 && end >= sep->size(); --maxsplit) {
                const std::size_t hit = s.rfind(*sep, end - sep->size());
                if (hit == std::string_view::npos)
                    break;
                parts.emplace_back(s.substr(hit + sep->size(), end - hit - sep->size()));
                end = hit;
            }
            parts.emplace_back(s.substr(0, end));
            std::reverse(parts.begin(), parts.end());
        }
        return parts;
    }
    // Whitespace: runs of whitespace separate, and ends are dropped.
    const auto offsets = codePointOffsets(s);
    std::vector<std::pair<std::size_t, std::size_t>> words; // code point index ranges
    const std::size_t n = offsets.size() - 1;
    auto space = [&](std::size_t k) {
        std::size_t pos = offsets[k];
        return isSpace(decode(s, pos));
    };
    if (!fromRight) {
        std::size_t k = 0;
        while (k < n) {
            while (k < n && space(k))
                ++k;
            if (k == n)
                break;
            if (maxsplit == 0) {
                parts.emplace_back(s.substr(offsets[k]));
                break;
            }
            const std::size_t b = k;
            while (k < n && !space(k))
                ++k;
            parts.emplace_back(s.substr(offsets[b], offsets[k] - offsets[b]));
            --maxsplit;
        }
        return parts;
    }
    std::size_t k = n;
    while (k > 0) {
        while (k > 0 && space(k - 1))
            --k;
        if (k == 0)
            break;
        if (maxsplit == 0) {
            parts.emplace_back(s.substr(0, offsets[k]));
            break;
        }
        const std::size_t e = k;
        while (k > 0 && !space(k - 1))
            --k;
        parts.emplace_back(s.substr(offsets[k], offsets[e] - offsets[k]));
        --maxsplit;
    }
    std::reverse(parts.begin(), parts.end());
    return parts;
}

std::vector<std::string> splitlines(std::string_view s, bool keepends)
{
    std::vector<std::string> lines;
    std::size_t start = 0;
    std::size_t pos = 0;
    while (pos < s.size()) {
        const std::size_t at = pos;
        const char32_t c = decode(s, pos);
        const bool lineBreak = c == '\n' || c == '\r' || c == 0x0B || c == 0x0C || c == 0x1C || c == 0x1D || c == 0x1E
            || c == 0x85 || c == 0x2028 || c == 0x2029;
        if (!lineBreak)
            continue;
        if (c == '\r' && pos < s.size() && s[pos] == '\n')
            ++pos;
        lines.emplace_back(s.substr(start, (keepends ? pos : at) - start));
        start = pos;
    }
    if (start < s.size())
        lines.emplace_back(s.substr(start));
    return lines;
}

std::string replace(std::string_view s, std::string_view from, std::string_view to, long long count)
{
    std::string out;
    if (count < 0)
        count = static_cast<long long>(s.size()) + 2;
    if (from.empty()) {
        // Python inserts `to` before each code point and at the end.
        const auto offsets = codePointOffsets(s);
        for (std::size_t k = 0; k + 1 < offsets.size(); ++k) {
            if (count-- > 0)
                out += to;
            out += s.substr(offsets[k], offsets[k + 1] - offsets[k]);
        }
        if (count > 0)
            out += to;
        return out;
    }
    std::size_t start = 0;
    for (std::size_t hit; count > 0 && (hit = s.find(from, start)) != std::string_view::npos; --count) {
        out += s.substr(start, hit - start);
        out += to;
        start = hit + from.size();
    }
    out += s.substr(start);
    return out;
}

std::size_t count(std::string_view s, std::string_view sub)
{
    if (sub.empty())
        return codePointCount(s) + 1;
    std::size_t n = 0;
    for (std::size_t pos = s.find(sub); pos != std::string_view::npos; pos = s.find(sub, pos + sub.size()))
        ++n;
    return n;
}

} // namespace creditlab::hf::jinja::text
