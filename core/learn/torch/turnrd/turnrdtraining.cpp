// TurnRD's training (HAS §2.8–2.9): the loss, its data-parallel form and trainRound, the TurnRD stage of Algorithm 1.
// Tags as in turnrd.cpp: [paper], [note], [choice].
#include "core/learn/torch/turnrd/turnrd.h"
#include "core/learn/torch/turnrd/turnrd_p.h"

#include "core/learn/torch/dist/dataparallel.h"

#include <algorithm>
#include <chrono>

namespace creditlab::learn {

TurnRdLosses TurnRd::Private::loss(const Batch& b, const TurnRdNetImpl::Output& out, Tensor& total) const
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

TurnRdLosses TurnRd::Private::shardedBackward(const Batch& b, dist::Communicator& comm, at::Generator* dropout)
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
    const auto progress
        = progressDen.item<double>() > 0 ? (swMine * mine(b.hasTarget) * -(q * logW).sum(1)).sum() / progressDen : zero;
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
            = (pairs * torch::relu(o.rankMargin - (predicted.unsqueeze(1) - predicted.unsqueeze(0)))).sum() / pairDen;
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
    Rng rng(Private::mixSeed(o.seed, 100 + static_cast<std::uint64_t>(d->rounds)));
    auto dropout = at::make_generator<at::CPUGeneratorImpl>(
        Private::mixSeed(o.seed, 200 + static_cast<std::uint64_t>(d->rounds)));
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

} // namespace creditlab::learn
