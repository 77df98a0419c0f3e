#include "ui/sweeps/reportdialog.h"

#include "core/storage/store.h"
#include "ui/common/filedialogs.h"
#include "ui/common/textutil.h"
#include "ui/figures/curvepainter.h"

#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QKeySequence>
#include <QLabel>
#include <QPainter>
#include <QPushButton>
#include <QScreen>
#include <QScrollBar>
#include <QShortcut>
#include <QSvgRenderer>
#include <QTextBrowser>
#include <QTextDocument>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace creditlab::ui {

namespace {

/// A QTextBrowser whose images are the report's figures, painted on demand.
class ReportBrowser : public QTextBrowser {
public:
    explicit ReportBrowser(const learn::ExperimentReport* report)
        : m_report(report)
    {
    }
    QVariant loadResource(int type, const QUrl& name) override
    {
        if (type == QTextDocument::ImageResource) {
            for (const auto& metric : m_report->spec.metrics)
                if (name.toString() == toQString(learn::figureName(metric)))
                    return paintCurves(*m_report, metric, QSize(720, 420));
            // The performance profiles: report.md's own SVG, rendered.
            for (const auto& measure : m_report->measures)
                if (name.toString() == toQString(learn::profileFigureName(measure))) {
                    QSvgRenderer svg(QByteArray::fromStdString(learn::profileSvg(*m_report, measure)));
                    QImage image(QSize(720, 420), QImage::Format_ARGB32_Premultiplied);
                    image.fill(Qt::white);
                    QPainter painter(&image);
                    svg.render(&painter);
                    return image;
                }
        }
        return QTextBrowser::loadResource(type, name);
    }

private:
    const learn::ExperimentReport* m_report;
};

} // namespace

ReportDialog::ReportDialog(Store* store, QString database, qint64 sweepId, QWidget* parent)
    : QDialog(parent)
    , m_store(store)
    , m_database(std::move(database))
    , m_sweepId(sweepId)
{
    setWindowTitle(tr("Experiment %1: report").arg(sweepId));
    m_view = new ReportBrowser(&m_report);
    m_view->setOpenExternalLinks(false);
    m_status = new QLabel;
    m_status->setTextFormat(Qt::PlainText);
    m_status->setWordWrap(true);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    auto* refreshButton = buttons->addButton(tr("Refresh"), QDialogButtonBox::ActionRole);
    auto* exportButton = buttons->addButton(tr("Export…"), QDialogButtonBox::ActionRole);
    refreshButton->setToolTip(tr("Read the experiment again (F5)"));
    exportButton->setToolTip(tr("Write report.md with SVG and PNG figures into a folder (Ctrl+E)"));
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_status);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(refreshButton, &QPushButton::clicked, this, &ReportDialog::refresh);
    connect(exportButton, &QPushButton::clicked, this, &ReportDialog::exportInteractive);
    new QShortcut(QKeySequence::Refresh, this, this, &ReportDialog::refresh);
    new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_E), this, this, &ReportDialog::exportInteractive);
    // 900 x 760, or less on a small screen (the report scrolls).
    QSize size(900, 760);
    if (const QScreen* screen = parent ? parent->screen() : nullptr)
        size = size.boundedTo(screen->availableGeometry().size() * 0.9);
    resize(size);
    refresh();
}

bool ReportDialog::refresh()
{
    try {
        m_report = learn::buildReport(*m_store, m_sweepId);
    } catch (const std::exception& e) {
        m_status->setText(tr("Cannot build the report: %1").arg(toQString(e.what())));
        return false;
    }
    const int scroll = m_view->verticalScrollBar() ? m_view->verticalScrollBar()->value() : 0;
    m_view->document()->clear(); // the figures are painted again
    // Markdown without raw HTML: names in the report (runs, arms, metrics) are data, and show as written.
    m_view->document()->setMarkdown(toQString(learn::reportMarkdown(m_report, m_database.toStdString())),
        QTextDocument::MarkdownFeatures(QTextDocument::MarkdownDialectGitHub | QTextDocument::MarkdownNoHTML));
    if (m_view->verticalScrollBar())
        m_view->verticalScrollBar()->setValue(scroll);
    int supported = 0, contradicted = 0;
    for (const auto& c : m_report.claims) {
        supported += c.verdict == learn::Verdict::Supported;
        contradicted += c.verdict == learn::Verdict::Contradicted;
    }
    m_status->setText(tr("%n claim(s): %1 supported, %2 contradicted, %3 inconclusive%4", nullptr,
        static_cast<int>(m_report.claims.size()))
                          .arg(supported)
                          .arg(contradicted)
                          .arg(static_cast<int>(m_report.claims.size()) - supported - contradicted)
                          .arg(m_report.partial ? tr(" — partial: not every trial has finished") : QString()));
    return true;
}

QString ReportDialog::text() const { return m_view->toPlainText(); }

bool ReportDialog::exportTo(const QString& directory, QString* error)
{
    try {
        learn::writeReport(m_report, directory.toStdString(), m_database.toStdString(), &saveCurvesPng);
    } catch (const std::exception& e) {
        if (error)
            *error = toQString(e.what());
        return false;
    }
    return true;
}

void ReportDialog::exportInteractive()
{
    const QString dir = filedialogs::getExistingDirectory(this, tr("Export the report into"));
    if (dir.isEmpty())
        return;
    QString error;
    if (exportTo(dir, &error))
        m_status->setText(tr("Wrote report.md and %n figure(s) as SVG and PNG into %1", "", static_cast<int>(m_report.spec.metrics.size()))
                .arg(QDir::toNativeSeparators(dir)));
    else
        m_status->setText(tr("Export failed: %1").arg(error));
}

} // namespace creditlab::ui
