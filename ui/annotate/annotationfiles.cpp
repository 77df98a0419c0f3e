// The Annotate page's label files (annotationpage.h): export and import of human labels and notes as JSONL,
// through core/interchange/labelfile.h, with the page's own messages.
#include "ui/annotate/annotationpage.h"

#include "core/interchange/labelfile.h"
#include "core/storage/atomicfile.h"
#include "ui/common/filedialogs.h"
#include "ui/common/textutil.h"
#include "ui/shell/workspace.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>

#include <algorithm>
#include <exception>

namespace creditlab::ui {

namespace {

/// Puts `message` in `*error` when asked; returns -1, importLabels()'s failure value.
int setError(QString* error, const QString& message)
{
    if (error)
        *error = message;
    return -1;
}

/// `what` without a leading "PATH: " (core's messages name the file; ours do too).
QString withoutPrefix(const char* what, const QString& path)
{
    const QString text = QString::fromUtf8(what);
    return text.startsWith(path + QStringLiteral(": ")) ? text.mid(path.size() + 2) : text;
}

/// A refused line of a label file in the page's (translated) words; `name` is the file name without its folder.
QString labelFileMessage(const LabelFileError& e, const QString& name)
{
    using Problem = LabelFileError::Problem;
    if (e.problem() == Problem::NotAnObject)
        return AnnotationPage::tr("%1:%2: not a JSON object (%3)").arg(name).arg(e.line()).arg(toQString(e.detail()));
    const QString why = e.problem() == Problem::UnknownTrajectory
        ? AnnotationPage::tr("no trajectory with this id in the run")
        : e.problem() == Problem::BadTurn ? AnnotationPage::tr("expected a turn index from 0 to %1").arg(e.lastTurn())
        : e.problem() == Problem::EmptyAnnotator ? AnnotationPage::tr("expected a non-empty name")
        : e.problem() == Problem::BadRole        ? AnnotationPage::tr("expected one of D, E, N, R")
        : e.problem() == Problem::BadNote        ? (e.field() == "comment" ? AnnotationPage::tr("expected a string")
                                                                           : AnnotationPage::tr("expected true or false"))
                                                 : toQString(e.message());
    return AnnotationPage::tr("%1:%2: field \"%3\": %4").arg(name).arg(e.line()).arg(toQString(e.field()), why);
}

} // namespace

bool AnnotationPage::exportLabels(const QString& path, QString* error)
{
    try {
        if (m_workspace->store() && m_runId > 0)
            exportLabelFile(*m_workspace->store(), m_runId, path.toStdString());
        else
            writeFileAtomically(path.toStdString(), {}); // no run: an empty file, as before
    } catch (const StoreError& e) {
        setError(error, tr("Could not read the labels: %1").arg(QString::fromUtf8(e.what())));
        return false;
    } catch (const std::exception& e) {
        setError(error, tr("Could not write %1: %2").arg(path, withoutPrefix(e.what(), path)));
        return false;
    }
    return true;
}

int AnnotationPage::importLabels(const QString& path, QString* error, int* notes)
{
    if (!m_workspace->store() || m_runId <= 0)
        return setError(error, tr("Choose a run to import labels into."));
    std::vector<LabelLine> rows;
    try {
        rows = readLabelFile(*m_workspace->store(), m_runId, path.toStdString());
    } catch (const LabelFileError& e) {
        return setError(error, labelFileMessage(e, QFileInfo(path).fileName()));
    } catch (const StoreError& e) {
        return setError(error, tr("Could not read the labels: %1").arg(QString::fromUtf8(e.what())));
    } catch (const std::exception& e) {
        return setError(error, tr("Could not read %1: %2").arg(path, withoutPrefix(e.what(), path)));
    }
    try {
        storeLabels(*m_workspace->store(), rows); // all or nothing
    } catch (const std::exception& e) {
        return setError(error, tr("Could not store the labels: %1").arg(QString::fromUtf8(e.what())));
    }
    m_workspace->notifyLabelsChanged();
    // Only human labels changed: re-read those of the imported trajectories instead of reloading the run.
    std::set<std::int64_t> touched;
    for (const LabelLine& r : rows)
        touched.insert(r.trajectoryRowId);
    for (const std::int64_t rowId : touched) {
        if (isLoading())
            m_writtenWhileLoading.insert(rowId);
        rereadHumanLabels(rowId);
    }
    m_transcriptStale = true; // notes show in the transcript
    refreshTranscript();
    refreshProgress();
    if (notes)
        *notes = int(std::count_if(rows.begin(), rows.end(), [](const LabelLine& r) { return r.note.has_value(); }));
    return int(std::count_if(rows.begin(), rows.end(), [](const LabelLine& r) { return r.role.has_value(); }));
}

void AnnotationPage::exportInteractive()
{
    const QString path = filedialogs::getSaveFileName(
        this, tr("Export human labels"), QString(), tr("JSON Lines (*.jsonl);;All files (*)"));
    QString error;
    if (!path.isEmpty() && !exportLabels(path, &error))
        fail(error);
    else if (!path.isEmpty())
        m_status->setText(tr("Exported the labels to %1.").arg(path));
}

void AnnotationPage::importInteractive()
{
    const QString path = filedialogs::getOpenFileName(
        this, tr("Import human labels"), QString(), tr("JSON Lines (*.jsonl);;All files (*)"));
    if (path.isEmpty())
        return;
    QString error;
    int notes = 0;
    const int count = importLabels(path, &error, &notes);
    if (count < 0)
        fail(error);
    else if (notes == 0)
        m_status->setText(tr("Imported %n label(s).", nullptr, count));
    else
        m_status->setText(
            tr("Imported %1 and %2.").arg(tr("%n label(s)", nullptr, count), tr("%n note(s)", nullptr, notes)));
}

} // namespace creditlab::ui
