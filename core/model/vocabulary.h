#pragma once

// The words that cross layers: a training run's phases, the statuses of runs, trials and sweeps, the kinds of run,
// and the names of the metrics a training run writes. The trainer, the store, the sweep runner, the CLI and the
// workbench spell them through this header; the database and the JSON/CLI output keep the lowercase names below.
// Pure functions and constants; any thread.

#include <array>
#include <optional>
#include <string>
#include <string_view>

namespace creditlab {

/// Where a training run is (TrainProgress::phase, TrialProgress::phase).
enum class Phase {
    Setup, ///< "setup": before the first step (a sweep's trial between its start and its trainer's first report)
    Sft, ///< "sft": supervised warm start, one report per SFT step
    Rl, ///< "rl": RL iterations, one report per iteration
    Eval, ///< "eval": a greedy evaluation begins (after SFT and every eval.every iterations); its `iteration` is the
          ///< iteration evaluated (0: SFT's policy)
    Waiting, ///< "waiting": a remote environment or judge stopped answering; retrying with backoff
    Done, ///< "done": a trial whose run has ended (the sweep runner's)
};
std::string_view phaseName(Phase phase);
std::optional<Phase> phaseFromName(std::string_view name);

/// A run's status (the run table's status).
enum class RunStatus {
    Running, ///< "running": a trainer has it (or had it, until a process ended without a word)
    Paused, ///< "paused": the workbench paused it; it continues in the same process
    Finished, ///< "finished": every iteration done (imports are born finished)
    Failed, ///< "failed": an error ended it
    Cancelled, ///< "cancelled": stopped with a checkpoint; resumable
};
std::string_view runStatusName(RunStatus status);
std::optional<RunStatus> runStatusFromName(std::string_view name);

/// A sweep's or trial's status (the sweep and trial tables' status).
enum class TrialStatus {
    Pending, ///< "pending": not started
    Running, ///< "running"
    Finished, ///< "finished"
    Failed, ///< "failed"
    Cancelled, ///< "cancelled": stopped; a resume runs it (again, from its checkpoint)
};
std::string_view trialStatusName(TrialStatus status);
std::optional<TrialStatus> trialStatusFromName(std::string_view name);
/// Finished or failed: nothing more will happen to it.
inline bool hasEnded(TrialStatus status) { return status == TrialStatus::Finished || status == TrialStatus::Failed; }

/// What made a run (the run table's kind).
enum class RunKind {
    Import, ///< "import": a JSONL file, or rollouts written by `env rollout`
    Train, ///< "train": a training run
    Trial, ///< "trial": a training run that is a sweep's or an experiment's trial
};
std::string_view runKindName(RunKind kind);
std::optional<RunKind> runKindFromName(std::string_view name);

/// The metrics a training run writes: "family/name". Every metric belongs to one of families(); the trainer writes
/// no other, and the Monitor groups its charts by them.
namespace metricnames {

/// The families, as prefixes, in the Monitor's order.
inline constexpr std::array<std::string_view, 13> kFamilies { "eval/", "rollout/", "train/", "sft/", "credit/", "role/",
    "value/", "turnrd/", "pair/", "judge/", "throughput/", "device/", "time/" };
/// The family of `name` ("eval/" for "eval/success"), or nullopt when it belongs to none.
std::optional<std::string_view> familyOf(std::string_view name);

// The names read across layers (by the store, the CLI, the workbench, the sweep objective and the experiments).
inline constexpr std::string_view kEvalSuccess = "eval/success";
inline constexpr std::string_view kEvalInvalidRate = "eval/invalid_rate";
inline constexpr std::string_view kEvalReturn = "eval/return";
inline constexpr std::string_view kRolloutSuccess = "rollout/success";
inline constexpr std::string_view kRolloutReturn = "rollout/return";
inline constexpr std::string_view kRolloutInvalidRate = "rollout/invalid_rate";
inline constexpr std::string_view kRolloutTurns = "rollout/turns";
inline constexpr std::string_view kTrainKl = "train/kl";
inline constexpr std::string_view kTrainEntropy = "train/entropy";
inline constexpr std::string_view kTrainClipFraction = "train/clip_frac";
inline constexpr std::string_view kSftLoss = "sft/loss";
inline constexpr std::string_view kSftTokenAccuracy = "sft/token_accuracy";
inline constexpr std::string_view kSftDemonstrations = "sft/demonstrations";
inline constexpr std::string_view kTimeSft = "time/sft_s";
inline constexpr std::string_view kTimeTotal = "time/total_s";
inline constexpr std::string_view kThroughputGenTokens = "throughput/gen_tokens_per_s";
inline constexpr std::string_view kThroughputTrainTokens = "throughput/train_tokens_per_s";
inline constexpr std::string_view kThroughputEnvSteps = "throughput/env_steps_per_s";
/// The iteration's peak memory in GiB: the CUDA allocator's peak on a GPU, the process's peak resident set on the CPU.
inline constexpr std::string_view kDeviceMemory = "device/memory_gb";

/// "role/D" ... "role/R": the share of judged turns with that TRIAGE role.
std::string role(char role);

/// Where a metric goes in a list of charts: the learning metrics first (eval/success, rollout/success, ...), then
/// the families in kFamilies order, then any other name. Lower ranks first; ties sort by name.
int rank(std::string_view name);

} // namespace metricnames

} // namespace creditlab
