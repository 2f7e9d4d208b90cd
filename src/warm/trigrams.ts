/**
 * The MCP server's trigram index, kept off the call path. After the server is ready it loads the
 * saved trigram part, or — when there is none — builds the index in slices
 * (core/text/trigram-build.ts) while calls keep answering by full scan. Refreshes that happen
 * meanwhile are caught up through `refreshTrigrams` (the path every carried or saved index
 * takes); then the index is handed to the current engine, later refreshes carry it like the
 * search index, and a built index is saved as the snapshot's trigram part so the next start
 * loads it.
 */
import { setTimeout } from 'node:timers';
import { refreshTrigrams } from '../core/engine/saved';
import type { TrigramIndex } from '../core/text/trigram';
import { buildTrigramsSliced, type NoteToIndex } from '../core/text/trigram-build';
import { GarbageBound } from './garbage-bound';
import type { TrigramStatus, VaultSession, VaultSource, VaultState } from './session';

/** Delays the background work by this many ms (tests use it to see answers before the index exists). */
export const TRIGRAM_DELAY_ENV = 'VAULT_QUERY_MCP_TRIGRAM_DELAY_MS';

/** Notes between two looks at the memory in use. */
const LOOK_EVERY = 64;

/**
 * The notes a build reads: every readable note of the source; every few notes, `bound` collects
 * if the build's garbage grew, and once all are read it collects whatever there is.
 */
export function* notesOf(
	source: Pick<VaultSource, 'listNotes' | 'getSkipReason' | 'read'>,
	bound: GarbageBound,
): Generator<NoteToIndex> {
	let n = 0;
	for (const path of source.listNotes()) {
		if (++n % LOOK_EVERY === 0) bound.check();
		if (source.getSkipReason(path) === null) yield { path, read: () => source.read(path) };
	}
	// Before the last segment is packed and the segments merged: the merge holds them and its result
	// at once (~130 MB at 50k notes), the server's peak when up to an allowance of garbage was left.
	bound.collectNow();
}

/** Sleeps `ms` (0: returns at once). */
function delay(ms: number): Promise<void> {
	return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();
}

/** The background upkeep (see the module comment): `start()` once the server is ready, `stop()` on shutdown. */
export class TrigramUpkeep {
	readonly status: TrigramStatus = { state: 'waiting', from: null, notes: null, ms: null, detail: 'not started' };
	private stopped = false;
	/** Paths refreshes applied since the work began, not yet applied to the index being made. */
	private readonly touched = new Set<string>();

	constructor(
		private readonly session: VaultSession,
		private readonly log: (line: string) => void,
		private readonly options: { sliceMs?: number; delayMs?: number; garbage?: GarbageBound } = {},
	) {}

	/** Stop at the next slice (shutdown); an index not yet handed over is dropped. */
	stop(): void {
		this.stopped = true;
		if (this.status.state !== 'ready' && this.status.state !== 'failed') this.status.state = 'off';
	}

	/** Load or build, hand over, save; never throws (a failure leaves grep on full scans and says why in `status`). */
	async start(): Promise<void> {
		const unsubscribe = this.session.onRefresh((applied) => {
			for (const path of applied) this.touched.add(path);
		});
		const started = performance.now();
		try {
			await delay(this.options.delayMs ?? 0);
			const parts = this.session.peek().parts;
			let index: TrigramIndex | null = null;
			if (parts && !this.stopped) {
				this.status.state = 'loading';
				const saved = await parts.trigramIndex();
				if (saved !== null) {
					index = saved.index;
					for (const path of saved.changed) this.touched.add(path);
					this.status.from = 'saved';
					// The load checked every block of the postings, read a piece at a time and dropped (~65 MB
					// at 50k notes): collected now rather than carried into the first answer's peak.
					(this.options.garbage ?? new GarbageBound()).collectNow();
				}
			}
			if (index === null && !this.stopped) {
				this.status.state = 'building';
				const bound = this.options.garbage ?? new GarbageBound();
				// The search part was just saved: its encoded pieces (~130 MB at 50k) are garbage now.
				bound.collectNow();
				index = await buildTrigramsSliced(notesOf(this.session.peek().source, bound), {
					sliceMs: this.options.sliceMs,
					cancelled: () => this.stopped,
				});
				if (index !== null) this.status.from = 'built';
			}
			const state = index === null ? null : await this.handOver(index);
			if (state === null || index === null) return;
			this.status.state = 'ready';
			this.status.notes = index.size;
			this.status.ms = Math.round(performance.now() - started);
			this.log(
				`trigram index ${this.status.from === 'saved' ? 'loaded' : 'built'}: ${index.size} notes in ${this.status.ms} ms`,
			);
			this.status.detail = parts ? "saving as the snapshot's trigram part" : 'not saved (--no-cache)';
			if (parts) {
				const saving = parts.save(state.engine, ['trigrams']);
				this.session.saves.track(saving);
				this.status.detail = (await saving) ?? 'saved with the index snapshot when it changed';
			}
		} catch (error) {
			this.status.state = 'failed';
			this.status.detail = error instanceof Error ? error.message : String(error);
			this.log(`trigram index failed, grep keeps scanning every note: ${this.status.detail}`);
		} finally {
			unsubscribe();
		}
	}

	/**
	 * Apply what refreshes changed meanwhile, then hand the index to the engine in use — in the same
	 * turn that finds no refresh pending, so no change slips between; null when stopped.
	 */
	private async handOver(index: TrigramIndex): Promise<VaultState | null> {
		for (;;) {
			if (this.stopped) return null;
			const state = await this.session.current();
			if (this.touched.size > 0) {
				const paths = [...this.touched];
				this.touched.clear();
				for (const path of paths) await refreshTrigrams(index, state.source, path);
				continue;
			}
			if (this.session.peek() !== state || this.session.refreshInfo().pending) continue;
			state.engine.trigrams = index;
			return state;
		}
	}
}
