import type { LinkMap } from '../core/metadata';

/** Sources looked at between two pauses of a rebuild (a few ms at 50k notes). */
const REBUILD_STEP = 512;

/** No sources: what {@link LinkSourceIndex.sourcesOf} gives for a target nobody links to. */
const NONE: readonly string[] = [];

/**
 * `metadataCache.resolvedLinks` inverted — target → the files whose entry names it — kept current
 * one file at a time from Obsidian's `resolve` events, so the backlinks of a search's hits are a
 * lookup instead of a pass over every note's link map (at 50k notes that pass was most of a
 * search's time). Obsidian re-resolves the other files a created, deleted or renamed file
 * concerns, but we do not rely on one `resolve` per changed entry there: such a change makes the
 * inverse *partial*, and it is rebuilt (in steps) before it answers again.
 */
export class LinkSourceIndex {
	/** Each source's targets as last seen (its `resolvedLinks` keys), to tell what an update removes. */
	private readonly targetsOf = new Map<string, readonly string[]>();
	/** Each target's sources (arrays, not Sets: at 50k notes ~100k targets, most with one or two sources). */
	private readonly sourcesByTarget = new Map<string, string[]>();
	/** True once a rebuild has seen every entry since the last note came, went or was renamed. */
	private complete = false;
	/** Bumped by every {@link markPartial}: a rebuild that saw one start after it began is not whole. */
	private changes = 0;

	/** Whether {@link sourcesOf} answers for the whole vault now. */
	get whole(): boolean {
		return this.complete;
	}

	/** The files whose `resolvedLinks` entry names `target`, in no particular order. */
	sourcesOf(target: string): readonly string[] {
		return this.sourcesByTarget.get(target)?.slice() ?? NONE;
	}

	/** A note came, went or was renamed: other files' entries may change without a `resolve` of theirs. */
	markPartial(): void {
		this.complete = false;
		this.changes++;
	}

	/** `source` was resolved again: its entry is now `links` (undefined: it has none). */
	update(source: string, links: Readonly<Record<string, number>> | undefined): void {
		const before = this.targetsOf.get(source);
		// Most entries read again are unchanged (a rebuild reads all 50k): compared key by key, no list made.
		if (before !== undefined && links !== undefined && sameKeys(before, links)) return;
		const after = links === undefined ? NONE : Object.keys(links);
		if (before !== undefined) {
			const kept = new Set(after);
			for (const target of before) if (!kept.has(target)) this.unlink(target, source);
		}
		// A source's keys are distinct, and it was unlinked above from those it no longer has: no target lists it twice.
		const had = before === undefined ? null : new Set(before);
		for (const target of after) {
			if (had?.has(target) === true) continue;
			const sources = this.sourcesByTarget.get(target);
			if (sources === undefined) this.sourcesByTarget.set(target, [source]);
			else sources.push(source);
		}
		if (after.length === 0) this.targetsOf.delete(source);
		else this.targetsOf.set(source, after);
	}

	/**
	 * Read every entry of `links` again, pausing every few hundred, and drop the sources it no longer
	 * has; the index is whole at the end unless a note came, went or was renamed meanwhile.
	 */
	*rebuildSteps(links: LinkMap): Generator<void, void, void> {
		const changes = this.changes;
		const seen = new Set<string>();
		let sincePause = 0;
		for (const source in links) {
			seen.add(source);
			this.update(source, links[source]);
			if (++sincePause === REBUILD_STEP) {
				sincePause = 0;
				yield;
			}
		}
		for (const source of [...this.targetsOf.keys()]) if (!seen.has(source)) this.update(source, undefined);
		if (this.changes === changes) this.complete = true;
	}

	private unlink(target: string, source: string): void {
		const sources = this.sourcesByTarget.get(target);
		const at = sources === undefined ? -1 : sources.indexOf(source);
		if (sources === undefined || at < 0) return;
		if (sources.length === 1) this.sourcesByTarget.delete(target);
		else sources.splice(at, 1);
	}
}

/** Whether `links` has exactly the keys `before` lists, in that order (an entry resolved again mostly has). */
function sameKeys(before: readonly string[], links: Readonly<Record<string, number>>): boolean {
	let i = 0;
	for (const key in links) if (before[i++] !== key) return false;
	return i === before.length;
}
