/**
 * References in a pack's question (`[[Note]]`, `[[Note#Heading]]`, `[[#^block]]`): the notes
 * and sections they name, pinned first in the pack; a whole-note reference makes the note a
 * candidate with a full search prior.
 */
import { findNote } from '../note-ref';
import type { NoteSource } from '../port';
import type { NoteLoader } from './loader';
import { sectionCandidate, type Candidate, type ScoringContext } from './section-score';
import { subpathSection, type LinkRef, type NoteSection } from './sections';

const MAX_BLOCK_MATCHES = 3; // why: a bare ^id can exist in several notes; more than three is not a reference anymore.

/** The part of the search stage a whole-note reference adds to: candidate order and priors. */
export interface CandidateNotes {
	priors: Map<string, number[]>;
	order: string[];
}

/** Stage 3: sections named in the query, in the order written; a whole-note reference makes the note a full-prior candidate. */
export async function pinnedSections(
	source: NoteSource,
	refs: readonly LinkRef[],
	loader: NoteLoader,
	ctx: ScoringContext,
	stage: CandidateNotes,
): Promise<{ pinned: Candidate[]; unresolved: LinkRef[] }> {
	const unresolved: LinkRef[] = [];
	const pinned: Candidate[] = [];
	for (const ref of refs) {
		const targets = await resolveRef(source, ref);
		if (targets.length === 0) {
			unresolved.push(ref);
			continue;
		}
		for (const t of targets) {
			const note = await loader.load(t.path);
			if (!note) continue;
			if (t.section === null) {
				if (!stage.priors.has(t.path)) stage.order.push(t.path);
				note.priors = ctx.facets.map(() => 1);
				stage.priors.set(t.path, note.priors);
				continue;
			}
			const c = sectionCandidate(note, t.section, ctx);
			if (
				c &&
				!pinned.some(
					(p) => p.path === c.path && p.section.start === c.section.start && p.section.end === c.section.end,
				)
			) {
				c.pinned = true;
				pinned.push(c);
			}
		}
	}
	return { pinned, unresolved };
}

/** The notes and spans a reference names (a bare `^id` may name blocks in several notes). */
async function resolveRef(source: NoteSource, ref: LinkRef): Promise<{ path: string; section: NoteSection | null }[]> {
	if (ref.linkpath === '') {
		if (!ref.subpath.startsWith('#^')) return [];
		const out: { path: string; section: NoteSection | null }[] = [];
		const id = ref.subpath.slice(2).toLowerCase();
		for (const path of source.listNotes()) {
			const meta = source.getMetadata(path);
			if (!meta?.blocks || !Object.hasOwn(meta.blocks, id)) continue;
			const text = await source.read(path).catch(() => null);
			const span = text === null ? null : subpathSection(text, meta, ref.subpath);
			if (span) out.push({ path, section: span });
			if (out.length >= MAX_BLOCK_MATCHES) break;
		}
		return out;
	}
	let path = source.resolveLink(ref.linkpath, '');
	if (path === null || !path.toLowerCase().endsWith('.md')) {
		const found = findNote(source, ref.linkpath, false); // An unknown reference goes to GAPS as written: no near names needed.
		path = found.kind === 'found' ? found.path : null;
	}
	if (path === null) return [];
	if (ref.subpath === '') return [{ path, section: null }];
	const text = await source.read(path).catch(() => null);
	if (text === null) return [];
	const span = subpathSection(text, source.getMetadata(path), ref.subpath);
	return span ? [{ path, section: span }] : [];
}
