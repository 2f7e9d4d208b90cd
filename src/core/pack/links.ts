/**
 * The link neighbourhood of a pack's best hits: sections of notes linked with them get a small
 * boost, and pointer sentences ("the facts are in [[X]]") are followed to the section they name.
 */
import { parseLinktext } from '../obsidian-rules';
import type { NoteSource } from '../port';
import { gradeRank, holdsKeyWord } from './grade';
import type { NoteLoader } from './loader';
import { sectionCandidate, type Candidate, type LoadedNote, type ScoringContext } from './section-score';
import { sectionsOf, subpathSection } from './sections';

const NEIGHBOUR_BOOST = 0.15; // why: "a small boost": enough to reorder close sections, not to lift an off-topic one.
/** The head of the ranking whose links vouch for a neighbour. */
export const STRONG_HITS = 3; // why: the head of the ranking; links from weaker hits are too loose to vouch for a neighbour.

/**
 * Stage 5: the link neighbourhood — sections of notes linked with the best hits, and sections
 * a `[[Note#Heading]]` in one of the best sections points at (loaded when new), get a boost.
 */
export async function boostNeighbours(
	source: NoteSource,
	scored: Candidate[],
	strong: readonly string[],
	loader: NoteLoader,
	ctx: ScoringContext,
): Promise<void> {
	const resolved = source.resolvedLinks();
	const boosted = new Set<Candidate>();
	for (const c of scored) {
		if (strong.includes(c.path)) continue;
		if (strong.some((s) => (resolved[c.path]?.[s] ?? 0) > 0 || (resolved[s]?.[c.path] ?? 0) > 0)) boosted.add(c);
	}
	const best = [...scored].sort((a, b) => b.score - a.score).slice(0, STRONG_HITS);
	for (const c of best) {
		for (const link of c.meta?.links ?? []) {
			const at = link.position.start.offset;
			if (at < c.section.start || at >= c.section.end || !link.link.includes('#')) continue;
			const { path: linkpath, subpath } = parseLinktext(link.link);
			const target = linkpath === '' ? c.path : source.resolveLink(linkpath, c.path);
			if (target === null || !target.toLowerCase().endsWith('.md')) continue;
			const isNew = !loader.has(target);
			const note = await loader.load(target);
			if (note && isNew) {
				for (const section of sectionsOf(note.text, note.meta)) {
					const extra = sectionCandidate(note, section, ctx);
					if (extra) scored.push(extra);
				}
			}
			if (!note) continue;
			const span = subpathSection(note.text, note.meta, subpath);
			if (!span) continue;
			const hit = scored.find(
				(s) => s.path === target && s.section.start <= span.start && span.start < s.section.end,
			);
			if (hit && hit !== c) boosted.add(hit);
		}
	}
	for (const c of boosted) c.score *= 1 + NEIGHBOUR_BOOST;
}

/** A followed pointer ranks its target this much above the signpost that points at it. */
const POINTER_LIFT = 1.1; // why: "the facts are in [[X]]" says X answers what the signpost asks, so X goes before it — by a step, not a leap.

/** The section a pointer target names: its `#heading`/`#^block` when given, else its best-scoring section. */
function pointedSection(sections: readonly Candidate[], note: LoadedNote, subpath: string): Candidate | null {
	if (subpath !== '') {
		const span = subpathSection(note.text, note.meta, subpath);
		if (span) return sections.find((s) => s.section.start <= span.start && span.start < s.section.end) ?? null;
	}
	let best: Candidate | null = null;
	for (const s of sections)
		if (
			!best ||
			gradeRank(s.best) > gradeRank(best.best) ||
			(gradeRank(s.best) === gradeRank(best.best) && s.score > best.score)
		)
			best = s;
	return best;
}

/**
 * Stage 5b: pointers followed. A signpost — a section whose heading, questions and pointer
 * sentences ask what a facet asks while its statements do not answer it ("What do we know
 * about X? The facts so far are in [[x-facts]].") — is not evidence; the section its pointer
 * names (loaded when new) takes the signpost's place: relevant for the facets the signpost
 * asks, when it holds at least one of their key words itself, and ranked just above it.
 */
export async function followPointers(
	source: NoteSource,
	scored: Candidate[],
	loader: NoteLoader,
	ctx: ScoringContext,
): Promise<void> {
	for (const hub of scored.filter((c) => c.pointers.length > 0)) {
		for (const raw of hub.pointers) {
			const { path: linkpath, subpath } = parseLinktext(raw);
			const target = linkpath === '' ? hub.path : source.resolveLink(linkpath, hub.path);
			if (target === null || !target.toLowerCase().endsWith('.md')) continue;
			const isNew = !loader.has(target);
			const note = await loader.load(target);
			if (!note) continue;
			if (isNew) {
				for (const section of sectionsOf(note.text, note.meta)) {
					const extra = sectionCandidate(note, section, ctx);
					if (extra) scored.push(extra);
				}
			}
			const pick = pointedSection(
				scored.filter((c) => c.path === target && c !== hub),
				note,
				subpath,
			);
			if (!pick) continue;
			let lifted = false;
			hub.signposts.forEach((asks, i) => {
				if (
					!asks ||
					pick.grades[i]!.grade === 'relevant' ||
					!ctx.keys[i]!.some((k) => holdsKeyWord(pick.terms, k))
				)
					return;
				pick.grades[i] = { ...pick.grades[i]!, grade: 'relevant' };
				lifted = true;
			});
			if (!lifted) continue;
			hub.signposts.forEach((asks, i) => {
				if (asks) pick.facetScores[i] = Math.max(pick.facetScores[i]!, hub.facetScores[i]! * POINTER_LIFT);
			});
			pick.best = 'relevant';
			pick.followed = true;
			pick.score = Math.max(pick.score, hub.score * POINTER_LIFT);
		}
	}
}
