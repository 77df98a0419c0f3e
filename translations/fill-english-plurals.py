#!/usr/bin/env python3
"""Fills the empty plural forms of translations/creditlab_en.ts from each message's source text.

English needs only its plural forms: "%n trial(s)" becomes "%n trial" and "%n trials", "%n match(es)" "%n match" and
"%n matches"; a source already in the plural ("%n ranks") gets its singular from the table below. Messages that
already have forms are left as they are, so a hand-written form survives a refresh. Usage, from the repository root:

    /usr/lib/qt6/bin/lupdate -project build/release/ui/.lupdate/creditlab_ui_project.json -pluralonly \
        -no-obsolete -locations none -target-language en -ts translations/creditlab_en.ts
    translations/fill-english-plurals.py translations/creditlab_en.ts
"""
import re
import sys

# Plural nouns written after %n in source texts, and their singulars.
SINGULAR = {
    "files": "file",
    "ranks": "rank",
    "processes": "process",
    "turns": "turn",
    "seeds": "seed",
    "earlier runs": "earlier run",
    "trajectories": "trajectory",
}


def forms(source):
    # A plural mark follows a lower-case word ("trial(s)"); N(s) and N(s,a) are visit counts, not plurals.
    one = re.sub(r"(?<=[a-z])\((s|es)\)", "", source)
    for plural, singular in SINGULAR.items():
        one = re.sub(r"(%L?n) " + plural + r"\b", lambda m: m.group(1) + " " + singular, one)
    many = re.sub(r"(?<=[a-z])\((s|es)\)", lambda m: m.group(1), source)
    return one, many


def fill(match):
    source = match.group(1)
    one, many = forms(source)
    return (f"<source>{source}</source>\n        <translation>\n"
            f"            <numerusform>{one}</numerusform>\n"
            f"            <numerusform>{many}</numerusform>\n        </translation>")


def main():
    path = sys.argv[1]
    with open(path, encoding="utf-8") as f:
        text = f.read()
    empty = (r"<source>([^<]*)</source>\s*<translation type=\"unfinished\">\s*"
             r"<numerusform></numerusform>\s*<numerusform></numerusform>\s*</translation>")
    text, count = re.subn(empty, fill, text, flags=re.S)
    if "type=\"unfinished\"" in text:
        sys.exit(f"{path}: a message is unfinished but not empty: fill it by hand")
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    print(f"{path}: filled {count} messages")


if __name__ == "__main__":
    main()
