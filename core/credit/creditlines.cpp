#include "core/credit/creditlines.h"

#include "core/interchange/jsonscanner.h"

#include <charconv>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

namespace creditlab::credit {

namespace {

/// Appends the detail arrays of trajectory `i` as a JSON object.
void appendDetails(std::string& out, const CreditResult& r, std::size_t i)
{
    out += '{';
    bool firstColumn = true;
    for (const DetailColumn& c : r.details) {
        if (!firstColumn)
            out += ',';
        firstColumn = false;
        appendJsonString(out, c.name);
        out += ":[";
        for (std::size_t k = r.offsets[i]; k < r.offsets[i + 1]; ++k) {
            if (k > r.offsets[i])
                out += ',';
            if (c.isText)
                appendJsonString(out, c.text(k));
            else
                appendJsonNumber(out, c.numbers[k]);
        }
        out += ']';
    }
    out += '}';
}

/// The source's own index of a turn, as an importer of another trainer's dump keeps it first in the turn's kept
/// fields; nullopt for native turns.
std::optional<std::pair<std::string_view, std::int64_t>> sourceIndex(const Turn& turn)
{
    for (const std::string_view key : { std::string_view("message_index"), std::string_view("step_index") }) {
        const std::string prefix = "\"" + std::string(key) + "\":";
        if (turn.extra.compare(0, prefix.size(), prefix) != 0)
            continue;
        std::int64_t value = 0;
        const char* begin = turn.extra.data() + prefix.size();
        const char* end = turn.extra.data() + turn.extra.size();
        if (const auto [ptr, ec] = std::from_chars(begin, end, value); ec == std::errc() && (ptr == end || *ptr == ','))
            return std::make_pair(key, value);
    }
    return std::nullopt;
}

} // namespace

std::string creditJson(const Trajectory& t, const CreditResult& r, std::size_t i, bool details)
{
    std::string out = "{\"id\":";
    appendJsonString(out, t.id);
    out += ",\"advantages\":[";
    for (std::size_t k = r.offsets[i]; k < r.offsets[i + 1]; ++k) {
        if (k > r.offsets[i])
            out += ',';
        appendJsonNumber(out, r.advantages[k]);
    }
    out += ']';
    std::vector<std::int64_t> indices;
    std::string_view indexKey;
    for (const Turn& turn : t.turns) {
        const auto index = sourceIndex(turn);
        if (!index || (!indexKey.empty() && index->first != indexKey)) {
            indices.clear();
            break;
        }
        indexKey = index->first;
        indices.push_back(index->second);
    }
    if (!indices.empty() && indices.size() == r.offsets[i + 1] - r.offsets[i]) {
        out += ",\"";
        out += indexKey;
        out += "\":[";
        for (std::size_t k = 0; k < indices.size(); ++k) {
            if (k > 0)
                out += ',';
            out += std::to_string(indices[k]);
        }
        out += ']';
    }
    if (details) {
        out += ",\"details\":";
        appendDetails(out, r, i);
    }
    out += '}';
    return out;
}

} // namespace creditlab::credit
