/**
 * Opening a vault through its snapshot: load and verify the saved state, stat every note, re-read
 * only what changed, answer from the rest, and save the result for the next call. Any problem
 * with the snapshot (damaged, another format or build, other settings) means a full build, never
 * a wrong answer; any problem saving means one warning and today's behaviour.
 */
import { resolve } from 'node:path';
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
	type SnapshotInput,
	type SnapshotNote,
} from '../../core/snapshot/codec';
import type { SnapshotReader, SnapshotStore } from '../../core/snapshot/port';
import type { NoteFeed } from '../../core/search/fed-notes';
import type { ReconcilePlan } from '../../core/snapshot/reconcile';
import { buildLinkMaps } from '../link-maps';
import { DEFAULT_MAX_FILE_SIZE, errorCode } from '../note-reader';
import { parseNote } from '../parser/index';
import {
	DEFAULT_CONFIG_DIR,
	lostRecord,
	walkVault,
	type NoteRecord,
	type OpenVaultOptions,
	type VaultListing,
} from '../vault-source';
import { CachedVaultSource } from './cached-source';
import { linkEntries, SnapshotLinks } from './link-view';
import { nodeCodecHost } from './codec-host';
import {
	knownFingerprints,
	readEveryNote,
	readingOf,
	reconcileNotes,
	type Reading,
	type WatchedSince,
} from './read-notes';
import { streamedBuild } from './stream-build';
import { fullCollection } from '../full-collection';

export type { WatchedSince } from './read-notes';

/** The share of the saved heaps that may be garbage (bytes of notes changed since) before a save writes them afresh. */
const MAX_GARBAGE = 0.25;

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
	/** How many kept notes' decoded metadata the source holds at once (default: every note read; tests bound it). */
	keepDecoded?: number;
	/**
	 * For a process that has watched the vault since its previous open (the servers): that open's
	 * fingerprints and the paths (notes or folders) the watcher reported since. Other notes are
	 * taken as unchanged without a stat, and a saved racy note that matches them is kept — the
	 * watcher saw every write since; the reported ones are always read again.
	 */
	watched?: WatchedSince;
	/**
	 * Told how many notes have been read of how many to read, every few hundred notes (a progress
	 * line, `status`); the read then also yields to the event loop there, so a server answers (a
	 * handshake, `status`) while it reads.
	 */
	progress?: (read: number, total: number) => void;
	/**
	 * Keep the text of each note read (default true). False: only its metadata is kept and the
	 * source reads the text from disk when asked — a process that re-opens through the snapshot it
	 * just saved (warm/opener.ts) never holds every note's text at once.
	 */
	keepTexts?: boolean;
	/**
	 * With no usable snapshot (a start from scratch): encode each note as it is read and keep none
	 * (stream-build.ts), save, then open the vault through what was saved — the same answers
	 * without ever holding every note's metadata. When the save fails the vault is read again as
	 * an open with `save: false` would, and the report says why.
	 */
	streamSave?: boolean;
	/** With `streamSave`, on a start from scratch: also handed each note as it is read (stream-build.ts). */
	feed?: NoteFeed;
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

/** The report of one open before its save: what the snapshot did and how much Markdown the vault holds. */
function openReport(
	state: SnapshotReport['state'],
	rebuildReason: string | null,
	plan: ReconcilePlan,
	fingerprints: ReadonlyMap<string, NoteFingerprint>,
	notes: number,
): SnapshotReport {
	let markdownBytes = 0;
	for (const fp of fingerprints.values()) if (fp.size > 0) markdownBytes += fp.size;
	return {
		state,
		rebuildReason,
		reread: state === 'built' ? 0 : plan.reread.length,
		removed: plan.removed.length,
		savedBytes: 0,
		saveError: null,
		notes,
		markdownBytes,
		ms: 0,
	};
}

/**
 * Open the vault at `vaultPath` through its snapshot (see the module comment). Throws VaultError
 * when the folder is missing; never throws for a bad or unwritable cache.
 */
export async function openCachedVault(
	vaultPath: string,
	options: OpenCachedOptions,
	walked?: VaultListing,
): Promise<CachedVault> {
	const started = performance.now();
	const now = options.now ?? Date.now;
	const abs = resolve(vaultPath);
	const configDir = options.configDir ?? DEFAULT_CONFIG_DIR;
	const maxFileSize = options.maxFileSize ?? DEFAULT_MAX_FILE_SIZE;
	const parse = options.parse ?? parseNote;
	const settings = settingsFingerprint(configDir, maxFileSize, parse);
	// `walked`: the walk of the open just before (a start from scratch re-opening what it saved).
	const listing = walked ?? (await walkVault(abs, configDir, options));
	const { real, files, notes: listed, lost, walker, userIgnoreFilters, excludedFilesProblem } = listing;
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
	const reading = readingOf(abs, notes, maxFileSize, parse, options);
	if (snapshot === null && options.streamSave === true) {
		options.feed?.scope({ configDir, userIgnoreFilters: [...userIgnoreFilters], excludedFilesProblem });
		return openStreamed(vaultPath, options, { reading, listing, settings, reason, started });
	}
	const { current, plan } =
		snapshot === null
			? await readEveryNote(reading, now())
			: await reconcileNotes(reading, snapshot, options.watched, now());
	const { fresh } = reading;
	for (const path of lost) fresh.set(path, lostRecord(walker.skipped.get(path) ?? 'not listed'));
	const fingerprints = knownFingerprints(current);
	const sameFiles =
		snapshot !== null && snapshot.files.length === files.length && snapshot.files.every((f, i) => f === files[i]);
	const unchanged = sameFiles && plan.reread.length === 0 && plan.removed.length === 0;
	const source = new CachedVaultSource({
		vaultPath: abs,
		configDir,
		userIgnoreFilters,
		excludedFilesProblem,
		files,
		notes: listed,
		walkSkips: walker.skipped,
		maxFileSize,
		snapshot,
		kept: plan.keep,
		fresh,
		fingerprints,
		parse,
		keepDecoded: options.keepDecoded,
	});
	const freshMeta = new Map([...fresh].map(([p, r]) => [p, r.metadata]));
	// One resolver for the link maps and the queries after (building it is ~200 ms at 50k files).
	const { order, entries, numbering } = linkEntries(
		notes,
		files,
		sameFiles,
		plan.keep,
		freshMeta,
		snapshot,
		(parsed) => buildLinkMaps(parsed, source.linkResolver()),
		(p) => source.getMetadata(p),
		(name) => source.linkResolver().filesNamed(name),
	);
	source.useLinks(new SnapshotLinks(order, entries, snapshot, numbering));

	const report = openReport(
		snapshot === null ? 'built' : unchanged ? 'warm' : 'refreshed',
		reason,
		plan,
		fingerprints,
		notes.length,
	);
	const { markdownBytes } = report;
	const persist = (): Promise<void> =>
		saveSnapshot(
			options.store,
			{
				tool: options.tool,
				settings,
				vaultPath: real,
				savedAt: now(),
				userIgnoreFilters: [...userIgnoreFilters],
				markdownBytes,
			},
			files,
			notes.map((path) => ({ path, fingerprint: fingerprints.get(path)! })),
			{ fresh, keep: plan.keep, sameFilesAs: sameFiles ? snapshot : null, snapshot, source, carry: null },
			report,
		);
	// A note whose saved metadata failed its check while answering is saved again from disk.
	const needed = (): boolean => !unchanged || source.damaged.size > 0;
	const saveLater = async (): Promise<void> => {
		if (needed()) await persist();
	};
	const wanted = options.save !== false;
	if (wanted && options.save !== 'later') {
		// A start that holds every note's metadata (a server's, see keepTexts) encodes the snapshot
		// after a full collection when it can (both servers define one: warm/collect.ts): the
		// read's garbage goes first, so the encoding reuses that memory rather than adding to it.
		if (!reading.keepTexts && needed()) fullCollection()?.();
		await saveLater();
	}
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

/** What `openStreamed` takes over from the open that found no usable snapshot. */
interface StreamedStart {
	reading: Reading;
	/** The walk: the re-open after the save lists the same files (the watcher reports any change since). */
	listing: VaultListing;
	settings: string;
	reason: string | null;
	started: number;
}

/** The open of `streamSave` (see OpenCachedOptions.streamSave). */
async function openStreamed(vaultPath: string, options: OpenCachedOptions, start: StreamedStart): Promise<CachedVault> {
	const { reading, listing } = start;
	const { real } = listing;
	const built = await streamedBuild({
		reading,
		files: listing.files,
		store: options.store,
		header: {
			tool: options.tool,
			settings: start.settings,
			vaultPath: real,
			userIgnoreFilters: [...listing.userIgnoreFilters],
		},
		now: options.now ?? Date.now,
		feed: options.feed,
	});
	const rest: OpenCachedOptions = {
		...options,
		streamSave: false,
		progress: undefined,
		save: false,
		feed: undefined,
	};
	if (built.saveError !== null) {
		const read = await openCachedVault(vaultPath, rest);
		read.report.saveError = built.saveError;
		return read;
	}
	// The encoder's buffers are garbage now: a full collection (both servers define one:
	// warm/collect.ts) lets the open below and the index builds after it reuse that memory.
	fullCollection()?.();
	// Nothing is parsed again and nothing is stat'ed: a watching caller reports writes since.
	const again = await openCachedVault(
		vaultPath,
		{ ...rest, watched: { fingerprints: built.fingerprints, changed: [] } },
		listing,
	);
	if (again.report.state === 'built') return again;
	again.report = {
		state: 'built',
		rebuildReason: start.reason,
		reread: 0,
		removed: 0,
		savedBytes: built.savedBytes,
		saveError: null,
		notes: reading.notes.length,
		markdownBytes: built.markdownBytes,
		ms: performance.now() - start.started,
	};
	return again;
}

/**
 * Encodes and saves the snapshot of one open, filling `report.savedBytes` or `report.saveError`
 * (a failed save is never thrown). Unchanged notes keep their bytes where they are in the saved
 * heaps (a one-note change appends one note); a damaged note means writing them afresh.
 */
async function saveSnapshot(
	store: SnapshotStore,
	header: SnapshotInput['header'],
	files: readonly string[],
	notes: readonly { path: string; fingerprint: NoteFingerprint }[],
	origins: NoteOrigins,
	report: SnapshotReport,
): Promise<void> {
	const { snapshot, source } = origins;
	try {
		const carry = snapshot !== null && source.damaged.size === 0 ? snapshot.carried(MAX_GARBAGE) : null;
		const from = { ...origins, carry };
		const chunks = encodeSnapshotChunks(
			{
				header,
				files,
				notes: notes.map(({ path, fingerprint }): SnapshotNote => snapshotNote(path, fingerprint, from)),
				resolvedLinks: source.resolvedLinks(),
				unresolvedLinks: source.unresolvedLinks(),
				carry: carry ?? undefined,
			},
			nodeCodecHost,
		);
		await store.save(header.vaultPath, chunks);
		report.savedBytes = chunks.reduce((n, c) => n + c.length, 0);
	} catch (error) {
		report.saveError = error instanceof Error ? error.message : String(error);
	} finally {
		snapshot?.afterSave();
	}
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
