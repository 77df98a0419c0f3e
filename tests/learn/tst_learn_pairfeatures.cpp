// PAIR's probe features (core/learn/pairfeatures): the four attention statistics against a hand-written
// attention map (both std estimators, both key supports, left padding), and the torch-side extraction from the
// policy: one teacher-forced pass over a whole trajectory equals one pass per turn cut after the turn, left
// padding in a batch changes nothing, hidden states are the documented ones, and the feature types' sizes.
#include "core/learn/torch/pair/pairfeatures.h"
#include "core/learn/torch/lm/transformer.h"

#include <QtTest/QTest>

#include <cmath>
#include <vector>

using namespace creditlab::learn;

namespace {

/// Two heads over 5 positions; only query rows 2 and 3 (the turn) matter, the rest are valid filler rows.
std::vector<float> handMap()
{
    // clang-format off
    return {
        // head 0
        1, 0, 0, 0, 0,
        0.5f, 0.5f, 0, 0, 0,
        0.5f, 0.25f, 0.25f, 0, 0,
        0.1f, 0.2f, 0.3f, 0.4f, 0,
        0.2f, 0.2f, 0.2f, 0.2f, 0.2f,
        // head 1
        1, 0, 0, 0, 0,
        0, 1, 0, 0, 0,
        0, 0, 1, 0, 0,
        0.25f, 0.25f, 0.25f, 0.25f, 0,
        0.2f, 0.2f, 0.2f, 0.2f, 0.2f,
    };
    // clang-format on
}

/// Hand values for span [2, 4), layout [max0, max1, std0, std1, prefix0, prefix1, self0, self1]. Keys 0…3.
/// Head 0: rows (.5 .25 .25 0) and (.1 .2 .3 .4): max (.5 + .4)/2; squared deviations .125 and .05;
/// prefix (.75 + .3)/2, self (.25 + .7)/2. Head 1: rows (0 0 1 0) and (.25 .25 .25 .25): max (1 + .25)/2;
/// squared deviations .75 and 0; prefix (0 + .5)/2, self (1 + .5)/2.
std::vector<double> handStats(AttentionStdEstimator estimator, AttentionKeySupport support)
{
    const double dof = estimator == AttentionStdEstimator::Unbiased ? 1.0 : 0.0;
    // Causal support: row 2 sees keys 0…2 only: head 0 (.5 .25 .25) squares 1/24, head 1 (0 0 1) squares 2/3.
    const bool causal = support == AttentionKeySupport::Causal;
    const double n2 = causal ? 3.0 : 4.0;
    const double sq0 = causal ? 1.0 / 24.0 : 0.125;
    const double sq1 = causal ? 2.0 / 3.0 : 0.75;
    const double std0 = (std::sqrt(sq0 / (n2 - dof)) + std::sqrt(0.05 / (4.0 - dof))) / 2.0;
    const double std1 = (std::sqrt(sq1 / (n2 - dof)) + 0.0) / 2.0;
    return { 0.45, 0.625, std0, std1, 0.525, 0.25, 0.475, 0.75 };
}

void compareStats(const std::vector<float>& actual, const std::vector<double>& expected)
{
    QCOMPARE(actual.size(), expected.size());
    for (std::size_t i = 0; i < actual.size(); ++i)
        QVERIFY2(std::abs(actual[i] - expected[i]) < 1e-6,
            qPrintable(QStringLiteral("stat %1: got %2, expected %3").arg(i).arg(actual[i]).arg(expected[i])));
}

TransformerOptions tinyOptions()
{
    TransformerOptions o;
    o.vocab = 24;
    o.width = 16;
    o.layers = 2;
    o.heads = 2;
    o.context = 64;
    return o;
}

void compareVectors(const std::vector<float>& a, const std::vector<float>& b, const char* what)
{
    QVERIFY2(a.size() == b.size(), what);
    for (std::size_t i = 0; i < a.size(); ++i)
        QVERIFY2(std::abs(a[i] - b[i]) < 1e-5,
            qPrintable(QStringLiteral("%1[%2]: %3 vs %4").arg(what).arg(i).arg(a[i]).arg(b[i])));
}

void compareFeatures(const TurnFeatures& a, const TurnFeatures& b)
{
    compareVectors(a.lastToken, b.lastToken, "lastToken");
    compareVectors(a.meanPooled, b.meanPooled, "meanPooled");
    QCOMPARE(a.layerLastToken.size(), b.layerLastToken.size());
    for (std::size_t l = 0; l < a.layerLastToken.size(); ++l) {
        compareVectors(a.layerLastToken[l], b.layerLastToken[l], "layerLastToken");
        compareVectors(a.layerMeanPooled[l], b.layerMeanPooled[l], "layerMeanPooled");
    }
    compareVectors(a.attention, b.attention, "attention");
}

const std::vector<std::int32_t> kTokens { 6, 9, 11, 7, 20, 13, 8, 15, 22, 10, 17, 12 };
const std::vector<TurnSpan> kSpans { { 3, 6, 0 }, { 6, 9, 0 }, { 9, 12, 0 } };

} // namespace

class TestPairFeatures : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void handAttentionStatistics_data()
    {
        QTest::addColumn<int>("estimator");
        QTest::addColumn<int>("support");
        for (auto e : { AttentionStdEstimator::Unbiased, AttentionStdEstimator::Population })
            for (auto s : { AttentionKeySupport::AllKeys, AttentionKeySupport::Causal })
                QTest::addRow("%s %s", e == AttentionStdEstimator::Unbiased ? "unbiased" : "population",
                    s == AttentionKeySupport::AllKeys ? "all keys" : "causal")
                    << static_cast<int>(e) << static_cast<int>(s);
    }
    void handAttentionStatistics()
    {
        QFETCH(int, estimator);
        QFETCH(int, support);
        const AttentionStatOptions options { static_cast<AttentionKeySupport>(support),
            static_cast<AttentionStdEstimator>(estimator) };
        const std::vector<float> data = handMap();
        const AttentionMap map { data, 2, 5, 5 };
        const auto expected = handStats(options.stdEstimator, options.support);
        compareStats(attentionStatistics(map, { 2, 4, 0 }, options), expected);

        // The same map behind one left-padding position (a zero key column and a filler row) gives the same.
        std::vector<float> padded;
        for (int h = 0; h < 2; ++h) {
            padded.insert(padded.end(), { 0, 0, 0, 0, 0, 0 });
            for (int i = 0; i < 5; ++i) {
                padded.push_back(0);
                for (int k = 0; k < 5; ++k)
                    padded.push_back(data[static_cast<std::size_t>((h * 5 + i) * 5 + k)]);
            }
        }
        compareStats(attentionStatistics({ padded, 2, 6, 6 }, { 3, 5, 1 }, options), expected);
    }

    void statisticsRefuseBadSpans()
    {
        const std::vector<float> data = handMap();
        const AttentionMap map { data, 2, 5, 5 };
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, attentionStatistics(map, { 3, 3, 0 }));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, attentionStatistics(map, { 3, 6, 0 }));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, attentionStatistics(map, { 2, 4, 3 }));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, attentionStatistics({ data, 2, 5, 4 }, { 2, 4, 0 }));
    }

    void oneTeacherForcedPassEqualsPerTurnPasses()
    {
        torch::manual_seed(5);
        Transformer model(tinyOptions());
        model->eval();
        const auto whole = teacherForcedTurnFeatures(*model, kTokens, kSpans);
        QCOMPARE(whole.size(), kSpans.size());
        for (std::size_t s = 0; s < kSpans.size(); ++s) {
            const std::vector<std::int32_t> cut(kTokens.begin(), kTokens.begin() + kSpans[s].end);
            const auto alone = teacherForcedTurnFeatures(*model, cut, { kSpans[s] });
            compareFeatures(whole[s], alone.front());
        }
    }

    void featuresAreTheDocumentedStates()
    {
        torch::manual_seed(6);
        Transformer model(tinyOptions());
        model->eval();
        torch::NoGradGuard noGrad;
        const auto ids = torch::tensor(std::vector<std::int64_t>(kTokens.begin(), kTokens.end())).unsqueeze(0);
        const auto out = model->forward(ids, torch::ones_like(ids, torch::kBool), nullptr, true);
        const auto features = extractTurnFeatures(out, 0, kSpans);
        const auto toVector = [](const torch::Tensor& t) {
            const auto c = t.contiguous();
            return std::vector<float>(c.data_ptr<float>(), c.data_ptr<float>() + c.numel());
        };
        for (std::size_t s = 0; s < kSpans.size(); ++s) {
            const TurnSpan& span = kSpans[s];
            const TurnFeatures& f = features[s];
            compareVectors(f.lastToken, toVector(out.hidden[0][span.end - 1]), "final hidden");
            compareVectors(f.meanPooled, toVector(out.hidden[0].slice(0, span.start, span.end).mean(0)), "mean");
            QCOMPARE(f.layerLastToken.size(), std::size_t { 2 });
            compareVectors(f.layerLastToken[1], toVector(out.layerHidden[1][0][span.end - 1]), "block 1 output");
            QCOMPARE(f.attention.size(), std::size_t { 4 * 2 * 2 });
            // Softmax rows sum to 1 and causal keys end inside the cut: prefix_ratio + self_ratio = 1 per head.
            for (std::size_t l = 0; l < 2; ++l)
                for (std::size_t h = 0; h < 2; ++h)
                    QVERIFY(std::abs(f.attention[l * 8 + 4 + h] + f.attention[l * 8 + 6 + h] - 1.0f) < 1e-5f);
            // The statistics equal the plain-array function on the layer's map.
            const auto map = out.attention[0][0].contiguous();
            const std::vector<float> stats = attentionStatistics(
                { std::span<const float>(map.data_ptr<float>(), static_cast<std::size_t>(map.numel())), 2, map.size(1),
                    map.size(2) },
                span);
            compareVectors(std::vector<float>(f.attention.begin(), f.attention.begin() + 8), stats, "layer 0 stats");
        }
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, extractTurnFeatures(out, 0, { { 10, 13, 0 } }));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, extractTurnFeatures(out, 1, kSpans));
        const auto plain = model->forward(ids, torch::ones_like(ids, torch::kBool));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, extractTurnFeatures(plain, 0, kSpans));
    }

    void leftPaddingChangesNothing()
    {
        torch::manual_seed(7);
        Transformer model(tinyOptions());
        model->eval();
        torch::NoGradGuard noGrad;
        const auto alone = teacherForcedTurnFeatures(*model, kTokens, kSpans);
        // Row 1 holds the same trajectory behind 3 padding tokens; row 0 is another full-length sequence.
        constexpr std::int64_t pad = 3;
        const auto width = static_cast<std::int64_t>(kTokens.size()) + pad;
        auto ids = torch::full({ 2, width }, 1, torch::kLong);
        auto valid = torch::ones({ 2, width }, torch::kBool);
        for (std::int64_t i = 0; i < static_cast<std::int64_t>(kTokens.size()); ++i)
            ids[1][pad + i] = kTokens[static_cast<std::size_t>(i)];
        valid[1].slice(0, 0, pad).fill_(false);
        const auto out = model->forward(ids, valid, nullptr, true);
        std::vector<TurnSpan> shifted;
        for (const TurnSpan& s : kSpans)
            shifted.push_back({ s.start + pad, s.end + pad, pad });
        const auto padded = extractTurnFeatures(out, 1, shifted);
        for (std::size_t s = 0; s < kSpans.size(); ++s)
            compareFeatures(padded[s], alone[s]);
    }

    void featureTypeSizes()
    {
        torch::manual_seed(8);
        Transformer model(tinyOptions());
        model->eval();
        const TurnFeatures f = teacherForcedTurnFeatures(*model, kTokens, { kSpans.back() }).front();
        const std::size_t d = 16, heads = 2, layers = 2;
        QCOMPARE(pairFeatureVector(f, PairFeatureType::LastToken).size(), d);
        QCOMPARE(pairFeatureVector(f, PairFeatureType::MeanPooled).size(), d);
        QCOMPARE(pairFeatureVector(f, PairFeatureType::MultiLayer).size(), layers * d); // fewer than 4 blocks
        QCOMPARE(pairFeatureVector(f, PairFeatureType::Attention).size(), 4 * heads);
        QCOMPARE(pairFeatureVector(f, PairFeatureType::HiddenAttention).size(), d + 4 * heads);
        QCOMPARE(pairFeatureVector(f, PairFeatureType::MultiAttention).size(), 4 * heads * layers);
        QCOMPARE(pairFeatureVector(f, PairFeatureType::Lookback).size(), heads * layers);
        // Attention is the last layer's block; Lookback the prefix ratios of each layer.
        const auto last = pairFeatureVector(f, PairFeatureType::Attention);
        QCOMPARE(last, std::vector<float>(f.attention.begin() + 8, f.attention.end()));
        const auto lookback = pairFeatureVector(f, PairFeatureType::Lookback);
        QCOMPARE(lookback, (std::vector<float> { f.attention[4], f.attention[5], f.attention[12], f.attention[13] }));
        const auto all = teacherForcedTurnFeatures(*model, kTokens, kSpans);
        const auto matrix = pairFeatureMatrix(all, PairFeatureType::HiddenAttention);
        QCOMPARE(matrix.rows(), kSpans.size());
        QCOMPARE(matrix.cols(), d + 4 * heads);
        QCOMPARE(matrix.at(2, d + 1), static_cast<double>(pairFeatureVector(all[2], PairFeatureType::Attention)[1]));
        for (PairFeatureType type : allPairFeatureTypes())
            QCOMPARE(pairFeatureTypeFromName(pairFeatureTypeName(type)), type);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, pairFeatureTypeFromName("nope"));
    }
};

QTEST_GUILESS_MAIN(TestPairFeatures)
#include "tst_learn_pairfeatures.moc"
