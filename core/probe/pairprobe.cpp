#include "core/probe/pairprobe.h"

#include "core/probe/metrics.h"

#include <random>
#include <stdexcept>
#include <string>

namespace creditlab::probe {

namespace {

std::vector<int> selectLabels(const std::vector<int>& labels, const std::vector<std::size_t>& rows)
{
    std::vector<int> out;
    out.reserve(rows.size());
    for (std::size_t r : rows)
        out.push_back(labels[r]);
    return out;
}

/// A seeded fold per row (a Fisher–Yates permutation dealt round-robin), reproducible across platforms.
std::vector<int> assignFolds(std::size_t rows, int folds, std::uint64_t seed)
{
    std::vector<std::size_t> perm(rows);
    for (std::size_t i = 0; i < rows; ++i)
        perm[i] = i;
    std::mt19937_64 rng(seed);
    for (std::size_t i = rows; i > 1; --i)
        std::swap(perm[i - 1], perm[rng() % i]);
    std::vector<int> fold(rows);
    for (std::size_t i = 0; i < rows; ++i)
        fold[perm[i]] = static_cast<int>(i % static_cast<std::size_t>(folds));
    return fold;
}

} // namespace

PairFitReport PairProbe::fit(const FeatureMatrix& hidden, const FeatureMatrix& attention,
    const std::vector<int>& labels, const PairProbeOptions& options)
{
    const std::size_t n = hidden.rows();
    if (attention.rows() != n || labels.size() != n)
        throw std::invalid_argument("PairProbe: hidden, attention and labels have different row counts");
    if (!options.stage1Rows.empty() && options.stage1Rows.size() != n)
        throw std::invalid_argument("PairProbe: stage1Rows has a different row count");
    std::vector<std::size_t> stage1Rows;
    for (std::size_t i = 0; i < n; ++i)
        if (options.stage1Rows.empty() || options.stage1Rows[i])
            stage1Rows.push_back(i);

    PairFitReport report;
    LinearProbe stage1;
    report.stage1 = stage1.fit(hidden.selectRows(stage1Rows), selectLabels(labels, stage1Rows), options.stage1);

    // Stage 1's output on every training row: in-sample (the code's default) or K-fold cross-fitted.
    std::vector<double> zbase;
    if (options.crossFitFolds < 2) {
        zbase = stage1.logit(hidden);
    } else {
        const std::vector<int> fold = assignFolds(n, options.crossFitFolds, options.crossFitSeed);
        zbase.assign(n, 0.0);
        for (int k = 0; k < options.crossFitFolds; ++k) {
            std::vector<std::size_t> fitRows, heldOut;
            for (std::size_t i : stage1Rows)
                if (fold[i] != k)
                    fitRows.push_back(i);
            for (std::size_t i = 0; i < n; ++i)
                if (fold[i] == k)
                    heldOut.push_back(i);
            if (heldOut.empty())
                continue;
            LinearProbe foldProbe;
            foldProbe.fit(hidden.selectRows(fitRows), selectLabels(labels, fitRows), options.stage1);
            const std::vector<double> z = foldProbe.logit(hidden.selectRows(heldOut));
            for (std::size_t j = 0; j < heldOut.size(); ++j)
                zbase[heldOut[j]] = z[j];
        }
    }
    std::vector<double> sbc(n);
    for (std::size_t i = 0; i < n; ++i)
        sbc[i] = sigmoid(zbase[i]);

    FeatureMatrix a = attention;
    sanitizeFeatures(a);
    StandardScaler scaler;
    LogisticRegression model(options.stage2);
    if (options.mode == PairStage2Mode::Concat) {
        // Eq. 4: s_bc (the probability) is the last column and goes through Stage 2's own scaler.
        const FeatureMatrix x = a.withColumn(sbc);
        scaler.fit(x);
        report.stage2 = model.fit(scaler.transform(x), labels);
    } else {
        // Logit residual: Δ on [â ; s_base], trained through BCE(z_base + Δ); z_base is a fixed offset.
        scaler.fit(a);
        report.stage2 = model.fit(scaler.transform(a).withColumn(sbc), labels, zbase);
    }
    m_mode = options.mode;
    m_stage1 = std::move(stage1);
    m_stage2Scaler = std::move(scaler);
    m_stage2Model = std::move(model);
    return report;
}

std::vector<double> PairProbe::stage2Logit(
    const FeatureMatrix& attention, const std::vector<double>& sbc, const std::vector<double>& zbase) const
{
    FeatureMatrix a = attention;
    sanitizeFeatures(a);
    if (m_mode == PairStage2Mode::Concat)
        return m_stage2Model.decision(m_stage2Scaler.transform(a.withColumn(sbc)));
    return m_stage2Model.decision(m_stage2Scaler.transform(a).withColumn(sbc), zbase);
}

PairScores PairProbe::scoreStages(const FeatureMatrix& hidden, const FeatureMatrix& attention) const
{
    if (!fitted())
        throw std::logic_error("PairProbe: not fitted");
    if (hidden.rows() != attention.rows())
        throw std::invalid_argument("PairProbe: hidden and attention have different row counts");
    PairScores scores;
    const std::vector<double> zbase = m_stage1.logit(hidden);
    scores.stage1.resize(zbase.size());
    for (std::size_t i = 0; i < zbase.size(); ++i)
        scores.stage1[i] = sigmoid(zbase[i]);
    scores.final = stage2Logit(attention, scores.stage1, zbase);
    for (double& z : scores.final)
        z = sigmoid(z);
    return scores;
}

std::vector<double> PairProbe::score(const FeatureMatrix& hidden, const FeatureMatrix& attention) const
{
    return scoreStages(hidden, attention).final;
}

double PairProbe::evaluate(
    const FeatureMatrix& hidden, const FeatureMatrix& attention, const std::vector<int>& labels) const
{
    return auroc(score(hidden, attention), labels);
}

void PairProbe::restore(
    PairStage2Mode mode, LinearProbe stage1, StandardScaler stage2Scaler, LogisticRegression stage2Model)
{
    const std::size_t weights = stage2Model.weights().size();
    const std::size_t scaled = mode == PairStage2Mode::Concat ? weights : weights - 1;
    if (!stage1.fitted() || !stage2Model.fitted() || weights == 0 || stage2Scaler.features() != scaled)
        throw std::invalid_argument("PairProbe: stage sizes disagree");
    m_mode = mode;
    m_stage1 = std::move(stage1);
    m_stage2Scaler = std::move(stage2Scaler);
    m_stage2Model = std::move(stage2Model);
}

const char* pairStage2ModeName(PairStage2Mode mode)
{
    return mode == PairStage2Mode::Concat ? "concat" : "logit_residual";
}

PairStage2Mode pairStage2ModeFromName(const std::string& name)
{
    if (name == "concat")
        return PairStage2Mode::Concat;
    if (name == "logit_residual")
        return PairStage2Mode::LogitResidual;
    throw std::invalid_argument("unknown PAIR stage 2 mode '" + name + "' (concat, logit_residual)");
}

} // namespace creditlab::probe
