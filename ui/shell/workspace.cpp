#include "ui/shell/workspace.h"

#include "core/learn/api/trainconfig.h"
#include "ui/common/textutil.h"

#include <QFileInfo>
#include <QTimer>

#include <algorithm>
#include <exception>

namespace creditlab::ui {

Workspace::Workspace(QObject* parent)
    : QObject(parent)
    , m_pollTimer(new QTimer(this))
{
    m_pollTimer->setInterval(1000);
    connect(m_pollTimer, &QTimer::timeout, this, &Workspace::poll);
}

void Workspace::setPollInterval(int milliseconds)
{
    m_pollTimer->stop();
    m_pollTimer->setInterval(std::max(0, milliseconds));
    if (milliseconds > 0 && m_store)
        m_pollTimer->start();
}

void Workspace::poll()
{
    if (!m_store)
        return;
    try {
        // data_version changes when another connection (in this process or another) commits: cheap, no scan.
        const qint64 version = m_store->database().scalarInt("PRAGMA data_version");
        if (m_dataVersion >= 0 && version != m_dataVersion)
            emitRunsChanged();
        m_dataVersion = version;
    } catch (const std::exception&) {
        // A busy or vanished file: try again on the next tick.
    }
}

Workspace::~Workspace() = default;

bool Workspace::open(const QString& path, QString* errorMessage)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    try {
        // Open the new one first: a refused file must leave the current database in place.
        auto store = std::make_unique<Store>(absolute.toStdString());
        Q_EMIT aboutToReplace();
        m_store = std::move(store);
        m_path = absolute;
        m_dataVersion = -1;
        m_runs.reset();
        m_pretrained.clear();
        m_postedConfigs.clear();
        m_configRead.clear();
        poll(); // the baseline: commits from now on are news
        if (m_pollTimer->interval() > 0)
            m_pollTimer->start();
    } catch (const std::exception& error) {
        if (errorMessage)
            *errorMessage = toQString(error.what());
        return false;
    }
    Q_EMIT opened(m_path);
    return true;
}

int Workspace::schemaVersion() const
{
    if (!m_store)
        return 0;
    try {
        return m_store->schemaVersion();
    } catch (const std::exception&) {
        return 0;
    }
}

void Workspace::notifyRunsChanged() { emitRunsChanged(); }

void Workspace::notifyLabelsChanged() { Q_EMIT labelsChanged(); }

void Workspace::emitRunsChanged()
{
    m_runs.reset();
    Q_EMIT runsChanged();
}

const std::vector<RunInfo>& Workspace::runs()
{
    if (!m_runs)
        m_runs = m_store ? m_store->runs() : std::vector<RunInfo> {};
    return *m_runs;
}

const QHash<qint64, QString>& Workspace::pretrainedModels()
{
    readConfigs();
    return m_pretrained;
}

const QHash<qint64, QString>& Workspace::postedConfigs()
{
    readConfigs();
    return m_postedConfigs;
}

void Workspace::readConfigs()
{
    if (!m_store)
        return;
    for (const RunInfo& run : runs()) {
        if (m_configRead.contains(run.id))
            continue;
        try {
            const std::optional<std::string> config = m_store->runConfig(run.id);
            m_configRead.insert(run.id);
            if (!config)
                continue;
            if (run.kind == RunKind::Import) {
                // Only a posted run has one: serve's POST /v1/runs keeps its "config" object as JSON.
                m_postedConfigs.insert(run.id, toQString(*config));
                continue;
            }
            // Stored configs have one "policy.pretrained: ..." line (TrainConfig::toYaml); most runs name no model.
            if (config->find("policy.pretrained") == std::string::npos)
                continue;
            for (const learn::ConfigEntry& entry : learn::flattenYaml(*config, "stored config"))
                if (entry.key == "policy.pretrained" && !entry.value.empty())
                    m_pretrained.insert(run.id, toQString(entry.value));
        } catch (const std::exception&) {
            // An unreadable config names no model; the run lists show the built-in shape the store recorded.
        }
    }
}

} // namespace creditlab::ui
