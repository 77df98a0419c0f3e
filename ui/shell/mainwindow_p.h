#pragma once

// Private to the MainWindow implementation files: mainwindow.cpp (assembly and wiring), mainwindowfiles.cpp
// (databases and imports) and mainwindowmenus.cpp (menus and the saved layout).

#include <QString>

namespace creditlab::ui {

/// How long a status-bar message of the main window stays.
inline constexpr int kStatusTimeoutMs = 10000;
/// The object name of the Runs tab's splitter (run browser | trajectory viewer), whose state the layout keeps.
inline const QString kMainSplitter = QStringLiteral("mainSplitter");

} // namespace creditlab::ui
