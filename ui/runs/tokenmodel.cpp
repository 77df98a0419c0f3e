#include "ui/runs/tokenmodel.h"

#include "ui/common/itemroles.h"
#include "ui/common/textutil.h"

#include <QBrush>
#include <QColor>
#include <QPalette>

#include <cmath>
#include <limits>

namespace creditlab::ui {

namespace {
bool isNumber(float v) { return !std::isnan(v); }

/// current - behaviour, or NaN when either is missing.
double driftOf(const TokenSegment& s, std::size_t i)
{
    return isNumber(s.behaviour[i]) && isNumber(s.current[i])
        ? static_cast<double>(s.current[i]) - static_cast<double>(s.behaviour[i])
        : std::numeric_limits<double>::quiet_NaN();
}
} // namespace

TokenModel::TokenModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

QString TokenModel::visibleText(const QString& text)
{
    QString out;
    out.reserve(text.size());
    for (const QChar c : text) {
        if (c == u' ')
            out += QChar(0x00B7);
        else if (c == u'\n')
            out += QChar(0x21B5);
        else if (c == u'\t')
            out += QChar(0x2192);
        else if (c == u'\r')
            out += QStringLiteral("\\r");
        else
            out += c;
    }
    return out;
}

void TokenModel::setSegments(std::vector<TokenSegment> segments)
{
    beginResetModel();
    m_segments = std::move(segments);
    m_tokens.clear();
    m_text.clear();
    m_trained = 0;
    m_meanDrift = m_maxDrift = 0.0;
    m_maxDriftToken = -1;
    double sum = 0.0;
    std::int64_t measured = 0;
    for (std::size_t k = 0; k < m_segments.size(); ++k) {
        const TokenSegment& s = m_segments[k];
        std::vector<QString> text;
        text.reserve(s.tokens.size());
        for (std::size_t i = 0; i < s.tokens.size(); ++i) {
            m_tokens.push_back({ static_cast<std::uint32_t>(k), static_cast<std::uint32_t>(i) });
            text.push_back(visibleText(toQString(s.pieces[i])));
            if (!s.mask[i])
                continue;
            ++m_trained;
            const double d = std::abs(driftOf(s, i));
            if (std::isnan(d))
                continue;
            sum += d;
            ++measured;
            if (m_maxDriftToken < 0 || d > m_maxDrift) {
                m_maxDrift = d;
                m_maxDriftToken = static_cast<std::int64_t>(m_tokens.size()) - 1;
            }
        }
        m_text.push_back(std::move(text));
    }
    m_meanDrift = measured > 0 ? sum / static_cast<double>(measured) : 0.0;
    rebuildRows();
    endResetModel();
}

void TokenModel::setTrainedOnly(bool on)
{
    if (on == m_trainedOnly)
        return;
    beginResetModel();
    m_trainedOnly = on;
    rebuildRows();
    endResetModel();
}

void TokenModel::setDriftThreshold(double nats)
{
    m_threshold = nats;
    if (rowCount() > 0)
        Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1));
}

void TokenModel::rebuildRows()
{
    m_rows.clear();
    for (std::size_t t = 0; t < m_tokens.size(); ++t)
        if (!m_trainedOnly || m_segments[m_tokens[t].segment].mask[m_tokens[t].index])
            m_rows.push_back(static_cast<std::uint32_t>(t));
}

std::int64_t TokenModel::driftedCount() const
{
    std::int64_t n = 0;
    for (const Token& t : m_tokens) {
        const TokenSegment& s = m_segments[t.segment];
        n += s.mask[t.index] && std::abs(driftOf(s, t.index)) > m_threshold ? 1 : 0;
    }
    return n;
}

int TokenModel::rowOfMaxDrift() const
{
    for (std::size_t r = 0; r < m_rows.size(); ++r)
        if (static_cast<std::int64_t>(m_rows[r]) == m_maxDriftToken)
            return static_cast<int>(r);
    return -1;
}

int TokenModel::firstRowOfTurn(int turn) const
{
    for (std::size_t r = 0; r < m_rows.size(); ++r) {
        const Token& t = m_tokens[m_rows[r]];
        if (m_segments[t.segment].turns[t.index] == turn)
            return static_cast<int>(r);
    }
    return -1;
}

const TokenSegment* TokenModel::segmentOf(int row, std::size_t* index) const
{
    if (row < 0 || row >= rowCount())
        return nullptr;
    const Token& t = m_tokens[m_rows[static_cast<std::size_t>(row)]];
    if (index)
        *index = t.index;
    return &m_segments[t.segment];
}

int TokenModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int TokenModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(Column::Count);
}

QVariant TokenModel::display(const TokenSegment& s, std::size_t i, Column column) const
{
    const auto number = [](float v, int precision) { return isNumber(v) ? formatNumber(v, precision) : QString(); };
    switch (column) {
    case Column::Position:
        return m_segments.size() > 1 ? QStringLiteral("%1:%2").arg(s.segment + 1).arg(i) : QString::number(i);
    case Column::Turn:
        return s.turns[i] >= 0 ? QString::number(s.turns[i] + 1) : QString();
    case Column::Id:
        return QString::number(s.tokens[i]);
    case Column::Text:
        return m_text[static_cast<std::size_t>(&s - m_segments.data())][i];
    case Column::Loss:
        return s.mask[i] ? QStringLiteral("\u2713") : QString();
    case Column::Behaviour:
        return number(s.behaviour[i], 5);
    case Column::Current:
        return number(s.current[i], 5);
    case Column::Drift: {
        const double d = driftOf(s, i);
        return std::isnan(d) ? QString() : QString::number(d, 'g', 3);
    }
    case Column::Advantage:
        return number(s.advantage[i], 4);
    case Column::Count:
        break;
    }
    return {};
}

QVariant TokenModel::sortValue(const TokenSegment& s, std::size_t i, Column column) const
{
    const auto number
        = [](double v) { return std::isnan(v) ? QVariant(std::numeric_limits<double>::infinity()) : QVariant(v); };
    switch (column) {
    case Column::Position:
        return static_cast<qlonglong>(s.segment) * (1LL << 32) + static_cast<qlonglong>(i);
    case Column::Turn:
        return s.turns[i];
    case Column::Id:
        return s.tokens[i];
    case Column::Loss:
        return s.mask[i];
    case Column::Behaviour:
        return number(s.behaviour[i]);
    case Column::Current:
        return number(s.current[i]);
    case Column::Drift:
        return number(std::abs(driftOf(s, i)));
    case Column::Advantage:
        return number(s.advantage[i]);
    case Column::Text:
    case Column::Count:
        break;
    }
    return display(s, i, column);
}

QVariant TokenModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.model() != this || index.row() >= rowCount())
        return {};
    std::size_t i = 0;
    const TokenSegment& s = *segmentOf(index.row(), &i);
    const auto column = static_cast<Column>(index.column());
    switch (role) {
    case Qt::DisplayRole:
        return display(s, i, column);
    case SortRole:
        return sortValue(s, i, column);
    case IdRole:
        return static_cast<qint64>(m_rows[static_cast<std::size_t>(index.row())]);
    case Qt::TextAlignmentRole:
        return column == Column::Text ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                      : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::ForegroundRole:
        if (!s.mask[i] && column != Column::Drift)
            return QBrush(QPalette().color(QPalette::Disabled, QPalette::Text));
        return {};
    case Qt::BackgroundRole:
        if (s.mask[i] && std::abs(driftOf(s, i)) > m_threshold)
            return QBrush(QColor(0xf4, 0xb6, 0xb6));
        return {};
    case Qt::ToolTipRole: {
        QString tip = tr("Token %1 of segment %2, id %3: \"%4\"")
                          .arg(i)
                          .arg(s.segment + 1)
                          .arg(s.tokens[i])
                          .arg(toQString(s.pieces[i]));
        if (s.turns[i] < 0)
            tip += u'\n' + tr("Context (goal, observation, template): read, not trained.");
        else if (!s.mask[i])
            tip += u'\n'
                + tr("Action of turn %1, left out of the update (a filtered group or a failed rollout).")
                      .arg(s.turns[i] + 1);
        else
            tip += u'\n' + tr("Action of turn %1, in the loss.").arg(s.turns[i] + 1);
        return tip;
    }
    default:
        return {};
    }
}

QVariant TokenModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= int(Column::Count))
        return {};
    if (role == Qt::DisplayRole) {
        switch (static_cast<Column>(section)) {
        case Column::Position:
            return tr("Pos");
        case Column::Turn:
            return tr("Turn");
        case Column::Id:
            return tr("Id");
        case Column::Text:
            return tr("Token");
        case Column::Loss:
            return tr("Loss");
        case Column::Behaviour:
            return tr("Behaviour log p");
        case Column::Current:
            return tr("Current log p");
        case Column::Drift:
            return tr("\u0394 log p");
        case Column::Advantage:
            return tr("Advantage");
        case Column::Count:
            break;
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (static_cast<Column>(section)) {
        case Column::Position:
            return tr(
                "The token's position in its sequence (segment:position when the stream restarted at the context)");
        case Column::Loss:
            return tr("The loss mask: a check where the policy loss is taken");
        case Column::Behaviour:
            return tr("The log-probability when the rollout sampled the token (KV-cached generation, at the sampling "
                      "temperature)");
        case Column::Current:
            return tr("The trainer's log-probability of the token before the update's first step (a full forward "
                      "pass over the training sequence): the PPO ratio's denominator");
        case Column::Drift:
            return tr("Current minus behaviour log-probability. Non-zero beyond float error means the trainer does not "
                      "see what the sampler saw (token drift: a re-tokenised action, a changed template, a different "
                      "vocabulary or precision)");
        case Column::Advantage:
            return tr("The token's advantage in the policy loss");
        default:
            return {};
        }
    }
    return {};
}

} // namespace creditlab::ui
