#pragma once

#include <QString>

#include <string>

namespace creditlab::ui {

/// UTF-8 from core into a QString. Any thread.
inline QString toQString(const std::string& text)
{
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

/// A single-line preview of data text: each line break becomes " ⏎ ", tabs become spaces, and text
/// longer than `maxChars` is cut with "…". The view elides further to its column width. Any thread.
QString previewText(const QString& text, qsizetype maxChars = 200);

/// Data text for a tooltip. Tooltips auto-detect rich text, so the text is HTML-escaped inside a
/// pre-wrap paragraph: markup in the data is shown literally, line breaks are kept. Any thread.
QString plainTooltip(const QString& text, qsizetype maxChars = 2000);

/// Compares in natural order: runs of digits by value ("r2" < "r10"), the rest case-insensitively.
/// Returns <0, 0 or >0. Independent of the locale, so ids sort the same everywhere. Any thread.
int naturalCompare(QStringView a, QStringView b);

/// A number in the current locale with up to `precision` significant digits. Any thread.
QString formatNumber(double value, int precision = 4);

/// A duration such as "42 s", "3 min 05 s" or "1 h 02 min", translated. GUI thread (uses tr).
QString formatDuration(double seconds);

} // namespace creditlab::ui
