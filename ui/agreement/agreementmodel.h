#pragma once

#include "core/judge/agreement.h"
#include "core/judge/labelsources.h"
#include "core/storage/store.h"

#include <QAbstractTableModel>
#include <QString>

#include <memory>
#include <string>
#include <vector>

namespace creditlab::ui {

/// What one background load of the agreement page hands back: an immutable value snapshot.
struct AgreementLoad {
    std::vector<RunInfo> labelledRuns; ///< runs with at least one label, newest first
    std::int64_t runId = 0; ///< the run loaded; 0 = all labelled runs merged
    judge::RunLabels labels;
    QString error; ///< set when the database could not be read
};

/// The background load: the runs with labels (newest first), then the labels of run `runId` (0 = all labelled
/// runs merged; an id that is not a labelled run, e.g. -1: judge::defaultAgreementRun, the run the CLI picks without
/// --run: the newest with two label sources to compare, else the newest with labels). Opens its own read-only Store on
/// `path`; errors come back in `error`. Worker thread.
std::shared_ptr<const AgreementLoad> loadAgreement(const std::string& path, std::int64_t runId);

/// One compared source's agreement with the reference.
struct AgreementRow {
    std::string source;
    judge::PairAgreement result;
    /// The bootstrap 95 % interval on kappa (judge::bootstrapKappa); nullopt until computed (in the background).
    std::optional<judge::KappaInterval> kappaInterval;
};

/// The agreement of each of `compared` with `reference` over `labels`, with judge::comparePair on the labels
/// judge::loadRunLabels aligned: the very numbers `creditlab-cli agreement --a reference --b other` prints.
/// Sources the labels lack are skipped, as is the reference itself. Pure; any thread.
std::vector<AgreementRow> computeAgreement(
    const judge::RunLabels& labels, const std::string& reference, const std::vector<std::string>& compared);

/// The bootstrap interval on kappa of each of `compared` against `reference` (judge::bootstrapKappa: 1000
/// resamples of the turns both label, 95 %, the fixed seed), aligned with what computeAgreement returns for the same
/// arguments. Pure; any thread; slow on large runs (resamples × turns per source), so the page runs it in the pool.
std::vector<judge::KappaInterval> computeKappaIntervals(
    const judge::RunLabels& labels, const std::string& reference, const std::vector<std::string>& compared);

/// A confusion matrix (rows: the reference's roles) as row-major shares of each row's turns, so every row with
/// turns sums to 1; a row without turns is NaN (no data). Pure.
std::vector<double> rowShares(const judge::RoleCounts& counts);

/// The indices into labels.turns of the turns that `reference` labels `referenceRole` and `other` labels
/// `otherRole` (one cell of their confusion matrix), in turn order. Pure; any thread.
std::vector<std::size_t> cellTurns(const judge::RunLabels& labels, const std::string& reference,
    const std::string& other, Role referenceRole, Role otherRole);

/// The metrics table: one row per compared source; numbers as text with 3 decimals ("n/a" when undefined; "…" for
/// the kappa interval while it is computed), SortRole gives the numbers. GUI thread.
class AgreementTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    /// Columns; the per-role precision/recall/F1 columns follow RolePrecision in kRoles order (D, E, N, R),
    /// three per role: roleColumn(role, metric).
    enum class Column {
        Source,
        Turns,
        Accuracy,
        Kappa,
        KappaLow, ///< the bootstrap 95 % interval on kappa (AgreementRow::kappaInterval)
        KappaHigh,
        MacroF1,
        RolePrecision = 7, ///< first of the 12 per-role columns
        RegressionSuccessF1 = 19, ///< F1 of R inside successful rollouts (TRIAGE Table 4)
        ExplorationFailureF1, ///< F1 of E inside failed rollouts
        RegressionSuccessMissed, ///< share of the reference's R in successes the source labels otherwise
        ExplorationFailureMissed, ///< share of the reference's E in failures the source labels otherwise
        Count
    };
    enum class RoleMetric { Precision, Recall, F1 };
    static int roleColumn(std::size_t roleIndex, RoleMetric metric);

    explicit AgreementTableModel(QObject* parent = nullptr);

    void setRows(std::vector<AgreementRow> rows);
    /// Sets the kappa intervals, aligned with rows() (ignored when the sizes differ: the rows changed meanwhile).
    void setKappaIntervals(const std::vector<judge::KappaInterval>& intervals);
    const std::vector<AgreementRow>& rows() const { return m_rows; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::optional<double> number(const AgreementRow& row, int column) const;

    std::vector<AgreementRow> m_rows;
};

/// The turns of one confusion cell: trajectory id, turn, action and the two labels. IdRole of a row is the
/// trajectory's row id. GUI thread.
class CellTurnsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum class Column { Trajectory, Turn, Action, Reference, Other, Count };
    struct Entry {
        judge::TurnRef turn;
        QString trajectoryId;
        QString action;
        Role reference = Role::N;
        Role other = Role::N;
    };

    explicit CellTurnsModel(QObject* parent = nullptr);

    /// Replaces the list; `referenceName` and `otherName` head the label columns.
    void setEntries(std::vector<Entry> entries, const QString& referenceName, const QString& otherName);
    const std::vector<Entry>& entries() const { return m_entries; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<Entry> m_entries;
    QString m_referenceName;
    QString m_otherName;
};

} // namespace creditlab::ui
