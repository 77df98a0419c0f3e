<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>MonitorPage</name>
    <message>
        <source>Running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>Paused</source>
        <translation>已暂停</translation>
    </message>
    <message>
        <source>Finished</source>
        <translation>已完成</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>Stopped</source>
        <translation>已停止</translation>
    </message>
</context>
<context>
    <name>NameOnlyIconProvider</name>
    <message>
        <source>Folder</source>
        <translation>文件夹</translation>
    </message>
    <message>
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>%1 file</source>
        <translation>%1 文件</translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <source>iteration</source>
        <translation>迭代</translation>
    </message>
    <message>
        <source>no values yet</source>
        <translation>尚无数值</translation>
    </message>
    <message>
        <source>1 seed</source>
        <translation>1 个种子</translation>
    </message>
    <message>
        <source>%1 seeds</source>
        <translation>%1 个种子</translation>
    </message>
</context>
<context>
    <name>creditlab::ui</name>
    <message>
        <source>Environment server: reset task 0 in %1 ms; it begins “%2”.</source>
        <translation>环境服务器：%1 毫秒内重置了任务 0；开头为“%2”。</translation>
    </message>
    <message>
        <source>Environment server: %1</source>
        <translation>环境服务器：%1</translation>
    </message>
    <message>
        <source>Judge %1: answered %2 in %3 ms.</source>
        <translation>评判器 %1：%3 毫秒内回答了 %2。</translation>
    </message>
    <message>
        <source>Judge: no usable answer: %1</source>
        <translation>评判器：没有可用的回答：%1</translation>
    </message>
    <message>
        <source>no role</source>
        <translation>没有角色</translation>
    </message>
    <message>
        <source>Judge: %1</source>
        <translation>评判器：%1</translation>
    </message>
</context>
<context>
    <name>creditlab::ui::AgreementPage</name>
    <message>
        <source>Cannot read the labels: %1</source>
        <translation>无法读取标签：%1</translation>
    </message>
    <message>
        <source>Export table…</source>
        <translation>导出表格…</translation>
    </message>
    <message>
        <source>Export matrix…</source>
        <translation>导出矩阵…</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Reference</source>
        <translation>参考</translation>
    </message>
    <message>
        <source>Compared sources</source>
        <translation>比较的来源</translation>
    </message>
    <message>
        <source>Loading labels…</source>
        <translation>正在加载标签…</translation>
    </message>
    <message>
        <source>All runs</source>
        <translation>所有运行</translation>
    </message>
    <message>
        <source>#%1 %2</source>
        <translation>#%1 %2</translation>
    </message>
    <message>
        <source>Krippendorff&apos;s α: n/a</source>
        <translation>Krippendorff α：不适用</translation>
    </message>
    <message numerus="yes">
        <source>Krippendorff&apos;s α across %1: %2 (%n unit(s))</source>
        <translation>
            <numerusform>%1 的 Krippendorff α：%2（%n 个单元）</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 human annotators</source>
        <translation>%1 位人工标注者</translation>
    </message>
    <message>
        <source>%1 label sources</source>
        <translation>%1 个标签来源</translation>
    </message>
    <message numerus="yes">
        <source>%n turn(s)</source>
        <translation>
            <numerusform>%n 个回合</numerusform>
        </translation>
    </message>
    <message>
        <source>No pair to compare</source>
        <translation>没有可比较的配对</translation>
    </message>
    <message>
        <source>Cannot read the turns: %1</source>
        <translation>无法读取回合：%1</translation>
    </message>
    <message>
        <source>Export Agreement Table</source>
        <translation>导出一致性表格</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
    <message>
        <source>Export Failed</source>
        <translation>导出失败</translation>
    </message>
    <message>
        <source>Export Confusion Matrix</source>
        <translation>导出混淆矩阵</translation>
    </message>
    <message>
        <source>PNG images (*.png);;SVG images (*.svg)</source>
        <translation>PNG 图像 (*.png);;SVG 图像 (*.svg)</translation>
    </message>
    <message>
        <source>Row shares</source>
        <translation>行占比</translation>
    </message>
    <message>
        <source>Show each reference role&apos;s row as shares of its turns (each row sums to 1) instead of counts</source>
        <translation>将每个参考角色的行显示为其回合的占比（每行之和为 1），而非计数</translation>
    </message>
    <message>
        <source>n/a</source>
        <translation>不适用</translation>
    </message>
    <message>
        <source>κ %1</source>
        <translation>κ %1</translation>
    </message>
    <message>
        <source> [%1, %2]</source>
        <translation> [%1, %2]</translation>
    </message>
    <message>
        <source> […]</source>
        <translation> […]</translation>
    </message>
    <message>
        <source>%1 (rows) vs %2 (columns) · %3%4</source>
        <translation>%1（行）与 %2（列） · %3%4</translation>
    </message>
    <message>
        <source> · row shares</source>
        <translation> · 行占比</translation>
    </message>
</context>
<context>
    <name>creditlab::ui::AgreementTableModel</name>
    <message>
        <source>n/a</source>
        <translation>不适用</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>来源</translation>
    </message>
    <message>
        <source>Turns</source>
        <translation>回合</translation>
    </message>
    <message>
        <source>Accuracy</source>
        <translation>准确率</translation>
    </message>
    <message>
        <source>Cohen&apos;s κ</source>
        <translation>Cohen κ</translation>
    </message>
    <message>
        <source>Macro F1</source>
        <translation>宏 F1</translation>
    </message>
    <message>
        <source>F1 R|success</source>
        <translation>F1 R|成功</translation>
    </message>
    <message>
        <source>F1 E|failure</source>
        <translation>F1 E|失败</translation>
    </message>
    <message>
        <source>R|success missed</source>
        <translation>R|成功 漏检</translation>
    </message>
    <message>
        <source>E|failure missed</source>
        <translation>E|失败 漏检</translation>
    </message>
    <message>
        <source>%1 precision</source>
        <translation>%1 精确率</translation>
    </message>
    <message>
        <source>%1 recall</source>
        <translation>%1 召回率</translation>
    </message>
    <message>
        <source>%1 F1</source>
        <translation>%1 F1</translation>
    </message>
    <message>
        <source>…</source>
        <translation>…</translation>
    </message>
    <message>
        <source>Percentile bootstrap: %1 resamples of the turns both label, %2 with a defined κ; fixed seed</source>
        <translation>百分位 bootstrap：对双方都标注的回合重采样 %1 次，其中 %2 次 κ 有定义；固定种子</translation>
    </message>
    <message>
        <source>Computing the bootstrap interval…</source>
        <translation>正在计算 bootstrap 区间…</translation>
    </message>
    <message>
        <source>κ 95% CI low</source>
        <translation>κ 95% CI 下限</translation>
    </message>
    <message>
        <source>κ 95% CI high</source>
        <translation>κ 95% CI 上限</translation>
    </message>
</context>
<context>
    <name>creditlab::ui::AnnotationPage</name>
    <message>
        <source>no label</source>
        <translation>无标签</translation>
    </message>
    <message>
        <source>Label turn %1 as %2</source>
        <translation>将回合 %1 标注为 %2</translation>
    </message>
    <message>
        <source>Annotator name</source>
        <translation>标注者名称</translation>
    </message>
    <message>
        <source>Sequential</source>
        <translation>按顺序</translation>
    </message>
    <message>
        <source>Judge least sure first</source>
        <translation>评判器最不确定的优先</translation>
    </message>
    <message>
        <source>Methods disagree most first</source>
        <translation>方法分歧最大的优先</translation>
    </message>
    <message>
        <source>TRIAGE conflict cells first</source>
        <translation>TRIAGE 冲突单元格优先</translation>
    </message>
    <message>
        <source>Export labels…</source>
        <translation>导出标签…</translation>
    </message>
    <message>
        <source>Import labels…</source>
        <translation>导入标签…</translation>
    </message>
    <message>
        <source>Run:</source>
        <translation>运行：</translation>
    </message>
    <message>
        <source>Annotator:</source>
        <translation>标注者：</translation>
    </message>
    <message>
        <source>Order:</source>
        <translation>顺序：</translation>
    </message>
    <message>
        <source>Could not list the runs: %1</source>
        <translation>无法列出运行：%1</translation>
    </message>
    <message>
        <source>Could not read run %1: %2</source>
        <translation>无法读取运行 %1：%2</translation>
    </message>
    <message>
        <source>There is no turn to label.</source>
        <translation>没有可标注的回合。</translation>
    </message>
    <message>
        <source>Type an annotator name before labelling.</source>
        <translation>请在标注前输入标注者名称。</translation>
    </message>
    <message>
        <source>Could not store the label: %1</source>
        <translation>无法保存标签：%1</translation>
    </message>
    <message>
        <source>%1 / %2 turns labelled by %3 · queue %4 / %5</source>
        <translation>%3 已标注 %1 / %2 个回合 · 队列 %4 / %5</translation>
    </message>
    <message>
        <source>(no annotator)</source>
        <translation>（无标注者）</translation>
    </message>
    <message>
        <source>This run has no turns.</source>
        <translation>此运行没有回合。</translation>
    </message>
    <message>
        <source>No run chosen.</source>
        <translation>未选择运行。</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>（无）</translation>
    </message>
    <message>
        <source>success</source>
        <translation>成功</translation>
    </message>
    <message>
        <source>failure</source>
        <translation>失败</translation>
    </message>
    <message>
        <source> (%1)</source>
        <translation>（%1）</translation>
    </message>
    <message>
        <source>Could not write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>Could not read the labels: %1</source>
        <translation>无法读取标签：%1</translation>
    </message>
    <message>
        <source>Could not read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <source>Choose a run to import labels into.</source>
        <translation>请选择要导入标签的运行。</translation>
    </message>
    <message>
        <source>%1:%2: field &quot;%3&quot;: %4</source>
        <translation>%1:%2：字段“%3”：%4</translation>
    </message>
    <message>
        <source>%1:%2: not a JSON object (%3)</source>
        <translation>%1:%2：不是 JSON 对象（%3）</translation>
    </message>
    <message>
        <source>no trajectory with this id in the run</source>
        <translation>该运行中没有此 ID 的轨迹</translation>
    </message>
    <message>
        <source>expected a turn index from 0 to %1</source>
        <translation>应为 0 到 %1 之间的回合索引</translation>
    </message>
    <message>
        <source>expected a non-empty name</source>
        <translation>应为非空名称</translation>
    </message>
    <message>
        <source>expected one of D, E, N, R</source>
        <translation>应为 D、E、N、R 之一</translation>
    </message>
    <message>
        <source>Could not store the labels: %1</source>
        <translation>无法保存标签：%1</translation>
    </message>
    <message>
        <source>Export human labels</source>
        <translation>导出人工标签</translation>
    </message>
    <message>
        <source>JSON Lines (*.jsonl);;All files (*)</source>
        <translation>JSON Lines (*.jsonl);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Exported the labels to %1.</source>
        <translation>已将标签导出到 %1。</translation>
    </message>
    <message>
        <source>Import human labels</source>
        <translation>导入人工标签</translation>
    </message>
    <message numerus="yes">
        <source>Imported %n label(s).</source>
        <translation>
            <numerusform>已导入 %n 个标签。</numerusform>
        </translation>
    </message>
    <message>
        <source>Train on labels…</source>
        <translation>用标注训练…</translation>
    </message>
    <message>
        <source>Open the launcher with a TRIAGE run whose judge is these human labels where they match a rollout&apos;s turn (the oracle elsewhere), on the labelled tasks</source>
        <translation>打开启动器，设置一个 TRIAGE 运行：在与 rollout 轮次匹配处以这些人工标注为评判（其余用 oracle），在已标注的任务上训练</translation>
    </message>
    <message>
        <source>Loading run %1…</source>
        <translation>正在加载运行 %1…</translation>
    </message>
    <message>
        <source>The run is still loading.</source>
        <translation>运行仍在加载中。</translation>
    </message>
    <message>
        <source>decisive progress</source>
        <translation>决定性进展</translation>
    </message>
    <message>
        <source>useful exploration</source>
        <translation>有用的探索</translation>
    </message>
    <message>
        <source>no-progress infrastructure</source>
        <translation>无进展的基础操作</translation>
    </message>
    <message>
        <source>regression</source>
        <translation>倒退</translation>
    </message>
    <message>
        <source>Changes the task state a verifier checks: takes the target object, selects the required item, does the required clean/heat/cool, places the target, submits the right answer.</source>
        <translation>改变验证器检查的任务状态：拿起目标物体、选中所需物品、完成所需的清洗/加热/冷却、放置目标、提交正确答案。</translation>
    </message>
    <message>
        <source>Changes what the agent knows without completing a subgoal: a first look into a container, a first visit to a candidate place, a first or refined search.</source>
        <translation>改变智能体所知的信息但未完成子目标：首次查看容器内部、首次造访候选地点、首次或更精确的搜索。</translation>
    </message>
    <message>
        <source>Changes neither the task state nor what the agent knows: empty-handed travel, a command that does not affect the next decision, a harmless repeat after success.</source>
        <translation>既不改变任务状态，也不改变智能体所知：空手移动、不影响下一步决策的命令、成功后的无害重复。</translation>
    </message>
    <message>
        <source>Locally harmful, or redundant without new information: a wrong object, edit or purchase; looking again at what is already known.</source>
        <translation>局部有害，或没有新信息的冗余操作：错误的物体、编辑或购买；再次查看已知的内容。</translation>
    </message>
    <message>
        <source>Blind</source>
        <translation>盲标</translation>
    </message>
    <message>
        <source>Skip (S)</source>
        <translation>跳过（S）</translation>
    </message>
    <message>
        <source>Flag (F)</source>
        <translation>标记（F）</translation>
    </message>
    <message>
        <source>Blind labelling: hide the judges&apos; labels, the outcome and the reward</source>
        <translation>盲标：隐藏评判器的标签、结果和奖励</translation>
    </message>
    <message>
        <source>Your label of this turn</source>
        <translation>你对此回合的标签</translation>
    </message>
    <message>
        <source>The judges&apos; labels of this turn (hidden in blind mode)</source>
        <translation>评判器对此回合的标签（盲标模式下隐藏）</translation>
    </message>
    <message>
        <source>%1 · %2  %3</source>
        <translation>%1 · %2  %3</translation>
    </message>
    <message>
        <source>%1 (%2): %3
Keys %4 or %1</source>
        <translation>%1（%2）：%3
按键 %4 或 %1</translation>
    </message>
    <message>
        <source>Pass on this turn without a label (kept as a note) and go to the next</source>
        <translation>跳过此回合、不加标签（记为备注），并转到下一个</translation>
    </message>
    <message>
        <source>Mark this turn to look at again</source>
        <translation>标记此回合以便再次查看</translation>
    </message>
    <message>
        <source>Comment (C); Return keeps it</source>
        <translation>评论（C）；按回车保存</translation>
    </message>
    <message>
        <source>Keys: 1–4 or D/E/N/R label · S skip · F flag · C comment · ↑/↓ move · Ctrl+Z undo</source>
        <translation>按键：1–4 或 D/E/N/R 标注 · S 跳过 · F 标记 · C 评论 · ↑/↓ 移动 · Ctrl+Z 撤销</translation>
    </message>
    <message>
        <source>Could not store the note: %1</source>
        <translation>无法保存备注：%1</translation>
    </message>
    <message>
        <source>Skip turn %1</source>
        <translation>跳过回合 %1</translation>
    </message>
    <message>
        <source>Flag turn %1</source>
        <translation>标记回合 %1</translation>
    </message>
    <message>
        <source>Unflag turn %1</source>
        <translation>取消标记回合 %1</translation>
    </message>
    <message>
        <source>Comment on turn %1</source>
        <translation>评论回合 %1</translation>
    </message>
    <message>
        <source>Trajectory %1 of %2 · %3</source>
        <translation>轨迹 %1 / %2 · %3</translation>
    </message>
    <message>
        <source> · %1 · reward %2</source>
        <translation> · %1 · 奖励 %2</translation>
    </message>
    <message>
        <source>Goal: %1</source>
        <translation>目标：%1</translation>
    </message>
    <message>
        <source>Turn %1 of %2 · %3 labelled</source>
        <translation>回合 %1 / %2 · 已标注 %3</translation>
    </message>
    <message>
        <source> · %1 skipped</source>
        <translation> · 已跳过 %1</translation>
    </message>
    <message>
        <source> · %1 flagged</source>
        <translation> · 已标记 %1</translation>
    </message>
    <message>
        <source>Turn %1</source>
        <translation>回合 %1</translation>
    </message>
    <message>
        <source>[you: %1]</source>
        <translation>[你：%1]</translation>
    </message>
    <message>
        <source>[judge %1: %2%3]</source>
        <translation>[评判器 %1：%2%3]</translation>
    </message>
    <message>
        <source>   skipped</source>
        <translation>   已跳过</translation>
    </message>
    <message>
        <source>   ⚑ flagged</source>
        <translation>   ⚑ 已标记</translation>
    </message>
    <message>
        <source>   “%1”</source>
        <translation>   “%1”</translation>
    </message>
    <message>
        <source>
Observation: %1</source>
        <translation>
观察：%1</translation>
    </message>
    <message>
        <source>
Action: %1</source>
        <translation>
动作：%1</translation>
    </message>
    <message>
        <source>
Feedback: %1</source>
        <translation>
反馈：%1</translation>
    </message>
    <message>
        <source>— end of trajectory %1 of %2 —</source>
        <translation>— 轨迹 %1 / %2 结束 —</translation>
    </message>
    <message>
        <source>No turn</source>
        <translation>无回合</translation>
    </message>
    <message>
        <source>Turn %1 of %2</source>
        <translation>第 %1 个回合，共 %2 个</translation>
    </message>
    <message>
        <source>You: %1 · %2</source>
        <translation>你：%1 · %2</translation>
    </message>
    <message>
        <source>You: skipped</source>
        <translation>你：已跳过</translation>
    </message>
    <message>
        <source>You: not labelled</source>
        <translation>你：未标注</translation>
    </message>
    <message>
        <source>Observation</source>
        <translation>观察</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>动作</translation>
    </message>
    <message>
        <source>Feedback</source>
        <translation>反馈</translation>
    </message>
    <message>
        <source>Judge labels hidden (blind)</source>
        <translation>评判器标签已隐藏（盲标）</translation>
    </message>
    <message>
        <source>%1: %2%3</source>
        <translation>%1：%2%3</translation>
    </message>
    <message>
        <source>Judge: no label</source>
        <translation>评判器：无标签</translation>
    </message>
    <message>
        <source>Judge  %1</source>
        <translation>评判器  %1</translation>
    </message>
    <message>
        <source>Last turn in the queue.</source>
        <translation>队列中的最后一个回合。</translation>
    </message>
    <message>
        <source>Next in the queue: turn %1 of this trajectory.</source>
        <translation>队列中的下一个：此轨迹的回合 %1。</translation>
    </message>
    <message>
        <source>Last turn here: the queue moves on to trajectory %1 of %2 (turn %3).</source>
        <translation>此处最后一个回合：队列将转到轨迹 %1 / %2（回合 %3）。</translation>
    </message>
    <message>
        <source>Not while blind: this order reads the judges&apos; labels, the outcome or the credits</source>
        <translation>盲标模式下不可用：此排序会读取评判者的标签、结果或信用</translation>
    </message>
    <message>
        <source>expected a string</source>
        <translation>应为字符串</translation>
    </message>
    <message>
        <source>expected true or false</source>
        <translation>应为 true 或 false</translation>
    </message>
    <message>
        <source>Imported %1 and %2.</source>
        <translation>已导入 %1 和 %2。</translation>
    </message>
    <message numerus="yes">
        <source>%n label(s)</source>
        <translation>
            <numerusform>%n 个标签</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n note(s)</source>
        <translation>
            <numerusform>%n 条备注</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>creditlab::ui::CellTurnsModel</name>
    <message>
        <source>Trajectory</source>
        <translation>轨迹</translation>
    </message>
    <message>
        <source>Turn</source>
        <translation>回合</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>动作</translation>
    </message>
    <message>
        <source>Reference</source>
        <translation>参考</translation>
    </message>
    <message>
        <source>Other</source>
        <translation>其他</translation>
    </message>
</context>
<context>
    <name>creditlab::ui::CliRun</name>
    <message>
        <source>There is no valid config to start a run from.</source>
        <translation>没有可用于启动运行的有效配置。</translation>
    </message>
    <message>
        <source>Cannot run %1 processes: creditlab-cli is neither beside the workbench nor on PATH (or set CREDITLAB_CLI).</source>
        <translation>无法运行 %1 个进程：creditlab-cli 既不在工作台程序旁边，也不在 PATH 中（也可设置 CREDITLAB_CLI）。</translation>
    </message>
    <message>
        <source>Cannot write the run&apos;s config: %1</source>
        <translation>无法写入运行的配置：%1</translation>
    </message>
    <message>
        <source>Cannot start creditlab-cli: %1</source>
        <translation>无法启动 creditlab-cli：%1</translation>
    </message>
    <message>
        <source>creditlab-cli was killed.</source>
        <translation>creditlab-cli 被强制终止。</translation>
    </message>
    <message>
        <source>creditlab-cli exited with code %1.</source>
        <translation>creditlab-cli 已退出，退出码为 %1。</translation>
    </message>
    <message>
        <source>Its last lines:
%1</source>
        <translation>其最后几行：
%1</translation>
    </message>
</context>
<context>
    <name>creditlab::ui::CompareAddRunsDialog</name>
    <message>
        <source>Add runs to compare</source>
        <translation>添加要比较的运行</translation>
    </message>
    <message>
        <source>Filter runs by name, kind, status…</source>
        <translation>按名称、类型、状态筛选运行…</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>添加</translation>
    </message>
    <message>
        <source>Select one or more runs (Ctrl/Shift+click).</source>
        <translation>选择一个或多个运行（Ctrl/Shift+单击）。</translation>
    </message>
</context>
<context>
    <name>creditlab::ui::CompareControls</name>
    <message>
        <source>Group seeds (mean ± std)</source>
        <translation>合并种子（均值 ± 标准差）</translation>
    </message>
    <message>
        <source>Iteration</source>
        <translation>迭代</translation>
    </message>
    <message>
        <source>Wall time</source>
        <translation>实际时间</translation>
    </message>
    <message>
        <source>One line per set of runs whose configs differ only in the seed</source>
        <translation>配置仅在种子上不同的一组运行合并为一条曲线</translation>
    </message>
    <message>
        <source>Debiased exponential moving average; the raw curve stays faded underneath</source>
        <translation>去偏的指数移动平均；原始曲线以淡色保留在下方</translation>
    </message>
    <message>
        <source>Export chart…</source>
        <translation>导出图表…</translation>
    </message>
    <message>
        <source>PNG or SVG (Ctrl+E)</source>
        <translation>PNG 或 SVG（Ctrl+E）</translation>
    </message>
    <message>
        <source>Export table…</source>
        <translation>导出表格…</translation>
    </message>
    <message>
        <source>The table at the chosen iteration as CSV</source>
        <translation>将所选迭代处的表格导出为 CSV</translation>
    </message>
    <message>
        <source>Metric</source>
        <translation>指标</translation>
    </message>
    <message>
        <source>x axis</source>
        <translation>x 轴</translation>
    </message>
    <message>
        <source>Smoothing %1</source>
        <translation>平滑 %1</translation>
    </message>
    <message>
        <source>Grid</source>
        <translation>网格</translation>
    </message>
    <message>
        <source>More metrics at once, each in its own chart: one crosshair and one x zoom for all</source>
        <translation>同时查看多个指标，各占一个图表：共用一个十字准线和一个 x 轴缩放</translation>
    </message>
    <message>
        <source>Grid (%1)</source>
        <translation>网格（%1）</translation>
    </message>
</context>
<context>
    <name>creditlab::ui::CompareGrid</name>
    <message>
        <source>Wall time (s)</source>
        <translation>实际时间（秒）</translation>
    </message>
    <message>
        <source>Iteration</source>
        <translation>迭代</translation>
    </message>
</context>
<context>
    <name>creditlab::ui::ComparePage</name>
    <message numerus="yes">
        <source>%1 (mean ± std of %n seeds)</source>
        <translation>
            <numerusform>%1（%n 个种子的均值 ± 标准差）</numerusform>
        </translation>
    </message>
    <message>
        <source>Add runs…</source>
        <translation>添加运行…</translation>
    </message>
    <message>
        <source>Table at iteration</source>
        <translation>表格对应迭代</translation>
    </message>
    <message>
        <source>Export chart…</source>
        <translation>导出图表…</translation>
    </message>
    <message numerus="yes">
        <source>Loading %n run(s)…</source>
        <translation>
            <numerusform>正在加载 %n 个运行…</numerusform>
        </translation>
    </message>
    <message>
        <source>Add runs to compare them.</source>
        <translation>添加运行以进行比较。</translation>
    </message>
    <message numerus="yes">
        <source>%n run(s) compared</source>
        <translation>
            <numerusform>已比较 %n 个运行</numerusform>
        </translation>
    </message>
    <message>
        <source>(unset)</source>
        <translation>（未设置）</translation>
    </message>
    <message>
        <source>Unpin baseline</source>
        <translation>取消固定基线</translation>
    </message>
    <message>
        <source>Pin as baseline</source>
        <translation>固定为基线</translation>
    </message>
    <message>
        <source>Remove from comparison</source>
        <translation>从比较中移除</translation>
    </message>
    <message>
        <source>Export chart</source>
        <translation>导出图表</translation>
    </message>
    <message>
        <source>PNG image (*.png);;SVG image (*.svg)</source>
        <translation>PNG 图像 (*.png);;SVG 图像 (*.svg)</translation>
    </message>
    <message>
        <source>Export table</source>
        <translation>导出表格</translation>
    </message>
    <message>
        <source>CSV file (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>比较</translation>
    </message>
</context>
<context>
    <name>creditlab::ui::CompareRunsModel</name>
    <message>
        <source>Run %1: %2 (%3)</source>
        <translation>运行 %1：%2（%3）</translation>
    </message>
    <message>
        <source>baseline</source>
        <translation>基线</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Baseline</source>
        <translation>基线</translation>
    </message>
    <message>
        <source>Differs in</source>
        <translation>差异项</translation>
    </message>
</context>
<context>
    <name>creditlab::ui::CompareTableModel</name>
    <message>
        <source>%1: no value at or before iteration %2</source>
        <translation>%1：迭代 %2 及之前没有值</translation>
    </message>
    <message>
        <source>%1 = %2</source>
        <translation>%1 = %2</translation>
    </message>
    <message>
        <source>mean of %1 runs, sample std %2</source>
        <translation>%1 个运行的均值，样本标准差 %2</translation>
    </message>
    <message>
        <source>last value before iteration %1 (from iteration %2)</source>
        <translation>迭代 %1 之前的最后一个值（来自迭代 %2）</translation>
    </message>
    <message>
        <source>at iteration %1</source>
        <translation>在迭代 %1</translation>
    </message>
    <message>
        <source>this is the baseline</source>
        <translation>这是基线</translation>
    </message>
    <message>
        <source>%1 vs the baseline</source>
        <translation>相对基线 %1</translation>
    </message>
    <message>
        <source>%1
runs: %2</source>
        <translation>%1
运行：%2</translation>
    </message>
    <message>
        <source>Group</source>
        <translation>分组</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>%1 at iteration %2; * marks the last value before it</source>
        <translation>%1（迭代 %2）；* 表示该迭代之前的最后一个值</translation>
    </message>
</context>
<context>
    <name>creditlab::ui::CreditPage</name>
    <message>
        <source>Stored order</source>
        <translation>存储顺序</translation>
    </message>
    <message>
        <source>By group</source>
        <translation>按分组</translation>
    </message>
    <message>
        <source>By outcome</source>
        <translation>按结果</translation>
    </message>
    <message>
        <source>By disagreement</source>
        <translation>按分歧</translation>
    </message>
    <message>
        <source>Advantages per role</source>
        <translation>各角色的优势</translation>
    </message>
    <message>
        <source>advantage</source>
        <translation>优势</translation>
    </message>
    <message>
        <source>turns</source>
        <translation>回合</translation>
    </message>
    <message>
        <source>Run:</source>
        <translation>运行：</translation>
    </message>
    <message>
        <source>Iteration:</source>
        <translation>迭代：</translation>
    </message>
    <message>
        <source>Rows:</source>
        <translation>行：</translation>
    </message>
    <message>
        <source>Methods:</source>
        <translation>方法：</translation>
    </message>
    <message>
        <source>Distribution of:</source>
        <translation>分布对象：</translation>
    </message>
    <message>
        <source>all</source>
        <translation>全部</translation>
    </message>
    <message>
        <source>Loading run %1…</source>
        <translation>正在加载运行 %1…</translation>
    </message>
    <message>
        <source>Run %1 has no trajectories with credits here.</source>
        <translation>运行 %1 在此处没有带信用的轨迹。</translation>
    </message>
    <message numerus="yes">
        <source>%1 trajectories, up to %2 turns, %n method(s)</source>
        <translation>
            <numerusform>%1 条轨迹，最多 %2 个回合，%n 种方法</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>unlabelled (%1)</source>
        <translation>未标注（%1）</translation>
    </message>
    <message>
        <source>Compute credits</source>
        <translation>计算信用</translation>
    </message>
    <message>
        <source>Compute a method&apos;s credits for this run (default parameters) and store them</source>
        <translation>为此运行计算某方法的信用（默认参数）并保存</translation>
    </message>
    <message>
        <source>All methods</source>
        <translation>所有方法</translation>
    </message>
    <message>
        <source>Computing %1 for run %2…</source>
        <translation>正在为运行 %2 计算 %1…</translation>
    </message>
    <message>
        <source>The method run %1 trained with; the others are shadow credits computed on its rollouts</source>
        <translation>运行 %1 训练所用的方法；其余为在其 rollout 上计算的影子 credit</translation>
    </message>
    <message>
        <source>Methods shown side by side; cells where the first two disagree in sign are outlined and struck through. Until you pick, the run&apos;s own method and its nearest rival.</source>
        <translation>并排显示的方法；前两种方法符号相反的单元格会加框并划线。未选择时，显示该运行自身的方法及其最接近的对手。</translation>
    </message>
    <message>
        <source>The credits of %1 are all 0 here too.</source>
        <translation>%1 的信用在此处也全为 0。</translation>
    </message>
    <message numerus="yes">
        <source>Advantages per role, clipped: %n turn(s) beyond ±%1</source>
        <translation>
            <numerusform>各角色的优势（已截断：%n 个回合超出 ±%1）</numerusform>
        </translation>
    </message>
    <message>
        <source>The histogram spans the heatmap&apos;s colour range, ±%1; the turns beyond it are counted in its end bins.</source>
        <translation>直方图的范围与热图的颜色范围相同（±%1）；超出的回合计入两端的区间。</translation>
    </message>
</context>
<context>
    <name>creditlab::ui::CsvExport</name>
    <message>
        <source>Export Table as CSV…</source>
        <translation>将表格导出为 CSV…</translation>
    </message>
    <message>
        <source>Export Table</source>
        <translation>导出表格</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
    <message>
        <source>Cannot export the table</source>
        <translation>无法导出表格</translation>
    </message>
</context>
<context>
    <name>creditlab::ui::DisagreeingTurnModel</name>
    <message>
        <source>The size of the disagreement: |difference| of the two credits</source>
        <translation>分歧大小：两个信用的 |差值|</translation>
    </message>
    <message>
        <source>Trajectory</source>
        <translation>轨迹</translation>
    </message>
    <message>
        <source>Turn</source>
        <translation>回合</translation>
    </message>
    <message>
        <source>First</source>
        <translation>第一个</translation>
    </message>
    <message>
        <source>Second</source>
        <translation>第二个</translation>
    </message>
    <message>
        <source>Gap</source>
        <translation>差距</translation>
    </message>
</context>
<context>
    <name>creditlab::ui::DisagreementPanel</name>
    <message>
        <source>Click a turn to find it in the heatmap; double-click to open it</source>
        <translation>单击回合可在热图中定位；双击可打开</translation>
    </message>
    <message>
        <source>Sign disagreement per pair of methods:</source>
        <translation>各方法对的符号分歧：</translation>
    </message>
    <message>
        <source>Among the turns where both methods are non-zero and finite; pairs without such turns are left out</source>
        <translation>在两种方法均非零且有限的回合中统计；没有此类回合的方法对不列出</translation>
    </message>
    <message>
        <source>One method: nothing to compare.</source>
        <translation>只有一种方法：无可比较。</translation>
    </message>
    <message>
        <source>%1 and %2 never disagree in sign here.</source>
        <translation>%1 与 %2 在此处符号从不相反。</translation>
    </message>
    <message>
        <source>Where %1 and %2 disagree most:</source>
        <translation>%1 与 %2 分歧最大之处：</translation>
    </message>
    <message>
        <source>Turns with opposite signs, the largest |difference| first</source>
        <translation>符号相反的回合，|差值| 最大的优先</translation>
    </message>
</context>
<context>
    <name>creditlab::ui::Duration</name>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>%1 min %2 s</source>
        <translation>%1 分 %2 秒</translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <translation>%1 小时 %2 分</translation>
    </message>
</context>
<context>
    <name>creditlab::ui::ImportJob</name>
    <message>
        <source>%1: unknown error</source>
        <translation>%1：未知错误</translation>
    </message>
    <message numerus="yes">
        <source>%n files in %1</source>
        <translation>
            <numerusform>%1 中的 %n 个文件</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>creditlab::ui::ImportOptionsDialog</name>
    <message>
        <source>Detect from the first record</source>
        <translation>根据第一条记录检测</translation>
    </message>
    <message>
        <source>CreditLab JSONL</source>
        <translation>CreditLab JSONL</translation>
    </message>
    <message>
        <source>One trajectory per line: id, group, reward and turns, as CreditLab exports them.</source>
        <translation>每行一条轨迹：id、group、reward 和 turns，与 CreditLab 导出的格式相同。</translation>
    </message>
    <message>
        <source>Chat records (OpenAI messages)</source>
        <translation>聊天记录（OpenAI 消息）</translation>
    </message>
    <message>
        <source>A messages (or chat_completions) array per line; each assistant message is a turn&apos;s action.</source>
        <translation>每行一个 messages（或 chat_completions）数组；每条 assistant 消息是一个回合的动作。</translation>
    </message>
    <message>
        <source>ShareGPT / AgentGym</source>
        <translation>ShareGPT / AgentGym</translation>
    </message>
    <message>
        <source>A conversations array of from/value messages per line; gpt messages are actions.</source>
        <translation>每行一个由 from/value 消息组成的 conversations 数组；gpt 消息为动作。</translation>
    </message>
    <message>
        <source>verl rollout dump</source>
        <translation>verl rollout 转储</translation>
    </message>
    <message>
        <source>input, output, score and step per line; the output is split into turns at its chat template&apos;s markers (ChatML and Llama 3 are recognised; give others below).</source>
        <translation>每行包含 input、output、score 和 step；output 按其聊天模板的标记切分为回合（可识别 ChatML 和 Llama 3；其他模板请在下方给出）。</translation>
    </message>
    <message>
        <source>Per-step rows (verl-agent)</source>
        <translation>每步一行（verl-agent）</translation>
    </message>
    <message>
        <source>One row per step with a trajectory id and a step index; rows are put back together into trajectories.</source>
        <translation>每步一行，带有轨迹 ID 和步骤索引；这些行会被重新组合成轨迹。</translation>
    </message>
    <message>
        <source>Any other layout, with a mapping file</source>
        <translation>其他任意布局（使用映射文件）</translation>
    </message>
    <message>
        <source>A YAML file names the source field for each of ours (id, group, reward, turns, observation, action, ...); see docs/import-formats.md.</source>
        <translation>由一个 YAML 文件为我们的每个字段（id、group、reward、turns、observation、action、...）指定源字段；参见 docs/import-formats.md。</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>Import with Options</source>
        <translation>带选项导入</translation>
    </message>
    <message>
        <source>No file chosen</source>
        <translation>未选择文件</translation>
    </message>
    <message>
        <source>&amp;Choose…</source>
        <translation>选择(&amp;C)…</translation>
    </message>
    <message>
        <source>mapping.yaml</source>
        <translation>mapping.yaml</translation>
    </message>
    <message>
        <source>&amp;Files:</source>
        <translation>文件(&amp;F)：</translation>
    </message>
    <message>
        <source>F&amp;ormat:</source>
        <translation>格式(&amp;O)：</translation>
    </message>
    <message>
        <source>&amp;Mapping file:</source>
        <translation>映射文件(&amp;M)：</translation>
    </message>
    <message>
        <source>Choose the files to import.</source>
        <translation>请选择要导入的文件。</translation>
    </message>
    <message>
        <source>Choose the mapping file that describes these files.</source>
        <translation>请选择描述这些文件的映射文件。</translation>
    </message>
    <message>
        <source>%1: no such file.</source>
        <translation>%1：文件不存在。</translation>
    </message>
    <message>
        <source>Give both markers (where a message begins and where it ends), or neither to recognise the template.</source>
        <translation>请同时给出两个标记（消息开始处和结束处），或都不填以自动识别模板。</translation>
    </message>
    <message>
        <source>Import Trajectories</source>
        <translation>导入轨迹</translation>
    </message>
    <message>
        <source>JSON Lines (*.jsonl *.json);;All files (*)</source>
        <translation>JSON Lines (*.jsonl *.json);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Mapping File</source>
        <translation>映射文件</translation>
    </message>
    <message>
        <source>YAML (*.yaml *.yml);;All files (*)</source>
        <translation>YAML (*.yaml *.yml);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Template ma&amp;rkers:</source>
        <translation>模板标记(&amp;R)：</translation>
    </message>
    <message>
        <source>Each file&apos;s format is told from its first record, as File → Import does: ours, the trainers&apos; formats below, and public logs (tau-bench, FireAct, SWE-agent, ReAct, WebShop sessions, AgentGym episodes).</source>
        <translation>每个文件的格式由其第一条记录识别，与 文件 → 导入 相同：我们自己的格式、下方各训练器的格式，以及公开日志（tau-bench、FireAct、SWE-agent、ReAct、WebShop 会话、AgentGym episode）。</translation>
    </message>
    <message>
        <source>Read a repeated key as source.&lt;name&gt; (files exported before 2026-11-29)</source>
        <translation>将重复的键读作 source.&lt;name&gt;（2026-11-29 之前导出的文件）</translation>
    </message>
    <message>
        <source>the format&apos;s own groups; or a source field such as task_id</source>
        <translation>格式自身的分组；或源字段，如 task_id</translation>
    </message>
    <message>
        <source>Every trajectory&apos;s group becomes this source field, so that several trials of one task are compared (--group-by).</source>
        <translation>每条轨迹的分组取该源字段，以便比较同一任务的多次试验（--group-by）。</translation>
    </message>
    <message>
        <source>&amp;Group by field:</source>
        <translation>分组字段(&amp;G)：</translation>
    </message>
</context>
<context>
    <name>creditlab::ui::ImportStatusWidget</name>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Stop the import; nothing of the current file is kept</source>
        <translation>停止导入；当前文件的内容不会保留</translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation>正在取消…</translation>
    </message>
    <message>
        <source>Importing %1 (%2 of %3)</source>
        <translation>正在导入 %1（第 %2 个，共 %3 个）</translation>
    </message>
    <message>
        <source>Importing %1</source>
        <translation>正在导入 %1</translation>
    </message>
    <message>
        <source>%1 left</source>
        <translation>剩余 %1</translation>
    </message>
    <message numerus="yes">
        <source>%Ln trajectories</source>
        <translation>
            <numerusform>%Ln 条轨迹</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>creditlab::ui::LauncherPage</name>
    <message>
        <source>&amp;Start run</source>
        <translation>开始运行(&amp;S)</translation>
    </message>
    <message>
        <source>(defaults)</source>
        <translation>（默认值）</translation>
    </message>
    <message>
        <source>Ready-made configs shipped in resources/configs/</source>
        <translation>resources/configs/ 中附带的现成配置</translation>
    </message>
    <message>
        <source>&amp;Open…</source>
        <translation>打开(&amp;O)…</translation>
    </message>
    <message>
        <source>Load a YAML config (Ctrl+Shift+O)</source>
        <translation>加载 YAML 配置（Ctrl+Shift+O）</translation>
    </message>
    <message>
        <source>Save the config as YAML for creditlab-cli train --config (Ctrl+S)</source>
        <translation>将配置保存为 YAML，供 creditlab-cli train --config 使用（Ctrl+S）</translation>
    </message>
    <message>
        <source>Reset all</source>
        <translation>全部重置</translation>
    </message>
    <message>
        <source>%1 (%2×%3, %4 heads)</source>
        <translation>%1（%2×%3，%4 个注意力头）</translation>
    </message>
    <message>
        <source>Custom</source>
        <translation>自定义</translation>
    </message>
    <message>
        <source>auto (CUDA when present)</source>
        <translation>自动（有 CUDA 时使用 CUDA）</translation>
    </message>
    <message>
        <source>Start training in the background (Ctrl+Return)</source>
        <translation>在后台开始训练（Ctrl+Return）</translation>
    </message>
    <message>
        <source>Preset:</source>
        <translation>预设：</translation>
    </message>
    <message>
        <source>&amp;Environment:</source>
        <translation>环境(&amp;E)：</translation>
    </message>
    <message>
        <source>Credit &amp;method:</source>
        <translation>信用方法(&amp;M)：</translation>
    </message>
    <message>
        <source>&amp;Judge:</source>
        <translation>评判器(&amp;J)：</translation>
    </message>
    <message>
        <source>De&amp;vice:</source>
        <translation>设备(&amp;D)：</translation>
    </message>
    <message>
        <source>Config (YAML, as creditlab-cli train reads it):</source>
        <translation>配置（YAML，与 creditlab-cli train 读取的格式相同）：</translation>
    </message>
    <message>
        <source>defaults</source>
        <translation>默认值</translation>
    </message>
    <message>
        <source>Cannot load the preset</source>
        <translation>无法加载预设</translation>
    </message>
    <message>
        <source>Credit: %1</source>
        <translation>信用：%1</translation>
    </message>
    <message>
        <source>Environment: %1</source>
        <translation>环境：%1</translation>
    </message>
    <message>
        <source>Judge: %1</source>
        <translation>评判器：%1</translation>
    </message>
    <message>
        <source>Fix first: %1</source>
        <translation>请先修正：%1</translation>
    </message>
    <message>
        <source>Run &quot;%1&quot;: %2 SFT episodes, then %3 iterations × %4 tasks × %5 rollouts = %6 training episodes, on %7.</source>
        <translation>运行“%1”：%2 个 SFT episode，然后 %3 次迭代 × %4 个任务 × %5 次 rollout = %6 个训练 episode，设备：%7。</translation>
    </message>
    <message>
        <source>&amp;Queue run (starts when run %1 ends)</source>
        <translation>排队运行(&amp;Q)（运行 %1 结束后开始）</translation>
    </message>
    <message numerus="yes">
        <source>&amp;Queue run (%n waiting)</source>
        <translation>
            <numerusform>排队运行(&amp;Q)（%n 个等待中）</numerusform>
        </translation>
    </message>
    <message>
        <source>%1: unknown value &apos;%2&apos;</source>
        <translation>%1：未知值“%2”</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>Open Config</source>
        <translation>打开配置</translation>
    </message>
    <message>
        <source>YAML configs (*.yaml *.yml);;All files (*)</source>
        <translation>YAML 配置 (*.yaml *.yml);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Cannot load the config</source>
        <translation>无法加载配置</translation>
    </message>
    <message>
        <source>Save Config</source>
        <translation>保存配置</translation>
    </message>
    <message>
        <source>YAML configs (*.yaml *.yml)</source>
        <translation>YAML 配置 (*.yaml *.yml)</translation>
    </message>
    <message>
        <source>Cannot save the config</source>
        <translation>无法保存配置</translation>
    </message>
    <message>
        <source>Cannot start the run</source>
        <translation>无法开始运行</translation>
    </message>
    <message>
        <source>Tiny</source>
        <translation>微型</translation>
    </message>
    <message>
        <source>Small</source>
        <translation>小</translation>
    </message>
    <message>
        <source>Base</source>
        <translation>基础</translation>
    </message>
    <message>
        <source>Large</source>
        <translation>大</translation>
    </message>
    <message>
        <source>General</source>
        <translation>常规</translation>
    </message>
    <message>
        <source>Policy</source>
        <translation>策略</translation>
    </message>
    <message>
        <source>Tokenizer</source>
        <translation>分词器</translation>
    </message>
    <message>
        <source>SFT warm start</source>
        <translation>SFT 预热</translation>
    </message>
    <message>
        <source>RL update</source>
        <translation>RL 更新</translation>
    </message>
    <message>
        <source>KL to the reference policy</source>
        <translation>相对参考策略的 KL</translation>
    </message>
    <message>
        <source>Critic</source>
        <translation>评论家（Critic）</translation>
    </message>
    <message>
        <source>Evaluation</source>
        <translation>评估</translation>
    </message>
    <message>
        <source>Checkpoints</source>
        <translation>检查点</translation>
    </message>
    <message>
        <source>&amp;Save…</source>
        <translation>保存(&amp;S)…</translation>
    </message>
    <message>
        <source>Filter keys… (Ctrl+F)</source>
        <translation>筛选键… (Ctrl+F)</translation>
    </message>
    <message>
        <source>Training is not available: %1</source>
        <translation>训练不可用：%1</translation>
    </message>
    <message>
        <source>every annotator</source>
        <translation>所有标注者</translation>
    </message>
    <message>
        <source>No human labels by %1 in this database yet: every turn goes to the backing judge. Label turns in the Annotate tab (Ctrl+8).</source>
        <translation>此数据库中尚无 %1 的人工标注：所有轮次都交给后备评判。请在“标注”标签页（Ctrl+8）中标注轮次。</translation>
    </message>
    <message>
        <source>Human labels by %1: %2, on %3 distinct (task, state, action) keys in %4 %5 train tasks. Rollout turns that match one take it; the rest go to the backing judge.</source>
        <translation>%1 的人工标注：%2 条，覆盖 %3 个不同的（任务、状态、动作）键，分布在 %4 个 %5 训练任务中。匹配的 rollout 轮次采用人工标注；其余交给后备评判。</translation>
    </message>
    <message>
        <source>rl.task_pool=labelled needs labelled %1 train tasks: the run would stop at its first iteration.</source>
        <translation>rl.task_pool=labelled 需要已标注的 %1 训练任务：否则运行会在第一次迭代时停止。</translation>
    </message>
    <message>
        <source>Check servers</source>
        <translation>检查服务器</translation>
    </message>
    <message>
        <source>Check that the remote environment server and the http judge answer (Ctrl+K)</source>
        <translation>检查远程环境服务器和 HTTP 评判器是否响应 (Ctrl+K)</translation>
    </message>
    <message>
        <source>Nothing to check: this config calls no server (env remote or judge http).</source>
        <translation>无需检查：此配置不调用任何服务器（env remote 或 judge http）。</translation>
    </message>
    <message>
        <source>Checking…</source>
        <translation>正在检查…</translation>
    </message>
    <message>
        <source>Run &quot;%1&quot;: %2 iterations × %3 tasks × %4 rollouts = %5 training episodes on the remote server, on %6.</source>
        <translation>运行“%1”：%2 次迭代 × %3 个任务 × %4 次展开 = 远程服务器上的 %5 个训练回合，设备 %6。</translation>
    </message>
    <message>
        <source>The policy starts from run %1&apos;s SFT policy.</source>
        <translation>策略从运行 %1 的 SFT 策略开始。</translation>
    </message>
    <message>
        <source>SFT clones the successful trajectories of %1 (a remote server has no expert).</source>
        <translation>SFT 模仿 %1 中成功的轨迹（远程服务器没有专家）。</translation>
    </message>
    <message>
        <source>No SFT: a remote server has no expert to demonstrate. Set sft.demonstrations to a JSONL file of trajectories, or sft.from_run to an earlier run.</source>
        <translation>没有 SFT：远程服务器没有可示范的专家。请将 sft.demonstrations 设为轨迹的 JSONL 文件，或将 sft.from_run 设为之前的运行。</translation>
    </message>
    <message>
        <source>The %1 judge labels nothing here (a remote server gives no oracle roles) and triage needs a role on every turn: use judge http or human, or credit.unlabelled=grpo.</source>
        <translation>%1 评判器在这里不会标注任何内容（远程服务器不提供 oracle 角色），而 triage 需要每一步都有角色：请使用 judge http 或 human，或设置 credit.unlabelled=grpo。</translation>
    </message>
    <message>
        <source>Default</source>
        <translation>默认</translation>
    </message>
    <message>
        <source>The trainer&apos;s defaults: the full household world and a 128×4 policy.</source>
        <translation>训练器的默认值：完整的 household 世界和 128×4 策略。</translation>
    </message>
    <message>
        <source>No earlier run of this preset in this database to estimate its time from.</source>
        <translation>此数据库中没有该预设之前的运行，无法估计其耗时。</translation>
    </message>
    <message>
        <source>Its earlier run here took %1 of compute.</source>
        <translation>此前在这里的一次运行用了 %1 计算时间。</translation>
    </message>
    <message numerus="yes">
        <source>Its %n earlier runs here took %1–%2 of compute.</source>
        <translation>
            <numerusform>此前在这里的 %n 次运行用了 %1–%2 计算时间。</numerusform>
        </translation>
    </message>
    <message>
        <source> in %1</source>
        <translation> (用时 %1)</translation>
    </message>
    <message>
        <source>Run %1 (%2) trained this same SFT%3. &lt;a href=&quot;reuse&quot;&gt;Start from its SFT policy&lt;/a&gt; instead of training it again (sft.from_run = %1).</source>
        <translation>运行 %1（%2）已训练过相同的 SFT%3。&lt;a href=&quot;reuse&quot;&gt;从其 SFT 策略开始&lt;/a&gt;，无需再次训练（sft.from_run = %1）。</translation>
    </message>
    <message>
        <source>Built-in si&amp;ze:</source>
        <translation>内置规模(&amp;Z)：</translation>
    </message>
    <message>
        <source>Hu&amp;gging Face model:</source>
        <translation>Hugging Face 模型(&amp;G)：</translation>
    </message>
    <message>
        <source>&amp;Browse…</source>
        <translation>浏览(&amp;B)…</translation>
    </message>
    <message>
        <source>Policy:</source>
        <translation>策略：</translation>
    </message>
    <message>
        <source>A policy trained from scratch, of this width × layers (policy.width, .layers, .heads)</source>
        <translation>从零开始训练的策略，采用此宽度 × 层数（policy.width、.layers、.heads）</translation>
    </message>
    <message>
        <source>Start from a pretrained Llama, Qwen2 or Qwen3 model in safetensors, with its tokenizer and chat template (policy.pretrained)</source>
        <translation>从 safetensors 格式的预训练 Llama、Qwen2 或 Qwen3 模型开始，使用其分词器和聊天模板（policy.pretrained）</translation>
    </message>
    <message>
        <source>model folder, or ORG/NAME in the Hugging Face cache</source>
        <translation>模型文件夹，或 Hugging Face 缓存中的 ORG/NAME</translation>
    </message>
    <message>
        <source>A Hugging Face model folder, or a repository id already in the local Hugging Face cache (nothing is downloaded)</source>
        <translation>Hugging Face 模型文件夹，或已在本地 Hugging Face 缓存中的仓库 ID（不会下载任何内容）</translation>
    </message>
    <message>
        <source>Choose a Hugging Face model folder (Alt+B)</source>
        <translation>选择 Hugging Face 模型文件夹（Alt+B）</translation>
    </message>
    <message>
        <source>A Hugging Face model is chosen (policy.pretrained): its own shape applies.</source>
        <translation>已选择 Hugging Face 模型（policy.pretrained）：使用模型自身的结构。</translation>
    </message>
    <message>
        <source>Only for a Hugging Face model (policy.pretrained).</source>
        <translation>仅适用于 Hugging Face 模型（policy.pretrained）。</translation>
    </message>
    <message>
        <source>Only with LoRA fine-tuning (policy.finetune lora).</source>
        <translation>仅用于 LoRA 微调（policy.finetune lora）。</translation>
    </message>
    <message>
        <source>Choose a Hugging Face Model Folder</source>
        <translation>选择 Hugging Face 模型文件夹</translation>
    </message>
    <message>
        <source>Choose a Hugging Face model folder or repository id, or a built-in size.</source>
        <translation>请选择 Hugging Face 模型文件夹或仓库 ID，或选择内置规模。</translation>
    </message>
    <message>
        <source>The model is still being read.</source>
        <translation>仍在读取模型。</translation>
    </message>
    <message>
        <source>Cannot use this model: %1</source>
        <translation>无法使用此模型：%1</translation>
    </message>
    <message>
        <source>Runs of several processes need creditlab-cli beside the workbench or on PATH</source>
        <translation>多进程运行需要 creditlab-cli 位于工作台程序旁边或 PATH 中</translation>
    </message>
    <message>
        <source>Data-parallel ranks on this machine (creditlab-cli train --nproc N); the cores are shared among them; the run&apos;s results are the same up to floating-point order</source>
        <translation>本机上的数据并行 rank（creditlab-cli train --nproc N）；它们共享 CPU 核心；除浮点运算顺序带来的差异外，运行结果相同</translation>
    </message>
    <message>
        <source>data-parallel ranks on this machine (more than 1: creditlab-cli train --nproc)</source>
        <translation>本机上的数据并行 rank（大于 1 时：creditlab-cli train --nproc）</translation>
    </message>
    <message>
        <source>Pro&amp;cesses:</source>
        <translation>进程数(&amp;C)：</translation>
    </message>
    <message numerus="yes">
        <source>Data-parallel: %n processes (creditlab-cli train --nproc), each rolling out its share of the tasks; the Monitor follows the run from the database.</source>
        <translation>
            <numerusform>数据并行：%n 个进程（creditlab-cli train --nproc），各自对分到的那部分任务进行 rollout；“监控”页通过数据库跟踪该运行。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>creditlab::ui::MainWindow</name>
    <message>
        <source>Could not read the database: %1</source>
        <translation>无法读取数据库：%1</translation>
    </message>
    <message>
        <source>Import of %1 failed</source>
        <translation>导入 %1 失败</translation>
    </message>
    <message>
        <source>Import failed</source>
        <translation>导入失败</translation>
    </message>
    <message>
        <source>Import of %1 cancelled; nothing of it was kept.</source>
        <translation>已取消导入 %1；未保留任何内容。</translation>
    </message>
    <message>
        <source>An import is running. Wait for it to finish or cancel it, then open another database.</source>
        <translation>正在导入。请等待导入完成或将其取消，然后再打开其他数据库。</translation>
    </message>
    <message>
        <source>%1: cannot open the database</source>
        <translation>%1：无法打开数据库</translation>
    </message>
    <message>
        <source>Cannot open database</source>
        <translation>无法打开数据库</translation>
    </message>
    <message>
        <source>Opened %1</source>
        <translation>已打开 %1</translation>
    </message>
    <message>
        <source>Open a database before importing.</source>
        <translation>导入前请先打开一个数据库。</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Open Database…</source>
        <translation>打开数据库(&amp;O)…</translation>
    </message>
    <message>
        <source>&amp;Import JSONL…</source>
        <translation>导入 JSONL(&amp;I)…</translation>
    </message>
    <message>
        <source>&amp;Recent Databases</source>
        <translation>最近的数据库(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Refresh</source>
        <translation>刷新(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;About CreditLab</source>
        <translation>关于 CreditLab(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;Clear Menu</source>
        <translation>清除菜单(&amp;C)</translation>
    </message>
    <message>
        <source>%1 – CreditLab</source>
        <translation>%1 – CreditLab</translation>
    </message>
    <message>
        <source>CreditLab</source>
        <translation>CreditLab</translation>
    </message>
    <message>
        <source>Open Database</source>
        <translation>打开数据库</translation>
    </message>
    <message>
        <source>CreditLab databases (*.db *.sqlite);;All files (*)</source>
        <translation>CreditLab 数据库 (*.db *.sqlite);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Import Trajectories</source>
        <translation>导入轨迹</translation>
    </message>
    <message>
        <source>JSON Lines (*.jsonl *.json);;All files (*)</source>
        <translation>JSON Lines (*.jsonl *.json);;所有文件 (*)</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>CreditLab %1
A workbench for credit assignment in agentic reinforcement learning.

Qt %2 (built with %3)
Database: %4
Schema version: %5</source>
        <translation>CreditLab %1
面向智能体强化学习中信用分配的工作台。

Qt %2（构建于 %3）
数据库：%4
模式版本：%5</translation>
    </message>
    <message>
        <source>About CreditLab</source>
        <translation>关于 CreditLab</translation>
    </message>
    <message>
        <source>Imported %1: %2 trajectories, %3 turns in %4 s</source>
        <translation>已导入 %1：%2 条轨迹，%3 个回合，用时 %4 秒</translation>
    </message>
    <message>
        <source>Nothing of %1 was imported.</source>
        <translation>%1 中的内容均未导入。</translation>
    </message>
    <message>
        <source>The database was not opened; %1 stays open.</source>
        <translation>未打开该数据库；%1 仍保持打开。</translation>
    </message>
    <message>
        <source>The database was not opened.</source>
        <translation>未打开该数据库。</translation>
    </message>
    <message>
        <source>&amp;Runs</source>
        <translation>运行(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Launch</source>
        <translation>启动(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Monitor</source>
        <translation>监控(&amp;M)</translation>
    </message>
    <message>
        <source>&amp;Compare</source>
        <translation>比较(&amp;C)</translation>
    </message>
    <message>
        <source>S&amp;weeps</source>
        <translation>参数扫描(&amp;W)</translation>
    </message>
    <message>
        <source>Ctrl+%1</source>
        <translation>Ctrl+%1</translation>
    </message>
    <message>
        <source>Run action failed</source>
        <translation>运行操作失败</translation>
    </message>
    <message>
        <source>Run %1 finished</source>
        <translation>运行 %1 已完成</translation>
    </message>
    <message>
        <source>Run %1 stopped; resume it from its checkpoint in Runs or Monitor</source>
        <translation>运行 %1 已停止；可在“运行”或“监控”页中从其检查点恢复</translation>
    </message>
    <message>
        <source>Training failed</source>
        <translation>训练失败</translation>
    </message>
    <message>
        <source>Run %1 failed; its last checkpoint is kept.</source>
        <translation>运行 %1 失败；已保留其最后一个检查点。</translation>
    </message>
    <message>
        <source>The run did not start.</source>
        <translation>运行未启动。</translation>
    </message>
    <message>
        <source>Cannot resume run %1</source>
        <translation>无法恢复运行 %1</translation>
    </message>
    <message>
        <source>A Run Is Training</source>
        <translation>有运行正在训练</translation>
    </message>
    <message>
        <source>Run %1 is training. Stop it after the current step (it can be resumed from its checkpoint) and quit?</source>
        <translation>运行 %1 正在训练。是否在当前步骤后停止（之后可从其检查点恢复）并退出？</translation>
    </message>
    <message>
        <source>Stop and Quit</source>
        <translation>停止并退出</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>撤销(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>重做(&amp;R)</translation>
    </message>
    <message>
        <source>R&amp;un</source>
        <translation>运行(&amp;U)</translation>
    </message>
    <message>
        <source>Run %1 resumes when run %2 ends</source>
        <translation>运行 %1 将在运行 %2 结束后恢复</translation>
    </message>
    <message>
        <source>Started run %1 (%2)</source>
        <translation>已开始运行 %1 (%2)</translation>
    </message>
    <message>
        <source>Cre&amp;dit</source>
        <translation>信用(&amp;D)</translation>
    </message>
    <message>
        <source>&amp;Agreement</source>
        <translation>一致性(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;Trees</source>
        <translation>树(&amp;T)</translation>
    </message>
    <message>
        <source>A&amp;nnotate</source>
        <translation>标注(&amp;N)</translation>
    </message>
    <message>
        <source>The launcher is set to learn from %1&apos;s labels; check the settings and start the run</source>
        <translation>启动器已设置为从 %1 的标注中学习；请检查设置后开始运行</translation>
    </message>
    <message>
        <source>every annotator</source>
        <translation>所有标注者</translation>
    </message>
    <message>
        <source>PAIR &amp;Probe Table…</source>
        <translation>PAIR 探针表(&amp;P)…</translation>
    </message>
    <message>
        <source>Open a database before computing a probe table.</source>
        <translation>计算探针表之前请先打开数据库。</translation>
    </message>
    <message>
        <source>PAIR&apos;s AUROC table for a training run&apos;s policy (Ctrl+Shift+P)</source>
        <translation>训练运行策略的 PAIR AUROC 表（Ctrl+Shift+P）</translation>
    </message>
    <message>
        <source>Quick demo</source>
        <translation>快速演示</translation>
    </message>
    <message>
        <source>The demo run did not start.</source>
        <translation>演示运行未启动。</translation>
    </message>
    <message>
        <source>Sample rollouts</source>
        <translation>示例 rollout</translation>
    </message>
    <message>
        <source>The sample could not be opened.</source>
        <translation>无法打开示例。</translation>
    </message>
    <message>
        <source>The sample&apos;s credits could not be computed.</source>
        <translation>无法计算示例的信用。</translation>
    </message>
    <message>
        <source>Sample run %1 is ready: its credits are on Credit (Ctrl+6), its trees on Trees (Ctrl+7)</source>
        <translation>示例运行 %1 已就绪：其信用见“信用”页（Ctrl+6），其树见“树”页（Ctrl+7）</translation>
    </message>
    <message>
        <source>&amp;Open</source>
        <translation>打开(&amp;O)</translation>
    </message>
    <message>
        <source>No database is open.</source>
        <translation>未打开数据库。</translation>
    </message>
    <message>
        <source>An import is running; try again when it ends.</source>
        <translation>正在导入；请在导入结束后重试。</translation>
    </message>
    <message>
        <source>The bundled sample is missing from this build.</source>
        <translation>此构建中缺少附带的示例。</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>Computing the sample&apos;s credits (grpo, gigpo, triage, rtmc)…</source>
        <translation>正在计算示例的信用（grpo, gigpo, triage, rtmc）…</translation>
    </message>
    <message>
        <source>Name its format, or describe its layout with a mapping file, in File → Import with Options… (Ctrl+Shift+I).</source>
        <translation>请在 文件 → 带选项导入…（Ctrl+Shift+I）中指定其格式，或用映射文件描述其布局。</translation>
    </message>
    <message>
        <source>Import with O&amp;ptions…</source>
        <translation>带选项导入(&amp;P)…</translation>
    </message>
    <message>
        <source>Name the format of the files, or describe another layout with a mapping file</source>
        <translation>指定文件的格式，或用映射文件描述其他布局</translation>
    </message>
    <message>
        <source>A Sweep Is Running</source>
        <translation>有参数扫描正在运行</translation>
    </message>
    <message>
        <source>Sweep %1 is running. Stop its trials after their current iteration (Resume on the Sweeps page continues it) and quit?</source>
        <translation>参数扫描 %1 正在运行。在其试验的当前迭代结束后停止（可在“参数扫描”页点击“恢复”继续）并退出？</translation>
    </message>
</context>
<context>
    <name>creditlab::ui::ModelPanel</name>
    <message>
        <source>%1 GiB</source>
        <translation>%1 GiB</translation>
    </message>
    <message>
        <source>Architecture:</source>
        <translation>架构：</translation>
    </message>
    <message>
        <source>Parameters:</source>
        <translation>参数：</translation>
    </message>
    <message>
        <source>Shape:</source>
        <translation>结构：</translation>
    </message>
    <message>
        <source>Context:</source>
        <translation>上下文：</translation>
    </message>
    <message>
        <source>Tokenizer:</source>
        <translation>分词器：</translation>
    </message>
    <message>
        <source>Chat template:</source>
        <translation>聊天模板：</translation>
    </message>
    <message>
        <source>Memory:</source>
        <translation>内存：</translation>
    </message>
    <message>
        <source>Choose a model folder (Browse…) or type a repository id from the local Hugging Face cache (ORG/NAME).</source>
        <translation>选择模型文件夹（浏览…），或输入本地 Hugging Face 缓存中的仓库 ID（ORG/NAME）。</translation>
    </message>
    <message>
        <source>Reading %1…</source>
        <translation>正在读取 %1…</translation>
    </message>
    <message>
        <source>Cannot use this model: %1</source>
        <translation>无法使用此模型：%1</translation>
    </message>
    <message>
        <source>%1 (from the Hugging Face cache)</source>
        <translation>%1（来自 Hugging Face 缓存）</translation>
    </message>
    <message>
        <source>%1 layers, hidden %2 (MLP %3), %4 heads, %5 key/value heads</source>
        <translation>%1 层，隐藏维度 %2（MLP %3），%4 个头，%5 个键/值头</translation>
    </message>
    <message>
        <source>%1 positions (rope %2)</source>
        <translation>%1 个位置（rope %2）</translation>
    </message>
    <message>
        <source>missing (tokenizer.json)</source>
        <translation>缺失（tokenizer.json）</translation>
    </message>
    <message>
        <source>%1 ids: %2</source>
        <translation>%1 个 ID：%2</translation>
    </message>
    <message>
        <source>%1, %2 characters</source>
        <translation>%1，%2 个字符</translation>
    </message>
    <message>
        <source>; episodes are append-only (the token stream equals the template&apos;s render)</source>
        <translation>；回合序列为仅追加（词元流与模板渲染结果一致）</translation>
    </message>
    <message>
        <source>%1 on CUDA in bf16</source>
        <translation>CUDA 上 bf16 约 %1</translation>
    </message>
    <message>
        <source>%1 on CUDA in fp32</source>
        <translation>CUDA 上 fp32 约 %1</translation>
    </message>
    <message>
        <source>%1 on the CPU in bf16</source>
        <translation>CPU 上 bf16 约 %1</translation>
    </message>
    <message>
        <source>%1 on the CPU in fp32</source>
        <translation>CPU 上 fp32 约 %1</translation>
    </message>
    <message>
        <source>%1, or %2</source>
        <translation>%1，或 %2</translation>
    </message>
    <message>
        <source>LoRA r=%1 trains %2 parameters</source>
        <translation>LoRA r=%1 训练 %2 个参数</translation>
    </message>
    <message>
        <source>full fine-tuning</source>
        <translation>全量微调</translation>
    </message>
    <message>
        <source>about %1 (%2 sequences × %3 tokens, %4)</source>
        <translation>%1（%2 条序列 × %3 个词元，%4）</translation>
    </message>
    <message>
        <source>A rough peak: weights, what trains (gradients, AdamW moments, fp32 master copies), the KV cache of rl.tasks × rl.group_size sequences of policy.context tokens, and activations.</source>
        <translation>粗略峰值：权重、训练部分（梯度、AdamW 动量、fp32 主副本）、rl.tasks × rl.group_size 条 policy.context 词元序列的 KV 缓存，以及激活。</translation>
    </message>
    <message>
        <source>%1 MiB</source>
        <translation>%1 MiB</translation>
    </message>
    <message>
        <source>%1 (%2, one file, %3)</source>
        <translation>%1（%2，1 个文件，%3）</translation>
    </message>
    <message>
        <source>%1 (%2, %3 files, %4)</source>
        <translation>%1（%2，%3 个文件，%4）</translation>
    </message>
    <message>
        <source>; episodes are not append-only: only &lt;think&gt; reasoning differs</source>
        <translation>；回合序列不是仅追加：只有 &lt;think&gt; 推理不同</translation>
    </message>
    <message>
        <source>; episodes are not append-only (the tooltip says where)</source>
        <translation>；回合序列不是仅追加（提示中说明差异位置）</translation>
    </message>
</context>
<context>
    <name>creditlab::ui::MonitorCharts</name>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>Single values</source>
        <translation>单值指标</translation>
    </message>
    <message>
        <source>SFT, per step</source>
        <translation>SFT，每步</translation>
    </message>
    <message>
        <source>Metrics with one value so far (written once, or only one iteration yet)</source>
        <translation>目前只有一个值的指标（只写入一次，或目前只有一次迭代）</translation>
    </message>
    <message>
        <source>Iteration</source>
        <translation>迭代</translation>
    </message>
    <message>
        <source>SFT step</source>
        <translation>SFT 步</translation>
    </message>
    <message>
        <source>Iteration %1</source>
        <translation>迭代 %1</translation>
    </message>
</context>
<context>
    <name>creditlab::ui::MonitorPage</name>
    <message>
        <source>&amp;Pause</source>
        <translation>暂停(&amp;P)</translation>
    </message>
    <message>
        <source>S&amp;top</source>
        <translation>停止(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Resume from checkpoint</source>
        <translation>从检查点恢复(&amp;R)</translation>
    </message>
    <message>
        <source>Pause after the current step (Ctrl+P)</source>
        <translation>在当前步骤后暂停（Ctrl+P）</translation>
    </message>
    <message>
        <source>Stop after the current step, with a checkpoint to resume from (Ctrl+.)</source>
        <translation>在当前步骤后停止，并保存可用于恢复的检查点（Ctrl+.）</translation>
    </message>
    <message>
        <source>Filter metrics…</source>
        <translation>筛选指标…</translation>
    </message>
    <message>
        <source>EMA smoothing weight (debiased); the raw curve stays underneath, faded</source>
        <translation>EMA 平滑权重（已去偏）；原始曲线以淡色保留在下方</translation>
    </message>
    <message>
        <source>Smoothing:</source>
        <translation>平滑：</translation>
    </message>
    <message>
        <source>Pausing…</source>
        <translation>正在暂停…</translation>
    </message>
    <message>
        <source>Stopping…</source>
        <translation>正在停止…</translation>
    </message>
    <message>
        <source>Failed: %1</source>
        <translation>失败：%1</translation>
    </message>
    <message>
        <source>iteration %1: %2</source>
        <translation>迭代 %1：%2</translation>
    </message>
    <message>
        <source>%1 generated tok/s</source>
        <translation>生成 %1 tok/s</translation>
    </message>
    <message>
        <source>%1 trained tok/s</source>
        <translation>训练 %1 tok/s</translation>
    </message>
    <message>
        <source>%1 env steps/s</source>
        <translation>%1 环境步/秒</translation>
    </message>
    <message>
        <source>RL</source>
        <translation>RL</translation>
    </message>
    <message>
        <source>Setting up</source>
        <translation>准备中</translation>
    </message>
    <message>
        <source>iteration %1 / %2</source>
        <translation>迭代 %1 / %2</translation>
    </message>
    <message>
        <source>%1 / %2 (%p%)</source>
        <translation>%1 / %2（%p%）</translation>
    </message>
    <message>
        <source>%1 elapsed, %2 left</source>
        <translation>已用 %1，剩余 %2</translation>
    </message>
    <message>
        <source>%1 elapsed</source>
        <translation>已用 %1</translation>
    </message>
    <message>
        <source>&amp;Continue</source>
        <translation>继续(&amp;C)</translation>
    </message>
    <message>
        <source>Run %1</source>
        <translation>运行 %1</translation>
    </message>
    <message>
        <source>Run %1: %2 (%3)</source>
        <translation>运行 %1：%2（%3）</translation>
    </message>
    <message>
        <source>about %1 left</source>
        <translation>剩余约 %1</translation>
    </message>
    <message>
        <source>No run shown. Start one in Launch (Ctrl+2), or select one in Runs and choose Run → Monitor (Ctrl+M).</source>
        <translation>未显示运行。请在“启动”(Ctrl+2) 中开始一个，或在“运行”中选择一个并选择 运行 → 监控 (Ctrl+M)。</translation>
    </message>
    <message>
        <source>The log of runs trained in this window (iterations, pauses, checkpoints, errors).</source>
        <translation>在此窗口中训练的运行的日志（迭代、暂停、检查点、错误）。</translation>
    </message>
    <message>
        <source>Waiting for a server</source>
        <translation>正在等待服务器</translation>
    </message>
    <message>
        <source>waited %1 of %2</source>
        <translation>已等待 %1 / %2</translation>
    </message>
    <message>
        <source>Paused</source>
        <translation>已暂停</translation>
    </message>
    <message>
        <source>Finished</source>
        <translation>已完成</translation>
    </message>
    <message>
        <source>Evaluating</source>
        <translation>正在评估</translation>
    </message>
    <message>
        <source>SFT</source>
        <translation>SFT</translation>
    </message>
    <message>
        <source>Supervised warm start: %1</source>
        <translation>监督预热：%1</translation>
    </message>
    <message>
        <source>SFT took %1</source>
        <translation>SFT 用时 %1</translation>
    </message>
    <message>
        <source>SFT step %1, then %2 iterations</source>
        <translation>SFT 第 %1 步，随后 %2 次迭代</translation>
    </message>
    <message>
        <source>Receiving</source>
        <translation>接收中</translation>
    </message>
    <message>
        <source>iteration %1 received</source>
        <translation>已接收第 %1 次迭代</translation>
    </message>
    <message>
        <source>waiting for the first iteration</source>
        <translation>等待第一次迭代</translation>
    </message>
    <message>
        <source>The newest iteration: its time, tokens generated and trained per second, environment steps per second, and the peak device memory (device/memory_gb; — when the run does not report it)</source>
        <translation>最新一次迭代：用时、每秒生成和训练的词元数、每秒环境步数，以及设备内存峰值（device/memory_gb；运行未报告时为 —）</translation>
    </message>
    <message>
        <source>device memory %1</source>
        <translation>设备内存 %1</translation>
    </message>
    <message>
        <source>%1 GiB</source>
        <translation>%1 GiB</translation>
    </message>
    <message>
        <source>Data-parallel: this many processes train the run, each on its share of the tasks; rank 0 writes the run (dist/ranks)</source>
        <translation>数据并行：训练该运行的进程数，每个进程负责分到的那部分任务；由 rank 0 写入运行（dist/ranks）</translation>
    </message>
    <message numerus="yes">
        <source>%n ranks</source>
        <translation>
            <numerusform>%n 个 rank</numerusform>
        </translation>
    </message>
    <message>
        <source>A run of several processes cannot pause; Stop ends it with a checkpoint</source>
        <translation>多进程运行无法暂停；“停止”会保存检查点并结束它</translation>
    </message>
    <message>
        <source>S&amp;top now</source>
        <translation>立即停止(&amp;T)</translation>
    </message>
    <message>
        <source>Terminating…</source>
        <translation>正在终止…</translation>
    </message>
    <message>
        <source>Terminate the processes now, without waiting for the current iteration (its work is lost)</source>
        <translation>立即终止进程，不等待当前迭代完成（其工作将丢失）</translation>
    </message>
    <message numerus="yes">
        <source>Starting creditlab-cli with %n processes…</source>
        <translation>
            <numerusform>正在以 %n 个进程启动 creditlab-cli…</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>creditlab::ui::PairDisagreementModel</name>
    <message>
        <source>%1 vs %2</source>
        <translation>%1 与 %2</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <source>n/a</source>
        <translation>不适用</translation>
    </message>
    <message>
        <source>%1 %</source>
        <translation>%1%</translation>
    </message>
    <message>
        <source>Turns whose credits have opposite signs, of the turns where both methods have a finite, non-zero credit (only these can disagree in sign)</source>
        <translation>信用符号相反的回合数，在两种方法的信用均有限且非零的回合中统计（只有这些回合可能符号相反）</translation>
    </message>
    <message>
        <source>Share of the compared turns (both non-zero and finite) whose signs disagree</source>
        <translation>比较的回合（均非零且有限）中符号相反的占比</translation>
    </message>
    <message>
        <source>Methods</source>
        <translation>方法</translation>
    </message>
    <message>
        <source>Signs disagree</source>
        <translation>符号相反</translation>
    </message>
    <message>
        <source>Share</source>
        <translation>占比</translation>
    </message>
</context>
<context>
    <name>creditlab::ui::ParamForm</name>
    <message>
        <source>Default: %1</source>
        <translation>默认：%1</translation>
    </message>
    <message>
        <source>(empty)</source>
        <translation>（空）</translation>
    </message>
    <message>
        <source>Reset %1 to its default (%2)</source>
        <translation>将 %1 重置为默认值（%2）</translation>
    </message>
    <message>
        <source>unknown key &apos;%1&apos;</source>
        <translation>未知键“%1”</translation>
    </message>
    <message>
        <source>%1: &apos;%2&apos; is not one of %3</source>
        <translation>%1：“%2”不是 %3 之一</translation>
    </message>
</context>
<context>
    <name>creditlab::ui::PlanPanel</name>
    <message>
        <source>Plan: looking for a pilot of %1 in this database…</source>
        <translation>计划：正在此数据库中查找 %1 的试点…</translation>
    </message>
    <message>
        <source>Plan: cannot read this database&apos;s pilot: %1</source>
        <translation>计划：无法读取此数据库的试点：%1</translation>
    </message>
    <message>
        <source>Plan: no pilot of this experiment in this database. Run it at smoke scale first (creditlab-cli experiment run FILE --scale smoke), or start it and plan again as its seeds finish (creditlab-cli experiment plan ID).</source>
        <translation>计划：此数据库中没有该实验的试点。请先以 smoke 规模运行（creditlab-cli experiment run FILE --scale smoke），或启动实验并在种子完成后重新规划（creditlab-cli experiment plan ID）。</translation>
    </message>
    <message>
        <source>Plan from experiment %1 (%2 scale%3), power %4:</source>
        <translation>根据实验 %1 的计划（%2 规模%3），检验功效 %4：</translation>
    </message>
    <message>
        <source>, seeds so far</source>
        <translation>，目前已有的种子</translation>
    </message>
    <message numerus="yes">
        <source>%n seed(s) now</source>
        <translation>
            <numerusform>目前 %n 个种子</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>; effect %1 needs %n seed(s)</source>
        <translation>
            <numerusform>；效应 %1 需要 %n 个种子</numerusform>
        </translation>
    </message>
    <message>
        <source> (%1 compute hours more)</source>
        <translation>（还需 %1 计算小时）</translation>
    </message>
    <message numerus="yes">
        <source>The plan: up to %n seed(s) per arm to decide its claims</source>
        <translation>
            <numerusform>计划：每个分支最多 %n 个种子即可判定其论断</numerusform>
        </translation>
    </message>
    <message>
        <source>, about %1 compute hours more.</source>
        <translation>，约还需 %1 计算小时。</translation>
    </message>
</context>
<context>
    <name>creditlab::ui::ProbeDialog</name>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>SFT policy</source>
        <translation>SFT 策略</translation>
    </message>
    <message>
        <source>&amp;Start</source>
        <translation>开始(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Cancel</source>
        <translation>取消(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Export CSV…</source>
        <translation>导出 CSV(&amp;E)…</translation>
    </message>
    <message>
        <source>PAIR probes</source>
        <translation>PAIR 探针</translation>
    </message>
    <message>
        <source>The training run whose policy the probes read</source>
        <translation>探针读取其策略的训练运行</translation>
    </message>
    <message>
        <source>Household episodes to contaminate (split 80:20 by episode into train and test)</source>
        <translation>要污染的 household 回合（按回合 80:20 划分为训练集和测试集）</translation>
    </message>
    <message>
        <source>Contamination seed: which turns are corrupted, and how</source>
        <translation>污染种子：哪些轮次被破坏以及如何破坏</translation>
    </message>
    <message>
        <source>Probe the run&apos;s SFT policy even when it has RL checkpoints</source>
        <translation>即使运行有 RL 检查点，也探测其 SFT 策略</translation>
    </message>
    <message>
        <source>Build the contaminated data, extract the features, fit and evaluate every probe (Enter)</source>
        <translation>构建污染数据、提取特征、拟合并评估每个探针（Enter）</translation>
    </message>
    <message>
        <source>Stop the computation (Esc)</source>
        <translation>停止计算（Esc）</translation>
    </message>
    <message>
        <source>AUROC per probe</source>
        <translation>各探针的 AUROC</translation>
    </message>
    <message>
        <source>Probe</source>
        <translation>探针</translation>
    </message>
    <message>
        <source>AUROC</source>
        <translation>AUROC</translation>
    </message>
    <message>
        <source>&amp;Run:</source>
        <translation>运行(&amp;R)：</translation>
    </message>
    <message>
        <source>E&amp;pisodes:</source>
        <translation>回合数(&amp;P)：</translation>
    </message>
    <message>
        <source>S&amp;eed:</source>
        <translation>种子(&amp;E)：</translation>
    </message>
    <message>
        <source>Could not read the runs: %1</source>
        <translation>无法读取运行：%1</translation>
    </message>
    <message>
        <source>A probe table is being computed; wait for it or cancel it.</source>
        <translation>正在计算探针表；请等待或取消。</translation>
    </message>
    <message>
        <source>Open a database first.</source>
        <translation>请先打开数据库。</translation>
    </message>
    <message>
        <source>The database has no training run: train one in the Launch page first.</source>
        <translation>数据库中没有训练运行：请先在“启动”页训练一个。</translation>
    </message>
    <message>
        <source>Loading the policy of run %1…</source>
        <translation>正在加载运行 %1 的策略…</translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation>正在取消…</translation>
    </message>
    <message>
        <source>Building contaminated episodes</source>
        <translation>正在构建污染回合</translation>
    </message>
    <message>
        <source>Extracting features</source>
        <translation>正在提取特征</translation>
    </message>
    <message>
        <source>Fitting probes</source>
        <translation>正在拟合探针</translation>
    </message>
    <message>
        <source>%1: %2 of %3 · %4 elapsed</source>
        <translation>%1：%2 / %3 · 已用 %4</translation>
    </message>
    <message>
        <source> · about %1 left</source>
        <translation> · 约剩 %1</translation>
    </message>
    <message>
        <source>Policy: %1 · %2 records: train %3; test %4 clean-prefix + %5 contaminated-prefix (%6 after a corrupted turn), %7 negatives · features %8, data %9</source>
        <translation>策略：%1 · %2 条记录：训练 %3；测试 %4 条干净前缀 + %5 条污染前缀（%6 条位于被破坏轮次之后），%7 条负例 · 特征 %8，数据 %9</translation>
    </message>
    <message numerus="yes">
        <source>Done: %n probe(s).</source>
        <translation>
            <numerusform>完成：%n 个探针。</numerusform>
        </translation>
    </message>
    <message>
        <source>Cancelled.</source>
        <translation>已取消。</translation>
    </message>
    <message>
        <source>Could not compute the probe table of run %1: %2</source>
        <translation>无法计算运行 %1 的探针表：%2</translation>
    </message>
    <message>
        <source>AUROC clean</source>
        <translation>AUROC（干净）</translation>
    </message>
    <message>
        <source>AUROC contaminated</source>
        <translation>AUROC（污染）</translation>
    </message>
    <message>
        <source>Export Probe Table</source>
        <translation>导出探针表</translation>
    </message>
    <message>
        <source>probe-table-run-%1.csv</source>
        <translation>probe-table-run-%1.csv</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
    <message>
        <source>Cannot export the table</source>
        <translation>无法导出表格</translation>
    </message>
</context>
<context>
    <name>creditlab::ui::ProbeTableModel</name>
    <message>
        <source>AUROC on the test turns whose earlier turns are all correct</source>
        <translation>前面轮次全部正确的测试轮次上的 AUROC</translation>
    </message>
    <message>
        <source>AUROC on every test turn of the contaminated episodes</source>
        <translation>污染回合中所有测试轮次上的 AUROC</translation>
    </message>
    <message>
        <source>AUROC on clean and contaminated test turns together</source>
        <translation>干净与污染测试轮次合计的 AUROC</translation>
    </message>
    <message>
        <source>Expected calibration error on all test turns (lower is better)</source>
        <translation>所有测试轮次上的期望校准误差（越低越好）</translation>
    </message>
    <message>
        <source>Brier score on all test turns (lower is better)</source>
        <translation>所有测试轮次上的 Brier 分数（越低越好）</translation>
    </message>
    <message>
        <source>Probe</source>
        <translation>探针</translation>
    </message>
    <message>
        <source>Dims</source>
        <translation>维度</translation>
    </message>
    <message>
        <source>AUROC clean</source>
        <translation>AUROC（干净）</translation>
    </message>
    <message>
        <source>AUROC contaminated</source>
        <translation>AUROC（污染）</translation>
    </message>
    <message>
        <source>AUROC union</source>
        <translation>AUROC（合计）</translation>
    </message>
    <message>
        <source>ECE</source>
        <translation>ECE</translation>
    </message>
    <message>
        <source>Brier</source>
        <translation>Brier</translation>
    </message>
</context>
<context>
    <name>creditlab::ui::ReportDialog</name>
    <message>
        <source>Experiment %1: report</source>
        <translation>实验 %1：报告</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
    <message>
        <source>Read the experiment again (F5)</source>
        <translation>重新读取实验（F5）</translation>
    </message>
    <message>
        <source>Write report.md with SVG and PNG figures into a folder (Ctrl+E)</source>
        <translation>将 report.md 及 SVG 和 PNG 图写入文件夹（Ctrl+E）</translation>
    </message>
    <message>
        <source>Cannot build the report: %1</source>
        <translation>无法生成报告：%1</translation>
    </message>
    <message numerus="yes">
        <source>%n claim(s): %1 supported, %2 contradicted, %3 inconclusive%4</source>
        <translation>
            <numerusform>%n 个论断：%1 个得到支持，%2 个被否定，%3 个无定论%4</numerusform>
        </translation>
    </message>
    <message>
        <source> — partial: not every trial has finished</source>
        <translation> — 部分：并非所有试验都已完成</translation>
    </message>
    <message>
        <source>Export the report into</source>
        <translation>将报告导出到</translation>
    </message>
    <message numerus="yes">
        <source>Wrote report.md and %n figure(s) as SVG and PNG into %1</source>
        <translation>
            <numerusform>已将 report.md 和 %n 张 SVG 与 PNG 图写入 %1</numerusform>
        </translation>
    </message>
    <message>
        <source>Export failed: %1</source>
        <translation>导出失败：%1</translation>
    </message>
</context>
<context>
    <name>creditlab::ui::RunActions</name>
    <message>
        <source>Rename run %1</source>
        <translation>重命名运行 %1</translation>
    </message>
    <message>
        <source>Edit tags of run %1</source>
        <translation>编辑运行 %1 的标签</translation>
    </message>
    <message>
        <source>&amp;Monitor</source>
        <translation>监控(&amp;M)</translation>
    </message>
    <message>
        <source>&amp;Compare Selected</source>
        <translation>比较所选(&amp;C)</translation>
    </message>
    <message>
        <source>Res&amp;ume from Checkpoint</source>
        <translation>从检查点恢复(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Rename…</source>
        <translation>重命名(&amp;R)…</translation>
    </message>
    <message>
        <source>Edit &amp;Tags…</source>
        <translation>编辑标签(&amp;T)…</translation>
    </message>
    <message>
        <source>&amp;Delete…</source>
        <translation>删除(&amp;D)…</translation>
    </message>
    <message>
        <source>Show the run&apos;s learning curves, live while it trains (Ctrl+M)</source>
        <translation>显示该运行的学习曲线，训练期间实时更新（Ctrl+M）</translation>
    </message>
    <message>
        <source>Overlay the selected runs&apos; curves (Ctrl+Shift+C)</source>
        <translation>叠加显示所选运行的曲线（Ctrl+Shift+C）</translation>
    </message>
    <message>
        <source>Continue a stopped run from its last checkpoint</source>
        <translation>从最后一个检查点继续已停止的运行</translation>
    </message>
    <message>
        <source>Run %1 is training; stop it before deleting it.</source>
        <translation>运行 %1 正在训练；请先停止再删除。</translation>
    </message>
    <message>
        <source>Rename Run</source>
        <translation>重命名运行</translation>
    </message>
    <message>
        <source>New name of run %1:</source>
        <translation>运行 %1 的新名称：</translation>
    </message>
    <message>
        <source>Edit Tags</source>
        <translation>编辑标签</translation>
    </message>
    <message>
        <source>Tags of run %1, separated by commas:</source>
        <translation>运行 %1 的标签，以逗号分隔：</translation>
    </message>
    <message>
        <source>Delete Runs</source>
        <translation>删除运行</translation>
    </message>
    <message numerus="yes">
        <source>Delete %n run(s) (%1) with their metrics, trajectories, credits, labels and checkpoints? This cannot be undone.</source>
        <translation>
            <numerusform>删除 %n 个运行（%1）及其指标、轨迹、信用、标签和检查点？此操作无法撤销。</numerusform>
        </translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
</context>
<context>
    <name>creditlab::ui::RunBrowserPage</name>
    <message>
        <source>Runs</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Trajectories</source>
        <translation>轨迹</translation>
    </message>
    <message>
        <source>Filter trajectories by id, group or task…</source>
        <translation>按 ID、分组或任务筛选轨迹…</translation>
    </message>
    <message>
        <source>Runs (%1)</source>
        <translation>运行（%1）</translation>
    </message>
    <message>
        <source>Trajectories (%1)</source>
        <translation>轨迹（%1）</translation>
    </message>
    <message>
        <source>Trajectories (%1 of %2)</source>
        <translation>轨迹（%1 / %2）</translation>
    </message>
    <message>
        <source>Filter runs by name, config, status or tag…</source>
        <translation>按名称、配置、状态或标签筛选运行…</translation>
    </message>
    <message>
        <source>No runs yet: start one in Launch (Ctrl+2), or import trajectories with File → Import JSONL… (Ctrl+I).</source>
        <translation>尚无运行：请在“启动”页启动一个（Ctrl+2），或通过 文件 → 导入 JSONL…（Ctrl+I）导入轨迹。</translation>
    </message>
    <message>
        <source>Try a quick TRIAGE run (about 5 minutes on 2 cores), or open 24 bundled household rollouts with a judge&apos;s roles to look around Credit, Trees, Annotate and Agreement now.</source>
        <translation>试试一个快速 TRIAGE 运行（2 个核心约 5 分钟），或打开 24 个附带的 household rollout（带评判器给出的角色），马上浏览“信用”“树”“标注”和“一致性”页。</translation>
    </message>
    <message>
        <source>Start a &amp;quick demo run</source>
        <translation>启动快速演示运行(&amp;Q)</translation>
    </message>
    <message>
        <source>Launch the household-quick preset (TRIAGE) and follow it on Monitor</source>
        <translation>启动 household-quick 预设（TRIAGE）并在“监控”页跟踪</translation>
    </message>
    <message>
        <source>Open the &amp;sample rollouts</source>
        <translation>打开示例 rollout(&amp;S)</translation>
    </message>
    <message>
        <source>Import 24 household rollouts (3 tasks × 8) with a noisy judge&apos;s roles, and compute their credits</source>
        <translation>导入 24 个 household rollout（3 个任务 × 8），带噪声评判器给出的角色，并计算其信用</translation>
    </message>
    <message>
        <source>Queued, starting when run %1 ends: %2 · &lt;a href=&quot;clear&quot;&gt;Clear queue&lt;/a&gt;</source>
        <translation>已排队，将在运行 %1 结束后开始：%2 · &lt;a href=&quot;clear&quot;&gt;清空队列&lt;/a&gt;</translation>
    </message>
</context>
<context>
    <name>creditlab::ui::RunCombo</name>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
</context>
<context>
    <name>creditlab::ui::RunController</name>
    <message>
        <source>Open a database first.</source>
        <translation>请先打开数据库。</translation>
    </message>
    <message>
        <source>There is no valid config to start a run from.</source>
        <translation>没有可用于启动运行的有效配置。</translation>
    </message>
    <message>
        <source>resume run %1</source>
        <translation>恢复运行 %1</translation>
    </message>
    <message>
        <source>A run resumes in this process; start a new run to train it with several processes.</source>
        <translation>运行会在本进程中恢复；要用多个进程训练，请开始一个新运行。</translation>
    </message>
    <message>
        <source>Cannot run %1 processes: creditlab-cli is neither beside the workbench nor on PATH (or set CREDITLAB_CLI).</source>
        <translation>无法运行 %1 个进程：creditlab-cli 既不在工作台程序旁边，也不在 PATH 中（也可设置 CREDITLAB_CLI）。</translation>
    </message>
</context>
<context>
    <name>creditlab::ui::RunModel</name>
    <message>
        <source>Id</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Trajectories</source>
        <translation>轨迹</translation>
    </message>
    <message>
        <source>Turns</source>
        <translation>回合</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>创建时间</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>来源</translation>
    </message>
    <message>
        <source>import</source>
        <translation>导入</translation>
    </message>
    <message>
        <source>train</source>
        <translation>训练</translation>
    </message>
    <message>
        <source>trial</source>
        <translation>试验</translation>
    </message>
    <message>
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>paused</source>
        <translation>已暂停</translation>
    </message>
    <message>
        <source>finished</source>
        <translation>已完成</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>Compute time: SFT plus the iterations, without pauses (%1 s)</source>
        <translation>计算时间：SFT 加各次迭代，不含暂停（%1 秒）</translation>
    </message>
    <message>
        <source>Config</source>
        <translation>配置</translation>
    </message>
    <message>
        <source>Best eval</source>
        <translation>最佳评估</translation>
    </message>
    <message>
        <source>Last eval</source>
        <translation>最近评估</translation>
    </message>
    <message>
        <source>Iterations</source>
        <translation>迭代数</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>时长</translation>
    </message>
    <message>
        <source>Tags</source>
        <translation>标签</translation>
    </message>
    <message>
        <source>pending</source>
        <translation>等待中</translation>
    </message>
    <message>
        <source>Hugging Face model: %1</source>
        <translation>Hugging Face 模型：%1</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>built-in %1×%2</source>
        <translation>内置 %1×%2</translation>
    </message>
    <message>
        <source>Imported from the %1 format</source>
        <translation>从 %1 格式导入</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
</context>
<context>
    <name>creditlab::ui::SweepController</name>
    <message>
        <source>A sweep is already running.</source>
        <translation>已有参数扫描正在运行。</translation>
    </message>
    <message>
        <source>No database is open.</source>
        <translation>未打开数据库。</translation>
    </message>
</context>
<context>
    <name>creditlab::ui::SweepPage</name>
    <message>
        <source>Presets…</source>
        <translation>预设…</translation>
    </message>
    <message>
        <source>Open…</source>
        <translation>打开…</translation>
    </message>
    <message>
        <source>Save…</source>
        <translation>保存…</translation>
    </message>
    <message>
        <source>as in file</source>
        <translation>同文件设置</translation>
    </message>
    <message numerus="yes">
        <source>Parallel trials; this machine has %n core(s). Workers × threads must fit.</source>
        <translation>
            <numerusform>并行试验数；本机有 %n 个核心。工作进程数 × 线程数不应超过核心数。</numerusform>
        </translation>
    </message>
    <message>
        <source>Start</source>
        <translation>开始</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Workers:</source>
        <translation>工作进程：</translation>
    </message>
    <message numerus="yes">
        <source>of %n core(s)</source>
        <translation>
            <numerusform>共 %n 个核心</numerusform>
        </translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>恢复</translation>
    </message>
    <message>
        <source>Sweeps in this database:</source>
        <translation>此数据库中的参数扫描：</translation>
    </message>
    <message>
        <source>best</source>
        <translation>最佳值</translation>
    </message>
    <message>
        <source>last</source>
        <translation>最终值</translation>
    </message>
    <message>
        <source>Export chart…</source>
        <translation>导出图表…</translation>
    </message>
    <message>
        <source>Export CSV…</source>
        <translation>导出 CSV…</translation>
    </message>
    <message>
        <source>Objective:</source>
        <translation>目标：</translation>
    </message>
    <message>
        <source>x:</source>
        <translation>x：</translation>
    </message>
    <message>
        <source>y:</source>
        <translation>y：</translation>
    </message>
    <message>
        <source>Results appear here when trials finish.</source>
        <translation>试验完成后，结果将显示在这里。</translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <source>Open a database first.</source>
        <translation>请先打开数据库。</translation>
    </message>
    <message>
        <source>Start sweep</source>
        <translation>开始参数扫描</translation>
    </message>
    <message>
        <source>Running…</source>
        <translation>运行中…</translation>
    </message>
    <message>
        <source>Stopping after the running trials&apos; current iteration…</source>
        <translation>将在运行中试验的当前迭代结束后停止…</translation>
    </message>
    <message>
        <source> · ETA %1</source>
        <translation> · ETA %1</translation>
    </message>
    <message>
        <source>Sweep %1: %2.</source>
        <translation>参数扫描 %1：%2。</translation>
    </message>
    <message>
        <source>#%1 %2 — %3</source>
        <translation>#%1 %2 — %3</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>（无）</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>%1 vs %2 (mean ± std over seeds)</source>
        <translation>%1 随 %2 的变化（种子间均值 ± 标准差）</translation>
    </message>
    <message>
        <source>%1, mean over seeds</source>
        <translation>%1，种子间均值</translation>
    </message>
    <message>
        <source>Open sweep</source>
        <translation>打开参数扫描</translation>
    </message>
    <message>
        <source>Sweep files (*.yaml *.yml);;All files (*)</source>
        <translation>参数扫描文件 (*.yaml *.yml);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Save sweep</source>
        <translation>保存参数扫描</translation>
    </message>
    <message>
        <source>Sweep files (*.yaml *.yml)</source>
        <translation>参数扫描文件 (*.yaml *.yml)</translation>
    </message>
    <message>
        <source>Export chart</source>
        <translation>导出图表</translation>
    </message>
    <message>
        <source>PNG image (*.png);;SVG image (*.svg)</source>
        <translation>PNG 图像 (*.png);;SVG 图像 (*.svg)</translation>
    </message>
    <message>
        <source>Export trials</source>
        <translation>导出试验</translation>
    </message>
    <message>
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message>
        <source>Report…</source>
        <translation>报告…</translation>
    </message>
    <message>
        <source>The experiment&apos;s report: claims with their intervals and verdicts, curves with seed bands, export as report.md with SVG and PNG figures (Ctrl+R)</source>
        <translation>实验报告：论断及其区间和结论、带种子区间带的曲线，可导出为含 SVG 和 PNG 图的 report.md（Ctrl+R）</translation>
    </message>
    <message>
        <source> · probe tables %1 of %2%3</source>
        <translation> · 探针表 %1/%2%3</translation>
    </message>
    <message numerus="yes">
        <source>Start this sweep of %n trial(s)? Each trial becomes a training run in %1.</source>
        <translation>
            <numerusform>开始这个包含 %n 个试验的参数扫描？每个试验都会成为 %1 中的一个训练运行。</numerusform>
        </translation>
    </message>
    <message>
        <source>, … (%1 values)</source>
        <translation>, …（共 %1 个值）</translation>
    </message>
    <message>
        <source>1 trial</source>
        <translation>1 个试验</translation>
    </message>
    <message>
        <source>%1 trials</source>
        <translation>%1 个试验</translation>
    </message>
    <message>
        <source> · %1 at a time</source>
        <translation> · 同时运行 %1 个</translation>
    </message>
    <message>
        <source>Write a sweep or pick a preset above.</source>
        <translation>请编写参数扫描，或在上方选择预设。</translation>
    </message>
    <message>
        <source>Not a valid sweep yet: %1</source>
        <translation>尚不是有效的参数扫描：%1</translation>
    </message>
    <message>
        <source> · took %1</source>
        <translation> · 用时 %1</translation>
    </message>
    <message>
        <source> · %1 elapsed%2</source>
        <translation> · 已用 %1%2</translation>
    </message>
    <message>
        <source>%1 of %2 trials%3</source>
        <translation>%1 / %2 个试验%3</translation>
    </message>
    <message>
        <source>Start experiment</source>
        <translation>开始实验</translation>
    </message>
    <message numerus="yes">
        <source>Start this experiment: a shared SFT run, then %n trial(s) warm-started from it? Each becomes a training run in %1.</source>
        <translation>
            <numerusform>开始此实验：先训练一个共享 SFT 运行，再从它热启动 %n 个试验？每个都成为 %1 中的一个训练运行。</numerusform>
        </translation>
    </message>
    <message>
        <source>Shared SFT %1% · %2 elapsed%3 · then %4 trials</source>
        <translation>共享 SFT %1% · 已用 %2%3 · 之后 %4 个试验</translation>
    </message>
    <message>
        <source>Experiment %1 stopped during its shared SFT, before any trial; Resume continues it.</source>
        <translation>实验 %1 在共享 SFT 期间停止，尚未开始任何试验；点击“恢复”继续。</translation>
    </message>
    <message>
        <source>Start the sweep or experiment in the editor (Ctrl+Return)</source>
        <translation>开始编辑器中的参数扫描或实验（Ctrl+Return）</translation>
    </message>
    <message>
        <source>Stop after the running trials&apos; current iteration; Resume continues (Ctrl+.)</source>
        <translation>在运行中试验的当前迭代结束后停止；“恢复”可继续（Ctrl+.）</translation>
    </message>
    <message>
        <source>Open a sweep or experiment file (Ctrl+Shift+O)</source>
        <translation>打开参数扫描或实验文件（Ctrl+Shift+O）</translation>
    </message>
    <message>
        <source>Running in %1, the database open when it started; the list below is this database&apos;s. Stop (Ctrl+.) stops it there.</source>
        <translation>正在 %1（启动时打开的数据库）中运行；下方列表属于当前数据库。“停止”（Ctrl+.）会在那里停止它。</translation>
    </message>
    <message>
        <source>It ran in %1, not in the database open now.</source>
        <translation>它在 %1 中运行，而不是当前打开的数据库。</translation>
    </message>
    <message>
        <source>experiment: %1</source>
        <translation>实验：%1</translation>
    </message>
    <message numerus="yes">
        <source>Start this experiment: an SFT run for each of %1 seeds, then %n trial(s), each warm-started from its seed&apos;s? Each becomes a training run in %2.</source>
        <translation>
            <numerusform>开始此实验：为 %1 个种子各训练一个 SFT 运行，然后 %n 个试验，各自从其种子的 SFT 热启动？每个都成为 %2 中的一个训练运行。</numerusform>
        </translation>
    </message>
    <message>
        <source>SFT starts %1%, seed %2&apos;s training · %3 elapsed%4 · then %5 trials</source>
        <translation>SFT 起点 %1%，正在训练种子 %2 · 已用 %3%4 · 之后 %5 个试验</translation>
    </message>
</context>
<context>
    <name>creditlab::ui::TokenModel</name>
    <message>
        <source>Token %1 of segment %2, id %3: &quot;%4&quot;</source>
        <translation>片段 %2 的词元 %1，ID %3：“%4”</translation>
    </message>
    <message>
        <source>Context (goal, observation, template): read, not trained.</source>
        <translation>上下文（目标、观察、模板）：只读取，不训练。</translation>
    </message>
    <message>
        <source>Action of turn %1, left out of the update (a filtered group or a failed rollout).</source>
        <translation>回合 %1 的动作，未参与更新（分组被过滤或 rollout 失败）。</translation>
    </message>
    <message>
        <source>Action of turn %1, in the loss.</source>
        <translation>回合 %1 的动作，计入损失。</translation>
    </message>
    <message>
        <source>Pos</source>
        <translation>位置</translation>
    </message>
    <message>
        <source>Turn</source>
        <translation>回合</translation>
    </message>
    <message>
        <source>Id</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>Token</source>
        <translation>词元</translation>
    </message>
    <message>
        <source>Loss</source>
        <translation>损失</translation>
    </message>
    <message>
        <source>Behaviour log p</source>
        <translation>行为 log p</translation>
    </message>
    <message>
        <source>Current log p</source>
        <translation>当前 log p</translation>
    </message>
    <message>
        <source>Δ log p</source>
        <translation>Δ log p</translation>
    </message>
    <message>
        <source>Advantage</source>
        <translation>优势</translation>
    </message>
    <message>
        <source>The token&apos;s position in its sequence (segment:position when the stream restarted at the context)</source>
        <translation>词元在其序列中的位置（词元流在上下文处重新开始时为 片段:位置）</translation>
    </message>
    <message>
        <source>The loss mask: a check where the policy loss is taken</source>
        <translation>损失掩码：勾选处计算策略损失</translation>
    </message>
    <message>
        <source>The log-probability when the rollout sampled the token (KV-cached generation, at the sampling temperature)</source>
        <translation>rollout 采样该词元时的对数概率（使用 KV 缓存生成，采样温度下）</translation>
    </message>
    <message>
        <source>The trainer&apos;s log-probability of the token before the update&apos;s first step (a full forward pass over the training sequence): the PPO ratio&apos;s denominator</source>
        <translation>更新第一步之前训练器给出的该词元对数概率（对训练序列做一次完整的前向传播）：PPO 比率的分母</translation>
    </message>
    <message>
        <source>Current minus behaviour log-probability. Non-zero beyond float error means the trainer does not see what the sampler saw (token drift: a re-tokenised action, a changed template, a different vocabulary or precision)</source>
        <translation>当前对数概率减去行为对数概率。超出浮点误差的非零值表示训练器看到的与采样器看到的不一致（词元漂移：动作被重新分词、模板被更改、词表或精度不同）</translation>
    </message>
    <message>
        <source>The token&apos;s advantage in the policy loss</source>
        <translation>该词元在策略损失中的优势</translation>
    </message>
</context>
<context>
    <name>creditlab::ui::TokenView</name>
    <message>
        <source>Trained tokens only</source>
        <translation>仅显示训练的词元</translation>
    </message>
    <message>
        <source>Largest drift</source>
        <translation>最大漂移</translation>
    </message>
    <message>
        <source>Hide the context tokens (goal, observations, template) and show the loss tokens</source>
        <translation>隐藏上下文词元（目标、观察、模板），显示计入损失的词元</translation>
    </message>
    <message>
        <source>Select the trained token whose current log-prob is furthest from its behaviour log-prob (Ctrl+D)</source>
        <translation>选中当前对数概率与行为对数概率相差最大的训练词元（Ctrl+D）</translation>
    </message>
    <message>
        <source>No tokens stored for this trajectory. A training run stores the sequences of the first rl.store_tokens rollouts of each iteration (8 by default; -1 stores every one); imported trajectories, evaluation episodes and runs from before this version have none.</source>
        <translation>此轨迹没有存储词元。训练运行会存储每次迭代前 rl.store_tokens 个 rollout 的序列（默认 8 个；-1 表示全部存储）；导入的轨迹、评估 episode 以及此版本之前的运行都没有词元。</translation>
    </message>
    <message numerus="yes">
        <source>%n token(s)</source>
        <translation>
            <numerusform>%n 个词元</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> in %n segment(s) (the stream restarted at the context)</source>
        <translation>
            <numerusform> 分布在 %n 个片段中（词元流在上下文处重新开始）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> · %n in the loss</source>
        <translation>
            <numerusform> · %n 个计入损失</numerusform>
        </translation>
    </message>
    <message>
        <source> · behaviour vs current log-prob: mean |Δ| %1, largest %2</source>
        <translation> · 行为与当前对数概率：平均 |Δ| %1，最大 %2</translation>
    </message>
    <message numerus="yes">
        <source> · %n token(s) past %1 nats (marked red): the trainer does not see what the sampler saw</source>
        <translation>
            <numerusform> · %n 个词元超过 %1 nats（标为红色）：训练器看到的与采样器看到的不一致</numerusform>
        </translation>
    </message>
    <message>
        <source> · no drift past %1 nats</source>
        <translation> · 没有超过 %1 nats 的漂移</translation>
    </message>
    <message>
        <source> · not trained (its group was filtered out, or the rollout failed)</source>
        <translation> · 未训练（其分组被过滤掉，或 rollout 失败）</translation>
    </message>
</context>
<context>
    <name>creditlab::ui::TrajectoryModel</name>
    <message>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <source>Id</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>Group</source>
        <translation>分组</translation>
    </message>
    <message>
        <source>Task</source>
        <translation>任务</translation>
    </message>
    <message>
        <source>Iteration</source>
        <translation>迭代</translation>
    </message>
    <message>
        <source>Reward</source>
        <translation>奖励</translation>
    </message>
    <message>
        <source>Success</source>
        <translation>成功</translation>
    </message>
    <message>
        <source>Turns</source>
        <translation>回合</translation>
    </message>
</context>
<context>
    <name>creditlab::ui::TrajectoryViewerPage</name>
    <message>
        <source>Select a turn to read it in full.</source>
        <translation>选择一个回合以查看其完整内容。</translation>
    </message>
    <message>
        <source>reward %1</source>
        <translation>奖励 %1</translation>
    </message>
    <message>
        <source>success</source>
        <translation>成功</translation>
    </message>
    <message>
        <source>failure</source>
        <translation>失败</translation>
    </message>
    <message numerus="yes">
        <source>%n turns</source>
        <translation>
            <numerusform>%n 个回合</numerusform>
        </translation>
    </message>
    <message>
        <source>Goal: %1</source>
        <translation>目标：%1</translation>
    </message>
    <message>
        <source>No trajectory selected.</source>
        <translation>未选择轨迹。</translation>
    </message>
    <message>
        <source>Turn %1 of %2</source>
        <translation>第 %1 个回合，共 %2 个</translation>
    </message>
    <message>
        <source>Reward</source>
        <translation>奖励</translation>
    </message>
    <message>
        <source>Valid</source>
        <translation>有效</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <source>Role</source>
        <translation>角色</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Role source</source>
        <translation>角色来源</translation>
    </message>
    <message>
        <source>Progress</source>
        <translation>进度</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>Score</source>
        <translation>评分</translation>
    </message>
    <message>
        <source>Observation</source>
        <translation>观察</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>动作</translation>
    </message>
    <message>
        <source>Feedback</source>
        <translation>反馈</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>（无）</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>(the observation)</source>
        <translation>（即观察）</translation>
    </message>
    <message>
        <source>Credit (%1)</source>
        <translation>信用 (%1)</translation>
    </message>
    <message>
        <source>Turn</source>
        <translation>回合</translation>
    </message>
    <message>
        <source>Tokens</source>
        <translation>词元</translation>
    </message>
    <message>
        <source>The exact training sequence: each token&apos;s loss mask, behaviour and current log-prob, and advantage</source>
        <translation>精确的训练序列：每个词元的损失掩码、行为与当前对数概率，以及优势</translation>
    </message>
    <message>
        <source>unknown (the source does not say)</source>
        <translation>未知（来源未说明）</translation>
    </message>
</context>
<context>
    <name>creditlab::ui::TreePage</name>
    <message>
        <source>Open turn</source>
        <translation>打开回合</translation>
    </message>
    <message>
        <source>Value V</source>
        <translation>价值 V</translation>
    </message>
    <message>
        <source>Success rate below</source>
        <translation>下方成功率</translation>
    </message>
    <message>
        <source>Mean advantage</source>
        <translation>平均优势</translation>
    </message>
    <message>
        <source>Search states and actions</source>
        <translation>搜索状态和动作</translation>
    </message>
    <message>
        <source>Click a node or an edge</source>
        <translation>点击一个节点或一条边</translation>
    </message>
    <message>
        <source>Run:</source>
        <translation>运行：</translation>
    </message>
    <message>
        <source>Group:</source>
        <translation>分组：</translation>
    </message>
    <message>
        <source>Colour:</source>
        <translation>颜色：</translation>
    </message>
    <message>
        <source>Follow:</source>
        <translation>跟随：</translation>
    </message>
    <message numerus="yes">
        <source>%n match(es)</source>
        <translation>
            <numerusform>%n 个匹配</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 (%n rollout(s))</source>
        <translation>
            <numerusform>%1（%n 次 rollout）</numerusform>
        </translation>
    </message>
    <message>
        <source>Loading group %1…</source>
        <translation>正在加载分组 %1…</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>%1 (reward %2)</source>
        <translation>%1（奖励 %2）</translation>
    </message>
    <message>
        <source>%1: non-zero advantage on %2% of turns</source>
        <translation>%1：%2% 的回合优势非零</translation>
    </message>
    <message numerus="yes">
        <source>credit %1: mean %2 over %n turn(s)</source>
        <translation>
            <numerusform>信用 %1：%n 个回合的均值 %2</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Terminal: %n rollout(s) ended here, mean outcome %1
</source>
        <translation>
            <numerusform>终止状态：%n 次 rollout 在此结束，平均结果 %1
</numerusform>
        </translation>
    </message>
    <message>
        <source>, anchor</source>
        <translation>，锚点</translation>
    </message>
    <message numerus="yes">
        <source>Action:
%1

Q %2, N(s,a) %3, taken %n time(s)%4
</source>
        <translation>
            <numerusform>动作：
%1

Q %2，N(s,a) %3，被选择 %n 次%4
</numerusform>
        </translation>
    </message>
    <message>
        <source>, re-convergence</source>
        <translation>，重新汇合</translation>
    </message>
    <message>
        <source>
Feedback:
%1
</source>
        <translation>
反馈：
%1
</translation>
    </message>
    <message>
        <source>Iteration:</source>
        <translation>迭代：</translation>
    </message>
    <message>
        <source>This database has no runs: import trajectories or start a run.</source>
        <translation>此数据库没有运行：请导入轨迹或开始一个运行。</translation>
    </message>
    <message>
        <source>none (imported)</source>
        <translation>无（导入）</translation>
    </message>
    <message numerus="yes">
        <source>%1, task %2 (%n rollout(s))</source>
        <translation>
            <numerusform>%1，任务 %2（%n 次 rollout）</numerusform>
        </translation>
    </message>
    <message>
        <source>Run %1 has no trajectories yet, so it has no groups to draw as trees. Import trajectories into it or train it first.</source>
        <translation>运行 %1 尚无轨迹，因此没有可绘制为树的分组。请先向其导入轨迹或训练它。</translation>
    </message>
    <message numerus="yes">
        <source>Group %1: %n rollout(s)</source>
        <translation>
            <numerusform>分组 %1：%n 次 rollout</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 nodes: %2 states + %3 terminals
of the states: %4 anchors (recur in the group), %5 singletons (one rollout)
%6 edges (%7 re-convergence, %8 loops to the same state), %9 turns
branching factor %10; states shared by more than one rollout: %11%</source>
        <translation>%1 个节点：%2 个状态 + %3 个终止节点
状态中：%4 个锚点（在分组中重复出现），%5 个单例（仅一次 rollout）
%6 条边（%7 条重新汇合，%8 条回到同一状态的环），%9 个回合
分支因子 %10；被多于一次 rollout 共享的状态：%11%</translation>
    </message>
    <message numerus="yes">
        <source> and %n more</source>
        <translation>
            <numerusform> 及另外 %n 个</numerusform>
        </translation>
    </message>
    <message>
        <source>Open turn %1</source>
        <translation>打开回合 %1</translation>
    </message>
    <message>
        <source>Opens %1 in the trajectory viewer</source>
        <translation>在轨迹查看器中打开 %1</translation>
    </message>
    <message>
        <source>after %1
</source>
        <translation>在 %1 之后
</translation>
    </message>
    <message numerus="yes">
        <source>State %1

Observation:
%2

visits N(s) %3, V %4, V&apos; %5, success rate %6%, %n rollout(s) through it%7
</source>
        <translation>
            <numerusform>状态 %1

观察：
%2

访问 N(s) %3，V %4，V&apos; %5，成功率 %6%，经过的 rollout %n 次%7
</numerusform>
        </translation>
    </message>
    <message>
        <source>turns here: %1
</source>
        <translation>此处的回合：%1
</translation>
    </message>
    <message>
        <source>taken at %1
</source>
        <translation>选择于 %1
</translation>
    </message>
    <message>
        <source>
Observation (%1):
%2
</source>
        <translation>
观察（%1）：
%2
</translation>
    </message>
</context>
<context>
    <name>creditlab::ui::TrialModel</name>
    <message>
        <source>done</source>
        <translation>已完成</translation>
    </message>
    <message>
        <source>%1/%2</source>
        <translation>%1/%2</translation>
    </message>
    <message>
        <source>SFT</source>
        <translation>SFT</translation>
    </message>
    <message>
        <source>setting up</source>
        <translation>准备中</translation>
    </message>
    <message>
        <source>Trial</source>
        <translation>试验</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Progress</source>
        <translation>进度</translation>
    </message>
    <message>
        <source>Objective</source>
        <translation>目标</translation>
    </message>
    <message>
        <source>waiting for a server</source>
        <translation>正在等待服务器</translation>
    </message>
</context>
<context>
    <name>creditlab::ui::TurnModel</name>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <source>Turn</source>
        <translation>回合</translation>
    </message>
    <message>
        <source>Observation</source>
        <translation>观察</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>动作</translation>
    </message>
    <message>
        <source>Feedback</source>
        <translation>反馈</translation>
    </message>
    <message>
        <source>Reward</source>
        <translation>奖励</translation>
    </message>
    <message>
        <source>Valid</source>
        <translation>有效</translation>
    </message>
    <message>
        <source>Role</source>
        <translation>角色</translation>
    </message>
    <message>
        <source>D: decisive progress</source>
        <translation>D：决定性进展</translation>
    </message>
    <message>
        <source>E: useful exploration</source>
        <translation>E：有用的探索</translation>
    </message>
    <message>
        <source>N: no-progress infrastructure</source>
        <translation>N：无进展的基础操作</translation>
    </message>
    <message>
        <source>R: regression</source>
        <translation>R：倒退</translation>
    </message>
</context>
<context>
    <name>creditlab::ui::charts::ErrorBarChart</name>
    <message>
        <source>%1 at %2: %3 ± %4 (n = %5)</source>
        <translation>%1（%2 处）：%3 ± %4（n = %5）</translation>
    </message>
</context>
<context>
    <name>creditlab::ui::charts::HeatmapChart</name>
    <message>
        <source>no data</source>
        <translation>无数据</translation>
    </message>
    <message>
        <source>No data</source>
        <translation>无数据</translation>
    </message>
    <message>
        <source>Row</source>
        <translation>行</translation>
    </message>
    <message>
        <source>Column</source>
        <translation>列</translation>
    </message>
    <message>
        <source>%1: %2
%3: %4
Value: %5</source>
        <translation>%1：%2
%3：%4
值：%5</translation>
    </message>
</context>
<context>
    <name>creditlab::ui::charts::LineChart</name>
    <message>
        <source>Iteration</source>
        <translation>迭代</translation>
    </message>
    <message>
        <source>Wall time (s)</source>
        <translation>实际时间（秒）</translation>
    </message>
    <message>
        <source>No data</source>
        <translation>无数据</translation>
    </message>
    <message>
        <source>x = %1</source>
        <translation>x = %1</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>%1: %2 (raw %3)</source>
        <translation>%1：%2（原始 %3）</translation>
    </message>
    <message>
        <source>Reset zoom</source>
        <translation>重置缩放</translation>
    </message>
    <message>
        <source>Export image…</source>
        <translation>导出图像…</translation>
    </message>
    <message>
        <source>PNG image (*.png)</source>
        <translation>PNG 图像 (*.png)</translation>
    </message>
    <message>
        <source>SVG image (*.svg)</source>
        <translation>SVG 图像 (*.svg)</translation>
    </message>
    <message>
        <source>Export chart</source>
        <translation>导出图表</translation>
    </message>
    <message>
        <source>No value above 0 to show on a log scale</source>
        <translation>没有大于 0 的值可在对数刻度上显示</translation>
    </message>
    <message>
        <source>Log scale</source>
        <translation>对数刻度</translation>
    </message>
    <message>
        <source>Logarithmic y axis; values at or below 0 are left out</source>
        <translation>对数 y 轴；小于或等于 0 的值不显示</translation>
    </message>
</context>
<context>
    <name>creditlab::ui::heatmap::CreditHeatmapView</name>
    <message>
        <source>Trajectory %1, turn %2</source>
        <translation>轨迹 %1，回合 %2</translation>
    </message>
    <message>
        <source>Outcome: success</source>
        <translation>结果：成功</translation>
    </message>
    <message>
        <source>Outcome: failure</source>
        <translation>结果：失败</translation>
    </message>
    <message>
        <source>Role: %1</source>
        <translation>角色：%1</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>Action: %1</source>
        <translation>动作：%1</translation>
    </message>
    <message>
        <source>No credits to show</source>
        <translation>没有可显示的信用</translation>
    </message>
    <message>
        <source>advantage</source>
        <translation>优势</translation>
    </message>
    <message>
        <source>Colours span ±%1 (red negative, blue positive).</source>
        <translation>颜色范围 ±%1（红色为负，蓝色为正）。</translation>
    </message>
    <message>
        <source>Clipped at the %1th percentile of |advantage| over the shown methods&apos; non-zero turns, so that a few outliers do not wash out the rest; the largest |advantage| is %2.</source>
        <translation>在所示方法非零回合的 |优势| 的第 %1 百分位处截断，以免少数离群值使其余部分褪色；最大的 |优势| 为 %2。</translation>
    </message>
    <message>
        <source>clipped</source>
        <translation>已截断</translation>
    </message>
</context>
<context>
    <name>creditlab::ui::heatmap::HeatmapLegend</name>
    <message>
        <source>The strip at each row&apos;s start is the trajectory&apos;s outcome. Cells where the first two shown methods give opposite signs are outlined and struck through.</source>
        <translation>每行开头的色条表示该轨迹的结果。前两种所示方法符号相反的单元格会加框并划线。</translation>
    </message>
    <message>
        <source>success</source>
        <translation>成功</translation>
    </message>
    <message>
        <source>failure</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>signs disagree (%1 vs %2)</source>
        <translation>符号相反（%1 与 %2）</translation>
    </message>
    <message>
        <source>no credit</source>
        <translation>无信用</translation>
    </message>
</context>
<context>
    <name>creditlab::ui::treeview::RolloutTreeView</name>
    <message>
        <source>No rollout tree to show</source>
        <translation>没有可显示的 rollout 树</translation>
    </message>
    <message numerus="yes">
        <source>End of %n rollout(s), mean outcome %1</source>
        <translation>
            <numerusform>%n 次 rollout 的终点，平均结果 %1</numerusform>
        </translation>
    </message>
    <message>
        <source>State %1
visits %2, V %3, V&apos; %4, success %5%
rollouts through it: %6</source>
        <translation>状态 %1
访问 %2，V %3，V&apos; %4，成功 %5%
经过的 rollout：%6</translation>
    </message>
    <message>
        <source>anchor state (repeats in the group)</source>
        <translation>锚点状态（在分组中重复出现）</translation>
    </message>
    <message>
        <source>mean advantage (%1): %2</source>
        <translation>平均优势（%1）：%2</translation>
    </message>
    <message numerus="yes">
        <source>%n node(s) collapsed below</source>
        <translation>
            <numerusform>下方折叠了 %n 个节点</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Action %1
Q %2, N(s,a) %3, taken %n time(s)%4</source>
        <translation>
            <numerusform>动作 %1
Q %2，N(s,a) %3，被选择 %n 次%4</numerusform>
        </translation>
    </message>
    <message>
        <source> (re-convergence)</source>
        <translation>（重新汇合）</translation>
    </message>
    <message>
        <source>Value V (RTMC)</source>
        <translation>价值 V（RTMC）</translation>
    </message>
    <message>
        <source>Success rate below</source>
        <translation>下方成功率</translation>
    </message>
    <message>
        <source>Mean advantage</source>
        <translation>平均优势</translation>
    </message>
    <message>
        <source>Mean advantage (%1)</source>
        <translation>平均优势（%1）</translation>
    </message>
    <message>
        <source>turn %1 of %2</source>
        <translation>%2 的回合 %1</translation>
    </message>
    <message>
        <source>after %1</source>
        <translation>在 %1 之后</translation>
    </message>
    <message>
        <source>first reached at %1</source>
        <translation>首次到达于 %1</translation>
    </message>
    <message>
        <source>first taken at %1</source>
        <translation>首次选择于 %1</translation>
    </message>
    <message>
        <source>black outline: anchor (state recurs)</source>
        <translation>黑色轮廓：锚点（状态重复出现）</translation>
    </message>
    <message>
        <source>hollow: singleton (one rollout)</source>
        <translation>空心：单例（仅一次 rollout）</translation>
    </message>
    <message>
        <source>square: terminal (rollout ended)</source>
        <translation>方形：终止节点（rollout 结束）</translation>
    </message>
    <message>
        <source>size: visits N(s)</source>
        <translation>大小：访问次数 N(s)</translation>
    </message>
    <message>
        <source>dashed edge: re-convergence</source>
        <translation>虚线边：重新汇合</translation>
    </message>
    <message>
        <source>orange outline: followed rollout</source>
        <translation>橙色轮廓：跟随的 rollout</translation>
    </message>
    <message>
        <source>orange ring: selected</source>
        <translation>橙色圆环：已选中</translation>
    </message>
    <message>
        <source>magenta ring: search match</source>
        <translation>品红圆环：搜索匹配</translation>
    </message>
    <message>
        <source>+N: nodes collapsed below</source>
        <translation>+N：下方折叠的节点</translation>
    </message>
    <message>
        <source> (state unchanged)</source>
        <translation>（状态未变）</translation>
    </message>
    <message>
        <source>loop: action left the state unchanged</source>
        <translation>环：动作未改变状态</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>CreditLab: a workbench for credit assignment in agentic reinforcement learning.</source>
        <translation>CreditLab：面向智能体强化学习中信用分配的工作台。</translation>
    </message>
    <message>
        <source>The database to open; default: %1</source>
        <translation>要打开的数据库；默认：%1</translation>
    </message>
    <message>
        <source>Give at most one database.</source>
        <translation>最多只能指定一个数据库。</translation>
    </message>
    <message>
        <source>Cannot open database</source>
        <translation>无法打开数据库</translation>
    </message>
</context>
</TS>
