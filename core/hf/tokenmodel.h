#pragma once

// tokenizer.json's "model" as the tokenizer uses it, whatever its type: byte-level BPE (bpe.h) or WordLevel
// (wordlevel.h). Internal to creditlab_hf.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace creditlab::hf::detail {

class JsonNode;
struct BpeScratch;

/// The largest token id accepted (4,194,303): real vocabularies stay below 300,000, and tables are indexed by id.
constexpr std::int32_t kMaxTokenId = (1 << 22) - 1;

/// A parsed "model": maps pre-tokenized pieces to ids. Immutable after parsing; any thread.
class TokenModel {
public:
    virtual ~TokenModel() = default;

    /// Parses "model" by its "type" (BPE when absent, as the Rust crate guesses from the keys; or WordLevel); another
    /// type, or anything unsupported or inconsistent, throws HfError naming its key.
    static std::unique_ptr<const TokenModel> parse(const JsonNode& model);

    /// Appends the ids of one pre-tokenized piece. `scratch` is the calling thread's working memory; only BPE uses it.
    virtual void encodePiece(std::string_view piece, BpeScratch& scratch, std::vector<std::int32_t>& out) const = 0;
    /// The id of a vocabulary entry, as tokenizer.json writes it.
    virtual std::optional<std::int32_t> find(std::string_view text) const = 0;
    /// The text of id `id`, nullptr when no vocabulary entry has it.
    virtual const std::string* text(std::int32_t id) const = 0;
    /// The largest id + 1.
    virtual std::int32_t idLimit() const = 0;
    /// The number of vocabulary entries (the Rust crate's get_vocab_size(): the first id of an added token outside it).
    virtual std::int32_t pieceCount() const = 0;
    /// Whether pieces are raw bytes written with byte-level characters (BPE: it needs the ByteLevel pre-tokenizer and
    /// decoder) rather than text that stands for itself (WordLevel).
    virtual bool byteLevel() const = 0;
    /// "byte-level BPE, 151,643 pieces, 151,387 merges" or "word-level, 1,234 pieces".
    virtual std::string describe() const = 0;
};

/// Reads a model's "vocab", an object of pieces and their ids, into `texts` and `present` (indexed by id) and calls
/// `add(piece, id)` for each; an id out of range or given to two pieces throws HfError naming the key.
void readVocab(const JsonNode& vocab, std::vector<std::string>& texts, std::vector<bool>& present,
    const std::function<void(const std::string& piece, std::int32_t id)>& add);

/// 151643 → "151,643"
std::string withThousands(std::size_t n);

} // namespace creditlab::hf::detail
