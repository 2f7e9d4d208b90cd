/**
 * Global functions ("Functions", Global): `if`, `date`, `duration`, `now`, `today`, `link`,
 * `list`, `number`, `min`, `max`, `file`, `random`, `escapeHTML`, and the presentation functions
 * `icon`, `image`, `html`, which evaluate to a value naming what a view would render. Also the
 * global forms of Bases' first releases still found in bases (`not`, `empty`, `notEmpty`).
 */
import { fileValue, linkFrom } from './data';
import { parseDate, parseDuration, startOfDay } from './dates';
import { fn, type Call, type FunctionTable } from './fn-types';
import { minOf } from './list-helpers';
import { pathArg } from './fn-misc';
import {
	dateValue,
	filePathOf,
	isEmptyValue,
	numericOf,
	textOf,
	truthy,
	typeOf,
	type DurationValue,
	type Value,
} from './values';

function toDate(c: Call): Value {
	const v = c.args[0]!;
	if (typeOf(v) === 'date') return v;
	if (typeof v === 'number') return dateValue(v, true);
	const parsed = typeof v === 'string' ? parseDate(v) : null;
	if (parsed === null)
		return c.env.fail(`cannot read ${JSON.stringify(textOf(v))} as a date (expected YYYY-MM-DD HH:mm:ss)`);
	return parsed;
}

function toNumber(c: Call): Value {
	const v = c.args[0]!;
	if (typeof v === 'number') return v;
	if (typeof v === 'boolean') return v ? 1 : 0;
	if (v === null) return null;
	const t = typeOf(v);
	if (t === 'date' || t === 'duration') return numericOf(v);
	if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
	return c.env.fail(`cannot read ${JSON.stringify(textOf(v))} as a number`);
}

function toDuration(c: Call): DurationValue {
	const v = c.args[0]!;
	if (typeOf(v) === 'duration') return v as DurationValue;
	if (typeof v === 'number') return { kind: 'duration', ms: v, months: 0 };
	const d = typeof v === 'string' ? parseDuration(v) : null;
	if (d === null) return c.env.fail(`cannot read ${JSON.stringify(textOf(v))} as a duration (e.g. "1d", "2 weeks")`);
	return d;
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Global functions. */
export const GLOBAL_FUNCTIONS: FunctionTable = {
	if: fn(
		'if(condition: any, trueResult: any, falseResult?: any): any',
		2,
		3,
		(c) => {
			if (truthy(c.env.evalWith(c.nodes[0]!, {}))) return c.env.evalWith(c.nodes[1]!, {});
			return c.nodes.length > 2 ? c.env.evalWith(c.nodes[2]!, {}) : null;
		},
		true,
	),
	date: fn('date(date: string): date', 1, 1, toDate),
	duration: fn('duration(value: string): duration', 1, 1, toDuration),
	now: fn('now(): date', 0, 0, (c) => dateValue(c.env.now, true)),
	today: fn('today(): date', 0, 0, (c) => dateValue(startOfDay(c.env.now), false)),
	number: fn('number(input: any): number', 1, 1, toNumber),
	list: fn('list(element: any): List', 1, 1, (c): Value => {
		const v = c.args[0]!;
		return Array.isArray(v) ? (v as readonly Value[]) : v === null ? [] : [v];
	}),
	link: fn('link(path: string | file, display?: value): Link', 1, 2, (c) => {
		const target = c.args[0]!;
		const display = c.args[1] ?? null;
		const path = filePathOf(target);
		if (path !== null) return { kind: 'link', target: path.replace(/\.md$/, ''), path, display };
		const text = textOf(target).replace(/^\[\[([^\]|]*)(?:\|[^\]]*)?\]\]$/, '$1');
		return linkFrom(c.env.model.data, text, c.env.row ?? c.env.thisPath ?? '', display);
	}),
	file: fn('file(path: string | file | url): file', 1, 1, (c) => {
		const path = pathArg(c, c.args[0]!);
		return path === null ? null : fileValue(path);
	}),
	max: fn('max(value1: number, value2: number...): number', 1, 100, (c) => minOf(c.args, 1)),
	min: fn('min(value1: number, value2: number...): number', 1, 100, (c) => minOf(c.args, -1)),
	random: fn('random(): number', 0, 0, () => Math.random()),
	escapeHTML: fn('escapeHTML(html: string): string', 1, 1, (c) =>
		textOf(c.args[0]!).replace(/[&<>"']/g, (ch) => HTML_ESCAPES[ch]!),
	),
	icon: fn('icon(name: string): icon', 1, 1, (c) => ({ kind: 'icon', value: textOf(c.args[0]!) })),
	image: fn('image(path: string | file | url): image', 1, 1, (c) => ({
		kind: 'image',
		value: filePathOf(c.args[0]!) ?? textOf(c.args[0]!),
	})),
	html: fn('html(html: string): html', 1, 1, (c) => ({ kind: 'html', value: textOf(c.args[0]!) })),
	not: fn('not(value: any): boolean', 1, 1, (c) => !truthy(c.args[0]!)),
	empty: fn('empty(value: any): boolean', 1, 1, (c) => isEmptyValue(c.args[0]!)),
	notEmpty: fn('notEmpty(value: any): boolean', 1, 1, (c) => !isEmptyValue(c.args[0]!)),
};
