#pragma once

#include <QWidget>

class QLabel;
class QProgressBar;
class QPushButton;

namespace creditlab::ui {

class ImportJob;
struct ImportProgress;

/// The status-bar strip of a running import: what is being imported, a percent bar, the time left
/// and a Cancel button. Shows itself while the job runs and hides when it finishes. Wires itself
/// to the job. Lives on the GUI thread.
class ImportStatusWidget : public QWidget {
    Q_OBJECT
public:
    explicit ImportStatusWidget(ImportJob* job, QWidget* parent = nullptr);

    QProgressBar* progressBar() const { return m_bar; }
    QPushButton* cancelButton() const { return m_cancel; }
    QLabel* label() const { return m_label; }

private:
    void showProgress(const ImportProgress& progress);

    ImportJob* m_job;
    QLabel* m_label;
    QProgressBar* m_bar;
    QPushButton* m_cancel;
};

} // namespace creditlab::ui
