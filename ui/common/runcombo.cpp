#include "ui/common/runcombo.h"

#include "ui/common/textutil.h"

#include <QComboBox>
#include <QCoreApplication>

#include <map>
#include <string>

namespace creditlab::ui {

bool fillRunCombo(QComboBox* combo, const std::vector<RunInfo>& runs, qint64 keep)
{
    combo->clear();
    std::map<std::string, int> uses;
    for (const auto& run : runs)
        ++uses[run.name];
    for (const auto& run : runs) {
        QString label = QCoreApplication::translate("creditlab::ui::RunCombo", "%1: %2").arg(run.id).arg(toQString(run.name));
        if (const std::string summary = runSummary(run); uses[run.name] > 1 && !summary.empty())
            label += QStringLiteral(" (%1)").arg(toQString(summary));
        combo->addItem(label, QVariant::fromValue<qint64>(run.id));
    }
    const int index = combo->findData(QVariant::fromValue<qint64>(keep));
    combo->setCurrentIndex(index >= 0 ? index : combo->count() - 1);
    return index >= 0;
}

qint64 runToLoad(const QComboBox* combo, qint64 shown)
{
    return shown == 0 && combo->count() > 0 ? combo->currentData().toLongLong() : 0;
}

bool FollowedRun::follow(QComboBox* combo, qint64 runId, qint64 shown)
{
    m_run = runId == shown ? 0 : runId;
    if (const int index = combo->findData(QVariant::fromValue<qint64>(runId)); index >= 0)
        combo->setCurrentIndex(index); // the chooser names it at once
    return m_run != 0;
}

qint64 FollowedRun::listed(QComboBox* combo) const
{
    if (m_run == 0)
        return 0;
    const int index = combo->findData(QVariant::fromValue<qint64>(m_run));
    if (index < 0)
        return 0;
    combo->setCurrentIndex(index);
    return m_run;
}

} // namespace creditlab::ui
