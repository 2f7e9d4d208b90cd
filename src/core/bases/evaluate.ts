/**
 * Evaluating expressions over one row at a time: names (`note.x`, bare properties, `file.*`,
 * `formula.x`, `this`), members, indexes, calls and operators. Formulas are computed once per row,
 * and a formula that reaches itself is an error naming the cycle. Every node visited counts
 * against a step budget, so no expression runs unbounded.
 */
import type { Expression, Node } from './ast';
import { fileValue, type FileModel } from './data';
import { BaseError, StepBudget } from './errors';
import { dateField, durationField } from './fn-date';
import type { Call, Env } from './fn-types';
import { arity, checkFunctions, GLOBAL_FUNCTIONS, methodFor, typesWith } from './functions';
import { arithmetic, compare } from './operators';
import { parseExpression } from './parser';
import { compileRegex } from './regex';
import {
	objectValue,
	truthy,
	typeOf,
	type DateValue,
	type DurationValue,
	type FileValue,
	type LinkValue,
	type ObjectValue,
	type Value,
} from './values';

/** Steps one row's evaluation may take (all its formulas and filters): far above any real formula. */
export const ROW_STEPS = 200_000;

const compiled = new Map<string, Expression>();

/** Parse and check `text` (cached): unknown functions and syntax errors are {@link BaseError}s. */
export function compile(text: string): Expression {
	const hit = compiled.get(text);
	if (hit) return hit;
	const expr = parseExpression(text);
	checkFunctions(text, expr.root);
	if (compiled.size > 2000) compiled.clear();
	compiled.set(text, expr);
	return expr;
}

/** `this` is a file that also answers its properties by bare name (`this.related`). */
interface ThisValue extends FileValue {
	readonly context: true;
}

/** One evaluation over a base: its formulas, `this`, the clock; {@link forRow} moves it to a row. */
export class Evaluator implements Env {
	row: string | null = null;
	budget = new StepBudget(ROW_STEPS);
	private formulaCache = new Map<string, Value>();
	private active: string[] = [];
	private locals: Readonly<Record<string, Value>>[] = [];
	private current: Expression | null = null;
	private currentFn: string | null = null;
	private currentPos = -1;

	constructor(
		readonly model: FileModel,
		readonly formulas: ReadonlyMap<string, string>,
		readonly thisPath: string | null,
		readonly now: number,
		private readonly extraGlobals: Readonly<Record<string, Value>> = {},
	) {}

	/** Start evaluating `path` (null: no row, as in summaries): fresh formula cache and step budget. */
	forRow(path: string | null): this {
		this.row = path;
		this.formulaCache = new Map();
		this.budget = new StepBudget(ROW_STEPS);
		return this;
	}

	/** Evaluate a compiled expression for the current row. */
	evaluate(expr: Expression, locals: Readonly<Record<string, Value>> = {}): Value {
		const saved = this.current;
		this.current = expr;
		this.locals.push(locals);
		try {
			return this.node(expr.root);
		} finally {
			this.locals.pop();
			this.current = saved;
		}
	}

	/** `formula.name` for the current row, computed once; a cycle is an error naming it. */
	formula(name: string): Value {
		if (this.formulaCache.has(name)) return this.formulaCache.get(name)!;
		const text = this.formulas.get(name);
		if (text === undefined)
			this.fail(`no formula named "${name}" (formulas: ${[...this.formulas.keys()].join(', ') || 'none'})`);
		if (this.active.includes(name))
			throw new BaseError(
				`formula.${name} refers to itself: ${[...this.active, name].map((n) => `formula.${n}`).join(' → ')}`,
			);
		this.active.push(name);
		try {
			const value = this.evaluate(compile(text));
			this.formulaCache.set(name, value);
			return value;
		} finally {
			this.active.pop();
		}
	}

	evalWith(node: Node, locals: Readonly<Record<string, Value>>): Value {
		this.locals.push(locals);
		try {
			return this.node(node);
		} finally {
			this.locals.pop();
		}
	}

	fail(message: string): never {
		throw new BaseError(message, this.current?.text ?? '', this.currentPos, this.currentFn);
	}

	/** The property `name` of the current row (a bare name or `note.name`). */
	property(name: string): Value {
		return this.row === null ? null : this.model.property(this.row, name);
	}

	private local(name: string): Value | undefined {
		for (let i = this.locals.length - 1; i >= 0; i--)
			if (Object.prototype.hasOwnProperty.call(this.locals[i], name)) return this.locals[i]![name];
		return Object.prototype.hasOwnProperty.call(this.extraGlobals, name) ? this.extraGlobals[name] : undefined;
	}

	private node(node: Node): Value {
		this.budget.spend();
		switch (node.t) {
			case 'lit':
				return node.value;
			case 'regex':
				return this.at(node, null, () => compileRegex(node.source, node.flags));
			case 'name':
				return this.name(node.name);
			case 'member':
				return this.member(node.object, node.name, node);
			case 'index':
				return this.index(this.node(node.object), this.node(node.index));
			case 'list':
				return node.items.map((item) => this.node(item));
			case 'object':
				return objectValue(node.entries.map(([k, v]) => [k, this.node(v)]));
			case 'unary': {
				const v = this.node(node.arg);
				if (node.op === '!') return !truthy(v);
				if (typeof v === 'number') return -v;
				if (typeOf(v) === 'duration')
					return {
						...(v as DurationValue),
						ms: -(v as DurationValue).ms,
						months: -(v as DurationValue).months,
					};
				return v === null ? null : this.at(node, '-', () => this.fail(`cannot negate a ${typeOf(v)}`));
			}
			case 'binary':
				return this.binary(node);
			case 'call':
				return this.call(node.name, null, node.args, node, true);
			case 'method':
				return this.call(node.name, this.node(node.object), node.args, node, false);
		}
	}

	private at<T>(node: Node, fn: string | null, run: () => T): T {
		const [pos, name] = [this.currentPos, this.currentFn];
		this.currentPos = node.pos;
		this.currentFn = fn;
		try {
			return run();
		} catch (error) {
			if (error instanceof BaseError && error.expression === '' && this.current)
				throw new BaseError(error.message, this.current.text, node.pos, error.fn ?? fn);
			throw error;
		} finally {
			this.currentPos = pos;
			this.currentFn = name;
		}
	}

	private binary(node: Extract<Node, { t: 'binary' }>): Value {
		if (node.op === '&&') {
			const l = this.node(node.left);
			return truthy(l) ? this.node(node.right) : l;
		}
		if (node.op === '||') {
			const l = this.node(node.left);
			return truthy(l) ? l : this.node(node.right);
		}
		const left = this.node(node.left);
		const right = this.node(node.right);
		if (['==', '!=', '<', '>', '<=', '>='].includes(node.op)) return compare(node.op, left, right);
		const out = arithmetic(node.op, left, right);
		if (out !== null && typeof out === 'object' && 'error' in out)
			return this.at(node, node.op, () => this.fail(out.error));
		return out;
	}

	private name(name: string): Value {
		const local = this.local(name);
		if (local !== undefined) return local;
		switch (name) {
			case 'file':
				return this.row === null ? null : fileValue(this.row);
			case 'note':
				return this.row === null ? objectValue([]) : this.model.properties(this.row);
			case 'this':
				return this.thisPath === null
					? null
					: ({ kind: 'file', path: this.thisPath, context: true } as ThisValue);
			default:
				return this.property(name);
		}
	}

	private member(objectNode: Node, name: string, node: Node): Value {
		if (objectNode.t === 'name' && this.local(objectNode.name) === undefined) {
			if (objectNode.name === 'formula') return this.at(node, `formula.${name}`, () => this.formula(name));
			if (objectNode.name === 'note') return this.property(name);
		}
		return this.field(this.node(objectNode), name);
	}

	/** `value.name`: file fields, date and duration fields, `length`, object keys; null when absent. */
	field(value: Value, name: string): Value {
		if (value === null) return null;
		if (typeof value === 'string' || Array.isArray(value)) return name === 'length' ? value.length : null;
		if (typeof value !== 'object') return null;
		switch ((value as { kind: string }).kind) {
			case 'file': {
				const file = value as FileValue & { context?: true };
				if (name === 'note') return this.model.properties(file.path);
				if (file.context && name !== 'file') return this.model.property(file.path, name);
				return this.model.field(file.path, name) ?? this.model.property(file.path, name);
			}
			case 'date':
				return dateField(value as DateValue, name) ?? null;
			case 'duration':
				return durationField(value as DurationValue, name) ?? null;
			case 'object':
				return (value as ObjectValue).entries.get(name) ?? null;
			case 'link': {
				const path = (value as LinkValue).path;
				return path === null ? null : this.field(fileValue(path), name);
			}
			default:
				return null;
		}
	}

	private index(value: Value, key: Value): Value {
		if (Array.isArray(value) && typeof key === 'number') {
			const list = value as readonly Value[];
			return list[key < 0 ? list.length + key : key] ?? null;
		}
		if (typeof value === 'string' && typeof key === 'number') return value[key] ?? null;
		if (typeof key === 'string') return this.field(value, key);
		return null;
	}

	private call(name: string, self: Value, argNodes: Node[], node: Node, global: boolean): Value {
		const label = global ? `${name}()` : `${typeOf(self)}.${name}()`;
		return this.at(node, label, () => {
			const f = global ? GLOBAL_FUNCTIONS[name] : this.methodOf(self, name);
			if (!f) return nullMethod(name, self);
			if (argNodes.length < f.min || argNodes.length > f.max)
				this.fail(`takes ${arity(f)}, not ${argNodes.length} (${f.signature})`);
			const args = f.lazy ? [] : argNodes.map((a) => this.node(a));
			const call: Call = { name, self: receiver(self, f.signature), args, nodes: argNodes, env: this };
			return f.call(call);
		});
	}

	/** The method for `self`, trying what a link stands for (its file, its text) after the link itself. */
	private methodOf(self: Value, name: string): ReturnType<typeof methodFor> | null {
		const type = typeOf(self);
		if (type === 'null') return null;
		const own = methodFor(type, name);
		if (own) return own;
		if (type === 'link') {
			const link = self as LinkValue;
			const viaFile = link.path !== null ? methodFor('file', name) : undefined;
			if (viaFile) return viaFile;
			const viaText = methodFor('string', name);
			if (viaText) return viaText;
		}
		if (type === 'file') {
			const viaText = methodFor('string', name);
			if (viaText) return viaText;
		}
		return this.fail(`${name}() is not a function of a ${type} (it is one of: ${typesWith(name).join(', ')})`);
	}
}

/** A link or file receiving another type's method stands in as that type (a file, or its text). */
function receiver(self: Value, signature: string): Value {
	const type = typeOf(self);
	if (type === 'link' && signature.startsWith('file.')) return fileValue((self as LinkValue).path!);
	if (type === 'link' && signature.startsWith('string.')) return (self as LinkValue).target;
	if (type === 'file' && signature.startsWith('string.')) return (self as FileValue).path;
	return self;
}

/** A method on a missing value: `isEmpty()` is true, `isTruthy()` false, `toString()` empty, the rest null. */
function nullMethod(name: string, self: Value): Value {
	if (self !== null) return null;
	switch (name) {
		case 'isEmpty':
			return true;
		case 'isTruthy':
			return false;
		case 'toString':
			return '';
		case 'isType':
			return false;
		default:
			return null;
	}
}
