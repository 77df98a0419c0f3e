#include "ui/workspace.h"

#include "ui/textutil.h"

#include <QFileInfo>

#include <exception>

namespace creditlab::ui {

Workspace::Workspace(QObject* parent)
    : QObject(parent)
{
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

void Workspace::notifyRunsChanged() { Q_EMIT runsChanged(); }

} // namespace creditlab::ui
