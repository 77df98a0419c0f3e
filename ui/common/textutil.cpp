#include "ui/common/textutil.h"

#include <QCoreApplication>
#include <QLocale>

#include <algorithm>
#include <cmath>

namespace creditlab::ui {

QString previewText(const QString& text, qsizetype maxChars)
{
    QString out;
    out.reserve(std::min(text.size(), maxChars) + 8);
    qsizetype i = 0;
    for (; i < text.size() && out.size() < maxChars; ++i) {
        const QChar c = text.at(i);
        if (c == u'\r' && i + 1 < text.size() && text.at(i + 1) == u'\n')
            continue; // "\r\n" is one break
        if (c == u'\n' || c == u'\r')
            out += QStringLiteral(" \u23CE ");
        else if (c == u'\t')
            out += u' ';
        else
            out += c;
    }
    if (i < text.size()) {
        out.truncate(maxChars);
        out += QChar(0x2026);
    }
    return out;
}

QString plainTooltip(const QString& text, qsizetype maxChars)
{
    QString shown = text.left(maxChars);
    if (text.size() > maxChars)
        shown += QChar(0x2026);
    // Short lines keep their own breaks only (a rich-text tooltip otherwise wraps at a narrow width, even between
    // "credit/" and "nonzero_share"); long ones wrap.
    qsizetype longest = 0;
    for (const QStringView line : QStringView(shown).split(QLatin1Char('\n')))
        longest = std::max(longest, line.size());
    return QStringLiteral("<p style='white-space:%1'>%2</p>")
        .arg(longest <= 100 ? QStringLiteral("pre") : QStringLiteral("pre-wrap"), shown.toHtmlEscaped());
}

int naturalCompare(QStringView a, QStringView b)
{
    qsizetype i = 0;
    qsizetype j = 0;
    while (i < a.size() && j < b.size()) {
        if (a[i].isDigit() && b[j].isDigit()) {
            // Compare the digit runs by value: skip leading zeros, then length, then digits.
            qsizetype ie = i;
            qsizetype je = j;
            while (ie < a.size() && a[ie].isDigit())
                ++ie;
            while (je < b.size() && b[je].isDigit())
                ++je;
            qsizetype is = i;
            qsizetype js = j;
            while (is + 1 < ie && a[is] == u'0')
                ++is;
            while (js + 1 < je && b[js] == u'0')
                ++js;
            if (ie - is != je - js)
                return ie - is < je - js ? -1 : 1;
            if (const int c = a.sliced(is, ie - is).compare(b.sliced(js, je - js)); c != 0)
                return c;
            i = ie;
            j = je;
            continue;
        }
        const QChar x = a[i].toCaseFolded();
        const QChar y = b[j].toCaseFolded();
        if (x != y)
            return x < y ? -1 : 1;
        ++i;
        ++j;
    }
    if (i < a.size())
        return 1;
    if (j < b.size())
        return -1;
    return 0;
}

QString formatNumber(double value, int precision)
{
    if (std::isnan(value))
        return QStringLiteral("–");
    return QLocale().toString(value, 'g', precision);
}

QString formatDuration(double seconds)
{
    if (seconds < 0.0)
        return QCoreApplication::translate("creditlab::ui::Duration", "unknown");
    const auto total = static_cast<qint64>(std::llround(seconds));
    if (total < 60)
        return QCoreApplication::translate("creditlab::ui::Duration", "%1 s").arg(total);
    if (total < 3600)
        return QCoreApplication::translate("creditlab::ui::Duration", "%1 min %2 s")
            .arg(total / 60)
            .arg(total % 60, 2, 10, QLatin1Char('0'));
    return QCoreApplication::translate("creditlab::ui::Duration", "%1 h %2 min")
        .arg(total / 3600)
        .arg((total % 3600) / 60, 2, 10, QLatin1Char('0'));
}

} // namespace creditlab::ui
