#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace creditlab {

/// Thrown by JsonScanner on malformed JSON; `offset` is the byte offset inside the scanned text.
struct JsonSyntaxError {
    std::size_t offset;
    std::string message;
};

/// A small, strict, allocation-light pull scanner over one JSON text held in memory.
/// It validates UTF-8, decodes escapes (surrogate pairs included), reads numbers exactly
/// (std::from_chars) and can skip a whole value while returning its raw text, which is how
/// unknown JSONL fields survive a round trip byte for byte.
/// Deviations from RFC 8259, deliberate: raw control characters inside strings are accepted
/// (many loggers write them), and nesting deeper than kMaxDepth is refused.
/// Any thread; one instance per thread.
class JsonScanner {
public:
    static constexpr int kMaxDepth = 512;

    enum class Kind { Object, Array, String, Number, True, False, Null, End };

    explicit JsonScanner(std::string_view text)
        : m_text(text)
    {
    }

    std::size_t offset() const { return m_pos; }
    /// Skips whitespace and tells what comes next without consuming it.
    Kind peek();

    /// Consumes '{' (true) or throws.
    void expect(char c);
    /// After '{' or ',' inside an object: reads `"key":` into `key`, returning the raw key span too.
    /// Returns false (consuming '}') when the object ends.
    bool nextMember(std::string& key, std::string_view* rawKey, bool first);
    /// Inside an array: returns false (consuming ']') when the array ends, else positions on the element.
    bool nextElement(bool first);

    void readString(std::string& out);
    double readNumber();
    bool readBool();
    /// Validates and skips any value; returns its raw text.
    std::string_view skipValue(int depth = 0);
    /// Requires that only whitespace remains.
    void expectEnd();

    [[noreturn]] void fail(std::string message) const;
    [[noreturn]] void failAt(std::size_t offset, std::string message) const;

    static const char* kindName(Kind kind);

private:
    void skipWs();
    void skipString();
    void scanNumber();
    /// Validates one UTF-8 sequence starting at m_pos (a lead byte >= 0x80) and advances past it.
    void validateUtf8Sequence();

    std::string_view m_text;
    std::size_t m_pos = 0;
};

/// Appends `text` to `out` as a JSON string literal with quotes; valid UTF-8 is kept as is.
void appendJsonString(std::string& out, std::string_view text);
/// Appends the shortest decimal text that reads back as exactly `value` (finite values only).
void appendJsonNumber(std::string& out, double value);

} // namespace creditlab
