#pragma once

#include "core/model/trajectory.h"
#include "core/model/vocabulary.h"
#include "core/storage/database.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace creditlab {

/// A run as the browser lists it.
struct RunInfo {
    std::int64_t id = 0;
    std::string name;
    RunKind kind = RunKind::Import;
    RunStatus status = RunStatus::Finished;
    std::optional<std::string> source; ///< the imported file, for imports
    /// The format the import read, as its source names it ("chat", "steps", a mapping file's name); nullopt for other
    /// runs and for imports older than schema version 10.
    std::optional<std::string> sourceFormat;
    std::string createdAt; ///< ISO 8601 UTC
    std::optional<std::string> finishedAt;
    std::string tags;
    std::string notes;
    std::int64_t trajectoryCount = 0;
    std::int64_t turnCount = 0;
    // Training runs (empty for imports): their shape, as the trainer recorded it (setRunShape), and their metrics.
    std::optional<std::string> method; ///< credit.method
    std::optional<std::string> environment; ///< env.name
    std::optional<std::int64_t> seed;
    std::optional<std::int64_t> policyWidth;
    std::optional<std::int64_t> policyLayers;
    std::optional<std::int64_t> iterationsPlanned; ///< rl.iterations
    std::optional<double> bestEval; ///< the best "eval/success" of any iteration
    std::optional<double> lastEval; ///< the "eval/success" of the last evaluated iteration
    std::int64_t iterationsDone = 0; ///< the last iteration with metrics
    double trainSeconds = 0.0; ///< "time/sft_s" plus the sum of "time/total_s": compute time, without pauses
};

/// A training run's shape: what the trainer records beside the config text (Store::setRunShape).
struct RunShape {
    std::string method;
    std::string environment;
    std::int64_t seed = 0;
    std::int64_t policyWidth = 0;
    std::int64_t policyLayers = 0;
    std::int64_t iterationsPlanned = 0;
};

/// "household · triage · s0 · 128×2": a run's shape in one line, for the run lists of the CLI and the workbench;
/// empty for an import. Any thread.
std::string runSummary(const RunInfo& run);

struct NewRun {
    std::string name;
    RunKind kind = RunKind::Import;
    RunStatus status = RunStatus::Finished;
    std::optional<std::string> source;
    std::optional<std::string> sourceFormat = std::nullopt; ///< RunInfo::sourceFormat
};

/// One trajectory without its turns, for lists.
struct TrajectoryInfo {
    std::int64_t rowId = 0; ///< the store's key
    std::string id; ///< the JSONL id
    std::string group;
    std::optional<std::int64_t> iteration;
    Task task;
    double reward = 0.0;
    std::optional<bool> success;
    std::int64_t turnCount = 0;
    bool evaluation = false; ///< a greedy evaluation episode of a trained run, not a rollout it trained on

    bool successOrDefault() const { return success.value_or(reward > 0.0); }
};

/// One group of a run: the trajectories that share an iteration (none: imported ones) and a group key.
struct GroupInfo {
    std::optional<std::int64_t> iteration; ///< nullopt for trajectories without one (imported, env rollout)
    std::string group;
    std::optional<std::string> task; ///< the task key its trajectories share; nullopt when they differ or have none
    std::int64_t rollouts = 0;
};

struct MetricPoint {
    std::int64_t iteration = 0;
    std::string name;
    double value = 0.0;
};

struct HumanLabel {
    std::int64_t trajectoryRowId = 0;
    int turn = 0;
    std::string annotator;
    Role role = Role::N;
    std::string createdAt;
};

/// One training sequence of a trained rollout as the update saw it, token by token: the Tokens view's data (schema
/// 9). Episode mode stores one per segment of the episode's stream, window mode one per turn. Every vector holds one
/// value per token; log-probs are natural logs at the sampling temperature.
struct TokenSegment {
    int segment = 0; ///< its order among the trajectory's sequences
    std::vector<std::int32_t> tokens;
    std::vector<std::string> pieces; ///< each token's text (special tokens spelled out), valid UTF-8
    std::vector<std::int32_t> turns; ///< the turn an action token belongs to; -1 for context (goal, observations)
    std::vector<std::uint8_t> mask; ///< 1 where the policy loss is taken (0 for context, and for a filtered rollout)
    std::vector<float> behaviour; ///< when it was sampled (the rollout's engine); NaN for context tokens
    std::vector<float> current; ///< the trainer's, before the update's first step; NaN where not trained
    std::vector<float> advantage; ///< the token's advantage in the loss; NaN where not trained
};

/// A human label with what identifies its turn across runs: the human judge matches new turns on (task, state,
/// action) (core/judge/humanjudge.h).
struct LabelledTurn {
    std::string task; ///< the trajectory's task key; empty when it has none
    std::string env; ///< the trajectory's environment; empty when it has none
    std::string state; ///< the turn's canonical state key: its `state`, else its observation
    std::string action;
    std::string annotator;
    Role role = Role::N;
    std::int64_t order = 0; ///< a larger value was written later
};

struct JudgeLabel {
    std::int64_t trajectoryRowId = 0;
    int turn = 0;
    std::string judge;
    Role role = Role::N;
    std::optional<double> confidence;
    std::optional<std::string> rationale;
    std::string createdAt;
};

struct SweepInfo {
    std::int64_t id = 0;
    std::string name;
    std::string config;
    TrialStatus status = TrialStatus::Pending;
    std::string createdAt;
};

struct TrialInfo {
    std::int64_t id = 0;
    std::int64_t sweepId = 0;
    std::optional<std::int64_t> runId;
    std::string params;
    TrialStatus status = TrialStatus::Pending;
    std::optional<double> objective;
};

/// One probe's row of a PAIR probe table (pair.md Table 1) on a run's policy: AUROC on the clean-prefix and the
/// contaminated-prefix test records and on both, ECE and Brier on both; stored for an experiment's `probes:`.
struct ProbeResult {
    std::optional<std::int64_t> sweepId;
    std::int64_t runId = 0;
    std::string policy; ///< e.g. "run 3 SFT policy"
    std::int64_t episodes = 0; ///< contaminated episodes drawn
    std::int64_t seed = 0; ///< the contamination seed
    std::string probe; ///< a probeNames() entry, e.g. "last_token"
    std::int64_t features = 0;
    double aurocClean = 0.0;
    double aurocContaminated = 0.0;
    double aurocUnion = 0.0;
    double ece = 0.0;
    double brier = 0.0;
};

/// The current time as ISO 8601 UTC with seconds, e.g. "2026-11-22T03:40:00Z".
std::string currentTimestamp();

/// The CreditLab workspace database: runs, configs, metrics, trajectories, turns, credits, labels,
/// sweeps and trials. One Store per thread (it owns one SQLite connection); readers on other
/// connections never see half a write, because every write path runs in one transaction.
/// Opening refuses a newer or foreign file with a StoreError and leaves it untouched.
class Store {
public:
    using Access = Database::Access;

    explicit Store(const std::string& path, Access access = Access::ReadWrite);
    ~Store();
    Store(const Store&) = delete;
    Store& operator=(const Store&) = delete;

    Database& database() { return m_db; }
    const std::string& path() const { return m_db.path(); }
    int schemaVersion();

    /// Starts a write transaction (BEGIN IMMEDIATE); the returned object rolls back unless committed.
    std::unique_ptr<Transaction> begin() { return std::make_unique<Transaction>(m_db); }

    // Runs. Writes below run in the caller's transaction when there is one, else in their own.
    std::int64_t createRun(const NewRun& run);
    std::vector<RunInfo> runs();
    std::optional<RunInfo> run(std::int64_t id);
    void renameRun(std::int64_t id, const std::string& name);
    void setRunStatus(std::int64_t id, RunStatus status);
    /// Marks a run failed and says why in its notes (a line "failed: <reason>" after what the notes held).
    void failRun(std::int64_t id, const std::string& reason);
    void setRunTags(std::int64_t id, const std::string& tags);
    /// Deletes the run and everything that belongs to it.
    void deleteRun(std::int64_t id);
    void setRunConfig(std::int64_t runId, const std::string& format, const std::string& text);
    /// Records a training run's shape in the run's columns (with its config; again on a resume that changes it).
    void setRunShape(std::int64_t runId, const RunShape& shape);
    std::optional<std::string> runConfig(std::int64_t runId);

    // Metrics per iteration.
    void writeMetrics(
        std::int64_t runId, std::int64_t iteration, std::span<const std::pair<std::string, double>> values);
    std::vector<MetricPoint> metrics(std::int64_t runId);
    /// The points at `fromIteration` and later, for readers that poll a run as it grows (Monitor, Compare).
    std::vector<MetricPoint> metrics(std::int64_t runId, std::int64_t fromIteration);
    /// SFT's per-step curves (sft/loss, sft/token_accuracy): each point's `iteration` is the SFT step (1, 2, ...
    /// over all epochs and DAgger rounds). Written by the trainer as SFT runs.
    void writeSftMetrics(std::int64_t runId, std::span<const MetricPoint> points);
    /// The SFT points at `fromStep` and later, ordered by name and step.
    std::vector<MetricPoint> sftMetrics(std::int64_t runId, std::int64_t fromStep = 0);
    void addCheckpoint(std::int64_t runId, std::int64_t iteration, const std::string& path);
    std::optional<std::pair<std::int64_t, std::string>> lastCheckpoint(std::int64_t runId);
    /// Every checkpoint of the run, oldest first.
    std::vector<std::pair<std::int64_t, std::string>> checkpoints(std::int64_t runId);
    void removeCheckpoint(std::int64_t runId, std::int64_t iteration);
    /// Deletes the metrics, trajectories (with their turns, credits and labels) and checkpoints of the
    /// iterations after `iteration`: what a resumed run recomputes. With `iteration` < 0 (SFT again) also
    /// the SFT curves.
    void truncateRun(std::int64_t runId, std::int64_t iteration);

    // Trajectories and turns.
    /// Inserts one trajectory with its turns; `ord` is its position in the run. Returns its row id. An `evaluation`
    /// episode (a trained run's greedy evaluation) is kept apart from the run's training batches.
    std::int64_t insertTrajectory(
        std::int64_t runId, std::int64_t ord, const Trajectory& trajectory, bool evaluation = false);
    /// Which trajectories of a run a query reads.
    enum class Which { Training, Evaluation, All };
    /// The run's trajectories in order: its rollouts (and imported ones) by default; evaluation episodes on request.
    std::vector<TrajectoryInfo> trajectories(
        std::int64_t runId, std::optional<std::int64_t> iteration = {}, Which which = Which::Training);
    /// The iterations that have training trajectories (or, with Which, evaluation episodes).
    std::vector<std::int64_t> iterations(std::int64_t runId, Which which = Which::Training);
    /// The run's groups, training and evaluation alike, in the order of their first trajectory. Trajectories
    /// without an iteration form groups of their own, apart from iteration 0's (unlike trajectories(run, 0)).
    std::vector<GroupInfo> groups(std::int64_t runId);
    /// The trajectories of one group in order; `iteration` nullopt means those without an iteration, not "any".
    std::vector<TrajectoryInfo> groupTrajectories(
        std::int64_t runId, std::optional<std::int64_t> iteration, const std::string& group);
    /// Throws StoreError when there is no such trajectory.
    Trajectory loadTrajectory(std::int64_t rowId);
    /// The run a trajectory belongs to; nullopt when there is no such trajectory.
    std::optional<std::int64_t> runOfTrajectory(std::int64_t rowId);
    /// Calls `visit` for every trajectory of the run in order; stops early when it returns false.
    /// Reads in one read transaction, so it sees one consistent state. Returns false when stopped.
    bool forEachTrajectory(
        std::int64_t runId, std::optional<std::int64_t> iteration, const std::function<bool(const Trajectory&)>& visit);
    /// As above, also passing each trajectory's row id (for writing credits back).
    bool forEachTrajectoryRow(std::int64_t runId, std::optional<std::int64_t> iteration,
        const std::function<bool(std::int64_t rowId, const Trajectory&)>& visit);

    // Credits per method and turn.
    /// Stores (replaces) the credits of `method` for the turns of one trajectory, tagged with the
    /// parameters that produced them. Refuses non-finite values. `detailsJson[t]` is a JSON object.
    void writeCredits(std::int64_t trajectoryRowId, const std::string& method, std::span<const double> advantages,
        std::span<const std::string> detailsJson = {}, const std::string& params = {});
    /// The parameters stored with a method's credits on a run; nullopt when it has none.
    std::optional<std::string> creditParams(std::int64_t runId, const std::string& method);
    std::vector<double> credits(std::int64_t trajectoryRowId, const std::string& method);
    std::vector<std::string> creditMethods(std::int64_t runId);

    // Token segments (the Tokens view).
    /// Stores (replaces) a trajectory's token segments. Refuses a segment whose vectors differ in length.
    void writeTokenSegments(std::int64_t trajectoryRowId, std::span<const TokenSegment> segments);
    /// A trajectory's token segments in order; empty when none were stored (imported and evaluation trajectories,
    /// rl.store_tokens, a database from before schema 9). Throws StoreError naming the row and column of a damaged one.
    std::vector<TokenSegment> tokenSegments(std::int64_t trajectoryRowId);

    // Labels.
    void setHumanLabel(std::int64_t trajectoryRowId, int turn, const std::string& annotator, Role role);
    void clearHumanLabel(std::int64_t trajectoryRowId, int turn, const std::string& annotator);
    std::vector<HumanLabel> humanLabels(std::int64_t trajectoryRowId);
    /// Every human label in the database (only `annotator`'s when not empty) with its turn's task, state and
    /// action, oldest first. One query.
    std::vector<LabelledTurn> humanLabelledTurns(const std::string& annotator = {});
    void setJudgeLabel(const JudgeLabel& label);
    std::vector<JudgeLabel> judgeLabels(std::int64_t trajectoryRowId);

    // Sweeps and trials.
    std::int64_t createSweep(const std::string& name, const std::string& config);
    std::vector<SweepInfo> sweeps();
    std::int64_t addTrial(std::int64_t sweepId, const std::string& params);
    void finishTrial(std::int64_t trialId, std::optional<std::int64_t> runId, TrialStatus status,
        std::optional<double> objective);
    std::vector<TrialInfo> trials(std::int64_t sweepId);
    std::optional<SweepInfo> sweep(std::int64_t id);
    void setSweepStatus(std::int64_t id, TrialStatus status);
    /// Replaces sweep `id`'s stored text: an experiment records its SFT runs in it, and `experiment extend` its
    /// added seeds. Throws StoreError when there is no such sweep (a write that changed nothing would be lost
    /// silently).
    void setSweepConfig(std::int64_t id, const std::string& config);
    /// Stores one probe table (its rows share sweep, run, episodes and seed), all rows or none; a table stored
    /// before for the same sweep, run, episodes and seed is replaced.
    void addProbeTable(const std::vector<ProbeResult>& rows);
    /// The probe rows of a sweep, by seed then in the order stored.
    std::vector<ProbeResult> probeResults(std::int64_t sweepId);
    /// Marks a trial "running" on run `runId` (its objective cleared).
    void startTrial(std::int64_t trialId, std::int64_t runId);

    // Identities that hold across databases (schema 11: uid columns; storemerge.h merges by them). store_uids.cpp.
    /// The sweep with this uid, created (status running, `trialsPlanned` trials in all) when there is none.
    std::int64_t ensureSweep(
        const std::string& uid, const std::string& name, const std::string& config, std::int64_t trialsPlanned);
    /// The trial with this uid, created pending in sweep `sweepId` when there is none.
    TrialInfo ensureTrial(const std::string& uid, std::int64_t sweepId, const std::string& params);
    /// Sets a run's uid (replacing the random one it got when inserted).
    void setRunUid(std::int64_t runId, const std::string& uid);
    /// Sweep `id`'s status from its trials when it knows how many it has: finished once all are, else running.
    void updatePlannedSweepStatus(std::int64_t id);

private:
    /// Fills `trajectory` from a row of "SELECT <trajectory columns>, extra" plus its turns and credits;
    /// returns its row id.
    std::int64_t readTrajectoryRow(const Statement& header, Trajectory& trajectory);
    Statement& creditInsert();
    Statement& turnInsert(std::size_t rows);
    std::int64_t insertTrajectoryRows(
        std::int64_t runId, std::int64_t ord, const Trajectory& trajectory, bool evaluation = false);

    struct Cache;
    Database m_db;
    std::unique_ptr<Cache> m_cache;
};

} // namespace creditlab
