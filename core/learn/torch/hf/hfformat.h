#pragma once

// A pretrained chat model's episode format for the engine (TokenFormat over hf::ChatFormat): the goal and the
// observations are user messages, actions are assistant messages ending with the template's end of turn. Torch-free.

#include "core/hf/chatformat.h"
#include "core/hf/modelfolder.h"
#include "core/learn/torch/lm/tokenformat.h"

#include <string>

namespace creditlab::learn {

class HfFormat final : public TokenFormat {
public:
    explicit HfFormat(hf::ChatFormat format);
    /// The format of an opened folder: its tokenizer.json, its chat template, `systemPrompt` (empty: the template's
    /// default), generation_config.json's and config.json's EOS ids as extra stop tokens. Throws hf::HfError naming the
    /// file.
    static HfFormat load(const hf::ModelFolder& folder, const std::string& systemPrompt = {});

    std::int32_t vocabulary() const override { return m_format.tokenizer().size(); }
    std::vector<std::int32_t> goal(std::string_view text) const override { return m_format.goal(text); }
    ObservationChunk observation(std::string_view text, bool afterAction) const override;
    std::vector<std::int32_t> action(std::string_view text) const override;
    std::string actionText(std::span<const std::int32_t> ids) const override;
    const std::vector<std::int32_t>& stopTokens() const override { return m_format.stopTokens(); }
    std::string tokenText(std::int32_t id) const override;
    const hf::ChatFormat& chatFormat() const { return m_format; }

private:
    hf::ChatFormat m_format;
    std::vector<std::int32_t> m_leadAfterGoal, m_leadAfterAction, m_tail;
};

} // namespace creditlab::learn
