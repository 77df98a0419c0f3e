#pragma once

#include "core/store.h"

#include <QtGlobal>

#include <vector>

class QComboBox;

namespace creditlab::ui {

/// Fills a run chooser with "ID: name" entries (the run id as item data) and selects `keep`, else the newest run.
/// Returns whether `keep` was there. GUI thread.
bool fillRunCombo(QComboBox* combo, const std::vector<RunInfo>& runs, qint64 keep);

} // namespace creditlab::ui
