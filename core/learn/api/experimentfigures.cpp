// An experiment's figures: the SVG learning curves (their axes, curveFrame() and niceTicks(), shared with the
// workbench's painter), the SVG performance profiles, the figures' file names, and the figures module that paints
// the PNGs. Torch-free.
#include "core/learn/api/experiment.h"

#include "core/learn/api/module.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <stdexcept>

namespace creditlab::learn {

namespace {

std::string escapeXml(const std::string& s)
{
    std::string out;
    for (char c : s) {
        switch (c) {
        case '&':
            out += "&amp;";
            break;
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        case '"':
            out += "&quot;";
            break;
        default:
            out += c;
        }
    }
    return out;
}

/// Colours of the arms (Okabe–Ito, distinguishable in colour-blind vision), in arm order.
const char* colourOf(std::size_t arm)
{
    static const char* const colours[]
        = { "#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#F0E442", "#000000" };
    return colours[arm % (sizeof colours / sizeof colours[0])];
}

std::string tickText(double v)
{
    char out[32];
    std::snprintf(out, sizeof out, "%g", v);
    return out;
}

/// The canvas both figures draw on: 720 x 420 px, the plot on the left and the legend's column on the right, as wide
/// as its longest entry (about 7.2 px a character at 12 px sans-serif), at least 170 px.
struct SvgPlot {
    static constexpr double W = 720, H = 420, left = 70, top = 40, bottom = 55;
    double right, plotW, plotH;
    double xMin, xMax, yMin, yMax;

    SvgPlot(std::size_t legendChars, double x0, double x1, double y0, double y1)
        : right(std::max(170.0, 40.0 + 7.2 * static_cast<double>(legendChars) + 12.0))
        , plotW(W - left - right)
        , plotH(H - top - bottom)
        , xMin(x0)
        , xMax(x1)
        , yMin(y0)
        , yMax(y1)
    {
    }
    double x(double v) const { return left + (v - xMin) / (xMax - xMin) * plotW; }
    double y(double v) const { return top + (1.0 - (v - yMin) / (yMax - yMin)) * plotH; }
};

/// Opens the SVG and draws what both figures share: `title` (escaped already), grid lines at the y ticks, tick marks
/// at the x ticks, the plot's border, the axis titles (escaped already) and, with nothing to plot, "no values yet".
void svgFrame(std::ostream& s, const SvgPlot& p, const std::string& title, const std::string& xTitle,
    const std::string& yTitle, bool empty)
{
    const double W = SvgPlot::W, H = SvgPlot::H, left = SvgPlot::left, top = SvgPlot::top;
    s << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << W << "\" height=\"" << H << "\" viewBox=\"0 0 " << W
      << " " << H << "\" font-family=\"sans-serif\" font-size=\"12\">\n";
    s << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
    s << "<text x=\"" << left << "\" y=\"22\" font-size=\"15\" font-weight=\"bold\">" << title << "</text>\n";
    for (double t : niceTicks(p.yMin, p.yMax)) {
        s << "<line x1=\"" << left << "\" x2=\"" << left + p.plotW << "\" y1=\"" << p.y(t) << "\" y2=\"" << p.y(t)
          << "\" stroke=\"#e5e5e5\"/>\n";
        s << "<text x=\"" << left - 6 << "\" y=\"" << p.y(t) + 4 << "\" text-anchor=\"end\">" << tickText(t)
          << "</text>\n";
    }
    for (double t : niceTicks(p.xMin, p.xMax)) {
        s << "<line x1=\"" << p.x(t) << "\" x2=\"" << p.x(t) << "\" y1=\"" << top + p.plotH << "\" y2=\""
          << top + p.plotH + 5 << "\" stroke=\"#444\"/>\n";
        s << "<text x=\"" << p.x(t) << "\" y=\"" << top + p.plotH + 19 << "\" text-anchor=\"middle\">" << tickText(t)
          << "</text>\n";
    }
    s << "<rect x=\"" << left << "\" y=\"" << top << "\" width=\"" << p.plotW << "\" height=\"" << p.plotH
      << "\" fill=\"none\" stroke=\"#444\"/>\n";
    s << "<text x=\"" << left + p.plotW / 2 << "\" y=\"" << H - 12 << "\" text-anchor=\"middle\">" << xTitle
      << "</text>\n";
    s << "<text x=\"16\" y=\"" << top + p.plotH / 2 << "\" transform=\"rotate(-90 16 " << top + p.plotH / 2
      << ")\" text-anchor=\"middle\">" << yTitle << "</text>\n";
    if (empty)
        s << "<text x=\"" << left + p.plotW / 2 << "\" y=\"" << top + p.plotH / 2
          << "\" text-anchor=\"middle\" fill=\"#888\">no values yet</text>\n";
}

/// Arm `armIndex`'s legend entry in the right-hand column: a short line in its colour and `label` (escaped already).
void svgLegendEntry(std::ostream& s, const SvgPlot& p, std::size_t armIndex, const std::string& label)
{
    const double ly = SvgPlot::top + 14 + 20.0 * static_cast<double>(armIndex);
    const double left = SvgPlot::left;
    s << "<line x1=\"" << left + p.plotW + 12 << "\" x2=\"" << left + p.plotW + 34 << "\" y1=\"" << ly << "\" y2=\""
      << ly << "\" stroke=\"" << colourOf(armIndex) << "\" stroke-width=\"3\"/>\n";
    s << "<text x=\"" << left + p.plotW + 40 << "\" y=\"" << ly + 4 << "\">" << label << "</text>\n";
}

} // namespace

std::vector<double> niceTicks(double lo, double hi, int wanted)
{
    if (!(hi > lo))
        return { lo };
    const double raw = (hi - lo) / wanted;
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    double step = magnitude * 10.0;
    for (double m : { 1.0, 2.0, 2.5, 5.0, 10.0 })
        if (m * magnitude >= raw) {
            step = m * magnitude;
            break;
        }
    std::vector<double> out;
    for (double t = std::ceil(lo / step) * step; t <= hi + step * 1e-9; t += step)
        out.push_back(std::abs(t) < step * 1e-9 ? 0.0 : t);
    return out;
}

CurveFrame curveFrame(const ExperimentReport& report, const std::string& metric)
{
    CurveFrame f { 1e300, -1e300, 1e300, -1e300, true };
    for (const auto& c : report.curves)
        if (c.metric == metric)
            for (std::size_t k = 0; k < c.iterations.size(); ++k) {
                f.xMin = std::min(f.xMin, static_cast<double>(c.iterations[k]));
                f.xMax = std::max(f.xMax, static_cast<double>(c.iterations[k]));
                f.yMin = std::min(f.yMin, c.mean[k] - c.std[k]);
                f.yMax = std::max(f.yMax, c.mean[k] + c.std[k]);
            }
    f.empty = f.xMin > f.xMax;
    if (f.empty)
        return CurveFrame {};
    if (f.xMax == f.xMin)
        f.xMax = f.xMin + 1;
    if (f.yMax - f.yMin < 1e-9) {
        f.yMin -= 0.5;
        f.yMax += 0.5;
    }
    const double pad = 0.05 * (f.yMax - f.yMin);
    f.yMin -= pad;
    f.yMax += pad;
    return f;
}

std::string figureName(const std::string& metric, const std::string& extension)
{
    std::string out;
    for (char c : metric)
        out += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
    return out + "." + extension;
}

std::string curveSvg(const ExperimentReport& report, const std::string& metric)
{
    std::vector<const ArmCurve*> curves;
    std::size_t legendChars = 0; // the longest legend entry, "arm (3 seeds)"
    for (const auto& c : report.curves)
        if (c.metric == metric) {
            curves.push_back(&c);
            legendChars = std::max(legendChars, c.arm.size() + (c.seeds == 1 ? 9 : 10));
        }
    const CurveFrame frame = curveFrame(report, metric);
    const SvgPlot plot(legendChars, frame.xMin, frame.xMax, frame.yMin, frame.yMax);

    std::ostringstream s;
    svgFrame(s, plot,
        escapeXml(report.spec.name) + ": " + escapeXml(metric) + " (mean ± std over seeds)"
            + (report.partial ? " — partial" : ""),
        "iteration", escapeXml(metric), frame.empty);
    // Bands, then lines, then the legend.
    std::size_t armIndex = 0;
    for (const auto& arm : report.spec.arms) {
        const auto it
            = std::find_if(curves.begin(), curves.end(), [&](const ArmCurve* c) { return c->arm == arm.name; });
        const std::size_t index = armIndex++;
        const char* colour = colourOf(index);
        if (it == curves.end())
            continue;
        const ArmCurve& c = **it;
        if (c.iterations.size() > 1 && c.seeds > 1) {
            s << "<polygon fill=\"" << colour << "\" fill-opacity=\"0.18\" stroke=\"none\" points=\"";
            for (std::size_t k = 0; k < c.iterations.size(); ++k)
                s << plot.x(static_cast<double>(c.iterations[k])) << "," << plot.y(c.mean[k] + c.std[k]) << " ";
            for (std::size_t k = c.iterations.size(); k-- > 0;)
                s << plot.x(static_cast<double>(c.iterations[k])) << "," << plot.y(c.mean[k] - c.std[k]) << " ";
            s << "\"/>\n";
        }
        s << "<polyline fill=\"none\" stroke=\"" << colour << "\" stroke-width=\"2\" points=\"";
        for (std::size_t k = 0; k < c.iterations.size(); ++k)
            s << plot.x(static_cast<double>(c.iterations[k])) << "," << plot.y(c.mean[k]) << " ";
        s << "\"/>\n";
        if (c.iterations.size() == 1)
            s << "<circle cx=\"" << plot.x(static_cast<double>(c.iterations[0])) << "\" cy=\"" << plot.y(c.mean[0])
              << "\" r=\"3\" fill=\"" << colour << "\"/>\n";
        svgLegendEntry(s, plot, index,
            escapeXml(arm.name) + " (" + std::to_string(c.seeds) + (c.seeds == 1 ? " seed" : " seeds") + ")");
    }
    s << "</svg>\n";
    return s.str();
}

std::string profileFigureName(const std::string& measure) { return "profile_" + figureName(measure); }

std::string profileSvg(const ExperimentReport& report, const std::string& measure)
{
    std::vector<const ArmProfile*> profiles;
    std::size_t legendChars = 0;
    bool overTasks = true;
    for (const auto& p : report.profiles)
        if (p.measure == measure) {
            profiles.push_back(&p);
            overTasks = overTasks && p.overTasks;
            legendChars = std::max(legendChars, p.arm.size() + 22);
        }
    double xMin = 0.0, xMax = 1.0;
    if (!profiles.empty() && !profiles.front()->profile.taus.empty()) {
        xMin = profiles.front()->profile.taus.front();
        xMax = profiles.front()->profile.taus.back();
    }
    if (!(xMax > xMin))
        xMax = xMin + 1.0;
    const SvgPlot plot(legendChars, xMin, xMax, 0.0, 1.0);

    std::ostringstream s;
    svgFrame(s, plot,
        escapeXml(report.spec.name) + ": " + escapeXml(measure) + " (performance profile"
            + (report.partial ? ", partial" : "") + ")",
        std::string("τ (") + (overTasks ? "success rate of an eval task over the seeds" : "a run's score") + ")",
        overTasks ? "fraction of tasks above τ" : "fraction of runs above τ", profiles.empty());
    std::size_t armIndex = 0;
    for (const auto& arm : report.spec.arms) {
        const auto it
            = std::find_if(profiles.begin(), profiles.end(), [&](const ArmProfile* p) { return p->arm == arm.name; });
        const std::size_t index = armIndex++;
        const char* colour = colourOf(index);
        if (it == profiles.end())
            continue;
        const auto& p = (*it)->profile;
        s << "<polygon fill=\"" << colour << "\" fill-opacity=\"0.15\" stroke=\"none\" points=\"";
        for (std::size_t k = 0; k < p.taus.size(); ++k)
            s << plot.x(p.taus[k]) << "," << plot.y(p.high[k]) << " ";
        for (std::size_t k = p.taus.size(); k-- > 0;)
            s << plot.x(p.taus[k]) << "," << plot.y(p.low[k]) << " ";
        s << "\"/>\n";
        s << "<polyline fill=\"none\" stroke=\"" << colour << "\" stroke-width=\"2\" points=\"";
        for (std::size_t k = 0; k < p.taus.size(); ++k)
            s << plot.x(p.taus[k]) << "," << plot.y(p.fraction[k]) << " ";
        s << "\"/>\n";
        std::string label
            = escapeXml(arm.name) + " (" + std::to_string((*it)->runs) + ((*it)->runs == 1 ? " run" : " runs");
        if ((*it)->overTasks)
            label += " × " + std::to_string((*it)->tasks) + " tasks";
        svgLegendEntry(s, plot, index, label + ")");
    }
    s << "</svg>\n";
    return s.str();
}

const char* figuresModuleName() { return "libcreditlab_figures.so"; }

PngPainter figuresModulePainter()
{
    // The module's one export (ui/figures/figuresmodule.cpp): false with `error` filled when the file cannot be
    // written.
    using Entry = bool (*)(const ExperimentReport*, const char* metric, const char* path, std::string* error);
    static const auto entry = [] {
        return reinterpret_cast<Entry>(openModuleSymbol(figuresModuleName(), "CREDITLAB_FIGURES_MODULE",
            "creditlab_paint_curve_png", std::string("the figures module ") + figuresModuleName() + " (Qt Gui)"));
    }();
    return [](const ExperimentReport& report, const std::string& metric, const std::string& path) {
        std::string error;
        if (!entry(&report, metric.c_str(), path.c_str(), &error))
            throw std::runtime_error(path + ": cannot write the figure" + (error.empty() ? "" : ": " + error));
    };
}

} // namespace creditlab::learn
