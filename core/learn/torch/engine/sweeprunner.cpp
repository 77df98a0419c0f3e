// Running a sweep: trials on worker threads, each with its own Store and Trainer, progress snapshots
// serialized through one mutex, the state of every trial in the store. Needs the trainer (LibTorch).
#include "core/learn/api/experiment.h"
#include "core/learn/api/sweep.h"

#include "core/learn/api/runtime.h"
#include "core/learn/api/trialmemory.h"
#include "core/learn/torch/engine/experimentsft_p.h"
#include "core/learn/torch/engine/trainer.h"
#include "core/learn/torch/pair/probepipeline.h"
#include "core/model/progress.h"
#include "core/storage/store.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <mutex>
#include <set>
#include <thread>

namespace creditlab::learn {

using Clock = std::chrono::steady_clock;

namespace {

std::optional<double> objectiveOf(Store& store, std::int64_t runId, const std::string& metric, const std::string& mode)
{
    std::optional<double> out;
    std::int64_t lastIteration = -1;
    for (const auto& m : store.metrics(runId)) {
        if (m.name != metric)
            continue;
        if (mode == "last" ? m.iteration >= lastIteration : (!out || m.value > *out)) {
            out = m.value;
            lastIteration = m.iteration;
        }
    }
    return out;
}

class SweepRunner {
public:
    SweepRunner(const SweepSpec& spec, const SweepOptions& options, const SweepCallback& callback,
        const std::atomic<bool>* stop)
        : m_spec(spec)
        , m_options(options)
        , m_callback(callback)
        , m_stop(stop)
    {
    }

    /// Runs the trials at `queue` (indices into `trials`) on the spec's workers.
    SweepResult run(std::int64_t sweepId, std::vector<TrialProgress> trials, std::vector<std::size_t> queue)
    {
        m_sweepId = sweepId;
        m_trials = std::move(trials);
        m_queue = std::move(queue);
        m_lastEmit.assign(m_trials.size(), Clock::time_point {});
        m_started.assign(m_trials.size(), Clock::time_point {});
        m_start = Clock::now();
        if (m_spec.probes) { // the tables a resume finds stored count as done from the first snapshot on
            const auto stored = storedProbeSeeds(sweepId);
            for (const auto seed : m_spec.probes->seeds)
                m_probeTablesDone += stored.count(seed) > 0;
        }
        {
            std::lock_guard lock(m_mutex);
            publishLocked();
        }
        fitInMemory();
        const auto workers = std::min<std::size_t>(static_cast<std::size_t>(m_workers), m_queue.size());
        std::vector<std::thread> threads;
        for (std::size_t w = 0; w < workers; ++w)
            threads.emplace_back([this] { work(); });
        for (auto& t : threads)
            t.join();

        SweepResult result;
        result.sweepId = sweepId;
        result.trials = m_trials;
        bool open = false, failed = false;
        for (const auto& t : m_trials) {
            open = open || !hasEnded(t.status);
            failed = failed || t.status == TrialStatus::Failed;
        }
        if (m_spec.probes && !open) {
            const TrialStatus probes = runProbeTables(sweepId);
            open = probes == TrialStatus::Cancelled;
            failed = failed || probes == TrialStatus::Failed;
        }
        result.status = open ? TrialStatus::Cancelled : failed ? TrialStatus::Failed : TrialStatus::Finished;
        result.probeTablesDone = m_probeTablesDone;
        result.probeTablesTotal = m_spec.probes ? static_cast<int>(m_spec.probes->seeds.size()) : 0;
        Store(m_options.database).setSweepStatus(sweepId, result.status);
        return result;
    }

private:
    /// The trials to run at once: the spec's workers, or as many as fit in the memory available now (trialmemory.h),
    /// judged by the largest trial still to run. The note that says so is logged and goes out with every progress.
    void fitInMemory()
    {
        m_workers = m_spec.workers;
        if (m_workers < 2 || m_queue.size() < 2)
            return;
        const std::string device = resolveDevice(m_options.device);
        double largest = 0.0;
        for (const std::size_t q : m_queue) {
            try {
                const auto& trial = m_spec.trials[static_cast<std::size_t>(m_trials[q].index)];
                largest = std::max(largest, estimateTrialMemory(m_spec.trialConfig(trial), device).resident);
            } catch (const std::exception& e) { // the trial fails with this error when it starts, where it is recorded
                spdlog::debug("sweep {}: no memory estimate for trial {}: {}", m_sweepId, q + 1, e.what());
            }
        }
        const WorkerFit fit = fitWorkers(m_workers, largest, availableMemoryBytes());
        m_workers = fit.workers;
        m_memoryNote = fit.note;
        if (!fit.note.empty())
            spdlog::info("sweep {}: {}", m_sweepId, fit.note);
        std::lock_guard lock(m_mutex);
        publishLocked();
    }

    /// An experiment's `probes:`: the probe table of the shared SFT policy for every seed not yet stored, with every
    /// core, after the trials (a resume computes the missing ones). Finished when all are stored, Cancelled when the
    /// stop flag ended it, Failed (logged) when one could not be computed.
    TrialStatus runProbeTables(std::int64_t sweepId)
    {
        const auto& plan = *m_spec.probes;
        std::int64_t sftRun = 0;
        try {
            sftRun = std::stoll(m_spec.sft);
        } catch (const std::exception&) {
            spdlog::error("experiment {}: the probe tables need the shared SFT run, and there is none ({})", sweepId,
                m_spec.sft);
            return TrialStatus::Failed;
        }
        Store store(m_options.database);
        const std::set<std::int64_t> stored = storedProbeSeeds(sweepId);
        configureThreads(RuntimeOptions { m_spec.workers * m_spec.trialThreads() });
        const auto names = probeNames();
        const auto setActivity = [this](std::string activity, bool tableDone) {
            std::lock_guard lock(m_mutex);
            m_probeActivity = std::move(activity);
            m_probeTablesDone += tableDone;
            publishLocked();
        };
        std::size_t index = 0;
        for (const auto seed : plan.seeds) {
            ++index;
            if (stored.count(seed))
                continue;
            if (m_stop && m_stop->load())
                return TrialStatus::Cancelled;
            const auto started = Clock::now();
            const std::string table = "probe table " + std::to_string(index) + "/" + std::to_string(plan.seeds.size())
                + " (seed " + std::to_string(seed) + ")";
            auto lastShown = Clock::time_point {};
            const ProbeCallback keepGoing = [&](const ProbeProgress& progress) {
                if (Clock::now() - lastShown > std::chrono::milliseconds(200)) {
                    lastShown = Clock::now();
                    setActivity(table + ": " + progress.phase + " " + std::to_string(progress.done) + "/"
                            + std::to_string(progress.total),
                        false);
                }
                return !(m_stop && m_stop->load());
            };
            setActivity(table + ": starting", false);
            try {
                ProbeDataOptions options;
                options.episodes = plan.episodes;
                options.seed = static_cast<std::uint64_t>(seed);
                const ProbeData data
                    = buildProbeData(ProbeSource { m_options.database, sftRun, true, m_options.device }, options, keepGoing);
                const ProbeSet set = fitProbes(data, names, {}, keepGoing);
                std::vector<ProbeResult> rows;
                for (const auto& row : evaluateProbes(set, data))
                    rows.push_back(ProbeResult { sweepId, sftRun, data.policy, plan.episodes, seed, row.name,
                        row.features, row.aurocClean, row.aurocContaminated, row.aurocUnion, row.ece, row.brier });
                store.addProbeTable(rows);
                setActivity("", true);
                releaseFreeMemory();
                spdlog::info("experiment {}: probe table {}/{} (seed {}, {} episodes, {}) in {:.0f} s", sweepId, index,
                    plan.seeds.size(), seed, plan.episodes, data.policy,
                    std::chrono::duration<double>(Clock::now() - started).count());
            } catch (const Cancelled&) {
                setActivity("", false);
                return TrialStatus::Cancelled;
            } catch (const std::exception& e) {
                setActivity("", false);
                spdlog::error("experiment {}: probe table (seed {}): {}", sweepId, seed, e.what());
                return TrialStatus::Failed;
            }
        }
        return TrialStatus::Finished;
    }

    /// The contamination seeds whose probe table of the shared SFT run (at the planned episodes) is stored.
    std::set<std::int64_t> storedProbeSeeds(std::int64_t sweepId) const
    {
        std::set<std::int64_t> seeds;
        Store store(m_options.database, Store::Access::ReadOnly);
        for (const auto& row : store.probeResults(sweepId))
            if (std::to_string(row.runId) == m_spec.sft && row.episodes == m_spec.probes->episodes)
                seeds.insert(row.seed);
        return seeds;
    }

    void work()
    {
        std::unique_ptr<Store> store;
        for (;;) {
            std::size_t slot = 0;
            {
                std::lock_guard lock(m_mutex);
                if (m_next >= m_queue.size() || (m_stop && m_stop->load()))
                    return;
                slot = m_queue[m_next++];
            }
            try {
                if (!store)
                    store = std::make_unique<Store>(m_options.database);
                runTrial(*store, slot);
            } catch (const std::exception& e) {
                // Only the store's own bookkeeping gets here; the trial is left for a resume.
                std::lock_guard lock(m_mutex);
                m_trials[slot].status = TrialStatus::Cancelled;
                m_trials[slot].error = e.what();
                publishLocked();
            }
        }
    }

    void runTrial(Store& store, std::size_t slot)
    {
        SweepTrialSpec trial;
        std::int64_t trialId = 0, runId = 0;
        {
            std::lock_guard lock(m_mutex);
            auto& t = m_trials[slot];
            trial = { t.index, t.point };
            trialId = t.trialId;
            runId = t.runId;
            t.status = TrialStatus::Running;
            t.phase = Phase::Setup;
            t.error.clear();
            m_started[slot] = Clock::now();
            publishLocked();
        }
        TrialStatus status = TrialStatus::Running;
        std::string error;
        std::optional<double> objective;
        try {
            std::unique_ptr<Trainer> trainer;
            const TrainOptions options { m_options.database, m_options.device, RunKind::Trial, trialId };
            const auto existing = runId > 0 ? store.run(runId) : std::nullopt;
            if (existing && existing->status == RunStatus::Finished) {
                status = TrialStatus::Finished; // it ended before its trial was recorded
            } else {
                // Trainers in one process are safe together: model initialisation serializes itself.
                trainer = existing ? Trainer::resume(runId, options)
                                   : std::make_unique<Trainer>(m_spec.trialConfig(trial), options);
                runId = trainer->runId();
                store.startTrial(trialId, runId);
                {
                    std::lock_guard lock(m_mutex);
                    m_trials[slot].runId = runId;
                    publishLocked();
                }
                const auto iterations = trainer->config().getInt("rl.iterations");
                const RunStatus ended
                    = trainer->run([&](const TrainProgress& p) { return onProgress(slot, p, iterations); }, m_stop).status;
                status = ended == RunStatus::Finished ? TrialStatus::Finished : TrialStatus::Cancelled;
            }
            objective = objectiveOf(store, runId, m_spec.objective, m_spec.objectiveMode);
        } catch (const std::exception& e) {
            status = TrialStatus::Failed;
            error = e.what();
        }
        releaseFreeMemory(); // this thread's arena holds the trial's peak; the next trial may run on another thread
        store.finishTrial(trialId, runId > 0 ? std::optional<std::int64_t>(runId) : std::nullopt, status, objective);
        std::lock_guard lock(m_mutex);
        auto& t = m_trials[slot];
        t.status = status;
        t.error = error;
        t.objective = objective;
        t.phase = status == TrialStatus::Finished ? Phase::Done : t.phase;
        if (status == TrialStatus::Finished) {
            t.fraction = 1.0;
            m_durations.push_back(std::chrono::duration<double>(Clock::now() - m_started[slot]).count());
        }
        t.etaSeconds = -1.0;
        publishLocked();
    }

    bool onProgress(std::size_t slot, const TrainProgress& p, std::int64_t iterations)
    {
        std::lock_guard lock(m_mutex);
        auto& t = m_trials[slot];
        // An evaluation counts as the phase it ends: SFT (iteration 0) or its RL iteration, not yet finished.
        const bool eval = p.phase == Phase::Eval;
        t.phase = eval ? (p.iteration == 0 ? Phase::Sft : Phase::Rl) : p.phase;
        t.iteration = t.phase == Phase::Rl || t.phase == Phase::Waiting
            ? std::max<std::int64_t>(0, p.iteration - (eval ? 1 : 0))
            : 0;
        t.iterations = iterations;
        t.fraction = iterations > 0 ? static_cast<double>(t.iteration) / static_cast<double>(iterations) : 0.0;
        t.etaSeconds = p.etaSeconds;
        // At most every 100 ms per trial, but always the end of an iteration (it carries new metrics).
        const auto now = Clock::now();
        if (now - m_lastEmit[slot] >= std::chrono::milliseconds(100) || !p.metrics.empty()) {
            m_lastEmit[slot] = now;
            publishLocked();
        }
        return true;
    }

    void publishLocked()
    {
        if (!m_callback)
            return;
        SweepProgress p;
        p.sweepId = m_sweepId;
        p.trials = m_trials;
        p.total = static_cast<int>(m_trials.size());
        double remaining = 0.0;
        for (const auto& t : m_trials) {
            if (hasEnded(t.status))
                ++p.done;
            else if (t.status == TrialStatus::Running)
                remaining += 1.0 - t.fraction;
            else
                remaining += 1.0;
        }
        p.probeTablesDone = m_probeTablesDone;
        p.probeTablesTotal = m_spec.probes ? static_cast<int>(m_spec.probes->seeds.size()) : 0;
        p.probeActivity = m_probeActivity;
        p.workers = m_workers;
        p.memoryNote = m_memoryNote;
        p.elapsedSeconds = std::chrono::duration<double>(Clock::now() - m_start).count();
        if (!m_durations.empty()) {
            double mean = 0.0;
            for (double d : m_durations)
                mean += d / static_cast<double>(m_durations.size());
            p.etaSeconds = remaining * mean / std::max(1.0, std::min<double>(m_workers, std::ceil(remaining)));
        }
        m_callback(p);
    }

    const SweepSpec& m_spec;
    SweepOptions m_options;
    const SweepCallback& m_callback;
    const std::atomic<bool>* m_stop;
    int m_workers = 1; // the trials run at once (fitInMemory)
    std::string m_memoryNote;
    std::mutex m_mutex; // guards everything below and serializes the callback
    std::int64_t m_sweepId = 0;
    std::vector<TrialProgress> m_trials;
    std::vector<std::size_t> m_queue;
    std::size_t m_next = 0;
    std::vector<Clock::time_point> m_lastEmit;
    std::vector<Clock::time_point> m_started;
    std::vector<double> m_durations;
    Clock::time_point m_start;
    int m_probeTablesDone = 0;
    std::string m_probeActivity;
};

/// The spec with the command line's workers, refused when workers x threads exceed the machine: before anything is
/// written.
SweepSpec checkedWorkers(SweepSpec spec, const SweepOptions& options)
{
    if (options.workers > 0)
        spec.workers = options.workers;
    spec.checkResources();
    return spec;
}

/// checkedWorkers(), then the threads every trial runs with.
SweepSpec withWorkers(SweepSpec spec, const SweepOptions& options)
{
    spec = checkedWorkers(std::move(spec), options);
    // LibTorch's and OpenBLAS's thread counts are process-wide: set once, the same for every trial.
    configureThreads({ spec.trialThreads() });
    return spec;
}

struct SweepRows {
    std::int64_t sweepId = 0;
    std::vector<TrialProgress> trials;
    std::vector<std::size_t> queue;
};

/// Creates the sweep row (status running) and its trials, pending, in one transaction.
SweepRows createSweepRows(const SweepSpec& spec, const std::string& database)
{
    SweepRows rows;
    Store store(database);
    auto tx = store.begin();
    rows.sweepId = store.createSweep(spec.name, spec.storedText());
    for (const auto& t : spec.trials) {
        TrialProgress p;
        p.index = t.index;
        p.point = t.point;
        p.trialId = store.addTrial(rows.sweepId, t.paramsText());
        rows.queue.push_back(rows.trials.size());
        rows.trials.push_back(std::move(p));
    }
    store.setSweepStatus(rows.sweepId, TrialStatus::Running);
    tx->commit();
    return rows;
}

} // namespace

SweepResult runSweep(
    const SweepSpec& sweep, const SweepOptions& options, const SweepCallback& callback, const std::atomic<bool>* stop)
{
    const SweepSpec spec = withWorkers(sweep, options);
    SweepRows rows = createSweepRows(spec, options.database);
    return SweepRunner(spec, options, callback, stop).run(rows.sweepId, std::move(rows.trials), std::move(rows.queue));
}

SweepResult runExperiment(SweepSpec spec, const SweepOptions& options, const SweepCallback& callback,
    const TrainCallback& sftCallback, const std::atomic<bool>* stop)
{
    if (!spec.isExperiment() || (spec.sft != "shared" && spec.sft != "per_seed"))
        return runSweep(spec, options, callback, stop);
    // The experiment and its trials exist before its SFT starts train: a stop or a kill during an SFT leaves an
    // experiment to resume, and each SFT run is recorded in it as soon as it exists.
    spec = checkedWorkers(std::move(spec), options); // the SFT starts set their own threads; the trials' come after
    SweepRows rows = createSweepRows(spec, options.database);
    std::vector<SftJob> jobs;
    {
        Store store(options.database);
        jobs = sftJobs(spec, store);
    }
    auto trained
        = trainSftStarts(std::move(spec), jobs, rows.sweepId, options, sftCallback, callback, rows.trials, stop);
    if (!trained)
        return stoppedDuringSft(rows.sweepId, std::move(rows.trials));
    const SweepSpec ready = withWorkers(*trained, options);
    return SweepRunner(ready, options, callback, stop).run(rows.sweepId, std::move(rows.trials), std::move(rows.queue));
}

SweepResult resumeExperiment(std::int64_t sweepId, const SweepOptions& options, const SweepCallback& callback,
    const TrainCallback& sftCallback, const std::atomic<bool>* stop)
{
    Store store(options.database);
    const auto info = store.sweep(sweepId);
    if (!info)
        throw std::invalid_argument("sweep " + std::to_string(sweepId) + " does not exist in " + options.database);
    auto stored = SweepSpec::parse(info->config, "sweep " + std::to_string(sweepId) + " config", {});
    stored.name = info->name;
    stored.trials.clear();
    std::vector<TrialProgress> trials;
    std::vector<std::size_t> queue;
    for (const auto& row : store.trials(sweepId)) {
        TrialProgress p;
        p.index = static_cast<int>(trials.size());
        p.trialId = row.id;
        p.point = SweepTrialSpec::parseParams(row.params);
        p.status = row.status == TrialStatus::Running ? TrialStatus::Cancelled : row.status; // a process that ended mid-trial
        p.runId = row.runId.value_or(0);
        p.objective = row.objective;
        if (p.status == TrialStatus::Finished)
            p.fraction = 1.0;
        if (p.status == TrialStatus::Pending || p.status == TrialStatus::Cancelled)
            queue.push_back(trials.size());
        stored.trials.push_back({ p.index, p.point });
        trials.push_back(std::move(p));
    }
    store.setSweepStatus(sweepId, TrialStatus::Running);
    // An experiment stopped or killed during an SFT start: that run first (continued from its checkpoint, or from its
    // seed), and a new one for each start not created yet (the experiment ended before it, or `experiment extend`
    // added its seed).
    const auto jobs = sftJobs(stored, store);
    if (!jobs.empty()) {
        auto trained = trainSftStarts(stored, jobs, sweepId, options, sftCallback, callback, trials, stop);
        if (!trained)
            return stoppedDuringSft(sweepId, std::move(trials));
        stored = std::move(*trained);
    }
    const SweepSpec spec = withWorkers(stored, options);
    return SweepRunner(spec, options, callback, stop).run(sweepId, std::move(trials), std::move(queue));
}

SweepResult resumeSweep(
    std::int64_t sweepId, const SweepOptions& options, const SweepCallback& callback, const std::atomic<bool>* stop)
{
    return resumeExperiment(sweepId, options, callback, {}, stop);
}

std::optional<double> trialObjective(
    const std::string& database, std::int64_t runId, const std::string& metric, const std::string& mode)
{
    Store store(database, Store::Access::ReadOnly);
    return objectiveOf(store, runId, metric, mode);
}

} // namespace creditlab::learn
