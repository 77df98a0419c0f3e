#pragma once

#include <QFutureSynchronizer>
#include <QString>
#include <QWidget>

#include <cstdint>
#include <memory>
#include <string>

class QLabel;

namespace creditlab::learn {
struct ExperimentPlan;
}

namespace creditlab::ui {

/// What an experiment needs before it starts (issue 37): the power plan of learn::planExperiment() on the pilot the
/// open database holds for it (the latest experiment of that name, learn::findPilot), one line per claim: its seeds
/// now and its interval, and the seeds it needs to detect its effect at 80% power with the hours they cost. Without a
/// pilot it says how to make one. The plan reads the database on a worker thread (its own read-only connection);
/// a newer request supersedes one in flight. Lives on the GUI thread.
class PlanPanel : public QWidget {
    Q_OBJECT
public:
    explicit PlanPanel(QWidget* parent = nullptr);
    ~PlanPanel() override;

    /// Plans experiment `name` from the pilot in `database` (empty name or database: hides the panel).
    void showPlanFor(const QString& database, const std::string& name);
    /// The shown text (a test hook), and a one-line summary for the Start confirmation (empty without a plan).
    QString text() const;
    QString summary() const { return m_summary; }

Q_SIGNALS:
    /// The plan (or the note that there is no pilot) is shown.
    void planShown();

private:
    struct Result;
    void onResult(std::uint64_t generation, const std::shared_ptr<Result>& result);

    QLabel* m_label;
    /// Every plan in flight, waited for when the panel goes: a worker still reading the database at exit would race
    /// the store's static state being destroyed (ThreadSanitizer saw it).
    QFutureSynchronizer<std::shared_ptr<Result>> m_inFlight;
    QString m_summary;
    std::uint64_t m_generation = 0;
};

} // namespace creditlab::ui
