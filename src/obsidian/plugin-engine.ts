import { Component, debounce, Notice, type App, type TAbstractFile } from 'obsidian';
import {
	VaultEngine,
	type EngineConfig,
	type EngineSearchOptions,
	type EngineStatus,
	type NoteAnswer,
	type NoteRequest,
} from '../core/engine/engine';
import { failedContextPack, type ContextPack, type PackRequest } from '../core/pack/pack';
import { failed } from '../core/query/envelope';
import type { StructuredResult } from '../core/query/run';
import type { StructuredQuery } from '../core/query/types';
import { failedReport, type ReaderReport, type ReaderRequest } from '../core/reader/index';
import { failedSearch } from '../core/search/failed';
import { TimeSlice } from '../core/steps';
import type { SearchIndex, SearchResult } from '../core/search/search';
import { INDEX_BUILDING, IndexLifecycle, STILL_INDEXING, type IndexState } from './index-lifecycle';
import type { SavedIndexSummary } from './idb-store';
import { resaveAfter } from '../core/snapshot/index-parts';
import { SnapshotFormatError } from '../core/snapshot/codec';
import { PluginSavedIndex, type PendingReconcile } from './saved-index';
import { ObsidianNoteSource } from './source';
import { ReadAhead } from './read-ahead';

/** Notes whose reads the plugin's search-index build has in flight at once (it yields inside and between notes on its time budget). */
const PLUGIN_READ_BATCH = 8; // why: enough to overlap cachedRead calls; few texts held while a slice waits.
/** Milliseconds of the search-index build between two yields to Obsidian's main thread. */
export const PLUGIN_SLICE_MS = 8; // why: under a 16 ms frame with room for a garbage collection step (up to ~25 ms at 50k notes), so Obsidian keeps painting during a build.
/** A restored index's saved dictionary blocks a note's upsert decodes between two pauses at most (engine/apply.ts). */
const PLUGIN_DECODE_BLOCKS = 48; // why: ~30 µs a block at 50k notes: ~1.5 ms; a long note's first upsert decodes hundreds (40–55 ms in one block).

/** Milliseconds the settings must stay unchanged before a change that shapes the search index rebuilds it. */
const SETTINGS_SETTLE_MS = 1500; // why: a settings row saves on every key; one build after the typing stops, not one per key.

/** Notes from which the first search-index build shows a progress notice (~1 s of slices on a phone). */
const LARGE_VAULT_NOTES = 2000;

/** Milliseconds after the last change before the saved search index is written again. */
const SAVE_DELAY_MS = 10_000; // why: a burst of edits (a sync, a find-and-replace) is saved once, after it.
/** One in this many of the vault's notes changed since the save makes the plugin save its index again (see `noteChanges`). */
const PLUGIN_RESAVE_SHARE = 50; // why: at 50k notes a save is ~12 s of CPU in slices and 127 MB rewritten; 1,000 changed notes cost the next start ~0.6 s of slices after its first answer.

/** The limitation of a search answered from the saved index while the notes changed since it was saved are re-indexed. */
export function stillReconciling(notes: number): string {
	return `the saved search index is being brought up to date: ${notes} notes changed since it was saved are not re-indexed yet`;
}

/** The limitation of a search answered from the saved index before its notes are compared with the vault's. */
export const STILL_CHECKING =
	'the saved search index is being brought up to date: the notes changed since it was saved are not known yet';

/** An answer given while Obsidian is still indexing: partial, saying so. */
function stillIndexing<T extends { status: string; limitations: string[] }>(answer: T, why = STILL_INDEXING): T {
	if (answer.status === 'failed') return answer;
	return { ...answer, status: 'partial', limitations: [...answer.limitations, why] };
}

/** How the plugin keeps its search index between launches. */
export interface SavedIndexOptions {
	/** The plugin's version (the manifest's): a saved index from another version is rebuilt. */
	version: string;
	/** Milliseconds after the last change before saving again (default 10 s). */
	saveDelayMs?: number;
}

/**
 * The {@link VaultEngine} inside Obsidian: the engine over an {@link ObsidianNoteSource}, kept
 * current from vault and metadata events, with Obsidian's readiness gating every operation.
 *
 * - `loading` (before layout-ready): every operation answers `failed` with {@link INDEX_BUILDING}.
 * - `indexing`: structural queries and reads run and say they may be incomplete (`partial`).
 * - The ranked-search index is built once the vault is `ready` — in the index worker, where one
 *   starts (saved-index.ts), else on the main thread in ~8 ms slices — with a
 *   progress notice on large vaults; search and pack wait for it. Edits, deletions and renames
 *   go to the engine's `upsert`/`remove`/`rename`, which apply them in order (queued while it
 *   builds), so the live index always equals a rebuild.
 */
export class PluginEngine extends Component {
	/** The port over this vault. */
	readonly source: ObsidianNoteSource;
	/** Obsidian's readiness and the source's path-list cache. */
	readonly lifecycle: IndexLifecycle;
	/** The engine every face calls through this object. */
	readonly engine: VaultEngine;
	/** The search index saved in IndexedDB between launches (null: built at every start). */
	readonly saved: PluginSavedIndex | null;
	private active = false;
	/** Builds the search index again once the settings that shape it have stopped changing. */
	private readonly rebuildSoon = debounce(() => void this.buildIfStarted(), SETTINGS_SETTLE_MS, true);

	/** Notes changed since the restored index was saved and not re-indexed yet. */
	private reconciling = 0;
	/** The restored index's notes are being compared with the vault's (which changed is not known yet). */
	private checking = false;
	/** Searches and packs being answered: the reconcile's next note waits for them (the answer comes first). */
	private readonly answering = new Set<Promise<unknown>>();
	/** The index the steps after a build or restore last ran for. */
	private handled: SearchIndex | null = null;
	private saveTimer: number | null = null;
	/** Saves run one after another. */
	private saving: Promise<unknown> = Promise.resolve();
	/** A fold of edits is queued or under way (`foldEdits`). */
	private folding = false;
	/** Changes to the index not in the saved one (a few are not worth a save, see {@link noteChanges}). */
	private unsaved = 0;
	/** The reconcile of a restored index, while it runs. */
	private reconciliation: Promise<void> = Promise.resolve();
	/** The time slice of the changes to the index (the reconcile's and live edits'), shared so their steps pause together. */
	private readonly changeSlice: TimeSlice;

	/** `config` is read now and again on {@link applySettings}; `saved`: keep the search index in IndexedDB. */
	constructor(
		private readonly app: App,
		private readonly config: () => EngineConfig,
		private readonly savedOptions?: SavedIndexOptions,
	) {
		super();
		this.source = new ObsidianNoteSource(app);
		this.lifecycle = new IndexLifecycle(app, this.source);
		this.engine = new VaultEngine(this.source, config());
		this.saved = savedOptions
			? new PluginSavedIndex(
					app,
					this.source,
					savedOptions.version,
					(m) => new Notice(m, 10_000),
					() => {
						const slice = new TimeSlice(PLUGIN_SLICE_MS, this.source.turns.next, Date.now);
						return (steps) => slice.run(steps);
					},
					() => new TimeSlice(PLUGIN_SLICE_MS, this.source.turns.next, Date.now),
				)
			: null;
		this.engine.saved = this.saved;
		this.source.beforeInverting = () => this.settled();
		this.changeSlice = new TimeSlice(PLUGIN_SLICE_MS, this.source.turns.next, Date.now);
		this.engine.changeSteps = { run: (steps) => this.changeSlice.run(steps), blocks: PLUGIN_DECODE_BLOCKS };
	}

	/** Light: the readiness child, then listeners and the build once the layout is ready. */
	override onload(): void {
		this.active = true;
		// The lifecycle listens first, so the source's lists are current when the engine reads them.
		this.addChild(this.lifecycle);
		this.app.workspace.onLayoutReady(() => this.start());
	}

	/** Listeners go with `registerEvent`; the search index is dropped. */
	override onunload(): void {
		this.active = false;
		this.rebuildSoon.cancel();
		this.cancelSave();
		this.saved?.close();
		this.engine.dropSearchIndex();
	}

	/** `loading`, `indexing` or `ready`. */
	get state(): IndexState {
		return this.lifecycle.state;
	}

	/** Resolves once Obsidian has indexed the vault. */
	whenReady(): Promise<void> {
		return this.lifecycle.whenReady();
	}

	/**
	 * Apply the settings `config` gives now (on each save and on a synced change). A change that
	 * shapes the search index drops it, and it is built again once the settings have stopped
	 * changing; returns whether the index was dropped.
	 */
	applySettings(): boolean {
		const dropped = this.engine.configure(this.config());
		if (dropped && this.active) this.rebuildSoon();
		return dropped;
	}

	/** Drop the search index and build it again now (a rebuild the settings still wait for is not needed); resolves when built. */
	rebuild(): Promise<SearchIndex> {
		this.rebuildSoon.cancel();
		this.saved?.skipOnce();
		this.engine.dropSearchIndex();
		return this.searchIndex();
	}

	/** Whether the ranked-search index is built (else the first search waits for it). */
	get searchReady(): boolean {
		return this.engine.searchReady;
	}

	/** A structural query, gated on readiness. */
	async query(query: StructuredQuery): Promise<StructuredResult> {
		if (this.state === 'loading') return failed({ ...query }, INDEX_BUILDING);
		const indexing = this.state === 'indexing';
		const result = await this.engine.query(query);
		return indexing ? stillIndexing(result) : result;
	}

	/** A schema-strict read, gated on readiness. */
	async read(request: ReaderRequest): Promise<ReaderReport> {
		if (this.state === 'loading')
			return failedReport(request, this.engine.settings.reader, this.source.vaultPath, INDEX_BUILDING);
		const indexing = this.state === 'indexing';
		const report = await this.engine.read(request);
		return indexing ? stillIndexing(report) : report;
	}

	/** A ranked search; `failed` before layout-ready, else waits for the search index. */
	async search(text: string, options: EngineSearchOptions = {}): Promise<SearchResult> {
		if (this.state === 'loading') return failedSearch(text.trim(), INDEX_BUILDING);
		await this.searchIndex();
		// The search's phases (and, until the link maps' inverse is built, the pass over every note's links
		// for the hits' backlinks) run in slices resumed before the background jobs: the answer comes first.
		const slice = new TimeSlice(PLUGIN_SLICE_MS, this.source.turns.nextFirst, Date.now);
		return this.reconciled(await this.answered(this.engine.search(text, { ...options, slice })));
	}

	/** A context pack; `failed` before layout-ready, else waits for the search index. */
	async pack(request: PackRequest): Promise<ContextPack> {
		if (this.state === 'loading') return failedContextPack(request, this.source.vaultPath, INDEX_BUILDING);
		await this.searchIndex();
		return this.reconciled(await this.answered(this.engine.pack(request)));
	}

	/** A note or section, verbatim with its lines; `failed` before layout-ready. */
	async note(request: NoteRequest): Promise<NoteAnswer> {
		if (this.state === 'loading') return failed({ ...request }, INDEX_BUILDING);
		return this.engine.note(request);
	}

	/** A schema note drafted from the vault's frontmatter, once every note is indexed. */
	async schemaDraft(): Promise<string> {
		await this.whenReady();
		return this.engine.schemaDraft();
	}

	/** What the engine indexes and leaves out. */
	status(): EngineStatus & { state: IndexState } {
		return { ...this.engine.status(), state: this.state };
	}

	/** The search index once the vault is ready (built on first use, with a notice on large vaults). */
	async searchIndex(): Promise<SearchIndex> {
		await this.whenReady();
		if (this.engine.searchState !== 'not built') return this.engine.searchIndex();
		// The build lists the vault first; ordering 50k paths is too long for one block, so it is done here in slices —
		// while IndexedDB reads a saved index (the saved index waits for it before it hands an index or builds).
		const listed = this.source.prepareNotes(new TimeSlice(PLUGIN_SLICE_MS, this.source.turns.next, Date.now));
		if (this.saved === null || this.engine.unusedSavedIndexes === null)
			await listed; // no saved index is read
		else this.saved.notesListed = listed;
		const progress = this.progressNotice();
		if (this.saved !== null) this.saved.onProgress = progress?.update;
		let index: SearchIndex;
		try {
			index = await this.engine.searchIndex({
				onProgress: progress?.update,
				readBatch: PLUGIN_READ_BATCH,
				sliceMs: PLUGIN_SLICE_MS,
				yieldFn: this.source.turns.next,
			});
		} finally {
			progress?.hide();
		}
		this.afterIndex(index);
		return index;
	}

	/** For a large vault the first build takes seconds: a notice (shown once the build reads notes, not for a restore) says how far it got. */
	private progressNotice(): { update: (done: number, total: number) => void; hide: () => void } | null {
		const total = this.source.listNotes().length;
		if (total < LARGE_VAULT_NOTES) return null;
		let notice: Notice | null = null;
		return {
			update: (done, all) => {
				if (notice === null) notice = new Notice(`Indexing ${total} notes for search…`, 0);
				else notice.setMessage(`Indexing notes for search… ${Math.floor((done * 100) / all)}%`);
			},
			hide: () => notice?.hide(),
		};
	}

	/** The build a settings change asked for, unless the plugin is unloaded or the layout is not ready (then the start builds). */
	private async buildIfStarted(): Promise<void> {
		if (this.active && this.state !== 'loading') await this.searchIndex();
	}

	/** Once per index: a restored one is brought up to date in slices, a built one is saved. */
	private afterIndex(index: SearchIndex): void {
		if (this.saved === null || this.handled === index || this.engine.builtSearchIndex !== index) return;
		this.handled = index;
		const pending = this.saved.takeReconcile();
		if (pending === null) {
			this.unsaved = 0;
			this.saveSoon(0);
		} else {
			const fresh = this.saved.takeFresh();
			if (fresh !== null) this.unsaved = fresh; // built in the worker: saved as built, but for the notes changed meanwhile
			this.reconciliation = this.reconcile(pending);
		}
	}

	/**
	 * Bring the index just restored up to date while searches answer from it: compare its notes
	 * with the vault's and count its scope again (work over every note, in slices: the first search
	 * answers before it), then re-index the notes changed since it was saved, one at a time. Answers
	 * meanwhile say the index is being brought up to date. Stamps that fail their check: rebuilt.
	 */
	private async reconcile(pending: PendingReconcile): Promise<void> {
		this.checking = true;
		let paths: string[];
		try {
			paths = await pending.changed();
			if (pending.scopeLater && this.active)
				await this.engine.refreshScope(paths, { sliceMs: PLUGIN_SLICE_MS, yieldFn: this.source.turns.next });
		} catch (error) {
			if (!(error instanceof SnapshotFormatError)) throw error;
			this.saved?.damaged('search', error.message);
			this.checking = false;
			if (this.active) await this.rebuild();
			return;
		} finally {
			this.checking = false;
		}
		await this.reindex(paths);
	}

	/**
	 * Re-index `paths` one at a time in time slices, their reads a few ahead (read-ahead.ts): searches
	 * meanwhile answer at once (after the note in hand), saying how many are left, and the next note
	 * waits until they are out ({@link answersOut}).
	 */
	private async reindex(paths: readonly string[]): Promise<void> {
		this.reconciling = paths.length;
		const slice = this.changeSlice;
		const ahead = new ReadAhead(this.source, paths);
		try {
			for (const [i, path] of paths.entries()) {
				await this.answersOut();
				if (!this.active) return;
				await this.engine.upsert(path, await ahead.textOf(i)); // upsert drops a path that is no longer a note
				this.reconciling--;
				await slice.pauseIfUsed();
			}
		} finally {
			this.reconciling = 0;
		}
		this.noteChanges(paths.length);
	}

	/**
	 * `count` changes reached the index: saved (after the save delay) once they are more than 32,
	 * or 1 in {@link PLUGIN_RESAVE_SHARE} of the vault's notes. A save re-encodes and rewrites the
	 * whole index on Obsidian's main thread, while the next start re-indexes the changed notes in
	 * its slices after the first answer — so edits are left for that reconcile until it would cost
	 * more than a fraction of a save.
	 */
	private noteChanges(count: number): void {
		this.unsaved += count;
		if (this.unsaved > resaveAfter(this.source.listNotes().length, PLUGIN_RESAVE_SHARE)) this.saveSoon();
		this.foldEdits();
	}

	/**
	 * Once the changes so far are applied, fold them into the index in slices, beside searches and
	 * later changes, when a search would otherwise do it in one block (InvertedIndex.needsCompaction:
	 * at 50k notes a reconcile of ~1,000 notes left a search over a second of work). After the saved
	 * records are loaded (the fold reads them all) and never during a save (its export compacts).
	 */
	private foldEdits(): void {
		if (this.folding) return;
		this.folding = true;
		const saved = this.saved;
		// In the saves' chain: one compaction at a time, and a save waits for it (its export would compact too).
		this.saving = this.saving
			.then(async () => {
				await saved?.restLoaded();
				await this.reconciliation; // after the reconcile: a fold's slices beside it would only slow it
				await this.engine.settled();
				const slice = new TimeSlice(PLUGIN_SLICE_MS, this.source.turns.next, Date.now);
				if (this.active) await this.engine.foldSearchEdits((steps) => slice.run(steps));
			})
			.catch(() => undefined)
			.finally(() => {
				this.folding = false;
			});
	}

	/** `answer`, noted as being answered until it settles (the reconcile waits for it: {@link answersOut}). */
	private answered<T>(answer: Promise<T>): Promise<T> {
		this.answering.add(answer);
		const done = (): void => void this.answering.delete(answer);
		answer.then(done, done);
		return answer;
	}

	/**
	 * Resolves once the searches and packs being answered now are out. The reconcile waits here
	 * before each note: its reads and its indexing would otherwise share the turns, the disk and the
	 * collector with the answer (at 50k notes in Chromium one restart's first search had a 53 ms
	 * task of a note's indexing and a collection). Answers asked later are not waited for here, so
	 * a stream of them slows the reconcile to a note between answers but never stops it.
	 */
	private async answersOut(): Promise<void> {
		if (this.answering.size > 0) await Promise.allSettled([...this.answering]);
	}

	/** `answer`, partial while the restored index is being brought up to date. */
	private reconciled<T extends { status: string; limitations: string[] }>(answer: T): T {
		if (this.checking) return stillIndexing(answer, STILL_CHECKING);
		return this.reconciling > 0 ? stillIndexing(answer, stillReconciling(this.reconciling)) : answer;
	}

	/** Save the search index after `delayMs` (default: the save delay), replacing a save already waiting. */
	private saveSoon(delayMs = this.savedOptions?.saveDelayMs ?? SAVE_DELAY_MS): void {
		if (this.saved === null || !this.saved.usable || !this.active) return;
		this.cancelSave();
		this.saveTimer = window.setTimeout(() => {
			this.saveTimer = null;
			void this.saveNow();
		}, delayMs);
	}

	private cancelSave(): void {
		if (this.saveTimer !== null) window.clearTimeout(this.saveTimer);
		this.saveTimer = null;
	}

	/** Save the search index now (after any save in progress); false when nothing was saved. */
	saveNow(): Promise<boolean> {
		this.cancelSave();
		const saved = this.saved;
		const next = this.saving.then(async () => {
			if (saved === null || !this.active) return false;
			const unsaved = this.unsaved;
			// Encoding the index is seconds of work at 10k notes: in slices, so Obsidian keeps painting.
			const slice = new TimeSlice(PLUGIN_SLICE_MS, this.source.turns.next, Date.now);
			const done = await saved.save(this.engine, (steps) => slice.run(steps));
			if (done) this.unsaved -= unsaved;
			return done;
		});
		this.saving = next.catch(() => undefined);
		return next;
	}

	/** Resolves once a restored index is brought up to date and every change so far is applied. */
	async settled(): Promise<void> {
		await this.reconciliation;
		await this.engine.settled();
	}

	/** Resolves once no save is waiting or running (tests, the restart harness). */
	async savesSettled(): Promise<void> {
		while (this.saveTimer !== null) await this.saveNow();
		await this.saving;
		await this.saved?.written();
	}

	/** What is saved in IndexedDB (notes, bytes, when), or null. */
	savedSummary(): Promise<SavedIndexSummary | null> {
		return this.saved?.summary() ?? Promise.resolve(null);
	}

	/** Delete the saved index; the index in memory stays (and is saved again after the next change or build). */
	clearSaved(): Promise<boolean> {
		this.cancelSave();
		// In the saves' chain: a save already asked for would otherwise write the index again after the clear.
		const cleared = this.saving.then(() => this.saved?.clear() ?? false);
		this.saving = cleared.catch(() => undefined);
		return cleared;
	}

	private start(): void {
		if (!this.active) return;
		const { vault, metadataCache } = this.app;
		this.registerEvent(metadataCache.on('changed', (file, data) => void this.engine.upsert(file.path, data)));
		this.registerEvent(metadataCache.on('deleted', (file) => void this.engine.remove(file.path)));
		// A new attachment changes where links resolve; a new note is read again on `changed`.
		this.registerEvent(vault.on('create', (file: TAbstractFile) => void this.engine.upsert(file.path)));
		this.registerEvent(vault.on('delete', (file: TAbstractFile) => void this.engine.remove(file.path)));
		this.registerEvent(
			vault.on('rename', (file: TAbstractFile, oldPath: string) => void this.engine.rename(oldPath, file.path)),
		);
		// A change to the index is saved with it, a while after the last one (a change before the index is
		// there is in the build, saved after it, or found again by the next start's reconcile).
		// A worker build notes the paths touched while it runs (saved-index.ts): no second stat of every note after it.
		const changed = (file: TAbstractFile, oldPath: string | null = null): void => {
			this.saved?.touched(file.path, oldPath);
			if (this.engine.searchReady) this.noteChanges(1);
		};
		this.registerEvent(metadataCache.on('changed', (file) => changed(file)));
		this.registerEvent(metadataCache.on('deleted', (file) => changed(file)));
		this.registerEvent(vault.on('create', (file) => changed(file)));
		this.registerEvent(vault.on('delete', (file) => changed(file)));
		this.registerEvent(vault.on('rename', (file, oldPath) => changed(file, oldPath)));
		void this.searchIndex();
	}
}
