#pragma once

#include "core/storage/store.h"

#include <QAbstractTableModel>
#include <QString>

#include <vector>

namespace creditlab::ui {

/// A trajectory's training sequences token by token (Store::tokenSegments): one row per token, in stream order, with
/// its turn, id, text, loss mask, behaviour and current log-prob, their difference and its advantage. Holds a snapshot
/// set by setSegments(). With trainedOnly() only the loss tokens are rows. Context tokens are greyed; a token whose
/// |current - behaviour| passes driftThreshold() is marked in red (token drift). SortRole sorts numeric columns by
/// value (NaN last); IdRole gives the row's flat token index. GUI thread.
class TokenModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum class Column { Position, Turn, Id, Text, Loss, Behaviour, Current, Drift, Advantage, Count };

    explicit TokenModel(QObject* parent = nullptr);

    /// Replaces the snapshot (a model reset).
    void setSegments(std::vector<TokenSegment> segments);
    void clear() { setSegments({}); }
    void setTrainedOnly(bool on);
    bool trainedOnly() const { return m_trainedOnly; }
    /// |current - behaviour| above which a token is marked (default 1e-3 nats).
    void setDriftThreshold(double nats);
    double driftThreshold() const { return m_threshold; }

    /// Every token of the snapshot, shown or not, and the trained ones.
    std::int64_t tokenCount() const { return static_cast<std::int64_t>(m_tokens.size()); }
    std::int64_t trainedCount() const { return m_trained; }
    std::size_t segmentCount() const { return m_segments.size(); }
    /// Over the trained tokens: the mean and largest |current - behaviour|, and the row of the largest (-1: none).
    double meanDrift() const { return m_meanDrift; }
    double maxDrift() const { return m_maxDrift; }
    /// Tokens whose drift passes the threshold.
    std::int64_t driftedCount() const;
    /// The shown row of the trained token with the largest drift, or -1.
    int rowOfMaxDrift() const;
    /// The shown row of the first token of `turn`, or -1.
    int firstRowOfTurn(int turn) const;
    /// The segment and index within it of a shown row.
    const TokenSegment* segmentOf(int row, std::size_t* index = nullptr) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    /// A token's text with its whitespace made visible: space as '·', newline as '↵', tab as '→'.
    static QString visibleText(const QString& text);

private:
    struct Token {
        std::uint32_t segment;
        std::uint32_t index;
    };
    void rebuildRows();
    QVariant display(const TokenSegment& s, std::size_t i, Column column) const;
    QVariant sortValue(const TokenSegment& s, std::size_t i, Column column) const;

    std::vector<TokenSegment> m_segments;
    std::vector<Token> m_tokens; ///< every token
    std::vector<std::uint32_t> m_rows; ///< the shown ones, indexes into m_tokens
    std::vector<std::vector<QString>> m_text; ///< per segment and token, converted once
    bool m_trainedOnly = false;
    double m_threshold = 1e-3;
    std::int64_t m_trained = 0;
    double m_meanDrift = 0.0;
    double m_maxDrift = 0.0;
    std::int64_t m_maxDriftToken = -1;
};

} // namespace creditlab::ui
