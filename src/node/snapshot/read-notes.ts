/**
 * Reading the notes of one open through its snapshot: every note when there is no snapshot (the
 * read's own fstat is the fingerprint), otherwise a stat per note and a read of the changed ones.
 */
import { join } from 'node:path';
import { setImmediate } from 'node:timers';
import type { DecodedSnapshot, NoteFingerprint } from '../../core/snapshot/codec';
import { planReconcile, type ReconcilePlan } from '../../core/snapshot/reconcile';
import { readNoteSync, ScratchBuffer } from '../note-reader';
import type { NoteRecord, OpenVaultOptions } from '../vault-source';
import { DEFAULT_MAX_TOTAL_BYTES, toRecord, tooMuchText } from '../vault-source';
import { fingerprintAll, fingerprintFrom, racyWindow, reportedBy, watchedFingerprints } from './fingerprints';

/** What a watching process knows since its previous open (see `OpenCachedOptions.watched` in open-cached.ts). */
export interface WatchedSince {
	fingerprints: ReadonlyMap<string, NoteFingerprint>;
	changed: readonly string[];
}

/** The options of an open that shape its reading (a part of `OpenCachedOptions`). */
export interface ReadingOptions {
	maxTotalBytes?: number;
	racyWindowMs?: number;
	progress?: (read: number, total: number) => void;
	keepTexts?: boolean;
}

/** What reading the notes of one open needs, and where it puts the notes it read. */
export interface Reading {
	abs: string;
	notes: readonly string[];
	maxFileSize: number;
	/** The most Markdown bytes the vault may hold. */
	limit: number;
	window: number;
	parse: NonNullable<OpenVaultOptions['parse']>;
	/** The notes read and parsed in this open. */
	fresh: Map<string, NoteRecord>;
	scratch: ScratchBuffer;
	clock: { parseMs: number };
	progress?: (read: number, total: number) => void;
	/** Keep each note's text in its record (see OpenCachedOptions.keepTexts). */
	keepTexts: boolean;
	/**
	 * Where a read of every note hands each note as it is read (stream-build.ts encodes it at
	 * once); the note is then kept nowhere else, so its parsed metadata dies young.
	 */
	sink?: (path: string, record: NoteRecord, fingerprint: NoteFingerprint | null) => void;
}

/** Strings at least this long may be a view into the text they were cut from (V8's sliced strings). */
const SLICED_FROM = 13;

/**
 * `value` with every string in it copied out of the note's text: V8 cuts a substring of 13 or more
 * characters as a view that keeps the whole text alive, so metadata parsed from a note (headings,
 * links, properties) would hold every note's text for as long as it is held. Plain objects and
 * arrays are rewritten in place; positions (numbers only) are not walked.
 */
export function ownStrings(value: unknown): unknown {
	if (typeof value === 'string') return value.length < SLICED_FROM ? value : (' ' + value).slice(1);
	if (value === null || typeof value !== 'object') return value;
	if (Array.isArray(value)) {
		for (let i = 0; i < value.length; i++) value[i] = ownStrings(value[i]);
		return value;
	}
	const record = value as Record<string, unknown>;
	for (const key of Object.keys(record)) {
		if (key === 'position' || key === 'frontmatterPosition') continue; // line, column and offset numbers only
		const inner = record[key];
		if (typeof inner === 'string' ? inner.length >= SLICED_FROM : inner !== null && typeof inner === 'object')
			record[key] = ownStrings(inner);
	}
	return value;
}

/** The record of one note read: its text let go (and its metadata's strings copied out of it) unless the open keeps texts. */
function recordOf(reading: Reading, outcome: Parameters<typeof toRecord>[0]): NoteRecord {
	const record = toRecord(outcome, reading.parse, reading.clock);
	if (!reading.keepTexts) {
		record.text = null;
		ownStrings(record.metadata);
	}
	return record;
}

/** Notes read between two progress reports. */
const PROGRESS_EVERY = 256;

/** Reports progress and yields a turn of the event loop, when the caller asked for progress (see OpenCachedOptions.progress). */
async function reportRead(reading: Reading, read: number, total: number): Promise<void> {
	if (reading.progress === undefined) return;
	reading.progress(read, total);
	await new Promise((resolve) => setImmediate(resolve));
}

/** What an open found: every note's fingerprint now (null: could not be stat'ed), and which saved notes it keeps. */
export interface Reconciled {
	current: Map<string, NoteFingerprint | null>;
	plan: ReconcilePlan;
}

/** No snapshot to compare with: every note is read, and the read's own fstat is its fingerprint (no second stat per note). */
export async function readEveryNote(reading: Reading, stamp: number): Promise<Reconciled> {
	const { abs, notes, maxFileSize, scratch, window } = reading;
	const current = new Map<string, NoteFingerprint | null>();
	let totalBytes = 0;
	for (const [i, path] of notes.entries()) {
		if (i % PROGRESS_EVERY === 0) await reportRead(reading, i, notes.length);
		const seen: { fp: NoteFingerprint | null } = { fp: null };
		const outcome = readNoteSync(
			join(abs, path),
			maxFileSize,
			scratch,
			(s) => (seen.fp = fingerprintFrom(s, stamp, window)),
		);
		current.set(path, seen.fp);
		if (seen.fp !== null && seen.fp.size <= maxFileSize) totalBytes += seen.fp.size;
		if (totalBytes > reading.limit) throw tooMuchText(abs, reading.limit);
		if (reading.sink) reading.sink(path, toRecord(outcome, reading.parse, reading.clock), seen.fp);
		else reading.fresh.set(path, recordOf(reading, outcome));
	}
	return { current, plan: { keep: new Map(), reread: [...notes], removed: [] } };
}

/** With a snapshot: stat the notes (or trust the watcher for those it did not report), keep the unchanged, read the rest. */
export async function reconcileNotes(
	reading: Reading,
	snapshot: DecodedSnapshot,
	watched: WatchedSince | undefined,
	stamp: number,
): Promise<Reconciled> {
	const { abs, notes, maxFileSize, window } = reading;
	const reported = watched ? reportedBy(new Set(watched.changed)) : null;
	const current =
		watched && reported
			? watchedFingerprints(abs, notes, watched.fingerprints, reported, stamp, window)
			: fingerprintAll(abs, notes, stamp, window);
	let totalBytes = 0;
	for (const fp of current.values()) if (fp !== null && fp.size <= maxFileSize) totalBytes += fp.size;
	if (totalBytes > reading.limit) throw tooMuchText(abs, reading.limit);
	const same =
		reported === null
			? (i: number, fp: NoteFingerprint) => snapshot.same(i, fp)
			: (i: number, fp: NoteFingerprint) => !reported(snapshot.notePaths[i]!) && snapshot.same(i, fp, true);
	const plan = planReconcile(
		{ paths: snapshot.notePaths, fingerprint: (i) => snapshot.fingerprint(i), same },
		current,
	);
	for (const [i, path] of plan.reread.entries()) {
		if (i % PROGRESS_EVERY === 0) await reportRead(reading, i, plan.reread.length);
		reading.fresh.set(path, recordOf(reading, readNoteSync(join(abs, path), maxFileSize, reading.scratch)));
	}
	return { current, plan };
}

/** The state of one open's note reading: where, which notes, its bounds, and what it has read so far. */
export function readingOf(
	abs: string,
	notes: readonly string[],
	maxFileSize: number,
	parse: Reading['parse'],
	options: ReadingOptions,
): Reading {
	return {
		abs,
		notes,
		maxFileSize,
		limit: options.maxTotalBytes ?? DEFAULT_MAX_TOTAL_BYTES,
		window: options.racyWindowMs ?? racyWindow(),
		parse,
		fresh: new Map(),
		scratch: new ScratchBuffer(),
		clock: { parseMs: 0 },
		progress: options.progress,
		keepTexts: options.keepTexts !== false,
	};
}

/** A note's fingerprint, one that could not be stat'ed getting one that never matches (so it is read again next time). */
export function knownFingerprint(fp: NoteFingerprint | null): NoteFingerprint {
	return fp ?? { size: -1, mtimeMs: -1, ctimeMs: -1, ino: -1, racy: true };
}

/** Each note's fingerprint (see knownFingerprint). */
export function knownFingerprints(current: Map<string, NoteFingerprint | null>): Map<string, NoteFingerprint> {
	const fingerprints = new Map<string, NoteFingerprint>();
	for (const [path, fp] of current) fingerprints.set(path, knownFingerprint(fp));
	return fingerprints;
}
