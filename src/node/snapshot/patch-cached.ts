/**
 * A watching process's refresh when the watcher reported only changes to plain files: notes or
 * attachments written, created, deleted or renamed in folders the vault already has (the common
 * case: an agent or an editor saving, adding or renaming a note). Nothing else needs the walk, the
 * snapshot's columns or a resolver built anew: the file list is the previous one with the
 * created files put in walk order and the gone ones taken out, the written and created notes are
 * read and parsed, and links are resolved again only where a created or gone file's name can
 * change where they point — links now unresolved that name it, and links to the files that
 * share its name (a new note may be nearer, and a renamed one leaves its links to another note of
 * that name, or unresolved). Everything else carries over from the previous open. Any other change
 * (a folder, a config file, a symlink, a FIFO) is not patched: the caller opens the vault again in full.
 */
import { lstatSync, realpathSync, type Stats } from 'node:fs';
import { dirname, join } from 'node:path';
import type { CachedMetadata } from '../../core/metadata';
import { carryNoteNames } from '../../core/note-ref';
import type { NoteFingerprint } from '../../core/snapshot/codec';
import { buildLinkMaps } from '../link-maps';
import { DEFAULT_MAX_FILE_SIZE, errorCode, readNoteSync, ScratchBuffer } from '../note-reader';
import { parseNote } from '../parser/index';
import type { LinkResolver } from '../resolver';
import { isNotePath } from '../vault-files';
import {
	DEFAULT_MAX_TOTAL_BYTES,
	toRecord,
	tooMuchText,
	type NoteRecord,
	type OpenVaultOptions,
} from '../vault-source';
import { DEFAULT_WALK_BOUNDS, isWalkedFolder, walkOrder } from '../vault-walk';
import type { CachedVaultSource } from './cached-source';
import { LayeredMap } from './layered-map';
import { notesToRelink, type LinkEntry } from './link-view';
import { fingerprintFrom, racyWindow } from './fingerprints';
import type { CachedVault } from './open-cached';

/** The bytes of notes no larger than `maxFileSize` (those counted against the total bound, as a full open counts them). */
function readableBytes(fingerprints: ReadonlyMap<string, NoteFingerprint>, maxFileSize: number): number {
	let total = 0;
	for (const fp of fingerprints.values()) if (fp.size > 0 && fp.size <= maxFileSize) total += fp.size;
	return total;
}

/** What the reported paths are: files written, created and gone; null when one is not a plain file change. */
interface Sorted {
	written: string[];
	added: string[];
	removed: string[];
}

/** The stat of `abs` without following a last symlink; null when it is gone; undefined when it cannot be told. */
function lstatOf(abs: string): Stats | null | undefined {
	try {
		return lstatSync(abs);
	} catch (error) {
		const code = errorCode(error);
		return code === 'ENOENT' || code === 'ENOTDIR' ? null : undefined;
	}
}

/** Whether a walk lists a plain file created at `path`: its folder is walked by its own path and is no deeper than the bound. */
function walkLists(source: CachedVaultSource, real: string, path: string, maxDepth: number): boolean | null {
	const slash = path.lastIndexOf('/');
	const folder = slash < 0 ? '' : path.slice(0, slash);
	if (!isWalkedFolder(folder, source.configDir)) return false;
	if (folder.split('/').length > maxDepth) return null; // The full walk says it is too deep.
	// A folder the walk skipped (unreadable) or reached through a symbolic link: the full open knows.
	for (let at = folder.length; at > 0; at = folder.lastIndexOf('/', at - 1))
		if (source.walkSkipped(`${folder.slice(0, at)}/`)) return null;
	try {
		return realpathSync(dirname(join(source.vaultPath, path))) === (folder === '' ? real : join(real, folder));
	} catch {
		return null;
	}
}

/** Sorts the reported paths (see `Sorted`), or null when one needs the full open. */
function sortChanges(previous: CachedVault, paths: readonly string[], maxDepth: number): Sorted | null {
	const { source } = previous;
	const resolver = source.linkResolver();
	const sorted: Sorted = { written: [], added: [], removed: [] };
	for (const path of paths) {
		if (path === '' || path.split('/')[0] === source.configDir) return null;
		const listed = resolver.hasFile(path);
		const stat = lstatOf(join(source.vaultPath, path));
		if (stat === undefined) return null;
		if (stat === null) {
			if (listed) sorted.removed.push(path);
			// Never listed and gone (an editor's temporary file): nothing changed, unless it was a folder or a walk entry.
			else if (source.walkSkipped(path) || source.walkSkipped(`${path}/`) || source.hasFilesUnder(path))
				return null;
			continue;
		}
		if (!stat.isFile()) return null; // A folder, a symbolic link, a FIFO: the walk decides.
		if (listed) {
			if (isNotePath(path)) {
				const before = previous.fingerprints.get(path);
				if (before === undefined || before.size < 0) return null; // Not stat'ed last time: the full open reports it.
				sorted.written.push(path);
			}
			continue; // A written attachment changes no answer.
		}
		const lists = walkLists(source, previous.key, path, maxDepth);
		if (lists === null) return null;
		if (lists) sorted.added.push(path);
	}
	return sorted;
}

/** `files` (walk order) without `removed` and with `added` put in their places. */
function placeFiles(files: readonly string[], added: readonly string[], removed: readonly string[]): string[] {
	const gone = new Set(removed);
	const out = gone.size === 0 ? [...files] : files.filter((path) => !gone.has(path));
	for (const path of [...added].sort(walkOrder)) {
		let lo = 0;
		let hi = out.length;
		while (lo < hi) {
			const mid = (lo + hi) >> 1;
			if (walkOrder(out[mid]!, path) < 0) lo = mid + 1;
			else hi = mid;
		}
		out.splice(lo, 0, path);
	}
	return out;
}

/**
 * `previous` with the changes at `changed` applied, or null when they are not only changes to
 * plain files (see the module comment). Throws `VaultError` when the notes now hold more text than
 * the bound, as a full open would.
 */
export function patchCachedVault(
	previous: CachedVault,
	changed: readonly string[],
	options: OpenVaultOptions = {},
): CachedVault | null {
	const started = performance.now();
	const { source } = previous;
	const paths = [...new Set(changed)];
	if (paths.length === 0) return null;
	const sorted = sortChanges(previous, paths, options.maxDepth ?? DEFAULT_WALK_BOUNDS.maxDepth);
	if (sorted === null) return null;
	const { written, added, removed } = sorted;
	const files = source.listFiles();
	const relisted = added.length > 0 || removed.length > 0;
	if (relisted && files.length + added.length - removed.length > (options.maxFiles ?? DEFAULT_WALK_BOUNDS.maxFiles))
		return null; // The full walk stops with the bound's error.
	const maxFileSize = options.maxFileSize ?? DEFAULT_MAX_FILE_SIZE;
	const parse = options.parse ?? parseNote;
	const window = racyWindow();
	const scratch = new ScratchBuffer();
	const clock = { parseMs: 0 };
	const records = new Map<string, NoteRecord>();
	const stamped = new Map<string, NoteFingerprint>();
	const removedNotes = removed.filter(isNotePath);
	let markdownBytes = previous.report.markdownBytes;
	for (const path of removedNotes) markdownBytes -= Math.max(0, previous.fingerprints.get(path)?.size ?? 0);
	for (const path of [...written, ...added.filter(isNotePath)]) {
		const seen: { fp: NoteFingerprint | null } = { fp: null };
		const outcome = readNoteSync(
			join(source.vaultPath, path),
			maxFileSize,
			scratch,
			(s) => (seen.fp = fingerprintFrom(s, Date.now(), window)),
		);
		if (seen.fp === null) return null; // Gone between the check and the read: the full open reports it.
		const before = written.includes(path) ? (previous.fingerprints.get(path)?.size ?? 0) : 0;
		markdownBytes += seen.fp.size - Math.max(0, before);
		stamped.set(path, seen.fp);
		records.set(path, toRecord(outcome, parse, clock));
	}
	const fingerprints = LayeredMap.over(previous.fingerprints, stamped, removedNotes);
	const limit = options.maxTotalBytes ?? DEFAULT_MAX_TOTAL_BYTES;
	if (markdownBytes > limit && readableBytes(fingerprints, maxFileSize) > limit)
		throw tooMuchText(source.vaultPath, limit);

	const notes = source.listNotes();
	let listing: { files: string[]; notes: string[]; resolver: LinkResolver } | undefined;
	if (relisted) {
		const nextFiles = placeFiles(files, added, removed);
		const lost = notes.slice(files.filter(isNotePath).length); // Walk entries listed after the notes (vault-files.ts).
		listing = {
			files: nextFiles,
			notes: [...nextFiles.filter(isNotePath), ...lost],
			resolver: source.linkResolver().withChanges(added, removed),
		};
		// The lost entries stay last, in their order; notes are in walk order before them.
		const last = new Set(lost);
		const order = (a: string, b: string): number => Number(last.has(a)) - Number(last.has(b)) || walkOrder(a, b);
		carryNoteNames(notes, listing.notes, added.filter(isNotePath), removedNotes, order);
	}
	const next = source.edited(records, fingerprints, listing && { ...listing, removed: removedNotes });
	// Links to resolve again: the notes read now, and those whose links a created or gone file's name can move.
	const relink = relisted
		? notesToRelink(source.linkMaps, (name) => source.linkResolver().filesNamed(name), [...added, ...removed])
		: new Set<string>();
	for (const path of removedNotes) relink.delete(path);
	const parsed: [string, CachedMetadata][] = [];
	for (const [path, record] of records) if (record.metadata !== null) parsed.push([path, record.metadata]);
	for (const path of relink) {
		if (records.has(path)) continue;
		const metadata = next.getMetadata(path);
		if (metadata !== null) parsed.push([path, metadata]);
	}
	const built = buildLinkMaps(parsed, next.linkResolver());
	const updates = new Map<string, LinkEntry | null>();
	for (const path of removedNotes) updates.set(path, null);
	for (const [path] of records) updates.set(path, null);
	for (const [path] of parsed)
		updates.set(path, { resolved: built.resolvedLinks[path] ?? {}, unresolved: built.unresolvedLinks[path] ?? {} });
	next.useLinks(source.linkMaps.withChanges(updates, next.listNotes(), added));
	const report = {
		...previous.report,
		state: 'refreshed' as const,
		rebuildReason: null,
		reread: records.size,
		removed: removedNotes.length,
		savedBytes: 0,
		saveError: null,
		notes: relisted
			? previous.report.notes + added.filter(isNotePath).length - removedNotes.length
			: previous.report.notes,
		markdownBytes,
		ms: performance.now() - started,
	};
	return {
		...previous,
		source: next,
		report,
		changed: [...records.keys(), ...removedNotes],
		fingerprints,
		saveLater: null,
	};
}
