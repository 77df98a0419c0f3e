// More seeds for an experiment that has run (experiment.h's addExperimentSeeds): the rows and the stored text, torch-
// free so that the workbench can add them on its own thread; running them is resumeExperiment() (sweeprunner.cpp).
#include "core/learn/api/experiment.h"

#include "core/storage/store.h"

#include <algorithm>
#include <set>

namespace creditlab::learn {

AddedSeeds addExperimentSeeds(const std::string& database, std::int64_t sweepId, int seeds)
{
    const std::string what = "experiment " + std::to_string(sweepId);
    Store store(database);
    // BEGIN IMMEDIATE: a resume starting in another process between the checks and the writes waits for them.
    auto tx = store.begin();
    const auto info = store.sweep(sweepId);
    if (!info)
        throw std::invalid_argument(what + " does not exist in " + database);
    SweepSpec spec = SweepSpec::parse(info->config, what, {});
    spec.name = info->name;
    if (!spec.isExperiment())
        throw std::invalid_argument(
            "sweep " + std::to_string(sweepId) + " (" + info->name + ") is a sweep, not an experiment: it has no arms");
    if (info->status == TrialStatus::Running)
        throw std::invalid_argument(what + " (" + info->name
            + ") is running: extend it once it has stopped or finished (a process killed while it ran leaves it "
              "marked running: creditlab-cli experiment resume "
            + std::to_string(sweepId) + " continues it)");
    const auto existing = spec.seeds();
    if (existing.empty())
        throw std::invalid_argument(what + " (" + info->name
            + ") has no seeds: list (every arm runs the base config's seed), so there is none to continue");
    if (seeds <= static_cast<int>(existing.size())) {
        std::string list;
        for (const auto& s : existing)
            list += (list.empty() ? "" : ", ") + s;
        throw std::invalid_argument("--seeds " + std::to_string(seeds) + ": " + what + " has "
            + std::to_string(existing.size()) + " seeds already (" + list
            + "); give the total it should have, more than " + std::to_string(existing.size()));
    }

    // The new seeds continue after the largest, so that none repeats one the experiment has (seeds: [0, 5] gets 6).
    std::int64_t next = 0;
    for (const auto& s : existing)
        next = std::max<std::int64_t>(next, std::stoll(s) + 1);
    AddedSeeds added;
    for (int k = static_cast<int>(existing.size()); k < seeds; ++k) {
        spec.addedSeeds.push_back(next);
        added.seeds.push_back(std::to_string(next++));
    }
    // The trials to add are those the new text expands to and the store does not have: the same points, names and
    // configs as an experiment run with every seed from the start. Parsing it also validates every new trial's config.
    const std::string text = spec.storedText();
    const SweepSpec extended = SweepSpec::parse(text, what, {});
    std::set<std::string> have;
    for (const auto& row : store.trials(sweepId))
        have.insert(row.params);
    store.setSweepConfig(sweepId, text);
    for (const auto& trial : extended.trials)
        if (!have.count(trial.paramsText())) {
            store.addTrial(sweepId, trial.paramsText());
            ++added.trials;
        }
    store.setSweepStatus(sweepId, TrialStatus::Cancelled);
    tx->commit();
    return added;
}

} // namespace creditlab::learn
