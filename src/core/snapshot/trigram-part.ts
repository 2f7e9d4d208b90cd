/**
 * The trigram index ⇄ the sections of its saved part (part-codec.ts): paths as JSON, keys and
 * posting offsets as typed arrays viewed in place, postings as varints decoded per key when a
 * query asks — so loading the part costs the paths, not the postings.
 */
import { TrigramIndex } from '../text/trigram';
import { bytesOf } from './bytes';
import type { CodecHost } from './port';
import { SnapshotFormatError } from './codec';

/** The sections of a trigram index's part. */
export function trigramSections(index: TrigramIndex, utf8: CodecHost): Record<string, Uint8Array> {
	const c = index.columns();
	return {
		trigramPaths: utf8.encode(JSON.stringify(c.paths)),
		trigramKeys: bytesOf(c.keys),
		trigramStarts: bytesOf(c.starts),
		trigramPostings: c.postings,
	};
}

/** The index a part's sections hold; throws SnapshotFormatError or TrigramFormatError when they are unusable. */
export function restoreTrigrams(section: (name: string) => Uint8Array, utf8: CodecHost): TrigramIndex {
	const paths = section('trigramPaths');
	const keys = section('trigramKeys');
	const starts = section('trigramStarts');
	if (keys.length % 4 !== 0 || starts.length % 4 !== 0)
		throw new SnapshotFormatError('trigram part: a column is not whole');
	return TrigramIndex.fromColumns({
		paths: JSON.parse(utf8.decode(paths, 0, paths.length)) as string[],
		keys: new Int32Array(keys.buffer, keys.byteOffset, keys.length / 4),
		starts: new Uint32Array(starts.buffer, starts.byteOffset, starts.length / 4),
		postings: section('trigramPostings'),
	});
}
