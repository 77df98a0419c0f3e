#include "ui/runs/trajectoryviewerpage.h"

#include "core/storage/store.h"
#include "ui/common/csvexport.h"
#include "ui/common/itemroles.h"
#include "ui/common/sortfilterproxymodel.h"
#include "ui/common/tableviewsetup.h"
#include "ui/common/textutil.h"
#include "ui/runs/tokenview.h"
#include "ui/runs/turnmodel.h"
#include "ui/shell/workspace.h"

#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QPlainTextEdit>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTextCursor>
#include <QVBoxLayout>

#include <exception>

namespace creditlab::ui {

TrajectoryViewerPage::TrajectoryViewerPage(Workspace* workspace, QWidget* parent)
    : QWidget(parent)
    , m_workspace(workspace)
    , m_turnModel(new TurnModel(this))
    , m_turnProxy(new SortFilterProxyModel(this))
    , m_summary(new QLabel(this))
    , m_splitter(new QSplitter(Qt::Vertical, this))
    , m_turnView(new QTableView(this))
    , m_detail(new QPlainTextEdit(this))
    , m_tokens(new TokenView(this))
    , m_tabs(new QTabWidget(this))
{
    m_turnProxy->setSourceModel(m_turnModel);

    // Data text: never interpreted as markup, selectable for copying.
    m_summary->setTextFormat(Qt::PlainText);
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_summary->setObjectName(QStringLiteral("trajectorySummary"));

    setUpTableView(m_turnView);
    m_turnView->setObjectName(QStringLiteral("turnView"));
    addCsvExportAction(m_turnView, this);
    m_turnView->setModel(m_turnProxy);
    m_turnView->sortByColumn(-1, Qt::AscendingOrder); // turn order until the user sorts
    // Short columns fit their contents; the three text columns share the rest, since the detail
    // pane below shows their full text anyway.
    QHeaderView* header = m_turnView->horizontalHeader();
    header->setStretchLastSection(false);
    header->setMinimumSectionSize(40);
    for (const auto column :
        { TurnModel::Column::Index, TurnModel::Column::Reward, TurnModel::Column::Valid, TurnModel::Column::Role })
        header->setSectionResizeMode(int(column), QHeaderView::ResizeToContents);
    for (const auto column : { TurnModel::Column::Observation, TurnModel::Column::Action, TurnModel::Column::Feedback })
        header->setSectionResizeMode(int(column), QHeaderView::Stretch);
    // One column per stored credit method follows the fixed ones; they come and go with the trajectory.
    connect(m_turnModel, &QAbstractItemModel::modelReset, this, [header] {
        for (int column = int(TurnModel::Column::Count); column < header->count(); ++column)
            header->setSectionResizeMode(column, QHeaderView::ResizeToContents);
    });

    m_detail->setObjectName(QStringLiteral("turnDetail"));
    m_detail->setReadOnly(true);
    m_detail->setUndoRedoEnabled(false);
    m_detail->setPlaceholderText(tr("Select a turn to read it in full."));

    m_tabs->setObjectName(QStringLiteral("trajectoryDetailTabs"));
    m_tabs->setDocumentMode(true);
    m_tabs->addTab(m_detail, tr("Turn"));
    m_tabs->addTab(m_tokens, tr("Tokens"));
    m_tabs->setTabToolTip(1,
        tr("The exact training sequence: each token's loss mask, behaviour and current "
           "log-prob, and advantage"));

    m_splitter->setChildrenCollapsible(false);
    m_splitter->addWidget(m_turnView);
    m_splitter->addWidget(m_tabs);
    m_splitter->setStretchFactor(0, 1);
    m_splitter->setStretchFactor(1, 1);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(4);
    layout->addWidget(m_summary);
    layout->addWidget(m_splitter, 1);

    connect(m_turnView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        [this] { showTurn(currentTurn()); });
    // The Tokens tab scrolls to the selected turn when it comes into view (a hidden table cannot centre a row).
    connect(m_tabs, &QTabWidget::currentChanged, this, [this] {
        if (m_tabs->currentWidget() == m_tokens && currentTurn() >= 0)
            m_tokens->showTurn(currentTurn());
    });
    connect(m_workspace, &Workspace::aboutToReplace, this, &TrajectoryViewerPage::clear);
    clear();
}

int TrajectoryViewerPage::currentTurn() const
{
    const QModelIndex current = m_turnView->currentIndex();
    return current.isValid() ? static_cast<int>(current.data(IdRole).toLongLong()) : -1;
}

bool TrajectoryViewerPage::selectTurn(int index)
{
    if (index < 0 || index >= m_turnModel->rowCount())
        return false;
    const QModelIndex proxyIndex = m_turnProxy->mapFromSource(m_turnModel->index(index, 0));
    m_turnView->setCurrentIndex(proxyIndex);
    m_turnView->scrollTo(proxyIndex);
    return true;
}

QByteArray TrajectoryViewerPage::saveSplitterState() const { return m_splitter->saveState(); }

void TrajectoryViewerPage::restoreSplitterState(const QByteArray& state) { m_splitter->restoreState(state); }

void TrajectoryViewerPage::showTrajectory(qint64 rowId)
{
    Store* store = m_workspace->store();
    if (rowId == 0 || !store) {
        clear();
        return;
    }
    Trajectory trajectory;
    try {
        trajectory = store->loadTrajectory(rowId);
    } catch (const std::exception& error) {
        clear();
        Q_EMIT errorOccurred(toQString(error.what()));
        return;
    }
    std::vector<TokenSegment> segments;
    try {
        segments = store->tokenSegments(rowId);
    } catch (const std::exception& error) {
        Q_EMIT errorOccurred(toQString(error.what())); // the turns still show; the Tokens view says none are stored
    }
    m_rowId = rowId;
    m_tokens->setSegments(std::move(segments));

    QStringList parts { toQString(trajectory.id) };
    if (trajectory.task.key)
        parts << toQString(*trajectory.task.key);
    parts << tr("reward %1").arg(formatNumber(trajectory.reward));
    parts << (trajectory.successOrDefault() ? tr("success") : tr("failure"));
    parts << tr("%n turns", nullptr, static_cast<int>(trajectory.turns.size()));
    QString summary = parts.join(QStringLiteral(" · "));
    if (trajectory.task.goal)
        summary += u'\n' + tr("Goal: %1").arg(toQString(*trajectory.task.goal));
    m_summary->setText(summary);

    const bool hasTurns = !trajectory.turns.empty();
    m_turnModel->setTrajectory(std::move(trajectory));
    if (hasTurns)
        selectTurn(0);
    else
        showTurn(-1);
}

void TrajectoryViewerPage::clear()
{
    m_rowId = 0;
    m_turnModel->clear();
    m_tokens->clear();
    m_summary->setText(tr("No trajectory selected."));
    m_detail->clear();
}

void TrajectoryViewerPage::showTurn(int index)
{
    const Turn* turn = m_turnModel->turn(index);
    if (!turn) {
        m_detail->clear();
        return;
    }
    m_tokens->showTurn(index);
    writeDetail(*turn, index);
}

void TrajectoryViewerPage::writeDetail(const Turn& turn, int index)
{
    m_detail->clear();
    QTextCursor cursor(m_detail->document());
    QTextCharFormat plain;
    QTextCharFormat heading;
    heading.setFontWeight(QFont::Bold);

    // insertText() never interprets markup, so data text stays plain text.
    const auto section = [&](const QString& title, const QString& body) {
        cursor.insertText(title, heading);
        cursor.insertText(QStringLiteral("\n"), plain);
        cursor.insertText(body, plain);
        cursor.insertText(QStringLiteral("\n\n"), plain);
    };
    const auto field = [&](const QString& name, const QString& value) {
        cursor.insertText(name + QStringLiteral(": "), heading);
        cursor.insertText(value + u'\n', plain);
    };

    cursor.insertText(tr("Turn %1 of %2").arg(index + 1).arg(m_turnModel->rowCount()), heading);
    cursor.insertText(QStringLiteral("\n"), plain);
    field(tr("Reward"), formatNumber(turn.rewardOrDefault(), 6));
    field(tr("Valid"), turn.valid ? (*turn.valid ? tr("yes") : tr("no")) : tr("unknown (the source does not say)"));
    field(tr("Role"), turn.role ? TurnModel::roleDescription(*turn.role) : tr("none"));
    field(tr("Role source"), turn.roleSource ? toQString(*turn.roleSource) : tr("none"));
    field(tr("Progress"), turn.progress ? formatNumber(*turn.progress, 6) : tr("unknown"));
    field(tr("Score"), turn.score ? formatNumber(*turn.score, 6) : tr("none"));
    for (const auto& [method, value] : turn.credits)
        field(tr("Credit (%1)").arg(toQString(method)), formatNumber(value, 6));
    cursor.insertText(QStringLiteral("\n"), plain);
    section(tr("Observation"), toQString(turn.observation));
    section(tr("Action"), toQString(turn.action));
    section(tr("Feedback"), turn.feedback ? toQString(*turn.feedback) : tr("(none)"));
    section(tr("State"), turn.state ? toQString(*turn.state) : tr("(the observation)"));
    m_detail->moveCursor(QTextCursor::Start);
}

} // namespace creditlab::ui
