#pragma once

// PAIR's probe features (pair.md §2.2) from our policy: last-token and mean-pooled hidden states (final and per
// layer) and the four attention statistics per head and layer of one turn's token span. Torch-free: the
// statistics work on plain float arrays, and the torch-side extractors take the policy's types by forward
// declaration only, so the CLI, the GUI and core-side probe code include this header without LibTorch.

#include "core/probe/featurematrix.h"

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

namespace creditlab::learn {

struct TransformerOutput;
class TransformerImpl;

/// A turn's tokens [start, end) inside one sequence row whose valid tokens begin at `sequenceStart` (left
/// padding before it). The prefix is [sequenceStart, start); the key range the statistics see is
/// [sequenceStart, end), as if the sequence were cut after the turn (the paper's tokens_full, §2.2).
struct TurnSpan {
    std::int64_t start = 0;
    std::int64_t end = 0;
    std::int64_t sequenceStart = 0;
};

/// Which keys max_attn and std_attn range over. AllKeys is the authors' code (every key of the cut sequence,
/// causally masked future keys counting as zeros); Causal uses only keys k ≤ i (pair.md §7.1 item 18).
enum class AttentionKeySupport { AllKeys, Causal };
/// std_attn's estimator: Unbiased (N − 1, the offline torch.std the probes were trained with) or Population.
enum class AttentionStdEstimator { Unbiased, Population };

/// How attentionStatistics computes max_attn and std_attn; the defaults are the authors' offline code.
struct AttentionStatOptions {
    AttentionKeySupport support = AttentionKeySupport::AllKeys;
    AttentionStdEstimator stdEstimator = AttentionStdEstimator::Unbiased;
};

/// One layer's softmax attention for one sequence: `heads` maps of `queries` rows × `keys` columns, row-major
/// (data[(h·queries + i)·keys + k] = weight of query position i on key position k).
struct AttentionMap {
    std::span<const float> data;
    std::int64_t heads = 0;
    std::int64_t queries = 0;
    std::int64_t keys = 0;
};

/// The four statistics of pair.md §2.2 for every head of one layer, layout [max_attn(H), std_attn(H),
/// prefix_ratio(H), self_ratio(H)], each the mean over the span's query tokens i of
///   max_k α_i[k],  std_k α_i[k],  Σ_{k<start} α_i[k] / max(Σ_k α_i[k], 1e-10),  Σ_{start≤k<end} α_i[k] / max(…).
/// Throws std::invalid_argument on an empty span or one outside the map. Any thread.
std::vector<float> attentionStatistics(
    const AttentionMap& map, const TurnSpan& span, const AttentionStatOptions& options = {});

/// Everything PAIR's probes read from one turn (pair.md §2.2, §7.2 conventions).
struct TurnFeatures {
    std::vector<float> lastToken; ///< final-norm hidden state at end − 1 (HF's last entry)
    std::vector<float> meanPooled; ///< final-norm hidden state averaged over the span
    std::vector<std::vector<float>> layerLastToken; ///< residual stream after block l at end − 1, l = 0…L−1
    std::vector<std::vector<float>> layerMeanPooled; ///< residual stream after block l averaged over the span
    std::vector<float> attention; ///< attentionStatistics of layers 0…L−1 concatenated (4·H·L): PAIR's `a`
    std::int64_t heads = 0;
};

/// The probe feature types of pair.md §2.2's table and §2.9.
enum class PairFeatureType {
    LastToken, ///< d
    MeanPooled, ///< d
    MultiLayer, ///< last-token states of the final 4 blocks (fewer when the model has fewer), 4d
    Attention, ///< the 4H statistics of the last layer
    HiddenAttention, ///< LastToken ⊕ Attention (the code's Hidden+Attn)
    MultiAttention, ///< all layers' statistics, 4HL (PAIR Stage 2's input)
    Lookback, ///< prefix_ratio of the final 4 layers (Lookback Lens as the authors implement it)
};

/// The feature vector of one type for one turn. Throws std::invalid_argument when `features` is empty.
std::vector<float> pairFeatureVector(const TurnFeatures& features, PairFeatureType type);
/// One row per turn of pairFeatureVector(turns[i], type): the probes' input (core/probe). Any thread.
probe::FeatureMatrix pairFeatureMatrix(const std::vector<TurnFeatures>& turns, PairFeatureType type);
/// Stable names for files and the CLI: last_token, mean_pooled, multi_layer, attention, hidden_attention,
/// multi_attention, lookback.
const char* pairFeatureTypeName(PairFeatureType type);
/// Parses pairFeatureTypeName's output; throws std::invalid_argument otherwise.
PairFeatureType pairFeatureTypeFromName(const std::string& name);
/// All feature types, in table order.
std::vector<PairFeatureType> allPairFeatureTypes();

/// Features of `spans` in batch row `row` of a forward pass run with keepInternals (teacher forcing). Spans
/// index the row's positions. Calling thread only (torch's thread-local state); copies to the CPU once per
/// layer. Throws std::invalid_argument when the output lacks internals or a span is out of range.
std::vector<TurnFeatures> extractTurnFeatures(const TransformerOutput& output, std::int64_t row,
    const std::vector<TurnSpan>& spans, const AttentionStatOptions& options = {});

/// Runs `model` once over `tokens` (one sequence, no padding) under NoGradGuard with keepInternals and extracts
/// the features of every span. Causality makes one pass over the whole trajectory equal to one pass per turn
/// over [0, end). Calling thread only; the caller puts the model in eval() mode.
std::vector<TurnFeatures> teacherForcedTurnFeatures(TransformerImpl& model, const std::vector<std::int32_t>& tokens,
    const std::vector<TurnSpan>& spans, const AttentionStatOptions& options = {});

/// One turn to extract: its whole sequence (prompt and action) and where the turn's span starts in it; the span runs
/// to the end of the sequence.
struct TurnSequence {
    const std::vector<std::int32_t>* tokens = nullptr;
    std::int64_t spanStart = 0;
};

/// Features of many turns, `batchSize` sequences per teacher-forced pass, left-padded (positions count valid tokens
/// only, so each row equals its unpadded pass); a batch of one runs teacherForcedTurnFeatures. `afterBatch(done)`,
/// when given, is called after each pass. Calling thread only; the caller puts the model in eval() mode.
std::vector<TurnFeatures> batchedTurnFeatures(TransformerImpl& model, const std::vector<TurnSequence>& turns,
    std::size_t batchSize, const std::function<void(std::size_t done)>& afterBatch = {});

} // namespace creditlab::learn
