// The launcher's notes on configs that need more than the form shows: a remote environment's start and judge,
// and what the open database holds for the human judge (LauncherPage::updatePreview shows them).
#include "ui/launch/launcherpage.h"

#include "core/judge/humanjudge.h"
#include "core/judge/judge.h"
#include "core/learn/api/trainconfig.h"
#include "core/storage/store.h"
#include "ui/common/textutil.h"
#include "ui/shell/workspace.h"

#include <QStringList>

#include <string>

namespace creditlab::ui {

QString LauncherPage::remoteSummary(const learn::TrainConfig& config) const
{
    QStringList parts;
    const QString demonstrations = toQString(config.getText("sft.demonstrations"));
    if (config.getInt("sft.from_run") > 0)
        parts << tr("The policy starts from run %1's SFT policy.").arg(config.getInt("sft.from_run"));
    else if (!demonstrations.isEmpty())
        parts << tr("SFT clones the successful trajectories of %1 (a remote server has no expert).").arg(demonstrations);
    else
        parts << tr("No SFT: a remote server has no expert to demonstrate. Set sft.demonstrations to a JSONL file of "
                    "trajectories, or sft.from_run to an earlier run.");
    const bool rolesFromEnvironment = config.judgeName() == "oracle" || config.judgeName() == "noisy";
    if (rolesFromEnvironment && config.method() == "triage") {
        std::string unlabelled = "error";
        for (const auto& [key, value] : config.creditAssignments())
            if (key == "unlabelled")
                unlabelled = value;
        if (unlabelled == "error")
            parts << tr("The %1 judge labels nothing here (a remote server gives no oracle roles) and triage needs a "
                        "role on every turn: use judge http or human, or credit.unlabelled=grpo.")
                         .arg(toQString(config.judgeName()));
    }
    return parts.join(QLatin1Char(' '));
}

QString LauncherPage::humanLabelSummary(const learn::TrainConfig& config) const
{
    const bool humanJudge = config.judgeName() == judge::HumanJudge::kName;
    const bool labelledPool = config.getText("rl.task_pool") == "labelled";
    Store* store = m_workspace->store();
    if ((!humanJudge && !labelledPool) || !store)
        return {};
    std::string annotator;
    for (const auto& [key, value] : config.judgeAssignments())
        if (key == "annotator")
            annotator = value;
    const auto index = judge::HumanJudge::labelIndex(*store, annotator);
    const std::string prefix = config.envName() + ":seed=";
    int envTasks = 0;
    for (const auto& task : index.tasks())
        envTasks += task.rfind(prefix, 0) == 0 && task.find(":split=") == std::string::npos ? 1 : 0;
    const QString who = annotator.empty() ? tr("every annotator") : toQString(annotator);
    QString text;
    if (index.labelCount() == 0)
        text = tr("No human labels by %1 in this database yet: every turn goes to the backing judge. Label turns "
                  "in the Annotate tab (Ctrl+8).")
                   .arg(who);
    else
        text = tr("Human labels by %1: %2, on %3 distinct (task, state, action) keys in %4 %5 train tasks. "
                  "Rollout turns that match one take it; the rest go to the backing judge.")
                   .arg(who)
                   .arg(index.labelCount())
                   .arg(index.size())
                   .arg(envTasks)
                   .arg(toQString(config.envName()));
    if (labelledPool && envTasks == 0)
        text += QLatin1Char(' ')
            + tr("rl.task_pool=labelled needs labelled %1 train tasks: the run would stop at its first iteration.")
                  .arg(toQString(config.envName()));
    return text;
}

} // namespace creditlab::ui
