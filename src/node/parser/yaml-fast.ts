/**
 * A fast path for the frontmatter almost every note has — `key: scalar` lines and block
 * lists of scalars — giving exactly what js-yaml with the core schema gives, or `undefined`
 * ("not sure") for anything else, which then goes to js-yaml. Scalars are resolved with
 * js-yaml's own core-schema types, so `2024-07-21` stays a string and `0x1F` is 31 exactly
 * as js-yaml decides. A property test checks it against js-yaml.
 */
import { types, type Type } from 'js-yaml';

// js-yaml 4 exports its built-in types at runtime, but @types/js-yaml does not declare them.
declare module 'js-yaml' {
	/** js-yaml's built-in scalar types (the ones the core schema resolves implicitly). */
	export const types: { null: Type; bool: Type; int: Type; float: Type };
}

// The implicit types of js-yaml's CORE_SCHEMA, in its resolution order.
const IMPLICIT = [types.null, types.bool, types.int, types.float];

// Anything js-yaml would reject or treat specially is left to js-yaml: tabs, CR, controls and
// surrogates (its printable check), and keys that are not plain words.
// eslint-disable-next-line no-control-regex -- mirrors js-yaml's printable-character check, which is about control characters
const NOT_SIMPLE = /[\x00-\x09\x0B-\x1F\x7F-\x9F\uD800-\uDFFF\uFFFE\uFFFF]/;
const RESERVED_KEYS = new Set(['null', 'Null', 'NULL', 'true', 'True', 'TRUE', 'false', 'False', 'FALSE', '__proto__']);
// Characters that cannot start a plain scalar, or do something else when they do.
const INDICATORS = '-?:,[]{}#&*!|>\'"%@`';

/** True for a plain word key: `[A-Za-z_][A-Za-z0-9_ .-]*`, not ending in a space. */
function isSimpleKey(key: string): boolean {
	const n = key.length;
	if (n === 0 || key.charCodeAt(n - 1) === 32) return false;
	for (let k = 0; k < n; k++) {
		const c = key.charCodeAt(k);
		const letter = (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
		if (letter) continue;
		if (k > 0 && ((c >= 48 && c <= 57) || c === 32 || c === 46 || c === 45)) continue;
		return false;
	}
	return true;
}

/** A core-schema plain scalar: null, bool, int, float, else the string itself. */
function resolvePlain(s: string): unknown {
	// Only `~`, digits, signs, `.` and the words null/true/false (any case js-yaml accepts)
	// can resolve to something else; any other first character means a string.
	const c = s.charCodeAt(0);
	const maybeTyped =
		c === 126 ||
		c === 43 ||
		c === 45 ||
		c === 46 ||
		(c >= 48 && c <= 57) ||
		c === 110 ||
		c === 78 ||
		c === 116 ||
		c === 84 ||
		c === 102 ||
		c === 70;
	if (!maybeTyped) return s;
	for (const type of IMPLICIT) {
		if (type.resolve(s)) return type.construct(s) as unknown;
	}
	return s;
}

/** A one-line scalar (already trimmed and non-empty), or undefined when not certain. */
function scalar(s: string): unknown {
	const first = s.charCodeAt(0);
	const last = s.charCodeAt(s.length - 1);
	if (first === 34 /* " */) {
		if (s.length < 2 || last !== 34) return undefined;
		const inner = s.slice(1, -1);
		return inner.includes('"') || inner.includes('\\') ? undefined : inner;
	}
	if (first === 39 /* ' */) {
		if (s.length < 2 || last !== 39) return undefined;
		const inner = s.slice(1, -1);
		return inner.includes("'") ? undefined : inner;
	}
	if (s === '[]') return [];
	if (s === '{}') return {};
	if (INDICATORS.includes(s[0]!)) return undefined;
	if (last === 58 /* : */ || s.includes(': ') || s.includes(' #')) return undefined;
	return resolvePlain(s);
}

/** Offset of the first non-space character of [p, end) of `src` (`end` when blank). */
function skipSpaces(src: string, p: number, end: number): number {
	while (p < end && src.charCodeAt(p) === 32) p++;
	return p;
}

/** The start of the first line from line start `p` on that holds more than spaces, or the length. */
function filledLine(src: string, p: number): number {
	for (let i = p; i < src.length; i++) {
		const c = src.charCodeAt(i);
		if (c === 10) p = i + 1;
		else if (c !== 32) return p;
	}
	return src.length;
}

/** End of the line starting at `p` (offset of its `\n`, or the length). */
function lineEnd(src: string, p: number): number {
	const nl = src.indexOf('\n', p);
	return nl < 0 ? src.length : nl;
}

/**
 * The value of a block list item line [p, end) whose `-` is at `dash`: null for a bare `-`,
 * undefined when it is not a simple item.
 */
function listItem(src: string, dash: number, end: number): unknown {
	if (dash + 1 < end && src.charCodeAt(dash + 1) !== 32) return undefined;
	let s = skipSpaces(src, dash + 1, end);
	let e = end;
	while (e > s && src.charCodeAt(e - 1) === 32) e--;
	if (s === e) return null;
	return scalar(src.slice(s, e));
}

/**
 * Parse simple frontmatter YAML; `undefined` when it is not simple enough to be certain
 * (including empty input), in which case the caller must use js-yaml.
 */
export function parseSimpleYaml(src: string): Record<string, unknown> | undefined {
	if (NOT_SIMPLE.test(src)) return undefined;
	const out: Record<string, unknown> = {};
	const keys = new Set<string>();
	const len = src.length;
	for (let p = filledLine(src, 0); p < len; p = filledLine(src, p)) {
		// A key starts its line.
		if (src.charCodeAt(p) === 32) return undefined;
		const end = lineEnd(src, p);
		let colon = src.indexOf(': ', p);
		if (colon < 0 || colon >= end) {
			if (src.charCodeAt(end - 1) !== 58) return undefined;
			colon = end - 1;
		}
		const key = src.slice(p, colon);
		// A repeated key is an error in js-yaml: let it report it.
		if (!isSimpleKey(key) || RESERVED_KEYS.has(key) || keys.has(key)) return undefined;
		let vs = skipSpaces(src, colon + 1, end);
		let ve = end;
		while (ve > vs && src.charCodeAt(ve - 1) === 32) ve--;
		let value: unknown;
		p = end + 1;
		if (vs < ve) {
			value = scalar(src.slice(vs, ve));
			if (value === undefined) return undefined;
		} else {
			// No inline value: null, or a block list of scalars on the following lines.
			value = null;
			let list: unknown[] | null = null;
			let itemIndent = -1;
			for (let q = filledLine(src, p); q < len; q = filledLine(src, p)) {
				const qe = lineEnd(src, q);
				const dash = skipSpaces(src, q, qe);
				if (src.charCodeAt(dash) !== 45) {
					if (dash > q) return undefined;
					break;
				}
				if (itemIndent < 0) itemIndent = dash - q;
				else if (dash - q !== itemIndent) return undefined;
				const item = listItem(src, dash, qe);
				if (item === undefined) return undefined;
				if (list === null) list = [];
				list.push(item);
				p = qe + 1;
			}
			if (list !== null) value = list;
		}
		out[key] = value;
		keys.add(key);
	}
	return keys.size > 0 ? out : undefined;
}
