// SPDX-License-Identifier: GPL-3.0-or-later
#include "window/thememenu.h"

#include "settings/appsettings.h"
#include "theme/uitheme.h"

#include <QActionGroup>
#include <QHash>
#include <QMenu>

namespace ThemeMenu {

void addTo(QMenu *view)
{
    // Light for a bright office, dark for eight hours in a dim war room; "system" follows the
    // desktop's palette. Remembered; exported pictures keep their own theme.
    QMenu *themes = view->addMenu(QObject::tr("&Theme"));
    themes->setObjectName(QStringLiteral("themeMenu"));
    auto *themeGroup = new QActionGroup(themes);
    for (UiTheme::Choice choice : {UiTheme::Choice::System, UiTheme::Choice::Light, UiTheme::Choice::Dark}) {
        static const QHash<UiTheme::Choice, const char *> labels{
            {UiTheme::Choice::System, QT_TR_NOOP("Follow the &system")},
            {UiTheme::Choice::Light, QT_TR_NOOP("&Light")},
            {UiTheme::Choice::Dark, QT_TR_NOOP("&Dark")}};
        QAction *action = themes->addAction(QObject::tr(labels.value(choice)));
        action->setObjectName(QStringLiteral("theme-") + UiTheme::choiceName(choice));
        action->setCheckable(true);
        action->setChecked(UiTheme::instance()->choice() == choice);
        themeGroup->addAction(action);
        QObject::connect(action, &QAction::triggered, action, [choice] {
            UiTheme::instance()->apply(choice);
            AppSettings::setTheme(UiTheme::choiceName(choice));
        });
    }
}

} // namespace ThemeMenu
