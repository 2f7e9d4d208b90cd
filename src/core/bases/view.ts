/**
 * Running one view: the rows every filter keeps (the base's `filters` AND the view's), the
 * columns in `order` with display names, the sort, the limit, the groups of `groupBy` and the
 * summaries. A row whose filter or cell cannot be evaluated is not dropped silently: the result
 * counts such rows per expression and says so.
 */
import { BaseError } from './errors';
import type { Evaluator } from './evaluate';
import type { BaseFile, BaseView, Filter } from './file-model';
import { summarise } from './summaries';
import { compareValues, plainOf, textOf, truthy, type Value } from './values';

/** A column: its property id and the name a view shows. */
export interface BaseColumn {
	id: string;
	name: string;
}

/** One row: the file and its column values (JSON). */
export interface BaseRow {
	path: string;
	values: Record<string, unknown>;
}

/** Rows sharing a `groupBy` value. */
export interface BaseGroup {
	value: unknown;
	/** The group's rows, as indexes into the result's `rows`. */
	rows: number[];
	summaries?: Record<string, unknown>;
}

/** What a view shows. */
export interface ViewOutcome {
	columns: BaseColumn[];
	rows: BaseRow[];
	/** Rows before the limit. */
	matched: number;
	groups?: BaseGroup[];
	summaries?: Record<string, unknown>;
	/** Per failing expression: how many rows, and the first message. */
	problems: string[];
}

/** The name a view shows for a property: its display name, else the name without `note.`. */
export function displayName(base: BaseFile, id: string): string {
	return base.displayNames.get(id) ?? id.replace(/^(note|formula)\./, '');
}

class Problems {
	private readonly byKey = new Map<string, { count: number; first: string }>();

	add(where: string, error: unknown): void {
		if (!(error instanceof BaseError)) throw error;
		const seen = this.byKey.get(where);
		if (seen) seen.count++;
		else this.byKey.set(where, { count: 1, first: error.message });
	}

	lines(): string[] {
		return [...this.byKey].map(
			([where, { count, first }]) =>
				`${where}: ${count} row(s) could not be evaluated and ${where.startsWith('filter') ? 'were left out' : 'show no value'} (first: ${first})`,
		);
	}
}

function passes(ev: Evaluator, filter: Filter | null): boolean {
	if (filter === null) return true;
	switch (filter.kind) {
		case 'expr':
			return truthy(ev.evaluate(filter.expr));
		case 'and':
			return filter.items.every((f) => passes(ev, f));
		case 'or':
			return filter.items.length === 0 || filter.items.some((f) => passes(ev, f));
		default:
			return !filter.items.some((f) => passes(ev, f));
	}
}

/** The value of a property id for the evaluator's current row. */
export function columnValue(ev: Evaluator, id: string): Value {
	const dot = id.indexOf('.');
	const [ns, name] = [id.slice(0, dot), id.slice(dot + 1)];
	if (ns === 'formula') return ev.formula(name);
	if (ns === 'file') return ev.field(ev.row === null ? null : { kind: 'file', path: ev.row }, name);
	return ev.property(name);
}

/** Run `view` of `base` over `files`; `limit` overrides the view's. */
export function runView(
	base: BaseFile,
	view: BaseView,
	files: readonly string[],
	ev: Evaluator,
	limit: number | null,
): ViewOutcome {
	const problems = new Problems();
	const kept: string[] = [];
	for (const path of files) {
		ev.forRow(path);
		try {
			if (passes(ev, base.filters) && passes(ev, view.filters)) kept.push(path);
		} catch (error) {
			problems.add('filter', error);
		}
	}
	const order = view.order.length > 0 ? view.order : ['file.name'];
	const needed = [
		...new Set([
			...order,
			...view.sort.map((s) => s.property),
			...(view.groupBy ? [view.groupBy.property] : []),
			...Object.keys(view.summaries),
		]),
	];
	const cells = new Map<string, Map<string, Value>>();
	for (const path of kept) {
		ev.forRow(path);
		const row = new Map<string, Value>();
		for (const id of needed) {
			try {
				row.set(id, columnValue(ev, id));
			} catch (error) {
				problems.add(id, error);
				row.set(id, null);
			}
		}
		cells.set(path, row);
	}
	const keys = [...(view.groupBy ? [view.groupBy] : []), ...view.sort];
	const sorted = [...kept].sort((a, b) => {
		for (const key of keys) {
			const va = cells.get(a)!.get(key.property) ?? null;
			const vb = cells.get(b)!.get(key.property) ?? null;
			if (va === null || vb === null) {
				if (va !== vb) return va === null ? 1 : -1; // Empty values last, either direction.
				continue;
			}
			const c = compareValues(va, vb);
			if (c !== 0) return key.direction === 'DESC' ? -c : c;
		}
		return 0;
	});
	const shown = limit !== null ? sorted.slice(0, limit) : view.limit !== null ? sorted.slice(0, view.limit) : sorted;
	const columns = order.map((id) => ({ id, name: displayName(base, id) }));
	const rows = shown.map((path) => ({
		path,
		values: Object.fromEntries(order.map((id) => [id, plainOf(cells.get(path)!.get(id) ?? null)])),
	}));
	const outcome: ViewOutcome = { columns, rows, matched: kept.length, problems: [] };
	const summarize = (paths: string[]): Record<string, unknown> | undefined => {
		const entries = Object.entries(view.summaries);
		if (entries.length === 0) return undefined;
		const out: Record<string, unknown> = {};
		for (const [id, name] of entries) {
			try {
				out[id] = plainOf(
					summarise(
						name,
						paths.map((p) => cells.get(p)!.get(id) ?? null),
						base.summaries,
						ev,
					),
				);
			} catch (error) {
				problems.add(`summary ${id}`, error);
				out[id] = null;
			}
		}
		return out;
	};
	outcome.summaries = summarize(shown);
	if (view.groupBy) outcome.groups = groupsOf(shown, cells, view.groupBy.property, summarize);
	outcome.problems = problems.lines();
	return outcome;
}

function groupsOf(
	shown: string[],
	cells: Map<string, Map<string, Value>>,
	property: string,
	summarize: (paths: string[]) => Record<string, unknown> | undefined,
): BaseGroup[] {
	const groups: { key: string; value: Value; paths: string[]; rows: number[] }[] = [];
	shown.forEach((path, i) => {
		const value = cells.get(path)!.get(property) ?? null;
		const key = textOf(value);
		const group = groups.find((g) => g.key === key);
		if (group) {
			group.paths.push(path);
			group.rows.push(i);
		} else groups.push({ key, value, paths: [path], rows: [i] });
	});
	return groups.map((g) => {
		const out: BaseGroup = { value: plainOf(g.value), rows: g.rows };
		const s = summarize(g.paths);
		if (s) out.summaries = s;
		return out;
	});
}
