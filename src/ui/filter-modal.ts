import { Modal, Notice, type App } from 'obsidian';
import { openNoteAt } from './open-note';
import { renderReport, splitWhereText, type ReaderReport, type ReaderRequest } from '../core/reader/index';
import { renderQueryResult } from './results-modal';

/** Runs a reader request (the plugin gates it on readiness and fills in settings). */
export type RunReader = (request: ReaderRequest) => Promise<ReaderReport>;

/** Words that set an option instead of a `where` clause, in the typed filter line. */
const OPTION_FIELDS = new Set(['folders', 'min_confidence', 'max_staleness_days', 'include_archived', 'max_results']);

/**
 * Turns the typed line into a filter request: `field=value`, `field>=7` clauses become `where`;
 * `folders=all`, `min_confidence=likely`, `max_staleness_days=30`, `include_archived=true` and
 * `max_results=N` set the seed's options, so the whole request can be typed in one line.
 */
export function filterRequestFromText(text: string): ReaderRequest {
	const where: string[] = [];
	const request: ReaderRequest = { operation: 'filter' };
	for (const clause of splitWhereText(text)) {
		const eq = clause.indexOf('=');
		const field = eq > 0 ? clause.slice(0, eq).trim() : '';
		const value = eq > 0 ? clause.slice(eq + 1).trim() : '';
		if (!OPTION_FIELDS.has(field) || clause[eq - 1] === '>' || clause[eq - 1] === '<' || clause[eq - 1] === '!') {
			where.push(clause);
			continue;
		}
		if (field === 'folders')
			request.folders = value
				.split(',')
				.map((f) => f.trim())
				.filter((f) => f !== '');
		else if (field === 'min_confidence') request.min_confidence = value;
		else if (field === 'include_archived') request.include_archived = value === 'true' || value === 'yes';
		else if (field === 'max_staleness_days') request.max_staleness_days = Number(value);
		else request.max_results = Number(value);
	}
	request.where = where;
	return request;
}

/**
 * "Filter notes by properties": a one-line filter (`type=claim rating>=7 folders=all`) validated
 * against the vault's schema note; shows the matching notes and, folded, the retrieval report
 * in the seed's layout — the same text as `vault-query filter --report`.
 */
export class FilterModal extends Modal {
	private inputEl: HTMLInputElement | null = null;
	private resultEl: HTMLElement | null = null;

	/** `initial` pre-fills the input (the last filter run). */
	constructor(
		app: App,
		private readonly run: RunReader,
		private readonly initial: string,
		private readonly remember: (text: string) => void,
	) {
		super(app);
	}

	/** Builds the input row and an empty result area. */
	override onOpen(): void {
		this.modalEl.addClass('vault-query-modal');
		this.titleEl.setText('Filter notes by properties');
		const form = this.contentEl.createDiv('vault-query-filter-form');
		const input = form.createEl('input', {
			type: 'text',
			cls: 'vault-query-filter-input',
			attr: { 'aria-label': 'Filter', placeholder: 'For example: status=open rating>=7 folders=all' },
		});
		input.value = this.initial;
		const button = form.createEl('button', { text: 'Run', cls: 'mod-cta' });
		this.contentEl.createDiv({
			cls: 'vault-query-prompt-help',
			text: 'Clauses: field=value, field!=value, field>=value (numbers and dates), tags=a|b. Options: folders=all, min_confidence=likely, max_staleness_days=30, include_archived=true, max_results=25. Fields and values are checked against the schema note.',
		});
		this.resultEl = this.contentEl.createDiv();
		input.addEventListener('keydown', (evt) => {
			if (evt.key !== 'Enter') return;
			evt.preventDefault();
			void this.submit();
		});
		button.addEventListener('click', () => void this.submit());
		this.inputEl = input;
		input.focus();
	}

	/** Clears the content. */
	override onClose(): void {
		this.contentEl.empty();
	}

	private async submit(): Promise<void> {
		const text = this.inputEl?.value.trim() ?? '';
		const resultEl = this.resultEl;
		if (resultEl === null) return;
		if (text === '') {
			new Notice('Type at least one clause, such as status=open.');
			return;
		}
		this.remember(text);
		const report = await this.run(filterRequestFromText(text));
		renderQueryResult(resultEl, report, (path, line, evt) => this.openNote(path, line, evt));
		const details = resultEl.createEl('details', { cls: 'vault-query-details' });
		details.createEl('summary', { text: 'Retrieval report' });
		details.createEl('pre', { cls: 'vault-query-report', text: renderReport(report) });
	}

	private openNote(path: string, line: number | undefined, evt: MouseEvent | KeyboardEvent): void {
		// Close first so the note opens in the workspace, not behind the modal.
		if (this.app.vault.getAbstractFileByPath(path) !== null) this.close();
		openNoteAt(this.app, path, line, evt);
	}
}
