// SPDX-License-Identifier: GPL-3.0-or-later
#include "actions/sessionopening.h"

#include "base/format.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QFileInfo>
#include <QLocale>
#include <QProgressDialog>
#include <QThread>
#include <QTimer>
#include <atomic>
#include <memory>
#include <optional>

namespace {

// The dialog's bar counts in thousandths: an int range that never overflows for any file.
constexpr int kSteps = 1000;

} // namespace

QString SessionOpening::progressText(const QString &path, qint64 done, qint64 total)
{
    return QCoreApplication::translate("SessionOpening", "Reading %1: %2 of %3")
        .arg(QFileInfo(path).fileName(), Format::bytes(done), Format::bytes(total));
}

Result<SessionContents> SessionOpening::read(const QString &path, const Options &options)
{
    if (!options.showProgress)
        return SessionReader::readFile(path, [&options](qint64 done, qint64 total) {
            if (options.observer)
                options.observer(done, total);
            return true;
        });

    // The reader runs on its own thread and only touches these atomics; the dialog reads
    // them on a timer, so the two never wait for each other.
    std::atomic<qint64> done{0};
    std::atomic<qint64> total{0};
    std::atomic<bool> cancelRequested{false};
    std::optional<Result<SessionContents>> result;
    std::unique_ptr<QThread> reader(QThread::create([&] {
        result.emplace(SessionReader::readFile(path, [&](qint64 doneBytes, qint64 totalBytes) {
            if (options.observer)
                options.observer(doneBytes, totalBytes);
            done = doneBytes;
            total = totalBytes;
            return !cancelRequested.load();
        }));
    }));

    QProgressDialog dialog(progressText(path, 0, QFileInfo(path).size()),
                           QCoreApplication::translate("SessionOpening", "Cancel"), 0, kSteps);
    dialog.setObjectName(QStringLiteral("sessionOpeningProgress"));
    dialog.setWindowTitle(QCoreApplication::translate("SessionOpening", "Opening %1").arg(QFileInfo(path).fileName()));
    dialog.setWindowModality(Qt::ApplicationModal);
    dialog.setAutoReset(false); // it is closed when the reader is done, not when the bar is full
    dialog.setAutoClose(false);
    dialog.setMinimumDuration(options.showAfterMs);
    dialog.setValue(0); // starts the clock of minimumDuration
    QObject::connect(&dialog, &QProgressDialog::canceled, &dialog, [&] {
        cancelRequested = true;
        dialog.setLabelText(QCoreApplication::translate("SessionOpening", "Cancelling…"));
    });

    QTimer update;
    update.setInterval(50);
    QObject::connect(&update, &QTimer::timeout, &dialog, [&] {
        const qint64 all = total.load();
        if (all <= 0 || cancelRequested.load())
            return;
        const qint64 now = done.load();
        dialog.setValue(int(double(now) / double(all) * kSteps));
        dialog.setLabelText(progressText(path, now, all));
    });

    QEventLoop loop;
    QObject::connect(reader.get(), &QThread::finished, &loop, &QEventLoop::quit);
    reader->start();
    update.start();
    loop.exec();
    reader->wait();
    return std::move(*result);
}
