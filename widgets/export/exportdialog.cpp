// SPDX-License-Identifier: GPL-3.0-or-later
#include "export/exportdialog.h"

#include "base/filenames.h"
#include "base/format.h"
#include "dialogs/dialogbuttons.h"
#include "export/chartexporter.h"
#include "export/exporttheme.h"
#include "theme/uitheme.h"

#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDateTime>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPixmap>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QVBoxLayout>
#include <vector>

namespace {

constexpr int kPreviewDelayMs = 150;
const QSize kPreviewArea(720, 405);
const QString kGroup = QStringLiteral("export");

} // namespace

ExportDialog::ExportDialog(const SampleStore *store, ExportFigure figure, QSettings *settings, QWidget *parent)
    : QDialog(parent), m_store(store), m_figure(std::move(figure)), m_settings(settings), m_format(new QComboBox(this)),
      m_scale(new QComboBox(this)), m_width(new QSpinBox(this)), m_height(new QSpinBox(this)),
      m_theme(new QComboBox(this)), m_title(new QLineEdit(this)), m_subtitle(new QLineEdit(this)),
      m_caption(new QCheckBox(tr("Caption: time range, queries, source, version"), this)),
      m_panels(new QListWidget(this)), m_previewLabel(new QLabel(this)), m_status(new QLabel(this))
{
    if (!m_settings) {
        m_settings = new QSettings;
        m_ownSettings = true;
    }
    setWindowTitle(tr("Export"));
    m_format->addItem(tr("PNG picture"), QStringLiteral("png"));
    m_format->addItem(tr("SVG (vector, text stays text)"), QStringLiteral("svg"));
    m_format->addItem(tr("CSV (the samples)"), QStringLiteral("csv"));
    for (int s : {1, 2, 3})
        m_scale->addItem(QStringLiteral("%1×").arg(s), s);
    for (QSpinBox *box : {m_width, m_height}) {
        box->setRange(100, 10000);
        box->setSuffix(tr(" px"));
    }
    for (const QString &name : ExportTheme::names())
        m_theme->addItem(name, name);
    m_title->setPlaceholderText(tr("optional"));
    m_subtitle->setPlaceholderText(tr("optional"));
    for (const ExportFigure::Panel &panel : m_figure.panels) {
        auto *item = new QListWidgetItem(panel.title, m_panels);
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setCheckState(Qt::Checked);
    }
    m_panels->setMaximumHeight(120);

    auto *form = new QFormLayout;
    form->addRow(tr("Format"), m_format);
    auto *size = new QHBoxLayout;
    size->addWidget(m_width);
    size->addWidget(new QLabel(QStringLiteral("×"), this));
    size->addWidget(m_height);
    form->addRow(tr("Size"), size);
    form->addRow(tr("Pixel ratio"), m_scale);
    form->addRow(tr("Theme"), m_theme);
    form->addRow(tr("Title"), m_title);
    form->addRow(tr("Subtitle"), m_subtitle);
    form->addRow(QString(), m_caption);
    form->addRow(tr("Panels"), m_panels);

    m_previewLabel->setMinimumSize(kPreviewArea);
    // The pixmap follows the label's size, not the other way round.
    m_previewLabel->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Ignored);
    m_previewLabel->setAlignment(Qt::AlignCenter);
    m_previewLabel->setFrameShape(QFrame::StyledPanel);
    m_status->setWordWrap(true);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    QPushButton *save = buttons->addButton(tr("Save…"), QDialogButtonBox::AcceptRole);
    QPushButton *copy = buttons->addButton(tr("Copy picture"), QDialogButtonBox::ActionRole);
    DialogButtons::keepTabbable(buttons);
    save->setDefault(true);
    connect(save, &QPushButton::clicked, this, &ExportDialog::saveAs);
    connect(copy, &QPushButton::clicked, this, &ExportDialog::copyToClipboard);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *top = new QHBoxLayout;
    top->addLayout(form);
    top->addWidget(m_previewLabel, 1);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_status);
    layout->addWidget(buttons);

    // Tab follows the form top to bottom, then the buttons left to right (the widgets were
    // created in another order).
    const std::vector<QWidget *> tabOrder{m_format, m_width, m_height,   m_scale,
                                          m_theme,  m_title, m_subtitle, m_caption,
                                          m_panels, save,    copy,       buttons->button(QDialogButtonBox::Cancel)};
    for (std::size_t i = 1; i < tabOrder.size(); ++i)
        QWidget::setTabOrder(tabOrder[i - 1], tabOrder[i]);

    loadSettings();
    m_previewDelay.setSingleShot(true);
    m_previewDelay.setInterval(kPreviewDelayMs);
    connect(&m_previewDelay, &QTimer::timeout, this, &ExportDialog::renderPreview);
    for (QComboBox *box : {m_format, m_scale, m_theme})
        connect(box, &QComboBox::currentIndexChanged, this, &ExportDialog::schedulePreview);
    for (QSpinBox *box : {m_width, m_height})
        connect(box, &QSpinBox::valueChanged, this, &ExportDialog::schedulePreview);
    for (QLineEdit *edit : {m_title, m_subtitle})
        connect(edit, &QLineEdit::textChanged, this, &ExportDialog::schedulePreview);
    connect(m_caption, &QCheckBox::toggled, this, &ExportDialog::schedulePreview);
    connect(m_panels, &QListWidget::itemChanged, this, &ExportDialog::schedulePreview);
    connect(m_format, &QComboBox::currentIndexChanged, this, [this] {
        m_scale->setEnabled(format() == QLatin1String("png")); // vectors and numbers have no pixel ratio
    });
    m_scale->setEnabled(format() == QLatin1String("png"));
    schedulePreview();
}

ExportDialog::~ExportDialog()
{
    if (m_ownSettings)
        delete m_settings;
}

ExportFigure ExportDialog::currentFigure() const
{
    ExportFigure figure = m_figure;
    figure.panels.clear();
    for (int i = 0; i < m_panels->count() && i < int(m_figure.panels.size()); ++i) {
        if (m_panels->item(i)->checkState() == Qt::Checked)
            figure.panels.push_back(m_figure.panels[std::size_t(i)]);
    }
    figure.title = m_title->text().trimmed();
    figure.subtitle = m_subtitle->text().trimmed();
    figure.caption = m_caption->isChecked();
    return figure;
}

QString ExportDialog::format() const
{
    return m_format->currentData().toString();
}

double ExportDialog::scale() const
{
    return m_scale->currentData().toDouble();
}

QSize ExportDialog::logicalSize() const
{
    return {m_width->value(), m_height->value()};
}

QString ExportDialog::themeName() const
{
    return m_theme->currentData().toString();
}

void ExportDialog::setTitle(const QString &title)
{
    m_title->setText(title);
}

void ExportDialog::setFormat(const QString &format)
{
    const int index = m_format->findData(format);
    if (index >= 0)
        m_format->setCurrentIndex(index);
}

void ExportDialog::resizeEvent(QResizeEvent *event)
{
    QDialog::resizeEvent(event);
    schedulePreview();
}

void ExportDialog::schedulePreview()
{
    m_previewDelay.start();
}

void ExportDialog::renderPreview()
{
    // The picture at 1×, as it will be written (a CSV's preview is the chart it comes from).
    const ExportTheme theme = ExportTheme::named(themeName()).value_or(ExportTheme::blog());
    m_preview = ChartExporter(*m_store, theme).toImage(currentFigure(), logicalSize(), 1);
    m_previewLabel->setPixmap(QPixmap::fromImage(
        m_preview.scaled(m_previewLabel->contentsRect().size(), Qt::KeepAspectRatio, Qt::SmoothTransformation)));
    // The picture's own size: several panels make it taller than asked (each plot keeps at
    // least half its panel), and the line once said the size asked for instead.
    const QSize drawn = m_preview.size();
    const bool png = format() == QLatin1String("png");
    const QSize pixels = drawn * (png ? scale() : 1);
    QString size = png ? tr("%1 × %2 pixels").arg(pixels.width()).arg(pixels.height())
                       : tr("%1 × %2").arg(drawn.width()).arg(drawn.height());
    if (drawn.height() > logicalSize().height())
        size += tr(", taller than the %1 asked: %2 need the room")
                    .arg(logicalSize().height())
                    .arg(Format::counted(qsizetype(currentFigure().panels.size()), tr("panel"), tr("panels")));
    m_status->setText(currentFigure().panels.empty() ? tr("No panel chosen.") : size);
    emit previewUpdated();
}

QString ExportDialog::statusText() const
{
    return m_status->text();
}

bool ExportDialog::writeTo(const QString &path, QString *message)
{
    const ExportFigure figure = currentFigure();
    QString problem;
    if (figure.panels.empty()) {
        problem = tr("Choose at least one panel.");
    } else {
        const ExportTheme theme = ExportTheme::named(themeName()).value_or(ExportTheme::blog());
        // Up to a second for a big 3× picture of a long window: say so while it is drawn,
        // rather than leaving a dialog that looks frozen.
        m_status->setText(tr("Writing %1…").arg(QFileInfo(path).fileName()));
        m_status->repaint();
        QGuiApplication::setOverrideCursor(Qt::WaitCursor);
        const Result<QString> written = ChartExporter(*m_store, theme).write(path, figure, logicalSize(), scale());
        QGuiApplication::restoreOverrideCursor();
        if (written) {
            storeSettings();
            m_settings->setValue(kGroup + QStringLiteral("/folder"), QFileInfo(written.value()).absolutePath());
            m_status->setText(tr("Written to %1").arg(written.value()));
            m_writtenPath = written.value();
            if (message)
                *message = written.value();
            return true;
        }
        problem = written.error().message;
    }
    m_status->setText(QStringLiteral("<span style='color:%1'>%2</span>")
                          .arg(UiTheme::css(UiTheme::instance()->colors().warning), problem.toHtmlEscaped()));
    if (message)
        *message = problem;
    return false;
}

QString ExportDialog::suggestedPath() const
{
    QString folder = m_settings->value(kGroup + QStringLiteral("/folder")).toString();
    if (folder.isEmpty() || !QFileInfo(folder).isDir()) {
        folder = QStandardPaths::writableLocation(QStandardPaths::PicturesLocation);
        if (folder.isEmpty() || !QFileInfo(folder).isDir())
            folder = QDir::homePath();
    }
    const ExportFigure figure = currentFigure();
    QString name = figure.title.trimmed();
    if (name.isEmpty() && figure.panels.size() == 1)
        name = figure.panels.front().title;
    if (name.isEmpty())
        name = m_dashboardName; // a picture of several panels is of the dashboard
    name = FileNames::slug(name, 60);
    if (name.isEmpty())
        name = QStringLiteral("chaoscope");
    const qint64 endMs = figure.isComparison() ? figure.compare.front().range.endMs : figure.range.endMs;
    const QString when =
        QDateTime::fromMSecsSinceEpoch(endMs, figure.timeZone).toString(QStringLiteral("yyyy-MM-dd-HHmm"));
    return QDir(folder).filePath(name + QLatin1Char('-') + when + QLatin1Char('.') + format());
}

void ExportDialog::saveAs()
{
    const QString suffix = format();
    const QString filter = suffix.toUpper() + QStringLiteral(" (*.") + suffix + QLatin1Char(')');
    QString path = QFileDialog::getSaveFileName(this, tr("Export"), suggestedPath(), filter);
    if (path.isEmpty())
        return;
    if (!path.endsWith(QLatin1Char('.') + suffix, Qt::CaseInsensitive))
        path += QLatin1Char('.') + suffix;
    if (writeTo(path))
        accept();
}

void ExportDialog::copyToClipboard()
{
    const ExportTheme theme = ExportTheme::named(themeName()).value_or(ExportTheme::blog());
    QGuiApplication::setOverrideCursor(Qt::WaitCursor);
    QGuiApplication::clipboard()->setImage(
        ChartExporter(*m_store, theme).toImage(currentFigure(), logicalSize(), scale()));
    QGuiApplication::restoreOverrideCursor();
    storeSettings();
    m_status->setText(tr("The picture is on the clipboard."));
}

void ExportDialog::loadSettings()
{
    setFormat(m_settings->value(kGroup + QStringLiteral("/format"), QStringLiteral("png")).toString());
    const int scaleIndex = m_scale->findData(m_settings->value(kGroup + QStringLiteral("/scale"), 2).toInt());
    m_scale->setCurrentIndex(scaleIndex >= 0 ? scaleIndex : 1);
    const QSize size = m_settings->value(kGroup + QStringLiteral("/size"), ChartExporter::kDefaultSize).toSize();
    m_width->setValue(size.width());
    m_height->setValue(size.height());
    const int themeIndex =
        m_theme->findData(m_settings->value(kGroup + QStringLiteral("/theme"), QStringLiteral("blog")));
    m_theme->setCurrentIndex(themeIndex >= 0 ? themeIndex : 0);
    m_caption->setChecked(m_settings->value(kGroup + QStringLiteral("/caption"), true).toBool());
}

void ExportDialog::storeSettings() const
{
    m_settings->setValue(kGroup + QStringLiteral("/format"), format());
    m_settings->setValue(kGroup + QStringLiteral("/scale"), int(scale()));
    m_settings->setValue(kGroup + QStringLiteral("/size"), logicalSize());
    m_settings->setValue(kGroup + QStringLiteral("/theme"), themeName());
    m_settings->setValue(kGroup + QStringLiteral("/caption"), m_caption->isChecked());
}
