#pragma once

#include <QObject>
#include <QString>

namespace creditlab::ui {

/// Forwards spdlog messages to the GUI: install() puts a sink on the default logger (and on loggers cloned
/// from it later, such as the trainer's "train"), and every message arrives as messageLogged() on the GUI
/// thread through a queued call, from whatever thread logged it. The bridge lives on the GUI thread.
class LogBridge : public QObject {
    Q_OBJECT
public:
    /// The application-wide bridge (created on first use, on the calling thread: call it first from the GUI
    /// thread).
    static LogBridge* instance();
    /// Adds the Qt sink to spdlog's default logger, with stderr kept, at level info. Idempotent.
    static void install();

    /// Called by the sink, on any thread.
    void post(int level, const QString& loggerName, const QString& text);

Q_SIGNALS:
    /// `level` is spdlog's (0 trace … 6 off).
    void messageLogged(int level, const QString& loggerName, const QString& text);

private:
    explicit LogBridge(QObject* parent = nullptr);
};

} // namespace creditlab::ui
