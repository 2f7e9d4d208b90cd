/**
 * A saved index part (the ranked-search index, the trigram index): kept in its own file beside the
 * vault's snapshot, so a structural query never reads it and each part is saved when it changes.
 * A part says which note versions it was built from — every note's path and fingerprint — so a
 * later call re-indexes exactly the notes that changed since, whatever other calls did meanwhile.
 *
 * Layout (little-endian): magic `VQSP`, format version u32, checksum u32 of the body, body length
 * u32; the body: header length u32, header JSON (kind, tool, settings, section table), padding to
 * 8, then 8-byte-aligned sections: `paths` (JSON), `stamps` (Float64, STAMP_COLUMNS per note) and
 * the part's own sections.
 */
import { bytesOf, checksum, frame } from './bytes';
import { SnapshotFormatError, type NoteFingerprint } from './codec';
import type { CodecHost } from './port';

/** Bumped whenever the layout of a part changes; other versions are ignored. */
export const PART_FORMAT_VERSION = 1;
const MAGIC = 0x50535156; // 'VQSP' read as a little-endian u32
const STAMP_COLUMNS = 5;

/** What a part holds, as the encoder takes it. */
export interface PartInput {
	/** `search` or `trigrams`. */
	kind: string;
	/** The tool's version and build. */
	tool: string;
	/** Everything that shapes the part (its settings), as one comparable string. */
	settings: string;
	/** The notes (every note of the vault) and the fingerprints the part reflects. */
	stamps: ReadonlyMap<string, NoteFingerprint>;
	/** The part's own sections. */
	sections: Record<string, Uint8Array>;
}

interface PartHeader {
	kind: string;
	tool: string;
	settings: string;
	sections: Record<string, [number, number]>;
}

/** Encode a part. */
export function encodePart(input: PartInput, utf8: CodecHost): Uint8Array {
	const paths = [...input.stamps.keys()];
	const stamps = new Float64Array(paths.length * STAMP_COLUMNS);
	paths.forEach((path, i) => {
		const fp = input.stamps.get(path)!;
		stamps.set([fp.size, fp.mtimeMs, fp.ctimeMs, fp.ino, fp.racy ? 1 : 0], i * STAMP_COLUMNS);
	});
	const sections: [string, Uint8Array][] = [['paths', utf8.encode(JSON.stringify(paths))], ['stamps', bytesOf(stamps)], ...Object.entries(input.sections)];
	return frame(MAGIC, PART_FORMAT_VERSION, { kind: input.kind, tool: input.tool, settings: input.settings }, sections, utf8);
}

/** A decoded part: sections are views into the bytes. */
export class DecodedPart {
	/** `search` or `trigrams`. */
	readonly kind: string;
	/** The build that saved it. */
	readonly tool: string;
	/** The settings it was built with. */
	readonly settings: string;
	/** The notes it reflects (index = note number). */
	readonly paths: string[];
	private readonly stamps: Float64Array;

	/** Use `decodePart`. */
	constructor(
		private readonly body: Uint8Array,
		private readonly table: Record<string, [number, number]>,
		header: PartHeader,
		utf8: CodecHost,
	) {
		this.kind = header.kind;
		this.tool = header.tool;
		this.settings = header.settings;
		const paths = this.section('paths');
		this.paths = JSON.parse(utf8.decode(paths, 0, paths.length)) as string[];
		const stamps = this.section('stamps');
		this.stamps = new Float64Array(stamps.buffer, stamps.byteOffset, stamps.length / 8);
		if (!Array.isArray(this.paths) || this.stamps.length !== this.paths.length * STAMP_COLUMNS) throw new SnapshotFormatError('part: stamps do not match the paths');
	}

	/** The fingerprint note `i` had when the part was built. */
	fingerprint(i: number): NoteFingerprint {
		const c = this.stamps.subarray(i * STAMP_COLUMNS, (i + 1) * STAMP_COLUMNS);
		return { size: c[0], mtimeMs: c[1], ctimeMs: c[2], ino: c[3], racy: c[4] === 1 };
	}

	/** A section's bytes; throws SnapshotFormatError when absent. */
	section(name: string): Uint8Array {
		const where = this.table[name];
		if (!where) throw new SnapshotFormatError(`part: missing section ${name}`);
		return this.body.subarray(where[0], where[0] + where[1]);
	}
}

/** Decode and verify a part; throws SnapshotFormatError for anything unusable. */
export function decodePart(bytes: Uint8Array, utf8: CodecHost): DecodedPart {
	const aligned = bytes.byteOffset % 8 === 0 ? bytes : bytes.slice();
	if (aligned.length < 16) throw new SnapshotFormatError('part: truncated (no preamble)');
	const view = new DataView(aligned.buffer, aligned.byteOffset, aligned.byteLength);
	if (view.getUint32(0, true) !== MAGIC) throw new SnapshotFormatError('not a vault-query index part');
	const version = view.getUint32(4, true);
	if (version !== PART_FORMAT_VERSION) throw new SnapshotFormatError(`part format version ${version}, this build reads ${PART_FORMAT_VERSION}`);
	if (aligned.length !== 16 + view.getUint32(12, true)) throw new SnapshotFormatError('part: truncated or padded');
	const body = aligned.subarray(16);
	if ((utf8.checksum ?? checksum)(body) !== view.getUint32(8, true)) throw new SnapshotFormatError('part: checksum mismatch (damaged)');
	try {
		const headerLength = new DataView(body.buffer, body.byteOffset, body.byteLength).getUint32(0, true);
		if (4 + headerLength > body.length) throw new SnapshotFormatError('part: truncated header');
		const header = JSON.parse(utf8.decode(body, 4, 4 + headerLength)) as PartHeader;
		const base = Math.ceil((4 + headerLength) / 8) * 8;
		const table: Record<string, [number, number]> = {};
		for (const [name, [o, l]] of Object.entries(header.sections)) {
			if (base + o + l > body.length) throw new SnapshotFormatError('part: section out of bounds');
			table[name] = [base + o, l];
		}
		return new DecodedPart(body, table, header, utf8);
	} catch (error) {
		if (error instanceof SnapshotFormatError) throw error;
		throw new SnapshotFormatError(`part unreadable (${error instanceof Error ? error.message : String(error)})`);
	}
}
