/**
 * The messages between the plugin's main thread and its index worker (worker-build.ts runs in
 * the worker, worker-host.ts on the main thread). Everything is structured-cloneable: texts,
 * Obsidian's cached metadata (plain objects), the settings, and the part's bytes (transferred).
 *
 * 1. main → worker `build`: the settings, the vault's note list and what the part's header needs.
 * 2. worker → main `read`: the next notes the build will index, a window ahead of it.
 * 3. main → worker `notes`: those notes read (`cachedRead`), with their metadata, in batches.
 * 4. worker → main `progress` now and then, then `done` with the encoded part (or `failed`).
 */
import type { CachedMetadata } from '../core/metadata';
import type { NoteFingerprint } from '../core/snapshot/codec';
import type { SearchSettings } from '../core/search/settings';

/** Start a build of the search index (one per worker). */
export interface BuildRequest {
	type: 'build';
	/** The engine's search settings (the index's shape). */
	settings: SearchSettings;
	/** What the source tells core about the vault: its name, config folder and Excluded files. */
	vault: { vaultPath: string; configDir: string; userIgnoreFilters: string[] };
	/** Every note path, in walk order (the source's `listNotes`). */
	notes: string[];
	/** The saved part's header: its build stamp, its settings string and every note's stat. */
	part: { tool: string; settings: string; stamps: [string, NoteFingerprint][] };
}

/** One note as the main thread read it for the worker. */
export interface PostedNote {
	path: string;
	/** The note's text, or null when it could not be read (`error` says why). */
	text: string | null;
	error: string | null;
	/** Obsidian's cached metadata (null when not parsed yet, or skipped). */
	metadata: CachedMetadata | null;
	/** The source's `getSkipReason` and `getFrontmatterError`. */
	skipReason: string | null;
	frontmatterError: string | null;
}

/** What the main thread posts to the worker. */
export type ToIndexWorker = BuildRequest | { type: 'notes'; notes: PostedNote[] };

/** What the worker posts back. */
export type FromIndexWorker =
	| { type: 'read'; paths: string[] }
	| { type: 'progress'; done: number; total: number }
	| { type: 'done'; bytes: Uint8Array; notes: number }
	| { type: 'failed'; message: string };

/** An error's message, for a message across the threads. */
export function messageOf(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}
