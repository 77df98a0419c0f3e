#include "core/learn/torch/hf/hfmodel.h"

#include "core/hf/error.h"

#include <algorithm>
#include <cstdio>

namespace creditlab::learn {

HfDecoder loadHfDecoder(const hf::ModelFolder& folder, const HfLoadOptions& options)
{
    const torch::Dtype dtype = options.dtype.value_or(options.device.is_cuda() ? torch::kBFloat16 : torch::kFloat32);
    HfDecoder model(folder.config);
    model->to(options.device, dtype);
    model->loadWeights(folder.checkpoint);
    return model;
}

std::vector<std::vector<double>> scoreSequences(
    HfDecoder& model, const std::vector<std::vector<std::int64_t>>& sequences, std::int64_t batchTokens)
{
    torch::NoGradGuard noGrad;
    const bool wasTraining = model->is_training();
    model->eval();
    const std::int64_t vocab = model->config().vocabSize;
    for (std::size_t i = 0; i < sequences.size(); ++i)
        for (const std::int64_t id : sequences[i])
            if (id < 0 || id >= vocab)
                throw hf::HfError("sequence " + std::to_string(i + 1) + ": id " + std::to_string(id)
                    + " is outside the vocabulary (0.." + std::to_string(vocab - 1) + ")");
    std::vector<std::vector<double>> out(sequences.size());
    std::size_t begin = 0;
    while (begin < sequences.size()) {
        // Rows in input order until the padded batch would pass batchTokens.
        std::size_t end = begin;
        std::int64_t longest = 0;
        while (end < sequences.size()) {
            const auto len = static_cast<std::int64_t>(sequences[end].size());
            if (end > begin && std::max(longest, len) * static_cast<std::int64_t>(end - begin + 1) > batchTokens)
                break;
            longest = std::max(longest, len);
            ++end;
        }
        const auto rows = static_cast<std::int64_t>(end - begin);
        if (longest >= 2) {
            auto tokens = torch::zeros({ rows, longest }, torch::kInt64);
            auto valid = torch::zeros({ rows, longest }, torch::kBool);
            for (std::int64_t r = 0; r < rows; ++r) {
                const auto& seq = sequences[begin + r];
                for (std::size_t t = 0; t < seq.size(); ++t) {
                    tokens[r][static_cast<std::int64_t>(t)] = seq[t];
                    valid[r][static_cast<std::int64_t>(t)] = true;
                }
            }
            const auto hidden = model->forward(tokens, valid);
            const auto logProbs = torch::log_softmax(model->logits(hidden.narrow(1, 0, longest - 1)), -1);
            const auto targets = tokens.narrow(1, 1, longest - 1).to(logProbs.device()).unsqueeze(-1);
            const auto picked = logProbs.gather(-1, targets).squeeze(-1).to(torch::kCPU, torch::kFloat64).contiguous();
            const double* p = picked.data_ptr<double>();
            for (std::int64_t r = 0; r < rows; ++r) {
                const auto n = static_cast<std::int64_t>(sequences[begin + r].size());
                if (n >= 2)
                    out[begin + r].assign(p + r * (longest - 1), p + r * (longest - 1) + (n - 1));
            }
        }
        begin = end;
    }
    if (wasTraining)
        model->train();
    return out;
}

std::string formatLogProbs(const std::vector<double>& row)
{
    std::string text = "[";
    char buf[32];
    for (std::size_t i = 0; i < row.size(); ++i) {
        std::snprintf(buf, sizeof buf, "%s%.9g", i ? ", " : "", row[i]);
        text += buf;
    }
    return text + "]";
}

} // namespace creditlab::learn
