#include "ui/shell/importstatuswidget.h"

#include "ui/shell/importjob.h"
#include "ui/common/textutil.h"

#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>

#include <cmath>

namespace creditlab::ui {

ImportStatusWidget::ImportStatusWidget(ImportJob* job, QWidget* parent)
    : QWidget(parent)
    , m_job(job)
    , m_label(new QLabel(this))
    , m_bar(new QProgressBar(this))
    , m_cancel(new QPushButton(tr("Cancel"), this))
{
    m_label->setTextFormat(Qt::PlainText);
    m_bar->setRange(0, 100);
    m_bar->setTextVisible(true);
    m_bar->setFormat(QStringLiteral("%p%"));
    m_bar->setMaximumWidth(220);
    m_cancel->setToolTip(tr("Stop the import; nothing of the current file is kept"));

    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_label);
    layout->addWidget(m_bar);
    layout->addWidget(m_cancel);
    setVisible(false);

    connect(m_cancel, &QPushButton::clicked, this, [this] {
        m_cancel->setEnabled(false);
        m_label->setText(tr("Cancelling…"));
        m_job->cancel();
    });
    connect(m_job, &ImportJob::started, this, [this] {
        m_cancel->setEnabled(true);
        m_bar->setValue(0);
        setVisible(true);
    });
    connect(m_job, &ImportJob::progressChanged, this, &ImportStatusWidget::showProgress);
    connect(m_job, &ImportJob::finished, this, [this] { setVisible(false); });
}

void ImportStatusWidget::showProgress(const ImportProgress& progress)
{
    if (!m_cancel->isEnabled())
        return; // keep "Cancelling…" until the worker stops
    const QString name = QFileInfo(progress.file).fileName();
    QString text = progress.fileCount > 1
        ? tr("Importing %1 (%2 of %3)").arg(name).arg(progress.fileIndex + 1).arg(progress.fileCount)
        : tr("Importing %1").arg(name);
    if (progress.trajectories > 0)
        text += QStringLiteral(" · ") + tr("%Ln trajectories", nullptr, static_cast<int>(progress.trajectories));
    if (progress.etaSeconds >= 0.0)
        text += QStringLiteral(" · ") + tr("%1 left").arg(formatDuration(progress.etaSeconds));
    m_label->setText(text);
    m_bar->setValue(static_cast<int>(std::lround(progress.fraction * 100.0)));
}

} // namespace creditlab::ui
