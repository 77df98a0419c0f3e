#pragma once

// The normalizer and the pre-tokenizer of a tokenizer.json, as the Rust tokenizers crate runs them. Normalizers: null,
// NFC and Sequence. Pre-tokenizers: Split (a Regex or String pattern with any behavior, invert), Digits, ByteLevel and
// Sequence; a byte-level BPE needs ByteLevel as the last step (so that pieces stay raw bytes), a WordLevel model takes
// none. Internal to creditlab_hf.

#include "core/hf/jsonnode.h"
#include "core/hf/onigregex.h"

#include <cstddef>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace creditlab::hf::detail {

/// tokenizer.json's "normalizer": no normalizer or NFC.
class Normalizer {
public:
    /// Parses the node (null for none); an unsupported normalizer throws HfError naming its key.
    static Normalizer parse(const std::optional<JsonNode>& node);

    bool active() const { return m_nfc; }
    /// Normalizes valid UTF-8 `text` into `out` and returns true, or returns false when it stays as it is.
    bool apply(std::string_view text, std::string& out) const;
    /// "NFC" or "no normalizer".
    std::string describe() const;

private:
    bool m_nfc = false;
};

/// The Rust crate's SplitDelimiterBehavior.
enum class SplitBehavior { Removed, Isolated, MergedWithPrevious, MergedWithNext, Contiguous };

/// Working memory of PreTokenizer::run, reused across calls of one thread.
struct PreTokenizerScratch {
    struct Range {
        std::size_t begin;
        std::size_t end;
    };
    struct Span {
        std::size_t begin;
        std::size_t end;
        bool match;
    };
    std::vector<Range> ranges;
    std::vector<Range> next;
    std::vector<Span> spans;
    std::deque<std::string> owned; // pieces with a prefix space added
    RegexRegion region;
};

/// tokenizer.json's "pre_tokenizer": splits normalized text into the pieces that the model encodes one by one.
class PreTokenizer {
public:
    /// Parses the node ("pre_tokenizer") for a model whose pieces are byte-level (BPE: ByteLevel must be the last step)
    /// or not (WordLevel: no ByteLevel step); unsupported or misplaced steps throw HfError naming their key.
    PreTokenizer(const JsonNode& node, bool byteLevelModel);
    ~PreTokenizer();
    PreTokenizer(PreTokenizer&&) noexcept;

    /// Appends the pieces of valid UTF-8 `text` to `pieces` (views into `text` or into `scratch.owned`), in order,
    /// none empty. Clears `scratch.owned` first.
    void run(std::string_view text, PreTokenizerScratch& scratch, std::vector<std::string_view>& pieces) const;

    /// A short description: "Split(regex, Isolated) + ByteLevel".
    std::string describe() const;

private:
    struct Step;
    void parseStep(const JsonNode& node);
    void splitStep(const Step& step, std::string_view text, PreTokenizerScratch& scratch) const;

    std::vector<std::unique_ptr<Step>> m_steps; // for a byte-level model, the last one is the ByteLevel step
};

} // namespace creditlab::hf::detail
