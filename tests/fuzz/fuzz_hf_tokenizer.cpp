// The Hugging Face tokenizer (core/hf/tokenizer.h, creditlab::hf). The input is a tokenizer.json and a text, separated
// by a line "%%". The tokenizer.json either loads (then it encodes the text, or refuses invalid UTF-8 with an
// HfError, and every id it gives decodes) or throws HfError naming the file. The whole input is also text for a fixed
// tiny tokenizer (the bytes, a few merges, two added tokens, no normalizer): valid UTF-8 encodes and decodes back
// byte for byte, and the input's bytes read as ids decode or throw HfError.

#include "core/hf/error.h"
#include "core/hf/tokenizer.h"
#include "tests/fuzz/fuzzutil.h"

#include <cstring>

using namespace creditlab;

namespace {

const char* const kTinyTokenizer = R"({"version": "1.0", "truncation": null, "padding": null,
  "added_tokens": [{"id": 261, "content": "<|im_end|>", "single_word": false, "lstrip": false, "rstrip": false,
                    "normalized": false, "special": true},
                   {"id": 262, "content": "<think>", "single_word": false, "lstrip": false, "rstrip": false,
                    "normalized": false, "special": false}],
  "normalizer": null,
  "pre_tokenizer": {"type": "Sequence", "pretokenizers": [{"type": "Digits", "individual_digits": true},
      {"type": "ByteLevel", "add_prefix_space": false, "trim_offsets": true, "use_regex": true}]},
  "post_processor": null,
  "decoder": {"type": "ByteLevel", "add_prefix_space": true, "trim_offsets": true, "use_regex": true},
  "model": {"type": "BPE", "dropout": null, "unk_token": null, "continuing_subword_prefix": null,
            "end_of_word_suffix": null, "fuse_unk": false, "byte_fallback": false, "ignore_merges": false,
            "vocab": @VOCAB@, "merges": [["Ġ", "t"], ["h", "e"], ["Ġt", "he"], ["i", "n"], ["Ġ", "Ġ"]]}})";

// The 256 byte-level characters as ids 0-255, then the merged pieces 256-260.
std::string tinyTokenizerJson()
{
    std::string vocab = "{";
    unsigned int next = 256;
    for (unsigned int b = 0; b < 256; ++b) {
        const bool printable = (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || b >= 0xAE;
        const unsigned int code = printable ? b : next++;
        char escaped[16];
        std::snprintf(escaped, sizeof escaped, "\"\\u%04x\": %u, ", code, b);
        vocab += escaped;
    }
    vocab += "\"\\u0120t\": 256, \"he\": 257, \"\\u0120the\": 258, \"in\": 259, \"\\u0120\\u0120\": 260}";
    std::string json = kTinyTokenizer;
    json.replace(json.find("@VOCAB@"), 7, vocab);
    return json;
}

const hf::Tokenizer& tiny()
{
    static const hf::Tokenizer tokenizer = hf::Tokenizer::parse(tinyTokenizerJson(), "tiny.json");
    return tokenizer;
}

// Encodes `text`: valid UTF-8 gives ids that decode; invalid UTF-8 is an HfError naming the source.
std::vector<std::int32_t> encodeChecked(const hf::Tokenizer& t, std::string_view text, bool& valid)
{
    valid = false;
    try {
        std::vector<std::int32_t> ids = t.encode(text);
        for (const std::int32_t id : ids)
            if (id < 0 || id >= t.size())
                fuzz::finding("encode gave an id out of range");
        t.decode(ids);
        t.decode(ids, true);
        valid = true;
        return ids;
    } catch (const hf::HfError& e) {
        if (!fuzz::names(e.what(), t.source() + ": encode: "))
            fuzz::finding("an encode error does not name the tokenizer", e.what());
    }
    return {};
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view input = fuzz::text(data, size);
    const auto parts = fuzz::parts(input, 2);

    try {
        const hf::Tokenizer t = hf::Tokenizer::parse(parts[0], "fuzz.json");
        bool valid = false;
        encodeChecked(t, parts[1], valid);
        t.describe();
        for (const hf::AddedToken& token : t.addedTokens())
            if (t.tokenId(token.content) != token.id || t.tokenText(token.id) != token.content)
                fuzz::finding("an added token does not look up both ways", token.content);
    } catch (const hf::HfError& e) {
        fuzz::note(e.what());
        if (!fuzz::names(e.what(), "fuzz.json:"))
            fuzz::finding("an HfError does not name the file", e.what());
    } catch (const std::exception& e) {
        fuzz::unexpected("Tokenizer::parse", e);
    }

    try {
        const hf::Tokenizer& t = tiny();
        bool valid = false;
        const auto ids = encodeChecked(t, input, valid);
        if (valid && t.decode(ids) != input)
            fuzz::finding("the tiny tokenizer does not decode a text back");
        std::vector<std::int32_t> raw;
        for (std::size_t i = 0; i + 1 < size; i += 2)
            raw.push_back((data[i] << 8 | data[i + 1]) % (t.size() + 8));
        try {
            t.decode(raw);
        } catch (const hf::HfError& e) {
            if (!fuzz::names(e.what(), "tiny.json: decode: "))
                fuzz::finding("a decode error does not name the tokenizer", e.what());
        }
    } catch (const std::exception& e) {
        fuzz::unexpected("the tiny tokenizer", e);
    }
    return 0;
}
