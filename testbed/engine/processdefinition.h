// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>
#include <QString>
#include <QStringList>
#include <optional>

// The steps a process instance goes through after it was created, each one a service task
// whose job a worker of that job type must complete (seed 004's process, in miniature).
//
// A step is either one job type, or a multi-instance body: `multiplicity` iterations run in
// parallel, each through its own sequence of job types, and the step is done when every
// iteration is (seed 004's "Vendor fraud claim validation" runs proof_from_vendor, then
// get_vendor_info, 50 times).
struct ProcessStep
{
    QStringList jobTypes; // in order, within one iteration
    int multiplicity = 1;

    int jobs() const { return static_cast<int>(jobTypes.size()) * multiplicity; }
};

struct ProcessDefinition
{
    QList<ProcessStep> steps;

    static constexpr int maxMultiplicity = 10000;

    // The command line's spelling: steps separated by commas; a step is `type`, `type*N`, or
    // `[type type ...]*N`. Job types are letters, digits, '_', '-' and '.'. Example:
    //   extract_data_from_document,[proof_from_vendor get_vendor_info]*50,refunding*50
    static std::optional<ProcessDefinition> parse(const QString &spec, QString *error);
    QString toString() const;

    bool isEmpty() const { return steps.isEmpty(); }
    QStringList jobTypes() const; // each type once, in the order they first appear
    int jobsPerInstance() const;
};
