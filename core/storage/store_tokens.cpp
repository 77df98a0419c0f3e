// Store: token segments, a trained rollout's sequences as the update saw them (schema 9, the Tokens view).
#include "core/interchange/jsondoc.h"
#include "core/interchange/jsonscanner.h"
#include "core/storage/store.h"
#include "core/storage/store_p.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <limits>

namespace creditlab {

namespace {
static_assert(sizeof(float) == 4 && std::numeric_limits<float>::is_iec559, "float32 BLOBs");

/// One value per token as little-endian bytes.
template <typename T> std::string toBlob(const std::vector<T>& values)
{
    std::string out(values.size() * sizeof(T), '\0');
    for (std::size_t i = 0; i < values.size(); ++i) {
        std::array<char, sizeof(T)> bytes;
        std::memcpy(bytes.data(), &values[i], sizeof(T));
        if constexpr (std::endian::native == std::endian::big)
            std::reverse(bytes.begin(), bytes.end());
        std::memcpy(out.data() + i * sizeof(T), bytes.data(), sizeof(T));
    }
    return out;
}

template <typename T> std::vector<T> fromBlob(std::string_view blob)
{
    std::vector<T> out(blob.size() / sizeof(T));
    for (std::size_t i = 0; i < out.size(); ++i) {
        std::array<char, sizeof(T)> bytes;
        std::memcpy(bytes.data(), blob.data() + i * sizeof(T), sizeof(T));
        if constexpr (std::endian::native == std::endian::big)
            std::reverse(bytes.begin(), bytes.end());
        std::memcpy(&out[i], bytes.data(), sizeof(T));
    }
    return out;
}
} // namespace

void Store::writeTokenSegments(std::int64_t trajectoryRowId, std::span<const TokenSegment> segments)
{
    for (const TokenSegment& s : segments) {
        const std::size_t n = s.tokens.size();
        if (s.pieces.size() != n || s.turns.size() != n || s.mask.size() != n || s.behaviour.size() != n
            || s.current.size() != n || s.advantage.size() != n)
            throw StoreError(path() + ": token segment " + std::to_string(s.segment) + " of trajectory row "
                + std::to_string(trajectoryRowId) + ": its per-token arrays differ in length (" + std::to_string(n)
                + " tokens)");
    }
    detail::inTransaction(m_db, [&] {
        m_db.prepare("DELETE FROM token_segment WHERE trajectory_id = ?").bind(1, trajectoryRowId).exec();
        Statement st = m_db.prepare("INSERT INTO token_segment (trajectory_id, segment, tokens, pieces, turns, mask, "
                                    "behaviour, current, advantage) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)");
        std::string pieces;
        for (const TokenSegment& s : segments) {
            pieces.assign("[");
            for (std::size_t i = 0; i < s.pieces.size(); ++i) {
                if (i > 0)
                    pieces.push_back(',');
                appendJsonString(pieces, s.pieces[i]);
            }
            pieces.push_back(']');
            const std::string tokens = toBlob(s.tokens), turns = toBlob(s.turns), mask = toBlob(s.mask),
                              behaviour = toBlob(s.behaviour), current = toBlob(s.current),
                              advantage = toBlob(s.advantage);
            st.bind(1, trajectoryRowId).bind(2, s.segment).bindBlob(3, tokens).bind(4, pieces).bindBlob(5, turns);
            st.bindBlob(6, mask).bindBlob(7, behaviour).bindBlob(8, current).bindBlob(9, advantage);
            st.exec();
        }
    });
}

std::vector<TokenSegment> Store::tokenSegments(std::int64_t trajectoryRowId)
{
    Statement st = m_db.prepare("SELECT segment, tokens, pieces, turns, mask, behaviour, current, advantage "
                                "FROM token_segment WHERE trajectory_id = ? ORDER BY segment");
    st.bind(1, trajectoryRowId);
    std::vector<TokenSegment> out;
    JsonDoc doc;
    while (st.step()) {
        TokenSegment s;
        s.segment = static_cast<int>(st.columnInt(0));
        const auto damaged = [&](const char* column, const std::string& why) {
            return StoreError(path() + ": token_segment row (trajectory " + std::to_string(trajectoryRowId)
                + ", segment " + std::to_string(s.segment) + "), column " + column + ": " + why);
        };
        const std::string_view tokens = st.columnBlob(1);
        if (tokens.size() % 4 != 0)
            throw damaged("tokens", "a length that is not a whole number of int32 values");
        const std::size_t n = tokens.size() / 4;
        s.tokens = fromBlob<std::int32_t>(tokens);
        const auto sized = [&](const char* column, int c, std::size_t width) {
            const std::string_view blob = st.columnBlob(c);
            if (blob.size() != n * width)
                throw damaged(column,
                    std::to_string(blob.size()) + " bytes where " + std::to_string(n) + " tokens need "
                        + std::to_string(n * width));
            return blob;
        };
        s.turns = fromBlob<std::int32_t>(sized("turns", 3, 4));
        s.mask = fromBlob<std::uint8_t>(sized("mask", 4, 1));
        s.behaviour = fromBlob<float>(sized("behaviour", 5, 4));
        s.current = fromBlob<float>(sized("current", 6, 4));
        s.advantage = fromBlob<float>(sized("advantage", 7, 4));
        try {
            doc.parse(st.columnTextView(2));
        } catch (const JsonSyntaxError& error) {
            throw damaged("pieces", "not JSON (" + error.message + ")");
        }
        if (doc.kind(doc.root()) != JsonDoc::Kind::Array || doc.size(doc.root()) != n)
            throw damaged("pieces", "not a JSON array of " + std::to_string(n) + " strings");
        for (auto i = doc.first(doc.root()); i != JsonDoc::kNone; i = doc.next(doc.root(), i)) {
            if (doc.kind(i) != JsonDoc::Kind::String)
                throw damaged("pieces", "not a JSON array of " + std::to_string(n) + " strings");
            s.pieces.push_back(doc.string(i));
        }
        out.push_back(std::move(s));
    }
    return out;
}

} // namespace creditlab
