// The columnar CreditBatch changes no result: on large generated batches, every method's advantages and detail
// columns through compute(Batch) and compute(CreditBatch) equal, within 1e-9, those of the estimators as they
// were before the columnar batch (credit_legacy.h, commit 806d4cd, per turn over the Turn structs). The batches
// carry what the key rules must survive: actions that differ only in case and whitespace, UTF-8 and invalid
// bytes, empty actions, states given or taken from the observation and shared across groups, missing fields,
// trajectories without turns, groups of one and groups whose members are not adjacent.
#include "core/credit/creditbatch.h"
#include "core/credit/estimator.h"
#include "core/model/text.h"
#include "credit_legacy.h"
#include "credittestutil.h"

#include <QtTest/QTest>

#include <cmath>
#include <functional>
#include <map>
#include <random>
#include <string>
#include <vector>

using namespace creditlab;
using namespace creditlab::credit;

namespace {

using Legacy = std::function<CreditResult(const Batch&, const Params&)>;

/// A batch of about `turns` turns. `full`: every optional field a method needs is present (roles, progress,
/// scores, credits); otherwise some roles, `valid`, `reward`, `state` and `success` are missing.
Batch generate(std::size_t turns, bool full, unsigned seed)
{
    std::mt19937 rng(seed);
    static const char* kActions[] = { "go to countertop 1", "Go to  Countertop 1", "  GO TO\tcountertop 1 ",
        "open fridge 1", "open  fridge\n1", "take mug 1 from countertop 1", "look", "Look", "LOOK  ", "", "   ",
        "öffne Tür 2", "Öffne  tür 2", "bad \xff byte", "bad \xff  BYTE", "inventory" };
    static const char* kStates[] = { "loc=1|holding=0", "loc=1|holding=1", "loc=2|holding=0", "LOC=2|holding=0",
        "küche|0", "küche|1", "kueche|0", "\xc3 broken", "", "loc=3 holding=0" };
    std::vector<Trajectory> out;
    std::size_t total = 0;
    for (std::size_t g = 0; total < turns; ++g) {
        // Groups of 1..12; every fifth group's key comes back later, so its members are not adjacent.
        const std::size_t size = 1 + rng() % 12;
        for (std::size_t r = 0; r < size && total < turns; ++r) {
            Trajectory t;
            t.id = "t" + std::to_string(out.size());
            t.group = "g" + std::to_string(g % 5 == 4 && g > 10 ? g - 10 : g);
            t.reward = rng() % 3 == 0 ? 1.0 : (rng() % 4 == 0 ? -0.5 + (rng() % 100) / 50.0 : 0.0);
            if (!full && rng() % 6 == 0)
                t.success = rng() % 2 == 0;
            const std::size_t n = rng() % 17 == 0 ? 0 : 1 + rng() % 16;
            double progress = 0.0;
            for (std::size_t k = 0; k < n; ++k) {
                Turn u;
                u.observation = "obs " + std::to_string(rng() % 7);
                u.action = kActions[rng() % std::size(kActions)];
                if (full || rng() % 3 != 0)
                    u.valid = rng() % 4 != 0;
                if (full || rng() % 4 != 0)
                    u.state = kStates[rng() % std::size(kStates)];
                if (rng() % 3 == 0)
                    u.reward = (static_cast<double>(rng() % 200) - 100.0) / 100.0;
                if (full || rng() % 5 != 0)
                    u.role = static_cast<Role>(rng() % 4);
                progress = std::min(1.0, progress + (rng() % 3) * 0.1);
                u.progress = progress;
                u.score = (rng() % 1000) / 1000.0;
                u.credits = { { "turnrd", (static_cast<double>(rng() % 1000) - 500.0) / 1000.0 },
                    { "value_delta", (static_cast<double>(rng() % 1000) - 500.0) / 1000.0 } };
                t.turns.push_back(std::move(u));
            }
            total += n;
            out.push_back(std::move(t));
        }
    }
    return Batch::fromTrajectories(std::move(out));
}

/// An empty string when `actual` equals `expected` within `tol` (relative above 1), else the first difference.
QString difference(const CreditResult& actual, const CreditResult& expected, double tol = 1e-9)
{
    const auto close = [&](double a, double b) {
        return (std::isnan(a) && std::isnan(b)) || std::abs(a - b) <= tol * std::max(1.0, std::abs(b));
    };
    if (actual.offsets != expected.offsets)
        return QStringLiteral("offsets differ");
    if (actual.advantages.size() != expected.advantages.size())
        return QStringLiteral("advantages: size %1, expected %2")
            .arg(actual.advantages.size())
            .arg(expected.advantages.size());
    for (std::size_t k = 0; k < actual.advantages.size(); ++k)
        if (!close(actual.advantages[k], expected.advantages[k]))
            return QStringLiteral("advantage of flat turn %1: %2, expected %3")
                .arg(k)
                .arg(actual.advantages[k], 0, 'g', 17)
                .arg(expected.advantages[k], 0, 'g', 17);
    if (actual.details.size() != expected.details.size())
        return QStringLiteral("%1 detail columns, expected %2").arg(actual.details.size()).arg(expected.details.size());
    for (std::size_t c = 0; c < actual.details.size(); ++c) {
        const DetailColumn& a = actual.details[c];
        const DetailColumn& e = expected.details[c];
        if (a.name != e.name || a.isText != e.isText || a.labels != e.labels || a.numbers.size() != e.numbers.size())
            return QStringLiteral("detail column %1 (%2) differs in name, kind, labels or size")
                .arg(c)
                .arg(QString::fromStdString(e.name));
        for (std::size_t k = 0; k < a.numbers.size(); ++k)
            if (!close(a.numbers[k], e.numbers[k]))
                return QStringLiteral("detail %1 of flat turn %2: %3, expected %4")
                    .arg(QString::fromStdString(e.name))
                    .arg(k)
                    .arg(a.numbers[k], 0, 'g', 17)
                    .arg(e.numbers[k], 0, 'g', 17);
    }
    return {};
}

} // namespace

class TestCreditColumnar : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void sameAsBefore_data();
    void sameAsBefore();
    void everyMethodBothWays_data();
    void everyMethodBothWays();
    void comparisonCatchesAChange();
    void keysInterned();

private:
    Batch m_full;
    Batch m_sparse;
    Batch m_small; // for gigpo's similarity clustering, quadratic in the distinct states of a group
};

void TestCreditColumnar::initTestCase()
{
    m_full = generate(120000, true, 5);
    m_sparse = generate(120000, false, 6);
    m_small = generate(20000, false, 7);
}

void TestCreditColumnar::sameAsBefore_data()
{
    QTest::addColumn<QString>("method");
    QTest::addColumn<QStringList>("sets");
    QTest::addColumn<int>("batch"); // 0 full, 1 sparse, 2 small
    const QList<std::pair<QString, QStringList>> cases = {
        { "mgr", {} },
        { "mgr", { "gate=per_action", "seed=7" } },
        { "mgr", { "gate=keep", "q=0", "alpha=1.3", "beta=0.4", "gamma=0.5" } },
        { "mgr", { "gate=flip", "theta_V=0", "theta_C1=0", "theta_C2=0.9", "decay=0.5" } },
        { "loop", {} },
        { "rtmc", {} },
        { "rtmc", { "gamma=0.9", "kappa=0.5", "normalize=false" } },
        { "gigpo", {} },
        { "gigpo", { "mode=mean_norm", "gamma=0.8", "step_weight=0.3" } },
        { "triage", { "unlabelled=grpo" } },
        { "triage", { "unlabelled=grpo", "whiten=false", "binarize=true", "norm_std=false", "lambda=0.7" } },
        { "step_reward", {} },
        { "step_reward", { "gamma=0.7" } },
    };
    for (int b = 0; b < 2; ++b)
        for (const auto& [method, sets] : cases)
            QTest::addRow("%s %s %s", qPrintable(method), qPrintable(sets.join(' ')), b == 0 ? "full" : "sparse")
                << method << sets << b;
    QTest::addRow("gigpo similarity=0.7 small") << QStringLiteral("gigpo") << QStringList { "similarity=0.7" } << 2;
    QTest::addRow("gigpo similarity=0.3 mean_norm small")
        << QStringLiteral("gigpo") << QStringList { "similarity=0.3", "mode=mean_norm" } << 2;
}

void TestCreditColumnar::sameAsBefore()
{
    QFETCH(QString, method);
    QFETCH(QStringList, sets);
    QFETCH(int, batch);
    const Batch& b = batch == 0 ? m_full : batch == 1 ? m_sparse : m_small;
    const std::map<QString, Legacy> legacy = { { "mgr", test::legacy::mgr }, { "loop", test::legacy::loop },
        { "rtmc", test::legacy::rtmc }, { "gigpo", test::legacy::gigpo }, { "triage", test::legacy::triage },
        { "step_reward", test::legacy::stepReward } };
    const Estimator& e = requireEstimator(method.toStdString());
    const Params p = e.resolve(test::assignments(sets));
    e.validate(b, p);
    const CreditResult before = legacy.at(method)(b, p);
    QVERIFY(before.advantages.size() > 10000 || batch == 2);

    const QString viaBatch = difference(e.compute(b, p), before);
    QVERIFY2(viaBatch.isEmpty(), qPrintable("compute(Batch): " + viaBatch));
    const CreditBatch all(b, Columns::All);
    const QString viaColumns = difference(e.compute(all, p), before);
    QVERIFY2(viaColumns.isEmpty(), qPrintable("compute(CreditBatch): " + viaColumns));
    const CreditBatch none(b, Columns::None); // the method builds what it lacks
    const QString viaNone = difference(e.compute(none, p), before);
    QVERIFY2(viaNone.isEmpty(), qPrintable("compute(CreditBatch without columns): " + viaNone));
}

void TestCreditColumnar::everyMethodBothWays_data()
{
    QTest::addColumn<QString>("method");
    for (const Estimator* e : estimators())
        QTest::newRow(std::string(e->name()).c_str()) << QString::fromUtf8(e->name());
}

void TestCreditColumnar::everyMethodBothWays()
{
    QFETCH(QString, method);
    const Estimator& e = requireEstimator(method.toStdString());
    const Params p = e.resolve({});
    e.validate(m_full, p);
    const CreditBatch all(m_full, Columns::All);
    const QString d = difference(e.compute(all, p), e.compute(m_full, p));
    QVERIFY2(d.isEmpty(), qPrintable(d));
}

void TestCreditColumnar::comparisonCatchesAChange()
{
    const Estimator& e = requireEstimator("rtmc");
    const Params p = e.resolve({});
    const CreditResult before = test::legacy::rtmc(m_sparse, p);
    CreditResult changed = e.compute(m_sparse, p);
    QVERIFY(difference(changed, before).isEmpty());
    changed.advantages[changed.advantages.size() / 2] += 1e-6;
    QVERIFY(!difference(changed, before).isEmpty());
    changed = e.compute(m_sparse, p);
    changed.details[0].numbers.back() += 1.0;
    QVERIFY(!difference(changed, before).isEmpty());
}

void TestCreditColumnar::keysInterned()
{
    // Ids are equal exactly when the keys are: the state key as a string, the action key by text::actionKey.
    const CreditBatch c(m_sparse, Columns::All);
    std::vector<std::string> actionOfId(c.actionCount()), stateOfId(c.stateCount());
    std::size_t k = 0;
    for (const Trajectory& t : m_sparse.trajectories) {
        for (const Turn& u : t.turns) {
            const std::string key = creditlab::text::actionKey(u.action);
            QCOMPARE(std::string(c.actionKeyText(c.actionIds()[k])), key);
            QCOMPARE(std::string(c.stateText(c.stateIds()[k])), u.stateKey());
            ++k;
        }
    }
    QCOMPARE(k, c.turnCount());
    for (std::uint32_t a = 0; a < c.actionCount(); ++a)
        for (std::uint32_t b = a + 1; b < c.actionCount(); ++b)
            QVERIFY(c.actionKeyText(a) != c.actionKeyText(b));
    for (std::uint32_t a = 0; a < c.stateCount(); ++a)
        for (std::uint32_t b = a + 1; b < c.stateCount(); ++b)
            QVERIFY(c.stateText(a) != c.stateText(b));
    QVERIFY(c.pairCount() <= c.stateCount() * c.actionCount());
}

QTEST_GUILESS_MAIN(TestCreditColumnar)
#include "tst_credit_columnar.moc"
