// The vocabulary shared by every layer (core/model/vocabulary.h): each enum's names round-trip and are the strings the
// database and the CLI use; unknown names are refused; every metric family is recognised, and the chart order puts
// the role shares with the other learning families (the Monitor used to look for "roles/" while the trainer writes
// "role/D", so those charts sorted last).
#include "core/model/vocabulary.h"

#include <QtTest>

#include <string>

using namespace creditlab;

class TestVocabulary : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void namesRoundTrip()
    {
        for (const auto p : { Phase::Setup, Phase::Sft, Phase::Rl, Phase::Eval, Phase::Waiting, Phase::Done })
            QCOMPARE(phaseFromName(phaseName(p)), std::optional<Phase>(p));
        for (const auto s : { RunStatus::Running, RunStatus::Paused, RunStatus::Finished, RunStatus::Failed,
                 RunStatus::Cancelled })
            QCOMPARE(runStatusFromName(runStatusName(s)), std::optional<RunStatus>(s));
        for (const auto s : { TrialStatus::Pending, TrialStatus::Running, TrialStatus::Finished, TrialStatus::Failed,
                 TrialStatus::Cancelled })
            QCOMPARE(trialStatusFromName(trialStatusName(s)), std::optional<TrialStatus>(s));
        for (const auto k : { RunKind::Import, RunKind::Train, RunKind::Trial })
            QCOMPARE(runKindFromName(runKindName(k)), std::optional<RunKind>(k));
        // The stored spellings (the database and `runs --json` keep them).
        QCOMPARE(std::string(phaseName(Phase::Waiting)), std::string("waiting"));
        QCOMPARE(std::string(runStatusName(RunStatus::Cancelled)), std::string("cancelled"));
        QCOMPARE(std::string(trialStatusName(TrialStatus::Pending)), std::string("pending"));
        QCOMPARE(std::string(runKindName(RunKind::Import)), std::string("import"));
    }

    void unknownNamesAreRefused()
    {
        QVERIFY(!phaseFromName("roles"));
        QVERIFY(!runStatusFromName("Finished"));
        QVERIFY(!runStatusFromName("pending")); // a trial's status, not a run's
        QVERIFY(!trialStatusFromName("paused")); // a run's, not a trial's
        QVERIFY(!runKindFromName(""));
        QVERIFY(hasEnded(TrialStatus::Finished) && hasEnded(TrialStatus::Failed));
        QVERIFY(!hasEnded(TrialStatus::Cancelled) && !hasEnded(TrialStatus::Pending));
    }

    void metricFamilies()
    {
        QCOMPARE(metricnames::familyOf("eval/success"), std::optional<std::string_view>("eval/"));
        QCOMPARE(metricnames::familyOf(metricnames::role('D')), std::optional<std::string_view>("role/"));
        QCOMPARE(metricnames::familyOf("turnrd/loss"), std::optional<std::string_view>("turnrd/"));
        QVERIFY(!metricnames::familyOf("roles/D"));
        QVERIFY(!metricnames::familyOf("eval/")); // a family, not a metric
        QVERIFY(!metricnames::familyOf("accuracy"));
        for (const auto name : { metricnames::kEvalSuccess, metricnames::kEvalInvalidRate, metricnames::kRolloutSuccess,
                 metricnames::kTrainKl, metricnames::kSftLoss, metricnames::kTimeTotal,
                 metricnames::kThroughputEnvSteps, metricnames::kDeviceMemory })
            QVERIFY2(metricnames::familyOf(name), std::string(name).c_str());
    }

    void chartOrder()
    {
        using metricnames::rank;
        QVERIFY(rank("eval/success") < rank("rollout/success"));
        QVERIFY(rank("train/policy_loss") < rank("eval/return")); // the learning metrics first
        QVERIFY(rank("eval/return") < rank("credit/nonzero_share"));
        QVERIFY(rank("credit/nonzero_share") < rank("role/D"));
        QVERIFY(rank("role/D") < rank("throughput/env_steps_per_s"));
        QCOMPARE(rank("role/D"), rank("role/R"));
        QVERIFY(rank("throughput/env_steps_per_s") < rank("device/memory_gb"));
        QVERIFY(rank("device/memory_gb") < rank("time/total_s"));
        QVERIFY(rank("time/total_s") < rank("roles/D")); // not a family: last
    }
};

QTEST_GUILESS_MAIN(TestVocabulary)
#include "tst_vocabulary.moc"
