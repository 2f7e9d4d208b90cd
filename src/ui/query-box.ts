import type { SearchHit } from '../core/search/search';
import { activatable, plural } from './dom';
import type { FacesHost } from './host';
import { LatestOnly } from './latest';
import type { OpenNote } from './results-modal';
import { renderHit } from './search-hit';

/**
 * The side panel's query box: the search modal's syntax, results as you type (debounced, only the
 * latest query painted), each hit a focusable row that opens the note at its line.
 */

const DEBOUNCE_MS = 200; // why: the panel is secondary; a slightly longer pause than the modal spares the index.

/** A query input and its result list. */
export class QueryBox {
	/** The query input (`input[type=search]`). */
	readonly inputEl: HTMLInputElement;
	private readonly statusEl: HTMLElement;
	private readonly listEl: HTMLElement;
	private readonly latest = new LatestOnly<void>(DEBOUNCE_MS);

	/** Builds the box in `parent`. */
	constructor(
		parent: HTMLElement,
		private readonly host: FacesHost,
		private readonly open: OpenNote,
	) {
		this.inputEl = parent.createEl('input', {
			type: 'search',
			cls: 'vault-query-query-input',
			attr: { placeholder: 'Search the vault…', 'aria-label': 'Search the vault', spellcheck: 'false' },
		});
		this.statusEl = parent.createDiv({ cls: 'vault-query-summary', attr: { 'aria-live': 'polite' } });
		this.listEl = parent.createDiv('vault-query-list');
		this.inputEl.addEventListener('input', () => void this.latest.run(() => this.run()));
		this.inputEl.addEventListener('keydown', (evt) => {
			if (evt.key !== 'Enter' || evt.isComposing) return;
			evt.preventDefault();
			void this.latest.run(() => this.run());
		});
	}

	/** The trimmed query. */
	get value(): string {
		return this.inputEl.value.trim();
	}

	/** Sets the query and runs it now (a tag click). */
	async show(query: string): Promise<void> {
		this.inputEl.value = query;
		this.latest.cancel();
		await this.run();
	}

	/** Drops a pending run (the view is closing). */
	cancel(): void {
		this.latest.cancel();
	}

	/** Runs the current query and paints the hits. */
	async run(): Promise<void> {
		const query = this.value;
		if (query === '') {
			this.statusEl.setText('');
			this.listEl.empty();
			return;
		}
		const result = await this.host.search(query, { prefixLast: true });
		if (query !== this.value) return;
		this.listEl.empty();
		if (result.status === 'failed') {
			this.statusEl.setText('');
			this.listEl.createDiv({
				cls: 'vault-query-error',
				text: `The search could not run: ${result.error ?? 'unknown error'}`,
			});
			return;
		}
		const shown = result.results.length;
		this.statusEl.setText(
			shown < result.matched
				? `Showing ${shown} of ${plural(result.matched, 'note')}`
				: plural(result.matched, 'note'),
		);
		if (shown === 0) this.listEl.createDiv({ cls: 'vault-query-empty', text: 'No notes match.' });
		for (const hit of result.results) this.renderRow(hit);
	}

	private renderRow(hit: SearchHit): void {
		const row = this.listEl.createDiv('vault-query-result');
		renderHit(row, hit);
		activatable(row, (evt) => this.open(hit.path, hit.line ?? undefined, evt), `Open ${hit.title}`);
	}
}
