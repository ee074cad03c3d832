// SPDX-License-Identifier: GPL-3.0-or-later
#include "cluster/clusterdock.h"

#include "base/format.h"
#include "base/whenfinished.h"
#include "cluster/workloadfiltermodel.h"
#include "kubernetes/clustercontroller.h"
#include "kubernetes/workloadtablemodel.h"
#include "theme/uitheme.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDateTime>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QShortcut>
#include <QSpinBox>
#include <QTableView>
#include <QVBoxLayout>

ClusterDock::ClusterDock(ClusterController *controller, QWidget *parent)
    : QWidget(parent), m_controller(controller), m_model(new WorkloadTableModel(controller, this)),
      m_filtered(new WorkloadFilterModel(this)), m_state(new QLabel(this)), m_filter(new QLineEdit(this)),
      m_onlyDashboards(new QCheckBox(tr("Only the dashboard's"), this)), m_table(new QTableView(this)),
      m_replicas(new QSpinBox(this)), m_scale(new QPushButton(tr("Scale"), this)),
      m_less(new QPushButton(QStringLiteral("−1"), this)), m_more(new QPushButton(QStringLiteral("+1"), this)),
      m_zero(new QPushButton(tr("To 0"), this)), m_setting(new QComboBox(this)), m_settingValue(new QLineEdit(this)),
      m_set(new QPushButton(tr("Set"), this)), m_restart(new QPushButton(tr("Restart"), this)),
      m_result(new QLabel(this))
{
    setObjectName(QStringLiteral("clusterDock"));
    m_confirm = [this](const QString &question) {
        return QMessageBox::question(this, tr("Cluster"), question) == QMessageBox::Yes;
    };
    m_state->setObjectName(QStringLiteral("clusterState"));
    m_state->setWordWrap(true);
    m_state->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_filter->setObjectName(QStringLiteral("clusterFilter"));
    m_filter->setPlaceholderText(tr("Filter by name"));
    m_filter->setClearButtonEnabled(true);
    m_filtered->setSourceModel(m_model);
    connect(m_filter, &QLineEdit::textChanged, m_filtered, &QSortFilterProxyModel::setFilterFixedString);
    m_onlyDashboards->setObjectName(QStringLiteral("clusterOnlyDashboards"));
    m_onlyDashboards->setToolTip(tr("Show only the workloads the dashboard names; off: every one of the namespace"));
    m_onlyDashboards->hide(); // until a dashboard names some
    connect(m_onlyDashboards, &QCheckBox::toggled, m_filtered, &WorkloadFilterModel::setOnlyThoseThatMatter);
    m_table->setObjectName(QStringLiteral("clusterWorkloads"));
    m_table->setModel(m_filtered);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    // Workload names run long ("dispute-process-request-proof-from-vendor"), and what tells
    // two apart is often their end: cut in the middle, so the columns after stay in view.
    m_table->horizontalHeader()->setMaximumSectionSize(fontMetrics().horizontalAdvance(QLatin1Char('x')) * 30);
    m_table->setTextElideMode(Qt::ElideMiddle);
    m_table->setWordWrap(false); // a name broken at its hyphens takes two rows and still hides the end
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
    m_setting->setObjectName(QStringLiteral("clusterSetting"));
    m_setting->setToolTip(tr("What to change in the selected workload's container"));
    m_settingValue->setObjectName(QStringLiteral("clusterSettingValue"));
    m_settingValue->setPlaceholderText(tr("500m, 256Mi, or the env var's value"));
    m_set->setObjectName(QStringLiteral("clusterSet"));
    m_restart->setObjectName(QStringLiteral("clusterRestart"));
    m_restart->setToolTip(tr("Replace every pod, as kubectl rollout restart does"));
    auto *settingRow = new QHBoxLayout;
    settingRow->addWidget(m_setting);
    settingRow->addWidget(m_settingValue, 1);
    settingRow->addWidget(m_set);
    settingRow->addWidget(m_restart);
    auto *filterRow = new QHBoxLayout;
    filterRow->addWidget(m_filter, 1);
    filterRow->addWidget(m_onlyDashboards);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_state);
    layout->addLayout(filterRow);
    layout->addWidget(m_table, 1);
    layout->addLayout(controls);
    layout->addLayout(settingRow);
    layout->addWidget(m_result);

    connect(m_scale, &QPushButton::clicked, this, [this] { scaleSelectedTo(m_replicas->value()); });
    connect(m_replicas, &QSpinBox::editingFinished, this, [this] {
        if (m_replicas->hasFocus())
            scaleSelectedTo(m_replicas->value());
    });
    connect(m_less, &QPushButton::clicked, this, [this] { stepSelected(-1); });
    connect(m_more, &QPushButton::clicked, this, [this] { stepSelected(+1); });
    connect(m_zero, &QPushButton::clicked, this, [this] { scaleSelectedTo(0); });
    connect(m_set, &QPushButton::clicked, this,
            [this] { setSelected(m_setting->currentData().toString(), m_settingValue->text().trimmed()); });
    connect(m_settingValue, &QLineEdit::returnPressed, this,
            [this] { setSelected(m_setting->currentData().toString(), m_settingValue->text().trimmed()); });
    connect(m_setting, &QComboBox::currentIndexChanged, this, [this] {
        // The value in force, to edit from.
        const Workload *w = m_controller->workload(selectedKey());
        if (!w || w->containers.empty())
            return;
        const Workload::Container &c = w->containers.front();
        const QString setting = m_setting->currentData().toString();
        const QString value = setting == QLatin1String("cpu request")      ? c.cpuRequest
                              : setting == QLatin1String("cpu limit")      ? c.cpuLimit
                              : setting == QLatin1String("memory request") ? c.memoryRequest
                              : setting == QLatin1String("memory limit")   ? c.memoryLimit
                                                                           : c.env.value(setting.mid(4));
        m_settingValue->setText(value);
    });
    connect(m_restart, &QPushButton::clicked, this, &ClusterDock::restartSelected);
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this, [this] {
        updateControls();
        updateSettings();
    });
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
    // The keyboard in the table: +, − and 0 as the buttons beside the replica count.
    m_table->setProperty("shortcutGroup", tr("Cluster dock")); // the shortcuts dialog's heading
    const auto tableKey = [this](const QKeySequence &keys, const QString &what, auto action) {
        auto *shortcut = new QShortcut(keys, m_table, std::move(action), Qt::WidgetShortcut);
        shortcut->setWhatsThis(what);
    };
    tableKey(QKeySequence(Qt::Key_Plus), tr("One replica more for the selected workload"),
             [this] { stepSelected(+1); });
    tableKey(QKeySequence(Qt::Key_Minus), tr("One replica less for the selected workload"),
             [this] { stepSelected(-1); });
    tableKey(QKeySequence(Qt::Key_0), tr("Scale the selected workload to 0 (asks first)"),
             [this] { scaleSelectedTo(0); });
    updateState();
    updateControls();
}

void ClusterDock::setDefinition(const KubernetesDefinition &definition)
{
    m_model->setDefinition(definition);
    m_onlyDashboards->setVisible(!definition.workloads.isEmpty());
    m_onlyDashboards->setChecked(!definition.workloads.isEmpty());
    m_table->setColumnHidden(WorkloadTableModel::KnobsColumn, definition.knobs.empty());
    updateSettings();
}

void ClusterDock::focusWorkloads()
{
    m_table->setFocus(Qt::ShortcutFocusReason);
    if (selectedKey().isEmpty() && m_filtered->rowCount() > 0)
        m_table->selectRow(0);
}

int ClusterDock::visibleWorkloads() const
{
    return m_filtered->rowCount();
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
    showOutcome(m_controller->scale(key, replicas), tr("Scaling %1 to %2…").arg(w->name).arg(replicas));
}

QStringList ClusterDock::settings() const
{
    const Workload *w = m_controller->workload(selectedKey());
    if (!w || w->containers.empty())
        return {};
    // The dashboard's knobs first: the env vars the team turns on this day.
    QStringList offered;
    for (const KnobDefinition &knob : m_model->knobsOf(w->name))
        offered << QStringLiteral("env ") + knob.env;
    offered << QStringLiteral("cpu request") << QStringLiteral("cpu limit") << QStringLiteral("memory request")
            << QStringLiteral("memory limit");
    for (const QString &name : w->containers.front().env.keys()) {
        if (!offered.contains(QStringLiteral("env ") + name))
            offered << QStringLiteral("env ") + name;
    }
    return offered;
}

QStringList ClusterDock::settingTitles() const
{
    QStringList titles;
    for (int i = 0; i < m_setting->count(); ++i)
        titles << m_setting->itemText(i);
    return titles;
}

void ClusterDock::setSelected(const QString &setting, const QString &value)
{
    const Workload *w = m_controller->workload(selectedKey());
    if (!w) {
        m_result->setText(tr("Select a workload first."));
        return;
    }
    if (value.isEmpty()) {
        m_result->setText(tr("Type the new value of %1 first.").arg(setting));
        return;
    }
    WorkloadChange change;
    change.workload = w->key();
    if (setting.startsWith(QLatin1String("env "))) {
        change.kind = WorkloadChange::Kind::SetEnv;
        change.env.insert(setting.mid(4), value);
    } else {
        change.kind = WorkloadChange::Kind::SetResources;
        const QString resource = setting.section(QLatin1Char(' '), 0, 0);
        (setting.endsWith(QLatin1String("limit")) ? change.limits : change.requests).insert(resource, value);
    }
    showOutcome(m_controller->change(change), tr("Setting %1 of %2 to %3…").arg(setting, w->name, value));
}

void ClusterDock::restartSelected()
{
    const Workload *w = m_controller->workload(selectedKey());
    if (!w) {
        m_result->setText(tr("Select a workload first."));
        return;
    }
    if (!m_confirm(
            tr("Restart every pod of %1 (%2)?")
                .arg(w->name,
                     tr("%1 replaced one by one").arg(Format::counted(w->desired, tr("replica"), tr("replicas"))))))
        return;
    showOutcome(
        m_controller->change(WorkloadChange::restart(w->key(), QDateTime::currentDateTimeUtc().toString(Qt::ISODate))),
        tr("Restarting %1…").arg(w->name));
}

void ClusterDock::showOutcome(const QFuture<Result<QString>> &outcome, const QString &doing)
{
    m_result->setText(doing);
    whenFinished(outcome, this, [this](const Result<QString> &result) {
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
          static_cast<QWidget *>(m_more), static_cast<QWidget *>(m_zero), static_cast<QWidget *>(m_setting),
          static_cast<QWidget *>(m_settingValue), static_cast<QWidget *>(m_set), static_cast<QWidget *>(m_restart)})
        control->setEnabled(w != nullptr);
    if (w && !m_replicas->hasFocus())
        m_replicas->setValue(w->desired); // the value in force, unless the user is typing
}

void ClusterDock::updateSettings()
{
    const QStringList offered = settings();
    const QString current = m_setting->currentData().toString();
    const Workload *w = m_controller->workload(selectedKey());
    const std::vector<KnobDefinition> knobs = w ? m_model->knobsOf(w->name) : std::vector<KnobDefinition>{};
    m_setting->clear();
    for (const QString &setting : offered) {
        QString title = setting;
        for (const KnobDefinition &knob : knobs) {
            if (setting == QStringLiteral("env ") + knob.env && !knob.title.isEmpty())
                title = tr("%1 (env %2)").arg(knob.title, knob.env);
        }
        m_setting->addItem(title, setting);
    }
    const int kept = int(offered.indexOf(current));
    m_setting->setCurrentIndex(kept >= 0 ? kept : 0);
}
