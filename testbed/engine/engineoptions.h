// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engineconfig.h"
#include "processdefinition.h"

#include <QHostAddress>
#include <QString>
#include <QStringList>

// The engine's command line. Parsing never exits the process itself, so that main decides
// the exit codes: 0 for --help/--version, 2 for invalid input (the usual usage-error code).
struct EngineOptions
{
    EngineConfig config;
    QHostAddress bindAddress = QHostAddress(QHostAddress::LocalHost);
    quint16 port = 8080; // the starter's default --target
    quint64 seed = 1;
    ProcessDefinition process; // empty: no jobs, an instance is done when created

    enum class Outcome
    {
        Run,
        ShowHelp,
        ShowVersion,
        Invalid
    };
    struct Parsed;
    static Parsed parse(const QStringList &arguments);
};

struct EngineOptions::Parsed
{
    Outcome outcome = Outcome::Run;
    EngineOptions options;
    QString text; // the help or version text, or the error message
};
