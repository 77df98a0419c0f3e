// The Sweeps page's result view: the choice of x axis and grouping, the objective per trial, and the chart of the
// objective against a swept key with seed bands (SweepPage::updateResult); the chart exported as an image and the
// trial table as CSV.
#include "ui/sweeps/sweeppage.h"

#include "core/storage/store.h"
#include "ui/charts/errorbarchart.h"
#include "ui/charts/heatmapchart.h"
#include "ui/common/filedialogs.h"
#include "ui/common/textutil.h"
#include "ui/shell/workspace.h"
#include "ui/sweeps/trialmodel.h"

#include <QComboBox>
#include <QLabel>
#include <QSignalBlocker>
#include <QStackedWidget>

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace creditlab::ui {

namespace {

constexpr auto kSeedKey = "seed"; ///< an axis only when the sweep varies nothing else

} // namespace

void SweepPage::updateChoices()
{
    std::vector<std::string> keys;
    for (const auto& k : m_trialModel->keys())
        if (k != kSeedKey)
            keys.push_back(k);
    if (keys.empty() && !m_trialModel->keys().empty())
        keys.push_back(kSeedKey);
    const QSignalBlocker blockX(m_xKey), blockY(m_yKey), blockMetric(m_metric), blockMode(m_mode);
    if (m_choicesFor != m_trialModel->sweepId()) {
        // Another sweep: its own defaults (first two keys, its objective).
        m_choicesFor = m_trialModel->sweepId();
        m_xKey->clear();
        m_yKey->clear();
        m_metric->clear();
    }
    const QString x = m_xKey->currentText().isEmpty() && !keys.empty() ? toQString(keys[0]) : m_xKey->currentText();
    m_xKey->clear();
    for (const auto& k : keys)
        m_xKey->addItem(toQString(k));
    m_xKey->setCurrentIndex(std::max(0, m_xKey->findText(x)));
    const QString y = m_yKey->currentIndex() <= 0 && keys.size() >= 2 ? QString() : m_yKey->currentText();
    m_yKey->clear();
    m_yKey->addItem(tr("(none)"));
    for (const auto& k : keys)
        if (toQString(k) != m_xKey->currentText())
            m_yKey->addItem(toQString(k));
    const int yIndex = y.isEmpty() ? (m_yKey->count() > 1 ? 1 : 0) : m_yKey->findText(y);
    m_yKey->setCurrentIndex(std::max(0, yIndex));

    // The metrics of the first trial that has any.
    std::set<QString> metrics { m_objective };
    if (Store* store = m_workspace->store())
        for (const auto& t : m_trialModel->trials())
            if (t.runId > 0) {
                for (const auto& m : store->metrics(t.runId))
                    metrics.insert(toQString(m.name));
                if (metrics.size() > 1)
                    break;
            }
    const bool fresh = m_metric->count() == 0;
    const QString metric = fresh ? m_objective : m_metric->currentText();
    m_metric->clear();
    for (const auto& m : metrics)
        m_metric->addItem(m);
    m_metric->setCurrentIndex(std::max(0, m_metric->findText(metric)));
    if (fresh)
        m_mode->setCurrentIndex(std::max(0, m_mode->findData(m_objectiveMode)));
}

std::vector<std::optional<double>> SweepPage::objectiveValues() const
{
    const QString metric = m_metric->currentText();
    const QString mode = m_mode->currentData().toString();
    std::vector<std::optional<double>> values;
    Store* store = m_workspace->store();
    for (const auto& t : m_trialModel->trials()) {
        if (metric == m_objective && mode == m_objectiveMode) {
            values.push_back(t.objective);
            continue;
        }
        std::optional<double> v;
        std::int64_t last = -1;
        if (store && t.runId > 0 && t.status == TrialStatus::Finished)
            for (const auto& m : store->metrics(t.runId))
                if (toQString(m.name) == metric
                    && (mode == QLatin1String("last") ? m.iteration >= last : !v || m.value > *v)) {
                    v = m.value;
                    last = m.iteration;
                }
        values.push_back(v);
    }
    return values;
}

void SweepPage::updateResult()
{
    const std::string x = m_xKey->currentText().toStdString();
    const std::string y = m_yKey->currentIndex() > 0 ? m_yKey->currentText().toStdString() : std::string();
    const auto values = objectiveValues();
    if (x.empty() || std::none_of(values.begin(), values.end(), [](const auto& v) { return v.has_value(); })) {
        m_charts->setCurrentIndex(0);
        return;
    }
    const auto agg = m_trialModel->aggregate(values, x, y);
    const QString metric = tr("%1 (%2)").arg(m_metric->currentText(), m_mode->currentText());
    if (y.empty()) {
        std::vector<charts::ErrorBarChart::Point> points;
        for (int i = 0; i < agg.xLabels.size(); ++i)
            if (agg.count[static_cast<std::size_t>(i)] > 0)
                points.push_back({ agg.numericX ? agg.xValues[static_cast<std::size_t>(i)] : i,
                    agg.mean[static_cast<std::size_t>(i)], agg.std[static_cast<std::size_t>(i)],
                    agg.count[static_cast<std::size_t>(i)] });
        m_errorBars->clear();
        m_errorBars->setCategories(agg.numericX ? QStringList() : agg.xLabels);
        m_errorBars->addSeries(metric, points);
        m_errorBars->setTitle(tr("%1 vs %2 (mean ± std over seeds)").arg(metric, toQString(x)));
        m_errorBars->setAxisTitles(toQString(x), metric);
        m_charts->setCurrentWidget(m_errorBars);
    } else {
        m_heatmap->setData(agg.yLabels, agg.xLabels, agg.mean);
        m_heatmap->setTitle(tr("%1, mean over seeds").arg(metric));
        m_heatmap->setAxisTitles(toQString(x), toQString(y));
        m_charts->setCurrentWidget(m_heatmap);
    }
}

void SweepPage::exportChart()
{
    if (m_charts->currentIndex() == 0)
        return;
    const QString path
        = filedialogs::getSaveFileName(this, tr("Export chart"), QString(), tr("PNG image (*.png);;SVG image (*.svg)"));
    if (path.isEmpty())
        return;
    QString error;
    const bool ok = m_charts->currentWidget() == m_heatmap ? m_heatmap->exportImage(path, &error)
                                                           : m_errorBars->exportImage(path, &error);
    if (!ok)
        showError(error);
}

void SweepPage::exportCsv()
{
    const QString path = filedialogs::getSaveFileName(this, tr("Export trials"), QString(), tr("CSV (*.csv)"));
    QString error;
    if (!path.isEmpty() && !m_trialModel->writeCsv(path, &error))
        showError(error);
}

} // namespace creditlab::ui
