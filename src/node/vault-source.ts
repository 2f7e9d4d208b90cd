/**
 * The NoteSource port on a folder: walk it, read and parse every note once, keep everything in
 * memory, resolve links like Obsidian. Read-only by construction: nothing here opens a file for
 * writing, so a vault is never touched (no cache or temp files).
 */
import { join, resolve } from 'node:path';
import { CORE_SCHEMA, load } from 'js-yaml';
import type { CachedMetadata, LinkMap } from '../core/metadata';
import { fileStatter } from './file-stat';
import type { NoteSource } from '../core/port';
import { formatSize } from '../core/size';
import { buildLinkMaps, type LinkMaps } from './link-maps';
import { DEFAULT_MAX_FILE_SIZE, readNoteAsync, readNoteSync, ScratchBuffer, type ReadOutcome } from './note-reader';
import { parseNote } from './parser/index';
import { LinkResolver } from './resolver';
import { readConfigFileIn, readSideFileIn } from './side-files';
import { frontmatterBoundsError } from './parser/frontmatter-bounds';
import { DEFAULT_CONFIG_DIR, VaultError, walkVault, type WalkOptions, type WalkedSourceInit } from './vault-files';

// The folder's checks and walk live in vault-files.ts, the config and side-file reads in side-files.ts;
// the adapter's users import them from here.
export { readConfigFileIn, readSideFileIn } from './side-files';
export {
	assertVaultFolder,
	DEFAULT_CONFIG_DIR,
	isNotePath,
	readUserIgnoreFilters,
	VaultError,
	walkVault,
	type VaultListing,
	type WalkOptions,
} from './vault-files';

/** What `parseNote` returns; the parser is injectable so tests can count or fake it. */
export interface ParseResult {
	metadata: CachedMetadata;
	frontmatterError: string | null;
}

/** Options of `openVault`; every field has a default. */
export interface OpenVaultOptions extends WalkOptions {
	/** Notes larger than this many bytes are listed but not read or parsed. Default 5 MB. */
	maxFileSize?: number;
	/** Obsidian's config folder, skipped by the walk and holding `app.json`. Default `.obsidian`. */
	configDir?: string;
	/**
	 * 0 (default): read notes with synchronous calls, parsing each as it arrives. n > 0: up to n
	 * parallel reads through fs/promises. Measured on obsidian-help-i18n (6,105 notes, warm page
	 * cache, 2 cores): reading alone takes ~140 ms synchronously against ~320 ms with fs/promises
	 * at any concurrency from 8 to 64, and interleaving reads with parsing did not hide that cost —
	 * the per-operation promise and thread-pool overhead outweighs the parallelism. Parallel reads
	 * remain the better choice on a cold or network disk, hence the option.
	 */
	readConcurrency?: number;
	/** The note parser. Default: our Obsidian-compatible `parseNote`. */
	parse?: (text: string) => ParseResult;
	/** Bytes of notes read at most before opening stops with a VaultError. Default 2 GiB. */
	maxTotalBytes?: number;
}

/** Default bound on the bytes of all notes read: far above the largest vaults we know (~0.5 GB), below where memory runs out. */
export const DEFAULT_MAX_TOTAL_BYTES = 2 * 1024 * 1024 * 1024;

/** One note's indexed state. `text` and `metadata` are null when the note was skipped. */
export interface NoteRecord {
	text: string | null;
	metadata: CachedMetadata | null;
	frontmatterError: string | null;
	skipReason: string | null;
	mtime: number | null;
}

/** What opening the vault took, for `--verbose` output and benchmarks (wall-clock ms). */
export interface OpenVaultStats {
	/** Files found by the walk (notes and attachments). */
	files: number;
	/** Markdown notes among them. */
	notes: number;
	/** Notes read and parsed. */
	parsed: number;
	/** Notes left unparsed (binary, too large, unreadable, parser crash). */
	skipped: number;
	/** Walking the folder tree (and reading app.json alongside). */
	walkMs: number;
	/** Reading and decoding notes. */
	readMs: number;
	/** Our parser, over every note. */
	parseMs: number;
	/** Building the resolver and the resolved/unresolved link maps. */
	linkMapsMs: number;
	/** All of `openVault`. */
	totalMs: number;
}

/** A file or folder the walk or the reader left out, and why. */
export interface SkippedEntry {
	/** Vault-relative path. */
	path: string;
	/** Human-readable reason, e.g. `larger than 5 MB (7.2 MB)`, `binary content`. */
	reason: string;
}

/** A vault on disk, fully indexed in memory; build it with `openVault`. */
export class NodeVaultSource implements NoteSource {
	/** Absolute vault root. */
	readonly vaultPath: string;
	/** Obsidian's config folder name. */
	readonly configDir: string;
	/** Obsidian's "Excluded files" from app.json (exposed, not applied: Obsidian indexes them too). */
	readonly userIgnoreFilters: readonly string[];
	/** Why app.json's Excluded files could not be used, or null. */
	readonly excludedFilesProblem: string | null;
	/** The resolver over every vault file; mutable for callers that track renames. */
	readonly resolver: LinkResolver;
	/** Counts and phase timings of `openVault`. */
	readonly stats: OpenVaultStats;
	private readonly files: readonly string[];
	private readonly notes: readonly string[];
	private readonly records: ReadonlyMap<string, NoteRecord>;
	private readonly walkSkips: ReadonlyMap<string, string>;
	private readonly maps: LinkMaps;

	/** Use `openVault`; this only stores what it computed. */
	constructor(
		init: WalkedSourceInit & {
			records: ReadonlyMap<string, NoteRecord>;
			resolver: LinkResolver;
			maps: LinkMaps;
			stats: OpenVaultStats;
		},
	) {
		this.vaultPath = init.vaultPath;
		this.configDir = init.configDir;
		this.userIgnoreFilters = init.userIgnoreFilters;
		this.excludedFilesProblem = init.excludedFilesProblem ?? null;
		this.files = init.files;
		this.notes = init.notes;
		this.records = init.records;
		this.walkSkips = init.walkSkips;
		this.resolver = init.resolver;
		this.maps = init.maps;
		this.stats = init.stats;
	}

	/**
	 * Every Markdown note, vault-relative, in walk order (skipped ones included), then the walk
	 * entries whose notes could not be reached (folders end in `/`), each with a skip reason.
	 */
	listNotes(): readonly string[] {
		return this.notes;
	}

	/** Every file of the vault, notes and attachments. */
	listFiles(): readonly string[] {
		return this.files;
	}

	/** Everything left out (unparsed notes, unreadable folders, symlinks out of the vault), with reasons. */
	listSkipped(): SkippedEntry[] {
		const out: SkippedEntry[] = [];
		for (const [path, reason] of this.walkSkips) if (!this.records.has(path)) out.push({ path, reason });
		for (const path of this.notes) {
			const reason = this.records.get(path)?.skipReason;
			if (reason) out.push({ path, reason });
		}
		return out;
	}

	/** The note's metadata, or null when it is not a note or was skipped. */
	getMetadata(path: string): CachedMetadata | null {
		return this.records.get(path)?.metadata ?? null;
	}

	/** Why the note's frontmatter did not parse, or null. */
	getFrontmatterError(path: string): string | null {
		return this.records.get(path)?.frontmatterError ?? null;
	}

	/** Why the note (or a walked entry) was not indexed, or null. */
	getSkipReason(path: string): string | null {
		return this.records.get(path)?.skipReason ?? this.walkSkips.get(path) ?? null;
	}

	/** Size and times for bases (`file.size`, `file.ctime`, `file.mtime`), stat'ed when first asked. */
	fileStat(path: string): { size: number; ctime: number; mtime: number } | null {
		return (this.statOf ??= fileStatter(this.vaultPath))(path);
	}

	private statOf: ReturnType<typeof fileStatter> | null = null;

	/** The note's mtime in ms from its stat at read time; null for attachments (never stat'ed, to keep opening fast). */
	getMtime(path: string): number | null {
		return this.records.get(path)?.mtime ?? null;
	}

	/** The note's text as read at open time (BOM stripped); rejects for skipped or unknown paths. */
	read(path: string): Promise<string> {
		const record = this.records.get(path);
		if (record?.text != null) return Promise.resolve(record.text);
		const why = record ? `not indexed: ${record.skipReason ?? 'unknown reason'}` : 'not a note of this vault';
		return Promise.reject(new Error(`${path}: ${why}`));
	}

	/** Obsidian's `getFirstLinkpathDest`. */
	resolveLink(linkpath: string, sourcePath: string): string | null {
		return this.resolver.getFirstLinkpathDest(linkpath, sourcePath);
	}

	/** source → destination path → count. */
	resolvedLinks(): LinkMap {
		return this.maps.resolvedLinks;
	}

	/** source → unresolved linkpath → count. */
	unresolvedLinks(): LinkMap {
		return this.maps.unresolvedLinks;
	}

	/** `<configDir>/<name>` read fresh from disk, or null when it does not exist; other read errors throw. */
	readConfigFile(name: string): Promise<string | null> {
		return readConfigFileIn(this.vaultPath, this.configDir, name);
	}

	/** A side file by explicit vault path, dot-folders included (see the port). */
	readSideFile(path: string): Promise<string | null> {
		return readSideFileIn(this.vaultPath, path);
	}

	/** YAML with the core schema, as frontmatter is parsed (`2024-07-21` stays a string). */
	parseYaml(text: string): unknown {
		const value = load(text, { schema: CORE_SCHEMA });
		const tooBig = frontmatterBoundsError(value, text.length);
		if (tooBig !== null) throw new Error(tooBig.replace('frontmatter', 'YAML'));
		return value;
	}
}

/** Parses one read note into its record, adding the parse time to `clock`; parser crashes become skip reasons, not failures. */
export function toRecord(
	outcome: ReadOutcome,
	parse: (text: string) => ParseResult,
	clock: { parseMs: number },
): NoteRecord {
	if ('skipReason' in outcome) {
		return {
			text: null,
			metadata: null,
			frontmatterError: null,
			skipReason: outcome.skipReason,
			mtime: outcome.mtime,
		};
	}
	const started = performance.now();
	try {
		const { metadata, frontmatterError } = parse(outcome.text);
		return { text: outcome.text, metadata, frontmatterError, skipReason: null, mtime: outcome.mtime };
	} catch (error) {
		const message = error instanceof Error ? error.message : String(error);
		return {
			text: null,
			metadata: null,
			frontmatterError: null,
			skipReason: `parser failed (${message})`,
			mtime: outcome.mtime,
		};
	} finally {
		clock.parseMs += performance.now() - started;
	}
}

/** Parsed notes with their metadata, in walk order (skipped notes get no link-map entry). */
function* indexedNotes(
	notes: readonly string[],
	records: ReadonlyMap<string, NoteRecord>,
): Generator<[string, CachedMetadata]> {
	for (const path of notes) {
		const metadata = records.get(path)?.metadata;
		if (metadata) yield [path, metadata];
	}
}

/** A record for a walk entry whose notes are not searched (link out of the vault, unreadable folder…). */
export function lostRecord(reason: string): NoteRecord {
	return { text: null, metadata: null, frontmatterError: null, skipReason: reason, mtime: null };
}

/** The error for notes holding more than `limit` bytes in all. */
export function tooMuchText(abs: string, limit: number): VaultError {
	return new VaultError(
		`Stopped reading ${abs}: its notes hold more than ${formatSize(limit)}: is this really a vault? (--max-total-mb raises the bound)`,
		abs,
	);
}

/**
 * Opens the vault at `vaultPath`: walks it, reads and parses every note, builds the resolver and
 * link maps. Throws `VaultError` when the folder is missing or not a folder.
 *
 * @example
 * const vault = await openVault('~/Notes'.replace('~', os.homedir()));
 * vault.resolvedLinks()['Index.md'];
 */
export async function openVault(vaultPath: string, options: OpenVaultOptions = {}): Promise<NodeVaultSource> {
	const started = performance.now();
	const abs = resolve(vaultPath);
	const configDir = options.configDir ?? DEFAULT_CONFIG_DIR;
	const maxFileSize = options.maxFileSize ?? DEFAULT_MAX_FILE_SIZE;
	const parse = options.parse ?? parseNote;
	const concurrency = Math.max(0, Math.floor(options.readConcurrency ?? 0));

	const maxTotalBytes = options.maxTotalBytes ?? DEFAULT_MAX_TOTAL_BYTES;
	const { files, notes, lost, walker, userIgnoreFilters, excludedFilesProblem } = await walkVault(
		abs,
		configDir,
		options,
	);
	const walked = performance.now();

	const clock = { parseMs: 0 };
	const records = new Map<string, NoteRecord>();
	const readable = notes.length - lost.length;
	let totalBytes = 0;
	const counted = (outcome: ReadOutcome): ReadOutcome => {
		if ('bytes' in outcome && (totalBytes += outcome.bytes) > maxTotalBytes) {
			throw tooMuchText(abs, maxTotalBytes);
		}
		return outcome;
	};
	if (concurrency === 0) {
		const scratch = new ScratchBuffer();
		for (let i = 0; i < readable; i++)
			records.set(
				notes[i]!,
				toRecord(counted(readNoteSync(join(abs, notes[i]!), maxFileSize, scratch)), parse, clock),
			);
	} else {
		// Results land in a pre-sized array so the records map keeps walk order whatever finishes first.
		const slots: NoteRecord[] = new Array<NoteRecord>(readable);
		let next = 0;
		const worker = async (): Promise<void> => {
			while (next < readable) {
				const i = next++;
				slots[i] = toRecord(counted(await readNoteAsync(join(abs, notes[i]!), maxFileSize)), parse, clock);
			}
		};
		await Promise.all(Array.from({ length: Math.min(concurrency, readable) }, worker));
		for (let i = 0; i < readable; i++) records.set(notes[i]!, slots[i]!);
	}
	for (const path of lost) records.set(path, lostRecord(walker.skipped.get(path) ?? 'not listed'));

	const indexed = performance.now();

	const resolver = new LinkResolver(files);
	const maps = buildLinkMaps(indexedNotes(notes, records), resolver);
	const finished = performance.now();

	let parsed = 0;
	for (const record of records.values()) if (record.metadata) parsed++;
	const stats: OpenVaultStats = {
		files: files.length,
		notes: notes.length,
		parsed,
		skipped: notes.length - parsed,
		walkMs: walked - started,
		readMs: indexed - walked - clock.parseMs,
		parseMs: clock.parseMs,
		linkMapsMs: finished - indexed,
		totalMs: finished - started,
	};
	return new NodeVaultSource({
		vaultPath: abs,
		configDir,
		userIgnoreFilters,
		excludedFilesProblem,
		files,
		notes,
		records,
		walkSkips: walker.skipped,
		resolver,
		maps,
		stats,
	});
}
