// SPDX-License-Identifier: GPL-3.0-or-later
#include "session/sessionsaver.h"

#include "annotations/annotationmodel.h"
#include "base/format.h"
#include "base/whenfinished.h"
#include "session/format/sessionreader.h"
#include "session/sessioncompactor.h"
#include "session/sessionrecorder.h"

#include <QFileInfo>
#include <QLocale>
#include <QtConcurrent>

SessionSaver::SessionSaver(AnnotationModel *annotations, QObject *parent) : QObject(parent), m_annotations(annotations)
{}

void SessionSaver::setLive(SessionRecorder *recorder)
{
    m_recorder = recorder;
    m_contents.reset();
}

void SessionSaver::setRecording(std::shared_ptr<const SessionContents> contents, const QString &path)
{
    m_contents = std::move(contents);
    m_contentsPath = path;
    m_recorder = nullptr;
}

bool SessionSaver::canSave() const
{
    return m_contents || (m_recorder && m_recorder->isActive());
}

QString SessionSaver::sourcePath() const
{
    if (m_contents)
        return m_contentsPath;
    return m_recorder ? m_recorder->path() : QString();
}

void SessionSaver::save(const QString &path, std::optional<TimeRange> trimTo)
{
    if (m_busy) {
        emit finished(false, tr("A session is being saved already."));
        return;
    }
    if (!canSave()) {
        emit finished(false, tr("Nothing is being recorded, so there is no session to save."));
        return;
    }
    const QString source = sourcePath();
    if (!source.isEmpty() && QFileInfo(path).absoluteFilePath() == QFileInfo(source).absoluteFilePath()) {
        emit finished(
            false,
            tr("%1 is the session being shown; save the copy under another name.").arg(QFileInfo(source).fileName()));
        return;
    }
    const std::vector<Annotation> annotations = m_annotations->annotations();
    QFuture<std::optional<Error>> future;
    if (m_contents) {
        future = QtConcurrent::run([contents = m_contents, path, annotations, trimTo]() {
            return SessionCompactor::write(path, *contents, annotations, trimTo);
        });
    } else {
        // What the live recording holds so far: everything handed to it is in the file first.
        m_recorder->flush();
        future = QtConcurrent::run([source, path, annotations, trimTo]() -> std::optional<Error> {
            const Result<SessionContents> contents = SessionReader::readFile(source);
            if (!contents)
                return contents.error();
            return SessionCompactor::write(path, contents.value(), annotations, trimTo);
        });
    }
    m_busy = true;
    whenFinished(future, this, [this, path](const std::optional<Error> &error) {
        m_busy = false;
        if (error) {
            emit finished(false, error->message);
            return;
        }
        emit finished(
            true,
            tr("Session saved to %1 (%2)").arg(QFileInfo(path).fileName(), Format::bytes(QFileInfo(path).size())));
    });
}
