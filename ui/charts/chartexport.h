#pragma once

#include <QString>

class QWidget;

namespace creditlab::ui::charts {

/// Renders `widget` to `path`: SVG (QSvgGenerator) when the suffix is ".svg", otherwise a raster image
/// (PNG unless the suffix names another format Qt writes) at device-pixel ratio 2 on a white background.
/// Returns false and sets `error` to a message naming the path when the file cannot be written.
/// GUI thread only.
bool exportWidgetImage(QWidget* widget, const QString& path, QString* error);

} // namespace creditlab::ui::charts
