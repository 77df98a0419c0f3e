// Learned credit models inside the RL loop (learnedcredit.h): the acting policy's per-turn hidden states, and the
// three models behind the LearnedCredit interface (TurnRD, the value baseline, PAIR's probe).
#include "core/learn/torch/engine/learnedcredit.h"
#include "core/atomicfile.h"
#include "core/credit/estimator.h"
#include "core/learn/torch/engine/trainerstate.h"
#include "core/learn/torch/pair/pairfeatures.h"
#include "core/learn/torch/pair/probepipeline.h"
#include "core/learn/torch/turnrd/turnrd.h"
#include "core/learn/torch/turnrd/turnrdreplay.h"
#include "core/learn/torch/valuebaseline/valuehead.h"
#include "core/probe/pairprobe.h"

#include <fstream>
#include <sstream>

#include <algorithm>
#include <cmath>
#include <optional>

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

TurnStates extractTurnStates(Transformer& policy, const TokenFormat& format, const RolloutBatch& rollouts,
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
    // The goal embedding (has_turnrd.md §2.5 [choice]): the final hidden states mean-pooled over the goal's tokens
    // after the first (<goal>; a chat model's goal chunk starts with its template's header). Streams begin with the
    // goal and attention is causal, so a pass over the goal alone gives the same states as inside any stream.
    const auto trajectories = static_cast<std::int64_t>(rollouts.trajectories.size());
    states.goal = torch::empty({ trajectories, width }, torch::kFloat);
    for (std::int64_t i = 0; i < trajectories; ++i) {
        std::vector<std::int32_t> ids
            = format.goal(rollouts.trajectories[static_cast<std::size_t>(i)].task.goal.value_or(std::string()));
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
                c.tokens = format.goal({});
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

namespace {

/// TRIAGE's shared-backbone value baseline (credit.method value_baseline, App. D): ΔV per turn from an EMA value
/// head on the acting policy's states, one value step per policy update.
class ValueBaselineLearned final : public LearnedCredit {
public:
    explicit ValueBaselineLearned(const LearnedCreditContext& context)
        : m_context(context)
    {
    }
    std::string_view name() const override { return "value_baseline"; }
    TurnStateNeed needs() const override { return TurnStateNeed::TurnsAndFinals; }

    void restore(const std::string& checkpointDir, std::int64_t) override
    {
        if (!checkpointDir.empty() && fs::exists(checkpointDir + kValueFile))
            m_head = std::make_unique<ValueBaseline>(
                ValueBaseline::load(checkpointDir + kValueFile, m_context.device.str()));
    }

    /// The value head's ΔV per turn (EMA head; 0 during its warm-up) as each turn's credit entry "value_delta".
    void annotate(RolloutBatch& rollouts, const TurnStates* states, std::int64_t, Metrics& metrics) override
    {
        const TrainConfig& config = m_context.config;
        const auto width = m_context.policy->options().width;
        if (!m_head) {
            ValueBaselineOptions o;
            o.width = width;
            o.gamma = config.getDouble("value.gamma");
            o.lr = config.getDouble("value.lr");
            o.warmupSteps = config.getInt("value.warmup");
            o.seed = static_cast<std::uint64_t>(config.getInt("seed")) * 0x9e3779b97f4a7c15ULL + 11;
            o.device = m_context.device.str();
            m_head = std::make_unique<ValueBaseline>(o);
        }
        // The states s_0..s_T of each trajectory (valuebaseline/valuehead.h): turn k's prompt is s_{k-1}, the final one
        // s_T.
        std::vector<std::vector<std::int64_t>> sampleOf(rollouts.trajectories.size());
        for (std::size_t s = 0; s < rollouts.samples.size(); ++s)
            sampleOf[rollouts.samples[s].trajectory].push_back(static_cast<std::int64_t>(s));
        m_states.clear();
        m_targets.clear();
        std::vector<std::size_t> firstRow;
        for (std::size_t i = 0; i < rollouts.trajectories.size(); ++i) {
            firstRow.push_back(m_states.size() / static_cast<std::size_t>(width));
            for (const auto s : sampleOf[i])
                appendRow(states->promptLast, s, m_states);
            appendRow(states->final, static_cast<std::int64_t>(i), m_states);
            const auto& t = rollouts.trajectories[i];
            const auto targets = ValueBaseline::monteCarloTargets(
                static_cast<std::int64_t>(t.turns.size()), t.reward, m_head->options().gamma);
            m_targets.insert(m_targets.end(), targets.begin(), targets.end());
        }
        const auto rows = static_cast<std::int64_t>(m_targets.size());
        const auto values = m_head->predict(m_states.data(), rows);
        // λ = 0 during the warm-up (App. D): ΔV = 0 gives exactly that whatever the estimator's lambda.
        const bool warm = m_head->warmedUp();
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

    /// One step of the value head on this round's rollout-time states and targets (one per GRPO step, App. D).
    void trainAfterUpdate(std::int64_t, Metrics& metrics) override
    {
        const auto rows = static_cast<std::int64_t>(m_targets.size());
        if (rows == 0)
            return;
        metrics.emplace_back("value/loss", m_head->trainStep(m_states.data(), rows, m_targets));
        m_states.clear();
        m_targets.clear();
    }

    void save(const std::string& checkpointDir) const override
    {
        if (m_head)
            m_head->save(checkpointDir + kValueFile);
    }

private:
    LearnedCreditContext m_context;
    std::unique_ptr<ValueBaseline> m_head;
    std::vector<float> m_states; ///< this round's states until the update is done
    std::vector<double> m_targets; ///< and their Monte-Carlo targets
};

/// TurnRD for has with credit.decomposer=turnrd, as has_turnrd.md Algorithm 1 runs it: line 8, credits from the
/// frozen φ_r before the update; line 12, φ_{r+1} trained on the recency-weighted replay after it.
class TurnRdLearned final : public LearnedCredit {
public:
    explicit TurnRdLearned(const LearnedCreditContext& context)
        : m_context(context)
    {
    }
    std::string_view name() const override { return "turnrd"; }
    TurnStateNeed needs() const override { return TurnStateNeed::Turns; }

    /// The checkpoint's model and the replay up to `iteration`; from scratch (empty dir), the side file is dropped.
    void restore(const std::string& checkpointDir, std::int64_t iteration) override
    {
        const std::string replayPath = m_context.filesDir + kReplayFile;
        m_replay = std::make_unique<TurnRdReplay>(m_context.config.getDouble("turnrd.half_life"));
        if (!checkpointDir.empty() && fs::exists(checkpointDir + kTurnRdFile))
            m_model = std::make_unique<TurnRd>(TurnRd::load(checkpointDir + kTurnRdFile, m_context.device.str()));
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
        m_replay->append(std::move(records));
    }

    /// Algorithm 1 line 8: TurnRD's credits from the frozen model as each turn's credit entry "turnrd".
    void annotate(RolloutBatch& rollouts, const TurnStates* states, std::int64_t it, Metrics& metrics) override
    {
        if (!m_model)
            m_model = std::make_unique<TurnRd>(options());
        if (!m_replay)
            m_replay = std::make_unique<TurnRdReplay>(m_context.config.getDouble("turnrd.half_life"));
        // Replay records: R, h_{1:T}, the goal embedding, the progress reward Δp_t and the round (Algorithm 1 line 5).
        m_pending.assign(rollouts.trajectories.size(), TurnRdTrajectory {});
        for (std::size_t i = 0; i < rollouts.trajectories.size(); ++i) {
            const Trajectory& t = rollouts.trajectories[i];
            TurnRdTrajectory& r = m_pending[i];
            r.turns = static_cast<std::int64_t>(t.turns.size());
            r.reward = t.reward;
            r.round = it;
            appendRow(states->goal, static_cast<std::int64_t>(i), r.goal);
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
            r.hidden.reserve(static_cast<std::size_t>(r.turns * states->actionLast.size(1)));
        }
        for (std::size_t s = 0; s < rollouts.samples.size(); ++s) // samples come turn by turn: rows are in order
            appendRow(
                states->actionLast, static_cast<std::int64_t>(s), m_pending[rollouts.samples[s].trajectory].hidden);
        const auto credits = m_model->credit(m_pending);
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

    /// Algorithm 1 line 12: the round's records into the replay (and its side file), then a training round.
    void trainAfterUpdate(std::int64_t it, Metrics& metrics) override
    {
        const auto start = Clock::now();
        TurnRdReplay::appendToFile(m_context.filesDir + kReplayFile, m_pending);
        m_replay->append(std::move(m_pending));
        m_pending.clear();
        const TurnRdRoundStats stats = m_model->trainRound(*m_replay, it);
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
        metrics.emplace_back("turnrd/replay_size", static_cast<double>(m_replay->size()));
        metrics.emplace_back("time/turnrd_s", secondsSince(start));
    }

    void save(const std::string& checkpointDir) const override
    {
        if (m_model)
            m_model->save(checkpointDir + kTurnRdFile);
    }

private:
    TurnRdOptions options() const
    {
        const TrainConfig& config = m_context.config;
        TurnRdOptions o;
        o.inputWidth = m_context.policy->options().width;
        o.goalWidth = m_context.policy->options().width;
        o.modelWidth = config.getInt("turnrd.width");
        o.maxTurns = std::max<std::int64_t>(
            1, env::makeEnvironment(m_context.setup.env, m_context.setup.envAssignments)->maxSteps());
        o.film = config.getBool("turnrd.film");
        o.creditMode = config.getText("turnrd.credit_mode") == "attention" ? TurnRdCreditMode::Attention
                                                                           : TurnRdCreditMode::ValueProjection;
        o.epochs = config.getInt("turnrd.epochs");
        o.batchSize = config.getInt("turnrd.batch_size");
        o.learningRate = config.getDouble("turnrd.lr");
        o.seed = static_cast<std::uint64_t>(config.getInt("seed")) * 0x2545f4914f6cdd1dULL + 7;
        o.device = m_context.device.str(); // the resolved device: the run's option may be empty (auto)
        return o;
    }

    LearnedCreditContext m_context;
    std::unique_ptr<TurnRd> m_model;
    std::unique_ptr<TurnRdReplay> m_replay;
    std::vector<TurnRdTrajectory> m_pending; ///< this round's records until the update is done
};

/// PAIR (credit.method pair): every turn's score is the two-stage probe's s_final on the acting policy's features of
/// that turn (pair.md §2.5). The probe is pair.probe's file, else the run's own copy, else fitted on the run's SFT
/// policy with contaminated household data (probepipeline.h) before the first iteration.
class PairLearned final : public LearnedCredit {
public:
    explicit PairLearned(const LearnedCreditContext& context)
        : m_context(context)
    {
    }
    std::string_view name() const override { return "pair"; }

    void validate() const override
    {
        const std::string given = m_context.config.getText("pair.probe");
        if (!given.empty() && !fs::exists(given))
            throw std::invalid_argument("pair.probe: no such file: " + given);
    }

    void afterSft(Metrics& metrics) override
    {
        if (m_probe)
            return;
        const std::string own = m_context.filesDir + kPairProbeFile;
        const std::string given = m_context.config.getText("pair.probe");
        if (!given.empty() || fs::exists(own)) {
            // The run's own copy first: a resumed run keeps the probe it trained with even if pair.probe has moved.
            const std::string path = fs::exists(own) ? own : given;
            ProbeSet set = probeSetFromJson(readText(path), path);
            if (!set.pair)
                throw std::invalid_argument("pair.probe: " + path + " holds no \"pair\" probe (train it with "
                    + "creditlab-cli probe train --feature pair or all)");
            m_probe = std::move(*set.pair);
            if (path != own)
                writeFileAtomically(own, readText(given)); // the run keeps the probe it trained with
            return;
        }
        // Fit on this run's SFT policy (reference.pt), as PAIR fits its probes offline on the base model.
        const auto start = Clock::now();
        ProbeDataOptions data;
        data.episodes = m_context.config.getInt("pair.probe_episodes");
        data.seed = static_cast<std::uint64_t>(m_context.config.getInt("seed")) + 42;
        const ProbeData probeData
            = buildProbeData({ m_context.database, m_context.runId, true, m_context.device.str() }, data);
        const ProbeSet set = fitProbes(probeData, { "pair" });
        for (const ProbeRow& row : evaluateProbes(set, probeData)) {
            metrics.emplace_back("pair/probe_auroc_clean", row.aurocClean);
            metrics.emplace_back("pair/probe_auroc_contaminated", row.aurocContaminated);
            metrics.emplace_back("pair/probe_ece", row.ece);
        }
        writeFileAtomically(own, probeSetToJson(set, m_context.runId, probeData.policy, data, true));
        m_probe = *set.pair;
        metrics.emplace_back("time/pair_probe_fit_s", secondsSince(start));
        logger()->info("PAIR probe fitted on {} in {:.1f} s", probeData.policy, secondsSince(start));
    }

    void annotate(RolloutBatch& rollouts, const TurnStates*, std::int64_t, Metrics& metrics) override
    {
        if (!m_probe)
            afterSft(metrics);
        const auto start = Clock::now();
        torch::NoGradGuard noGrad;
        Transformer& policy = m_context.policy;
        policy->eval();
        // A turn's features are those of the prefix it acted on: its segment (episode mode) or its prompt (window
        // mode) up to the end of its action, the span running from <act> to the action's last token, as the probe's
        // training records (probepipeline.h). With causal attention one pass over a sequence gives every turn in it
        // the features of its own prefix's pass (teacherForcedTurnFeatures; tst_learn_pairfeatures checks it), so a
        // segment of T turns costs one pass, not T passes over ever longer prefixes.
        std::vector<std::vector<std::size_t>> samplesOf(rollouts.sequences.size());
        for (std::size_t s = 0; s < rollouts.samples.size(); ++s)
            samplesOf[rollouts.samples[s].sequence].push_back(s);
        std::vector<TurnFeatures> features(rollouts.samples.size());
        for (std::size_t q = 0; q < samplesOf.size(); ++q) {
            if (samplesOf[q].empty())
                continue;
            const TrainSequence& sequence = rollouts.sequences[q];
            std::vector<TurnSpan> spans;
            std::size_t end = 0;
            for (const std::size_t s : samplesOf[q]) {
                const ActionSpan& span = sequence.spans[rollouts.samples[s].span];
                spans.push_back({ static_cast<std::int64_t>(span.begin) - 1, static_cast<std::int64_t>(span.end), 0 });
                end = std::max(end, static_cast<std::size_t>(span.end));
            }
            const std::vector<std::int32_t> tokens(sequence.tokens.begin(), sequence.tokens.begin() + end);
            auto perTurn = teacherForcedTurnFeatures(*policy, tokens, spans);
            for (std::size_t i = 0; i < perTurn.size(); ++i)
                features[samplesOf[q][i]] = std::move(perTurn[i]);
        }
        const auto scores = m_probe->score(pairFeatureMatrix(features, PairFeatureType::LastToken),
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

private:
    LearnedCreditContext m_context;
    std::optional<probe::PairProbe> m_probe;
};

} // namespace

std::unique_ptr<LearnedCredit> makeLearnedCredit(const LearnedCreditContext& context)
{
    const std::string method = context.config.method();
    if (method == "value_baseline")
        return std::make_unique<ValueBaselineLearned>(context);
    if (method == "pair")
        return std::make_unique<PairLearned>(context);
    if (method == "has") {
        const auto params = credit::requireEstimator("has").resolve(context.config.creditAssignments());
        if (params.getChoice("decomposer") == "turnrd")
            return std::make_unique<TurnRdLearned>(context);
    }
    return nullptr;
}

} // namespace creditlab::learn
