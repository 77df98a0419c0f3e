#pragma once

#include "core/store.h"

#include <QtGlobal>

#include <vector>

class QComboBox;

namespace creditlab::ui {

/// Fills a run chooser with "ID: name" entries (the run id as item data) and selects `keep`, else the newest run.
/// A name that several runs share is followed by each run's summary ("household · triage · s0 · 128×2"), so runs
/// named alike by older versions can be told apart. Returns whether `keep` was there. GUI thread.
bool fillRunCombo(QComboBox* combo, const std::vector<RunInfo>& runs, qint64 keep);
/// The run a page should load from its chooser: the chooser's current run when the page shows none (`shown` 0),
/// else 0 (nothing to load). Pages call it when they appear and after a reload dropped their run. GUI thread.
qint64 runToLoad(const QComboBox* combo, qint64 shown);

} // namespace creditlab::ui
