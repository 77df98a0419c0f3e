<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
<context>
    <name>MonitorPage</name>
    <message>
        <source>Running</source>
        <translation>Läuft</translation>
    </message>
    <message>
        <source>Paused</source>
        <translation>Pausiert</translation>
    </message>
    <message>
        <source>Finished</source>
        <translation>Abgeschlossen</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>Fehlgeschlagen</translation>
    </message>
    <message>
        <source>Stopped</source>
        <translation>Gestoppt</translation>
    </message>
</context>
<context>
    <name>NameOnlyIconProvider</name>
    <message>
        <source>Folder</source>
        <translation>Ordner</translation>
    </message>
    <message>
        <source>File</source>
        <translation>Datei</translation>
    </message>
    <message>
        <source>%1 file</source>
        <translation>%1-Datei</translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <source>iteration</source>
        <translation>Iteration</translation>
    </message>
    <message>
        <source>no values yet</source>
        <translation>noch keine Werte</translation>
    </message>
    <message>
        <source>1 seed</source>
        <translation>1 Seed</translation>
    </message>
    <message>
        <source>%1 seeds</source>
        <translation>%1 Seeds</translation>
    </message>
</context>
<context>
    <name>creditlab::ui</name>
    <message>
        <source>Environment server: reset task 0 in %1 ms; it begins “%2”.</source>
        <translation>Umgebungsserver: Aufgabe 0 in %1 ms zurückgesetzt; sie beginnt mit „%2“.</translation>
    </message>
    <message>
        <source>Environment server: %1</source>
        <translation>Umgebungsserver: %1</translation>
    </message>
    <message>
        <source>Judge %1: answered %2 in %3 ms.</source>
        <translation>Bewerter %1: antwortete %2 in %3 ms.</translation>
    </message>
    <message>
        <source>Judge: no usable answer: %1</source>
        <translation>Bewerter: keine brauchbare Antwort: %1</translation>
    </message>
    <message>
        <source>no role</source>
        <translation>keine Rolle</translation>
    </message>
    <message>
        <source>Judge: %1</source>
        <translation>Bewerter: %1</translation>
    </message>
</context>
<context>
    <name>creditlab::ui::AgreementPage</name>
    <message>
        <source>Cannot read the labels: %1</source>
        <translation>Die Labels können nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>Export table…</source>
        <translation>Tabelle exportieren…</translation>
    </message>
    <message>
        <source>Export matrix…</source>
        <translation>Matrix exportieren…</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>Lauf</translation>
    </message>
    <message>
        <source>Reference</source>
        <translation>Referenz</translation>
    </message>
    <message>
        <source>Compared sources</source>
        <translation>Verglichene Quellen</translation>
    </message>
    <message>
        <source>Loading labels…</source>
        <translation>Labels werden geladen…</translation>
    </message>
    <message>
        <source>All runs</source>
        <translation>Alle Läufe</translation>
    </message>
    <message>
        <source>#%1 %2</source>
        <translation>#%1 %2</translation>
    </message>
    <message>
        <source>Krippendorff&apos;s α: n/a</source>
        <translation>Krippendorffs α: k. A.</translation>
    </message>
    <message numerus="yes">
        <source>Krippendorff&apos;s α across %1: %2 (%n unit(s))</source>
        <translation>
            <numerusform>Krippendorffs α über %1: %2 (%n Einheit)</numerusform>
            <numerusform>Krippendorffs α über %1: %2 (%n Einheiten)</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 human annotators</source>
        <translation>%1 menschliche Annotatoren</translation>
    </message>
    <message>
        <source>%1 label sources</source>
        <translation>%1 Label-Quellen</translation>
    </message>
    <message numerus="yes">
        <source>%n turn(s)</source>
        <translation>
            <numerusform>%n Zug</numerusform>
            <numerusform>%n Züge</numerusform>
        </translation>
    </message>
    <message>
        <source>No pair to compare</source>
        <translation>Kein Paar zum Vergleichen</translation>
    </message>
    <message>
        <source>Cannot read the turns: %1</source>
        <translation>Die Züge können nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>Export Agreement Table</source>
        <translation>Übereinstimmungstabelle exportieren</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV-Dateien (*.csv)</translation>
    </message>
    <message>
        <source>Export Failed</source>
        <translation>Export fehlgeschlagen</translation>
    </message>
    <message>
        <source>Export Confusion Matrix</source>
        <translation>Konfusionsmatrix exportieren</translation>
    </message>
    <message>
        <source>PNG images (*.png);;SVG images (*.svg)</source>
        <translation>PNG-Bilder (*.png);;SVG-Bilder (*.svg)</translation>
    </message>
    <message>
        <source>Row shares</source>
        <translation>Zeilenanteile</translation>
    </message>
    <message>
        <source>Show each reference role&apos;s row as shares of its turns (each row sums to 1) instead of counts</source>
        <translation>Jede Zeile einer Referenzrolle als Anteile ihrer Züge statt als Anzahlen zeigen (jede Zeile summiert sich zu 1)</translation>
    </message>
    <message>
        <source>n/a</source>
        <translation>k. A.</translation>
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
        <translation>%1 (Zeilen) gegen %2 (Spalten) · %3%4</translation>
    </message>
    <message>
        <source> · row shares</source>
        <translation> · Zeilenanteile</translation>
    </message>
</context>
<context>
    <name>creditlab::ui::AgreementTableModel</name>
    <message>
        <source>n/a</source>
        <translation>k. A.</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>Quelle</translation>
    </message>
    <message>
        <source>Turns</source>
        <translation>Züge</translation>
    </message>
    <message>
        <source>Accuracy</source>
        <translation>Genauigkeit</translation>
    </message>
    <message>
        <source>Cohen&apos;s κ</source>
        <translation>Cohens κ</translation>
    </message>
    <message>
        <source>Macro F1</source>
        <translation>Makro-F1</translation>
    </message>
    <message>
        <source>F1 R|success</source>
        <translation>F1 R|Erfolg</translation>
    </message>
    <message>
        <source>F1 E|failure</source>
        <translation>F1 E|Misserfolg</translation>
    </message>
    <message>
        <source>R|success missed</source>
        <translation>R|Erfolg verfehlt</translation>
    </message>
    <message>
        <source>E|failure missed</source>
        <translation>E|Misserfolg verfehlt</translation>
    </message>
    <message>
        <source>%1 precision</source>
        <translation>%1 Präzision</translation>
    </message>
    <message>
        <source>%1 recall</source>
        <translation>%1 Recall</translation>
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
        <translation>Perzentil-Bootstrap: %1 Stichproben der von beiden gelabelten Züge, %2 mit definiertem κ; fester Seed</translation>
    </message>
    <message>
        <source>Computing the bootstrap interval…</source>
        <translation>Bootstrap-Intervall wird berechnet…</translation>
    </message>
    <message>
        <source>κ 95% CI low</source>
        <translation>κ 95 %-KI unten</translation>
    </message>
    <message>
        <source>κ 95% CI high</source>
        <translation>κ 95 %-KI oben</translation>
    </message>
</context>
<context>
    <name>creditlab::ui::AnnotationPage</name>
    <message>
        <source>no label</source>
        <translation>kein Label</translation>
    </message>
    <message>
        <source>Label turn %1 as %2</source>
        <translation>Zug %1 als %2 labeln</translation>
    </message>
    <message>
        <source>Annotator name</source>
        <translation>Name des Annotators</translation>
    </message>
    <message>
        <source>Sequential</source>
        <translation>Der Reihe nach</translation>
    </message>
    <message>
        <source>Judge least sure first</source>
        <translation>Unsicherste Bewerterurteile zuerst</translation>
    </message>
    <message>
        <source>Methods disagree most first</source>
        <translation>Größte Uneinigkeit der Methoden zuerst</translation>
    </message>
    <message>
        <source>TRIAGE conflict cells first</source>
        <translation>TRIAGE-Konfliktzellen zuerst</translation>
    </message>
    <message>
        <source>Export labels…</source>
        <translation>Labels exportieren…</translation>
    </message>
    <message>
        <source>Import labels…</source>
        <translation>Labels importieren…</translation>
    </message>
    <message>
        <source>Run:</source>
        <translation>Lauf:</translation>
    </message>
    <message>
        <source>Annotator:</source>
        <translation>Annotator:</translation>
    </message>
    <message>
        <source>Order:</source>
        <translation>Reihenfolge:</translation>
    </message>
    <message>
        <source>Could not list the runs: %1</source>
        <translation>Die Läufe konnten nicht aufgelistet werden: %1</translation>
    </message>
    <message>
        <source>Could not read run %1: %2</source>
        <translation>Lauf %1 konnte nicht gelesen werden: %2</translation>
    </message>
    <message>
        <source>There is no turn to label.</source>
        <translation>Es gibt keinen Zug zum Labeln.</translation>
    </message>
    <message>
        <source>Type an annotator name before labelling.</source>
        <translation>Geben Sie vor dem Labeln einen Annotatornamen ein.</translation>
    </message>
    <message>
        <source>Could not store the label: %1</source>
        <translation>Das Label konnte nicht gespeichert werden: %1</translation>
    </message>
    <message>
        <source>%1 / %2 turns labelled by %3 · queue %4 / %5</source>
        <translation>%1 / %2 Züge gelabelt von %3 · Warteschlange %4 / %5</translation>
    </message>
    <message>
        <source>(no annotator)</source>
        <translation>(kein Annotator)</translation>
    </message>
    <message>
        <source>This run has no turns.</source>
        <translation>Dieser Lauf hat keine Züge.</translation>
    </message>
    <message>
        <source>No run chosen.</source>
        <translation>Kein Lauf ausgewählt.</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>(keins)</translation>
    </message>
    <message>
        <source>success</source>
        <translation>Erfolg</translation>
    </message>
    <message>
        <source>failure</source>
        <translation>Misserfolg</translation>
    </message>
    <message>
        <source> (%1)</source>
        <translation> (%1)</translation>
    </message>
    <message>
        <source>Could not write %1: %2</source>
        <translation>%1 konnte nicht geschrieben werden: %2</translation>
    </message>
    <message>
        <source>Could not read the labels: %1</source>
        <translation>Die Labels konnten nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>Could not read %1: %2</source>
        <translation>%1 konnte nicht gelesen werden: %2</translation>
    </message>
    <message>
        <source>Choose a run to import labels into.</source>
        <translation>Wählen Sie einen Lauf, in den die Labels importiert werden sollen.</translation>
    </message>
    <message>
        <source>%1:%2: field &quot;%3&quot;: %4</source>
        <translation>%1:%2: Feld „%3“: %4</translation>
    </message>
    <message>
        <source>%1:%2: not a JSON object (%3)</source>
        <translation>%1:%2: kein JSON-Objekt (%3)</translation>
    </message>
    <message>
        <source>no trajectory with this id in the run</source>
        <translation>keine Trajektorie mit dieser ID im Lauf</translation>
    </message>
    <message>
        <source>expected a turn index from 0 to %1</source>
        <translation>Zugindex von 0 bis %1 erwartet</translation>
    </message>
    <message>
        <source>expected a non-empty name</source>
        <translation>nicht leerer Name erwartet</translation>
    </message>
    <message>
        <source>expected one of D, E, N, R</source>
        <translation>einer von D, E, N, R erwartet</translation>
    </message>
    <message>
        <source>Could not store the labels: %1</source>
        <translation>Die Labels konnten nicht gespeichert werden: %1</translation>
    </message>
    <message>
        <source>Export human labels</source>
        <translation>Menschliche Labels exportieren</translation>
    </message>
    <message>
        <source>JSON Lines (*.jsonl);;All files (*)</source>
        <translation>JSON Lines (*.jsonl);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Exported the labels to %1.</source>
        <translation>Die Labels wurden nach %1 exportiert.</translation>
    </message>
    <message>
        <source>Import human labels</source>
        <translation>Menschliche Labels importieren</translation>
    </message>
    <message numerus="yes">
        <source>Imported %n label(s).</source>
        <translation>
            <numerusform>%n Label importiert.</numerusform>
            <numerusform>%n Labels importiert.</numerusform>
        </translation>
    </message>
    <message>
        <source>Train on labels…</source>
        <translation>Mit Labels trainieren…</translation>
    </message>
    <message>
        <source>Open the launcher with a TRIAGE run whose judge is these human labels where they match a rollout&apos;s turn (the oracle elsewhere), on the labelled tasks</source>
        <translation>Öffnet den Starter mit einem TRIAGE-Lauf, dessen Judge diese menschlichen Labels sind, wo sie zu einem Zug eines Rollouts passen (sonst das Orakel), auf den gelabelten Aufgaben</translation>
    </message>
    <message>
        <source>Loading run %1…</source>
        <translation>Lade Lauf %1…</translation>
    </message>
    <message>
        <source>The run is still loading.</source>
        <translation>Der Lauf wird noch geladen.</translation>
    </message>
    <message>
        <source>decisive progress</source>
        <translation>entscheidender Fortschritt</translation>
    </message>
    <message>
        <source>useful exploration</source>
        <translation>nützliche Erkundung</translation>
    </message>
    <message>
        <source>no-progress infrastructure</source>
        <translation>Infrastruktur ohne Fortschritt</translation>
    </message>
    <message>
        <source>regression</source>
        <translation>Rückschritt</translation>
    </message>
    <message>
        <source>Changes the task state a verifier checks: takes the target object, selects the required item, does the required clean/heat/cool, places the target, submits the right answer.</source>
        <translation>Ändert den Aufgabenzustand, den ein Prüfer kontrolliert: nimmt das Zielobjekt, wählt den geforderten Gegenstand, reinigt/erhitzt/kühlt wie gefordert, platziert das Ziel, reicht die richtige Antwort ein.</translation>
    </message>
    <message>
        <source>Changes what the agent knows without completing a subgoal: a first look into a container, a first visit to a candidate place, a first or refined search.</source>
        <translation>Ändert das Wissen des Agenten, ohne ein Teilziel zu erfüllen: ein erster Blick in einen Behälter, ein erster Besuch eines möglichen Orts, eine erste oder verfeinerte Suche.</translation>
    </message>
    <message>
        <source>Changes neither the task state nor what the agent knows: empty-handed travel, a command that does not affect the next decision, a harmless repeat after success.</source>
        <translation>Ändert weder den Aufgabenzustand noch das Wissen des Agenten: Wege mit leeren Händen, ein Befehl ohne Einfluss auf die nächste Entscheidung, eine harmlose Wiederholung nach Erfolg.</translation>
    </message>
    <message>
        <source>Locally harmful, or redundant without new information: a wrong object, edit or purchase; looking again at what is already known.</source>
        <translation>Lokal schädlich oder redundant ohne neue Information: ein falsches Objekt, eine falsche Bearbeitung oder ein falscher Kauf; erneutes Nachsehen von bereits Bekanntem.</translation>
    </message>
    <message>
        <source>Blind</source>
        <translation>Blind</translation>
    </message>
    <message>
        <source>Skip (S)</source>
        <translation>Überspringen (S)</translation>
    </message>
    <message>
        <source>Flag (F)</source>
        <translation>Markieren (F)</translation>
    </message>
    <message>
        <source>Blind labelling: hide the judges&apos; labels, the outcome and the reward</source>
        <translation>Blindes Labeln: Labels der Bewerter, Ergebnis und Belohnung ausblenden</translation>
    </message>
    <message>
        <source>Your label of this turn</source>
        <translation>Ihr Label für diesen Zug</translation>
    </message>
    <message>
        <source>The judges&apos; labels of this turn (hidden in blind mode)</source>
        <translation>Die Labels der Bewerter für diesen Zug (im Blindmodus ausgeblendet)</translation>
    </message>
    <message>
        <source>%1 · %2  %3</source>
        <translation>%1 · %2  %3</translation>
    </message>
    <message>
        <source>%1 (%2): %3
Keys %4 or %1</source>
        <translation>%1 (%2): %3
Tasten %4 oder %1</translation>
    </message>
    <message>
        <source>Pass on this turn without a label (kept as a note) and go to the next</source>
        <translation>Diesen Zug ohne Label auslassen (als Notiz vermerkt) und zum nächsten gehen</translation>
    </message>
    <message>
        <source>Mark this turn to look at again</source>
        <translation>Diesen Zug zum erneuten Ansehen markieren</translation>
    </message>
    <message>
        <source>Comment (C); Return keeps it</source>
        <translation>Kommentar (C); Eingabe übernimmt ihn</translation>
    </message>
    <message>
        <source>Keys: 1–4 or D/E/N/R label · S skip · F flag · C comment · ↑/↓ move · Ctrl+Z undo</source>
        <translation>Tasten: 1–4 oder D/E/N/R Label · S überspringen · F markieren · C Kommentar · ↑/↓ bewegen · Ctrl+Z rückgängig</translation>
    </message>
    <message>
        <source>Could not store the note: %1</source>
        <translation>Die Notiz konnte nicht gespeichert werden: %1</translation>
    </message>
    <message>
        <source>Skip turn %1</source>
        <translation>Zug %1 überspringen</translation>
    </message>
    <message>
        <source>Flag turn %1</source>
        <translation>Zug %1 markieren</translation>
    </message>
    <message>
        <source>Unflag turn %1</source>
        <translation>Markierung von Zug %1 entfernen</translation>
    </message>
    <message>
        <source>Comment on turn %1</source>
        <translation>Zug %1 kommentieren</translation>
    </message>
    <message>
        <source>Trajectory %1 of %2 · %3</source>
        <translation>Trajektorie %1 von %2 · %3</translation>
    </message>
    <message>
        <source> · %1 · reward %2</source>
        <translation> · %1 · Belohnung %2</translation>
    </message>
    <message>
        <source>Goal: %1</source>
        <translation>Ziel: %1</translation>
    </message>
    <message>
        <source>Turn %1 of %2 · %3 labelled</source>
        <translation>Zug %1 von %2 · %3 gelabelt</translation>
    </message>
    <message>
        <source> · %1 skipped</source>
        <translation> · %1 übersprungen</translation>
    </message>
    <message>
        <source> · %1 flagged</source>
        <translation> · %1 markiert</translation>
    </message>
    <message>
        <source>Turn %1</source>
        <translation>Zug %1</translation>
    </message>
    <message>
        <source>[you: %1]</source>
        <translation>[Sie: %1]</translation>
    </message>
    <message>
        <source>[judge %1: %2%3]</source>
        <translation>[Bewerter %1: %2%3]</translation>
    </message>
    <message>
        <source>   skipped</source>
        <translation>   übersprungen</translation>
    </message>
    <message>
        <source>   ⚑ flagged</source>
        <translation>   ⚑ markiert</translation>
    </message>
    <message>
        <source>   “%1”</source>
        <translation>   „%1“</translation>
    </message>
    <message>
        <source>
Observation: %1</source>
        <translation>
Beobachtung: %1</translation>
    </message>
    <message>
        <source>
Action: %1</source>
        <translation>
Aktion: %1</translation>
    </message>
    <message>
        <source>
Feedback: %1</source>
        <translation>
Rückmeldung: %1</translation>
    </message>
    <message>
        <source>— end of trajectory %1 of %2 —</source>
        <translation>— Ende von Trajektorie %1 von %2 —</translation>
    </message>
    <message>
        <source>No turn</source>
        <translation>Kein Zug</translation>
    </message>
    <message>
        <source>Turn %1 of %2</source>
        <translation>Zug %1 von %2</translation>
    </message>
    <message>
        <source>You: %1 · %2</source>
        <translation>Sie: %1 · %2</translation>
    </message>
    <message>
        <source>You: skipped</source>
        <translation>Sie: übersprungen</translation>
    </message>
    <message>
        <source>You: not labelled</source>
        <translation>Sie: nicht gelabelt</translation>
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
        <source>Judge labels hidden (blind)</source>
        <translation>Bewerter-Labels ausgeblendet (blind)</translation>
    </message>
    <message>
        <source>%1: %2%3</source>
        <translation>%1: %2%3</translation>
    </message>
    <message>
        <source>Judge: no label</source>
        <translation>Bewerter: kein Label</translation>
    </message>
    <message>
        <source>Judge  %1</source>
        <translation>Bewerter  %1</translation>
    </message>
    <message>
        <source>Last turn in the queue.</source>
        <translation>Letzter Zug in der Warteschlange.</translation>
    </message>
    <message>
        <source>Next in the queue: turn %1 of this trajectory.</source>
        <translation>Als Nächstes in der Warteschlange: Zug %1 dieser Trajektorie.</translation>
    </message>
    <message>
        <source>Last turn here: the queue moves on to trajectory %1 of %2 (turn %3).</source>
        <translation>Letzter Zug hier: Die Warteschlange geht weiter zu Trajektorie %1 von %2 (Zug %3).</translation>
    </message>
    <message>
        <source>Not while blind: this order reads the judges&apos; labels, the outcome or the credits</source>
        <translation>Nicht im Blindmodus: diese Reihenfolge liest die Labels der Bewerter, das Ergebnis oder die Credits</translation>
    </message>
    <message>
        <source>expected a string</source>
        <translation>Zeichenkette erwartet</translation>
    </message>
    <message>
        <source>expected true or false</source>
        <translation>true oder false erwartet</translation>
    </message>
    <message>
        <source>Imported %1 and %2.</source>
        <translation>%1 und %2 importiert.</translation>
    </message>
    <message numerus="yes">
        <source>%n label(s)</source>
        <translation>
            <numerusform>%n Label</numerusform>
            <numerusform>%n Labels</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n note(s)</source>
        <translation>
            <numerusform>%n Notiz</numerusform>
            <numerusform>%n Notizen</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>creditlab::ui::CellTurnsModel</name>
    <message>
        <source>Trajectory</source>
        <translation>Trajektorie</translation>
    </message>
    <message>
        <source>Turn</source>
        <translation>Zug</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>Aktion</translation>
    </message>
    <message>
        <source>Reference</source>
        <translation>Referenz</translation>
    </message>
    <message>
        <source>Other</source>
        <translation>Andere</translation>
    </message>
</context>
<context>
    <name>creditlab::ui::CliRun</name>
    <message>
        <source>There is no valid config to start a run from.</source>
        <translation>Es gibt keine gültige Konfiguration, mit der ein Lauf starten könnte.</translation>
    </message>
    <message>
        <source>Cannot run %1 processes: creditlab-cli is neither beside the workbench nor on PATH (or set CREDITLAB_CLI).</source>
        <translation>%1 Prozesse können nicht ausgeführt werden: creditlab-cli liegt weder neben der Workbench noch im PATH (oder setzen Sie CREDITLAB_CLI).</translation>
    </message>
    <message>
        <source>Cannot write the run&apos;s config: %1</source>
        <translation>Die Konfiguration des Laufs kann nicht geschrieben werden: %1</translation>
    </message>
    <message>
        <source>Cannot start creditlab-cli: %1</source>
        <translation>creditlab-cli kann nicht gestartet werden: %1</translation>
    </message>
    <message>
        <source>creditlab-cli was killed.</source>
        <translation>creditlab-cli wurde gewaltsam beendet.</translation>
    </message>
    <message>
        <source>creditlab-cli exited with code %1.</source>
        <translation>creditlab-cli wurde mit Code %1 beendet.</translation>
    </message>
    <message>
        <source>Its last lines:
%1</source>
        <translation>Seine letzten Zeilen:
%1</translation>
    </message>
</context>
<context>
    <name>creditlab::ui::CompareAddRunsDialog</name>
    <message>
        <source>Add runs to compare</source>
        <translation>Läufe zum Vergleich hinzufügen</translation>
    </message>
    <message>
        <source>Filter runs by name, kind, status…</source>
        <translation>Läufe nach Name, Art, Status filtern…</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>Hinzufügen</translation>
    </message>
    <message>
        <source>Select one or more runs (Ctrl/Shift+click).</source>
        <translation>Wählen Sie einen oder mehrere Läufe aus (Ctrl/Shift+Klick).</translation>
    </message>
</context>
<context>
    <name>creditlab::ui::CompareControls</name>
    <message>
        <source>Group seeds (mean ± std)</source>
        <translation>Seeds gruppieren (Mittel ± Std.)</translation>
    </message>
    <message>
        <source>Iteration</source>
        <translation>Iteration</translation>
    </message>
    <message>
        <source>Wall time</source>
        <translation>Echtzeit</translation>
    </message>
    <message>
        <source>One line per set of runs whose configs differ only in the seed</source>
        <translation>Eine Linie je Gruppe von Läufen, deren Konfigurationen sich nur im Seed unterscheiden</translation>
    </message>
    <message>
        <source>Debiased exponential moving average; the raw curve stays faded underneath</source>
        <translation>Bias-korrigierter exponentieller gleitender Mittelwert; die Rohkurve bleibt blass darunter sichtbar</translation>
    </message>
    <message>
        <source>Export chart…</source>
        <translation>Diagramm exportieren…</translation>
    </message>
    <message>
        <source>PNG or SVG (Ctrl+E)</source>
        <translation>PNG oder SVG (Ctrl+E)</translation>
    </message>
    <message>
        <source>Export table…</source>
        <translation>Tabelle exportieren…</translation>
    </message>
    <message>
        <source>The table at the chosen iteration as CSV</source>
        <translation>Die Tabelle bei der gewählten Iteration als CSV</translation>
    </message>
    <message>
        <source>Metric</source>
        <translation>Metrik</translation>
    </message>
    <message>
        <source>x axis</source>
        <translation>x-Achse</translation>
    </message>
    <message>
        <source>Smoothing %1</source>
        <translation>Glättung %1</translation>
    </message>
    <message>
        <source>Grid</source>
        <translation>Raster</translation>
    </message>
    <message>
        <source>More metrics at once, each in its own chart: one crosshair and one x zoom for all</source>
        <translation>Mehrere Metriken zugleich, jede in einem eigenen Diagramm: ein Fadenkreuz und ein x-Zoom für alle</translation>
    </message>
    <message>
        <source>Grid (%1)</source>
        <translation>Raster (%1)</translation>
    </message>
</context>
<context>
    <name>creditlab::ui::CompareGrid</name>
    <message>
        <source>Wall time (s)</source>
        <translation>Echtzeit (s)</translation>
    </message>
    <message>
        <source>Iteration</source>
        <translation>Iteration</translation>
    </message>
</context>
<context>
    <name>creditlab::ui::ComparePage</name>
    <message numerus="yes">
        <source>%1 (mean ± std of %n seeds)</source>
        <translation>
            <numerusform>%1 (Mittel ± Std. über %n Seed)</numerusform>
            <numerusform>%1 (Mittel ± Std. über %n Seeds)</numerusform>
        </translation>
    </message>
    <message>
        <source>Add runs…</source>
        <translation>Läufe hinzufügen…</translation>
    </message>
    <message>
        <source>Table at iteration</source>
        <translation>Tabelle bei Iteration</translation>
    </message>
    <message>
        <source>Export chart…</source>
        <translation>Diagramm exportieren…</translation>
    </message>
    <message numerus="yes">
        <source>Loading %n run(s)…</source>
        <translation>
            <numerusform>Lade %n Lauf…</numerusform>
            <numerusform>Lade %n Läufe…</numerusform>
        </translation>
    </message>
    <message>
        <source>Add runs to compare them.</source>
        <translation>Fügen Sie Läufe hinzu, um sie zu vergleichen.</translation>
    </message>
    <message numerus="yes">
        <source>%n run(s) compared</source>
        <translation>
            <numerusform>%n Lauf verglichen</numerusform>
            <numerusform>%n Läufe verglichen</numerusform>
        </translation>
    </message>
    <message>
        <source>(unset)</source>
        <translation>(nicht gesetzt)</translation>
    </message>
    <message>
        <source>Unpin baseline</source>
        <translation>Baseline lösen</translation>
    </message>
    <message>
        <source>Pin as baseline</source>
        <translation>Als Baseline festlegen</translation>
    </message>
    <message>
        <source>Remove from comparison</source>
        <translation>Aus dem Vergleich entfernen</translation>
    </message>
    <message>
        <source>Export chart</source>
        <translation>Diagramm exportieren</translation>
    </message>
    <message>
        <source>PNG image (*.png);;SVG image (*.svg)</source>
        <translation>PNG-Bild (*.png);;SVG-Bild (*.svg)</translation>
    </message>
    <message>
        <source>Export table</source>
        <translation>Tabelle exportieren</translation>
    </message>
    <message>
        <source>CSV file (*.csv)</source>
        <translation>CSV-Datei (*.csv)</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>Vergleich</translation>
    </message>
</context>
<context>
    <name>creditlab::ui::CompareRunsModel</name>
    <message>
        <source>Run %1: %2 (%3)</source>
        <translation>Lauf %1: %2 (%3)</translation>
    </message>
    <message>
        <source>baseline</source>
        <translation>Baseline</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>Lauf</translation>
    </message>
    <message>
        <source>Baseline</source>
        <translation>Baseline</translation>
    </message>
    <message>
        <source>Differs in</source>
        <translation>Unterschiede</translation>
    </message>
</context>
<context>
    <name>creditlab::ui::CompareTableModel</name>
    <message>
        <source>%1: no value at or before iteration %2</source>
        <translation>%1: kein Wert bis einschließlich Iteration %2</translation>
    </message>
    <message>
        <source>%1 = %2</source>
        <translation>%1 = %2</translation>
    </message>
    <message>
        <source>mean of %1 runs, sample std %2</source>
        <translation>Mittel aus %1 Läufen, Stichproben-Std. %2</translation>
    </message>
    <message>
        <source>last value before iteration %1 (from iteration %2)</source>
        <translation>letzter Wert vor Iteration %1 (aus Iteration %2)</translation>
    </message>
    <message>
        <source>at iteration %1</source>
        <translation>bei Iteration %1</translation>
    </message>
    <message>
        <source>this is the baseline</source>
        <translation>dies ist die Baseline</translation>
    </message>
    <message>
        <source>%1 vs the baseline</source>
        <translation>%1 gegenüber der Baseline</translation>
    </message>
    <message>
        <source>%1
runs: %2</source>
        <translation>%1
Läufe: %2</translation>
    </message>
    <message>
        <source>Group</source>
        <translation>Gruppe</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>Lauf</translation>
    </message>
    <message>
        <source>%1 at iteration %2; * marks the last value before it</source>
        <translation>%1 bei Iteration %2; * kennzeichnet den letzten Wert davor</translation>
    </message>
</context>
<context>
    <name>creditlab::ui::CreditPage</name>
    <message>
        <source>Stored order</source>
        <translation>Gespeicherte Reihenfolge</translation>
    </message>
    <message>
        <source>By group</source>
        <translation>Nach Gruppe</translation>
    </message>
    <message>
        <source>By outcome</source>
        <translation>Nach Ergebnis</translation>
    </message>
    <message>
        <source>By disagreement</source>
        <translation>Nach Abweichung</translation>
    </message>
    <message>
        <source>Advantages per role</source>
        <translation>Vorteile (Advantages) pro Rolle</translation>
    </message>
    <message>
        <source>advantage</source>
        <translation>Vorteil (Advantage)</translation>
    </message>
    <message>
        <source>turns</source>
        <translation>Züge</translation>
    </message>
    <message>
        <source>Run:</source>
        <translation>Lauf:</translation>
    </message>
    <message>
        <source>Iteration:</source>
        <translation>Iteration:</translation>
    </message>
    <message>
        <source>Rows:</source>
        <translation>Zeilen:</translation>
    </message>
    <message>
        <source>Methods:</source>
        <translation>Methoden:</translation>
    </message>
    <message>
        <source>Distribution of:</source>
        <translation>Verteilung von:</translation>
    </message>
    <message>
        <source>all</source>
        <translation>alle</translation>
    </message>
    <message>
        <source>Loading run %1…</source>
        <translation>Lauf %1 wird geladen…</translation>
    </message>
    <message>
        <source>Run %1 has no trajectories with credits here.</source>
        <translation>Lauf %1 hat hier keine Trajektorien mit Credits.</translation>
    </message>
    <message numerus="yes">
        <source>%1 trajectories, up to %2 turns, %n method(s)</source>
        <translation>
            <numerusform>%1 Trajektorien, bis zu %2 Züge, %n Methode</numerusform>
            <numerusform>%1 Trajektorien, bis zu %2 Züge, %n Methoden</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>unlabelled (%1)</source>
        <translation>ohne Label (%1)</translation>
    </message>
    <message>
        <source>Compute credits</source>
        <translation>Credits berechnen</translation>
    </message>
    <message>
        <source>Compute a method&apos;s credits for this run (default parameters) and store them</source>
        <translation>Die Credits einer Methode für diesen Lauf berechnen (Standardparameter) und speichern</translation>
    </message>
    <message>
        <source>All methods</source>
        <translation>Alle Methoden</translation>
    </message>
    <message>
        <source>Computing %1 for run %2…</source>
        <translation>Berechne %1 für Lauf %2…</translation>
    </message>
    <message>
        <source>The method run %1 trained with; the others are shadow credits computed on its rollouts</source>
        <translation>Die Methode, mit der Lauf %1 trainiert hat; die anderen sind Schatten-Credits, auf seinen Rollouts berechnet</translation>
    </message>
    <message>
        <source>Methods shown side by side; cells where the first two disagree in sign are outlined and struck through. Until you pick, the run&apos;s own method and its nearest rival.</source>
        <translation>Nebeneinander gezeigte Methoden; Zellen, in denen die ersten beiden im Vorzeichen abweichen, sind umrandet und durchgestrichen. Bis Sie wählen: die eigene Methode des Laufs und ihr nächster Konkurrent.</translation>
    </message>
    <message>
        <source>The credits of %1 are all 0 here too.</source>
        <translation>Die Credits von %1 sind hier ebenfalls alle 0.</translation>
    </message>
    <message numerus="yes">
        <source>Advantages per role, clipped: %n turn(s) beyond ±%1</source>
        <translation>
            <numerusform>Vorteile je Rolle, abgeschnitten: %n Zug jenseits von ±%1</numerusform>
            <numerusform>Vorteile je Rolle, abgeschnitten: %n Züge jenseits von ±%1</numerusform>
        </translation>
    </message>
    <message>
        <source>The histogram spans the heatmap&apos;s colour range, ±%1; the turns beyond it are counted in its end bins.</source>
        <translation>Das Histogramm reicht so weit wie die Farbskala der Heatmap, ±%1; die Züge darüber hinaus zählen in seinen Randklassen.</translation>
    </message>
</context>
<context>
    <name>creditlab::ui::CsvExport</name>
    <message>
        <source>Export Table as CSV…</source>
        <translation>Tabelle als CSV exportieren…</translation>
    </message>
    <message>
        <source>Export Table</source>
        <translation>Tabelle exportieren</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV-Dateien (*.csv)</translation>
    </message>
    <message>
        <source>Cannot export the table</source>
        <translation>Die Tabelle kann nicht exportiert werden</translation>
    </message>
</context>
<context>
    <name>creditlab::ui::DisagreeingTurnModel</name>
    <message>
        <source>The size of the disagreement: |difference| of the two credits</source>
        <translation>Größe der Abweichung: |Differenz| der beiden Credits</translation>
    </message>
    <message>
        <source>Trajectory</source>
        <translation>Trajektorie</translation>
    </message>
    <message>
        <source>Turn</source>
        <translation>Zug</translation>
    </message>
    <message>
        <source>First</source>
        <translation>Erste</translation>
    </message>
    <message>
        <source>Second</source>
        <translation>Zweite</translation>
    </message>
    <message>
        <source>Gap</source>
        <translation>Abstand</translation>
    </message>
</context>
<context>
    <name>creditlab::ui::DisagreementPanel</name>
    <message>
        <source>Click a turn to find it in the heatmap; double-click to open it</source>
        <translation>Klicken Sie auf einen Zug, um ihn in der Heatmap zu finden; Doppelklick öffnet ihn</translation>
    </message>
    <message>
        <source>Sign disagreement per pair of methods:</source>
        <translation>Vorzeichenabweichung je Methodenpaar:</translation>
    </message>
    <message>
        <source>Among the turns where both methods are non-zero and finite; pairs without such turns are left out</source>
        <translation>Unter den Zügen, bei denen beide Methoden ungleich null und endlich sind; Paare ohne solche Züge sind ausgelassen</translation>
    </message>
    <message>
        <source>One method: nothing to compare.</source>
        <translation>Eine Methode: nichts zu vergleichen.</translation>
    </message>
    <message>
        <source>%1 and %2 never disagree in sign here.</source>
        <translation>%1 und %2 weichen hier nie im Vorzeichen ab.</translation>
    </message>
    <message>
        <source>Where %1 and %2 disagree most:</source>
        <translation>Wo %1 und %2 am stärksten abweichen:</translation>
    </message>
    <message>
        <source>Turns with opposite signs, the largest |difference| first</source>
        <translation>Züge mit entgegengesetzten Vorzeichen, größte |Differenz| zuerst</translation>
    </message>
</context>
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
    <message numerus="yes">
        <source>%n files in %1</source>
        <translation>
            <numerusform>%n Datei in %1</numerusform>
            <numerusform>%n Dateien in %1</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>creditlab::ui::ImportOptionsDialog</name>
    <message>
        <source>Detect from the first record</source>
        <translation>Am ersten Datensatz erkennen</translation>
    </message>
    <message>
        <source>CreditLab JSONL</source>
        <translation>CreditLab-JSONL</translation>
    </message>
    <message>
        <source>One trajectory per line: id, group, reward and turns, as CreditLab exports them.</source>
        <translation>Eine Trajektorie pro Zeile: id, group, reward und turns, wie CreditLab sie exportiert.</translation>
    </message>
    <message>
        <source>Chat records (OpenAI messages)</source>
        <translation>Chat-Datensätze (OpenAI-Nachrichten)</translation>
    </message>
    <message>
        <source>A messages (or chat_completions) array per line; each assistant message is a turn&apos;s action.</source>
        <translation>Ein messages-Array (oder chat_completions-Array) pro Zeile; jede assistant-Nachricht ist die Aktion eines Zugs.</translation>
    </message>
    <message>
        <source>ShareGPT / AgentGym</source>
        <translation>ShareGPT / AgentGym</translation>
    </message>
    <message>
        <source>A conversations array of from/value messages per line; gpt messages are actions.</source>
        <translation>Ein conversations-Array aus from/value-Nachrichten pro Zeile; gpt-Nachrichten sind Aktionen.</translation>
    </message>
    <message>
        <source>verl rollout dump</source>
        <translation>verl-Rollout-Dump</translation>
    </message>
    <message>
        <source>input, output, score and step per line; the output is split into turns at its chat template&apos;s markers (ChatML and Llama 3 are recognised; give others below).</source>
        <translation>input, output, score und step pro Zeile; output wird an den Markern seines Chat-Templates in Züge aufgeteilt (ChatML und Llama 3 werden erkannt; andere unten angeben).</translation>
    </message>
    <message>
        <source>Per-step rows (verl-agent)</source>
        <translation>Eine Zeile pro Schritt (verl-agent)</translation>
    </message>
    <message>
        <source>One row per step with a trajectory id and a step index; rows are put back together into trajectories.</source>
        <translation>Eine Zeile pro Schritt mit einer Trajektorien-ID und einem Schrittindex; die Zeilen werden wieder zu Trajektorien zusammengesetzt.</translation>
    </message>
    <message>
        <source>Any other layout, with a mapping file</source>
        <translation>Beliebiger anderer Aufbau, mit Zuordnungsdatei</translation>
    </message>
    <message>
        <source>A YAML file names the source field for each of ours (id, group, reward, turns, observation, action, ...); see docs/import-formats.md.</source>
        <translation>Eine YAML-Datei nennt für jedes unserer Felder (id, group, reward, turns, observation, action, ...) das Quellfeld; siehe docs/import-formats.md.</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>Durchsuchen…</translation>
    </message>
    <message>
        <source>Import with Options</source>
        <translation>Mit Optionen importieren</translation>
    </message>
    <message>
        <source>No file chosen</source>
        <translation>Keine Datei ausgewählt</translation>
    </message>
    <message>
        <source>&amp;Choose…</source>
        <translation>Aus&amp;wählen…</translation>
    </message>
    <message>
        <source>mapping.yaml</source>
        <translation>mapping.yaml</translation>
    </message>
    <message>
        <source>&amp;Files:</source>
        <translation>&amp;Dateien:</translation>
    </message>
    <message>
        <source>F&amp;ormat:</source>
        <translation>&amp;Format:</translation>
    </message>
    <message>
        <source>&amp;Mapping file:</source>
        <translation>&amp;Zuordnungsdatei:</translation>
    </message>
    <message>
        <source>Choose the files to import.</source>
        <translation>Wählen Sie die zu importierenden Dateien.</translation>
    </message>
    <message>
        <source>Choose the mapping file that describes these files.</source>
        <translation>Wählen Sie die Zuordnungsdatei, die diese Dateien beschreibt.</translation>
    </message>
    <message>
        <source>%1: no such file.</source>
        <translation>%1: Datei nicht vorhanden.</translation>
    </message>
    <message>
        <source>Give both markers (where a message begins and where it ends), or neither to recognise the template.</source>
        <translation>Geben Sie beide Marker an (wo eine Nachricht beginnt und wo sie endet) oder keinen, damit das Template erkannt wird.</translation>
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
        <source>Mapping File</source>
        <translation>Zuordnungsdatei</translation>
    </message>
    <message>
        <source>YAML (*.yaml *.yml);;All files (*)</source>
        <translation>YAML (*.yaml *.yml);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Template ma&amp;rkers:</source>
        <translation>Template-Ma&amp;rker:</translation>
    </message>
    <message>
        <source>Each file&apos;s format is told from its first record, as File → Import does: ours, the trainers&apos; formats below, and public logs (tau-bench, FireAct, SWE-agent, ReAct, WebShop sessions, AgentGym episodes).</source>
        <translation>Das Format jeder Datei wird an ihrem ersten Datensatz erkannt, wie bei Datei → Importieren: unser eigenes, die Formate der Trainer unten und öffentliche Logs (tau-bench, FireAct, SWE-agent, ReAct, WebShop-Sitzungen, AgentGym-Episoden).</translation>
    </message>
    <message>
        <source>Read a repeated key as source.&lt;name&gt; (files exported before 2026-11-29)</source>
        <translation>Einen wiederholten Schlüssel als source.&lt;name&gt; lesen (vor dem 2026-11-29 exportierte Dateien)</translation>
    </message>
    <message>
        <source>the format&apos;s own groups; or a source field such as task_id</source>
        <translation>die eigenen Gruppen des Formats; oder ein Quellfeld wie task_id</translation>
    </message>
    <message>
        <source>Every trajectory&apos;s group becomes this source field, so that several trials of one task are compared (--group-by).</source>
        <translation>Die Gruppe jeder Trajektorie wird dieses Quellfeld, sodass mehrere Versuche einer Aufgabe miteinander verglichen werden (--group-by).</translation>
    </message>
    <message>
        <source>&amp;Group by field:</source>
        <translation>Nach Feld &amp;gruppieren:</translation>
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
    <name>creditlab::ui::LauncherPage</name>
    <message>
        <source>&amp;Start run</source>
        <translation>Lauf &amp;starten</translation>
    </message>
    <message>
        <source>(defaults)</source>
        <translation>(Standardwerte)</translation>
    </message>
    <message>
        <source>Ready-made configs shipped in resources/configs/</source>
        <translation>Mitgelieferte Konfigurationen aus resources/configs/</translation>
    </message>
    <message>
        <source>&amp;Open…</source>
        <translation>Ö&amp;ffnen…</translation>
    </message>
    <message>
        <source>Load a YAML config (Ctrl+Shift+O)</source>
        <translation>YAML-Konfiguration laden (Ctrl+Shift+O)</translation>
    </message>
    <message>
        <source>Save the config as YAML for creditlab-cli train --config (Ctrl+S)</source>
        <translation>Konfiguration als YAML für creditlab-cli train --config speichern (Ctrl+S)</translation>
    </message>
    <message>
        <source>Reset all</source>
        <translation>Alles zurücksetzen</translation>
    </message>
    <message>
        <source>%1 (%2×%3, %4 heads)</source>
        <translation>%1 (%2×%3, %4 Heads)</translation>
    </message>
    <message>
        <source>Custom</source>
        <translation>Benutzerdefiniert</translation>
    </message>
    <message>
        <source>auto (CUDA when present)</source>
        <translation>auto (CUDA, falls vorhanden)</translation>
    </message>
    <message>
        <source>Start training in the background (Ctrl+Return)</source>
        <translation>Training im Hintergrund starten (Ctrl+Return)</translation>
    </message>
    <message>
        <source>Preset:</source>
        <translation>Vorlage:</translation>
    </message>
    <message>
        <source>&amp;Environment:</source>
        <translation>&amp;Umgebung:</translation>
    </message>
    <message>
        <source>Credit &amp;method:</source>
        <translation>Credit-&amp;Methode:</translation>
    </message>
    <message>
        <source>&amp;Judge:</source>
        <translation>&amp;Bewerter:</translation>
    </message>
    <message>
        <source>De&amp;vice:</source>
        <translation>Ge&amp;rät:</translation>
    </message>
    <message>
        <source>Config (YAML, as creditlab-cli train reads it):</source>
        <translation>Konfiguration (YAML, wie creditlab-cli train sie liest):</translation>
    </message>
    <message>
        <source>defaults</source>
        <translation>Standardwerte</translation>
    </message>
    <message>
        <source>Cannot load the preset</source>
        <translation>Vorlage kann nicht geladen werden</translation>
    </message>
    <message>
        <source>Credit: %1</source>
        <translation>Credit: %1</translation>
    </message>
    <message>
        <source>Environment: %1</source>
        <translation>Umgebung: %1</translation>
    </message>
    <message>
        <source>Judge: %1</source>
        <translation>Bewerter: %1</translation>
    </message>
    <message>
        <source>Fix first: %1</source>
        <translation>Zuerst beheben: %1</translation>
    </message>
    <message>
        <source>Run &quot;%1&quot;: %2 SFT episodes, then %3 iterations × %4 tasks × %5 rollouts = %6 training episodes, on %7.</source>
        <translation>Lauf „%1“: %2 SFT-Episoden, dann %3 Iterationen × %4 Aufgaben × %5 Rollouts = %6 Trainingsepisoden, auf %7.</translation>
    </message>
    <message>
        <source>&amp;Queue run (starts when run %1 ends)</source>
        <translation>Lauf &amp;einreihen (startet, wenn Lauf %1 endet)</translation>
    </message>
    <message numerus="yes">
        <source>&amp;Queue run (%n waiting)</source>
        <translation>
            <numerusform>Lauf &amp;einreihen (%n wartet)</numerusform>
            <numerusform>Lauf &amp;einreihen (%n warten)</numerusform>
        </translation>
    </message>
    <message>
        <source>%1: unknown value &apos;%2&apos;</source>
        <translation>%1: unbekannter Wert „%2“</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>Open Config</source>
        <translation>Konfiguration öffnen</translation>
    </message>
    <message>
        <source>YAML configs (*.yaml *.yml);;All files (*)</source>
        <translation>YAML-Konfigurationen (*.yaml *.yml);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Cannot load the config</source>
        <translation>Konfiguration kann nicht geladen werden</translation>
    </message>
    <message>
        <source>Save Config</source>
        <translation>Konfiguration speichern</translation>
    </message>
    <message>
        <source>YAML configs (*.yaml *.yml)</source>
        <translation>YAML-Konfigurationen (*.yaml *.yml)</translation>
    </message>
    <message>
        <source>Cannot save the config</source>
        <translation>Konfiguration kann nicht gespeichert werden</translation>
    </message>
    <message>
        <source>Cannot start the run</source>
        <translation>Lauf kann nicht gestartet werden</translation>
    </message>
    <message>
        <source>Tiny</source>
        <translation>Winzig</translation>
    </message>
    <message>
        <source>Small</source>
        <translation>Klein</translation>
    </message>
    <message>
        <source>Base</source>
        <translation>Basis</translation>
    </message>
    <message>
        <source>Large</source>
        <translation>Groß</translation>
    </message>
    <message>
        <source>General</source>
        <translation>Allgemein</translation>
    </message>
    <message>
        <source>Policy</source>
        <translation>Policy</translation>
    </message>
    <message>
        <source>Tokenizer</source>
        <translation>Tokenizer</translation>
    </message>
    <message>
        <source>SFT warm start</source>
        <translation>SFT-Warmstart</translation>
    </message>
    <message>
        <source>RL update</source>
        <translation>RL-Update</translation>
    </message>
    <message>
        <source>KL to the reference policy</source>
        <translation>KL zur Referenz-Policy</translation>
    </message>
    <message>
        <source>Critic</source>
        <translation>Critic</translation>
    </message>
    <message>
        <source>Evaluation</source>
        <translation>Evaluation</translation>
    </message>
    <message>
        <source>Checkpoints</source>
        <translation>Checkpoints</translation>
    </message>
    <message>
        <source>&amp;Save…</source>
        <translation>&amp;Speichern…</translation>
    </message>
    <message>
        <source>Filter keys… (Ctrl+F)</source>
        <translation>Schlüssel filtern… (Ctrl+F)</translation>
    </message>
    <message>
        <source>Training is not available: %1</source>
        <translation>Training ist nicht verfügbar: %1</translation>
    </message>
    <message>
        <source>every annotator</source>
        <translation>alle Annotatoren</translation>
    </message>
    <message>
        <source>No human labels by %1 in this database yet: every turn goes to the backing judge. Label turns in the Annotate tab (Ctrl+8).</source>
        <translation>Noch keine menschlichen Labels von %1 in dieser Datenbank: Jeder Zug geht an den Ersatz-Judge. Züge im Tab „Annotieren“ (Strg+8) labeln.</translation>
    </message>
    <message>
        <source>Human labels by %1: %2, on %3 distinct (task, state, action) keys in %4 %5 train tasks. Rollout turns that match one take it; the rest go to the backing judge.</source>
        <translation>Menschliche Labels von %1: %2, auf %3 verschiedenen Schlüsseln (Aufgabe, Zustand, Aktion) in %4 %5-Trainingsaufgaben. Passende Züge der Rollouts übernehmen sie; der Rest geht an den Ersatz-Judge.</translation>
    </message>
    <message>
        <source>rl.task_pool=labelled needs labelled %1 train tasks: the run would stop at its first iteration.</source>
        <translation>rl.task_pool=labelled braucht gelabelte %1-Trainingsaufgaben: Der Lauf würde in seiner ersten Iteration anhalten.</translation>
    </message>
    <message>
        <source>Check servers</source>
        <translation>Server prüfen</translation>
    </message>
    <message>
        <source>Check that the remote environment server and the http judge answer (Ctrl+K)</source>
        <translation>Prüfen, ob der entfernte Umgebungsserver und der HTTP-Bewerter antworten (Strg+K)</translation>
    </message>
    <message>
        <source>Nothing to check: this config calls no server (env remote or judge http).</source>
        <translation>Nichts zu prüfen: diese Konfiguration ruft keinen Server auf (env remote oder judge http).</translation>
    </message>
    <message>
        <source>Checking…</source>
        <translation>Prüfe…</translation>
    </message>
    <message>
        <source>Run &quot;%1&quot;: %2 iterations × %3 tasks × %4 rollouts = %5 training episodes on the remote server, on %6.</source>
        <translation>Lauf „%1“: %2 Iterationen × %3 Aufgaben × %4 Rollouts = %5 Trainingsepisoden auf dem entfernten Server, auf %6.</translation>
    </message>
    <message>
        <source>The policy starts from run %1&apos;s SFT policy.</source>
        <translation>Die Policy beginnt mit der SFT-Policy von Lauf %1.</translation>
    </message>
    <message>
        <source>SFT clones the successful trajectories of %1 (a remote server has no expert).</source>
        <translation>SFT imitiert die erfolgreichen Trajektorien aus %1 (ein entfernter Server hat keinen Experten).</translation>
    </message>
    <message>
        <source>No SFT: a remote server has no expert to demonstrate. Set sft.demonstrations to a JSONL file of trajectories, or sft.from_run to an earlier run.</source>
        <translation>Kein SFT: ein entfernter Server hat keinen Experten, der vormacht. Setzen Sie sft.demonstrations auf eine JSONL-Datei mit Trajektorien oder sft.from_run auf einen früheren Lauf.</translation>
    </message>
    <message>
        <source>The %1 judge labels nothing here (a remote server gives no oracle roles) and triage needs a role on every turn: use judge http or human, or credit.unlabelled=grpo.</source>
        <translation>Der Bewerter %1 vergibt hier keine Rollen (ein entfernter Server liefert keine Orakel-Rollen), und triage braucht eine Rolle für jeden Zug: judge http oder human verwenden, oder credit.unlabelled=grpo.</translation>
    </message>
    <message>
        <source>Default</source>
        <translation>Standard</translation>
    </message>
    <message>
        <source>The trainer&apos;s defaults: the full household world and a 128×4 policy.</source>
        <translation>Die Standardwerte des Trainers: die vollständige Household-Welt und eine 128×4-Policy.</translation>
    </message>
    <message>
        <source>No earlier run of this preset in this database to estimate its time from.</source>
        <translation>Kein früherer Lauf dieser Vorlage in dieser Datenbank, aus dem sich die Dauer schätzen ließe.</translation>
    </message>
    <message>
        <source>Its earlier run here took %1 of compute.</source>
        <translation>Ihr früherer Lauf hier brauchte %1 Rechenzeit.</translation>
    </message>
    <message numerus="yes">
        <source>Its %n earlier runs here took %1–%2 of compute.</source>
        <translation>
            <numerusform>Ihr %n früherer Lauf hier brauchte %1–%2 Rechenzeit.</numerusform>
            <numerusform>Ihre %n früheren Läufe hier brauchten %1–%2 Rechenzeit.</numerusform>
        </translation>
    </message>
    <message>
        <source> in %1</source>
        <translation> in %1</translation>
    </message>
    <message>
        <source>Run %1 (%2) trained this same SFT%3. &lt;a href=&quot;reuse&quot;&gt;Start from its SFT policy&lt;/a&gt; instead of training it again (sft.from_run = %1).</source>
        <translation>Lauf %1 (%2) hat dasselbe SFT%3 trainiert. &lt;a href=&quot;reuse&quot;&gt;Mit seiner SFT-Policy beginnen&lt;/a&gt;, statt es erneut zu trainieren (sft.from_run = %1).</translation>
    </message>
    <message>
        <source>Built-in si&amp;ze:</source>
        <translation>Eingebaute &amp;Größe:</translation>
    </message>
    <message>
        <source>Hu&amp;gging Face model:</source>
        <translation>Hugging-Face-M&amp;odell:</translation>
    </message>
    <message>
        <source>&amp;Browse…</source>
        <translation>Durchsu&amp;chen…</translation>
    </message>
    <message>
        <source>Policy:</source>
        <translation>Policy:</translation>
    </message>
    <message>
        <source>A policy trained from scratch, of this width × layers (policy.width, .layers, .heads)</source>
        <translation>Eine von Grund auf trainierte Policy dieser Breite × Schichten (policy.width, .layers, .heads)</translation>
    </message>
    <message>
        <source>Start from a pretrained Llama, Qwen2 or Qwen3 model in safetensors, with its tokenizer and chat template (policy.pretrained)</source>
        <translation>Von einem vortrainierten Llama-, Qwen2- oder Qwen3-Modell in safetensors ausgehen, mit seinem Tokenizer und Chat-Template (policy.pretrained)</translation>
    </message>
    <message>
        <source>model folder, or ORG/NAME in the Hugging Face cache</source>
        <translation>Modellordner oder ORG/NAME im Hugging-Face-Cache</translation>
    </message>
    <message>
        <source>A Hugging Face model folder, or a repository id already in the local Hugging Face cache (nothing is downloaded)</source>
        <translation>Ein Hugging-Face-Modellordner oder eine Repository-ID, die schon im lokalen Hugging-Face-Cache liegt (es wird nichts heruntergeladen)</translation>
    </message>
    <message>
        <source>Choose a Hugging Face model folder (Alt+B)</source>
        <translation>Einen Hugging-Face-Modellordner wählen (Alt+C)</translation>
    </message>
    <message>
        <source>A Hugging Face model is chosen (policy.pretrained): its own shape applies.</source>
        <translation>Ein Hugging-Face-Modell ist gewählt (policy.pretrained): Es gilt seine eigene Form.</translation>
    </message>
    <message>
        <source>Only for a Hugging Face model (policy.pretrained).</source>
        <translation>Nur für ein Hugging-Face-Modell (policy.pretrained).</translation>
    </message>
    <message>
        <source>Only with LoRA fine-tuning (policy.finetune lora).</source>
        <translation>Nur mit LoRA-Feinabstimmung (policy.finetune lora).</translation>
    </message>
    <message>
        <source>Choose a Hugging Face Model Folder</source>
        <translation>Hugging-Face-Modellordner wählen</translation>
    </message>
    <message>
        <source>Choose a Hugging Face model folder or repository id, or a built-in size.</source>
        <translation>Einen Hugging-Face-Modellordner oder eine Repository-ID wählen, oder eine eingebaute Größe.</translation>
    </message>
    <message>
        <source>The model is still being read.</source>
        <translation>Das Modell wird noch gelesen.</translation>
    </message>
    <message>
        <source>Cannot use this model: %1</source>
        <translation>Dieses Modell ist nicht verwendbar: %1</translation>
    </message>
    <message>
        <source>Runs of several processes need creditlab-cli beside the workbench or on PATH</source>
        <translation>Läufe mit mehreren Prozessen brauchen creditlab-cli neben der Workbench oder im PATH</translation>
    </message>
    <message>
        <source>Data-parallel ranks on this machine (creditlab-cli train --nproc N); the cores are shared among them; the run&apos;s results are the same up to floating-point order</source>
        <translation>Datenparallele Ranks auf diesem Rechner (creditlab-cli train --nproc N); sie teilen sich die Kerne; die Ergebnisse des Laufs sind bis auf die Reihenfolge der Gleitkommaoperationen dieselben</translation>
    </message>
    <message>
        <source>data-parallel ranks on this machine (more than 1: creditlab-cli train --nproc)</source>
        <translation>datenparallele Ranks auf diesem Rechner (mehr als 1: creditlab-cli train --nproc)</translation>
    </message>
    <message>
        <source>Pro&amp;cesses:</source>
        <translation>Pro&amp;zesse:</translation>
    </message>
    <message numerus="yes">
        <source>Data-parallel: %n processes (creditlab-cli train --nproc), each rolling out its share of the tasks; the Monitor follows the run from the database.</source>
        <translation>
            <numerusform>Datenparallel: %n Prozess (creditlab-cli train --nproc), der die Rollouts für seinen Anteil der Aufgaben erzeugt; der Monitor verfolgt den Lauf über die Datenbank.</numerusform>
            <numerusform>Datenparallel: %n Prozesse (creditlab-cli train --nproc), die jeweils die Rollouts für ihren Anteil der Aufgaben erzeugen; der Monitor verfolgt den Lauf über die Datenbank.</numerusform>
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
    <message>
        <source>&amp;Runs</source>
        <translation>&amp;Läufe</translation>
    </message>
    <message>
        <source>&amp;Launch</source>
        <translation>S&amp;tart</translation>
    </message>
    <message>
        <source>&amp;Monitor</source>
        <translation>&amp;Monitor</translation>
    </message>
    <message>
        <source>&amp;Compare</source>
        <translation>&amp;Vergleich</translation>
    </message>
    <message>
        <source>S&amp;weeps</source>
        <translation>S&amp;weeps</translation>
    </message>
    <message>
        <source>Ctrl+%1</source>
        <translation>Ctrl+%1</translation>
    </message>
    <message>
        <source>Run action failed</source>
        <translation>Laufaktion fehlgeschlagen</translation>
    </message>
    <message>
        <source>Run %1 finished</source>
        <translation>Lauf %1 abgeschlossen</translation>
    </message>
    <message>
        <source>Run %1 stopped; resume it from its checkpoint in Runs or Monitor</source>
        <translation>Lauf %1 gestoppt; setzen Sie ihn unter „Läufe“ oder „Monitor“ ab seinem Checkpoint fort</translation>
    </message>
    <message>
        <source>Training failed</source>
        <translation>Training fehlgeschlagen</translation>
    </message>
    <message>
        <source>Run %1 failed; its last checkpoint is kept.</source>
        <translation>Lauf %1 fehlgeschlagen; sein letzter Checkpoint bleibt erhalten.</translation>
    </message>
    <message>
        <source>The run did not start.</source>
        <translation>Der Lauf wurde nicht gestartet.</translation>
    </message>
    <message>
        <source>Cannot resume run %1</source>
        <translation>Lauf %1 kann nicht fortgesetzt werden</translation>
    </message>
    <message>
        <source>A Run Is Training</source>
        <translation>Ein Lauf trainiert gerade</translation>
    </message>
    <message>
        <source>Run %1 is training. Stop it after the current step (it can be resumed from its checkpoint) and quit?</source>
        <translation>Lauf %1 trainiert gerade. Nach dem aktuellen Schritt stoppen (er kann ab seinem Checkpoint fortgesetzt werden) und beenden?</translation>
    </message>
    <message>
        <source>Stop and Quit</source>
        <translation>Stoppen und beenden</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>&amp;Bearbeiten</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>&amp;Rückgängig</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>&amp;Wiederholen</translation>
    </message>
    <message>
        <source>R&amp;un</source>
        <translation>La&amp;uf</translation>
    </message>
    <message>
        <source>Run %1 resumes when run %2 ends</source>
        <translation>Lauf %1 wird fortgesetzt, wenn Lauf %2 endet</translation>
    </message>
    <message>
        <source>Started run %1 (%2)</source>
        <translation>Lauf %1 gestartet (%2)</translation>
    </message>
    <message>
        <source>Cre&amp;dit</source>
        <translation>Cre&amp;dit</translation>
    </message>
    <message>
        <source>&amp;Agreement</source>
        <translation>Ü&amp;bereinstimmung</translation>
    </message>
    <message>
        <source>&amp;Trees</source>
        <translation>Bäum&amp;e</translation>
    </message>
    <message>
        <source>A&amp;nnotate</source>
        <translation>A&amp;nnotieren</translation>
    </message>
    <message>
        <source>The launcher is set to learn from %1&apos;s labels; check the settings and start the run</source>
        <translation>Der Starter ist so eingestellt, dass er aus den Labels von %1 lernt; Einstellungen prüfen und den Lauf starten</translation>
    </message>
    <message>
        <source>every annotator</source>
        <translation>alle Annotatoren</translation>
    </message>
    <message>
        <source>PAIR &amp;Probe Table…</source>
        <translation>PAIR-&amp;Probentabelle…</translation>
    </message>
    <message>
        <source>Open a database before computing a probe table.</source>
        <translation>Öffnen Sie eine Datenbank, bevor Sie eine Probentabelle berechnen.</translation>
    </message>
    <message>
        <source>PAIR&apos;s AUROC table for a training run&apos;s policy (Ctrl+Shift+P)</source>
        <translation>PAIRs AUROC-Tabelle für die Policy eines Trainingslaufs (Strg+Umschalt+P)</translation>
    </message>
    <message>
        <source>Quick demo</source>
        <translation>Schnelle Demo</translation>
    </message>
    <message>
        <source>The demo run did not start.</source>
        <translation>Der Demo-Lauf wurde nicht gestartet.</translation>
    </message>
    <message>
        <source>Sample rollouts</source>
        <translation>Beispiel-Rollouts</translation>
    </message>
    <message>
        <source>The sample could not be opened.</source>
        <translation>Das Beispiel konnte nicht geöffnet werden.</translation>
    </message>
    <message>
        <source>The sample&apos;s credits could not be computed.</source>
        <translation>Die Credits des Beispiels konnten nicht berechnet werden.</translation>
    </message>
    <message>
        <source>Sample run %1 is ready: its credits are on Credit (Ctrl+6), its trees on Trees (Ctrl+7)</source>
        <translation>Beispiellauf %1 ist bereit: seine Credits unter „Credit“ (Ctrl+6), seine Bäume unter „Bäume“ (Ctrl+7)</translation>
    </message>
    <message>
        <source>&amp;Open</source>
        <translation>Ö&amp;ffnen</translation>
    </message>
    <message>
        <source>No database is open.</source>
        <translation>Keine Datenbank geöffnet.</translation>
    </message>
    <message>
        <source>An import is running; try again when it ends.</source>
        <translation>Ein Import läuft; versuchen Sie es erneut, wenn er beendet ist.</translation>
    </message>
    <message>
        <source>The bundled sample is missing from this build.</source>
        <translation>Das mitgelieferte Beispiel fehlt in diesem Build.</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>%1 kann nicht geschrieben werden: %2</translation>
    </message>
    <message>
        <source>Computing the sample&apos;s credits (grpo, gigpo, triage, rtmc)…</source>
        <translation>Berechne die Credits des Beispiels (grpo, gigpo, triage, rtmc)…</translation>
    </message>
    <message>
        <source>Name its format, or describe its layout with a mapping file, in File → Import with Options… (Ctrl+Shift+I).</source>
        <translation>Geben Sie unter Datei → Mit Optionen importieren… (Ctrl+Shift+I) das Format der Datei an oder beschreiben Sie ihren Aufbau mit einer Zuordnungsdatei.</translation>
    </message>
    <message>
        <source>Import with O&amp;ptions…</source>
        <translation>Mit &amp;Optionen importieren…</translation>
    </message>
    <message>
        <source>Name the format of the files, or describe another layout with a mapping file</source>
        <translation>Das Format der Dateien angeben oder einen anderen Aufbau mit einer Zuordnungsdatei beschreiben</translation>
    </message>
    <message>
        <source>A Sweep Is Running</source>
        <translation>Ein Sweep läuft gerade</translation>
    </message>
    <message>
        <source>Sweep %1 is running. Stop its trials after their current iteration (Resume on the Sweeps page continues it) and quit?</source>
        <translation>Sweep %1 läuft. Seine Versuche nach der laufenden Iteration anhalten („Fortsetzen“ auf der Seite „Sweeps“ macht weiter) und beenden?</translation>
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
        <translation>Architektur:</translation>
    </message>
    <message>
        <source>Parameters:</source>
        <translation>Parameter:</translation>
    </message>
    <message>
        <source>Shape:</source>
        <translation>Form:</translation>
    </message>
    <message>
        <source>Context:</source>
        <translation>Kontext:</translation>
    </message>
    <message>
        <source>Tokenizer:</source>
        <translation>Tokenizer:</translation>
    </message>
    <message>
        <source>Chat template:</source>
        <translation>Chat-Template:</translation>
    </message>
    <message>
        <source>Memory:</source>
        <translation>Speicher:</translation>
    </message>
    <message>
        <source>Choose a model folder (Browse…) or type a repository id from the local Hugging Face cache (ORG/NAME).</source>
        <translation>Einen Modellordner wählen (Durchsuchen…) oder eine Repository-ID aus dem lokalen Hugging-Face-Cache eingeben (ORG/NAME).</translation>
    </message>
    <message>
        <source>Reading %1…</source>
        <translation>Lese %1…</translation>
    </message>
    <message>
        <source>Cannot use this model: %1</source>
        <translation>Dieses Modell ist nicht verwendbar: %1</translation>
    </message>
    <message>
        <source>%1 (from the Hugging Face cache)</source>
        <translation>%1 (aus dem Hugging-Face-Cache)</translation>
    </message>
    <message>
        <source>%1 layers, hidden %2 (MLP %3), %4 heads, %5 key/value heads</source>
        <translation>%1 Schichten, verborgen %2 (MLP %3), %4 Köpfe, %5 Key/Value-Köpfe</translation>
    </message>
    <message>
        <source>%1 positions (rope %2)</source>
        <translation>%1 Positionen (RoPE %2)</translation>
    </message>
    <message>
        <source>missing (tokenizer.json)</source>
        <translation>fehlt (tokenizer.json)</translation>
    </message>
    <message>
        <source>%1 ids: %2</source>
        <translation>%1 IDs: %2</translation>
    </message>
    <message>
        <source>%1, %2 characters</source>
        <translation>%1, %2 Zeichen</translation>
    </message>
    <message>
        <source>; episodes are append-only (the token stream equals the template&apos;s render)</source>
        <translation>; Episoden sind append-only (der Token-Strom gleicht der Ausgabe des Templates)</translation>
    </message>
    <message>
        <source>%1 on CUDA in bf16</source>
        <translation>%1 auf CUDA in bf16</translation>
    </message>
    <message>
        <source>%1 on CUDA in fp32</source>
        <translation>%1 auf CUDA in fp32</translation>
    </message>
    <message>
        <source>%1 on the CPU in bf16</source>
        <translation>%1 auf der CPU in bf16</translation>
    </message>
    <message>
        <source>%1 on the CPU in fp32</source>
        <translation>%1 auf der CPU in fp32</translation>
    </message>
    <message>
        <source>%1, or %2</source>
        <translation>%1 oder %2</translation>
    </message>
    <message>
        <source>LoRA r=%1 trains %2 parameters</source>
        <translation>LoRA r=%1 trainiert %2 Parameter</translation>
    </message>
    <message>
        <source>full fine-tuning</source>
        <translation>volle Feinabstimmung</translation>
    </message>
    <message>
        <source>about %1 (%2 sequences × %3 tokens, %4)</source>
        <translation>etwa %1 (%2 Sequenzen × %3 Token, %4)</translation>
    </message>
    <message>
        <source>A rough peak: weights, what trains (gradients, AdamW moments, fp32 master copies), the KV cache of rl.tasks × rl.group_size sequences of policy.context tokens, and activations.</source>
        <translation>Eine grobe Spitze: Gewichte, was trainiert wird (Gradienten, AdamW-Momente, fp32-Masterkopien), der KV-Cache von rl.tasks × rl.group_size Sequenzen aus policy.context Token, und Aktivierungen.</translation>
    </message>
    <message>
        <source>%1 MiB</source>
        <translation>%1 MiB</translation>
    </message>
    <message>
        <source>%1 (%2, one file, %3)</source>
        <translation>%1 (%2, eine Datei, %3)</translation>
    </message>
    <message>
        <source>%1 (%2, %3 files, %4)</source>
        <translation>%1 (%2, %3 Dateien, %4)</translation>
    </message>
    <message>
        <source>; episodes are not append-only: only &lt;think&gt; reasoning differs</source>
        <translation>; Episoden sind nicht append-only: nur das &lt;think&gt;-Denken unterscheidet sich</translation>
    </message>
    <message>
        <source>; episodes are not append-only (the tooltip says where)</source>
        <translation>; Episoden sind nicht append-only (der Tooltip sagt, wo)</translation>
    </message>
</context>
<context>
    <name>creditlab::ui::MonitorCharts</name>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>Single values</source>
        <translation>Einzelwerte</translation>
    </message>
    <message>
        <source>SFT, per step</source>
        <translation>SFT, pro Schritt</translation>
    </message>
    <message>
        <source>Metrics with one value so far (written once, or only one iteration yet)</source>
        <translation>Metriken mit bisher nur einem Wert (einmal geschrieben oder erst eine Iteration)</translation>
    </message>
    <message>
        <source>Iteration</source>
        <translation>Iteration</translation>
    </message>
    <message>
        <source>SFT step</source>
        <translation>SFT-Schritt</translation>
    </message>
    <message>
        <source>Iteration %1</source>
        <translation>Iteration %1</translation>
    </message>
</context>
<context>
    <name>creditlab::ui::MonitorPage</name>
    <message>
        <source>&amp;Pause</source>
        <translation>&amp;Pausieren</translation>
    </message>
    <message>
        <source>S&amp;top</source>
        <translation>&amp;Stoppen</translation>
    </message>
    <message>
        <source>&amp;Resume from checkpoint</source>
        <translation>Ab &amp;Checkpoint fortsetzen</translation>
    </message>
    <message>
        <source>Pause after the current step (Ctrl+P)</source>
        <translation>Nach dem aktuellen Schritt pausieren (Ctrl+P)</translation>
    </message>
    <message>
        <source>Stop after the current step, with a checkpoint to resume from (Ctrl+.)</source>
        <translation>Nach dem aktuellen Schritt stoppen, mit einem Checkpoint zum Fortsetzen (Ctrl+.)</translation>
    </message>
    <message>
        <source>Filter metrics…</source>
        <translation>Metriken filtern…</translation>
    </message>
    <message>
        <source>EMA smoothing weight (debiased); the raw curve stays underneath, faded</source>
        <translation>EMA-Glättungsgewicht (bias-korrigiert); die Rohkurve bleibt blass darunter sichtbar</translation>
    </message>
    <message>
        <source>Smoothing:</source>
        <translation>Glättung:</translation>
    </message>
    <message>
        <source>Pausing…</source>
        <translation>Wird pausiert…</translation>
    </message>
    <message>
        <source>Stopping…</source>
        <translation>Wird gestoppt…</translation>
    </message>
    <message>
        <source>Failed: %1</source>
        <translation>Fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>iteration %1: %2</source>
        <translation>Iteration %1: %2</translation>
    </message>
    <message>
        <source>%1 generated tok/s</source>
        <translation>%1 erzeugte tok/s</translation>
    </message>
    <message>
        <source>%1 trained tok/s</source>
        <translation>%1 trainierte tok/s</translation>
    </message>
    <message>
        <source>%1 env steps/s</source>
        <translation>%1 Umgebungsschritte/s</translation>
    </message>
    <message>
        <source>RL</source>
        <translation>RL</translation>
    </message>
    <message>
        <source>Setting up</source>
        <translation>Vorbereitung</translation>
    </message>
    <message>
        <source>iteration %1 / %2</source>
        <translation>Iteration %1 / %2</translation>
    </message>
    <message>
        <source>%1 / %2 (%p%)</source>
        <translation>%1 / %2 (%p%)</translation>
    </message>
    <message>
        <source>%1 elapsed, %2 left</source>
        <translation>%1 vergangen, noch %2</translation>
    </message>
    <message>
        <source>%1 elapsed</source>
        <translation>%1 vergangen</translation>
    </message>
    <message>
        <source>&amp;Continue</source>
        <translation>&amp;Fortsetzen</translation>
    </message>
    <message>
        <source>Run %1</source>
        <translation>Lauf %1</translation>
    </message>
    <message>
        <source>Run %1: %2 (%3)</source>
        <translation>Lauf %1: %2 (%3)</translation>
    </message>
    <message>
        <source>about %1 left</source>
        <translation>noch etwa %1</translation>
    </message>
    <message>
        <source>No run shown. Start one in Launch (Ctrl+2), or select one in Runs and choose Run → Monitor (Ctrl+M).</source>
        <translation>Kein Lauf angezeigt. Starten Sie einen unter Start (Ctrl+2) oder wählen Sie einen unter Läufe und dann Lauf → Monitor (Ctrl+M).</translation>
    </message>
    <message>
        <source>The log of runs trained in this window (iterations, pauses, checkpoints, errors).</source>
        <translation>Das Protokoll der in diesem Fenster trainierten Läufe (Iterationen, Pausen, Checkpoints, Fehler).</translation>
    </message>
    <message>
        <source>Waiting for a server</source>
        <translation>Warte auf einen Server</translation>
    </message>
    <message>
        <source>waited %1 of %2</source>
        <translation>%1 von %2 gewartet</translation>
    </message>
    <message>
        <source>Paused</source>
        <translation>Pausiert</translation>
    </message>
    <message>
        <source>Finished</source>
        <translation>Abgeschlossen</translation>
    </message>
    <message>
        <source>Evaluating</source>
        <translation>Wird evaluiert</translation>
    </message>
    <message>
        <source>SFT</source>
        <translation>SFT</translation>
    </message>
    <message>
        <source>Supervised warm start: %1</source>
        <translation>Überwachter Warmstart: %1</translation>
    </message>
    <message>
        <source>SFT took %1</source>
        <translation>SFT dauerte %1</translation>
    </message>
    <message>
        <source>SFT step %1, then %2 iterations</source>
        <translation>SFT-Schritt %1, dann %2 Iterationen</translation>
    </message>
    <message>
        <source>Receiving</source>
        <translation>Empfange</translation>
    </message>
    <message>
        <source>iteration %1 received</source>
        <translation>Iteration %1 empfangen</translation>
    </message>
    <message>
        <source>waiting for the first iteration</source>
        <translation>warte auf die erste Iteration</translation>
    </message>
    <message>
        <source>The newest iteration: its time, tokens generated and trained per second, environment steps per second, and the peak device memory (device/memory_gb; — when the run does not report it)</source>
        <translation>Die neueste Iteration: ihre Zeit, erzeugte und trainierte Token pro Sekunde, Umgebungsschritte pro Sekunde und der Spitzen-Gerätespeicher (device/memory_gb; —, wenn der Lauf ihn nicht meldet)</translation>
    </message>
    <message>
        <source>device memory %1</source>
        <translation>Gerätespeicher %1</translation>
    </message>
    <message>
        <source>%1 GiB</source>
        <translation>%1 GiB</translation>
    </message>
    <message>
        <source>Data-parallel: this many processes train the run, each on its share of the tasks; rank 0 writes the run (dist/ranks)</source>
        <translation>Datenparallel: So viele Prozesse trainieren den Lauf, jeder auf seinem Anteil der Aufgaben; Rank 0 schreibt den Lauf (dist/ranks)</translation>
    </message>
    <message numerus="yes">
        <source>%n ranks</source>
        <translation>
            <numerusform>%n Rank</numerusform>
            <numerusform>%n Ranks</numerusform>
        </translation>
    </message>
    <message>
        <source>A run of several processes cannot pause; Stop ends it with a checkpoint</source>
        <translation>Ein Lauf mit mehreren Prozessen kann nicht pausieren; „Stoppen“ beendet ihn mit einem Checkpoint</translation>
    </message>
    <message>
        <source>S&amp;top now</source>
        <translation>Sofort &amp;stoppen</translation>
    </message>
    <message>
        <source>Terminating…</source>
        <translation>Wird beendet…</translation>
    </message>
    <message>
        <source>Terminate the processes now, without waiting for the current iteration (its work is lost)</source>
        <translation>Die Prozesse sofort beenden, ohne auf die aktuelle Iteration zu warten (ihre Arbeit geht verloren)</translation>
    </message>
    <message numerus="yes">
        <source>Starting creditlab-cli with %n processes…</source>
        <translation>
            <numerusform>Starte creditlab-cli mit %n Prozess…</numerusform>
            <numerusform>Starte creditlab-cli mit %n Prozessen…</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>creditlab::ui::PairDisagreementModel</name>
    <message>
        <source>%1 vs %2</source>
        <translation>%1 gegen %2</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 von %2</translation>
    </message>
    <message>
        <source>n/a</source>
        <translation>k. A.</translation>
    </message>
    <message>
        <source>%1 %</source>
        <translation>%1 %</translation>
    </message>
    <message>
        <source>Turns whose credits have opposite signs, of the turns where both methods have a finite, non-zero credit (only these can disagree in sign)</source>
        <translation>Züge mit Credits entgegengesetzten Vorzeichens, unter den Zügen, bei denen beide Methoden einen endlichen Credit ungleich null haben (nur diese können im Vorzeichen abweichen)</translation>
    </message>
    <message>
        <source>Share of the compared turns (both non-zero and finite) whose signs disagree</source>
        <translation>Anteil der verglichenen Züge (beide ungleich null und endlich) mit abweichenden Vorzeichen</translation>
    </message>
    <message>
        <source>Methods</source>
        <translation>Methoden</translation>
    </message>
    <message>
        <source>Signs disagree</source>
        <translation>Vorzeichen abweichend</translation>
    </message>
    <message>
        <source>Share</source>
        <translation>Anteil</translation>
    </message>
</context>
<context>
    <name>creditlab::ui::ParamForm</name>
    <message>
        <source>Default: %1</source>
        <translation>Standard: %1</translation>
    </message>
    <message>
        <source>(empty)</source>
        <translation>(leer)</translation>
    </message>
    <message>
        <source>Reset %1 to its default (%2)</source>
        <translation>%1 auf den Standardwert (%2) zurücksetzen</translation>
    </message>
    <message>
        <source>unknown key &apos;%1&apos;</source>
        <translation>unbekannter Schlüssel „%1“</translation>
    </message>
    <message>
        <source>%1: &apos;%2&apos; is not one of %3</source>
        <translation>%1: „%2“ ist keiner der Werte %3</translation>
    </message>
</context>
<context>
    <name>creditlab::ui::PlanPanel</name>
    <message>
        <source>Plan: looking for a pilot of %1 in this database…</source>
        <translation>Plan: suche einen Pilotlauf von %1 in dieser Datenbank…</translation>
    </message>
    <message>
        <source>Plan: cannot read this database&apos;s pilot: %1</source>
        <translation>Plan: der Pilotlauf dieser Datenbank ist nicht lesbar: %1</translation>
    </message>
    <message>
        <source>Plan: no pilot of this experiment in this database. Run it at smoke scale first (creditlab-cli experiment run FILE --scale smoke), or start it and plan again as its seeds finish (creditlab-cli experiment plan ID).</source>
        <translation>Plan: kein Pilotlauf dieses Experiments in dieser Datenbank. Führen Sie es zuerst im Smoke-Maßstab aus (creditlab-cli experiment run FILE --scale smoke), oder starten Sie es und planen Sie erneut, sobald Seeds fertig sind (creditlab-cli experiment plan ID).</translation>
    </message>
    <message>
        <source>Plan from experiment %1 (%2 scale%3), power %4:</source>
        <translation>Plan aus Experiment %1 (Maßstab %2%3), Teststärke %4:</translation>
    </message>
    <message>
        <source>, seeds so far</source>
        <translation>, bisherige Seeds</translation>
    </message>
    <message numerus="yes">
        <source>%n seed(s) now</source>
        <translation>
            <numerusform>%n Seed bisher</numerusform>
            <numerusform>%n Seeds bisher</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>; effect %1 needs %n seed(s)</source>
        <translation>
            <numerusform>; Effekt %1 braucht %n Seed</numerusform>
            <numerusform>; Effekt %1 braucht %n Seeds</numerusform>
        </translation>
    </message>
    <message>
        <source> (%1 compute hours more)</source>
        <translation> (%1 Rechenstunden mehr)</translation>
    </message>
    <message numerus="yes">
        <source>The plan: up to %n seed(s) per arm to decide its claims</source>
        <translation>
            <numerusform>Der Plan: bis zu %n Seed je Arm, um seine Behauptungen zu entscheiden</numerusform>
            <numerusform>Der Plan: bis zu %n Seeds je Arm, um seine Behauptungen zu entscheiden</numerusform>
        </translation>
    </message>
    <message>
        <source>, about %1 compute hours more.</source>
        <translation>, etwa %1 Rechenstunden mehr.</translation>
    </message>
</context>
<context>
    <name>creditlab::ui::ProbeDialog</name>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>SFT policy</source>
        <translation>SFT-Policy</translation>
    </message>
    <message>
        <source>&amp;Start</source>
        <translation>&amp;Starten</translation>
    </message>
    <message>
        <source>&amp;Cancel</source>
        <translation>&amp;Abbrechen</translation>
    </message>
    <message>
        <source>&amp;Export CSV…</source>
        <translation>CSV &amp;exportieren…</translation>
    </message>
    <message>
        <source>PAIR probes</source>
        <translation>PAIR-Proben</translation>
    </message>
    <message>
        <source>The training run whose policy the probes read</source>
        <translation>Der Trainingslauf, dessen Policy die Proben lesen</translation>
    </message>
    <message>
        <source>Household episodes to contaminate (split 80:20 by episode into train and test)</source>
        <translation>Household-Episoden, die verfälscht werden (80:20 nach Episode in Training und Test geteilt)</translation>
    </message>
    <message>
        <source>Contamination seed: which turns are corrupted, and how</source>
        <translation>Seed der Verfälschung: welche Züge verfälscht werden und wie</translation>
    </message>
    <message>
        <source>Probe the run&apos;s SFT policy even when it has RL checkpoints</source>
        <translation>Die SFT-Policy des Laufs prüfen, auch wenn er RL-Checkpoints hat</translation>
    </message>
    <message>
        <source>Build the contaminated data, extract the features, fit and evaluate every probe (Enter)</source>
        <translation>Verfälschte Daten erzeugen, Merkmale extrahieren, jede Probe anpassen und bewerten (Eingabe)</translation>
    </message>
    <message>
        <source>Stop the computation (Esc)</source>
        <translation>Berechnung anhalten (Esc)</translation>
    </message>
    <message>
        <source>AUROC per probe</source>
        <translation>AUROC je Probe</translation>
    </message>
    <message>
        <source>Probe</source>
        <translation>Probe</translation>
    </message>
    <message>
        <source>AUROC</source>
        <translation>AUROC</translation>
    </message>
    <message>
        <source>&amp;Run:</source>
        <translation>&amp;Lauf:</translation>
    </message>
    <message>
        <source>E&amp;pisodes:</source>
        <translation>E&amp;pisoden:</translation>
    </message>
    <message>
        <source>S&amp;eed:</source>
        <translation>S&amp;eed:</translation>
    </message>
    <message>
        <source>Could not read the runs: %1</source>
        <translation>Die Läufe konnten nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>A probe table is being computed; wait for it or cancel it.</source>
        <translation>Eine Probentabelle wird berechnet; warten Sie oder brechen Sie ab.</translation>
    </message>
    <message>
        <source>Open a database first.</source>
        <translation>Öffnen Sie zuerst eine Datenbank.</translation>
    </message>
    <message>
        <source>The database has no training run: train one in the Launch page first.</source>
        <translation>Die Datenbank hat keinen Trainingslauf: Starten Sie zuerst einen auf der Seite „Starten“.</translation>
    </message>
    <message>
        <source>Loading the policy of run %1…</source>
        <translation>Lade die Policy von Lauf %1…</translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation>Breche ab…</translation>
    </message>
    <message>
        <source>Building contaminated episodes</source>
        <translation>Erzeuge verfälschte Episoden</translation>
    </message>
    <message>
        <source>Extracting features</source>
        <translation>Extrahiere Merkmale</translation>
    </message>
    <message>
        <source>Fitting probes</source>
        <translation>Passe Proben an</translation>
    </message>
    <message>
        <source>%1: %2 of %3 · %4 elapsed</source>
        <translation>%1: %2 von %3 · %4 vergangen</translation>
    </message>
    <message>
        <source> · about %1 left</source>
        <translation> · noch etwa %1</translation>
    </message>
    <message>
        <source>Policy: %1 · %2 records: train %3; test %4 clean-prefix + %5 contaminated-prefix (%6 after a corrupted turn), %7 negatives · features %8, data %9</source>
        <translation>Policy: %1 · %2 Datensätze: Training %3; Test %4 mit sauberem Präfix + %5 mit verfälschtem Präfix (%6 nach einem verfälschten Zug), %7 negative · Merkmale %8, Daten %9</translation>
    </message>
    <message numerus="yes">
        <source>Done: %n probe(s).</source>
        <translation>
            <numerusform>Fertig: %n Probe.</numerusform>
            <numerusform>Fertig: %n Proben.</numerusform>
        </translation>
    </message>
    <message>
        <source>Cancelled.</source>
        <translation>Abgebrochen.</translation>
    </message>
    <message>
        <source>Could not compute the probe table of run %1: %2</source>
        <translation>Die Probentabelle von Lauf %1 konnte nicht berechnet werden: %2</translation>
    </message>
    <message>
        <source>AUROC clean</source>
        <translation>AUROC sauber</translation>
    </message>
    <message>
        <source>AUROC contaminated</source>
        <translation>AUROC verfälscht</translation>
    </message>
    <message>
        <source>Export Probe Table</source>
        <translation>Probentabelle exportieren</translation>
    </message>
    <message>
        <source>probe-table-run-%1.csv</source>
        <translation>probentabelle-lauf-%1.csv</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV-Dateien (*.csv)</translation>
    </message>
    <message>
        <source>Cannot export the table</source>
        <translation>Die Tabelle kann nicht exportiert werden</translation>
    </message>
</context>
<context>
    <name>creditlab::ui::ProbeTableModel</name>
    <message>
        <source>AUROC on the test turns whose earlier turns are all correct</source>
        <translation>AUROC auf den Testzügen, deren frühere Züge alle korrekt sind</translation>
    </message>
    <message>
        <source>AUROC on every test turn of the contaminated episodes</source>
        <translation>AUROC auf allen Testzügen der verfälschten Episoden</translation>
    </message>
    <message>
        <source>AUROC on clean and contaminated test turns together</source>
        <translation>AUROC auf sauberen und verfälschten Testzügen zusammen</translation>
    </message>
    <message>
        <source>Expected calibration error on all test turns (lower is better)</source>
        <translation>Erwarteter Kalibrierungsfehler auf allen Testzügen (niedriger ist besser)</translation>
    </message>
    <message>
        <source>Brier score on all test turns (lower is better)</source>
        <translation>Brier-Score auf allen Testzügen (niedriger ist besser)</translation>
    </message>
    <message>
        <source>Probe</source>
        <translation>Probe</translation>
    </message>
    <message>
        <source>Dims</source>
        <translation>Dim.</translation>
    </message>
    <message>
        <source>AUROC clean</source>
        <translation>AUROC sauber</translation>
    </message>
    <message>
        <source>AUROC contaminated</source>
        <translation>AUROC verfälscht</translation>
    </message>
    <message>
        <source>AUROC union</source>
        <translation>AUROC gesamt</translation>
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
        <translation>Experiment %1: Bericht</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>Aktualisieren</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>Exportieren…</translation>
    </message>
    <message>
        <source>Read the experiment again (F5)</source>
        <translation>Das Experiment neu einlesen (F5)</translation>
    </message>
    <message>
        <source>Write report.md with SVG and PNG figures into a folder (Ctrl+E)</source>
        <translation>report.md mit SVG- und PNG-Abbildungen in einen Ordner schreiben (Strg+E)</translation>
    </message>
    <message>
        <source>Cannot build the report: %1</source>
        <translation>Der Bericht kann nicht erstellt werden: %1</translation>
    </message>
    <message numerus="yes">
        <source>%n claim(s): %1 supported, %2 contradicted, %3 inconclusive%4</source>
        <translation>
            <numerusform>%n Behauptung: %1 gestützt, %2 widerlegt, %3 unentschieden%4</numerusform>
            <numerusform>%n Behauptungen: %1 gestützt, %2 widerlegt, %3 unentschieden%4</numerusform>
        </translation>
    </message>
    <message>
        <source> — partial: not every trial has finished</source>
        <translation> — unvollständig: noch nicht jeder Versuch ist fertig</translation>
    </message>
    <message>
        <source>Export the report into</source>
        <translation>Bericht exportieren nach</translation>
    </message>
    <message numerus="yes">
        <source>Wrote report.md and %n figure(s) as SVG and PNG into %1</source>
        <translation>
            <numerusform>report.md und %n Abbildung als SVG und PNG nach %1 geschrieben</numerusform>
            <numerusform>report.md und %n Abbildungen als SVG und PNG nach %1 geschrieben</numerusform>
        </translation>
    </message>
    <message>
        <source>Export failed: %1</source>
        <translation>Export fehlgeschlagen: %1</translation>
    </message>
</context>
<context>
    <name>creditlab::ui::RunActions</name>
    <message>
        <source>Rename run %1</source>
        <translation>Lauf %1 umbenennen</translation>
    </message>
    <message>
        <source>Edit tags of run %1</source>
        <translation>Tags von Lauf %1 bearbeiten</translation>
    </message>
    <message>
        <source>&amp;Monitor</source>
        <translation>Im &amp;Monitor anzeigen</translation>
    </message>
    <message>
        <source>&amp;Compare Selected</source>
        <translation>Auswahl &amp;vergleichen</translation>
    </message>
    <message>
        <source>Res&amp;ume from Checkpoint</source>
        <translation>Ab Checkpoint &amp;fortsetzen</translation>
    </message>
    <message>
        <source>&amp;Rename…</source>
        <translation>&amp;Umbenennen…</translation>
    </message>
    <message>
        <source>Edit &amp;Tags…</source>
        <translation>&amp;Tags bearbeiten…</translation>
    </message>
    <message>
        <source>&amp;Delete…</source>
        <translation>&amp;Löschen…</translation>
    </message>
    <message>
        <source>Show the run&apos;s learning curves, live while it trains (Ctrl+M)</source>
        <translation>Lernkurven des Laufs anzeigen, live während des Trainings (Ctrl+M)</translation>
    </message>
    <message>
        <source>Overlay the selected runs&apos; curves (Ctrl+Shift+C)</source>
        <translation>Kurven der ausgewählten Läufe überlagern (Ctrl+Shift+C)</translation>
    </message>
    <message>
        <source>Continue a stopped run from its last checkpoint</source>
        <translation>Einen gestoppten Lauf ab seinem letzten Checkpoint fortsetzen</translation>
    </message>
    <message>
        <source>Run %1 is training; stop it before deleting it.</source>
        <translation>Lauf %1 trainiert gerade; stoppen Sie ihn vor dem Löschen.</translation>
    </message>
    <message>
        <source>Rename Run</source>
        <translation>Lauf umbenennen</translation>
    </message>
    <message>
        <source>New name of run %1:</source>
        <translation>Neuer Name für Lauf %1:</translation>
    </message>
    <message>
        <source>Edit Tags</source>
        <translation>Tags bearbeiten</translation>
    </message>
    <message>
        <source>Tags of run %1, separated by commas:</source>
        <translation>Tags von Lauf %1, durch Kommas getrennt:</translation>
    </message>
    <message>
        <source>Delete Runs</source>
        <translation>Läufe löschen</translation>
    </message>
    <message numerus="yes">
        <source>Delete %n run(s) (%1) with their metrics, trajectories, credits, labels and checkpoints? This cannot be undone.</source>
        <translation>
            <numerusform>%n Lauf (%1) mit seinen Metriken, Trajektorien, Credits, Labels und Checkpoints löschen? Dies kann nicht rückgängig gemacht werden.</numerusform>
            <numerusform>%n Läufe (%1) mit ihren Metriken, Trajektorien, Credits, Labels und Checkpoints löschen? Dies kann nicht rückgängig gemacht werden.</numerusform>
        </translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>Löschen</translation>
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
        <source>Filter runs by name, config, status or tag…</source>
        <translation>Läufe nach Name, Konfiguration, Status oder Tag filtern…</translation>
    </message>
    <message>
        <source>No runs yet: start one in Launch (Ctrl+2), or import trajectories with File → Import JSONL… (Ctrl+I).</source>
        <translation>Noch keine Läufe: Starten Sie einen unter „Start“ (Ctrl+2) oder importieren Sie Trajektorien mit Datei → JSONL importieren… (Ctrl+I).</translation>
    </message>
    <message>
        <source>Try a quick TRIAGE run (about 5 minutes on 2 cores), or open 24 bundled household rollouts with a judge&apos;s roles to look around Credit, Trees, Annotate and Agreement now.</source>
        <translation>Probieren Sie einen schnellen TRIAGE-Lauf (etwa 5 Minuten auf 2 Kernen) oder öffnen Sie 24 mitgelieferte Household-Rollouts mit den Rollen eines Bewerters, um sich gleich in „Credit“, „Bäume“, „Annotieren“ und „Übereinstimmung“ umzusehen.</translation>
    </message>
    <message>
        <source>Start a &amp;quick demo run</source>
        <translation>&amp;Schnellen Demo-Lauf starten</translation>
    </message>
    <message>
        <source>Launch the household-quick preset (TRIAGE) and follow it on Monitor</source>
        <translation>Die Vorlage household-quick (TRIAGE) starten und im „Monitor“ verfolgen</translation>
    </message>
    <message>
        <source>Open the &amp;sample rollouts</source>
        <translation>&amp;Beispiel-Rollouts öffnen</translation>
    </message>
    <message>
        <source>Import 24 household rollouts (3 tasks × 8) with a noisy judge&apos;s roles, and compute their credits</source>
        <translation>24 Household-Rollouts (3 Aufgaben × 8) mit den Rollen eines verrauschten Bewerters importieren und ihre Credits berechnen</translation>
    </message>
    <message>
        <source>Queued, starting when run %1 ends: %2 · &lt;a href=&quot;clear&quot;&gt;Clear queue&lt;/a&gt;</source>
        <translation>Eingereiht, startet, wenn Lauf %1 endet: %2 · &lt;a href=&quot;clear&quot;&gt;Warteschlange leeren&lt;/a&gt;</translation>
    </message>
</context>
<context>
    <name>creditlab::ui::RunCombo</name>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
</context>
<context>
    <name>creditlab::ui::RunController</name>
    <message>
        <source>Open a database first.</source>
        <translation>Öffnen Sie zuerst eine Datenbank.</translation>
    </message>
    <message>
        <source>There is no valid config to start a run from.</source>
        <translation>Es gibt keine gültige Konfiguration, mit der ein Lauf starten könnte.</translation>
    </message>
    <message>
        <source>resume run %1</source>
        <translation>Lauf %1 fortsetzen</translation>
    </message>
    <message>
        <source>A run resumes in this process; start a new run to train it with several processes.</source>
        <translation>Ein Lauf wird in diesem Prozess fortgesetzt; starten Sie einen neuen Lauf, um mit mehreren Prozessen zu trainieren.</translation>
    </message>
    <message>
        <source>Cannot run %1 processes: creditlab-cli is neither beside the workbench nor on PATH (or set CREDITLAB_CLI).</source>
        <translation>%1 Prozesse können nicht ausgeführt werden: creditlab-cli liegt weder neben der Workbench noch im PATH (oder setzen Sie CREDITLAB_CLI).</translation>
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
    <message>
        <source>Compute time: SFT plus the iterations, without pauses (%1 s)</source>
        <translation>Rechenzeit: SFT plus Iterationen, ohne Pausen (%1 s)</translation>
    </message>
    <message>
        <source>Config</source>
        <translation>Konfiguration</translation>
    </message>
    <message>
        <source>Best eval</source>
        <translation>Beste Evaluierung</translation>
    </message>
    <message>
        <source>Last eval</source>
        <translation>Letzte Evaluierung</translation>
    </message>
    <message>
        <source>Iterations</source>
        <translation>Iterationen</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>Dauer</translation>
    </message>
    <message>
        <source>Tags</source>
        <translation>Tags</translation>
    </message>
    <message>
        <source>pending</source>
        <translation>ausstehend</translation>
    </message>
    <message>
        <source>Hugging Face model: %1</source>
        <translation>Hugging-Face-Modell: %1</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>Modell</translation>
    </message>
    <message>
        <source>built-in %1×%2</source>
        <translation>eingebaut %1×%2</translation>
    </message>
    <message>
        <source>Imported from the %1 format</source>
        <translation>Aus dem Format %1 importiert</translation>
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
        <translation>Ein Sweep läuft bereits.</translation>
    </message>
    <message>
        <source>No database is open.</source>
        <translation>Keine Datenbank geöffnet.</translation>
    </message>
</context>
<context>
    <name>creditlab::ui::SweepPage</name>
    <message>
        <source>Presets…</source>
        <translation>Vorlagen…</translation>
    </message>
    <message>
        <source>Open…</source>
        <translation>Öffnen…</translation>
    </message>
    <message>
        <source>Save…</source>
        <translation>Speichern…</translation>
    </message>
    <message>
        <source>as in file</source>
        <translation>wie in Datei</translation>
    </message>
    <message numerus="yes">
        <source>Parallel trials; this machine has %n core(s). Workers × threads must fit.</source>
        <translation>
            <numerusform>Parallele Versuche; dieser Rechner hat %n Kern. Worker × Threads dürfen die Kernzahl nicht übersteigen.</numerusform>
            <numerusform>Parallele Versuche; dieser Rechner hat %n Kerne. Worker × Threads dürfen die Kernzahl nicht übersteigen.</numerusform>
        </translation>
    </message>
    <message>
        <source>Start</source>
        <translation>Starten</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>Stoppen</translation>
    </message>
    <message>
        <source>Workers:</source>
        <translation>Worker:</translation>
    </message>
    <message numerus="yes">
        <source>of %n core(s)</source>
        <translation>
            <numerusform>von %n Kern</numerusform>
            <numerusform>von %n Kernen</numerusform>
        </translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>Fortsetzen</translation>
    </message>
    <message>
        <source>Sweeps in this database:</source>
        <translation>Sweeps in dieser Datenbank:</translation>
    </message>
    <message>
        <source>best</source>
        <translation>bester Wert</translation>
    </message>
    <message>
        <source>last</source>
        <translation>letzter Wert</translation>
    </message>
    <message>
        <source>Export chart…</source>
        <translation>Diagramm exportieren…</translation>
    </message>
    <message>
        <source>Export CSV…</source>
        <translation>CSV exportieren…</translation>
    </message>
    <message>
        <source>Objective:</source>
        <translation>Zielgröße:</translation>
    </message>
    <message>
        <source>x:</source>
        <translation>x:</translation>
    </message>
    <message>
        <source>y:</source>
        <translation>y:</translation>
    </message>
    <message>
        <source>Results appear here when trials finish.</source>
        <translation>Ergebnisse erscheinen hier, sobald Versuche abgeschlossen sind.</translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>%1 kann nicht gelesen werden: %2</translation>
    </message>
    <message>
        <source>Open a database first.</source>
        <translation>Öffnen Sie zuerst eine Datenbank.</translation>
    </message>
    <message>
        <source>Start sweep</source>
        <translation>Sweep starten</translation>
    </message>
    <message>
        <source>Running…</source>
        <translation>Läuft…</translation>
    </message>
    <message>
        <source>Stopping after the running trials&apos; current iteration…</source>
        <translation>Wird nach der aktuellen Iteration der laufenden Versuche gestoppt…</translation>
    </message>
    <message>
        <source> · ETA %1</source>
        <translation> · ETA %1</translation>
    </message>
    <message>
        <source>Sweep %1: %2.</source>
        <translation>Sweep %1: %2.</translation>
    </message>
    <message>
        <source>#%1 %2 — %3</source>
        <translation>#%1 %2 — %3</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>(keine)</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>%1 vs %2 (mean ± std over seeds)</source>
        <translation>%1 gegen %2 (Mittel ± Std. über Seeds)</translation>
    </message>
    <message>
        <source>%1, mean over seeds</source>
        <translation>%1, Mittel über Seeds</translation>
    </message>
    <message>
        <source>Open sweep</source>
        <translation>Sweep öffnen</translation>
    </message>
    <message>
        <source>Sweep files (*.yaml *.yml);;All files (*)</source>
        <translation>Sweep-Dateien (*.yaml *.yml);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Save sweep</source>
        <translation>Sweep speichern</translation>
    </message>
    <message>
        <source>Sweep files (*.yaml *.yml)</source>
        <translation>Sweep-Dateien (*.yaml *.yml)</translation>
    </message>
    <message>
        <source>Export chart</source>
        <translation>Diagramm exportieren</translation>
    </message>
    <message>
        <source>PNG image (*.png);;SVG image (*.svg)</source>
        <translation>PNG-Bild (*.png);;SVG-Bild (*.svg)</translation>
    </message>
    <message>
        <source>Export trials</source>
        <translation>Versuche exportieren</translation>
    </message>
    <message>
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message>
        <source>Report…</source>
        <translation>Bericht…</translation>
    </message>
    <message>
        <source>The experiment&apos;s report: claims with their intervals and verdicts, curves with seed bands, export as report.md with SVG and PNG figures (Ctrl+R)</source>
        <translation>Der Bericht des Experiments: Behauptungen mit Intervallen und Urteilen, Kurven mit Seed-Bändern, Export als report.md mit SVG- und PNG-Abbildungen (Strg+R)</translation>
    </message>
    <message>
        <source> · probe tables %1 of %2%3</source>
        <translation> · Probentabellen %1 von %2%3</translation>
    </message>
    <message numerus="yes">
        <source>Start this sweep of %n trial(s)? Each trial becomes a training run in %1.</source>
        <translation>
            <numerusform>Diesen Sweep mit %n Versuch starten? Jeder Versuch wird ein Trainingslauf in %1.</numerusform>
            <numerusform>Diesen Sweep mit %n Versuchen starten? Jeder Versuch wird ein Trainingslauf in %1.</numerusform>
        </translation>
    </message>
    <message>
        <source>, … (%1 values)</source>
        <translation>, … (%1 Werte)</translation>
    </message>
    <message>
        <source>1 trial</source>
        <translation>1 Versuch</translation>
    </message>
    <message>
        <source>%1 trials</source>
        <translation>%1 Versuche</translation>
    </message>
    <message>
        <source> · %1 at a time</source>
        <translation> · %1 gleichzeitig</translation>
    </message>
    <message>
        <source>Write a sweep or pick a preset above.</source>
        <translation>Schreiben Sie einen Sweep oder wählen Sie oben eine Vorlage.</translation>
    </message>
    <message>
        <source>Not a valid sweep yet: %1</source>
        <translation>Noch kein gültiger Sweep: %1</translation>
    </message>
    <message>
        <source> · took %1</source>
        <translation> · dauerte %1</translation>
    </message>
    <message>
        <source> · %1 elapsed%2</source>
        <translation> · %1 vergangen%2</translation>
    </message>
    <message>
        <source>%1 of %2 trials%3</source>
        <translation>%1 von %2 Versuchen%3</translation>
    </message>
    <message>
        <source>Start experiment</source>
        <translation>Experiment starten</translation>
    </message>
    <message numerus="yes">
        <source>Start this experiment: a shared SFT run, then %n trial(s) warm-started from it? Each becomes a training run in %1.</source>
        <translation>
            <numerusform>Dieses Experiment starten: ein gemeinsamer SFT-Lauf, dann %n Versuch, der von ihm aus startet? Jeder wird ein Trainingslauf in %1.</numerusform>
            <numerusform>Dieses Experiment starten: ein gemeinsamer SFT-Lauf, dann %n Versuche, die von ihm aus starten? Jeder wird ein Trainingslauf in %1.</numerusform>
        </translation>
    </message>
    <message>
        <source>Shared SFT %1% · %2 elapsed%3 · then %4 trials</source>
        <translation>Gemeinsames SFT %1% · %2 vergangen%3 · danach %4 Versuche</translation>
    </message>
    <message>
        <source>Experiment %1 stopped during its shared SFT, before any trial; Resume continues it.</source>
        <translation>Experiment %1 wurde während seines gemeinsamen SFT angehalten, vor dem ersten Versuch; „Fortsetzen“ setzt es fort.</translation>
    </message>
    <message>
        <source>Start the sweep or experiment in the editor (Ctrl+Return)</source>
        <translation>Den Sweep oder das Experiment im Editor starten (Ctrl+Return)</translation>
    </message>
    <message>
        <source>Stop after the running trials&apos; current iteration; Resume continues (Ctrl+.)</source>
        <translation>Nach der laufenden Iteration der Versuche anhalten; „Fortsetzen“ macht weiter (Ctrl+.)</translation>
    </message>
    <message>
        <source>Open a sweep or experiment file (Ctrl+Shift+O)</source>
        <translation>Eine Sweep- oder Experimentdatei öffnen (Ctrl+Shift+O)</translation>
    </message>
    <message>
        <source>Running in %1, the database open when it started; the list below is this database&apos;s. Stop (Ctrl+.) stops it there.</source>
        <translation>Läuft in %1, der beim Start geöffneten Datenbank; die Liste unten gehört zu dieser Datenbank. „Stoppen“ (Ctrl+.) hält ihn dort an.</translation>
    </message>
    <message>
        <source>It ran in %1, not in the database open now.</source>
        <translation>Er lief in %1, nicht in der jetzt geöffneten Datenbank.</translation>
    </message>
    <message>
        <source>experiment: %1</source>
        <translation>Experiment: %1</translation>
    </message>
    <message numerus="yes">
        <source>Start this experiment: an SFT run for each of %1 seeds, then %n trial(s), each warm-started from its seed&apos;s? Each becomes a training run in %2.</source>
        <translation>
            <numerusform>Dieses Experiment starten: ein SFT-Lauf für jeden der %1 Seeds, dann %n Versuch, jeweils vom SFT seines Seeds aus gestartet? Jeder wird ein Trainingslauf in %2.</numerusform>
            <numerusform>Dieses Experiment starten: ein SFT-Lauf für jeden der %1 Seeds, dann %n Versuche, jeweils vom SFT seines Seeds aus gestartet? Jeder wird ein Trainingslauf in %2.</numerusform>
        </translation>
    </message>
    <message>
        <source>SFT starts %1%, seed %2&apos;s training · %3 elapsed%4 · then %5 trials</source>
        <translation>SFT-Starts %1%, Seed %2 trainiert · %3 vergangen%4 · dann %5 Versuche</translation>
    </message>
</context>
<context>
    <name>creditlab::ui::TokenModel</name>
    <message>
        <source>Token %1 of segment %2, id %3: &quot;%4&quot;</source>
        <translation>Token %1 von Segment %2, ID %3: „%4“</translation>
    </message>
    <message>
        <source>Context (goal, observation, template): read, not trained.</source>
        <translation>Kontext (Ziel, Beobachtung, Template): gelesen, nicht trainiert.</translation>
    </message>
    <message>
        <source>Action of turn %1, left out of the update (a filtered group or a failed rollout).</source>
        <translation>Aktion von Zug %1, beim Update ausgelassen (eine gefilterte Gruppe oder ein fehlgeschlagener Rollout).</translation>
    </message>
    <message>
        <source>Action of turn %1, in the loss.</source>
        <translation>Aktion von Zug %1, im Loss.</translation>
    </message>
    <message>
        <source>Pos</source>
        <translation>Pos.</translation>
    </message>
    <message>
        <source>Turn</source>
        <translation>Zug</translation>
    </message>
    <message>
        <source>Id</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>Token</source>
        <translation>Token</translation>
    </message>
    <message>
        <source>Loss</source>
        <translation>Loss</translation>
    </message>
    <message>
        <source>Behaviour log p</source>
        <translation>Verhaltens-log p</translation>
    </message>
    <message>
        <source>Current log p</source>
        <translation>Aktuelles log p</translation>
    </message>
    <message>
        <source>Δ log p</source>
        <translation>Δ log p</translation>
    </message>
    <message>
        <source>Advantage</source>
        <translation>Vorteil</translation>
    </message>
    <message>
        <source>The token&apos;s position in its sequence (segment:position when the stream restarted at the context)</source>
        <translation>Die Position des Tokens in seiner Sequenz (Segment:Position, wenn der Strom am Kontext neu begann)</translation>
    </message>
    <message>
        <source>The loss mask: a check where the policy loss is taken</source>
        <translation>Die Loss-Maske: ein Häkchen, wo der Policy-Loss berechnet wird</translation>
    </message>
    <message>
        <source>The log-probability when the rollout sampled the token (KV-cached generation, at the sampling temperature)</source>
        <translation>Die Log-Wahrscheinlichkeit, als der Rollout das Token gesampelt hat (Generierung mit KV-Cache, bei der Sampling-Temperatur)</translation>
    </message>
    <message>
        <source>The trainer&apos;s log-probability of the token before the update&apos;s first step (a full forward pass over the training sequence): the PPO ratio&apos;s denominator</source>
        <translation>Die Log-Wahrscheinlichkeit des Tokens beim Trainer vor dem ersten Schritt des Updates (ein vollständiger Forward-Pass über die Trainingssequenz): der Nenner des PPO-Verhältnisses</translation>
    </message>
    <message>
        <source>Current minus behaviour log-probability. Non-zero beyond float error means the trainer does not see what the sampler saw (token drift: a re-tokenised action, a changed template, a different vocabulary or precision)</source>
        <translation>Aktuelle minus Verhaltens-Log-Wahrscheinlichkeit. Ein Wert ungleich null jenseits des Gleitkommafehlers bedeutet, dass der Trainer nicht sieht, was der Sampler gesehen hat (Token-Drift: eine neu tokenisierte Aktion, ein geändertes Template, ein anderes Vokabular oder eine andere Präzision)</translation>
    </message>
    <message>
        <source>The token&apos;s advantage in the policy loss</source>
        <translation>Der Vorteil (Advantage) des Tokens im Policy-Loss</translation>
    </message>
</context>
<context>
    <name>creditlab::ui::TokenView</name>
    <message>
        <source>Trained tokens only</source>
        <translation>Nur trainierte Token</translation>
    </message>
    <message>
        <source>Largest drift</source>
        <translation>Größte Drift</translation>
    </message>
    <message>
        <source>Hide the context tokens (goal, observations, template) and show the loss tokens</source>
        <translation>Die Kontext-Token (Ziel, Beobachtungen, Template) ausblenden und die Loss-Token zeigen</translation>
    </message>
    <message>
        <source>Select the trained token whose current log-prob is furthest from its behaviour log-prob (Ctrl+D)</source>
        <translation>Das trainierte Token auswählen, dessen aktuelle Log-Prob am weitesten von seiner Verhaltens-Log-Prob abweicht (Ctrl+D)</translation>
    </message>
    <message>
        <source>No tokens stored for this trajectory. A training run stores the sequences of the first rl.store_tokens rollouts of each iteration (8 by default; -1 stores every one); imported trajectories, evaluation episodes and runs from before this version have none.</source>
        <translation>Für diese Trajektorie sind keine Token gespeichert. Ein Trainingslauf speichert die Sequenzen der ersten rl.store_tokens Rollouts jeder Iteration (standardmäßig 8; -1 speichert alle); importierte Trajektorien, Evaluationsepisoden und Läufe aus der Zeit vor dieser Version haben keine.</translation>
    </message>
    <message numerus="yes">
        <source>%n token(s)</source>
        <translation>
            <numerusform>%n Token</numerusform>
            <numerusform>%n Token</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> in %n segment(s) (the stream restarted at the context)</source>
        <translation>
            <numerusform> in %n Segment (der Strom begann am Kontext neu)</numerusform>
            <numerusform> in %n Segmenten (der Strom begann am Kontext neu)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> · %n in the loss</source>
        <translation>
            <numerusform> · %n im Loss</numerusform>
            <numerusform> · %n im Loss</numerusform>
        </translation>
    </message>
    <message>
        <source> · behaviour vs current log-prob: mean |Δ| %1, largest %2</source>
        <translation> · Verhaltens- vs. aktuelle Log-Prob: mittleres |Δ| %1, größtes %2</translation>
    </message>
    <message numerus="yes">
        <source> · %n token(s) past %1 nats (marked red): the trainer does not see what the sampler saw</source>
        <translation>
            <numerusform> · %n Token über %1 nats (rot markiert): Der Trainer sieht nicht, was der Sampler gesehen hat</numerusform>
            <numerusform> · %n Token über %1 nats (rot markiert): Der Trainer sieht nicht, was der Sampler gesehen hat</numerusform>
        </translation>
    </message>
    <message>
        <source> · no drift past %1 nats</source>
        <translation> · keine Drift über %1 nats</translation>
    </message>
    <message>
        <source> · not trained (its group was filtered out, or the rollout failed)</source>
        <translation> · nicht trainiert (seine Gruppe wurde herausgefiltert oder der Rollout ist fehlgeschlagen)</translation>
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
    <message>
        <source>Turn</source>
        <translation>Zug</translation>
    </message>
    <message>
        <source>Tokens</source>
        <translation>Token</translation>
    </message>
    <message>
        <source>The exact training sequence: each token&apos;s loss mask, behaviour and current log-prob, and advantage</source>
        <translation>Die exakte Trainingssequenz: Loss-Maske, Verhaltens- und aktuelle Log-Prob sowie Vorteil jedes Tokens</translation>
    </message>
    <message>
        <source>unknown (the source does not say)</source>
        <translation>unbekannt (die Quelle gibt es nicht an)</translation>
    </message>
</context>
<context>
    <name>creditlab::ui::TreePage</name>
    <message>
        <source>Open turn</source>
        <translation>Zug öffnen</translation>
    </message>
    <message>
        <source>Value V</source>
        <translation>Wert V</translation>
    </message>
    <message>
        <source>Success rate below</source>
        <translation>Erfolgsrate darunter</translation>
    </message>
    <message>
        <source>Mean advantage</source>
        <translation>Mittlerer Vorteil (Advantage)</translation>
    </message>
    <message>
        <source>Search states and actions</source>
        <translation>Zustände und Aktionen durchsuchen</translation>
    </message>
    <message>
        <source>Click a node or an edge</source>
        <translation>Klicken Sie auf einen Knoten oder eine Kante</translation>
    </message>
    <message>
        <source>Run:</source>
        <translation>Lauf:</translation>
    </message>
    <message>
        <source>Group:</source>
        <translation>Gruppe:</translation>
    </message>
    <message>
        <source>Colour:</source>
        <translation>Farbe:</translation>
    </message>
    <message>
        <source>Follow:</source>
        <translation>Folgen:</translation>
    </message>
    <message numerus="yes">
        <source>%n match(es)</source>
        <translation>
            <numerusform>%n Treffer</numerusform>
            <numerusform>%n Treffer</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 (%n rollout(s))</source>
        <translation>
            <numerusform>%1 (%n Rollout)</numerusform>
            <numerusform>%1 (%n Rollouts)</numerusform>
        </translation>
    </message>
    <message>
        <source>Loading group %1…</source>
        <translation>Gruppe %1 wird geladen…</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <source>%1 (reward %2)</source>
        <translation>%1 (Belohnung %2)</translation>
    </message>
    <message>
        <source>%1: non-zero advantage on %2% of turns</source>
        <translation>%1: Vorteil (Advantage) ungleich null bei %2 % der Züge</translation>
    </message>
    <message numerus="yes">
        <source>credit %1: mean %2 over %n turn(s)</source>
        <translation>
            <numerusform>Credit %1: Mittel %2 über %n Zug</numerusform>
            <numerusform>Credit %1: Mittel %2 über %n Züge</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Terminal: %n rollout(s) ended here, mean outcome %1
</source>
        <translation>
            <numerusform>Endzustand: %n Rollout endete hier, mittleres Ergebnis %1
</numerusform>
            <numerusform>Endzustand: %n Rollouts endeten hier, mittleres Ergebnis %1
</numerusform>
        </translation>
    </message>
    <message>
        <source>, anchor</source>
        <translation>, Anker</translation>
    </message>
    <message numerus="yes">
        <source>Action:
%1

Q %2, N(s,a) %3, taken %n time(s)%4
</source>
        <translation>
            <numerusform>Aktion:
%1

Q %2, N(s,a) %3, %n-mal gewählt%4
</numerusform>
            <numerusform>Aktion:
%1

Q %2, N(s,a) %3, %n-mal gewählt%4
</numerusform>
        </translation>
    </message>
    <message>
        <source>, re-convergence</source>
        <translation>, Rekonvergenz</translation>
    </message>
    <message>
        <source>
Feedback:
%1
</source>
        <translation>
Rückmeldung:
%1
</translation>
    </message>
    <message>
        <source>Iteration:</source>
        <translation>Iteration:</translation>
    </message>
    <message>
        <source>This database has no runs: import trajectories or start a run.</source>
        <translation>Diese Datenbank hat keine Läufe: Importieren Sie Trajektorien oder starten Sie einen Lauf.</translation>
    </message>
    <message>
        <source>none (imported)</source>
        <translation>keine (importiert)</translation>
    </message>
    <message numerus="yes">
        <source>%1, task %2 (%n rollout(s))</source>
        <translation>
            <numerusform>%1, Aufgabe %2 (%n Rollout)</numerusform>
            <numerusform>%1, Aufgabe %2 (%n Rollouts)</numerusform>
        </translation>
    </message>
    <message>
        <source>Run %1 has no trajectories yet, so it has no groups to draw as trees. Import trajectories into it or train it first.</source>
        <translation>Lauf %1 hat noch keine Trajektorien und damit keine Gruppen, die sich als Bäume zeichnen lassen. Importieren Sie zuerst Trajektorien oder trainieren Sie ihn.</translation>
    </message>
    <message numerus="yes">
        <source>Group %1: %n rollout(s)</source>
        <translation>
            <numerusform>Gruppe %1: %n Rollout</numerusform>
            <numerusform>Gruppe %1: %n Rollouts</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 nodes: %2 states + %3 terminals
of the states: %4 anchors (recur in the group), %5 singletons (one rollout)
%6 edges (%7 re-convergence, %8 loops to the same state), %9 turns
branching factor %10; states shared by more than one rollout: %11%</source>
        <translation>%1 Knoten: %2 Zustände + %3 Endzustände
von den Zuständen: %4 Anker (wiederkehrend in der Gruppe), %5 Einzelzustände (ein Rollout)
%6 Kanten (%7 Rekonvergenz, %8 Schleifen zum selben Zustand), %9 Züge
Verzweigungsfaktor %10; Zustände in mehr als einem Rollout: %11 %</translation>
    </message>
    <message numerus="yes">
        <source> and %n more</source>
        <translation>
            <numerusform> und %n weiterer</numerusform>
            <numerusform> und %n weitere</numerusform>
        </translation>
    </message>
    <message>
        <source>Open turn %1</source>
        <translation>Zug %1 öffnen</translation>
    </message>
    <message>
        <source>Opens %1 in the trajectory viewer</source>
        <translation>Öffnet %1 im Trajektorienbetrachter</translation>
    </message>
    <message>
        <source>after %1
</source>
        <translation>nach %1
</translation>
    </message>
    <message numerus="yes">
        <source>State %1

Observation:
%2

visits N(s) %3, V %4, V&apos; %5, success rate %6%, %n rollout(s) through it%7
</source>
        <translation>
            <numerusform>Zustand %1

Beobachtung:
%2

Besuche N(s) %3, V %4, V&apos; %5, Erfolgsrate %6 %, %n Rollout hindurch%7
</numerusform>
            <numerusform>Zustand %1

Beobachtung:
%2

Besuche N(s) %3, V %4, V&apos; %5, Erfolgsrate %6 %, %n Rollouts hindurch%7
</numerusform>
        </translation>
    </message>
    <message>
        <source>turns here: %1
</source>
        <translation>Züge hier: %1
</translation>
    </message>
    <message>
        <source>taken at %1
</source>
        <translation>gewählt bei %1
</translation>
    </message>
    <message>
        <source>
Observation (%1):
%2
</source>
        <translation>
Beobachtung (%1):
%2
</translation>
    </message>
</context>
<context>
    <name>creditlab::ui::TrialModel</name>
    <message>
        <source>done</source>
        <translation>fertig</translation>
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
        <translation>Vorbereitung</translation>
    </message>
    <message>
        <source>Trial</source>
        <translation>Versuch</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>Lauf</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Progress</source>
        <translation>Fortschritt</translation>
    </message>
    <message>
        <source>Objective</source>
        <translation>Zielgröße</translation>
    </message>
    <message>
        <source>waiting for a server</source>
        <translation>wartet auf einen Server</translation>
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
    <name>creditlab::ui::charts::ErrorBarChart</name>
    <message>
        <source>%1 at %2: %3 ± %4 (n = %5)</source>
        <translation>%1 bei %2: %3 ± %4 (n = %5)</translation>
    </message>
</context>
<context>
    <name>creditlab::ui::charts::HeatmapChart</name>
    <message>
        <source>no data</source>
        <translation>keine Daten</translation>
    </message>
    <message>
        <source>No data</source>
        <translation>Keine Daten</translation>
    </message>
    <message>
        <source>Row</source>
        <translation>Zeile</translation>
    </message>
    <message>
        <source>Column</source>
        <translation>Spalte</translation>
    </message>
    <message>
        <source>%1: %2
%3: %4
Value: %5</source>
        <translation>%1: %2
%3: %4
Wert: %5</translation>
    </message>
</context>
<context>
    <name>creditlab::ui::charts::LineChart</name>
    <message>
        <source>Iteration</source>
        <translation>Iteration</translation>
    </message>
    <message>
        <source>Wall time (s)</source>
        <translation>Echtzeit (s)</translation>
    </message>
    <message>
        <source>No data</source>
        <translation>Keine Daten</translation>
    </message>
    <message>
        <source>x = %1</source>
        <translation>x = %1</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>%1: %2 (raw %3)</source>
        <translation>%1: %2 (roh %3)</translation>
    </message>
    <message>
        <source>Reset zoom</source>
        <translation>Zoom zurücksetzen</translation>
    </message>
    <message>
        <source>Export image…</source>
        <translation>Bild exportieren…</translation>
    </message>
    <message>
        <source>PNG image (*.png)</source>
        <translation>PNG-Bild (*.png)</translation>
    </message>
    <message>
        <source>SVG image (*.svg)</source>
        <translation>SVG-Bild (*.svg)</translation>
    </message>
    <message>
        <source>Export chart</source>
        <translation>Diagramm exportieren</translation>
    </message>
    <message>
        <source>No value above 0 to show on a log scale</source>
        <translation>Kein Wert über 0 für eine logarithmische Skala</translation>
    </message>
    <message>
        <source>Log scale</source>
        <translation>Log-Skala</translation>
    </message>
    <message>
        <source>Logarithmic y axis; values at or below 0 are left out</source>
        <translation>Logarithmische y-Achse; Werte ≤ 0 werden ausgelassen</translation>
    </message>
</context>
<context>
    <name>creditlab::ui::heatmap::CreditHeatmapView</name>
    <message>
        <source>Trajectory %1, turn %2</source>
        <translation>Trajektorie %1, Zug %2</translation>
    </message>
    <message>
        <source>Outcome: success</source>
        <translation>Ergebnis: Erfolg</translation>
    </message>
    <message>
        <source>Outcome: failure</source>
        <translation>Ergebnis: Misserfolg</translation>
    </message>
    <message>
        <source>Role: %1</source>
        <translation>Rolle: %1</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>Action: %1</source>
        <translation>Aktion: %1</translation>
    </message>
    <message>
        <source>No credits to show</source>
        <translation>Keine Credits anzuzeigen</translation>
    </message>
    <message>
        <source>advantage</source>
        <translation>Vorteil (Advantage)</translation>
    </message>
    <message>
        <source>Colours span ±%1 (red negative, blue positive).</source>
        <translation>Farben reichen über ±%1 (rot negativ, blau positiv).</translation>
    </message>
    <message>
        <source>Clipped at the %1th percentile of |advantage| over the shown methods&apos; non-zero turns, so that a few outliers do not wash out the rest; the largest |advantage| is %2.</source>
        <translation>Beim %1. Perzentil von |Vorteil| über die Züge ungleich null der gezeigten Methoden gekappt, damit wenige Ausreißer den Rest nicht verblassen lassen; der größte |Vorteil| ist %2.</translation>
    </message>
    <message>
        <source>clipped</source>
        <translation>gekappt</translation>
    </message>
</context>
<context>
    <name>creditlab::ui::heatmap::HeatmapLegend</name>
    <message>
        <source>The strip at each row&apos;s start is the trajectory&apos;s outcome. Cells where the first two shown methods give opposite signs are outlined and struck through.</source>
        <translation>Der Streifen am Anfang jeder Zeile ist das Ergebnis der Trajektorie. Zellen, in denen die ersten beiden gezeigten Methoden entgegengesetzte Vorzeichen haben, sind umrandet und durchgestrichen.</translation>
    </message>
    <message>
        <source>success</source>
        <translation>Erfolg</translation>
    </message>
    <message>
        <source>failure</source>
        <translation>Misserfolg</translation>
    </message>
    <message>
        <source>signs disagree (%1 vs %2)</source>
        <translation>Vorzeichen abweichend (%1 gegen %2)</translation>
    </message>
    <message>
        <source>no credit</source>
        <translation>kein Credit</translation>
    </message>
</context>
<context>
    <name>creditlab::ui::treeview::RolloutTreeView</name>
    <message>
        <source>No rollout tree to show</source>
        <translation>Kein Rollout-Baum anzuzeigen</translation>
    </message>
    <message numerus="yes">
        <source>End of %n rollout(s), mean outcome %1</source>
        <translation>
            <numerusform>Ende von %n Rollout, mittleres Ergebnis %1</numerusform>
            <numerusform>Ende von %n Rollouts, mittleres Ergebnis %1</numerusform>
        </translation>
    </message>
    <message>
        <source>State %1
visits %2, V %3, V&apos; %4, success %5%
rollouts through it: %6</source>
        <translation>Zustand %1
Besuche %2, V %3, V&apos; %4, Erfolg %5 %
Rollouts hindurch: %6</translation>
    </message>
    <message>
        <source>anchor state (repeats in the group)</source>
        <translation>Ankerzustand (wiederholt sich in der Gruppe)</translation>
    </message>
    <message>
        <source>mean advantage (%1): %2</source>
        <translation>mittlerer Vorteil (%1): %2</translation>
    </message>
    <message numerus="yes">
        <source>%n node(s) collapsed below</source>
        <translation>
            <numerusform>%n Knoten darunter eingeklappt</numerusform>
            <numerusform>%n Knoten darunter eingeklappt</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Action %1
Q %2, N(s,a) %3, taken %n time(s)%4</source>
        <translation>
            <numerusform>Aktion %1
Q %2, N(s,a) %3, %n-mal gewählt%4</numerusform>
            <numerusform>Aktion %1
Q %2, N(s,a) %3, %n-mal gewählt%4</numerusform>
        </translation>
    </message>
    <message>
        <source> (re-convergence)</source>
        <translation> (Rekonvergenz)</translation>
    </message>
    <message>
        <source>Value V (RTMC)</source>
        <translation>Wert V (RTMC)</translation>
    </message>
    <message>
        <source>Success rate below</source>
        <translation>Erfolgsrate darunter</translation>
    </message>
    <message>
        <source>Mean advantage</source>
        <translation>Mittlerer Vorteil</translation>
    </message>
    <message>
        <source>Mean advantage (%1)</source>
        <translation>Mittlerer Vorteil (%1)</translation>
    </message>
    <message>
        <source>turn %1 of %2</source>
        <translation>Zug %1 von %2</translation>
    </message>
    <message>
        <source>after %1</source>
        <translation>nach %1</translation>
    </message>
    <message>
        <source>first reached at %1</source>
        <translation>zuerst erreicht bei %1</translation>
    </message>
    <message>
        <source>first taken at %1</source>
        <translation>zuerst gewählt bei %1</translation>
    </message>
    <message>
        <source>black outline: anchor (state recurs)</source>
        <translation>schwarzer Rand: Anker (Zustand kehrt wieder)</translation>
    </message>
    <message>
        <source>hollow: singleton (one rollout)</source>
        <translation>hohl: Einzelzustand (ein Rollout)</translation>
    </message>
    <message>
        <source>square: terminal (rollout ended)</source>
        <translation>Quadrat: Endzustand (Rollout beendet)</translation>
    </message>
    <message>
        <source>size: visits N(s)</source>
        <translation>Größe: Besuche N(s)</translation>
    </message>
    <message>
        <source>dashed edge: re-convergence</source>
        <translation>gestrichelte Kante: Rekonvergenz</translation>
    </message>
    <message>
        <source>orange outline: followed rollout</source>
        <translation>oranger Rand: verfolgter Rollout</translation>
    </message>
    <message>
        <source>orange ring: selected</source>
        <translation>oranger Ring: ausgewählt</translation>
    </message>
    <message>
        <source>magenta ring: search match</source>
        <translation>magenta Ring: Suchtreffer</translation>
    </message>
    <message>
        <source>+N: nodes collapsed below</source>
        <translation>+N: Knoten darunter eingeklappt</translation>
    </message>
    <message>
        <source> (state unchanged)</source>
        <translation> (Zustand unverändert)</translation>
    </message>
    <message>
        <source>loop: action left the state unchanged</source>
        <translation>Schleife: die Aktion ließ den Zustand unverändert</translation>
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
