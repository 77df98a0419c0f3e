#include "core/hf/addedtokens.h"

#include "core/hf/bytelevel.h"
#include "core/hf/jsonnode.h"
#include "core/hf/onigregex.h"
#include "core/hf/pretokenizer.h"
#include "core/hf/tokenmodel.h"

#include <algorithm>
#include <array>

namespace creditlab::hf::detail {

/// A byte trie of token contents with a table for the first byte.
class AddedVocabulary::Trie {
public:
    Trie() { m_first.fill(-1); }

    void add(std::string_view pattern, std::size_t token)
    {
        std::int32_t node = -1;
        for (const char ch : pattern) {
            const auto byte = static_cast<unsigned char>(ch);
            std::int32_t& slot = node < 0 ? m_first[byte] : childSlot(node, byte);
            if (slot < 0) {
                slot = static_cast<std::int32_t>(m_nodes.size());
                m_nodes.emplace_back(); // may move m_nodes: `slot` is not used after this
            }
            node = node < 0 ? m_first[byte] : child(node, byte);
        }
        if (node >= 0 && m_nodes[static_cast<std::size_t>(node)].token < 0)
            m_nodes[static_cast<std::size_t>(node)].token = static_cast<std::int32_t>(token);
    }

    bool empty() const { return m_nodes.empty(); }

    /// The end and token of the longest pattern starting at `at`, or token -1.
    std::pair<std::size_t, std::int32_t> longestAt(std::string_view text, std::size_t at) const
    {
        std::pair<std::size_t, std::int32_t> best { at, -1 };
        std::int32_t node = m_first[static_cast<unsigned char>(text[at])];
        for (std::size_t i = at + 1; node >= 0; ++i) {
            if (m_nodes[static_cast<std::size_t>(node)].token >= 0)
                best = { i, m_nodes[static_cast<std::size_t>(node)].token };
            if (i >= text.size())
                break;
            node = child(node, static_cast<unsigned char>(text[i]));
        }
        return best;
    }

    bool mayStart(unsigned char byte) const { return m_first[byte] >= 0; }

private:
    struct Node {
        std::vector<std::pair<unsigned char, std::int32_t>> children;
        std::int32_t token = -1;
    };

    std::int32_t child(std::int32_t node, unsigned char byte) const
    {
        for (const auto& [b, next] : m_nodes[static_cast<std::size_t>(node)].children)
            if (b == byte)
                return next;
        return -1;
    }

    std::int32_t& childSlot(std::int32_t node, unsigned char byte)
    {
        auto& children = m_nodes[static_cast<std::size_t>(node)].children;
        for (auto& [b, next] : children)
            if (b == byte)
                return next;
        return children.emplace_back(byte, -1).second;
    }

    std::array<std::int32_t, 256> m_first {};
    std::vector<Node> m_nodes;
};

namespace {

// The start of the character that ends at `end` (exclusive) in valid UTF-8.
std::size_t previousCharacter(std::string_view text, std::size_t end)
{
    std::size_t at = end - 1;
    while (at > 0 && (static_cast<unsigned char>(text[at]) & 0xC0) == 0x80)
        --at;
    return at;
}

char32_t characterAt(std::string_view text, std::size_t at)
{
    std::size_t length = 1;
    return decodeUtf8(text, at, length);
}

// Where the whitespace that ends text[0, end) begins (the crate's space_leftmost_at_end).
std::size_t trailingSpaceStart(std::string_view text, std::size_t end)
{
    while (end > 0) {
        const std::size_t at = previousCharacter(text, end);
        if (!isWhitespace(characterAt(text, at)))
            break;
        end = at;
    }
    return end;
}

// Where the whitespace that starts text[from, ...) ends (the crate's space_rightmost_at_start).
std::size_t leadingSpaceEnd(std::string_view text, std::size_t from)
{
    while (from < text.size()) {
        std::size_t length = 1;
        if (!isWhitespace(decodeUtf8(text, from, length)))
            break;
        from += length;
    }
    return from;
}

} // namespace

AddedVocabulary::AddedVocabulary(
    const std::optional<JsonNode>& list, const TokenModel& model, const Normalizer& normalizer)
    : m_raw(std::make_unique<Trie>())
    , m_normalized(std::make_unique<Trie>())
{
    const std::size_t count = list ? list->arraySize() : 0;
    std::int32_t nextId = model.pieceCount();
    for (std::size_t i = 0; i < count; ++i) {
        const JsonNode entry = (*list)[i];
        AddedToken token;
        const JsonNode idNode = entry.at("id");
        const std::int64_t id = idNode.integer();
        if (id < 0 || id > kMaxTokenId)
            idNode.fail("expected an id from 0 to " + std::to_string(kMaxTokenId));
        token.id = static_cast<std::int32_t>(id);
        token.content = entry.at("content").string();
        if (token.content.empty())
            entry.at("content").fail("an added token cannot be empty");
        if (validUtf8Prefix(token.content) != token.content.size())
            entry.at("content").fail("not valid UTF-8");
        token.special = entry.flag("special", false);
        token.singleWord = entry.flag("single_word", false);
        token.lstrip = entry.flag("lstrip", false);
        token.rstrip = entry.flag("rstrip", false);
        token.normalized = entry.flag("normalized", !token.special);
        // The Rust crate ignores the ids in the file: a content in the vocabulary keeps its id there, any other gets
        // the next id after the vocabulary and the added tokens before it. A file that says otherwise is refused.
        const auto inVocab = model.find(token.content);
        const std::int32_t expected = inVocab ? *inVocab : nextId;
        if (token.id != expected)
            idNode.fail("Hugging Face gives " + quoteForError(token.content) + " id " + std::to_string(expected)
                + (inVocab ? " (its id in the vocabulary)"
                           : " (the next id after the vocabulary and the added tokens before it)"));
        if (byId(token.id))
            idNode.fail("id " + std::to_string(token.id) + " is given to two added tokens");
        nextId = std::max(nextId, token.id + 1);
        m_tokens.insert(std::upper_bound(m_tokens.begin(), m_tokens.end(), token.id,
                            [](std::int32_t value, const AddedToken& t) { return value < t.id; }),
            token);
    }
    for (std::size_t i = 0; i < m_tokens.size(); ++i) {
        if (m_tokens[i].normalized) {
            std::string pattern = m_tokens[i].content;
            normalizer.apply(m_tokens[i].content, pattern);
            if (!pattern.empty())
                m_normalized->add(pattern, i);
        } else {
            m_raw->add(m_tokens[i].content, i);
        }
    }
}

AddedVocabulary::~AddedVocabulary() = default;
AddedVocabulary::AddedVocabulary(AddedVocabulary&&) noexcept = default;

const AddedToken* AddedVocabulary::byId(std::int32_t id) const
{
    const auto it = std::lower_bound(
        m_tokens.begin(), m_tokens.end(), id, [](const AddedToken& t, std::int32_t value) { return t.id < value; });
    return it != m_tokens.end() && it->id == id ? &*it : nullptr;
}

std::optional<std::int32_t> AddedVocabulary::find(std::string_view content) const
{
    for (const AddedToken& token : m_tokens)
        if (token.content == content)
            return token.id;
    return std::nullopt;
}

bool AddedVocabulary::hasNormalized() const { return !m_normalized->empty(); }

void AddedVocabulary::splitRaw(std::string_view text, std::vector<AddedSegment>& out) const
{
    split(*m_raw, text, out);
}

void AddedVocabulary::splitNormalized(std::string_view text, std::vector<AddedSegment>& out) const
{
    split(*m_normalized, text, out);
}

void AddedVocabulary::split(const Trie& trie, std::string_view text, std::vector<AddedSegment>& out) const
{
    std::size_t startOffset = 0; // the end of the last segment written
    std::size_t at = 0; // where the search for the next match goes on
    while (!trie.empty() && at < text.size()) {
        if (!trie.mayStart(static_cast<unsigned char>(text[at]))) {
            ++at;
            continue;
        }
        const auto [matchEnd, index] = trie.longestAt(text, at);
        if (index < 0) {
            ++at;
            continue;
        }
        std::size_t start = at;
        std::size_t stop = matchEnd;
        at = matchEnd;
        const AddedToken& token = m_tokens[static_cast<std::size_t>(index)];
        if (token.singleWord) {
            const bool spaceBefore
                = start == 0 || !isAlphanumericChar(characterAt(text, previousCharacter(text, start)));
            const bool spaceAfter = stop == text.size() || !isAlphanumericChar(characterAt(text, stop));
            if (!spaceBefore || !spaceAfter)
                continue;
        }
        if (token.lstrip)
            start = std::max(trailingSpaceStart(text, start), startOffset);
        if (token.rstrip)
            stop = leadingSpaceEnd(text, stop);
        // A match inside what the previous token's rstrip took is cut to what is left (the crate would overlap).
        start = std::max(start, startOffset);
        if (stop <= start)
            continue;
        if (start > startOffset)
            out.push_back({ startOffset, start, -1 });
        out.push_back({ start, stop, token.id });
        startOffset = stop;
    }
    if (startOffset < text.size())
        out.push_back({ startOffset, text.size(), -1 });
}

} // namespace creditlab::hf::detail
