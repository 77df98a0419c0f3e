#include "core/hf/tokenizer.h"

#include "core/hf/addedtokens.h"
#include "core/hf/bpe.h" // BpeScratch
#include "core/hf/bytelevel.h"
#include "core/hf/error.h"
#include "core/hf/jsonnode.h"
#include "core/hf/pretokenizer.h"
#include "core/hf/tokenmodel.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace creditlab::hf {

namespace {

enum class TokenKind : std::uint8_t { None, Piece, Added, Special };

void checkByteLevelDecoder(const detail::JsonNode& node)
{
    if (node.isNull())
        node.fail("a byte-level BPE needs the ByteLevel decoder, found null");
    const detail::JsonNode type = node.at("type");
    if (type.string() == "Sequence") {
        const detail::JsonNode list = node.at("decoders");
        if (list.arraySize() == 0)
            list.fail("a byte-level BPE needs the ByteLevel decoder, found an empty Sequence");
        for (std::size_t i = 0; i < list.arraySize(); ++i)
            checkByteLevelDecoder(list[i]);
    } else if (type.string() != "ByteLevel") {
        type.fail("\"" + type.string() + "\" is not supported (only ByteLevel and Sequence)");
    }
}

// The separator decode() writes between the tokens of a model that is not byte-level: Fuse concatenates them; with no
// decoder, the Rust crate joins them with spaces.
std::string wordDecoderSeparator(const detail::JsonNode& node)
{
    if (node.isNull())
        return " ";
    const detail::JsonNode type = node.at("type");
    if (type.string() != "Fuse")
        type.fail("\"" + type.string() + "\" is not supported with a WordLevel model (only Fuse, or null)");
    return {};
}

// Working memory of encode(), one per thread.
struct EncodeScratch {
    detail::PreTokenizerScratch preTokenizer;
    detail::BpeScratch bpe;
    std::vector<detail::AddedSegment> raw;
    std::vector<detail::AddedSegment> normalized;
    std::vector<std::string_view> pieces;
};

} // namespace

struct Tokenizer::Impl {
    Impl(const detail::JsonNode& root, std::string sourceName)
        : source(std::move(sourceName))
        , model(detail::TokenModel::parse(root.at("model")))
        , normalizer(detail::Normalizer::parse(root.find("normalizer")))
        , preTokenizer(root.at("pre_tokenizer"), model->byteLevel())
        , added(root.find("added_tokens"), *model, normalizer)
    {
        for (const char* key : { "truncation", "padding" })
            if (const auto node = root.find(key))
                node->fail("must be null (truncation and padding are not supported)");
        if (model->byteLevel())
            checkByteLevelDecoder(root.at("decoder"));
        else
            decodeSeparator = wordDecoderSeparator(root.at("decoder"));
        size = model->idLimit();
        for (const AddedToken& token : added.tokens())
            size = std::max(size, token.id + 1);
        decodeBytes.resize(static_cast<std::size_t>(size));
        kinds.resize(static_cast<std::size_t>(size), TokenKind::None);
        // A byte-level token's characters stand for bytes (one with other characters for its own UTF-8); a word-level
        // token is its text.
        const auto bytesOf = [this](const std::string& text) {
            return model->byteLevel() ? detail::byteLevelToBytes(text).value_or(text) : text;
        };
        for (std::int32_t id = 0; id < model->idLimit(); ++id) {
            if (const std::string* text = model->text(id)) {
                decodeBytes[static_cast<std::size_t>(id)] = bytesOf(*text);
                kinds[static_cast<std::size_t>(id)] = TokenKind::Piece;
            }
        }
        for (const AddedToken& token : added.tokens()) {
            decodeBytes[static_cast<std::size_t>(token.id)] = bytesOf(token.content);
            kinds[static_cast<std::size_t>(token.id)] = token.special ? TokenKind::Special : TokenKind::Added;
        }
    }

    void encodeStretch(std::string_view text, EncodeScratch& scratch, std::vector<std::int32_t>& out) const
    {
        scratch.pieces.clear();
        preTokenizer.run(text, scratch.preTokenizer, scratch.pieces);
        for (const std::string_view piece : scratch.pieces)
            model->encodePiece(piece, scratch.bpe, out);
    }

    void checkId(std::int32_t id, const char* what) const
    {
        if (id < 0 || id >= size || kinds[static_cast<std::size_t>(id)] == TokenKind::None)
            throw HfError(source + ": " + what + ": id " + std::to_string(id) + " is not a token of this tokenizer");
    }

    std::string source;
    std::unique_ptr<const detail::TokenModel> model;
    detail::Normalizer normalizer;
    detail::PreTokenizer preTokenizer;
    detail::AddedVocabulary added;
    std::vector<std::string> decodeBytes; // by id: the bytes the decoder writes for the token
    std::string decodeSeparator; // between tokens: " " for a WordLevel model without a decoder
    std::vector<TokenKind> kinds; // by id
    std::int32_t size = 0;
};

// encode() of valid UTF-8 text.
static std::vector<std::int32_t> encodeValid(const Tokenizer::Impl& d, std::string_view text)
{
    thread_local EncodeScratch scratch;
    std::vector<std::int32_t> out;
    out.reserve(text.size() / 3 + 1);
    scratch.raw.clear();
    d.added.splitRaw(text, scratch.raw);
    std::string normalized;
    for (const detail::AddedSegment& segment : scratch.raw) {
        if (segment.id >= 0) {
            out.push_back(segment.id);
            continue;
        }
        std::string_view stretch = text.substr(segment.begin, segment.end - segment.begin);
        if (d.normalizer.apply(stretch, normalized))
            stretch = normalized;
        if (!d.added.hasNormalized()) {
            d.encodeStretch(stretch, scratch, out);
            continue;
        }
        scratch.normalized.clear();
        d.added.splitNormalized(stretch, scratch.normalized);
        for (const detail::AddedSegment& part : scratch.normalized) {
            if (part.id >= 0)
                out.push_back(part.id);
            else
                d.encodeStretch(stretch.substr(part.begin, part.end - part.begin), scratch, out);
        }
    }
    return out;
}

Tokenizer::Tokenizer(std::shared_ptr<const Impl> impl)
    : m_impl(std::move(impl))
{
}

Tokenizer Tokenizer::load(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw HfError(path + ": cannot open the file (" + std::strerror(errno) + ")");
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad())
        throw HfError(path + ": cannot read the file");
    return parse(text.str(), path);
}

Tokenizer Tokenizer::parse(std::string_view json, const std::string& source)
{
    const nlohmann::json document = detail::parseJson(json, source);
    const detail::JsonNode root(document, source);
    root.expectObject();
    return Tokenizer(std::make_shared<const Impl>(root, source));
}

std::vector<std::int32_t> Tokenizer::encode(std::string_view text) const
{
    const Impl& d = *m_impl;
    if (const std::size_t valid = detail::validUtf8Prefix(text); valid != text.size())
        throw HfError(d.source + ": encode: the text is not valid UTF-8 at byte " + std::to_string(valid));
    try {
        return encodeValid(d, text);
    } catch (const HfError& e) { // Oniguruma's retry limit on a pathological regex
        throw HfError(d.source + ": encode: " + e.what());
    }
}

std::string Tokenizer::decode(std::span<const std::int32_t> ids, bool skipSpecialTokens) const
{
    const Impl& d = *m_impl;
    std::string bytes;
    bool first = true;
    for (const std::int32_t id : ids) {
        d.checkId(id, "decode");
        if (skipSpecialTokens && d.kinds[static_cast<std::size_t>(id)] == TokenKind::Special)
            continue;
        if (!first)
            bytes += d.decodeSeparator;
        first = false;
        bytes += d.decodeBytes[static_cast<std::size_t>(id)];
    }
    return detail::lossyUtf8(bytes);
}

std::optional<std::int32_t> Tokenizer::tokenId(std::string_view token) const
{
    if (const auto id = m_impl->added.find(token))
        return id;
    return m_impl->model->find(token);
}

std::string Tokenizer::tokenText(std::int32_t id) const
{
    m_impl->checkId(id, "tokenText");
    if (const AddedToken* token = m_impl->added.byId(id))
        return token->content;
    return *m_impl->model->text(id);
}

std::int32_t Tokenizer::size() const { return m_impl->size; }

bool Tokenizer::isSpecial(std::int32_t id) const
{
    return id >= 0 && id < m_impl->size && m_impl->kinds[static_cast<std::size_t>(id)] == TokenKind::Special;
}

const std::vector<AddedToken>& Tokenizer::addedTokens() const { return m_impl->added.tokens(); }

std::string Tokenizer::describe() const
{
    const Impl& d = *m_impl;
    return d.model->describe() + ", " + detail::withThousands(d.added.tokens().size()) + " added tokens, "
        + d.normalizer.describe();
}

std::string Tokenizer::describePreTokenizer() const { return m_impl->preTokenizer.describe(); }

const std::string& Tokenizer::source() const { return m_impl->source; }

} // namespace creditlab::hf
