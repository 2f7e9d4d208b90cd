import { Component, type App, type TAbstractFile } from 'obsidian';
import { TimeSlice, drain } from '../core/steps';
import type { ObsidianNoteSource } from './source';

/**
 * Keeps an {@link ObsidianNoteSource} current inside Obsidian, and says how ready it is; PluginEngine
 * gates every operation on that readiness.
 *
 * Readiness — our documented policy:
 * - `loading` (before `workspace.onLayoutReady`): Obsidian is still loading the vault and its
 *   metadata cache. A query answers at once with `status: "failed"` and {@link INDEX_BUILDING};
 *   callers that would rather wait can `await whenReady()` first. We do not block, because a
 *   command or an agent should never hang on a promise that the plugin's unload could orphan.
 *   At layout-ready the plugin counts the notes Obsidian has not cached, in time slices; whoever
 *   reads the state before the count ends finishes it at once, so no query sees `loading` then.
 * - `indexing` (layout ready, but some notes have no cache yet, so a first `resolved` is due):
 *   queries run; notes not parsed yet are listed in `skipped` ("not yet indexed by Obsidian"),
 *   the status is at best `partial`, and a limitation says the link maps may be incomplete.
 * - `ready` (layout ready and every note cached, or the first `resolved` has arrived): normal.
 *
 * Listeners are attached in `onLayoutReady`, never in `onload`: at cold start Obsidian fires
 * `create` for every file of the vault, which would only churn the caches. Everything goes
 * through `registerEvent`, so unloading the plugin detaches it all.
 */

/** Milliseconds of the readiness count between yields to the main thread. */
const READINESS_SLICE_MS = 10; // why: under a 16 ms frame, like the index build's slices.

/** The adapter's readiness (see the module comment). */
export type IndexState = 'loading' | 'indexing' | 'ready';

/** The `error` of a query made before Obsidian's layout is ready. */
export const INDEX_BUILDING =
	'index is still building: Obsidian has not finished loading the vault yet; try again in a moment (API callers: await whenReady() first)';

/** The limitation added to answers given while Obsidian is still indexing. */
export const STILL_INDEXING =
	'Obsidian was still indexing the vault when this query ran: notes not parsed yet were not searched and link counts may be incomplete';

/** The lifecycle `Component` of the Obsidian index: readiness and the source's event wiring (the gate is PluginEngine's). */
export class IndexLifecycle extends Component {
	private current: IndexState = 'loading';
	private active = false;
	private readonly waiters: (() => void)[] = [];
	private readonly log: string[] = [];
	/** The readiness count after layout-ready, while it runs. */
	private count: Generator<void, number, void> | null = null;

	/** `source` is the adapter this component keeps current; nothing happens until `load()`. */
	constructor(
		private readonly app: App,
		readonly source: ObsidianNoteSource,
	) {
		super();
	}

	/** Where the index is (see the module comment). */
	get state(): IndexState {
		// why: a query right after layout-ready must see `ready` or `indexing`, never a count in progress.
		this.finishCount();
		return this.current;
	}

	/** The lifecycle transitions and reconciliations so far, oldest first (for tests and debugging). */
	get history(): readonly string[] {
		return this.log;
	}

	/** Resolves once the index is `ready` (at once when it already is). */
	whenReady(): Promise<void> {
		if (this.current === 'ready') return Promise.resolve();
		return new Promise((resolve) => this.waiters.push(resolve));
	}

	/** Light: only asks to be called back when the layout is ready. */
	override onload(): void {
		this.active = true;
		this.app.workspace.onLayoutReady(() => this.start());
	}

	/** Listeners are released by `registerEvent`; the source goes back to uncached listing. */
	override onunload(): void {
		this.active = false;
		this.source.setLive(false);
	}

	private start(): void {
		if (!this.active) return;
		const { vault, metadataCache } = this.app;
		this.registerEvent(metadataCache.on('changed', (file, data) => this.source.noteChanged(file.path, data)));
		this.registerEvent(metadataCache.on('deleted', (file) => this.removed(file)));
		this.registerEvent(metadataCache.on('resolve', (file) => this.source.linksResolved(file.path)));
		this.registerEvent(metadataCache.on('resolved', () => this.resolved()));
		this.registerEvent(vault.on('create', () => this.source.invalidate()));
		this.registerEvent(vault.on('delete', (file) => this.removed(file)));
		this.registerEvent(
			vault.on('rename', (file, oldPath) => {
				this.source.moved(oldPath, file.path);
				this.source.invalidate();
			}),
		);
		this.source.setLive(true);
		// A pass over every note, and it lists them first: in a task of its own, not in the layout-ready one.
		window.setTimeout(() => {
			if (this.active) void this.source.learnFrontmatterBlocks();
		}, 0);
		this.log.push('layout-ready');
		const count = this.source.unindexedSteps();
		this.count = count;
		void this.countInSlices(count);
	}

	/**
	 * `ready` when Obsidian has every note cached, else `indexing` until its first `resolved`. The
	 * notes are counted in time slices of tasks of their own (at 50k notes one pass held the main
	 * thread ~0.1 s); anyone who looks at the state meanwhile finishes the count at once.
	 */
	private async countInSlices(count: Generator<void, number, void>): Promise<void> {
		const slice = new TimeSlice(READINESS_SLICE_MS, this.source.turns.next, Date.now);
		await slice.pause();
		const missing = await slice.run(count);
		if (this.count === count) this.decide(missing);
	}

	/** The count is done: set the state it calls for. */
	private decide(missing: number): void {
		this.count = null;
		if (!this.active) return;
		this.setState(missing === 0 ? 'ready' : 'indexing');
	}

	/** Finish a readiness count still running, in one go (see {@link state}). */
	private finishCount(): void {
		if (this.count) this.decide(drain(this.count));
	}

	private removed(file: TAbstractFile): void {
		this.source.forget(file.path);
		this.source.invalidate();
	}

	/** The first `resolved` ends the cold-start indexing: rebuild the path lists once, then be ready. */
	private resolved(): void {
		this.finishCount();
		if (this.current !== 'indexing') return;
		this.source.invalidate();
		this.log.push('reconciled');
		this.setState('ready');
	}

	private setState(state: IndexState): void {
		this.current = state;
		this.log.push(state);
		if (state === 'ready') for (const resolve of this.waiters.splice(0)) resolve();
	}
}
