#pragma once

#include "core/interchange/importformats.h"

#include <QDialog>
#include <QStringList>

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QPushButton;

namespace creditlab::ui {

/// File → Import with Options… (Ctrl+Shift+I): the files, and how to read them when detection is not enough: a
/// named format, a mapping file (YAML, docs/import-formats.md) for any other layout, or a verl dump's chat
/// template markers. OK is enabled only when the choice can be imported; what is missing is said below the form.
class ImportOptionsDialog : public QDialog {
    Q_OBJECT
public:
    explicit ImportOptionsDialog(const QString& startDirectory, QWidget* parent = nullptr);

    void setFiles(const QStringList& files);
    QStringList files() const;
    /// The format index in the chooser's order: detect, native, chat, ShareGPT, verl, steps, mapping file.
    void setFormat(ImportFormat format);
    void setMapFile(const QString& path);
    void setMarkers(const QString& begin, const QString& end);
    ImportOptions options() const;
    /// What stops OK, or empty when nothing does.
    QString problem() const;

private:
    void chooseFiles();
    void chooseMap();
    void update();

    QString m_startDirectory;
    QLineEdit* m_files;
    QComboBox* m_format;
    QLabel* m_formatHelp;
    QLineEdit* m_map;
    QPushButton* m_mapBrowse;
    QLineEdit* m_begin;
    QLineEdit* m_end;
    QLineEdit* m_groupBy;
    QCheckBox* m_renameDuplicates;
    QLabel* m_problem;
    QDialogButtonBox* m_buttons;
    QStringList m_fileList;
};

} // namespace creditlab::ui
