#pragma once

// The BPE model of a byte-level tokenizer.json: the vocabulary, the ranked merges and the merging of one
// pre-tokenized piece, as the Rust tokenizers crate does it (lowest rank first, leftmost on ties; with
// `ignore_merges` a piece that is itself in the vocabulary is one token). Internal to creditlab_hf.

#include "core/hf/tokenmodel.h"

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace creditlab::hf::detail {

/// Working memory of BpeModel::encodePiece, reused across calls of one thread, with that thread's cache of encoded
/// pieces (agent text repeats its words; the Rust crate caches too). The cache belongs to one model at a time.
struct BpeScratch {
    struct Hash {
        using is_transparent = void;
        std::size_t operator()(std::string_view s) const { return std::hash<std::string_view> {}(s); }
    };
    struct Cached {
        std::uint32_t offset; // into `cachedIds`
        std::uint32_t count;
    };
    struct Symbol {
        std::int32_t id;
        std::int32_t prev;
        std::int32_t next;
    };
    struct Candidate {
        std::int32_t rank;
        std::int32_t pos;
        std::int32_t id;
    };
    std::vector<Symbol> symbols;
    std::vector<Candidate> heap;
    std::uint64_t cacheOwner = 0; // BpeModel::m_serial of the model the cache is for
    std::unordered_map<std::string, Cached, Hash, std::equal_to<>> cache;
    std::vector<std::int32_t> cachedIds;
};

class BpeModel final : public TokenModel {
public:
    /// Parses tokenizer.json's "model"; anything unsupported or inconsistent throws HfError naming its key.
    explicit BpeModel(const JsonNode& model);
    ~BpeModel() override;
    BpeModel(BpeModel&&) noexcept;

    /// Appends the ids of one piece. `piece` is raw bytes: each byte stands for its byte-level character. Bytes
    /// whose character is not in the vocabulary are dropped, as the Rust crate does without an unk_token.
    void encodePiece(std::string_view piece, BpeScratch& scratch, std::vector<std::int32_t>& out) const override;

    /// The id of a vocabulary entry (byte-level text such as "Ġworld").
    std::optional<std::int32_t> find(std::string_view text) const override;
    const std::string* text(std::int32_t id) const override;

    std::int32_t pieceCount() const override { return m_pieceCount; }
    std::size_t mergeCount() const { return m_mergeCount; }
    std::int32_t idLimit() const override { return static_cast<std::int32_t>(m_texts.size()); }
    bool ignoreMerges() const { return m_ignoreMerges; }
    bool byteLevel() const override { return true; }
    /// "byte-level BPE, 151,643 pieces, 151,387 merges" (and " (ignore_merges)").
    std::string describe() const override;

private:
    struct Tables;
    void parseVocab(const JsonNode& vocab);
    void parseMerges(const JsonNode& merges);
    void encodeUncached(std::string_view piece, BpeScratch& scratch, std::vector<std::int32_t>& out) const;
    void mergeAll(BpeScratch& scratch, std::vector<std::int32_t>& out) const;

    std::vector<std::string> m_texts; // by id; "" with m_present false for ids without an entry
    std::vector<bool> m_present;
    std::unique_ptr<Tables> m_tables;
    std::array<std::int32_t, 256> m_byteIds {};
    std::uint64_t m_serial = 0; // unique per loaded model: names the owner of a thread's cache
    std::int32_t m_pieceCount = 0;
    std::size_t m_mergeCount = 0;
    bool m_ignoreMerges = false;
};

} // namespace creditlab::hf::detail
