/**
 * A watching process's refresh when the watcher reported only writes to notes the vault already
 * lists (the common case: an agent or an editor saving a note). The file list is then unchanged,
 * so nothing else needs the walk, the snapshot's columns or a new resolver: the written notes are
 * read and parsed, their links resolved with the previous resolver, and everything else carries
 * over from the previous open. Any other change (a file created, deleted or renamed, a folder, a
 * config file, a symlink) is not patched: the caller opens the vault again in full.
 */
import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import { positionsIn } from '../../core/scope';
import type { NoteFingerprint } from '../../core/snapshot/codec';
import { buildLinkMaps } from '../link-maps';
import { DEFAULT_MAX_FILE_SIZE, readNoteSync, ScratchBuffer } from '../note-reader';
import { parseNote } from '../parser/index';
import {
	DEFAULT_MAX_TOTAL_BYTES,
	toRecord,
	tooMuchText,
	type NoteRecord,
	type OpenVaultOptions,
} from '../vault-source';
import { LayeredMap } from './layered-map';
import type { LinkEntry } from './link-view';
import { fingerprintFrom, racyWindow } from './fingerprints';
import type { CachedVault } from './open-cached';

/** The bytes of notes no larger than `maxFileSize` (those counted against the total bound, as a full open counts them). */
function readableBytes(
	before: ReadonlyMap<string, NoteFingerprint>,
	edited: ReadonlyMap<string, NoteFingerprint>,
	maxFileSize: number,
): number {
	let total = 0;
	for (const [path, fp] of before) {
		const now = edited.get(path) ?? fp;
		if (now.size > 0 && now.size <= maxFileSize) total += now.size;
	}
	return total;
}

/**
 * `previous` with the notes at `changed` read again, or null when the change is not only writes to
 * listed notes (see the module comment). Throws `VaultError` when the notes now hold more text than
 * the bound, as a full open would.
 */
export function patchCachedVault(
	previous: CachedVault,
	changed: readonly string[],
	options: OpenVaultOptions = {},
): CachedVault | null {
	const started = performance.now();
	const { source } = previous;
	const notes = source.listNotes();
	const listed = positionsIn(notes); // Made once per list: every patch of one file list shares it.
	const paths = [...new Set(changed)];
	if (paths.length === 0) return null;
	// A path that is new, or was not stat'ed last time (a walk entry not read as a note), or is no
	// longer a plain file changes the file list or the walk's skip list: not a patch.
	for (const path of paths) {
		const before = previous.fingerprints.get(path);
		if (!listed.has(path) || before === undefined || before.size < 0) return null;
		try {
			if (!lstatSync(join(source.vaultPath, path)).isFile()) return null;
		} catch {
			return null;
		}
	}
	const maxFileSize = options.maxFileSize ?? DEFAULT_MAX_FILE_SIZE;
	const parse = options.parse ?? parseNote;
	const window = racyWindow();
	const scratch = new ScratchBuffer();
	const clock = { parseMs: 0 };
	const records = new Map<string, NoteRecord>();
	const edited = new Map<string, NoteFingerprint>();
	let markdownBytes = previous.report.markdownBytes;
	for (const path of paths) {
		const seen: { fp: NoteFingerprint | null } = { fp: null };
		const outcome = readNoteSync(
			join(source.vaultPath, path),
			maxFileSize,
			scratch,
			(s) => (seen.fp = fingerprintFrom(s, Date.now(), window)),
		);
		if (seen.fp === null) return null; // Gone between the check and the read: the full open reports it.
		markdownBytes += seen.fp.size - Math.max(0, previous.fingerprints.get(path)?.size ?? 0);
		edited.set(path, seen.fp);
		records.set(path, toRecord(outcome, parse, clock));
	}
	const limit = options.maxTotalBytes ?? DEFAULT_MAX_TOTAL_BYTES;
	if (markdownBytes > limit && readableBytes(previous.fingerprints, edited, maxFileSize) > limit)
		throw tooMuchText(source.vaultPath, limit);
	const fingerprints = LayeredMap.over(previous.fingerprints, edited);

	const next = source.edited(records, fingerprints);
	const parsed = [...records].flatMap(([path, record]) =>
		record.metadata !== null ? [[path, record.metadata] as const] : [],
	);
	const built = buildLinkMaps(parsed, next.linkResolver());
	const updates = new Map<string, LinkEntry | null>();
	for (const [path, record] of records)
		updates.set(
			path,
			record.metadata === null
				? null
				: { resolved: built.resolvedLinks[path], unresolved: built.unresolvedLinks[path] },
		);
	next.useLinks(source.linkMaps.withEntries(updates, notes));
	const report = {
		...previous.report,
		state: 'refreshed' as const,
		rebuildReason: null,
		reread: records.size,
		removed: 0,
		savedBytes: 0,
		saveError: null,
		markdownBytes,
		ms: performance.now() - started,
	};
	return { ...previous, source: next, report, changed: [...records.keys()], fingerprints, saveLater: null };
}
