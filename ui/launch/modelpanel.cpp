#include "ui/launch/modelpanel.h"

#include "core/hf/modelfolder.h"
#include "core/hf/modelsummary.h"
#include "ui/common/textutil.h"

#include <QFileInfo>
#include <QFormLayout>
#include <QFutureWatcher>
#include <QLabel>
#include <QLocale>
#include <QTimer>
#include <QtConcurrent/QtConcurrentRun>

#include <exception>

namespace creditlab::ui {

namespace {

constexpr int kTypingDelayMs = 400;

/// What a read on the thread pool hands back: the summary, or why the folder cannot be used.
struct ReadResult {
    std::shared_ptr<const hf::ModelSummary> summary;
    QString error; ///< the folder does not open (or has no tokenizer.json); then summary is null
};

ReadResult readModel(const std::string& spec)
{
    ReadResult result;
    try {
        // The trainer needs the tokenizer too: without tokenizer.json the folder is refused here already.
        const hf::ModelFolder folder = hf::ModelFolder::open(spec, true);
        result.summary = std::make_shared<const hf::ModelSummary>(hf::summarizeModel(folder));
    } catch (const std::exception& e) {
        result.error = toQString(e.what());
    }
    return result;
}

/// Bytes in GiB, or in MiB below one GiB (a small model's files and estimate).
QString memoryText(double bytes)
{
    constexpr double kMiB = 1024.0 * 1024.0;
    if (bytes < 1024.0 * kMiB)
        return ModelPanel::tr("%1 MiB").arg(QLocale().toString(bytes / kMiB, 'f', bytes < 10 * kMiB ? 1 : 0));
    return ModelPanel::tr("%1 GiB").arg(QLocale().toString(bytes / (1024.0 * kMiB), 'f', 2));
}

QString count(std::int64_t n) { return QLocale().toString(static_cast<qint64>(n)); }

QLabel* valueLabel(QWidget* parent)
{
    auto* label = new QLabel(parent);
    label->setTextFormat(Qt::PlainText); // folder names, tokenizer descriptions and errors are data
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

} // namespace

ModelPanel::ModelPanel(QWidget* parent)
    : QFrame(parent)
    , m_delay(new QTimer(this))
    , m_form(new QFormLayout(this))
    , m_status(valueLabel(this))
    , m_architecture(valueLabel(this))
    , m_parameters(valueLabel(this))
    , m_shape(valueLabel(this))
    , m_context(valueLabel(this))
    , m_tokenizer(valueLabel(this))
    , m_template(valueLabel(this))
    , m_memory(valueLabel(this))
{
    setObjectName(QStringLiteral("modelPanel"));
    setFrameShape(QFrame::StyledPanel);
    m_status->setObjectName(QStringLiteral("modelStatus"));
    QFont bold = m_status->font();
    bold.setBold(true);
    m_status->setFont(bold);
    m_delay->setSingleShot(true);
    m_delay->setInterval(kTypingDelayMs);
    connect(m_delay, &QTimer::timeout, this, &ModelPanel::startReading);
    m_form->setContentsMargins(6, 4, 6, 4);
    m_form->setVerticalSpacing(2);
    m_form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    m_form->addRow(m_status);
    m_form->addRow(tr("Architecture:"), m_architecture);
    m_form->addRow(tr("Parameters:"), m_parameters);
    m_form->addRow(tr("Shape:"), m_shape);
    m_form->addRow(tr("Context:"), m_context);
    m_form->addRow(tr("Tokenizer:"), m_tokenizer);
    m_form->addRow(tr("Chat template:"), m_template);
    m_form->addRow(tr("Memory:"), m_memory);
    setState(State::Empty);
}

ModelPanel::~ModelPanel() = default;

void ModelPanel::setSpec(const QString& spec, bool immediately)
{
    const QString trimmed = spec.trimmed();
    // The same model again is not read again, unless it failed and is asked for at once (the folder may be fixed).
    if (trimmed == m_spec && m_state != State::Empty && !(immediately && m_state == State::Failed))
        return;
    m_spec = trimmed;
    ++m_generation; // whatever is being read now is for another spec
    m_summary.reset();
    m_error.clear();
    m_delay->stop();
    if (m_spec.isEmpty())
        return setState(State::Empty);
    setState(State::Reading);
    if (immediately)
        startReading();
    else
        m_delay->start();
}

void ModelPanel::startReading()
{
    const quint64 generation = m_generation;
    auto* watcher = new QFutureWatcher<ReadResult>(this);
    connect(watcher, &QFutureWatcher<ReadResult>::finished, this, [this, watcher, generation] {
        watcher->deleteLater();
        if (generation != m_generation)
            return; // a later setSpec() asked for another model
        const ReadResult result = watcher->result();
        m_summary = result.summary;
        m_error = result.error;
        if (m_summary && m_error.isEmpty()) {
            // The trainer builds its episodes from the tokenizer and the chat template: either failing is fatal.
            if (m_summary->tokenizer && !m_summary->tokenizer->error.empty())
                m_error = toQString(m_summary->tokenizer->error);
            else if (!m_summary->chatTemplate.error.empty())
                m_error = toQString(m_summary->chatTemplate.error);
        }
        setState(m_error.isEmpty() ? State::Ready : State::Failed);
    });
    watcher->setFuture(QtConcurrent::run([spec = m_spec.toStdString()] { return readModel(spec); }));
}

void ModelPanel::setState(State state)
{
    m_state = state;
    const bool shown = m_summary != nullptr;
    for (QLabel* label : { m_architecture, m_parameters, m_shape, m_context, m_tokenizer, m_template, m_memory })
        m_form->setRowVisible(label, shown);
    QPalette palette = m_status->palette();
    palette.setColor(QPalette::WindowText,
        state == State::Failed ? QColor(0xb0, 0x20, 0x20) : this->palette().color(QPalette::WindowText));
    m_status->setPalette(palette);
    switch (state) {
    case State::Empty:
        m_status->setText(tr("Choose a model folder (Browse…) or type a repository id from the local Hugging Face "
                             "cache (ORG/NAME)."));
        m_status->setToolTip({});
        break;
    case State::Reading:
        m_status->setText(tr("Reading %1…").arg(m_spec));
        m_status->setToolTip({});
        break;
    case State::Ready:
    case State::Failed:
        if (shown)
            showSummary();
        if (state == State::Failed)
            m_status->setText(tr("Cannot use this model: %1").arg(m_error));
        m_status->setToolTip(plainTooltip(m_summary ? toQString(m_summary->folder) : m_spec));
        break;
    }
    Q_EMIT stateChanged(state);
}

void ModelPanel::showSummary()
{
    const hf::ModelSummary& s = *m_summary;
    const hf::ModelConfig& c = s.config;
    // The folder by name; a repository id resolved through the cache shows as the id with its snapshot's path.
    const QString folder = toQString(s.folder);
    m_status->setText(
        QFileInfo(m_spec).isDir() ? QFileInfo(folder).fileName() : tr("%1 (from the Hugging Face cache)").arg(m_spec));
    m_architecture->setText(
        QStringLiteral("%1 (%2)").arg(QString::fromLatin1(hf::architectureName(c.arch)), toQString(c.modelType)));
    const QString dtype = QString::fromLatin1(hf::dtypeName(s.storedDType));
    const QString bytes = memoryText(static_cast<double>(s.weightBytes()));
    m_parameters->setText(s.weights.size() == 1
            ? tr("%1 (%2, one file, %3)").arg(count(c.parameterCount()), dtype, bytes)
            : tr("%1 (%2, %3 files, %4)")
                  .arg(count(c.parameterCount()), dtype, count(static_cast<std::int64_t>(s.weights.size())), bytes));
    m_shape->setText(tr("%1 layers, hidden %2 (MLP %3), %4 heads, %5 key/value heads")
                         .arg(c.layers)
                         .arg(c.hiddenSize)
                         .arg(c.intermediateSize)
                         .arg(c.heads)
                         .arg(c.kvHeads));
    m_context->setText(
        tr("%1 positions (rope %2)").arg(count(c.maxPositions), QString::fromLatin1(hf::ropeTypeName(c.rope.type))));
    if (!s.tokenizer)
        m_tokenizer->setText(tr("missing (tokenizer.json)"));
    else if (!s.tokenizer->error.empty())
        m_tokenizer->setText(toQString(s.tokenizer->error));
    else
        m_tokenizer->setText(tr("%1 ids: %2").arg(count(s.tokenizer->size), toQString(s.tokenizer->description)));
    if (!s.chatTemplate.error.empty()) {
        m_template->setText(toQString(s.chatTemplate.error));
        m_template->setToolTip({});
    } else {
        QString text
            = tr("%1, %2 characters")
                  .arg(toQString(s.chatTemplate.name), count(static_cast<std::int64_t>(s.chatTemplate.characters)));
        QString difference;
        if (s.chatEpisodes && s.chatEpisodes->appendOnly)
            text += tr("; episodes are append-only (the token stream equals the template's render)");
        else if (s.chatEpisodes && s.chatEpisodes->thinkOnly)
            text += tr("; episodes are not append-only: only <think> reasoning differs");
        else if (s.chatEpisodes)
            text += tr("; episodes are not append-only (the tooltip says where)");
        if (s.chatEpisodes && !s.chatEpisodes->appendOnly)
            difference = toQString(s.chatEpisodes->difference); // long: a template's text on both sides
        m_template->setText(text);
        m_template->setToolTip(difference.isEmpty() ? QString() : plainTooltip(difference));
    }
    updateMemory();
}

void ModelPanel::setRun(const Run& run)
{
    if (run == m_run)
        return;
    m_run = run;
    if (m_summary)
        updateMemory();
}

void ModelPanel::updateMemory()
{
    const hf::ModelConfig& c = m_summary->config;
    const auto total = [&](bool cuda) {
        const hf::MemoryQuery query = hf::runMemoryQuery(m_run.rows, m_run.context, m_run.finetune.toStdString(),
            m_run.loraRank, m_run.dtype.toStdString(), cuda, m_run.activationCheckpointing);
        return std::pair { hf::estimateMemory(c, query).total(), query.computeBytes == 2 };
    };
    const auto where = [&](bool cuda) {
        const auto [bytes, bf16] = total(cuda);
        return cuda ? (bf16 ? tr("%1 on CUDA in bf16") : tr("%1 on CUDA in fp32")).arg(memoryText(bytes))
                    : (bf16 ? tr("%1 on the CPU in bf16") : tr("%1 on the CPU in fp32")).arg(memoryText(bytes));
    };
    const QString estimate = m_run.cuda ? where(*m_run.cuda) : tr("%1, or %2").arg(where(true), where(false));
    const bool lora = m_run.finetune != QLatin1String("full");
    const QString training = lora
        ? tr("LoRA r=%1 trains %2 parameters").arg(m_run.loraRank).arg(count(hf::loraParameterCount(c, m_run.loraRank)))
        : tr("full fine-tuning");
    m_memory->setText(tr("about %1 (%2 sequences × %3 tokens, %4)")
                          .arg(estimate)
                          .arg(count(m_run.rows))
                          .arg(count(m_run.context))
                          .arg(training));
    m_memory->setToolTip(
        tr("A rough peak: weights, what trains (gradients, AdamW moments, fp32 master copies), the "
           "KV cache of rl.tasks × rl.group_size sequences of policy.context tokens, and activations."));
}

QString ModelPanel::text() const
{
    QStringList lines { m_status->text() };
    for (int row = 1; row < m_form->rowCount(); ++row) {
        if (!m_form->isRowVisible(row))
            continue;
        const auto* label = qobject_cast<QLabel*>(m_form->itemAt(row, QFormLayout::LabelRole)->widget());
        const auto* value = qobject_cast<QLabel*>(m_form->itemAt(row, QFormLayout::FieldRole)->widget());
        if (label && value)
            lines << label->text() + QLatin1Char(' ') + value->text();
    }
    return lines.join(QLatin1Char('\n'));
}

} // namespace creditlab::ui
