// The main window's menus (mainwindow.h): File, Edit, Run, View and Help with the recent databases, the title and
// the actions that follow the open database and a running import, the about box; and the window's saved layout
// (geometry, state and splitters), fitted to the screen it comes back on.
#include "ui/shell/mainwindow.h"

#include "core/version.h"
#include "ui/probe/probedialog.h"
#include "ui/runs/runactions.h"
#include "ui/runs/runbrowserpage.h"
#include "ui/runs/trajectoryviewerpage.h"
#include "ui/shell/importjob.h"
#include "ui/shell/mainwindow_p.h"
#include "ui/shell/settings.h"
#include "ui/shell/workspace.h"

#include <QAction>
#include <QDir>
#include <QFileInfo>
#include <QGuiApplication>
#include <QKeySequence>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QScreen>
#include <QSplitter>
#include <QStatusBar>
#include <QUndoStack>

#include <algorithm>

namespace creditlab::ui {

void MainWindow::createMenus()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    m_openAction = file->addAction(tr("&Open Database…"), this, &MainWindow::chooseDatabase);
    m_openAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_O));
    m_importAction = file->addAction(tr("&Import JSONL…"), this, &MainWindow::chooseImportFiles);
    m_importAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_I));
    m_importOptionsAction = file->addAction(tr("Import with O&ptions…"), this, &MainWindow::chooseImportWithOptions);
    m_importOptionsAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_I));
    m_importOptionsAction->setStatusTip(
        tr("Name the format of the files, or describe another layout with a mapping file"));
    m_recentMenu = file->addMenu(tr("&Recent Databases"));
    rebuildRecentMenu();
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Q));
    quit->setMenuRole(QAction::QuitRole);

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    QAction* undo = m_undoStack->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    edit->addAction(undo);
    QAction* redo = m_undoStack->createRedoAction(this, tr("&Redo"));
    redo->setShortcut(QKeySequence::Redo);
    edit->addAction(redo);

    QMenu* run = menuBar()->addMenu(tr("R&un"));
    run->addActions(m_runActions->actions());
    run->addSeparator();
    QAction* probes = run->addAction(tr("PAIR &Probe Table…"), this, [this] {
        if (!m_workspace->isOpen()) {
            statusBar()->showMessage(tr("Open a database before computing a probe table."), kStatusTimeoutMs);
            return;
        }
        auto* dialog = new ProbeDialog(m_workspace, m_browser->currentRunId(), this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->show();
    });
    probes->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P));
    probes->setToolTip(tr("PAIR's AUROC table for a training run's policy (Ctrl+Shift+P)"));

    QMenu* view = menuBar()->addMenu(tr("&View"));
    const QStringList pages { tr("&Runs"), tr("&Launch"), tr("&Monitor"), tr("&Compare"), tr("S&weeps"), tr("Cre&dit"),
        tr("&Trees"), tr("A&nnotate"), tr("&Agreement") };
    for (int i = 0; i < pages.size(); ++i) {
        QAction* page = view->addAction(pages[i], this, [this, i] { showPage(static_cast<Page>(i)); });
        page->setShortcut(QKeySequence(Qt::CTRL | static_cast<Qt::Key>(Qt::Key_1 + i)));
    }
    view->addSeparator();
    m_refreshAction = view->addAction(tr("&Refresh"), m_workspace, &Workspace::notifyRunsChanged);
    m_refreshAction->setShortcut(QKeySequence(Qt::Key_F5));

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    QAction* about = help->addAction(tr("&About CreditLab"), this, &MainWindow::showAbout);
    about->setMenuRole(QAction::AboutRole);
}

void MainWindow::rebuildRecentMenu()
{
    m_recentMenu->clear();
    const QStringList recent = m_settings->recentDatabases();
    for (int i = 0; i < recent.size(); ++i) {
        const QString path = recent.at(i);
        // '&' in a path would otherwise become a mnemonic.
        QString label = QDir::toNativeSeparators(path).replace(u'&', QStringLiteral("&&"));
        if (i < 9)
            label = QStringLiteral("&%1 %2").arg(i + 1).arg(label);
        m_recentMenu->addAction(label, this, [this, path] { openDatabase(path); });
    }
    if (!recent.isEmpty()) {
        m_recentMenu->addSeparator();
        m_recentMenu->addAction(tr("&Clear Menu"), this, [this] {
            m_settings->clearRecentDatabases();
            rebuildRecentMenu();
        });
    }
    m_recentMenu->setEnabled(!recent.isEmpty());
}

void MainWindow::updateTitle()
{
    if (m_workspace->isOpen())
        setWindowTitle(tr("%1 – CreditLab").arg(QFileInfo(m_workspace->path()).fileName()));
    else
        setWindowTitle(tr("CreditLab"));
}

void MainWindow::updateActions()
{
    const bool importing = m_importJob->isRunning();
    m_openAction->setEnabled(!importing);
    m_recentMenu->setEnabled(!importing && !m_settings->recentDatabases().isEmpty());
    m_importAction->setEnabled(m_workspace->isOpen());
    m_importOptionsAction->setEnabled(m_workspace->isOpen());
    m_refreshAction->setEnabled(m_workspace->isOpen());
}

void MainWindow::saveLayout()
{
    m_settings->setMainWindowGeometry(saveGeometry());
    m_settings->setMainWindowState(saveState());
    if (auto* splitter = findChild<QSplitter*>(kMainSplitter))
        m_settings->setSplitterState(Settings::Splitter::Main, splitter->saveState());
    m_settings->setSplitterState(Settings::Splitter::Browser, m_browser->saveSplitterState());
    m_settings->setSplitterState(Settings::Splitter::Viewer, m_viewer->saveSplitterState());
    m_settings->sync();
}

void MainWindow::restoreLayout()
{
    if (!restoreGeometry(m_settings->mainWindowGeometry())) {
        // First start: a comfortable size that still fits small screens.
        QSize size(1360, 860);
        if (const QScreen* screen = QGuiApplication::primaryScreen())
            size = size.boundedTo(screen->availableGeometry().size() * 0.9);
        resize(size);
    } else if (!isMaximized() && !isFullScreen()) {
        fitToScreen();
    }
    restoreState(m_settings->mainWindowState());
    if (auto* splitter = findChild<QSplitter*>(kMainSplitter);
        !splitter->restoreState(m_settings->splitterState(Settings::Splitter::Main)))
        splitter->setSizes({ 820, 680 });
    m_browser->restoreSplitterState(m_settings->splitterState(Settings::Splitter::Browser));
    m_viewer->restoreSplitterState(m_settings->splitterState(Settings::Splitter::Viewer));
}

void MainWindow::fitToScreen()
{
    // A layout saved on a larger screen (1360 × 860 there, then a 1280 × 720 laptop) came back as it was: Qt keeps a
    // restored window that is partly on screen, so its bottom and right edge, the status bar included, were cut off.
    const QScreen* screen = QGuiApplication::screenAt(geometry().center());
    if (!screen)
        screen = QGuiApplication::primaryScreen();
    if (!screen)
        return;
    const QRect available = screen->availableGeometry();
    // Room for the window manager's frame, which is not known before the window is shown.
    const QSize frame(16, 48);
    const QSize size = this->size().boundedTo(available.size() - frame).expandedTo(minimumSizeHint());
    if (size != this->size())
        resize(size);
    const QPoint topLeft(std::clamp(x(), available.left(),
                             std::max(available.left(), available.right() + 1 - size.width() - frame.width())),
        std::clamp(
            y(), available.top(), std::max(available.top(), available.bottom() + 1 - size.height() - frame.height())));
    if (topLeft != pos())
        move(topLeft);
}

void MainWindow::showAbout()
{
    const QString database = m_workspace->isOpen() ? QDir::toNativeSeparators(m_workspace->path()) : tr("none");
    const QString text = tr("CreditLab %1\n"
                            "A workbench for credit assignment in agentic reinforcement learning.\n\n"
                            "Qt %2 (built with %3)\n"
                            "Database: %4\n"
                            "Schema version: %5")
                             .arg(QString::fromLatin1(kVersion), QString::fromLatin1(qVersion()),
                                 QStringLiteral(QT_VERSION_STR), database)
                             .arg(m_workspace->schemaVersion());
    auto* box = new QMessageBox(QMessageBox::Information, tr("About CreditLab"), text, QMessageBox::Ok, this);
    box->setObjectName(QStringLiteral("aboutBox"));
    box->setTextFormat(Qt::PlainText); // the path is data
    box->setIconPixmap(windowIcon().pixmap(64, 64));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

} // namespace creditlab::ui
