// The run lifecycle: creating or resuming a run, waiting out a server's outage, and the iteration loop; the warm start
// (the initial policy and SFT) is in warmstart.cpp, the evaluation in evaluation.cpp, one iteration in iteration.cpp.
#include "core/hf/hubcache.h"
#include "core/learn/torch/engine/trainerstate.h"
#include "core/storage/paths.h"

#include <algorithm>
#include <thread>

namespace creditlab::learn {

namespace {

/// What the run's columns record of its config (Store::setRunShape): a pretrained policy's width and layers are its
/// config.json's (0 when the folder cannot be read: the run then fails naming it).
RunShape shapeOf(const TrainConfig& config)
{
    std::int64_t width = config.getInt("policy.width"), layers = config.getInt("policy.layers");
    if (const std::string model = config.getText("policy.pretrained"); !model.empty()) {
        try {
            const std::string file = hf::resolveModelFolder(model) + "/config.json";
            const hf::ModelConfig c = hf::parseModelConfig(hf::readTextFile(file), file);
            width = c.hiddenSize;
            layers = c.layers;
        } catch (const std::exception&) {
            width = layers = 0;
        }
    }
    return RunShape { config.method(), config.envName(), config.getInt("seed"), width, layers,
        config.getInt("rl.iterations") };
}

} // namespace

void Trainer::Impl::waitAfterOutage(
    std::string_view what, const ServiceUnavailable& e, Clock::time_point since, double& delay)
{
    const double limit = config.getDouble("rl.outage_wait_s");
    const double waited = secondsSince(since);
    if (waited >= limit)
        throw ServiceUnavailable(fmt::format("{} did not come back after {:.0f} s (rl.outage_wait_s = {:g}): {}; the "
                                             "run keeps its checkpoints: creditlab-cli train --resume {} --db {}",
            what, waited, limit, e.what(), runId, options.database));
    const double pause = std::min(delay, limit - waited);
    delay = std::min(delay * 2.0, 30.0);
    const std::string message = fmt::format("waiting for {} ({:.0f} of {:.0f} s): {}", what, waited, limit, e.what());
    logger()->warn("{}; trying again in {:.0f} s", message, pause);
    if (runCallback && *runCallback) {
        TrainProgress p;
        p.phase = Phase::Waiting;
        p.iteration = std::max<std::int64_t>(0, iteration);
        p.iterations = config.getInt("rl.iterations");
        p.step = static_cast<std::int64_t>(waited);
        p.steps = static_cast<std::int64_t>(std::min(limit, 1e12));
        p.elapsedSeconds = waited;
        p.message = message;
        if (!report(p))
            stopRequested = true;
    }
    const auto waitStart = Clock::now();
    const auto until = waitStart + std::chrono::duration<double>(pause);
    while (!stopRequested && Clock::now() < until) {
        if (runStop && runStop->load())
            stopRequested = true;
        else
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    outageSeconds += secondsSince(waitStart);
    if (stopRequested)
        throw StopWaiting {};
}

namespace {

/// A new run's config: policy.pretrained's sampling defaults where the config does not set them, said in the log.
TrainConfig newRunConfig(const TrainConfig& config)
{
    std::string note;
    TrainConfig out = withGenerationDefaults(config, &note);
    if (!note.empty())
        logger()->info("{}", note);
    return out;
}

} // namespace

Trainer::Trainer(const TrainConfig& given, const TrainOptions& options)
    : d(std::make_unique<Impl>(newRunConfig(given), options))
{
    const TrainConfig& config = d->config;
    NewRun run;
    run.name = config.runName();
    run.kind = options.kind;
    run.status = RunStatus::Running;
    if (d->writer()) {
        auto tx = d->store->begin();
        d->runId = d->store->createRun(run);
        d->store->setRunConfig(d->runId, "yaml", config.toYaml());
        d->store->setRunShape(d->runId, shapeOf(config));
        if (options.trialId)
            d->store->startTrial(*options.trialId, d->runId);
        if (options.onCreated)
            options.onCreated(*d->store, d->runId);
        tx->commit();
    }
    try {
        d->shareRunId();
        d->filesDir = paths::runFiles(options.database, d->runId);
        // A setting that would fail later (a probe file that is not there) surfaces now, not after SFT.
        d->makeLearned();
        if (d->learned)
            d->learned->validate();
        if (d->writer())
            fs::create_directories(d->filesDir);
        d->initialisePolicy();
        d->syncReplicas();
        d->judge = judge::makeJudge(config.judgeName(), config.judgeAssignments(), d->store.get());
    } catch (const std::exception& e) {
        d->fail(e.what());
        throw;
    }
}

void Trainer::Impl::shareRunId()
{
    if (!distributed())
        return;
    std::string id = writer() ? std::to_string(runId) : std::string();
    dist::broadcastBytes(*comm, id);
    runId = std::stoll(id);
}

void Trainer::Impl::fail(const std::string& reason)
{
    if (!writer() || runId == 0)
        return;
    try {
        if (distributed())
            store->failRun(runId, reason);
        else
            store->setRunStatus(runId, RunStatus::Failed);
    } catch (const std::exception& e) {
        logger()->error("run {} could not be marked failed: {}", runId, e.what());
    }
}

Trainer::Trainer(std::unique_ptr<Impl> impl)
    : d(std::move(impl))
{
}

Trainer::~Trainer() = default;

const std::vector<std::string>& Trainer::resumableKeys()
{
    // Besides the schedule: where and how patiently to reach a remote environment or judge (a server that came
    // back on another port), which changes no result.
    static const std::vector<std::string> keys { "rl.iterations", "eval.every", "eval.episodes", "checkpoint.every",
        "checkpoint.keep", "threads", "rl.outage_wait_s", "env.url", "env.timeout_ms", "env.retries", "env.backoff_ms",
        "judge.url", "judge.api_key_env", "judge.timeout_ms", "judge.retries", "judge.backoff_ms",
        "judge.concurrency" };
    return keys;
}

std::unique_ptr<Trainer> Trainer::resume(
    std::int64_t runId, const TrainOptions& options, const std::vector<std::pair<std::string, std::string>>& overrides)
{
    for (const auto& [key, value] : overrides)
        if (std::find(resumableKeys().begin(), resumableKeys().end(), key) == resumableKeys().end()) {
            std::string known;
            for (const auto& k : resumableKeys())
                known += (known.empty() ? "" : ", ") + k;
            throw ConfigError("--set: " + key + ": cannot change when resuming (it would change the iterations "
                + "already run); resumable: " + known);
        }
    // Rank 0 reads the run from the store and tells the other ranks of a data-parallel run (which never open it) its
    // config and last checkpoint; an error on rank 0 reaches them too, so that every rank stops with it.
    std::optional<TrainConfig> config;
    std::optional<std::pair<std::int64_t, std::string>> checkpoint;
    std::string shared; // "<checkpoint iteration or ->\n<checkpoint dir>\n<config yaml>"
    std::optional<std::string> error;
    if (options.launch.rank == 0) {
        try {
            Store store(options.database);
            const auto info = store.run(runId);
            if (!info)
                throw std::invalid_argument("run " + std::to_string(runId) + " does not exist in " + options.database);
            if (info->kind != RunKind::Train && info->kind != RunKind::Trial)
                throw std::invalid_argument("run " + std::to_string(runId) + " is not a training run ("
                    + std::string(runKindName(info->kind)) + ")");
            const auto text = store.runConfig(runId);
            checkpoint = store.lastCheckpoint(runId);
            if (!text)
                throw std::invalid_argument("run " + std::to_string(runId) + " has no stored config to resume from");
            config = TrainConfig::parse(*text, "run " + std::to_string(runId) + " config", overrides);
            if (!overrides.empty()) {
                if (checkpoint && config->getInt("rl.iterations") < checkpoint->first)
                    throw ConfigError("--set: rl.iterations: the run has already finished "
                        + std::to_string(checkpoint->first) + " iterations");
                store.setRunConfig(runId, "yaml", config->toYaml());
                store.setRunShape(runId, shapeOf(*config));
            }
            shared = (checkpoint ? std::to_string(checkpoint->first) + "\n" + checkpoint->second : "-\n") + "\n"
                + config->toYaml();
        } catch (const std::exception& e) {
            if (options.launch.world == 1)
                throw;
            error = e.what();
        }
    }
    auto ranks = Impl::connectRanks(options);
    if (ranks->world() > 1) {
        if (const auto failed = dist::broadcastResult(*ranks, shared, error))
            throw std::invalid_argument(*failed);
        if (ranks->rank() != 0) {
            const auto a = shared.find('\n'), b = shared.find('\n', a + 1);
            if (shared.compare(0, a, "-") != 0)
                checkpoint = std::make_pair(std::stoll(shared.substr(0, a)), shared.substr(a + 1, b - a - 1));
            config = TrainConfig::parse(shared.substr(b + 1), "run " + std::to_string(runId) + " config");
        }
    }
    auto impl = std::make_unique<Impl>(*config, options, std::move(ranks));
    impl->runId = runId;
    impl->filesDir = paths::runFiles(options.database, runId);
    impl->judge = judge::makeJudge(impl->config.judgeName(), impl->config.judgeAssignments(), impl->store.get());
    if (!checkpoint) {
        // Stopped during SFT: start it again from the seed, exactly as the first attempt began.
        if (impl->writer())
            fs::create_directories(impl->filesDir);
        impl->initialisePolicy();
        impl->syncReplicas();
        impl->makeLearned();
        if (impl->learned) // drops a replay side file the first attempt may have begun (rank 0 alone touches it)
            impl->learned->restore({}, -1);
        if (impl->writer()) {
            impl->store->truncateRun(runId, -1);
            impl->store->setRunStatus(runId, RunStatus::Running);
        }
        logger()->info("restarting run {} from the beginning (it stopped before its first checkpoint)", runId);
        return std::unique_ptr<Trainer>(new Trainer(std::move(impl)));
    }
    if (impl->pretrained())
        impl->openPretrained();
    else
        impl->format = std::make_unique<BuiltinFormat>(Tokenizer::load(impl->filesDir + "/tokenizer.txt"));
    impl->buildModels();
    if (impl->lora()) {
        loadModule(impl->filesDir + "/reference.pt", impl->policy); // the SFT adapters, folded into the reference
        impl->foldSftAdapters();
    } else {
        loadModule(impl->filesDir + "/reference.pt", impl->reference);
    }
    const auto state = loadCheckpoint(checkpoint->second, impl->policy, *impl->optimizer,
        impl->critic ? &impl->critic : nullptr, impl->criticOptimizer.get());
    impl->iteration = state.iteration;
    impl->rng.setState(state.rng);
    impl->kl.coef = state.klCoef;
    impl->makeLearned();
    if (impl->learned)
        impl->learned->restore(checkpoint->second, state.iteration);
    impl->syncReplicas(); // every rank read the files rank 0 wrote; the broadcast makes sure of it
    // Iterations after the checkpoint are recomputed exactly; drop what an interrupted run left of them.
    if (impl->writer()) {
        impl->store->truncateRun(runId, state.iteration);
        impl->store->setRunStatus(runId, RunStatus::Running);
    }
    logger()->info("resuming run {} after iteration {}", runId, state.iteration);
    return std::unique_ptr<Trainer>(new Trainer(std::move(impl)));
}

std::int64_t Trainer::runId() const { return d->runId; }
const TrainConfig& Trainer::config() const { return d->config; }
std::string Trainer::device() const { return d->device.str(); }
bool Trainer::hasCheckpoint() const { return d->writer() && d->store->lastCheckpoint(d->runId).has_value(); }
int Trainer::rank() const { return d->comm->rank(); }
int Trainer::world() const { return d->comm->world(); }
std::int64_t Trainer::parameterCount() const { return d->policy->parameterCount(); }

TrainResult Trainer::run(const TrainCallback& callback, const std::atomic<bool>* stop)
{
    TrainResult result;
    result.runId = d->runId;
    bool stopped = false;
    // The waits for a server (waitAfterOutage) report through the callback and watch the flag, during this call only.
    d->runCallback = &callback;
    d->runStop = stop;
    d->stopRequested = false;
    struct Detach {
        Impl* impl;
        ~Detach()
        {
            impl->runCallback = nullptr;
            impl->runStop = nullptr;
        }
    } detach { d.get() };
    try {
        if (d->iteration < 0)
            d->runSft(callback, stop, stopped);
        stopped = stopped || d->stopRequested;
        const auto iterations = d->config.getInt("rl.iterations");
        const auto start = Clock::now();
        const double callbackAtStart = d->callbackSeconds;
        const auto firstIteration = d->iteration;
        while (!stopped && d->iteration < iterations) {
            if (d->anyRank(stop && stop->load())) {
                stopped = true;
                break;
            }
            Metrics metrics;
            try {
                metrics = d->runIteration();
            } catch (const StopWaiting&) {
                // Stopped while waiting for a server, before the update: the iteration never happened.
                d->rng.setState(d->iterationRng);
                stopped = true;
                break;
            }
            TrainProgress p;
            p.phase = Phase::Rl;
            p.iteration = d->iteration;
            p.iterations = iterations;
            p.step = d->iteration;
            p.steps = iterations;
            // Training time: the time the callback held the run (paused in the workbench) is left out.
            p.elapsedSeconds = d->activeSecondsSince(start, callbackAtStart);
            const double perIteration = p.elapsedSeconds / static_cast<double>(d->iteration - firstIteration);
            p.etaSeconds = perIteration * static_cast<double>(iterations - d->iteration);
            d->lastElapsed = p.elapsedSeconds;
            d->lastEta = p.etaSeconds;
            p.metrics = std::move(metrics);
            if (!d->report(p) || (stop && stop->load()) || d->stopRequested)
                stopped = true;
            stopped = d->anyRank(stopped);
        }
        if (stopped && d->writer() && d->iteration >= 0 && d->store->lastCheckpoint(d->runId)->first != d->iteration) {
            auto tx = d->store->begin(); // the new row and the dropped ones together
            d->checkpoint(); // resume continues exactly after the last finished iteration
            tx->commit();
            d->removeStaleCheckpoints();
        }
    } catch (const std::exception& e) {
        d->fail(e.what());
        throw;
    }
    result.status = stopped ? RunStatus::Cancelled : RunStatus::Finished;
    if (d->writer())
        d->store->setRunStatus(d->runId, result.status);
    result.iterationsDone = std::max<std::int64_t>(0, d->iteration);
    result.evalSuccess = d->lastEval;
    return result;
}

} // namespace creditlab::learn
