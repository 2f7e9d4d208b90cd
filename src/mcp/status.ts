import type { SkippedFile } from '../core/contract';
import type { EngineStatus } from '../core/engine/engine';
import type { SnapshotReport } from '../node/snapshot/open-cached';
import type { TrigramStatus, VaultSession } from '../warm/session';

/**
 * The `status` tool's answer: `vault-query status --json` (the engine's status) plus what only a
 * long-running server has — when the index was last refreshed, the watcher, the snapshot.
 */
export interface ServerStatus extends EngineStatus {
	status: 'success';
	/** The engine's skipped notes plus what the vault walk left out (symlinks leaving the vault, unreadable folders). */
	skipped: SkippedFile[];
	/** When the state in use finished building, and how long opening and indexing took. */
	last_refresh: string;
	refresh_ms: number;
	/** Refreshes since start (the first open included), how many of them updated the indexes incrementally, and changed paths the watcher reported. */
	builds: number;
	incremental_refreshes: number;
	changes_seen: number;
	/** Changes seen but not yet applied (the next call waits for them). */
	pending: boolean;
	last_error: string | null;
	watcher: { running: boolean; error: string | null };
	/** The trigram index grep, text-search and search's phrases and regexes narrow their reads with (until `ready`, they read every note). */
	trigram_index: TrigramStatus;
	/** What the index snapshot did for the state in use: `warm`, `refreshed`, `built`, or `off` (--no-cache). */
	snapshot: { state: 'warm' | 'refreshed' | 'built' | 'off'; detail: string };
	/** The server process's memory in MB: resident, JavaScript heap in use, and outside the heap (file bytes, typed arrays). */
	memory: { rss_mb: number; heap_used_mb: number; external_mb: number };
	limitations: string[];
}

/** This process's memory in MB. */
function memoryOf(): ServerStatus['memory'] {
	const usage = process.memoryUsage();
	const mb = (bytes: number): number => Math.round(bytes / 2 ** 20);
	return { rss_mb: mb(usage.rss), heap_used_mb: mb(usage.heapUsed), external_mb: mb(usage.external) };
}

/** The snapshot part of the status, in words an agent can pass on. */
function snapshotOf(report: SnapshotReport | null): ServerStatus['snapshot'] {
	if (report === null) return { state: 'off', detail: 'no index snapshot (--no-cache): the vault was read whole' };
	const why = report.rebuildReason === null ? '' : ` (${report.rebuildReason})`;
	const detail =
		report.state === 'warm'
			? 'used as saved'
			: report.state === 'refreshed'
				? `used, ${report.reread} notes re-read and ${report.removed} removed`
				: `built from the vault${why}`;
	return { state: report.state, detail: `index snapshot ${detail} in ${Math.round(report.ms)} ms` };
}

/** The session's status, without waiting for pending changes (status must answer even mid-refresh). */
export function statusOf(session: VaultSession): ServerStatus {
	const state = session.peek();
	const info = session.refreshInfo();
	const engine = state.engine.status();
	const skipped = [...engine.skipped];
	for (const entry of state.source.listSkipped())
		if (!skipped.some((s) => s.path === entry.path)) skipped.push(entry);
	const limitations = [...engine.exclusions];
	if (!session.watcher.running)
		limitations.push(
			`No file watcher (${session.watcher.error ?? 'not started'}): answers reflect the vault as it was at ${state.builtAt}`,
		);
	return {
		...engine,
		skipped,
		last_refresh: state.builtAt,
		refresh_ms: state.buildMs,
		builds: info.builds,
		incremental_refreshes: info.incremental,
		changes_seen: info.changesSeen,
		pending: info.pending,
		last_error: info.lastError,
		watcher: { ...session.watcher },
		trigram_index: {
			...(session.trigrams ?? { state: 'off', from: null, notes: null, ms: null, detail: 'not started' }),
		},
		snapshot: snapshotOf(state.snapshot),
		memory: memoryOf(),
		limitations,
	};
}
