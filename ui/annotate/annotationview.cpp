// The Annotate page's views (annotationpage.h): the progress line, the trajectory band, the transcript and the
// current turn's card, rebuilt from the page's state, and newObservation(), the part of an observation they show.
// The page's set-up is in annotationpage.cpp, its run and queue in annotationrun.cpp, labelling and keys in
// annotationlabelling.cpp and the label files in annotationfiles.cpp.
#include "ui/annotate/annotationpage.h"

#include "ui/charts/colours.h"
#include "ui/common/textutil.h"

#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTextBlock>
#include <QTextCharFormat>
#include <QTextCursor>
#include <QTextDocument>

#include <algorithm>
#include <map>
#include <set>

namespace creditlab::ui {

namespace {

/// Text without surrounding whitespace, for comparing an observation with the feedback before it.
QStringView trimmedView(const QString& text) { return QStringView(text).trimmed(); }

} // namespace

QString newObservation(const Turn* previous, const Turn& turn)
{
    const QString observation = toQString(turn.observation);
    if (!previous || !previous->feedback)
        return observation;
    const QString feedback = toQString(*previous->feedback);
    const QStringView obs = trimmedView(observation);
    const QStringView fb = trimmedView(feedback);
    if (fb.isEmpty())
        return observation;
    if (obs == fb)
        return {};
    if (obs.startsWith(fb))
        return obs.mid(fb.size()).trimmed().toString();
    return observation;
}

QString AnnotationPage::progressText() const { return m_progress->text(); }

void AnnotationPage::refreshProgress()
{
    int labelled = 0;
    int total = 0;
    for (const Loaded& l : m_trajectories)
        for (int k = 0; k < int(l.trajectory.turns.size()); ++k) {
            ++total;
            labelled += ownLabel(l, k).has_value() ? 1 : 0;
        }
    m_progress->setText(tr("%1 / %2 turns labelled by %3 · queue %4 / %5")
                            .arg(labelled)
                            .arg(total)
                            .arg(annotator().isEmpty() ? tr("(no annotator)") : annotator())
                            .arg(m_position + 1)
                            .arg(m_queue.size()));

    // The band over the current trajectory: where it is, what it is, and how far this annotator got in it.
    const auto at = current();
    m_header->setVisible(at.has_value());
    if (!at)
        return;
    const std::size_t index = m_queue[std::size_t(m_position)].trajectory;
    const Loaded& l = m_trajectories[index];
    const Trajectory& t = l.trajectory;
    QString title = tr("Trajectory %1 of %2 · %3").arg(index + 1).arg(m_trajectories.size()).arg(toQString(t.id));
    if (!blind())
        title += tr(" · %1 · reward %2")
                     .arg(t.successOrDefault() ? tr("success") : tr("failure"), formatNumber(t.reward));
    m_trajectoryTitle->setText(title);
    m_goal->setText(tr("Goal: %1").arg(t.task.goal ? toQString(*t.task.goal) : tr("(none)")));
    const int turns = int(t.turns.size());
    int own = 0;
    int skipped = 0;
    int flagged = 0;
    for (int k = 0; k < turns; ++k) {
        const bool hasLabel = ownLabel(l, k).has_value();
        own += hasLabel ? 1 : 0;
        if (const HumanNote* n = ownNote(l, k)) {
            skipped += n->skipped && !hasLabel ? 1 : 0;
            flagged += n->flagged ? 1 : 0;
        }
    }
    QString progress = tr("Turn %1 of %2 · %3 labelled").arg(at->second + 1).arg(turns).arg(own);
    if (skipped > 0)
        progress += tr(" · %1 skipped").arg(skipped);
    if (flagged > 0)
        progress += tr(" · %1 flagged").arg(flagged);
    m_trajectoryProgress->setText(progress);
}

QString AnnotationPage::trajectoryText() const
{
    if (m_header->isHidden())
        return {};
    return m_trajectoryTitle->text() + QLatin1Char('\n') + m_goal->text() + QLatin1Char('\n')
        + m_trajectoryProgress->text();
}

QString AnnotationPage::trajectoryProgressText() const
{
    return m_header->isHidden() ? QString() : m_trajectoryProgress->text();
}

QPushButton* AnnotationPage::roleChip(Role role) const
{
    const auto it = std::find(kChipRoles.begin(), kChipRoles.end(), role);
    return m_chips[std::size_t(it - kChipRoles.begin())];
}

void AnnotationPage::refreshTranscript()
{
    const auto at = current();
    if (!at) {
        m_shownTrajectory = -1;
        m_transcript->setPlainText(m_runId <= 0 ? tr("No run chosen.")
                : isLoading()                   ? tr("Loading run %1…").arg(m_runId)
                                                : tr("This run has no turns."));
        m_transcript->setExtraSelections({});
        refreshCard();
        return;
    }
    const std::size_t index = m_queue[std::size_t(m_position)].trajectory;
    const Loaded& l = m_trajectories[index];
    const Trajectory& t = l.trajectory;
    if (int(index) != m_shownTrajectory || m_transcriptStale) {
        // Rebuilt when the trajectory or its labels and notes change; a move inside it only moves the highlight.
        m_shownTrajectory = int(index);
        m_transcriptStale = false;
        m_turnSpans.assign(t.turns.size(), {});
        QTextCharFormat plain;
        QTextCharFormat head;
        head.setFontWeight(QFont::Bold);
        QTextCharFormat dim;
        dim.setForeground(palette().color(QPalette::PlaceholderText));
        QTextCharFormat judge = dim;
        judge.setFontItalic(true);
        m_transcript->clear();
        QTextCursor c(m_transcript->document());
        c.beginEditBlock();
        for (int k = 0; k < int(t.turns.size()); ++k) {
            const Turn& turn = t.turns[std::size_t(k)];
            if (k > 0)
                c.insertText(QStringLiteral("\n\n"), plain);
            m_turnSpans[std::size_t(k)].first = c.position();
            c.insertText(tr("Turn %1").arg(k + 1), head);
            c.insertText(QStringLiteral("   "), plain);
            const auto own = ownLabel(l, k);
            QTextCharFormat ownFormat = head;
            if (own) {
                const QColor colour = roleColour(*own);
                ownFormat.setBackground(colour);
                ownFormat.setForeground(colours::textOn(colour));
            }
            c.insertText(tr("[you: %1]").arg(own ? roleText(*own) : QStringLiteral("–")), ownFormat);
            if (!blind())
                for (const JudgeLabel& j : l.judge)
                    if (j.turn == k)
                        c.insertText(QStringLiteral("   ")
                                + tr("[judge %1: %2%3]")
                                      .arg(toQString(j.judge), roleText(j.role),
                                          j.confidence ? tr(" (%1)").arg(formatNumber(*j.confidence, 2)) : QString())
                                      .replace(QLatin1Char(' '), QChar::Nbsp), // a tag wraps as a whole
                            judge);
            if (const HumanNote* n = ownNote(l, k)) {
                if (n->skipped && !own)
                    c.insertText(tr("   skipped"), dim);
                if (n->flagged)
                    c.insertText(tr("   ⚑ flagged"), head);
                if (!n->comment.empty())
                    c.insertText(tr("   “%1”").arg(previewText(toQString(n->comment), 60)), dim);
            }
            const QString observation = newObservation(k > 0 ? &t.turns[std::size_t(k) - 1] : nullptr, turn);
            if (!observation.isEmpty())
                c.insertText(tr("\nObservation: %1").arg(observation), plain);
            c.insertText(tr("\nAction: %1").arg(toQString(turn.action)), plain);
            if (turn.feedback)
                c.insertText(tr("\nFeedback: %1").arg(toQString(*turn.feedback)), plain);
            m_turnSpans[std::size_t(k)].second = c.position();
        }
        c.insertText(QStringLiteral("\n\n"), plain);
        c.insertText(tr("— end of trajectory %1 of %2 —").arg(index + 1).arg(m_trajectories.size()), dim);
        c.endEditBlock();
    }
    const auto [start, end] = m_turnSpans[std::size_t(at->second)];
    QTextEdit::ExtraSelection highlight;
    highlight.format.setBackground(QColor(colours::kHighlight).lighter(185));
    highlight.cursor = QTextCursor(m_transcript->document());
    highlight.cursor.setPosition(start);
    highlight.cursor.setPosition(end, QTextCursor::KeepAnchor);
    m_transcript->setExtraSelections({ highlight });
    QTextCursor cursor(m_transcript->document());
    cursor.setPosition(end);
    m_transcript->setTextCursor(cursor);
    m_transcript->ensureCursorVisible();
    cursor.setPosition(start);
    m_transcript->setTextCursor(cursor);
    m_transcript->ensureCursorVisible();
    refreshCard();
}

void AnnotationPage::refreshCard()
{
    const auto at = current();
    m_card->setEnabled(at.has_value());
    if (!at) {
        m_cardTitle->setText(tr("No turn"));
        m_ownBadge->clear();
        m_ownBadge->setPalette(palette());
        m_cardBody->clear();
        m_judgeBox->clear();
        m_nextHint->clear();
        for (QPushButton* chip : m_chips)
            chip->setChecked(false);
        m_flagButton->setChecked(false);
        m_commentEdit->clear();
        return;
    }
    const std::size_t index = m_queue[std::size_t(m_position)].trajectory;
    const Loaded& l = m_trajectories[index];
    const Trajectory& t = l.trajectory;
    const int k = at->second;
    const Turn& turn = t.turns[std::size_t(k)];
    m_cardTitle->setText(tr("Turn %1 of %2").arg(k + 1).arg(t.turns.size()));

    const auto own = ownLabel(l, k);
    const HumanNote* note = ownNote(l, k);
    QPalette badge = palette();
    if (own) {
        const QColor colour = roleColour(*own);
        badge.setColor(QPalette::Window, colour);
        badge.setColor(QPalette::WindowText, colours::textOn(colour));
        m_ownBadge->setText(tr("You: %1 · %2").arg(roleText(*own), roleTitle(*own)));
    } else {
        m_ownBadge->setText(note && note->skipped ? tr("You: skipped") : tr("You: not labelled"));
    }
    m_ownBadge->setPalette(badge);
    for (std::size_t i = 0; i < m_chips.size(); ++i)
        m_chips[i]->setChecked(own == kChipRoles[i]);

    // The turn: what is new in its observation, the action, the feedback.
    QTextCharFormat plain;
    QTextCharFormat heading;
    heading.setFontWeight(QFont::Bold);
    heading.setForeground(palette().color(QPalette::PlaceholderText));
    QTextCharFormat action;
    action.setFontWeight(QFont::Bold);
    m_cardBody->clear();
    QTextCursor c(m_cardBody->document());
    c.beginEditBlock();
    const QString observation = newObservation(k > 0 ? &t.turns[std::size_t(k) - 1] : nullptr, turn);
    if (!observation.isEmpty()) {
        c.insertText(tr("Observation") + QLatin1Char('\n'), heading);
        c.insertText(observation + QStringLiteral("\n\n"), plain);
    }
    c.insertText(tr("Action") + QLatin1Char('\n'), heading);
    c.insertText(toQString(turn.action), action);
    if (turn.feedback) {
        c.insertText(QStringLiteral("\n\n") + tr("Feedback") + QLatin1Char('\n'), heading);
        c.insertText(toQString(*turn.feedback), plain);
    }
    c.endEditBlock();
    m_cardBody->moveCursor(QTextCursor::Start);

    if (blind()) {
        m_judgeBox->setText(tr("Judge labels hidden (blind)"));
    } else {
        QStringList judges;
        for (const JudgeLabel& j : l.judge)
            if (j.turn == k)
                judges << tr("%1: %2%3")
                              .arg(toQString(j.judge), roleText(j.role),
                                  j.confidence ? tr(" (%1)").arg(formatNumber(*j.confidence, 2)) : QString());
        m_judgeBox->setText(
            judges.isEmpty() ? tr("Judge: no label") : tr("Judge  %1").arg(judges.join(QStringLiteral("   "))));
    }

    m_flagButton->setChecked(note && note->flagged);
    const QString comment = note ? toQString(note->comment) : QString();
    if (!m_commentEdit->hasFocus() || !m_commentEdit->isModified()) {
        m_commentEdit->setText(comment);
        m_commentEdit->setModified(false);
    }

    // Where the queue goes next: say so when it leaves this trajectory.
    if (m_position + 1 >= int(m_queue.size())) {
        m_nextHint->setText(tr("Last turn in the queue."));
    } else {
        const QueueItem& next = m_queue[std::size_t(m_position) + 1];
        m_nextHint->setText(next.trajectory == index
                ? (next.turn == k + 1 ? QString()
                                      : tr("Next in the queue: turn %1 of this trajectory.").arg(next.turn + 1))
                : tr("Last turn here: the queue moves on to trajectory %1 of %2 (turn %3).")
                      .arg(next.trajectory + 1)
                      .arg(m_trajectories.size())
                      .arg(next.turn + 1));
    }
}

QString AnnotationPage::transcriptText() const { return m_transcript->toPlainText(); }

QString AnnotationPage::cardText() const
{
    return m_cardTitle->text() + QLatin1Char('\n') + m_ownBadge->text() + QLatin1Char('\n') + m_cardBody->toPlainText()
        + QLatin1Char('\n') + m_judgeBox->text() + QLatin1Char('\n') + m_nextHint->text();
}

} // namespace creditlab::ui
