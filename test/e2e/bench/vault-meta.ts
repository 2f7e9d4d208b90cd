/**
 * What Obsidian holds of a vault when it starts, computed once in Node for the Chromium bench: the
 * file list (path, mtime, size), each note's metadata (the project's parser: what the
 * MetadataCache holds, on Obsidian's heap, so the page may hold it too) and the link maps. The
 * notes' text is not in it: the page reads each note from the bench server, as Obsidian reads
 * from disk. Cached as JSON under a folder of /tmp keyed by the vault's path and every file's
 * mtime and size — never inside the vault.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { CachedMetadata } from '../../../src/core/metadata';
import { buildLinkMaps, type LinkMaps } from '../../../src/node/link-maps';
import { parseNote } from '../../../src/node/parser/index';
import { LinkResolver } from '../../../src/node/resolver';
import { walkVault } from '../../helpers/vault-files';

/** The vault as the page loads it (served as JSON). */
export interface VaultMeta extends LinkMaps {
	/** The vault's name. */
	name: string;
	/** `userIgnoreFilters` of the config folder's app.json. */
	userIgnoreFilters: string[];
	/** `<configDir>/<name>` → text. */
	configFiles: Record<string, string>;
	/** Every file Obsidian loads (no dot-files or dot-folders): [path, mtime ms, size in bytes]. */
	files: [string, number, number][];
	/** Each note's metadata, by path. */
	metadata: Record<string, CachedMetadata>;
}

/** A vault's files: vault path → absolute path, mtime and size, in walk order. */
export type VaultFiles = Map<string, { abs: string; mtime: number; size: number }>;

/** Every file of `root` Obsidian would load (dot-files and dot-folders left out). */
export function listVault(root: string): VaultFiles {
	const files: VaultFiles = new Map();
	walkVault(root, (path, abs, stat) => files.set(path, { abs, mtime: stat.mtimeMs, size: stat.size }));
	return files;
}

/** A note's text as Obsidian reads it (a leading BOM dropped). */
export function noteText(abs: string): string {
	return readFileSync(abs, 'utf8').replace(/^\uFEFF/, '');
}

/** The config folder's files and the ignore filters of its app.json. */
function configOf(root: string): { configFiles: Record<string, string>; userIgnoreFilters: string[] } {
	const configFiles: Record<string, string> = {};
	const dir = join(root, '.obsidian');
	if (existsSync(dir)) {
		for (const name of readdirSync(dir)) {
			const abs = join(dir, name);
			if (statSync(abs).isFile()) configFiles[`.obsidian/${name}`] = readFileSync(abs, 'utf8');
		}
	}
	let userIgnoreFilters: string[] = [];
	try {
		const app = JSON.parse(configFiles['.obsidian/app.json'] ?? '{}') as { userIgnoreFilters?: unknown };
		if (Array.isArray(app.userIgnoreFilters))
			userIgnoreFilters = app.userIgnoreFilters.filter((v): v is string => typeof v === 'string');
	} catch {
		userIgnoreFilters = [];
	}
	return { configFiles, userIgnoreFilters };
}

/** Computes the vault's metadata from its files (every note parsed: ~1 min at 50k notes). */
function computeMeta(root: string, files: VaultFiles): VaultMeta {
	const metadata: Record<string, CachedMetadata> = {};
	for (const [path, { abs }] of files) if (path.endsWith('.md')) metadata[path] = parseNote(noteText(abs)).metadata;
	const maps = buildLinkMaps(Object.entries(metadata), new LinkResolver(files.keys()));
	return {
		name: basename(root),
		...configOf(root),
		files: [...files].map(([path, { mtime, size }]) => [path, mtime, size]),
		metadata,
		...maps,
	};
}

/**
 * The JSON of `root`'s {@link VaultMeta}, from the cache under `cacheDir` when the vault's path and
 * every file's mtime and size are the same as when it was computed, else computed and cached.
 */
export function vaultMetaJson(root: string, files: VaultFiles, cacheDir: string): string {
	const key = createHash('sha256').update(root);
	for (const [path, { mtime, size }] of files) key.update(`\0${path}\0${mtime}\0${size}`);
	const file = join(cacheDir, `vault-meta-${key.digest('hex').slice(0, 24)}.json`);
	if (existsSync(file)) return readFileSync(file, 'utf8');
	const json = JSON.stringify(computeMeta(root, files));
	mkdirSync(cacheDir, { recursive: true });
	writeFileSync(`${file}.tmp`, json);
	renameSync(`${file}.tmp`, file);
	return json;
}

/** The notes changed while Obsidian was closed: the first `count` Markdown paths in order (as the Node restart bench picks). */
export function changedNotes(files: VaultFiles, count: number): string[] {
	return [...files.keys()]
		.filter((path) => path.endsWith('.md'))
		.sort()
		.slice(0, count);
}

/** A changed note's new text (the Node restart bench's edit). */
export function editedText(text: string): string {
	return `${text}\nEdited while Obsidian was closed.\n`;
}

/** What the restart's page applies over the vault's metadata: the changed notes' new stat and metadata. */
export interface VaultChanges {
	/** path → [mtime ms, size in bytes]. */
	stats: Record<string, [number, number]>;
	/** path → metadata of the new text. */
	metadata: Record<string, CachedMetadata>;
}

/** The changes of `paths`: each a minute newer, its new text's size and metadata. */
export function vaultChanges(files: VaultFiles, paths: string[]): VaultChanges {
	const changes: VaultChanges = { stats: {}, metadata: {} };
	for (const path of paths) {
		const entry = files.get(path)!;
		const text = editedText(noteText(entry.abs));
		changes.stats[path] = [entry.mtime + 60_000, Buffer.byteLength(text)];
		changes.metadata[path] = parseNote(text).metadata;
	}
	return changes;
}
