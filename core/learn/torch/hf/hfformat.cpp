#include "core/learn/torch/hf/hfformat.h"

#include "core/hf/chatrender.h"
#include "core/hf/error.h"

#include <algorithm>

namespace creditlab::learn {

HfFormat::HfFormat(hf::ChatFormat format)
    : m_format(std::move(format))
{
    const hf::Tokenizer& tokenizer = m_format.tokenizer();
    const hf::ChatPieces& pieces = m_format.pieces();
    m_leadAfterGoal = tokenizer.encode(pieces.leadAfterGoal);
    m_leadAfterAction = tokenizer.encode(pieces.leadAfterAction);
    m_tail = tokenizer.encode(pieces.generationPrompt);
}

HfFormat HfFormat::load(const hf::ModelFolder& folder, const std::string& systemPrompt)
{
    if (folder.tokenizerFile.empty())
        throw hf::HfError(folder.path
            + ": tokenizer.json is missing (CreditLab reads the fast tokenizer's file; "
              "transformers writes it with save_pretrained)");
    const hf::Tokenizer tokenizer = hf::Tokenizer::load(folder.tokenizerFile);
    const hf::ChatTemplateConfig chat = hf::loadFolderChatTemplate(folder.path);
    hf::ChatFormatOptions options;
    if (!systemPrompt.empty())
        options.systemPrompt = systemPrompt;
    std::vector<std::int64_t> eos = folder.config.eosTokenIds;
    if (folder.generation)
        eos.insert(eos.end(), folder.generation->eosTokenIds.begin(), folder.generation->eosTokenIds.end());
    for (const std::int64_t id : eos)
        if (id >= 0 && id < tokenizer.size())
            options.extraStopTokens.push_back(static_cast<std::int32_t>(id));
    return HfFormat(hf::ChatFormat::build(
        tokenizer, hf::parseChatTemplate(chat, "chat template (" + folder.path + ")"), chat.tokens, options));
}

ObservationChunk HfFormat::observation(std::string_view text, bool afterAction) const
{
    ObservationChunk chunk;
    chunk.ids = m_format.observation(text, afterAction);
    // The wrapper's own tokens, where the chunk's one tokenisation keeps them apart from the observation's.
    const auto& lead = afterAction ? m_leadAfterAction : m_leadAfterGoal;
    if (lead.size() + m_tail.size() <= chunk.ids.size()) {
        if (std::equal(lead.begin(), lead.end(), chunk.ids.begin()))
            chunk.lead = static_cast<std::int32_t>(lead.size());
        if (std::equal(m_tail.rbegin(), m_tail.rend(), chunk.ids.rbegin()))
            chunk.tail = static_cast<std::int32_t>(m_tail.size());
    }
    return chunk;
}

std::vector<std::int32_t> HfFormat::action(std::string_view text) const
{
    std::vector<std::int32_t> ids = m_format.tokenizer().encode(text);
    ids.push_back(m_format.endOfTurn());
    return ids;
}

std::string HfFormat::actionText(std::span<const std::int32_t> ids) const
{
    std::vector<std::int32_t> body;
    body.reserve(ids.size());
    for (const std::int32_t id : ids)
        if (std::find(stopTokens().begin(), stopTokens().end(), id) == stopTokens().end())
            body.push_back(id);
    return m_format.tokenizer().decode(body, true);
}

std::string HfFormat::tokenText(std::int32_t id) const
{
    // The ByteLevel decoder's text of the one token: " hello" for "Ġhello", U+FFFD for a piece of a UTF-8 sequence.
    const std::int32_t ids[] = { id };
    return m_format.tokenizer().decode(ids, false);
}

} // namespace creditlab::learn
