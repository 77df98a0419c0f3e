#pragma once

// TurnRD's inputs and its replay buffer (HAS paper §2.9). Torch-free plain data, so the trainer, the CLI and
// the GUI can hold and show it without LibTorch.

#include <cstdint>
#include <string>
#include <vector>

namespace creditlab::learn {

/// One trajectory as TurnRD sees it (HAS §2.5, §2.9: "R, hiddens h_{1:T}, goal_emb, round index").
/// Filled by the trainer at rollout time from the acting policy; immutable afterwards.
struct TurnRdTrajectory {
    std::int64_t turns = 0; ///< T, the number of active turns (1..maxTurns)
    std::vector<float> hidden; ///< T × inputWidth, row-major: the policy's per-turn hidden state h_t
    std::vector<float> goal; ///< goalWidth: the goal embedding g (may be empty when FiLM is off)
    double reward = 0.0; ///< R, the terminal reward
    /// Optional dense per-turn progress reward Δp_t (T values), e.g. the environment's progress delta. It is the
    /// target y_t of the masked value loss L_V, and |Δp_t| shapes the progress prior of L_prog (§2.8). Empty when
    /// the environment gives none: the trajectory then contributes to L_pred and L_rank only.
    std::vector<float> progress;
    std::int64_t round = 0; ///< the training round that collected it
};

/// Cumulative, recency-weighted replay (HAS §2.9): "cumulative and recency-weighted rather than physically
/// trimmed, so older rounds remain available but newer policy data has larger influence". Not thread-safe; the
/// training worker owns it.
class TurnRdReplay {
public:
    /// `halfLifeRounds` is the paper's recency half-life (4 rounds; Algorithm 1 calls it H).
    explicit TurnRdReplay(double halfLifeRounds = 4.0);

    /// Appends one round's records (their `round` fields say which round). Throws std::invalid_argument for a
    /// record whose hidden/progress sizes do not match its turn count.
    void append(std::vector<TurnRdTrajectory> records);
    void clear();

    const std::vector<TurnRdTrajectory>& records() const { return m_records; }
    std::size_t size() const { return m_records.size(); }
    bool empty() const { return m_records.empty(); }
    /// The highest round index held; -1 when empty.
    std::int64_t latestRound() const { return m_latestRound; }
    double halfLifeRounds() const { return m_halfLife; }
    /// Bytes of the stored floats (hiddens, goals, progress), for the replay browser.
    std::size_t floatBytes() const;

    /// ω = 0.5^((now − round)/halfLife), the note's [choice] for the unstated formula (§2.9): 1 for the current
    /// round, 0.5 four rounds back. Records from "future" rounds (round > now) get 1.
    static double recencyWeight(std::int64_t round, std::int64_t now, double halfLifeRounds);
    /// ω of every record, in records() order, with `now` the round just collected.
    std::vector<double> weights(std::int64_t now) const;

    /// The side file of the replay (the database keeps only its path): appends `records` to `path`, creating it
    /// with its header when missing, so each round adds its records without rewriting older ones. Float32,
    /// host byte order. Throws std::runtime_error on I/O errors. Any thread, one writer per file.
    static void appendToFile(const std::string& path, const std::vector<TurnRdTrajectory>& records);
    /// Reads every record of a side file; throws std::runtime_error naming the file on a bad or truncated one.
    static std::vector<TurnRdTrajectory> readFile(const std::string& path);
    /// Records as bytes, in the side file's record layout (without its header), and back: how rank 0 of a
    /// data-parallel run hands the replay it read to the other ranks. decode() throws std::runtime_error naming
    /// `source` on bytes that do not decode.
    static std::string encode(const std::vector<TurnRdTrajectory>& records);
    static std::vector<TurnRdTrajectory> decode(const std::string& bytes, const std::string& source);

private:
    double m_halfLife;
    std::int64_t m_latestRound = -1;
    std::vector<TurnRdTrajectory> m_records;
};

} // namespace creditlab::learn
