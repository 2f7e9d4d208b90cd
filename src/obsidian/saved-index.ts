/**
 * The plugin's ranked-search index saved between launches of Obsidian, in IndexedDB
 * (idb-store.ts), through the CLI's codec for the same index (core/snapshot/index-parts.ts): one
 * format for both faces. The saved part carries the format version, the build stamp (the plugin's
 * version and the codec's), the settings that shape the index, the vault it belongs to, and every
 * note's `TFile.stat` (size, mtime, ctime) when it was saved.
 *
 * At start the engine takes the saved index instead of building one; the notes whose stat
 * differs (changed, new, deleted, renamed) are handed to PluginEngine, which re-indexes them in
 * time slices while searches already answer. A damaged, foreign or outdated part is rebuilt, never
 * trusted. When IndexedDB fails (quota, a private window, a mobile web view's limits) the index is
 * built in memory as before, and one notice says so.
 */
import type { App } from 'obsidian';
import type { SavedIndex, SavedIndexes, VaultEngine } from '../core/engine/engine';
import { SnapshotFormatError, type NoteFingerprint } from '../core/snapshot/codec';
import { atOnce, IndexParts, partKey, type StepRunner } from '../core/snapshot/index-parts';
import { PART_FORMAT_VERSION } from '../core/snapshot/part-codec';
import type { SnapshotStore } from '../core/snapshot/port';
import { SEARCH_PART_VERSION } from '../core/snapshot/search-part';
import type { SearchIndex } from '../core/search/search-index';
import type { SearchSettings } from '../core/search/settings';
import type { TrigramIndex } from '../core/text/trigram';
import { browserCodecHost } from './browser-codec';
import { countedStore, piecesStore } from './part-stores';
import { databaseName, IndexedDbStore, type SavedIndexSummary } from './idb-store';
import type { LazyPart } from './lazy-part';
import {
	buildInWorker,
	refreshSavedPart,
	startCountingWorker,
	startIndexWorker,
	type IndexWorker,
} from './worker-host';
import { messageOf, NO_WORKER_STORE, type SaveTarget } from './worker-protocol';
import { buildRequest, refreshRequest } from './worker-requests';
import { noteStamps, RACY_MS } from './note-stamps';
import { TimeSlice } from '../core/steps';
import type { ObsidianNoteSource } from './source';

/** The key of the search part in the vault's database. */
const SEARCH_KEY = partKey('vault', 'search');

/** `App#appId` exists at runtime (Obsidian's id of the vault on this device) but is not in the public typings. */
function appIdOf(app: App): string {
	const value: unknown = (app as unknown as Record<string, unknown>).appId;
	return typeof value === 'string' ? value : '';
}

/** The build stamp a saved part must carry: the plugin's version and the codec's versions. */
export function savedIndexTool(pluginVersion: string): string {
	return `vault-query-plugin ${pluginVersion} part ${PART_FORMAT_VERSION} search ${SEARCH_PART_VERSION}`;
}

/** What an index the saved indexes handed out still needs before it reflects the vault. */
export interface PendingReconcile {
	/** The engine's scope refresh (`VaultEngine.refreshScope`) is still to run. */
	scopeLater: boolean;
	/** The notes it does not reflect (a saved part's are compared with the vault's now, in slices; SnapshotFormatError: its stamps are damaged). */
	changed: () => Promise<string[]>;
}

/** The plugin's saved search index for one vault (see the module comment). */
export class PluginSavedIndex implements SavedIndexes {
	/** The plugin keeps no trigram index. */
	readonly buildTrigrams = false;
	/** The store; null once IndexedDB failed this session (the index then lives in memory only). */
	private store: IndexedDbStore | null;
	/** What the index just handed out still needs, waiting for PluginEngine. */
	private toReconcile: PendingReconcile | null = null;
	private noticeShown = false;
	/** The next load returns nothing (the user asked for a rebuild). */
	private skipNext = false;
	/** What happened so far, oldest first (for tests and the settings tab). */
	readonly log: string[] = [];
	/** Why a re-save is not tried in a worker (null: it is): no IndexedDB in one, a saved part found damaged. */
	private refreshBlocked: string | null = null;
	/** The index workers building now (a settings change may start a build while one runs). */
	private readonly workers = new Set<IndexWorker>();
	/** The console line of a build on the main thread was written. */
	private fallbackSaid = false;
	/** The saved part restored last, while its postings' records are still loading (else null). */
	private lazy: LazyPart | null = null;
	/** The load of those records in the background: a save or a clear waits for it (it reads the records a save replaces). */
	private rest: Promise<void> = Promise.resolve();
	/** The saves and writes of parts, one after another (a clear and the next save wait for them). */
	private writing: Promise<void> = Promise.resolve();
	/** The index handed last was built in a worker: the notes changed since its stamps (null: not such a build). */
	private freshBuild: number | null = null;
	/** The note list made in slices while the saved index is read (`prepareNotes`): awaited before an index is handed or built. */
	notesListed: Promise<void> = Promise.resolve();
	/** Per worker build running, the paths the vault's events touched since it stamped the notes. */
	private readonly touchedSets = new Set<Set<string>>();
	/** Told how far a worker build got (PluginEngine's progress notice). */
	onProgress: ((done: number, total: number) => void) | undefined;

	/**
	 * `notice` shows the one message of a failing IndexedDB; `slices` gives a runner of step
	 * functions in time slices of the main thread (the restore's decoding runs in it; default: at once).
	 */
	constructor(
		private readonly app: App,
		private readonly source: ObsidianNoteSource,
		private readonly pluginVersion: string,
		private readonly notice: (message: string) => void,
		private readonly slices: () => StepRunner = () => atOnce,
		private readonly workerSlice: () => TimeSlice = () =>
			new TimeSlice(Infinity, () => Promise.resolve(), Date.now),
	) {
		this.store = new IndexedDbStore(databaseName(appIdOf(app), app.vault.getName()));
	}

	/** Whether saving works this session (false after IndexedDB failed). */
	get usable(): boolean {
		return this.store !== null;
	}

	/** The database's name. */
	get databaseName(): string {
		return databaseName(appIdOf(this.app), this.app.vault.getName());
	}

	/** What shapes the part besides the search settings: the vault's identity, its config folder and Obsidian's Excluded files. */
	private vaultSettings(): string {
		return JSON.stringify([
			appIdOf(this.app),
			this.app.vault.getName(),
			this.source.configDir,
			this.source.userIgnoreFilters,
		]);
	}

	/** The parts over `store` (null: none, for the settings string only). */
	private parts(
		store: IndexedDbStore | SnapshotStore | null,
		fingerprints: ReadonlyMap<string, NoteFingerprint>,
	): IndexParts {
		const counted =
			store instanceof IndexedDbStore
				? countedStore(store, fingerprints.size, (part) => (this.lazy = part))
				: (store ?? piecesStore(SEARCH_KEY, []));
		return new IndexParts({
			store: counted,
			host: browserCodecHost,
			vaultKey: 'vault',
			tool: savedIndexTool(this.pluginVersion),
			vaultSettings: this.vaultSettings(),
			fingerprints,
			buildTrigrams: false,
		});
	}

	/** IndexedDB failed: say so once, and keep the index in memory from now on. */
	private fail(why: string): void {
		this.store?.close();
		this.store = null;
		this.log.push(`failed: ${why}`);
		if (this.noticeShown) return;
		this.noticeShown = true;
		this.notice(
			`Vault Query could not use its saved search index (${why}). The index is built in memory and is not kept after Obsidian closes.`,
		);
	}

	/**
	 * The saved index for `settings`; else one built in the index worker and restored from the part
	 * it encoded (saved as it is); null when neither (the engine then builds on the main thread).
	 */
	async searchIndex(settings: SearchSettings): Promise<SavedIndex<SearchIndex> | null> {
		this.freshBuild = null;
		const restored = await this.restoreSaved(settings);
		await this.notesListed;
		return restored ?? (await this.buildInWorker(settings));
	}

	/** The saved index for `settings`, or null (none, damaged, foreign, outdated, IndexedDB failing). */
	private async restoreSaved(settings: SearchSettings): Promise<SavedIndex<SearchIndex> | null> {
		const store = this.store;
		if (store === null) return null;
		if (this.skipNext) {
			this.skipNext = false;
			return null;
		}
		try {
			await store.open(); // IndexParts reads quietly: a failing database must be told apart from an empty one.
		} catch (error) {
			this.fail(messageOf(error));
			return null;
		}
		const run = this.slices();
		// The notes are compared with the vault's after the first answers (`takeReconcile`): that work is over every note.
		const parts = this.parts(store, new Map());
		const loaded = await parts.searchIndexFirst(settings, run);
		for (const note of parts.report.notes) this.log.push(note);
		if (loaded === null) return null;
		this.loadRestLater();
		this.toReconcile = {
			scopeLater: true,
			changed: async () => {
				const reported = parts.report.notes.length;
				const changed = await run(loaded.changed(await run(noteStamps(this.source))));
				for (const note of parts.report.notes.slice(reported)) this.log.push(note);
				this.log.push(`restored (${changed.length} notes to reconcile)`);
				return changed;
			},
		};
		// The engine installs it as it is; PluginEngine compares the notes and re-indexes the changed ones in slices while searches answer.
		return { index: loaded.index, changed: [], scopeLater: true };
	}

	/**
	 * Build the index in a worker (worker-host.ts): the main thread reads the notes and posts them,
	 * the worker builds, encodes and saves the part into IndexedDB itself, and the index comes in
	 * from the database as at a restart — the one way an index comes in (none of its ~130 MB at 50k
	 * notes crosses to the main thread). Where the worker cannot save, it sends the bytes, which are
	 * restored the same way and go to IndexedDB as they are (when ours works). Null (with one
	 * console line) where no worker starts or it fails: the engine builds on the main thread.
	 */
	private async buildInWorker(settings: SearchSettings): Promise<SavedIndex<SearchIndex> | null> {
		const worker = startIndexWorker();
		if (typeof worker === 'string') return this.mainThreadBuild(worker);
		this.workers.add(worker);
		let counter: IndexWorker | null = null;
		const run = this.slices();
		const touched = new Set<string>();
		this.touchedSets.add(touched);
		/** Terminates the workers started, once. */
		const release = (): void => {
			for (const started of [worker, counter])
				if (started !== null && this.workers.delete(started)) started.terminate();
		};
		try {
			const stamps = await run(noteStamps(this.source, Date.now() - RACY_MS));
			// Started a few turns after the builder: each worker's start (a Blob of the bundle) is a task of its own.
			counter = startCountingWorker(this.source.listNotes().length);
			if (counter !== null) this.workers.add(counter);
			const parts = this.parts(null, stamps);
			const basics = { source: this.source, settings, stamps, tool: savedIndexTool(this.pluginVersion), run };
			const request = await buildRequest(basics, parts.settingsOf('search', settings));
			const slice = this.workerSlice();
			const destination = (canSave: boolean) => this.saveTarget(canSave, stamps.size);
			const built = await buildInWorker(
				worker,
				request,
				this.source,
				slice,
				destination,
				this.onProgress,
				counter,
			);
			release(); // the workers' memory goes now, not after the restore
			if (built.saveFailed !== null) this.fail(built.saveFailed);
			// The restore starts in a task of its own, not in the one that took the worker's last message.
			await this.source.turns.next();
			const found = await this.restoreBuilt(built.pieces, settings, stamps, run);
			if (typeof found === 'string') return this.mainThreadBuild(found);
			const changed = [...new Set([...found.changed, ...touched])];
			// The notes changed since the stamps changed while the engine was building: it noted them then, and
			// applies them with these before it hands the index out — once; no reconcile after (it would be twice).
			this.toReconcile = { scopeLater: false, changed: () => Promise.resolve([]) };
			const workers =
				built.counted > 0 ? `two workers (${built.counted} notes counted by the second)` : 'a worker';
			this.log.push(`built in ${workers} (${changed.length} notes to reconcile)`);
			this.freshBuild = changed.length;
			const pieces = built.pieces;
			if (pieces === null) this.saved(`saved (${stamps.size} notes) by the worker`);
			else this.writing = this.writing.then(() => this.write(pieces, stamps.size));
			return { index: found.index, changed };
		} catch (error) {
			return this.mainThreadBuild(`the worker failed: ${messageOf(error)}`);
		} finally {
			this.touchedSets.delete(touched);
			release();
		}
	}

	/**
	 * Where a worker saves the part it encoded (`canSave`: it has IndexedDB): the vault's database,
	 * once the records of a part restored before are all read (the save replaces them); null — the
	 * part is sent here — when the worker cannot, or our IndexedDB failed.
	 */
	private async saveTarget(canSave: boolean, notes: number): Promise<SaveTarget | null> {
		if (!canSave || this.store === null) return null;
		await this.rest;
		await this.writing;
		const store = this.store;
		return store === null ? null : { database: store.name, key: SEARCH_KEY, notes };
	}

	/**
	 * The index a worker built, from the part it encoded, compared with its own stamps (only the
	 * racy notes come out changed, not a second stat of every note: ~0.7 s at 50k); or why it did
	 * not restore. From IndexedDB, where the worker saved it, as at a restart (the postings' records
	 * come later, lazy-part.ts); or from the `pieces` it sent.
	 */
	private async restoreBuilt(
		pieces: readonly Uint8Array[] | null,
		settings: SearchSettings,
		stamps: ReadonlyMap<string, NoteFingerprint>,
		run: StepRunner,
	): Promise<{ index: SearchIndex; changed: readonly string[] } | string> {
		const store = pieces === null ? this.store : piecesStore(SEARCH_KEY, pieces);
		if (store === null) return 'IndexedDB failed after the worker saved the index';
		const parts = this.parts(store, stamps);
		const loaded = await parts.searchIndexFirst(settings, run);
		if (loaded === null) return parts.report.notes.join('; ') || 'the index the worker built is gone';
		try {
			const changed = await run(loaded.changed(stamps));
			if (pieces === null) this.loadRestLater(); // read from IndexedDB: its postings' records come later
			return { index: loaded.index, changed };
		} catch (error) {
			if (error instanceof SnapshotFormatError) return error.message;
			throw error;
		}
	}

	/** The postings' records of the part restored last not read yet come in the background, when no other job waits. */
	private loadRestLater(): void {
		const lazy = this.lazy;
		if (lazy !== null && lazy.missing > 0)
			this.rest = lazy.loadRest(this.source.turns.nextIdle).catch(() => undefined);
	}

	/** A vault event touched `path` (and `oldPath`, renamed from): noted for the worker builds running (PluginEngine's listeners). */
	touched(path: string, oldPath: string | null): void {
		for (const touched of this.touchedSets) {
			touched.add(path);
			if (oldPath !== null) touched.add(oldPath);
		}
	}

	/** No worker build: say why on the console, once; the engine builds on the main thread (each note and the compaction in one block). */
	private mainThreadBuild(why: string): null {
		this.log.push(`built on the main thread: ${why}`);
		if (!this.fallbackSaid)
			console.warn(
				`Vault Query: building the search index on the main thread, pausing between notes only (${why})`,
			);
		this.fallbackSaid = true;
		return null;
	}

	/** The bytes the worker encoded, into IndexedDB as they came (no encoding on the main thread, no copy). */
	private async write(pieces: readonly Uint8Array[], notes: number): Promise<void> {
		await this.rest; // the records it replaces are no longer read
		const store = this.store;
		if (store === null) return;
		try {
			await store.save(SEARCH_KEY, pieces, notes);
			this.saved(`saved (${notes} notes)`);
		} catch (error) {
			this.fail(messageOf(error));
		}
	}

	/** The saved part is now an index's of this session, not one found damaged: logged as `line`; a worker may re-save it. */
	private saved(line: string): void {
		this.log.push(line);
		if (this.refreshBlocked !== NO_WORKER_STORE) this.refreshBlocked = null;
	}

	/** Resolves once the part a worker built is written (tests, the restart harness). */
	written(): Promise<void> {
		return this.writing;
	}

	/**
	 * Whether the index handed last was built fresh in a worker (and saved as built): the notes it
	 * took in since the saved part's stamps (the only ones unsaved), else null. Once.
	 */
	takeFresh(): number | null {
		const fresh = this.freshBuild;
		this.freshBuild = null;
		return fresh;
	}

	/** The next load builds instead of restoring (a rebuild the user asked for). */
	skipOnce(): void {
		this.skipNext = true;
	}

	/** What the index just restored or built still needs (once; null when nothing was restored since). */
	takeReconcile(): PendingReconcile | null {
		const paths = this.toReconcile;
		this.toReconcile = null;
		return paths;
	}

	/** The plugin keeps no trigram index. */
	trigramIndex(): Promise<SavedIndex<TrigramIndex> | null> {
		return Promise.resolve(null);
	}

	/** The restored index failed a check in use: the engine rebuilds (and the build is saved over it). */
	damaged(_kind: 'search', reason: string): void {
		this.refreshBlocked = 'the saved index was found damaged';
		this.log.push(`damaged: ${reason}; rebuilt`);
	}

	/**
	 * Save the engine's search index now, stamped with every note's stat; false when nothing was
	 * saved. `run` runs the encoding's steps (PluginEngine: in time slices of the main thread).
	 */
	save(engine: VaultEngine, run: StepRunner = atOnce): Promise<boolean> {
		// After a worker's part (this one is newer), and a clear waits for it (it would write after the clear).
		const saving = this.writing.then(() => this.saveInOrder(engine, run));
		this.writing = saving.then(
			() => undefined,
			() => undefined,
		);
		return saving;
	}

	/** {@link save}, once the writes before it are done. */
	private async saveInOrder(engine: VaultEngine, run: StepRunner): Promise<boolean> {
		await this.rest;
		const store = this.store;
		if (store === null || engine.builtSearchIndex === null) return false;
		await engine.settled();
		const fingerprints = await run(noteStamps(this.source, Date.now() - RACY_MS));
		if (await this.refreshInWorker(engine.builtSearchIndex.settings, fingerprints, run)) return true;
		const failure = await this.parts(store, fingerprints).save(engine, ['search'], true, run);
		if (failure !== null) {
			this.fail(failure);
			return false;
		}
		this.saved(`saved (${fingerprints.size} notes)`);
		return true;
	}

	/**
	 * Re-save in an index worker (worker-refresh.ts), the saved part brought up to `stamps`; false
	 * (the reason logged) where it cannot: no worker, no IndexedDB in it (not tried again), no saved
	 * part of these settings, or one found damaged in use. The index here is not read.
	 */
	private async refreshInWorker(
		settings: SearchSettings,
		stamps: ReadonlyMap<string, NoteFingerprint>,
		run: StepRunner,
	): Promise<boolean> {
		const store = this.store;
		if (store === null || this.refreshBlocked !== null) return false;
		const worker = startIndexWorker();
		if (typeof worker === 'string') return false;
		this.workers.add(worker);
		const basics = { source: this.source, settings, stamps, tool: savedIndexTool(this.pluginVersion), run };
		const target = { database: store.name, key: SEARCH_KEY, notes: stamps.size };
		const refreshing = refreshRequest(basics, this.vaultSettings(), target).then((request) =>
			refreshSavedPart(worker, request, this.source, this.workerSlice()),
		);
		try {
			const reindexed = await refreshing;
			this.log.push(`saved (${stamps.size} notes) by a worker (${reindexed} re-indexed)`);
			return true;
		} catch (error) {
			const why = messageOf(error);
			if (why === NO_WORKER_STORE) this.refreshBlocked = why;
			this.log.push(`saved on the main thread: ${why}`);
			return false;
		} finally {
			if (this.workers.delete(worker)) worker.terminate();
		}
	}

	/** Resolves once the restored index's saved records are all loaded (at once when none is restored). */
	restLoaded(): Promise<void> {
		return this.rest;
	}

	/** What is saved now, or null (none, or IndexedDB failing). */
	async summary(): Promise<SavedIndexSummary | null> {
		try {
			return (await this.store?.info(SEARCH_KEY)) ?? null;
		} catch {
			return null;
		}
	}

	/** Delete the saved index (the one in memory stays); true when there was one. */
	async clear(): Promise<boolean> {
		try {
			await this.writing; // a save in progress would write the part again after the clear
			await this.rest;
			const had = (await this.store?.clear(SEARCH_KEY)) ?? false;
			this.log.push('cleared');
			return had;
		} catch (error) {
			this.fail(messageOf(error));
			return false;
		}
	}

	/** Let go of the database (the plugin unloads). */
	close(): void {
		for (const worker of this.workers) worker.terminate(); // a build in progress never ends: the plugin is gone
		this.workers.clear();
		this.fallbackSaid = true; // a start still running after the unload says nothing more on the console
		this.store?.close();
	}
}
