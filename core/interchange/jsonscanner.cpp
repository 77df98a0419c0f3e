// JsonScanner (jsonscanner.h): reading one JSON text, strictly. The writers declared beside it are jsonwrite.cpp.
#include "core/interchange/jsonscanner.h"

#include <charconv>
#include <cmath>
#include <cstring>

namespace creditlab {

namespace {

/// A byte for an error message: a printable ASCII character quoted ("'h'"), any other byte by its value ("byte 0xff"),
/// so that messages stay valid UTF-8 (the ingestion server sends them back inside JSON replies).
std::string describeByte(char byte)
{
    const unsigned char c = static_cast<unsigned char>(byte);
    if (c >= 0x20 && c < 0x7f)
        return std::string("'") + byte + "'";
    static constexpr char kHex[] = "0123456789abcdef";
    return std::string("byte 0x") + kHex[c >> 4] + kHex[c & 0xF];
}

/// "invalid escape '\x'", or "invalid escape '\' followed by byte 0xff" for a byte that is not printable ASCII.
std::string invalidEscape(char e)
{
    const unsigned char c = static_cast<unsigned char>(e);
    if (c >= 0x20 && c < 0x7f)
        return std::string("invalid escape '\\") + e + "'";
    return "invalid escape '\\' followed by " + describeByte(e);
}

bool isWs(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

void appendUtf8(std::string& out, std::uint32_t cp)
{
    if (cp < 0x80) {
        out.push_back(static_cast<char>(cp));
    } else if (cp < 0x800) {
        out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
        out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else {
        out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    }
}

int hexValue(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

} // namespace

void JsonScanner::fail(std::string message) const { throw JsonSyntaxError { m_pos, std::move(message) }; }

void JsonScanner::failAt(std::size_t offset, std::string message) const
{
    throw JsonSyntaxError { offset, std::move(message) };
}

const char* JsonScanner::kindName(Kind kind)
{
    switch (kind) {
    case Kind::Object:
        return "an object";
    case Kind::Array:
        return "an array";
    case Kind::String:
        return "a string";
    case Kind::Number:
        return "a number";
    case Kind::True:
    case Kind::False:
        return "a boolean";
    case Kind::Null:
        return "null";
    case Kind::End:
        return "the end of the line";
    }
    return "?";
}

void JsonScanner::skipWs()
{
    while (m_pos < m_text.size() && isWs(m_text[m_pos]))
        ++m_pos;
}

JsonScanner::Kind JsonScanner::peek()
{
    skipWs();
    if (m_pos >= m_text.size())
        return Kind::End;
    switch (m_text[m_pos]) {
    case '{':
        return Kind::Object;
    case '[':
        return Kind::Array;
    case '"':
        return Kind::String;
    case 't':
        return Kind::True;
    case 'f':
        return Kind::False;
    case 'n':
        return Kind::Null;
    case '-':
    case '0':
    case '1':
    case '2':
    case '3':
    case '4':
    case '5':
    case '6':
    case '7':
    case '8':
    case '9':
        return Kind::Number;
    default: {
        const char c = m_text[m_pos];
        const unsigned char u = static_cast<unsigned char>(c);
        fail(u >= 0x20 && u < 0x7f ? "unexpected character " + describeByte(c) : "unexpected " + describeByte(c));
    }
    }
}

void JsonScanner::expect(char c)
{
    skipWs();
    if (m_pos >= m_text.size())
        fail(std::string("expected '") + c + "' but the line ended");
    if (m_text[m_pos] != c)
        fail(std::string("expected '") + c + "'");
    ++m_pos;
}

bool JsonScanner::nextMember(std::string& key, std::string_view* rawKey, bool first)
{
    skipWs();
    if (m_pos >= m_text.size())
        fail("unterminated object");
    if (m_text[m_pos] == '}') {
        if (!first && m_text[m_pos - 1] == ',')
            fail("trailing comma in object");
        ++m_pos;
        return false;
    }
    if (!first) {
        if (m_text[m_pos] != ',')
            fail("expected ',' or '}' in object");
        ++m_pos;
        skipWs();
    }
    if (m_pos >= m_text.size() || m_text[m_pos] != '"')
        fail("expected a quoted member name");
    const std::size_t keyStart = m_pos;
    readString(key);
    if (rawKey)
        *rawKey = m_text.substr(keyStart, m_pos - keyStart);
    expect(':');
    return true;
}

bool JsonScanner::nextElement(bool first)
{
    skipWs();
    if (m_pos >= m_text.size())
        fail("unterminated array");
    if (m_text[m_pos] == ']') {
        ++m_pos;
        return false;
    }
    if (!first) {
        if (m_text[m_pos] != ',')
            fail("expected ',' or ']' in array");
        ++m_pos;
        skipWs();
        if (m_pos < m_text.size() && m_text[m_pos] == ']')
            fail("trailing comma in array");
    }
    return true;
}

void JsonScanner::validateUtf8Sequence()
{
    const auto* s = reinterpret_cast<const unsigned char*>(m_text.data());
    const std::size_t n = m_text.size();
    const unsigned char c = s[m_pos];
    int len;
    std::uint32_t cp;
    if (c >= 0xC2 && c <= 0xDF) {
        len = 2;
        cp = c & 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
        len = 3;
        cp = c & 0x0F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        len = 4;
        cp = c & 0x07;
    } else {
        fail("invalid UTF-8 byte");
    }
    if (m_pos + len > n)
        fail("truncated UTF-8 sequence");
    for (int i = 1; i < len; ++i) {
        const unsigned char cc = s[m_pos + i];
        if ((cc & 0xC0) != 0x80)
            fail("invalid UTF-8 continuation byte");
        cp = (cp << 6) | (cc & 0x3F);
    }
    if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)))
        fail("overlong or out-of-range UTF-8 sequence");
    if (cp >= 0xD800 && cp <= 0xDFFF)
        fail("UTF-8 encoded surrogate");
    m_pos += len;
}

void JsonScanner::readString(std::string& out)
{
    out.clear();
    if (m_pos >= m_text.size() || m_text[m_pos] != '"')
        fail("expected a string");
    ++m_pos;
    const char* data = m_text.data();
    const std::size_t n = m_text.size();
    for (;;) {
        // Fast path: copy a run of plain ASCII in one go.
        std::size_t run = m_pos;
        while (run < n) {
            const unsigned char c = static_cast<unsigned char>(data[run]);
            if (c == '"' || c == '\\' || c >= 0x80)
                break;
            ++run;
        }
        out.append(data + m_pos, run - m_pos);
        m_pos = run;
        if (m_pos >= n)
            fail("unterminated string");
        const unsigned char c = static_cast<unsigned char>(data[m_pos]);
        if (c == '"') {
            ++m_pos;
            return;
        }
        if (c >= 0x80) {
            const std::size_t start = m_pos;
            validateUtf8Sequence();
            out.append(data + start, m_pos - start);
            continue;
        }
        // Escape.
        const std::size_t escStart = m_pos;
        ++m_pos;
        if (m_pos >= n)
            fail("unterminated escape");
        const char e = data[m_pos++];
        switch (e) {
        case '"':
            out.push_back('"');
            break;
        case '\\':
            out.push_back('\\');
            break;
        case '/':
            out.push_back('/');
            break;
        case 'b':
            out.push_back('\b');
            break;
        case 'f':
            out.push_back('\f');
            break;
        case 'n':
            out.push_back('\n');
            break;
        case 'r':
            out.push_back('\r');
            break;
        case 't':
            out.push_back('\t');
            break;
        case 'u': {
            auto readHex4 = [&](std::size_t at) -> std::uint32_t {
                if (at + 4 > n)
                    failAt(escStart, "truncated \\u escape");
                std::uint32_t v = 0;
                for (int i = 0; i < 4; ++i) {
                    const int h = hexValue(data[at + i]);
                    if (h < 0)
                        failAt(escStart, "invalid hex digit in \\u escape");
                    v = (v << 4) | static_cast<std::uint32_t>(h);
                }
                return v;
            };
            std::uint32_t cp = readHex4(m_pos);
            m_pos += 4;
            if (cp >= 0xD800 && cp <= 0xDBFF) {
                if (m_pos + 6 > n || data[m_pos] != '\\' || data[m_pos + 1] != 'u')
                    failAt(escStart, "unpaired high surrogate in \\u escape");
                const std::uint32_t lo = readHex4(m_pos + 2);
                if (lo < 0xDC00 || lo > 0xDFFF)
                    failAt(escStart, "invalid low surrogate in \\u escape");
                m_pos += 6;
                cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
            } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
                failAt(escStart, "unpaired low surrogate in \\u escape");
            }
            appendUtf8(out, cp);
            break;
        }
        default:
            failAt(escStart, invalidEscape(e));
        }
    }
}

void JsonScanner::skipString()
{
    ++m_pos; // opening quote
    const char* data = m_text.data();
    const std::size_t n = m_text.size();
    while (m_pos < n) {
        const unsigned char c = static_cast<unsigned char>(data[m_pos]);
        if (c == '"') {
            ++m_pos;
            return;
        }
        if (c == '\\') {
            // Decoding validates the escape; reuse readString on the escape alone would be
            // awkward, so check the grammar here.
            const std::size_t escStart = m_pos;
            if (m_pos + 1 >= n)
                fail("unterminated escape");
            const char e = data[m_pos + 1];
            if (e == 'u') {
                if (m_pos + 6 > n)
                    failAt(escStart, "truncated \\u escape");
                for (int i = 2; i < 6; ++i)
                    if (hexValue(data[m_pos + i]) < 0)
                        failAt(escStart, "invalid hex digit in \\u escape");
                m_pos += 6;
            } else if (std::strchr("\"\\/bfnrt", e) != nullptr && e != '\0') {
                m_pos += 2;
            } else {
                failAt(escStart, invalidEscape(e));
            }
            continue;
        }
        if (c >= 0x80) {
            validateUtf8Sequence();
            continue;
        }
        ++m_pos;
    }
    fail("unterminated string");
}

void JsonScanner::scanNumber()
{
    const char* data = m_text.data();
    const std::size_t n = m_text.size();
    auto digit = [&](std::size_t i) { return i < n && data[i] >= '0' && data[i] <= '9'; };
    if (m_pos < n && data[m_pos] == '-')
        ++m_pos;
    if (!digit(m_pos))
        fail("invalid number");
    if (data[m_pos] == '0') {
        ++m_pos;
        if (digit(m_pos))
            fail("leading zero in number");
    } else {
        while (digit(m_pos))
            ++m_pos;
    }
    if (m_pos < n && data[m_pos] == '.') {
        ++m_pos;
        if (!digit(m_pos))
            fail("expected a digit after '.'");
        while (digit(m_pos))
            ++m_pos;
    }
    if (m_pos < n && (data[m_pos] == 'e' || data[m_pos] == 'E')) {
        ++m_pos;
        if (m_pos < n && (data[m_pos] == '+' || data[m_pos] == '-'))
            ++m_pos;
        if (!digit(m_pos))
            fail("expected a digit in exponent");
        while (digit(m_pos))
            ++m_pos;
    }
}

double JsonScanner::readNumber()
{
    skipWs();
    const std::size_t start = m_pos;
    scanNumber();
    double value = 0.0;
    const auto [ptr, ec] = std::from_chars(m_text.data() + start, m_text.data() + m_pos, value);
    if (ec == std::errc::result_out_of_range) {
        // from_chars reports underflow as out of range too; only overflow is an error.
        if (std::strtod(std::string(m_text.substr(start, m_pos - start)).c_str(), nullptr) == 0.0)
            return 0.0;
        failAt(start, "number out of range");
    }
    if (ec != std::errc() || ptr != m_text.data() + m_pos)
        failAt(start, "invalid number");
    return value;
}

bool JsonScanner::readBool()
{
    skipWs();
    if (m_text.substr(m_pos, 4) == "true") {
        m_pos += 4;
        return true;
    }
    if (m_text.substr(m_pos, 5) == "false") {
        m_pos += 5;
        return false;
    }
    fail("expected true or false");
}

std::string_view JsonScanner::skipValue(int depth)
{
    if (depth > kMaxDepth)
        fail("nesting too deep");
    const Kind kind = peek();
    const std::size_t start = m_pos;
    switch (kind) {
    case Kind::Object: {
        ++m_pos;
        std::string key;
        for (bool first = true; nextMember(key, nullptr, first); first = false)
            skipValue(depth + 1);
        break;
    }
    case Kind::Array:
        ++m_pos;
        for (bool first = true; nextElement(first); first = false)
            skipValue(depth + 1);
        break;
    case Kind::String:
        skipString();
        break;
    case Kind::Number:
        scanNumber();
        break;
    case Kind::True:
    case Kind::False:
        readBool();
        break;
    case Kind::Null:
        if (m_text.substr(m_pos, 4) != "null")
            fail("expected null");
        m_pos += 4;
        break;
    case Kind::End:
        fail("expected a value but the line ended");
    }
    return m_text.substr(start, m_pos - start);
}

void JsonScanner::expectEnd()
{
    skipWs();
    if (m_pos < m_text.size())
        fail("unexpected text after the JSON value");
}

} // namespace creditlab
