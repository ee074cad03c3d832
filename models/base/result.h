// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <utility>
#include <variant>

// Errors are values: every failure carries a message a user can act on, shown where it
// happened (panel, status bar, control panel).
struct Error
{
    enum class Kind
    {
        Network,   // connection refused, host not found, TLS, reset
        Timeout,   // no (complete) answer within the deadline
        Http,      // an HTTP status outside 2xx without a usable error body
        Query,     // the server understood and refused: Prometheus "status":"error"
        Parse,     // the answer did not parse, or had an unexpected shape
        TooLarge,  // the answer exceeded a configured cap
        Invalid,   // bad input given by the user or a file
        Io,        // file system
        Cancelled, // the user stopped it (reading a long session, say); not a fault
    };

    Kind kind = Kind::Invalid;
    QString message;       // one sentence, for the user: "Prometheus at … refused the connection"
    int httpStatus = 0;    // 0 when there was no HTTP answer
    QString detail;        // server-side detail (errorType, problem+json detail), may be empty
    int retryAfterMs = -1; // a 429/503 with Retry-After: the pause the server asked for

    static Error make(Kind kind, QString message, int httpStatus = 0, QString detail = {})
    {
        return Error{kind, std::move(message), httpStatus, std::move(detail), -1};
    }
    // Whether the source as a whole is unreachable (as opposed to one query failing).
    bool isSourceDown() const { return kind == Kind::Network || kind == Kind::Timeout; }
};

// A small std::expected stand-in (C++23 is not available with GCC 12).
template<typename T> class Result
{
public:
    Result(T value) : m_data(std::move(value)) {}
    Result(Error error) : m_data(std::move(error)) {}

    bool ok() const { return std::holds_alternative<T>(m_data); }
    explicit operator bool() const { return ok(); }

    const T &value() const & { return std::get<T>(m_data); }
    T &value() & { return std::get<T>(m_data); }
    T &&value() && { return std::get<T>(std::move(m_data)); }
    const T *operator->() const { return &std::get<T>(m_data); }
    T *operator->() { return &std::get<T>(m_data); }

    const Error &error() const { return std::get<Error>(m_data); }

private:
    std::variant<T, Error> m_data;
};
