#pragma once

#include "core/store.h"

#include <QtGlobal>

#include <vector>

class QComboBox;

namespace creditlab::ui {

/// Fills a run chooser with "ID: name" entries (the run id as item data) and selects `keep`, else the newest run.
/// Returns whether `keep` was there. GUI thread.
bool fillRunCombo(QComboBox* combo, const std::vector<RunInfo>& runs, qint64 keep);
/// The run a page should load from its chooser: the chooser's current run when the page shows none (`shown` 0),
/// else 0 (nothing to load). Pages call it when they appear and after a reload dropped their run. GUI thread.
qint64 runToLoad(const QComboBox* combo, qint64 shown);

} // namespace creditlab::ui
