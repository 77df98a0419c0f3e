// Learned credit models inside the RL loop (learnedcredit.h): the three models behind the LearnedCredit interface
// (TurnRD, the value baseline, PAIR's probe). In a data-parallel run every rank holds the whole gathered batch and the
// same model; each shares its passes out over the ranks (context.comm) and rank 0 alone writes the run's side files.
#include "core/learn/torch/engine/learnedcredit.h"
#include "core/credit/estimator.h"
#include "core/learn/torch/dist/dataparallel.h"
#include "core/learn/torch/engine/trainerstate.h"
#include "core/learn/torch/pair/pairfeatures.h"
#include "core/learn/torch/pair/probepipeline.h"
#include "core/learn/torch/turnrd/turnrd.h"
#include "core/learn/torch/turnrd/turnrdreplay.h"
#include "core/learn/torch/valuebaseline/valuehead.h"
#include "core/probe/pairprobe.h"
#include "core/storage/atomicfile.h"

#include <fstream>
#include <sstream>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
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

bool distributed(const LearnedCreditContext& context) { return context.comm && context.comm->world() > 1; }

/// Rank 0 of the run (every process that is not data-parallel): the one that writes side files.
bool writer(const LearnedCreditContext& context) { return !context.comm || context.comm->rank() == 0; }

/// The trajectories [begin, end) of `shard` within a batch of `count`.
std::pair<std::size_t, std::size_t> ownTrajectories(const UpdateShard& shard, std::size_t count)
{
    const std::size_t end = std::min(shard.end, count);
    return { std::min(shard.begin, end), end };
}

/// Row `row` of a (rows, width) float CPU tensor appended to `out`.
void appendRow(const torch::Tensor& rows, std::int64_t row, std::vector<float>& out)
{
    const auto width = rows.size(1);
    const float* p = rows.data_ptr<float>() + row * width;
    out.insert(out.end(), p, p + width);
}

} // namespace

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
    void annotate(RolloutBatch& rollouts, const TurnStates* states, const UpdateShard& shard, std::int64_t,
        Metrics& metrics) override
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
        // This rank's rows for the step: those of the trajectories it rolled out (every rank holds all of them).
        const auto [first, end] = ownTrajectories(shard, rollouts.trajectories.size());
        firstRow.push_back(static_cast<std::size_t>(rows));
        m_ownRows = { static_cast<std::int64_t>(firstRow[first]), static_cast<std::int64_t>(firstRow[end]) };
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
        metrics.emplace_back("value/loss",
            m_head->trainStep(m_states.data(), rows, m_targets, { m_context.comm, m_ownRows.first, m_ownRows.second }));
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
    std::pair<std::int64_t, std::int64_t> m_ownRows; ///< this rank's rows of them [first, end)
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
    /// Rank 0 reads and rewrites the side file and hands its records to the other ranks, which never touch it.
    void restore(const std::string& checkpointDir, std::int64_t iteration) override
    {
        m_replay = std::make_unique<TurnRdReplay>(m_context.config.getDouble("turnrd.half_life"));
        if (!checkpointDir.empty() && fs::exists(checkpointDir + kTurnRdFile))
            m_model = std::make_unique<TurnRd>(TurnRd::load(checkpointDir + kTurnRdFile, m_context.device.str()));
        std::vector<TurnRdTrajectory> records;
        if (!distributed(m_context)) {
            records = restoreReplayFile(iteration);
        } else {
            std::string bytes;
            std::optional<std::string> error;
            if (writer(m_context)) {
                try {
                    bytes = TurnRdReplay::encode(restoreReplayFile(iteration));
                } catch (const std::exception& e) {
                    error = e.what();
                }
            }
            if (const auto failed = dist::broadcastResult(*m_context.comm, bytes, error))
                throw std::runtime_error(*failed);
            records = TurnRdReplay::decode(bytes, "the TurnRD replay from rank 0");
        }
        m_replay->append(std::move(records));
    }

    /// Algorithm 1 line 8: TurnRD's credits from the frozen model as each turn's credit entry "turnrd". Every rank
    /// credits the whole batch: one forward pass per turnrd.batch_size trajectories, cheap beside its training.
    void annotate(RolloutBatch& rollouts, const TurnStates* states, const UpdateShard&, std::int64_t it,
        Metrics& metrics) override
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

    /// Algorithm 1 line 12: the round's records into the replay (and rank 0's side file), then a training round,
    /// its minibatches shared out over the ranks (TurnRd::trainRound).
    void trainAfterUpdate(std::int64_t it, Metrics& metrics) override
    {
        const auto start = Clock::now();
        if (writer(m_context))
            TurnRdReplay::appendToFile(m_context.filesDir + kReplayFile, m_pending);
        m_replay->append(std::move(m_pending));
        m_pending.clear();
        const TurnRdRoundStats stats = m_model->trainRound(*m_replay, it, {}, m_context.comm);
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
    /// The side file's records up to `iteration`. It may hold rounds past the checkpoint (an interrupted run): they
    /// are dropped from the file, rewritten through a temporary file so a crash leaves the old file.
    std::vector<TurnRdTrajectory> restoreReplayFile(std::int64_t iteration) const
    {
        const std::string replayPath = m_context.filesDir + kReplayFile;
        if (!fs::exists(replayPath))
            return {};
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
        return records;
    }

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

/// Metrics as text lines "name<TAB>value" (17 significant digits: exact) ended by an empty line, and back: how rank 0
/// hands the probe fit's metrics to the other ranks with the probe. decodeMetrics returns where the text after them
/// begins.
std::string encodeMetrics(const Metrics& metrics)
{
    std::string out;
    char value[32];
    for (const auto& [name, v] : metrics) {
        std::snprintf(value, sizeof value, "%.17g", v);
        out += name + "\t" + value + "\n";
    }
    return out + "\n";
}

std::size_t decodeMetrics(const std::string& text, Metrics& metrics)
{
    std::size_t at = 0;
    for (;;) {
        const std::size_t line = text.find('\n', at);
        if (line == std::string::npos)
            throw std::runtime_error("the PAIR probe from rank 0: its metrics are cut short");
        if (line == at)
            return line + 1;
        const std::size_t tab = text.find('\t', at);
        if (tab == std::string::npos || tab > line)
            throw std::runtime_error("the PAIR probe from rank 0: a metric line without a value");
        metrics.emplace_back(text.substr(at, tab - at), std::strtod(text.c_str() + tab + 1, nullptr));
        at = line + 1;
    }
}

/// PAIR (credit.method pair): every turn's score is the two-stage probe's s_final on the acting policy's features of
/// that turn (pair.md §2.5). The probe is pair.probe's file, else the run's own copy, else fitted on the run's SFT
/// policy with contaminated household data (probepipeline.h) before the first iteration. In a data-parallel run rank 0
/// alone reads or fits it (the store and the run's files are rank 0's) and hands it to the other ranks, and the
/// per-turn feature passes are shared out by trajectory.
class PairLearned final : public LearnedCredit {
public:
    explicit PairLearned(const LearnedCreditContext& context)
        : m_context(context)
    {
    }
    std::string_view name() const override { return "pair"; }

    /// Rank 0 looks for pair.probe's file (the other ranks may not see rank 0's files) and every rank throws alike.
    void validate() const override
    {
        const std::string given = m_context.config.getText("pair.probe");
        std::optional<std::string> error;
        if (writer(m_context) && !given.empty() && !fs::exists(given))
            error = "pair.probe: no such file: " + given;
        std::string nothing;
        const auto failed = distributed(m_context) ? dist::broadcastResult(*m_context.comm, nothing, error) : error;
        if (failed)
            throw std::invalid_argument(*failed);
    }

    void afterSft(Metrics& metrics) override
    {
        if (m_probe)
            return;
        if (!distributed(m_context)) {
            m_probe = loadOrFit(metrics).first;
            return;
        }
        // Rank 0 reads or fits the probe and sends its JSON and the fit's metrics; an error there stops every rank.
        // Every rank, rank 0 too, then scores with the probe read back from that JSON (numbers written exactly).
        // The probe data is not shared out over the ranks: buildProbeData loads the SFT policy through the run's store
        // (its config, checkpoints and reference.pt), which rank 0 alone opens, and the other ranks' policy in memory
        // is not that model bit for bit (after a resume it is the checkpoint's; under LoRA the SFT adapters are folded
        // in), so their features would mix two sets of weights in one fit. It runs once per run.
        std::string payload;
        std::optional<std::string> error;
        if (writer(m_context)) {
            try {
                Metrics fitted;
                const std::string json = loadOrFit(fitted).second;
                payload = encodeMetrics(fitted) + json;
            } catch (const std::exception& e) {
                error = e.what();
            }
        }
        if (const auto failed = dist::broadcastResult(*m_context.comm, payload, error))
            throw std::runtime_error(*failed);
        const std::size_t json = decodeMetrics(payload, metrics);
        ProbeSet set = probeSetFromJson(payload.substr(json), "the PAIR probe from rank 0");
        if (!set.pair)
            throw std::runtime_error("the PAIR probe from rank 0 holds no \"pair\" probe");
        m_probe = std::move(*set.pair);
    }

    void annotate(
        RolloutBatch& rollouts, const TurnStates*, const UpdateShard& shard, std::int64_t, Metrics& metrics) override
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
        // A rank passes the sequences of its own trajectories. Each pass is over one sequence alone and the probe
        // scores turn by turn, so a turn's score is the same bits whichever rank computes it.
        const auto [first, end] = ownTrajectories(shard, rollouts.trajectories.size());
        std::vector<std::vector<std::size_t>> samplesOf(rollouts.sequences.size());
        for (std::size_t s = 0; s < rollouts.samples.size(); ++s)
            samplesOf[rollouts.samples[s].sequence].push_back(s);
        std::vector<std::optional<TurnFeatures>> features(rollouts.samples.size());
        for (std::size_t q = 0; q < samplesOf.size(); ++q) {
            if (samplesOf[q].empty())
                continue;
            const std::size_t trajectory = rollouts.samples[samplesOf[q].front()].trajectory;
            if (trajectory < first || trajectory >= end)
                continue;
            const TrainSequence& sequence = rollouts.sequences[q];
            std::vector<TurnSpan> spans;
            std::size_t last = 0;
            for (const std::size_t s : samplesOf[q]) {
                const ActionSpan& span = sequence.spans[rollouts.samples[s].span];
                spans.push_back({ static_cast<std::int64_t>(span.begin) - 1, static_cast<std::int64_t>(span.end), 0 });
                last = std::max(last, static_cast<std::size_t>(span.end));
            }
            const std::vector<std::int32_t> tokens(sequence.tokens.begin(), sequence.tokens.begin() + last);
            auto perTurn = teacherForcedTurnFeatures(*policy, tokens, spans);
            for (std::size_t i = 0; i < perTurn.size(); ++i)
                features[samplesOf[q][i]] = std::move(perTurn[i]);
        }
        std::vector<std::size_t> mine;
        std::vector<TurnFeatures> own;
        for (std::size_t s = 0; s < features.size(); ++s)
            if (features[s]) {
                mine.push_back(s);
                own.push_back(std::move(*features[s]));
            }
        std::vector<double> scores(rollouts.samples.size(), 0.0);
        if (!own.empty()) {
            const auto ownScores = m_probe->score(pairFeatureMatrix(own, PairFeatureType::LastToken),
                pairFeatureMatrix(own, PairFeatureType::MultiAttention));
            for (std::size_t k = 0; k < mine.size(); ++k)
                scores[mine[k]] = ownScores[k];
        }
        if (distributed(m_context))
            dist::allreduceSum(*m_context.comm, scores); // each score from one rank, zeros from the others: exact
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
    /// The probe and its file's text: the run's own copy, else pair.probe's file (copied as the run's own), else
    /// fitted on the run's SFT policy (reference.pt), as PAIR fits its probes offline on the base model.
    std::pair<probe::PairProbe, std::string> loadOrFit(Metrics& metrics) const
    {
        const std::string own = m_context.filesDir + kPairProbeFile;
        const std::string given = m_context.config.getText("pair.probe");
        if (!given.empty() || fs::exists(own)) {
            // The run's own copy first: a resumed run keeps the probe it trained with even if pair.probe has moved.
            const std::string path = fs::exists(own) ? own : given;
            std::string text = readText(path);
            ProbeSet set = probeSetFromJson(text, path);
            if (!set.pair)
                throw std::invalid_argument("pair.probe: " + path + " holds no \"pair\" probe (train it with "
                    + "creditlab-cli probe train --feature pair or all)");
            if (path != own)
                writeFileAtomically(own, text); // the run keeps the probe it trained with
            return { std::move(*set.pair), std::move(text) };
        }
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
        std::string json = probeSetToJson(set, m_context.runId, probeData.policy, data, true);
        writeFileAtomically(own, json);
        metrics.emplace_back("time/pair_probe_fit_s", secondsSince(start));
        logger()->info("PAIR probe fitted on {} in {:.1f} s", probeData.policy, secondsSince(start));
        return { *set.pair, std::move(json) };
    }

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
