#include "core/learn/torch/lm/generation.h"

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

std::int32_t sampleToken(const float* probs, std::int64_t vocab, double topP, Rng& rng,
    std::vector<std::int32_t>& scratch, std::int64_t topK)
{
    const bool cutK = topK > 0 && topK < vocab;
    if (topP >= 1.0 && !cutK) {
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
    // Descending by probability, ties by id, so the nucleus is deterministic. With top-k only the first k are ordered.
    const auto byProbability
        = [probs](std::int32_t a, std::int32_t b) { return probs[a] != probs[b] ? probs[a] > probs[b] : a < b; };
    const std::size_t candidates = cutK ? static_cast<std::size_t>(topK) : scratch.size();
    if (cutK)
        std::partial_sort(
            scratch.begin(), scratch.begin() + static_cast<std::ptrdiff_t>(candidates), scratch.end(), byProbability);
    else
        std::sort(scratch.begin(), scratch.end(), byProbability);
    // transformers' order: the k most likely first, then the nucleus of their renormalised distribution.
    double kMass = 1.0; // the whole row's: the probabilities sum to 1
    if (cutK) {
        kMass = 0.0;
        for (std::size_t i = 0; i < candidates; ++i)
            kMass += probs[scratch[i]];
    }
    double mass = 0.0;
    std::size_t keep = 0;
    while (keep < candidates) {
        mass += probs[scratch[keep++]];
        if (mass >= topP * kMass)
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

namespace {
/// One decoding step for every active row: picks its token from `logits` (B, vocab) (greedy, or sampled at the
/// temperature with nucleus top-p), adds its log-probability, appends it, and ends a row at the stop token or at
/// maxTokens. `chosen` gets every row's token (the stop token for inactive rows). Returns whether any row is still
/// writing.
bool chooseTokens(const torch::Tensor& logitsIn, const SamplingOptions& options, Rng& rng, std::vector<bool>& active,
    std::vector<Generation>& out, std::vector<std::int32_t>& chosen, std::vector<std::int32_t>& scratch)
{
    const auto rows = static_cast<std::int64_t>(active.size());
    auto logits = logitsIn.to(torch::kFloat);
    if (options.vocabLimit > 0 && logits.size(-1) > options.vocabLimit)
        logits = logits.narrow(-1, 0, options.vocabLimit);
    chosen.assign(active.size(), options.stopTokens.empty() ? 0 : options.stopTokens.front());
    if (options.greedy) {
        auto best = logits.argmax(-1).to(torch::kCPU);
        auto logProbs = torch::log_softmax(logits, -1).to(torch::kCPU).contiguous();
        const auto vocab = logProbs.size(1);
        const auto* b = best.data_ptr<std::int64_t>();
        for (std::int64_t r = 0; r < rows; ++r) {
            if (!active[r])
                continue;
            chosen[r] = static_cast<std::int32_t>(b[r]);
            const float logProb = logProbs.data_ptr<float>()[r * vocab + chosen[r]];
            out[r].logProb += logProb;
            out[r].tokenLogProbs.push_back(logProb);
        }
    } else {
        auto probs = torch::softmax(logits / options.temperature, -1).to(torch::kCPU).contiguous();
        const auto vocab = probs.size(1);
        const float* p = probs.data_ptr<float>();
        for (std::int64_t r = 0; r < rows; ++r) {
            if (!active[r])
                continue;
            Rng& draws = options.rowRngs ? *(*options.rowRngs)[static_cast<std::size_t>(r)] : rng;
            chosen[r] = sampleToken(p + r * vocab, vocab, options.topP, draws, scratch, options.topK);
            const float logProb = std::log(std::max(p[r * vocab + chosen[r]], 1e-30F));
            out[r].logProb += logProb;
            out[r].tokenLogProbs.push_back(logProb);
        }
    }
    bool any = false;
    for (std::int64_t r = 0; r < rows; ++r) {
        if (!active[r])
            continue;
        out[r].tokens.push_back(chosen[r]);
        if (options.isStop(chosen[r])) {
            out[r].stopped = true;
            active[r] = false;
        } else if (static_cast<int>(out[r].tokens.size()) >= options.maxTokens) {
            active[r] = false;
        }
        any = any || active[r];
    }
    return any;
}
} // namespace

std::vector<Generation> sampleActions(Transformer& model, KvCache& cache, torch::Tensor last,
    const std::vector<bool>& rowsToSample, const SamplingOptions& options, Rng& rng, std::vector<std::int32_t>* fed)
{
    const auto device = model->parameters().front().device();
    const auto rows = static_cast<std::int64_t>(rowsToSample.size());
    std::vector<Generation> out(rowsToSample.size());
    std::vector<bool> active = rowsToSample;
    if (fed)
        fed->assign(rowsToSample.size(), 0);
    std::vector<std::int32_t> scratch;
    for (int step = 0; step < options.maxTokens; ++step) {
        std::vector<std::int32_t> chosen;
        const bool any = chooseTokens(model->logits(last), options, rng, active, out, chosen, scratch);
        if (!any)
            break;
        // Feed the tokens of the rows still writing; the others get a padding slot (not attended to).
        std::vector<std::int64_t> next(rowsToSample.size(), 0);
        std::vector<std::uint8_t> nextValid(rowsToSample.size(), 0);
        for (std::int64_t r = 0; r < rows; ++r) {
            next[r] = active[r] ? chosen[r] : 0;
            nextValid[r] = active[r] ? 1 : 0;
            if (fed && active[r])
                ++(*fed)[r];
        }
        auto nextTokens = torch::from_blob(next.data(), { rows, 1 }, torch::kLong).to(device);
        auto nextMask = torch::from_blob(nextValid.data(), { rows, 1 }, torch::kUInt8).to(torch::kBool).to(device);
        if (cache.length + 1 > cache.capacity)
            growCache(cache, cache.capacity + options.maxTokens);
        last = model->forward(nextTokens, nextMask, &cache).hidden.select(1, 0);
    }
    return out;
}

void growCache(KvCache& cache, std::int64_t capacity)
{
    using torch::indexing::Slice;
    if (capacity <= cache.capacity)
        return;
    for (auto* list : { &cache.keys, &cache.values })
        for (auto& t : *list) {
            // Slots past the length are written before they are read (forward() attends to [0, length + steps)).
            auto wider = torch::empty({ t.size(0), t.size(1), capacity, t.size(3) }, t.options());
            wider.index_put_(
                { Slice(), Slice(), Slice(0, cache.length) }, t.index({ Slice(), Slice(), Slice(0, cache.length) }));
            t = wider;
        }
    auto valid = torch::zeros({ cache.keyValid.size(0), capacity }, cache.keyValid.options());
    valid.index_put_({ Slice(), Slice(0, cache.length) }, cache.keyValid.index({ Slice(), Slice(0, cache.length) }));
    cache.keyValid = valid;
    cache.capacity = capacity;
}

void compactCache(KvCache& cache, const std::vector<std::int64_t>& keepRows)
{
    using torch::indexing::Slice;
    const auto device = cache.keyValid.device();
    auto rows = torch::tensor(keepRows, torch::TensorOptions(torch::kLong)).to(device);
    bool identity = static_cast<std::int64_t>(keepRows.size()) == cache.keyValid.size(0);
    for (std::size_t r = 0; identity && r < keepRows.size(); ++r)
        identity = keepRows[r] == static_cast<std::int64_t>(r);
    auto valid
        = cache.keyValid.index({ Slice(), Slice(0, cache.length) }).index_select(0, rows).to(torch::kCPU).contiguous();
    const auto n = valid.size(0);
    const auto length = valid.size(1);
    const bool* v = valid.data_ptr<bool>();
    std::int64_t longest = 0;
    std::vector<std::int64_t> counts(static_cast<std::size_t>(n), 0);
    for (std::int64_t r = 0; r < n; ++r) {
        for (std::int64_t k = 0; k < length; ++k)
            counts[r] += v[r * length + k] ? 1 : 0;
        longest = std::max(longest, counts[r]);
    }
    // Each row's valid slots moved to its front, in order (positions are stored, so order is all that matters).
    std::vector<std::int64_t> gather(static_cast<std::size_t>(n * std::max<std::int64_t>(longest, 1)), 0);
    std::vector<std::uint8_t> newValid(gather.size(), 0);
    const auto stride = std::max<std::int64_t>(longest, 1);
    for (std::int64_t r = 0; r < n; ++r) {
        std::int64_t c = 0;
        for (std::int64_t k = 0; k < length; ++k)
            if (v[r * length + k]) {
                gather[r * stride + c] = k;
                newValid[r * stride + c] = 1;
                ++c;
            }
    }
    const auto capacity = std::max(cache.capacity, longest);
    auto index = torch::from_blob(gather.data(), { n, stride }, torch::kLong).to(device);
    for (auto* list : { &cache.keys, &cache.values })
        for (auto& t : *list) {
            // Only the filled slots are read, and only the rows that stay (all of them when only padding goes).
            auto filled = t.narrow(2, 0, cache.length);
            auto picked = identity ? filled : filled.index_select(0, rows);
            const auto heads = picked.size(1), width = picked.size(3);
            auto idx = index.view({ n, 1, stride, 1 }).expand({ n, heads, stride, width });
            // Beyond each row's valid slots up to `stride` the gather repeats slot 0 (finite, masked); beyond
            // `stride` slots are written before they are read.
            auto compact = torch::empty({ n, heads, capacity, width }, t.options());
            compact.index_put_({ Slice(), Slice(), Slice(0, stride) }, picked.gather(2, idx));
            t = compact;
        }
    auto keyValid = torch::zeros({ n, capacity }, cache.keyValid.options());
    keyValid.index_put_({ Slice(), Slice(0, stride) },
        torch::from_blob(newValid.data(), { n, stride }, torch::kUInt8).to(torch::kBool).to(device));
    cache.keyValid = keyValid;
    cache.nextPosition = cache.nextPosition.index_select(0, rows);
    cache.length = longest;
}

void clearCacheRow(KvCache& cache, std::int64_t row)
{
    using torch::indexing::Slice;
    cache.keyValid.index_put_({ row, Slice() }, false);
    cache.nextPosition.index_put_({ row }, 0);
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
    if (useCache) {
        KvCache cache = model->makeCache(rows, promptWidth + options.maxTokens);
        auto last = model->forwardLast(batch.tokens, batch.valid, cache); // left-padded: the last column
        return sampleActions(model, cache, last, std::vector<bool>(prompts.size(), true), options, rng);
    }
    // Without a cache: the whole growing sequence at every step (the reference the cache is tested against).
    std::vector<std::vector<std::int32_t>> sequences = prompts;
    std::vector<bool> active(prompts.size(), true);
    std::vector<std::int32_t> scratch;
    auto last = model->forward(batch.tokens, batch.valid).hidden.select(1, promptWidth - 1);
    for (int step = 0; step < options.maxTokens; ++step) {
        std::vector<std::int32_t> chosen;
        const bool any = chooseTokens(model->logits(last), options, rng, active, out, chosen, scratch);
        if (!any)
            break;
        for (std::int64_t r = 0; r < rows; ++r)
            if (active[r])
                sequences[r].push_back(chosen[r]);
        // Finished rows keep their last sequence; their output is ignored.
        auto grown = padSequences(sequences, true, device);
        last = model->forward(grown.tokens, grown.valid).hidden.select(1, grown.tokens.size(1) - 1);
    }
    return out;
}

} // namespace creditlab::learn
