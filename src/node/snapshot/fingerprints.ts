/**
 * A note's fingerprint (size, times, inode, racy) and how an open takes them: a stat of every
 * note, or, for a process that watched the vault since its previous open, that open's
 * fingerprints for every note the watcher did not report.
 */
import type { Stats } from 'node:fs';
import { statSync } from 'node:fs';
import { sep } from 'node:path';
import type { NoteFingerprint } from '../../core/snapshot/codec';

/**
 * A note modified this recently (ms) when read may be modified again within the same timestamp
 * tick with the same size; it is marked racy and re-read on the next call (git's "racily clean").
 * 3 s covers file systems with 2 s timestamps (FAT) and coarse kernel clocks.
 */
export const DEFAULT_RACY_WINDOW_MS = 3000;
/** Environment override of the racy window (ms): tests set 0 so that unchanged notes are kept between quick calls. */
export const RACY_WINDOW_ENV = 'VAULT_QUERY_RACY_MS';

/** The racy window from the environment, or the default. */
export function racyWindow(): number {
	const ms = Number(process.env[RACY_WINDOW_ENV]);
	return process.env[RACY_WINDOW_ENV] !== undefined && Number.isFinite(ms) && ms >= 0 ? ms : DEFAULT_RACY_WINDOW_MS;
}

/** Whether `path` is, or lies under, a path the watcher reported (`''` is the whole vault). */
export function reportedBy(changed: ReadonlySet<string>): (path: string) => boolean {
	if (changed.has('')) return () => true;
	return (path) => {
		if (changed.has(path)) return true;
		for (let slash = path.indexOf('/'); slash >= 0; slash = path.indexOf('/', slash + 1))
			if (changed.has(path.slice(0, slash))) return true;
		return false;
	};
}

/** A note's fingerprint from its stat taken at `now`. */
export function fingerprintFrom(s: Stats, now: number, window: number): NoteFingerprint {
	return {
		size: s.size,
		mtimeMs: s.mtimeMs,
		ctimeMs: s.ctimeMs,
		ino: s.ino,
		racy: now - Math.max(s.mtimeMs, s.ctimeMs) < window,
	};
}

/**
 * Stat every note; null for a note that cannot be stat'ed (it will be read and reported).
 * Synchronous: 6,000 `statSync` calls take ~25 ms where promise-based stats, even 256 at a time,
 * took ~85 ms of CPU (each pays a thread-pool round trip and a promise).
 */
export function fingerprintAll(
	abs: string,
	notes: readonly string[],
	now: number,
	window: number,
): Map<string, NoteFingerprint | null> {
	const out = new Map<string, NoteFingerprint | null>();
	const prefix = abs.endsWith(sep) ? abs : abs + sep;
	for (const path of notes) {
		let info: Stats | undefined;
		try {
			info = statSync(prefix + path, { throwIfNoEntry: false });
		} catch {
			info = undefined;
		}
		out.set(path, info ? fingerprintFrom(info, now, window) : null);
	}
	return out;
}

/** Fingerprints for a watched open: the previous open's for notes the watcher did not report, a stat for the rest. */
export function watchedFingerprints(
	abs: string,
	notes: readonly string[],
	previous: ReadonlyMap<string, NoteFingerprint>,
	reported: (path: string) => boolean,
	now: number,
	window: number,
): Map<string, NoteFingerprint | null> {
	const out = new Map<string, NoteFingerprint | null>();
	for (const path of notes) {
		const known = reported(path) ? undefined : previous.get(path);
		if (known !== undefined && known.size >= 0) out.set(path, known.racy ? { ...known, racy: false } : known);
		else out.set(path, fingerprintAll(abs, [path], now, window).get(path) ?? null);
	}
	return out;
}
