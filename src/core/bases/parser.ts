/**
 * A precedence-climbing parser for Bases expressions: `||`, `&&`, equality, comparison, `+ -`,
 * `* / %`, unary `! -`, then calls, `.name`, `.method(…)` and `[index]`. Bounded: at most
 * {@link MAX_DEPTH} levels of nesting, so a hostile formula cannot exhaust the stack.
 */
import type { Expression, Node } from './ast';
import { BaseError } from './errors';
import { tokenize, type Token } from './lexer';

/** Deepest nesting accepted (parentheses, calls, lists); real formulas nest a handful of levels. */
export const MAX_DEPTH = 256;

const BINARY: Record<string, number> = {
	'||': 1,
	'&&': 2,
	'==': 3,
	'!=': 3,
	'<': 4,
	'>': 4,
	'<=': 4,
	'>=': 4,
	'+': 5,
	'-': 5,
	'*': 6,
	'/': 6,
	'%': 6,
};

/** Parse `text` into an {@link Expression}; a {@link BaseError} names the position of the first problem. */
export function parseExpression(text: string): Expression {
	const parser = new Parser(text, tokenize(text));
	const root = parser.expression(0);
	parser.expectEnd();
	return { text, root };
}

class Parser {
	private i = 0;
	private depth = 0;

	constructor(
		private readonly text: string,
		private readonly tokens: Token[],
	) {}

	private peek(): Token {
		return this.tokens[this.i]!;
	}

	private isOp(value: string): boolean {
		const tok = this.peek();
		return tok.kind === 'op' && tok.value === value;
	}

	private fail(message: string, pos = this.peek().pos): never {
		throw new BaseError(message, this.text, pos);
	}

	private expect(value: string): void {
		if (!this.isOp(value)) this.fail(`expected "${value}" but found ${describe(this.peek())}`);
		this.i++;
	}

	expectEnd(): void {
		if (this.peek().kind !== 'end') this.fail(`unexpected ${describe(this.peek())}`);
	}

	private enter(): void {
		if (++this.depth > MAX_DEPTH) this.fail(`the expression nests deeper than ${MAX_DEPTH} levels`);
	}

	expression(minPrec: number): Node {
		const depth = this.depth;
		this.enter();
		let left = this.unary();
		for (;;) {
			const tok = this.peek();
			const prec = tok.kind === 'op' ? BINARY[tok.value] : undefined;
			if (prec === undefined || prec < minPrec) break;
			this.i++;
			this.enter(); // A chain `a + b + c …` nests to the left: each operator is a level of the tree.
			const right = this.expression(prec + 1);
			left = { t: 'binary', op: (tok as { value: string }).value, left, right, pos: tok.pos };
		}
		this.depth = depth;
		return left;
	}

	private unary(): Node {
		const tok = this.peek();
		if (tok.kind === 'op' && (tok.value === '!' || tok.value === '-')) {
			this.i++;
			this.enter();
			const arg = this.unary();
			this.depth--;
			return { t: 'unary', op: tok.value, arg, pos: tok.pos };
		}
		return this.postfix(this.primary());
	}

	private primary(): Node {
		const tok = this.peek();
		this.i++;
		switch (tok.kind) {
			case 'number':
			case 'string':
				return { t: 'lit', value: tok.value, pos: tok.pos };
			case 'regex':
				return { t: 'regex', source: tok.source, flags: tok.flags, pos: tok.pos };
			case 'name':
				if (tok.value === 'true' || tok.value === 'false')
					return { t: 'lit', value: tok.value === 'true', pos: tok.pos };
				if (tok.value === 'null') return { t: 'lit', value: null, pos: tok.pos };
				if (this.isOp('(')) return { t: 'call', name: tok.value, args: this.args(), pos: tok.pos };
				return { t: 'name', name: tok.value, pos: tok.pos };
			case 'op':
				if (tok.value === '(') {
					const inner = this.expression(0);
					this.expect(')');
					return inner;
				}
				if (tok.value === '[') return { t: 'list', items: this.sequence(']'), pos: tok.pos };
				if (tok.value === '{') return this.object(tok.pos);
				return this.fail(`unexpected "${tok.value}"`, tok.pos);
			default:
				return this.fail('the expression ends too early', tok.pos);
		}
	}

	private postfix(node: Node): Node {
		const depth = this.depth;
		for (;;) {
			const tok = this.peek();
			if (tok.kind !== 'op' || (tok.value !== '.' && tok.value !== '[')) {
				this.depth = depth;
				return node;
			}
			this.enter(); // `a.b.c…` nests too.
			if (tok.value === '.') {
				this.i++;
				const name = this.peek();
				if (name.kind !== 'name')
					this.fail(`expected a property or function name after "." but found ${describe(name)}`);
				this.i++;
				node = this.isOp('(')
					? { t: 'method', object: node, name: name.value, args: this.args(), pos: name.pos }
					: { t: 'member', object: node, name: name.value, pos: name.pos };
			} else if (tok.value === '[') {
				this.i++;
				const index = this.expression(0);
				this.expect(']');
				node = { t: 'index', object: node, index, pos: tok.pos };
			}
		}
	}

	private args(): Node[] {
		this.expect('(');
		return this.sequence(')');
	}

	/** Comma-separated expressions up to `close` (a trailing comma is allowed). */
	private sequence(close: string): Node[] {
		this.enter();
		const items: Node[] = [];
		while (!this.isOp(close)) {
			items.push(this.expression(0));
			if (!this.isOp(',')) break;
			this.i++;
		}
		this.expect(close);
		this.depth--;
		return items;
	}

	private object(pos: number): Node {
		this.enter();
		const entries: [string, Node][] = [];
		while (!this.isOp('}')) {
			const key = this.peek();
			if (key.kind !== 'string' && key.kind !== 'name') this.fail(`expected a key but found ${describe(key)}`);
			this.i++;
			this.expect(':');
			entries.push([String((key as { value: string }).value), this.expression(0)]);
			if (!this.isOp(',')) break;
			this.i++;
		}
		this.expect('}');
		this.depth--;
		return { t: 'object', entries, pos };
	}
}

function describe(tok: Token): string {
	switch (tok.kind) {
		case 'end':
			return 'the end of the expression';
		case 'op':
			return `"${tok.value}"`;
		case 'regex':
			return `/${tok.source}/`;
		default:
			return `"${String(tok.value)}"`;
	}
}
