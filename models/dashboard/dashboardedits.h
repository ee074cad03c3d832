// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "dashboard/dashboarddefinition.h"
#include "store/keyrename.h"

#include <QString>
#include <optional>
#include <vector>

// Changes to a dashboard made in the window, as values: the dashboard after, and how the
// samples already held follow (store keys name a series by its panel's and its own position,
// so moving a panel renames its keys; removing it, or changing a series' query, puts its
// samples aside under SeriesKey::parkedPrefix(), where undo finds them again). Every
// function leaves `before` as it is and says what is wrong instead of changing anything.
namespace DashboardEdits {

// The store's renames that go with an edit, one way and back: moved series follow, series
// gone (or asking something else now) are parked and come back on undo, and series new with
// the edit are parked on undo and come back on redo.
struct Renames
{
    std::vector<KeyRename> redo;
    std::vector<KeyRename> undo;
};

struct Edit
{
    QString text; // for the undo stack and the recording: "Move Throughput right"
    DashboardDefinition after;
    Renames renames; // applied to the store before `after` (or, on undo, the dashboard before) is shown
};

// Where a series of the dashboard after came from: its panel and index before, or -1 when new.
struct SeriesOrigin
{
    int panel = -1;
    int series = -1;
};
using Origins = std::vector<std::vector<SeriesOrigin>>; // [panel][series] of the dashboard after

// The renames that carry each series' samples from where it was to where it is (Renames).
// `edit` numbers the parking, so that no two edits share a place.
Renames keyRenames(const DashboardDefinition &before, const DashboardDefinition &after, const Origins &origins,
                   int edit);
// Every series where it was: for changes that move none (a series added at the end has none).
Origins unmoved(const DashboardDefinition &dashboard);
// Any change of the dashboard with the origins of its series, as an Edit.
Edit edited(const DashboardDefinition &before, DashboardDefinition after, const Origins &origins, const QString &text,
            int edit);

// `from` taken out and put in at `to`, the others closing up (as a drag in the grid would).
std::optional<Edit> movePanel(const DashboardDefinition &before, int from, int to, int edit);
// Two panels changing places (move up / down a row of the grid).
std::optional<Edit> swapPanels(const DashboardDefinition &before, int a, int b, int edit);
std::optional<Edit> removePanel(const DashboardDefinition &before, int panel, int edit);
std::optional<Edit> renamePanel(const DashboardDefinition &before, int panel, const QString &title);
std::optional<Edit> setColumns(const DashboardDefinition &before, int columns);
// A panel at the end of the grid.
Edit addPanel(const DashboardDefinition &before, const PanelDefinition &panel, int edit);
// A panel as the panel editor left it; rows[i] is the index its series i had, or -1 when new.
std::optional<Edit> replacePanel(const DashboardDefinition &before, int panel, const PanelDefinition &edited,
                                 const std::vector<int> &rows, int edit);
// A derived series at the end of `panel`. Each input of its formula names a series as
// (panel, index); a series without an id is given one (the input's name, made unique).
struct DerivedInput
{
    QString name; // as the formula writes it: "pending"
    int panel = -1;
    int series = -1;
};
std::optional<Edit> addDerived(const DashboardDefinition &before, int panel, const QString &formula,
                               const QString &legend, const std::vector<DerivedInput> &inputs, int edit,
                               QString *error);

} // namespace DashboardEdits
