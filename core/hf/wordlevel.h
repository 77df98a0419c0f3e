#pragma once

// The WordLevel model of a tokenizer.json: each pre-tokenized piece is one vocabulary entry, or the unk_token, as
// the Rust tokenizers crate's WordLevel does. CreditLab's built-in tokenizer is written this way
// (core/learn/torch/lm/tokenizerjson.h). Internal to creditlab_hf.

#include "core/hf/tokenmodel.h"

#include <functional>
#include <unordered_map>

namespace creditlab::hf::detail {

class WordLevelModel final : public TokenModel {
public:
    /// Parses tokenizer.json's "model" of type WordLevel: "vocab" (piece → id) and "unk_token", which must be in the
    /// vocabulary (the Rust crate fails to encode an unknown piece otherwise). Throws HfError naming the key.
    explicit WordLevelModel(const JsonNode& model);

    /// Appends the piece's id, or the unk_token's.
    void encodePiece(std::string_view piece, BpeScratch& scratch, std::vector<std::int32_t>& out) const override;
    std::optional<std::int32_t> find(std::string_view text) const override;
    const std::string* text(std::int32_t id) const override;
    std::int32_t idLimit() const override { return static_cast<std::int32_t>(m_texts.size()); }
    std::int32_t pieceCount() const override { return static_cast<std::int32_t>(m_ids.size()); }
    bool byteLevel() const override { return false; }
    std::string describe() const override;

private:
    struct Hash {
        using is_transparent = void;
        std::size_t operator()(std::string_view s) const { return std::hash<std::string_view> {}(s); }
    };
    std::unordered_map<std::string, std::int32_t, Hash, std::equal_to<>> m_ids;
    std::vector<std::string> m_texts; // by id
    std::vector<bool> m_present;
    std::int32_t m_unk = 0;
};

} // namespace creditlab::hf::detail
