// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>

class QSocketNotifier;

// Turns SIGTERM and SIGINT into a Qt signal, so that the event loop ends normally (sockets
// closed, destructors run) instead of the process dying mid-write. A signal handler may only
// do async-signal-safe things: it writes the signal number into a socket pair, and a
// QSocketNotifier on the other end brings it into the event loop (the pattern from the Qt
// documentation "Calling Qt Functions From Unix Signal Handlers"). One instance per process.
class TerminationSignalWatcher : public QObject
{
    Q_OBJECT
public:
    explicit TerminationSignalWatcher(QObject *parent = nullptr);
    ~TerminationSignalWatcher() override;

    bool isValid() const { return m_notifier != nullptr; }

signals:
    void terminationRequested(int signalNumber);

private:
    static void handleSignal(int signalNumber);
    void readSignal();

    QSocketNotifier *m_notifier = nullptr;
};
