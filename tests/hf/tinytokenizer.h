#pragma once

// Tiny tokenizer.json files written by the tests themselves, so that the tokenizer's logic is checked without the
// real vocabularies: ids 0-255 are the 256 bytes (id = byte value, as GPT-2 byte-level characters), then one new
// piece per merge, from 256 on, in rank order.

#include <nlohmann/json.hpp>

#include <string>
#include <utility>
#include <vector>

namespace creditlab::hf::test {

/// The GPT-2 byte-level character of `byte`, as UTF-8 (written here independently of the library).
inline std::string byteChar(unsigned char byte)
{
    unsigned int code = byte;
    const bool printable = (byte >= '!' && byte <= '~') || (byte >= 0xA1 && byte <= 0xAC) || byte >= 0xAE;
    if (!printable) {
        code = 256;
        for (unsigned int b = 0; b < byte; ++b)
            if (!((b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || b >= 0xAE))
                ++code;
    }
    std::string out;
    if (code < 0x80) {
        out += static_cast<char>(code);
    } else {
        out += static_cast<char>(0xC0 | (code >> 6));
        out += static_cast<char>(0x80 | (code & 0x3F));
    }
    return out;
}

/// `text` (raw bytes) in byte-level characters: "a b" → "aĠb".
inline std::string byteLevel(const std::string& text)
{
    std::string out;
    for (const char c : text)
        out += byteChar(static_cast<unsigned char>(c));
    return out;
}

using Merges = std::vector<std::pair<std::string, std::string>>;

/// A tokenizer.json with the byte vocabulary plus `merges` (raw text; pair form, or "a b" strings when
/// `stringMerges`), the given pre-tokenizer, normalizer and added tokens, and the ByteLevel decoder.
inline nlohmann::json tinyTokenizer(const Merges& merges, nlohmann::json preTokenizer,
    nlohmann::json normalizer = nullptr, nlohmann::json addedTokens = nlohmann::json::array(),
    bool stringMerges = false)
{
    nlohmann::json vocab = nlohmann::json::object();
    for (int b = 0; b < 256; ++b)
        vocab[byteChar(static_cast<unsigned char>(b))] = b;
    nlohmann::json mergeList = nlohmann::json::array();
    for (const auto& [left, right] : merges) {
        const std::string merged = byteLevel(left + right);
        if (!vocab.contains(merged)) {
            const auto id = vocab.size();
            vocab[merged] = id;
        }
        if (stringMerges)
            mergeList.push_back(byteLevel(left) + " " + byteLevel(right));
        else
            mergeList.push_back({ byteLevel(left), byteLevel(right) });
    }
    return {
        { "version", "1.0" },
        { "truncation", nullptr },
        { "padding", nullptr },
        { "added_tokens", addedTokens },
        { "normalizer", normalizer },
        { "pre_tokenizer", preTokenizer },
        { "post_processor", { { "type", "ByteLevel" }, { "add_prefix_space", false }, { "trim_offsets", false } } },
        { "decoder", { { "type", "ByteLevel" }, { "add_prefix_space", false }, { "trim_offsets", false } } },
        { "model",
            { { "type", "BPE" }, { "dropout", nullptr }, { "unk_token", nullptr }, { "continuing_subword_prefix", "" },
                { "end_of_word_suffix", "" }, { "fuse_unk", false }, { "byte_fallback", false },
                { "ignore_merges", false }, { "vocab", vocab }, { "merges", mergeList } } },
    };
}

inline nlohmann::json addedToken(int id, const std::string& content, bool special, bool normalized = false,
    bool lstrip = false, bool rstrip = false, bool singleWord = false)
{
    return { { "id", id }, { "content", content }, { "single_word", singleWord }, { "lstrip", lstrip },
        { "rstrip", rstrip }, { "normalized", normalized }, { "special", special } };
}

inline nlohmann::json byteLevelPreTokenizer(bool useRegex = true)
{
    return { { "type", "ByteLevel" }, { "add_prefix_space", false }, { "trim_offsets", true },
        { "use_regex", useRegex } };
}

/// SmolLM2's pre-tokenizer: single digits, then ByteLevel with the GPT-2 regex.
inline nlohmann::json smolPreTokenizer(bool individualDigits = true)
{
    return { { "type", "Sequence" },
        { "pretokenizers",
            { { { "type", "Digits" }, { "individual_digits", individualDigits } }, byteLevelPreTokenizer(true) } } };
}

/// Split on `pattern` ({"String": ...} or {"Regex": ...}) with `behavior`, then ByteLevel without its regex.
inline nlohmann::json splitPreTokenizer(nlohmann::json pattern, const std::string& behavior, bool invert = false)
{
    return { { "type", "Sequence" },
        { "pretokenizers",
            { { { "type", "Split" }, { "pattern", pattern }, { "behavior", behavior }, { "invert", invert } },
                byteLevelPreTokenizer(false) } } };
}

} // namespace creditlab::hf::test
