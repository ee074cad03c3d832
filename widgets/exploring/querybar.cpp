// SPDX-License-Identifier: GPL-3.0-or-later
#include "exploring/querybar.h"

#include "explore/metadatacatalog.h"

#include <QAbstractItemView>
#include <QCompleter>
#include <QKeyEvent>
#include <QScrollBar>
#include <QStringListModel>
#include <utility>

QueryBar::QueryBar(MetadataCatalog *catalog, QWidget *parent)
    : QLineEdit(parent), m_catalog(catalog), m_completer(new QCompleter(this)), m_model(new QStringListModel(this))
{
    setObjectName(QStringLiteral("exploreQuery"));
    setPlaceholderText(tr("PromQL, e.g. sum(rate(starter_requests_sent_total[10s]))  —  Ctrl+Space completes"));
    setClearButtonEnabled(true);
    QFont mono = font();
    mono.setFamily(QStringLiteral("monospace"));
    mono.setStyleHint(QFont::Monospace);
    setFont(mono);
    // The list shows what PromqlCompletion chose, as it is: no filtering of its own.
    m_completer->setModel(m_model);
    m_completer->setWidget(this);
    m_completer->setCompletionMode(QCompleter::UnfilteredPopupCompletion);
    m_completer->setCaseSensitivity(Qt::CaseInsensitive);
    m_completer->setMaxVisibleItems(12);
    connect(m_completer, qOverload<const QString &>(&QCompleter::activated), this, &QueryBar::take);
    m_completer->popup()->installEventFilter(this); // after QCompleter's: this one sees the keys first
    connect(this, &QLineEdit::textEdited, this, [this] { offer(false); });
    // Names arriving from Prometheus while the list is wanted: shown at once.
    connect(m_catalog, &MetadataCatalog::updated, this, [this] {
        if (isVisible() && (isListOpen() || wanted())) // asked a moment ago, typing here
            offer(m_asked);
    });
}

QStringList QueryBar::offered() const
{
    return m_model->stringList();
}

bool QueryBar::isListOpen() const
{
    return m_completer->popup()->isVisible();
}

void QueryBar::offer(bool asked)
{
    m_asked = asked;
    m_context = PromqlCompletion::contextAt(text(), cursorPosition());
    m_catalog->prepare(m_context);
    m_items = PromqlCompletion::complete(m_context, m_catalog->catalogFor(m_context));
    QStringList shown;
    for (const PromqlCompletion::Item &item : m_items)
        shown << item.text;
    m_model->setStringList(shown);
    if (shown.isEmpty() || !wanted()) {
        m_completer->popup()->hide();
        return;
    }
    QRect rect = cursorRect();
    rect.setWidth(std::max(320, m_completer->popup()->sizeHintForColumn(0) +
                                    m_completer->popup()->verticalScrollBar()->sizeHint().width() + 16));
    m_completer->complete(rect);
    m_completer->popup()->setCurrentIndex(m_model->index(0));
}

bool QueryBar::wanted() const
{
    // Asked for, something typed of a word, or just inside a label's quotes: the values are
    // what the user has come for there; or just after a selector's `{` or a `,` in it: the
    // label names are what comes next.
    if (m_asked || !m_context.prefix.isEmpty() || m_context.kind == PromqlCompletion::Context::Kind::LabelValue)
        return true;
    if (m_context.kind != PromqlCompletion::Context::Kind::LabelName)
        return false;
    const QString before = text().left(cursorPosition()).trimmed();
    return before.endsWith(QLatin1Char('{')) || before.endsWith(QLatin1Char(','));
}

void QueryBar::take(const QString &chosen)
{
    const auto found = std::find_if(m_items.begin(), m_items.end(),
                                    [&](const PromqlCompletion::Item &item) { return item.text == chosen; });
    if (found == m_items.end())
        return;
    int cursor = 0;
    const QString completed = PromqlCompletion::apply(text(), m_context, *found, &cursor);
    setText(completed);
    setCursorPosition(cursor);
    // A label value's closing quote, just before the cursor: typed again, it is typed over.
    const bool closedValue = m_context.kind == PromqlCompletion::Context::Kind::LabelValue && cursor > 0 &&
                             completed[cursor - 1] == m_context.quote;
    m_closingQuoteAt = closedValue ? cursor - 1 : -1;
    m_asked = false;
    m_completer->popup()->hide();
    setFocus(Qt::PopupFocusReason); // typing goes on here, where the list took the keys
    m_context = PromqlCompletion::contextAt(text(), cursorPosition());
}

bool QueryBar::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_completer->popup() && event->type() == QEvent::KeyPress) {
        const int key = static_cast<QKeyEvent *>(event)->key();
        if (key == Qt::Key_Tab || key == Qt::Key_Backtab || key == Qt::Key_Return || key == Qt::Key_Enter) {
            const QModelIndex current = m_completer->popup()->currentIndex();
            take((current.isValid() ? current : m_model->index(0)).data().toString());
            return true;
        }
    }
    return QLineEdit::eventFilter(watched, event);
}

bool QueryBar::event(QEvent *event)
{
    if (event->type() == QEvent::KeyPress && isListOpen()) {
        auto *key = static_cast<QKeyEvent *>(event);
        if (key->key() == Qt::Key_Tab || key->key() == Qt::Key_Backtab) {
            keyPressEvent(key);
            return true;
        }
    }
    return QLineEdit::event(event);
}

void QueryBar::keyPressEvent(QKeyEvent *event)
{
    // With the list open, Enter, Return and Tab take the chosen item and Escape closes it. The
    // list's popup grabs these keys (QCompleter then says activated); they reach the field
    // itself where the platform gives popups no grab, and mean the same here.
    if (isListOpen()) {
        switch (event->key()) {
        case Qt::Key_Tab:
        case Qt::Key_Backtab:
        case Qt::Key_Enter:
        case Qt::Key_Return: {
            const QModelIndex current = m_completer->popup()->currentIndex();
            take((current.isValid() ? current : m_model->index(0)).data().toString());
            return;
        }
        case Qt::Key_Escape:
            m_completer->popup()->hide();
            m_asked = false;
            return;
        default:
            break;
        }
    }
    // The quote a completion closed a value with, typed by habit right after it: already there.
    // (Shift, pressed for the quote, is a key press of its own: it keeps the quote in mind.)
    const bool modifierOnly = event->key() == Qt::Key_Shift || event->key() == Qt::Key_Control ||
                              event->key() == Qt::Key_Alt || event->key() == Qt::Key_Meta ||
                              event->key() == Qt::Key_AltGr;
    const int closingQuote = modifierOnly ? -1 : std::exchange(m_closingQuoteAt, -1);
    if (closingQuote >= 0 && cursorPosition() == closingQuote + 1 && event->text().size() == 1 &&
        closingQuote < text().size() && event->text().front() == text()[closingQuote])
        return;
    if (event->key() == Qt::Key_Space && event->modifiers().testFlag(Qt::ControlModifier)) {
        offer(true);
        return;
    }
    if ((event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter) && !text().trimmed().isEmpty()) {
        emit submitted(text().trimmed());
        return;
    }
    QLineEdit::keyPressEvent(event);
    // Moving the cursor changes what may be completed; a closed list stays closed.
    if (isListOpen() && (event->key() == Qt::Key_Left || event->key() == Qt::Key_Right))
        offer(m_asked);
}
