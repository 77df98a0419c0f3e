#pragma once

#include "core/learn/api/experiment.h"

#include <QDialog>

class QLabel;
class QTextBrowser;

namespace creditlab {
class Store;
}

namespace creditlab::ui {

/// An experiment's report (the Sweeps page's Report…): the claims with their intervals and verdicts, the
/// final-metric table, the learning curves with seed bands, the runs and the stored file, as `creditlab-cli report`
/// writes it. Refresh (F5) reads the database again, so a running experiment's partial report grows; Export…
/// (Ctrl+E) writes report.md with SVG and PNG figures into a folder.
class ReportDialog : public QDialog {
    Q_OBJECT
public:
    ReportDialog(Store* store, QString database, qint64 sweepId, QWidget* parent = nullptr);

    /// Reads the experiment again; false (with the reason shown) when it cannot.
    bool refresh();
    /// Writes report.md, the SVG and the PNG figures into `directory`; false with `error` set on failure.
    bool exportTo(const QString& directory, QString* error);
    /// The report shown (empty before the first successful refresh()).
    const learn::ExperimentReport& report() const { return m_report; }
    /// The report as shown, as plain text (for tests).
    QString text() const;

private:
    void exportInteractive();

    Store* m_store;
    QString m_database;
    qint64 m_sweepId;
    learn::ExperimentReport m_report;
    QTextBrowser* m_view = nullptr;
    QLabel* m_status = nullptr;
};

} // namespace creditlab::ui
