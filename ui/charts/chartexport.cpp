#include "ui/charts/chartexport.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QImageWriter>
#include <QLayout>
#include <QPainter>
#include <QSvgGenerator>
#include <QWidget>

namespace creditlab::ui::charts {

namespace {

QString tr(const char* text) { return QCoreApplication::translate("creditlab::ui::charts::ChartExport", text); }

void setError(QString* error, const QString& message)
{
    if (error)
        *error = message;
}

} // namespace

bool exportWidgetImage(QWidget* widget, const QString& path, QString* error)
{
    if (!widget || path.isEmpty()) {
        setError(error, tr(QT_TRANSLATE_NOOP("creditlab::ui::charts::ChartExport", "Cannot export the chart: no file name given.")));
        return false;
    }
    if (widget->layout())
        widget->layout()->activate();
    const QSize size = widget->size().expandedTo(QSize(1, 1));
    const QString suffix = QFileInfo(path).suffix().toLower();

    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate)) {
        setError(error, tr(QT_TRANSLATE_NOOP("creditlab::ui::charts::ChartExport", "Cannot write the chart to %1: %2")).arg(path, file.errorString()));
        return false;
    }
    if (suffix == QLatin1String("svg")) {
        QSvgGenerator generator;
        generator.setOutputDevice(&file);
        generator.setSize(size);
        generator.setViewBox(QRect(QPoint(0, 0), size));
        generator.setTitle(widget->windowTitle());
        generator.setDescription(tr(QT_TRANSLATE_NOOP("creditlab::ui::charts::ChartExport", "Exported by CreditLab")));
        QPainter painter;
        if (!painter.begin(&generator)) {
            setError(error, tr(QT_TRANSLATE_NOOP("creditlab::ui::charts::ChartExport", "Cannot write the chart to %1: the SVG writer failed.")).arg(path));
            return false;
        }
        painter.fillRect(QRect(QPoint(0, 0), size), Qt::white);
        widget->render(&painter);
        painter.end();
        file.close();
        if (file.error() != QFileDevice::NoError) {
            setError(error, tr(QT_TRANSLATE_NOOP("creditlab::ui::charts::ChartExport", "Cannot write the chart to %1: %2")).arg(path, file.errorString()));
            return false;
        }
        return true;
    }

    constexpr qreal kRatio = 2.0;
    QImage image(size * kRatio, QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(kRatio);
    image.fill(Qt::white);
    {
        QPainter painter(&image);
        painter.setRenderHint(QPainter::Antialiasing);
        widget->render(&painter);
    }
    const QByteArray format
        = QImageWriter::supportedImageFormats().contains(suffix.toLatin1()) ? suffix.toLatin1() : QByteArray("png");
    if (!image.save(&file, format.constData())) {
        setError(error, tr(QT_TRANSLATE_NOOP("creditlab::ui::charts::ChartExport", "Cannot write the chart to %1: encoding failed.")).arg(path));
        return false;
    }
    file.close();
    if (file.error() != QFileDevice::NoError) {
        setError(error, tr(QT_TRANSLATE_NOOP("creditlab::ui::charts::ChartExport", "Cannot write the chart to %1: %2")).arg(path, file.errorString()));
        return false;
    }
    return true;
}

} // namespace creditlab::ui::charts
