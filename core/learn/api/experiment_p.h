#pragma once

// The report's parts shared by experiment.cpp (what it reads, the curves, report.md), experimentclaims.cpp (the
// claims' data and statistics) and experimentstats.cpp (their report.md sections). Internal.

#include "core/learn/api/experiment.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace creditlab {
class Store;
}

namespace creditlab::learn::detail {

/// One trial as the report reads it: its arm, seed, run and the curves of the experiment's metrics.
struct TrialData {
    std::string arm;
    std::string seed;
    std::int64_t runId = 0; ///< 0 before it started
    std::map<std::string, Curve> curves;
};

/// Judges every claim of `report.spec` (report.claims) and computes the rliable aggregates and profiles of their
/// measures (report.aggregates, report.profiles); reads the eval episodes' per-task outcomes from `store`. Needs
/// report.probeRows for probe claims.
void judgeClaims(Store& store, ExperimentReport& report, const std::vector<TrialData>& trials);

/// report.md's claims section ("## Claims" to the per-seed list) and its aggregates section.
std::string claimsMarkdown(const ExperimentReport& report);
std::string aggregatesMarkdown(const ExperimentReport& report);

// Number formatting shared by report.md's sections (and experimentplan.cpp's plan).
std::string number(double v, int digits = 3);
std::string signedNumber(double v, int digits = 3);

} // namespace creditlab::learn::detail
