// The warm start before RL: the run's tokenizer and initial policy (built-in, a pretrained folder with or without
// LoRA, or an earlier run's SFT policy), then SFT on the demonstrations with DAgger rounds, which ends in the first
// evaluation and checkpoint.
#include "core/learn/torch/engine/trainerstate.h"
#include "core/storage/paths.h"

#include <algorithm>

namespace creditlab::learn {

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

} // namespace creditlab::learn
