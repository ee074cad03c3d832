// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "annotations/annotation.h"
#include "loadtester/loadtesteraction.h"
#include "session.pb.h"

// Between the models' values and their session records. Nothing secret crosses: URLs lose
// their user name and password.
namespace SessionConvert {

void toProto(const Annotation &annotation, chaoscope::session::v1::Annotation *out);
Annotation fromProto(const chaoscope::session::v1::Annotation &annotation);

void toProto(const LoadTesterAction &action, chaoscope::session::v1::LoadTesterAction *out);
LoadTesterAction fromProto(const chaoscope::session::v1::LoadTesterAction &action);

void toProto(const LoadTesterStatus &status, chaoscope::session::v1::LoadTesterStatus *out);
LoadTesterStatus fromProto(const chaoscope::session::v1::LoadTesterStatus &status);

// The replicas' outcomes; the report's action and times are in the ActionEvent itself.
void toProto(const ActionReport &report, chaoscope::session::v1::ActionEvent *out);
ActionReport fromProto(const chaoscope::session::v1::ActionEvent &event);

// A URL as it may be written to a file: no user info, no query (tokens hide there too).
QString publicUrl(const QUrl &url);

inline std::string utf8(const QString &text)
{
    const QByteArray bytes = text.toUtf8();
    return std::string(bytes.constData(), std::size_t(bytes.size()));
}
inline QString fromUtf8(const std::string &text)
{
    return QString::fromUtf8(text.data(), qsizetype(text.size()));
}

} // namespace SessionConvert
