#include "core/hf/tokenmodel.h"

#include "core/hf/bpe.h"
#include "core/hf/jsonnode.h"
#include "core/hf/wordlevel.h"

namespace creditlab::hf::detail {

std::unique_ptr<const TokenModel> TokenModel::parse(const JsonNode& model)
{
    model.expectObject();
    const auto type = model.find("type");
    if (!type || type->string() == "BPE")
        return std::make_unique<BpeModel>(model);
    if (type->string() == "WordLevel")
        return std::make_unique<WordLevelModel>(model);
    type->fail("\"" + type->string() + "\" is not supported (only BPE and WordLevel)");
}

void readVocab(const JsonNode& vocab, std::vector<std::string>& texts, std::vector<bool>& present,
    const std::function<void(const std::string& piece, std::int32_t id)>& add)
{
    if (!vocab.value().is_object())
        vocab.fail("expected an object of pieces and their ids");
    constexpr std::int64_t kMaxId = kMaxTokenId;
    for (const auto& [piece, idValue] : vocab.value().items()) {
        if (!idValue.is_number_integer() || idValue.get<std::int64_t>() < 0 || idValue.get<std::int64_t>() > kMaxId)
            vocab.fail("the id of " + quoteForError(piece) + " is not an integer from 0 to " + std::to_string(kMaxId));
        const auto id = static_cast<std::int32_t>(idValue.get<std::int64_t>());
        if (static_cast<std::size_t>(id) >= texts.size()) {
            texts.resize(static_cast<std::size_t>(id) + 1);
            present.resize(static_cast<std::size_t>(id) + 1);
        }
        if (present[static_cast<std::size_t>(id)])
            vocab.fail("id " + std::to_string(id) + " is given to both "
                + quoteForError(texts[static_cast<std::size_t>(id)]) + " and " + quoteForError(piece));
        texts[static_cast<std::size_t>(id)] = piece;
        present[static_cast<std::size_t>(id)] = true;
        add(piece, id);
    }
}

std::string withThousands(std::size_t n)
{
    std::string digits = std::to_string(n);
    for (auto at = static_cast<std::ptrdiff_t>(digits.size()) - 3; at > 0; at -= 3)
        digits.insert(static_cast<std::size_t>(at), ",");
    return digits;
}

} // namespace creditlab::hf::detail
