/**
 * The warm vault behind the MCP server: one engine (src/core/engine) over the vault, its search
 * index built once (or loaded from the saved index parts), and both kept current by the watcher.
 * A refresh reads the vault again through the snapshot (only changed notes are re-read) and hands
 * the previous engine's search and trigram indexes to the new engine, which applies the changed
 * notes to them incrementally (the same path a saved index takes) — a burst of changes is one
 * refresh. Calls in flight finish on the old state before its indexes are touched, calls that
 * arrive meanwhile wait, and the new state is swapped in with one assignment: no call sees a
 * half-updated vault, and an edit is seen by the next call.
 */
import { clearTimeout, setTimeout } from 'node:timers';
import { carriedIndexes, VaultEngine, type EngineConfig, type SavedIndexes } from '../core/engine/engine';
import type { NoteSource } from '../core/port';
import type { FedNotes } from '../core/search/fed-notes';
import type { SearchSettings } from '../core/search/settings';
import { resolveConfig } from '../core/engine/config';
import type { StepRunner } from '../core/snapshot/index-parts';
import { hostTurn, TimeSlice } from '../core/steps';
import type { SnapshotReport } from '../node/snapshot/open-cached';
import type { SkippedEntry } from '../node/vault-source';

/** What `status` says about the trigram index. */
export interface TrigramStatus {
	/** `waiting` (not started), `loading` (the saved part), `building`, `ready`, `failed`, `off` (stopped). */
	state: 'waiting' | 'loading' | 'building' | 'ready' | 'failed' | 'off';
	/** `saved` (loaded from the snapshot's part) or `built` (here, in the background), once ready. */
	from: 'saved' | 'built' | null;
	/** Notes the index knows (unknown notes are scanned by every grep). */
	notes: number | null;
	/** Milliseconds from start of the background work to ready. */
	ms: number | null;
	/** Saved part: its outcome in words, or why not saved. */
	detail: string;
}

/**
 * A Node note source that can list what its walk and reader skipped, and may prepare now what a
 * later refresh after a created or renamed note reads (the snapshot's link lookups), off any call's path.
 */
export type VaultSource = NoteSource & { listSkipped(): SkippedEntry[]; prepareForChanges?(): void };

/**
 * Reads the vault: `first` is the start (through the saved snapshot, saving it), later calls are
 * refreshes, given the paths the watcher reported since the previous read (the watcher started
 * before the first read, so every other note is as that read found it). `snapshot` is null when
 * no snapshot is used (`--no-cache`).
 */
export type VaultOpener = (
	first: boolean,
	changed?: readonly string[],
	search?: Partial<SearchSettings>,
) => Promise<OpenedVault>;

/** What an opener gives: the source, the snapshot report, and on the first open the saved index parts. */
export interface OpenedVault {
	source: VaultSource;
	snapshot: SnapshotReport | null;
	/** Saved indexes to start from, and how to save the ones built (first open through the snapshot). */
	parts?: SavedIndexes & {
		save(
			engine: VaultEngine,
			kinds?: readonly ('search' | 'trigrams')[],
			always?: boolean,
			run?: StepRunner,
		): Promise<string | null>;
	};
	/** Notes changed since the saved snapshot (a refresh applies them to the carried indexes). */
	changed?: readonly string[];
	/** A start from scratch: the search index fed by its read (with `search`, the engine's settings), for the engine's build. */
	fed?: FedNotes;
}

/** One consistent view of the vault: the engine over one read of it, its search index built. */
export interface VaultState {
	readonly source: VaultSource;
	readonly engine: VaultEngine;
	/** What the index snapshot did when this state was read (null without a snapshot). */
	readonly snapshot: SnapshotReport | null;
	/** When this state finished building (ISO 8601). */
	readonly builtAt: string;
	/** How long building it took, in ms. */
	readonly buildMs: number;
	/** Paths this refresh applied to the carried indexes (empty on the first open). */
	readonly applied: readonly string[];
	/** The saved index parts (first open through the snapshot only): the background trigram build loads and saves through them. */
	readonly parts: OpenedVault['parts'] | null;
}

/** What `status` reports about freshness. */
export interface RefreshInfo {
	/** Refreshes so far (the first open counts as one). */
	builds: number;
	/** Refreshes that updated the previous indexes in place rather than building new ones. */
	incremental: number;
	/** Changed paths seen by the watcher since start. */
	changesSeen: number;
	/** Whether changes are waiting to be applied. */
	pending: boolean;
	/** Why the last refresh failed, if it did (the previous state stays in use). */
	lastError: string | null;
}

/** The previous state and the paths the watcher saw change since, for a refresh; `rescope`: only the trigram index is carried. */
interface Carry {
	previous: VaultState;
	paths: readonly string[];
	rescope: boolean;
}

/**
 * What the first engine may load from the saved parts: the search index only. The trigram part is
 * loaded (or built when there is none) by the background upkeep (trigrams.ts) after the server is
 * ready, so no call waits for it; until then grep and text-search scan.
 */
function searchPartOnly(parts: SavedIndexes): SavedIndexes {
	return {
		buildTrigrams: false,
		searchIndex: (settings) => parts.searchIndex(settings),
		trigramIndex: () => Promise.resolve(null),
	};
}

/** A rescope (Excluded files changed) drops the search index, but note texts are unchanged: the trigram index is carried. */
function trigramsOnly(carried: SavedIndexes): SavedIndexes {
	return {
		buildTrigrams: false,
		searchIndex: () => Promise.resolve(null),
		trigramIndex: () => carried.trigramIndex(),
	};
}

/**
 * Builds one state from the vault on disk (the search index too, so no call pays for it): from the
 * saved index parts on the first open, from the previous state's indexes on a refresh.
 */
async function buildState(
	open: VaultOpener,
	first: boolean,
	config: EngineConfig,
	carry: Carry | null,
): Promise<VaultState> {
	const started = performance.now();
	const { source, snapshot, parts, changed, fed } = await open(first, carry?.paths, resolveConfig(config).search);
	const engine = new VaultEngine(source, config);
	engine.fed = fed ?? null;
	const applied = carry === null ? [] : [...new Set([...carry.paths, ...(changed ?? [])])];
	if (carry !== null) {
		// The previous index may still be loading (the first state's is, right after start): carry it once it is there.
		if (carry.previous.engine.searchState === 'building')
			await carry.previous.engine.searchIndex().catch(() => undefined);
		const previous = carry.previous.engine;
		const held = {
			search: previous.builtSearchIndex,
			unused: previous.unusedSavedIndexes,
			trigrams: previous.trigrams,
		};
		const carried = carriedIndexes(held, applied);
		engine.saved = carry.rescope ? trigramsOnly(carried) : carried;
	} else if (parts) engine.saved = searchPartOnly(parts);
	// The search index takes the changes when a search or pack first asks, or when the host catches
	// up once refreshes pause (warm/host.ts): a structural call right after an edit does not wait for
	// it. The first state's is loaded after the server is ready (`loadSearchIndex`).
	if (carry !== null) await engine.trigramIndex(false);
	return {
		source,
		engine,
		snapshot,
		builtAt: new Date().toISOString(),
		buildMs: Math.round(performance.now() - started),
		applied,
		parts: first ? (parts ?? null) : null,
	};
}

/** Milliseconds of a saved index's encoding between two turns of the event loop. */
const SAVE_SLICE_MS = 50;

/** Runs a save's encoding in slices of SAVE_SLICE_MS, a turn of the event loop between them. */
const inSlices: StepRunner = (steps) => new TimeSlice(SAVE_SLICE_MS, hostTurn, () => performance.now()).run(steps);

/** Saves still being written, so shutdown can let them finish (a 50k trigram build is minutes of work). */
export class Saves {
	private readonly pending = new Set<Promise<unknown>>();

	/** Remember `work` until it settles. */
	track(work: Promise<unknown>): void {
		this.pending.add(work);
		void work.finally(() => this.pending.delete(work));
	}

	/** Resolves when every tracked save settled, or after `ms`. */
	async settled(ms: number): Promise<void> {
		let timer: ReturnType<typeof setTimeout> | undefined;
		await Promise.race([
			Promise.allSettled([...this.pending]),
			new Promise((resolve) => (timer = setTimeout(resolve, ms))),
		]);
		clearTimeout(timer);
	}
}

/**
 * The session: `use()` (or `current()`) for every call, `changed()` from the watcher. Refreshes
 * run in the background, one per burst of changes (see the module comment).
 */
export class VaultSession {
	private state: VaultState;
	private readonly info: RefreshInfo = { builds: 1, incremental: 0, changesSeen: 0, pending: false, lastError: null };
	private dirty = false;
	/** Paths the watcher saw since the last refresh began. */
	private paths = new Set<string>();
	/** Calls running on the current state, and who waits for them to finish. */
	private active = 0;
	private idle: (() => void)[] = [];
	/** Calls not yet answered (running, or waiting for the search index: `hold`), and who waits for none. */
	private unanswered = 0;
	private answered: (() => void)[] = [];
	/** The background trigram index's state (trigrams.ts), set by the server once it starts it. */
	trigrams: TrigramStatus | null = null;
	/** The file watcher's state, set by the server once it starts watching. */
	watcher: { running: boolean; error: string | null } = { running: false, error: null };
	private running: Promise<void> | null = null;
	/** Told the paths each refresh applied (the background trigram build catches up with them). */
	private readonly refreshListeners = new Set<(applied: readonly string[], state: VaultState) => void>();

	private constructor(
		readonly vaultPath: string,
		private readonly open: VaultOpener,
		private readonly config: EngineConfig,
		initial: VaultState,
		private readonly log: (line: string) => void,
		/** Saves in flight (index parts written after start). */
		readonly saves: Saves,
	) {
		this.state = initial;
	}

	/** Reads the vault with `open` and builds its index; throws `VaultError` when the folder cannot be opened. */
	static async start(
		open: VaultOpener,
		config: EngineConfig = {},
		log: (line: string) => void = () => undefined,
	): Promise<VaultSession> {
		const saves = new Saves();
		const state = await buildState(open, true, config, null);
		log(
			`indexed ${state.source.listNotes().length} notes in ${state.buildMs} ms${state.snapshot ? ` (index snapshot ${state.snapshot.state})` : ''}`,
		);
		return new VaultSession(state.source.vaultPath, open, config, state, log, saves);
	}

	/**
	 * Loads (or builds) the first state's search index and saves it as the snapshot's search part;
	 * resolves when done, never rejects. Called once the server is ready, so neither the handshake
	 * nor a structural call waits for it (a search or pack arriving first starts the same load).
	 */
	async loadSearchIndex(): Promise<void> {
		const { engine, parts } = this.state;
		const saving = engine.searchIndex().then(
			async () => {
				// The calls that waited for the index are answered first: the save starts a turn after
				// none is left unanswered (a search takes many turns, each of which a slice of the
				// encoding would precede) and encodes in slices, so calls after it wait little.
				await this.allAnswered();
				const error = parts ? await parts.save(engine, ['search'], false, inSlices) : null;
				if (error !== null) this.log(`warning: ${error}`);
			},
			(error: unknown) =>
				this.log(`search index failed: ${error instanceof Error ? error.message : String(error)}`),
		);
		this.saves.track(saving);
		await saving;
	}

	/** Builds the current engine's shared structural-query state now (after ready, between loads), so no first call pays for it. */
	warmQueries(): void {
		try {
			this.state.engine.warmQueries();
			this.state.source.prepareForChanges?.();
		} catch (error) {
			this.log(`warm-up skipped: ${error instanceof Error ? error.message : String(error)}`);
		}
	}

	/**
	 * Hands over the changes the watcher has seen but not yet reported (set by the host, warm/host.ts),
	 * so a call never waits out the watcher's burst delay, nor misses an edit made just before it.
	 */
	settle: (() => Promise<void>) | null = null;

	/** The state a call should use: after every change the watcher has seen is applied. */
	async current(): Promise<VaultState> {
		if (this.settle !== null) await this.settle();
		while (this.dirty || this.running) await (this.running ?? this.refresh());
		return this.state;
	}

	/** Run one call on the current state; a refresh does not touch that state's indexes until the call is done. */
	async use<T>(call: (state: VaultState) => Promise<T>): Promise<T> {
		const release = this.hold();
		try {
			const state = await this.current();
			this.active++;
			try {
				return await call(state);
			} finally {
				this.active--;
				if (this.active === 0) for (const done of this.idle.splice(0)) done();
			}
		} finally {
			release();
		}
	}

	/**
	 * Marks a call as not yet answered until the returned function is called (once), so the start's
	 * save of the search index waits for it: a call that waits for that index holds from before.
	 */
	hold(): () => void {
		this.unanswered++;
		let held = true;
		return () => {
			if (!held) return;
			held = false;
			this.unanswered--;
			if (this.unanswered === 0) for (const done of this.answered.splice(0)) done();
		};
	}

	/** Resolves once no call is left unanswered (see `hold`), a turn after the last answer. */
	private async allAnswered(): Promise<void> {
		for (;;) {
			await hostTurn();
			if (this.unanswered === 0) return;
			await new Promise<void>((done) => this.answered.push(done));
		}
	}

	/** Resolves once no call runs on the current state. */
	private drained(): Promise<void> {
		return this.active === 0 ? Promise.resolve() : new Promise((done) => this.idle.push(done));
	}

	/** The state right now, without waiting (for `status`). */
	peek(): VaultState {
		return this.state;
	}

	/** Call `listener` after each refresh with the paths it applied; returns the unsubscribe. */
	onRefresh(listener: (applied: readonly string[], state: VaultState) => void): () => void {
		this.refreshListeners.add(listener);
		return () => this.refreshListeners.delete(listener);
	}

	/** Freshness counters for `status`. */
	refreshInfo(): RefreshInfo {
		return { ...this.info, pending: this.dirty || this.running !== null };
	}

	/** The watcher saw these paths change (vault-relative); mark dirty (the next call or the debounce refreshes). */
	changed(paths: readonly string[]): void {
		this.info.changesSeen += paths.length;
		for (const path of paths) this.paths.add(path);
		this.dirty = true;
	}

	/** Applies pending changes now (one rebuild for however many paths changed); resolves when current. */
	refresh(): Promise<void> {
		if (this.running) return this.running;
		if (!this.dirty) return Promise.resolve();
		this.dirty = false;
		const paths = [...this.paths];
		this.paths.clear();
		// A changed "Excluded files" (app.json) moves the scope of every note: build the indexes anew.
		const rescope = paths.some((p) => p === '' || p === `${this.state.source.configDir}/app.json`);
		const previous = this.state;
		this.running = this.drained()
			.then(() => buildState(this.open, false, this.config, { previous, paths, rescope }))
			.then((next) => {
				this.state = next;
				for (const listener of this.refreshListeners) listener(next.applied, next);
				this.info.builds++;
				if (!rescope) this.info.incremental++;
				this.info.lastError = null;
				this.log(`refreshed: ${next.source.listNotes().length} notes in ${next.buildMs} ms`);
			})
			.catch((error: unknown) => {
				// The previous indexes may be half updated: the next refresh builds them anew.
				if (!rescope) this.paths.add('');
				this.info.lastError = error instanceof Error ? error.message : String(error);
				this.log(`refresh failed, keeping the previous index: ${this.info.lastError}`);
			})
			.finally(() => {
				this.running = null;
				// Changes that arrived during this build get their own (one) build right away.
				if (this.dirty) void this.refresh();
			});
		return this.running;
	}
}
