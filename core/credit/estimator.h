#pragma once

#include "core/credit/creditbatch.h"
#include "core/credit/params.h"
#include "core/model/trajectory.h"

#include <cstddef>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace creditlab::credit {

/// A batch the method cannot use: a missing or bad field. `what()` names the trajectory id, the turn
/// (1-based) and the field, e.g. `trajectory "it3-r2", turn 4: field "role" is required by triage`.
class CreditInputError : public std::invalid_argument {
public:
    using std::invalid_argument::invalid_argument;
};

/// One named per-turn detail array, numeric or text (e.g. a role or a fusion case). Text columns are
/// categorical: `numbers[k]` indexes `labels`, so a million-turn column costs no string per turn.
struct DetailColumn {
    std::string name;
    bool isText = false;
    std::vector<double> numbers; ///< flat, one per turn of the batch (see CreditResult::offsets)
    std::vector<std::string> labels; ///< text columns: the possible values

    /// Text columns: the label of flat turn `k`.
    std::string_view text(std::size_t k) const { return labels[static_cast<std::size_t>(numbers[k])]; }
    /// Text columns: sets flat turn `k` to label `index`.
    void setLabel(std::size_t k, std::size_t index) { numbers[k] = static_cast<double>(index); }
};

/// The output of an estimator: one advantage per turn, flat in batch order, plus detail arrays.
/// Turn t (0-based) of trajectory i is at `offsets[i] + t`. An immutable value once returned.
struct CreditResult {
    std::vector<std::size_t> offsets; ///< size = trajectories + 1
    std::vector<double> advantages;
    std::vector<DetailColumn> details;

    /// Sizes `offsets` and `advantages` (zeros) for `batch`.
    explicit CreditResult(const Batch& batch);
    /// The same from the columnar batch's offsets.
    explicit CreditResult(const CreditBatch& batch);
    CreditResult() = default;

    double& at(std::size_t trajectory, std::size_t turn) { return advantages[offsets[trajectory] + turn]; }
    double at(std::size_t trajectory, std::size_t turn) const { return advantages[offsets[trajectory] + turn]; }
    /// Adds a zero-filled numeric detail column and returns it (valid until the next add).
    DetailColumn& addDetail(std::string name);
    /// Adds a text column whose turns all start at `labels[0]` and returns it.
    DetailColumn& addTextDetail(std::string name, std::vector<std::string> labels);
    const DetailColumn* detail(std::string_view name) const;
    /// The details of flat turn `k` as one JSON object ({"role":"E","g":0.5}), as the store keeps them.
    std::string turnDetailsJson(std::size_t k) const;
};

/// A credit-assignment method: turns a Batch into one advantage per turn. Stateless and
/// thread-safe: compute() may run on any thread, several at once. Never cancels (a million
/// turns take well under a second).
class Estimator {
public:
    virtual ~Estimator() = default;

    virtual std::string_view name() const = 0;
    /// One line for `methods`, naming the paper.
    virtual std::string_view summary() const = 0;
    virtual const std::vector<ParamSpec>& params() const = 0;

    /// Throws CreditInputError when a field the method needs is missing (role, progress, score).
    virtual void validate(const Batch& batch, const Params& params) const;
    /// The per-turn columns compute() reads from a CreditBatch.
    virtual Columns columns() const { return Columns::None; }
    /// Computes the advantages; call validate() first. Builds the CreditBatch columns() needs, so each call
    /// hashes the batch's keys again: to run several methods, or one several times, build one CreditBatch
    /// (Columns::All) and use the overload below.
    CreditResult compute(const Batch& batch, const Params& params) const;
    /// Computes the advantages on a columnar batch (validate() its source() first). When it lacks a column
    /// this method reads, that column is built for this call.
    CreditResult compute(const CreditBatch& batch, const Params& params) const;

    /// Resolves `--set` assignments against params(), a `conventions` preset expanded first (conventions.h);
    /// throws ParamError.
    Params resolve(const std::vector<std::pair<std::string, std::string>>& assignments) const;

protected:
    /// The method itself; `batch` holds at least columns().
    virtual CreditResult computeColumns(const CreditBatch& batch, const Params& params) const = 0;
};

/// Every built-in estimator, in the order `methods` lists them.
const std::vector<const Estimator*>& estimators();
/// nullptr when unknown.
const Estimator* findEstimator(std::string_view name);
/// Throws std::invalid_argument listing the known names when unknown.
const Estimator& requireEstimator(std::string_view name);

} // namespace creditlab::credit
