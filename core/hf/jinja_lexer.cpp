#include "core/hf/jinja_lexer.h"

#include "core/hf/jinja_text.h"

#include <cerrno>
#include <cstdlib>

namespace creditlab::hf::jinja {

namespace {

// Python's `\s` on str (re.UNICODE): the code point at `pos`, or 0 bytes where it is not whitespace.
std::size_t spaceAt(std::string_view s, std::size_t pos)
{
    if (pos >= s.size())
        return 0;
    std::size_t next = pos;
    return text::isSpace(text::decode(s, next)) ? next - pos : 0;
}

std::size_t skipSpaces(std::string_view s, std::size_t pos)
{
    while (std::size_t n = spaceAt(s, pos))
        pos += n;
    return pos;
}

std::string rstripSpaces(std::string_view s) { return text::strip(s, nullptr, false, true); }

bool isNameStart(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }

bool isDigit(char c) { return c >= '0' && c <= '9'; }

class Lexer {
public:
    explicit Lexer(std::string_view source)
    {
        // jinja2 splits on \r\n, \r and \n, drops one trailing empty line and joins with \n.
        m_src.reserve(source.size());
        for (std::size_t k = 0; k < source.size(); ++k) {
            if (source[k] == '\r') {
                m_src += '\n';
                if (k + 1 < source.size() && source[k + 1] == '\n')
                    ++k;
            } else {
                m_src += source[k];
            }
        }
        if (!m_src.empty() && m_src.back() == '\n')
            m_src.pop_back();
    }

    std::vector<Token> run()
    {
        bool lineStarting = true;
        while (m_pos < m_src.size()) {
            std::size_t start = m_pos;
            while ((start = m_src.find('{', start)) != std::string::npos) {
                if (start + 1 < m_src.size()
                    && (m_src[start + 1] == '{' || m_src[start + 1] == '%' || m_src[start + 1] == '#'))
                    break;
                ++start;
            }
            if (start == std::string::npos) {
                emitData(m_src.substr(m_pos));
                m_pos = m_src.size();
                break;
            }
            const char kind = m_src[start + 1];
            std::size_t after = start + 2;
            char sign = 0;
            if (after < m_src.size() && (m_src[after] == '-' || m_src[after] == '+'))
                sign = m_src[after++];
            std::size_t rawEnd = 0;
            const bool raw = kind == '%' && matchRawTag(after, "raw", rawEnd);
            std::string data = m_src.substr(m_pos, start - m_pos);
            data = applyLeftStrip(data, sign, kind != '{', lineStarting);
            emitData(data);
            m_pos = after;
            if (kind == '#') {
                lineStarting = lexComment();
            } else if (raw) {
                m_pos = rawEnd;
                lineStarting = m_src[rawEnd - 1] == '\n';
                lineStarting = lexRaw(lineStarting);
            } else {
                lineStarting = lexTag(kind == '{');
            }
        }
        Token eof;
        eof.line = lineAt(m_src.size());
        m_tokens.push_back(eof);
        return std::move(m_tokens);
    }

private:
    int lineAt(std::size_t pos)
    {
        for (; m_linePos < pos && m_linePos < m_src.size(); ++m_linePos)
            if (m_src[m_linePos] == '\n')
                ++m_line;
        return m_line;
    }

    [[noreturn]] void fail(const std::string& message, std::size_t pos) { throw JinjaError(message, lineAt(pos)); }

    void emitData(std::string data)
    {
        if (data.empty())
            return;
        Token t;
        t.type = Tok::Data;
        t.line = lineAt(m_pos);
        t.text = std::move(data);
        m_tokens.push_back(std::move(t));
    }

    std::string applyLeftStrip(const std::string& data, char sign, bool lstripAllowed, bool lineStarting)
    {
        if (sign == '-')
            return rstripSpaces(data);
        if (sign == '+' || !lstripAllowed)
            return data;
        const std::size_t lineStart = data.rfind('\n') == std::string::npos ? 0 : data.rfind('\n') + 1;
        if (lineStart == 0 && !lineStarting)
            return data;
        if (lineStart < data.size() && skipSpaces(data, lineStart) == data.size())
            return data.substr(0, lineStart);
        return data;
    }

    // After "{%" and its sign at `pos`: `\s*WORD\s*(-%}\s*|%})` for raw (no trim), or with `+%}`, `%}\n?` for endraw.
    bool matchRawTag(std::size_t pos, std::string_view word, std::size_t& end)
    {
        pos = skipSpaces(m_src, pos);
        if (m_src.compare(pos, word.size(), word) != 0)
            return false;
        pos = skipSpaces(m_src, pos + word.size());
        const bool endraw = word == "endraw";
        if (endraw && m_src.compare(pos, 3, "+%}") == 0) {
            end = pos + 3;
            return true;
        }
        if (m_src.compare(pos, 3, "-%}") == 0) {
            end = skipSpaces(m_src, pos + 3);
            return true;
        }
        if (m_src.compare(pos, 2, "%}") == 0) {
            end = pos + 2;
            if (endraw && end < m_src.size() && m_src[end] == '\n')
                ++end;
            return true;
        }
        return false;
    }

    bool lexComment()
    {
        for (std::size_t k = m_pos; k < m_src.size(); ++k) {
            if (m_src.compare(k, 3, "+#}") == 0) {
                m_pos = k + 3;
                return false;
            }
            if (m_src.compare(k, 3, "-#}") == 0) {
                m_pos = skipSpaces(m_src, k + 3);
                return m_src[m_pos - 1] == '\n';
            }
            if (m_src.compare(k, 2, "#}") == 0) {
                m_pos = k + 2;
                if (m_pos < m_src.size() && m_src[m_pos] == '\n')
                    ++m_pos;
                return m_src[m_pos - 1] == '\n';
            }
        }
        fail("Missing end of comment tag", m_pos);
    }

    bool lexRaw(bool lineStarting)
    {
        for (std::size_t k = m_src.find("{%", m_pos); k != std::string::npos; k = m_src.find("{%", k + 1)) {
            std::size_t after = k + 2;
            char sign = 0;
            if (after < m_src.size() && (m_src[after] == '-' || m_src[after] == '+'))
                sign = m_src[after++];
            std::size_t end = 0;
            if (!matchRawTag(after, "endraw", end))
                continue;
            emitData(applyLeftStrip(m_src.substr(m_pos, k - m_pos), sign, true, lineStarting));
            m_pos = end;
            return m_src[end - 1] == '\n';
        }
        fail("Missing end of raw directive", m_pos);
    }

    void push(Tok type, std::size_t pos, std::string textValue = {})
    {
        Token t;
        t.type = type;
        t.line = lineAt(pos);
        t.text = std::move(textValue);
        m_tokens.push_back(std::move(t));
    }

    // Lexes a {{ }} or {% %} tag from m_pos (just after its opening); returns whether the tag's end ended a line.
    bool lexTag(bool variable)
    {
        push(variable ? Tok::VarBegin : Tok::BlockBegin, m_pos);
        std::string brackets;
        for (;;) {
            if (m_pos >= m_src.size())
                fail(variable ? "unexpected end of template, expected '}}'"
                              : "unexpected end of template, "
                                "expected '%}'",
                    m_pos);
            if (brackets.empty()) {
                const std::size_t p = m_pos;
                if (variable && m_src.compare(p, 3, "-}}") == 0) {
                    push(Tok::VarEnd, p);
                    m_pos = skipSpaces(m_src, p + 3);
                    return m_src[m_pos - 1] == '\n';
                }
                if (variable && m_src.compare(p, 2, "}}") == 0) {
                    push(Tok::VarEnd, p);
                    m_pos = p + 2;
                    return false;
                }
                if (!variable && m_src.compare(p, 3, "+%}") == 0) {
                    push(Tok::BlockEnd, p);
                    m_pos = p + 3;
                    return false;
                }
                if (!variable && m_src.compare(p, 3, "-%}") == 0) {
                    push(Tok::BlockEnd, p);
                    m_pos = skipSpaces(m_src, p + 3);
                    return m_src[m_pos - 1] == '\n';
                }
                if (!variable && m_src.compare(p, 2, "%}") == 0) {
                    push(Tok::BlockEnd, p);
                    m_pos = p + 2;
                    if (m_pos < m_src.size() && m_src[m_pos] == '\n')
                        ++m_pos;
                    return m_src[m_pos - 1] == '\n';
                }
            }
            if (std::size_t n = spaceAt(m_src, m_pos)) {
                m_pos += n;
                continue;
            }
            const char c = m_src[m_pos];
            if (isDigit(c)) {
                lexNumber();
            } else if (isNameStart(c)) {
                std::size_t e = m_pos;
                while (e < m_src.size() && (isNameStart(m_src[e]) || isDigit(m_src[e])))
                    ++e;
                push(Tok::Name, m_pos, m_src.substr(m_pos, e - m_pos));
                m_pos = e;
            } else if (c == '\'' || c == '"') {
                lexString(c);
            } else {
                lexOperator(brackets);
            }
        }
    }

    void lexNumber()
    {
        // integer: \d+(_\d+)*; float: digits with a fraction and/or an exponent (case-insensitive e).
        auto digits = [&](std::size_t p) {
            if (p >= m_src.size() || !isDigit(m_src[p]))
                return std::size_t(0);
            std::size_t e = p;
            while (e < m_src.size() && isDigit(m_src[e]))
                ++e;
            while (e + 1 < m_src.size() && m_src[e] == '_' && isDigit(m_src[e + 1])) {
                ++e;
                while (e < m_src.size() && isDigit(m_src[e]))
                    ++e;
            }
            return e - p;
        };
        const std::size_t start = m_pos;
        std::size_t end = start + digits(start);
        bool isFloat = false;
        if (end < m_src.size() && m_src[end] == '.' && digits(end + 1)) {
            end += 1 + digits(end + 1);
            isFloat = true;
        }
        if (end < m_src.size() && (m_src[end] == 'e' || m_src[end] == 'E')) {
            std::size_t e = end + 1;
            if (e < m_src.size() && (m_src[e] == '+' || m_src[e] == '-'))
                ++e;
            if (const std::size_t n = digits(e)) {
                end = e + n;
                isFloat = true;
            }
        }
        std::string literal;
        for (std::size_t k = start; k < end; ++k)
            if (m_src[k] != '_')
                literal += m_src[k];
        Token t;
        t.line = lineAt(start);
        t.text = m_src.substr(start, end - start);
        errno = 0;
        if (isFloat) {
            t.type = Tok::Float;
            t.f = std::strtod(literal.c_str(), nullptr);
        } else {
            t.type = Tok::Int;
            t.i = std::strtoll(literal.c_str(), nullptr, 10);
            if (errno == ERANGE)
                fail("integer literal out of range: " + literal, start);
        }
        m_tokens.push_back(std::move(t));
        m_pos = end;
    }

    void lexString(char quote)
    {
        const std::size_t start = m_pos;
        std::string raw;
        std::size_t k = m_pos + 1;
        for (;; ++k) {
            if (k >= m_src.size())
                fail("unexpected char '" + std::string(1, quote) + "'", start);
            if (m_src[k] == '\\' && k + 1 < m_src.size()) {
                raw += m_src[k];
                raw += m_src[++k];
                continue;
            }
            if (m_src[k] == quote)
                break;
            raw += m_src[k];
        }
        push(Tok::String, start, unescape(raw, start));
        m_pos = k + 1;
    }

    // Python's "unicode-escape" decoding, as jinja2 applies it to string literals.
    std::string unescape(const std::string& raw, std::size_t at)
    {
        std::string out;
        for (std::size_t k = 0; k < raw.size(); ++k) {
            if (raw[k] != '\\' || k + 1 >= raw.size()) {
                out += raw[k];
                continue;
            }
            const char e = raw[++k];
            auto hex = [&](int n) {
                char32_t v = 0;
                for (int d = 0; d < n; ++d, ++k) {
                    const char h = k + 1 < raw.size() ? raw[k + 1] : 'g';
                    int x = -1;
                    if (h >= '0' && h <= '9')
                        x = h - '0';
                    else if (h >= 'a' && h <= 'f')
                        x = h - 'a' + 10;
                    else if (h >= 'A' && h <= 'F')
                        x = h - 'A' + 10;
                    if (x < 0)
                        fail("invalid escape in a string literal", at);
                    v = v * 16 + static_cast<char32_t>(x);
                }
                if (v > 0x10FFFF)
                    fail("invalid escape in a string literal", at);
                text::encode(out, v);
            };
            switch (e) {
            case '\n':
                break;
            case '\\':
            case '\'':
            case '"':
                out += e;
                break;
            case 'a':
                out += '\a';
                break;
            case 'b':
                out += '\b';
                break;
            case 'f':
                out += '\f';
                break;
            case 'n':
                out += '\n';
                break;
            case 'r':
                out += '\r';
                break;
            case 't':
                out += '\t';
                break;
            case 'v':
                out += '\v';
                break;
            case 'x':
                hex(2);
                break;
            case 'u':
                hex(4);
                break;
            case 'U':
                hex(8);
                break;
            case 'N':
                fail("\\N{...} escapes are not supported", at);
            default:
                if (e >= '0' && e <= '7') {
                    char32_t v = static_cast<char32_t>(e - '0');
                    for (int d = 0; d < 2 && k + 1 < raw.size() && raw[k + 1] >= '0' && raw[k + 1] <= '7'; ++d)
                        v = v * 8 + static_cast<char32_t>(raw[++k] - '0');
                    text::encode(out, v);
                } else {
                    out += '\\';
                    out += e;
                }
            }
        }
        return out;
    }

    void lexOperator(std::string& brackets)
    {
        static const char* const kOps[] = { "//", "**", "==", "!=", ">=", "<=", "+", "-", "/", "*", "%", "~", "[", "]",
            "(", ")", "{", "}", ">", "<", "=", ".", ":", "|", ",", ";" };
        for (const char* op : kOps) {
            const std::string_view o(op);
            if (m_src.compare(m_pos, o.size(), o) != 0)
                continue;
            if (o == "(" || o == "[" || o == "{") {
                brackets += o[0];
            } else if (o == ")" || o == "]" || o == "}") {
                const char open = o == ")" ? '(' : (o == "]" ? '[' : '{');
                if (brackets.empty() || brackets.back() != open)
                    fail("unexpected '" + std::string(o) + "'", m_pos);
                brackets.pop_back();
            }
            push(Tok::Op, m_pos, std::string(o));
            m_pos += o.size();
            return;
        }
        fail("unexpected char '" + std::string(1, m_src[m_pos]) + "'", m_pos);
    }

    std::string m_src;
    std::size_t m_pos = 0;
    std::size_t m_linePos = 0;
    int m_line = 1;
    std::vector<Token> m_tokens;
};

} // namespace

std::vector<Token> tokenize(std::string_view source) { return Lexer(source).run(); }

} // namespace creditlab::hf::jinja
