/**
 * What a saved snapshot still says about the vault: each note now on disk is kept (same
 * fingerprint, not racy) or re-read; notes gone from disk are removed. Pure: the caller stats the
 * files and does the reading.
 */
import { drain } from '../steps';
import type { NoteFingerprint } from './codec';

/** Notes compared between two pauses of `planReconcileSteps`. */
const RECONCILE_STEP = 2048; // why: a Map lookup and five comparisons a note: about a millisecond on a quiet machine.

/** The plan: note numbers of the snapshot to keep by path, paths to (re-)read, paths removed. */
export interface ReconcilePlan {
	/** Current path → the snapshot's note number, for notes whose bytes did not change. */
	keep: Map<string, number>;
	/** Notes new, changed, or racy when saved: read and parse them again. */
	reread: string[];
	/** Notes in the snapshot that are no longer on disk (deleted or renamed away). */
	removed: string[];
}

/** Whether two fingerprints describe the same bytes (a racy saved one never does). */
export function sameFingerprint(saved: NoteFingerprint, now: NoteFingerprint): boolean {
	return (
		!saved.racy &&
		saved.size === now.size &&
		saved.mtimeMs === now.mtimeMs &&
		saved.ctimeMs === now.ctimeMs &&
		saved.ino === now.ino
	);
}

/**
 * Compare the snapshot's notes with the notes on disk now. A rename is a removal plus an
 * addition: the renamed file's status-change time moves with the rename on most file systems, so
 * matching by inode would save one parse at the price of trusting a weaker check.
 */
export function planReconcile(saved: SavedNotes, current: ReadonlyMap<string, NoteFingerprint | null>): ReconcilePlan {
	return drain(planReconcileSteps(saved, current));
}

/** The notes of a saved snapshot or part, as `planReconcile` compares them. */
export interface SavedNotes {
	paths: readonly string[];
	fingerprint(i: number): NoteFingerprint;
	same?(i: number, now: NoteFingerprint): boolean;
}

/** `planReconcile` in steps, pausing every few thousand notes (a host's main thread runs it in slices). */
export function* planReconcileSteps(
	saved: SavedNotes,
	current: ReadonlyMap<string, NoteFingerprint | null>,
): Generator<void, ReconcilePlan, void> {
	const savedIndex = new Map<string, number>();
	for (let i = 0; i < saved.paths.length; i++) {
		savedIndex.set(saved.paths[i]!, i);
		if ((i + 1) % RECONCILE_STEP === 0) yield;
	}
	const keep = new Map<string, number>();
	const reread: string[] = [];
	let n = 0;
	let found = 0;
	for (const [path, now] of current) {
		if (++n % RECONCILE_STEP === 0) yield;
		const i = savedIndex.get(path);
		if (i !== undefined) found++;
		// `same` compares without making the saved fingerprint an object (6,000 of them on every warm call).
		if (
			i !== undefined &&
			now !== null &&
			(saved.same ? saved.same(i, now) : sameFingerprint(saved.fingerprint(i), now))
		)
			keep.set(path, i);
		else reread.push(path);
	}
	yield;
	// Every saved note still listed (the usual restart): none removed, without another lookup per note.
	const removed = found === savedIndex.size ? [] : saved.paths.filter((p) => !current.has(p));
	return { keep, reread, removed };
}
