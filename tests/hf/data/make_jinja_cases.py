#!/usr/bin/env python3
"""Writes jinja_cases.json: small (template, context) cases, one or more per feature of the Jinja subset that
tests/hf/tst_hf_jinja.cpp renders with our engine and with python3-jinja2 (tests/hf/oracles/render_jinja.py) and
requires byte-equal (or both failing). Run from this folder: ./make_jinja_cases.py > jinja_cases.json"""
import json

C = []


def case(name, template, context=None, now=None):
    c = {"name": name, "template": template, "context": context or {}}
    if now is not None:
        c["now"] = now
    C.append(c)


msgs = [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Hi"},
        {"role": "assistant", "content": "Hello!"}]

# Syntax and whitespace
case("data only", "plain text\nline 2\n")
case("trailing newline dropped once", "a\n\n")
case("crlf normalised", "a\r\nb\rc")
case("print", "{{ 'x' }}{{ 1 }}{{ 1.5 }}{{ true }}{{ none }}{{ False }}")
case("comment", "a{# comment #}b\n{# own line #}\nc")
case("comment minus", "a  {#- c -#}  b")
case("whitespace minus", "a  {{- 'x' -}}  b\n  {%- if true -%}\n  c  {%- endif %}")
case("trim blocks", "{% if true %}\nyes\n{% endif %}\nafter")
case("lstrip blocks", "  {% if true %}\n    x\n  {% endif %}\n")
case("lstrip not for print", "  {{ 'x' }}\n  {% if true %}y{% endif %}")
case("plus disables lstrip", "  {%+ if true %}x{% endif %}")
case("plus disables trim", "{% if true +%}\nx{% endif %}")
case("lstrip after text on line", "a  {% if true %}b{% endif %}")
case("raw", "{% raw %}{{ not evaluated }}{% endraw %}")
case("raw lines", "  {% raw %}\n{% x %}\n  {% endraw %}\nz")
case("raw minus", "a {%- raw -%}  b  {%- endraw -%} c")
case("tabs lstrip", "\t{% if true %}x{% endif %}")
case("nested blocks", "{% for i in [1,2] %}\n  {% if i > 1 %}\n    {{ i }}\n  {% endif %}\n{% endfor %}\n")
case("multiline tag", "{{\n  'a'\n  ~ 'b'\n}}")
case("braces in expr", "{{ {'a': {'b': 1}} }}")
# Literals
case("string escapes", r"""{{ 'a\nb\tc\\d\'e' }}|{{ "q\"q" }}|{{ '\x41\u00e9\U0001F600' }}|{{ '\d' }}""")
case("adjacent strings", "{{ 'a' 'b' \"c\" }}")
case("numbers", "{{ 1_000 }} {{ 1e3 }} {{ 2.5E-3 }} {{ 0.1 }} {{ 1e16 }} {{ 1e-7 }} {{ 123456789.125 }} {{ 1e22 }}")
case("lists dicts tuples", "{{ [1, 'a', [2]] }} {{ {'k': 'v', 1: none} }} {{ (1, 2) }} {{ (1,) }} {{ () }} {{ [] }} {{ {} }}")
case("print tuple", "{{ 1, 2 }}")
case("repr strings", """{{ ["it's", 'say "hi"', 'both \\' "', 'nl\\n', 'é', '\\x00\\x7f', '\\u00a0\\u200b'] }}""")
case("bools and none names", "{{ True }} {{ false }} {{ None }} {{ [true, none] }}")
case("float repr", "{{ [1.0, 0.5, 100.0, 1e15, 1e16, 1.5e-5, 0.0001, 3.14159, -0.0, 2.0**0.5] }}")
# Variables, attributes, items
case("attr and item", "{{ m.role }} {{ m['content'] }} {{ l[0] }} {{ l[-1] }} {{ l.1 }}",
     {"m": {"role": "user", "content": "hi"}, "l": [1, 2, 3]})
case("missing attr prints empty", "[{{ m.nothing }}][{{ l[10] }}][{{ none.x }}][{{ 'abc'.nothing }}]",
     {"m": {}, "l": []})
case("undefined prints empty", "[{{ nope }}]")
case("undefined attr errors", "{{ nope.attr }}")
case("undefined item errors", "{{ nope['x'] }}")
case("dict method shadows key", "{{ d.items is defined }} {{ d['items'] }}", {"d": {"items": 5}})
case("slices", "{{ l[1:] }} {{ l[:-1] }} {{ l[::-1] }} {{ l[::2] }} {{ l[-2:] }} {{ l[1:3] }} {{ s[1:4] }} {{ s[::-1] }} {{ l[5:] }}",
     {"l": [1, 2, 3, 4, 5], "s": "héllo wörld"})
case("slice step zero errors", "{{ [1][::0] }}")
case("string index", "{{ s[0] }}{{ s[-1] }}{{ s|length }}", {"s": "日本語"})
# Operators
case("arithmetic", "{{ 1 + 2 }} {{ 7 - 10 }} {{ 3 * 4 }} {{ 7 / 2 }} {{ 6 / 3 }} {{ 7 // 2 }} {{ -7 // 2 }} {{ 7 % 3 }} {{ -7 % 3 }} {{ 2 ** 10 }} {{ 2 ** -1 }}")
case("float arithmetic", "{{ 0.1 + 0.2 }} {{ 1.5 * 2 }} {{ 7.5 // 2 }} {{ -7.5 % 2 }} {{ 1 + true }} {{ 2 ** 3 ** 2 }} {{ -2 ** 2 }}")
case("string and list ops", "{{ 'ab' + 'cd' }} {{ 'ab' * 3 }} {{ 3 * 'x' }} {{ [1] + [2] }} {{ [0] * 3 }} {{ 'a' ~ 1 ~ none ~ true }}")
case("concat undefined", "[{{ 'a' ~ nope ~ 'b' }}]")
case("add undefined errors", "{{ 'a' + nope }}")
case("add mismatched errors", "{{ 'a' + 1 }}")
case("division by zero errors", "{{ 1 / 0 }}")
case("comparisons", "{{ 1 < 2 }} {{ 2 <= 2 }} {{ 'a' < 'b' }} {{ 1 == 1.0 }} {{ 1 != 2 }} {{ [1,2] == [1,2] }} {{ 1 < 2 < 3 }} {{ 3 > 2 > 2 }} {{ {'a':1} == {'a':1} }}")
case("compare mismatched errors", "{{ 1 < 'a' }}")
case("in", "{{ 'a' in 'cat' }} {{ 2 in [1,2] }} {{ 'k' in d }} {{ 'z' not in d }} {{ 3 not in [1] }} {{ 'x' in nope }}",
     {"d": {"k": 1}})
case("logic values", "{{ 0 or 'x' }}|{{ 'a' and 'b' }}|{{ '' and 'b' }}|{{ none or [] }}|{{ not 0 }}|{{ not [1] }}|{{ nope or 'd' }}")
case("short circuit", "{{ true or nope.attr }} {{ false and nope.attr }}")
case("ternary", "{{ 'y' if 1 else 'n' }} {{ 'y' if 0 else 'n' }} [{{ 'y' if 0 }}] {{ 'a' if false else 'b' if true else 'c' }}")
case("unary", "{{ -1 }} {{ +1 }} {{ -(3) }} {{ - -2 }} {{ -x }}", {"x": 2.5})
case("precedence", "{{ 1 + 2 * 3 }} {{ (1 + 2) * 3 }} {{ 2 * 3 ~ 4 }} {{ 1 + 1 == 2 and not false }} {{ -1|abs }}")
# Statements
case("if elif else", "{% for x in [1, 2, 3, 4] %}{% if x == 1 %}one{% elif x == 2 %}two{% elif x == 3 %}three{% else %}many{% endif %} {% endfor %}")
case("for loop vars", "{% for x in 'abc' %}{{ loop.index }}{{ loop.index0 }}{{ loop.revindex }}{{ loop.revindex0 }}{{ loop.first }}{{ loop.last }}{{ loop.length }};{% endfor %}")
case("prev next item", "{% for x in [1,2,3] %}({{ loop.previtem }},{{ loop.nextitem }}){% endfor %}")
case("loop cycle", "{% for x in range(5) %}{{ loop.cycle('a', 'b') }}{% endfor %}")
case("for else", "{% for x in [] %}x{% else %}empty{% endfor %}|{% for x in [1] %}x{% else %}empty{% endfor %}")
case("for if filter", "{% for x in range(10) if x is odd %}{{ x }}{{ loop.length }},{% endfor %}")
case("for unpack", "{% for k, v in d.items() %}{{ k }}={{ v }};{% endfor %}{% for a, b in [[1, 2], (3, 4)] %}{{ a + b }}{% endfor %}",
     {"d": {"z": 1, "a": 2}})
case("for over dict", "{% for k in d %}{{ k }}{% endfor %}", {"d": {"b": 1, "a": 2}})
case("for over undefined", "[{% for x in nope %}x{% endfor %}]")
case("for over none errors", "{% for x in none %}x{% endfor %}")
case("unpack mismatch errors", "{% for a, b in [[1, 2, 3]] %}{% endfor %}")
case("break continue", "{% for x in range(10) %}{% if x == 2 %}{% continue %}{% endif %}{% if x == 5 %}{% break %}{% endif %}{{ x }}{% endfor %}")
case("nested loops", "{% for a in [1,2] %}{% for b in [1,2] %}{{ loop.index }}{{ a }}{{ b }} {% endfor %}{{ loop.index }}|{% endfor %}")
case("set", "{% set x = 1 %}{% set y, z = 2, 3 %}{{ x + y + z }}")
case("set scope in loop", "{% set x = 0 %}{% for i in [1,2,3] %}{{ x }}{% set x = i %}{{ x }};{% endfor %}{{ x }}")
case("set in if leaks", "{% if true %}{% set x = 5 %}{% endif %}{{ x }}")
case("namespace", "{% set ns = namespace(n=0, items=[]) %}{% for i in [1,2,3] %}{% set ns.n = ns.n + i %}{% endfor %}{{ ns.n }} {{ ns.items }}")
case("namespace from dict", "{% set ns = namespace({'a': 1}, b=2) %}{{ ns.a }}{{ ns.b }}{{ ns.c }}")
case("set attr non namespace errors", "{% set d = {} %}{% set d.x = 1 %}")
case("block set", "{% set x %}  hello {{ 'w' }}\n{% endset %}[{{ x }}]")
case("block set filter", "{% set x | upper | trim %}  hello  {% endset %}[{{ x }}]")
case("macro", "{% macro greet(name, greeting='Hello') %}{{ greeting }}, {{ name }}!{% endmacro %}{{ greet('Ann') }} {{ greet('Bob', greeting='Hi') }} {{ greet(greeting='Yo', name='C') }}")
case("macro sees globals", "{% macro m() %}{{ z }}{% endmacro %}{% set z = 1 %}{{ m() }}{% set z = 2 %}{{ m() }}")
case("macro varargs", "{% macro m(a) %}{{ a }}{{ varargs }}{{ kwargs }}{% endmacro %}{{ m(1, 2, 3, k=4) }}")
case("macro missing arg", "{% macro m(a, b) %}[{{ a }}][{{ b }}]{% endmacro %}{{ m(1) }}")
case("macro recursion", "{% macro f(n) %}{% if n > 0 %}{{ n }}{{ f(n - 1) }}{% endif %}{% endmacro %}{{ f(5) }}")
case("macro render value", "{% macro render(v) %}{% if v is mapping %}{% for k, x in v.items() %}{{ k }}:{{ render(x) }};{% endfor %}{% elif v is sequence and v is not string %}[{% for x in v %}{{ render(x) }}{% endfor %}]{% else %}{{ v }}{% endif %}{% endmacro %}{{ render(d) }}",
     {"d": {"a": [1, 2], "b": {"c": "x"}}})
case("call block", "{% macro wrap() %}<{{ caller() }}>{% endmacro %}{% call wrap() %}inner{% endcall %}")
case("call block args", "{% macro each(xs) %}{% for x in xs %}{{ caller(x) }}{% endfor %}{% endmacro %}{% call(item) each([1,2]) %}[{{ item }}]{% endcall %}")
case("filter block", "{% filter upper %}hello {{ 'x' }}{% endfilter %}")
case("with", "{% with a = 1, b = 2 %}{{ a + b }}{% endwith %}[{{ a }}]")
case("generation", "{% for m in messages %}{% if m.role == 'assistant' %}{% generation %}{{ m.content }}{% endgeneration %}{% else %}{{ m.content }}{% endif %}|{% endfor %}",
     {"messages": msgs})
case("unknown tag errors", "{% frobnicate %}")
case("unclosed if errors", "{% if true %}x")
case("unknown filter errors", "{{ x|frobnicate }}")
case("break outside loop errors", "{% break %}")
# Tests
case("tests defined", "{{ x is defined }} {{ nope is defined }} {{ nope is undefined }} {{ x is not none }} {{ n is none }}",
     {"x": 1, "n": None})
case("tests types", "{% for v in [1, 1.5, 'a', [1], {'a': 1}, true, none] %}{{ v is string }}{{ v is number }}{{ v is integer }}{{ v is float }}{{ v is boolean }}{{ v is mapping }}{{ v is iterable }}{{ v is sequence }};{% endfor %}")
case("tests values", "{{ 3 is odd }} {{ 4 is even }} {{ 9 is divisibleby 3 }} {{ 9 is divisibleby(4) }} {{ true is true }} {{ 1 is true }} {{ false is false }}")
case("tests compare", "{{ 1 is eq 1 }} {{ 1 is equalto 2 }} {{ 1 is ne 2 }} {{ 1 is lt 2 }} {{ 2 is gt 1 }} {{ 2 is ge 2 }} {{ 1 is le 0 }} {{ 1 is in [1] }}")
case("tests callable", "{{ range is callable }} {{ 1 is callable }} {{ none is sameas none }} {{ 'upper' is filter }} {{ 'odd' is test }}")
case("unknown test errors", "{{ 1 is frobnicated }}")
# Filters
case("default", "{{ nope|default('d') }} {{ ''|default('d') }} {{ ''|default('d', true) }} {{ none|d('n') }} {{ 0|d(1, boolean=true) }} [{{ nope|default }}]")
case("trim", "[{{ '  a b  '|trim }}] [{{ 'xxaxx'|trim('x') }}] [{{ '\n\ta\u3000'|trim }}]")
case("tojson", "{{ d|tojson }}", {"d": {"a": [1, 2.5, None, True, "é\n\"\\"], "b": {}, "c": [], "u": "\u0001\u007f"}})
case("tojson indent", "{{ d|tojson(indent=2) }}|{{ d|tojson(indent='\t') }}|{{ [1]|tojson(indent=0) }}",
     {"d": {"a": [1, {"b": 2}], "c": {}}})
case("tojson options", "{{ d|tojson(separators=(',', ':')) }} {{ d|tojson(sort_keys=true) }} {{ 'é'|tojson(ensure_ascii=true) }} {{ d|tojson(ensure_ascii=false) }}",
     {"d": {"z": 1, "a": "é😀"}})
case("tojson floats", "{{ [1.0, 1e16, 0.1, 1e-7, 123.456]|tojson }}")
case("tojson undefined errors", "{{ nope|tojson }}")
case("tojson tuple", "{{ (1, 'a')|tojson }}")
case("length", "{{ 'héllo'|length }} {{ [1,2]|length }} {{ {'a':1}|count }} {{ nope|length }}")
case("case filters", "{{ 'hello WORLD'|upper }} {{ 'HeLLo'|lower }} {{ 'hello world-foo (bar)'|title }} {{ 'hELLO wORLD'|capitalize }} {{ 'éa'|upper }}")
case("replace", "{{ 'aaa'|replace('a', 'b') }} {{ 'aaa'|replace('a', 'b', 2) }} {{ 'abc'|replace('', '-') }}")
case("first last", "{{ [1,2,3]|first }} {{ [1,2,3]|last }} {{ 'abc'|first }} {{ 'abc'|last }} [{{ []|first }}] {{ {'a':1,'b':2}|first }}")
case("join", "{{ [1, 'a', none, [2]]|join(', ') }} {{ 'abc'|join('-') }} {{ users|join(', ', attribute='name') }} {{ [nope, 1]|join }}",
     {"users": [{"name": "a"}, {"name": "b"}]})
case("list string", "{{ 'ab'|list }} {{ {'a':1}|list }} {{ [1,2]|string }} {{ 1|string ~ 'x' }} {{ nope|list }}")
case("int float", "{{ '42'|int }} {{ '4.7'|int }} {{ 'x'|int }} {{ 'x'|int(7) }} {{ 3.9|int }} {{ ' 12 '|int }} {{ '0x1A'|int(base=16) }} {{ true|int }} {{ '2.5'|float }} {{ 'x'|float }} {{ 3|float }} {{ '1e3'|float }}")
case("abs round", "{{ -3|abs }} {{ -2.5|abs }} {{ 2.5|round }} {{ 3.5|round }} {{ 2.675|round(2) }} {{ 2.1|round(0, 'ceil') }} {{ 2.9|round(method='floor') }} {{ 7|round }} {{ 1234.5678|round(1) }}")
case("items filter", "{% for k, v in d|items %}{{ k }}{{ v }}{% endfor %}{{ nope|items|list }}", {"d": {"a": 1, "b": 2}})
case("map", "{{ users|map(attribute='name')|join(',') }} {{ [1, 2]|map('string')|list }} {{ ['a', 'b']|map('upper')|list }} {{ users|map(attribute='age', default=0)|list }} {{ users|map(attribute='n.0')|list }}",
     {"users": [{"name": "x", "n": [1]}, {"name": "y", "age": 3, "n": [2]}]})
case("select reject", "{{ range(10)|select('odd')|list }} {{ range(10)|reject('even')|list }} {{ [0, 1, '', 'a']|select|list }} {{ [1,2,3]|select('gt', 1)|list }} {{ ['a', 'b']|select('in', ['a'])|list }}")
case("selectattr", "{{ ms|selectattr('role', 'equalto', 'user')|map(attribute='content')|list }} {{ ms|rejectattr('role', 'eq', 'user')|list|length }} {{ ms|selectattr('tool')|list|length }} {{ ms|selectattr('tool', 'defined')|list|length }}",
     {"ms": [{"role": "user", "content": "a"}, {"role": "assistant", "content": "b", "tool": 1}]})
case("unique sort", "{{ ['b', 'A', 'a', 'B']|unique|list }} {{ [3, 1, 2]|sort }} {{ ['b', 'A', 'c']|sort }} {{ ['b', 'A', 'c']|sort(case_sensitive=true) }} {{ [1, 3, 2]|sort(reverse=true) }} {{ us|sort(attribute='age')|map(attribute='n')|join }}",
     {"us": [{"n": "a", "age": 3}, {"n": "b", "age": 1}, {"n": "c", "age": 2}]})
case("dictsort", "{{ {'b': 1, 'A': 2, 'c': 0}|dictsort }} {{ {'b': 1, 'a': 2}|dictsort(by='value') }} {{ {'b': 1, 'a': 2}|dictsort(reverse=true) }}")
case("reverse", "{{ 'abc'|reverse }} {{ [1,2,3]|reverse|list }} {{ 'héllo'|reverse }}")
case("indent", "[{{ 'a\nb\n\nc'|indent }}] [{{ 'a\nb'|indent(2, true) }}] [{{ 'a\n\nb'|indent(2, blank=true) }}] [{{ 'a\nb'|indent('> ') }}] [{{ ''|indent(first=true) }}]")
case("safe escape", "{{ '<a href=\"x\">&\\'</a>'|e }} {{ '<b>'|escape }} {{ '<b>'|safe }} {{ ('<b>'|e)|e }} {{ '<i>'|forceescape }}")
case("wordcount", "{{ 'Hello world, this is a_test 123!'|wordcount }} {{ ''|wordcount }} {{ 'héllo wörld'|wordcount }}")
case("batch", "{{ [1,2,3,4,5]|batch(2)|list }} {{ [1,2,3]|batch(2, 'x')|list }}")
case("sum min max", "{{ [1,2,3]|sum }} {{ [1.5, 2]|sum }} {{ us|sum(attribute='a') }} {{ [3,1,2]|min }} {{ [3,1,2]|max }} {{ ['b','A']|min }} {{ ['b','A']|max }}",
     {"us": [{"a": 1}, {"a": 2}]})
case("center attr", "[{{ 'x'|center(5) }}] [{{ 'ab'|center(5) }}] {{ d|attr('k') }}", {"d": {"k": 1}})
case("filter chain", "{{ '  Hello  '|trim|lower|replace('h', 'j')|upper }}")
# Methods
case("str strip", "[{{ '  a  '.strip() }}][{{ 'xxaxx'.strip('x') }}][{{ '\n\na\n'.lstrip('\n') }}][{{ 'a  '.rstrip() }}][{{ '<think>x'.lstrip('<think>') }}]")
case("str split", "{{ 'a,b,,c'.split(',') }} {{ ' a  b '.split() }} {{ 'a,b,c'.split(',', 1) }} {{ 'a,b,c'.rsplit(',', 1) }} {{ ' a b c '.rsplit(None, 1) }} {{ 'x</think>y</think>z'.split('</think>')[-1] }}")
case("str startswith", "{{ 'hello'.startswith('he') }} {{ 'hello'.endswith('lo') }} {{ 'hello'.startswith(('x', 'h')) }} {{ 'hello'.endswith(('x',)) }}")
case("str replace find count", "{{ 'aaa'.replace('a', 'b', 1) }} {{ 'héllo'.find('l') }} {{ 'hello'.find('z') }} {{ 'hello'.rfind('l') }} {{ 'banana'.count('an') }} {{ 'a-b'.index('-') }}")
case("str case methods", "{{ 'hello world'.title() }} {{ 'HELLO'.lower() }} {{ 'hi'.upper() }} {{ 'hELLO'.capitalize() }} {{ 'they\\'re'.title() }} {{ 'aB'.swapcase() }}")
case("str join format", "{{ ', '.join(['a', 'b']) }} {{ '{} and {}'.format(1, 'x') }} {{ '{0}{1}{0}'.format('a', 'b') }} {{ '{name}!'.format(name='N') }}")
case("str is methods", "{{ '123'.isdigit() }} {{ 'abc'.isalpha() }} {{ 'a1'.isalnum() }} {{ '  '.isspace() }} {{ 'AB'.isupper() }} {{ 'ab'.islower() }} {{ ''.isdigit() }}")
case("str misc methods", "[{{ 'ab'.center(6, '*') }}][{{ 'ab'.ljust(4) }}][{{ 'ab'.rjust(4, '0') }}] {{ 'a\nb'.splitlines() }} {{ 'prefix_x'.removeprefix('prefix_') }}")
case("dict methods", "{{ d.keys()|list }} {{ d.values()|list }} {{ d.items()|list }} {{ d.get('a') }} {{ d.get('z') }} {{ d.get('z', 0) }}",
     {"d": {"a": 1, "b": 2}})
case("list methods", "{{ l.index(2) }} {{ l.count(1) }}", {"l": [1, 2, 1]})
case("list append errors", "{{ l.append(1) }}", {"l": [1]})
case("dict update errors", "{{ d.update({'a': 1}) }}", {"d": {}})
case("dict pop errors", "{% set x = d.pop('a') %}", {"d": {"a": 1}})
case("unsafe attr prints empty", "[{{ l.append }}]", {"l": [1]})
# Globals
case("range", "{{ range(3)|list }} {{ range(1, 4)|list }} {{ range(10, 0, -3)|list }} {{ range(0)|list }}")
case("range too big errors", "{{ range(100001)|length }}")
case("dict global", "{{ dict(a=1, b='x') }}")
case("raise_exception", "{% if true %}{{ raise_exception('Only user and assistant roles are supported!') }}{% endif %}")
case("strftime_now", "{{ strftime_now('%Y-%m-%d %H:%M') }}|{{ strftime_now('%d %b %Y') }}", None, now=1767225600)
case("call non callable errors", "{{ 'x'() }}")
case("call undefined errors", "{{ nope() }}")
# Real-template idioms
case("messages loop", "{% for m in messages %}<|{{ m.role }}|>{{ m.content }}{% if not loop.last %}\n{% endif %}{% endfor %}{% if add_generation_prompt %}<|assistant|>{% endif %}",
     {"messages": msgs, "add_generation_prompt": True})
case("system extraction", "{% if messages[0]['role'] == 'system' %}{% set system = messages[0]['content'] %}{% set rest = messages[1:] %}{% else %}{% set system = '' %}{% set rest = messages %}{% endif %}[{{ system }}]{{ rest|length }}",
     {"messages": msgs})
case("content string or list", "{% for m in ms %}{% if m.content is string %}{{ m.content }}{% else %}{% for c in m.content %}{% if c.type == 'text' %}{{ c.text }}{% endif %}{% endfor %}{% endif %};{% endfor %}",
     {"ms": [{"content": "a"}, {"content": [{"type": "text", "text": "b"}, {"type": "image"}]}]})
case("tool call json", "{% for tc in calls %}{\"name\": \"{{ tc.function.name }}\", \"arguments\": {{ tc.function.arguments|tojson }}}{% endfor %}",
     {"calls": [{"function": {"name": "get_weather", "arguments": {"city": "Paris", "unit": "c"}}}]})
case("bos eos", "{{ bos_token }}x{{ eos_token }}", {"bos_token": "<s>", "eos_token": "</s>"})
case("print dict and list", "{{ m }} {{ [m] }}", {"m": {"role": "user", "content": "it's", "n": 1.0, "t": True}})
case("loop over messages reversed", "{% for m in messages[::-1] %}{{ loop.index0 }}{{ m.role[0] }}{% endfor %}", {"messages": msgs})
case("unicode content", "{{ s }}|{{ s|upper }}|{{ s[:3] }}|{{ s|length }}", {"s": "naïve café 日本 😀"})

# More whitespace control, arithmetic and Unicode corners
case("lstrip with minus and trailing spaces", "  {%- if true %}\n  x\n  {%- endif %}  \n")
case("comment on its own line", "a\n  {# c #}\n  b")
case("tab before block in loop", "{% for x in [1] %}\n\t{{ x }}\n{% endfor %}")
case("mixed plus and minus", "x {%+ if 1 %}y{% endif %}\n  {{ 'z' }}  {% if 1 -%}  q{%- endif %}")
case("raw with minus inside", "{% raw -%}  a  {%- endraw %}")
case("print then block lines", "{{ 'a' }}\n{% if 1 %}\n  b\n{% endif %}")
case("set with minus and blank lines", "{%- set x = 1 -%}\n\n{{ x }}\n\n")
case("leading and trailing blank lines", "\n\n{% if 1 %}a{% endif %}\n\n\n")
case("floor division and modulo corners", "{{ 10 // 3 }} {{ -10 // 3 }} {{ 10 % -3 }} {{ 1.0 // 0.3 }} {{ 5.5 % -2 }} {{ 1e300 * 1e10 }} {{ 3 / 7 }}")
case("tojson nested indent", "{{ [1,[2,'x']]|tojson(indent=3) }} {{ {'a':[]}|tojson(indent=1) }}")
case("upper sharp s", "{{ 'straße'|upper }} {{ 'ǅ'|lower }}")
case("sort does not mutate", "{% set a = [3,1] %}{{ a|sort|first }}{{ a }}")
case("dict literal attribute", "{{ {'a': 1}.a }} {{ {'a':1}['a'] }}")
case("nested loop index", "{% for a in 'ab' %}{% for b in 'cd' %}{{ loop.index }}{{ a }}{% endfor %}{{ loop.index }}{% endfor %}")

print(json.dumps(C, ensure_ascii=False, indent=1))
