<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
<context>
    <name>creditlab::ui::Duration</name>
    <message>
        <source>unknown</source>
        <translation>unbekannt</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>%1 min %2 s</source>
        <translation>%1 min %2 s</translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <translation>%1 h %2 min</translation>
    </message>
</context>
<context>
    <name>creditlab::ui::ImportJob</name>
    <message>
        <source>%1: unknown error</source>
        <translation>%1: unbekannter Fehler</translation>
    </message>
</context>
<context>
    <name>creditlab::ui::ImportStatusWidget</name>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>Stop the import; nothing of the current file is kept</source>
        <translation>Import abbrechen; von der aktuellen Datei wird nichts übernommen</translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation>Wird abgebrochen…</translation>
    </message>
    <message>
        <source>Importing %1 (%2 of %3)</source>
        <translation>Importiere %1 (%2 von %3)</translation>
    </message>
    <message>
        <source>Importing %1</source>
        <translation>Importiere %1</translation>
    </message>
    <message>
        <source>%1 left</source>
        <translation>noch %1</translation>
    </message>
    <message numerus="yes">
        <source>%Ln trajectories</source>
        <translation>
            <numerusform>%Ln Trajektorie</numerusform>
            <numerusform>%Ln Trajektorien</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>creditlab::ui::MainWindow</name>
    <message>
        <source>Could not read the database: %1</source>
        <translation>Die Datenbank konnte nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>Import of %1 failed</source>
        <translation>Import von %1 fehlgeschlagen</translation>
    </message>
    <message>
        <source>Import failed</source>
        <translation>Import fehlgeschlagen</translation>
    </message>
    <message>
        <source>Import of %1 cancelled; nothing of it was kept.</source>
        <translation>Import von %1 abgebrochen; nichts davon wurde übernommen.</translation>
    </message>
    <message>
        <source>An import is running. Wait for it to finish or cancel it, then open another database.</source>
        <translation>Ein Import läuft. Warten Sie, bis er fertig ist, oder brechen Sie ihn ab, und öffnen Sie dann eine andere Datenbank.</translation>
    </message>
    <message>
        <source>%1: cannot open the database</source>
        <translation>%1: Die Datenbank kann nicht geöffnet werden</translation>
    </message>
    <message>
        <source>Cannot open database</source>
        <translation>Datenbank kann nicht geöffnet werden</translation>
    </message>
    <message>
        <source>Opened %1</source>
        <translation>%1 geöffnet</translation>
    </message>
    <message>
        <source>Open a database before importing.</source>
        <translation>Öffnen Sie vor dem Import eine Datenbank.</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Datei</translation>
    </message>
    <message>
        <source>&amp;Open Database…</source>
        <translation>Datenbank &amp;öffnen…</translation>
    </message>
    <message>
        <source>&amp;Import JSONL…</source>
        <translation>JSONL &amp;importieren…</translation>
    </message>
    <message>
        <source>&amp;Recent Databases</source>
        <translation>&amp;Zuletzt geöffnete Datenbanken</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Ansicht</translation>
    </message>
    <message>
        <source>&amp;Refresh</source>
        <translation>&amp;Aktualisieren</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>&amp;Hilfe</translation>
    </message>
    <message>
        <source>&amp;About CreditLab</source>
        <translation>Ü&amp;ber CreditLab</translation>
    </message>
    <message>
        <source>&amp;Clear Menu</source>
        <translation>Menü &amp;leeren</translation>
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
        <translation>Datenbank öffnen</translation>
    </message>
    <message>
        <source>CreditLab databases (*.db *.sqlite);;All files (*)</source>
        <translation>CreditLab-Datenbanken (*.db *.sqlite);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Import Trajectories</source>
        <translation>Trajektorien importieren</translation>
    </message>
    <message>
        <source>JSON Lines (*.jsonl *.json);;All files (*)</source>
        <translation>JSON Lines (*.jsonl *.json);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <source>CreditLab %1
A workbench for credit assignment in agentic reinforcement learning.

Qt %2 (built with %3)
Database: %4
Schema version: %5</source>
        <translation>CreditLab %1
Eine Werkbank für Credit Assignment im agentischen Reinforcement Learning.

Qt %2 (erstellt mit %3)
Datenbank: %4
Schema-Version: %5</translation>
    </message>
    <message>
        <source>About CreditLab</source>
        <translation>Über CreditLab</translation>
    </message>
    <message>
        <source>Imported %1: %2 trajectories, %3 turns in %4 s</source>
        <translation>%1 importiert: %2 Trajektorien, %3 Züge in %4 s</translation>
    </message>
    <message>
        <source>Nothing of %1 was imported.</source>
        <translation>Aus %1 wurde nichts importiert.</translation>
    </message>
    <message>
        <source>The database was not opened; %1 stays open.</source>
        <translation>Die Datenbank wurde nicht geöffnet; %1 bleibt geöffnet.</translation>
    </message>
    <message>
        <source>The database was not opened.</source>
        <translation>Die Datenbank wurde nicht geöffnet.</translation>
    </message>
</context>
<context>
    <name>creditlab::ui::RunBrowserPage</name>
    <message>
        <source>Runs</source>
        <translation>Läufe</translation>
    </message>
    <message>
        <source>Trajectories</source>
        <translation>Trajektorien</translation>
    </message>
    <message>
        <source>Filter trajectories by id, group or task…</source>
        <translation>Trajektorien nach ID, Gruppe oder Aufgabe filtern…</translation>
    </message>
    <message>
        <source>Runs (%1)</source>
        <translation>Läufe (%1)</translation>
    </message>
    <message>
        <source>Trajectories (%1)</source>
        <translation>Trajektorien (%1)</translation>
    </message>
    <message>
        <source>Trajectories (%1 of %2)</source>
        <translation>Trajektorien (%1 von %2)</translation>
    </message>
    <message>
        <source>No runs yet: import trajectories with File → Import JSONL… (Ctrl+I).</source>
        <translation>Noch keine Läufe: Trajektorien mit Datei → JSONL importieren… (Strg+I) importieren.</translation>
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
        <translation>Name</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>Art</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Trajectories</source>
        <translation>Trajektorien</translation>
    </message>
    <message>
        <source>Turns</source>
        <translation>Züge</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>Erstellt</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>Quelle</translation>
    </message>
    <message>
        <source>import</source>
        <translation>Import</translation>
    </message>
    <message>
        <source>train</source>
        <translation>Training</translation>
    </message>
    <message>
        <source>trial</source>
        <translation>Versuch</translation>
    </message>
    <message>
        <source>running</source>
        <translation>läuft</translation>
    </message>
    <message>
        <source>paused</source>
        <translation>pausiert</translation>
    </message>
    <message>
        <source>finished</source>
        <translation>fertig</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>fehlgeschlagen</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>abgebrochen</translation>
    </message>
</context>
<context>
    <name>creditlab::ui::TrajectoryModel</name>
    <message>
        <source>yes</source>
        <translation>ja</translation>
    </message>
    <message>
        <source>no</source>
        <translation>nein</translation>
    </message>
    <message>
        <source>Id</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>Group</source>
        <translation>Gruppe</translation>
    </message>
    <message>
        <source>Task</source>
        <translation>Aufgabe</translation>
    </message>
    <message>
        <source>Iteration</source>
        <translation>Iteration</translation>
    </message>
    <message>
        <source>Reward</source>
        <translation>Belohnung</translation>
    </message>
    <message>
        <source>Success</source>
        <translation>Erfolg</translation>
    </message>
    <message>
        <source>Turns</source>
        <translation>Züge</translation>
    </message>
</context>
<context>
    <name>creditlab::ui::TrajectoryViewerPage</name>
    <message>
        <source>Select a turn to read it in full.</source>
        <translation>Wählen Sie einen Zug, um ihn vollständig zu lesen.</translation>
    </message>
    <message>
        <source>reward %1</source>
        <translation>Belohnung %1</translation>
    </message>
    <message>
        <source>success</source>
        <translation>Erfolg</translation>
    </message>
    <message>
        <source>failure</source>
        <translation>Misserfolg</translation>
    </message>
    <message numerus="yes">
        <source>%n turns</source>
        <translation>
            <numerusform>%n Zug</numerusform>
            <numerusform>%n Züge</numerusform>
        </translation>
    </message>
    <message>
        <source>Goal: %1</source>
        <translation>Ziel: %1</translation>
    </message>
    <message>
        <source>No trajectory selected.</source>
        <translation>Keine Trajektorie ausgewählt.</translation>
    </message>
    <message>
        <source>Turn %1 of %2</source>
        <translation>Zug %1 von %2</translation>
    </message>
    <message>
        <source>Reward</source>
        <translation>Belohnung</translation>
    </message>
    <message>
        <source>Valid</source>
        <translation>Gültig</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>ja</translation>
    </message>
    <message>
        <source>no</source>
        <translation>nein</translation>
    </message>
    <message>
        <source>Role</source>
        <translation>Rolle</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <source>Role source</source>
        <translation>Rollenquelle</translation>
    </message>
    <message>
        <source>Progress</source>
        <translation>Fortschritt</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>unbekannt</translation>
    </message>
    <message>
        <source>Score</source>
        <translation>Bewertung</translation>
    </message>
    <message>
        <source>Observation</source>
        <translation>Beobachtung</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>Aktion</translation>
    </message>
    <message>
        <source>Feedback</source>
        <translation>Rückmeldung</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>(keine)</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Zustand</translation>
    </message>
    <message>
        <source>(the observation)</source>
        <translation>(die Beobachtung)</translation>
    </message>
    <message>
        <source>Credit (%1)</source>
        <translation>Credit (%1)</translation>
    </message>
</context>
<context>
    <name>creditlab::ui::TurnModel</name>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>ja</translation>
    </message>
    <message>
        <source>no</source>
        <translation>nein</translation>
    </message>
    <message>
        <source>Turn</source>
        <translation>Zug</translation>
    </message>
    <message>
        <source>Observation</source>
        <translation>Beobachtung</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>Aktion</translation>
    </message>
    <message>
        <source>Feedback</source>
        <translation>Rückmeldung</translation>
    </message>
    <message>
        <source>Reward</source>
        <translation>Belohnung</translation>
    </message>
    <message>
        <source>Valid</source>
        <translation>Gültig</translation>
    </message>
    <message>
        <source>Role</source>
        <translation>Rolle</translation>
    </message>
    <message>
        <source>D: decisive progress</source>
        <translation>D: entscheidender Fortschritt</translation>
    </message>
    <message>
        <source>E: useful exploration</source>
        <translation>E: nützliche Erkundung</translation>
    </message>
    <message>
        <source>N: no-progress infrastructure</source>
        <translation>N: Infrastruktur ohne Fortschritt</translation>
    </message>
    <message>
        <source>R: regression</source>
        <translation>R: Rückschritt</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>CreditLab: a workbench for credit assignment in agentic reinforcement learning.</source>
        <translation>CreditLab: eine Werkbank für Credit Assignment im agentischen Reinforcement Learning.</translation>
    </message>
    <message>
        <source>The database to open; default: %1</source>
        <translation>Die zu öffnende Datenbank; Vorgabe: %1</translation>
    </message>
    <message>
        <source>Give at most one database.</source>
        <translation>Geben Sie höchstens eine Datenbank an.</translation>
    </message>
    <message>
        <source>Cannot open database</source>
        <translation>Datenbank kann nicht geöffnet werden</translation>
    </message>
</context>
</TS>
