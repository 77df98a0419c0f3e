<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en">
<context>
    <name>creditlab::ui::AgreementPage</name>
    <message numerus="yes">
        <source>Krippendorff&apos;s α across %1: %2 (%n unit(s))</source>
        <translation>
            <numerusform>Krippendorff&apos;s α across %1: %2 (%n unit)</numerusform>
            <numerusform>Krippendorff&apos;s α across %1: %2 (%n units)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n turn(s)</source>
        <translation>
            <numerusform>%n turn</numerusform>
            <numerusform>%n turns</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>creditlab::ui::AnnotationPage</name>
    <message numerus="yes">
        <source>Imported %n label(s).</source>
        <translation>
            <numerusform>Imported %n label.</numerusform>
            <numerusform>Imported %n labels.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n label(s)</source>
        <translation>
            <numerusform>%n label</numerusform>
            <numerusform>%n labels</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n note(s)</source>
        <translation>
            <numerusform>%n note</numerusform>
            <numerusform>%n notes</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>creditlab::ui::ComparePage</name>
    <message numerus="yes">
        <source>%1 (mean ± std of %n seeds)</source>
        <translation>
            <numerusform>%1 (mean ± std of %n seed)</numerusform>
            <numerusform>%1 (mean ± std of %n seeds)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Loading %n run(s)…</source>
        <translation>
            <numerusform>Loading %n run…</numerusform>
            <numerusform>Loading %n runs…</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n run(s) compared</source>
        <translation>
            <numerusform>%n run compared</numerusform>
            <numerusform>%n runs compared</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>creditlab::ui::CreditPage</name>
    <message numerus="yes">
        <source>%1 trajectories, up to %2 turns, %n method(s)</source>
        <translation>
            <numerusform>%1 trajectories, up to %2 turns, %n method</numerusform>
            <numerusform>%1 trajectories, up to %2 turns, %n methods</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Advantages per role, clipped: %n turn(s) beyond ±%1</source>
        <translation>
            <numerusform>Advantages per role, clipped: %n turn beyond ±%1</numerusform>
            <numerusform>Advantages per role, clipped: %n turns beyond ±%1</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>creditlab::ui::ImportJob</name>
    <message numerus="yes">
        <source>%n files in %1</source>
        <translation>
            <numerusform>%n file in %1</numerusform>
            <numerusform>%n files in %1</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>creditlab::ui::ImportStatusWidget</name>
    <message numerus="yes">
        <source>%Ln trajectories</source>
        <translation>
            <numerusform>%Ln trajectory</numerusform>
            <numerusform>%Ln trajectories</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>creditlab::ui::LauncherPage</name>
    <message numerus="yes">
        <source>Data-parallel: %n processes (creditlab-cli train --nproc), each rolling out its share of the tasks; the Monitor follows the run from the database.</source>
        <translation>
            <numerusform>Data-parallel: %n process (creditlab-cli train --nproc), each rolling out its share of the tasks; the Monitor follows the run from the database.</numerusform>
            <numerusform>Data-parallel: %n processes (creditlab-cli train --nproc), each rolling out its share of the tasks; the Monitor follows the run from the database.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>&amp;Queue run (%n waiting)</source>
        <translation>
            <numerusform>&amp;Queue run (%n waiting)</numerusform>
            <numerusform>&amp;Queue run (%n waiting)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Its %n earlier runs here took %1–%2 of compute.</source>
        <translation>
            <numerusform>Its %n earlier run here took %1–%2 of compute.</numerusform>
            <numerusform>Its %n earlier runs here took %1–%2 of compute.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>creditlab::ui::MonitorPage</name>
    <message numerus="yes">
        <source>%n ranks</source>
        <translation>
            <numerusform>%n rank</numerusform>
            <numerusform>%n ranks</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Starting creditlab-cli with %n processes…</source>
        <translation>
            <numerusform>Starting creditlab-cli with %n process…</numerusform>
            <numerusform>Starting creditlab-cli with %n processes…</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>creditlab::ui::PlanPanel</name>
    <message numerus="yes">
        <source>%n seed(s) now</source>
        <translation>
            <numerusform>%n seed now</numerusform>
            <numerusform>%n seeds now</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>; effect %1 needs %n seed(s)</source>
        <translation>
            <numerusform>; effect %1 needs %n seed</numerusform>
            <numerusform>; effect %1 needs %n seeds</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>The plan: up to %n seed(s) per arm to decide its claims</source>
        <translation>
            <numerusform>The plan: up to %n seed per arm to decide its claims</numerusform>
            <numerusform>The plan: up to %n seeds per arm to decide its claims</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>creditlab::ui::ProbeDialog</name>
    <message numerus="yes">
        <source>Done: %n probe(s).</source>
        <translation>
            <numerusform>Done: %n probe.</numerusform>
            <numerusform>Done: %n probes.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>creditlab::ui::ReportDialog</name>
    <message numerus="yes">
        <source>%n claim(s): %1 supported, %2 contradicted, %3 inconclusive%4</source>
        <translation>
            <numerusform>%n claim: %1 supported, %2 contradicted, %3 inconclusive%4</numerusform>
            <numerusform>%n claims: %1 supported, %2 contradicted, %3 inconclusive%4</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Wrote report.md and %n figure(s) as SVG and PNG into %1</source>
        <translation>
            <numerusform>Wrote report.md and %n figure as SVG and PNG into %1</numerusform>
            <numerusform>Wrote report.md and %n figures as SVG and PNG into %1</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>creditlab::ui::RunActions</name>
    <message numerus="yes">
        <source>Delete %n run(s) (%1) with their metrics, trajectories, credits, labels and checkpoints? This cannot be undone.</source>
        <translation>
            <numerusform>Delete %n run (%1) with their metrics, trajectories, credits, labels and checkpoints? This cannot be undone.</numerusform>
            <numerusform>Delete %n runs (%1) with their metrics, trajectories, credits, labels and checkpoints? This cannot be undone.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>creditlab::ui::SweepPage</name>
    <message numerus="yes">
        <source>Parallel trials; this machine has %n core(s). Workers × threads must fit.</source>
        <translation>
            <numerusform>Parallel trials; this machine has %n core. Workers × threads must fit.</numerusform>
            <numerusform>Parallel trials; this machine has %n cores. Workers × threads must fit.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>of %n core(s)</source>
        <translation>
            <numerusform>of %n core</numerusform>
            <numerusform>of %n cores</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Start this experiment: a shared SFT run, then %n trial(s) warm-started from it? Each becomes a training run in %1.</source>
        <translation>
            <numerusform>Start this experiment: a shared SFT run, then %n trial warm-started from it? Each becomes a training run in %1.</numerusform>
            <numerusform>Start this experiment: a shared SFT run, then %n trials warm-started from it? Each becomes a training run in %1.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Start this sweep of %n trial(s)? Each trial becomes a training run in %1.</source>
        <translation>
            <numerusform>Start this sweep of %n trial? Each trial becomes a training run in %1.</numerusform>
            <numerusform>Start this sweep of %n trials? Each trial becomes a training run in %1.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Start this experiment: an SFT run for each of %1 seeds, then %n trial(s), each warm-started from its seed&apos;s? Each becomes a training run in %2.</source>
        <translation>
            <numerusform>Start this experiment: an SFT run for each of %1 seeds, then %n trial, each warm-started from its seed&apos;s? Each becomes a training run in %2.</numerusform>
            <numerusform>Start this experiment: an SFT run for each of %1 seeds, then %n trials, each warm-started from its seed&apos;s? Each becomes a training run in %2.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>creditlab::ui::TokenView</name>
    <message numerus="yes">
        <source>%n token(s)</source>
        <translation>
            <numerusform>%n token</numerusform>
            <numerusform>%n tokens</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> in %n segment(s) (the stream restarted at the context)</source>
        <translation>
            <numerusform> in %n segment (the stream restarted at the context)</numerusform>
            <numerusform> in %n segments (the stream restarted at the context)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> · %n in the loss</source>
        <translation>
            <numerusform> · %n in the loss</numerusform>
            <numerusform> · %n in the loss</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> · %n token(s) past %1 nats (marked red): the trainer does not see what the sampler saw</source>
        <translation>
            <numerusform> · %n token past %1 nats (marked red): the trainer does not see what the sampler saw</numerusform>
            <numerusform> · %n tokens past %1 nats (marked red): the trainer does not see what the sampler saw</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>creditlab::ui::TrajectoryViewerPage</name>
    <message numerus="yes">
        <source>%n turns</source>
        <translation>
            <numerusform>%n turn</numerusform>
            <numerusform>%n turns</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>creditlab::ui::TreePage</name>
    <message numerus="yes">
        <source>%n match(es)</source>
        <translation>
            <numerusform>%n match</numerusform>
            <numerusform>%n matches</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 (%n rollout(s))</source>
        <translation>
            <numerusform>%1 (%n rollout)</numerusform>
            <numerusform>%1 (%n rollouts)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1, task %2 (%n rollout(s))</source>
        <translation>
            <numerusform>%1, task %2 (%n rollout)</numerusform>
            <numerusform>%1, task %2 (%n rollouts)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Group %1: %n rollout(s)</source>
        <translation>
            <numerusform>Group %1: %n rollout</numerusform>
            <numerusform>Group %1: %n rollouts</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>credit %1: mean %2 over %n turn(s)</source>
        <translation>
            <numerusform>credit %1: mean %2 over %n turn</numerusform>
            <numerusform>credit %1: mean %2 over %n turns</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> and %n more</source>
        <translation>
            <numerusform> and %n more</numerusform>
            <numerusform> and %n more</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Terminal: %n rollout(s) ended here, mean outcome %1
</source>
        <translation>
            <numerusform>Terminal: %n rollout ended here, mean outcome %1
</numerusform>
            <numerusform>Terminal: %n rollouts ended here, mean outcome %1
</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>State %1

Observation:
%2

visits N(s) %3, V %4, V&apos; %5, success rate %6%, %n rollout(s) through it%7
</source>
        <translation>
            <numerusform>State %1

Observation:
%2

visits N(s) %3, V %4, V&apos; %5, success rate %6%, %n rollout through it%7
</numerusform>
            <numerusform>State %1

Observation:
%2

visits N(s) %3, V %4, V&apos; %5, success rate %6%, %n rollouts through it%7
</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Action:
%1

Q %2, N(s,a) %3, taken %n time(s)%4
</source>
        <translation>
            <numerusform>Action:
%1

Q %2, N(s,a) %3, taken %n time%4
</numerusform>
            <numerusform>Action:
%1

Q %2, N(s,a) %3, taken %n times%4
</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>creditlab::ui::treeview::RolloutTreeView</name>
    <message numerus="yes">
        <source>End of %n rollout(s), mean outcome %1</source>
        <translation>
            <numerusform>End of %n rollout, mean outcome %1</numerusform>
            <numerusform>End of %n rollouts, mean outcome %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n node(s) collapsed below</source>
        <translation>
            <numerusform>%n node collapsed below</numerusform>
            <numerusform>%n nodes collapsed below</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Action %1
Q %2, N(s,a) %3, taken %n time(s)%4</source>
        <translation>
            <numerusform>Action %1
Q %2, N(s,a) %3, taken %n time%4</numerusform>
            <numerusform>Action %1
Q %2, N(s,a) %3, taken %n times%4</numerusform>
        </translation>
    </message>
</context>
</TS>
