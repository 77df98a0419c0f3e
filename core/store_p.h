#pragma once

// Private to the Store implementation files.

#include "core/store.h"

namespace creditlab {

/// Prepared statements reused by the hot write paths; created on first use.
struct Store::Cache {
    Statement insertTrajectory;
    Statement insertTurn;
    bool ready = false;
};

} // namespace creditlab
