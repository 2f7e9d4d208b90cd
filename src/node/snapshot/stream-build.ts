/**
 * A build from scratch that holds no note: every note is encoded into the snapshot as soon as it
 * is parsed (its links resolved against the walk's file list, which is all resolution needs), the
 * snapshot is saved, and the vault is opened through it. Holding every note's parsed metadata
 * until the save was ~0.9 GB of heap at 50k notes; this way a note's parsed objects die young and
 * the read holds the encoded bytes (about half the Markdown) and a few columns.
 */
import type { NoteFingerprint, SnapshotInput } from '../../core/snapshot/codec';
import { SnapshotEncoder, type NoteLinks } from '../../core/snapshot/encoder';
import type { SnapshotStore } from '../../core/snapshot/port';
import type { NoteFeed } from '../../core/search/fed-notes';
import { buildLinkMaps } from '../link-maps';
import { LinkResolver } from '../resolver';
import { nodeCodecHost } from './codec-host';
import { knownFingerprint, ownStrings, readEveryNote, type Reading } from './read-notes';

/** What a streamed build starts from: the walk's lists, the reading set up for them, and where to save. */
export interface StreamedBuildInput {
	reading: Reading;
	/** Every file of the walk (link destinations), in walk order. */
	files: readonly string[];
	store: SnapshotStore;
	/** The snapshot's header but its Markdown size, which the read finds out. */
	header: Omit<SnapshotInput['header'], 'markdownBytes' | 'savedAt'>;
	now: () => number;
	/** Also handed each note as read (its text and parse): the servers' search index is built in the same pass (core/search/fed-notes.ts). */
	feed?: NoteFeed;
}

/** What the read found and what the save did. */
export interface StreamedBuild {
	/** Every note's fingerprint (one that could not be stat'ed never matches). */
	fingerprints: Map<string, NoteFingerprint>;
	markdownBytes: number;
	savedBytes: number;
	/** Why saving failed, or null. */
	saveError: string | null;
	/** Notes handed to the encoder (every note read, in order). */
	encoded: number;
}

/** Reads every note of `input.reading`, encoding each as it is parsed, then saves the snapshot (a failed save is reported, never thrown). */
export async function streamedBuild(input: StreamedBuildInput): Promise<StreamedBuild> {
	const { reading, files, store } = input;
	const resolver = new LinkResolver(files);
	const encoder = new SnapshotEncoder({ files, notes: reading.notes.length }, nodeCodecHost);
	reading.sink = (path, record, fp) => {
		const { metadata } = record;
		let links: NoteLinks = {};
		if (metadata !== null) {
			const maps = buildLinkMaps([[path, metadata]], resolver);
			links = { resolved: maps.resolvedLinks[path], unresolved: maps.unresolvedLinks[path] };
		}
		encoder.add(
			{
				path,
				fingerprint: knownFingerprint(fp),
				metadata,
				frontmatterError: record.frontmatterError,
				skipReason: record.skipReason,
			},
			links,
		);
		if (input.feed) {
			// Its strings copied out of the text first: what the index keeps of them must not hold every note's text.
			if (metadata !== null) ownStrings(metadata);
			input.feed.offer(path, record.text, metadata, record.skipReason);
		}
	};
	const { current } = await readEveryNote(reading, input.now());
	reading.sink = undefined;
	const fingerprints = new Map<string, NoteFingerprint>();
	let markdownBytes = 0;
	for (const [path, fp] of current) {
		const known = knownFingerprint(fp);
		fingerprints.set(path, known);
		if (known.size > 0) markdownBytes += known.size;
	}
	const result: StreamedBuild = {
		fingerprints,
		markdownBytes,
		savedBytes: 0,
		saveError: null,
		encoded: encoder.count,
	};
	try {
		const { tool, settings, vaultPath, userIgnoreFilters } = input.header;
		// In the order of every other save's header (its JSON is compared byte for byte in tests).
		const header = { tool, settings, vaultPath, savedAt: input.now(), userIgnoreFilters, markdownBytes };
		const chunks = encoder.finish(header);
		await store.save(input.header.vaultPath, chunks);
		result.savedBytes = chunks.reduce((n, c) => n + c.length, 0);
	} catch (error) {
		result.saveError = error instanceof Error ? error.message : String(error);
	}
	return result;
}
