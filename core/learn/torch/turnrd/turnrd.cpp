// TurnRD (HAS §2.5–2.10, §2.13–2.14). Tags in comments: [paper] = the paper states it; [note] = the method note
// (shared/methods/has_turnrd.md) fixes it by inference; [choice] = the note's proposed default where the paper is
// silent.
// The network and its minibatch are in turnrdnet.h; this file holds the loss, training, the probes and the
// checkpoint I/O.
#include "core/learn/torch/turnrd/turnrd.h"
#include "core/learn/torch/turnrd/turnrdnet.h"

#include "core/learn/api/rng.h"
#include "core/learn/torch/dist/dataparallel.h"
#include "core/learn/torch/lm/checkpoint.h"

#include <ATen/CPUGeneratorImpl.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <sstream>
#include <stdexcept>

namespace creditlab::learn {

using torch::Tensor;

namespace {

std::uint64_t mixSeed(std::uint64_t seed, std::uint64_t salt)
{
    Rng rng(seed ^ (salt * 0x9e3779b97f4a7c15ULL));
    return rng.next();
}

} // namespace

struct TurnRd::Private {
    TurnRdOptions options;
    torch::Device device;
    TurnRdNet net { nullptr };
    std::unique_ptr<torch::optim::AdamW> optimizer;
    std::int64_t rounds = 0;

    explicit Private(const TurnRdOptions& o)
        : options(o)
        , device(o.device)
    {
        auto init = at::make_generator<at::CPUGeneratorImpl>(mixSeed(o.seed, 1));
        net = TurnRdNet(o, init);
        net->to(device);
        optimizer = std::make_unique<torch::optim::AdamW>(
            net->parameters(), torch::optim::AdamWOptions(o.learningRate).weight_decay(o.weightDecay));
    }

    /// `goals[i]` overrides records[i]->goal when given (the goal-shuffle probe). `weights` = per-record ω.
    Batch assemble(const std::vector<const TurnRdTrajectory*>& records,
        const std::vector<const std::vector<float>*>* goals, const std::vector<double>* weights) const
    {
        const auto& o = options;
        const auto batch = static_cast<std::int64_t>(records.size());
        std::int64_t steps = 1;
        for (const auto* r : records) {
            if (r->turns < 1 || r->turns > o.maxTurns)
                throw std::invalid_argument("TurnRD: a trajectory has " + std::to_string(r->turns)
                    + " turns; allowed 1.." + std::to_string(o.maxTurns));
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

    /// §2.8 [paper terms, choice forms]: L = L_pred + λ_V·L_V + λ_rank·L_rank + λ_prog·L_prog, every term weighted
    /// per trajectory by `b.weight` (all 1 under recency sampling, ω under loss weighting).
    TurnRdLosses loss(const Batch& b, const TurnRdNetImpl::Output& out, Tensor& total) const
    {
        const auto& o = options;
        const auto sw = b.weight / b.weight.sum();
        const auto pred = (sw * (out.predicted - b.reward).pow(2)).sum(); // Eq. 7
        const auto zero = torch::zeros({}, b.reward.options());
        // Masked per-turn value loss against the dense progress reward y_t = Δp_t [choice], active turns only.
        const auto valueDen = (sw.unsqueeze(1) * b.targetMask).sum();
        const auto value = valueDen.item<double>() > 0
            ? (sw.unsqueeze(1) * b.targetMask * (out.values - b.target).pow(2)).sum() / valueDen
            : zero;
        // Within-batch hinge ranking on R̂ over pairs with R_i > R_j, margin 0.1 [paper terms, choice form].
        const auto pairs
            = (b.reward.unsqueeze(1) > b.reward.unsqueeze(0)).to(sw.scalar_type()) * sw.unsqueeze(1) * sw.unsqueeze(0);
        const auto pairDen = pairs.sum();
        const auto rank = pairDen.item<double>() > 0
            ? (pairs * torch::relu(o.rankMargin - (out.predicted.unsqueeze(1) - out.predicted.unsqueeze(0)))).sum()
                / pairDen
            : zero;
        // Progress prior: cross-entropy −Σ_t q_t log w_t, q_t ∝ |Δp_t| + ε_q on active turns [choice].
        auto q = (b.target.abs() + o.progressEpsilon) * b.targetMask;
        q = q / q.sum(1, true).clamp_min(1e-12);
        const auto logW = torch::log_softmax(out.logits, 1).masked_fill(b.valid.logical_not(), 0.0);
        const auto progressDen = (sw * b.hasTarget).sum();
        const auto progress
            = progressDen.item<double>() > 0 ? (sw * b.hasTarget * -(q * logW).sum(1)).sum() / progressDen : zero;
        total = pred + o.lambdaValue * value + o.lambdaRank * rank + o.lambdaProgress * progress;
        return { total.item<double>(), pred.item<double>(), value.item<double>(), rank.item<double>(),
            progress.item<double>() };
    }

    /// One data-parallel minibatch (trainRound with several ranks): this rank's share of `b`'s rows forward and
    /// backward, with every term normalised as loss() normalises it over all of `b`, then the gradients summed over
    /// the ranks. Returns the whole minibatch's terms, the same on every rank.
    TurnRdLosses shardedBackward(const Batch& b, dist::Communicator& comm, at::Generator* dropout)
    {
        const auto& o = options;
        const auto n = b.reward.size(0);
        const auto [first, end] = dist::shareOf(static_cast<std::size_t>(n), comm.rank(), comm.world());
        const auto lo = static_cast<std::int64_t>(first), own = static_cast<std::int64_t>(end - first);
        const auto mine = [&](const Tensor& t) { return t.defined() ? t.narrow(0, lo, own) : t; };
        // Rows of the padded minibatch (its padded length too), and the masks one process would draw for them.
        const auto out = net->forward(mine(b.hidden), mine(b.valid), mine(b.goal), false, dropout, { lo, n });
        const auto sw = b.weight / b.weight.sum(); // the whole minibatch's weights, as in loss()
        const auto swMine = mine(sw), reward = mine(b.reward), target = mine(b.target), targetMask = mine(b.targetMask);
        const auto zero = torch::zeros({}, b.reward.options());
        const auto pred = (swMine * (out.predicted - reward).pow(2)).sum(); // Eq. 7, this rank's trajectories
        const auto valueDen = (sw.unsqueeze(1) * b.targetMask).sum();
        const auto value = valueDen.item<double>() > 0
            ? (swMine.unsqueeze(1) * targetMask * (out.values - target).pow(2)).sum() / valueDen
            : zero;
        auto q = (target.abs() + o.progressEpsilon) * targetMask;
        q = q / q.sum(1, true).clamp_min(1e-12);
        const auto logW = torch::log_softmax(out.logits, 1).masked_fill(mine(b.valid).logical_not(), 0.0);
        const auto progressDen = (sw * b.hasTarget).sum();
        const auto progress = progressDen.item<double>() > 0
            ? (swMine * mine(b.hasTarget) * -(q * logW).sum(1)).sum() / progressDen
            : zero;
        // The ranking term pairs trajectories of different ranks. Every rank gathers the detached R̂ of the whole
        // minibatch (summed into zeros: exact), takes the term's gradient g = ∂L_rank/∂R̂ there (the same on every
        // rank), and backpropagates Σ_i g_i·R̂_i over its own i: summed over the ranks, that is L_rank's gradient.
        std::vector<Tensor> gathered { torch::zeros({ n }, torch::kFloat) };
        gathered[0].narrow(0, lo, own).copy_(out.predicted.detach().to(torch::kCPU, torch::kFloat));
        comm.allreduce(gathered);
        const auto predicted = gathered[0].to(b.reward.device(), b.reward.scalar_type()).requires_grad_(true);
        const auto pairs
            = (b.reward.unsqueeze(1) > b.reward.unsqueeze(0)).to(sw.scalar_type()) * sw.unsqueeze(1) * sw.unsqueeze(0);
        const auto pairDen = pairs.sum();
        double rank = 0.0;
        auto surrogate = zero;
        if (pairDen.item<double>() > 0) {
            const auto rankLoss
                = (pairs * torch::relu(o.rankMargin - (predicted.unsqueeze(1) - predicted.unsqueeze(0)))).sum()
                / pairDen;
            const auto g = torch::autograd::grad({ rankLoss }, { predicted })[0];
            surrogate = (g.narrow(0, lo, own) * out.predicted).sum();
            rank = rankLoss.item<double>();
        }
        const auto total = pred + o.lambdaValue * value + o.lambdaRank * surrogate + o.lambdaProgress * progress;
        total.backward();
        dist::allreduceGradients(comm, net->parameters(), 1.0);
        std::vector<double> terms { pred.item<double>(), value.item<double>(), progress.item<double>() };
        dist::allreduceSum(comm, terms);
        return { terms[0] + o.lambdaValue * terms[1] + o.lambdaRank * rank + o.lambdaProgress * terms[2], terms[0],
            terms[1], rank, terms[2] };
    }

    /// The §2.13/§2.14 probes (eval mode, no gradients).
    TurnRdProbes probe(const std::vector<const TurnRdTrajectory*>& records);
    /// Mean ‖Δγ‖₂ over the records' goals: the FiLM projector alone, cheap.
    double meanDeltaGammaNorm(const std::vector<const TurnRdTrajectory*>& records)
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

    /// Eq. 5 or the attention credit for one row of a forward pass, in double.
    TurnRdCredit creditOf(const Tensor& weightsCpu, const Tensor& valuesCpu, const Tensor& predictedCpu,
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
};

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

const char* const kHeaderKey = "turnrd_header";
constexpr int kFormatVersion = 1;

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

TurnRdRoundStats TurnRd::trainRound(const TurnRdReplay& replay, std::int64_t currentRound,
    const std::function<bool(const TurnRdProgress&)>& progress, dist::Communicator* comm)
{
    const bool shared = comm && comm->world() > 1;
    const auto started = std::chrono::steady_clock::now();
    const auto& o = d->options;
    TurnRdRoundStats s;
    s.round = currentRound;
    const auto& records = replay.records();
    const auto n = records.size();
    // Probe set: the latest round's records, the newest `probeTrajectories` of them [choice].
    std::vector<const TurnRdTrajectory*> probeSet;
    for (auto it = records.rbegin(); it != records.rend(); ++it)
        if (it->round == replay.latestRound() && static_cast<std::int64_t>(probeSet.size()) < o.probeTrajectories)
            probeSet.push_back(&*it);
    const double gammaBefore = d->meanDeltaGammaNorm(probeSet);

    // Every round draws from its own seeded streams, so a run is reproducible from the seed and the round count.
    Rng rng(mixSeed(o.seed, 100 + static_cast<std::uint64_t>(d->rounds)));
    auto dropout
        = at::make_generator<at::CPUGeneratorImpl>(mixSeed(o.seed, 200 + static_cast<std::uint64_t>(d->rounds)));
    const auto omega = replay.weights(currentRound); // §2.9
    std::vector<double> cumulative(n);
    double acc = 0.0;
    for (std::size_t i = 0; i < n; ++i)
        cumulative[i] = (acc += omega[i]);
    const auto batchSize = static_cast<std::size_t>(std::max<std::int64_t>(1, o.batchSize));
    const auto stepsPerEpoch = static_cast<std::int64_t>((n + batchSize - 1) / batchSize);
    d->net->train();
    for (std::int64_t epoch = 0; epoch < o.epochs && n > 0 && !s.cancelled; ++epoch) {
        std::vector<std::size_t> order(n);
        if (o.recency == TurnRdRecency::Sampling) {
            // "Recency-weighted minibatches" [paper]: n draws with replacement ∝ ω [choice].
            for (auto& index : order)
                index = std::min<std::size_t>(n - 1,
                    static_cast<std::size_t>(std::upper_bound(cumulative.begin(), cumulative.end(), rng.uniform() * acc)
                        - cumulative.begin()));
        } else {
            for (std::size_t i = 0; i < n; ++i)
                order[i] = i;
            for (std::size_t i = n - 1; i > 0; --i)
                std::swap(order[i], order[rng.below(i + 1)]);
        }
        TurnRdLosses sum;
        std::int64_t steps = 0;
        for (std::size_t start = 0; start < n; start += batchSize) {
            std::vector<const TurnRdTrajectory*> batch;
            std::vector<double> weights;
            for (std::size_t i = start; i < std::min(n, start + batchSize); ++i) {
                batch.push_back(&records[order[i]]);
                weights.push_back(o.recency == TurnRdRecency::LossWeighting ? omega[order[i]] : 1.0);
            }
            const auto b = d->assemble(batch, nullptr, &weights);
            TurnRdLosses terms;
            if (shared) {
                d->optimizer->zero_grad();
                terms = d->shardedBackward(b, *comm, &dropout);
            } else {
                const auto out = d->net->forward(b.hidden, b.valid, b.goal, false, &dropout);
                Tensor total;
                terms = d->loss(b, out, total);
                d->optimizer->zero_grad();
                total.backward();
            }
            s.gradNorm = torch::nn::utils::clip_grad_norm_(d->net->parameters(), o.gradClip);
            d->optimizer->step();
            sum.total += terms.total;
            sum.pred += terms.pred;
            sum.value += terms.value;
            sum.rank += terms.rank;
            sum.progress += terms.progress;
            ++steps;
            ++s.steps;
            s.samples += static_cast<std::int64_t>(batch.size());
            if (progress && !progress({ epoch, steps, stepsPerEpoch, terms.total })) {
                s.cancelled = true;
                break;
            }
        }
        const auto k = static_cast<double>(std::max<std::int64_t>(1, steps));
        s.epochs.push_back({ sum.total / k, sum.pred / k, sum.value / k, sum.rank / k, sum.progress / k });
    }
    d->net->eval();
    ++d->rounds;
    if (!s.epochs.empty())
        s.last = s.epochs.back();
    s.probes = d->probe(probeSet);
    s.deltaGammaChange = s.probes.deltaGammaNorm - gammaBefore;
    s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return s;
}

namespace {

std::string headerText(const TurnRdOptions& o, std::int64_t rounds)
{
    std::ostringstream out;
    out.precision(17);
    out << "format " << kFormatVersion << "\ninput_width " << o.inputWidth << "\ngoal_width " << o.goalWidth
        << "\nmodel_width " << o.modelWidth << "\nheads " << o.heads << "\nlayers " << o.layers << "\nffn_width "
        << o.ffnWidth << "\nmax_turns " << o.maxTurns << "\ndropout " << o.dropout << "\nfilm " << (o.film ? 1 : 0)
        << "\nseparate_head_film " << (o.separateHeadFilm ? 1 : 0) << "\ncredit_mode " << static_cast<int>(o.creditMode)
        << "\nclamp " << o.clamp << "\nlambda_value " << o.lambdaValue << "\nlambda_rank " << o.lambdaRank
        << "\nlambda_progress " << o.lambdaProgress << "\nrank_margin " << o.rankMargin << "\nprogress_epsilon "
        << o.progressEpsilon << "\nlearning_rate " << o.learningRate << "\nweight_decay " << o.weightDecay
        << "\nepochs " << o.epochs << "\nbatch_size " << o.batchSize << "\ngrad_clip " << o.gradClip << "\nrecency "
        << static_cast<int>(o.recency) << "\nprobe_trajectories " << o.probeTrajectories << "\nseed " << o.seed
        << "\ndevice " << o.device << "\nrounds " << rounds << "\n";
    return out.str();
}

TurnRdOptions parseHeader(const std::string& path, const std::string& text, std::int64_t& rounds)
{
    TurnRdOptions o;
    std::istringstream in(text);
    std::string key;
    int format = 0, film = 1, separate = 0, mode = 0, recency = 0;
    const auto fail = [&](const std::string& why) { throw std::runtime_error(path + ": TurnRD header: " + why); };
    while (in >> key) {
        bool ok = true;
        if (key == "format")
            ok = static_cast<bool>(in >> format);
        else if (key == "input_width")
            ok = static_cast<bool>(in >> o.inputWidth);
        else if (key == "goal_width")
            ok = static_cast<bool>(in >> o.goalWidth);
        else if (key == "model_width")
            ok = static_cast<bool>(in >> o.modelWidth);
        else if (key == "heads")
            ok = static_cast<bool>(in >> o.heads);
        else if (key == "layers")
            ok = static_cast<bool>(in >> o.layers);
        else if (key == "ffn_width")
            ok = static_cast<bool>(in >> o.ffnWidth);
        else if (key == "max_turns")
            ok = static_cast<bool>(in >> o.maxTurns);
        else if (key == "dropout")
            ok = static_cast<bool>(in >> o.dropout);
        else if (key == "separate_head_film")
            ok = static_cast<bool>(in >> separate);
        else if (key == "film")
            ok = static_cast<bool>(in >> film);
        else if (key == "credit_mode")
            ok = static_cast<bool>(in >> mode);
        else if (key == "clamp")
            ok = static_cast<bool>(in >> o.clamp);
        else if (key == "lambda_value")
            ok = static_cast<bool>(in >> o.lambdaValue);
        else if (key == "lambda_rank")
            ok = static_cast<bool>(in >> o.lambdaRank);
        else if (key == "lambda_progress")
            ok = static_cast<bool>(in >> o.lambdaProgress);
        else if (key == "rank_margin")
            ok = static_cast<bool>(in >> o.rankMargin);
        else if (key == "progress_epsilon")
            ok = static_cast<bool>(in >> o.progressEpsilon);
        else if (key == "learning_rate")
            ok = static_cast<bool>(in >> o.learningRate);
        else if (key == "weight_decay")
            ok = static_cast<bool>(in >> o.weightDecay);
        else if (key == "epochs")
            ok = static_cast<bool>(in >> o.epochs);
        else if (key == "batch_size")
            ok = static_cast<bool>(in >> o.batchSize);
        else if (key == "grad_clip")
            ok = static_cast<bool>(in >> o.gradClip);
        else if (key == "recency")
            ok = static_cast<bool>(in >> recency);
        else if (key == "probe_trajectories")
            ok = static_cast<bool>(in >> o.probeTrajectories);
        else if (key == "seed")
            ok = static_cast<bool>(in >> o.seed);
        else if (key == "device")
            ok = static_cast<bool>(in >> o.device);
        else if (key == "rounds")
            ok = static_cast<bool>(in >> rounds);
        else
            fail("unknown key '" + key + "'");
        if (!ok)
            fail("bad value for '" + key + "'");
    }
    if (format != kFormatVersion)
        fail("format " + std::to_string(format) + ", this build reads " + std::to_string(kFormatVersion));
    o.film = film != 0;
    o.separateHeadFilm = separate != 0;
    o.creditMode = mode == 1 ? TurnRdCreditMode::Attention : TurnRdCreditMode::ValueProjection;
    o.recency = recency == 1 ? TurnRdRecency::LossWeighting : TurnRdRecency::Sampling;
    return o;
}

} // namespace

void TurnRd::save(const std::string& path) const
{
    torch::serialize::OutputArchive archive;
    d->net->save(archive);
    torch::serialize::OutputArchive optimizer;
    d->optimizer->save(optimizer);
    archive.write("optimizer", optimizer);
    saveArchiveWithHeader(archive, path, kHeaderKey, headerText(d->options, d->rounds), "TurnRD");
}

TurnRd TurnRd::load(const std::string& path, const std::string& device)
{
    torch::serialize::InputArchive archive;
    const std::string header = loadArchiveWithHeader(archive, path, kHeaderKey, "TurnRD");
    try {
        std::int64_t rounds = 0;
        auto options = parseHeader(path, header, rounds);
        if (!device.empty())
            options.device = device;
        TurnRd model(options);
        model.d->net->to(torch::kCPU);
        model.d->net->load(archive);
        model.d->net->to(model.d->device);
        torch::serialize::InputArchive optimizer;
        archive.read("optimizer", optimizer);
        model.d->optimizer->load(optimizer);
        model.d->rounds = rounds;
        return model;
    } catch (const c10::Error& e) {
        throw std::runtime_error(path + ": cannot load the TurnRD checkpoint (" + e.what_without_backtrace() + ")");
    }
}

} // namespace creditlab::learn
