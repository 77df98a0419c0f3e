#include "core/hf/modelsummary.h"

#include "core/hf/chatformat.h"
#include "core/hf/chatrender.h"
#include "core/hf/error.h"
#include "core/hf/tokenizer.h"

namespace creditlab::hf {

std::uint64_t ModelSummary::weightBytes() const
{
    std::uint64_t bytes = 0;
    for (const WeightFileSummary& f : weights)
        bytes += f.bytes;
    return bytes;
}

ModelSummary summarizeModel(const ModelFolder& folder)
{
    ModelSummary s;
    s.folder = folder.path;
    s.config = folder.config;
    s.storedDType = folder.storedDType();
    s.generation = folder.generation;
    for (const auto& f : folder.checkpoint.files())
        s.weights.push_back({ f->path(), f->tensors().size(), f->fileSize() });
    std::optional<Tokenizer> tokenizer;
    if (!folder.tokenizerFile.empty()) {
        TokenizerSummary t;
        t.file = folder.tokenizerFile;
        try {
            tokenizer = Tokenizer::load(folder.tokenizerFile);
            t.size = tokenizer->size();
            t.description = tokenizer->describe();
        } catch (const HfError& e) {
            t.error = e.what();
        }
        s.tokenizer = std::move(t);
    }
    try {
        const ChatTemplateConfig chat = loadFolderChatTemplate(folder.path);
        s.chatTemplate.name = chat.name;
        s.chatTemplate.characters = chat.source.size();
        s.chatTemplate.eosToken = chat.tokens.eos;
        if (tokenizer) {
            // How episodes become a token stream, and whether that stream is what the template renders.
            const auto format = ChatFormat::build(*tokenizer, parseChatTemplate(chat, "chat template"), chat.tokens);
            const AppendCheck& check = format.appendCheck();
            ChatEpisodesSummary e { .appendOnly = check.appendOnly,
                .thinkOnly = check.thinkOnly,
                .difference = check.difference,
                .stopTokens = {} };
            for (const std::int32_t id : format.stopTokens())
                e.stopTokens.push_back(tokenizer->tokenText(id));
            s.chatEpisodes = std::move(e);
        }
    } catch (const HfError& e) {
        s.chatTemplate = { .name = {}, .characters = 0, .eosToken = std::nullopt, .error = e.what() };
    }
    return s;
}

const char* ropeTypeName(RopeScaling::Type type)
{
    switch (type) {
    case RopeScaling::Type::None:
        return "default";
    case RopeScaling::Type::Llama3:
        return "llama3";
    case RopeScaling::Type::Linear:
        return "linear";
    }
    return "?";
}

MemoryQuery runMemoryQuery(std::int64_t rows, std::int64_t context, const std::string& finetune, std::int64_t loraRank,
    const std::string& dtype, bool cuda, bool activationCheckpointing)
{
    const bool bf16 = dtype == "bfloat16" || (dtype == "auto" && cuda);
    return { .rows = rows,
        .context = context,
        .computeBytes = bf16 ? 2 : 4,
        .loraRank = finetune == "full" ? 0 : loraRank,
        .activationCheckpointing = activationCheckpointing };
}

} // namespace creditlab::hf
