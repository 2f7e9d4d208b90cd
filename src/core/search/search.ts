/**
 * Ranked search (seed 003, vault-search) without an LLM: `SearchIndex` keeps an inverted index
 * of a vault current; `search(index, query, options)` parses the mixed query, expands it,
 * filters, ranks with field-weighted BM25 and explains every hit with the seed's tiers.
 *
 * @example
 * ```ts
 * const index = await SearchIndex.build(source, {}, { onProgress: (done, total) => notice(done, total) });
 * const result = await search(index, 'tag:#security [status:open] xss 攻擊', { limit: 10 });
 * console.log(renderSearchMarkdown(result));
 * ```
 */
import type { NoteResult, QueryResult, SkippedFile } from '../contract';
import type { NoteSource } from '../port';
import { resolveScope } from '../scope';
import { DEFAULT_SETTINGS } from '../settings';
import { canonicalKey, expandQuery, SynonymTable, Vocabulary, type AliasLookup, type Expansion } from './expansion';
import { abstractOf, clip, flattenValue, forwardLinksOf, propertyValue } from './extract';
import { InvertedIndex, type NoteInput } from './index';
import { parseKeywordIndex, type KeywordIndex } from './keyword-index';
import { LinkGraph } from '../link-graph';
import { baseName } from '../paths';
import { closest } from '../suggest';
import { invertLinks } from './links';
import { describeQuery, parseQuery, type ParsedQuery, type QueryFilter } from './query-parser';
import { matchedWords, Scorer, strongTypedMatch, tierOf, TIER_POINTS, type Candidate, type ScoredWord, type Tier } from './rank';
import { resolveSearchSettings, type SearchSettings } from './settings';
import { analyzeQueryText, foldWord, hasSpecialScript, normalizeText, type QueryWord } from './tokenize';

/** Re-exported so faces import ranked search from this one module. */
export type { NoteInput } from './index';
export type { Tier } from './rank';
export type { SearchSettings } from './settings';
export { DEFAULT_SEARCH_SETTINGS, DEFAULT_TAG_VOCABULARY, resolveSearchSettings } from './settings';
export { parseQuery } from './query-parser';
export { renderSearchMarkdown } from './render';

/** Progress and cooperative scheduling of a bulk build. */
export interface BuildOptions {
	/** Called after each chunk with notes indexed so far and the total. */
	onProgress?: (done: number, total: number) => void;
	/** Milliseconds of work between yields (default 12, under one 60 Hz frame). */
	sliceMs?: number;
	/** How to yield to the host (default: a zero-delay timer, else a resolved promise). */
	yieldFn?: () => Promise<void>;
	/** Notes read concurrently per batch (default 64). */
	readBatch?: number;
}

const DEFAULT_SLICE_MS = 12; // why: stays under a 16 ms frame so Obsidian keeps painting during a build.
const DEFAULT_READ_BATCH = 64; // why: enough in flight to hide cachedRead latency without holding many texts at once.
const KEYWORD_A_FACTOR = 1.8; // why: a curated keyword line is worth an alias hit: BM25 of tf=1 in the aliases field ≈ 1.8 × idf.
const KEYWORD_B_FACTOR = 1.0; // why: a substring hit in an entry line is weaker evidence than a keyword line (seed: 30 vs 35).
const RERANK_FACTOR = 3; // why: synthesis boosts and keyword tiers reorder the head; 3× the limit leaves room to promote.
const VERIFY_CAP = 2000; // why: phrase/regex verification reads texts; beyond 2000 candidates the query is too broad to verify.
const MAX_TYPED_WORDS = 30; // why: matches the coverage bitmask width in rank.ts.
const PREFIX_MIN = 4; // why: shorter prefixes complete to hundreds of unrelated words.
const PREFIX_TERMS = 6; // why: the most frequent completions carry the inflections; the tail is noise.

// Core compiles without DOM or Node types; every host (browser, Electron, Node) has a timer.
declare function setTimeout(callback: () => void, ms: number): unknown;

function defaultYield(): Promise<void> {
	return new Promise((resolve) => {
		setTimeout(resolve, 0);
	});
}

function now(): number {
	return Date.now();
}

/** The search index of one vault, and the optional notes that steer it (keyword index, synonyms). */
export class SearchIndex {
	/** Resolved settings. */
	readonly settings: SearchSettings;
	/** The inverted index. */
	readonly index: InvertedIndex;
	/** The vault, when built from one (reads texts for excerpts, phrases and regexes). */
	source: NoteSource | null = null;
	/** The parsed keyword-index note, or null. */
	keywordIndex: KeywordIndex | null = null;
	/** Whether the keyword-index note was found. */
	keywordIndexStatus: 'used' | 'missing' | 'disabled';
	/** The synonym table, or null. */
	synonyms: SynonymTable | null = null;
	/** The controlled tag vocabulary. */
	readonly vocabulary: Vocabulary;
	/** Notes left out of the index, and why. */
	readonly skipped: SkippedFile[] = [];
	/** What the scope rules left out (folders, "Excluded files"), for `limitations`. */
	readonly exclusions: string[] = [];
	/** Bumped on every change, to invalidate derived maps. */
	private version = 0;
	private derivedBuilt = false;
	private aliasMap = new Map<string, number[]>();
	private basenameMap = new Map<string, number[]>();
	private linksVersion = -1;
	private inverted: Map<string, string[]> | null = null;
	/** Scoring scratch space. */
	readonly scorer: Scorer;

	/** An empty index; fill it with `upsert`, or use `SearchIndex.build`. */
	constructor(settings: Partial<SearchSettings> = {}) {
		this.settings = resolveSearchSettings(settings);
		this.index = new InvertedIndex(this.settings);
		this.scorer = new Scorer(this.index);
		this.vocabulary = new Vocabulary(this.settings.tagVocabulary);
		this.keywordIndexStatus = this.settings.keywordIndexPath === '' ? 'disabled' : 'missing';
	}

	/**
	 * Index every note of `source` in chunks that yield to the host between slices, then load
	 * the keyword-index and synonym notes when present.
	 */
	static async build(source: NoteSource, settings: Partial<SearchSettings> = {}, options: BuildOptions = {}): Promise<SearchIndex> {
		const si = new SearchIndex(settings);
		si.source = source;
		si.index.keepDerived = false;
		// The engine's scope rules: excluded folders, the config folder, the user's "Excluded files".
		const scope = resolveScope(source, { ...DEFAULT_SETTINGS, excludedFolders: si.settings.excludedFolders });
		si.exclusions.push(...scope.exclusions);
		const notes = scope.notes.filter((p) => !si.isExcluded(p, source.configDir));
		const sliceMs = options.sliceMs ?? DEFAULT_SLICE_MS;
		const yieldFn = options.yieldFn ?? defaultYield;
		const batch = options.readBatch ?? DEFAULT_READ_BATCH;
		let sliceStart = now();
		for (let i = 0; i < notes.length; i += batch) {
			const chunk = notes.slice(i, i + batch);
			const texts = await Promise.all(chunk.map((p) => source.read(p).catch((e: unknown) => e)));
			for (let k = 0; k < chunk.length; k++) {
				const path = chunk[k];
				const text = texts[k];
				const reason = source.getSkipReason(path);
				if (reason !== null) si.skipped.push({ path, reason });
				else if (typeof text !== 'string') si.skipped.push({ path, reason: `unreadable: ${text instanceof Error ? text.message : String(text)}` });
				else si.index.upsert({ path, text, metadata: source.getMetadata(path) });
			}
			options.onProgress?.(Math.min(i + batch, notes.length), notes.length);
			if (now() - sliceStart >= sliceMs) {
				await yieldFn();
				sliceStart = now();
			}
		}
		si.index.compact();
		si.index.trimScratch();
		si.version++;
		await si.loadSideNotes(source);
		return si;
	}

	/** (Re)load the keyword-index and synonym notes from the source; absent notes are not errors. */
	async loadSideNotes(source: NoteSource): Promise<void> {
		const { keywordIndexPath, synonymsPath } = this.settings;
		if (keywordIndexPath !== '') {
			try {
				this.setKeywordIndex(await source.read(keywordIndexPath));
			} catch {
				this.setKeywordIndex(null);
			}
		}
		if (synonymsPath !== '') {
			try {
				this.setSynonyms(await source.read(synonymsPath));
			} catch {
				this.setSynonyms(null);
			}
		}
	}

	/** Use this keyword-index note text (null: none). */
	setKeywordIndex(text: string | null): void {
		this.keywordIndex = text === null ? null : parseKeywordIndex(text);
		if (this.settings.keywordIndexPath !== '') this.keywordIndexStatus = text === null ? 'missing' : 'used';
	}

	/** Use this synonym note text (null: none). */
	setSynonyms(text: string | null): void {
		this.synonyms = text === null ? null : SynonymTable.parse(text);
	}

	/** Whether a path is outside the index (excluded folders, the config folder, the side notes). */
	isExcluded(path: string, configDir?: string): boolean {
		if (configDir !== undefined && path.startsWith(`${configDir}/`)) return true;
		if (path === this.settings.keywordIndexPath || path === this.settings.synonymsPath) return true;
		return this.settings.excludedFolders.some((f) => path.startsWith(f.endsWith('/') ? f : `${f}/`));
	}

	/** Live notes in the index. */
	get size(): number {
		return this.index.size;
	}

	/** Add or replace a note (a side note is parsed instead of indexed). */
	upsert(note: NoteInput): void {
		if (note.path === this.settings.keywordIndexPath) return this.setKeywordIndex(note.text);
		if (note.path === this.settings.synonymsPath) return this.setSynonyms(note.text);
		if (this.isExcluded(note.path, this.source?.configDir)) return;
		this.unmapNames(this.index.pathToDoc.get(note.path));
		const d = this.index.upsert(note);
		this.mapNames(d);
		this.version++;
	}

	/** Remove a note; false when it was not indexed. */
	remove(path: string): boolean {
		if (path === this.settings.keywordIndexPath) this.setKeywordIndex(null);
		if (path === this.settings.synonymsPath) this.setSynonyms(null);
		this.unmapNames(this.index.pathToDoc.get(path));
		const removed = this.index.remove(path);
		if (removed) this.version++;
		return removed;
	}

	/** A rename: the old path goes, the new one is indexed with its (unchanged) text and metadata. */
	rename(oldPath: string, note: NoteInput): void {
		this.remove(oldPath);
		this.upsert(note);
	}

	/** Re-read one note from the source and update it (removed when the source no longer lists it). */
	async refresh(path: string): Promise<void> {
		const source = this.source;
		if (!source) return;
		let text: string;
		try {
			text = await source.read(path);
		} catch {
			this.remove(path);
			return;
		}
		this.upsert({ path, text, metadata: source.getMetadata(path) });
	}

	/** The alias/title keys and the basename key of note `d`. */
	private namesOf(d: number): { aliasKeys: string[]; basenameKey: string } | null {
		const info = this.index.docs[d];
		if (!info) return null;
		const aliasKeys = [canonicalKey(info.title)];
		if (info.title !== info.basename) aliasKeys.push(canonicalKey(info.basename));
		for (const a of info.aliases) aliasKeys.push(canonicalKey(a));
		return { aliasKeys: aliasKeys.filter((k) => k !== ''), basenameKey: info.basename.toLowerCase() };
	}

	/** Add note `d` to the name maps (when they are built; they are built lazily on first search). */
	private mapNames(d: number): void {
		if (!this.derivedBuilt) return;
		const names = this.namesOf(d);
		if (!names) return;
		const push = (map: Map<string, number[]>, key: string): void => {
			const list = map.get(key);
			if (!list) map.set(key, [d]);
			else if (!list.includes(d)) list.push(d);
		};
		push(this.basenameMap, names.basenameKey);
		for (const k of names.aliasKeys) push(this.aliasMap, k);
	}

	/** Remove note `d` (before it leaves the index) from the name maps. */
	private unmapNames(d: number | undefined): void {
		if (!this.derivedBuilt || d === undefined) return;
		const names = this.namesOf(d);
		if (!names) return;
		const drop = (map: Map<string, number[]>, key: string): void => {
			const list = map.get(key)?.filter((x) => x !== d);
			if (!list || list.length === 0) map.delete(key);
			else map.set(key, list);
		};
		drop(this.basenameMap, names.basenameKey);
		for (const k of names.aliasKeys) drop(this.aliasMap, k);
	}

	/** Alias/title and basename maps: built once, then kept current by upsert/remove. */
	private ensureDerived(): void {
		if (this.derivedBuilt) return;
		this.derivedBuilt = true;
		this.aliasMap = new Map();
		this.basenameMap = new Map();
		this.index.docs.forEach((info, d) => {
			if (info) this.mapNames(d);
		});
	}

	/** Notes by alias/title key, for expansion. */
	aliasLookup(): AliasLookup {
		this.ensureDerived();
		return {
			namesFor: (key) => {
				const ids = this.aliasMap.get(key);
				if (!ids) return null;
				return ids.map((d) => this.index.docs[d]).filter((x) => x !== null).map((i) => ({ title: i.title, aliases: i.aliases }));
			},
		};
	}

	/** Note ids named by a wikilink name (basename, or a path with or without `.md`). */
	notesNamed(name: string): number[] {
		this.ensureDerived();
		const n = name.trim().replace(/\.md$/i, '');
		const byPath = this.index.pathToDoc.get(`${n}.md`);
		if (byPath !== undefined) return [byPath];
		const slash = n.lastIndexOf('/');
		return this.basenameMap.get((slash < 0 ? n : n.slice(slash + 1)).toLowerCase()) ?? [];
	}

	/**
	 * Target → linking notes: the source's resolvedLinks inverted, plus the notes whose `links:`
	 * field names the target (not in Obsidian's maps). Cached until the index changes.
	 */
	backlinkMap(source: NoteSource): Map<string, string[]> {
		if (this.inverted === null || this.linksVersion !== this.version) {
			const inverted = invertLinks(source.resolvedLinks());
			const graph = this.linkGraph(source);
			for (const path of this.index.pathToDoc.keys()) {
				for (const target of graph.fieldTargets(path)) {
					const list = inverted.get(target);
					if (!list) inverted.set(target, [path]);
					else if (!list.includes(path)) list.push(path);
				}
			}
			this.inverted = inverted;
			this.linksVersion = this.version;
		}
		return this.inverted;
	}

	/** The engine's link graph over the indexed notes, so links and backlinks read as in every other query. */
	linkGraph(source: NoteSource): LinkGraph {
		return new LinkGraph(source, [...this.index.pathToDoc.keys()], this.settings.linksKey);
	}
}

/** Options of one search. */
export interface SearchOptions {
	/** Maximum results (default from settings, 10). */
	limit?: number;
	/** Where to read texts and links (default: the source the index was built from). */
	source?: NoteSource | null;
	/** Fill `backlinks` (default true; the UI list can skip it). */
	withBacklinks?: boolean;
	/** Complete the last word as a prefix (search-as-you-type in a modal; default false). */
	prefixLast?: boolean;
}

/** One ranked hit: the contract's note result plus the ranked-search fields. */
export interface SearchHit extends NoteResult {
	/** Final score (BM25F × coverage × boosts). */
	score: number;
	/** Best tier, the seed's explanation of why the note matched. */
	tier: Tier;
	/** The seed's base points of that tier. */
	tier_points: number;
	/** The word that earned the tier. */
	match_term: string | null;
	/** Every query word (typed or generated) that matched. */
	matched_terms: string[];
	/** `## Abstract` section or first paragraph. */
	abstract: string;
	/** A synthesis note (`Type: permanent`) that the query strongly relates to. */
	synthesis: boolean;
	/** The heading of the section the excerpt comes from, or null. */
	section: string | null;
}

/** A generated search word, for reports. */
export interface ExpandedTerm {
	text: string;
	/** The typed word it expands, or null for the whole query. */
	from: string | null;
	source: Expansion['source'];
}

/** The envelope of a ranked search. */
export interface SearchResult extends QueryResult<SearchHit> {
	/** Words as typed (after analysis) and the generated ones. */
	terms: { typed: string[]; expanded: ExpandedTerm[] };
	/** Whether the keyword-index note was used. */
	keyword_index: 'used' | 'missing' | 'disabled';
	/** Hits explained by the keyword index vs by the index of note contents (the seed's "index" vs "grep"). */
	index_matches: number;
	grep_matches: number;
	/** What to try when nothing matched. */
	advice: string[];
}

function baseResult(index: SearchIndex, parsed: ParsedQuery | null, raw: string): SearchResult {
	return {
		status: 'success',
		query: parsed ? { raw, ...describeQuery(parsed) } : { raw },
		searched: { files: index.size, folders: [] },
		matched: 0,
		results: [],
		skipped: [...index.skipped],
		limitations: [],
		terms: { typed: [], expanded: [] },
		keyword_index: index.keywordIndexStatus,
		index_matches: 0,
		grep_matches: 0,
		advice: [],
	};
}

/**
 * The prefix to complete for a typed word, or null: single-term words of alphabetic scripts
 * other than English (which has its stemmer), 8+ letters losing their last three (a crude
 * suffix strip for inflected languages); any word when it is being typed.
 */
function prefixOf(w: QueryWord, typing: boolean): string | null {
	if (w.alts.length !== 1 || w.alts[0].length !== 1) return null;
	const t = w.alts[0][0];
	if (t.length < PREFIX_MIN || /[^\p{L}\p{M}]/u.test(t) || hasSpecialScript(t)) return null;
	if (typing) return w.text.length >= PREFIX_MIN ? foldWord(w.text) : null;
	if (/^[a-z]+$/.test(t)) return null;
	return t.length >= 8 ? t.slice(0, t.length - 3) : t;
}

/** A case-insensitive regex for a phrase, any whitespace run between its words. */
function phraseRegex(phrase: string): RegExp {
	const escaped = phrase.trim().replace(/[.*+?^${}()|[\]\\/]/g, '\\$&').replace(/\s+/g, '\\s+');
	return new RegExp(escaped, 'iu');
}

/** Ids of notes holding every word of every phrase (a phrase can only occur where all its words do), or null. */
function phraseCandidates(si: SearchIndex, phrases: readonly string[]): Set<number> | null {
	const sets: Set<number>[] = [];
	for (const p of phrases) for (const w of analyzeQueryText(p)) sets.push(docsMatchingWord(si, w));
	if (sets.length === 0) return null;
	const out = new Set<number>();
	for (const d of sets[0]) if (sets.every((s) => s.has(d))) out.add(d);
	return out;
}

/** The allowed-notes mask from filters and excluded words, or null when nothing restricts. */
function buildMask(si: SearchIndex, parsed: ParsedQuery, source: NoteSource | null, limitations: string[]): Uint8Array | null {
	const idx = si.index;
	const n = idx.idSpace;
	if (parsed.filters.length === 0 && parsed.excluded.length === 0) return null;
	const mask = new Uint8Array(n);
	for (let d = 0; d < n; d++) mask[d] = idx.isAlive(d) ? 1 : 0;
	for (const f of parsed.filters) {
		const test = filterTest(si, f, source, limitations);
		if (!test) continue;
		for (let d = 0; d < n; d++) {
			if (mask[d] !== 1) continue;
			const info = idx.docs[d];
			if (!info) continue;
			if (test(d) === f.negate) mask[d] = 0;
		}
	}
	for (const ex of parsed.excluded) {
		const words = analyzeQueryText(ex);
		if (words.length !== 1) continue; // multi-word exclusions are checked on the text
		for (const d of docsMatchingWord(si, words[0])) mask[d] = 0;
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
function filterTest(si: SearchIndex, f: QueryFilter, source: NoteSource | null, limitations: string[]): ((d: number) => boolean) | null {
	const docs = si.index.docs;
	switch (f.kind) {
		case 'tag':
			return (d) => (docs[d]?.tags ?? []).some((t) => t === f.value || t.startsWith(`${f.value}/`));
		case 'path': {
			const v = f.value.toLowerCase();
			return (d) => (docs[d]?.path.toLowerCase() ?? '').includes(v);
		}
		case 'file': {
			const v = f.value.toLowerCase();
			return (d) => `${docs[d]?.basename ?? ''}.md`.toLowerCase().includes(v);
		}
		case 'property': {
			const v = f.value?.toLowerCase() ?? null;
			return (d) => {
				const values = flattenValue(propertyValue(docs[d]?.frontmatter, f.key)).map((x) => x.toLowerCase());
				if (v === null) return values.some((x) => x.trim() !== '');
				return values.some((x) => x.includes(v) || x.replace(/^#/, '') === v.replace(/^#/, ''));
			};
		}
		case 'backlinks': {
			if (!source) {
				limitations.push(`backlinks:${f.target} ignored: no vault to read links from`);
				return null;
			}
			const targets = si.notesNamed(f.target).map((d) => docs[d]?.path).filter((p): p is string => p !== undefined);
			const linking = new Set<string>();
			const inverted = si.backlinkMap(source);
			for (const t of targets) for (const src of inverted.get(t) ?? []) linking.add(src);
			return (d) => linking.has(docs[d]?.path ?? '');
		}
	}
}

/** Mean idf of a word's first alternative (unknown terms count as rare). */
function wordIdf(si: SearchIndex, w: QueryWord): number {
	const alt = w.alts[0];
	let sum = 0;
	for (const term of alt) {
		const t = si.index.lookup(term);
		sum += t < 0 ? Math.log(1 + si.size) : si.index.idf(t);
	}
	return alt.length > 0 ? sum / alt.length : 0;
}

/** Keyword-index bonuses: phase A (keyword lines) and phase B (entry lines). */
function keywordBonus(si: SearchIndex, typed: readonly QueryWord[], expansions: readonly Expansion[]): Map<number, { points: number; covers: number }> {
	const out = new Map<number, { points: number; covers: number }>();
	const kw = si.keywordIndex;
	if (!kw) return out;
	const give = (name: string, points: number, covers: number): void => {
		for (const d of si.notesNamed(name)) {
			const b = out.get(d) ?? { points: 0, covers: 0 };
			b.points += points;
			b.covers |= covers;
			out.set(d, b);
		}
	};
	const lookups: { key: string; idf: number; covers: number; factor: number }[] = [];
	typed.forEach((w, i) => lookups.push({ key: canonicalKey(w.text), idf: wordIdf(si, w), covers: i < 30 ? 1 << i : 0, factor: 1 }));
	for (let i = 0; i + 1 < typed.length; i++) {
		lookups.push({ key: canonicalKey(typed[i].text + typed[i + 1].text), idf: wordIdf(si, typed[i]) + wordIdf(si, typed[i + 1]), covers: i + 1 < 30 ? (3 << i) >>> 0 : 0, factor: 1 });
	}
	for (const e of expansions) {
		const idf = e.words.reduce((s, w) => s + wordIdf(si, w), 0) / e.words.length;
		lookups.push({ key: canonicalKey(e.text), idf, covers: 0, factor: si.settings.expansionWeight });
	}
	const hitA = new Set<string>();
	for (const l of lookups) {
		for (const name of kw.keywords.get(l.key) ?? []) {
			give(name, KEYWORD_A_FACTOR * l.idf * l.factor, l.covers);
			hitA.add(name.toLowerCase());
		}
	}
	typed.forEach((w, i) => {
		const needle = foldWord(normalizeText(w.text));
		if (needle.length < 2) return;
		for (const e of kw.entries) {
			if (hitA.has(e.name.toLowerCase())) continue;
			const fieldHits = e.fields.filter((f) => f.includes(needle)).length;
			if (fieldHits > 0) give(e.name, KEYWORD_B_FACTOR * wordIdf(si, w) * (1 + 0.25 * (fieldHits - 1)), i < 30 ? 1 << i : 0);
		}
	});
	return out;
}

/** Surface forms to look for in a text when picking the excerpt, with the rarity of their word. */
function needlesOf(words: readonly ScoredWord[]): { needle: string; weight: number }[] {
	const out: { needle: string; weight: number }[] = [];
	for (const sw of words) {
		const t = foldWord(sw.word.text);
		if (t.length === 0) continue;
		// English stems: look for the stem so "developing" finds "develop…".
		const alt = sw.word.alts[0];
		const needle = alt.length === 1 && /^[a-z]+$/.test(alt[0]) && t.startsWith(alt[0]) ? alt[0] : t.replace(/…$/, '');
		if (needle !== '' && !out.some((n) => n.needle === needle)) out.push({ needle, weight: Math.max(0.1, sw.idf) * sw.weight });
	}
	return out;
}

const REPEAT_BONUS = 0.05; // why: distinct words decide the best section; repetitions only break ties.

/**
 * The heading section that best matches (distinct words weighted by rarity, repetitions as a
 * tie-break) and its first matching line, clipped around the match.
 */
function excerptFrom(text: string, bodyStart: number, needles: readonly { needle: string; weight: number }[], chars: number): { excerpt: string; section: string | null } | null {
	const body = text.slice(bodyStart);
	const lines = body.split('\n');
	// Fold the body once (one native pass) rather than line by line; folding keeps line breaks.
	const foldedLines = foldWord(normalizeText(body)).split('\n');
	const aligned = foldedLines.length === lines.length;
	let heading: string | null = null;
	let inCode = false;
	let best: { score: number; heading: string | null; line: string; at: number } | null = null;
	let cur = { score: 0, heading: null as string | null, line: '', at: -1, seen: new Set<string>() };
	const close = (): void => {
		if (cur.at >= 0 && (best === null || cur.score > best.score)) best = { score: cur.score, heading: cur.heading, line: cur.line, at: cur.at };
	};
	for (let li = 0; li < lines.length; li++) {
		const line = lines[li];
		const trimmed = line.trim();
		if (trimmed.startsWith('```')) inCode = !inCode;
		const h = inCode ? null : /^#{1,6}\s+(.*)$/.exec(trimmed);
		if (h) {
			close();
			heading = h[1].trim();
			cur = { score: 0, heading, line: '', at: -1, seen: new Set() };
			continue;
		}
		const folded = aligned ? foldedLines[li] : foldWord(normalizeText(line));
		for (const n of needles) {
			const at = folded.indexOf(n.needle);
			if (at < 0) continue;
			cur.score += cur.seen.has(n.needle) ? REPEAT_BONUS * n.weight : n.weight;
			cur.seen.add(n.needle);
			if (cur.at < 0) {
				cur.line = line;
				cur.at = at;
			}
		}
	}
	close();
	if (best === null) return null;
	const found: { heading: string | null; line: string; at: number } = best;
	const from = Math.max(0, found.at - Math.floor(chars / 3));
	return { excerpt: `${from > 0 ? '…' : ''}${clip(found.line.slice(from, from + chars), chars)}`, section: found.heading };
}

/** Run a ranked search. Never throws: a bad query comes back as `status: 'failed'` with `error`. */
export async function search(si: SearchIndex, query: string, options: SearchOptions = {}): Promise<SearchResult> {
	const limit = Math.max(1, Math.floor(options.limit ?? si.settings.defaultLimit));
	const source = options.source === undefined ? si.source : options.source;
	const parsed = parseQuery(query);
	const result = baseResult(si, parsed, query);
	result.query.limit = limit;
	if (parsed.error !== null) {
		result.status = 'failed';
		result.error = parsed.error;
		return result;
	}
	if (parsed.raw === '') {
		result.status = 'failed';
		result.error = 'query: empty — type words, "a phrase", tag:#x, path:x, [key:value] or /regex/';
		return result;
	}
	// A `backlinks:` note that does not exist is an error with near names, as in the backlinks
	// query — an empty list would read as "nothing links there".
	for (const f of parsed.filters) {
		if (f.kind !== 'backlinks' || si.notesNamed(f.target).length > 0) continue;
		const names = [...si.index.pathToDoc.keys()].map((path) => baseName(path));
		const near = closest(baseName(f.target), names);
		result.status = 'failed';
		result.error = `backlinks:${f.target}: no note of that name${near.length > 0 ? `; did you mean ${near.map((n) => `"${n}"`).join(', ')}?` : ''}`;
		if (near.length > 0) result.suggestions = near;
		return result;
	}
	if (si.index.needsCompaction) si.index.compact();
	const limitations = result.limitations;
	for (const u of parsed.unsupported) limitations.push(`${u} is not supported; its words are ranked as free text`);
	if (si.keywordIndexStatus === 'missing') {
		limitations.push(`No keyword index at ${si.settings.keywordIndexPath} — run /vault-index --full to build it (searched the full-text index instead).`);
	}
	limitations.push(...si.exclusions);

	const typed = analyzeQueryText(parsed.text).slice(0, MAX_TYPED_WORDS);
	const expansions = expandQuery(typed, parsed.text, { synonyms: si.synonyms, aliases: si.aliasLookup(), vocabulary: si.vocabulary });
	result.terms.typed = typed.map((w) => w.text);
	result.terms.expanded = expansions.map((e) => ({ text: e.text, from: e.from >= 0 ? typed[e.from].text : null, source: e.source }));

	const scored: ScoredWord[] = typed.map((w, i) => ({ word: w, weight: 1, origin: i, expansion: false, label: w.text, idf: wordIdf(si, w) }));
	for (const e of expansions) {
		const weight = si.settings.expansionWeight / Math.sqrt(e.words.length);
		const of = e.from >= 0 ? typed[e.from].text : parsed.text;
		for (const w of e.words) scored.push({ word: w, weight, origin: e.from, expansion: true, label: `${e.text} (${e.source} of ${of})`, idf: wordIdf(si, w) });
	}

	// Prefix completions: inflected forms in languages without a stemmer (восстановить → восстановление)
	// and a word still being typed. One alternative-word per typed word, weighted as an expansion.
	const typingAt = options.prefixLast === true && !/\s$/.test(query) ? typed.length - 1 : -1;
	typed.forEach((w, i) => {
		const prefix = si.settings.prefixWeight > 0 ? prefixOf(w, i === typingAt) : null;
		if (prefix === null) return;
		const terms = si.index.termsWithPrefix(prefix, PREFIX_TERMS);
		if (terms.length > 0) scored.push({ word: { text: `${prefix}…`, alts: terms.map((t) => [t]) }, weight: si.settings.prefixWeight, origin: i, expansion: true, label: `${prefix}… (prefix of ${w.text})`, idf: 0 });
	});

	const allowed = buildMask(si, parsed, source, limitations);
	const bonus = keywordBonus(si, typed, expansions);
	const needsText = parsed.phrases.length > 0 || parsed.regexes.length > 0 || parsed.excluded.some((e) => analyzeQueryText(e).length !== 1);
	let candidates: Candidate[];
	let total: number;
	if (scored.length > 0 || bonus.size > 0) {
		const topK = needsText ? VERIFY_CAP : Math.max(limit * RERANK_FACTOR, 30);
		({ top: candidates, total } = si.scorer.rank(scored, scored.slice(0, typed.length).map((w) => Math.max(0.1, w.idf)), allowed, bonus, topK));
		if (needsText && total > VERIFY_CAP) limitations.push(`Only the best ${VERIFY_CAP} of ${total} candidates were checked for phrases/regexes.`);
	} else {
		candidates = [];
		for (let d = 0; d < si.index.idSpace; d++) {
			if (si.index.isAlive(d) && (allowed === null || allowed[d] === 1)) candidates.push({ doc: d, score: 0, coverage: 1 });
		}
		candidates.sort((a, b) => (si.index.docs[a.doc]?.path ?? '').localeCompare(si.index.docs[b.doc]?.path ?? ''));
		total = candidates.length;
	}

	const texts = new Map<number, string>();
	if (needsText) {
		if (!source) {
			result.status = 'failed';
			result.error = 'query: phrases, regexes and multi-word exclusions need the vault text, and this index has no source';
			return result;
		}
		const phrases = parsed.phrases.map(phraseRegex);
		const excludedPhrases = parsed.excluded.filter((e) => analyzeQueryText(e).length !== 1).map(phraseRegex);
		const regexes = parsed.regexes.map((r) => ({ re: new RegExp(r.source, 'iu'), negate: r.negate }));
		const possible = phraseCandidates(si, parsed.phrases);
		const kept: Candidate[] = [];
		for (const c of candidates) {
			const info = si.index.docs[c.doc];
			if (!info || (possible !== null && !possible.has(c.doc))) continue;
			let text: string;
			try {
				text = await source.read(info.path);
			} catch {
				continue;
			}
			if (!phrases.every((p) => p.test(text))) continue;
			if (excludedPhrases.some((p) => p.test(text))) continue;
			if (!regexes.every((r) => r.re.test(text) !== r.negate)) continue;
			texts.set(c.doc, text);
			kept.push(c);
		}
		candidates = kept;
		total = kept.length;
	}

	// Explain the head, apply the synthesis boost, re-sort, cut.
	const explained = candidates.slice(0, Math.max(limit * RERANK_FACTOR, limit)).map((c) => {
		const info = si.index.docs[c.doc];
		const matches = scored.length > 0 ? matchedWords(si.index, c.doc, scored) : [];
		let { tier, term } = scored.length > 0 || bonus.has(c.doc) ? tierOf(matches) : { tier: 'filter' as Tier, term: null };
		let score = c.score;
		const synthesis = info !== null && info.synthesis && strongTypedMatch(matches);
		if (synthesis) {
			score *= si.settings.synthesisBoost;
			tier = 'synthesis';
		} else if (bonus.has(c.doc)) {
			tier = 'keyword-index';
			term = term ?? typed[0]?.text ?? null;
		}
		return { c, matches, tier, term, score, synthesis };
	});
	explained.sort((a, b) => b.score - a.score || (si.index.docs[a.c.doc]?.path ?? '').localeCompare(si.index.docs[b.c.doc]?.path ?? ''));
	const head = explained.slice(0, limit);
	if (total > head.length) limitations.push(`Showing ${head.length} of ${total} matching notes (limit ${limit}).`);

	const inverted = source && options.withBacklinks !== false ? si.backlinkMap(source) : null;
	// Links as every other query reports them: body, [[…]] properties and the `links:` field.
	const graph = source ? new LinkGraph(source, [], si.settings.linksKey) : null;
	const indexed = (path: string): boolean => si.index.pathToDoc.has(path);
	for (const e of head) {
		const info = si.index.docs[e.c.doc];
		if (!info) continue;
		const words = e.matches.map((m) => m.sw);
		const derived = !si.index.keepDerived;
		let text = texts.get(e.c.doc);
		if (source && text === undefined && (words.length > 0 || derived)) {
			try {
				text = await source.read(info.path);
			} catch {
				text = undefined;
			}
		}
		const meta = derived && source ? source.getMetadata(info.path) : null;
		const abstract = derived && text !== undefined ? clip(abstractOf(text, meta, info.bodyStart, si.settings.abstractHeadings), si.settings.excerptChars) : info.abstract;
		let excerpt = abstract;
		let section: string | null = null;
		const found = text === undefined || words.length === 0 ? null : excerptFrom(text, info.bodyStart, needlesOf(words), si.settings.excerptChars);
		if (found) ({ excerpt, section } = found);
		const matchedTerms: string[] = [];
		for (const m of e.matches) if (!matchedTerms.includes(m.sw.label)) matchedTerms.push(m.sw.label);
		result.results.push({
			path: info.path,
			title: info.title,
			folder: info.folder,
			frontmatter: info.frontmatter,
			excerpt,
			forward_links: graph ? graph.forwardNames(info.path) : derived ? forwardLinksOf(meta) : info.forwardLinks,
			backlinks: inverted && graph ? graph.backlinksAmong(info.path, (inverted.get(info.path) ?? []).filter(indexed).sort()) : [],
			score: Math.round(e.score * 1000) / 1000,
			tier: e.tier,
			tier_points: TIER_POINTS[e.tier] + 5 * Math.max(0, e.matches.filter((m) => !m.sw.expansion).length - 1),
			match_term: e.term,
			matched_terms: matchedTerms,
			abstract,
			synthesis: e.synthesis,
			section,
		});
	}
	result.matched = total;
	result.index_matches = result.results.filter((r) => r.tier === 'keyword-index').length;
	result.grep_matches = result.results.length - result.index_matches;
	if (result.skipped.length > 0) result.status = 'partial';
	if (result.results.length === 0) result.advice = noResultsAdvice(result, si);
	return result;
}

/** The seed's no-results advice. */
function noResultsAdvice(result: SearchResult, si: SearchIndex): string[] {
	const tried = [...result.terms.typed, ...result.terms.expanded.map((e) => e.text)];
	const advice = [`Terms tried: ${tried.length > 0 ? tried.join(', ') : '(none — the query held only filters or stop words)'}`];
	advice.push('Browse the MOC notes (e.g. 000.Index/) for topic discovery.');
	advice.push('Broaden the query: fewer words, or drop a filter.');
	advice.push(/\p{sc=Han}/u.test(tried.join('')) ? 'Try the English terms as well (e.g. the note titles you expect).' : 'Try the Chinese/Japanese terms as well, or a synonym.');
	if (si.keywordIndexStatus === 'missing') advice.push('Run /vault-index --full to enable the keyword index.');
	return advice;
}
