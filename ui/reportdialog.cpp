#include "ui/reportdialog.h"

#include "core/store.h"
#include "ui/textutil.h"

#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QKeySequence>
#include <QLabel>
#include <QPainter>
#include <QPainterPath>
#include <QFile>
#include <QPushButton>
#include <QScreen>
#include <QScrollBar>
#include <QShortcut>
#include <QTextBrowser>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace creditlab::ui {

namespace {

/// The arms' colours, as in learn::curveSvg (Okabe–Ito).
QColor colourOf(std::size_t arm)
{
    static const char* const colours[]
        = { "#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#F0E442", "#000000" };
    return QColor(QString::fromLatin1(colours[arm % (sizeof colours / sizeof colours[0])]));
}

/// A QTextBrowser whose images are the report's figures, painted on demand.
class ReportBrowser : public QTextBrowser {
public:
    explicit ReportBrowser(const learn::ExperimentReport* report)
        : m_report(report)
    {
    }
    QVariant loadResource(int type, const QUrl& name) override
    {
        if (type == QTextDocument::ImageResource)
            for (const auto& metric : m_report->spec.metrics)
                if (name.toString() == toQString(learn::figureName(metric)))
                    return paintCurves(*m_report, metric, QSize(720, 420));
        return QTextBrowser::loadResource(type, name);
    }

private:
    const learn::ExperimentReport* m_report;
};

} // namespace

QImage paintCurves(const learn::ExperimentReport& report, const std::string& metric, const QSize& size)
{
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    QPainter p(&image);
    p.setRenderHint(QPainter::Antialiasing);
    const double W = size.width(), H = size.height();
    const double left = 70, right = 170, top = 40, bottom = 55;
    const double plotW = std::max(10.0, W - left - right), plotH = std::max(10.0, H - top - bottom);
    const auto [xMin, xMax, yMin, yMax, empty] = learn::curveFrame(report, metric);
    const auto X = [&](double x) { return left + (x - xMin) / (xMax - xMin) * plotW; };
    const auto Y = [&](double y) { return top + (1.0 - (y - yMin) / (yMax - yMin)) * plotH; };

    QFont title = p.font();
    title.setBold(true);
    title.setPointSizeF(title.pointSizeF() * 1.15);
    p.setFont(title);
    p.setPen(Qt::black);
    p.drawText(QPointF(left, 22),
        QStringLiteral("%1: %2 (mean ± std over seeds)%3")
            .arg(toQString(report.spec.name), toQString(metric), report.partial ? QStringLiteral(" — partial") : QString()));
    p.setFont(QFont());
    const QFontMetricsF fm(p.font());
    for (double t : learn::niceTicks(yMin, yMax)) {
        p.setPen(QColor(0xe5, 0xe5, 0xe5));
        p.drawLine(QPointF(left, Y(t)), QPointF(left + plotW, Y(t)));
        p.setPen(Qt::black);
        const QString label = QString::number(t, 'g', 4);
        p.drawText(QPointF(left - 6 - fm.horizontalAdvance(label), Y(t) + 4), label);
    }
    for (double t : learn::niceTicks(xMin, xMax)) {
        p.setPen(QColor(0x44, 0x44, 0x44));
        p.drawLine(QPointF(X(t), top + plotH), QPointF(X(t), top + plotH + 5));
        const QString label = QString::number(t, 'g', 6);
        p.drawText(QPointF(X(t) - fm.horizontalAdvance(label) / 2, top + plotH + 19), label);
    }
    p.setPen(QColor(0x44, 0x44, 0x44));
    p.setBrush(Qt::NoBrush);
    p.drawRect(QRectF(left, top, plotW, plotH));
    p.drawText(QRectF(left, H - 26, plotW, 20), Qt::AlignCenter, QObject::tr("iteration"));
    p.save();
    p.translate(16, top + plotH / 2);
    p.rotate(-90);
    p.drawText(QRectF(-plotH / 2, -12, plotH, 20), Qt::AlignCenter, toQString(metric));
    p.restore();
    if (empty) {
        p.setPen(QColor(0x88, 0x88, 0x88));
        p.drawText(QRectF(left, top, plotW, plotH), Qt::AlignCenter, QObject::tr("no values yet"));
    }
    std::size_t armIndex = 0;
    for (const auto& arm : report.spec.arms) {
        const QColor colour = colourOf(armIndex);
        const double ly = top + 14 + 20.0 * static_cast<double>(armIndex);
        ++armIndex;
        const auto it = std::find_if(report.curves.begin(), report.curves.end(),
            [&](const learn::ArmCurve& c) { return c.metric == metric && c.arm == arm.name; });
        if (it == report.curves.end())
            continue;
        const auto& c = *it;
        if (c.iterations.size() > 1 && c.seeds > 1) {
            QPolygonF band;
            for (std::size_t k = 0; k < c.iterations.size(); ++k)
                band << QPointF(X(static_cast<double>(c.iterations[k])), Y(c.mean[k] + c.std[k]));
            for (std::size_t k = c.iterations.size(); k-- > 0;)
                band << QPointF(X(static_cast<double>(c.iterations[k])), Y(c.mean[k] - c.std[k]));
            QColor fill = colour;
            fill.setAlphaF(0.18);
            p.setPen(Qt::NoPen);
            p.setBrush(fill);
            p.drawPolygon(band);
        }
        QPolygonF line;
        for (std::size_t k = 0; k < c.iterations.size(); ++k)
            line << QPointF(X(static_cast<double>(c.iterations[k])), Y(c.mean[k]));
        p.setBrush(Qt::NoBrush);
        p.setPen(QPen(colour, 2));
        p.drawPolyline(line);
        if (line.size() == 1) {
            p.setBrush(colour);
            p.drawEllipse(line.front(), 3, 3);
        }
        p.setPen(QPen(colour, 3));
        p.drawLine(QPointF(left + plotW + 12, ly), QPointF(left + plotW + 34, ly));
        p.setPen(Qt::black);
        p.drawText(QPointF(left + plotW + 40, ly + 4),
            QStringLiteral("%1 (%2)").arg(toQString(arm.name),
                c.seeds == 1 ? QObject::tr("1 seed") : QObject::tr("%1 seeds").arg(c.seeds)));
    }
    return image;
}

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
    m_view->setMarkdown(toQString(learn::reportMarkdown(m_report, m_database.toStdString())));
    if (m_view->verticalScrollBar())
        m_view->verticalScrollBar()->setValue(scroll);
    int supported = 0, contradicted = 0;
    for (const auto& c : m_report.claims) {
        supported += c.verdict == learn::Verdict::Supported;
        contradicted += c.verdict == learn::Verdict::Contradicted;
    }
    m_status->setText(tr("%1 claim(s): %2 supported, %3 contradicted, %4 inconclusive%5")
            .arg(m_report.claims.size())
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
        learn::writeReport(m_report, directory.toStdString(), m_database.toStdString());
        for (const auto& metric : m_report.spec.metrics) {
            const QString path = QDir(directory).filePath(toQString(learn::figureName(metric, "png")));
            const QString partial = path + QStringLiteral(".part");
            if (!paintCurves(m_report, metric, QSize(1440, 840)).save(partial, "PNG") || (QFile::exists(path) && !QFile::remove(path))
                || !QFile::rename(partial, path)) {
                QFile::remove(partial);
                throw std::runtime_error(path.toStdString() + ": cannot write the figure");
            }
        }
    } catch (const std::exception& e) {
        if (error)
            *error = toQString(e.what());
        return false;
    }
    return true;
}

void ReportDialog::exportInteractive()
{
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Export the report into"));
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
