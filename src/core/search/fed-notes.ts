/**
 * A search index fed each note while a read from scratch has its text and parse in hand (the
 * servers' start, which encodes each note into the snapshot as it reads it and keeps neither): the
 * build that follows (`SearchIndex.build` with `fed`) then reads no note's text again. It indexes
 * the same notes in the same order as a build over the opened vault would, so the index is the
 * same; the build checks that order note by note and builds afresh on any difference.
 */
import type { CachedMetadata } from '../metadata';
import type { NoteSource } from '../port';
import { scopeRules, type ScopeRules } from '../scope';
import type { FedIndex } from './build-options';
import { SearchIndex } from './search-index';
import { resolveSearchSettings, type SearchSettings } from './settings';

/** What the vault's walk says about its scope, before any note is read. */
export type WalkScope = Pick<NoteSource, 'configDir' | 'userIgnoreFilters' | 'excludedFilesProblem'>;

/** Where a read from scratch hands each note it read: `scope` once after the walk, then `offer` per note. */
export interface NoteFeed {
	/** The scope's rules as the walk found them: notes they leave out are not indexed. */
	scope(walk: WalkScope): void;
	/** One note as read: its text and parse, or null for a note that is skipped (too large, unreadable, unparsed). */
	offer(path: string, text: string | null, metadata: CachedMetadata | null, skipReason: string | null): void;
}

/** The search index fed by a read from scratch (see the module comment). */
export class FedNotes implements NoteFeed, FedIndex<SearchIndex> {
	/** The index being fed; `SearchIndex.build` finishes it. */
	readonly index: SearchIndex;
	/** The notes indexed, in order. */
	private readonly paths: string[] = [];
	private next = 0;
	private rules: ScopeRules | null = null;
	private configDir = '';
	private taken = false;
	private broken = false;

	constructor(private readonly settings: Partial<SearchSettings>) {
		this.index = new SearchIndex(settings);
		this.index.index.keepDerived = false; // as a build: the derived maps are built when a search first needs them
	}

	scope(walk: WalkScope): void {
		this.rules = scopeRules(walk, { excludedFolders: this.index.settings.excludedFolders });
		this.configDir = walk.configDir;
	}

	offer(path: string, text: string | null, metadata: CachedMetadata | null, skipReason: string | null): void {
		// Without the walk's rules nothing is indexed: the build then finds no note fed and builds afresh.
		if (this.rules === null || this.taken || skipReason !== null || text === null) return;
		if (this.rules.ruleFor(path) !== null || this.index.isExcluded(path, this.configDir)) return;
		this.index.index.upsert({ path, text, metadata });
		this.paths.push(path);
	}

	/** This fed index for a build with `settings`, once; null when it was fed for other settings or already taken. */
	take(settings: Partial<SearchSettings>): FedNotes | null {
		if (this.taken) return null;
		this.taken = true;
		const same =
			settings === this.settings ||
			JSON.stringify(resolveSearchSettings(settings)) === JSON.stringify(this.index.settings);
		return same ? this : null;
	}

	/** The build indexes `path` next: it must be the next note fed (else the build starts afresh, see `done`). */
	meet(path: string): void {
		if (this.paths[this.next] === path) this.next++;
		else this.broken = true;
	}

	/** Whether the build met every note fed, in the order fed, and no other. */
	get done(): boolean {
		return !this.broken && this.next === this.paths.length;
	}
}
