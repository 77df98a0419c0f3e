// TurnRD (HAS §2.5–2.10, §2.13–2.14). Tags in comments: [paper] = the paper states it; [note] = the method note
// (shared/methods/has_turnrd.md) fixes it by inference; [choice] = the note's proposed default where the paper is
// silent.
// The network and its minibatch are in turnrdnet.h, the object's private state in turnrd_p.h. This file holds
// construction, the padded minibatch, the credit pass (Eq. 5) and the probes; turnrdtraining.cpp holds the loss and
// training, turnrdcheckpoint.cpp the checkpoint I/O.
#include "core/learn/torch/turnrd/turnrd.h"
#include "core/learn/torch/turnrd/turnrd_p.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace creditlab::learn {

TurnRd::Private::Private(const TurnRdOptions& o)
    : options(o)
    , device(o.device)
{
    auto init = at::make_generator<at::CPUGeneratorImpl>(mixSeed(o.seed, 1));
    net = TurnRdNet(o, init);
    net->to(device);
    optimizer = std::make_unique<torch::optim::AdamW>(
        net->parameters(), torch::optim::AdamWOptions(o.learningRate).weight_decay(o.weightDecay));
}

Batch TurnRd::Private::assemble(const std::vector<const TurnRdTrajectory*>& records,
    const std::vector<const std::vector<float>*>* goals, const std::vector<double>* weights) const
{
    const auto& o = options;
    const auto batch = static_cast<std::int64_t>(records.size());
    std::int64_t steps = 1;
    for (const auto* r : records) {
        if (r->turns < 1 || r->turns > o.maxTurns)
            throw std::invalid_argument("TurnRD: a trajectory has " + std::to_string(r->turns) + " turns; allowed 1.."
                + std::to_string(o.maxTurns));
        if (r->hidden.size() != static_cast<std::size_t>(r->turns * o.inputWidth))
            throw std::invalid_argument("TurnRD: hidden states are not turns × inputWidth");
        if (!r->progress.empty() && r->progress.size() != static_cast<std::size_t>(r->turns))
            throw std::invalid_argument("TurnRD: progress needs one value per turn");
        steps = std::max(steps, r->turns);
    }
    const auto f = torch::TensorOptions().dtype(torch::kFloat);
    Batch b;
    b.hidden = torch::zeros({ batch, steps, o.inputWidth }, f);
    b.valid = torch::zeros({ batch, steps }, torch::TensorOptions().dtype(torch::kBool));
    b.target = torch::zeros({ batch, steps }, f);
    b.targetMask = torch::zeros({ batch, steps }, f);
    b.hasTarget = torch::zeros({ batch }, f);
    b.reward = torch::zeros({ batch }, f);
    b.weight = torch::ones({ batch }, f);
    if (o.film)
        b.goal = torch::zeros({ batch, o.goalWidth }, f);
    auto* hidden = b.hidden.data_ptr<float>();
    auto* valid = b.valid.data_ptr<bool>();
    auto* target = b.target.data_ptr<float>();
    auto* targetMask = b.targetMask.data_ptr<float>();
    auto* hasTarget = b.hasTarget.data_ptr<float>();
    auto* reward = b.reward.data_ptr<float>();
    auto* weight = b.weight.data_ptr<float>();
    for (std::int64_t i = 0; i < batch; ++i) {
        const auto& r = *records[static_cast<std::size_t>(i)];
        std::copy(r.hidden.begin(), r.hidden.end(), hidden + i * steps * o.inputWidth);
        std::fill(valid + i * steps, valid + i * steps + r.turns, true);
        if (!r.progress.empty()) {
            std::copy(r.progress.begin(), r.progress.end(), target + i * steps);
            std::fill(targetMask + i * steps, targetMask + i * steps + r.turns, 1.0f);
            hasTarget[i] = 1.0f;
        }
        reward[i] = static_cast<float>(r.reward);
        b.rewards.push_back(r.reward);
        b.turns.push_back(r.turns);
        if (weights)
            weight[i] = static_cast<float>((*weights)[static_cast<std::size_t>(i)]);
        if (o.film) {
            const auto& goal = goals ? *(*goals)[static_cast<std::size_t>(i)] : r.goal;
            if (goal.size() != static_cast<std::size_t>(o.goalWidth))
                throw std::invalid_argument("TurnRD: the goal embedding must have goalWidth values");
            std::copy(goal.begin(), goal.end(), b.goal.data_ptr<float>() + i * o.goalWidth);
        }
    }
    for (auto* t : { &b.hidden, &b.valid, &b.goal, &b.reward, &b.target, &b.targetMask, &b.hasTarget, &b.weight })
        if (t->defined())
            *t = t->to(device);
    return b;
}

TurnRdCredit TurnRd::Private::creditOf(const Tensor& weightsCpu, const Tensor& valuesCpu, const Tensor& predictedCpu,
    std::int64_t row, std::int64_t turns, double reward) const
{
    TurnRdCredit c;
    const auto* w = weightsCpu.data_ptr<double>() + row * weightsCpu.size(1);
    const auto* v = valuesCpu.data_ptr<double>() + row * valuesCpu.size(1);
    c.attention.assign(w, w + turns);
    c.value.assign(v, v + turns);
    c.predictedReturn = predictedCpu.data_ptr<double>()[row];
    if (options.creditMode == TurnRdCreditMode::ValueProjection) {
        c.credit = turnRdValueProjection(c.value, reward, options.clamp);
    } else {
        double sum = 0.0;
        for (double x : c.attention)
            sum += x;
        for (double& x : c.attention)
            x /= sum; // float softmax sums to 1 within ~1e-7; renormalise so Σ r̂ = R holds in double
        for (double x : c.attention)
            c.credit.push_back(x * reward); // r̂_t = w_t · R [note §2.7 choice]
    }
    return c;
}

std::vector<double> turnRdValueProjection(const std::vector<double>& values, double reward, double clamp)
{
    // Eq. 5 [paper]: r̂_t = clip(V_t, −c, c) − (Σ_s clip(V_s, −c, c) − R)/T, so Σ_t r̂_t = R.
    std::vector<double> out;
    out.reserve(values.size());
    double sum = 0.0;
    for (double v : values) {
        out.push_back(std::clamp(v, -clamp, clamp));
        sum += out.back();
    }
    const double shift = values.empty() ? 0.0 : (sum - reward) / static_cast<double>(values.size());
    for (double& x : out)
        x -= shift;
    return out;
}

namespace {

/// Per-trajectory V-head error for the goal-shuffle probe (§2.13b) [choice]: the mean squared error against the
/// L_V targets where the record has progress, else (R̂ − R)².
Tensor sampleError(const Batch& b, const TurnRdNetImpl::Output& out)
{
    const auto withTarget = ((out.values - b.target).pow(2) * b.targetMask).sum(1) / b.targetMask.sum(1).clamp_min(1.0);
    return torch::where(b.hasTarget > 0, withTarget, (out.predicted - b.reward).pow(2));
}

Tensor toCpuDouble(const Tensor& t) { return t.detach().to(torch::kCPU, torch::kDouble).contiguous(); }

} // namespace

TurnRd::TurnRd(const TurnRdOptions& options)
{
    const auto& o = options;
    if (o.inputWidth < 1 || o.goalWidth < 1 || o.modelWidth < 1 || o.heads < 1 || o.layers < 0 || o.ffnWidth < 1
        || o.maxTurns < 1 || o.epochs < 0 || o.batchSize < 1 || !(o.dropout >= 0.0 && o.dropout < 1.0)
        || !(o.clamp > 0.0) || !(o.learningRate > 0.0))
        throw std::invalid_argument("TurnRD: an option is out of range (widths, heads, turns and batch must be "
                                    "positive, dropout in [0, 1), clamp and learning rate > 0)");
    try {
        d = std::make_unique<Private>(options);
    } catch (const c10::Error& e) {
        throw std::invalid_argument(
            "TurnRD: cannot build the model on device '" + o.device + "': " + e.what_without_backtrace());
    }
}

TurnRd::~TurnRd() = default;
TurnRd::TurnRd(TurnRd&&) noexcept = default;
TurnRd& TurnRd::operator=(TurnRd&&) noexcept = default;

const TurnRdOptions& TurnRd::options() const { return d->options; }

std::int64_t TurnRd::parameterCount() const
{
    std::int64_t count = 0;
    for (const auto& p : d->net->parameters())
        count += p.numel();
    return count;
}

std::int64_t TurnRd::roundsTrained() const { return d->rounds; }

std::vector<std::pair<std::string, std::vector<float>>> TurnRd::parameters() const
{
    std::vector<std::pair<std::string, std::vector<float>>> out;
    for (const auto& item : d->net->named_parameters()) {
        const Tensor flat = item.value().detach().to(torch::kCPU, torch::kFloat).contiguous().reshape({ -1 });
        out.emplace_back(item.key(), std::vector<float>(flat.data_ptr<float>(), flat.data_ptr<float>() + flat.numel()));
    }
    return out;
}

std::vector<TurnRdCredit> TurnRd::credit(const std::vector<TurnRdTrajectory>& trajectories) const
{
    torch::NoGradGuard noGrad;
    d->net->eval();
    std::vector<TurnRdCredit> out;
    out.reserve(trajectories.size());
    const auto size = trajectories.size();
    const auto step = static_cast<std::size_t>(std::max<std::int64_t>(1, d->options.batchSize));
    for (std::size_t start = 0; start < size; start += step) {
        std::vector<const TurnRdTrajectory*> records;
        for (std::size_t i = start; i < std::min(size, start + step); ++i)
            records.push_back(&trajectories[i]);
        const auto b = d->assemble(records, nullptr, nullptr);
        const auto o = d->net->forward(b.hidden, b.valid, b.goal, false, nullptr);
        const auto w = toCpuDouble(o.weights), v = toCpuDouble(o.values), p = toCpuDouble(o.predicted);
        for (std::size_t i = 0; i < records.size(); ++i)
            out.push_back(d->creditOf(w, v, p, static_cast<std::int64_t>(i), b.turns[i], b.rewards[i]));
    }
    return out;
}

TurnRdProbes TurnRd::Private::probe(const std::vector<const TurnRdTrajectory*>& records)
{
    torch::NoGradGuard noGrad;
    net->eval();
    const auto& o = options;
    const auto n = records.size();
    TurnRdProbes p;
    p.trajectories = static_cast<std::int64_t>(n);
    if (n == 0)
        return p;
    // A seeded permutation of the goals across the probe set (§2.13b) [choice].
    std::vector<std::size_t> perm(n);
    for (std::size_t i = 0; i < n; ++i)
        perm[i] = i;
    Rng rng(mixSeed(o.seed, 3));
    for (std::size_t i = n - 1; i > 0; --i)
        std::swap(perm[i], perm[rng.below(i + 1)]);
    double absDiff = 0.0, absValue = 0.0, mse = 0.0, mseShuffled = 0.0, gammaNorm = 0.0, betaNorm = 0.0;
    std::int64_t worse = 0;
    std::vector<double> predicted, rewards;
    const auto step = static_cast<std::size_t>(std::max<std::int64_t>(1, o.batchSize));
    for (std::size_t start = 0; start < n; start += step) {
        const std::vector<const TurnRdTrajectory*> batch(records.begin() + static_cast<std::ptrdiff_t>(start),
            records.begin() + static_cast<std::ptrdiff_t>(std::min(n, start + step)));
        std::vector<const std::vector<float>*> shuffledGoals;
        for (std::size_t i = start; i < std::min(n, start + step); ++i)
            shuffledGoals.push_back(&records[perm[i]]->goal);
        const auto b = assemble(batch, nullptr, nullptr);
        const auto out = net->forward(b.hidden, b.valid, b.goal, false, nullptr);
        const auto w = toCpuDouble(out.weights), v = toCpuDouble(out.values), pr = toCpuDouble(out.predicted);
        for (std::size_t i = 0; i < batch.size(); ++i) {
            const auto c = creditOf(w, v, pr, static_cast<std::int64_t>(i), b.turns[i], b.rewards[i]);
            double sum = 0.0;
            for (double x : c.credit)
                sum += x;
            p.conservationDrift = std::max(p.conservationDrift, std::abs(sum - b.rewards[i])); // §2.14
            predicted.push_back(c.predictedReturn);
            rewards.push_back(b.rewards[i]);
        }
        if (!o.film)
            continue;
        const auto valid = b.valid.to(out.values.scalar_type());
        const auto zeroed = net->forward(b.hidden, b.valid, b.goal, true, nullptr);
        absDiff += ((out.values - zeroed.values).abs() * valid).sum().item<double>();
        absValue += (out.values.abs() * valid).sum().item<double>();
        gammaNorm += out.deltaGamma.norm(2, { 1 }).sum().item<double>();
        betaNorm += out.beta.norm(2, { 1 }).sum().item<double>();
        const auto shuffledGoal = assemble(batch, &shuffledGoals, nullptr).goal;
        const auto shuffled = net->forward(b.hidden, b.valid, shuffledGoal, false, nullptr);
        const auto err = sampleError(b, out), errShuffled = sampleError(b, shuffled);
        mse += err.sum().item<double>();
        mseShuffled += errShuffled.sum().item<double>();
        worse += (errShuffled > err).sum().item<std::int64_t>();
    }
    std::int64_t concordant = 0;
    for (std::size_t i = 0; i < n; ++i) {
        p.returnMse += (predicted[i] - rewards[i]) * (predicted[i] - rewards[i]) / static_cast<double>(n);
        for (std::size_t j = 0; j < n; ++j)
            if (rewards[i] > rewards[j]) {
                ++p.rankPairs;
                concordant += predicted[i] > predicted[j] ? 1 : 0;
            }
    }
    p.rankAccuracy = p.rankPairs > 0 ? static_cast<double>(concordant) / static_cast<double>(p.rankPairs) : 0.0;
    if (o.film) {
        const auto count = static_cast<double>(n);
        p.deltaGammaNorm = gammaNorm / count;
        p.betaNorm = betaNorm / count;
        p.zeroFilmChange = absValue > 0 ? absDiff / absValue : 0.0;
        p.goalShuffleMseChange = mse > 0 ? (mseShuffled - mse) / mse : 0.0;
        p.goalShuffleWorseFraction = static_cast<double>(worse) / count;
    }
    return p;
}

TurnRdProbes TurnRd::probe(const std::vector<TurnRdTrajectory>& trajectories) const
{
    std::vector<const TurnRdTrajectory*> records;
    for (const auto& t : trajectories)
        records.push_back(&t);
    return d->probe(records);
}

double TurnRd::Private::meanDeltaGammaNorm(const std::vector<const TurnRdTrajectory*>& records)
{
    if (!options.film || records.empty())
        return 0.0;
    torch::NoGradGuard noGrad;
    auto goals = torch::empty({ static_cast<std::int64_t>(records.size()), options.goalWidth });
    for (std::size_t i = 0; i < records.size(); ++i) {
        if (records[i]->goal.size() != static_cast<std::size_t>(options.goalWidth))
            throw std::invalid_argument("TurnRD: the goal embedding must have goalWidth values");
        std::copy(records[i]->goal.begin(), records[i]->goal.end(),
            goals.data_ptr<float>() + static_cast<std::int64_t>(i) * options.goalWidth);
    }
    const auto deltaGamma = net->film(goals.to(device)).slice(1, 0, options.modelWidth);
    return deltaGamma.norm(2, { 1 }).mean().item<double>();
}

} // namespace creditlab::learn
