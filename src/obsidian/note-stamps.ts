/**
 * Every note's stat as the saved index stamps it (`TFile.stat`: size, mtime, ctime; no inode), in
 * steps: a save, a worker's build or re-save and a restore's reconcile compare notes by it.
 */
import { FingerprintTable } from '../core/snapshot/fingerprint-table';
import type { ObsidianNoteSource } from './source';

/**
 * A note modified this recently when the index is saved may have an edit whose `changed` event
 * has not reached the index yet: it is saved as racy, so the next start reads it again.
 */
export const RACY_MS = 3000; // why: Obsidian re-parses an edited note within a second or two of the write.

/** Notes stat'ed between two pauses of the stamps' steps. */
const STAT_STEP = 2048; // why: a Map lookup and a row a note: about a millisecond on a quiet machine.

/** Every note's stat now, in steps; `racyAfter`: notes modified after it are marked racy. */
export function* noteStamps(source: ObsidianNoteSource, racyAfter = Infinity): Generator<void, FingerprintTable, void> {
	// A table, not a Map of objects: a build holds it on the main thread from its start to its end.
	const out = new FingerprintTable();
	let n = 0;
	for (const path of source.listNotes()) {
		if (++n % STAT_STEP === 0) yield;
		const stat = source.statOf(path);
		if (stat === null) continue;
		out.set(path, {
			size: stat.size,
			mtimeMs: stat.mtime,
			ctimeMs: stat.ctime,
			ino: 0,
			racy: stat.mtime > racyAfter,
		});
	}
	return out;
}
