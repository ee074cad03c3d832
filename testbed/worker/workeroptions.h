// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "optionreader.h"
#include "workersettings.h"

#include <QHostAddress>
#include <optional>

struct WorkerOptions
{
    WorkerSettings settings;
    quint16 port = 9700;
    QHostAddress bind = QHostAddress(QHostAddress::LocalHost);
};

// The command line of chaoscope-worker; pure, so a test can feed it argument lists.
class WorkerOptionsParser
{
public:
    using Outcome = OptionReader::Outcome;

    WorkerOptionsParser();
    Outcome parse(const QStringList &arguments); // program name first

    const WorkerOptions &options() const { return m_options; }
    QString errorText() const { return m_reader.errorText(); }
    QString helpText() const { return m_reader.helpText(); }

    // "300ms", "1.8s", "2m" or plain seconds ("0.3"); empty when it is none of these.
    static std::optional<double> parseDuration(const QString &text);

private:
    bool read();

    OptionReader m_reader;
    WorkerOptions m_options;
};
