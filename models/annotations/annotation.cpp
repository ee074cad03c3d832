// SPDX-License-Identifier: GPL-3.0-or-later
#include "annotations/annotation.h"

#include <QRegularExpression>

Annotation Annotation::note(qint64 timeMs, std::optional<qint64> endMs, const QString &text)
{
    Annotation annotation;
    annotation.timeMs = timeMs;
    annotation.endMs = endMs;
    annotation.text = text;
    annotation.tags = hashTags(text);
    annotation.source = Source::Manual;
    return annotation;
}

Annotation Annotation::copyAsNote() const
{
    Annotation copy = note(timeMs, endMs, text);
    copy.tags = tags;
    return copy;
}

QStringList Annotation::hashTags(const QString &text)
{
    // At the start or after a space or an opening bracket; letters, digits, - _ . / after it,
    // without a trailing full stop ("#fix." is the tag "fix").
    static const QRegularExpression tag(QStringLiteral(R"((?:^|(?<=[\s(\[]))#([\w][\w\-./]*[\w]|[\w]))"),
                                        QRegularExpression::UseUnicodePropertiesOption);
    QStringList tags;
    for (auto it = tag.globalMatch(text); it.hasNext();) {
        const QString name = it.next().captured(1);
        if (!tags.contains(name))
            tags << name;
    }
    return tags;
}

QString Annotation::sourceName(Source source)
{
    switch (source) {
    case Source::Manual:
        return QStringLiteral("manual");
    case Source::Action:
        return QStringLiteral("action");
    case Source::Scenario:
        return QStringLiteral("scenario");
    case Source::Detector:
        return QStringLiteral("detector");
    case Source::Kubernetes:
        return QStringLiteral("kubernetes");
    case Source::Query:
        return QStringLiteral("query");
    }
    return {};
}

QList<Annotation::Source> Annotation::allSources()
{
    return {Source::Manual, Source::Action, Source::Scenario, Source::Detector, Source::Kubernetes, Source::Query};
}

std::optional<Annotation::Source> Annotation::sourceFromName(const QString &name)
{
    for (Source source : allSources()) {
        if (name.trimmed().compare(sourceName(source), Qt::CaseInsensitive) == 0)
            return source;
    }
    return std::nullopt;
}

TimeRange Annotation::viewRange() const
{
    constexpr qint64 kPointPadMs = 150'000;
    if (!endMs)
        return {timeMs - kPointPadMs, timeMs + kPointPadMs};
    const qint64 length = *endMs - timeMs;
    const qint64 pad = length / 10;
    if (length + 2 * pad >= 2 * kPointPadMs)
        return {timeMs - pad, *endMs + pad};
    const qint64 middle = timeMs + length / 2;
    return {middle - kPointPadMs, middle + kPointPadMs};
}

int Annotation::labelPriority() const
{
    if (suggested)
        return 0;
    switch (source) {
    case Source::Action:
    case Source::Scenario:
    case Source::Kubernetes:
        return 3;
    case Source::Manual:
        return 2;
    case Source::Detector:
    case Source::Query:
        return 1;
    }
    return 1;
}
