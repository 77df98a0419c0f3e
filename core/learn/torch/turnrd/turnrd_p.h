#pragma once

// TurnRd::Private, shared by turnrd.cpp (construction, the minibatch, credit and the probes), turnrdtraining.cpp (the
// loss and trainRound) and turnrdcheckpoint.cpp (save and load). Learn-internal (torch).

#include "core/learn/api/rng.h"
#include "core/learn/torch/turnrd/turnrd.h"
#include "core/learn/torch/turnrd/turnrdnet.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace creditlab::learn {

struct TurnRd::Private {
    TurnRdOptions options;
    torch::Device device;
    TurnRdNet net { nullptr };
    std::unique_ptr<torch::optim::AdamW> optimizer;
    std::int64_t rounds = 0;

    explicit Private(const TurnRdOptions& o);

    /// The seed of one of the object's random streams, `salt` naming the stream: 1 the initial weights, 3 the goal
    /// shuffle, 100 + r and 200 + r round r's minibatch draws and dropout masks.
    static std::uint64_t mixSeed(std::uint64_t seed, std::uint64_t salt)
    {
        Rng rng(seed ^ (salt * 0x9e3779b97f4a7c15ULL));
        return rng.next();
    }

    /// `goals[i]` overrides records[i]->goal when given (the goal-shuffle probe). `weights` = per-record ω.
    Batch assemble(const std::vector<const TurnRdTrajectory*>& records,
        const std::vector<const std::vector<float>*>* goals, const std::vector<double>* weights) const;

    /// §2.8 [paper terms, choice forms]: L = L_pred + λ_V·L_V + λ_rank·L_rank + λ_prog·L_prog, every term weighted
    /// per trajectory by `b.weight` (all 1 under recency sampling, ω under loss weighting).
    TurnRdLosses loss(const Batch& b, const TurnRdNetImpl::Output& out, Tensor& total) const;

    /// One data-parallel minibatch (trainRound with several ranks): this rank's share of `b`'s rows forward and
    /// backward, with every term normalised as loss() normalises it over all of `b`, then the gradients summed over
    /// the ranks. Returns the whole minibatch's terms, the same on every rank.
    TurnRdLosses shardedBackward(const Batch& b, dist::Communicator& comm, at::Generator* dropout);

    /// The §2.13/§2.14 probes (eval mode, no gradients).
    TurnRdProbes probe(const std::vector<const TurnRdTrajectory*>& records);
    /// Mean ‖Δγ‖₂ over the records' goals: the FiLM projector alone, cheap.
    double meanDeltaGammaNorm(const std::vector<const TurnRdTrajectory*>& records);

    /// Eq. 5 or the attention credit for one row of a forward pass, in double.
    TurnRdCredit creditOf(const Tensor& weightsCpu, const Tensor& valuesCpu, const Tensor& predictedCpu,
        std::int64_t row, std::int64_t turns, double reward) const;
};

} // namespace creditlab::learn
