// SPDX-License-Identifier: GPL-3.0-or-later
#include "cluster/clusterdock.h"

#include "base/whenfinished.h"
#include "kubernetes/clustercontroller.h"
#include "kubernetes/workloadtablemodel.h"
#include "theme/uitheme.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QTableView>
#include <QVBoxLayout>

ClusterDock::ClusterDock(ClusterController *controller, QWidget *parent)
    : QWidget(parent), m_controller(controller), m_model(new WorkloadTableModel(controller, this)),
      m_filtered(new QSortFilterProxyModel(this)), m_state(new QLabel(this)), m_filter(new QLineEdit(this)),
      m_table(new QTableView(this)), m_replicas(new QSpinBox(this)), m_scale(new QPushButton(tr("Scale"), this)),
      m_less(new QPushButton(QStringLiteral("−1"), this)), m_more(new QPushButton(QStringLiteral("+1"), this)),
      m_zero(new QPushButton(tr("To 0"), this)), m_result(new QLabel(this))
{
    setObjectName(QStringLiteral("clusterDock"));
    m_confirm = [this](const QString &question) {
        return QMessageBox::question(this, tr("Scale"), question) == QMessageBox::Yes;
    };
    m_state->setObjectName(QStringLiteral("clusterState"));
    m_state->setWordWrap(true);
    m_state->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_filter->setObjectName(QStringLiteral("clusterFilter"));
    m_filter->setPlaceholderText(tr("Filter by name"));
    m_filter->setClearButtonEnabled(true);
    m_filtered->setSourceModel(m_model);
    m_filtered->setFilterKeyColumn(WorkloadTableModel::NameColumn);
    m_filtered->setFilterCaseSensitivity(Qt::CaseInsensitive);
    connect(m_filter, &QLineEdit::textChanged, m_filtered, &QSortFilterProxyModel::setFilterFixedString);
    m_table->setObjectName(QStringLiteral("clusterWorkloads"));
    m_table->setModel(m_filtered);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_replicas->setObjectName(QStringLiteral("clusterReplicas"));
    m_replicas->setRange(0, 1000);
    m_replicas->setKeyboardTracking(false);
    m_replicas->setToolTip(tr("Replicas to scale the selected workload to; Enter scales"));
    m_scale->setObjectName(QStringLiteral("clusterScale"));
    m_result->setObjectName(QStringLiteral("clusterResult"));
    m_result->setWordWrap(true);
    m_result->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto *controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("Replicas"), this));
    controls->addWidget(m_replicas);
    controls->addWidget(m_scale);
    controls->addWidget(m_less);
    controls->addWidget(m_more);
    controls->addWidget(m_zero);
    controls->addStretch(1);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_state);
    layout->addWidget(m_filter);
    layout->addWidget(m_table, 1);
    layout->addLayout(controls);
    layout->addWidget(m_result);

    connect(m_scale, &QPushButton::clicked, this, [this] { scaleSelectedTo(m_replicas->value()); });
    connect(m_replicas, &QSpinBox::editingFinished, this, [this] {
        if (m_replicas->hasFocus())
            scaleSelectedTo(m_replicas->value());
    });
    connect(m_less, &QPushButton::clicked, this, [this] { stepSelected(-1); });
    connect(m_more, &QPushButton::clicked, this, [this] { stepSelected(+1); });
    connect(m_zero, &QPushButton::clicked, this, [this] { scaleSelectedTo(0); });
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this, &ClusterDock::updateControls);
    connect(controller, &ClusterController::workloadsChanged, this, [this] {
        updateControls();
        updateState();
    });
    connect(controller, &ClusterController::stateChanged, this, &ClusterDock::updateState);
    // A reset of the model drops the selection: keep the one the user made.
    connect(m_model, &QAbstractItemModel::modelAboutToBeReset, this, [this] { m_keptSelection = selectedKey(); });
    connect(m_model, &QAbstractItemModel::modelReset, this, [this] {
        if (!m_keptSelection.isEmpty())
            select(m_keptSelection);
    });
    updateState();
    updateControls();
}

bool ClusterDock::select(const QString &key)
{
    const int row = m_model->rowOf(key);
    if (row < 0)
        return false;
    const QModelIndex index = m_filtered->mapFromSource(m_model->index(row, 0));
    if (!index.isValid())
        return false;
    m_table->selectRow(index.row());
    return true;
}

QString ClusterDock::selectedKey() const
{
    const QModelIndexList rows =
        m_table->selectionModel() ? m_table->selectionModel()->selectedRows() : QModelIndexList();
    return rows.isEmpty() ? QString() : rows.front().data(WorkloadTableModel::KeyRole).toString();
}

QString ClusterDock::resultText() const
{
    return m_result->text();
}

QString ClusterDock::stateText() const
{
    return m_state->text();
}

void ClusterDock::stepSelected(int delta)
{
    const Workload *w = m_controller->workload(selectedKey());
    if (w)
        scaleSelectedTo(std::max(0, w->desired + delta));
}

void ClusterDock::scaleSelectedTo(int replicas)
{
    const QString key = selectedKey();
    const Workload *w = m_controller->workload(key);
    if (!w) {
        m_result->setText(tr("Select a workload first."));
        return;
    }
    if (replicas == w->desired) {
        m_result->setText(tr("%1 has %2 replicas already.").arg(w->name).arg(replicas));
        return;
    }
    if (ClusterController::needsConfirmation(w->desired, replicas) &&
        !m_confirm(tr("Scale %1 from %2 to %3 replicas?").arg(w->name).arg(w->desired).arg(replicas)))
        return;
    m_result->setText(tr("Scaling %1 to %2…").arg(w->name).arg(replicas));
    whenFinished(m_controller->scale(key, replicas), this, [this](const Result<QString> &result) {
        const UiTheme::Colors &colors = UiTheme::instance()->colors();
        if (result.ok())
            m_result->setText(
                tr("%1: the cluster took it; the annotation ends when it has rolled out.").arg(result.value()));
        else
            m_result->setText(QStringLiteral("<span style='color:%1'>%2</span>")
                                  .arg(UiTheme::css(colors.error), result.error().message.toHtmlEscaped()));
    });
}

void ClusterDock::updateState()
{
    const UiTheme::Colors &colors = UiTheme::instance()->colors();
    const QColor light = m_controller->isHealthy() ? colors.ok : colors.error;
    m_state->setText(QStringLiteral("<span style='color:%1'>●</span> %2")
                         .arg(UiTheme::css(light), m_controller->stateText().toHtmlEscaped()));
}

void ClusterDock::updateControls()
{
    const Workload *w = m_controller->workload(selectedKey());
    for (QWidget *control :
         {static_cast<QWidget *>(m_replicas), static_cast<QWidget *>(m_scale), static_cast<QWidget *>(m_less),
          static_cast<QWidget *>(m_more), static_cast<QWidget *>(m_zero)})
        control->setEnabled(w != nullptr);
    if (w && !m_replicas->hasFocus())
        m_replicas->setValue(w->desired); // the value in force, unless the user is typing
}
