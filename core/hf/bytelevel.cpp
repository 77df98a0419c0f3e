#include "core/hf/bytelevel.h"

#include "core/hf/error.h"

#include <utf8proc.h>

#include <cstdlib>
#include <memory>

namespace creditlab::hf::detail {

namespace {

// The shortest valid second byte after each lead byte (Unicode Table 3-7), and the longest.
struct LeadRule {
    int length = 0;
    unsigned char low = 0x80;
    unsigned char high = 0xBF;
};

LeadRule leadRule(unsigned char lead)
{
    if (lead < 0x80)
        return { 1 };
    if (lead >= 0xC2 && lead <= 0xDF)
        return { 2 };
    if (lead == 0xE0)
        return { 3, 0xA0, 0xBF };
    if (lead == 0xED)
        return { 3, 0x80, 0x9F };
    if (lead >= 0xE1 && lead <= 0xEF)
        return { 3 };
    if (lead == 0xF0)
        return { 4, 0x90, 0xBF };
    if (lead == 0xF4)
        return { 4, 0x80, 0x8F };
    if (lead >= 0xF1 && lead <= 0xF3)
        return { 4 };
    return { 0 };
}

// How many bytes from `at` form a valid sequence (>0), or -(the length of the maximal invalid subpart).
int sequenceAt(std::string_view text, std::size_t at)
{
    const auto lead = static_cast<unsigned char>(text[at]);
    const LeadRule rule = leadRule(lead);
    if (rule.length == 1)
        return 1;
    if (rule.length == 0)
        return -1;
    int taken = 1;
    for (int i = 1; i < rule.length; ++i) {
        if (at + static_cast<std::size_t>(i) >= text.size())
            return -taken;
        const auto byte = static_cast<unsigned char>(text[at + static_cast<std::size_t>(i)]);
        const unsigned char low = i == 1 ? rule.low : 0x80;
        const unsigned char high = i == 1 ? rule.high : 0xBF;
        if (byte < low || byte > high)
            return -taken;
        ++taken;
    }
    return taken;
}

struct ByteLevelTables {
    std::array<char32_t, 256> toChar {};
    std::array<int, 324> toByte {}; // every byte-level character is below U+0144
    ByteLevelTables()
    {
        toByte.fill(-1);
        // Printable Latin-1 bytes stand for themselves; the others map, in order, to U+0100 and up (GPT-2).
        char32_t next = 256;
        for (int b = 0; b < 256; ++b) {
            const bool printable = (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF);
            toChar[static_cast<std::size_t>(b)] = printable ? static_cast<char32_t>(b) : next++;
            toByte[toChar[static_cast<std::size_t>(b)]] = b;
        }
    }
};

const ByteLevelTables& tables()
{
    static const ByteLevelTables t;
    return t;
}

} // namespace

std::size_t validUtf8Prefix(std::string_view text)
{
    std::size_t at = 0;
    while (at < text.size()) {
        if (static_cast<unsigned char>(text[at]) < 0x80) {
            ++at;
            continue;
        }
        const int n = sequenceAt(text, at);
        if (n < 0)
            return at;
        at += static_cast<std::size_t>(n);
    }
    return at;
}

char32_t decodeUtf8(std::string_view text, std::size_t at, std::size_t& length)
{
    const auto lead = static_cast<unsigned char>(text[at]);
    if (lead < 0x80) {
        length = 1;
        return lead;
    }
    const int n = leadRule(lead).length;
    length = static_cast<std::size_t>(n);
    char32_t c = lead & (n == 2 ? 0x1F : n == 3 ? 0x0F : 0x07);
    for (int i = 1; i < n; ++i)
        c = (c << 6) | (static_cast<unsigned char>(text[at + static_cast<std::size_t>(i)]) & 0x3F);
    return c;
}

void appendUtf8(std::string& out, char32_t c)
{
    if (c < 0x80) {
        out += static_cast<char>(c);
    } else if (c < 0x800) {
        out += static_cast<char>(0xC0 | (c >> 6));
        out += static_cast<char>(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
        out += static_cast<char>(0xE0 | (c >> 12));
        out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (c & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (c >> 18));
        out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (c & 0x3F));
    }
}

std::string lossyUtf8(std::string_view bytes)
{
    std::string out;
    out.reserve(bytes.size());
    std::size_t at = 0;
    while (at < bytes.size()) {
        const int n = sequenceAt(bytes, at);
        if (n > 0) {
            out.append(bytes.substr(at, static_cast<std::size_t>(n)));
            at += static_cast<std::size_t>(n);
        } else {
            out += "\xEF\xBF\xBD"; // U+FFFD for the maximal invalid subpart
            at += static_cast<std::size_t>(-n);
        }
    }
    return out;
}

char32_t byteLevelChar(unsigned char byte) { return tables().toChar[byte]; }

std::optional<std::string> byteLevelToBytes(std::string_view text)
{
    const auto& t = tables();
    std::string out;
    out.reserve(text.size());
    for (std::size_t at = 0; at < text.size();) {
        if (validUtf8Prefix(text.substr(at, 4)) == 0)
            return std::nullopt;
        std::size_t length = 0;
        const char32_t c = decodeUtf8(text, at, length);
        if (c >= t.toByte.size() || t.toByte[c] < 0)
            return std::nullopt;
        out += static_cast<char>(t.toByte[c]);
        at += length;
    }
    return out;
}

std::string bytesToByteLevel(std::string_view bytes)
{
    std::string out;
    out.reserve(bytes.size() * 2);
    for (const char b : bytes)
        appendUtf8(out, byteLevelChar(static_cast<unsigned char>(b)));
    return out;
}

bool isWhitespace(char32_t c)
{
    return (c >= 0x09 && c <= 0x0D) || c == 0x20 || c == 0x85 || c == 0xA0 || c == 0x1680
        || (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F || c == 0x3000;
}

bool isNumeric(char32_t c)
{
    const auto category = utf8proc_category(static_cast<utf8proc_int32_t>(c));
    return category == UTF8PROC_CATEGORY_ND || category == UTF8PROC_CATEGORY_NL || category == UTF8PROC_CATEGORY_NO;
}

namespace {

std::string nfcOfRun(std::string_view run)
{
    utf8proc_uint8_t* mapped = nullptr;
    const auto length
        = utf8proc_map(reinterpret_cast<const utf8proc_uint8_t*>(run.data()), static_cast<utf8proc_ssize_t>(run.size()),
            &mapped, static_cast<utf8proc_option_t>(UTF8PROC_STABLE | UTF8PROC_COMPOSE));
    const std::unique_ptr<utf8proc_uint8_t, decltype(&std::free)> owner(mapped, &std::free);
    if (length < 0)
        throw HfError(std::string("NFC: ") + utf8proc_errmsg(length));
    return std::string(reinterpret_cast<const char*>(mapped), static_cast<std::size_t>(length));
}

bool isAscii(char c) { return static_cast<unsigned char>(c) < 0x80; }

} // namespace

bool nfc(std::string_view text, std::string& out)
{
    // ASCII is in NFC, and an ASCII character is a starter that never composes with what precedes it, so NFC can
    // run on each stretch of non-ASCII characters together with the ASCII character before it (e + U+0301 → é).
    bool changed = false;
    std::size_t copied = 0; // text[0, copied) is in `out` when changed
    for (std::size_t at = 0; at < text.size();) {
        if (isAscii(text[at])) {
            ++at;
            continue;
        }
        const std::size_t begin = at > 0 ? at - 1 : 0;
        std::size_t end = at;
        while (end < text.size() && !isAscii(text[end]))
            ++end;
        const std::string_view run = text.substr(begin, end - begin);
        const std::string normalized = nfcOfRun(run);
        if (normalized != run) {
            if (!changed)
                out.clear();
            changed = true;
            out.append(text.substr(copied, begin - copied));
            out += normalized;
            copied = end;
        }
        at = end;
    }
    if (changed)
        out.append(text.substr(copied));
    return changed;
}

} // namespace creditlab::hf::detail
