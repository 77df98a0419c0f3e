#pragma once

// Where everything is kept: one SQLite file per database (WAL), its schema and migrations, and the side files of
// its runs in the folder beside it. The Store is the only code that writes a table; it lives on one thread, and
// every other layer reads and writes through it.
//
//   store.h       Store: runs, trajectories and turns, credits, metrics, labels, sweeps and trials; RunInfo,
//                 RunShape and the other rows it returns.
//   database.h    Database and Statement: the SQLite connection (RAII, one thread) and StoreError.
//   schema.h      the schema and its numbered migrations: the one place that defines tables.
//   humannote.h   an annotator's flag, skip and comment on a turn (the human_note table).
//   storemerge.h  merging databases by uid (`creditlab-cli merge`, the server's POST /v1/merge).
//   storesync.h   sending a trial's rows to a central server as a small database of their own.
//   networkfs.h   refusing a database on a network file system, where WAL's locks do not hold.
//   paths.h       the per-user data folder, the default database and a run's side-file folder.
//   atomicfile.h  AtomicFile: an output file that appears only when complete.
//
// The tables are described in docs/guide.md ("Where data lives"); store_p.h is private to store*.cpp.

#include "core/storage/atomicfile.h"
#include "core/storage/database.h"
#include "core/storage/humannote.h"
#include "core/storage/networkfs.h"
#include "core/storage/paths.h"
#include "core/storage/schema.h"
#include "core/storage/store.h"
#include "core/storage/storemerge.h"
#include "core/storage/storesync.h"
