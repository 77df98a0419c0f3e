#include "ui/common/runcombo.h"

#include "ui/common/textutil.h"

#include <QComboBox>
#include <QCoreApplication>

namespace creditlab::ui {

bool fillRunCombo(QComboBox* combo, const std::vector<RunInfo>& runs, qint64 keep)
{
    combo->clear();
    for (const auto& run : runs)
        combo->addItem(QCoreApplication::translate("creditlab::ui::RunCombo", "%1: %2")
                           .arg(run.id)
                           .arg(toQString(run.name)),
            QVariant::fromValue<qint64>(run.id));
    const int index = combo->findData(QVariant::fromValue<qint64>(keep));
    combo->setCurrentIndex(index >= 0 ? index : combo->count() - 1);
    return index >= 0;
}

qint64 runToLoad(const QComboBox* combo, qint64 shown)
{
    return shown == 0 && combo->count() > 0 ? combo->currentData().toLongLong() : 0;
}

} // namespace creditlab::ui
