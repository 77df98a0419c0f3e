#!/usr/bin/env python3
"""Renders Jinja templates with jinja2 configured exactly as transformers configures it for chat templates
(transformers utils/chat_template_utils.py, _compile_jinja_template): ImmutableSandboxedEnvironment(trim_blocks=True,
lstrip_blocks=True, extensions=[AssistantTracker, loopcontrols]), `tojson` as json.dumps(ensure_ascii=False, ...),
globals raise_exception and strftime_now.

stdin: a JSON array of {"template": str, "context": object, "now": epoch seconds (optional)}.
stdout: a JSON array, one per case: the rendered string, or {"error": "Type: message"}.
"""
import json
import sys
from datetime import datetime

import jinja2
from jinja2 import nodes
from jinja2.ext import Extension
from jinja2.sandbox import ImmutableSandboxedEnvironment


class AssistantTracker(Extension):
    # transformers' {% generation %} ... {% endgeneration %}: the body, rendered in a call block.
    tags = {"generation"}

    def parse(self, parser):
        lineno = next(parser.stream).lineno
        body = parser.parse_statements(["name:endgeneration"], drop_needle=True)
        return nodes.CallBlock(self.call_method("_generation_support"), [], [], body).set_lineno(lineno)

    @jinja2.pass_eval_context
    def _generation_support(self, context, caller):
        return caller()


def main():
    cases = json.load(sys.stdin)
    now = [0.0]

    def raise_exception(message):
        raise jinja2.exceptions.TemplateError(message)

    def tojson(x, ensure_ascii=False, indent=None, separators=None, sort_keys=False):
        return json.dumps(x, ensure_ascii=ensure_ascii, indent=indent, separators=separators, sort_keys=sort_keys)

    def strftime_now(format):
        return datetime.fromtimestamp(now[0]).strftime(format)

    env = ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True,
                                        extensions=[AssistantTracker, jinja2.ext.loopcontrols])
    env.filters["tojson"] = tojson
    env.globals["raise_exception"] = raise_exception
    env.globals["strftime_now"] = strftime_now
    out = []
    for case in cases:
        now[0] = case.get("now", 0)
        try:
            out.append(env.from_string(case["template"]).render(**case.get("context", {})))
        except Exception as e:  # every failure is an answer: the engine must fail too
            out.append({"error": f"{type(e).__name__}: {e}"})
    json.dump(out, sys.stdout, ensure_ascii=False)


if __name__ == "__main__":
    main()
