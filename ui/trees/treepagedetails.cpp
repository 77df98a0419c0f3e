// TreePage: what it says about the group shown (statistics) and about the clicked node or edge (details), with
// turns numbered from 1 as on every page.
#include "ui/trees/treepage.h"

#include "ui/common/textutil.h"

#include <QLocale>
#include <QPlainTextEdit>
#include <QPushButton>

#include <cmath>

namespace creditlab::ui {

QString TreePage::statisticsText() const
{
    if (!m_data)
        return {};
    const tree::TreeStatistics s = m_data->tree->statistics();
    const QLocale locale;
    const auto count = [&locale](std::size_t n) { return locale.toString(qulonglong(n)); };
    // Edges off the spanning tree: to another state (re-convergence, drawn dashed) or back to the same one (an
    // action that changed nothing: a loop, not drawn).
    std::size_t reconverging = 0, loops = 0;
    for (const tree::Edge& e : m_data->tree->edges())
        if (!e.spanning)
            ++(e.source == e.target ? loops : reconverging);
    // Nodes are states and terminals; anchors and singletons are kinds of states and may overlap.
    QString text
        = tr("%1 nodes: %2 states + %3 terminals\n"
             "of the states: %4 anchors (recur in the group), %5 singletons (one rollout)\n"
             "%6 edges (%7 re-convergence, %8 loops to the same state), %9 turns\n"
             "branching factor %10; states shared by more than one rollout: %11%")
              .arg(count(s.stateNodes + s.terminalNodes), count(s.stateNodes), count(s.terminalNodes), count(s.anchors),
                  count(s.singletons), count(s.edges), count(reconverging), count(loops), count(s.turns),
                  locale.toString(s.branchingFactor, 'f', 2), locale.toString(100.0 * s.sharedStateShare, 'f', 1));
    for (const auto& [method, share] : s.nonZeroAdvantageShare)
        text += QLatin1Char('\n')
            + tr("%1: non-zero advantage on %2% of turns")
                  .arg(toQString(method), locale.toString(100.0 * share, 'f', 1));
    return text;
}

QString TreePage::detailsText() const { return m_details->toPlainText(); }

QString TreePage::creditLines(const std::vector<tree::TurnRef>& turns) const
{
    QString text;
    const QLocale locale;
    for (const auto& method : m_data->tree->creditMethods()) {
        double sum = 0;
        int count = 0;
        for (const tree::TurnRef& t : turns)
            if (const auto a = m_data->tree->advantage(method, t); a && std::isfinite(*a)) {
                sum += *a;
                ++count;
            }
        if (count > 0)
            text += tr("credit %1: mean %2 over %n turn(s)", nullptr, count)
                        .arg(toQString(method), locale.toString(sum / count, 'g', 4))
                + QLatin1Char('\n');
    }
    return text;
}

QString TreePage::turnList(const std::vector<tree::TurnRef>& turns) const
{
    constexpr std::size_t kShown = 5;
    QStringList shown;
    for (std::size_t i = 0; i < turns.size() && i < kShown; ++i)
        shown << treeview::turnLabel(*m_data->tree, turns[i]);
    QString text = shown.join(QStringLiteral(", "));
    if (turns.size() > kShown)
        text += tr(" and %n more", nullptr, int(turns.size() - kShown));
    return text;
}

void TreePage::select(const std::vector<tree::TurnRef>& turns)
{
    m_hasSelection = !turns.empty();
    m_open->setEnabled(m_hasSelection);
    if (!m_hasSelection) {
        m_open->setText(tr("Open turn"));
        m_open->setToolTip({});
        return;
    }
    m_selectedTurn = turns.front();
    // Turns are numbered from 1 on every page (t = 0 is "turn 1").
    m_open->setText(tr("Open turn %1").arg(m_selectedTurn.turn + 1));
    m_open->setToolTip(tr("Opens %1 in the trajectory viewer").arg(treeview::turnLabel(*m_data->tree, m_selectedTurn)));
}

void TreePage::showNode(tree::NodeId node)
{
    if (!m_data)
        return;
    const tree::Node& n = m_data->tree->node(node);
    const QLocale locale;
    QString text;
    if (n.kind == tree::NodeKind::Terminal) {
        text = tr("Terminal: %n rollout(s) ended here, mean outcome %1\n", nullptr, int(n.rollouts.size()))
                   .arg(locale.toString(n.v, 'g', 4));
        if (!n.turns.empty())
            text += tr("after %1\n").arg(turnList(n.turns));
    } else {
        text = tr("State %1\n\nObservation:\n%2\n\nvisits N(s) %3, V %4, V' %5, success rate %6%, %n rollout(s) "
                  "through it%7\n",
            nullptr, int(n.rollouts.size()))
                   .arg(toQString(n.key), toQString(n.observation), locale.toString(n.visits, 'g', 4),
                       locale.toString(n.v, 'g', 4), locale.toString(n.vPrime, 'g', 4),
                       locale.toString(100.0 * n.successRate, 'f', 0), n.anchor ? tr(", anchor") : QString());
        if (!n.turns.empty())
            text += tr("turns here: %1\n").arg(turnList(n.turns));
        text += creditLines(n.turns);
    }
    m_details->setPlainText(text);
    select(n.turns);
}

void TreePage::showEdge(tree::EdgeId edge)
{
    if (!m_data)
        return;
    const tree::Edge& e = m_data->tree->edge(edge);
    const QLocale locale;
    QString text = tr("Action:\n%1\n\nQ %2, N(s,a) %3, taken %n time(s)%4\n", nullptr, int(e.turns.size()))
                       .arg(toQString(e.action), locale.toString(e.q, 'g', 4), locale.toString(e.pairVisits, 'g', 4),
                           e.spanning ? QString() : tr(", re-convergence"));
    if (!e.turns.empty()) {
        text += tr("taken at %1\n").arg(turnList(e.turns));
        const tree::TurnRef first = e.turns.front();
        const Turn& turn = m_data->trajectories.at(first.trajectory).turns.at(first.turn);
        text += tr("\nObservation (%1):\n%2\n")
                    .arg(treeview::turnLabel(*m_data->tree, first), toQString(turn.observation));
        if (turn.feedback)
            text += tr("\nFeedback:\n%1\n").arg(toQString(*turn.feedback));
        text += QLatin1Char('\n') + creditLines(e.turns);
    }
    m_details->setPlainText(text);
    select(e.turns);
}

} // namespace creditlab::ui
