<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
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
        <source>No runs yet: import trajectories with File → Import JSONL… (Ctrl+I).</source>
        <translation>尚无运行：请通过 文件 → 导入 JSONL… (Ctrl+I) 导入轨迹。</translation>
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
