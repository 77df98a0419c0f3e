#pragma once

// PAIR's probe pipeline on our own policy (pair.md §2.2–§2.4, §2.8): load a run's policy, build the matched clean /
// contaminated records (contamination.h), extract features under teacher forcing, fit the Table 1 probes and
// evaluate them. The header is torch-free; the implementation is in creditlab_learn (torch).

#include "core/learn/api/contamination.h"
#include "core/learn/torch/pair/pairfeatures.h"
#include "core/probe/layerwiseprobe.h"
#include "core/probe/pairprobe.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace creditlab::learn {

/// Which policy the features come from.
struct ProbeSource {
    std::string database;
    std::int64_t runId = 0;
    bool sftPolicy = false; ///< the run's SFT policy (reference.pt) even when it has RL checkpoints
    std::string device; ///< empty: cpu
};

/// What buildProbeData() draws: the contamination options' episodes, seed and turn filter; env and env
/// parameters always come from the run's config.
struct ProbeDataOptions {
    std::int64_t episodes = 200;
    std::uint64_t seed = 42;
    int maxTurns = 12;
    /// Sequences per teacher-forced forward pass, left-padded; 1 runs teacherForcedTurnFeatures per record.
    int batchSize = 32;
};

/// Where the pipeline is; `done` of `total` in the phase ("data", "features", "fit").
struct ProbeProgress {
    std::string phase;
    std::int64_t done = 0;
    std::int64_t total = 0;
    double elapsedSeconds = 0.0;
};
/// Return false to cancel (the pipeline then throws creditlab::Cancelled).
using ProbeCallback = std::function<bool(const ProbeProgress&)>;

/// The records and the features of every record (same order), plus what produced them.
struct ProbeData {
    ContaminatedDataset dataset;
    std::vector<TurnFeatures> features;
    std::string policy; ///< e.g. "run 3 checkpoint after iteration 40" or "run 3 SFT policy"
    std::int64_t layers = 0;
    std::int64_t heads = 0;
    std::int64_t width = 0;
    double dataSeconds = 0.0;
    double featureSeconds = 0.0; ///< teacher-forced forward passes and statistics, all records
    std::int64_t tokens = 0; ///< tokens run through the policy, all records
};

/// Loads the run's policy and tokenizer (the last checkpoint, or the SFT policy reference.pt when the run has no
/// checkpoint or `sftPolicy` is set), builds the records with the run's env and the trainer's prompt (buildPrompt
/// over the record's prefix turns and observation, then the action tokens and </act>), and extracts the features
/// of each record's turn: its span is <act> … </act> (the paper's chat-template header and end included).
/// Calling thread (torch state is set here); cancels through `callback`. Throws std::invalid_argument naming the
/// run, the file or the field on a missing run, config, tokenizer or model.
ProbeData buildProbeData(
    const ProbeSource& source, const ProbeDataOptions& options, const ProbeCallback& callback = {});

/// The probe names of Table 1, in order: the seven PairFeatureType names, then "pair" and "layerwise".
std::vector<std::string> probeNames();

/// Fitted probes by name. A value type; any thread.
struct ProbeSet {
    std::vector<std::pair<std::string, probe::LinearProbe>> linear; ///< feature-type probes
    std::optional<probe::PairProbe> pair;
    std::optional<probe::LayerwiseProbe> layerwise;
};

/// Options of fitProbes(): C for every probe (pair.md §3: 0.01) and PAIR's Stage 2 mode.
struct ProbeFitOptions {
    double c = 0.01;
    probe::PairStage2Mode pairMode = probe::PairStage2Mode::Concat;
};

/// Fits the named probes on the training records (clean + contaminated prefixes: the code's "mixed"). The
/// layer-wise probe picks its layer on a validation fifth of the training episodes. Any thread; cancels through
/// `callback`. Throws std::invalid_argument for an unknown name.
ProbeSet fitProbes(const ProbeData& data, const std::vector<std::string>& names, const ProbeFitOptions& options = {},
    const ProbeCallback& callback = {});

/// One row of the AUROC table (pair.md Table 1 on household): AUROC on the clean-prefix test records, on the
/// contaminated-prefix ones (every turn of the contaminated episodes, as the released matched_contaminated data),
/// and on both; ECE and Brier on both.
struct ProbeRow {
    std::string name;
    std::int64_t features = 0;
    double aurocClean = 0.0;
    double aurocContaminated = 0.0;
    double aurocUnion = 0.0;
    double ece = 0.0;
    double brier = 0.0;
};

/// Scores the test records with every probe of `set`. Any thread.
std::vector<ProbeRow> evaluateProbes(const ProbeSet& set, const ProbeData& data);

/// Record counts of the test split: clean-prefix, contaminated-prefix (with a corrupted earlier turn), negatives.
struct ProbeSplitCounts {
    std::int64_t trainRecords = 0;
    std::int64_t testClean = 0;
    std::int64_t testContaminated = 0;
    std::int64_t testNegatives = 0;
};
ProbeSplitCounts probeSplitCounts(const ProbeData& data);

/// The probe file: {"format":"creditlab-probe-set","version":1,"run":…,"policy":…,"data":{…},"probes":[{"name":…,
/// "probe":<probeio JSON>}…]}. Any thread.
std::string probeSetToJson(
    const ProbeSet& set, std::int64_t runId, const std::string& policy, const ProbeDataOptions& data, bool sftPolicy);
/// What a probe file holds besides the probes.
struct ProbeSetHeader {
    std::int64_t runId = 0;
    std::string policy;
    ProbeDataOptions data;
    bool sftPolicy = false;
};
/// Parses probeSetToJson() output; throws std::invalid_argument naming `source` and the problem.
ProbeSet probeSetFromJson(const std::string& json, const std::string& source, ProbeSetHeader* header = nullptr);

} // namespace creditlab::learn
