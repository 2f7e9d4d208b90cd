/**
 * The ranked-search index ⇄ the sections of its saved part (part-codec.ts): the term dictionary
 * and note records as JSON, the postings and field lengths as typed arrays viewed in place when
 * read back. Side notes (keyword index, synonyms) are not saved: they are read fresh each time.
 */
import type { SkippedFile } from '../contract';
import type { DocInfo } from '../search/extract';
import type { InvertedIndexState } from '../search/index-state';
import { SearchIndex } from '../search/search-index';
import type { SearchSettings } from '../search/settings';
import { bytesOf } from './bytes';
import { SnapshotFormatError } from './codec';
import { hasLossyNumber, tagNumbers, untag } from './metadata-codec';
import type { CodecHost } from './port';

/** Bumped when what the search part holds changes meaning. */
export const SEARCH_PART_VERSION = 2; // 2: image embeds' file names no longer indexed as body words

interface SearchMeta {
	terms: string[];
	docs: DocInfo[];
	/** Notes whose frontmatter holds numbers JSON cannot carry (tagged, see metadata-codec). */
	lossy: number[];
	skipped: SkippedFile[];
	exclusions: string[];
}

/** The sections of a built index's part. */
export function searchSections(si: SearchIndex, utf8: CodecHost): Record<string, Uint8Array> {
	const state = si.index.exportState();
	const lossy: number[] = [];
	const docs = state.docs.map((info, d) => {
		if (!hasLossyNumber(info.frontmatter)) return info;
		lossy.push(d);
		return { ...info, frontmatter: tagNumbers(info.frontmatter) as DocInfo['frontmatter'] };
	});
	const meta: SearchMeta = { terms: state.termList, docs, lossy, skipped: si.skipped, exclusions: si.exclusions };
	return {
		searchMeta: utf8.encode(JSON.stringify(meta)),
		termStart: bytesOf(state.termStart),
		postDocs: bytesOf(state.postDocs),
		postTfs: bytesOf(state.postTfs),
		fieldLen: bytesOf(state.fieldLen),
	};
}

/** A Uint32Array over a section's bytes (8-byte aligned by the part codec, so no copy). */
function u32(bytes: Uint8Array): Uint32Array {
	if (bytes.length % 4 !== 0) throw new SnapshotFormatError('search part: a column is not whole');
	return new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4);
}

/** The index a part's sections describe, checked for consistency; throws SnapshotFormatError when they do not fit together. */
export function restoreSearchIndex(section: (name: string) => Uint8Array, settings: SearchSettings, utf8: CodecHost): SearchIndex {
	const metaBytes = section('searchMeta');
	const meta = JSON.parse(utf8.decode(metaBytes, 0, metaBytes.length)) as SearchMeta;
	for (const d of meta.lossy) meta.docs[d] = { ...meta.docs[d], frontmatter: untag(meta.docs[d].frontmatter) as DocInfo['frontmatter'] };
	const state: InvertedIndexState = { termList: meta.terms, docs: meta.docs, termStart: u32(section('termStart')), postDocs: u32(section('postDocs')), postTfs: u32(section('postTfs')), fieldLen: u32(section('fieldLen')) };
	const n = state.docs.length;
	const last = state.termStart[state.termStart.length - 1];
	if (state.termStart.length !== state.termList.length + 1 || last !== state.postDocs.length || state.postTfs.length !== last || state.fieldLen.length !== n * 6) {
		throw new SnapshotFormatError('search part: columns do not fit together');
	}
	for (let i = 0; i < state.postDocs.length; i++) if (state.postDocs[i] >= n) throw new SnapshotFormatError('search part: a posting names no note');
	const si = new SearchIndex(settings, state);
	si.skipped.push(...meta.skipped);
	si.exclusions.push(...meta.exclusions);
	return si;
}
