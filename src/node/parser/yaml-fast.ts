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
	if (INDICATORS.includes(s[0])) return undefined;
	if (last === 58 /* : */ || s.includes(': ') || s.includes(' #')) return undefined;
	return resolvePlain(s);
}

/** Index of the first non-space character of `line` (its length when blank). */
function indentOf(line: string): number {
	let k = 0;
	while (k < line.length && line.charCodeAt(k) === 32) k++;
	return k;
}

/** The value of a block list item line (`- x` at `indent`), null for `-`, undefined if not one. */
function listItem(line: string, indent: number): unknown {
	if (indentOf(line) !== indent || line.charCodeAt(indent) !== 45 /* - */) return undefined;
	const rest = line.slice(indent + 1);
	if (rest.length > 0 && rest.charCodeAt(0) !== 32) return undefined;
	const value = rest.trim();
	return value.length === 0 ? null : scalar(value);
}

/**
 * Parse simple frontmatter YAML; `undefined` when it is not simple enough to be certain
 * (including empty input), in which case the caller must use js-yaml.
 */
export function parseSimpleYaml(src: string): Record<string, unknown> | undefined {
	if (NOT_SIMPLE.test(src)) return undefined;
	const lines = src.split('\n');
	const out: Record<string, unknown> = {};
	let keys = 0;
	for (let i = 0; i < lines.length; i++) {
		const line = lines[i];
		const indent = indentOf(line);
		if (indent === line.length) continue;
		if (indent > 0) return undefined;
		let colon = line.indexOf(': ');
		if (colon < 0) {
			if (line.charCodeAt(line.length - 1) !== 58) return undefined;
			colon = line.length - 1;
		}
		const key = line.slice(0, colon);
		if (!isSimpleKey(key) || RESERVED_KEYS.has(key)) return undefined;
		const rest = line.slice(colon + 1).trim();
		let value: unknown;
		if (rest.length > 0) {
			value = scalar(rest);
			if (value === undefined) return undefined;
		} else {
			// No inline value: null, or a block list of scalars on the following lines.
			let j = i + 1;
			while (j < lines.length && indentOf(lines[j]) === lines[j].length) j++;
			if (j < lines.length && lines[j].charCodeAt(indentOf(lines[j])) === 45 && (indentOf(lines[j]) > 0 || listItem(lines[j], 0) !== undefined)) {
				const itemIndent = indentOf(lines[j]);
				const list: unknown[] = [];
				for (; j < lines.length; j++) {
					const itemLine = lines[j];
					const k = indentOf(itemLine);
					if (k === itemLine.length) continue;
					if (k < itemIndent || (k === 0 && itemLine.charCodeAt(0) !== 45)) break;
					const item = listItem(itemLine, itemIndent);
					if (item === undefined) return undefined;
					list.push(item);
				}
				value = list;
				i = j - 1;
			} else value = null;
		}
		out[key] = value;
		keys++;
	}
	// A repeated key is an error in js-yaml: let it report it.
	return keys > 0 && Object.keys(out).length === keys ? out : undefined;
}
