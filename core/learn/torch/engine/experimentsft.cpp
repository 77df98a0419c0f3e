// The SFT starts of an experiment, trained before its trials (experimentsft_p.h).
#include "core/learn/torch/engine/experimentsft_p.h"

#include "core/learn/api/runtime.h"
#include "core/storage/store.h"

#include <algorithm>
#include <memory>

namespace creditlab::learn {

std::vector<SftJob> sftJobs(const SweepSpec& spec, Store& store)
{
    std::vector<SftJob> jobs;
    if (!spec.isExperiment())
        return jobs;
    const auto recorded = [&](std::int64_t runId, const std::string& seed) {
        const auto run = store.run(runId);
        if (run && run->kind == RunKind::Train && run->status != RunStatus::Finished
            && run->name == spec.sftRunName(seed))
            jobs.push_back({ seed, runId });
    };
    if (spec.sft == "shared") {
        jobs.push_back({});
    } else if (spec.sft == "per_seed") {
        for (const auto& seed : spec.seeds()) {
            const auto run = spec.sftRuns.find(std::stoll(seed));
            if (run == spec.sftRuns.end())
                jobs.push_back({ seed, std::nullopt });
            else
                recorded(run->second, seed);
        }
    } else if (spec.sft != "none" && !spec.sft.empty()
        && spec.sft.find_first_not_of("0123456789") == std::string::npos) {
        recorded(std::stoll(spec.sft), {});
    }
    return jobs;
}

std::optional<SweepSpec> trainSftStarts(SweepSpec spec, const std::vector<SftJob>& jobs, std::int64_t sweepId,
    const SweepOptions& options, const TrainCallback& sftCallback, const SweepCallback& callback,
    const std::vector<TrialProgress>& trials, const std::atomic<bool>* stop)
{
    const auto record = [](SweepSpec& s, const std::string& seed, std::int64_t runId) {
        if (seed.empty())
            s.sft = std::to_string(runId);
        else
            s.sftRuns[std::stoll(seed)] = runId;
    };
    for (std::size_t k = 0; k < jobs.size(); ++k) {
        const SftJob& job = jobs[k];
        // The SFT's progress goes to sftCallback and, as the experiment's progress (sftFraction), to the sweep
        // callback.
        const TrainCallback progress = [&](const TrainProgress& p) {
            if (callback && p.phase == Phase::Sft && p.steps > 0) {
                SweepProgress sp;
                sp.sweepId = sweepId;
                sp.trials = trials;
                sp.total = static_cast<int>(trials.size());
                sp.elapsedSeconds = p.elapsedSeconds;
                sp.etaSeconds = p.etaSeconds;
                const double own = std::clamp(static_cast<double>(p.step) / static_cast<double>(p.steps), 0.0, 1.0);
                sp.sftFraction = (static_cast<double>(k) + own) / static_cast<double>(jobs.size());
                sp.sftSeed = job.seed;
                callback(sp);
            }
            return sftCallback ? sftCallback(p) : true;
        };
        TrainResult result;
        try {
            TrainOptions trainOptions { options.database, options.device, RunKind::Train };
            std::unique_ptr<Trainer> trainer;
            if (job.existing) {
                trainer = Trainer::resume(*job.existing, trainOptions);
            } else {
                trainOptions.onCreated = [&](Store& store, std::int64_t runId) {
                    SweepSpec linked = spec;
                    record(linked, job.seed, runId);
                    store.setSweepConfig(sweepId, linked.storedText());
                };
                trainer = std::make_unique<Trainer>(spec.sftConfig(job.seed), trainOptions);
            }
            result = trainer->run(progress, stop);
        } catch (...) {
            try {
                Store(options.database).setSweepStatus(sweepId, TrialStatus::Failed);
            } catch (...) {
            }
            throw;
        }
        releaseFreeMemory(); // the SFT's peak, held by this thread's arena, before the next SFT or the trials
        record(spec, job.seed, result.runId);
        if (result.status != RunStatus::Finished) {
            Store(options.database).setSweepStatus(sweepId, TrialStatus::Cancelled);
            return std::nullopt;
        }
    }
    return spec;
}

SweepResult stoppedDuringSft(std::int64_t sweepId, std::vector<TrialProgress> trials)
{
    SweepResult r;
    r.sweepId = sweepId;
    r.status = TrialStatus::Cancelled;
    r.stoppedInSft = true;
    r.trials = std::move(trials);
    return r;
}

} // namespace creditlab::learn
