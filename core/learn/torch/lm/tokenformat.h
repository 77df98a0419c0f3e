#pragma once

// How an episode becomes tokens: the goal, each observation's chunk, the stop tokens, and the text of sampled
// actions. The engine (rollouts, demonstrations, learned credit) reads episodes only through this, so a built-in
// policy (CreditLab's tokenizer and markers) and a pretrained chat model (its tokenizer and chat template,
// core/learn/torch/hf/hfformat.h) run the same code. Torch-free.

#include "core/learn/torch/lm/tokenizer.h"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace creditlab::learn {

/// One observation's chunk of an episode stream: `ids` is `lead` wrapper tokens, the observation's own tokens, then
/// `tail` wrapper tokens (after which the policy writes its action). A stream that overflows cuts the observation's
/// own tokens only, and shows the scene (the first observation) without its tail.
struct ObservationChunk {
    std::vector<std::int32_t> ids;
    std::int32_t lead = 0;
    std::int32_t tail = 0;
};

class TokenFormat {
public:
    virtual ~TokenFormat() = default;
    /// Token ids are below this.
    virtual std::int32_t vocabulary() const = 0;
    /// The stream's start, ending with the goal.
    virtual std::vector<std::int32_t> goal(std::string_view text) const = 0;
    /// The chunk of an observation: after the goal (`afterAction` false) or after an action's stop token.
    virtual ObservationChunk observation(std::string_view text, bool afterAction) const = 0;
    /// An action as a demonstration writes it: its text's ids, then the stop token.
    virtual std::vector<std::int32_t> action(std::string_view text) const = 0;
    /// The text of sampled ids, the stop token and other special tokens dropped.
    virtual std::string actionText(std::span<const std::int32_t> ids) const = 0;
    /// Any of them ends an action; the first is the one demonstrations write.
    virtual const std::vector<std::int32_t>& stopTokens() const = 0;
    /// One token's text as a reader sees it (the Tokens view), special tokens spelled out; always valid UTF-8.
    virtual std::string tokenText(std::int32_t id) const = 0;
    /// The built-in tokenizer, or null for a pretrained model's format (window mode and the PAIR probe pipeline
    /// need it).
    virtual const Tokenizer* builtin() const { return nullptr; }
};

/// CreditLab's own format: "<goal> goal", "<obs> o <act>", actions ending with "</act>".
class BuiltinFormat final : public TokenFormat {
public:
    explicit BuiltinFormat(Tokenizer tokenizer);
    std::int32_t vocabulary() const override { return m_tokenizer.size(); }
    std::vector<std::int32_t> goal(std::string_view text) const override;
    ObservationChunk observation(std::string_view text, bool afterAction) const override;
    std::vector<std::int32_t> action(std::string_view text) const override;
    std::string actionText(std::span<const std::int32_t> ids) const override;
    const std::vector<std::int32_t>& stopTokens() const override { return m_stop; }
    std::string tokenText(std::int32_t id) const override;
    const Tokenizer* builtin() const override { return &m_tokenizer; }
    const Tokenizer& tokenizer() const { return m_tokenizer; }

private:
    Tokenizer m_tokenizer;
    std::vector<std::int32_t> m_stop { Tokenizer::kEnd };
};

/// "<obs> o <act>" for observation ids `o`: BuiltinFormat's chunk.
ObservationChunk observationChunk(const std::vector<std::int32_t>& observation);

} // namespace creditlab::learn
