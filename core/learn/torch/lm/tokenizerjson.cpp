#include "core/learn/torch/lm/tokenizerjson.h"

#include "core/storage/atomicfile.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <stdexcept>

namespace creditlab::learn {

namespace {

using json = nlohmann::ordered_json;

// Format 1: an optional space and a letter run or a digit run; a newline; a space before a space, a newline or the
// end; an optional space and one other character. Oniguruma takes the leftmost alternative that matches.
constexpr const char* kFormat1Regex = R"(\n| (?![^ \n])| ?[A-Za-z]+| ?[0-9]+| ?[^A-Za-z0-9 \n])";
// Format 2: a letter run or a digit run is one piece only when no letter or digit touches it (the lookarounds), so
// a word that mixes the two falls through to one letter or digit at a time, the first with the space before it.
constexpr const char* kFormat2Regex = R"(\n| (?![^ \n])| ?(?<![A-Za-z0-9])[A-Za-z]+(?![A-Za-z0-9]))"
                                      R"(| ?(?<![A-Za-z0-9])[0-9]+(?![A-Za-z0-9])| ?[A-Za-z0-9]| ?[^A-Za-z0-9 \n])";

// A piece with a byte >= 0x80 is one byte of a multi-byte character (Tokenizer splits such text by bytes), never
// valid UTF-8 on its own.
bool isAscii(const std::string& piece)
{
    return std::all_of(piece.begin(), piece.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; });
}

// A special token as tokenizer.json's added_tokens holds it: matched in the raw text, as is. <unk> is not marked
// special, so that decode(ids, skip_special_tokens=True) keeps it as Tokenizer::decode does (and an action with an
// unknown word reads the same through BuiltinFormat and HfFormat); the others decode to nothing in both.
json addedToken(const Tokenizer& tokenizer, std::int32_t id)
{
    return { { "id", id }, { "content", tokenizer.token(id) }, { "single_word", false }, { "lstrip", false },
        { "rstrip", false }, { "normalized", false }, { "special", id != Tokenizer::kUnk } };
}

json additionalSpecialTokens(const Tokenizer& tokenizer)
{
    return { tokenizer.token(Tokenizer::kGoal), tokenizer.token(Tokenizer::kObs), tokenizer.token(Tokenizer::kAct) };
}

} // namespace

std::string pieceRegex(int formatVersion)
{
    if (formatVersion == 1)
        return kFormat1Regex;
    if (formatVersion == 2)
        return kFormat2Regex;
    throw std::invalid_argument("no pre-tokenizer regex for tokenizer format " + std::to_string(formatVersion));
}

std::string tokenizerJson(const Tokenizer& tokenizer)
{
    json j;
    j["version"] = "1.0";
    j["truncation"] = nullptr;
    j["padding"] = nullptr;
    j["added_tokens"] = json::array();
    for (std::int32_t id = 0; id < Tokenizer::kSpecialCount; ++id)
        j["added_tokens"].push_back(addedToken(tokenizer, id));
    j["normalizer"] = nullptr;
    j["pre_tokenizer"] = { { "type", "Split" }, { "pattern", { { "Regex", pieceRegex(tokenizer.formatVersion()) } } },
        { "behavior", "Isolated" }, { "invert", false } };
    j["post_processor"] = nullptr;
    j["decoder"] = { { "type", "Fuse" } };
    // The special tokens are in the vocabulary too: the Rust crate keeps an added token's id only when the model has
    // it (else it gives the next id after the vocabulary), and WordLevel needs its unk_token there.
    json vocab = json::object();
    for (std::int32_t id = 0; id < tokenizer.size(); ++id)
        if (const std::string& piece = tokenizer.token(id); isAscii(piece))
            vocab[piece] = id;
    j["model"]
        = { { "type", "WordLevel" }, { "vocab", std::move(vocab) }, { "unk_token", tokenizer.token(Tokenizer::kUnk) } };
    return j.dump(2) + "\n";
}

std::string builtinChatTemplate()
{
    // transformers renders with trim_blocks and lstrip_blocks; the explicit '-' keep the layout out of the text anyway.
    return R"({%- if messages and messages[0]['role'] == 'system' -%}
    {{- raise_exception("CreditLab's built-in format has no system message") -}}
{%- endif -%}
{%- for message in messages -%}
    {%- if loop.first and message['role'] != 'user' -%}
        {{- raise_exception('The conversation starts with the goal, a user message') -}}
    {%- endif -%}
    {%- if message['role'] == 'user' -%}
        {%- if loop.first -%}
            {{- '<goal>' + message['content'] -}}
        {%- else -%}
            {{- '<obs>' + message['content'] + '<act>' -}}
        {%- endif -%}
    {%- elif message['role'] == 'assistant' -%}
        {{- message['content'] + '</act>' -}}
    {%- else -%}
        {{- raise_exception('Unexpected role ' + message['role'] + ' (only user and assistant)') -}}
    {%- endif -%}
{%- endfor -%}
)";
}

std::string tokenizerConfigJson(const Tokenizer& tokenizer, std::int64_t modelMaxLength)
{
    json decoder = json::object();
    for (std::int32_t id = 0; id < Tokenizer::kSpecialCount; ++id) {
        json token = addedToken(tokenizer, id);
        token.erase("id");
        decoder[std::to_string(id)] = std::move(token);
    }
    // transformers writes the keys sorted.
    json j;
    j["added_tokens_decoder"] = std::move(decoder);
    j["additional_special_tokens"] = additionalSpecialTokens(tokenizer);
    j["bos_token"] = nullptr;
    j["chat_template"] = builtinChatTemplate();
    j["clean_up_tokenization_spaces"] = false;
    j["eos_token"] = tokenizer.token(Tokenizer::kEnd);
    j["model_max_length"] = modelMaxLength;
    j["pad_token"] = tokenizer.token(Tokenizer::kPad);
    j["tokenizer_class"] = "PreTrainedTokenizerFast";
    j["unk_token"] = tokenizer.token(Tokenizer::kUnk);
    return j.dump(2) + "\n";
}

std::string specialTokensMapJson(const Tokenizer& tokenizer)
{
    const json j = { { "additional_special_tokens", additionalSpecialTokens(tokenizer) },
        { "eos_token", tokenizer.token(Tokenizer::kEnd) }, { "pad_token", tokenizer.token(Tokenizer::kPad) },
        { "unk_token", tokenizer.token(Tokenizer::kUnk) } };
    return j.dump(2) + "\n";
}

void writeHfTokenizerFiles(const Tokenizer& tokenizer, const std::string& dir, std::int64_t modelMaxLength)
{
    namespace fs = std::filesystem;
    std::error_code error;
    if (!fs::is_directory(dir, error))
        throw std::runtime_error(dir + ": not a folder, cannot write the tokenizer files into it");
    const fs::path folder(dir);
    writeFileAtomically((folder / "tokenizer.json").string(), tokenizerJson(tokenizer));
    writeFileAtomically((folder / "tokenizer_config.json").string(), tokenizerConfigJson(tokenizer, modelMaxLength));
    writeFileAtomically((folder / "special_tokens_map.json").string(), specialTokensMapJson(tokenizer));
}

} // namespace creditlab::learn
