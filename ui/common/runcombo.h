#pragma once

#include "core/storage/store.h"

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

/// The run selected in Runs that a page with a run chooser of its own is to show (Credit and Trees follow Runs), kept
/// until the page shows it, the user picks another there, or the database changes. GUI thread.
class FollowedRun {
public:
    /// Follows `runId`: selects it in `combo` when listed. False when `shown` is that run already (nothing to follow).
    bool follow(QComboBox* combo, qint64 runId, qint64 shown);
    /// The followed run when `combo` lists it (and selects it there), else 0.
    qint64 listed(QComboBox* combo) const;
    void forget() { m_run = 0; }

private:
    qint64 m_run = 0;
};

} // namespace creditlab::ui
