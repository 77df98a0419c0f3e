// The run lifecycle: creating or resuming a run, SFT, evaluation, checkpoints and the iteration loop.
#include "core/hf/hubcache.h"
#include "core/learn/torch/engine/ranks.h"
#include "core/learn/torch/engine/trainerstate.h"
#include "core/storage/paths.h"

#include <algorithm>
#include <cmath>
#include <set>
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

double Trainer::Impl::evaluate(std::vector<std::pair<std::string, double>>& metrics, std::int64_t it)
{
    evalEpisodes.clear();
    const auto episodes = config.getInt("eval.episodes");
    if (episodes == 0)
        return std::nan("");
    {
        TrainProgress p;
        p.phase = Phase::Eval;
        p.iteration = it;
        p.iterations = config.getInt("rl.iterations");
        p.steps = episodes;
        p.elapsedSeconds = lastElapsed;
        p.etaSeconds = lastEta;
        p.message = "evaluating " + std::to_string(episodes) + " episodes";
        if (!report(p) || (runStop && runStop->load()))
            stopRequested = true; // the evaluation still runs: its iteration (or SFT) is almost done
    }
    const bool onTrain = config.getText("eval.split") == "train";
    std::vector<EpisodeSpec> specs;
    for (std::int64_t k = 0; k < episodes; ++k)
        specs.push_back({ static_cast<std::uint64_t>(k), onTrain ? env::Split::Train : env::Split::Eval,
            "eval-it" + std::to_string(it) + "-" + std::to_string(k), "eval-it" + std::to_string(it) });
    RolloutSetup greedy = setup;
    greedy.sampling.greedy = true;
    // A data-parallel rank plays its share of the episodes; every rank then holds them all.
    const auto [firstEpisode, endEpisode] = shareOf(specs.size(), comm->rank(), comm->world());
    specs = std::vector<EpisodeSpec>(specs.begin() + static_cast<std::ptrdiff_t>(firstEpisode),
        specs.begin() + static_cast<std::ptrdiff_t>(endEpisode));
    RolloutBatch batch;
    try {
        batch = throughOutages("the environment server", [&] {
            Rng evalRng(0); // greedy decoding draws nothing; keep the run's stream untouched
            // In chunks of rows: one KV cache row per episode, and 200 episodes of a 256-wide policy at once held
            // gigabytes (with the allocator's fragmentation, two such runs in one process outgrew 24 GB).
            constexpr std::size_t kEvalRows = 64;
            RolloutBatch b;
            for (std::size_t begin = 0; begin < specs.size(); begin += kEvalRows) {
                const std::vector<EpisodeSpec> chunk(specs.begin() + static_cast<std::ptrdiff_t>(begin),
                    specs.begin() + static_cast<std::ptrdiff_t>(std::min(specs.size(), begin + kEvalRows)));
                auto part = collectRollouts(policy, *format, greedy, chunk, evalRng);
                for (auto& t : part.trajectories)
                    b.trajectories.push_back(std::move(t));
                b.overflows += part.overflows;
                b.generatedTokens += part.generatedTokens;
                b.envSteps += part.envSteps;
                b.generationSeconds += part.generationSeconds;
                b.envSeconds += part.envSeconds;
                b.failed += part.failed;
                b.unavailable += part.unavailable;
                if (!part.lastError.empty())
                    b.lastError = part.lastError;
            }
            // Episodes the server broke off would count as failures of the policy: evaluate again once it is back.
            if (b.unavailable > 0)
                throw ServiceUnavailable(std::to_string(b.unavailable) + " of " + std::to_string(episodes)
                    + " evaluation episodes lost the server: " + b.lastError);
            b.oracleRoles.resize(b.trajectories.size());
            b.finalContexts.resize(b.trajectories.size());
            return b;
        });
        batch = gatherRollouts(*comm, std::move(batch));
    } catch (const StopWaiting&) {
        logger()->warn("evaluation skipped: the run was stopped while waiting for the environment server");
        return std::nan("");
    }
    double success = 0.0, turns = 0.0, invalid = 0.0, reward = 0.0;
    // Closed-loop imitation: of the actions that name an object or a place (take, open, go to), the share the
    // environment accepted in the state they were issued in; and the share of turns that repeat an earlier
    // (observation, action) pair of the same episode (a loop).
    double objectActions = 0.0, objectValid = 0.0, repeats = 0.0;
    double successTurns = 0.0; // turns of the successful episodes: does credit make completed rollouts shorter
    for (auto& t : batch.trajectories) {
        success += t.successOrDefault() ? 1.0 : 0.0;
        reward += t.reward;
        turns += static_cast<double>(t.turns.size());
        successTurns += t.successOrDefault() ? static_cast<double>(t.turns.size()) : 0.0;
        std::set<std::pair<std::string, std::string>> seen;
        for (const auto& turn : t.turns) {
            invalid += turn.validOrDefault() ? 0.0 : 1.0;
            const auto& a = turn.action;
            if (a.rfind("take ", 0) == 0 || a.rfind("open ", 0) == 0 || a.rfind("go to ", 0) == 0) {
                objectActions += 1.0;
                objectValid += turn.validOrDefault() ? 1.0 : 0.0;
            }
            if (!seen.insert({ turn.observation, a }).second)
                repeats += 1.0;
        }
        t.iteration = it;
        t.extra = R"("eval": true, "split": ")" + std::string(onTrain ? "train" : "eval") + "\"";
    }
    const double n = static_cast<double>(batch.trajectories.size());
    metrics.emplace_back("eval/success", success / n);
    metrics.emplace_back("eval/return", reward / n); // the graded outcome: WebShop's score in shop, else success
    metrics.emplace_back("eval/turns", turns / n);
    if (success > 0.0) // only where an episode succeeded
        metrics.emplace_back("eval/success_turns", successTurns / success);
    metrics.emplace_back("eval/invalid_rate", turns > 0 ? invalid / turns : 0.0);
    metrics.emplace_back("eval/object_action_valid", objectActions > 0 ? objectValid / objectActions : 0.0);
    metrics.emplace_back("eval/repeat_rate", turns > 0 ? repeats / turns : 0.0);
    metrics.emplace_back("eval/overflows", static_cast<double>(batch.overflows));
    lastEval = success / n;
    if (config.getBool("eval.store"))
        evalEpisodes = std::move(batch.trajectories);
    return success / n;
}

void Trainer::Impl::storeEvalEpisodes(std::int64_t it)
{
    // After the iteration's training trajectories (ord), under ids eval-it<N>-<k> and group eval-it<N>.
    const auto perIteration = config.getInt("rl.tasks") * config.getInt("rl.group_size");
    const std::int64_t ordBase = it * perIteration;
    if (!writer()) {
        evalEpisodes.clear();
        return;
    }
    for (std::size_t k = 0; k < evalEpisodes.size(); ++k)
        store->insertTrajectory(runId, ordBase + static_cast<std::int64_t>(k), evalEpisodes[k], true);
    evalEpisodes.clear();
}

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

void Trainer::Impl::runSft(const TrainCallback& callback, const std::atomic<bool>* stop, bool& stopped)
{
    const auto start = Clock::now();
    const double callbackAtStart = callbackSeconds;
    const bool warmStarted = config.getInt("sft.from_run") > 0; // the policy already holds that run's SFT weights
    auto demos = warmStarted         ? std::vector<TrainSequence>()
        : !demonstrationFile.empty() ? demonstrationsOf(*format, setup, demonstrationFile)
                                     : collectDemonstrations(*format, setup, config.getInt("sft.expert_episodes"),
                                         config.getInt("sft.noisy_episodes"), config.getDouble("sft.noisy_epsilon"),
                                         config.getText("sft.demonstrator") == "search-expert");
    const auto epochs = config.getInt("sft.epochs");
    std::vector<std::pair<std::string, double>> metrics;
    std::int64_t demoTurns = 0, demoTokens = 0;
    for (const auto& d : demos) {
        demoTurns += static_cast<std::int64_t>(d.spans.size());
        demoTokens += d.size();
    }
    // DAgger (Ross et al. 2011), sft.dagger_rounds: after the epochs on the demonstrations, roll the policy out on
    // fresh train tasks, label every state it visited with the demonstrator's action, add those episodes to the
    // demonstrations, and train sft.dagger_epochs more epochs on everything; per round.
    const auto rounds = warmStarted || !demonstrationFile.empty() ? 0 : config.getInt("sft.dagger_rounds");
    const auto daggerEpochs = config.getInt("sft.dagger_epochs");
    const bool search = config.getText("sft.demonstrator") == "search-expert";
    if (!demos.empty() && epochs > 0) {
        const double baseLr = config.getDouble("sft.lr");
        const bool cosine = config.getText("sft.lr_schedule") == "cosine";
        torch::optim::Adam sftOptimizer(trainable(policy), torch::optim::AdamOptions(baseLr));
        const auto batchSize = static_cast<int>(config.getInt("sft.batch_size"));
        // Progress counts steps; later rounds hold more demonstrations, estimated at the first round's growth.
        std::int64_t total = sftSteps(demos, batchSize) * epochs;
        std::int64_t done = 0;
        SftEpoch last;
        // SFT's curves (the sft_metric table), x the step over all epochs and rounds: written at most every
        // kSftFlush and at the end of each epoch, so that the Monitor shows SFT as it trains.
        constexpr double kSftFlush = 0.5;
        std::vector<MetricPoint> curve;
        auto lastFlush = Clock::now();
        const auto flush = [&] {
            if (!curve.empty() && writer())
                store->writeSftMetrics(runId, curve);
            curve.clear();
            lastFlush = Clock::now();
        };
        const auto train = [&](std::int64_t count, const std::string& what) {
            for (std::int64_t e = 0; e < count && !stopped; ++e) {
                const std::int64_t before = done;
                last = sftEpoch(
                    policy, sftOptimizer, demos, batchSize, rng,
                    [&](std::int64_t s, std::int64_t, const SftEpoch& step) {
                        done = before + s;
                        curve.push_back({ done, std::string(metricnames::kSftLoss), step.loss });
                        curve.push_back({ done, std::string(metricnames::kSftTokenAccuracy), step.tokenAccuracy });
                        if (secondsSince(lastFlush) >= kSftFlush)
                            flush();
                        if (cosine) // the rate of the next step
                            for (auto& group : sftOptimizer.param_groups())
                                static_cast<torch::optim::AdamOptions&>(group.options())
                                    .lr(sftLearningRate(baseLr, done, total, true));
                        TrainProgress p;
                        p.phase = Phase::Sft;
                        p.step = std::min(done, total);
                        p.steps = total;
                        p.iterations = config.getInt("rl.iterations");
                        p.elapsedSeconds = activeSecondsSince(start, callbackAtStart); // paused time left out
                        p.etaSeconds = p.elapsedSeconds * static_cast<double>(std::max<std::int64_t>(0, total - done))
                            / static_cast<double>(std::max<std::int64_t>(1, done));
                        lastElapsed = p.elapsedSeconds;
                        lastEta = p.etaSeconds;
                        p.message = what + " epoch " + std::to_string(e + 1) + "/" + std::to_string(count);
                        if (!report(p) || (stop && stop->load()))
                            stopped = true;
                        stopped = anyRank(stopped);
                        return !stopped;
                    },
                    UpdateShard { comm.get() });
                flush();
                logger()->info("{} epoch {}/{}: loss {:.4f}, token accuracy {:.3f}", what, e + 1, count, last.loss,
                    last.tokenAccuracy);
            }
        };
        train(epochs, "SFT");
        const auto perRound = config.getInt("sft.dagger_episodes");
        for (std::int64_t round = 1; round <= rounds && !stopped; ++round) {
            std::vector<EpisodeSpec> specs;
            for (std::int64_t k = 0; k < perRound; ++k)
                specs.push_back({ 2'000'000ULL + static_cast<std::uint64_t>(round * perRound + k), env::Split::Train,
                    "dagger-" + std::to_string(round) + "-" + std::to_string(k), {} });
            const auto rollouts = collectRollouts(policy, *format, setup, specs, rng);
            auto labelled = relabelWithDemonstrator(*format, setup, rollouts.trajectories, specs, search);
            double success = 0.0;
            for (const auto& t : rollouts.trajectories)
                success += t.successOrDefault() ? 1.0 : 0.0;
            metrics.emplace_back("sft/dagger_success_" + std::to_string(round),
                success / static_cast<double>(std::max<std::size_t>(1, rollouts.trajectories.size())));
            for (auto& q : labelled) {
                q.trajectory += demos.size(); // distinct episodes
                demos.push_back(std::move(q));
            }
            if (round == 1)
                total = done + sftSteps(demos, batchSize) * daggerEpochs * rounds;
            logger()->info("DAgger round {}/{}: {} of {} rollouts succeeded; {} demonstration sequences now", round,
                rounds, static_cast<int>(success), specs.size(), demos.size());
            train(daggerEpochs, "DAgger round " + std::to_string(round) + "/" + std::to_string(rounds));
        }
        metrics.emplace_back("sft/loss", last.loss);
        metrics.emplace_back("sft/token_accuracy", last.tokenAccuracy);
    }
    demoTurns = demoTokens = 0;
    for (const auto& d : demos) {
        demoTurns += static_cast<std::int64_t>(d.spans.size());
        demoTokens += d.size();
    }
    metrics.emplace_back("sft/demonstrations", static_cast<double>(demoTurns)); // turns, in either memory mode
    metrics.emplace_back("sft/sequences", static_cast<double>(demos.size()));
    metrics.emplace_back("sft/tokens", static_cast<double>(demoTokens));
    metrics.emplace_back("time/sft_s", activeSecondsSince(start, callbackAtStart));
    if (stopped)
        return;
    evaluate(metrics, 0);
    releaseFreeMemory(); // the demonstrations' batches and the evaluation's KV cache
    copyPolicyInto(reference);
    if (critic)
        copyPolicyInto(critic);
    if (lora()) {
        if (writer())
            saveModule(filesDir + "/reference.pt", policy); // the SFT adapters
        foldSftAdapters();
    } else if (writer()) {
        saveModule(filesDir + "/reference.pt", reference);
    }
    iteration = 0;
    if (writer()) {
        auto tx = store->begin();
        store->writeMetrics(runId, 0, metrics);
        storeEvalEpisodes(0);
        checkpoint();
        tx->commit();
        removeStaleCheckpoints();
    }
    if (callback) {
        TrainProgress p;
        p.phase = Phase::Sft;
        p.iteration = 0;
        p.iterations = config.getInt("rl.iterations");
        p.elapsedSeconds = activeSecondsSince(start, callbackAtStart);
        p.etaSeconds = 0.0;
        p.metrics = metrics;
        p.message = "SFT done";
        if (!report(p))
            stopped = true;
    }
}

void Trainer::Impl::openPretrained()
{
    const std::string spec = config.getText("policy.pretrained");
    try {
        pretrainedFolder = hf::ModelFolder::open(spec);
        auto hfFormat
            = std::make_unique<HfFormat>(HfFormat::load(*pretrainedFolder, config.getText("policy.system_prompt")));
        setup.sampling.stopTokens = hfFormat->stopTokens();
        setup.sampling.vocabLimit = hfFormat->vocabulary();
        format = std::move(hfFormat);
    } catch (const std::exception& e) {
        pretrainedFolder.reset();
        throw std::invalid_argument("policy.pretrained: " + std::string(e.what()));
    }
    const auto& c = pretrainedFolder->config;
    if (c.maxPositions > 0 && config.getInt("policy.context") > c.maxPositions)
        logger()->warn("policy.context {} is past {}'s max_position_embeddings {}", config.getInt("policy.context"),
            spec, c.maxPositions);
    logger()->info("policy: {} ({}, {} parameters, {} layers, hidden {}), chat template append-only: {}", spec,
        c.modelType, c.parameterCount(), c.layers, c.hiddenSize,
        static_cast<const HfFormat&>(*format).chatFormat().appendCheck().appendOnly ? "yes" : "no");
}

void Trainer::Impl::buildPretrainedModels()
{
    auto options = builtinPolicyOptions(config, format->vocabulary());
    options.vocabLimit = format->vocabulary(); // the padded rows are never sampled, so never in a log-prob either
    const auto decoder
        = [&](bool adapters) { return loadPretrainedDecoder(config, *pretrainedFolder, device, adapters); };
    HfDecoder main = decoder(lora());
    policy = Transformer(main, options);
    if (lora()) {
        reference = Transformer(main, options, true);
    } else {
        HfDecoder frozen = decoder(false);
        for (auto& p : frozen->parameters())
            p.set_requires_grad(false);
        reference = Transformer(frozen, options);
    }
    if (config.getBool("critic.enabled")) {
        auto criticOptions = options;
        criticOptions.valueHead = true;
        critic = Transformer(decoder(lora()), criticOptions);
    }
}

void Trainer::Impl::foldSftAdapters()
{
    foldLora(policy->decoder(), loraOptionsOf(config), static_cast<std::uint64_t>(config.getInt("seed")) + 1);
    makeOptimizers();
}

void Trainer::Impl::initialisePolicy()
{
    const auto fromRun = config.getInt("sft.from_run");
    const std::string saved = filesDir + "/tokenizer.txt";
    if (fromRun > 0) {
        // Warm start from an earlier run's SFT policy: the same tokenizer, the same weights.
        const std::string source = paths::runFiles(options.database, fromRun);
        const auto what = "sft.from_run " + std::to_string(fromRun) + ": ";
        if (!fs::exists(source + "/reference.pt"))
            throw std::invalid_argument(what + "that run has no SFT policy (" + source + "/reference.pt)");
        if (pretrained())
            openPretrained();
        else
            useBuiltinTokenizer(Tokenizer::load(source + "/tokenizer.txt"));
        buildModels();
        try {
            loadModule(source + "/reference.pt", policy);
        } catch (const std::exception& e) {
            throw std::invalid_argument(what + e.what() + " (are policy.* the same as that run's?)");
        }
    } else {
        if (const auto file = config.getText("sft.demonstrations"); !file.empty())
            demonstrationFile = readDemonstrationFile(file);
        if (pretrained()) {
            openPretrained();
        } else if (fs::exists(saved)) {
            useBuiltinTokenizer(Tokenizer::load(saved)); // a run restarted before its first checkpoint keeps it
        } else {
            // The demonstrations' words belong in the vocabulary too (what a remote server never showed).
            std::vector<std::string> texts;
            for (const Trajectory& t : demonstrationFile) {
                texts.push_back(t.task.goal.value_or(std::string()));
                for (const Turn& turn : t.turns) {
                    texts.push_back(turn.observation);
                    texts.push_back(turn.action);
                    texts.push_back(turn.feedback.value_or(std::string()));
                }
            }
            useBuiltinTokenizer(Tokenizer::forEnvironment(config.envName(), config.envAssignments(),
                static_cast<int>(config.getInt("tokenizer.episodes")), texts));
        }
        buildModels();
    }
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
