/**
 * The mixed query syntax: filters and free text in one string, compatible with Obsidian's core
 * search where they overlap.
 *
 * | Syntax | Meaning |
 * |---|---|
 * | `word 词语` | free text, ranked (soft OR with a strong preference for notes that hold every word) |
 * | `"exact phrase"` | the phrase must appear (case-insensitive); its words are ranked too |
 * | `-word`, `-"phrase"` | notes holding it are left out |
 * | `/regex/` | a JavaScript regex (case-insensitive, Unicode) must match the note's text |
 * | `tag:#x` or `tag:x` | notes tagged `x` or `x/…` (frontmatter or inline) |
 * | `path:x` | the path contains `x` (case-insensitive); quote values with spaces |
 * | `file:x` | the file name contains `x` |
 * | `[key:value]`, `[key]` | the property contains `value` / is present and non-empty |
 * | `backlinks:x` | notes linking to note `x` (reserved for the UI; resolved through the port) |
 *
 * Any filter can be negated with `-`. Obsidian's `content:` is accepted as free text; other
 * operators (`line:`, `section:`, `task:`…), `OR` and parentheses are not supported and are
 * reported in `unsupported` — their words are still ranked.
 */
import { compileMatcher, type CompiledMatcher } from '../text/matcher';
import { normalKey } from '../text/normalize';

/** Longest search query accepted, in characters (a quoted phrase included). */
export const MAX_QUERY_CHARS = 10_000;

/** The bounded matcher of a `/regex/` clause: case-insensitive, on RE2. */
export function regexClauseMatcher(source: string): CompiledMatcher {
	return compileMatcher({ pattern: source, regex: true, caseSensitive: false });
}

/**
 * Whether a parsed query has nothing to match: no filter, phrase, regex or exclusion, and no letter
 * or digit in its text (`[`, `[:]`, `tag:`, `//`, zero-width characters). Such a query fails with a
 * reason rather than answering every note; a query of stop words has words and simply matches nothing.
 */
export function nothingToMatch(q: ParsedQuery): boolean {
	return (
		q.filters.length === 0 &&
		q.phrases.length === 0 &&
		q.regexes.length === 0 &&
		q.excluded.length === 0 &&
		!/[\p{L}\p{N}]/u.test(q.text)
	);
}

/** A filter that narrows the candidates before ranking. */
export type QueryFilter =
	| { kind: 'tag'; value: string; negate: boolean }
	| { kind: 'path'; value: string; negate: boolean }
	| { kind: 'file'; value: string; negate: boolean }
	| { kind: 'property'; key: string; value: string | null; negate: boolean }
	| { kind: 'backlinks'; target: string; negate: boolean };

/** A `/regex/` clause. */
export interface RegexClause {
	source: string;
	negate: boolean;
}

/** The parsed form of a query string. */
export interface ParsedQuery {
	/** The input, trimmed. */
	raw: string;
	/** Free text to rank (phrase words included), words separated by spaces. */
	text: string;
	/** Phrases that must appear. */
	phrases: string[];
	/** Words and phrases whose notes are left out. */
	excluded: string[];
	/** Regex clauses; `error` is set on the query when one does not compile. */
	regexes: RegexClause[];
	/** Filters, in input order. */
	filters: QueryFilter[];
	/** Operators or constructs we do not support (reported, never fatal). */
	unsupported: string[];
	/** Why the query cannot run (a regex that does not compile), or null. */
	error: string | null;
}

const FILTER_OPS = new Set(['tag', 'path', 'file', 'backlinks']);
const TEXT_OPS = new Set(['content']);
const OBSIDIAN_OPS = new Set([
	'line',
	'block',
	'section',
	'task',
	'task-todo',
	'task-done',
	'match-case',
	'ignore-case',
]);

/** Read a double-quoted string starting at `i` (on the quote); returns the content and the index after it. */
function readQuoted(s: string, i: number): [string, number] {
	let j = i + 1;
	let out = '';
	while (j < s.length && s[j] !== '"') {
		if (s[j] === '\\' && j + 1 < s.length) j++;
		out += s[j];
		j++;
	}
	return [out, Math.min(j + 1, s.length)];
}

/** Read up to the next whitespace. */
function readBare(s: string, i: number): [string, number] {
	let j = i;
	while (j < s.length && !/\s/.test(s[j]!)) j++;
	return [s.slice(i, j), j];
}

/** Parse a query string into filters, phrases, exclusions, regexes and free text. Never throws. */
export function parseQuery(input: string): ParsedQuery {
	const s = input.trim();
	const q: ParsedQuery = {
		raw: s,
		text: '',
		phrases: [],
		excluded: [],
		regexes: [],
		filters: [],
		unsupported: [],
		error: null,
	};
	if (s.length > MAX_QUERY_CHARS) {
		q.error = `query: ${s.length} characters is longer than the ${MAX_QUERY_CHARS}-character limit`;
		return q;
	}
	const words: string[] = [];
	// Remembered, so a query of many unclosed `[` reads the text once rather than once per `[`.
	const nextBracket = forwardFinder(s, ']');
	let i = 0;
	while (i < s.length) {
		if (/\s/.test(s[i]!)) {
			i++;
			continue;
		}
		let negate = false;
		if (s[i] === '-' && i + 1 < s.length && !/\s/.test(s[i + 1]!)) {
			negate = true;
			i++;
		}
		const c = s[i];
		if (c === '"') {
			const [phrase, next] = readQuoted(s, i);
			i = next;
			if (phrase.trim() === '') continue;
			if (negate) q.excluded.push(phrase);
			else {
				q.phrases.push(phrase);
				words.push(phrase);
			}
			continue;
		}
		if (c === '/') {
			const close = findRegexEnd(s, i + 1);
			if (close > i + 1) {
				const source = s.slice(i + 1, close);
				q.regexes.push({ source, negate });
				// The same bounded matcher as grep (RE2, linear time): refused features and bounds are
				// reported before any note is read.
				const compiled = regexClauseMatcher(source);
				if (!compiled.ok) q.error ??= `regex /${source}/: ${compiled.error.replace(/^pattern: /, '')}`;
				i = close + 1;
				continue;
			}
		}
		if (c === '[') {
			const close = nextBracket(i + 1);
			if (close > i + 1) {
				const inner = s.slice(i + 1, close);
				const colon = inner.indexOf(':');
				const key = (colon < 0 ? inner : inner.slice(0, colon)).trim();
				let value: string | null = colon < 0 ? null : inner.slice(colon + 1).trim();
				if (value !== null && value.startsWith('"') && value.endsWith('"') && value.length >= 2)
					value = value.slice(1, -1);
				if (value === '') value = null;
				if (key !== '') q.filters.push({ kind: 'property', key, value, negate });
				i = close + 1;
				continue;
			}
		}
		if (c === '(' || c === ')') {
			if (!q.unsupported.includes('parentheses')) q.unsupported.push('parentheses');
			i++;
			continue;
		}
		const op = /^([a-z][a-z-]*):/i.exec(s.slice(i));
		if (op) {
			const name = op[1]!.toLowerCase();
			const at = i + op[0].length;
			let value: string;
			let next: number;
			if (s[at] === '"') [value, next] = readQuoted(s, at);
			else [value, next] = readBare(s, at);
			if (FILTER_OPS.has(name)) {
				i = next;
				if (value === '') continue;
				if (name === 'tag') q.filters.push({ kind: 'tag', value: normalKey(value.replace(/^#/, '')), negate });
				else if (name === 'backlinks') q.filters.push({ kind: 'backlinks', target: value, negate });
				else q.filters.push({ kind: name as 'path' | 'file', value, negate });
				continue;
			}
			if (TEXT_OPS.has(name) || OBSIDIAN_OPS.has(name)) {
				if (OBSIDIAN_OPS.has(name) && !q.unsupported.includes(`${name}:`)) q.unsupported.push(`${name}:`);
				i = next;
				if (value === '') continue;
				if (negate) q.excluded.push(value);
				else words.push(value);
				continue;
			}
		}
		const [word, next] = readBare(s, i);
		i = next;
		if (word === 'OR' && !negate) {
			if (!q.unsupported.includes('OR')) q.unsupported.push('OR');
			continue;
		}
		if (negate) q.excluded.push(word);
		else words.push(word);
	}
	q.text = words.join(' ');
	return q;
}

/**
 * `find(from)`: the index of the next `needle` at or after `from`, or -1. The last answer is reused
 * while it still lies ahead, so searches from positions that only move forward read `s` once.
 */
function forwardFinder(s: string, needle: string): (from: number) => number {
	let searchedFrom = Number.POSITIVE_INFINITY;
	let found = -1;
	return (from) => {
		if (from < searchedFrom || (found >= 0 && found < from)) {
			found = s.indexOf(needle, from);
			searchedFrom = from;
		}
		return found;
	};
}

/** The index of the closing `/` of a regex starting after `from`, or -1 (escaped slashes skipped). */
function findRegexEnd(s: string, from: number): number {
	for (let j = from; j < s.length; j++) {
		if (s[j] === '\\') {
			j++;
			continue;
		}
		if (s[j] === '/') return j + 1 >= s.length || /\s/.test(s[j + 1]!) ? j : -1;
	}
	return -1;
}

/** The normalised form of a parsed query, for the result envelope's `query` field. */
export function describeQuery(q: ParsedQuery): Record<string, unknown> {
	return {
		text: q.text,
		phrases: q.phrases,
		excluded: q.excluded,
		regexes: q.regexes.map((r) => `${r.negate ? '-' : ''}/${r.source}/`),
		filters: q.filters.map((f) => ({ ...f })),
	};
}
