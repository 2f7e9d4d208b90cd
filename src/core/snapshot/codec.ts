/**
 * The snapshot codec: a vault's indexed state ⇄ bytes, with a format version, a settings
 * fingerprint and a per-note fingerprint so a later call can tell what is still valid.
 *
 * Layout (little-endian): magic `VQSN`, format version u32, checksum u32 of the body, body length
 * u32, then the body: header length u32, header JSON, padding to 8, sections. The header lists each
 * section's offset and length. Sections are 8-byte aligned so numeric columns are viewed in place:
 * - `files`: JSON array of every vault file (notes and attachments), walk order.
 * - `notes`: Float64 columns, NOTE_COLUMNS per note: file index, size, mtime, ctime, inode, flags.
 * - `noteErrors`: JSON `[[note, frontmatterError, skipReason], …]` for notes that have either.
 * - `noteRanges` + `ranges`: per note, a range of (field code, start, end, check) quadruples
 *   into the `meta` bytes (`metadata-codec.ts`); its flags say whether it was indexed.
 * - `resolvedIndex` + `resolved`: per note, a range of (file index, count) pairs.
 * - `unresolved`: JSON `[[note, {linkpath: count}], …]` for notes with unresolved links.
 * - `keyNames` + `keyIndex` + `keyIds`: each note's own frontmatter keys, and `tagNames` +
 *   `tagIndex` + `tagIds` its `getAllTags`, as dictionary-coded lists (`string-lists.ts`): `prop`,
 *   `tag` and the `links:` check of backlinks read them instead of any note's frontmatter.
 * - any extra section a caller adds, as opaque bytes.
 * - `meta` and `metaCold`, last: every note's fields as UTF-8 JSON pieces, the small ones every
 *   structural query may read for all notes (frontmatter, its links, tags: ~0.8 MB on a 6k-note
 *   vault) in `meta`, the bulk (body links, embeds, headings: ~14 MB) in `metaCold`. The body's
 *   checksum stops before them (header `checkedTo`): each piece has its own check, verified when
 *   a query reads that field, so a warm call reads and hashes the ~2 MB of columns it needs. A piece that fails its check is taken from the note on disk instead (its fingerprint
 *   matched) and the snapshot is saved again: damage costs a re-parse, never a wrong answer.
 * Notes without metadata (skipped) have an empty meta range and no link-map entry.
 * A reader reads the checked part at once, `meta` whole when first needed and `metaCold` field
 * by field (`decoded-snapshot.ts`).
 */
import type { CachedMetadata } from '../metadata';
import { getAllTags } from '../obsidian-rules';
import { ByteWriter, bytesOf, concatBytes, fieldCheck, frameChunks, U32Builder } from './bytes';
import {
	CarriedNote,
	EncodedMetadata,
	FLAG_INDEXED,
	FLAG_RACY,
	MAGIC,
	NOTE_COLUMNS,
	SNAPSHOT_FORMAT_VERSION,
	SnapshotFormatError,
	type SnapshotInput,
} from './codec-format';
import { encodeMetadata, isHot, RANGE_WIDTH } from './metadata-codec';
import type { CodecHost } from './port';
import { StringListsWriter } from './string-lists';

export {
	CarriedNote,
	EncodedMetadata,
	SNAPSHOT_FORMAT_VERSION,
	SnapshotFormatError,
	setOwn,
	type CarriedHeaps,
	type NoteFingerprint,
	type SnapshotHeader,
	type SnapshotInput,
	type SnapshotNote,
} from './codec-format';
export {
	DecodedSnapshot,
	decodeSnapshot,
	decodeSnapshotFrom,
	memoryReader,
	peekSnapshotHeader,
} from './decoded-snapshot';

/** A note's own frontmatter keys. */
function keysOf(metadata: CachedMetadata): string[] {
	const fm: unknown = metadata.frontmatter;
	return fm !== null && typeof fm === 'object' ? Object.keys(fm) : [];
}

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** Encode a vault's state as one array. */
export function encodeSnapshot(input: SnapshotInput, utf8: CodecHost): Uint8Array {
	return concatBytes(encodeSnapshotChunks(input, utf8));
}

/** Encode a vault's state as chunks to write one after another (see `frameChunks`). */
export function encodeSnapshotChunks(input: SnapshotInput, utf8: CodecHost): Uint8Array[] {
	if (!LITTLE_ENDIAN) throw new SnapshotFormatError('big-endian hosts are not supported');
	const fileIndex = new Map<string, number>();
	input.files.forEach((f, i) => fileIndex.set(f, i));
	const n = input.notes.length;
	const columns = new Float64Array(n * NOTE_COLUMNS);
	const errors: [number, string | null, string | null][] = [];
	const noteRanges = new Uint32Array(n + 1);
	const ranges = new U32Builder(n * 32);
	const carry = input.carry;
	// Appended after the carried heaps, if any: offsets count from the start of the whole heap.
	const hotBase = carry?.hot.length ?? 0;
	const coldBase = carry?.cold.length ?? 0;
	const fresh = input.notes.reduce((k, note) => k + (note.metadata instanceof CarriedNote ? 0 : 1), 0);
	// Sized from the Markdown being encoded (the heaps come to ~5 % and ~47 % of it on i18n and at
	// 50k), so a full build does not grow and copy a 100 MB buffer on the way.
	const markdown = n > 0 ? (input.header.markdownBytes * fresh) / n : 0;
	const meta = new ByteWriter(Math.max(fresh * 128, Math.ceil(markdown * 0.06)));
	const cold = new ByteWriter(Math.max(fresh * 1024, Math.ceil(markdown * 0.5)));
	const put = (code: number, json: string): void => {
		const hot = isHot(code);
		const heap = hot ? meta : cold;
		const start = heap.length;
		heap.text(json, utf8);
		const base = hot ? hotBase : coldBase;
		ranges.push(code, base + start, base + heap.length, fieldCheck(heap.peek(), start, heap.length));
	};
	const resolvedIndex = new Uint32Array(n + 1);
	const pairs = new U32Builder(n * 16);
	const unresolved: [number, Record<string, number>][] = [];
	const keys = new StringListsWriter(n);
	const tags = new StringListsWriter(n);
	input.notes.forEach((note, i) => {
		const file = fileIndex.get(note.path);
		if (file === undefined) throw new SnapshotFormatError(`note not among the files: ${note.path}`);
		const fp = note.fingerprint;
		const at = i * NOTE_COLUMNS;
		columns[at] = file;
		columns[at + 1] = fp.size;
		columns[at + 2] = fp.mtimeMs;
		columns[at + 3] = fp.ctimeMs;
		columns[at + 4] = fp.ino;
		columns[at + 5] = (fp.racy ? FLAG_RACY : 0) | (note.metadata !== null ? FLAG_INDEXED : 0);
		if (note.frontmatterError !== null || note.skipReason !== null)
			errors.push([i, note.frontmatterError, note.skipReason]);
		if (note.metadata !== null) {
			if (note.metadata instanceof CarriedNote) {
				if (!carry) throw new SnapshotFormatError('a carried note without carried heaps');
				ranges.append(carry.ranges(note.metadata.index));
				keys.add(carry.keys(note.metadata.index));
				tags.add(carry.tags(note.metadata.index));
			} else if (note.metadata instanceof EncodedMetadata) {
				const kept = note.metadata;
				const hotAt = hotBase + meta.length;
				const coldAt = coldBase + cold.length;
				meta.bytes(kept.hot);
				cold.bytes(kept.cold);
				for (let r = 0; r < kept.ranges.length; r += RANGE_WIDTH) {
					const base = isHot(kept.ranges[r]!) ? hotAt : coldAt;
					ranges.push(
						kept.ranges[r]!,
						kept.ranges[r + 1]! + base,
						kept.ranges[r + 2]! + base,
						kept.ranges[r + 3],
					);
				}
				keys.add(kept.keys);
				tags.add(kept.tags);
			} else {
				encodeMetadata(note.metadata, put);
				keys.add(keysOf(note.metadata));
				tags.add(getAllTags(note.metadata));
			}
			if (note.resolvedPairs) {
				pairs.append(note.resolvedPairs);
			} else {
				for (const [dest, count] of Object.entries(input.resolvedLinks[note.path] ?? {})) {
					const d = fileIndex.get(dest);
					if (d === undefined) throw new SnapshotFormatError(`link destination not among the files: ${dest}`);
					pairs.push(d, count);
				}
			}
			const misses = note.unresolved ?? input.unresolvedLinks[note.path];
			if (misses && Object.keys(misses).length > 0) unresolved.push([i, misses]);
		} else {
			keys.add([]);
			tags.add([]);
		}
		noteRanges[i + 1] = ranges.length / RANGE_WIDTH;
		resolvedIndex[i + 1] = pairs.length / 2;
	});
	const sections: [string, Uint8Array][] = [
		['files', utf8.encode(JSON.stringify(input.files))],
		['notes', bytesOf(columns)],
		['noteErrors', utf8.encode(JSON.stringify(errors))],
		['noteRanges', bytesOf(noteRanges)],
		['ranges', bytesOf(ranges.finish())],
		['resolvedIndex', bytesOf(resolvedIndex)],
		['resolved', bytesOf(pairs.finish())],
		['unresolved', utf8.encode(JSON.stringify(unresolved))],
		...listSections('key', keys, utf8),
		...listSections('tag', tags, utf8),
		...Object.entries(input.extra ?? {}),
	];
	const hot = carry ? [carry.hot, meta.finish()] : [meta.finish()];
	const coldHeap = carry ? [carry.cold, cold.finish()] : [cold.finish()];
	const heapBytes = hotBase + meta.length + coldBase + cold.length;
	let live = 0;
	const all = ranges.finish();
	for (let r = 0; r < all.length; r += RANGE_WIDTH) live += Math.max(0, all[r + 2]! - all[r + 1]!);
	const header = { ...input.header, notes: n, files: input.files.length, heapBytes, garbageBytes: heapBytes - live };
	return frameChunks(
		MAGIC,
		SNAPSHOT_FORMAT_VERSION,
		header,
		[...sections, ['meta', hot], ['metaCold', coldHeap]],
		utf8,
		2,
	);
}

/** The three sections of a set of per-note lists. */
function listSections(kind: string, writer: StringListsWriter, utf8: CodecHost): [string, Uint8Array][] {
	const { names, index, ids } = writer.finish();
	return [
		[`${kind}Names`, utf8.encode(names)],
		[`${kind}Index`, index],
		[`${kind}Ids`, ids],
	];
}
