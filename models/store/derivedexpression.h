// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "base/result.h"

#include <QString>
#include <QStringList>
#include <functional>
#include <memory>
#include <optional>

// A small arithmetic formula over named series, computed on the client: "pending / completed"
// (Little's law: the wait a request spends queued), "max(sent - accepted, 0)". Grammar:
//   expr    := term (('+' | '-') term)*
//   term    := factor (('*' | '/') factor)*
//   factor  := number | name | '-' factor | '(' expr ')' | ('min' | 'max') '(' expr ',' expr ')'
//   name    := [A-Za-z_][A-Za-z0-9_]*
// A division by zero, or any input without a value, gives no value (a gap), never ±Inf.
class DerivedExpression
{
public:
    // A parse error says where: "at column 9: expected a name, a number or '(' after '*'".
    static Result<DerivedExpression> parse(const QString &text);

    // The names it reads, in order of first appearance.
    const QStringList &inputs() const { return m_inputs; }
    // The formula as written (trimmed), for tooltips and captions.
    const QString &text() const { return m_text; }

    // valueOf(i) gives the value of inputs()[i] at the instant, nullopt when it has none.
    std::optional<double> evaluate(const std::function<std::optional<double>(int input)> &valueOf) const;

    struct Node;

private:
    QString m_text;
    QStringList m_inputs;
    std::shared_ptr<const Node> m_root; // immutable, so copies may share it
};
