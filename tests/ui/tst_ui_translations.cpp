// The translations are embedded under :/i18n, load, and translate what the GUI shows.
#include "ui/runs/runmodel.h"

#include <QCoreApplication>
#include <QFile>
#include <QTranslator>
#include <QtTest>

class TestTranslations : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void embedded_data();
    void embedded();
    void englishPlurals();
};

void TestTranslations::embedded_data()
{
    QTest::addColumn<QString>("locale");
    QTest::addColumn<QString>("trajectories");
    QTest::newRow("de") << "de" << QStringLiteral("Trajektorien");
    QTest::newRow("zh_CN") << "zh_CN" << QString::fromUtf8("轨迹");
}

void TestTranslations::embedded()
{
    QFETCH(QString, locale);
    QFETCH(QString, trajectories);
    const QString path = QStringLiteral(":/i18n/creditlab_%1.qm").arg(locale);
    QVERIFY2(QFile::exists(path), qPrintable(path));

    QTranslator translator;
    QVERIFY(
        translator.load(QLocale(locale), QStringLiteral("creditlab"), QStringLiteral("_"), QStringLiteral(":/i18n")));
    QVERIFY(QCoreApplication::installTranslator(&translator));
    creditlab::ui::RunModel model;
    QCOMPARE(
        model.headerData(int(creditlab::ui::RunModel::Column::Trajectories), Qt::Horizontal).toString(), trajectories);
    QVERIFY(QCoreApplication::removeTranslator(&translator));
    QCOMPARE(model.headerData(int(creditlab::ui::RunModel::Column::Trajectories), Qt::Horizontal).toString(),
        QStringLiteral("Trajectories"));
}

/// English ships its plural forms: "%n trial(s)" reads "1 trial" and "18 trials", not "18 trial(s)".
void TestTranslations::englishPlurals()
{
    const auto sweep = [] {
        return QCoreApplication::translate("creditlab::ui::SweepPage",
            "Start this sweep of %n trial(s)? Each trial becomes a training run in %1.", nullptr, 18)
            .arg(QStringLiteral("runs.db"));
    };
    QCOMPARE(sweep(), QStringLiteral("Start this sweep of 18 trial(s)? Each trial becomes a training run in runs.db."));
    QTranslator english;
    QVERIFY(english.load(QStringLiteral("creditlab_en"), QStringLiteral(":/i18n")));
    QVERIFY(QCoreApplication::installTranslator(&english));
    QCOMPARE(sweep(), QStringLiteral("Start this sweep of 18 trials? Each trial becomes a training run in runs.db."));
    const auto matches
        = [](int n) { return QCoreApplication::translate("creditlab::ui::TreePage", "%n match(es)", nullptr, n); };
    QCOMPARE(matches(1), QStringLiteral("1 match"));
    QCOMPARE(matches(3), QStringLiteral("3 matches"));
    // A source already in the plural gets its singular; a visit count N(s) is not a plural.
    QCOMPARE(
        QCoreApplication::translate("creditlab::ui::MonitorPage", "%n ranks", nullptr, 1), QStringLiteral("1 rank"));
    QVERIFY(QCoreApplication::removeTranslator(&english));
}

QTEST_GUILESS_MAIN(TestTranslations)
#include "tst_ui_translations.moc"
