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

QTEST_GUILESS_MAIN(TestTranslations)
#include "tst_ui_translations.moc"
