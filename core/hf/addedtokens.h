#pragma once

// tokenizer.json's "added_tokens": found in the text before normalization and pre-tokenization, as the Rust
// tokenizers crate's AddedVocabulary does. Tokens with `normalized: false` are found in the raw text, those with
// `normalized: true` (by their normalized content) in each normalized stretch between them. Leftmost-longest,
// non-overlapping; `single_word`, `lstrip` and `rstrip` as in the crate. Internal to creditlab_hf.

#include "core/hf/jsonnode.h"
#include "core/hf/tokenizer.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

namespace creditlab::hf::detail {

class Normalizer;
class TokenModel;

/// A stretch of text: an added token (id >= 0) or text between them (id -1). Offsets into the split text.
struct AddedSegment {
    std::size_t begin;
    std::size_t end;
    std::int32_t id;
};

class AddedVocabulary {
public:
    /// Parses "added_tokens" (null for none); ids must agree with the vocabulary where the content is in it.
    AddedVocabulary(const std::optional<JsonNode>& list, const TokenModel& model, const Normalizer& normalizer);
    ~AddedVocabulary();
    AddedVocabulary(AddedVocabulary&&) noexcept;

    /// The tokens in the order of their ids.
    const std::vector<AddedToken>& tokens() const { return m_tokens; }
    const AddedToken* byId(std::int32_t id) const;
    std::optional<std::int32_t> find(std::string_view content) const;

    /// Splits raw text on the tokens with normalized false; appends the segments (none empty) to `out`.
    void splitRaw(std::string_view text, std::vector<AddedSegment>& out) const;
    /// Splits normalized text on the tokens with normalized true.
    void splitNormalized(std::string_view text, std::vector<AddedSegment>& out) const;
    bool hasNormalized() const;

private:
    class Trie;
    void split(const Trie& trie, std::string_view text, std::vector<AddedSegment>& out) const;

    std::vector<AddedToken> m_tokens;
    std::unique_ptr<Trie> m_raw;
    std::unique_ptr<Trie> m_normalized;
};

} // namespace creditlab::hf::detail
