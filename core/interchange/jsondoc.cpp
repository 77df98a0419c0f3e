#include "core/interchange/jsondoc.h"

#include <limits>

namespace creditlab {

void JsonDoc::parse(std::string_view text)
{
    m_text = text;
    m_nodes.clear();
    JsonScanner scanner(text);
    build(scanner, {}, 0);
    scanner.expectEnd();
}

void JsonDoc::build(JsonScanner& scanner, std::string_view rawKey, int depth)
{
    if (depth > JsonScanner::kMaxDepth)
        scanner.fail("nesting too deep");
    const Kind kind = scanner.peek(); // skips whitespace: offset() is now the value's start
    if (kind == Kind::End)
        scanner.fail("expected a value but the line ended");
    const std::size_t start = scanner.offset();
    const Index self = static_cast<Index>(m_nodes.size());
    m_nodes.push_back(Node { kind, 0, {}, rawKey });
    if (kind == Kind::Object) {
        scanner.expect('{');
        std::string_view childKey;
        for (bool first = true; scanner.nextMember(m_keyBuffer, &childKey, first); first = false)
            build(scanner, childKey, depth + 1);
    } else if (kind == Kind::Array) {
        scanner.expect('[');
        for (bool first = true; scanner.nextElement(first); first = false)
            build(scanner, {}, depth + 1);
    } else {
        scanner.skipValue(depth);
        // skipValue checks a string's grammar, not how its \u escapes pair up (a lone surrogate), which string()
        // would then fail to decode: decode the strings that have such escapes now, so that every string node does.
        if (kind == Kind::String) {
            const std::string_view raw = m_text.substr(start, scanner.offset() - start);
            if (raw.find("\\u") != std::string_view::npos) {
                try {
                    JsonScanner value(raw);
                    value.readString(m_keyBuffer);
                } catch (JsonSyntaxError& e) {
                    e.offset += start;
                    throw;
                }
            }
        }
    }
    Node& n = m_nodes[self];
    n.raw = m_text.substr(start, scanner.offset() - start);
    n.end = static_cast<Index>(m_nodes.size());
}

JsonDoc::Index JsonDoc::first(Index container) const
{
    const Node& c = m_nodes[container];
    if (c.kind != Kind::Object && c.kind != Kind::Array)
        return kNone;
    return container + 1 < c.end ? container + 1 : kNone;
}

JsonDoc::Index JsonDoc::next(Index container, Index child) const
{
    const Index after = m_nodes[child].end;
    return after < m_nodes[container].end ? after : kNone;
}

std::size_t JsonDoc::size(Index container) const
{
    std::size_t n = 0;
    for (Index c = first(container); c != kNone; c = next(container, c))
        ++n;
    return n;
}

bool JsonDoc::keyIs(Index member, std::string_view key) const
{
    std::string_view raw = m_nodes[member].rawKey;
    if (raw.size() < 2)
        return false;
    raw = raw.substr(1, raw.size() - 2);
    if (raw.find('\\') == std::string_view::npos)
        return raw == key;
    return this->key(member) == key;
}

std::string JsonDoc::key(Index member) const
{
    std::string out;
    JsonScanner scanner(m_nodes[member].rawKey);
    scanner.readString(out);
    return out;
}

JsonDoc::Index JsonDoc::member(Index object, std::string_view key) const
{
    if (m_nodes[object].kind != Kind::Object)
        return kNone;
    for (Index c = first(object); c != kNone; c = next(object, c))
        if (keyIs(c, key))
            return c;
    return kNone;
}

JsonDoc::Index JsonDoc::firstMember(Index object, std::initializer_list<std::string_view> keys) const
{
    for (std::string_view k : keys) {
        const Index i = member(object, k);
        if (i != kNone)
            return i;
    }
    return kNone;
}

void JsonDoc::string(Index i, std::string& out) const
{
    JsonScanner scanner(m_nodes[i].raw);
    scanner.readString(out);
}

std::string JsonDoc::string(Index i) const
{
    std::string out;
    string(i, out);
    return out;
}

double JsonDoc::number(Index i) const
{
    // parse() checked the grammar; what is left to fail is the range.
    const std::string_view raw = m_nodes[i].raw;
    try {
        JsonScanner scanner(raw);
        return scanner.readNumber();
    } catch (const JsonSyntaxError&) {
        return raw.starts_with('-') ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
    }
}

} // namespace creditlab
