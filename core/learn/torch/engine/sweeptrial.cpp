// One trial of a sweep on its own (sweeptrial.h).
#include "core/learn/torch/engine/sweeptrial.h"

#include "core/learn/api/runtime.h"
#include "core/storage/store.h"
#include "core/storage/storesync.h"

#include <memory>

namespace creditlab::learn {

std::string sweepUid(const SweepSpec& spec)
{
    return "sweep-" + sha256Hex(spec.text + '\0' + spec.baseText).substr(0, 24);
}

std::string trialUid(const SweepSpec& spec, int index) { return sweepUid(spec) + "/trial-" + std::to_string(index); }

SingleTrialResult runSingleTrial(const SweepSpec& sweep, int index, const SweepOptions& options,
    const TrainCallback& callback, const std::atomic<bool>* stop)
{
    if (sweep.isExperiment())
        throw ConfigError(sweep.source + ": an experiment (it has arms); sweep trial runs sweep files");
    const int count = static_cast<int>(sweep.trials.size());
    if (index < 0 || index >= count)
        throw ConfigError(sweep.source + ": --trial " + std::to_string(index) + ": the sweep has "
            + std::to_string(count) + " trials, numbered 0 to " + std::to_string(count - 1));
    SweepSpec spec = sweep;
    spec.workers = 1; // one trial in this process: `threads: 0` means every core
    configureThreads({ spec.trialThreads() });
    const SweepTrialSpec& trial = spec.trials[static_cast<std::size_t>(index)];

    SingleTrialResult result;
    result.trialUid = trialUid(spec, index);
    Store store(options.database);
    TrialInfo info;
    {
        auto tx = store.begin();
        result.sweepId = store.ensureSweep(sweepUid(spec), spec.name, spec.storedText(), count);
        info = store.ensureTrial(result.trialUid, result.sweepId, trial.paramsText());
        tx->commit();
    }
    result.trialId = info.id;
    const auto existing = info.runId ? store.run(*info.runId) : std::nullopt;
    const auto finish = [&] {
        if (result.runId > 0)
            result.objective = trialObjective(options.database, result.runId, spec.objective, spec.objectiveMode);
        store.finishTrial(
            info.id, result.runId > 0 ? std::optional(result.runId) : std::nullopt, result.status, result.objective);
        store.updatePlannedSweepStatus(result.sweepId);
        return result;
    };
    if (existing && existing->status == RunStatus::Finished) {
        result.runId = existing->id;
        result.status = TrialStatus::Finished;
        result.alreadyFinished = true;
        return finish();
    }
    try {
        TrainOptions trainOptions { options.database, options.device, RunKind::Trial, info.id };
        const std::string runUid = result.trialUid + "/run";
        trainOptions.onCreated = [runUid](Store& s, std::int64_t runId) { s.setRunUid(runId, runUid); };
        std::unique_ptr<Trainer> trainer;
        if (existing) {
            trainer = Trainer::resume(existing->id, trainOptions);
            result.resumed = true;
        } else {
            trainer = std::make_unique<Trainer>(spec.trialConfig(trial), trainOptions);
        }
        result.runId = trainer->runId();
        store.startTrial(info.id, result.runId);
        const RunStatus ended = trainer->run(callback, stop).status;
        result.status = ended == RunStatus::Finished ? TrialStatus::Finished : TrialStatus::Cancelled;
    } catch (const std::exception& e) {
        result.status = TrialStatus::Failed;
        result.error = e.what();
        if (!result.runId && info.runId)
            result.runId = *info.runId;
    }
    releaseFreeMemory();
    return finish();
}

} // namespace creditlab::learn
