#pragma once

// The data model: what a rollout is, and the words every layer spells the same way. Nothing here touches a file,
// a database or a thread; everything is a value type or a pure function, usable from any thread.
//
//   trajectory.h   Role (D, E, N, R), Task, Turn, Trajectory, Group and Batch: the JSONL format's shape
//                  (docs/guide.md, "The native format") and what every credit estimator reads.
//   vocabulary.h   the phases of a training run, the statuses of runs, trials and sweeps, the kinds of run, and the
//                  metric names a training run writes.
//   text.h         the action key of CONVENTIONS.md, UTF-8 decoding and the bounded Levenshtein distance that the
//                  estimators and the rollout trees share.
//   progress.h     Progress, ProgressCallback and Cancelled: how a long job reports progress and is cancelled.
//   unavailable.h  ServiceUnavailable: a server the run depends on could not be reached (it may come back).
//
// Include the header you use; this one includes them all.

#include "core/model/progress.h"
#include "core/model/text.h"
#include "core/model/trajectory.h"
#include "core/model/unavailable.h"
#include "core/model/vocabulary.h"
