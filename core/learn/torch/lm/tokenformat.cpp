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

std::string BuiltinFormat::tokenText(std::int32_t id) const
{
    if (id < 0 || id >= m_tokenizer.size())
        return "<id " + std::to_string(id) + ">";
    // A byte piece of a multi-byte character is not UTF-8 on its own: shown as \xNN.
    const std::string& piece = m_tokenizer.token(id);
    std::string out;
    for (std::size_t i = 0; i < piece.size();) {
        const auto c = static_cast<unsigned char>(piece[i]);
        // RFC 3629: no overlong forms, no surrogates, nothing past U+10FFFF.
        const std::size_t length = c < 0x80 ? 1
            : c >= 0xC2 && c <= 0xDF        ? 2
            : c >= 0xE0 && c <= 0xEF        ? 3
            : c >= 0xF0 && c <= 0xF4        ? 4
                                            : 0;
        bool valid = length > 0 && i + length <= piece.size();
        for (std::size_t k = 1; valid && k < length; ++k)
            valid = (static_cast<unsigned char>(piece[i + k]) & 0xC0) == 0x80;
        if (valid && length > 2) {
            const auto second = static_cast<unsigned char>(piece[i + 1]);
            valid = !(c == 0xE0 && second < 0xA0) && !(c == 0xED && second >= 0xA0) && !(c == 0xF0 && second < 0x90)
                && !(c == 0xF4 && second >= 0x90);
        }
        if (valid) {
            out.append(piece, i, length);
            i += length;
        } else {
            static constexpr char kHex[] = "0123456789ABCDEF";
            out += "\\x";
            out += kHex[c >> 4];
            out += kHex[c & 15];
            ++i;
        }
    }
    return out;
}

} // namespace creditlab::learn
