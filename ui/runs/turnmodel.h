#pragma once

#include "core/model/trajectory.h"

#include <QAbstractTableModel>
#include <QString>

#include <optional>
#include <string>
#include <vector>

namespace creditlab::ui {

/// The turns of one trajectory as a table. Holds a value snapshot set by setTrajectory(). Text
/// cells show a single-line preview; FullTextRole and the tooltip give the whole text; SortRole
/// sorts numeric columns by value; IdRole (= Qt::UserRole) gives the 0-based turn index, while the
/// Index column shows it counted from 1. After the fixed columns comes one column per credit
/// method stored on the trajectory's turns (creditColumn()). GUI thread.
class TurnModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum class Column { Index, Observation, Action, Feedback, Reward, Valid, Role, Count };

    explicit TurnModel(QObject* parent = nullptr);

    /// Replaces the snapshot (a model reset).
    void setTrajectory(Trajectory trajectory);
    /// Empties the model.
    void clear();
    const Trajectory& trajectory() const { return m_trajectory; }
    /// The turn at `row`, or nullptr when out of range.
    const Turn* turn(int row) const;
    /// The credit methods shown as columns from Column::Count on, in name order.
    const std::vector<std::string>& creditMethods() const { return m_methods; }
    /// The column of a credit method, or -1.
    int creditColumn(const std::string& method) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    /// The translated long name of a role label, e.g. "decisive progress".
    static QString roleDescription(Role role);

private:
    /// Converted once per snapshot, so painting does not convert UTF-8 for every cell.
    struct RowText {
        QString observation;
        QString action;
        QString feedback;
        QString observationPreview;
        QString actionPreview;
        QString feedbackPreview;
    };

    QString fullText(int row, Column column) const;
    QVariant display(int row, Column column) const;
    QVariant sortValue(int row, Column column) const;
    /// The credit of `method` on turn `row`, when stored.
    std::optional<double> credit(int row, std::size_t method) const;

    Trajectory m_trajectory;
    std::vector<std::string> m_methods;
    std::vector<RowText> m_text;
};

} // namespace creditlab::ui
