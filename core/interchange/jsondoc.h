#pragma once

#include "core/interchange/jsonscanner.h"

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace creditlab {

/// One JSON text (a JSONL line) parsed into a flat, read-only tree whose nodes point into the text:
/// every value keeps its raw bytes, so unknown members can be kept verbatim (Trajectory::extra), and
/// strings are decoded only when asked for. Nodes are stored in document order; a node's children
/// follow it, and `end` is the index one past its subtree. parse() reuses the node storage, so a
/// reader that parses line after line allocates nothing in steady state.
/// The text must outlive the document. Any thread; one instance per thread.
class JsonDoc {
public:
    using Kind = JsonScanner::Kind;
    using Index = std::uint32_t;
    static constexpr Index kNone = 0xFFFFFFFFu;

    struct Node {
        Kind kind = Kind::Null;
        Index end = 0; ///< one past the last node of this subtree
        std::string_view raw; ///< the value's text
        std::string_view rawKey; ///< for an object member: the key's text with its quotes
    };

    /// Parses `text`, which must hold exactly one JSON value. Throws JsonSyntaxError; after a parse every string
    /// node decodes (string() does not throw).
    void parse(std::string_view text);

    const Node& node(Index i) const { return m_nodes[i]; }
    Index root() const { return 0; }
    Kind kind(Index i) const { return m_nodes[i].kind; }

    /// The member `key` of the object `object`, or kNone (also when `object` is not an object).
    Index member(Index object, std::string_view key) const;
    /// The first of several alternative member names that is present; kNone when none is.
    Index firstMember(Index object, std::initializer_list<std::string_view> keys) const;
    /// Children of an object or array: first() then next() until kNone.
    Index first(Index container) const;
    Index next(Index container, Index child) const;
    std::size_t size(Index container) const;

    /// The decoded key of a member node (without quotes).
    std::string key(Index member) const;
    /// True when the member's key equals `key` (fast when the key has no escapes).
    bool keyIs(Index member, std::string_view key) const;

    /// Decodes a string node into `out`.
    void string(Index i, std::string& out) const;
    std::string string(Index i) const;
    /// A number node's value; ±infinity for one beyond double's range (1e999), which parse() accepts.
    double number(Index i) const;
    bool boolean(Index i) const { return m_nodes[i].raw[0] == 't'; }

private:
    void build(JsonScanner& scanner, std::string_view rawKey, int depth);

    std::string_view m_text;
    std::vector<Node> m_nodes;
    std::string m_keyBuffer;
};

} // namespace creditlab
