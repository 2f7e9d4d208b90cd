import { Modal, Notice, type App } from 'obsidian';
import { openNoteAt } from './open-note';
import { activatable, linkPathLine, plural } from './dom';
import type { LineMatch, LinkResult, LinkSource, NoteResult, QueryResult } from '../core/contract';

/**
 * A query's result in a modal: a summary line, any error or "did you mean", one row per result
 * (title, path, how it links or the matching lines), and the report's skipped files and
 * limitations folded away. Clicking a row (or Enter on it) opens the note; Mod-click opens it in
 * a new tab. Built with createEl/createDiv only; all styling is in styles.css.
 */

/** Opens a vault path, optionally at a 1-based line, honouring the modifier keys of `evt`. */
export type OpenNote = (path: string, line: number | undefined, evt: MouseEvent | KeyboardEvent) => void;

/** Any structural query's result. */
export type AnyResult = QueryResult<NoteResult> | QueryResult<LinkResult>;

const SOURCE_LABEL: Record<LinkSource, string> = {
	body: 'Body',
	frontmatter: 'Properties',
	both: 'Body and properties',
};

function isLinkResult(result: NoteResult | LinkResult): result is LinkResult {
	return 'linkpath' in result;
}

function renderBadge(parent: HTMLElement, source: LinkSource): void {
	parent.createSpan({ cls: ['vault-query-badge', `mod-${source}`], text: SOURCE_LABEL[source] });
}

function renderMatch(parent: HTMLElement, path: string, match: LineMatch, open: OpenNote): void {
	const row = parent.createDiv('vault-query-match');
	row.createSpan({ cls: 'vault-query-line-number', text: String(match.line) });
	row.createSpan({ cls: 'vault-query-line-text', text: match.text });
	activatable(row, (evt) => open(path, match.line, evt));
}

function renderNote(list: HTMLElement, result: NoteResult, open: OpenNote): void {
	const item = list.createDiv('vault-query-result');
	const header = item.createDiv('vault-query-result-header');
	header.createSpan({ cls: 'vault-query-result-title', text: result.title });
	if (result.source) renderBadge(header, result.source);
	item.createDiv({ cls: 'vault-query-result-path', text: result.path });
	if (result.matches && result.matches.length > 0) {
		const matches = item.createDiv('vault-query-matches');
		for (const match of result.matches) renderMatch(matches, result.path, match, open);
	}
	activatable(item, (evt) => open(result.path, undefined, evt));
}

function renderLink(list: HTMLElement, result: LinkResult, open: OpenNote): void {
	const item = list.createDiv('vault-query-result');
	const header = item.createDiv('vault-query-result-header');
	header.createSpan({ cls: 'vault-query-result-title', text: result.linkpath });
	renderBadge(header, result.source);
	if (result.count > 1) header.createSpan({ cls: 'vault-query-count', text: `×${result.count}` });
	const resolved = linkPathLine(item, result, 'Unresolved: no file by this name');
	if (resolved !== null) activatable(item, (evt) => open(resolved, undefined, evt));
}

function renderDetails(parent: HTMLElement, summary: string, lines: string[]): void {
	if (lines.length === 0) return;
	const details = parent.createEl('details', { cls: 'vault-query-details' });
	details.createEl('summary', { text: summary });
	const ul = details.createEl('ul');
	for (const line of lines) ul.createEl('li', { text: line });
}

/** One line saying how many results there are out of how many notes searched. */
export function summaryLine(result: AnyResult): string {
	if (result.status === 'failed') return 'The query could not run.';
	const shown = result.results.length;
	const count =
		shown < result.matched
			? `Showing ${shown} of ${result.matched} matches`
			: plural(result.matched, 'match', 'matches');
	const partial = result.status === 'partial' ? ' (partial: see skipped files below)' : '';
	return `${count} · searched ${plural(result.searched.files, 'note')}${partial}`;
}

/** Renders a result into `el` (emptied first); reusable by a later side panel. */
export function renderQueryResult(el: HTMLElement, result: AnyResult, open: OpenNote): void {
	el.empty();
	el.addClass('vault-query-results');
	el.createDiv({ cls: ['vault-query-summary', `mod-${result.status}`], text: summaryLine(result) });
	if (result.error !== undefined) el.createDiv({ cls: 'vault-query-error', text: result.error });
	if (result.suggestions && result.suggestions.length > 0) {
		const box = el.createDiv('vault-query-suggestions');
		for (const suggestion of result.suggestions) box.createDiv({ text: suggestion });
	}
	if (result.status !== 'failed') {
		const list = el.createDiv('vault-query-list');
		const rows: (NoteResult | LinkResult)[] = result.results;
		if (rows.length === 0) list.createDiv({ cls: 'vault-query-empty', text: 'Nothing matched.' });
		for (const row of rows) {
			if (isLinkResult(row)) renderLink(list, row, open);
			else renderNote(list, row, open);
		}
	}
	renderDetails(
		el,
		`Skipped (${result.skipped.length})`,
		result.skipped.map((s) => `${s.path}: ${s.reason}`),
	);
	renderDetails(el, `About this search (${result.limitations.length})`, result.limitations);
}

/** Opens the result of `answer` in a {@link ResultsModal}; a query that throws is a notice, not a silent nothing. */
export async function showQueryResults(app: App, title: string, answer: Promise<AnyResult>): Promise<void> {
	try {
		new ResultsModal(app, title, await answer).open();
	} catch (error) {
		console.error('Vault Query: query failed', error);
		new Notice(`The query failed: ${error instanceof Error ? error.message : String(error)}`);
	}
}

/** The modal showing one query's result. */
export class ResultsModal extends Modal {
	/** `title` names the query ("Backlinks of conventions"). */
	constructor(
		app: App,
		private readonly title: string,
		private readonly result: AnyResult,
	) {
		super(app);
	}

	/** Renders the result. */
	override onOpen(): void {
		this.modalEl.addClass('vault-query-modal');
		// titleEl rather than setTitle(), whose first release is not recorded in obsidian.d.ts (minAppVersion 1.4.0).
		this.titleEl.setText(this.title);
		renderQueryResult(this.contentEl, this.result, (path, line, evt) => this.openNote(path, line, evt));
	}

	/** Clears the content. */
	override onClose(): void {
		this.contentEl.empty();
	}

	private openNote(path: string, line: number | undefined, evt: MouseEvent | KeyboardEvent): void {
		// Close first so the note opens in the workspace, not behind the modal.
		if (this.app.vault.getAbstractFileByPath(path) !== null) this.close();
		openNoteAt(this.app, path, line, evt);
	}
}
