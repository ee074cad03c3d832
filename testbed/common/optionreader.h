// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QCommandLineParser>
#include <QHostAddress>
#include <QList>
#include <QString>
#include <QStringList>

// What the testbed's programs' command lines share: the start every one of them makes (the
// description, --help, --version, a stray argument refused) and readers of the values they
// all take (a port, an address to listen on, an integer in a range). A reader that fails says
// which option was wrong and what it was given ("--port must be 0..65535, not '70000'") and
// returns false; a caller may say it in its own words with fail() after it.
class OptionReader
{
public:
    enum class Outcome
    {
        Run,
        ShowHelp,
        ShowVersion,
        Invalid
    };

    OptionReader(const QString &description, const QList<QCommandLineOption> &options);

    // Parses the arguments (the program's name first). Run: the options are there to be read.
    Outcome start(const QStringList &arguments);

    QString value(const QCommandLineOption &option) const { return m_parser.value(option); }
    bool isSet(const QCommandLineOption &option) const { return m_parser.isSet(option); }

    bool port(const QCommandLineOption &option, quint16 *out);
    // An IP address, or "localhost".
    bool address(const QCommandLineOption &option, QHostAddress *out);
    bool integer(const QCommandLineOption &option, qint64 min, qint64 max, qint64 *out);
    bool integer(const QCommandLineOption &option, int min, int max, int *out);
    // Says what was wrong (instead of anything said before); false, to return at once.
    bool fail(const QString &message);

    QString errorText() const { return m_error; }
    QString helpText() const { return m_parser.helpText(); }

private:
    QCommandLineParser m_parser;
    QString m_error;
};
