// SPDX-License-Identifier: GPL-3.0-or-later
#include "terminationsignalwatcher.h"

#include <QSocketNotifier>
#include <csignal>
#include <sys/socket.h>
#include <unistd.h>

namespace {
int s_socketPair[2] = {-1, -1};
} // namespace

TerminationSignalWatcher::TerminationSignalWatcher(QObject *parent) : QObject(parent)
{
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, s_socketPair) != 0)
        return;
    m_notifier = new QSocketNotifier(s_socketPair[1], QSocketNotifier::Read, this);
    connect(m_notifier, &QSocketNotifier::activated, this, &TerminationSignalWatcher::readSignal);

    struct sigaction action = {};
    action.sa_handler = &TerminationSignalWatcher::handleSignal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    ::sigaction(SIGTERM, &action, nullptr);
    ::sigaction(SIGINT, &action, nullptr);
}

TerminationSignalWatcher::~TerminationSignalWatcher()
{
    if (!m_notifier)
        return;
    struct sigaction action = {};
    action.sa_handler = SIG_DFL;
    sigemptyset(&action.sa_mask);
    ::sigaction(SIGTERM, &action, nullptr);
    ::sigaction(SIGINT, &action, nullptr);
    delete m_notifier;
    ::close(s_socketPair[0]);
    ::close(s_socketPair[1]);
    s_socketPair[0] = s_socketPair[1] = -1;
}

void TerminationSignalWatcher::handleSignal(int signalNumber)
{
    const char byte = static_cast<char>(signalNumber);
    // Nothing useful to do if the write fails inside a signal handler.
    [[maybe_unused]] const ssize_t written = ::write(s_socketPair[0], &byte, 1);
}

void TerminationSignalWatcher::readSignal()
{
    char byte = 0;
    if (::read(s_socketPair[1], &byte, 1) == 1)
        emit terminationRequested(static_cast<int>(byte));
}
