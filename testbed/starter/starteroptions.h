// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "bearertoken.h"
#include "optionreader.h"

#include <QHostAddress>
#include <QString>
#include <QUrl>

// Everything the command line decides, already validated.
struct StarterOptions
{
    quint16 port = 9600;
    QHostAddress bind = QHostAddress(QHostAddress::LocalHost);
    QUrl target = QUrl(QStringLiteral("http://127.0.0.1:8080"));
    double rate = 300;
    qint32 inflightLimit = 0;
    int poolSize = 100;
    double deadlineSeconds = 5;
    BearerToken token;
    double maxRate = 100000;
    qint64 maxPending = 100000;
    QString instance;            // empty = hostname:port, known once listening
    qint64 memoryLimitBytes = 0; // 0 = none
    qint64 requestMemoryBytes = 6LL * 1024;
    double cpuLimitCores = 0; // 0 = none
    double cpuSecondsPerRequest = 0.001;
};

// The command line of chaoscope-starter. Pure apart from reading the token file, so a test can
// feed it argument lists.
class StarterOptionsParser
{
public:
    using Outcome = OptionReader::Outcome;

    StarterOptionsParser();

    // `arguments` includes the program name first, as QCoreApplication::arguments() does.
    Outcome parse(const QStringList &arguments);

    const StarterOptions &options() const { return m_options; }
    QString errorText() const { return m_reader.errorText(); } // for Invalid: one line for the operator
    QString helpText() const { return m_reader.helpText(); }

private:
    bool read();

    OptionReader m_reader;
    StarterOptions m_options;
};
