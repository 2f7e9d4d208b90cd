/**
 * Loading candidate notes for a context pack, once each: drafts and archived notes are left out
 * unless asked for (notes.ts), unreadable notes are noted, and each note's names, label terms
 * and quotable units are computed once for all its sections.
 */
import { titleOf } from '../note-info';
import { getAllTags, parseFrontMatterAliases } from '../obsidian-rules';
import type { NoteSource } from '../port';
import { termsOf } from '../search/tokenize';
import type { Facet } from './facets';
import { exclusionOf, type Exclusion } from './notes';
import type { LoadedNote } from './section-score';
import { noteUnits } from './sections';

/** A note left out because it is a draft or archived. */
export interface ExcludedNote {
	path: string;
	reason: Exclusion;
}

/** Options of retrieval: which left-out kinds of notes to keep. */
export interface RetrieveOptions {
	includeDrafts: boolean;
	includeArchived: boolean;
	/** Only these notes may be quoted (a base view's rows); absent: any note in scope. */
	only?: ReadonlySet<string>;
}

/** Loads candidate notes once each, leaving out drafts and archived notes unless asked and noting unreadable ones. */
export class NoteLoader {
	readonly excluded: ExcludedNote[] = [];
	readonly unreadable: { path: string; reason: string }[] = [];
	private readonly loaded = new Map<string, LoadedNote | null>();

	constructor(
		private readonly source: NoteSource,
		private readonly facets: readonly Facet[],
		private readonly priors: ReadonlyMap<string, number[]>,
		private readonly options: RetrieveOptions,
		/** Whether a fenced code block is worth quoting for this question (code.ts). */
		private readonly wantsCode: (code: string) => boolean,
	) {}

	/** Whether `path` was loaded (or refused) already. */
	has(path: string): boolean {
		return this.loaded.has(path);
	}

	/** The notes of `paths` that loaded, in that order. */
	async loadedIn(paths: readonly string[]): Promise<LoadedNote[]> {
		const out: LoadedNote[] = [];
		for (const p of paths) {
			const note = await this.load(p);
			if (note) out.push(note);
		}
		return out;
	}

	/** The loaded note, or null when it is left out or unreadable. */
	async load(path: string): Promise<LoadedNote | null> {
		if (this.loaded.has(path)) return this.loaded.get(path) ?? null;
		if (this.options.only && !this.options.only.has(path)) {
			this.loaded.set(path, null); // Outside the pack's scope (a base view): never quoted, not an exclusion to report.
			return null;
		}
		const meta = this.source.getMetadata(path);
		const why = exclusionOf(meta);
		if ((why === 'draft' && !this.options.includeDrafts) || (why === 'archived' && !this.options.includeArchived)) {
			this.excluded.push({ path, reason: why });
			this.loaded.set(path, null);
			return null;
		}
		let text: string;
		try {
			text = await this.source.read(path);
		} catch (e) {
			this.unreadable.push({ path, reason: `unreadable: ${e instanceof Error ? e.message : String(e)}` });
			this.loaded.set(path, null);
			return null;
		}
		const names = [titleOf(path, meta), ...(parseFrontMatterAliases(meta?.frontmatter) ?? [])];
		const label = [...names, ...(meta ? getAllTags(meta) : []).map((t) => t.replace(/^#/, '').replace(/\//g, ' '))];
		const units = noteUnits(text, meta).filter(
			(u) => u.kind !== 'code' || this.wantsCode(text.slice(u.start, u.end)),
		);
		const note: LoadedNote = {
			path,
			text,
			meta,
			metaTerms: new Set(termsOf(label.join('\n'))),
			nameTerms: names.map((n) => termsOf(n)),
			priors: this.priors.get(path) ?? this.facets.map(() => 0),
			units,
		};
		this.loaded.set(path, note);
		return note;
	}
}
