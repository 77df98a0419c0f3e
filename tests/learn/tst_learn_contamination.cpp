// PAIR's contaminated household data (core/learn/api/contamination.h): deterministic for a seed, every injected turn
// is wrong and every gold turn right according to the simulator, downstream turns are preserved, labels and
// prefixes follow pair.md §2.7's label semantics, and the 80:20 split is by episode.
#include "core/env/environment.h"
#include "core/learn/api/contamination.h"

#include <QtTest/QTest>

#include <algorithm>
#include <set>

using namespace creditlab;
using namespace creditlab::learn;

namespace {

ContaminationOptions smallOptions(std::uint64_t seed = 42)
{
    ContaminationOptions o;
    o.episodes = 40;
    o.seed = seed;
    return o;
}

bool sameTurns(const std::vector<Turn>& a, const std::vector<Turn>& b)
{
    if (a.size() != b.size())
        return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (a[i].observation != b[i].observation || a[i].action != b[i].action)
            return false;
    return true;
}

} // namespace

class TestLearnContamination : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void deterministic()
    {
        const auto a = buildContaminatedDataset(smallOptions());
        const auto b = buildContaminatedDataset(smallOptions());
        QCOMPARE(a.episodes.size(), std::size_t(40));
        QCOMPARE(a.records.size(), b.records.size());
        for (std::size_t e = 0; e < a.episodes.size(); ++e) {
            QVERIFY(sameTurns(a.episodes[e].contaminated, b.episodes[e].contaminated));
            QCOMPARE(a.episodes[e].corrupted, b.episodes[e].corrupted);
            QCOMPARE(a.episodes[e].test, b.episodes[e].test);
        }
        // Another seed corrupts other turns or in other ways.
        const auto c = buildContaminatedDataset(smallOptions(7));
        int differs = 0;
        for (std::size_t e = 0; e < a.episodes.size(); ++e)
            differs += !sameTurns(a.episodes[e].contaminated, c.episodes[e].contaminated);
        QVERIFY(differs > 10);
    }

    void injectedTurnsAreWrongGoldTurnsRight()
    {
        const auto data = buildContaminatedDataset(smallOptions());
        auto environment = env::makeEnvironment("household");
        std::set<ContaminationType> types;
        int twice = 0;
        for (const auto& e : data.episodes) {
            QVERIFY(e.clean.size() >= 3 && e.clean.size() <= 12);
            QVERIFY(!e.corrupted.empty() && e.corrupted.size() <= 2);
            QCOMPARE(e.types.size(), e.corrupted.size());
            QVERIFY(std::is_sorted(e.corrupted.begin(), e.corrupted.end()));
            QVERIFY(e.corrupted.back() + 1 < static_cast<int>(e.clean.size())); // a gold turn follows
            twice += e.corrupted.size() == 2;
            // Gold: valid, never R, and the episode succeeds.
            environment->reset(e.taskSeed, env::Split::Train);
            bool success = false;
            for (const auto& turn : e.clean) {
                const auto& r = environment->step(turn.action);
                QVERIFY(r.info.valid);
                QVERIFY(!r.info.role || *r.info.role != Role::R);
                success = r.success;
            }
            QVERIFY(success);
            // Injected: from the true state before it, invalid or R, and differing from the gold action.
            for (std::size_t k = 0; k < e.corrupted.size(); ++k) {
                const int j = e.corrupted[k];
                types.insert(e.types[k]);
                QVERIFY(e.contaminated[j].action != e.clean[j].action);
                environment->reset(e.taskSeed, env::Split::Train);
                for (int t = 0; t < j; ++t)
                    environment->step(e.clean[t].action);
                const auto& r = environment->step(e.contaminated[j].action);
                QVERIFY2(!r.info.valid || (r.info.role && *r.info.role == Role::R),
                    (e.taskKey + ": " + e.contaminated[j].action).c_str());
            }
        }
        QVERIFY(twice > 0 && twice < 40);
        QVERIFY2(types.size() >= 3, "the rules should produce most contamination types");
    }

    void downstreamPreserved()
    {
        const auto data = buildContaminatedDataset(smallOptions());
        for (const auto& e : data.episodes) {
            QCOMPARE(e.contaminated.size(), e.clean.size());
            for (std::size_t t = 0; t < e.clean.size(); ++t) {
                QCOMPARE(e.contaminated[t].observation, e.clean[t].observation);
                const bool injected
                    = std::find(e.corrupted.begin(), e.corrupted.end(), static_cast<int>(t)) != e.corrupted.end();
                if (!injected)
                    QCOMPARE(e.contaminated[t].action, e.clean[t].action);
            }
        }
    }

    void labelsAndPrefixes()
    {
        const auto data = buildContaminatedDataset(smallOptions());
        std::size_t turns = 0;
        for (const auto& e : data.episodes)
            turns += e.clean.size();
        QCOMPARE(data.records.size(), 2 * turns); // a clean-prefix and a contaminated-prefix record per turn
        int negatives = 0, afterCorruption = 0;
        for (const auto& r : data.records) {
            const auto& e = data.episodes[r.episode];
            const bool injected = std::find(e.corrupted.begin(), e.corrupted.end(), r.turn) != e.corrupted.end();
            QCOMPARE(r.label, injected ? 0 : 1);
            negatives += r.label == 0;
            QCOMPARE(recordTurn(data, r).action, e.contaminated[r.turn].action);
            const auto prefix = recordPrefix(data, r);
            QCOMPARE(prefix.size(), std::size_t(r.turn));
            const auto& source = r.prefix == PrefixType::Clean ? e.clean : e.contaminated;
            QVERIFY(sameTurns(prefix, std::vector<Turn>(source.begin(), source.begin() + r.turn)));
            const bool corruptedBefore = !e.corrupted.empty() && e.corrupted.front() < r.turn;
            QCOMPARE(r.hasContaminatedPrefix, r.prefix == PrefixType::Contaminated && corruptedBefore);
            if (r.hasContaminatedPrefix) {
                ++afterCorruption;
                QVERIFY(r.distance >= 1 && r.distance <= r.turn);
                QVERIFY(std::find(e.corrupted.begin(), e.corrupted.end(), r.turn - r.distance) != e.corrupted.end());
            } else {
                QCOMPARE(r.distance, 0);
            }
        }
        QVERIFY(negatives > 0);
        QVERIFY(afterCorruption > 0);
    }

    void splitByEpisode()
    {
        const auto data = buildContaminatedDataset(smallOptions());
        int tests = 0;
        for (const auto& e : data.episodes)
            tests += e.test;
        QCOMPARE(tests, 8); // 20% of 40
        for (const auto& r : data.records)
            QCOMPARE(r.test, data.episodes[r.episode].test);
        // The split seed alone decides it: another contamination seed keeps the same test episodes.
        const auto other = buildContaminatedDataset(smallOptions(7));
        for (std::size_t e = 0; e < data.episodes.size(); ++e)
            QCOMPARE(other.episodes[e].test, data.episodes[e].test);
    }

    void badOptions()
    {
        auto o = smallOptions();
        o.maxTurns = 2;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, buildContaminatedDataset(o));
        o = smallOptions();
        o.episodes = 0;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, buildContaminatedDataset(o));
        o = smallOptions();
        o.env = "no-such-env";
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, buildContaminatedDataset(o));
    }

    void typeNames()
    {
        QCOMPARE(allContaminationTypes().size(), std::size_t(4));
        QCOMPARE(std::string(contaminationTypeName(ContaminationType::StaleMemory)), std::string("stale_memory"));
    }
};

QTEST_GUILESS_MAIN(TestLearnContamination)
#include "tst_learn_contamination.moc"
