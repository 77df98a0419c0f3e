#pragma once

// Files in and out: CreditLab's JSONL, the logs of other trainers and agent frameworks, and human label files. Every
// reader refuses a bad line with its file, line and field (docs/bad-input.md), and an import lands whole or not at
// all.
//
//   jsonscanner.h    JsonScanner: a strict pull scanner over one JSON text (UTF-8 checked, numbers exact).
//   jsondoc.h        JsonDoc: one JSON text as a flat tree that keeps each value's raw bytes.
//   jsonl.h          one trajectory per line, parsed and formatted (parseTrajectory, formatTrajectory), JsonlError.
//   jsonlfile.h      LineReader: the lines of a file, or of text in memory, with their numbers.
//   jsonltransfer.h  importing a file as a run through the store, and exporting a run (importFile, exportJsonl).
//   importformats.h  the foreign formats (chat, ShareGPT, verl, verl-agent steps, JSON documents, mapping files)
//                    and their detection; the mapping files themselves are importmap_p.h.
//   chattemplate.h   cutting ChatML or Llama 3 templated text into messages, for the verl importer.
//   labelfile.h      human role labels and notes as JSONL (`labels export|import`, the Annotate page).
//
// The formats are described in docs/guide.md ("The native format") and docs/import-formats.md.

#include "core/interchange/chattemplate.h"
#include "core/interchange/importformats.h"
#include "core/interchange/jsondoc.h"
#include "core/interchange/jsonl.h"
#include "core/interchange/jsonlfile.h"
#include "core/interchange/jsonltransfer.h"
#include "core/interchange/jsonscanner.h"
#include "core/interchange/labelfile.h"
