import type { BacklinkRef, LinkResult, LinkSource } from './contract';
import type { CachedMetadata } from './metadata';
import { linksFieldNames } from './note-info';
import { parseLinktext } from './obsidian-rules';
import type { NoteSource } from './port';
import { positionsIn } from './scope';
import { drain } from './steps';

/** The linkpath of a link: the part before the first `#` (Obsidian's `parseLinktext(...).path`). */
export function linkpathOf(link: string): string {
	return parseLinktext(link).path;
}

const LINKERS_STEP = 500; // why: 500 notes' link maps take ~1 ms at 50k; the host's clock is read once per step, not per note.

/** The field targets of a note without a `links:` field. */
const NO_TARGETS: ReadonlySet<string> = new Set<string>();

/** One outgoing link as the graph sees it. */
interface Outgoing {
	linkpath: string;
	resolved: string | null;
	source: 'body' | 'frontmatter';
}

/** Combine two sightings of the same link into `body`, `frontmatter` or `both`. */
function merge(a: LinkSource | undefined, b: LinkSource): LinkSource {
	return a === undefined || a === b ? b : 'both';
}

/**
 * The link graph of a set of notes: every outgoing link (body links and embeds, frontmatter
 * `[[…]]` values, and the bare names of the `links:` field) resolved with the source's rules,
 * and the backlinks of any note. Built once per query from the port; outgoing links are resolved
 * lazily, per note asked about.
 */
export class LinkGraph {
	private readonly outgoingCache = new Map<string, Outgoing[]>();
	private readonly fieldTargetCache = new Map<string, Set<string>>();
	private linking: Map<string, string[]> | null = null;
	private fieldLinking: Map<string, string[]> | null = null;
	private position: ReadonlyMap<string, number> | null = null;

	/**
	 * `notes` are the link sources that count (the query's scope); `fieldHolders`, when given, names
	 * the notes among them whose links field may hold names (the others certainly hold none), so
	 * finding who links through that field need not look at every note. `holdOutgoing` false: only
	 * the last note's outgoing links are kept — for a pass that looks at each note once (a full
	 * answer's forward links), where keeping every note's held ~34 MB at 50k notes. `positions`:
	 * each note of `notes` to a number in the same order, when the caller keeps one (a search
	 * index's path → id map), so sorting a few linkers does not map all 50k notes first.
	 */
	constructor(
		private readonly source: NoteSource,
		private readonly notes: readonly string[],
		private readonly linksKey: string,
		private readonly fieldHolders?: () => readonly string[],
		private readonly holdOutgoing = true,
		private readonly positions?: ReadonlyMap<string, number>,
	) {}

	/** Every outgoing link of `path` in document order: frontmatter first, then body. */
	outgoing(path: string): Outgoing[] {
		const cached = this.outgoingCache.get(path);
		if (cached) return cached;
		const meta: CachedMetadata | null = this.source.getMetadata(path);
		const list: Outgoing[] = [];
		const add = (link: string, source: Outgoing['source']): void => {
			const linkpath = linkpathOf(link);
			if (linkpath === '') return; // `[[#heading]]` points inside the note itself.
			list.push({ linkpath, resolved: this.source.resolveLink(linkpath, path), source });
		};
		for (const link of meta?.frontmatterLinks ?? []) add(link.link, 'frontmatter');
		// A bare name of the links key is a link only when it names a note (else it is just text, as in Obsidian).
		for (const name of linksFieldNames(meta?.frontmatter, this.linksKey))
			if (this.source.resolveLink(linkpathOf(name), path) !== null) add(name, 'frontmatter');
		const body = [...(meta?.links ?? []), ...(meta?.embeds ?? [])].sort(
			(a, b) => a.position.start.offset - b.position.start.offset,
		);
		for (const link of body) add(link.link, 'body');
		// Not held: only the last note's is kept, for the second look a result takes at the same note.
		if (!this.holdOutgoing) this.outgoingCache.clear();
		this.outgoingCache.set(path, list);
		return list;
	}

	/** The deduplicated forward links of `path`: one entry per destination, marked body/frontmatter/both. */
	forward(path: string): LinkResult[] {
		const byKey = new Map<string, LinkResult>();
		for (const link of this.outgoing(path)) {
			const key = link.resolved ?? `?${link.linkpath.toLowerCase().replace(/\.md$/, '')}`;
			const seen = byKey.get(key);
			if (seen) {
				seen.source = merge(seen.source, link.source);
				seen.count += 1;
			} else {
				byKey.set(key, { linkpath: link.linkpath, resolved: link.resolved, source: link.source, count: 1 });
			}
		}
		return [...byKey.values()];
	}

	/** The linkpaths `path` links to, deduplicated case-insensitively (the contract's `forward_links`). */
	forwardNames(path: string): string[] {
		return this.forward(path).map((link) => link.linkpath);
	}

	/**
	 * The notes in scope that link to `target`, each marked body/frontmatter/both; self-links left
	 * out. `resolvedLinks` (body and `[[…]]` property links) and the resolved `links:` names say
	 * which notes link there without resolving anything again; only those notes are inspected to
	 * tell body from frontmatter — on a 6k-note vault that is tens of notes, not 60k links.
	 */
	backlinks(target: string): BacklinkRef[] {
		return this.backlinksAmong(target, this.linkersOf(target));
	}

	/**
	 * The notes in scope that link to `target` (`linkingMap().get(target)`), in scope order. When
	 * the source keeps `resolvedLinks` inverted, only the `links:` names are scanned (they are not
	 * in Obsidian's maps) and the rest comes from the source, merged back into scope order.
	 */
	linkersOf(target: string): readonly string[] {
		if (this.linking || !this.sourceInverse()) return this.linkingMap().get(target) ?? [];
		this.position ??= this.positions ?? positionsIn(this.notes);
		const found = new Set<string>();
		for (const path of this.source.linkSourcesOf!(target)) if (this.position.has(path)) found.add(path);
		for (const path of this.fieldLinkers().get(target) ?? []) found.add(path);
		return [...found].sort((a, b) => this.position!.get(a)! - this.position!.get(b)!);
	}

	/**
	 * `linkersOf` for each of a few `targets` (a search's hits), with no inversion of the link maps:
	 * where neither the inversion nor the source's own is at hand, one pass over the notes in scope
	 * keeps, of each note's `resolvedLinks` keys (and the `links:` names of the notes that have
	 * them), those that are targets — no list is made for any other note. Inverting every link of
	 * 50k notes held a main thread for ~0.3–3 s; the lists are the same (scope order).
	 */
	linkersOfEach(targets: readonly string[]): Map<string, readonly string[]> {
		return drain(this.linkersOfEachSteps(targets));
	}

	/**
	 * `linkersOfEach` as a step function: it pauses every few hundred notes of its pass, so a host
	 * that keeps its main thread free runs the pass over 50k notes (~0.1 s) in slices. The lists
	 * are the same either way.
	 */
	*linkersOfEachSteps(targets: readonly string[]): Generator<void, Map<string, readonly string[]>, void> {
		const out = new Map<string, string[]>();
		if (this.linking || targets.length === 0 || this.sourceInverse()) {
			for (const target of targets) out.set(target, [...this.linkersOf(target)]);
			return out;
		}
		for (const target of targets) out.set(target, []);
		// The `links:` names that resolve to a target, by the note that holds them (few notes hold the field).
		const byField = new Map<string, string[]>();
		for (const [target, list] of this.fieldLinkers())
			if (out.has(target))
				for (const path of list) (byField.get(path) ?? byField.set(path, []).get(path)!).push(target);
		const add = (target: string, path: string): void => {
			const list = out.get(target);
			if (list !== undefined && list[list.length - 1] !== path) list.push(path);
		};
		// A note's own link keys (a handful) against the wanted set, as the inversion walks them.
		const resolved = this.source.resolvedLinks();
		let sincePause = 0;
		for (const path of this.notes) {
			const links = resolved[path];
			if (links) for (const target in links) add(target, path);
			if (byField.size > 0) for (const target of byField.get(path) ?? []) add(target, path);
			if (++sincePause === LINKERS_STEP) {
				sincePause = 0;
				yield;
			}
		}
		return out;
	}

	/** Whether the source's own inverse of `resolvedLinks` answers now. */
	private sourceInverse(): boolean {
		return this.source.linkSourcesOf !== undefined && this.source.linkSourcesReady?.() !== false;
	}

	/** Target → the notes in scope whose `links:` names resolve there, built once per graph. */
	private fieldLinkers(): Map<string, string[]> {
		if (this.fieldLinking) return this.fieldLinking;
		const linking = new Map<string, string[]>();
		for (const path of this.fieldHolders?.() ?? this.notes) {
			for (const target of this.fieldTargets(path)) {
				const list = linking.get(target);
				if (list) list.push(path);
				else linking.set(target, [path]);
			}
		}
		this.fieldLinking = linking;
		return linking;
	}

	/**
	 * Target → the notes in scope that link to it, from `resolvedLinks` and the resolved `links:`
	 * names; built once per graph (one pass over the link maps), so the backlinks of twenty results
	 * cost twenty lookups rather than twenty scans of the vault. The one inversion of the link maps:
	 * ranked search's `backlinks:` filter and hit backlinks read it too.
	 */
	linkingMap(): Map<string, string[]> {
		if (this.linking) return this.linking;
		const linking = new Map<string, string[]>();
		const add = (target: string, path: string): void => {
			const list = linking.get(target);
			if (!list) linking.set(target, [path]);
			else if (list[list.length - 1] !== path) list.push(path);
		};
		const resolved = this.source.resolvedLinks();
		for (const path of this.notes) {
			const targets = resolved[path];
			if (targets) for (const target in targets) add(target, path);
			for (const target of this.fieldTargets(path)) add(target, path);
		}
		this.linking = linking;
		return linking;
	}

	/**
	 * Like `backlinks`, but only `candidates` are considered — a caller that keeps an inverted
	 * link map (ranked search) passes the few notes it knows link to `target`.
	 */
	backlinksAmong(target: string, candidates: Iterable<string>): BacklinkRef[] {
		const resolved = this.source.resolvedLinks();
		const refs: BacklinkRef[] = [];
		for (const path of candidates) {
			if (path === target) continue;
			const count = resolved[path]?.[target] ?? 0;
			const inField = this.fieldTargets(path).has(target);
			if (!(count > 0) && !inField) continue;
			let source: LinkSource | undefined;
			if (this.source.linkSourcesOf) {
				// The source's counts come from the same resolution (frontmatter links, body links and
				// embeds), so the frontmatter links alone tell body from frontmatter: no body link is decoded.
				const fromFrontmatter = this.frontmatterLinksTo(path, target);
				if (fromFrontmatter > 0 || inField) source = 'frontmatter';
				if (count > fromFrontmatter) source = merge(source, 'body');
			} else {
				for (const link of this.outgoing(path))
					if (link.resolved === target) source = merge(source, link.source);
			}
			if (source) refs.push({ path, source });
		}
		return refs;
	}

	/** How many of the `[[…]]` property values of `path` resolve to `target`. */
	private frontmatterLinksTo(path: string, target: string): number {
		let n = 0;
		for (const link of this.source.getMetadata(path)?.frontmatterLinks ?? [])
			if (this.source.resolveLink(linkpathOf(link.link), path) === target) n++;
		return n;
	}

	/** Where the bare names of a note's `links:` field resolve (they are not in Obsidian's link maps). */
	fieldTargets(path: string): ReadonlySet<string> {
		let targets = this.fieldTargetCache.get(path);
		if (targets) return targets;
		// Most notes have no such field; a source that can tell without decoding the frontmatter saves a Set per note.
		if (this.source.lacksProperty?.(path, this.linksKey) === true) return NO_TARGETS;
		targets = new Set<string>();
		for (const name of linksFieldNames(this.source.getMetadata(path)?.frontmatter, this.linksKey)) {
			const dest = this.source.resolveLink(linkpathOf(name), path);
			if (dest !== null) targets.add(dest);
		}
		this.fieldTargetCache.set(path, targets);
		return targets;
	}
}
