// The figures module (libcreditlab_figures.so): the workbench's curve painter for programs that link no Qt. The CLI
// opens it for `report`'s PNG figures (core/learn/api/experiment.h, figuresModulePainter()), so that it keeps starting
// without Qt's libraries and still builds where Qt is absent (-DCREDITLAB_BUILD_UI=OFF; then the report has SVGs only).
#include "ui/figures/curvepainter.h"

#include <QGuiApplication>

#include <exception>

namespace {

/// A Qt application for fonts and image plugins, when the host has none: the offscreen platform, so that no display
/// is needed (the command-line -platform wins over $QT_QPA_PLATFORM). Created once on the first call and never
/// destroyed: the module stays loaded until the process ends.
void ensureApplication()
{
    if (QCoreApplication::instance())
        return;
    static int argc = 3;
    static char name[] = "creditlab-figures", option[] = "-platform", platform[] = "offscreen";
    static char* argv[] = { name, option, platform, nullptr };
    // Quiet while starting: a CLI has no XDG runtime folder, and Qt's warning about it says nothing about the figures.
    const QtMessageHandler previous = qInstallMessageHandler([](QtMsgType, const QMessageLogContext&, const QString&) { });
    new QGuiApplication(argc, argv);
    qInstallMessageHandler(previous);
}

} // namespace

extern "C" __attribute__((visibility("default"))) bool creditlab_paint_curve_png(
    const creditlab::learn::ExperimentReport* report, const char* metric, const char* path, std::string* error)
{
    try {
        ensureApplication();
        creditlab::ui::saveCurvesPng(*report, metric, path);
        return true;
    } catch (const std::exception& e) {
        if (error)
            *error = e.what();
        return false;
    }
}
