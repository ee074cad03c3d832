// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "export/exportfigure.h"

#include <QDialog>
#include <QImage>
#include <QSize>
#include <QTimer>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QSettings;
class QSpinBox;
class SampleStore;

// File ▸ Export…: the picture as it will be written, next to what shapes it (format, pixel
// ratio, size, theme, title, subtitle, caption, which panels). Every change redraws the
// preview (coalesced, so typing a title does not redraw per key). The settings of the last
// export are remembered; the title is not, as it belongs to one picture.
class ExportDialog : public QDialog
{
    Q_OBJECT
public:
    // `figure` holds every panel of the dashboard over the range to export (the current view).
    // `settings` (nullable: the application's) is where the last choices are kept.
    ExportDialog(const SampleStore *store, ExportFigure figure, QSettings *settings = nullptr,
                 QWidget *parent = nullptr);
    ~ExportDialog() override;

    // What would be written now, for the preview and the tests.
    ExportFigure currentFigure() const;
    QString format() const; // "png", "svg", "csv"
    double scale() const;
    QSize logicalSize() const;
    QString themeName() const;
    const QImage &preview() const { return m_preview; }

    // Writes to `path` as chosen; the absolute path, or the reason on failure (also shown).
    bool writeTo(const QString &path, QString *message = nullptr);

    // Where Save starts: the folder of the last export (else Pictures, else home) and a name
    // from the picture's title (else its one panel's, else the dashboard's name) and the end of
    // its range, in the figure's time zone: "throughput-2026-03-01-0950.png".
    QString suggestedPath() const;
    // What the picture is of when it shows several panels: the dashboard's title.
    void setDashboardName(const QString &name) { m_dashboardName = name; }
    // The file the last Save wrote, for the window to say so once the dialog is closed.
    QString writtenPath() const { return m_writtenPath; }
    // What the status line says: the size of the picture as it will be written, and why it is
    // not the size asked for when it is not.
    QString statusText() const;

    void setTitle(const QString &title);
    void setFormat(const QString &format);

signals:
    void previewUpdated();

protected:
    void resizeEvent(QResizeEvent *event) override; // the preview fills the room it gets

private:
    void schedulePreview();
    void renderPreview();
    void saveAs();
    void copyToClipboard();
    void loadSettings();
    void storeSettings() const;

    const SampleStore *m_store;
    ExportFigure m_figure;
    QString m_dashboardName;
    QString m_writtenPath;
    QSettings *m_settings;
    bool m_ownSettings = false;
    QComboBox *m_format;
    QComboBox *m_scale;
    QSpinBox *m_width;
    QSpinBox *m_height;
    QComboBox *m_theme;
    QLineEdit *m_title;
    QLineEdit *m_subtitle;
    QCheckBox *m_caption;
    QListWidget *m_panels;
    QLabel *m_previewLabel;
    QLabel *m_status;
    QTimer m_previewDelay;
    QImage m_preview;
};
