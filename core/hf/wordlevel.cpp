#include "core/hf/wordlevel.h"

#include "core/hf/jsonnode.h"

namespace creditlab::hf::detail {

WordLevelModel::WordLevelModel(const JsonNode& model)
{
    const JsonNode vocab = model.at("vocab");
    if (vocab.value().is_object())
        m_ids.reserve(vocab.value().size());
    readVocab(
        vocab, m_texts, m_present, [this](const std::string& piece, std::int32_t id) { m_ids.emplace(piece, id); });
    const JsonNode unk = model.at("unk_token");
    const auto unkId = find(unk.stringView());
    if (!unkId)
        unk.fail(
            quoteForError(unk.value()) + " is not in the vocabulary (the Rust crate cannot encode an unknown piece)");
    m_unk = *unkId;
}

void WordLevelModel::encodePiece(std::string_view piece, BpeScratch&, std::vector<std::int32_t>& out) const
{
    if (piece.empty())
        return;
    out.push_back(find(piece).value_or(m_unk));
}

std::optional<std::int32_t> WordLevelModel::find(std::string_view text) const
{
    const auto it = m_ids.find(text);
    if (it == m_ids.end())
        return std::nullopt;
    return it->second;
}

const std::string* WordLevelModel::text(std::int32_t id) const
{
    if (id < 0 || static_cast<std::size_t>(id) >= m_texts.size() || !m_present[static_cast<std::size_t>(id)])
        return nullptr;
    return &m_texts[static_cast<std::size_t>(id)];
}

std::string WordLevelModel::describe() const
{
    return "word-level, " + withThousands(static_cast<std::size_t>(pieceCount())) + " pieces";
}

} // namespace creditlab::hf::detail
