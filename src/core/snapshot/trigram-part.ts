/**
 * The trigram index ⇄ the sections of its saved part (part-codec.ts): paths as JSON, keys and
 * posting offsets as typed arrays viewed in place, postings as varints decoded per key when a
 * query asks — so loading the part costs the paths, not the postings. Where the part's bytes are
 * read in place (a file), the postings are read from it a key's range at a time and never held.
 */
import { TrigramIndex, type PostingReader } from '../text/trigram';
import type { SectionBytes, SectionSource } from './part-codec';
import { bytesOf } from './bytes';
import type { CodecHost } from './port';
import { SnapshotFormatError } from './codec';

/** The sections of a trigram index's part. */
export function trigramSections(index: TrigramIndex, utf8: CodecHost): Record<string, SectionBytes> {
	const c = index.columns();
	return {
		trigramPaths: utf8.encode(JSON.stringify(c.paths)),
		trigramKeys: bytesOf(c.keys),
		trigramStarts: bytesOf(c.starts),
		trigramPostings: c.postings instanceof Uint8Array ? c.postings : copiedFrom(c.postings),
	};
}

/** A section made from postings read where they were saved (a save of a loaded index left as it was). */
function copiedFrom(postings: PostingReader): SectionSource {
	return {
		length: postings.length,
		fill: (into, from) => into.set(postings.read(from, from + into.length)),
	};
}

/**
 * The index a part's sections hold; throws SnapshotFormatError or TrigramFormatError when they are
 * unusable. `ranges`, when given, reads the postings a range at a time instead of whole.
 */
export function restoreTrigrams(
	section: (name: string) => Uint8Array,
	utf8: CodecHost,
	ranges?: (name: string) => PostingReader,
): TrigramIndex {
	const paths = section('trigramPaths');
	const keys = section('trigramKeys');
	const starts = section('trigramStarts');
	if (keys.length % 4 !== 0 || starts.length % 4 !== 0)
		throw new SnapshotFormatError('trigram part: a column is not whole');
	return TrigramIndex.fromColumns({
		paths: JSON.parse(utf8.decode(paths, 0, paths.length)) as string[],
		keys: new Int32Array(keys.buffer, keys.byteOffset, keys.length / 4),
		starts: new Uint32Array(starts.buffer, starts.byteOffset, starts.length / 4),
		postings: ranges ? ranges('trigramPostings') : section('trigramPostings'),
	});
}
