#include "core/learn/torch/pair/pairfeatures.h"

#include "core/learn/torch/lm/transformer.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace creditlab::learn {

std::vector<float> attentionStatistics(
    const AttentionMap& map, const TurnSpan& span, const AttentionStatOptions& options)
{
    if (span.start >= span.end || span.sequenceStart < 0 || span.sequenceStart > span.start || span.end > map.queries
        || span.end > map.keys)
        throw std::invalid_argument("attentionStatistics: the turn span is empty or outside the attention map");
    if (static_cast<std::int64_t>(map.data.size()) != map.heads * map.queries * map.keys)
        throw std::invalid_argument("attentionStatistics: the map's size does not match its shape");
    const auto heads = static_cast<std::size_t>(map.heads);
    std::vector<float> out(4 * heads, 0.0f);
    const double turnTokens = static_cast<double>(span.end - span.start);
    for (std::size_t h = 0; h < heads; ++h) {
        double maxSum = 0.0, stdSum = 0.0, prefixSum = 0.0, selfSum = 0.0;
        for (std::int64_t i = span.start; i < span.end; ++i) {
            const float* row = map.data.data() + (static_cast<std::int64_t>(h) * map.queries + i) * map.keys;
            // Keys of the cut sequence [sequenceStart, end); Causal stops at the query itself.
            const std::int64_t last = options.support == AttentionKeySupport::Causal ? i + 1 : span.end;
            double peak = 0.0, total = 0.0, prefix = 0.0, self = 0.0;
            for (std::int64_t k = span.sequenceStart; k < last; ++k) {
                const double a = row[k];
                peak = std::max(peak, a);
                total += a;
                (k < span.start ? prefix : self) += a;
            }
            const auto n = static_cast<double>(last - span.sequenceStart);
            const double mean = total / n;
            double squares = 0.0;
            for (std::int64_t k = span.sequenceStart; k < last; ++k) {
                const double dev = row[k] - mean;
                squares += dev * dev;
            }
            const double dof = options.stdEstimator == AttentionStdEstimator::Unbiased ? n - 1.0 : n;
            maxSum += peak;
            stdSum += dof > 0.0 ? std::sqrt(squares / dof) : 0.0;
            // Keys beyond the support carry zero weight (causal mask), so `total` is Σ_k α_i[k] over all keys.
            const double denominator = std::max(total, 1e-10);
            prefixSum += prefix / denominator;
            selfSum += self / denominator;
        }
        out[h] = static_cast<float>(maxSum / turnTokens);
        out[heads + h] = static_cast<float>(stdSum / turnTokens);
        out[2 * heads + h] = static_cast<float>(prefixSum / turnTokens);
        out[3 * heads + h] = static_cast<float>(selfSum / turnTokens);
    }
    return out;
}

namespace {

void append(std::vector<float>& out, const std::vector<float>& part)
{
    out.insert(out.end(), part.begin(), part.end());
}

/// The final `count` entries of a per-layer list (all of them when there are fewer).
std::size_t firstOfLast(std::size_t layers, std::size_t count) { return layers > count ? layers - count : 0; }

/// A (T, width) float CPU copy of one row's states.
torch::Tensor rowOnCpu(const torch::Tensor& t, std::int64_t row)
{
    return t[row].to(torch::kCPU, torch::kFloat).contiguous();
}

std::vector<float> tokenState(const torch::Tensor& states, std::int64_t position)
{
    const auto s = states[position];
    return { s.data_ptr<float>(), s.data_ptr<float>() + s.numel() };
}

std::vector<float> meanState(const torch::Tensor& states, const TurnSpan& span)
{
    const auto m = states.slice(0, span.start, span.end).mean(0).contiguous();
    return { m.data_ptr<float>(), m.data_ptr<float>() + m.numel() };
}

} // namespace

std::vector<float> pairFeatureVector(const TurnFeatures& f, PairFeatureType type)
{
    if (f.lastToken.empty() || f.layerLastToken.empty() || f.heads <= 0)
        throw std::invalid_argument("pairFeatureVector: empty turn features");
    const std::size_t layers = f.layerLastToken.size();
    const std::size_t perLayer = 4 * static_cast<std::size_t>(f.heads);
    const auto layerStats = [&](std::size_t l) {
        return std::vector<float>(f.attention.begin() + static_cast<std::ptrdiff_t>(l * perLayer),
            f.attention.begin() + static_cast<std::ptrdiff_t>((l + 1) * perLayer));
    };
    std::vector<float> out;
    switch (type) {
    case PairFeatureType::LastToken:
        return f.lastToken;
    case PairFeatureType::MeanPooled:
        return f.meanPooled;
    case PairFeatureType::MultiLayer:
        for (std::size_t l = firstOfLast(layers, 4); l < layers; ++l)
            append(out, f.layerLastToken[l]);
        return out;
    case PairFeatureType::Attention:
        return layerStats(layers - 1);
    case PairFeatureType::HiddenAttention:
        out = f.lastToken;
        append(out, layerStats(layers - 1));
        return out;
    case PairFeatureType::MultiAttention:
        return f.attention;
    case PairFeatureType::Lookback: {
        const auto heads = static_cast<std::ptrdiff_t>(f.heads);
        for (std::size_t l = firstOfLast(layers, 4); l < layers; ++l) {
            const auto stats = layerStats(l);
            out.insert(out.end(), stats.begin() + 2 * heads, stats.begin() + 3 * heads);
        }
        return out;
    }
    }
    return out;
}

probe::FeatureMatrix pairFeatureMatrix(const std::vector<TurnFeatures>& turns, PairFeatureType type)
{
    probe::FeatureMatrix m;
    for (const TurnFeatures& f : turns) {
        const std::vector<float> row = pairFeatureVector(f, type);
        m.appendRow(std::span<const float>(row));
    }
    return m;
}

std::vector<TurnFeatures> extractTurnFeatures(const TransformerOutput& output, std::int64_t row,
    const std::vector<TurnSpan>& spans, const AttentionStatOptions& options)
{
    const std::size_t layers = output.attention.size();
    if (layers == 0 || output.layerHidden.size() != layers || !output.hidden.defined())
        throw std::invalid_argument("extractTurnFeatures: the forward pass was run without keepInternals");
    if (row < 0 || row >= output.hidden.size(0))
        throw std::invalid_argument("extractTurnFeatures: no such batch row");
    const std::int64_t steps = output.hidden.size(1);
    for (const TurnSpan& span : spans)
        if (span.start >= span.end || span.end > steps || span.sequenceStart < 0 || span.sequenceStart > span.start)
            throw std::invalid_argument("extractTurnFeatures: a turn span is empty or outside the sequence");

    std::vector<TurnFeatures> features(spans.size());
    const torch::Tensor finalStates = rowOnCpu(output.hidden, row);
    const std::int64_t heads = output.attention.front().size(1);
    for (std::size_t s = 0; s < spans.size(); ++s) {
        features[s].lastToken = tokenState(finalStates, spans[s].end - 1);
        features[s].meanPooled = meanState(finalStates, spans[s]);
        features[s].heads = heads;
    }
    for (std::size_t l = 0; l < layers; ++l) {
        const torch::Tensor states = rowOnCpu(output.layerHidden[l], row);
        const torch::Tensor attention = rowOnCpu(output.attention[l], row); // (heads, T, keys)
        const AttentionMap map { std::span<const float>(
                                     attention.data_ptr<float>(), static_cast<std::size_t>(attention.numel())),
            attention.size(0), attention.size(1), attention.size(2) };
        for (std::size_t s = 0; s < spans.size(); ++s) {
            features[s].layerLastToken.push_back(tokenState(states, spans[s].end - 1));
            features[s].layerMeanPooled.push_back(meanState(states, spans[s]));
            append(features[s].attention, attentionStatistics(map, spans[s], options));
        }
    }
    return features;
}

std::vector<TurnFeatures> teacherForcedTurnFeatures(TransformerImpl& model, const std::vector<std::int32_t>& tokens,
    const std::vector<TurnSpan>& spans, const AttentionStatOptions& options)
{
    if (tokens.empty())
        throw std::invalid_argument("teacherForcedTurnFeatures: no tokens");
    torch::NoGradGuard noGrad;
    const auto device = model.parameters().front().device();
    const auto ids
        = torch::tensor(std::vector<std::int64_t>(tokens.begin(), tokens.end()), torch::kLong).unsqueeze(0).to(device);
    const auto valid = torch::ones_like(ids, torch::kBool);
    const TransformerOutput output = model.forward(ids, valid, nullptr, true);
    return extractTurnFeatures(output, 0, spans, options);
}

std::vector<TurnFeatures> batchedTurnFeatures(TransformerImpl& model, const std::vector<TurnSequence>& turns,
    std::size_t batchSize, const std::function<void(std::size_t done)>& afterBatch)
{
    if (batchSize < 1)
        throw std::invalid_argument("batchedTurnFeatures: batch size must be at least 1");
    torch::NoGradGuard noGrad;
    const auto device = model.parameters().front().device();
    std::vector<TurnFeatures> out;
    out.reserve(turns.size());
    for (std::size_t b = 0; b < turns.size(); b += batchSize) {
        const std::size_t e = std::min(turns.size(), b + batchSize);
        std::size_t longest = 0;
        for (std::size_t r = b; r < e; ++r)
            longest = std::max(longest, turns[r].tokens->size());
        if (e - b == 1) {
            // One sequence per pass: the plain teacher-forced path (the batched one must agree with it).
            const TurnSpan span { turns[b].spanStart, static_cast<std::int64_t>(longest), 0 };
            out.push_back(teacherForcedTurnFeatures(model, *turns[b].tokens, { span }).front());
        } else {
            const auto rows = static_cast<std::int64_t>(e - b);
            std::vector<std::int64_t> ids(static_cast<std::size_t>(rows) * longest, 0);
            std::vector<std::uint8_t> valid(ids.size(), 0);
            for (std::size_t r = b; r < e; ++r) {
                const auto& tokens = *turns[r].tokens;
                std::size_t at = (r - b) * longest + (longest - tokens.size());
                for (const auto t : tokens) {
                    ids[at] = t;
                    valid[at++] = 1;
                }
            }
            const auto width = static_cast<std::int64_t>(longest);
            const auto idTensor = torch::from_blob(ids.data(), { rows, width }, torch::kLong).to(device);
            const auto validTensor
                = torch::from_blob(valid.data(), { rows, width }, torch::kUInt8).to(torch::kBool).to(device);
            const TransformerOutput output = model.forward(idTensor, validTensor, nullptr, true);
            for (std::size_t r = b; r < e; ++r) {
                const auto pad = static_cast<std::int64_t>(longest - turns[r].tokens->size());
                const TurnSpan span { pad + turns[r].spanStart, width, pad };
                out.push_back(extractTurnFeatures(output, static_cast<std::int64_t>(r - b), { span }).front());
            }
        }
        if (afterBatch)
            afterBatch(e);
    }
    return out;
}

} // namespace creditlab::learn
