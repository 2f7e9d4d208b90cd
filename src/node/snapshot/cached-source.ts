/**
 * The NoteSource port over a reconciled snapshot: notes whose bytes did not change keep their
 * saved metadata (decoded field by field when a query reads it), changed and new notes carry what
 * was just parsed. Note text is read from disk when asked, not stored in the snapshot: the
 * snapshot stays smaller than the vault, and the text is as fresh as the file.
 */
import { join, sep } from 'node:path';
import { CORE_SCHEMA, load } from 'js-yaml';
import type { CachedMetadata, LinkMap } from '../../core/metadata';
import { getAllTags } from '../../core/obsidian-rules';
import { fileStatter } from '../file-stat';
import type { NoteBytes, NoteSource } from '../../core/port';
import type { DecodedSnapshot, NoteFingerprint } from '../../core/snapshot/codec';
import { readKnownBytesSync, readNoteBytesSync, readNoteSync, ScratchBuffer } from '../note-reader';
import { LinkResolver } from '../resolver';
import { lineScanArea } from '../../core/text/line-scan';
import {
	readConfigFileIn,
	readSideFileIn,
	type NoteRecord,
	type ParseResult,
	type SkippedEntry,
} from '../vault-source';
import { LayeredMap } from './layered-map';
import { RecentMap } from './recent-map';

import type { SnapshotLinks } from './link-view';
import type { WalkedSourceInit } from '../vault-files';

/**
 * Where a note of known size is read for a scan of its bytes: straight into the WebAssembly line
 * scan's memory where there is one (its scan then copies nothing), else a buffer of its own.
 */
const SCAN_AREA = {
	fallback: new ScratchBuffer(),
	/** The scan's area as a Buffer, made again only when the area moves (its memory grew). */
	view: null as Uint8Array | null,
	buffer: Buffer.alloc(0) as Buffer,
	take(size: number): Buffer {
		const area = lineScanArea(size);
		if (area === null) return this.fallback.take(size);
		if (area !== this.view) {
			this.view = area;
			this.buffer = Buffer.from(area.buffer, area.byteOffset, area.length);
		}
		return this.buffer;
	},
	/** `bytes` read by `take`, moved to the area's start when they are not there (a byte order mark left out). */
	settle(bytes: Buffer): Buffer {
		if (bytes.buffer !== this.buffer.buffer || bytes.byteOffset === this.buffer.byteOffset) return bytes;
		const from = bytes.byteOffset - this.buffer.byteOffset;
		this.buffer.copyWithin(0, from, from + bytes.length);
		return this.buffer.subarray(0, bytes.length);
	},
};

/** Everything the source is built from (see `openCachedVault`). */
export interface CachedSourceInit extends WalkedSourceInit {
	maxFileSize: number;
	/** The snapshot the kept notes come from (null on a first build). */
	snapshot: DecodedSnapshot | null;
	/** Current path → note number in `snapshot`, for unchanged notes. */
	kept: ReadonlyMap<string, number>;
	/** Notes read and parsed in this call. */
	fresh: ReadonlyMap<string, NoteRecord>;
	/** Every note's fingerprint now. */
	fingerprints: ReadonlyMap<string, NoteFingerprint>;
	/** The note parser, for the fields the snapshot does not keep (see metadata-codec). */
	parse: (text: string) => ParseResult;
	/** How many kept notes' decoded metadata are held at once (default: every note read); tests make it small. */
	keepDecoded?: number;
}

/**
 * How many kept notes parsed again from disk a source holds, the most recently read. A note is
 * parsed again for a field the snapshot does not keep (sections, list items, blocks): a pack's or
 * an excerpt's few notes, but also every note without frontmatter that a grep reads (its body
 * start looks at the first section) — 2,287 whole parses held for good after one full answer at
 * 50k notes. Decoded metadata is held for every note read (`keepDecoded` bounds it): a query on
 * properties reads every note's frontmatter, and decoding it again on each call cost it 2–5× the
 * server's CPU at 50k notes, while the server's resident memory did not fall.
 */
export const KEPT_REPARSED = 256;

/**
 * How many notes' decoded metadata a passing view (`CachedVaultSource.passing`) holds, the most
 * recently read: a full answer reads one note's metadata several times while it writes that note
 * (its title, body start, frontmatter, links), then moves on for good.
 */
export const PASSING_WINDOW = 256;

/** Caches of kept notes (keyed by path; only ever read for a note that is kept, not fresh). */
interface KeptNoteCaches {
	decoded: RecentMap<string, CachedMetadata | null>;
	reparsed: RecentMap<string, CachedMetadata | null>;
	/** Kept notes whose saved metadata failed its check when read (taken from disk instead; the snapshot is saved again). */
	damaged: Set<string>;
}

/** A vault answered from its snapshot plus what changed since. */
export class CachedVaultSource implements NoteSource {
	/** Absolute vault root. */
	readonly vaultPath: string;
	/** Obsidian's config folder name. */
	readonly configDir: string;
	/** Obsidian's "Excluded files". */
	readonly userIgnoreFilters: readonly string[];
	/** Why app.json's Excluded files could not be used, or null. */
	readonly excludedFilesProblem: string | null;
	private readonly init: CachedSourceInit;
	/** What was decoded or parsed again of kept notes: the same for every source `edited` from one open. */
	private readonly caches: KeptNoteCaches;
	private readonly scratch = new ScratchBuffer();
	/** The re-parse's own buffer: a note re-parsed for a field while another's bytes are being listed must not overwrite them. */
	private readonly reparseScratch = new ScratchBuffer();
	/** The vault's path with a separator after it, that a note's path is appended to (`readBytes`). */
	private notePrefix: string | undefined;
	private links: SnapshotLinks | null = null;

	/** Use `openCachedVault` (or `edited`, which shares the kept notes' caches and the resolver). */
	constructor(
		init: CachedSourceInit,
		caches?: KeptNoteCaches,
		private resolver: LinkResolver | null = null,
		/** Set on a passing view: the notes it decoded that the shared caches do not hold (see `passing`). */
		private readonly window: RecentMap<string, CachedMetadata | null> | null = null,
	) {
		this.init = init;
		this.caches = caches ?? {
			decoded: new RecentMap(init.keepDecoded ?? Infinity),
			reparsed: new RecentMap(Math.min(init.keepDecoded ?? KEPT_REPARSED, KEPT_REPARSED)),
			damaged: new Set(),
		};
		this.vaultPath = init.vaultPath;
		this.configDir = init.configDir;
		this.userIgnoreFilters = init.userIgnoreFilters;
		this.excludedFilesProblem = init.excludedFilesProblem ?? null;
	}

	/** The link maps (set once by `openCachedVault`, which needs this source's metadata to make them). */
	useLinks(links: SnapshotLinks): void {
		this.links = links;
	}

	private linkView(): SnapshotLinks {
		if (this.links === null) throw new Error('link maps read before they were set');
		return this.links;
	}

	/** Every Markdown note, walk order. */
	listNotes(): readonly string[] {
		return this.init.notes;
	}

	/** Every file of the vault. */
	listFiles(): readonly string[] {
		return this.init.files;
	}

	/** The note's metadata, or null when skipped or not a note. */
	getMetadata(path: string): CachedMetadata | null {
		const fresh = this.init.fresh.get(path);
		if (fresh) return fresh.metadata;
		const i = this.init.kept.get(path);
		if (i === undefined || this.init.snapshot === null) return null;
		let meta = this.caches.decoded.get(path) ?? this.window?.get(path);
		if (meta === undefined) {
			meta = this.init.snapshot.metadata(i, (field, damaged) => {
				if (damaged) this.caches.damaged.add(path);
				return (this.reparse(path) as Record<string, unknown> | null)?.[field];
			});
			(this.window ?? this.caches.decoded).set(path, meta);
		}
		return meta;
	}

	/**
	 * This source for one pass over many notes (see the port): it shares everything with this one
	 * — the decoded metadata already held, the resolver, the link maps — but holds what it decodes
	 * itself only for the last few notes read (`PASSING_WINDOW`), and reads link-map entries not
	 * yet decoded without keeping them. At 50k notes a full `--json` answer left ~170 MB of decoded
	 * metadata (mostly every note's links with their positions) and ~19 MB of link-map entries held
	 * for the server's life; a query that reads every note's frontmatter still holds it (decoding
	 * it again on each call cost such queries 2–5× their CPU).
	 */
	passing(): CachedVaultSource {
		const view = new CachedVaultSource(this.init, this.caches, this.linkResolver(), new RecentMap(PASSING_WINDOW));
		view.links = this.links;
		return view;
	}

	/** Why the note's frontmatter did not parse, or null. */
	getFrontmatterError(path: string): string | null {
		return this.problems(path)[0];
	}

	/** Why the note (or a walked entry) was not indexed, or null. */
	getSkipReason(path: string): string | null {
		return this.problems(path)[1] ?? this.init.walkSkips.get(path) ?? null;
	}

	private problems(path: string): [string | null, string | null] {
		const fresh = this.init.fresh.get(path);
		if (fresh) return [fresh.frontmatterError, fresh.skipReason];
		const i = this.init.kept.get(path);
		return i === undefined || this.init.snapshot === null ? [null, null] : this.init.snapshot.problems(i);
	}

	/** Everything left out, with reasons. */
	listSkipped(): SkippedEntry[] {
		const out: SkippedEntry[] = [];
		for (const [path, reason] of this.init.walkSkips) out.push({ path, reason });
		for (const path of this.init.notes) {
			const reason = this.problems(path)[1];
			if (reason) out.push({ path, reason });
		}
		return out;
	}

	/** Size and times for bases (`file.size`, `file.ctime`, `file.mtime`), stat'ed when first asked. */
	fileStat(path: string): { size: number; ctime: number; mtime: number } | null {
		return (this.statOf ??= fileStatter(this.vaultPath))(path);
	}

	private statOf: ReturnType<typeof fileStatter> | null = null;

	/** The note's mtime in whole ms, as the plain vault source reports it. */
	getMtime(path: string): number | null {
		const fp = this.init.fingerprints.get(path);
		return fp ? Math.floor(fp.mtimeMs) : null;
	}

	/**
	 * The note's text (BOM stripped). Unchanged notes (and notes read without keeping their text,
	 * see `OpenCachedOptions.keepTexts`) are read from disk now: synchronously, since queries read
	 * many notes one after another and a sync read is about twice as fast per file.
	 */
	read(path: string): Promise<string> {
		const fresh = this.init.fresh.get(path);
		if (fresh?.text != null) return Promise.resolve(fresh.text);
		const reason = this.getSkipReason(path);
		if (reason !== null || (fresh === undefined && !this.init.kept.has(path))) {
			return Promise.reject(
				new Error(`${path}: ${reason !== null ? `not indexed: ${reason}` : 'not a note of this vault'}`),
			);
		}
		const outcome = readNoteSync(join(this.vaultPath, path), this.init.maxFileSize, this.scratch);
		if ('skipReason' in outcome) return Promise.reject(new Error(`${path}: not indexed: ${outcome.skipReason}`));
		return Promise.resolve(outcome.text);
	}

	/** How many notes' texts this source holds in memory; every other note's is read from disk when asked. */
	textsHeld(): number {
		let held = 0;
		for (const record of this.init.fresh.values()) if (record.text !== null) held++;
		return held;
	}

	/**
	 * The note's bytes, read from disk now like `read`, for a scan that decodes only the lines it
	 * shows; null for a note held as text or not read (`read` says why).
	 */
	readBytes(path: string): NoteBytes | null {
		if (this.init.fresh.has(path) || !this.init.kept.has(path) || this.getSkipReason(path) !== null) return null;
		// The path joined by hand (a note's path is already normal) and read at its fingerprint's size: over a full answer's 41,000 notes at 50k, `join` and the fstat were a third of the reading.
		this.notePrefix ??= join(this.vaultPath, sep);
		const absPath = this.notePrefix + path;
		const size = this.init.fingerprints.get(path)?.size;
		const known = size !== undefined ? readKnownBytesSync(absPath, size, SCAN_AREA) : null;
		const bytes =
			known !== null ? SCAN_AREA.settle(known) : readNoteBytesSync(absPath, this.init.maxFileSize, this.scratch);
		if (bytes === null) return null;
		let latin1: string | undefined;
		return {
			// Made only when asked: most notes of a full answer are searched and listed on their bytes alone.
			get latin1() {
				latin1 ??= bytes.toString('latin1');
				return latin1;
			},
			latin1Of: (start, end) => bytes.toString('latin1', start, end),
			text: (start, end) => bytes.toString('utf8', start, end),
			bytes,
		};
	}

	/**
	 * The note parsed again from disk, for a field the snapshot does not keep. Its fingerprint was
	 * checked when the vault was opened, so the result is what was parsed when it was saved.
	 */
	private reparse(path: string): CachedMetadata | null {
		let meta = this.caches.reparsed.get(path);
		if (meta === undefined) {
			const outcome = readNoteSync(join(this.vaultPath, path), this.init.maxFileSize, this.reparseScratch);
			meta = 'skipReason' in outcome ? null : this.init.parse(outcome.text).metadata;
			this.caches.reparsed.set(path, meta);
		}
		return meta;
	}

	/** Kept notes whose saved metadata failed its check when read (taken from disk instead; the snapshot is saved again). */
	get damaged(): ReadonlySet<string> {
		return this.caches.damaged;
	}

	/**
	 * How many kept notes' metadata this source holds decoded, and parsed again (bounded; see
	 * `KEPT_REPARSED`), and how many notes' `resolvedLinks` entries it holds decoded.
	 */
	get heldMetadata(): { decoded: number; reparsed: number; linkEntries: number } {
		return {
			decoded: this.caches.decoded.size,
			reparsed: this.caches.reparsed.size,
			linkEntries: this.links?.heldResolvedEntries ?? 0,
		};
	}

	/** Obsidian's `getFirstLinkpathDest`. */
	resolveLink(linkpath: string, sourcePath: string): string | null {
		return this.linkResolver().getFirstLinkpathDest(linkpath, sourcePath);
	}

	/** The resolver over this source's files, built once (~200 ms at 50k files) and shared by the link maps and every query. */
	linkResolver(): LinkResolver {
		this.resolver ??= new LinkResolver(this.init.files);
		return this.resolver;
	}

	/**
	 * This source after changes to plain files (a server's refresh, patch-cached.ts): `records` are
	 * the written and created notes as just read, `fingerprints` every note's now; `listing`, when
	 * files were created or gone, the file and note lists now, the resolver over them and the notes
	 * gone. Nothing is copied: the kept-note map is shared (every read looks at the fresh notes
	 * first, so an edited note's old entry there is never read; a gone note's is taken out), and so
	 * are the caches of kept notes' decoded metadata and, when no file came or went, the resolver.
	 */
	edited(
		records: ReadonlyMap<string, NoteRecord>,
		fingerprints: ReadonlyMap<string, NoteFingerprint>,
		listing?: {
			files: readonly string[];
			notes: readonly string[];
			resolver: LinkResolver;
			removed: readonly string[];
		},
	): CachedVaultSource {
		// Layered, not copied: after a build from scratch every note is fresh, and a copy is ~25 ms at 50k.
		const removed = listing?.removed ?? [];
		return new CachedVaultSource(
			{
				...this.init,
				fresh: LayeredMap.over(this.init.fresh, records, removed),
				kept: removed.length > 0 ? LayeredMap.over(this.init.kept, new Map(), removed) : this.init.kept,
				files: listing?.files ?? this.init.files,
				notes: listing?.notes ?? this.init.notes,
				fingerprints,
			},
			this.caches,
			listing?.resolver ?? this.resolver,
		);
	}

	/** Whether the walk left out `entry` (a folder ends in `/`). */
	walkSkipped(entry: string): boolean {
		return this.init.walkSkips.has(entry);
	}

	/** Whether the file list has a file under folder `folder`. */
	hasFilesUnder(folder: string): boolean {
		const prefix = `${folder}/`;
		return this.init.files.some((path) => path.startsWith(prefix));
	}

	/** Builds now the link lookups a refresh after a created, deleted or renamed file reads (see `SnapshotLinks.prepare`). */
	prepareForChanges(): void {
		this.linkView().prepare();
	}

	/** The link maps, for a source `edited` from this one. */
	get linkMaps(): SnapshotLinks {
		return this.linkView();
	}

	/** source → destination path → count. */
	resolvedLinks(): LinkMap {
		return this.window === null ? this.linkView().resolvedLinks() : this.linkView().passingResolvedLinks();
	}

	/** source → unresolved linkpath → count. */
	unresolvedLinks(): LinkMap {
		return this.linkView().unresolvedLinks();
	}

	/** True when the note's frontmatter certainly has no key `key` (answered from the saved bytes; false, "maybe", for notes read in this call). */
	lacksProperty(path: string, key: string): boolean {
		const i = this.init.kept.get(path);
		return (
			i !== undefined &&
			this.init.snapshot !== null &&
			!this.init.fresh.has(path) &&
			this.init.snapshot.lacksKey(i, key)
		);
	}

	/** The note's frontmatter keys as saved (an unchanged note only; null: read its metadata). */
	frontmatterKeys(path: string): readonly string[] | null {
		const i = this.init.fresh.has(path) ? undefined : this.init.kept.get(path);
		return i === undefined || this.init.snapshot === null ? null : this.init.snapshot.keysOf(i);
	}

	/** The note's `getAllTags`, from the list saved with it when it is unchanged; null when not indexed. */
	allTags(path: string): readonly string[] | null {
		const i = this.init.fresh.has(path) ? undefined : this.init.kept.get(path);
		const saved = i === undefined || this.init.snapshot === null ? null : this.init.snapshot.allTags(i);
		if (saved !== null) return saved;
		const meta = this.getMetadata(path);
		return meta === null ? null : getAllTags(meta);
	}

	/** The notes whose `resolvedLinks` entry names `target`, walk order, from the snapshot's columns inverted once. */
	linkSourcesOf(target: string): readonly string[] {
		return this.linkView().linkSourcesOf(target);
	}

	/** `<configDir>/<name>` read fresh from disk, or null when absent. */
	readConfigFile(name: string): Promise<string | null> {
		return readConfigFileIn(this.vaultPath, this.configDir, name);
	}

	/** A side file by explicit vault path, read fresh from disk (see the port). */
	readSideFile(path: string): Promise<string | null> {
		return readSideFileIn(this.vaultPath, path);
	}

	/** YAML with the core schema, as frontmatter is parsed. */
	parseYaml(text: string): unknown {
		return load(text, { schema: CORE_SCHEMA });
	}
}
