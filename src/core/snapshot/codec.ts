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
import { concatBytes } from './bytes';
import { CarriedNote, SnapshotFormatError, type SnapshotInput } from './codec-format';
import { SnapshotEncoder } from './encoder';
import type { CodecHost } from './port';

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

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** Encode a vault's state as one array. */
export function encodeSnapshot(input: SnapshotInput, utf8: CodecHost): Uint8Array {
	return concatBytes(encodeSnapshotChunks(input, utf8));
}

/** Encode a vault's state as chunks to write one after another (see `frameChunks`). */
export function encodeSnapshotChunks(input: SnapshotInput, utf8: CodecHost): Uint8Array[] {
	if (!LITTLE_ENDIAN) throw new SnapshotFormatError('big-endian hosts are not supported');
	const n = input.notes.length;
	const fresh = input.notes.reduce((k, note) => k + (note.metadata instanceof CarriedNote ? 0 : 1), 0);
	// Sized from the Markdown being encoded, so a full build does not grow its heaps on the way.
	const freshMarkdown = n > 0 ? (input.header.markdownBytes * fresh) / n : 0;
	const encoder = new SnapshotEncoder({ files: input.files, notes: n, freshMarkdown, carry: input.carry }, utf8);
	for (const note of input.notes)
		encoder.add(note, { resolved: input.resolvedLinks[note.path], unresolved: input.unresolvedLinks[note.path] });
	return encoder.finish(input.header, input.extra);
}
