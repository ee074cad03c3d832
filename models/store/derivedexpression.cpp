// SPDX-License-Identifier: GPL-3.0-or-later
#include "store/derivedexpression.h"

#include <cmath>
#include <vector>

struct DerivedExpression::Node
{
    enum class Kind
    {
        Number,
        Input,
        Negate,
        Add,
        Subtract,
        Multiply,
        Divide,
        Min,
        Max
    };
    Kind kind = Kind::Number;
    double number = 0;
    int input = -1;
    std::unique_ptr<Node> left;
    std::unique_ptr<Node> right;
};

namespace {

using Node = DerivedExpression::Node;

// Recursive descent over the text; the first problem stops it with the column it is at.
class Parser
{
public:
    explicit Parser(const QString &text) : m_text(text) {}

    Result<std::unique_ptr<Node>> parseAll(QStringList *inputs)
    {
        m_inputs = inputs;
        auto root = expression();
        if (!m_error.isEmpty())
            return failure();
        skipSpace();
        if (m_pos < m_text.size()) {
            fail(QStringLiteral("unexpected '%1'").arg(m_text[m_pos]));
            return failure();
        }
        return Result<std::unique_ptr<Node>>(std::move(root));
    }

private:
    Error failure() const
    {
        return Error::make(Error::Kind::Invalid, QStringLiteral("at column %1: %2").arg(m_errorPos + 1).arg(m_error));
    }

    void fail(const QString &message)
    {
        if (m_error.isEmpty()) {
            m_error = message;
            m_errorPos = m_pos;
        }
    }

    void skipSpace()
    {
        while (m_pos < m_text.size() && m_text[m_pos].isSpace())
            ++m_pos;
    }

    bool accept(QChar c)
    {
        skipSpace();
        if (m_pos < m_text.size() && m_text[m_pos] == c) {
            ++m_pos;
            return true;
        }
        return false;
    }

    static std::unique_ptr<Node> binary(Node::Kind kind, std::unique_ptr<Node> left, std::unique_ptr<Node> right)
    {
        auto node = std::make_unique<Node>();
        node->kind = kind;
        node->left = std::move(left);
        node->right = std::move(right);
        return node;
    }

    std::unique_ptr<Node> expression()
    {
        auto left = term();
        while (m_error.isEmpty()) {
            if (accept(QLatin1Char('+')))
                left = binary(Node::Kind::Add, std::move(left), term());
            else if (accept(QLatin1Char('-')))
                left = binary(Node::Kind::Subtract, std::move(left), term());
            else
                break;
        }
        return left;
    }

    std::unique_ptr<Node> term()
    {
        auto left = factor();
        while (m_error.isEmpty()) {
            if (accept(QLatin1Char('*')))
                left = binary(Node::Kind::Multiply, std::move(left), factor());
            else if (accept(QLatin1Char('/')))
                left = binary(Node::Kind::Divide, std::move(left), factor());
            else
                break;
        }
        return left;
    }

    std::unique_ptr<Node> factor()
    {
        if (++m_depth > kMaxDepth) {
            fail(QStringLiteral("nested too deeply"));
            return nullptr;
        }
        auto node = factorInner();
        --m_depth;
        return node;
    }

    std::unique_ptr<Node> factorInner()
    {
        skipSpace();
        if (m_pos >= m_text.size()) {
            fail(QStringLiteral("expected a name, a number or '(' at the end"));
            return nullptr;
        }
        const QChar c = m_text[m_pos];
        if (accept(QLatin1Char('-'))) {
            auto node = std::make_unique<Node>();
            node->kind = Node::Kind::Negate;
            node->left = factor();
            return node;
        }
        if (accept(QLatin1Char('('))) {
            auto inner = expression();
            if (!accept(QLatin1Char(')')))
                fail(QStringLiteral("expected ')'"));
            return inner;
        }
        if (c.isDigit() || c == QLatin1Char('.'))
            return number();
        if (c.isLetter() || c == QLatin1Char('_'))
            return nameOrFunction();
        fail(QStringLiteral("expected a name, a number or '(' instead of '%1'").arg(c));
        return nullptr;
    }

    std::unique_ptr<Node> number()
    {
        const qsizetype start = m_pos;
        while (m_pos < m_text.size() && (m_text[m_pos].isDigit() || m_text[m_pos] == QLatin1Char('.')))
            ++m_pos;
        if (m_pos < m_text.size() && (m_text[m_pos] == QLatin1Char('e') || m_text[m_pos] == QLatin1Char('E'))) {
            ++m_pos;
            if (m_pos < m_text.size() && (m_text[m_pos] == QLatin1Char('+') || m_text[m_pos] == QLatin1Char('-')))
                ++m_pos;
            while (m_pos < m_text.size() && m_text[m_pos].isDigit())
                ++m_pos;
        }
        bool ok = false;
        const QString literal = m_text.mid(start, m_pos - start);
        const double value = literal.toDouble(&ok);
        if (!ok || !std::isfinite(value)) {
            m_pos = start;
            fail(QStringLiteral("\"%1\" is not a number").arg(literal));
            return nullptr;
        }
        auto node = std::make_unique<Node>();
        node->number = value;
        return node;
    }

    std::unique_ptr<Node> nameOrFunction()
    {
        const qsizetype start = m_pos;
        while (m_pos < m_text.size() && (m_text[m_pos].isLetterOrNumber() || m_text[m_pos] == QLatin1Char('_')))
            ++m_pos;
        const QString name = m_text.mid(start, m_pos - start);
        if ((name == QLatin1String("min") || name == QLatin1String("max")) && accept(QLatin1Char('('))) {
            auto left = expression();
            if (!accept(QLatin1Char(',')))
                fail(QStringLiteral("%1() takes two arguments: expected ','").arg(name));
            auto right = expression();
            if (!accept(QLatin1Char(')')))
                fail(QStringLiteral("expected ')' to close %1(").arg(name));
            return binary(name == QLatin1String("min") ? Node::Kind::Min : Node::Kind::Max, std::move(left),
                          std::move(right));
        }
        auto node = std::make_unique<Node>();
        node->kind = Node::Kind::Input;
        node->input = int(m_inputs->indexOf(name));
        if (node->input < 0) {
            m_inputs->append(name);
            node->input = int(m_inputs->size() - 1);
        }
        return node;
    }

    static constexpr int kMaxDepth = 64;
    const QString &m_text;
    qsizetype m_pos = 0;
    int m_depth = 0;
    QString m_error;
    qsizetype m_errorPos = 0;
    QStringList *m_inputs = nullptr;
};

std::optional<double> evaluateNode(const Node &node, const std::function<std::optional<double>(int)> &valueOf)
{
    if (node.kind == Node::Kind::Number)
        return node.number;
    if (node.kind == Node::Kind::Input) {
        const auto value = valueOf(node.input);
        return value && std::isfinite(*value) ? value : std::nullopt;
    }
    const auto a = evaluateNode(*node.left, valueOf);
    if (!a)
        return std::nullopt;
    if (node.kind == Node::Kind::Negate)
        return -*a;
    const auto b = evaluateNode(*node.right, valueOf);
    if (!b)
        return std::nullopt;
    double result = 0;
    switch (node.kind) {
    case Node::Kind::Add:
        result = *a + *b;
        break;
    case Node::Kind::Subtract:
        result = *a - *b;
        break;
    case Node::Kind::Multiply:
        result = *a * *b;
        break;
    case Node::Kind::Divide:
        if (*b == 0)
            return std::nullopt; // a gap: "no completions" means no defined wait, not infinity
        result = *a / *b;
        break;
    case Node::Kind::Min:
        result = std::min(*a, *b);
        break;
    case Node::Kind::Max:
        result = std::max(*a, *b);
        break;
    default:
        return std::nullopt;
    }
    return std::isfinite(result) ? std::optional<double>(result) : std::nullopt;
}

} // namespace

Result<DerivedExpression> DerivedExpression::parse(const QString &text)
{
    DerivedExpression expression;
    expression.m_text = text.trimmed();
    if (expression.m_text.isEmpty())
        return Error::make(Error::Kind::Invalid, QStringLiteral("the formula is empty"));
    Parser parser(text);
    auto root = parser.parseAll(&expression.m_inputs);
    if (!root)
        return root.error();
    expression.m_root = std::shared_ptr<const Node>(std::move(root).value().release());
    return expression;
}

std::optional<double> DerivedExpression::evaluate(const std::function<std::optional<double>(int)> &valueOf) const
{
    if (!m_root)
        return std::nullopt;
    return evaluateNode(*m_root, valueOf);
}
