/**
 * Opening a vault through its snapshot: load and verify the saved state, stat every note, re-read
 * only what changed, answer from the rest, and save the result for the next call. Any problem
 * with the snapshot (damaged, another format or build, other settings) means a full build, never
 * a wrong answer; any problem saving means one warning and today's behaviour.
 */
import type { Stats } from 'node:fs';
import { statSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import {
	CarriedNote,
	decodeSnapshot,
	decodeSnapshotFrom,
	encodeSnapshotChunks,
	SNAPSHOT_FORMAT_VERSION,
	SnapshotFormatError,
	type CarriedHeaps,
	type DecodedSnapshot,
	type NoteFingerprint,
	type SnapshotNote,
} from '../../core/snapshot/codec';
import type { SnapshotReader, SnapshotStore } from '../../core/snapshot/port';
import { planReconcile, type ReconcilePlan } from '../../core/snapshot/reconcile';
import { buildLinkMaps } from '../link-maps';
import { DEFAULT_MAX_FILE_SIZE, errorCode, readNoteSync, ScratchBuffer } from '../note-reader';
import { parseNote } from '../parser/index';
import {
	DEFAULT_CONFIG_DIR,
	DEFAULT_MAX_TOTAL_BYTES,
	lostRecord,
	toRecord,
	tooMuchText,
	walkVault,
	type NoteRecord,
	type OpenVaultOptions,
} from '../vault-source';
import { CachedVaultSource } from './cached-source';
import { linkEntries, SnapshotLinks } from './link-view';
import { nodeCodecHost } from './codec-host';

/**
 * A note modified this recently (ms) when read may be modified again within the same timestamp
 * tick with the same size; it is marked racy and re-read on the next call (git's "racily clean").
 * 3 s covers file systems with 2 s timestamps (FAT) and coarse kernel clocks.
 */
export const DEFAULT_RACY_WINDOW_MS = 3000;
/** The share of the saved heaps that may be garbage (bytes of notes changed since) before a save writes them afresh. */
const MAX_GARBAGE = 0.25;
/** Environment override of the racy window (ms): tests set 0 so that unchanged notes are kept between quick calls. */
export const RACY_WINDOW_ENV = 'VAULT_QUERY_RACY_MS';

/** The racy window from the environment, or the default. */
export function racyWindow(): number {
	const ms = Number(process.env[RACY_WINDOW_ENV]);
	return process.env[RACY_WINDOW_ENV] !== undefined && Number.isFinite(ms) && ms >= 0 ? ms : DEFAULT_RACY_WINDOW_MS;
}

/** Options of `openCachedVault`: those of `openVault` (bounds, parser, config folder) and the snapshot's. */
export interface OpenCachedOptions extends OpenVaultOptions {
	/** Where snapshots are kept. */
	store: SnapshotStore;
	/** The tool's version and build: a snapshot from another build is rebuilt. */
	tool: string;
	/** Save the refreshed snapshot (default true); `later`: leave it to the caller (`CachedVault.saveLater`), e.g. after answering. */
	save?: boolean | 'later';
	/** The clock (tests move it to make notes racy or settled). */
	now?: () => number;
	/** Notes modified less than this many ms before they were stat'ed are re-read next time. Default 3 s (or VAULT_QUERY_RACY_MS). */
	racyWindowMs?: number;
	/**
	 * Read the snapshot's columns now and each note's metadata when a query reads it, through the
	 * store's open file (a one-shot CLI call); default false: read it whole (a server keeps the
	 * state, and no file open, for its life).
	 */
	readPiecemeal?: boolean;
	/**
	 * With `readPiecemeal`, a long-lived process (the MCP server): metadata fields are read one at
	 * a time for its whole life, never a heap whole, so the snapshot costs memory for what was read.
	 */
	lean?: boolean;
	/**
	 * For a process that has watched the vault since its previous open (the servers): that open's
	 * fingerprints and the paths (notes or folders) the watcher reported since. Other notes are
	 * taken as unchanged without a stat, and a saved racy note that matches them is kept — the
	 * watcher saw every write since; the reported ones are always read again.
	 */
	watched?: WatchedSince;
}

/** What a watching process knows since its previous open (see `OpenCachedOptions.watched`). */
export interface WatchedSince {
	fingerprints: ReadonlyMap<string, NoteFingerprint>;
	changed: readonly string[];
}

/** Whether `path` is, or lies under, a path the watcher reported (`''` is the whole vault). */
function reportedBy(changed: ReadonlySet<string>): (path: string) => boolean {
	if (changed.has('')) return () => true;
	return (path) => {
		if (changed.has(path)) return true;
		for (let slash = path.indexOf('/'); slash >= 0; slash = path.indexOf('/', slash + 1))
			if (changed.has(path.slice(0, slash))) return true;
		return false;
	};
}

/** What happened to the snapshot in this call (for `--verbose` and `index`). */
export interface SnapshotReport {
	/** `warm`: used as saved; `refreshed`: used with some notes re-read; `built`: none usable, built from scratch. */
	state: 'warm' | 'refreshed' | 'built';
	/** Why a saved snapshot was not used, when it was not. */
	rebuildReason: string | null;
	/** Notes re-read and re-parsed. */
	reread: number;
	/** Notes gone since the snapshot. */
	removed: number;
	/** Bytes written, 0 when nothing was saved. */
	savedBytes: number;
	/** Why saving failed, or null. */
	saveError: string | null;
	/** Notes and Markdown bytes of the vault. */
	notes: number;
	markdownBytes: number;
	/** Wall time of the whole open, ms. */
	ms: number;
}

/** An opened vault and what the snapshot did. */
export interface CachedVault {
	source: CachedVaultSource;
	report: SnapshotReport;
	/** The decoded snapshot when one was used (for extra sections). */
	snapshot: DecodedSnapshot | null;
	/** The snapshot's key (the vault's real path) and the settings fingerprint it was checked against. */
	key: string;
	settings: string;
	/** Notes changed, added or gone since the saved snapshot (every note when none was used). */
	changed: string[];
	/** Every note's fingerprint now (what index parts are stamped with). */
	fingerprints: ReadonlyMap<string, NoteFingerprint>;
	/** With `save: 'later'`: saves when something changed (or a saved note was found damaged) and fills `report.savedBytes` / `saveError`; else null. */
	saveLater: (() => Promise<void>) | null;
}

/** The settings that change what the snapshot holds, as one comparable string. */
function settingsFingerprint(configDir: string, maxFileSize: number, parse: unknown): string {
	return JSON.stringify({
		format: SNAPSHOT_FORMAT_VERSION,
		configDir,
		maxFileSize,
		parser: parse === parseNote ? 'default' : 'custom',
	});
}

/** The saved snapshot, or null with the reason it cannot be used. */
async function loadSnapshot(
	store: SnapshotStore,
	key: string,
	tool: string,
	settings: string,
	piecemeal: boolean,
	lean: boolean,
): Promise<{ snapshot: DecodedSnapshot | null; reason: string | null }> {
	let bytes: Uint8Array | null = null;
	let reader: SnapshotReader | null = null;
	try {
		if (piecemeal && store.openReader) reader = store.openReader(key);
		else bytes = await store.load(key);
	} catch (error) {
		return { snapshot: null, reason: `cache unreadable (${errorCode(error)})` };
	}
	if (bytes === null && reader === null) return { snapshot: null, reason: null };
	try {
		const snapshot =
			reader !== null
				? decodeSnapshotFrom(reader, nodeCodecHost, { lean })
				: decodeSnapshot(bytes!, nodeCodecHost);
		if (snapshot.header.tool !== tool)
			return { snapshot: null, reason: `saved by another build (${snapshot.header.tool})` };
		if (snapshot.header.settings !== settings) return { snapshot: null, reason: 'saved with other settings' };
		return { snapshot, reason: null };
	} catch (error) {
		if (error instanceof SnapshotFormatError)
			return { snapshot: null, reason: `snapshot ignored: ${error.message}` };
		throw error;
	}
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
function fingerprintAll(
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
function watchedFingerprints(
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

/**
 * Open the vault at `vaultPath` through its snapshot (see the module comment). Throws VaultError
 * when the folder is missing; never throws for a bad or unwritable cache.
 */
export async function openCachedVault(vaultPath: string, options: OpenCachedOptions): Promise<CachedVault> {
	const started = performance.now();
	const now = options.now ?? Date.now;
	const abs = resolve(vaultPath);
	const configDir = options.configDir ?? DEFAULT_CONFIG_DIR;
	const maxFileSize = options.maxFileSize ?? DEFAULT_MAX_FILE_SIZE;
	const parse = options.parse ?? parseNote;
	const settings = settingsFingerprint(configDir, maxFileSize, parse);
	const { real, files, notes: listed, lost, walker, userIgnoreFilters } = await walkVault(abs, configDir, options);
	const { snapshot, reason } = await loadSnapshot(
		options.store,
		real,
		options.tool,
		settings,
		options.readPiecemeal === true,
		options.lean === true,
	);
	const lostSet = new Set(lost);
	const notes = listed.filter((p) => !lostSet.has(p));
	const window = options.racyWindowMs ?? racyWindow();
	const limit = options.maxTotalBytes ?? DEFAULT_MAX_TOTAL_BYTES;
	const fresh = new Map<string, NoteRecord>();
	const scratch = new ScratchBuffer();
	const clock = { parseMs: 0 };
	let current: Map<string, NoteFingerprint | null>;
	let plan: ReconcilePlan;
	if (snapshot === null) {
		// Nothing to compare with: every note is read, and the read's own fstat is its fingerprint (no second stat per note).
		current = new Map();
		const stamp = now();
		let totalBytes = 0;
		for (const path of notes) {
			const seen: { fp: NoteFingerprint | null } = { fp: null };
			const outcome = readNoteSync(
				join(abs, path),
				maxFileSize,
				scratch,
				(s) => (seen.fp = fingerprintFrom(s, stamp, window)),
			);
			current.set(path, seen.fp);
			if (seen.fp !== null && seen.fp.size <= maxFileSize) totalBytes += seen.fp.size;
			if (totalBytes > limit) throw tooMuchText(abs, limit);
			fresh.set(path, toRecord(outcome, parse, clock));
		}
		plan = { keep: new Map(), reread: [...notes], removed: [] };
	} else {
		const reported = options.watched ? reportedBy(new Set(options.watched.changed)) : null;
		current =
			options.watched && reported
				? watchedFingerprints(abs, notes, options.watched.fingerprints, reported, now(), window)
				: fingerprintAll(abs, notes, now(), window);
		let totalBytes = 0;
		for (const fp of current.values()) if (fp !== null && fp.size <= maxFileSize) totalBytes += fp.size;
		if (totalBytes > limit) throw tooMuchText(abs, limit);
		const same =
			reported === null
				? (i: number, fp: NoteFingerprint) => snapshot.same(i, fp)
				: (i: number, fp: NoteFingerprint) => !reported(snapshot.notePaths[i]) && snapshot.same(i, fp, true);
		plan = planReconcile({ paths: snapshot.notePaths, fingerprint: (i) => snapshot.fingerprint(i), same }, current);
		for (const path of plan.reread)
			fresh.set(path, toRecord(readNoteSync(join(abs, path), maxFileSize, scratch), parse, clock));
	}
	for (const path of lost) fresh.set(path, lostRecord(walker.skipped.get(path) ?? 'not listed'));
	const fingerprints = new Map<string, NoteFingerprint>();
	for (const [path, fp] of current)
		fingerprints.set(path, fp ?? { size: -1, mtimeMs: -1, ctimeMs: -1, ino: -1, racy: true });

	const sameFiles =
		snapshot !== null && snapshot.files.length === files.length && snapshot.files.every((f, i) => f === files[i]);
	const unchanged = sameFiles && plan.reread.length === 0 && plan.removed.length === 0;
	const source = new CachedVaultSource({
		vaultPath: abs,
		configDir,
		userIgnoreFilters,
		files,
		notes: listed,
		walkSkips: walker.skipped,
		maxFileSize,
		snapshot,
		kept: plan.keep,
		fresh,
		fingerprints,
		parse,
	});
	const freshMeta = new Map([...fresh].map(([p, r]) => [p, r.metadata]));
	// One resolver for the link maps and the queries after (building it is ~200 ms at 50k files).
	const { order, entries } = linkEntries(
		notes,
		sameFiles,
		plan.keep,
		freshMeta,
		snapshot,
		(parsed) => buildLinkMaps(parsed, source.linkResolver()),
		(p) => source.getMetadata(p),
	);
	source.useLinks(new SnapshotLinks(order, entries, sameFiles ? snapshot : null, files));

	let markdownBytes = 0;
	for (const fp of fingerprints.values()) if (fp.size > 0) markdownBytes += fp.size;
	const report: SnapshotReport = {
		state: snapshot === null ? 'built' : unchanged ? 'warm' : 'refreshed',
		rebuildReason: reason,
		reread: snapshot === null ? 0 : plan.reread.length,
		removed: plan.removed.length,
		savedBytes: 0,
		saveError: null,
		notes: notes.length,
		markdownBytes,
		ms: 0,
	};
	const persist = async (): Promise<void> => {
		try {
			// Unchanged notes keep their bytes where they are in the saved heaps (a one-note change appends one note); a damaged note means writing them afresh.
			const carry = snapshot !== null && source.damaged.size === 0 ? snapshot.carried(MAX_GARBAGE) : null;
			const chunks = encodeSnapshotChunks(
				{
					header: {
						tool: options.tool,
						settings,
						vaultPath: real,
						savedAt: now(),
						userIgnoreFilters: [...userIgnoreFilters],
						markdownBytes,
					},
					files,
					notes: notes.map((path): SnapshotNote =>
						snapshotNote(path, fingerprints.get(path)!, {
							fresh,
							keep: plan.keep,
							sameFilesAs: sameFiles ? snapshot : null,
							snapshot,
							source,
							carry,
						}),
					),
					resolvedLinks: source.resolvedLinks(),
					unresolvedLinks: source.unresolvedLinks(),
					carry: carry ?? undefined,
				},
				nodeCodecHost,
			);
			await options.store.save(real, chunks);
			report.savedBytes = chunks.reduce((n, c) => n + c.length, 0);
		} catch (error) {
			report.saveError = error instanceof Error ? error.message : String(error);
		} finally {
			snapshot?.afterSave();
		}
	};
	// A note whose saved metadata failed its check while answering is saved again from disk.
	const needed = (): boolean => !unchanged || source.damaged.size > 0;
	const saveLater = async (): Promise<void> => {
		if (needed()) await persist();
	};
	const wanted = options.save !== false;
	if (wanted && options.save !== 'later') await saveLater();
	report.ms = performance.now() - started;
	return {
		source,
		report,
		snapshot,
		key: real,
		settings,
		changed: [...plan.reread, ...plan.removed],
		fingerprints,
		saveLater: wanted && options.save === 'later' ? saveLater : null,
	};
}

/** What `snapshotNote` draws from. */
interface NoteOrigins {
	fresh: ReadonlyMap<string, NoteRecord>;
	keep: ReadonlyMap<string, number>;
	/** The snapshot whose link pairs are still valid (same file list), or null. */
	sameFilesAs: DecodedSnapshot | null;
	snapshot: DecodedSnapshot | null;
	source: CachedVaultSource;
	/** The saved heaps carried into the next snapshot, or null when it is written afresh. */
	carry: CarriedHeaps | null;
}

/**
 * One note as the encoder takes it: fresh notes as parsed, kept ones where they are in the carried
 * heaps (or still encoded, or, when found damaged, as read from disk), with their saved link pairs
 * while the file list is unchanged.
 */
function snapshotNote(path: string, fingerprint: NoteFingerprint, from: NoteOrigins): SnapshotNote {
	const record = from.fresh.get(path);
	if (record)
		return {
			path,
			fingerprint,
			metadata: record.metadata,
			frontmatterError: record.frontmatterError,
			skipReason: record.skipReason,
		};
	const i = from.keep.get(path)!;
	const snapshot = from.snapshot!;
	const [frontmatterError, skipReason] = snapshot.problems(i);
	const metadata = !snapshot.indexed(i)
		? null
		: from.source.damaged.has(path)
			? from.source.getMetadata(path)
			: from.carry !== null
				? new CarriedNote(i)
				: snapshot.encodedMetadata(i);
	const note: SnapshotNote = { path, fingerprint, metadata, frontmatterError, skipReason };
	if (from.sameFilesAs !== null) {
		note.resolvedPairs = from.sameFilesAs.resolvedPairs(i);
		note.unresolved = from.sameFilesAs.unresolvedByNote().get(i) ?? {};
	}
	return note;
}
