#pragma once

// CreditLab's built-in tokenizer (tokenizer.h) as a Hugging Face tokenizer: tokenizer.json (a WordLevel model behind a
// Split pre-tokenizer whose regex cuts text into the same pieces), tokenizer_config.json with a chat template that
// renders an episode as BuiltinFormat's stream (tokenformat.h), and special_tokens_map.json. The Rust tokenizers
// crate and creditlab::hf::Tokenizer encode ASCII text with these files to the ids Tokenizer::encode gives, except
// text that spells a special token ("<goal>"), which they match as that token. Non-ASCII text differs: CreditLab
// splits it by bytes, Hugging Face by characters. docs/hf-tokenizers.md has the details. Torch-free.

#include "core/learn/torch/lm/tokenizer.h"

#include <cstdint>
#include <string>

namespace creditlab::learn {

/// The context written as tokenizer_config.json's model_max_length when the caller gives none: TransformerOptions'
/// default context.
constexpr std::int64_t kDefaultModelMaxLength = 384;

/// The pre-tokenizer regex (Oniguruma, as the Rust crate compiles it; JavaScript takes it too) that splits text into
/// the pieces of tokenizer format `formatVersion` (1 or 2); throws std::invalid_argument for another version.
std::string pieceRegex(int formatVersion);

/// tokenizer.json: the six special tokens as added tokens (ids 0 to 5, not normalized; all but <unk> marked special, so
/// that decode with skip_special_tokens gives Tokenizer::decode's text, "<unk>" included), no normalizer, a Split
/// pre-tokenizer on pieceRegex() (Isolated), a WordLevel model whose vocabulary holds every id (the specials too: the
/// Rust crate keeps an added token's id only when the model has it) with unk_token "<unk>", and the Fuse decoder. A
/// piece that is not valid UTF-8 (a lone byte of a multi-byte character; JSON cannot hold it) is left out, so its id
/// has no entry; such pieces sort last, so Hugging Face's vocabulary can be shorter than size(). Any thread.
std::string tokenizerJson(const Tokenizer& tokenizer);

/// A Jinja chat template that renders [user: goal, user: observation, assistant: action, user: observation, ...] as
/// "<goal>goal<obs>observation<act>action</act><obs>observation<act>...": BuiltinFormat's stream as text. The "<act>"
/// closes each observation, so add_generation_prompt adds nothing. A system message, or a conversation that does not
/// start with the goal (a user message), raises an exception.
std::string builtinChatTemplate();

/// tokenizer_config.json as transformers writes it for a PreTrainedTokenizerFast: added_tokens_decoder, the chat
/// template, pad "<pad>", unk "<unk>", eos "</act>" (the end of an action), no bos, `modelMaxLength`, no clean-up of
/// tokenization spaces.
std::string tokenizerConfigJson(const Tokenizer& tokenizer, std::int64_t modelMaxLength = kDefaultModelMaxLength);

/// special_tokens_map.json: pad, unk and eos, and "<goal>", "<obs>" and "<act>" as additional special tokens.
std::string specialTokensMapJson(const Tokenizer& tokenizer);

/// Writes tokenizer.json, tokenizer_config.json and special_tokens_map.json into the existing folder `dir`, each file
/// atomically. Throws std::runtime_error naming the folder or file that cannot be written. Any thread.
void writeHfTokenizerFiles(
    const Tokenizer& tokenizer, const std::string& dir, std::int64_t modelMaxLength = kDefaultModelMaxLength);

} // namespace creditlab::learn
