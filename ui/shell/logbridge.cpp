#include "ui/shell/logbridge.h"

#include <QCoreApplication>
#include <QMetaObject>

#include <spdlog/sinks/base_sink.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <mutex>

namespace creditlab::ui {

namespace {

/// The spdlog sink: formats nothing itself (the pane shows time and level), posts to the bridge.
class QtSink : public spdlog::sinks::base_sink<std::mutex> {
protected:
    void sink_it_(const spdlog::details::log_msg& msg) override
    {
        LogBridge::instance()->post(static_cast<int>(msg.level),
            QString::fromUtf8(msg.logger_name.data(), static_cast<qsizetype>(msg.logger_name.size())),
            QString::fromUtf8(msg.payload.data(), static_cast<qsizetype>(msg.payload.size())));
    }
    void flush_() override { }
};

} // namespace

LogBridge::LogBridge(QObject* parent)
    : QObject(parent)
{
}

LogBridge* LogBridge::instance()
{
    static LogBridge* bridge = [] {
        auto* b = new LogBridge;
        if (QCoreApplication::instance())
            b->setParent(QCoreApplication::instance());
        return b;
    }();
    return bridge;
}

void LogBridge::install()
{
    static std::once_flag once;
    std::call_once(once, [] {
        instance();
        auto logger = std::make_shared<spdlog::logger>("gui",
            spdlog::sinks_init_list { std::make_shared<spdlog::sinks::stderr_color_sink_mt>(),
                std::make_shared<QtSink>() });
        logger->set_level(spdlog::level::info);
        // Existing loggers keep their sinks; the trainer's "train" logger is cloned from the default one on first use.
        spdlog::set_default_logger(logger);
    });
}

void LogBridge::post(int level, const QString& loggerName, const QString& text)
{
    QMetaObject::invokeMethod(
        this, [this, level, loggerName, text] { Q_EMIT messageLogged(level, loggerName, text); }, Qt::QueuedConnection);
}

} // namespace creditlab::ui
