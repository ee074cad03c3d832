// SPDX-License-Identifier: GPL-3.0-or-later
#include "export/postdialog.h"

#include "base/format.h"
#include "base/whenfinished.h"
#include "store/samplestore.h"

#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace {

QStringList wordsOf(const QString &text)
{
    QStringList words;
    for (const QString &word : text.split(QLatin1Char(','), Qt::SkipEmptyParts))
        if (!word.trimmed().isEmpty())
            words << word.trimmed();
    return words;
}

} // namespace

PostDialog::PostDialog(PostRun run, std::shared_ptr<const SampleStore> samples, PostSettings settings,
                       const QString &folder, QWidget *parent)
    : QDialog(parent), m_run(std::move(run)), m_samples(std::move(samples)), m_base(std::move(settings)),
      m_folder(new QLineEdit(folder)), m_title(new QLineEdit(m_base.title)),
      m_authors(new QLineEdit(m_base.authors.join(QStringLiteral(", ")))),
      m_tags(new QLineEdit(m_base.tags.join(QStringLiteral(", ")))), m_headline(new QListWidget), m_plan(new QLabel),
      m_status(new QLabel), m_write(new QPushButton(tr("&Write post")))
{
    setWindowTitle(tr("Export post"));
    m_title->setPlaceholderText(tr("the scenario's title, or the dashboard's and the date"));
    m_authors->setPlaceholderText(tr("comma-separated, as the blog names them"));
    m_tags->setPlaceholderText(tr("comma-separated"));
    auto *browse = new QPushButton(tr("&Browse…"));
    connect(browse, &QPushButton::clicked, this, &PostDialog::chooseFolder);
    auto *folderRow = new QHBoxLayout;
    folderRow->addWidget(m_folder, 1);
    folderRow->addWidget(browse);

    // The summary picture's panels: the dashboard's headline panels, else all, to start with.
    const std::vector<PanelDefinition> &panels = m_run.snapshot.dashboard.panels;
    const bool anyHeadline = std::any_of(panels.begin(), panels.end(), [](const auto &p) { return p.headline; });
    for (const PanelDefinition &panel : panels) {
        auto *item = new QListWidgetItem(panel.title, m_headline);
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        const bool chosen = m_base.headlinePanels.isEmpty() ? (!anyHeadline || panel.headline)
                                                            : m_base.headlinePanels.contains(panel.title);
        item->setCheckState(chosen ? Qt::Checked : Qt::Unchecked);
    }
    m_headline->setMaximumHeight(140);

    auto *form = new QFormLayout;
    form->addRow(tr("Folder"), folderRow);
    form->addRow(tr("Title"), m_title);
    form->addRow(tr("Authors"), m_authors);
    form->addRow(tr("Tags"), m_tags);
    form->addRow(tr("Summary picture"), m_headline);

    m_plan->setWordWrap(true);
    m_plan->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_plan->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_status->setWordWrap(true);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    buttons->addButton(m_write, QDialogButtonBox::AcceptRole);
    m_write->setDefault(true);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_write, &QPushButton::clicked, this, &PostDialog::write);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(new QLabel(tr("<b>The post will hold</b>")));
    layout->addWidget(m_plan, 1);
    layout->addWidget(m_status);
    layout->addWidget(buttons);

    for (QLineEdit *field : {m_title, m_folder})
        connect(field, &QLineEdit::textChanged, this, &PostDialog::updatePlan);
    connect(m_headline, &QListWidget::itemChanged, this, &PostDialog::updatePlan);
    updatePlan();
    resize(720, 560);
}

QString PostDialog::folder() const
{
    return m_folder->text().trimmed();
}

PostSettings PostDialog::settings() const
{
    PostSettings settings = m_base;
    settings.title = m_title->text().trimmed();
    settings.authors = wordsOf(m_authors->text());
    settings.tags = wordsOf(m_tags->text());
    settings.headlinePanels.clear();
    for (int i = 0; i < m_headline->count(); ++i)
        if (m_headline->item(i)->checkState() == Qt::Checked)
            settings.headlinePanels << m_headline->item(i)->text();
    return settings;
}

QString PostDialog::planText() const
{
    return m_plan->text();
}

void PostDialog::updatePlan()
{
    const PostSettings chosen = settings();
    const Result<PostExporter::Planned> planned = PostExporter().plan(m_run, chosen);
    QString problem;
    if (!planned)
        problem = planned.error().message;
    else if (chosen.headlinePanels.isEmpty())
        problem = tr("Choose at least one panel for the summary picture.");
    else if (folder().isEmpty())
        problem = tr("Choose the post's folder.");
    m_write->setEnabled(problem.isEmpty() && !m_writing);
    if (!planned) {
        m_plan->setText(problem);
        return;
    }
    QStringList lines;
    const PostDraft &draft = planned->draft;
    lines << tr("“%1”, %2").arg(draft.title, draft.date.toString(Qt::ISODate));
    lines << tr("Summary picture: %1").arg(draft.headline.file);
    for (const PostDraft::Phase &phase : draft.phases)
        lines << tr("Phase %1: %2 — %3").arg(phase.number).arg(phase.title, phase.picture.file);
    lines << tr("%1 in the action table")
                 .arg(Format::counted(qint64(draft.actions.size()), tr("thing done"), tr("things done")));
    lines << (draft.expectations.empty() ? tr("Expected and Result left for you to fill in")
                                         : tr("%1 with their verdicts")
                                               .arg(Format::counted(qint64(draft.expectations.size()),
                                                                    tr("expectation"), tr("expectations"))));
    if (!draft.notes.empty())
        lines << tr("%1 from the run").arg(Format::counted(qint64(draft.notes.size()), tr("note"), tr("notes")));
    if (!problem.isEmpty())
        lines << QString() << problem;
    m_plan->setText(lines.join(QLatin1Char('\n')));
}

void PostDialog::chooseFolder()
{
    const QString chosen = QFileDialog::getExistingDirectory(this, tr("The post's folder"), folder());
    if (!chosen.isEmpty())
        m_folder->setText(chosen);
}

void PostDialog::write()
{
    if (m_writing)
        return;
    m_writing = true;
    m_write->setEnabled(false);
    m_status->setText(tr("Drawing the pictures…"));
    // The samples are a copy the worker shares until it is done: closing the dialog meanwhile
    // leaves it nothing to read that goes away.
    const QString target = folder();
    const PostSettings chosen = settings();
    QFuture<Result<PostExporter::Written>> future = QtConcurrent::run(
        [run = m_run, samples = m_samples, target, chosen] { return PostExporter().write(target, run, chosen); });
    whenFinished(future, this, [this](const Result<PostExporter::Written> &written) {
        m_writing = false;
        updatePlan();
        if (!written) {
            m_status->setText(written.error().message);
            emit this->written(false, written.error().message, {});
            return;
        }
        const QString message =
            written->keptEdited
                ? tr("Your edited index.md is kept as it is; the new draft is %1, beside it.").arg(written->index)
                : tr("Written: %1 and %2.")
                      .arg(written->index,
                           Format::counted(qint64(written->pictures.size()), tr("picture"), tr("pictures")));
        m_status->setText(message);
        emit this->written(true, message, written->index);
    });
}
