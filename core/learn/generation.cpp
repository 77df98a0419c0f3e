#include "core/learn/generation.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace creditlab::learn {

PaddedBatch padSequences(
    const std::vector<std::vector<std::int32_t>>& sequences, bool left, const torch::Device& device)
{
    std::size_t width = 0;
    for (const auto& s : sequences)
        width = std::max(width, s.size());
    const auto rows = static_cast<std::int64_t>(sequences.size());
    auto tokens = torch::zeros({ rows, static_cast<std::int64_t>(width) }, torch::kLong);
    auto valid = torch::zeros({ rows, static_cast<std::int64_t>(width) }, torch::kBool);
    auto* t = tokens.data_ptr<std::int64_t>();
    auto* v = valid.data_ptr<bool>();
    for (std::size_t r = 0; r < sequences.size(); ++r) {
        const auto& s = sequences[r];
        const std::size_t offset = left ? width - s.size() : 0;
        for (std::size_t i = 0; i < s.size(); ++i) {
            t[r * width + offset + i] = s[i];
            v[r * width + offset + i] = true;
        }
    }
    return { tokens.to(device), valid.to(device) };
}

std::int32_t sampleToken(
    const float* probs, std::int64_t vocab, double topP, Rng& rng, std::vector<std::int32_t>& scratch)
{
    if (topP >= 1.0) {
        double total = 0.0;
        for (std::int64_t i = 0; i < vocab; ++i)
            total += probs[i];
        double u = rng.uniform() * total;
        for (std::int64_t i = 0; i < vocab; ++i) {
            u -= probs[i];
            if (u < 0.0)
                return static_cast<std::int32_t>(i);
        }
        for (std::int64_t i = vocab - 1; i >= 0; --i) // rounding: the last token with mass
            if (probs[i] > 0.0F)
                return static_cast<std::int32_t>(i);
        return 0;
    }
    scratch.resize(static_cast<std::size_t>(vocab));
    std::iota(scratch.begin(), scratch.end(), 0);
    // Descending by probability, ties by id, so the nucleus is deterministic.
    std::sort(scratch.begin(), scratch.end(),
        [probs](std::int32_t a, std::int32_t b) { return probs[a] != probs[b] ? probs[a] > probs[b] : a < b; });
    double mass = 0.0;
    std::size_t keep = 0;
    while (keep < scratch.size()) {
        mass += probs[scratch[keep++]];
        if (mass >= topP)
            break;
    }
    double u = rng.uniform() * mass;
    for (std::size_t i = 0; i < keep; ++i) {
        u -= probs[scratch[i]];
        if (u < 0.0)
            return scratch[i];
    }
    return scratch[keep - 1];
}

std::vector<Generation> generate(Transformer& model, const std::vector<std::vector<std::int32_t>>& prompts,
    const SamplingOptions& options, Rng& rng, bool useCache)
{
    const auto device = model->parameters().front().device();
    const auto rows = static_cast<std::int64_t>(prompts.size());
    std::vector<Generation> out(prompts.size());
    if (prompts.empty())
        return out;
    auto batch = padSequences(prompts, true, device);
    const auto promptWidth = batch.tokens.size(1);
    std::vector<std::vector<std::int32_t>> sequences; // without a cache: the growing sequences
    KvCache cache;
    if (useCache)
        cache = model->makeCache(rows, promptWidth + options.maxTokens);
    else
        sequences = prompts;

    std::vector<bool> active(prompts.size(), true);
    std::vector<std::int32_t> scratch;
    auto output = model->forward(batch.tokens, batch.valid, useCache ? &cache : nullptr);
    auto last = output.hidden.select(1, promptWidth - 1);
    for (int step = 0; step < options.maxTokens; ++step) {
        auto logits = model->logits(last).to(torch::kFloat);
        std::vector<std::int32_t> chosen(prompts.size(), options.stopToken);
        if (options.greedy) {
            auto best = logits.argmax(-1).to(torch::kCPU);
            auto logProbs = torch::log_softmax(logits, -1).to(torch::kCPU).contiguous();
            const auto vocab = logProbs.size(1);
            for (std::int64_t r = 0; r < rows; ++r) {
                if (!active[r])
                    continue;
                chosen[r] = static_cast<std::int32_t>(best[r].item<std::int64_t>());
                out[r].logProb += logProbs.data_ptr<float>()[r * vocab + chosen[r]];
            }
        } else {
            auto probs = torch::softmax(logits / options.temperature, -1).to(torch::kCPU).contiguous();
            const auto vocab = probs.size(1);
            const float* p = probs.data_ptr<float>();
            for (std::int64_t r = 0; r < rows; ++r) {
                if (!active[r])
                    continue;
                chosen[r] = sampleToken(p + r * vocab, vocab, options.topP, rng, scratch);
                out[r].logProb += std::log(std::max(p[r * vocab + chosen[r]], 1e-30F));
            }
        }
        bool any = false;
        for (std::int64_t r = 0; r < rows; ++r) {
            if (!active[r])
                continue;
            out[r].tokens.push_back(chosen[r]);
            if (chosen[r] == options.stopToken) {
                out[r].stopped = true;
                active[r] = false;
            } else if (static_cast<int>(out[r].tokens.size()) >= options.maxTokens) {
                active[r] = false;
            }
            any = any || active[r];
        }
        if (!any)
            break;
        if (useCache) {
            std::vector<std::int64_t> next(prompts.size(), 0);
            std::vector<std::uint8_t> nextValid(prompts.size(), 0);
            for (std::int64_t r = 0; r < rows; ++r) {
                next[r] = active[r] ? chosen[r] : 0;
                nextValid[r] = active[r] ? 1 : 0;
            }
            auto nextTokens = torch::from_blob(next.data(), { rows, 1 }, torch::kLong).to(device);
            auto nextMask = torch::from_blob(nextValid.data(), { rows, 1 }, torch::kUInt8).to(torch::kBool).to(device);
            output = model->forward(nextTokens, nextMask, &cache);
            last = output.hidden.select(1, 0);
        } else {
            for (std::int64_t r = 0; r < rows; ++r)
                if (active[r])
                    sequences[r].push_back(chosen[r]);
            // Finished rows keep their last sequence; their output is ignored.
            auto grown = padSequences(sequences, true, device);
            output = model->forward(grown.tokens, grown.valid);
            last = output.hidden.select(1, grown.tokens.size(1) - 1);
        }
    }
    return out;
}

} // namespace creditlab::learn
