// SPDX-License-Identifier: GPL-3.0-or-later
#include "annotating/annotationdock.h"

#include "annotating/annotationeditor.h"
#include "annotations/annotationfilter.h"
#include "annotations/annotationmodel.h"
#include "base/format.h"
#include "theme/palette.h"
#include "theme/uitheme.h"
#include "timeline/timewindow.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDateTimeEdit>
#include <QFormLayout>
#include <QFrame>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeySequence>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QShortcut>
#include <QStyledItemDelegate>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>
#include <functional>

namespace {

// The colours the timelines draw markers in, so a row and its marker look alike.
QColor sourceColor(Annotation::Source source, bool failed)
{
    return Palette::annotationColor(source, failed, UiTheme::instance()->background());
}

// In-place edits become editor commands (undoable) instead of setData on the model; a value
// that does not parse is reported and changes nothing. Also colours the source column.
class AnnotationItemDelegate : public QStyledItemDelegate
{
public:
    AnnotationItemDelegate(AnnotationEditor *editor, std::function<void(const QString &)> report, QObject *parent)
        : QStyledItemDelegate(parent), m_editor(editor), m_report(std::move(report))
    {}

    QWidget *createEditor(QWidget *parent, const QStyleOptionViewItem &option, const QModelIndex &index) const override
    {
        QWidget *widget = QStyledItemDelegate::createEditor(parent, option, index);
        if (auto *line = qobject_cast<QLineEdit *>(widget)) {
            switch (index.column()) {
            case AnnotationModel::TimeColumn:
                line->setPlaceholderText(tr("hh:mm:ss"));
                break;
            case AnnotationModel::EndColumn:
                line->setPlaceholderText(tr("hh:mm:ss, empty for a point"));
                break;
            case AnnotationModel::TagsColumn:
                line->setPlaceholderText(tr("tag, tag"));
                break;
            default:
                break;
            }
        }
        return widget;
    }

    void setModelData(QWidget *widget, QAbstractItemModel *, const QModelIndex &index) const override
    {
        const auto *line = qobject_cast<QLineEdit *>(widget);
        const std::optional<Annotation> current =
            m_editor->model()->find(index.data(AnnotationModel::AnnotationIdRole).value<quint64>());
        if (!line || !current)
            return;
        const Result<Annotation> edited = AnnotationModel::edited(*current, index.column(), line->text());
        if (!edited) {
            m_report(edited.error().message);
            return;
        }
        m_report(QString());
        m_editor->update(edited.value());
    }

protected:
    void initStyleOption(QStyleOptionViewItem *option, const QModelIndex &index) const override
    {
        QStyledItemDelegate::initStyleOption(option, index);
        const bool suggested = index.data(AnnotationModel::SuggestedRole).toBool();
        if (suggested) {
            // Dimmed like its marker on the timelines, until the user accepts it.
            option->font.setItalic(true);
            option->palette.setColor(QPalette::Text, UiTheme::instance()->colors().muted);
        }
        if (index.column() != AnnotationModel::SourceColumn)
            return;
        QColor color = sourceColor(Annotation::Source(index.data(AnnotationModel::SourceRole).toInt()),
                                   index.data(AnnotationModel::FailedRole).toBool());
        if (suggested)
            color.setAlpha(140);
        option->palette.setColor(QPalette::Text, color);
        option->font.setBold(true);
    }

private:
    AnnotationEditor *m_editor;
    std::function<void(const QString &)> m_report;
};

QDateTimeEdit *makeTimeEdit()
{
    auto *edit = new QDateTimeEdit;
    edit->setDisplayFormat(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
    edit->setCalendarPopup(true);
    return edit;
}

} // namespace

AnnotationDock::AnnotationDock(AnnotationEditor *editor, TimeWindow *window, QWidget *parent)
    : QDockWidget(tr("Annotations"), parent), m_editor(editor), m_window(window), m_filter(new AnnotationFilter(this)),
      m_table(new QTableView), m_search(new QLineEdit), m_sourcePicker(new QComboBox),
      m_addButton(new QPushButton(tr("Add…"))), m_deleteButton(new QPushButton(tr("Delete"))),
      m_acceptButton(new QPushButton(tr("Accept"))), m_dismissButton(new QPushButton(tr("Dismiss"))),
      m_count(new QLabel), m_error(new QLabel)
{
    setObjectName(QStringLiteral("annotationDock"));
    m_filter->setSourceModel(editor->model());

    m_search->setObjectName(QStringLiteral("annotationSearch"));
    m_search->setPlaceholderText(tr("Filter: words, #tag"));
    m_search->setClearButtonEnabled(true);
    connect(m_search, &QLineEdit::textChanged, m_filter, &AnnotationFilter::setSearch);
    m_sourcePicker->setObjectName(QStringLiteral("annotationSourcePicker"));
    m_sourcePicker->addItem(tr("All sources"), -1);
    for (Annotation::Source source : Annotation::allSources())
        m_sourcePicker->addItem(Annotation::sourceName(source), int(source));
    connect(m_sourcePicker, &QComboBox::currentIndexChanged, this, [this](int index) {
        const int source = m_sourcePicker->itemData(index).toInt();
        m_filter->setSource(source < 0 ? std::nullopt : std::optional(Annotation::Source(source)));
    });

    m_table->setObjectName(QStringLiteral("annotationTable"));
    m_table->setModel(m_filter);
    m_table->setItemDelegate(new AnnotationItemDelegate(
        editor, [this](const QString &message) { showError(message); }, m_table));
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    // Arrow keys move between cells; Tab moves on to the next control instead of trapping
    // the keyboard in the table.
    m_table->setTabKeyNavigation(false);
    m_table->setSelectionMode(QAbstractItemView::ExtendedSelection);
    // A double-click shows the annotation on the timelines, so editing starts with F2 or a
    // click on a cell of the selected row.
    m_table->setEditTriggers(QAbstractItemView::EditKeyPressed | QAbstractItemView::SelectedClicked);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);
    m_table->setTextElideMode(Qt::ElideRight);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    QHeaderView *header = m_table->horizontalHeader();
    header->setHighlightSections(false);
    header->setSectionResizeMode(AnnotationModel::TimeColumn, QHeaderView::ResizeToContents);
    header->setSectionResizeMode(AnnotationModel::EndColumn, QHeaderView::ResizeToContents);
    header->setSectionResizeMode(AnnotationModel::TextColumn, QHeaderView::Stretch);
    // Every column but the text fits its content; the text takes the rest.
    header->setSectionResizeMode(AnnotationModel::TagsColumn, QHeaderView::ResizeToContents);
    header->setSectionResizeMode(AnnotationModel::SourceColumn, QHeaderView::ResizeToContents);
    connect(m_table, &QAbstractItemView::doubleClicked, this, [this](const QModelIndex &index) {
        showOnTimeline(index.data(AnnotationModel::AnnotationIdRole).value<quint64>());
    });

    auto *deleteAction = new QAction(tr("Delete"), m_table);
    deleteAction->setShortcut(QKeySequence::Delete);
    // Only while the list has the focus: Del in a text field deletes a character.
    deleteAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(deleteAction, &QAction::triggered, this, &AnnotationDock::deleteSelected);
    m_table->addAction(deleteAction);
    // Right-click on a row: accept or dismiss a detector's suggestion, or delete.
    m_acceptAction = new QAction(tr("Accept suggestion"), m_table);
    connect(m_acceptAction, &QAction::triggered, this, &AnnotationDock::acceptSelected);
    m_dismissAction = new QAction(tr("Dismiss suggestion"), m_table);
    connect(m_dismissAction, &QAction::triggered, this, &AnnotationDock::dismissSelected);
    // A query's mark is read-only; a copy is a note of the user's to edit.
    m_copyAction = new QAction(tr("Copy into a note"), m_table);
    m_copyAction->setObjectName(QStringLiteral("annotationCopyAsNote"));
    connect(m_copyAction, &QAction::triggered, this, [this] { m_editor->copyAsNotes(selectedIds()); });
    m_table->insertActions(deleteAction, {m_acceptAction, m_dismissAction, m_copyAction});
    m_table->setContextMenuPolicy(Qt::ActionsContextMenu);

    m_addButton->setObjectName(QStringLiteral("annotationAddButton"));
    m_addButton->setToolTip(tr("Add an annotation at a time you choose, as a point or a region."));
    connect(m_addButton, &QPushButton::clicked, this, &AnnotationDock::startAdding);
    m_deleteButton->setObjectName(QStringLiteral("annotationDeleteButton"));
    m_deleteButton->setToolTip(tr("Delete the selected annotations (Del). Ctrl+Z brings them back."));
    connect(m_deleteButton, &QPushButton::clicked, this, &AnnotationDock::deleteSelected);
    m_acceptButton->setObjectName(QStringLiteral("annotationAcceptButton"));
    m_acceptButton->setToolTip(tr("Keep the selected suggestions as annotations."));
    connect(m_acceptButton, &QPushButton::clicked, this, &AnnotationDock::acceptSelected);
    m_dismissButton->setObjectName(QStringLiteral("annotationDismissButton"));
    m_dismissButton->setToolTip(tr("Remove the selected suggestions; the same event is not suggested again."));
    connect(m_dismissButton, &QPushButton::clicked, this, &AnnotationDock::dismissSelected);
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this, &AnnotationDock::updateButtons);
    // Accepting changes a row without touching the selection.
    connect(m_filter, &QAbstractItemModel::dataChanged, this, &AnnotationDock::updateButtons);

    m_error->setObjectName(QStringLiteral("annotationError"));
    m_error->setWordWrap(true);
    const auto applyTheme = [this] {
        const UiTheme::Colors &colors = UiTheme::instance()->colors();
        m_count->setStyleSheet(QStringLiteral("color: %1;").arg(UiTheme::css(colors.axisText)));
        m_error->setStyleSheet(QStringLiteral("color: %1;").arg(UiTheme::css(colors.error)));
        m_table->viewport()->update(); // the source column's colours
    };
    applyTheme();
    connect(UiTheme::instance(), &UiTheme::changed, this, applyTheme);
    m_error->hide();
    for (auto signal : {&QAbstractItemModel::rowsInserted, &QAbstractItemModel::rowsRemoved})
        connect(m_filter, signal, this, &AnnotationDock::updateCount);
    connect(m_filter, &QAbstractItemModel::modelReset, this, &AnnotationDock::updateCount);
    connect(m_filter, &QAbstractItemModel::layoutChanged, this, &AnnotationDock::updateCount);

    auto *filterRow = new QHBoxLayout;
    filterRow->addWidget(m_search, 1);
    filterRow->addWidget(m_sourcePicker);
    auto *buttonRow = new QHBoxLayout;
    buttonRow->addWidget(m_addButton);
    buttonRow->addWidget(m_deleteButton);
    buttonRow->addWidget(m_acceptButton);
    buttonRow->addWidget(m_dismissButton);
    buttonRow->addStretch(1);
    buttonRow->addWidget(m_count);

    auto *content = new QWidget;
    auto *layout = new QVBoxLayout(content);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addLayout(filterRow);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_error);
    layout->addWidget(buildAddForm());
    layout->addLayout(buttonRow);
    setWidget(content);
    setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable | QDockWidget::DockWidgetClosable);
    updateButtons();
    updateCount();
}

QWidget *AnnotationDock::buildAddForm()
{
    m_addForm = new QFrame;
    m_addForm->setObjectName(QStringLiteral("annotationAddForm"));
    m_addForm->setFrameShape(QFrame::StyledPanel);
    m_addTime = makeTimeEdit();
    m_addTime->setObjectName(QStringLiteral("annotationAddTime"));
    m_addIsRegion = new QCheckBox(tr("until"));
    m_addIsRegion->setObjectName(QStringLiteral("annotationAddIsRegion"));
    m_addIsRegion->setToolTip(tr("A region: from the time until the end."));
    m_addEnd = makeTimeEdit();
    m_addEnd->setObjectName(QStringLiteral("annotationAddEnd"));
    m_addEnd->setEnabled(false);
    connect(m_addIsRegion, &QCheckBox::toggled, m_addEnd, &QWidget::setEnabled);
    m_addText = new QLineEdit;
    m_addText->setObjectName(QStringLiteral("annotationAddText"));
    m_addText->setPlaceholderText(tr("What happened"));
    m_addTags = new QLineEdit;
    m_addTags->setObjectName(QStringLiteral("annotationAddTags"));
    m_addTags->setPlaceholderText(tr("tag, tag (optional)"));
    connect(m_addText, &QLineEdit::returnPressed, this, &AnnotationDock::saveAdded);
    connect(m_addTags, &QLineEdit::returnPressed, this, &AnnotationDock::saveAdded);
    auto *save = new QPushButton(tr("Save"));
    save->setObjectName(QStringLiteral("annotationAddSave"));
    save->setDefault(true);
    connect(save, &QPushButton::clicked, this, &AnnotationDock::saveAdded);
    auto *cancel = new QPushButton(tr("Cancel"));
    connect(cancel, &QPushButton::clicked, this, &AnnotationDock::cancelAdding);
    auto *escape = new QShortcut(QKeySequence(Qt::Key_Escape), m_addForm);
    escape->setContext(Qt::WidgetWithChildrenShortcut);
    connect(escape, &QShortcut::activated, this, &AnnotationDock::cancelAdding);

    auto *when = new QHBoxLayout;
    when->addWidget(m_addTime);
    when->addWidget(m_addIsRegion);
    when->addWidget(m_addEnd);
    when->addStretch(1);
    auto *buttons = new QHBoxLayout;
    buttons->addStretch(1);
    buttons->addWidget(cancel);
    buttons->addWidget(save);
    auto *form = new QFormLayout(m_addForm);
    form->setContentsMargins(6, 6, 6, 6);
    form->addRow(tr("Time"), when);
    form->addRow(tr("Text"), m_addText);
    form->addRow(tr("Tags"), m_addTags);
    form->addRow(buttons);
    m_addForm->hide();
    return m_addForm;
}

QString AnnotationDock::errorText() const
{
    return m_error->isHidden() ? QString() : m_error->text();
}

void AnnotationDock::startAdding()
{
    const QDateTime now = QDateTime::fromMSecsSinceEpoch(m_window->now());
    m_addTime->setDateTime(now);
    m_addEnd->setDateTime(now.addSecs(60));
    m_addIsRegion->setChecked(false);
    m_addText->clear();
    m_addTags->clear();
    m_addForm->show();
    m_addText->setFocus(Qt::OtherFocusReason);
}

void AnnotationDock::saveAdded()
{
    Annotation annotation;
    annotation.timeMs = m_addTime->dateTime().toMSecsSinceEpoch();
    if (m_addIsRegion->isChecked()) {
        annotation.endMs = m_addEnd->dateTime().toMSecsSinceEpoch();
        if (*annotation.endMs <= annotation.timeMs) {
            showError(tr("End: a region must end after it starts."));
            return;
        }
    }
    annotation.text = m_addText->text().trimmed();
    annotation.source = Annotation::Source::Manual;
    annotation.tags = AnnotationModel::edited(annotation, AnnotationModel::TagsColumn, m_addTags->text())->tags;
    if (annotation.text.isEmpty()) {
        showError(tr("Text: an annotation needs some text."));
        m_addText->setFocus(Qt::OtherFocusReason);
        return;
    }
    const quint64 id = m_editor->add(annotation);
    if (id == 0)
        return;
    showError(QString());
    m_addForm->hide();
    for (int row = 0; row < m_filter->rowCount(); ++row) {
        const QModelIndex index = m_filter->index(row, AnnotationModel::TextColumn);
        if (index.data(AnnotationModel::AnnotationIdRole).value<quint64>() == id) {
            m_table->selectionModel()->setCurrentIndex(index,
                                                       QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
            m_table->scrollTo(index);
            break;
        }
    }
    m_table->setFocus(Qt::OtherFocusReason);
}

void AnnotationDock::cancelAdding()
{
    showError(QString());
    m_addForm->hide();
    m_table->setFocus(Qt::OtherFocusReason);
}

void AnnotationDock::deleteSelected()
{
    std::vector<quint64> ids;
    for (const QModelIndex &row : m_table->selectionModel()->selectedRows())
        ids.push_back(row.data(AnnotationModel::AnnotationIdRole).value<quint64>());
    m_editor->removeAll(ids);
}

std::vector<quint64> AnnotationDock::selectedIds() const
{
    std::vector<quint64> ids;
    for (const QModelIndex &row : m_table->selectionModel()->selectedRows())
        ids.push_back(row.data(AnnotationModel::AnnotationIdRole).value<quint64>());
    return ids;
}

void AnnotationDock::acceptSelected()
{
    m_editor->acceptAll(selectedIds());
}

void AnnotationDock::dismissSelected()
{
    m_editor->dismissAll(selectedIds());
}

void AnnotationDock::showOnTimeline(quint64 id)
{
    if (const std::optional<Annotation> annotation = m_editor->model()->find(id))
        m_window->showRange(annotation->viewRange());
}

void AnnotationDock::updateButtons()
{
    m_deleteButton->setEnabled(m_table->selectionModel()->hasSelection());
    const QModelIndexList rows = m_table->selectionModel()->selectedRows();
    const bool anySuggested = std::any_of(rows.begin(), rows.end(), [](const QModelIndex &row) {
        return row.data(AnnotationModel::SuggestedRole).toBool();
    });
    // Shown only when there is something to decide, so the row stays short otherwise.
    for (QWidget *button : {static_cast<QWidget *>(m_acceptButton), static_cast<QWidget *>(m_dismissButton)}) {
        button->setEnabled(anySuggested);
        button->setVisible(anySuggested);
    }
    m_acceptAction->setVisible(anySuggested);
    m_dismissAction->setVisible(anySuggested);
    const bool anyReadOnly = std::any_of(rows.begin(), rows.end(), [this](const QModelIndex &row) {
        const auto a = m_editor->model()->find(row.data(AnnotationModel::AnnotationIdRole).value<quint64>());
        return a && a->isReadOnly();
    });
    m_copyAction->setVisible(anyReadOnly);
}

void AnnotationDock::updateCount()
{
    const int all = m_editor->model()->rowCount();
    const int shown = m_filter->rowCount();
    m_count->setText(shown == all ? Format::counted(all, tr("annotation"), tr("annotations"))
                                  : tr("%1 of %2 shown").arg(shown).arg(all));
    updateButtons();
}

void AnnotationDock::showError(const QString &message)
{
    m_error->setText(message);
    m_error->setVisible(!message.isEmpty());
}
