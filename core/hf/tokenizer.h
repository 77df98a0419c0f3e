#pragma once

// Hugging Face tokenizer.json for byte-level BPE models (Qwen2.5, Qwen3, Llama 3, SmolLM2) and WordLevel models
// (CreditLab's built-in tokenizer as core/learn/torch/lm/tokenizerjson.h writes it), token for token what the Rust
// tokenizers crate gives for `encode(text, add_special_tokens=False)`. Torch-free and Qt-free.
// Supported: model BPE (merges as "a b" strings or ["a", "b"] pairs, ignore_merges) with pre-tokenizer Split (Regex
// or String, every behavior, invert), Digits and ByteLevel (last) in a Sequence and decoder ByteLevel (or a Sequence
// of it); model WordLevel (vocab, unk_token) with Split and Digits but no ByteLevel, and decoder Fuse or null (tokens
// joined with spaces, as the crate does without a decoder); normalizer null, NFC or a Sequence of them; added tokens.
// Everything else is refused with an HfError naming the key. docs/hf-tokenizers.md has the details and how parity
// with Hugging Face is tested.

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace creditlab::hf {

/// One entry of tokenizer.json's "added_tokens" (special ones such as <|im_start|> and plain ones such as <think>).
struct AddedToken {
    std::int32_t id = 0;
    std::string content;
    bool special = false;
    bool singleWord = false;
    bool lstrip = false;
    bool rstrip = false;
    bool normalized = false;

    bool operator==(const AddedToken&) const = default;
};

/// A loaded tokenizer.json. Immutable after loading: every member is const and may be called from any number of
/// threads at once; copies share the loaded state. Nothing here can be cancelled (loading an 11 MB file takes
/// about half a second).
class Tokenizer {
public:
    /// Reads and parses the file at `path`. A missing or unreadable file, bad JSON or an unsupported component
    /// throws HfError whose message starts with `path`.
    static Tokenizer load(const std::string& path);
    /// Parses tokenizer.json text; errors name `source` ("tokenizer.json: key \"model.vocab\": ...").
    static Tokenizer parse(std::string_view json, const std::string& source);

    /// The ids of `text`, as Hugging Face's `encode(text, add_special_tokens=False)`: added tokens are found first,
    /// then each stretch between them is normalized, pre-tokenized and BPE-encoded; no post-processor runs (no
    /// BOS/EOS). `text` must be valid UTF-8: invalid UTF-8 throws HfError naming the byte offset (Hugging Face takes
    /// only Unicode strings, so there is no answer to reproduce).
    std::vector<std::int32_t> encode(std::string_view text) const;

    /// The text of `ids` as the Rust crate's `decode`. Byte-level BPE, through the ByteLevel decoder: each token's
    /// characters stand for bytes (a token with other characters stands for its own UTF-8), invalid UTF-8 in the result
    /// becomes U+FFFD. WordLevel: the tokens' texts concatenated (Fuse) or joined with spaces (no decoder). No clean-up
    /// of tokenization spaces. With `skipSpecialTokens`, added tokens marked special are left
    /// out. An id that names no token throws HfError.
    std::string decode(std::span<const std::int32_t> ids, bool skipSpecialTokens = false) const;

    /// The id of a token given as its text in tokenizer.json ("Ġworld", "<|im_start|>"): added tokens first, then
    /// the vocabulary.
    std::optional<std::int32_t> tokenId(std::string_view token) const;
    /// The text of token `id` as tokenizer.json writes it ("Ġworld"); an id that names no token throws HfError.
    std::string tokenText(std::int32_t id) const;
    /// The largest id + 1 (Qwen3: 151,669).
    std::int32_t size() const;
    /// Whether `id` is an added token marked special (<|im_end|> is, Qwen3's <think> is not).
    bool isSpecial(std::int32_t id) const;
    /// The added tokens in the order of their ids.
    const std::vector<AddedToken>& addedTokens() const;
    /// One line: "byte-level BPE, 151,643 pieces, 151,387 merges, 26 added tokens, NFC" or "word-level, 1,234 pieces,
    /// 6 added tokens, no normalizer".
    std::string describe() const;
    /// The pre-tokenizer in words: "Split(regex, Isolated) + ByteLevel".
    std::string describePreTokenizer() const;
    /// The path or source name the tokenizer was read from.
    const std::string& source() const;

    struct Impl;

private:
    explicit Tokenizer(std::shared_ptr<const Impl> impl);
    std::shared_ptr<const Impl> m_impl;
};

} // namespace creditlab::hf
