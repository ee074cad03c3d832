// SPDX-License-Identifier: GPL-3.0-or-later
#include "store/serieskey.h"

#include "store/samplestore.h"

#include <algorithm>

namespace {

constexpr QChar kEscape = u'\\';

bool isEscaped(QChar c)
{
    return c == kEscape || c == u'/' || c == u',';
}

QString escaped(const QString &value)
{
    QString out;
    out.reserve(value.size());
    for (const QChar c : value) {
        if (isEscaped(c))
            out += kEscape;
        out += c;
    }
    return out;
}

// Also reads keys written before values were escaped: a '\' that escapes nothing is itself.
QString unescaped(QStringView text)
{
    QString out;
    out.reserve(text.size());
    for (qsizetype i = 0; i < text.size(); ++i) {
        if (text[i] == kEscape && i + 1 < text.size() && isEscaped(text[i + 1]))
            ++i;
        out += text[i];
    }
    return out;
}

SeriesKey::Variables sortedByName(SeriesKey::Variables variables)
{
    std::sort(variables.begin(), variables.end(),
              [](const SeriesKey::Variable &a, const SeriesKey::Variable &b) { return a.name < b.name; });
    return variables;
}

// How the values were written before they were escaped; kept to recognise those keys.
QString legacyValuesSegment(const SeriesKey::Variables &variables)
{
    QStringList parts;
    for (const SeriesKey::Variable &variable : sortedByName(variables))
        parts.append(QLatin1Char('$') + variable.name + QLatin1Char('=') + variable.value);
    return parts.isEmpty() ? QString() : parts.join(QLatin1Char(',')) + QLatin1Char('/');
}

// "p12/" at `pos` (the letter given): the number, and `pos` moved past the '/'.
std::optional<int> readIndex(const QString &key, qsizetype &pos, QChar letter)
{
    if (pos >= key.size() || key[pos] != letter)
        return std::nullopt;
    qsizetype end = pos + 1;
    while (end < key.size() && key[end] >= u'0' && key[end] <= u'9')
        ++end;
    const qsizetype digits = end - pos - 1;
    // One way to write a number: no sign, no leading zero (the builder writes none).
    if (digits == 0 || end >= key.size() || key[end] != u'/' || (digits > 1 && key[pos + 1] == u'0'))
        return std::nullopt;
    bool ok = false;
    const int index = QStringView(key).mid(pos + 1, digits).toInt(&ok);
    if (!ok)
        return std::nullopt;
    pos = end + 1;
    return index;
}

// Where the values part that starts at `from` ends: the first unescaped '/' in front of the
// labels' '{'; in a key written before escaping, the first "/{" at all. -1 when none.
qsizetype endOfValues(const QString &key, qsizetype from)
{
    for (qsizetype i = from; i + 1 < key.size(); ++i) {
        if (key[i] == kEscape)
            ++i;
        else if (key[i] == u'/' && key[i + 1] == u'{')
            return i;
    }
    return key.indexOf(QLatin1String("/{"), from);
}

// "$a=x,$b=y" into its variables. A part that does not start a variable (a ',' inside an
// old, unescaped value) belongs to the value before it.
std::optional<SeriesKey::Variables> readValues(QStringView segment)
{
    std::vector<QString> parts{QString()};
    for (qsizetype i = 0; i < segment.size(); ++i) {
        if (segment[i] == kEscape && i + 1 < segment.size()) {
            parts.back() += segment[i];
            parts.back() += segment[++i];
        } else if (segment[i] == u',' && i + 1 < segment.size() && segment[i + 1] == u'$') {
            parts.emplace_back();
        } else {
            parts.back() += segment[i];
        }
    }
    SeriesKey::Variables variables;
    for (const QString &part : parts) {
        const qsizetype equals = part.indexOf(QLatin1Char('='));
        if (!part.startsWith(QLatin1Char('$')) || equals < 2)
            return std::nullopt;
        variables.push_back({part.mid(1, equals - 1), unescaped(QStringView(part).mid(equals + 1))});
    }
    return variables;
}

} // namespace

QString SeriesKey::ofQuery(int panel, int query, const Variables &variables, const QString &labelKey)
{
    return queryPrefix(panel, query) + valuesSegment(variables) + labelKey;
}

QString SeriesKey::parkedPrefix(int edit)
{
    return QStringLiteral("parked/%1/").arg(edit);
}

QString SeriesKey::panelPrefix(int panel)
{
    return QStringLiteral("p%1/").arg(panel);
}

QString SeriesKey::queryPrefix(int panel, int query)
{
    return QStringLiteral("p%1/q%2/").arg(panel).arg(query);
}

QString SeriesKey::valuesSegment(const Variables &variables)
{
    QStringList parts;
    for (const Variable &variable : sortedByName(variables))
        parts.append(QLatin1Char('$') + variable.name + QLatin1Char('=') + escaped(variable.value));
    return parts.isEmpty() ? QString() : parts.join(QLatin1Char(',')) + QLatin1Char('/');
}

QString SeriesKey::derived(int panel, int series)
{
    return QStringLiteral("derived/p%1/q%2").arg(panel).arg(series);
}

QString SeriesKey::loadTester(const QString &field)
{
    return QStringLiteral("loadtester/") + field;
}

QString SeriesKey::kubernetes(const QString &workload, const QString &field)
{
    return QStringLiteral("kubernetes/%1/%2").arg(workload, field);
}

std::optional<SeriesKey::Parsed> SeriesKey::parse(const QString &key)
{
    qsizetype pos = 0;
    const std::optional<int> panel = readIndex(key, pos, u'p');
    if (!panel)
        return std::nullopt;
    const std::optional<int> query = readIndex(key, pos, u'q');
    if (!query)
        return std::nullopt;
    Parsed parsed{*panel, *query, {}, {}};
    if (pos < key.size() && key[pos] == u'$') {
        const qsizetype end = endOfValues(key, pos);
        if (end < 0)
            return std::nullopt;
        std::optional<Variables> variables = readValues(QStringView(key).mid(pos, end - pos));
        if (!variables)
            return std::nullopt;
        parsed.variables = sortedByName(std::move(*variables));
        pos = end + 1;
    }
    parsed.labels = key.mid(pos);
    if (!parsed.labels.startsWith(QLatin1Char('{')) || !parsed.labels.endsWith(QLatin1Char('}')))
        return std::nullopt;
    return parsed;
}

bool SeriesKey::isAskedWith(const QString &key, int panel, int query, const Variables &variables)
{
    const QString prefix = queryPrefix(panel, query);
    // The labels follow the values at once: "$job=a/" is not the start of "$job=a/b/{…}".
    const auto followedByLabels = [&](const QString &segment) {
        const qsizetype labels = prefix.size() + segment.size();
        return key.size() > labels && key[labels] == u'{' && key.startsWith(prefix) &&
               QStringView(key).mid(prefix.size()).startsWith(segment);
    };
    const QString segment = valuesSegment(variables);
    if (followedByLabels(segment))
        return true;
    // An older recording's spelling, unless it is this spelling of other variables: the
    // value "x,$job=y" of $env was once written as $env=x and $job=y are written now.
    const QString legacy = legacyValuesSegment(variables);
    if (legacy == segment || !followedByLabels(legacy))
        return false;
    const std::optional<Parsed> parsed = parse(key);
    const Variables wanted = sortedByName(variables);
    return parsed && std::equal(parsed->variables.begin(), parsed->variables.end(), wanted.begin(), wanted.end(),
                                [](const Variable &a, const Variable &b) { return a.name == b.name; });
}

bool SeriesKey::isPrefix(const QString &reference)
{
    return reference.endsWith(QLatin1Char('/'));
}

bool SeriesKey::matches(const QString &reference, const QString &key)
{
    if (reference.isEmpty())
        return false;
    return isPrefix(reference) ? key.startsWith(reference) : key == reference;
}

QStringList SeriesKey::resolveAll(const SampleStore &store, const QString &reference)
{
    if (reference.isEmpty())
        return {};
    if (isPrefix(reference))
        return store.keysWithPrefix(reference);
    return store.contains(reference) ? QStringList{reference} : QStringList{};
}

QString SeriesKey::resolveFirst(const SampleStore &store, const QString &reference)
{
    return resolveAll(store, reference).value(0);
}
