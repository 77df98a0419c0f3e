#pragma once

// A tiny random chat model folder written by the tests: writeTinyModel's weights, a byte-level BPE tokenizer.json
// (the 256 bytes, a few merges of household words, ChatML's <|im_start|> and <|im_end|>) and a ChatML template in
// tokenizer_config.json, with embedding rows padded past the tokenizer as Qwen's are. What a training run with
// policy.pretrained needs, in milliseconds. Torch-free.

#include "hftestutil.h"
#include "tinytokenizer.h"

#include <filesystem>
#include <string>

namespace creditlab::hftest {

/// ChatML as Qwen2.5 writes it, without the default system message.
inline const char* const kChatMlTemplate
    = "{%- for message in messages %}{{ '<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + "
      "'\\n' }}{%- endfor %}{%- if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{%- endif %}";

/// Writes the folder; `arch` one of the three architectures. Returns the tokenizer's size (the embedding has 5 more
/// rows).
inline int writeTinyChatModel(
    const std::filesystem::path& dir, const std::string& arch = "Qwen2ForCausalLM", unsigned seed = 1)
{
    const hf::test::Merges merges { { " ", "t" }, { " t", "o" }, { "g", "o" }, { " ", "1" }, { " ", "2" }, { " ", "c" },
        { " ", "s" }, { " ", "a" }, { " ", "d" }, { "e", "r" }, { "a", "n" }, { "o", "n" }, { "i", "n" }, { " t", "a" },
        { " ta", "k" }, { " tak", "e" } };
    const int specials = 256 + static_cast<int>(merges.size());
    nlohmann::json added = nlohmann::json::array();
    added.push_back(hf::test::addedToken(specials, "<|im_start|>", true));
    added.push_back(hf::test::addedToken(specials + 1, "<|im_end|>", true));
    const auto tokenizer = hf::test::tinyTokenizer(merges, hf::test::byteLevelPreTokenizer(), nullptr, added);
    std::filesystem::create_directories(dir);
    writeText(dir / "tokenizer.json", tokenizer.dump());
    nlohmann::json config { { "chat_template", kChatMlTemplate }, { "eos_token", "<|im_end|>" },
        { "pad_token", "<|im_end|>" }, { "bos_token", nullptr } };
    writeText(dir / "tokenizer_config.json", config.dump(2));
    const int size = specials + 2;
    writeTinyModel(dir, { .arch = arch, .vocab = size + 5 }, seed);
    // The end of turn is the EOS, as generation_config.json says for Qwen.
    auto model = nlohmann::ordered_json::parse(readText(dir / "config.json"));
    model["eos_token_id"] = specials + 1;
    model["bos_token_id"] = nullptr;
    model["max_position_embeddings"] = 1024; // an episode's stream
    writeText(dir / "config.json", model.dump(2));
    writeText(dir / "generation_config.json",
        nlohmann::json({ { "eos_token_id", { specials + 1 } }, { "temperature", 0.7 } }).dump(2));
    return size;
}

} // namespace creditlab::hftest
