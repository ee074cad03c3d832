// SPDX-License-Identifier: GPL-3.0-or-later
#include "optionreader.h"

OptionReader::OptionReader(const QString &description, const QList<QCommandLineOption> &options)
{
    m_parser.setApplicationDescription(description);
    m_parser.addHelpOption();
    m_parser.addVersionOption();
    m_parser.addOptions(options);
}

OptionReader::Outcome OptionReader::start(const QStringList &arguments)
{
    m_error.clear();
    if (!m_parser.parse(arguments)) {
        m_error = m_parser.errorText();
        return Outcome::Invalid;
    }
    if (m_parser.isSet(QStringLiteral("help")))
        return Outcome::ShowHelp;
    if (m_parser.isSet(QStringLiteral("version")))
        return Outcome::ShowVersion;
    if (!m_parser.positionalArguments().isEmpty()) {
        fail(QStringLiteral("unexpected argument '%1'").arg(m_parser.positionalArguments().constFirst()));
        return Outcome::Invalid;
    }
    return Outcome::Run;
}

bool OptionReader::fail(const QString &message)
{
    m_error = message;
    return false;
}

bool OptionReader::integer(const QCommandLineOption &option, qint64 min, qint64 max, qint64 *out)
{
    bool ok = false;
    const qint64 value = m_parser.value(option).trimmed().toLongLong(&ok);
    if (!ok || value < min || value > max)
        return fail(QStringLiteral("--%1 must be %2..%3, not '%4'")
                        .arg(option.names().constFirst())
                        .arg(min)
                        .arg(max)
                        .arg(m_parser.value(option)));
    *out = value;
    return true;
}

bool OptionReader::integer(const QCommandLineOption &option, int min, int max, int *out)
{
    qint64 value = 0;
    if (!integer(option, qint64(min), qint64(max), &value))
        return false;
    *out = int(value);
    return true;
}

bool OptionReader::port(const QCommandLineOption &option, quint16 *out)
{
    int value = 0;
    if (!integer(option, 0, 65535, &value))
        return false;
    *out = quint16(value);
    return true;
}

bool OptionReader::address(const QCommandLineOption &option, QHostAddress *out)
{
    const QString text = m_parser.value(option).trimmed();
    const QHostAddress address = text.compare(QLatin1String("localhost"), Qt::CaseInsensitive) == 0
                                     ? QHostAddress(QHostAddress::LocalHost)
                                     : QHostAddress(text);
    if (address.isNull())
        return fail(QStringLiteral("--%1 must be an IP address, not '%2'")
                        .arg(option.names().constFirst(), m_parser.value(option)));
    *out = address;
    return true;
}
