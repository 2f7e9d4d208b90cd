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
	/** "233 notes match; showing 10", and "Show more" when there are more. */
	private readonly countEl: HTMLElement;
	/** The query the current limit grew for: a new query starts from the settings' limit again. */
	private grownFor = '';

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
		this.countEl = this.modalEl.createDiv({ cls: 'vault-query-search-count' });
		this.resultContainerEl.parentElement?.insertBefore(this.countEl, this.resultContainerEl);
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
		if (query.trim() !== this.grownFor) this.limit = this.host.searchLimit();
		if (query.trim() !== '') return this.latest.run(() => this.find(query));
		this.latest.cancel();
		this.countEl.empty();
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
		this.showCount(query.trim(), result.matched, result.results.length);
		if (result.status === 'failed') {
			const hint =
				result.suggestions && result.suggestions.length > 0
					? ` Did you mean: ${result.suggestions.join(', ')}?`
					: '';
			this.emptyStateText = `The search could not run: ${result.error ?? 'unknown error'}.${hint}`;
			return [];
		}
		// The rows about to be rendered replace the current ones.
		this.rows.clear();
		this.emptyStateText =
			result.results.length === 0 ? `No notes match. ${result.advice.slice(2, 3).join(' ')}`.trim() : SEARCH_HELP;
		return result.results;
	}

	/** The count line over the rows; "Show more" asks again for one more page of the same query. */
	private showCount(query: string, matched: number, shown: number): void {
		// Empty (and hidden by styles.css) when there is nothing to count.
		this.countEl.empty();
		if (shown === 0) return;
		const count = `${matched.toLocaleString('en-US')} ${matched === 1 ? 'note matches' : 'notes match'}`;
		this.countEl.createSpan({ text: matched > shown ? `${count}; showing ${shown}` : count });
		if (matched <= shown) return;
		const more = this.countEl.createEl('button', { cls: 'vault-query-show-more', text: 'Show more' });
		more.addEventListener('click', () => {
			this.grownFor = query;
			this.limit = shown + this.host.searchLimit();
			this.inputEl.dispatchEvent(new Event('input'));
			this.inputEl.focus();
		});
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
