/**
 * The values of the Bases type system ("Bases syntax", Types): null, booleans, numbers, strings,
 * dates, durations, lists, objects, links, files, regular expressions and the presentation values
 * (`icon`, `image`, `html`). Equality, ordering, truthiness and text follow the help pages.
 */
import type { RE2JS } from 're2js';

/** A date; `time` says whether it carries a time of day (a `date` property has none). */
export interface DateValue {
	readonly kind: 'date';
	readonly ms: number;
	readonly time: boolean;
}
/** A duration: calendar months (for `M`, `y`) plus exact milliseconds. */
export interface DurationValue {
	readonly kind: 'duration';
	readonly ms: number;
	readonly months: number;
}
/** A link: its text, the file it resolves to (null when none) and an optional display value. */
export interface LinkValue {
	readonly kind: 'link';
	readonly target: string;
	readonly path: string | null;
	readonly display: Value;
}
/** A file of the vault. */
export interface FileValue {
	readonly kind: 'file';
	readonly path: string;
}
/** Key–value pairs (`{"a": 1}`, a property holding a mapping, `file.properties`). */
export interface ObjectValue {
	readonly kind: 'object';
	readonly entries: ReadonlyMap<string, Value>;
}
/** A `/regex/flags` literal, compiled for the linear-time engine (RE2). */
export interface RegexValue {
	readonly kind: 'regex';
	readonly source: string;
	readonly flags: string;
	readonly re: RE2JS;
}
/** What `icon()`, `image()` and `html()` return: a value a view renders, here its name, source or markup. */
export interface RenderValue {
	readonly kind: 'icon' | 'image' | 'html';
	readonly value: string;
}

/** Any value an expression produces. */
export type Value =
	| null
	| boolean
	| number
	| string
	| readonly Value[]
	| DateValue
	| DurationValue
	| LinkValue
	| FileValue
	| ObjectValue
	| RegexValue
	| RenderValue;

/** The type names `isType()` accepts and errors print. */
export type TypeName =
	| 'null'
	| 'boolean'
	| 'number'
	| 'string'
	| 'list'
	| 'date'
	| 'duration'
	| 'link'
	| 'file'
	| 'object'
	| 'regexp'
	| 'icon'
	| 'image'
	| 'html';

/** The type of `v`. */
export function typeOf(v: Value): TypeName {
	if (v === null) return 'null';
	if (typeof v === 'boolean') return 'boolean';
	if (typeof v === 'number') return 'number';
	if (typeof v === 'string') return 'string';
	if (Array.isArray(v)) return 'list';
	const kind = (v as { kind: string }).kind;
	return kind === 'regex' ? 'regexp' : (kind as TypeName);
}

/** A date value. */
export function dateValue(ms: number, time: boolean): DateValue {
	return { kind: 'date', ms, time };
}

/** An object value from plain entries. */
export function objectValue(entries: Iterable<[string, Value]>): ObjectValue {
	return { kind: 'object', entries: new Map(entries) };
}

/** Whether `v` counts as true (`if`, filters, `&&`, `isTruthy`). */
export function truthy(v: Value): boolean {
	if (v === null) return false;
	if (typeof v === 'boolean') return v;
	if (typeof v === 'number') return v !== 0 && !Number.isNaN(v);
	if (typeof v === 'string') return v.length > 0;
	if (Array.isArray(v)) return v.length > 0;
	const k = (v as { kind: string }).kind;
	if (k === 'object') return (v as ObjectValue).entries.size > 0;
	if (k === 'duration') return (v as DurationValue).ms !== 0 || (v as DurationValue).months !== 0;
	return true;
}

/** Whether `v` is empty (`isEmpty()`): null, `""`, `[]`, `{}`. */
export function isEmptyValue(v: Value): boolean {
	if (v === null) return true;
	if (typeof v === 'string') return v.length === 0;
	if (Array.isArray(v)) return v.length === 0;
	if (typeof v === 'object' && (v as ObjectValue).kind === 'object') return (v as ObjectValue).entries.size === 0;
	return false;
}

/** The file a value names when it is a file or a resolved link (how links compare with files). */
export function filePathOf(v: Value): string | null {
	if (v === null || typeof v !== 'object' || Array.isArray(v)) return null;
	const k = (v as { kind: string }).kind;
	if (k === 'file') return (v as FileValue).path;
	if (k === 'link') return (v as LinkValue).path;
	return null;
}

/** Equality (`==`, `contains`, `unique`): deep for lists and objects; links equal files they resolve to. */
export function equals(a: Value, b: Value): boolean {
	if (a === b) return true;
	if (a === null || b === null) return false;
	if (Array.isArray(a) || Array.isArray(b)) {
		if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
		const lb = b as readonly Value[];
		return (a as readonly Value[]).every((x, i) => equals(x, lb[i]!));
	}
	if (typeof a !== 'object' || typeof b !== 'object') {
		// A date compares with its text only when both are objects; primitives compare strictly (JavaScript's ===).
		return false;
	}
	const ka = (a as { kind: string }).kind;
	const kb = (b as { kind: string }).kind;
	if ((ka === 'link' || ka === 'file') && (kb === 'link' || kb === 'file')) {
		const pa = filePathOf(a);
		const pb = filePathOf(b);
		if (pa !== null || pb !== null) return pa === pb;
		return (a as LinkValue).target === (b as LinkValue).target;
	}
	if (ka !== kb) return false;
	switch (ka) {
		case 'date':
			return (a as DateValue).ms === (b as DateValue).ms;
		case 'duration':
			return (
				(a as DurationValue).ms === (b as DurationValue).ms &&
				(a as DurationValue).months === (b as DurationValue).months
			);
		case 'object': {
			const ea = (a as ObjectValue).entries;
			const eb = (b as ObjectValue).entries;
			if (ea.size !== eb.size) return false;
			for (const [k, v] of ea) if (!eb.has(k) || !equals(v, eb.get(k)!)) return false;
			return true;
		}
		case 'regex':
			return (
				(a as RegexValue).source === (b as RegexValue).source &&
				(a as RegexValue).flags === (b as RegexValue).flags
			);
		default:
			return (a as RenderValue).value === (b as RenderValue).value;
	}
}

/** A number for ordering and arithmetic: dates as ms, durations as ms, booleans as 0/1; null when none. */
export function numericOf(v: Value): number | null {
	if (typeof v === 'number') return v;
	if (typeof v === 'boolean') return v ? 1 : 0;
	if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
		const k = (v as { kind: string }).kind;
		if (k === 'date') return (v as DateValue).ms;
		if (k === 'duration') return (v as DurationValue).ms + (v as DurationValue).months * MONTH_MS;
	}
	return null;
}

/** The average month (moment's 146097/4800 days), for durations compared or counted in ms. */
export const MONTH_MS = (146097 / 4800) * 86_400_000;

/** Sort order of two values (sort, `sort()`, `groupBy`): nulls last, numbers and dates numerically, text naturally. */
export function compareValues(a: Value, b: Value): number {
	if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
	const na = numericOf(a);
	const nb = numericOf(b);
	if (na !== null && nb !== null) return na - nb;
	if (na !== null) return -1;
	if (nb !== null) return 1;
	return COLLATOR.compare(sortText(a), sortText(b));
}

const COLLATOR = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

function sortText(v: Value): string {
	if (Array.isArray(v)) return v.map(sortText).join(', ');
	if (typeof v === 'object' && v !== null && (v as LinkValue).kind === 'link') {
		const link = v as LinkValue;
		return typeof link.display === 'string' ? link.display : link.target;
	}
	return textOf(v);
}

/** The text of a value (`toString()`, `+` with a string, `join`): what a view shows in a cell. */
export function textOf(v: Value): string {
	if (v === null) return '';
	if (typeof v === 'string') return v;
	if (typeof v === 'number') return numberText(v);
	if (typeof v === 'boolean') return v ? 'true' : 'false';
	if (Array.isArray(v)) return v.map(textOf).join(', ');
	const k = (v as { kind: string }).kind;
	switch (k) {
		case 'date':
			return dateText(v as DateValue);
		case 'duration':
			return durationText(v as DurationValue);
		case 'link': {
			const link = v as LinkValue;
			return link.display !== null ? `[[${link.target}|${textOf(link.display)}]]` : `[[${link.target}]]`;
		}
		case 'file':
			return (v as FileValue).path;
		case 'object':
			return JSON.stringify(plainOf(v));
		case 'regex':
			return `/${(v as RegexValue).source}/${(v as RegexValue).flags}`;
		default:
			return (v as RenderValue).value;
	}
}

function numberText(n: number): string {
	return Number.isInteger(n) || !Number.isFinite(n) ? String(n) : String(Number(n.toPrecision(15)));
}

/** `YYYY-MM-DD`, plus ` HH:mm:ss` for a date with a time (the format `date()` reads). */
export function dateText(d: DateValue): string {
	const t = new Date(d.ms);
	const day = `${pad(t.getFullYear(), 4)}-${pad(t.getMonth() + 1)}-${pad(t.getDate())}`;
	return d.time ? `${day} ${pad(t.getHours())}:${pad(t.getMinutes())}:${pad(t.getSeconds())}` : day;
}

function durationText(d: DurationValue): string {
	const parts: string[] = [];
	if (d.months !== 0) parts.push(`${d.months} month${Math.abs(d.months) === 1 ? '' : 's'}`);
	if (d.ms !== 0 || parts.length === 0) parts.push(`${d.ms} ms`);
	return parts.join(' ');
}

/** Zero-padded decimal. */
export function pad(n: number, width = 2): string {
	return String(n).padStart(width, '0');
}

/** The JSON form of a value (the CLI's and MCP's `values`): dates as text, links as `[[…]]`, files as paths. */
export function plainOf(v: Value): unknown {
	if (v === null || typeof v !== 'object') return typeof v === 'number' && !Number.isFinite(v) ? null : v;
	if (Array.isArray(v)) return v.map(plainOf);
	const k = (v as { kind: string }).kind;
	if (k === 'object') {
		const out: Record<string, unknown> = {};
		for (const [key, val] of (v as ObjectValue).entries) out[key] = plainOf(val);
		return out;
	}
	if (k === 'duration') return numericOf(v);
	return textOf(v);
}
