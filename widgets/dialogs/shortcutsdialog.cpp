// SPDX-License-Identifier: GPL-3.0-or-later
#include "dialogs/shortcutsdialog.h"

#include "dialogs/dialogbuttons.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QPushButton>
#include <QRegularExpression>
#include <QSet>
#include <QShortcut>
#include <QTableWidget>
#include <QToolBar>
#include <QVBoxLayout>
#include <algorithm>

namespace {

QString withoutMnemonic(QString text)
{
    text.remove(QRegularExpression(QStringLiteral("&(?!&)")));
    text.replace(QStringLiteral("&&"), QStringLiteral("&"));
    text.remove(QStringLiteral("…"));
    return text.trimmed();
}

QString keysOf(const QList<QKeySequence> &sequences)
{
    QStringList keys;
    for (const QKeySequence &sequence : sequences)
        if (!sequence.isEmpty())
            keys << sequence.toString(QKeySequence::NativeText);
    return keys.join(QStringLiteral(", "));
}

// Where the user meets an action: the first menu that holds it, else the toolbar.
QString groupOf(const QAction *action)
{
    for (const QObject *user : action->associatedObjects()) {
        if (const auto *menu = qobject_cast<const QMenu *>(user))
            return withoutMnemonic(menu->title());
    }
    for (const QObject *user : action->associatedObjects()) {
        if (qobject_cast<const QToolBar *>(user))
            return QObject::tr("Toolbar");
    }
    return QObject::tr("Window");
}

// The gestures on a chart: mouse-driven, so no QAction carries them.
QList<ShortcutsDialog::Entry> chartGestures()
{
    const QString group = QObject::tr("Chart (mouse)");
    return {
        {group, QObject::tr("Zoom to a range"), QObject::tr("Drag"),
         QObject::tr("Every panel follows; Alt+Left goes back.")},
        {group, QObject::tr("Pan"), QObject::tr("Shift+Drag"),
         QObject::tr("Moves the window in time; stops following live.")},
        // As ChartGestures::wheel does it (the chart interaction test drives both).
        {group, QObject::tr("Pan in time"), QObject::tr("Shift+Wheel"),
         QObject::tr("Forward goes back in time, as scrolling up a log; never past now. The plain wheel scrolls the "
                     "page.")},
        {group, QObject::tr("Zoom in or out"), QObject::tr("Ctrl+Wheel"),
         QObject::tr("Around the time under the pointer.")},
        {group, QObject::tr("Back to live"), QObject::tr("Double-click"), QString()},
        {group, QObject::tr("Add a note at a time"), QObject::tr("Ctrl+Click"),
         QObject::tr("Opens a one-line prompt.")},
        {group, QObject::tr("Add a note over a range"), QObject::tr("Ctrl+Drag"),
         QObject::tr("A shaded region with a note.")},
        {group, QObject::tr("Move a note"), QObject::tr("Drag its marker or edge"), QObject::tr("One undo step.")},
        {group, QObject::tr("Cancel a drag"), QObject::tr("Esc"), QString()},
    };
}

} // namespace

QList<ShortcutsDialog::Entry> ShortcutsDialog::collect(QWidget *window)
{
    QList<Entry> entries;
    QSet<QString> seen; // a menu action and its toolbar twin are one entry
    for (const QAction *action : window->findChildren<QAction *>()) {
        const QString keys = keysOf(action->shortcuts());
        if (keys.isEmpty() || action->isSeparator())
            continue;
        const QString what = withoutMnemonic(action->text());
        if (seen.contains(what + keys))
            continue;
        seen.insert(what + keys);
        const QString tip =
            action->toolTip() == action->text().remove(QLatin1Char('&')) ? QString() : action->toolTip();
        entries.append({groupOf(action), what, keys, tip});
    }
    for (const QShortcut *shortcut : window->findChildren<QShortcut *>()) {
        // Shortcuts without a description are local helpers (Esc in a form), not features.
        if (shortcut->whatsThis().isEmpty() || shortcut->key().isEmpty())
            continue;
        const QString group = shortcut->parent() && !shortcut->parent()->property("shortcutGroup").toString().isEmpty()
                                  ? shortcut->parent()->property("shortcutGroup").toString()
                                  : QObject::tr("Window");
        entries.append({group, shortcut->whatsThis(), keysOf({shortcut->key()}), QString()});
    }
    std::stable_sort(entries.begin(), entries.end(), [](const Entry &a, const Entry &b) {
        return a.group != b.group ? a.group < b.group : a.what.localeAwareCompare(b.what) < 0;
    });
    entries.append(chartGestures());
    return entries;
}

ShortcutsDialog::ShortcutsDialog(QWidget *window, QWidget *parent)
    : QDialog(parent), m_entries(collect(window)), m_table(new QTableWidget(this))
{
    setWindowTitle(tr("Keyboard shortcuts"));
    m_table->setColumnCount(4);
    m_table->setHorizontalHeaderLabels({tr("Where"), tr("Action"), tr("Keys"), tr("What it does")});
    m_table->setRowCount(int(m_entries.size()));
    for (int row = 0; row < m_entries.size(); ++row) {
        const Entry &entry = m_entries[row];
        const QString cells[] = {entry.group, entry.what, entry.keys, entry.description};
        for (int column = 0; column < 4; ++column) {
            auto *item = new QTableWidgetItem(cells[column]);
            item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
            if (column == 2) {
                QFont bold = item->font();
                bold.setBold(true);
                item->setFont(bold);
            }
            m_table->setItem(row, column, item);
        }
    }
    m_table->verticalHeader()->hide();
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    // Arrow keys move between cells; Tab moves on to the next control instead of trapping
    // the keyboard in the table.
    m_table->setTabKeyNavigation(false);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setWordWrap(false);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    QPushButton *copy = buttons->addButton(tr("Copy"), QDialogButtonBox::ActionRole);
    DialogButtons::keepTabbable(buttons);
    copy->setToolTip(tr("Copy the list as tab-separated text"));
    connect(copy, &QPushButton::clicked, this, [this] { QApplication::clipboard()->setText(toText()); });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(new QLabel(tr("Keys work anywhere in the window, except while typing in a text field.")));
    layout->addWidget(m_table, 1);
    layout->addWidget(buttons);
    resize(820, 560);
}

QString ShortcutsDialog::toText() const
{
    QStringList lines;
    for (const Entry &entry : m_entries)
        lines << QStringList{entry.group, entry.what, entry.keys, entry.description}.join(QLatin1Char('\t'));
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}
