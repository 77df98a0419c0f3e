#pragma once

// An experiment's learning-curve figure painted with QPainter (Qt Gui only, no widgets): the workbench's report view
// and PNG export, and the figures module that gives the CLI its PNGs.

#include "core/learn/api/experiment.h"

#include <QImage>
#include <QSize>

#include <string>

namespace creditlab::ui {

/// One metric's learning curves of an experiment, an arm per colour with a mean ± std band over seeds, painted at
/// `size` (the PNG figures and the report view's images; the same picture as learn::curveSvg()).
QImage paintCurves(const learn::ExperimentReport& report, const std::string& metric, const QSize& size,
    double pixelRatio = 1.0);

/// The PNG figure of the report files: paintCurves() at 720 x 420 with a pixel ratio of 2 (1440 x 840 pixels), saved as PNG at `path` (any extension). Throws
/// std::runtime_error naming the file when it cannot be written. A learn::PngPainter.
void saveCurvesPng(const learn::ExperimentReport& report, const std::string& metric, const std::string& path);

} // namespace creditlab::ui
