// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "base/timerange.h"
#include "session/format/sessioncontents.h"

#include <QObject>
#include <QPointer>
#include <QString>
#include <memory>
#include <optional>

class AnnotationModel;
class SessionRecorder;

// "Save session as…" for what is on screen: the live recording as written so far, or an
// opened recording, with the annotations as they are now. Writes a compacted (optionally
// trimmed) copy off the UI thread and says how it went.
class SessionSaver : public QObject
{
    Q_OBJECT
public:
    explicit SessionSaver(AnnotationModel *annotations, QObject *parent = nullptr);

    void setLive(SessionRecorder *recorder);
    void setRecording(std::shared_ptr<const SessionContents> contents, const QString &path);

    bool canSave() const;
    bool isBusy() const { return m_busy; }
    // The file the session comes from (never overwritten by save()).
    QString sourcePath() const;

    // Starts writing; finished() follows (also for a refusal).
    void save(const QString &path, std::optional<TimeRange> trimTo = std::nullopt);

signals:
    void finished(bool ok, const QString &message);

private:
    AnnotationModel *m_annotations;
    QPointer<SessionRecorder> m_recorder;
    std::shared_ptr<const SessionContents> m_contents;
    QString m_contentsPath;
    bool m_busy = false;
};
