/**
 * A `.base` file (or a ```base block), already parsed from YAML by the host, read into a typed
 * structure ("Bases syntax"): `filters` (a string, or `and`/`or`/`not` lists, nested), `formulas`,
 * `properties` (display names), `summaries` and `views` (type, name, order, sort, limit, groupBy,
 * per-view filters and summaries). Every expression is compiled here, so a syntax error or an
 * unknown function fails the base before any row is read.
 */
import type { Expression } from './ast';
import { BaseError } from './errors';
import { compile } from './evaluate';

/** A filter: one expression, or `and` / `or` / `not` over filters. */
export type Filter = { kind: 'expr'; expr: Expression } | { kind: 'and' | 'or' | 'not'; items: Filter[] };

/** A sort key. */
export interface SortKey {
	property: string;
	direction: 'ASC' | 'DESC';
}

/** One view of a base. */
export interface BaseView {
	type: string;
	name: string;
	filters: Filter | null;
	order: string[];
	sort: SortKey[];
	limit: number | null;
	groupBy: SortKey | null;
	/** Property id → summary name (a default like `Average` or one of the base's `summaries`). */
	summaries: Record<string, string>;
}

/** A whole base. */
export interface BaseFile {
	filters: Filter | null;
	formulas: Map<string, string>;
	displayNames: Map<string, string>;
	summaries: Map<string, Expression>;
	views: BaseView[];
}

const MAX_FILTER_DEPTH = 50;

function isRecord(v: unknown): v is Record<string, unknown> {
	return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Read a parsed base (`raw` is what the YAML parser returned). */
export function readBaseFile(raw: unknown): BaseFile {
	if (raw === null || raw === undefined) raw = {};
	if (!isRecord(raw))
		throw new BaseError('a base must be a YAML mapping (filters, formulas, properties, summaries, views)');
	const formulas = new Map<string, string>();
	for (const [name, text] of Object.entries(record(raw.formulas, 'formulas'))) {
		const expression = scalarText(text, `formulas.${name}`);
		compileAt(expression, `formulas.${name}`);
		formulas.set(name, expression);
	}
	const displayNames = new Map<string, string>();
	for (const [id, config] of Object.entries(record(raw.properties, 'properties')))
		if (isRecord(config) && typeof config.displayName === 'string')
			displayNames.set(propertyId(id), config.displayName);
	const summaries = new Map<string, Expression>();
	for (const [name, text] of Object.entries(record(raw.summaries, 'summaries')))
		summaries.set(name, compileAt(scalarText(text, `summaries.${name}`), `summaries.${name}`));
	const views = raw.views === undefined || raw.views === null ? [] : raw.views;
	if (!Array.isArray(views)) throw new BaseError('"views" must be a list of views');
	return {
		filters: readFilter(raw.filters, 'filters', 0),
		formulas,
		displayNames,
		summaries,
		views: views.map((v, i) => readView(v, i)),
	};
}

function record(v: unknown, where: string): Record<string, unknown> {
	if (v === undefined || v === null) return {};
	if (!isRecord(v)) throw new BaseError(`"${where}" must be a mapping`);
	return v;
}

function scalarText(v: unknown, where: string): string {
	if (typeof v === 'string') return v;
	if (typeof v === 'number' || typeof v === 'boolean') return String(v);
	throw new BaseError(`"${where}" must be an expression written as text`);
}

function compileAt(text: string, where: string): Expression {
	try {
		return compile(text);
	} catch (error) {
		if (error instanceof BaseError) throw new BaseError(`${where}: ${error.message}`);
		throw error;
	}
}

function readFilter(v: unknown, where: string, depth: number): Filter | null {
	if (v === undefined || v === null) return null;
	if (depth > MAX_FILTER_DEPTH) throw new BaseError(`"${where}" nests deeper than ${MAX_FILTER_DEPTH} levels`);
	if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean')
		return { kind: 'expr', expr: compileAt(String(v), where) };
	if (!isRecord(v)) throw new BaseError(`"${where}" must be an expression or a mapping with and, or or not`);
	const keys = Object.keys(v);
	const kind = keys.find((k): k is 'and' | 'or' | 'not' => k === 'and' || k === 'or' || k === 'not');
	if (!kind || keys.length !== 1)
		throw new BaseError(
			`"${where}" must have exactly one of and, or, not (found: ${keys.join(', ') || 'nothing'})`,
		);
	const list = v[kind] === null || v[kind] === undefined ? [] : v[kind];
	const items = Array.isArray(list) ? list : [list];
	return {
		kind,
		items: items
			.map((item, i) => readFilter(item, `${where}.${kind}[${i}]`, depth + 1))
			.filter((f): f is Filter => f !== null),
	};
}

function readSort(v: unknown, where: string): SortKey {
	if (typeof v === 'string') return { property: propertyId(v), direction: 'ASC' };
	if (!isRecord(v) || typeof (v.property ?? v.column) !== 'string')
		throw new BaseError(`"${where}" must name a property`);
	const direction = (typeof v.direction === 'string' ? v.direction : 'ASC').toUpperCase();
	if (direction !== 'ASC' && direction !== 'DESC') throw new BaseError(`"${where}.direction" must be ASC or DESC`);
	return { property: propertyId(String(v.property ?? v.column)), direction };
}

function readView(v: unknown, i: number): BaseView {
	const where = `views[${i}]`;
	if (!isRecord(v)) throw new BaseError(`"${where}" must be a mapping`);
	const order = v.order === undefined || v.order === null ? [] : v.order;
	if (!Array.isArray(order)) throw new BaseError(`"${where}.order" must be a list of properties`);
	const sort = v.sort === undefined || v.sort === null ? [] : v.sort;
	if (!Array.isArray(sort)) throw new BaseError(`"${where}.sort" must be a list`);
	let limit: number | null = null;
	if (v.limit !== undefined && v.limit !== null) {
		limit = Number(v.limit);
		if (!Number.isInteger(limit) || limit < 0) throw new BaseError(`"${where}.limit" must be a whole number`);
	}
	const summaries: Record<string, string> = {};
	for (const [id, name] of Object.entries(record(v.summaries, `${where}.summaries`)))
		summaries[propertyId(id)] = String(name);
	return {
		type: typeof v.type === 'string' ? v.type : 'table',
		name: typeof v.name === 'string' || typeof v.name === 'number' ? String(v.name) : `View ${i + 1}`,
		filters: readFilter(v.filters, `${where}.filters`, 0),
		order: order.map((p) => propertyId(String(p))),
		sort: sort.map((s, k) => readSort(s, `${where}.sort[${k}]`)),
		limit,
		groupBy: v.groupBy === undefined || v.groupBy === null ? null : readSort(v.groupBy, `${where}.groupBy`),
		summaries,
	};
}

/** A property id in its full form: `file.x` and `formula.x` as written, a bare name as `note.name`. */
export function propertyId(id: string): string {
	const trimmed = id.trim();
	return /^(file|formula|note)\./.test(trimmed) ? trimmed : `note.${trimmed}`;
}
