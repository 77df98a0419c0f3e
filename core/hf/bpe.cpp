#include "core/hf/bpe.h"

#include "core/hf/bytelevel.h"
#include "core/hf/jsonnode.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <unordered_map>

namespace creditlab::hf::detail {

namespace {

// The per-thread piece cache: pieces up to this length, emptied when it holds this many.
constexpr std::size_t kCachedPieceBytes = 64;
constexpr std::size_t kCacheEntries = 32768;

std::atomic<std::uint64_t> g_modelSerial { 0 };

struct StringHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view> {}(s); }
};
using StringMap = std::unordered_map<std::string, std::int32_t, StringHash, std::equal_to<>>;

// Open addressing over (left id, right id) → (rank, merged id); the hot lookup of the merge loop.
class MergeMap {
public:
    struct Value {
        std::int32_t rank;
        std::int32_t id;
    };

    void reserve(std::size_t count)
    {
        const std::size_t capacity = std::bit_ceil(std::max<std::size_t>(16, count * 2));
        m_keys.assign(capacity, kEmpty);
        m_values.assign(capacity, {});
        m_shift = 64 - std::countr_zero(capacity);
    }

    /// Inserts or, for a repeated pair, overwrites (the Rust crate keeps the last rank of a repeated merge).
    void insert(std::int32_t left, std::int32_t right, Value value)
    {
        const std::uint64_t key = pack(left, right);
        std::size_t slot = home(key);
        while (m_keys[slot] != kEmpty && m_keys[slot] != key)
            slot = (slot + 1) & (m_keys.size() - 1);
        m_keys[slot] = key;
        m_values[slot] = value;
    }

    const Value* find(std::int32_t left, std::int32_t right) const
    {
        const std::uint64_t key = pack(left, right);
        for (std::size_t slot = home(key);; slot = (slot + 1) & (m_keys.size() - 1)) {
            if (m_keys[slot] == key)
                return &m_values[slot];
            if (m_keys[slot] == kEmpty)
                return nullptr;
        }
    }

private:
    static constexpr std::uint64_t kEmpty = ~std::uint64_t { 0 };
    static std::uint64_t pack(std::int32_t left, std::int32_t right)
    {
        return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(left)) << 32) | static_cast<std::uint32_t>(right);
    }
    std::size_t home(std::uint64_t key) const
    {
        return static_cast<std::size_t>((key * 0x9E3779B97F4A7C15ULL) >> m_shift);
    }

    std::vector<std::uint64_t> m_keys;
    std::vector<Value> m_values;
    int m_shift = 60;
};

bool heapAfter(const BpeScratch::Candidate& a, const BpeScratch::Candidate& b)
{
    // std::*_heap keep the largest on top: "largest" here is the lowest rank, then the leftmost position.
    return a.rank != b.rank ? a.rank > b.rank : a.pos > b.pos;
}

} // namespace

struct BpeModel::Tables {
    StringMap textToId; // vocabulary text → id
    StringMap bytesToId; // raw bytes of the byte-level entries → id (ignore_merges looks pieces up here)
    MergeMap merges;
};

BpeModel::BpeModel(const JsonNode& model)
    : m_tables(std::make_unique<Tables>())
    , m_serial(++g_modelSerial)
{
    model.expectObject();
    if (const auto type = model.find("type"); type && type->string() != "BPE")
        type->fail("\"" + type->string() + "\" is not supported (only BPE)");
    if (const auto dropout = model.find("dropout");
        dropout && !(dropout->value().is_number() && dropout->value().get<double>() == 0.0))
        dropout->fail("BPE dropout is not supported");
    if (const auto unk = model.find("unk_token"))
        unk->fail("an unk_token is not supported (byte-level BPE has every byte)");
    for (const char* key : { "continuing_subword_prefix", "end_of_word_suffix" })
        if (const auto affix = model.find(key); affix && !affix->stringView().empty())
            affix->fail("a non-empty value is not supported");
    if (model.flag("byte_fallback", false))
        model.at("byte_fallback").fail("byte_fallback is not supported");
    m_ignoreMerges = model.flag("ignore_merges", false);
    parseVocab(model.at("vocab"));
    parseMerges(model.at("merges"));
}

BpeModel::~BpeModel() = default;
BpeModel::BpeModel(BpeModel&&) noexcept = default;

void BpeModel::parseVocab(const JsonNode& vocab)
{
    if (vocab.value().is_object())
        m_tables->textToId.reserve(vocab.value().size());
    readVocab(vocab, m_texts, m_present, [this](const std::string& piece, std::int32_t id) {
        m_tables->textToId.emplace(piece, id);
        if (auto bytes = byteLevelToBytes(piece))
            m_tables->bytesToId.emplace(std::move(*bytes), id);
    });
    m_pieceCount = static_cast<std::int32_t>(m_tables->textToId.size());
    for (int b = 0; b < 256; ++b) {
        const auto it = m_tables->bytesToId.find(std::string(1, static_cast<char>(b)));
        m_byteIds[static_cast<std::size_t>(b)] = it == m_tables->bytesToId.end() ? -1 : it->second;
    }
}

void BpeModel::parseMerges(const JsonNode& merges)
{
    const std::size_t count = merges.arraySize();
    m_mergeCount = count;
    m_tables->merges.reserve(count);
    for (std::size_t rank = 0; rank < count; ++rank) {
        const JsonNode entry = merges[rank];
        std::string_view left, right;
        const auto& value = entry.value();
        if (value.is_string()) {
            // "a b": exactly one space (the Rust crate splits on ' ' and wants two parts).
            const std::string_view line = value.get_ref<const std::string&>();
            const auto space = line.find(' ');
            if (space == std::string_view::npos || line.find(' ', space + 1) != std::string_view::npos)
                entry.fail("expected two pieces separated by one space, got " + quoteForError(value));
            left = line.substr(0, space);
            right = line.substr(space + 1);
        } else if (value.is_array() && value.size() == 2 && value[0].is_string() && value[1].is_string()) {
            left = value[0].get_ref<const std::string&>();
            right = value[1].get_ref<const std::string&>();
        } else {
            entry.fail("expected a string or a pair of strings");
        }
        const auto leftId = find(left);
        const auto rightId = find(right);
        const auto mergedId = find(std::string(left) + std::string(right));
        if (!leftId || !rightId || !mergedId) {
            const std::string missing = !leftId ? std::string(left)
                : !rightId                      ? std::string(right)
                                                : std::string(left) + std::string(right);
            entry.fail(quoteForError(missing) + " is not in the vocabulary");
        }
        m_tables->merges.insert(*leftId, *rightId, { static_cast<std::int32_t>(rank), *mergedId });
    }
}

std::optional<std::int32_t> BpeModel::find(std::string_view text) const
{
    const auto it = m_tables->textToId.find(text);
    if (it == m_tables->textToId.end())
        return std::nullopt;
    return it->second;
}

std::string BpeModel::describe() const
{
    return "byte-level BPE, " + withThousands(static_cast<std::size_t>(m_pieceCount)) + " pieces, "
        + withThousands(m_mergeCount) + " merges" + (m_ignoreMerges ? " (ignore_merges)" : "");
}

const std::string* BpeModel::text(std::int32_t id) const
{
    if (id < 0 || static_cast<std::size_t>(id) >= m_texts.size() || !m_present[static_cast<std::size_t>(id)])
        return nullptr;
    return &m_texts[static_cast<std::size_t>(id)];
}

void BpeModel::encodePiece(std::string_view piece, BpeScratch& scratch, std::vector<std::int32_t>& out) const
{
    if (piece.empty())
        return;
    if (m_ignoreMerges) {
        if (const auto it = m_tables->bytesToId.find(piece); it != m_tables->bytesToId.end()) {
            out.push_back(it->second);
            return;
        }
    }
    const bool cacheable = piece.size() > 1 && piece.size() <= kCachedPieceBytes;
    if (cacheable) {
        if (scratch.cacheOwner != m_serial || scratch.cache.size() >= kCacheEntries) {
            scratch.cache.clear();
            scratch.cachedIds.clear();
            scratch.cacheOwner = m_serial;
        }
        if (const auto it = scratch.cache.find(piece); it != scratch.cache.end()) {
            const auto first = scratch.cachedIds.begin() + it->second.offset;
            out.insert(out.end(), first, first + it->second.count);
            return;
        }
    }
    const std::size_t before = out.size();
    encodeUncached(piece, scratch, out);
    if (cacheable) {
        const auto offset = static_cast<std::uint32_t>(scratch.cachedIds.size());
        scratch.cachedIds.insert(scratch.cachedIds.end(), out.begin() + static_cast<std::ptrdiff_t>(before), out.end());
        scratch.cache.emplace(piece, BpeScratch::Cached { offset, static_cast<std::uint32_t>(out.size() - before) });
    }
}

void BpeModel::encodeUncached(std::string_view piece, BpeScratch& scratch, std::vector<std::int32_t>& out) const
{
    scratch.symbols.clear();
    for (const char byte : piece) {
        const std::int32_t id = m_byteIds[static_cast<unsigned char>(byte)];
        if (id < 0)
            continue;
        const auto pos = static_cast<std::int32_t>(scratch.symbols.size());
        scratch.symbols.push_back({ id, pos - 1, pos + 1 });
    }
    if (scratch.symbols.empty())
        return;
    scratch.symbols.back().next = -1;
    if (scratch.symbols.size() == 1) {
        out.push_back(scratch.symbols.front().id);
        return;
    }
    mergeAll(scratch, out);
}

void BpeModel::mergeAll(BpeScratch& scratch, std::vector<std::int32_t>& out) const
{
    auto& symbols = scratch.symbols;
    auto& heap = scratch.heap;
    const MergeMap& merges = m_tables->merges;
    heap.clear();
    for (std::size_t i = 0; i + 1 < symbols.size(); ++i)
        if (const auto* m = merges.find(symbols[i].id, symbols[i + 1].id))
            heap.push_back({ m->rank, static_cast<std::int32_t>(i), m->id });
    std::make_heap(heap.begin(), heap.end(), heapAfter);
    constexpr std::int32_t kRemoved = -1;
    while (!heap.empty()) {
        std::pop_heap(heap.begin(), heap.end(), heapAfter);
        const BpeScratch::Candidate top = heap.back();
        heap.pop_back();
        auto& left = symbols[static_cast<std::size_t>(top.pos)];
        if (left.id == kRemoved || left.next < 0)
            continue;
        auto& right = symbols[static_cast<std::size_t>(left.next)];
        // A stale entry: the pair at this position changed since it was queued (the Rust crate's check).
        const auto* current = merges.find(left.id, right.id);
        if (!current || current->id != top.id)
            continue;
        left.id = top.id;
        left.next = right.next;
        right.id = kRemoved;
        if (left.next >= 0)
            symbols[static_cast<std::size_t>(left.next)].prev = top.pos;
        if (left.prev >= 0) {
            if (const auto* m = merges.find(symbols[static_cast<std::size_t>(left.prev)].id, left.id)) {
                heap.push_back({ m->rank, left.prev, m->id });
                std::push_heap(heap.begin(), heap.end(), heapAfter);
            }
        }
        if (left.next >= 0) {
            if (const auto* m = merges.find(left.id, symbols[static_cast<std::size_t>(left.next)].id)) {
                heap.push_back({ m->rank, top.pos, m->id });
                std::push_heap(heap.begin(), heap.end(), heapAfter);
            }
        }
    }
    for (std::int32_t pos = 0; pos >= 0; pos = symbols[static_cast<std::size_t>(pos)].next)
        out.push_back(symbols[static_cast<std::size_t>(pos)].id);
}

} // namespace creditlab::hf::detail
