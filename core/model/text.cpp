#include "core/model/text.h"

#include <algorithm>
#include <cmath>

namespace creditlab::text {

namespace {

/// Absolute tolerance of the similarity test on the count scale (see similarAtLeast()).
constexpr double kSimilarityTolerance = 1e-9;

} // namespace

void appendActionKey(std::string& out, std::string_view action)
{
    const std::size_t start = out.size();
    bool pendingSpace = false;
    for (char c : action) {
        if (isAsciiSpace(c)) {
            pendingSpace = out.size() > start; // leading whitespace is dropped
            continue;
        }
        if (pendingSpace)
            out.push_back(' '); // an inner whitespace run becomes one space; a trailing one never lands
        pendingSpace = false;
        out.push_back(lowerAscii(c));
    }
}

std::string actionKey(std::string_view action)
{
    std::string out;
    out.reserve(action.size());
    appendActionKey(out, action);
    return out;
}

void appendCodePoints(std::string_view text, std::u32string& out)
{
    const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
    for (std::size_t i = 0; i < text.size();) {
        const unsigned char c = byte(i);
        const std::size_t len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xe ? 3 : (c >> 3) == 0x1e ? 4 : 0;
        bool ok = len > 0 && i + len <= text.size();
        for (std::size_t k = 1; ok && k < len; ++k)
            ok = (byte(i + k) & 0xc0) == 0x80;
        if (!ok) {
            out.push_back(static_cast<char32_t>(kInvalidByteBase + c));
            ++i;
            continue;
        }
        char32_t cp = len == 1 ? c : len == 2 ? (c & 0x1f) : len == 3 ? (c & 0x0f) : (c & 0x07);
        for (std::size_t k = 1; k < len; ++k)
            cp = (cp << 6) | (byte(i + k) & 0x3f);
        out.push_back(cp);
        i += len;
    }
}

std::size_t boundedLevenshtein(std::u32string_view a, std::u32string_view b, std::size_t k,
    std::vector<std::size_t>& prev, std::vector<std::size_t>& cur)
{
    if (a.size() > b.size())
        std::swap(a, b);
    const std::size_t n = a.size();
    const std::size_t m = b.size();
    const std::size_t big = k + 1;
    if (m - n > k)
        return big;
    if (n == 0)
        return m;
    prev.resize(m + 1);
    cur.resize(m + 1);
    for (std::size_t j = 0; j <= m; ++j)
        prev[j] = std::min(j, big);
    for (std::size_t i = 1; i <= n; ++i) {
        const std::size_t lo = i > k ? i - k : 1;
        const std::size_t hi = std::min(m, i + k);
        cur[lo - 1] = lo == 1 ? std::min(i, big) : big;
        std::size_t rowMin = cur[lo - 1];
        for (std::size_t j = lo; j <= hi; ++j) {
            const std::size_t substitute = prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
            const std::size_t v = std::min({ substitute, prev[j] + 1, cur[j - 1] + 1, big });
            cur[j] = v;
            rowMin = std::min(rowMin, v);
        }
        if (hi < m)
            cur[hi + 1] = big; // the next row reads one cell past this band
        if (rowMin >= big)
            return big;
        std::swap(prev, cur);
    }
    return std::min(prev[m], big);
}

bool similarAtLeast(std::u32string_view a, std::u32string_view b, double threshold, std::vector<std::size_t>& prev,
    std::vector<std::size_t>& cur)
{
    const std::size_t longest = std::max(a.size(), b.size());
    if (longest == 0)
        return true;
    // sim >= t  <=>  longest - lev >= t * longest  <=>  lev <= longest - ceil(t * longest)
    const double need = std::ceil(threshold * static_cast<double>(longest) - kSimilarityTolerance);
    const std::size_t maxEdits = longest - std::min(longest, static_cast<std::size_t>(std::max(0.0, need)));
    return boundedLevenshtein(a, b, maxEdits, prev, cur) <= maxEdits;
}

std::string column(std::string_view text, std::size_t width)
{
    // Code points are the bytes that do not continue a UTF-8 sequence.
    const auto starts = [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; };
    std::size_t points = 0;
    std::size_t cut = text.size(); // the byte where code point width - 1 begins
    for (std::size_t i = 0; i < text.size(); ++i)
        if (starts(text[i]) && points++ == width - 1)
            cut = i;
    std::string out;
    if (width > 0 && points > width) {
        out.assign(text.substr(0, cut));
        out += '~';
        return out;
    }
    out.assign(text);
    out.append(width > points ? width - points : 0, ' ');
    return out;
}

} // namespace creditlab::text
