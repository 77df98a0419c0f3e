#pragma once

// A dense row-major matrix of probe features: one row per evaluation turn. Torch-free and Qt-free, so that
// probes fit and score in core (the CLI, the trainer's reward path and the GUI's probe lab share it).

#include <cstddef>
#include <span>
#include <stdexcept>
#include <vector>

namespace creditlab::probe {

/// Samples × features, row-major, float64 (probes are fit in double precision, pair.md §2.3).
/// A value type: copy it freely; any thread.
class FeatureMatrix {
public:
    FeatureMatrix() = default;
    FeatureMatrix(std::size_t rows, std::size_t cols, double fill = 0.0)
        : m_rows(rows)
        , m_cols(cols)
        , m_data(rows * cols, fill)
    {
    }

    /// Rows from a list of equally long vectors (float or double). Throws std::invalid_argument on ragged rows.
    template <typename T> static FeatureMatrix fromRows(const std::vector<std::vector<T>>& rows)
    {
        FeatureMatrix m;
        for (const auto& row : rows)
            m.appendRow(std::span<const T>(row.data(), row.size()));
        return m;
    }

    /// Appends one sample; the first row fixes the column count. Throws std::invalid_argument on a mismatch.
    template <typename T> void appendRow(std::span<const T> row)
    {
        if (m_rows == 0 && m_cols == 0)
            m_cols = row.size();
        if (row.size() != m_cols)
            throw std::invalid_argument("FeatureMatrix: row has a different number of features");
        for (const T v : row)
            m_data.push_back(static_cast<double>(v));
        ++m_rows;
    }

    std::size_t rows() const { return m_rows; }
    std::size_t cols() const { return m_cols; }
    bool empty() const { return m_rows == 0; }

    double& at(std::size_t r, std::size_t c) { return m_data[r * m_cols + c]; }
    double at(std::size_t r, std::size_t c) const { return m_data[r * m_cols + c]; }
    std::span<const double> row(std::size_t r) const { return { m_data.data() + r * m_cols, m_cols }; }
    std::span<double> row(std::size_t r) { return { m_data.data() + r * m_cols, m_cols }; }

    /// These rows, in this order (indices may repeat).
    FeatureMatrix selectRows(const std::vector<std::size_t>& indices) const
    {
        FeatureMatrix m(indices.size(), m_cols);
        for (std::size_t i = 0; i < indices.size(); ++i)
            for (std::size_t c = 0; c < m_cols; ++c)
                m.at(i, c) = at(indices[i], c);
        return m;
    }

    /// This matrix with `column` appended as a last feature (PAIR Stage 2's [a ; s_bc], Eq. 4).
    FeatureMatrix withColumn(const std::vector<double>& column) const
    {
        if (column.size() != m_rows)
            throw std::invalid_argument("FeatureMatrix: appended column has a different number of rows");
        FeatureMatrix m(m_rows, m_cols + 1);
        for (std::size_t r = 0; r < m_rows; ++r) {
            for (std::size_t c = 0; c < m_cols; ++c)
                m.at(r, c) = at(r, c);
            m.at(r, m_cols) = column[r];
        }
        return m;
    }

    const std::vector<double>& data() const { return m_data; }

private:
    std::size_t m_rows = 0;
    std::size_t m_cols = 0;
    std::vector<double> m_data;
};

} // namespace creditlab::probe
