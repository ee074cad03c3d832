// SPDX-License-Identifier: GPL-3.0-or-later
// The Cluster dock before any cluster answers (the controller is not started): what the
// keyboard offers is listed in the shortcuts dialog under its own heading, and a dashboard
// naming knobs shows their column, none shows none.
#include "annotations/annotationmodel.h"
#include "cluster/clusterdock.h"
#include "dialogs/shortcutsdialog.h"
#include "kubernetes/clustercontroller.h"
#include "kubernetes/workloadtablemodel.h"

#include <QCheckBox>
#include <QTableView>
#include <QWidget>
#include <gtest/gtest.h>

namespace {

KubeTarget unusedTarget()
{
    KubeTarget target;
    target.server = QUrl(QStringLiteral("https://127.0.0.1:9"));
    target.namespaceName = QStringLiteral("chaos");
    return target;
}

} // namespace

TEST(ClusterDock, ItsKeysAreInTheShortcutsDialogUnderTheirOwnHeading)
{
    AnnotationModel annotations;
    ClusterController controller(unusedTarget(), &annotations);
    QWidget window;
    auto *dock = new ClusterDock(&controller, &window);
    Q_UNUSED(dock)
    QStringList found;
    for (const ShortcutsDialog::Entry &entry : ShortcutsDialog::collect(&window)) {
        if (entry.group == QStringLiteral("Cluster dock"))
            found << entry.keys + QStringLiteral(": ") + entry.what;
    }
    EXPECT_EQ(found.size(), 3) << found.join(QLatin1Char('\n')).toStdString();
    EXPECT_TRUE(found.contains(QStringLiteral("+: One replica more for the selected workload")))
        << found.join(QLatin1Char('\n')).toStdString();
    EXPECT_TRUE(found.contains(QStringLiteral("0: Scale the selected workload to 0 (asks first)")))
        << found.join(QLatin1Char('\n')).toStdString();
}

TEST(ClusterDock, TheKnobsColumnAndTheDashboardsFilterShowOnlyWhenTheDashboardNamesThem)
{
    AnnotationModel annotations;
    ClusterController controller(unusedTarget(), &annotations);
    ClusterDock dock(&controller);
    auto *table = dock.findChild<QTableView *>(QStringLiteral("clusterWorkloads"));
    ASSERT_NE(table, nullptr);
    auto *onlyDashboards = dock.findChild<QCheckBox *>(QStringLiteral("clusterOnlyDashboards"));
    ASSERT_NE(onlyDashboards, nullptr);
    dock.setDefinition({});
    EXPECT_TRUE(table->isColumnHidden(WorkloadTableModel::KnobsColumn));
    EXPECT_FALSE(onlyDashboards->isVisibleTo(&dock));
    KubernetesDefinition definition;
    definition.workloads = {QStringLiteral("starter")};
    definition.knobs = {{QStringLiteral("starter"), QStringLiteral("RATE"), QStringLiteral("rate")}};
    dock.setDefinition(definition);
    EXPECT_FALSE(table->isColumnHidden(WorkloadTableModel::KnobsColumn));
    EXPECT_TRUE(onlyDashboards->isVisibleTo(&dock));
    EXPECT_TRUE(onlyDashboards->isChecked()) << "the dashboard's workloads alone, until the user asks for all";
    EXPECT_EQ(table->model()->headerData(WorkloadTableModel::KnobsColumn, Qt::Horizontal).toString(),
              QStringLiteral("Knobs"));
}
