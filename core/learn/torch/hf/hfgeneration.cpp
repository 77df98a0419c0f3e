#include "core/learn/torch/hf/hfgeneration.h"

#include "core/hf/error.h"

#include <algorithm>

namespace creditlab::learn {

namespace {

/// Inverse-CDF picks (B, 1) from `probs` (B, N) with one uniform per row; never an entry of zero probability
/// (rounding at the top of the CDF can land past the last one with mass: it steps back to that one).
torch::Tensor pickInverseCdf(const torch::Tensor& probs, const std::vector<double>& uniforms)
{
    const auto cdf = probs.cumsum(-1);
    auto u = torch::tensor(uniforms, torch::kFloat64).to(cdf.device(), torch::kFloat32).unsqueeze(-1);
    u = u * cdf.narrow(-1, cdf.size(-1) - 1, 1);
    const auto index = (cdf <= u).sum(-1, true).clamp_max(cdf.size(-1) - 1);
    const auto lastWithMass = (probs > 0).to(torch::kInt64).cumsum(-1).argmax(-1, true);
    return torch::where(probs.gather(-1, index) > 0, index, lastWithMass);
}

} // namespace

std::pair<torch::Tensor, torch::Tensor> hfChooseTokens(
    const torch::Tensor& logitsIn, const HfSamplingOptions& options, const std::vector<double>& uniforms)
{
    auto logits = logitsIn.to(torch::kFloat32);
    const auto vocab = logits.size(-1);
    if (options.vocabLimit > 0 && options.vocabLimit < vocab)
        logits = torch::cat({ logits.narrow(-1, 0, options.vocabLimit),
                                torch::full({ logits.size(0), vocab - options.vocabLimit },
                                    -std::numeric_limits<float>::infinity(), logits.options()) },
            -1);
    if (options.greedy) {
        const auto tokens = logits.argmax(-1);
        const auto logProbs = torch::log_softmax(logits, -1).gather(-1, tokens.unsqueeze(-1)).squeeze(-1);
        return { tokens, logProbs.to(torch::kFloat64) };
    }
    if (!(options.temperature > 0))
        throw hf::HfError("sampling temperature must be positive");
    logits = logits / options.temperature;
    if (options.topK <= 0 && options.topP >= 1.0) { // the full distribution: no order needed
        const auto probs = torch::softmax(logits, -1);
        const auto tokens = pickInverseCdf(probs, uniforms);
        const auto logProbs = probs.gather(-1, tokens).clamp_min(1e-30).log().squeeze(-1);
        return { tokens.squeeze(-1), logProbs.to(torch::kFloat64) };
    }
    // Sorted descending once: top-k and top-p are prefixes of this order (ties by id, as a stable sort keeps them).
    torch::Tensor sorted, order;
    if (options.topK > 0 && options.topK < vocab) {
        std::tie(sorted, order) = logits.topk(options.topK, -1, true, true);
    } else {
        std::tie(sorted, order) = logits.sort(-1, true);
    }
    auto probs = torch::softmax(sorted, -1);
    if (options.topP < 1.0) {
        // Keep a token while the mass before it is below topP: the smallest prefix reaching topP.
        const auto before = probs.cumsum(-1) - probs;
        probs = probs.masked_fill(before >= options.topP, 0.0);
        probs = probs / probs.sum(-1, true);
    }
    const auto index = pickInverseCdf(probs, uniforms);
    const auto tokens = order.gather(-1, index).squeeze(-1);
    const auto logProbs = probs.gather(-1, index).squeeze(-1).clamp_min(1e-30).log();
    return { tokens, logProbs.to(torch::kFloat64) };
}

std::vector<HfGeneration> hfGenerate(HfDecoder& model, const std::vector<std::vector<std::int64_t>>& prompts,
    const HfSamplingOptions& options, Rng& rng, HfKvCache* cacheOut)
{
    const auto rows = static_cast<std::int64_t>(prompts.size());
    std::vector<HfGeneration> out(prompts.size());
    if (rows == 0 || options.maxNewTokens <= 0)
        return out;
    std::int64_t longest = 1;
    for (const auto& p : prompts)
        longest = std::max<std::int64_t>(longest, static_cast<std::int64_t>(p.size()));
    auto tokens = torch::zeros({ rows, longest }, torch::kInt64);
    auto valid = torch::zeros({ rows, longest }, torch::kBool);
    for (std::int64_t r = 0; r < rows; ++r) {
        const auto& p = prompts[r];
        if (p.empty())
            throw hf::HfError("prompt " + std::to_string(r + 1) + " is empty");
        const auto pad = longest - static_cast<std::int64_t>(p.size());
        for (std::size_t t = 0; t < p.size(); ++t) {
            tokens[r][pad + static_cast<std::int64_t>(t)] = p[t];
            valid[r][pad + static_cast<std::int64_t>(t)] = true;
        }
    }
    HfKvCache cache = model->makeCache(rows, longest + options.maxNewTokens);
    auto hidden = model->forward(tokens, valid, &cache);
    auto last = hidden.select(1, longest - 1);
    std::vector<bool> active(prompts.size(), true);
    std::vector<double> uniforms(prompts.size());
    for (std::int64_t step = 0; step < options.maxNewTokens; ++step) {
        for (auto& u : uniforms)
            u = rng.uniform();
        auto [chosen, logProbs] = hfChooseTokens(model->logits(last), options, uniforms);
        chosen = chosen.to(torch::kCPU);
        logProbs = logProbs.to(torch::kCPU);
        const auto* c = chosen.data_ptr<std::int64_t>();
        const auto* l = logProbs.data_ptr<double>();
        auto feedValid = torch::zeros({ rows, 1 }, torch::kBool);
        bool any = false;
        for (std::int64_t r = 0; r < rows; ++r) {
            if (!active[r])
                continue;
            out[r].tokens.push_back(c[r]);
            out[r].logProbs.push_back(l[r]);
            if (std::find(options.stopTokens.begin(), options.stopTokens.end(), c[r]) != options.stopTokens.end()) {
                out[r].stopped = true;
                active[r] = false;
            } else if (static_cast<std::int64_t>(out[r].tokens.size()) >= options.maxNewTokens) {
                active[r] = false;
            }
            // Every written token enters the cache, the last one too, so the cache holds the whole sequence.
            feedValid[r][0] = true;
            any = any || active[r];
        }
        hidden = model->forward(chosen.view({ rows, 1 }), feedValid, &cache);
        last = hidden.select(1, 0);
        if (!any)
            break;
    }
    if (cacheOut != nullptr)
        *cacheOut = std::move(cache);
    return out;
}

} // namespace creditlab::learn
