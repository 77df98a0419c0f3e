#!/usr/bin/env bash
# tst_sql_bound (issue 22 §8): all SQL takes its values as bound parameters. Values reach SQL text only through
# std::to_string, a format call, QString::arg or a stream; so no line that holds SQL (a statement keyword in a
# string literal) may use one, and no prepare()/exec() may take a string built with them on the lines before.
# A grep, not a parser: it reports the line for a person to judge, and tst_security's hostile-text round trip
# checks the behaviour. Usage: check_sql.sh SOURCE_ROOT
set -u
root=$1
cd "$root"
hits=$(grep -rnE --include='*.cpp' --include='*.h' '"[^"]*\b(SELECT|INSERT|UPDATE|DELETE|REPLACE|WHERE|VALUES)\b' \
    core ui app | grep -E 'to_string\(|format\(|\.arg\(|<<|std::stoi|snprintf' || true)
# Statements handed a variable: the variable must not be assembled with the same helpers within 12 lines before.
while IFS=: read -r file line _; do
    from=$(( line > 12 ? line - 12 : 1 ))
    if sed -n "${from},${line}p" "$file" | grep -qE 'sql.*(to_string\(|format\(|\.arg\(|<<)'; then
        hits+=$'\n'"$file:$line: SQL assembled with a value helper before prepare()/exec()"
    fi
done < <(grep -rnE --include='*.cpp' '(prepare|exec|scalarInt)\((sql|text|query)\b' core ui app || true)
if [ -n "$(echo "$hits" | tr -d '[:space:]')" ]; then
    echo "SQL built with values (bind them instead):"
    echo "$hits"
    exit 1
fi
echo "ok: no SQL text is built with values"
