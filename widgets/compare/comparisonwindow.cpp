// SPDX-License-Identifier: GPL-3.0-or-later
#include "compare/comparisonwindow.h"

#include "base/format.h"
#include "export/chartexporter.h"
#include "export/exportfigure.h"
#include "export/exporttheme.h"
#include "store/samplestore.h"

#include <QApplication>
#include <QClipboard>
#include <QDateTime>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QRadioButton>
#include <QSaveFile>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

namespace {

constexpr int kMaxRuns = 8;
const QSize kPictureSize{1200, 675};

} // namespace

ComparisonWindow::ComparisonWindow(QWidget *parent)
    : QWidget(parent, Qt::Window), m_runs(new QListWidget), m_remove(new QPushButton(tr("&Remove"))),
      m_align(new QLineEdit), m_steady(new QLineEdit), m_columns(new QLineEdit), m_overlaid(new QLineEdit),
      m_overlay(new QRadioButton(tr("&Overlaid"))), m_sideBySide(new QRadioButton(tr("&Side by side"))),
      m_panels(new QListWidget), m_previewLabel(new QLabel), m_tableView(new QTableWidget), m_status(new QLabel)
{
    setWindowTitle(tr("Compare runs — Chaoscope"));
    setObjectName(QStringLiteral("comparisonWindow"));

    // The runs, renamed in place ("500 PI/s"), and where more come from.
    m_runs->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed);
    auto *addRecordings = new QPushButton(tr("Add &recordings…"));
    auto *addView = new QPushButton(tr("Add the &view shown"));
    auto *addVariable = new QPushButton(tr("Add &values of a variable…"));
    addRecordings->setToolTip(tr("Runs recorded before: each keeps its own samples and marks."));
    addView->setToolTip(tr("The time range shown in the main window, as one run."));
    addVariable->setToolTip(
        tr("The dashboard once per value of a variable (a namespace per cluster), over the view shown."));
    connect(addRecordings, &QPushButton::clicked, this, &ComparisonWindow::addRecordingsRequested);
    connect(addView, &QPushButton::clicked, this, &ComparisonWindow::addViewRequested);
    connect(addVariable, &QPushButton::clicked, this, &ComparisonWindow::addVariableRequested);
    connect(m_remove, &QPushButton::clicked, this, [this] {
        const int row = m_runs->currentRow();
        if (row >= 0 && row < int(m_given.size()))
            emit removeRequested(row);
    });
    connect(m_runs, &QListWidget::itemChanged, this, [this](QListWidgetItem *item) {
        const int row = m_runs->row(item);
        if (row >= 0 && row < int(m_given.size()))
            m_renamed.insert(m_given[std::size_t(row)].title, item->text().trimmed());
        schedule();
    });
    auto *runButtons = new QVBoxLayout;
    for (QPushButton *button : {addRecordings, addView, addVariable, m_remove})
        runButtons->addWidget(button);
    runButtons->addStretch(1);
    auto *runsRow = new QHBoxLayout;
    runsRow->addWidget(m_runs, 1);
    runsRow->addLayout(runButtons);
    auto *runsBox = new QGroupBox(tr("Runs (2 to %1; double-click to rename)").arg(kMaxRuns));
    runsBox->setLayout(runsRow);

    m_align->setPlaceholderText(tr("each run's start; or the first mark containing… (rate)"));
    m_steady->setPlaceholderText(tr("from the zero to the end; or +30s/+5m"));
    m_columns->setPlaceholderText(tr("each series with an id, its mean; or completed:mean, p99:max"));
    m_overlaid->setPlaceholderText(tr("each panel's first series; or sent, completed"));
    m_overlaid->setEnabled(false);
    m_sideBySide->setChecked(true);
    auto *view = new QHBoxLayout;
    view->addWidget(m_overlay);
    view->addWidget(m_sideBySide);
    view->addStretch(1);
    m_panels->setMaximumHeight(110);
    auto *form = new QFormLayout;
    form->addRow(tr("Align on"), m_align);
    form->addRow(tr("Steady state"), m_steady);
    form->addRow(tr("Table columns"), m_columns);
    form->addRow(tr("View"), view);
    form->addRow(tr("Overlaid series"), m_overlaid);
    form->addRow(tr("Panels"), m_panels);

    m_previewLabel->setAlignment(Qt::AlignCenter);
    m_previewLabel->setMinimumSize(480, 270);
    m_previewLabel->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Ignored);
    m_tableView->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_tableView->horizontalHeader()->setStretchLastSection(true);
    m_tableView->verticalHeader()->setVisible(false);
    auto *splitter = new QSplitter(Qt::Vertical);
    splitter->addWidget(m_previewLabel);
    splitter->addWidget(m_tableView);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 1);

    auto *copyMarkdown = new QPushButton(tr("Copy table as &Markdown"));
    auto *copyCsv = new QPushButton(tr("Copy table as &CSV"));
    auto *saveTable = new QPushButton(tr("Save &table…"));
    auto *exportPicture = new QPushButton(tr("E&xport picture…"));
    connect(copyMarkdown, &QPushButton::clicked, this, [this] {
        if (m_table)
            QApplication::clipboard()->setText(m_table->toMarkdown());
    });
    connect(copyCsv, &QPushButton::clicked, this, [this] {
        if (m_table)
            QApplication::clipboard()->setText(m_table->toCsv());
    });
    connect(saveTable, &QPushButton::clicked, this, &ComparisonWindow::saveTable);
    connect(exportPicture, &QPushButton::clicked, this, &ComparisonWindow::exportPicture);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_status, 1);
    for (QPushButton *button : {copyMarkdown, copyCsv, saveTable, exportPicture})
        buttons->addWidget(button);
    m_status->setWordWrap(true);

    auto *left = new QVBoxLayout;
    left->addWidget(runsBox);
    left->addLayout(form);
    left->addStretch(1);
    auto *leftWidget = new QWidget;
    leftWidget->setLayout(left);
    leftWidget->setMaximumWidth(460);
    auto *top = new QHBoxLayout;
    top->addWidget(leftWidget);
    top->addWidget(splitter, 1);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top, 1);
    layout->addLayout(buttons);

    m_delay.setSingleShot(true);
    m_delay.setInterval(150); // typing a column spec redraws once, not per key
    connect(&m_delay, &QTimer::timeout, this, &ComparisonWindow::refresh);
    for (QLineEdit *field : {m_align, m_steady, m_columns, m_overlaid})
        connect(field, &QLineEdit::textChanged, this, &ComparisonWindow::schedule);
    connect(m_overlay, &QRadioButton::toggled, this, [this](bool overlay) {
        m_overlaid->setEnabled(overlay);
        schedule();
    });
    connect(m_panels, &QListWidget::itemChanged, this, &ComparisonWindow::schedule);
    resize(1400, 860);
}

void ComparisonWindow::setRuns(std::vector<ComparedRun> runs)
{
    if (runs.size() > std::size_t(kMaxRuns))
        runs.resize(std::size_t(kMaxRuns));
    m_given = std::move(runs);
    const QSignalBlocker blockRuns(m_runs);
    m_runs->clear();
    for (const ComparedRun &run : m_given) {
        auto *item = new QListWidgetItem(m_renamed.value(run.title, run.title), m_runs);
        item->setFlags(item->flags() | Qt::ItemIsEditable);
        item->setToolTip(tr("%1, %2").arg(
            QDateTime::fromMSecsSinceEpoch(run.range.startMs).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")),
            Format::duration(run.range.length())));
    }
    // The panels of the first run: at first its dashboard's headline panels (all when none is
    // one); then as the user chose them.
    QHash<QString, bool> chosen;
    for (int i = 0; i < m_panels->count(); ++i)
        chosen.insert(m_panels->item(i)->text(), m_panels->item(i)->checkState() == Qt::Checked);
    const QSignalBlocker blockPanels(m_panels);
    m_panels->clear();
    if (!m_given.empty()) {
        const std::vector<PanelDefinition> &panels = m_given.front().snapshot.dashboard.panels;
        const bool anyHeadline = std::any_of(panels.begin(), panels.end(), [](const auto &p) { return p.headline; });
        for (const PanelDefinition &panel : panels) {
            auto *item = new QListWidgetItem(panel.title, m_panels);
            item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
            const bool shown = chosen.value(panel.title, !anyHeadline || panel.headline);
            item->setCheckState(shown ? Qt::Checked : Qt::Unchecked);
        }
    }
    schedule();
}

void ComparisonWindow::setAlignText(const QString &text)
{
    m_align->setText(text);
}

void ComparisonWindow::setSteady(const QString &text)
{
    m_steady->setText(text);
}

void ComparisonWindow::setColumns(const QString &text)
{
    m_columns->setText(text);
}

void ComparisonWindow::setOverlay(bool overlay)
{
    (overlay ? m_overlay : m_sideBySide)->setChecked(true);
}

void ComparisonWindow::setOverlaid(const QString &names)
{
    m_overlaid->setText(names);
}

QString ComparisonWindow::status() const
{
    return m_status->text();
}

Result<std::vector<ComparedRun>> ComparisonWindow::arrangedRuns() const
{
    if (m_given.size() < 2)
        return Error::make(Error::Kind::Invalid, tr("Add at least two runs to compare (%1 now).").arg(m_given.size()));
    SteadyState steady;
    if (!m_steady->text().trimmed().isEmpty()) {
        const Result<SteadyState> parsed = SteadyState::parse(m_steady->text());
        if (!parsed)
            return Error::make(Error::Kind::Invalid, tr("Steady state: %1").arg(parsed.error().message));
        steady = parsed.value();
    }
    std::vector<ComparedRun> runs = m_given;
    const QStringList texts = m_align->text().split(QLatin1Char(','), Qt::SkipEmptyParts);
    for (std::size_t i = 0; i < runs.size(); ++i) {
        ComparedRun &run = runs[i];
        if (QListWidgetItem *item = m_runs->item(int(i)); item && !item->text().trimmed().isEmpty())
            run.title = item->text().trimmed();
        run.zeroMs = run.range.startMs;
        if (!texts.isEmpty()) {
            const QString text = texts.value(qsizetype(i), texts.constLast()).trimmed();
            const std::optional<qint64> zero = run.firstMarkWith(text);
            if (!zero)
                return Error::make(Error::Kind::Invalid,
                                   tr("Align on: no mark of %1 contains “%2”.").arg(run.title, text));
            run.zeroMs = *zero;
        }
        run.steady = run.steadyFrom(steady);
    }
    return runs;
}

ExportFigure ComparisonWindow::figure(const std::vector<ComparedRun> &runs) const
{
    QStringList overlaid;
    for (const QString &name : m_overlaid->text().split(QLatin1Char(','), Qt::SkipEmptyParts))
        if (!name.trimmed().isEmpty())
            overlaid << name.trimmed();
    ExportFigure figure = ExportFigure::fromRuns(
        runs, m_overlay->isChecked() ? ExportFigure::CompareView::Overlay : ExportFigure::CompareView::SideBySide,
        overlaid);
    QStringList chosen;
    for (int i = 0; i < m_panels->count(); ++i)
        if (m_panels->item(i)->checkState() == Qt::Checked)
            chosen << m_panels->item(i)->text();
    if (!chosen.isEmpty())
        (void)figure.selectPanels(chosen); // titles of the first run's panels: always found
    QStringList titles;
    for (const ComparedRun &run : runs)
        titles << run.title;
    figure.title = titles.join(QStringLiteral(" · "));
    figure.version = QStringLiteral("Chaoscope %1").arg(QCoreApplication::applicationVersion());
    return figure;
}

void ComparisonWindow::schedule()
{
    m_delay.start();
}

void ComparisonWindow::refresh()
{
    m_table.reset();
    m_tableView->clear();
    m_tableView->setRowCount(0);
    m_tableView->setColumnCount(0);
    const Result<std::vector<ComparedRun>> runs = arrangedRuns();
    if (!runs) {
        m_preview = {};
        m_previewLabel->setPixmap({});
        m_previewLabel->setText(runs.error().message);
        m_status->setText(runs.error().message);
        emit updated();
        return;
    }
    const ExportFigure shown = figure(runs.value());
    const SampleStore *store = runs->front().store;
    m_preview = ChartExporter(*store, ExportTheme::blog()).toImage(shown, kPictureSize, 1);
    m_previewLabel->setPixmap(QPixmap::fromImage(
        m_preview.scaled(m_previewLabel->contentsRect().size(), Qt::KeepAspectRatio, Qt::SmoothTransformation)));

    const QString columns = m_columns->text().trimmed();
    const Result<std::vector<RunTable::Request>> requests =
        columns.isEmpty()
            ? Result<std::vector<RunTable::Request>>(RunTable::defaultRequests(runs->front().snapshot.dashboard))
            : RunTable::parseRequests(columns);
    Result<RunTable> table = requests ? RunTable::compute(runs.value(), requests.value()) : requests.error();
    if (!table) {
        m_status->setText(tr("Table columns: %1").arg(table.error().message));
        emit updated();
        return;
    }
    m_table = table.value();
    m_tableView->setColumnCount(int(m_table->columns.size()) + 1);
    m_tableView->setRowCount(int(m_table->runs.size()));
    QStringList header{tr("run")};
    for (const RunTable::Column &column : m_table->columns)
        header << column.title();
    m_tableView->setHorizontalHeaderLabels(header);
    for (int r = 0; r < int(m_table->runs.size()); ++r) {
        m_tableView->setItem(r, 0, new QTableWidgetItem(m_table->runs[r]));
        for (std::size_t c = 0; c < m_table->columns.size(); ++c) {
            const std::optional<double> &value = m_table->cells[std::size_t(r)][c];
            auto *item =
                new QTableWidgetItem(value ? Format::value(*value, m_table->columns[c].unit) : QStringLiteral("–"));
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            m_tableView->setItem(r, int(c) + 1, item);
        }
    }
    m_tableView->resizeColumnsToContents();
    m_status->setText(tr("%1 compared; each steady state from its zero%2.")
                          .arg(Format::counted(qint64(runs->size()), tr("run"), tr("runs")))
                          .arg(m_steady->text().trimmed().isEmpty()
                                   ? tr(" to its end")
                                   : QStringLiteral(" (%1)").arg(m_steady->text().trimmed())));
    emit updated();
}

Result<QString> ComparisonWindow::writePicture(const QString &path) const
{
    const Result<std::vector<ComparedRun>> runs = arrangedRuns();
    if (!runs)
        return runs.error();
    const ExportFigure shown = figure(runs.value());
    return ChartExporter(*runs->front().store, ExportTheme::blog()).write(path, shown, kPictureSize, 2);
}

Result<QString> ComparisonWindow::writeTable(const QString &path) const
{
    if (!m_table)
        return Error::make(Error::Kind::Invalid, tr("There is no table to write yet."));
    const bool csv = path.endsWith(QLatin1String(".csv"), Qt::CaseInsensitive);
    const QByteArray bytes = (csv ? m_table->toCsv() : m_table->toMarkdown()).toUtf8();
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit())
        return Error::make(Error::Kind::Io, tr("Cannot write %1: %2").arg(path, file.errorString()));
    return QFileInfo(path).absoluteFilePath();
}

void ComparisonWindow::exportPicture()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Export the comparison"), QStringLiteral("runs.png"),
                                                      tr("PNG (*.png);;SVG (*.svg)"));
    if (path.isEmpty())
        return;
    const Result<QString> written = writePicture(path);
    m_status->setText(written ? tr("Written: %1").arg(written.value()) : written.error().message);
}

void ComparisonWindow::saveTable()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Save the run table"), QStringLiteral("runs.md"),
                                                      tr("Markdown (*.md);;CSV (*.csv)"));
    if (path.isEmpty())
        return;
    const Result<QString> written = writeTable(path);
    m_status->setText(written ? tr("Written: %1").arg(written.value()) : written.error().message);
}
