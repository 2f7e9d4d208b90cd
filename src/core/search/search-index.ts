/**
 * The search index of one vault: the inverted index plus what steers ranking (keyword-index
 * note, synonyms, tag vocabulary), the name maps behind alias expansion and `backlinks:`, and
 * the bulk build that yields to the host between slices.
 */
import type { SkippedFile } from '../contract';
import { LinkGraph } from '../link-graph';
import { byWalkOrder, fileName } from '../paths';
import type { NoteSource } from '../port';
import { positionsOfSteps, resolveScope, resolveScopeSteps } from '../scope';
import { drain, hostTurn, TimeSlice } from '../steps';
import { DEFAULT_SETTINGS } from '../settings';
import { canonicalKey, namePrefixStripped, SynonymTable, Vocabulary, type AliasLookup } from './expansion';
import type { DocInfo } from './extract';
import type { NoteNames, SavedIndexState } from './index-state';
import { frontmatterSkipReason, linksFieldNames, searchSkipReason } from '../note-info';
import type { BuildOptionsOf } from './build-options';
import { ForeignTermIds, type CountedNote } from './counted-notes';
import { InvertedIndex, type NoteInput } from './inverted-index';
import { parseKeywordIndex, type KeywordIndex } from './keyword-index';
import { Scorer } from './rank';
import { resolveSearchSettings, type SearchSettings } from './settings';
import type { QueryWord } from './tokenize';

/** `/` as a char code. */
const SLASH = 47;

const DEFAULT_SLICE_MS = 12; // why: stays under a 16 ms frame so Obsidian keeps painting during a build.
/** Notes whose skip reason is counted again between two pauses of `recountSkippedSteps`. */
const RECOUNT_STEP = 2048; // why: a lookup in the metadata a note: about a millisecond on a quiet machine.
const DEFAULT_READ_BATCH = 64; // why: enough in flight to hide cachedRead latency without holding many texts at once.

/** Whether a build's read gave a note counted elsewhere (not a text, not an error). */
function isCounted(got: unknown): got is CountedNote {
	return typeof got === 'object' && got !== null && !(got instanceof Error) && 'info' in got && 'terms' in got;
}

/** A note's name keys for the name maps: its title, file name (each also without a numbering or label prefix) and aliases as `canonicalKey`s, and its lower-case file name. */
export function noteNames(info: DocInfo): NoteNames {
	const aliasKeys = [canonicalKey(info.title)];
	if (info.title !== info.basename) aliasKeys.push(canonicalKey(info.basename));
	for (const a of info.aliases) aliasKeys.push(canonicalKey(a));
	// `01 Intro` and `[Book] Deep Work` are also named `Intro` and `Deep Work`.
	for (const name of [info.title, info.basename]) {
		const bare = namePrefixStripped(name);
		if (bare !== null) aliasKeys.push(canonicalKey(bare));
	}
	const keys = [...new Set(aliasKeys.filter((k) => k !== ''))];
	return { aliasKeys: keys, basenameKey: info.basename.toLowerCase() };
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
	/** The scope list `recountSkipped` last counted over (an unchanged list needs only the changed notes counted again). */
	private countedScope: readonly string[] | null = null;
	/** What the scope rules left out (folders, "Excluded files"), for `limitations`. */
	readonly exclusions: string[] = [];
	/** Bumped on every change, to invalidate derived maps. */
	private version = 0;
	private derivedBuilt = false;
	/** The excluded folders as path prefixes ending in `/`, made on first use. */
	private folderPrefixes: string[] | undefined;
	private aliasMap = new Map<string, number[]>();
	private basenameMap = new Map<string, number[]>();
	/** The saved index this one was restored from: its notes' name keys and links-field holders are read from it. */
	private readonly saved: SavedIndexState | null;
	/** The link graph over the indexed notes, until the index or the source changes. */
	private graph: { version: number; source: NoteSource; graph: LinkGraph } | null = null;
	/** Scoring scratch space. */
	readonly scorer: Scorer;

	/** An empty index (fill it with `upsert`, or use `SearchIndex.build`), or one restored from a saved part (search-part.ts; `index`: its inverted index, restored in steps). */
	constructor(settings: Partial<SearchSettings> = {}, saved?: SavedIndexState, index?: InvertedIndex) {
		this.settings = resolveSearchSettings(settings);
		this.saved = saved ?? null;
		this.index =
			index ?? (saved ? InvertedIndex.fromSaved(this.settings, saved) : new InvertedIndex(this.settings));
		if (saved) this.index.keepDerived = false;
		this.scorer = new Scorer(this.index);
		this.vocabulary = new Vocabulary(this.settings.tagVocabulary);
		this.keywordIndexStatus = this.settings.keywordIndexPath === '' ? 'disabled' : 'missing';
	}

	/**
	 * Index every note of `source` in chunks that yield to the host between slices, then load
	 * the keyword-index and synonym notes when present.
	 */
	static async build(
		source: NoteSource,
		settings: Partial<SearchSettings> = {},
		options: BuildOptionsOf<SearchIndex> = {},
	): Promise<SearchIndex> {
		const fed = options.fed?.take(settings) ?? null;
		const si = fed?.index ?? new SearchIndex(settings);
		si.source = source;
		si.index.keepDerived = false;
		const batch = options.readBatch ?? DEFAULT_READ_BATCH;
		const slice = new TimeSlice(options.sliceMs ?? DEFAULT_SLICE_MS, options.yieldFn ?? hostTurn, Date.now);
		// The engine's scope rules: excluded folders, the config folder, the user's "Excluded files".
		const scope = await slice.run(si.rescopeSteps(source)); // scoping 50k notes is ~15 ms in one go
		const notes = scope.notes.filter((p) => !si.isExcluded(p, source.configDir));
		const counted = fed ? null : (options.counted ?? null);
		const apart = counted === null ? null : new ForeignTermIds(si.index.terms, (id) => counted.term(id));
		/** A note's text, or its count from elsewhere (read here after all when the other side gives up). */
		const got = (p: string): Promise<string | CountedNote> =>
			counted?.has(p) === true
				? counted.take(p).then<string | CountedNote>((c) => c ?? source.read(p))
				: source.read(p);
		await slice.pauseIfUsed();
		for (let i = 0; i < notes.length; i += batch) {
			const chunk = notes.slice(i, i + batch);
			const texts = fed ? [] : await Promise.all(chunk.map((p) => got(p).catch((e: unknown) => e)));
			for (let k = 0; k < chunk.length; k++) {
				const path = chunk[k]!;
				const text = texts[k];
				const reason = source.getSkipReason(path);
				const yamlError = reason === null ? source.getFrontmatterError(path) : null;
				// A note whose frontmatter did not parse is still indexed by its body, and listed as skipped.
				if (yamlError !== null) si.skipped.push({ path, reason: frontmatterSkipReason(yamlError) });
				if (reason !== null) si.skipped.push({ path, reason });
				else if (fed)
					fed.meet(path); // indexed as the read parsed it: not read again
				else if (typeof text === 'string')
					// A note is indexed in one go: the build pauses between notes, when its slice is used up.
					si.index.upsert({ path, text, metadata: source.getMetadata(path) });
				else if (apart !== null && isCounted(text)) si.index.addCountedApart(path, text, apart);
				else
					si.skipped.push({
						path,
						reason: `unreadable: ${text instanceof Error ? text.message : String(text)}`,
					});
				await slice.pauseIfUsed();
			}
			options.onProgress?.(Math.min(i + batch, notes.length), notes.length);
		}
		if (fed && !fed.done) return SearchIndex.build(source, settings, { ...options, fed: undefined }); // not the notes the read fed
		si.index.compact(); // one block: over a second at 50k notes where a host's main thread builds (the plugin's fallback)
		si.index.trimScratch();
		si.version++;
		await si.loadSideNotes(source);
		return si;
	}

	/**
	 * A restored index brought in line with the vault's scope now: what the rules leave out and
	 * which notes are skipped (`changed`: the notes changed since it was saved). In time slices
	 * when `options` gives a way to yield (the plugin), else at once.
	 */
	async refreshScope(
		source: NoteSource,
		changed: readonly string[],
		options: BuildOptionsOf<SearchIndex> = {},
		savedCount = false,
	): Promise<void> {
		const steps = this.refreshScopeSteps(source, changed, savedCount);
		if (options.yieldFn === undefined) drain(steps);
		else await new TimeSlice(options.sliceMs ?? DEFAULT_SLICE_MS, options.yieldFn, Date.now).run(steps);
	}

	/**
	 * `savedCount`: the skipped notes restored are the count over the notes as they were saved, and
	 * `changed` is every note changed since (new, edited, gone): only those are counted again — a
	 * note's skip reason follows from its bytes and the settings the saved part was checked against.
	 */
	private *refreshScopeSteps(
		source: NoteSource,
		changed: readonly string[],
		savedCount: boolean,
	): Generator<void, void, void> {
		const scope = yield* this.rescopeSteps(source);
		if (savedCount) this.countedScope = scope.notes;
		yield* this.recountSkippedSteps(source, scope.notes, changed);
	}

	/** Recompute what the scope rules leave out (reported under limitations) for the notes `source` lists now. */
	rescope(source: NoteSource): ReturnType<typeof resolveScope> {
		return drain(this.rescopeSteps(source));
	}

	/** {@link rescope} as steps, for a build that yields to its host while it scopes. */
	*rescopeSteps(source: NoteSource): Generator<void, ReturnType<typeof resolveScope>, void> {
		const scope = yield* resolveScopeSteps(source, {
			...DEFAULT_SETTINGS,
			excludedFolders: this.settings.excludedFolders,
		});
		this.exclusions.splice(0, this.exclusions.length, ...scope.exclusions);
		return scope;
	}

	/**
	 * Recompute the skipped notes, in scope order, as a build over `source` would list them now: the
	 * source's skip reasons, and notes that could not be read before and are still not indexed.
	 * `changed`: the only notes that changed since the last count; when the scope is the very list
	 * counted last time (the file list and rules unchanged, core/scope.ts), only they are looked at.
	 */
	recountSkipped(source: NoteSource, scope: readonly string[], changed?: readonly string[]): void {
		drain(this.recountSkippedSteps(source, scope, changed));
	}

	/** {@link recountSkipped} as steps, pausing every few thousand notes counted. */
	*recountSkippedSteps(
		source: NoteSource,
		scope: readonly string[],
		changed?: readonly string[],
	): Generator<void, void, void> {
		const unreadable = new Map(
			this.skipped.filter((s) => s.reason.startsWith('unreadable: ')).map((s) => [s.path, s]),
		);
		const incremental = changed !== undefined && scope === this.countedScope;
		const skipped: SkippedFile[] = [];
		const count = (path: string): void => {
			if (this.isExcluded(path, source.configDir)) return;
			const reason = searchSkipReason(source, path);
			const before = unreadable.get(path);
			if (reason !== null) skipped.push({ path, reason });
			else if (before !== undefined && !this.index.pathToDoc.has(path)) skipped.push(before);
		};
		if (incremental) {
			const touched = new Set(changed);
			const positions = yield* positionsOfSteps(scope, [...touched, ...this.skipped.map((s) => s.path)]);
			for (const s of this.skipped) if (!touched.has(s.path)) skipped.push(s);
			for (const path of touched) if (positions.has(path)) count(path);
			skipped.sort((a, b) => positions.get(a.path)! - positions.get(b.path)!);
		} else
			for (let i = 0; i < scope.length; i++) {
				count(scope[i]!);
				if ((i + 1) % RECOUNT_STEP === 0) yield;
			}
		this.countedScope = scope;
		this.skipped.splice(0, this.skipped.length, ...skipped);
	}

	/** (Re)load the keyword-index and synonym notes by explicit path (dot-folders too, issue 9 case 6); absent notes are not errors. */
	async loadSideNotes(source: NoteSource): Promise<void> {
		const { keywordIndexPath, synonymsPath } = this.settings;
		if (keywordIndexPath !== '') {
			try {
				this.setKeywordIndex(await source.readSideFile(keywordIndexPath));
			} catch {
				this.setKeywordIndex(null);
			}
		}
		if (synonymsPath !== '') {
			try {
				this.setSynonyms(await source.readSideFile(synonymsPath));
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
		if (configDir !== undefined && path.startsWith(configDir) && path.charCodeAt(configDir.length) === SLASH)
			return true;
		if (path === this.settings.keywordIndexPath || path === this.settings.synonymsPath) return true;
		// why: prefixes made once, not a string per note per folder (a build tests 50k notes in one task).
		this.folderPrefixes ??= this.settings.excludedFolders.map((f) => (f.endsWith('/') ? f : `${f}/`));
		for (const prefix of this.folderPrefixes) if (path.startsWith(prefix)) return true;
		return false;
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
		const info = this.index.count(note); // may stop before anything changes (upsertSteps, engine/apply.ts)
		this.unmapNames(this.index.pathToDoc.get(note.path));
		const d = this.index.addCounted(note.path, info);
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
	private namesOf(d: number): NoteNames | null {
		// Saved notes are in the saved name tables (ids are never reused; lookups skip removed ones).
		if (this.saved !== null && d < this.saved.docs.count) return null;
		const info = this.index.doc(d);
		return info ? noteNames(info) : null;
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

	/** Alias/title and basename maps (of the notes indexed since a restore, when restored): built once, then kept current by upsert/remove. */
	private ensureDerived(): void {
		if (this.derivedBuilt) return;
		this.derivedBuilt = true;
		this.aliasMap = new Map();
		this.basenameMap = new Map();
		for (let d = this.saved?.docs.count ?? 0; d < this.index.idSpace; d++)
			if (this.index.isAlive(d)) this.mapNames(d);
	}

	/** Note ids under `key` in a name map (the saved table's live ones and the map's), in their paths' walk order. */
	private named(kind: 'alias' | 'basename', key: string): number[] {
		this.ensureDerived();
		const own = (kind === 'alias' ? this.aliasMap : this.basenameMap).get(key) ?? [];
		if (this.saved === null) return this.inWalkOrder(own);
		const saved = this.saved.namedNotes(kind, key).filter((d) => this.index.isAlive(d));
		return this.inWalkOrder(saved.length === 0 ? own : [...saved, ...own]);
	}

	/**
	 * Note ids ordered by their paths' walk order. Ids follow indexing order, which edits change
	 * (an edited note gets a new id); a fresh build numbers notes in walk order, and an edited or
	 * restored index must list names — and so expand a query — as that build would.
	 */
	private inWalkOrder(ids: number[]): number[] {
		if (ids.length < 2) return ids;
		const pathOf = new Map(ids.map((d) => [d, this.index.doc(d)?.path ?? '']));
		return [...ids].sort((a, b) => byWalkOrder(pathOf.get(a) ?? '', pathOf.get(b) ?? ''));
	}

	/** Notes by alias/title key, for expansion. */
	aliasLookup(): AliasLookup {
		return {
			namesFor: (key) => {
				const ids = this.named('alias', key);
				if (ids.length === 0) return null;
				return ids
					.map((d) => this.index.doc(d))
					.filter((x) => x !== null)
					.map((i) => ({ title: i.title, aliases: i.aliases }));
			},
		};
	}

	/** Note ids whose title, file name or an alias has this name key (`canonicalKey`). */
	notesWithName(key: string): number[] {
		return this.named('alias', key);
	}

	/** Note ids named by a wikilink name (basename, or a path with or without `.md`). */
	notesNamed(name: string): number[] {
		const n = name.trim().replace(/\.md$/i, '');
		const byPath = this.index.pathToDoc.get(`${n}.md`);
		if (byPath !== undefined) return [byPath];
		return this.named('basename', fileName(n).toLowerCase());
	}

	/** Forget the cached link graph: any file created, renamed or deleted can change where links resolve. */
	invalidateLinks(): void {
		this.graph = null;
	}

	/** The link graph over the indexed notes, as every other query reads links; ids are positions (they grow in the path map's order). */
	linkGraph(source: NoteSource): LinkGraph {
		if (this.graph === null || this.graph.version !== this.version || this.graph.source !== source) {
			const docs = this.index.pathToDoc;
			const holders = (): string[] => this.linkFieldHolders();
			const graph = new LinkGraph(source, [...docs.keys()], this.settings.linksKey, holders, true, docs);
			this.graph = { version: this.version, source, graph };
		}
		return this.graph.graph;
	}

	/**
	 * The indexed notes whose links field names a note (only they can link through it): from the
	 * saved list for saved notes, from the record for notes indexed since — no pass over every
	 * note's frontmatter.
	 */
	private linkFieldHolders(): string[] {
		const holders: string[] = [];
		const savedCount = this.saved?.docs.count ?? 0;
		if (this.saved !== null)
			for (const d of this.saved.linkFieldDocs())
				if (this.index.isAlive(d)) holders.push(this.index.docs.path(d)!);
		for (let d = savedCount; d < this.index.idSpace; d++) {
			const info = this.index.isAlive(d) ? this.index.doc(d) : null;
			if (info !== null && linksFieldNames(info.frontmatter, this.settings.linksKey).length > 0)
				holders.push(info.path);
		}
		return holders;
	}

	/** Mean idf of a word's first alternative; a term the vault lacks counts as a word of one note (rare). */
	wordIdf(w: QueryWord): number {
		const alt = w.alts[0]!;
		let sum = 0;
		for (const term of alt) {
			const t = this.index.lookup(term);
			sum += t < 0 ? Math.log(1 + this.size) : this.index.idf(t);
		}
		return alt.length > 0 ? sum / alt.length : 0;
	}

	/** Mean idf of a word's first alternative, or null when the vault lacks one of its terms. */
	knownWordIdf(w: QueryWord): number | null {
		const alt = w.alts[0] ?? [];
		let sum = 0;
		for (const term of alt) {
			const t = this.index.lookup(term);
			if (t < 0) return null;
			sum += this.index.idf(t);
		}
		return alt.length > 0 ? sum / alt.length : null;
	}
}
