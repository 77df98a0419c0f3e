// Learned credit models inside the RL loop (issue 8): the acting policy's per-turn hidden states, and TurnRD for
// HAS as has_turnrd.md Algorithm 1 runs it (line 8: credits from the frozen φ_r before the update; line 12: train
// φ_{r+1} on the recency-weighted replay after it).
#include "core/credit/estimator.h"
#include "core/learn/pairfeatures.h"
#include "core/learn/probepipeline.h"
#include "core/learn/trainer_impl.h"
#include "core/atomicfile.h"

#include <fstream>
#include <sstream>

#include <algorithm>

namespace creditlab::learn {

namespace {

const char* const kReplayFile = "/turnrd-replay.bin";
const char* const kTurnRdFile = "/turnrd.pt";
const char* const kValueFile = "/value-baseline.pt";
const char* const kPairProbeFile = "/pair-probe.json";

std::string readText(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw std::invalid_argument("pair.probe: cannot read " + path);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

/// Row `row` of a (rows, width) float CPU tensor appended to `out`.
void appendRow(const torch::Tensor& rows, std::int64_t row, std::vector<float>& out)
{
    const auto width = rows.size(1);
    const float* p = rows.data_ptr<float>() + row * width;
    out.insert(out.end(), p, p + width);
}

} // namespace

TurnStates extractTurnStates(Transformer& policy, const Tokenizer& tokenizer, const RolloutBatch& rollouts,
    std::int64_t microBatch, const torch::Device& device, bool finals)
{
    torch::NoGradGuard noGrad;
    policy->eval();
    TurnStates states;
    const auto n = static_cast<std::int64_t>(rollouts.samples.size());
    const auto width = policy->options().width;
    states.actionLast = torch::empty({ n, width }, torch::kFloat);
    states.promptLast = torch::empty({ n, width }, torch::kFloat);
    // One pass over each sequence gives every turn in it: the state before the action at the token that predicts its
    // first token, h_t at its last token.
    std::vector<std::vector<std::int64_t>> samplesOf(rollouts.sequences.size());
    for (std::size_t s = 0; s < rollouts.samples.size(); ++s)
        samplesOf[rollouts.samples[s].sequence].push_back(static_cast<std::int64_t>(s));
    const auto sequences = static_cast<std::int64_t>(rollouts.sequences.size());
    for (std::int64_t start = 0; start < sequences; start += microBatch) {
        const std::int64_t end = std::min(sequences, start + microBatch);
        std::vector<const TrainSequence*> rows;
        std::vector<std::int64_t> rowOf, promptAt, lastAt, sampleAt;
        for (std::int64_t q = start; q < end; ++q) {
            rows.push_back(&rollouts.sequences[static_cast<std::size_t>(q)]);
            for (std::int64_t s : samplesOf[static_cast<std::size_t>(q)]) {
                const TurnSample& sample = rollouts.samples[static_cast<std::size_t>(s)];
                const ActionSpan& span = rows.back()->spans[sample.span];
                rowOf.push_back(q - start);
                promptAt.push_back(span.from);
                lastAt.push_back(span.end - 1);
                sampleAt.push_back(s);
            }
        }
        if (sampleAt.empty())
            continue;
        const SequenceBatch batch = makeSequenceBatch(rows, device);
        const auto hidden = forwardBatch(policy, batch).hidden; // (B, T, width), final LN
        const auto count = static_cast<std::int64_t>(sampleAt.size());
        auto rowIndex = torch::from_blob(rowOf.data(), { count }, torch::kLong).to(device);
        auto gather = [&](std::vector<std::int64_t>& at) {
            auto index = torch::from_blob(at.data(), { count }, torch::kLong).to(device);
            return hidden.index({ rowIndex, index }).to(torch::kCPU).to(torch::kFloat);
        };
        auto target = torch::from_blob(sampleAt.data(), { count }, torch::kLong);
        states.actionLast.index_copy_(0, target, gather(lastAt));
        states.promptLast.index_copy_(0, target, gather(promptAt));
    }
    // The goal embedding (has_turnrd.md §2.5 [choice]): the final hidden states mean-pooled over the goal's tokens.
    // Prompts begin with <goal> and the goal, and attention is causal, so a pass over <goal> goal alone gives the
    // same states as inside any prompt.
    const auto trajectories = static_cast<std::int64_t>(rollouts.trajectories.size());
    states.goal = torch::empty({ trajectories, width }, torch::kFloat);
    for (std::int64_t i = 0; i < trajectories; ++i) {
        std::vector<std::int32_t> ids { Tokenizer::kGoal };
        tokenizer.encode(rollouts.trajectories[static_cast<std::size_t>(i)].task.goal.value_or(std::string()), ids);
        const auto context = policy->options().context;
        if (static_cast<std::int64_t>(ids.size()) > context)
            ids.resize(static_cast<std::size_t>(context));
        std::vector<std::int64_t> wide(ids.begin(), ids.end());
        const auto len = static_cast<std::int64_t>(wide.size());
        auto tokens = torch::from_blob(wide.data(), { 1, len }, torch::kLong).to(device);
        auto valid = torch::ones({ 1, len }, torch::TensorOptions(torch::kBool).device(device));
        auto hidden = policy->forward(tokens, valid).hidden[0]; // (len, width)
        auto pooled = len > 1 ? hidden.narrow(0, 1, len - 1).mean(0) : hidden[0];
        states.goal[i].copy_(pooled.to(torch::kCPU).to(torch::kFloat));
    }
    if (!finals)
        return states;
    // The state after the last turn: the context the policy would read next (the last feedback as the observation),
    // at its last token, as each turn's state is read at the token before its action.
    states.final = torch::empty({ trajectories, width }, torch::kFloat);
    for (std::int64_t start = 0; start < trajectories; start += microBatch) {
        const std::int64_t end = std::min(trajectories, start + microBatch);
        std::vector<TrainSequence> contexts;
        for (std::int64_t i = start; i < end; ++i) {
            TrainSequence c;
            c.tokens = rollouts.finalContexts[static_cast<std::size_t>(i)];
            if (c.tokens.empty())
                c.tokens.push_back(Tokenizer::kGoal);
            contexts.push_back(std::move(c));
        }
        std::vector<const TrainSequence*> rows;
        std::vector<std::int64_t> last;
        for (const auto& c : contexts) {
            rows.push_back(&c);
            last.push_back(c.size() - 1);
        }
        const SequenceBatch batch = makeSequenceBatch(rows, device);
        const auto hidden = forwardBatch(policy, batch).hidden;
        const auto count = end - start;
        auto index = torch::from_blob(last.data(), { count }, torch::kLong).to(device);
        states.final.narrow(0, start, count)
            .copy_(hidden.index({ torch::arange(count, torch::TensorOptions(torch::kLong).device(device)), index })
                       .to(torch::kCPU)
                       .to(torch::kFloat));
    }
    return states;
}

void Trainer::Impl::valueDeltas(RolloutBatch& rollouts, const TurnStates& states, Metrics& metrics)
{
    if (!valueBaseline) {
        ValueBaselineOptions o;
        o.width = policy->options().width;
        o.gamma = config.getDouble("value.gamma");
        o.lr = config.getDouble("value.lr");
        o.warmupSteps = config.getInt("value.warmup");
        o.seed = static_cast<std::uint64_t>(config.getInt("seed")) * 0x9e3779b97f4a7c15ULL + 11;
        o.device = device.str();
        valueBaseline = std::make_unique<ValueBaseline>(o);
    }
    // The states s_0..s_T of each trajectory (valuebaseline.h): turn k's prompt is s_{k-1}, the final one s_T.
    const auto width = policy->options().width;
    std::vector<std::vector<std::int64_t>> sampleOf(rollouts.trajectories.size());
    for (std::size_t s = 0; s < rollouts.samples.size(); ++s)
        sampleOf[rollouts.samples[s].trajectory].push_back(static_cast<std::int64_t>(s));
    valuePendingStates.clear();
    valuePendingTargets.clear();
    std::vector<std::size_t> firstRow;
    for (std::size_t i = 0; i < rollouts.trajectories.size(); ++i) {
        firstRow.push_back(valuePendingStates.size() / static_cast<std::size_t>(width));
        for (const auto s : sampleOf[i])
            appendRow(states.promptLast, s, valuePendingStates);
        appendRow(states.final, static_cast<std::int64_t>(i), valuePendingStates);
        const auto& t = rollouts.trajectories[i];
        const auto targets = ValueBaseline::monteCarloTargets(
            static_cast<std::int64_t>(t.turns.size()), t.reward, valueBaseline->options().gamma);
        valuePendingTargets.insert(valuePendingTargets.end(), targets.begin(), targets.end());
    }
    const auto rows = static_cast<std::int64_t>(valuePendingTargets.size());
    const auto values = valueBaseline->predict(valuePendingStates.data(), rows);
    // λ = 0 during the warm-up (App. D): ΔV = 0 gives exactly that whatever the estimator's lambda.
    const bool warm = valueBaseline->warmedUp();
    double absSum = 0.0;
    std::int64_t count = 0;
    for (std::size_t i = 0; i < rollouts.trajectories.size(); ++i) {
        auto& turns = rollouts.trajectories[i].turns;
        std::vector<double> v;
        for (std::size_t k = 0; k <= turns.size(); ++k)
            v.push_back(values[firstRow[i] + k]);
        const auto deltas = ValueBaseline::deltas(v);
        for (std::size_t k = 0; k < turns.size(); ++k) {
            turns[k].credits.emplace_back("value_delta", warm ? deltas[k] : 0.0);
            absSum += std::abs(deltas[k]);
            ++count;
        }
    }
    metrics.emplace_back("value/mean_abs_delta", count > 0 ? absSum / static_cast<double>(count) : 0.0);
    metrics.emplace_back("value/warmed_up", warm ? 1.0 : 0.0);
}

void Trainer::Impl::trainValueBaseline(Metrics& metrics)
{
    const auto rows = static_cast<std::int64_t>(valuePendingTargets.size());
    if (rows == 0)
        return;
    metrics.emplace_back("value/loss", valueBaseline->trainStep(valuePendingStates.data(), rows, valuePendingTargets));
    valuePendingStates.clear();
    valuePendingTargets.clear();
}

bool Trainer::Impl::usesTurnRd() const
{
    if (config.method() != "has")
        return false;
    const auto params = credit::requireEstimator("has").resolve(config.creditAssignments());
    return params.getChoice("decomposer") == "turnrd";
}

TurnRdOptions Trainer::Impl::turnRdOptions() const
{
    TurnRdOptions o;
    o.inputWidth = policy->options().width;
    o.goalWidth = policy->options().width;
    o.modelWidth = config.getInt("turnrd.width");
    o.maxTurns = std::max<std::int64_t>(1, env::makeEnvironment(setup.env, setup.envAssignments)->maxSteps());
    o.film = config.getBool("turnrd.film");
    o.creditMode = config.getText("turnrd.credit_mode") == "attention" ? TurnRdCreditMode::Attention
                                                                        : TurnRdCreditMode::ValueProjection;
    o.epochs = config.getInt("turnrd.epochs");
    o.batchSize = config.getInt("turnrd.batch_size");
    o.learningRate = config.getDouble("turnrd.lr");
    o.seed = static_cast<std::uint64_t>(config.getInt("seed")) * 0x2545f4914f6cdd1dULL + 7;
    o.device = device.str(); // the resolved device: options.device may be empty (auto)
    return o;
}

void Trainer::Impl::turnRdCredits(RolloutBatch& rollouts, const TurnStates& states, std::int64_t it, Metrics& metrics)
{
    if (!turnrd)
        turnrd = std::make_unique<TurnRd>(turnRdOptions());
    if (!turnrdReplay)
        turnrdReplay = std::make_unique<TurnRdReplay>(config.getDouble("turnrd.half_life"));
    // Replay records: R, h_{1:T}, the goal embedding, the progress reward Δp_t and the round (Algorithm 1 line 5).
    turnrdPending.assign(rollouts.trajectories.size(), TurnRdTrajectory {});
    for (std::size_t i = 0; i < rollouts.trajectories.size(); ++i) {
        const Trajectory& t = rollouts.trajectories[i];
        TurnRdTrajectory& r = turnrdPending[i];
        r.turns = static_cast<std::int64_t>(t.turns.size());
        r.reward = t.reward;
        r.round = it;
        appendRow(states.goal, static_cast<std::int64_t>(i), r.goal);
        double previous = 0.0;
        bool progress = true;
        for (const Turn& u : t.turns) {
            progress = progress && u.progress.has_value();
            const double p = u.progress.value_or(previous);
            r.progress.push_back(static_cast<float>(p - previous));
            previous = p;
        }
        if (!progress)
            r.progress.clear();
        r.hidden.reserve(static_cast<std::size_t>(r.turns * states.actionLast.size(1)));
    }
    for (std::size_t s = 0; s < rollouts.samples.size(); ++s) // samples come turn by turn, so rows are in order
        appendRow(states.actionLast, static_cast<std::int64_t>(s), turnrdPending[rollouts.samples[s].trajectory].hidden);
    // Line 8: per-turn credit from the frozen φ_r, handed to has as each turn's credit entry "turnrd".
    const auto credits = turnrd->credit(turnrdPending);
    double drift = 0.0;
    for (std::size_t i = 0; i < rollouts.trajectories.size(); ++i) {
        auto& turns = rollouts.trajectories[i].turns;
        double sum = 0.0;
        for (std::size_t k = 0; k < turns.size(); ++k) {
            turns[k].credits.emplace_back("turnrd", credits[i].credit[k]);
            sum += credits[i].credit[k];
        }
        drift = std::max(drift, std::abs(sum - rollouts.trajectories[i].reward));
    }
    metrics.emplace_back("turnrd/credit_drift", drift);
}

void Trainer::Impl::trainTurnRd(std::int64_t it, Metrics& metrics)
{
    // Line 12: train φ_{r+1} on the replay, the records of this round included; they go to the side file too.
    const auto start = Clock::now();
    TurnRdReplay::appendToFile(filesDir + kReplayFile, turnrdPending);
    turnrdReplay->append(std::move(turnrdPending));
    turnrdPending.clear();
    const TurnRdRoundStats stats = turnrd->trainRound(*turnrdReplay, it);
    metrics.emplace_back("turnrd/loss", stats.last.total);
    metrics.emplace_back("turnrd/loss_pred", stats.last.pred);
    metrics.emplace_back("turnrd/loss_value", stats.last.value);
    metrics.emplace_back("turnrd/loss_rank", stats.last.rank);
    metrics.emplace_back("turnrd/loss_progress", stats.last.progress);
    metrics.emplace_back("turnrd/grad_norm", stats.gradNorm);
    metrics.emplace_back("turnrd/conservation_drift", stats.probes.conservationDrift);
    metrics.emplace_back("turnrd/delta_gamma_norm", stats.probes.deltaGammaNorm);
    metrics.emplace_back("turnrd/delta_gamma_change", stats.deltaGammaChange);
    metrics.emplace_back("turnrd/beta_norm", stats.probes.betaNorm);
    metrics.emplace_back("turnrd/zero_film_change", stats.probes.zeroFilmChange);
    metrics.emplace_back("turnrd/goal_shuffle_mse_change", stats.probes.goalShuffleMseChange);
    metrics.emplace_back("turnrd/return_mse", stats.probes.returnMse);
    metrics.emplace_back("turnrd/rank_accuracy", stats.probes.rankAccuracy);
    metrics.emplace_back("turnrd/replay_size", static_cast<double>(turnrdReplay->size()));
    metrics.emplace_back("time/turnrd_s", secondsSince(start));
}

void Trainer::Impl::preparePairProbe(Metrics& metrics)
{
    const std::string own = filesDir + kPairProbeFile;
    const std::string given = config.getText("pair.probe");
    if (!given.empty() || fs::exists(own)) {
        // The run's own copy first: a resumed run keeps the probe it trained with even if pair.probe has moved.
        const std::string path = fs::exists(own) ? own : given;
        ProbeSet set = probeSetFromJson(readText(path), path);
        if (!set.pair)
            throw std::invalid_argument("pair.probe: " + path + " holds no \"pair\" probe (train it with "
                + "creditlab-cli probe train --feature pair or all)");
        pairProbe = std::move(*set.pair);
        if (path != own)
            writeFileAtomically(own, readText(given)); // the run keeps the probe it trained with
        return;
    }
    // Fit on this run's SFT policy (reference.pt), as PAIR fits its probes offline on the base model.
    const auto start = Clock::now();
    ProbeDataOptions data;
    data.episodes = config.getInt("pair.probe_episodes");
    data.seed = static_cast<std::uint64_t>(config.getInt("seed")) + 42;
    const ProbeData probeData = buildProbeData({ options.database, runId, true, device.str() }, data);
    const ProbeSet set = fitProbes(probeData, { "pair" });
    for (const ProbeRow& row : evaluateProbes(set, probeData)) {
        metrics.emplace_back("pair/probe_auroc_clean", row.aurocClean);
        metrics.emplace_back("pair/probe_auroc_contaminated", row.aurocContaminated);
        metrics.emplace_back("pair/probe_ece", row.ece);
    }
    writeFileAtomically(own, probeSetToJson(set, runId, probeData.policy, data, true));
    pairProbe = *set.pair;
    metrics.emplace_back("time/pair_probe_fit_s", secondsSince(start));
    logger()->info("PAIR probe fitted on {} in {:.1f} s", probeData.policy, secondsSince(start));
}

void Trainer::Impl::pairScores(RolloutBatch& rollouts, Metrics& metrics)
{
    if (!pairProbe)
        preparePairProbe(metrics);
    const auto start = Clock::now();
    torch::NoGradGuard noGrad;
    policy->eval();
    // Each turn's sequence is its prompt and its action; the span runs from <act> to the action's last token, as
    // the probe's training records (probepipeline.h).
    // In episode mode a turn's sequence is its segment up to the end of its action (the prefix it acted on).
    std::vector<std::vector<std::int32_t>> sequences(rollouts.samples.size());
    std::vector<TurnSequence> turns(rollouts.samples.size());
    for (std::size_t s = 0; s < rollouts.samples.size(); ++s) {
        const TurnSample& sample = rollouts.samples[s];
        const TrainSequence& sequence = rollouts.sequences[sample.sequence];
        const ActionSpan& span = sequence.spans[sample.span];
        sequences[s].assign(sequence.tokens.begin(), sequence.tokens.begin() + span.end);
        turns[s] = { &sequences[s], static_cast<std::int64_t>(span.begin) - 1 };
    }
    const auto features = batchedTurnFeatures(
        *policy, turns, static_cast<std::size_t>(std::max<long long>(1, config.getInt("rl.micro_batch"))));
    const auto scores = pairProbe->score(pairFeatureMatrix(features, PairFeatureType::LastToken),
        pairFeatureMatrix(features, PairFeatureType::MultiAttention));
    double sum = 0.0;
    for (std::size_t s = 0; s < rollouts.samples.size(); ++s) {
        const TurnSample& sample = rollouts.samples[s];
        rollouts.trajectories[sample.trajectory].turns[sample.turn].score = scores[s];
        sum += scores[s];
    }
    metrics.emplace_back("pair/mean_score", scores.empty() ? 0.0 : sum / static_cast<double>(scores.size()));
    metrics.emplace_back("time/pair_features_s", secondsSince(start));
}

void Trainer::Impl::saveLearnedModels(const std::string& dir) const
{
    if (turnrd)
        turnrd->save(dir + kTurnRdFile);
    if (valueBaseline)
        valueBaseline->save(dir + kValueFile);
}

void Trainer::Impl::restoreLearnedModels(const std::string& checkpointDir)
{
    const std::string replayPath = filesDir + kReplayFile;
    if (usesValueBaseline() && !checkpointDir.empty() && fs::exists(checkpointDir + kValueFile))
        valueBaseline = std::make_unique<ValueBaseline>(ValueBaseline::load(checkpointDir + kValueFile, device.str()));
    if (!usesTurnRd())
        return;
    turnrdReplay = std::make_unique<TurnRdReplay>(config.getDouble("turnrd.half_life"));
    if (!checkpointDir.empty() && fs::exists(checkpointDir + kTurnRdFile))
        turnrd = std::make_unique<TurnRd>(TurnRd::load(checkpointDir + kTurnRdFile, device.str()));
    if (!fs::exists(replayPath))
        return;
    // The side file may hold rounds past the checkpoint (an interrupted run): keep the checkpoint's rounds only,
    // rewritten through a temporary file so a crash leaves the old file.
    auto records = TurnRdReplay::readFile(replayPath);
    std::erase_if(records, [&](const TurnRdTrajectory& r) { return r.round > iteration; });
    const std::string temporary = replayPath + ".tmp";
    fs::remove(temporary);
    if (!records.empty())
        TurnRdReplay::appendToFile(temporary, records);
    if (records.empty())
        fs::remove(replayPath);
    else
        fs::rename(temporary, replayPath);
    turnrdReplay->append(std::move(records));
}

} // namespace creditlab::learn
