#include "core/learn/torch/lm/tokenformat.h"

#include <utility>

namespace creditlab::learn {

ObservationChunk observationChunk(const std::vector<std::int32_t>& observation)
{
    ObservationChunk chunk;
    chunk.ids.reserve(observation.size() + 2);
    chunk.ids.push_back(Tokenizer::kObs);
    chunk.ids.insert(chunk.ids.end(), observation.begin(), observation.end());
    chunk.ids.push_back(Tokenizer::kAct);
    chunk.lead = 1;
    chunk.tail = 1;
    return chunk;
}

BuiltinFormat::BuiltinFormat(Tokenizer tokenizer)
    : m_tokenizer(std::move(tokenizer))
{
}

std::vector<std::int32_t> BuiltinFormat::goal(std::string_view text) const
{
    std::vector<std::int32_t> ids { Tokenizer::kGoal };
    m_tokenizer.encode(text, ids);
    return ids;
}

ObservationChunk BuiltinFormat::observation(std::string_view text, bool /*afterAction*/) const
{
    return observationChunk(m_tokenizer.encode(text));
}

std::vector<std::int32_t> BuiltinFormat::action(std::string_view text) const
{
    std::vector<std::int32_t> ids = m_tokenizer.encode(text);
    ids.push_back(Tokenizer::kEnd);
    return ids;
}

std::string BuiltinFormat::actionText(std::span<const std::int32_t> ids) const
{
    std::vector<std::int32_t> body;
    body.reserve(ids.size());
    for (auto t : ids)
        if (t >= Tokenizer::kSpecialCount || t == Tokenizer::kUnk)
            body.push_back(t);
    return m_tokenizer.decode(body);
}

} // namespace creditlab::learn
