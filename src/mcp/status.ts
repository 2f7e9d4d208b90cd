import type { SkippedEntry } from '../node/vault-source';
import type { VaultSession } from './session';

/** The `status` tool's answer: what is indexed, what was skipped and why, and how fresh it is. */
export interface ServerStatus {
	status: 'success';
	vault_path: string;
	notes: { listed: number; indexed: number; skipped: number };
	/** Files left out of the index, with reasons (the list may be cut; `skipped_total` counts all). */
	skipped: SkippedEntry[];
	skipped_total: number;
	/** When the index in use was built, and how long that took. */
	last_refresh: string;
	build_ms: number;
	/** Full builds since start (the first open included) and changed paths the watcher reported. */
	builds: number;
	changes_seen: number;
	/** Changes seen but not yet applied (the next call waits for them). */
	pending: boolean;
	last_error: string | null;
	watcher: { running: boolean; error: string | null };
	/** Whether the server started from a persisted snapshot. */
	snapshot: { used: boolean; detail: string };
	limitations: string[];
}

/** The session's status, without waiting for pending changes (status must answer even mid-refresh). */
export function statusOf(session: VaultSession): ServerStatus {
	const state = session.peek();
	const info = session.refreshInfo();
	const skipped = session.skipped();
	const listed = state.source.listNotes().length;
	const unparsed = state.source.stats.skipped;
	const limitations: string[] = [];
	if (!session.watcher.running) limitations.push(`No file watcher (${session.watcher.error ?? 'not started'}): answers reflect the vault as it was at ${state.builtAt}`);
	return {
		status: 'success',
		vault_path: state.source.vaultPath,
		notes: { listed, indexed: listed - unparsed, skipped: unparsed },
		skipped,
		skipped_total: skipped.length,
		last_refresh: state.builtAt,
		build_ms: state.buildMs,
		builds: info.builds,
		changes_seen: info.changesSeen,
		pending: info.pending,
		last_error: info.lastError,
		watcher: { ...session.watcher },
		snapshot: { used: false, detail: 'built in memory on start (no persisted snapshot in this build)' },
		limitations,
	};
}
