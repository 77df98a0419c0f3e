#include "ui/launch/paramform.h"

#include "ui/common/textutil.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QStyle>
#include <QToolButton>
#include <QVBoxLayout>

#include <exception>

namespace creditlab::ui {

namespace {

/// Validates one value against its spec; empty when fine, else the reason (naming the key).
QString validate(const QString& key, const credit::ParamSpec& spec, const QString& text)
{
    return toQString(credit::checkValue(key.toStdString(), spec, text.toStdString()));
}

/// `note`, when given, comes first (why the key is disabled).
QString tooltipFor(const QString& key, const credit::ParamSpec& spec, const QString& note = {})
{
    QString tip = note.isEmpty() ? QString() : note + QStringLiteral("\n\n");
    tip += QStringLiteral("%1 (%2").arg(key, toQString(spec.typeName()));
    if (!spec.rangeText().empty())
        tip += QStringLiteral(" in %1").arg(toQString(spec.rangeText()));
    tip += QStringLiteral(")\n%1\n").arg(toQString(spec.doc));
    tip += ParamForm::tr("Default: %1")
               .arg(spec.defaultValue.empty() ? ParamForm::tr("(empty)") : toQString(spec.defaultValue));
    return plainTooltip(tip);
}

} // namespace

ParamForm::ParamForm(QWidget* parent)
    : QWidget(parent)
    , m_layout(new QVBoxLayout(this))
{
    m_layout->setContentsMargins(0, 0, 0, 0);
    m_layout->addStretch(1);
}

void ParamForm::setSections(std::vector<Section> sections)
{
    QHash<QString, QString> kept;
    for (const QString& key : std::as_const(m_order))
        if (!isDefault(key))
            kept.insert(key, value(key));
    for (QWidget* group : m_groups)
        delete group;
    m_groups.clear();
    m_rows.clear();
    m_order.clear();

    int position = 0;
    for (const Section& section : sections) {
        if (section.specs.empty())
            continue;
        auto* group = new QGroupBox(section.title, this);
        auto* form = new QFormLayout(group);
        form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
        form->setLabelAlignment(Qt::AlignRight | Qt::AlignVCenter);
        for (const auto& spec : section.specs) {
            const QString key = toQString(section.prefix + spec.name);
            Row row;
            row.spec = spec;
            row.editor = makeEditor(key, spec);
            row.label = new QLabel(key, group);
            row.label->setTextFormat(Qt::PlainText);
            row.reset = new QToolButton(group);
            row.reset->setIcon(style()->standardIcon(QStyle::SP_BrowserReload));
            row.reset->setAutoRaise(true);
            row.reset->setToolTip(tr("Reset %1 to its default (%2)").arg(key, toQString(spec.defaultValue)));
            connect(row.reset, &QToolButton::clicked, this, [this, key] { resetValue(key); });
            row.field = new QWidget(group);
            auto* line = new QHBoxLayout(row.field);
            line->setContentsMargins(0, 0, 0, 0);
            line->addWidget(row.editor, 1);
            line->addWidget(row.reset);
            const QString tip = tooltipFor(key, spec);
            row.label->setToolTip(tip);
            row.editor->setToolTip(tip);
            row.form = form;
            row.group = group;
            form->addRow(row.label, row.field);
            m_rows.insert(key, row);
            m_order.append(key);
            refreshRow(key);
        }
        m_layout->insertWidget(position++, group);
        m_groups.push_back(group);
    }
    for (auto it = kept.cbegin(); it != kept.cend(); ++it)
        if (m_rows.contains(it.key()))
            setValue(it.key(), it.value());
    setFilter(m_filter);
}

QWidget* ParamForm::makeEditor(const QString& key, const credit::ParamSpec& spec)
{
    switch (spec.type) {
    case credit::ParamType::Bool: {
        auto* box = new QCheckBox(this);
        box->setChecked(spec.defaultValue == "true");
        connect(box, &QCheckBox::toggled, this, [this, key] {
            refreshRow(key);
            Q_EMIT valueChanged(key);
        });
        return box;
    }
    case credit::ParamType::Choice: {
        auto* combo = new QComboBox(this);
        for (const auto& choice : spec.choices)
            combo->addItem(toQString(choice));
        combo->setCurrentText(toQString(spec.defaultValue));
        connect(combo, &QComboBox::currentTextChanged, this, [this, key] {
            refreshRow(key);
            Q_EMIT valueChanged(key);
        });
        return combo;
    }
    default: {
        auto* edit = new QLineEdit(toQString(spec.defaultValue), this);
        edit->setPlaceholderText(spec.type == credit::ParamType::Text ? tr("(empty)") : QString());
        connect(edit, &QLineEdit::textChanged, this, [this, key] {
            refreshRow(key);
            Q_EMIT valueChanged(key);
        });
        return edit;
    }
    }
}

QString ParamForm::editorText(const Row& row) const
{
    if (auto* box = qobject_cast<QCheckBox*>(row.editor))
        return box->isChecked() ? QStringLiteral("true") : QStringLiteral("false");
    if (auto* combo = qobject_cast<QComboBox*>(row.editor))
        return combo->currentText();
    return static_cast<QLineEdit*>(row.editor)->text().trimmed();
}

void ParamForm::setEditorText(Row& row, const QString& text)
{
    if (auto* box = qobject_cast<QCheckBox*>(row.editor)) {
        const QString t = text.trimmed().toLower();
        box->setChecked(t == QLatin1String("true") || t == QLatin1String("1") || t == QLatin1String("yes")
            || t == QLatin1String("on"));
    } else if (auto* combo = qobject_cast<QComboBox*>(row.editor)) {
        combo->setCurrentText(text);
    } else {
        static_cast<QLineEdit*>(row.editor)->setText(text);
    }
}

void ParamForm::refreshRow(const QString& key)
{
    auto it = m_rows.find(key);
    if (it == m_rows.end())
        return;
    Row& row = *it;
    const QString text = editorText(row);
    row.error = validate(key, row.spec, text);
    const bool changed = !isDefault(key);
    QFont font = row.label->font();
    font.setBold(changed);
    row.label->setFont(font);
    row.reset->setEnabled(changed);
    if (auto* edit = qobject_cast<QLineEdit*>(row.editor)) {
        edit->setStyleSheet(row.error.isEmpty() ? QString() : QStringLiteral("QLineEdit { background: #f8d7da; }"));
        edit->setToolTip(row.error.isEmpty() ? row.label->toolTip() : plainTooltip(row.error));
    }
}

QStringList ParamForm::keys() const { return m_order; }

QString ParamForm::value(const QString& key) const
{
    const auto it = m_rows.constFind(key);
    return it == m_rows.cend() ? QString() : editorText(*it);
}

bool ParamForm::setValue(const QString& key, const QString& text, QString* error)
{
    auto it = m_rows.find(key);
    if (it == m_rows.end()) {
        if (error)
            *error = tr("unknown key '%1'").arg(key);
        return false;
    }
    if (auto* combo = qobject_cast<QComboBox*>(it->editor); combo && combo->findText(text) < 0) {
        if (error)
            *error = tr("%1: '%2' is not one of %3").arg(key, text, toQString(it->spec.typeName()));
        return false;
    }
    if (qobject_cast<QCheckBox*>(it->editor)) {
        if (const QString reason = validate(key, it->spec, text); !reason.isEmpty()) {
            if (error)
                *error = reason;
            return false;
        }
    }
    setEditorText(*it, text);
    refreshRow(key);
    if (error)
        *error = it->error;
    return it->error.isEmpty();
}

QString ParamForm::defaultValue(const QString& key) const
{
    const auto it = m_rows.constFind(key);
    return it == m_rows.cend() ? QString() : toQString(it->spec.defaultValue);
}

bool ParamForm::isDefault(const QString& key) const
{
    const auto it = m_rows.constFind(key);
    if (it == m_rows.cend())
        return true;
    const QString text = editorText(*it);
    const QString def = toQString(it->spec.defaultValue);
    if (text == def)
        return true;
    if (it->spec.type == credit::ParamType::Int || it->spec.type == credit::ParamType::Double) {
        bool a = false, b = false;
        const double x = text.toDouble(&a);
        const double y = def.toDouble(&b);
        return a && b && x == y;
    }
    return false;
}

void ParamForm::resetValue(const QString& key) { setValue(key, defaultValue(key)); }

void ParamForm::resetAll()
{
    for (const QString& key : std::as_const(m_order))
        resetValue(key);
}

std::vector<std::pair<std::string, std::string>> ParamForm::changedValues() const
{
    std::vector<std::pair<std::string, std::string>> out;
    for (const QString& key : m_order)
        if (!isDefault(key))
            out.emplace_back(key.toStdString(), value(key).toStdString());
    return out;
}

QStringList ParamForm::invalidKeys(QStringList* reasons) const
{
    QStringList out;
    for (const QString& key : m_order) {
        const Row& row = m_rows[key];
        if (!row.error.isEmpty()) {
            out.append(key);
            if (reasons)
                reasons->append(row.error);
        }
    }
    return out;
}

void ParamForm::setKeyEnabled(const QString& key, bool enabled, const QString& why)
{
    const auto it = m_rows.constFind(key);
    if (it == m_rows.cend())
        return;
    it->field->setEnabled(enabled);
    it->label->setToolTip(tooltipFor(key, it->spec, enabled ? QString() : why));
    it->label->setEnabled(enabled);
    if (it->error.isEmpty())
        it->editor->setToolTip(it->label->toolTip());
}

bool ParamForm::isKeyEnabled(const QString& key) const
{
    const auto it = m_rows.constFind(key);
    return it != m_rows.cend() && it->field->isEnabled();
}

void ParamForm::setFilter(const QString& text)
{
    m_filter = text.trimmed();
    QHash<QWidget*, bool> groupVisible;
    for (const QString& key : std::as_const(m_order)) {
        const Row& row = m_rows[key];
        const bool match = m_filter.isEmpty() || key.contains(m_filter, Qt::CaseInsensitive)
            || toQString(row.spec.doc).contains(m_filter, Qt::CaseInsensitive);
        row.form->setRowVisible(row.field, match);
        groupVisible[row.group] = groupVisible.value(row.group, false) || match;
    }
    for (QWidget* group : m_groups)
        group->setVisible(groupVisible.value(group, false));
}

} // namespace creditlab::ui
