/** Query filters, excluded words and phrase checks as a mask over note ids (narrowing happens before ranking). */
import { findNote } from '../note-ref';
import { folderPrefix } from '../paths';
import type { NoteSource } from '../port';
import { normalKey } from '../text/normalize';
import { flattenValue, propertyValue } from '../yaml-values';
import type { TrigramIndex } from '../text/trigram';
import { and, phraseQuery } from '../text/trigram-query';
import { regexClauseMatcher, type ParsedQuery, type QueryFilter } from './query-parser';
import type { SearchIndex } from './search-index';
import { analyzeQueryText, type QueryWord } from './tokenize';

/** Ids of notes holding every word of every phrase (a phrase can only occur where all its words do), or null. */
export function phraseCandidates(si: SearchIndex, phrases: readonly string[]): Set<number> | null {
	const sets: Set<number>[] = [];
	for (const p of phrases) for (const w of analyzeQueryText(p)) sets.push(docsMatchingWord(si, w));
	if (sets.length === 0) return null;
	const out = new Set<number>();
	for (const d of sets[0]!) if (sets.every((s) => s.has(d))) out.add(d);
	return out;
}

/** The allowed-notes mask from filters and excluded words, or null when nothing restricts. */
export function buildMask(
	si: SearchIndex,
	parsed: ParsedQuery,
	source: NoteSource | null,
	limitations: string[],
	folders: readonly string[] = [],
	paths?: ReadonlySet<string>,
): Uint8Array | null {
	const idx = si.index;
	const n = idx.idSpace;
	if (parsed.filters.length === 0 && parsed.excluded.length === 0 && folders.length === 0 && !paths) return null;
	const mask = new Uint8Array(n);
	// `folders` (vault-relative prefixes ending in "/") and `paths` (a base view's rows) narrow the notes before any filter.
	for (let d = 0; d < n; d++) {
		const path = idx.docs.path(d);
		mask[d] =
			idx.isAlive(d) &&
			(folders.length === 0 || folders.some((f) => path?.startsWith(f) === true)) &&
			(!paths || (typeof path === 'string' && paths.has(path)))
				? 1
				: 0;
	}
	for (const f of parsed.filters) {
		const test = filterTest(si, f, source, limitations);
		if (!test) continue;
		for (let d = 0; d < n; d++) {
			if (mask[d] !== 1) continue;
			const info = idx.docs.path(d);
			if (!info) continue;
			if (test(d) === f.negate) mask[d] = 0;
		}
	}
	for (const ex of parsed.excluded) {
		const words = analyzeQueryText(ex);
		if (words.length !== 1) continue; // multi-word exclusions are checked on the text
		for (const d of docsMatchingWord(si, words[0]!)) mask[d] = 0;
	}
	return mask;
}

/** Ids of notes holding a word fully (any alternative). */
function docsMatchingWord(si: SearchIndex, word: QueryWord): Set<number> {
	const out = new Set<number>();
	for (const alt of word.alts) {
		const counts = new Map<number, number>();
		for (const term of alt) {
			const t = si.index.lookup(term);
			if (t < 0) continue;
			si.index.forEachScored(t, null, (d) => counts.set(d, (counts.get(d) ?? 0) + 1));
		}
		for (const [d, c] of counts) if (c === alt.length) out.add(d);
	}
	return out;
}

/** A predicate for one filter over note ids, or null when it cannot be applied (reported). */
function filterTest(
	si: SearchIndex,
	f: QueryFilter,
	source: NoteSource | null,
	limitations: string[],
): ((d: number) => boolean) | null {
	const docs = si.index.docs;
	switch (f.kind) {
		case 'tag':
			return (d) => (docs.get(d)?.tags ?? []).some((t) => t === f.value || t.startsWith(`${f.value}/`));
		case 'path': {
			const v = normalKey(f.value);
			return (d) => normalKey(docs.path(d) ?? '').includes(v);
		}
		case 'file': {
			const v = normalKey(f.value);
			return (d) => normalKey(`${docs.get(d)?.basename ?? ''}.md`).includes(v);
		}
		case 'property': {
			const v = f.value === null ? null : normalKey(f.value);
			return (d) => {
				const values = flattenValue(propertyValue(docs.get(d)?.frontmatter, f.key)).map(normalKey);
				if (v === null) return values.some((x) => x.trim() !== '');
				return values.some((x) => x.includes(v) || x.replace(/^#/, '') === v.replace(/^#/, ''));
			};
		}
		case 'backlinks': {
			if (!source) {
				limitations.push(`backlinks:${f.target} ignored: no vault to read links from`);
				return null;
			}
			// The one resolver (note-ref.ts); search() has already failed on unknown and ambiguous names.
			const ref = findNote(source, f.target);
			const linking = new Set(
				ref.kind === 'found' ? (si.linkGraph(source).linkersOfEach([ref.path]).get(ref.path) ?? []) : [],
			);
			// Self-links are not backlinks, as in the backlinks query (found by the agreement property test).
			if (ref.kind === 'found') linking.delete(ref.path);
			return (d) => linking.has(docs.path(d) ?? '');
		}
	}
}

/**
 * Whether a note can hold every phrase and every (not negated) regex of the query, by the trigram
 * index: false only for a note the index knows and names no candidate; null when the index or the
 * clauses require nothing (every note is read). The texts are still verified, so answers equal a
 * full read.
 */
export function textCandidates(
	parsed: ParsedQuery,
	trigrams: TrigramIndex | null | undefined,
): ((path: string) => boolean) | null {
	if (!trigrams) return null;
	const regexes = parsed.regexes.flatMap((r) => {
		const compiled = r.negate ? null : regexClauseMatcher(r.source);
		return compiled?.ok === true ? [compiled.matcher.trigrams] : [];
	});
	return trigrams.mayHold(and([...parsed.phrases.map(phraseQuery), ...regexes]));
}

/**
 * The `folders` option as path prefixes (`Notes` → `Notes/`; the root, "" or "/", means the whole
 * vault); a folder holding no indexed note is an error, since searching nothing would read as
 * "nothing matched".
 */
export function folderPrefixes(
	si: SearchIndex,
	folders: readonly string[] | undefined,
): { prefixes: string[] } | { error: string } {
	const wanted = [...new Set((folders ?? []).map(folderPrefix))];
	if (wanted.length === 0 || wanted.includes('')) return { prefixes: [] };
	const paths: string[] = [];
	for (let d = 0; d < si.index.idSpace; d++) if (si.index.isAlive(d)) paths.push(si.index.docs.path(d) ?? '');
	const missing = wanted.filter((prefix) => !paths.some((path) => path.startsWith(prefix)));
	if (missing.length > 0)
		return { error: `folders: no notes under ${missing.map((m) => `"${m}"`).join(', ')} in this vault` };
	return { prefixes: wanted };
}
