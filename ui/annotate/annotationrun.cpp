// The Annotate page's run and queue (annotationpage.h): the run chooser, the run's background load (and the labels
// written while it runs), and the queue of its turns in the chosen order, blind or not, with the current place in it.
#include "ui/annotate/annotationpage.h"

#include "ui/common/runcombo.h"
#include "ui/shell/workspace.h"

#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QProgressBar>
#include <QStandardItemModel>

#include <algorithm>
#include <exception>

namespace creditlab::ui {

void AnnotationPage::reloadRuns()
{
    m_updating = true;
    try {
        fillRunCombo(m_runCombo, m_workspace->runs(), m_runId);
    } catch (const std::exception& e) {
        m_runCombo->clear();
        fail(tr("Could not list the runs: %1").arg(QString::fromUtf8(e.what())));
    }
    if (m_runId != 0) // else the chooser offers the newest run, loaded when the page shows
        m_runCombo->setCurrentIndex(m_runCombo->findData(QVariant::fromValue<qint64>(m_runId)));
    m_updating = false;
}

void AnnotationPage::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (const qint64 run = runToLoad(m_runCombo, m_runId))
        setRun(run);
}

void AnnotationPage::setRun(qint64 runId)
{
    m_runId = runId;
    m_updating = true;
    m_runCombo->setCurrentIndex(m_runCombo->findData(runId));
    m_updating = false;
    loadRun(false);
}

bool AnnotationPage::isLoading() const { return m_loader->isBusy(); }

void AnnotationPage::loadRun(bool keepCurrent)
{
    m_writtenWhileLoading.clear(); // labels written before this request are in the database the worker reads
    if (!keepCurrent) {
        m_queue.clear();
        m_position = -1;
        m_trajectories.clear();
    }
    m_keepCurrent = keepCurrent;
    m_transcriptStale = true;
    if (!m_workspace->store() || m_workspace->path().isEmpty() || m_runId <= 0) {
        m_loader->cancel();
        onLoaded(std::make_shared<const AnnotationData>(AnnotationData { m_runId, {}, {} }));
        return;
    }
    m_loader->load(m_workspace->path(), m_runId);
    m_busy->show();
    m_status->setText(tr("Loading run %1…").arg(m_runId));
    refreshTranscript();
    refreshProgress();
}

void AnnotationPage::onLoaded(const std::shared_ptr<const AnnotationData>& data)
{
    m_busy->hide();
    if (m_status->text() == tr("Loading run %1…").arg(m_runId))
        m_status->clear(); // but keep a message that came meanwhile
    const auto was = m_keepCurrent ? current() : std::nullopt;
    m_queue.clear(); // it indexes the old trajectories
    m_position = -1;
    m_trajectories = data->trajectories;
    m_transcriptStale = true;
    if (!data->error.isEmpty())
        fail(tr("Could not read run %1: %2").arg(data->runId).arg(data->error));
    // A label written after the request may have missed the worker's snapshot; the workspace store has it.
    for (const std::int64_t rowId : m_writtenWhileLoading)
        rereadHumanLabels(rowId);
    m_writtenWhileLoading.clear();
    rebuildQueue(false);
    if (was)
        setPosition(std::max(0, queueIndexOf(was->first, was->second)));
    Q_EMIT loaded();
}

void AnnotationPage::rereadHumanLabels(std::int64_t rowId)
{
    try {
        for (Loaded& l : m_trajectories)
            if (l.info.rowId == rowId) {
                l.human = m_workspace->store()->humanLabels(rowId);
                l.notes = humanNotes(*m_workspace->store(), rowId);
            }
        m_transcriptStale = true;
    } catch (const std::exception& e) {
        fail(tr("Could not read the labels: %1").arg(QString::fromUtf8(e.what())));
    }
}

void AnnotationPage::setOrder(QueueOrder order)
{
    if (blind() && orderReadsHidden(order))
        order = m_order; // not offered while blind (updateOrderChoices): the queue keeps its order
    m_order = order;
    {
        const QSignalBlocker block(m_orderCombo);
        m_orderCombo->setCurrentIndex(m_orderCombo->findData(int(order)));
    }
    rebuildQueue(false);
}

void AnnotationPage::updateOrderChoices()
{
    // The orders that read what blind mode hides are greyed out while it is on, and a queue in one of them goes back
    // to Sequential: "TRIAGE conflict cells first" put the turns the judge labelled against the outcome first, which
    // told the annotator what the judge thought before they labelled.
    auto* items = qobject_cast<QStandardItemModel*>(m_orderCombo->model());
    for (int i = 0; i < m_orderCombo->count(); ++i) {
        const bool hidden = orderReadsHidden(QueueOrder(m_orderCombo->itemData(i).toInt()));
        if (QStandardItem* item = items ? items->item(i) : nullptr) {
            item->setEnabled(!(blind() && hidden));
            item->setToolTip(blind() && hidden ? tr("Not while blind: this order reads the judges' labels, the "
                                                    "outcome or the credits")
                                               : QString());
        }
    }
    if (blind() && orderReadsHidden(m_order)) {
        m_order = QueueOrder::Sequential;
        const QSignalBlocker block(m_orderCombo);
        m_orderCombo->setCurrentIndex(m_orderCombo->findData(int(m_order)));
    }
}

void AnnotationPage::setBlind(bool blind) { m_blind->setChecked(blind); }

bool AnnotationPage::blind() const { return m_blind->isChecked(); }

void AnnotationPage::rebuildQueue(bool keepCurrent)
{
    const auto was = current();
    std::vector<QueueTurn> turns;
    for (std::size_t i = 0; i < m_trajectories.size(); ++i) {
        const Loaded& l = m_trajectories[i];
        for (std::size_t k = 0; k < l.trajectory.turns.size(); ++k) {
            QueueTurn q { i, int(k), l.trajectory.successOrDefault(), {}, std::nullopt, {} };
            for (const JudgeLabel& j : l.judge) {
                if (j.turn != int(k))
                    continue;
                q.judgeRoles.push_back(j.role);
                if (j.confidence)
                    q.judgeConfidence = std::min(q.judgeConfidence.value_or(*j.confidence), *j.confidence);
            }
            for (const auto& [method, value] : l.trajectory.turns[k].credits)
                q.credits.push_back(value);
            turns.push_back(blind() ? blinded(q) : std::move(q)); // blind: nothing hidden may order the turns
        }
    }
    m_queue = buildQueue(turns, blind() && orderReadsHidden(m_order) ? QueueOrder::Sequential : m_order);
    m_position = -1;
    setPosition(keepCurrent && was ? std::max(0, queueIndexOf(was->first, was->second)) : 0);
}

std::optional<std::pair<std::int64_t, int>> AnnotationPage::current() const
{
    if (m_position < 0 || m_position >= int(m_queue.size()))
        return std::nullopt;
    const QueueItem& item = m_queue[std::size_t(m_position)];
    return std::make_pair(m_trajectories[item.trajectory].info.rowId, item.turn);
}

int AnnotationPage::queueIndexOf(std::int64_t rowId, int turn) const
{
    for (std::size_t i = 0; i < m_queue.size(); ++i)
        if (m_queue[i].turn == turn && m_trajectories[m_queue[i].trajectory].info.rowId == rowId)
            return int(i);
    return -1;
}

void AnnotationPage::setPosition(int position)
{
    position = m_queue.empty() ? -1 : std::clamp(position, 0, int(m_queue.size()) - 1);
    const bool changed = position != m_position;
    m_position = position;
    refreshTranscript();
    refreshProgress();
    if (changed && position >= 0)
        Q_EMIT currentChanged(current()->first, current()->second);
}

void AnnotationPage::move(int delta)
{
    if (m_position >= 0)
        setPosition(m_position + delta);
}

} // namespace creditlab::ui
