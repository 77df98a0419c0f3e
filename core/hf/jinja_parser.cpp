#include "core/hf/jinja_parser.h"

#include "core/hf/jinja_builtins.h"
#include "core/hf/jinja_lexer.h"

#include <initializer_list>

namespace creditlab::hf::jinja {

namespace {

class Parser {
public:
    Parser(std::vector<Token> tokens, int maxDepth)
        : m_tokens(std::move(tokens))
        , m_maxDepth(maxDepth)
    {
    }

    Body parseTemplate()
    {
        Body body = subparse({});
        if (cur().type != Tok::Eof)
            fail("unexpected '" + cur().text + "'");
        return body;
    }

private:
    struct DepthGuard {
        Parser& p;
        explicit DepthGuard(Parser& parser)
            : p(parser)
        {
            if (++p.m_depth > p.m_maxDepth)
                throw JinjaError("depth limit exceeded: the template nests deeper than maxDepth ("
                        + std::to_string(p.m_maxDepth) + ")",
                    p.cur().line);
        }
        ~DepthGuard() { --p.m_depth; }
    };

    const Token& cur() const { return m_tokens[m_pos]; }
    const Token& look() const { return m_tokens[m_pos + 1 < m_tokens.size() ? m_pos + 1 : m_pos]; }
    const Token& next() { return m_tokens[m_pos < m_tokens.size() - 1 ? m_pos++ : m_pos]; }
    bool isOp(std::string_view op) const { return cur().type == Tok::Op && cur().text == op; }
    bool isName(std::string_view name) const { return cur().type == Tok::Name && cur().text == name; }
    bool skipOp(std::string_view op)
    {
        if (!isOp(op))
            return false;
        next();
        return true;
    }
    bool skipName(std::string_view name)
    {
        if (!isName(name))
            return false;
        next();
        return true;
    }

    static std::string describe(const Token& t)
    {
        switch (t.type) {
        case Tok::Eof:
            return "end of template";
        case Tok::VarEnd:
            return "end of print statement";
        case Tok::BlockEnd:
            return "end of statement block";
        case Tok::String:
            return "string";
        case Tok::Int:
        case Tok::Float:
            return t.text;
        default:
            return t.text;
        }
    }

    [[noreturn]] void fail(const std::string& message) const { throw JinjaError(message, cur().line); }

    void expectOp(std::string_view op)
    {
        if (!skipOp(op))
            fail("expected '" + std::string(op) + "', got '" + describe(cur()) + "'");
    }
    std::string expectName()
    {
        if (cur().type != Tok::Name)
            fail("expected a name, got '" + describe(cur()) + "'");
        return next().text;
    }
    void expectBlockEnd()
    {
        if (cur().type != Tok::BlockEnd)
            fail("expected the end of the statement block, got '" + describe(cur()) + "'");
        next();
    }

    ExprPtr make(ExprType type, int line)
    {
        auto e = std::make_unique<Expr>();
        e->type = type;
        e->line = line;
        return e;
    }

    // Statements ------------------------------------------------------------------------------------------------

    // Parses until a block whose first name is one of `ends`; leaves cur() at that name.
    Body subparse(std::initializer_list<std::string_view> ends)
    {
        Body body;
        for (;;) {
            const Token& t = cur();
            if (t.type == Tok::Eof) {
                if (ends.size())
                    fail("unexpected end of template, expected '" + std::string(*ends.begin()) + "'");
                return body;
            }
            if (t.type == Tok::Data) {
                auto s = std::make_unique<Stmt>();
                s->type = StmtType::Output;
                s->line = t.line;
                s->text = t.text;
                body.push_back(std::move(s));
                next();
            } else if (t.type == Tok::VarBegin) {
                next();
                auto s = std::make_unique<Stmt>();
                s->type = StmtType::Print;
                s->line = cur().line;
                s->expr = parseTuple(true, {}, false);
                if (cur().type != Tok::VarEnd)
                    fail("expected the end of the print statement, got '" + describe(cur()) + "'");
                next();
                body.push_back(std::move(s));
            } else if (t.type == Tok::BlockBegin) {
                next();
                for (std::string_view end : ends)
                    if (isName(end))
                        return body;
                body.push_back(parseStatement());
                expectBlockEnd();
            } else {
                fail("unexpected '" + describe(t) + "'");
            }
        }
    }

    // The body after a statement's head, up to one of `ends` (consumed when `drop`).
    Body statements(std::initializer_list<std::string_view> ends, bool drop)
    {
        skipOp(":");
        expectBlockEnd();
        Body body = subparse(ends);
        if (drop)
            next();
        return body;
    }

    StmtPtr parseStatement()
    {
        DepthGuard guard(*this);
        if (cur().type != Tok::Name)
            fail("tag name expected");
        auto s = std::make_unique<Stmt>();
        s->line = cur().line;
        const std::string tag = next().text;
        if (tag == "if") {
            s->type = StmtType::If;
            s->expr = parseTuple(false, {}, false);
            s->body = statements({ "elif", "else", "endif" }, false);
            const std::string which = next().text;
            if (which == "elif") {
                Body elseBody;
                elseBody.push_back(parseElif());
                s->elseBody = std::move(elseBody);
            } else if (which == "else") {
                s->elseBody = statements({ "endif" }, true);
            }
        } else if (tag == "for") {
            s->type = StmtType::For;
            s->target = parseTarget(false);
            if (!skipName("in"))
                fail("expected 'in', got '" + describe(cur()) + "'");
            s->expr = parseTuple(false, { "recursive" }, false);
            if (skipName("if"))
                s->cond = parseExpression(true);
            if (isName("recursive"))
                fail("recursive for loops are not supported");
            ++m_loops;
            s->body = statements({ "endfor", "else" }, false);
            --m_loops;
            if (next().text == "else")
                s->elseBody = statements({ "endfor" }, true);
        } else if (tag == "set") {
            s->target = parseTarget(true);
            if (skipOp("=")) {
                s->type = StmtType::Set;
                s->expr = parseTuple(true, {}, false);
            } else {
                s->type = StmtType::SetBlock;
                if (isOp("|")) {
                    s->cond = parseFilter(nullptr, false);
                }
                s->body = statements({ "endset" }, true);
            }
        } else if (tag == "macro") {
            s->type = StmtType::Macro;
            s->text = expectName();
            parseSignature(*s);
            const int loops = m_loops;
            m_loops = 0;
            s->body = statements({ "endmacro" }, true);
            m_loops = loops;
        } else if (tag == "call") {
            s->type = StmtType::CallBlock;
            if (isOp("("))
                parseSignature(*s);
            s->expr = parseExpression(true);
            if (s->expr->type != ExprType::Call)
                fail("expected call");
            s->body = statements({ "endcall" }, true);
        } else if (tag == "filter") {
            s->type = StmtType::FilterBlock;
            s->expr = parseFilter(nullptr, true);
            s->body = statements({ "endfilter" }, true);
        } else if (tag == "with") {
            s->type = StmtType::Scope;
            while (cur().type != Tok::BlockEnd) {
                if (!s->params.empty())
                    expectOp(",");
                s->params.push_back(expectName());
                expectOp("=");
                s->defaults.push_back(parseExpression(true));
            }
            s->body = statements({ "endwith" }, true);
        } else if (tag == "generation") {
            // transformers' AssistantTracker: a call block whose caller renders the body.
            s->type = StmtType::Scope;
            s->body = statements({ "endgeneration" }, true);
        } else if (tag == "break" || tag == "continue") {
            if (m_loops == 0)
                fail("'" + tag + "' outside of a for loop");
            s->type = tag == "break" ? StmtType::Break : StmtType::Continue;
        } else {
            fail("Encountered unknown tag '" + tag + "'.");
        }
        return s;
    }

    StmtPtr parseElif()
    {
        auto s = std::make_unique<Stmt>();
        s->type = StmtType::If;
        s->line = cur().line;
        s->expr = parseTuple(false, {}, false);
        s->body = statements({ "elif", "else", "endif" }, false);
        const std::string which = next().text;
        if (which == "elif") {
            DepthGuard guard(*this);
            s->elseBody.push_back(parseElif());
        } else if (which == "else") {
            s->elseBody = statements({ "endif" }, true);
        }
        return s;
    }

    Target parseTarget(bool withNamespace)
    {
        Target t;
        if (withNamespace && cur().type == Tok::Name && look().type == Tok::Op && look().text == ".") {
            t.names.push_back(next().text);
            next();
            t.attr = expectName();
            return t;
        }
        for (;;) {
            if (skipOp("(")) {
                fail("nested tuple targets are not supported");
            }
            t.names.push_back(expectName());
            if (!skipOp(","))
                break;
            t.tuple = true;
            if (isName("in") || isOp("=") || cur().type == Tok::BlockEnd)
                break;
        }
        return t;
    }

    void parseSignature(Stmt& s)
    {
        expectOp("(");
        while (!isOp(")")) {
            if (!s.params.empty())
                expectOp(",");
            s.params.push_back(expectName());
            if (skipOp("="))
                s.defaults.push_back(parseExpression(true));
            else if (!s.defaults.empty() && s.defaults.back())
                fail("non-default argument follows default argument");
            else
                s.defaults.push_back(nullptr);
        }
        expectOp(")");
    }

    // Expressions -----------------------------------------------------------------------------------------------

    bool isTupleEnd(std::initializer_list<std::string_view> extraEnds) const
    {
        if (cur().type == Tok::VarEnd || cur().type == Tok::BlockEnd || isOp(")"))
            return true;
        for (std::string_view e : extraEnds)
            if (isName(e))
                return true;
        return false;
    }

    ExprPtr parseTuple(bool withCondExpr, std::initializer_list<std::string_view> extraEnds, bool explicitParens)
    {
        const int line = cur().line;
        std::vector<ExprPtr> items;
        bool isTuple = false;
        for (;;) {
            if (!items.empty())
                expectOp(",");
            if (isTupleEnd(extraEnds))
                break;
            items.push_back(parseExpression(withCondExpr));
            if (isOp(","))
                isTuple = true;
            else
                break;
        }
        if (!isTuple) {
            if (!items.empty())
                return std::move(items[0]);
            if (!explicitParens)
                fail("Expected an expression, got '" + describe(cur()) + "'");
        }
        auto e = make(ExprType::Tuple, line);
        e->kids = std::move(items);
        return e;
    }

    ExprPtr parseExpression(bool withCondExpr) { return withCondExpr ? parseCondExpr() : parseOr(); }

    ExprPtr parseCondExpr()
    {
        DepthGuard guard(*this);
        ExprPtr expr = parseOr();
        while (isName("if")) {
            const int line = next().line;
            auto e = make(ExprType::CondExpr, line);
            ExprPtr cond = parseOr();
            ExprPtr otherwise = skipName("else") ? parseCondExpr() : nullptr;
            e->kids.push_back(std::move(expr));
            e->kids.push_back(std::move(cond));
            e->kids.push_back(std::move(otherwise));
            expr = std::move(e);
        }
        return expr;
    }

    ExprPtr binary(ExprType type, ExprPtr a, ExprPtr b, int line, std::string op = {})
    {
        auto e = make(type, line);
        e->name = std::move(op);
        e->kids.push_back(std::move(a));
        e->kids.push_back(std::move(b));
        return e;
    }

    ExprPtr parseOr()
    {
        ExprPtr left = parseAnd();
        while (isName("or")) {
            const int line = next().line;
            left = binary(ExprType::Or, std::move(left), parseAnd(), line);
        }
        return left;
    }

    ExprPtr parseAnd()
    {
        ExprPtr left = parseNot();
        while (isName("and")) {
            const int line = next().line;
            left = binary(ExprType::And, std::move(left), parseNot(), line);
        }
        return left;
    }

    ExprPtr parseNot()
    {
        if (isName("not")) {
            DepthGuard guard(*this);
            auto e = make(ExprType::Not, next().line);
            e->kids.push_back(parseNot());
            return e;
        }
        return parseCompare();
    }

    ExprPtr parseCompare()
    {
        const int line = cur().line;
        ExprPtr first = parseMath1();
        auto e = make(ExprType::Compare, line);
        for (;;) {
            std::string op;
            if (cur().type == Tok::Op
                && (cur().text == "==" || cur().text == "!=" || cur().text == "<" || cur().text == "<="
                    || cur().text == ">" || cur().text == ">=")) {
                op = next().text;
            } else if (isName("in")) {
                next();
                op = "in";
            } else if (isName("not") && look().type == Tok::Name && look().text == "in") {
                next();
                next();
                op = "not in";
            } else {
                break;
            }
            e->ops.push_back(op);
            e->kids.push_back(parseMath1());
        }
        if (e->ops.empty())
            return first;
        e->kids.insert(e->kids.begin(), std::move(first));
        return e;
    }

    ExprPtr parseMath1()
    {
        ExprPtr left = parseConcat();
        while (isOp("+") || isOp("-")) {
            const Token& t = next();
            left = binary(ExprType::Binary, std::move(left), parseConcat(), t.line, t.text);
        }
        return left;
    }

    ExprPtr parseConcat()
    {
        const int line = cur().line;
        ExprPtr first = parseMath2();
        if (!isOp("~"))
            return first;
        auto e = make(ExprType::Concat, line);
        e->kids.push_back(std::move(first));
        while (skipOp("~"))
            e->kids.push_back(parseMath2());
        return e;
    }

    ExprPtr parseMath2()
    {
        ExprPtr left = parsePow();
        while (isOp("*") || isOp("/") || isOp("//") || isOp("%")) {
            const Token& t = next();
            left = binary(ExprType::Binary, std::move(left), parsePow(), t.line, t.text);
        }
        return left;
    }

    ExprPtr parsePow()
    {
        ExprPtr left = parseUnary(true);
        while (isOp("**")) {
            const Token& t = next();
            left = binary(ExprType::Binary, std::move(left), parseUnary(true), t.line, t.text);
        }
        return left;
    }

    ExprPtr parseUnary(bool withFilter)
    {
        DepthGuard guard(*this);
        ExprPtr node;
        if (isOp("-") || isOp("+")) {
            const Token& t = next();
            node = make(t.text == "-" ? ExprType::Neg : ExprType::Pos, t.line);
            node->kids.push_back(parseUnary(false));
        } else {
            node = parsePrimary();
        }
        node = parsePostfix(std::move(node));
        if (withFilter)
            node = parseFilterExpr(std::move(node));
        return node;
    }

    ExprPtr parsePrimary()
    {
        DepthGuard guard(*this);
        const Token& t = cur();
        ExprPtr e;
        switch (t.type) {
        case Tok::Name:
            if (t.text == "true" || t.text == "false" || t.text == "True" || t.text == "False") {
                e = make(ExprType::Const, t.line);
                e->value = Value::boolean(t.text == "true" || t.text == "True");
            } else if (t.text == "none" || t.text == "None") {
                e = make(ExprType::Const, t.line);
                e->value = Value::none();
            } else {
                e = make(ExprType::Name, t.line);
                e->name = t.text;
            }
            next();
            return e;
        case Tok::String: {
            e = make(ExprType::Const, t.line);
            std::string s;
            while (cur().type == Tok::String)
                s += next().text;
            e->value = Value::string(std::move(s));
            return e;
        }
        case Tok::Int:
            e = make(ExprType::Const, t.line);
            e->value = Value::integer(t.i);
            next();
            return e;
        case Tok::Float:
            e = make(ExprType::Const, t.line);
            e->value = Value::number(t.f);
            next();
            return e;
        case Tok::Op:
            if (t.text == "(") {
                next();
                e = parseTuple(true, {}, true);
                expectOp(")");
                return e;
            }
            if (t.text == "[") {
                e = make(ExprType::List, next().line);
                while (!isOp("]")) {
                    if (!e->kids.empty())
                        expectOp(",");
                    if (isOp("]"))
                        break;
                    e->kids.push_back(parseExpression(true));
                }
                expectOp("]");
                return e;
            }
            if (t.text == "{") {
                e = make(ExprType::Dict, next().line);
                while (!isOp("}")) {
                    if (!e->kids.empty())
                        expectOp(",");
                    if (isOp("}"))
                        break;
                    e->kids.push_back(parseExpression(true));
                    expectOp(":");
                    e->kids.push_back(parseExpression(true));
                }
                expectOp("}");
                return e;
            }
            break;
        default:
            break;
        }
        fail("unexpected '" + describe(t) + "'");
    }

    ExprPtr parsePostfix(ExprPtr node)
    {
        for (;;) {
            if (isOp(".")) {
                const int line = next().line;
                if (cur().type == Tok::Name) {
                    auto e = make(ExprType::GetAttr, line);
                    e->name = next().text;
                    e->kids.push_back(std::move(node));
                    node = std::move(e);
                } else if (cur().type == Tok::Int) {
                    auto index = make(ExprType::Const, line);
                    index->value = Value::integer(next().i);
                    node = binary(ExprType::GetItem, std::move(node), std::move(index), line);
                } else {
                    fail("expected name or number");
                }
            } else if (isOp("[")) {
                const int line = next().line;
                std::vector<ExprPtr> args;
                while (!isOp("]")) {
                    if (!args.empty())
                        expectOp(",");
                    args.push_back(parseSubscribed());
                }
                expectOp("]");
                ExprPtr arg;
                if (args.size() == 1) {
                    arg = std::move(args[0]);
                } else {
                    arg = make(ExprType::Tuple, line);
                    arg->kids = std::move(args);
                }
                node = binary(ExprType::GetItem, std::move(node), std::move(arg), line);
            } else if (isOp("(")) {
                node = parseCall(std::move(node));
            } else {
                return node;
            }
        }
    }

    ExprPtr parseSubscribed()
    {
        const int line = cur().line;
        auto slice = make(ExprType::Slice, line);
        if (skipOp(":")) {
            slice->kids.push_back(nullptr);
        } else {
            ExprPtr e = parseExpression(true);
            if (!skipOp(":"))
                return e;
            slice->kids.push_back(std::move(e));
        }
        if (isOp(":") || isOp("]") || isOp(","))
            slice->kids.push_back(nullptr);
        else
            slice->kids.push_back(parseExpression(true));
        if (skipOp(":") && !isOp("]") && !isOp(","))
            slice->kids.push_back(parseExpression(true));
        else
            slice->kids.push_back(nullptr);
        return slice;
    }

    void parseCallArgs(Expr& e)
    {
        expectOp("(");
        bool requireComma = false;
        while (!isOp(")")) {
            if (requireComma) {
                expectOp(",");
                if (isOp(")"))
                    break;
            }
            if (isOp("*") || isOp("**"))
                fail("*args and **kwargs in calls are not supported");
            if (cur().type == Tok::Name && look().type == Tok::Op && look().text == "=") {
                e.kwNames.push_back(next().text);
                next();
                e.kwValues.push_back(parseExpression(true));
            } else {
                if (!e.kwNames.empty())
                    fail("positional argument follows keyword argument");
                e.kids.push_back(parseExpression(true));
            }
            requireComma = true;
        }
        expectOp(")");
    }

    ExprPtr parseCall(ExprPtr callee)
    {
        auto e = make(ExprType::Call, cur().line);
        e->kids.push_back(std::move(callee));
        parseCallArgs(*e);
        return e;
    }

    std::string dottedName()
    {
        std::string name = expectName();
        while (skipOp("."))
            name += "." + expectName();
        return name;
    }

    // `| name(args)` chains; `subject` null for filter blocks and block sets (the body is the subject).
    ExprPtr parseFilter(ExprPtr subject, bool startInline)
    {
        while (isOp("|") || startInline) {
            if (!startInline)
                next();
            startInline = false;
            const int line = cur().line;
            auto e = make(ExprType::Filter, line);
            e->name = dottedName();
            e->filter = findFilter(e->name);
            if (!e->filter)
                throw JinjaError("unknown filter \"" + e->name + "\"", line);
            e->kids.push_back(std::move(subject));
            if (isOp("("))
                parseCallArgs(*e);
            subject = std::move(e);
        }
        return subject;
    }

    ExprPtr parseFilterExpr(ExprPtr node)
    {
        for (;;) {
            if (isOp("|")) {
                node = parseFilter(std::move(node), false);
            } else if (isName("is")) {
                node = parseTest(std::move(node));
            } else if (isOp("(")) {
                node = parseCall(std::move(node));
            } else {
                return node;
            }
        }
    }

    ExprPtr parseTest(ExprPtr subject)
    {
        const int line = next().line;
        auto e = make(ExprType::Test, line);
        e->negated = skipName("not");
        e->name = dottedName();
        e->test = findTest(e->name);
        if (!e->test)
            throw JinjaError("unknown test \"" + e->name + "\"", line);
        e->kids.push_back(std::move(subject));
        const Tok t = cur().type;
        if (isOp("(")) {
            parseCallArgs(*e);
        } else if ((t == Tok::Name || t == Tok::String || t == Tok::Int || t == Tok::Float || isOp("[") || isOp("{"))
            && !isName("else") && !isName("or") && !isName("and")) {
            if (isName("is"))
                fail("You cannot chain multiple tests with is");
            e->kids.push_back(parsePostfix(parsePrimary()));
        }
        return e;
    }

    std::vector<Token> m_tokens;
    std::size_t m_pos = 0;
    int m_maxDepth;
    int m_depth = 0;
    int m_loops = 0;
};

} // namespace

std::shared_ptr<const Program> parseProgram(std::string_view source, int maxDepth)
{
    auto program = std::make_shared<Program>();
    program->body = Parser(tokenize(source), maxDepth).parseTemplate();
    return program;
}

} // namespace creditlab::hf::jinja
