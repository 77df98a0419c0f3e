// creditlab: the desktop workbench. Usage: creditlab [DATABASE]
#include "core/learn/api/runtime.h"
#include "core/storage/paths.h"
#include "core/version.h"
#include "ui/common/textutil.h"
#include "ui/shell/mainwindow.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QIcon>
#include <QLibraryInfo>
#include <QLocale>
#include <QMessageBox>
#include <QTranslator>

namespace {

/// Installs CreditLab's own translation for the system locale and Qt's for its dialogs.
void installTranslators(QApplication& app)
{
    const QLocale locale = QLocale::system();
    // English plural forms first ("1 trial", "18 trials" for "%n trial(s)"): translators installed later are asked
    // first, so a locale with its own translation takes its plurals from that.
    auto* english = new QTranslator(&app);
    if (english->load(QStringLiteral("creditlab_en"), QStringLiteral(":/i18n")))
        QApplication::installTranslator(english);
    auto* own = new QTranslator(&app);
    // QTranslator::load(QLocale, ...) tries every UI language of the locale ("de_DE", "de", ...).
    if (own->load(locale, QStringLiteral("creditlab"), QStringLiteral("_"), QStringLiteral(":/i18n")))
        QApplication::installTranslator(own);
    auto* qt = new QTranslator(&app);
    if (qt->load(
            locale, QStringLiteral("qtbase"), QStringLiteral("_"), QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        QApplication::installTranslator(qt);
}

} // namespace

int main(int argc, char** argv)
{
    // Before any thread exists: glibc's allocator thresholds. OpenMP's wait policy cannot be set here: Qt Core loads
    // libgomp (through libb2), which reads it before main(); linking prepareProcess() brings a hook that sets it
    // earlier (core/learn/api/process.cpp).
    creditlab::learn::prepareProcess();
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("CreditLab"));
    QApplication::setApplicationName(QStringLiteral("creditlab"));
    QApplication::setApplicationDisplayName(QStringLiteral("CreditLab"));
    QApplication::setApplicationVersion(QString::fromLatin1(creditlab::kVersion));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/creditlab.svg")));
    installTranslators(app);

    QCommandLineParser parser;
    parser.setApplicationDescription(QApplication::translate(
        "main", "CreditLab: a workbench for credit assignment in agentic reinforcement learning."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("database"),
        QApplication::translate("main", "The database to open; default: %1")
            .arg(creditlab::ui::toQString(creditlab::defaultDatabasePath())),
        QStringLiteral("[DATABASE]"));
    parser.process(app);

    const QStringList positional = parser.positionalArguments();
    if (positional.size() > 1) {
        qCritical("%s", qPrintable(QApplication::translate("main", "Give at most one database.")));
        return 2;
    }
    const QString database
        = positional.isEmpty() ? creditlab::ui::toQString(creditlab::defaultDatabasePath()) : positional.first();

    creditlab::ui::MainWindow window;
    QString error;
    if (!window.openDatabase(database, &error)) {
        QMessageBox box(
            QMessageBox::Critical, QApplication::translate("main", "Cannot open database"), error, QMessageBox::Ok);
        box.setTextFormat(Qt::PlainText);
        box.exec();
        return 1;
    }
    window.show();
    return QApplication::exec();
}
