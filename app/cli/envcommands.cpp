// env list | play | rollout: the built-in environments from the terminal.
#include "commands.h"

#include "core/env/environment.h"
#include "core/env/episode.h"
#include "core/env/policy.h"
#include "core/interchange/jsonl.h"
#include "core/judge/judge.h"
#include "core/model/progress.h"
#include "core/storage/atomicfile.h"
#include "core/storage/paths.h"
#include "core/storage/store.h"

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <unistd.h>

namespace creditlab::cli {

namespace {

env::Split splitOf(const std::string& text)
{
    const auto split = env::parseSplit(text);
    if (!split)
        throw std::invalid_argument("unknown split '" + text + "' (use train or eval)");
    return *split;
}

/// Stores trajectories as one run, with their labels as judge labels, in one transaction.
std::int64_t storeRun(const std::string& dbPath, const std::string& name, const std::string& source,
    const std::vector<Trajectory>& trajectories, const std::vector<std::vector<std::optional<Role>>>& oracle,
    const std::string& judgeTag)
{
    Store store(dbPath);
    auto tx = store.begin();
    NewRun run;
    run.name = name;
    run.kind = RunKind::Import;
    run.source = source;
    const std::int64_t runId = store.createRun(run);
    for (std::size_t i = 0; i < trajectories.size(); ++i) {
        const Trajectory& t = trajectories[i];
        const std::int64_t rowId = store.insertTrajectory(runId, static_cast<std::int64_t>(i), t);
        for (std::size_t k = 0; k < t.turns.size(); ++k) {
            JudgeLabel label;
            label.trajectoryRowId = rowId;
            label.turn = static_cast<int>(k);
            if (oracle[i][k]) {
                label.judge = "oracle";
                label.role = *oracle[i][k];
                store.setJudgeLabel(label);
            }
            if (judgeTag != "oracle" && t.turns[k].role) {
                label.judge = judgeTag;
                label.role = *t.turns[k].role;
                store.setJudgeLabel(label);
            }
        }
    }
    tx->commit();
    return runId;
}

void addListCommand(CLI::App* envCmd)
{
    CLI::App* cmd = envCmd->add_subcommand("list", "List the environments and their parameters");
    cmd->callback([] {
        for (const env::EnvironmentInfo& e : env::environments()) {
            std::printf("%s\n    %s\n", e.name.c_str(), e.summary.c_str());
            for (const credit::ParamSpec& p : e.params) {
                const bool choice = p.type == credit::ParamType::Choice;
                std::printf("    %-12s %-8s = %-8s %s  %s\n", p.name.c_str(), choice ? "choice" : p.typeName().c_str(),
                    p.defaultValue.c_str(), p.doc.c_str(),
                    choice ? ("(" + p.typeName() + ")").c_str() : p.rangeText().c_str());
            }
        }
    });
}

void addPlayCommand(CLI::App* envCmd)
{
    struct Options {
        std::string name;
        std::uint64_t seed = 0;
        std::string split = "train";
        std::vector<std::string> sets;
        std::string db;
    };
    auto o = std::make_shared<Options>();
    CLI::App* cmd = envCmd->add_subcommand("play", "Play an environment in the terminal");
    cmd->add_option("name", o->name, "Environment (see 'env list')")->required()->type_name("NAME");
    cmd->add_option("--seed", o->seed, "Game seed")->type_name("S");
    cmd->add_option("--split", o->split, "train or eval")->type_name("SPLIT");
    cmd->add_option("--set", o->sets, "Environment parameter key=value")->type_name("KEY=VALUE");
    cmd->add_option("--db", o->db, "Store the played trajectory in this database")->type_name("FILE");
    cmd->footer("Type commands as the agent would; 'help' lists the admissible commands, 'quit' stops.");
    cmd->callback([o] {
        auto environment = env::makeEnvironment(o->name, credit::splitAssignments(o->sets));
        const env::Split split = splitOf(o->split);
        Trajectory t;
        t.id = environment->taskKey() + ":play";
        std::printf("%s\n", environment->reset(o->seed, split).c_str());
        t.id = environment->taskKey() + ":play";
        t.group = environment->taskKey();
        t.task.key = environment->taskKey();
        t.task.env = std::string(environment->name());
        t.task.goal = environment->goal();
        std::string observation = environment->initialObservation();
        std::vector<std::optional<Role>> oracle;
        std::string line;
        const bool tty = ::isatty(STDIN_FILENO) != 0;
        while (!environment->done()) {
            std::printf("\n> ");
            std::fflush(stdout);
            if (!std::getline(std::cin, line))
                break;
            if (!tty)
                std::printf("%s\n", line.c_str()); // echo piped input so the transcript reads well
            if (line == "quit" || line == "exit")
                break;
            if (line == "help") {
                std::printf("Admissible commands:\n");
                for (const std::string& c : environment->admissibleCommands())
                    std::printf("  %s\n", c.c_str());
                continue;
            }
            if (line.empty())
                continue;
            const std::string state = environment->stateKey();
            const env::StepResult& r = environment->step(line);
            std::printf("%s\n", r.feedback.c_str());
            Turn u;
            u.observation = observation;
            u.action = line;
            u.feedback = r.feedback;
            u.reward = 0.0;
            u.valid = r.info.valid;
            u.state = state;
            u.progress = r.info.progress;
            u.role = r.info.role;
            if (u.role)
                u.roleSource = "judge:oracle";
            t.turns.push_back(u);
            oracle.push_back(r.info.role);
            observation = r.feedback;
            if (r.done) {
                t.reward = r.success ? 1.0 : 0.0;
                t.success = r.success;
                // An episode can also end short of the goal before the step limit (a shop purchase below reward 1).
                const char* outcome = r.success                           ? "Task completed"
                    : environment->stepCount() >= environment->maxSteps() ? "Out of steps: task failed"
                                                                          : "Task failed";
                std::printf("\n%s after %d steps.\n", outcome, environment->stepCount());
            }
        }
        if (!o->db.empty() && !t.turns.empty()) {
            const std::int64_t runId
                = storeRun(o->db, "play " + t.id, "env play " + o->name, { t }, { oracle }, "oracle");
            std::printf("stored as run %lld in %s\n", static_cast<long long>(runId), o->db.c_str());
        }
    });
}

void addRolloutCommand(CLI::App* envCmd)
{
    struct Options {
        std::string name;
        std::string policy = "expert";
        int episodes = 8;
        int group = 1;
        double epsilon = 0.7;
        std::uint64_t seed = 0;
        std::string split = "train";
        std::vector<std::string> sets;
        std::string output;
        std::string db;
        std::string judge = "oracle";
        std::vector<std::string> judgeSets;
    };
    auto o = std::make_shared<Options>();
    CLI::App* cmd = envCmd->add_subcommand("rollout", "Roll out a scripted policy and write the trajectories");
    cmd->add_option("name", o->name, "Environment (see 'env list')")->required()->type_name("NAME");
    cmd->add_option("--policy", o->policy, "expert, search-expert, noisy-expert or random")->type_name("POLICY");
    cmd->add_option("--episodes", o->episodes, "Episodes in all (a multiple of --group)")
        ->check(CLI::PositiveNumber)
        ->type_name("N");
    cmd->add_option("--group", o->group, "Rollouts per task (a GRPO group)")
        ->check(CLI::PositiveNumber)
        ->type_name("G");
    cmd->add_option("--epsilon", o->epsilon, "noisy-expert: chance of a random or corrupted command")
        ->check(CLI::Range(0.0, 1.0))
        ->type_name("E");
    cmd->add_option("--seed", o->seed, "First task seed; task k uses seed + k")->type_name("S");
    cmd->add_option("--split", o->split, "train or eval")->type_name("SPLIT");
    cmd->add_option("--set", o->sets, "Environment parameter key=value")->type_name("KEY=VALUE");
    auto* out = cmd->add_option("--output,-o", o->output, "Write JSONL here (- for stdout)")->type_name("FILE");
    auto* db = cmd->add_option("--db", o->db, "Store as a run in this database")->type_name("FILE");
    cmd->add_option("--judge", o->judge,
           "Who labels roles (and the scores derived from them): oracle, noisy, human (the labels in --db "
           "where they match, a backing judge elsewhere), or http (an OpenAI-compatible endpoint: url=, model=, "
           "api_key_env=; answers cached in --db)")
        ->type_name("JUDGE");
    cmd->add_option("--judge-set", o->judgeSets, "judge parameter, e.g. accuracy=0.7 or backing=noisy")
        ->type_name("KEY=VALUE");
    out->excludes(db);
    cmd->callback([o] {
        if (o->output.empty() && o->db.empty())
            throw CLI::ValidationError("rollout", "needs --output FILE or --db FILE");
        if (o->episodes % o->group != 0)
            throw CLI::ValidationError("--episodes", "must be a multiple of --group");
        auto environment = env::makeEnvironment(o->name, credit::splitAssignments(o->sets));
        auto policy = env::makePolicy(o->policy, o->epsilon);
        const env::Split split = splitOf(o->split);
        std::unique_ptr<Store> labels;
        if (o->judge == "human") {
            if (o->db.empty())
                throw CLI::ValidationError("--judge", "human reads its labels from the database: give --db FILE");
            labels = std::make_unique<Store>(o->db);
        } else if (o->judge == "http" && !o->db.empty()) {
            labels = std::make_unique<Store>(o->db); // the http judge's answer cache
        }
        const std::unique_ptr<judge::Judge> judge
            = judge::makeJudge(o->judge, credit::splitAssignments(o->judgeSets), labels.get());
        const std::string judgeTag = judge->tag();

        std::vector<Trajectory> trajectories;
        std::vector<std::vector<std::optional<Role>>> oracle;
        const int tasks = o->episodes / o->group;
        ProgressLine progress("rolling out");
        for (int k = 0; k < tasks; ++k) {
            for (int r = 0; r < o->group; ++r) {
                env::EpisodeOptions opt;
                opt.policySeed = (o->seed + static_cast<std::uint64_t>(k)) * 1000003ULL + static_cast<std::uint64_t>(r);
                Trajectory t
                    = env::runEpisode(*environment, *policy, o->seed + static_cast<std::uint64_t>(k), split, opt);
                t.id = t.group + "-r" + std::to_string(r);
                std::vector<std::optional<Role>> truth;
                for (const Turn& u : t.turns)
                    truth.push_back(u.role);
                // The judge's roles and scores go on the turns (the scores let pair, scalar_judge and
                // has's judge decomposer run on scripted rollouts); the oracle's stay aside for the store.
                const std::vector<judge::Verdict> verdicts = judge->judge(t, truth);
                for (std::size_t i = 0; i < t.turns.size(); ++i) {
                    t.turns[i].role = verdicts[i].role;
                    t.turns[i].score = verdicts[i].score;
                    // No role (an environment without oracle roles, a turn the judge failed on): no source.
                    t.turns[i].roleSource = verdicts[i].role
                        ? std::optional<std::string>(verdicts[i].source.value_or("judge:" + judgeTag))
                        : std::nullopt;
                }
                oracle.push_back(std::move(truth));
                trajectories.push_back(std::move(t));
            }
            if (!progress.update(
                    static_cast<double>(k + 1) / tasks, std::to_string(trajectories.size()) + " episodes", -1.0))
                throw Cancelled();
        }
        progress.clear();
        if (!o->db.empty()) {
            const std::string name = o->name + " " + o->policy + " x" + std::to_string(o->episodes);
            const std::int64_t runId
                = storeRun(o->db, name, "env rollout " + o->name + " --policy " + o->policy + " --judge " + judgeTag,
                    trajectories, oracle, judgeTag);
            std::printf("stored %zu trajectories as run %lld in %s\n", trajectories.size(),
                static_cast<long long>(runId), o->db.c_str());
            return;
        }
        std::string text;
        for (const Trajectory& t : trajectories) {
            formatTrajectory(t, text);
            text += '\n';
        }
        writeFileAtomically(o->output, text);
    });
}

} // namespace

void addEnvCommand(CLI::App& app)
{
    CLI::App* cmd = app.add_subcommand("env", "Built-in environments: list, play, rollout");
    cmd->require_subcommand(1);
    addListCommand(cmd);
    addPlayCommand(cmd);
    addRolloutCommand(cmd);
}

} // namespace creditlab::cli
