#pragma once

// Trainer::Impl, shared by trainer.cpp (the run lifecycle), warmstart.cpp (the initial policy and SFT), evaluation.cpp
// and iteration.cpp (one RL iteration).
// Learn-internal (torch).

#include "core/hf/modelfolder.h"
#include "core/judge/judge.h"
#include "core/learn/api/runtime.h"
#include "core/learn/torch/dist/dataparallel.h"
#include "core/learn/torch/engine/learnedcredit.h"
#include "core/learn/torch/engine/trainer.h"
#include "core/learn/torch/engine/trainsteps.h"
#include "core/learn/torch/hf/hfformat.h"
#include "core/learn/torch/hf/hfpolicy.h"
#include "core/learn/torch/hf/hfupdate.h"
#include "core/learn/torch/lm/checkpoint.h"
#include "core/model/unavailable.h"
#include "core/storage/store.h"

#include <spdlog/spdlog.h>

#include <chrono>
#include <filesystem>
#include <memory>
#include <mutex>
#include <set>
#include <system_error>
#include <thread>

namespace creditlab::learn {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

inline double secondsSince(Clock::time_point start)
{
    return std::chrono::duration<double>(Clock::now() - start).count();
}

inline std::shared_ptr<spdlog::logger> logger()
{
    static auto log = [] {
        auto existing = spdlog::get("train");
        return existing ? existing : spdlog::default_logger()->clone("train");
    }();
    return log;
}

/// Thrown out of a wait for a server (Trainer::Impl::throughOutages) when the run is asked to stop meanwhile.
struct StopWaiting { };

struct Trainer::Impl {
    TrainConfig config;
    TrainOptions options;
    /// The run's ranks (world 1 unless data-parallel: ranks.h). Connected before anything else.
    std::unique_ptr<dist::Communicator> comm;
    /// Rank 0's alone: the other ranks of a data-parallel run never open the database.
    std::unique_ptr<Store> store;
    std::int64_t runId = 0;
    torch::Device device { torch::kCPU };
    std::string filesDir;
    /// How episodes become tokens: BuiltinFormat (CreditLab's tokenizer, tokenizer.txt in the run's files) or, with
    /// policy.pretrained, HfFormat (the model's tokenizer and chat template).
    std::unique_ptr<TokenFormat> format;
    /// policy.pretrained's folder, opened once (its weights stay mapped: the reference and the critic load from it).
    std::optional<hf::ModelFolder> pretrainedFolder;
    Transformer policy { nullptr };
    Transformer reference { nullptr };
    Transformer critic { nullptr };
    std::unique_ptr<torch::optim::Adam> optimizer;
    std::unique_ptr<torch::optim::Adam> criticOptimizer;
    RolloutSetup setup;
    Rng rng;
    KlController kl;
    std::int64_t iteration = -1; ///< the last finished iteration; -1 before SFT
    std::optional<double> lastEval;
    std::vector<Trajectory> evalEpisodes; ///< the last evaluation's episodes, until they are stored
    std::unique_ptr<judge::Judge> judge;
    // The learned credit model of the method (TurnRD, the value baseline, PAIR's probe; learnedcredit.h), or null;
    // `learnedReady` once its afterSft hook has run in this process.
    std::unique_ptr<LearnedCredit> learned;
    bool learnedReady = false;
    // sft.demonstrations: the file's successful trajectories (read with the tokenizer, cloned in SFT).
    std::vector<Trajectory> demonstrationFile;
    // Outages of a server the run calls (core/model/unavailable.h): Trainer::run's callback and stop flag, for progress
    // and cancel while waiting; the Rng state the current iteration began with, to roll it out again identically.
    const TrainCallback* runCallback = nullptr;
    const std::atomic<bool>* runStop = nullptr;
    bool stopRequested = false; ///< asked to stop during a wait (the callback said so, or the stop flag)
    std::uint64_t iterationRng = 0;
    double outageSeconds = 0.0; ///< waited for servers in the current iteration
    // Seconds spent inside the run's callback: the workbench holds a paused run there, so they are left out of
    // elapsed times, ETAs and the iteration's time/ metrics.
    double callbackSeconds = 0.0;
    double lastElapsed = 0.0; ///< the elapsed seconds and ETA of the last report, for the evaluation's report
    double lastEta = -1.0;

    /// Joins the ranks of the run `options.launch` describes (world 1: at once).
    static std::unique_ptr<dist::Communicator> connectRanks(const TrainOptions& options)
    {
        dist::CommOptions commOptions;
        commOptions.timeout = std::chrono::milliseconds(static_cast<std::int64_t>(options.rankTimeoutSeconds * 1000));
        commOptions.cuda = options.launch.distributed() && torch::Device(resolveDevice(options.device)).is_cuda();
        return dist::Communicator::connect(options.launch, commOptions);
    }

    /// `ranks`: already joined (resume() asks rank 0 for the config first), else joined here.
    Impl(TrainConfig c, TrainOptions o, std::unique_ptr<dist::Communicator> ranks = nullptr)
        : config(std::move(c))
        , options(std::move(o))
        , comm(std::move(ranks))
    {
        int threads = static_cast<int>(config.getInt("threads"));
        if (threads == 0 && options.launch.localWorld > 1) // the node's cores shared among its ranks
            threads = options.launch.threadsPerRank(static_cast<int>(std::thread::hardware_concurrency()));
        configureThreads({ threads });
        device = torch::Device(resolveDevice(options.device));
        if (!comm)
            comm = connectRanks(options);
        if (writer())
            store = std::make_unique<Store>(options.database);
        setup.env = config.envName();
        setup.envAssignments = config.envAssignments();
        setup.episodeMemory = config.getText("policy.memory") == "episode";
        setup.context = static_cast<std::int32_t>(config.getInt("policy.context"));
        setup.prompt.history = static_cast<int>(config.getInt("policy.history"));
        setup.prompt.initialObservation = config.getBool("policy.initial_observation");
        setup.prompt.budget
            = static_cast<int>(config.getInt("policy.context") - config.getInt("policy.max_action_tokens"));
        setup.sampling.maxTokens = static_cast<int>(config.getInt("policy.max_action_tokens"));
        setup.sampling.temperature = config.getDouble("rl.temperature");
        setup.sampling.topP = config.getDouble("rl.top_p");
        setup.sampling.topK = config.getInt("rl.top_k");
        setup.sampling.stopTokens = { Tokenizer::kEnd };
        kl.adaptive = config.getText("kl.mode") == "adaptive";
        kl.coef = config.getText("kl.mode") == "off" ? 0.0 : config.getDouble("kl.coef");
        kl.target = config.getDouble("kl.target");
        kl.horizon = config.getDouble("kl.horizon");
        rng = Rng(static_cast<std::uint64_t>(config.getInt("seed")) * 0x9e3779b97f4a7c15ULL + 1);
    }

    /// Rank 0: the process that records the run (every process of a run that is not data-parallel).
    bool writer() const { return comm->rank() == 0; }
    bool distributed() const { return comm->world() > 1; }
    /// A new run: rank 0's id on every rank.
    void shareRunId();
    /// Marks the run failed (rank 0), with `reason` in its notes when data-parallel: which rank, what happened.
    void fail(const std::string& reason);
    /// Whether any rank asks to stop: every rank must leave the loop at the same iteration (or SFT step).
    bool anyRank(bool mine)
    {
        if (!distributed())
            return mine;
        std::vector<double> flag { mine ? 1.0 : 0.0 };
        dist::allreduceSum(*comm, flag);
        return flag[0] > 0.0;
    }
    /// Rank 0's parameters (policy, reference, critic) on every rank, then checked: at the start and on resume.
    void syncReplicas()
    {
        if (!distributed())
            return;
        for (Transformer* m : { &policy, &reference, &critic })
            if (*m) {
                const auto params = (*m)->parameters();
                dist::broadcastFromRoot(*comm, params);
                dist::verifyReplicas(*comm, params);
            }
    }

    /// Sends `p` to the run's callback (when there is one), timing it into callbackSeconds; false when the
    /// callback asks to stop.
    bool report(const TrainProgress& p)
    {
        if (!runCallback || !*runCallback)
            return true;
        const auto start = Clock::now();
        const bool go = (*runCallback)(p);
        callbackSeconds += secondsSince(start);
        return go;
    }
    /// Seconds since `start` less the time spent in the callback since then (`callbackAtStart`).
    double activeSecondsSince(Clock::time_point start, double callbackAtStart) const
    {
        return std::max(0.0, secondsSince(start) - (callbackSeconds - callbackAtStart));
    }

    /// Calls `attempt` until it gets through without ServiceUnavailable, waiting between tries
    /// (waitAfterOutage). `what` names the server for messages: "the environment server".
    template <class F> auto throughOutages(std::string_view what, F&& attempt) -> decltype(attempt())
    {
        const auto since = Clock::now();
        double delay = 1.0;
        for (;;) {
            try {
                return attempt();
            } catch (const ServiceUnavailable& e) {
                waitAfterOutage(what, e, since, delay);
            }
        }
    }
    /// After an outage: reports phase "waiting" and sleeps `delay` seconds (then doubles it, up to 30 s), or
    /// rethrows once rl.outage_wait_s have passed since `since` (the message says how to resume), or throws
    /// StopWaiting when asked to stop meanwhile.
    void waitAfterOutage(std::string_view what, const ServiceUnavailable& e, Clock::time_point since, double& delay);

    bool pretrained() const { return !config.getText("policy.pretrained").empty(); }
    bool lora() const { return pretrained() && config.getText("policy.finetune") == "lora"; }

    /// The built-in format of `tokenizer`, saved as the run's tokenizer.txt.
    void useBuiltinTokenizer(Tokenizer tokenizer)
    {
        if (writer())
            tokenizer.save(filesDir + "/tokenizer.txt");
        format = std::make_unique<BuiltinFormat>(std::move(tokenizer));
    }
    /// policy.pretrained: opens the folder and reads its format (tokenizer, chat template, stop tokens). Throws
    /// std::invalid_argument naming the key and the file.
    void openPretrained();

    void buildModels()
    {
        // Module initialisation draws from LibTorch's process-global generator: trainers in one process (the GUI's
        // run beside a sweep's trials) take turns, so each run's initial weights depend on its seed alone.
        std::lock_guard lock(globalGeneratorMutex());
        torch::manual_seed(static_cast<std::uint64_t>(config.getInt("seed")));
        if (pretrained()) {
            buildPretrainedModels();
        } else {
            policy = Transformer(builtinPolicyOptions(config, format->vocabulary()));
            reference = Transformer(builtinPolicyOptions(config, format->vocabulary()));
            policy->to(device);
            reference->to(device);
            if (config.getBool("critic.enabled")) {
                critic = Transformer(builtinPolicyOptions(config, format->vocabulary(), true));
                critic->to(device);
            }
        }
        makeOptimizers();
    }
    /// The pretrained policy (with LoRA adapters under policy.finetune lora), its reference (the same decoder without
    /// adapters under LoRA, a frozen copy otherwise) and the critic (another copy with a value head).
    void buildPretrainedModels();
    /// LoRA after SFT: the SFT adapters are folded into the base weights, which become the reference policy, and
    /// fresh adapters train RL from there. Also what resuming does with reference.pt's adapters.
    void foldSftAdapters();

    void makeOptimizers()
    {
        const auto betas = std::make_tuple(config.getDouble("rl.adam_beta1"), config.getDouble("rl.adam_beta2"));
        // Adam, or with float32 master weights for parameters below float32 (full fine-tuning in bfloat16).
        const auto adam = [&](std::vector<torch::Tensor> params, double lr) -> std::unique_ptr<torch::optim::Adam> {
            const auto options = torch::optim::AdamOptions(lr).betas(betas);
            if (MasterWeightAdam::needed(params))
                return std::make_unique<MasterWeightAdam>(std::move(params), options);
            return std::make_unique<torch::optim::Adam>(std::move(params), options);
        };
        optimizer = adam(trainable(policy), config.getDouble("rl.lr"));
        if (critic)
            criticOptimizer = adam(trainable(critic), config.getDouble("critic.lr"));
    }

    /// The parameters an optimizer steps: all of a built-in policy's, the adapters (and value head) alone under LoRA.
    static std::vector<torch::Tensor> trainable(Transformer& model)
    {
        std::vector<torch::Tensor> out;
        for (const auto& p : model->parameters())
            if (p.requires_grad())
                out.push_back(p);
        return out;
    }

    /// The reference and the critic start from the SFT policy (a LoRA reference view shares the policy's decoder).
    void copyPolicyInto(Transformer& target)
    {
        if (target->pretrained() && target->adaptersOff())
            return;
        torch::NoGradGuard noGrad;
        auto source = policy->named_parameters();
        for (auto& item : target->named_parameters())
            if (const auto* p = source.find(item.key()))
                item.value().copy_(*p);
    }

    std::string checkpointDir(std::int64_t it) const { return filesDir + "/ckpt-" + std::to_string(it); }

    void checkpoint()
    {
        if (!writer())
            return;
        const auto dir = checkpointDir(iteration);
        saveCheckpoint(dir, policy, *optimizer, critic ? &critic : nullptr, criticOptimizer.get(),
            { iteration, rng.state(), kl.coef });
        if (learned)
            learned->save(dir);
        store->addCheckpoint(runId, iteration, dir);
        auto all = store->checkpoints(runId);
        const auto keep = static_cast<std::size_t>(config.getInt("checkpoint.keep"));
        // Only the rows go here, inside the caller's transaction; the files go after it commits
        // (removeStaleCheckpoints): a kill before the commit rolls the rows back, and their files must still be there.
        for (std::size_t k = 0; k + keep < all.size(); ++k)
            store->removeCheckpoint(runId, all[k].first);
    }

    /// Deletes the checkpoint folders of this run that no committed row names any more: those checkpoint() dropped,
    /// and any a killed process left behind (a half-written ckpt-N.tmp, or folders whose rows were dropped just
    /// before the kill). Call after the transaction that called checkpoint() committed.
    void removeStaleCheckpoints()
    {
        if (!writer())
            return;
        std::set<std::string> kept;
        for (const auto& [it, path] : store->checkpoints(runId))
            kept.insert(fs::path(path).filename().string());
        std::error_code ec;
        for (const auto& entry : fs::directory_iterator(filesDir, ec)) {
            const std::string name = entry.path().filename().string();
            if (name.rfind("ckpt-", 0) == 0 && !kept.count(name))
                fs::remove_all(entry.path(), ec);
        }
    }

    /// The tokenizer and the initial policy of a run that has no checkpoint yet: built from the environment
    /// (or the run's saved vocabulary), or taken from the run named by sft.from_run. Throws on a bad source.
    void initialisePolicy();
    /// Greedy episodes on eval.split's tasks: metrics, and (eval.store) the episodes stored as iteration `it`'s
    /// evaluation, inside the caller's transaction.
    double evaluate(std::vector<std::pair<std::string, double>>& metrics, std::int64_t it);
    /// Writes evalEpisodes as iteration `it`'s evaluation (eval.store), inside the caller's transaction.
    void storeEvalEpisodes(std::int64_t it);
    void runSft(const TrainCallback& callback, const std::atomic<bool>* stop, bool& stopped);
    std::vector<std::pair<std::string, double>> runIteration();

    /// The learned credit model of the configured method (null when it has none), once runId and filesDir are set. It
    /// may come before the token format exists (a new run makes it before initialisePolicy()), so the context holds
    /// no format: the trainer passes its own to the hidden-state extraction.
    void makeLearned()
    {
        learned = makeLearnedCredit({ config, policy, setup, device, options.database, runId, filesDir, comm.get() });
    }
};

} // namespace creditlab::learn
