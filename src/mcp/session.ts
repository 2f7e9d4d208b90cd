/**
 * The warm vault behind the MCP server: one engine (src/core/engine) over the vault, its search
 * index built once, and both kept current by the watcher. Every call runs against one immutable snapshot of that state
 * (captured when the call starts), and a refresh builds the next state aside and swaps it in with
 * one assignment — so concurrent calls never see a half-updated vault, and a call that arrives
 * while changes are pending waits for them (an edit is seen by the next call).
 */
import { VaultEngine, type EngineConfig } from '../core/engine/engine';
import type { NoteSource } from '../core/port';
import type { SnapshotReport } from '../node/snapshot/open-cached';
import type { SkippedEntry } from '../node/vault-source';

/** A Node note source that can list what its walk and reader skipped. */
export type VaultSource = NoteSource & { listSkipped(): SkippedEntry[] };

/**
 * Reads the vault: `first` is the start (through the saved snapshot, saving it), later calls are
 * refreshes. `snapshot` is null when no snapshot is used (`--no-cache`).
 */
export type VaultOpener = (first: boolean) => Promise<{ source: VaultSource; snapshot: SnapshotReport | null }>;

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
}

/** What `status` reports about freshness. */
export interface RefreshInfo {
	/** Full builds so far (the first open counts as one). */
	builds: number;
	/** Changed paths seen by the watcher since start. */
	changesSeen: number;
	/** Whether changes are waiting to be applied. */
	pending: boolean;
	/** Why the last refresh failed, if it did (the previous state stays in use). */
	lastError: string | null;
}

/** Builds one state from the vault on disk (the search index too, so no call pays for it). */
async function buildState(open: VaultOpener, first: boolean, config: EngineConfig): Promise<VaultState> {
	const started = performance.now();
	const { source, snapshot } = await open(first);
	const engine = new VaultEngine(source, config);
	await engine.searchIndex();
	return { source, engine, snapshot, builtAt: new Date().toISOString(), buildMs: Math.round(performance.now() - started) };
}

/**
 * The session: `current()` for every call, `changed()` from the watcher. Refreshes rebuild the
 * whole state (reopen + reindex) in the background; a burst of changes is one rebuild. The engine
 * object's incremental `upsert`/`remove`/`rename` (issue 9) is the next step for large vaults.
 */
export class VaultSession {
	private state: VaultState;
	private readonly info: RefreshInfo = { builds: 1, changesSeen: 0, pending: false, lastError: null };
	private dirty = false;
	/** The file watcher's state, set by the server once it starts watching. */
	watcher: { running: boolean; error: string | null } = { running: false, error: null };
	private running: Promise<void> | null = null;

	private constructor(
		readonly vaultPath: string,
		private readonly open: VaultOpener,
		private readonly config: EngineConfig,
		initial: VaultState,
		private readonly log: (line: string) => void,
	) {
		this.state = initial;
	}

	/** Reads the vault with `open` and builds its index; throws `VaultError` when the folder cannot be opened. */
	static async start(open: VaultOpener, config: EngineConfig = {}, log: (line: string) => void = () => undefined): Promise<VaultSession> {
		const state = await buildState(open, true, config);
		log(`indexed ${state.source.listNotes().length} notes in ${state.buildMs} ms${state.snapshot ? ` (index snapshot ${state.snapshot.state})` : ''}`);
		return new VaultSession(state.source.vaultPath, open, config, state, log);
	}

	/** The state a call should use: after any pending refresh, so an edit the watcher saw is answered. */
	async current(): Promise<VaultState> {
		while (this.dirty || this.running) await (this.running ?? this.refresh());
		return this.state;
	}

	/** The state right now, without waiting (for `status`). */
	peek(): VaultState {
		return this.state;
	}

	/** Freshness counters for `status`. */
	refreshInfo(): RefreshInfo {
		return { ...this.info, pending: this.dirty || this.running !== null };
	}

	/** The watcher saw `count` changed paths; mark dirty (the next call or the debounce refreshes). */
	changed(count: number): void {
		this.info.changesSeen += count;
		this.dirty = true;
	}

	/** Applies pending changes now (one rebuild for however many paths changed); resolves when current. */
	refresh(): Promise<void> {
		if (this.running) return this.running;
		if (!this.dirty) return Promise.resolve();
		this.dirty = false;
		this.running = buildState(this.open, false, this.config)
			.then((next) => {
				this.state = next;
				this.info.builds++;
				this.info.lastError = null;
				this.log(`refreshed: ${next.source.listNotes().length} notes in ${next.buildMs} ms`);
			})
			.catch((error: unknown) => {
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
