import { Keymap, Platform, SuggestModal, type App } from 'obsidian';
import type { SearchHit } from '../core/search/search';
import type { FacesHost } from './host';
import { LatestOnly } from './latest';
import { insertLinkAtCursor } from './note-facts';
import { openNoteAt } from './open-note';
import { renderHit } from './search-hit';

/**
 * "Search vault": ranked results as you type. The search runs after a short quiet spell
 * (typing never waits for it) and only the latest query's results are shown. Keys: ↑/↓, Enter
 * opens the note at the hit's line, Mod+Enter in a new tab, Shift+Enter inserts a link at the
 * cursor, Mod+Shift+C copies the context pack for the query.
 */

const DEBOUNCE_MS = 120; // why: under the gap between keystrokes of a fast typist (~150 ms), so one search per pause.

/** The syntax, shown while the input is empty. */
export const SEARCH_HELP =
	'Type words in any language. Filters: tag:#x, path:x, file:x, [key:value], backlinks:Note, "a phrase", -word, /regex/.';

/** What the modal does besides searching. */
export interface SearchModalActions {
	/** Copy the context pack for this query (the modal is closed first). */
	copyPack(query: string): void;
}

/** Obsidian's way of naming the Mod key in hints. */
function mod(): string {
	return Platform.isMacOS ? '⌘' : 'Ctrl';
}

/** The "Search vault" modal. */
export class SearchModal extends SuggestModal<SearchHit> {
	private readonly latest = new LatestOnly<SearchHit[]>(DEBOUNCE_MS);
	private readonly rows = new Map<HTMLElement, SearchHit>();

	/** `initial` pre-fills the query (the editor selection, say). */
	constructor(
		app: App,
		private readonly host: FacesHost,
		private readonly actions: SearchModalActions,
		private readonly initial = '',
	) {
		super(app);
		this.limit = host.searchLimit();
		this.emptyStateText = SEARCH_HELP;
		this.modalEl.addClass('vault-query-search-modal');
		this.setPlaceholder('Search the vault…');
		this.inputEl.setAttr('aria-label', 'Search the vault');
		this.setInstructions([
			{ command: '↑↓', purpose: 'to navigate' },
			{ command: '↵', purpose: 'to open' },
			{ command: `${mod()} ↵`, purpose: 'to open in a new tab' },
			{ command: 'shift ↵', purpose: 'to insert a link' },
			{ command: `${mod()} shift C`, purpose: 'to copy the context pack' },
			{ command: 'esc', purpose: 'to dismiss' },
		]);
		this.scope.register(['Mod'], 'Enter', (evt) => this.chooseSelected(evt));
		this.scope.register(['Shift'], 'Enter', (evt) => this.chooseSelected(evt));
		this.scope.register(['Mod', 'Shift'], 'c', () => this.copyPack());
	}

	/** Shows the pre-filled query's results at once. */
	override onOpen(): void {
		void super.onOpen();
		if (this.initial === '') return;
		this.inputEl.value = this.initial;
		this.inputEl.dispatchEvent(new Event('input'));
		this.inputEl.select();
	}

	/** Drops a search not yet started. */
	override onClose(): void {
		this.latest.cancel();
		this.rows.clear();
	}

	/** The latest query's hits, after a quiet spell; the empty state explains an empty or failed search. */
	getSuggestions(query: string): SearchHit[] | Promise<SearchHit[]> {
		if (query.trim() !== '') return this.latest.run(() => this.find(query));
		this.latest.cancel();
		this.emptyStateText = SEARCH_HELP;
		return [];
	}

	/** Title, folder, tier and terms, highlighted snippet, tags. */
	renderSuggestion(hit: SearchHit, el: HTMLElement): void {
		this.rows.set(el, hit);
		el.addClass('mod-complex');
		renderHit(el, hit);
	}

	/** Enter: open at the hit (Mod: new tab); Shift: insert a link at the cursor. */
	onChooseSuggestion(hit: SearchHit, evt: MouseEvent | KeyboardEvent): void {
		if (evt.shiftKey && !Keymap.isModEvent(evt)) {
			insertLinkAtCursor(this.app, hit.path);
			return;
		}
		openNoteAt(this.app, hit.path, hit.line ?? undefined, evt);
	}

	private async find(query: string): Promise<SearchHit[]> {
		if (!this.host.searchIndexReady()) this.emptyStateText = 'Building the search index…';
		const result = await this.host.search(query, { prefixLast: true, limit: this.limit });
		if (result.status === 'failed') {
			const hint = result.suggestions && result.suggestions.length > 0 ? ` Did you mean: ${result.suggestions.join(', ')}?` : '';
			this.emptyStateText = `The search could not run: ${result.error ?? 'unknown error'}.${hint}`;
			return [];
		}
		// The rows about to be rendered replace the current ones.
		this.rows.clear();
		this.emptyStateText = result.results.length === 0 ? `No notes match. ${result.advice.slice(2, 3).join(' ')}`.trim() : SEARCH_HELP;
		return result.results;
	}

	/** The row Obsidian has selected (`.is-selected`), chosen with this key's modifiers. */
	private chooseSelected(evt: KeyboardEvent): false {
		const selected = this.resultContainerEl.querySelector<HTMLElement>('.suggestion-item.is-selected');
		const hit = selected ? this.rows.get(selected) : undefined;
		if (hit) this.selectSuggestion(hit, evt);
		return false;
	}

	private copyPack(): false {
		const query = this.inputEl.value.trim();
		if (query === '') return false;
		this.close();
		this.actions.copyPack(query);
		return false;
	}
}
