#include "ui/shell/importoptionsdialog.h"
#include "ui/common/filedialogs.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace creditlab::ui {

namespace {

struct FormatChoice {
    ImportFormat format;
    const char* label;
    const char* help;
};

// The chooser's entries, in order.
const FormatChoice kChoices[] = {
    { ImportFormat::Auto, QT_TRANSLATE_NOOP("creditlab::ui::ImportOptionsDialog", "Detect from the first record"),
        QT_TRANSLATE_NOOP("creditlab::ui::ImportOptionsDialog",
            "Each file's format is told from its first record, as File → Import does: ours, the trainers' formats "
            "below, "
            "and public logs (tau-bench, FireAct, SWE-agent, ReAct, WebShop sessions, AgentGym episodes).") },
    { ImportFormat::Native, QT_TRANSLATE_NOOP("creditlab::ui::ImportOptionsDialog", "CreditLab JSONL"),
        QT_TRANSLATE_NOOP("creditlab::ui::ImportOptionsDialog",
            "One trajectory per line: id, group, reward and turns, as CreditLab exports them.") },
    { ImportFormat::Chat, QT_TRANSLATE_NOOP("creditlab::ui::ImportOptionsDialog", "Chat records (OpenAI messages)"),
        QT_TRANSLATE_NOOP("creditlab::ui::ImportOptionsDialog",
            "A messages (or chat_completions) array per line; each assistant message is a turn's action.") },
    { ImportFormat::ShareGpt, QT_TRANSLATE_NOOP("creditlab::ui::ImportOptionsDialog", "ShareGPT / AgentGym"),
        QT_TRANSLATE_NOOP("creditlab::ui::ImportOptionsDialog",
            "A conversations array of from/value messages per line; gpt messages are actions.") },
    { ImportFormat::Verl, QT_TRANSLATE_NOOP("creditlab::ui::ImportOptionsDialog", "verl rollout dump"),
        QT_TRANSLATE_NOOP("creditlab::ui::ImportOptionsDialog",
            "input, output, score and step per line; the output is split into turns at its chat template's markers "
            "(ChatML and Llama 3 are recognised; give others below).") },
    { ImportFormat::Steps, QT_TRANSLATE_NOOP("creditlab::ui::ImportOptionsDialog", "Per-step rows (verl-agent)"),
        QT_TRANSLATE_NOOP("creditlab::ui::ImportOptionsDialog",
            "One row per step with a trajectory id and a step index; rows are put back together into trajectories.") },
    { ImportFormat::Mapped,
        QT_TRANSLATE_NOOP("creditlab::ui::ImportOptionsDialog", "Any other layout, with a mapping file"),
        QT_TRANSLATE_NOOP("creditlab::ui::ImportOptionsDialog",
            "A YAML file names the source field for each of ours (id, group, reward, turns, observation, action, "
            "...); see docs/import-formats.md.") },
};

} // namespace

ImportOptionsDialog::ImportOptionsDialog(const QString& startDirectory, QWidget* parent)
    : QDialog(parent)
    , m_startDirectory(startDirectory)
    , m_files(new QLineEdit(this))
    , m_format(new QComboBox(this))
    , m_formatHelp(new QLabel(this))
    , m_map(new QLineEdit(this))
    , m_mapBrowse(new QPushButton(tr("Browse…"), this))
    , m_begin(new QLineEdit(this))
    , m_end(new QLineEdit(this))
    , m_groupBy(new QLineEdit(this))
    , m_renameDuplicates(
          new QCheckBox(tr("Read a repeated key as source.<name> (files exported before 2026-11-29)"), this))
    , m_problem(new QLabel(this))
    , m_buttons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this))
{
    setWindowTitle(tr("Import with Options"));
    m_files->setReadOnly(true);
    m_files->setPlaceholderText(tr("No file chosen"));
    auto* filesBrowse = new QPushButton(tr("&Choose…"), this);
    auto* filesRow = new QHBoxLayout;
    filesRow->addWidget(m_files, 1);
    filesRow->addWidget(filesBrowse);

    for (const FormatChoice& c : kChoices)
        m_format->addItem(tr(c.label));
    m_formatHelp->setWordWrap(true);
    m_formatHelp->setTextFormat(Qt::PlainText);

    m_map->setPlaceholderText(tr("mapping.yaml"));
    auto* mapRow = new QHBoxLayout;
    mapRow->addWidget(m_map, 1);
    mapRow->addWidget(m_mapBrowse);

    m_begin->setPlaceholderText(QStringLiteral("<|im_start|>"));
    m_end->setPlaceholderText(QStringLiteral("<|im_end|>"));
    auto* markersRow = new QHBoxLayout;
    markersRow->addWidget(m_begin, 1);
    markersRow->addWidget(m_end, 1);

    auto* form = new QFormLayout;
    form->addRow(tr("&Files:"), filesRow);
    form->addRow(tr("F&ormat:"), m_format);
    form->addRow(QString(), m_formatHelp);
    form->addRow(tr("&Mapping file:"), mapRow);
    form->addRow(tr("Template ma&rkers:"), markersRow);
    m_groupBy->setObjectName(QStringLiteral("importGroupBy"));
    m_renameDuplicates->setObjectName(QStringLiteral("importRenameDuplicates"));
    m_groupBy->setPlaceholderText(tr("the format's own groups; or a source field such as task_id"));
    m_groupBy->setToolTip(tr("Every trajectory's group becomes this source field, so that several trials of one task "
                             "are compared (--group-by)."));
    form->addRow(tr("&Group by field:"), m_groupBy);
    form->addRow(QString(), m_renameDuplicates);
    static_cast<QLabel*>(form->labelForField(mapRow))->setBuddy(m_map);
    static_cast<QLabel*>(form->labelForField(markersRow))->setBuddy(m_begin);
    static_cast<QLabel*>(form->labelForField(filesRow))->setBuddy(filesBrowse);

    m_problem->setWordWrap(true);
    m_problem->setTextFormat(Qt::PlainText);
    m_problem->setObjectName(QStringLiteral("importOptionsProblem"));
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_problem);
    layout->addWidget(m_buttons);

    connect(filesBrowse, &QPushButton::clicked, this, &ImportOptionsDialog::chooseFiles);
    connect(m_mapBrowse, &QPushButton::clicked, this, &ImportOptionsDialog::chooseMap);
    connect(m_format, &QComboBox::currentIndexChanged, this, &ImportOptionsDialog::update);
    for (QLineEdit* edit : { m_map, m_begin, m_end })
        connect(edit, &QLineEdit::textChanged, this, &ImportOptionsDialog::update);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    // The dialog grows with the format's description (some are three lines at this width), never cutting it.
    layout->setSizeConstraint(QLayout::SetMinimumSize);
    m_formatHelp->setMinimumWidth(480);
    // A form layout does not grow a wrapped label's row with the text (no height-for-width there): reserve the
    // longest description's three lines.
    m_formatHelp->setMinimumHeight(m_formatHelp->fontMetrics().lineSpacing() * 3 + 4);
    m_formatHelp->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    update();
    resize(700, sizeHint().height());
}

void ImportOptionsDialog::setFiles(const QStringList& files)
{
    m_fileList = files;
    QStringList names;
    for (const QString& f : files)
        names << QFileInfo(f).fileName();
    m_files->setText(names.join(QStringLiteral(", ")));
    m_files->setToolTip(files.join(QLatin1Char('\n')));
    update();
}

QStringList ImportOptionsDialog::files() const { return m_fileList; }

void ImportOptionsDialog::setFormat(ImportFormat format)
{
    for (int i = 0; i < static_cast<int>(std::size(kChoices)); ++i)
        if (kChoices[i].format == format)
            m_format->setCurrentIndex(i);
}

void ImportOptionsDialog::setMapFile(const QString& path) { m_map->setText(path); }

void ImportOptionsDialog::setMarkers(const QString& begin, const QString& end)
{
    m_begin->setText(begin);
    m_end->setText(end);
}

ImportOptions ImportOptionsDialog::options() const
{
    ImportOptions o;
    o.format = kChoices[std::max(0, m_format->currentIndex())].format;
    if (o.format == ImportFormat::Mapped)
        o.mapPath = m_map->text().trimmed().toStdString();
    if (o.format == ImportFormat::Verl && !m_begin->text().isEmpty())
        o.markers = TemplateMarkers { m_begin->text().toStdString(), m_end->text().toStdString() };
    o.groupBy = m_groupBy->text().trimmed().toStdString();
    o.renameDuplicates = m_renameDuplicates->isChecked();
    return o;
}

QString ImportOptionsDialog::problem() const
{
    if (m_fileList.isEmpty())
        return tr("Choose the files to import.");
    const ImportFormat format = kChoices[std::max(0, m_format->currentIndex())].format;
    if (format == ImportFormat::Mapped) {
        const QString map = m_map->text().trimmed();
        if (map.isEmpty())
            return tr("Choose the mapping file that describes these files.");
        if (!QFileInfo(map).isFile())
            return tr("%1: no such file.").arg(map);
    }
    if (format == ImportFormat::Verl && m_begin->text().isEmpty() != m_end->text().isEmpty())
        return tr("Give both markers (where a message begins and where it ends), or neither to recognise the template.");
    return {};
}

void ImportOptionsDialog::chooseFiles()
{
    const QString start = m_fileList.isEmpty() ? m_startDirectory : QFileInfo(m_fileList.constLast()).absolutePath();
    const QStringList chosen = filedialogs::getOpenFileNames(
        this, tr("Import Trajectories"), start, tr("JSON Lines (*.jsonl *.json);;All files (*)"));
    if (!chosen.isEmpty())
        setFiles(chosen);
}

void ImportOptionsDialog::chooseMap()
{
    const QString start = m_fileList.isEmpty() ? m_startDirectory : QFileInfo(m_fileList.constLast()).absolutePath();
    const QString chosen
        = filedialogs::getOpenFileName(this, tr("Mapping File"), start, tr("YAML (*.yaml *.yml);;All files (*)"));
    if (!chosen.isEmpty())
        m_map->setText(chosen);
}

void ImportOptionsDialog::update()
{
    const ImportFormat format = kChoices[std::max(0, m_format->currentIndex())].format;
    m_formatHelp->setText(tr(kChoices[std::max(0, m_format->currentIndex())].help));
    const bool mapped = format == ImportFormat::Mapped;
    m_map->setEnabled(mapped);
    m_mapBrowse->setEnabled(mapped);
    m_begin->setEnabled(format == ImportFormat::Verl);
    m_end->setEnabled(format == ImportFormat::Verl);
    const QString why = problem();
    m_problem->setText(why);
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(why.isEmpty());
}

} // namespace creditlab::ui
