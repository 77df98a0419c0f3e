#include "ui/figures/curvepainter.h"

#include <QCoreApplication>
#include <QFont>
#include <QFontMetricsF>
#include <QPainter>
#include <QPolygonF>

#include <algorithm>
#include <stdexcept>

namespace creditlab::ui {

namespace {

QString text(const std::string& s) { return QString::fromStdString(s); }

/// The arms' colours, as in learn::curveSvg (Okabe–Ito).
QColor colourOf(std::size_t arm)
{
    static const char* const colours[]
        = { "#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#F0E442", "#000000" };
    return QColor(QString::fromLatin1(colours[arm % (sizeof colours / sizeof colours[0])]));
}

} // namespace

QImage paintCurves(
    const learn::ExperimentReport& report, const std::string& metric, const QSize& size, double pixelRatio)
{
    QImage image(size * pixelRatio, QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(pixelRatio);
    image.fill(Qt::white);
    QPainter p(&image);
    p.setRenderHint(QPainter::Antialiasing);
    const double W = size.width(), H = size.height();
    // The legend's column is as wide as its longest entry (at least 170): long arm names are not cut at the edge.
    const auto legendText = [](const std::string& arm, int seeds) {
        return QStringLiteral("%1 (%2)").arg(
            text(arm), seeds == 1 ? QObject::tr("1 seed") : QObject::tr("%1 seeds").arg(seeds));
    };
    double legendWidth = 0.0;
    {
        const QFontMetricsF legendMetrics { QFont() };
        for (const auto& c : report.curves)
            if (c.metric == metric)
                legendWidth = std::max(legendWidth, legendMetrics.horizontalAdvance(legendText(c.arm, c.seeds)));
    }
    const double left = 70, right = std::max(170.0, 40.0 + legendWidth + 12.0), top = 40, bottom = 55;
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
            .arg(text(report.spec.name), text(metric), report.partial ? QStringLiteral(" — partial") : QString()));
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
    p.drawText(QRectF(-plotH / 2, -12, plotH, 20), Qt::AlignCenter, text(metric));
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
        p.drawText(QPointF(left + plotW + 40, ly + 4), legendText(arm.name, c.seeds));
    }
    return image;
}

void saveCurvesPng(const learn::ExperimentReport& report, const std::string& metric, const std::string& path)
{
    if (!paintCurves(report, metric, QSize(720, 420), 2.0).save(QString::fromStdString(path), "PNG"))
        throw std::runtime_error(path + ": cannot write the figure");
}

} // namespace creditlab::ui
