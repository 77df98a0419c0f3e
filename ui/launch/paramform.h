#pragma once

#include "core/credit/params.h"

#include <QHash>
#include <QString>
#include <QWidget>

#include <string>
#include <utility>
#include <vector>

class QFormLayout;
class QLabel;
class QToolButton;
class QVBoxLayout;

namespace creditlab::ui {

/// A form generated from parameter metadata (credit::ParamSpec): one editor per key chosen by its type (check
/// box, choice list, or a line edit validated against the spec's range), the doc, type, range and default as
/// the tooltip, changed values in bold, a reset-to-default button per key, grouped in titled sections and
/// filterable by text. Keys are full dotted config keys ("rl.lr", "credit.alpha"). GUI thread only.
class ParamForm : public QWidget {
    Q_OBJECT
public:
    struct Section {
        QString title;
        std::string prefix; ///< prepended to each spec's name to form the key ("credit." or "")
        std::vector<credit::ParamSpec> specs;
    };

    explicit ParamForm(QWidget* parent = nullptr);

    /// Rebuilds the form. Values of keys that exist before and after are kept.
    void setSections(std::vector<Section> sections);

    bool hasKey(const QString& key) const { return m_rows.contains(key); }
    QStringList keys() const;
    /// The current text of a key (its default when untouched); empty for an unknown key.
    QString value(const QString& key) const;
    /// Sets a key's text; returns false with a reason naming the key for an unknown key or a bad value (the
    /// editor then shows the bad text marked invalid).
    bool setValue(const QString& key, const QString& text, QString* error = nullptr);
    QString defaultValue(const QString& key) const;
    bool isDefault(const QString& key) const;
    void resetValue(const QString& key);
    void resetAll();
    /// The keys whose values differ from their defaults, in form order, as (key, text).
    std::vector<std::pair<std::string, std::string>> changedValues() const;
    /// Keys whose editor holds a value that does not validate, with the reason.
    QStringList invalidKeys(QStringList* reasons = nullptr) const;
    /// Shows only rows whose key or doc contains `text` (case-insensitive); sections without a match hide.
    void setFilter(const QString& text);
    /// Enables or disables a key's editor and reset button; `why` (when disabled) is added to its tooltip. A key's
    /// state lasts until the next setSections().
    void setKeyEnabled(const QString& key, bool enabled, const QString& why = {});
    bool isKeyEnabled(const QString& key) const;

Q_SIGNALS:
    void valueChanged(const QString& key);

private:
    struct Row {
        credit::ParamSpec spec;
        QWidget* editor = nullptr;
        QLabel* label = nullptr;
        QToolButton* reset = nullptr;
        QWidget* field = nullptr; ///< the editor and its reset button
        QFormLayout* form = nullptr;
        QWidget* group = nullptr;
        QString error; ///< why the current text is invalid; empty when valid
    };
    QWidget* makeEditor(const QString& key, const credit::ParamSpec& spec);
    QString editorText(const Row& row) const;
    void setEditorText(Row& row, const QString& text);
    void refreshRow(const QString& key);

    QVBoxLayout* m_layout;
    QHash<QString, Row> m_rows;
    QStringList m_order;
    std::vector<QWidget*> m_groups;
    QString m_filter;
};


} // namespace creditlab::ui
