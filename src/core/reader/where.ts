import type { FrontMatter } from '../metadata';
import { propertyMatches } from '../query/prop';
import { parseDate, startOfDay } from '../schema/dates';
import type { FieldSpec, Schema } from '../schema/types';
import { checkValue, fieldOf, ORDERING, toNumber, type Operator, type Rejection } from '../schema/validate';
import type { WhereValue } from './types';

/** One `where` predicate: `field op value`; several values (map form with a list) mean "any of". */
export interface Predicate {
	field: string;
	op: Operator;
	values: string[];
}

/** The operators, longest first so `>=` is not read as `>` then `=value`. */
const OPERATORS: readonly Operator[] = ['>=', '<=', '!=', '=', '>', '<'];

/** True for the characters an operator is made of, which a field name cannot hold. */
function isOperatorChar(c: string): boolean {
	return c === '=' || c === '!' || c === '<' || c === '>';
}

/** The operator written at `i` of `text`, or null. */
function operatorAt(text: string, i: number): Operator | null {
	for (const op of OPERATORS) if (text.startsWith(op, i)) return op;
	return null;
}

/** True for the whitespace `String#trim` removes (the same set as a regex `\s`). */
function isSpace(c: string): boolean {
	const code = c.charCodeAt(0);
	if (code < 128) return code === 32 || (code >= 9 && code <= 13);
	return c.trim() === '';
}

// Clauses are read by hand, not with regexes: a lazy group before `\s*$` (or a split lookahead
// at every space) is quadratic on a long run of spaces, and the filter prompt is typed by anyone.

/** `field op value` (trimmed parts), or null when the clause has no operator after a field. */
function parseClause(clause: string): Predicate | null {
	let k = 0;
	while (k < clause.length && !isOperatorChar(clause[k]!)) k++;
	const field = clause.slice(0, k).trim();
	const op = operatorAt(clause, k);
	if (field === '' || op === null) return null;
	return { field, op, values: [clause.slice(k + op.length).trim()] };
}

/** The predicate as the report echoes it: `rating>=7`, `tags=a|b`. */
export function describePredicate(predicate: Predicate): string {
	return `${predicate.field}${predicate.op}${predicate.values.join('|')}`;
}

/** True when `text` at `i` holds `field<op>`: a word without spaces or operator characters, optional spaces, an operator. */
function startsClause(text: string, i: number): boolean {
	let k = i;
	while (k < text.length && !isSpace(text[k]!) && !isOperatorChar(text[k]!)) k++;
	if (k === i) return false;
	while (k < text.length && isSpace(text[k]!)) k++;
	return operatorAt(text, k) !== null;
}

/**
 * A filter typed as one line (the plugin's prompt) split into clauses: a new clause starts at
 * whitespace before `field<op>`, so values keep their spaces — `domain=investing summary=cash
 * flows rating>=7` is three clauses.
 */
export function splitWhereText(text: string): string[] {
	const line = text.trim();
	const clauses: string[] = [];
	let clauseStart = 0;
	let i = 0;
	while (i < line.length) {
		if (!isSpace(line[i]!)) {
			i++;
			continue;
		}
		const runStart = i;
		while (i < line.length && isSpace(line[i]!)) i++;
		if (startsClause(line, i)) {
			clauses.push(line.slice(clauseStart, runStart));
			clauseStart = i;
		}
	}
	clauses.push(line.slice(clauseStart));
	return clauses.filter((clause) => clause !== '');
}

/** A map-form entry as a predicate; a string value may start with an operator (`">=7"`). */
function fromEntry(field: string, value: WhereValue): Predicate {
	if (Array.isArray(value)) return { field, op: '=', values: value.map(String) };
	const text = String(value);
	if (typeof value === 'string') {
		const trimmed = text.trimStart();
		const op = operatorAt(trimmed, 0);
		if (op !== null) return { field, op, values: [trimmed.slice(op.length).trim()] };
	}
	return { field, op: '=', values: [text.trim()] };
}

/** Parse the `where` parameter (map or clause list) into predicates, or reject the first malformed clause. */
export function parseWhere(where: Record<string, WhereValue> | string[] | undefined): Predicate[] | Rejection {
	if (where === undefined) return [];
	if (!Array.isArray(where)) return Object.entries(where).map(([field, value]) => fromEntry(field, value));
	const predicates: Predicate[] = [];
	for (const clause of where) {
		const predicate = parseClause(clause);
		if (!predicate)
			return {
				error: `where: "${clause}" is not a predicate; write field=value, or field>=value for numbers and dates`,
				suggestions: [],
			};
		predicates.push(predicate);
	}
	return predicates;
}

/**
 * Every field must be in the schema and every value allowed by its type; a dependent enum
 * (`status` by `type`) is checked against the list for the `type` the same query asks for.
 */
export function validateWhere(schema: Schema, predicates: readonly Predicate[]): Rejection | null {
	for (const predicate of predicates) {
		const spec = fieldOf(schema, 'where', predicate.field);
		if ('error' in spec) return spec;
		const on = spec.dependsOn?.field;
		const parent = predicates.find((p) => p.field === on && p.op === '=' && p.values.length === 1);
		for (const value of predicate.values) {
			const problem = checkValue('where', spec, predicate.op, value, parent?.values[0]);
			if (problem) return problem;
		}
	}
	return null;
}

/** A comparable number for a note value and a query value, or null when either is not of the field's type. */
function ordinals(spec: FieldSpec, value: unknown, wanted: string): [number, number] | null {
	if (spec.type === 'number') {
		const [a, b] = [toNumber(value), toNumber(wanted)];
		return a === null || b === null ? null : [a, b];
	}
	if (spec.type === 'date') {
		const [a, b] = [parseDate(value), parseDate(wanted)];
		if (a === null || b === null) return null;
		// `last_verified>=2026-06-01` holds for 2026-06-01T18:00: compare at the query's precision.
		return [b.hasTime ? a.ms : startOfDay(a.ms), b.ms];
	}
	if (typeof value !== 'string') return null;
	// Ordered enums are written strongest first: a smaller index ranks higher.
	const ranks = spec.values ?? [];
	const [a, b] = [ranks.indexOf(value.trim()), ranks.indexOf(wanted)];
	return a < 0 || b < 0 ? null : [-a, -b];
}

/** Whether `op` holds between two ordinals. */
function compare(op: Operator, [a, b]: [number, number]): boolean {
	switch (op) {
		case '>':
			return a > b;
		case '>=':
			return a >= b;
		case '<':
			return a < b;
		case '<=':
			return a <= b;
		default:
			return a === b;
	}
}

/** True for a set value: not missing, null, blank or an empty list. */
function isSet(value: unknown): boolean {
	if (value === undefined || value === null) return false;
	if (typeof value === 'string') return value.trim() !== '';
	return !Array.isArray(value) || value.some(isSet);
}

/** Whether one value of a note (a list counts when any item does) satisfies `field op wanted`, for = and the ordering operators. */
function holds(spec: FieldSpec, op: Operator, value: unknown, wanted: string): boolean {
	if (spec.type === 'number' || spec.type === 'date' || ORDERING.includes(op)) {
		const items = Array.isArray(value) ? (value as unknown[]) : [value];
		return items.some((item) => {
			const pair = ordinals(spec, item, wanted);
			return pair !== null && compare(op, pair);
		});
	}
	if (spec.type === 'checkbox') return String(value) === wanted;
	// Scalars exact (case-insensitive, `[[Note]]` matches `Note`), lists by membership: the engine's prop rule.
	return propertyMatches(value, { type: 'prop', key: spec.name, value: wanted, match: 'equals' });
}

/** Whether a note's frontmatter satisfies every predicate. `!=` needs the field set: a missing value is not "different". */
export function matchesWhere(frontmatter: FrontMatter, predicates: readonly Predicate[], schema: Schema): boolean {
	return predicates.every((predicate) => {
		const spec = schema.fields.get(predicate.field);
		if (!spec) return false;
		const value = frontmatter[predicate.field];
		if (predicate.op === '!=')
			return isSet(value) && !predicate.values.some((wanted) => holds(spec, '=', value, wanted));
		return predicate.values.some((wanted) => holds(spec, predicate.op, value, wanted));
	});
}
