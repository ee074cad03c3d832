// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringList>
#include <vector>

// The one home of Markdown written for a person to paste into a post: table cells that do not
// end their cell or row early, and tables with a header rule.
namespace Markdown {

// A table cell: '|' escaped, line breaks made spaces, surrounding space trimmed.
QString cell(const QString &text);
// "| a | b |\n| --- | ---: |\n| … |\n": the header, then one line per row; a column marked in
// `rightAligned` (numbers) is aligned right. Cells are escaped here.
QString table(const QStringList &header, const std::vector<QStringList> &rows, const std::vector<bool> &rightAligned);
// Text that starts a line of a paragraph without becoming a heading, list or quote.
QString plainLine(const QString &text);

} // namespace Markdown
