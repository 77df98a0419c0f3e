#pragma once

// The judge interface: one place that turns a trajectory into per-turn role labels and scores.

#include "core/credit/params.h"
#include "core/model/trajectory.h"

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace creditlab {
class Store;
}

namespace creditlab::judge {

/// One judged turn: a role and a scalar score in [0, 1] (TRIAGE's scalar process reward).
struct Verdict {
    std::optional<Role> role;
    std::optional<double> score;
    /// Who gave the label when it is not the judge itself ("human:<annotator>" for the human judge's matches);
    /// nullopt = the judge (the trainer stores "judge:<tag>").
    std::optional<std::string> source;
    /// The judge's evidence and its confidence in [0, 1], when it gives them (the `http` judge); the trainer
    /// stores them with its label.
    std::optional<std::string> rationale;
    std::optional<double> confidence;
};

/// A source of role labels: `oracle` (the environment's ground truth), `noisy` (the oracle through a
/// confusion matrix) and `human` (stored human labels where they exist, a backing judge elsewhere). Not
/// thread-safe (a judge may own a random generator); one instance per thread.
class Judge {
public:
    virtual ~Judge() = default;

    /// The key stored labels are filed under: "oracle", "noisy:accuracy=0.8,seed=0".
    virtual std::string tag() const = 0;
    /// Judges the turns of `trajectory`. `oracle` holds the environment's true roles, one per turn
    /// (unlabelled turns empty); judges that need them throw std::invalid_argument when they are missing.
    virtual std::vector<Verdict> judge(const Trajectory& trajectory, std::span<const std::optional<Role>> oracle) = 0;
    /// Judges several trajectories at once (the trainer's rollout batch); `oracle[i]` belongs to
    /// `trajectories[i]` (or is empty). The default judges them one by one in order; judges that call out
    /// (`http`) overlap their requests across the whole batch.
    virtual std::vector<std::vector<Verdict>> judgeBatch(
        std::span<const Trajectory> trajectories, std::span<const std::vector<std::optional<Role>>> oracle);
    /// Restarts any random stream at a point derived from `stream` (the trainer passes the iteration, so
    /// a resumed run gets the same labels). Judges without randomness ignore it.
    virtual void restart(std::uint64_t stream) { (void)stream; }
};

/// The scalar score a role label stands for: (c[role] + 1) / 2 with TRIAGE's default role constants
/// c = {D: 1, E: 0.5, N: -0.1, R: -0.5}, so D 1.0, E 0.75, N 0.45, R 0.25. With it scalar_judge reproduces
/// triage's role credit (TRIAGE Eq. 2 vs Eq. 9), and scripted rollouts carry a `score` for the methods
/// that need one.
double roleScore(Role role);

/// The judge names makeJudge() knows: "oracle", "noisy", "human", "http".
const std::vector<std::string>& judgeNames();
/// The parameters a judge takes (for forms); throws std::invalid_argument for an unknown name.
const std::vector<credit::ParamSpec>& judgeParams(std::string_view name);
/// Creates a judge by name with `--set`-style parameters. Throws std::invalid_argument for an unknown
/// name (listing the known ones) and credit::ParamError / ConfusionError for bad parameters. `labels` is the
/// store the `human` judge reads labels from (it must outlive the judge); without one (config validation)
/// the human judge passes every turn to its backing judge. The `http` judge caches its answers in it.
std::unique_ptr<Judge> makeJudge(std::string_view name,
    const std::vector<std::pair<std::string, std::string>>& assignments = {}, Store* labels = nullptr);

} // namespace creditlab::judge
