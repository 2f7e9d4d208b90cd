import type { ContextPack } from '../core/pack/pack';
import { activatable, plural } from './dom';
import type { OpenNote } from './results-modal';

/**
 * A context pack drawn in the DOM (a `vault-query` block with `pack:`): the budget line, each
 * source with its path, section, lines and date over its verbatim quotes (a click opens the note
 * at the first line), COVERAGE per sub-question, and GAPS.
 */

/** `[first–last]` or `[line]`, as the Markdown pack writes line ranges. */
function lineLabel(lines: [number, number]): string {
	return lines[0] === lines[1] ? `line ${lines[0]}` : `lines ${lines[0]}–${lines[1]}`;
}

/** The one-line summary of a pack. */
export function packSummary(pack: ContextPack): string {
	const { tokens_used, token_budget, source_count } = pack.handoff;
	return `${tokens_used.toLocaleString('en-US')} of ${plural(token_budget, 'token')} · ${plural(source_count, 'source')} · ${plural(pack.gaps.length, 'gap')}`;
}

/** Renders `pack` into `el` (emptied first). */
export function renderPack(el: HTMLElement, pack: ContextPack, open: OpenNote): void {
	el.empty();
	el.addClass('vault-query-pack-view');
	if (pack.status === 'failed') {
		el.createDiv({ cls: 'vault-query-error', text: `No context pack: ${pack.error ?? 'it could not be built'}` });
		return;
	}
	el.createDiv({ cls: 'vault-query-summary', text: packSummary(pack) });
	for (const source of pack.pack) {
		const box = el.createDiv('vault-query-pack-source');
		const head = box.createDiv('vault-query-pack-source-head');
		head.createSpan({ cls: 'vault-query-pack-id', text: source.id });
		head.createSpan({ cls: 'vault-query-hit-title', text: `${source.path} § ${source.section}` });
		head.createSpan({ cls: 'vault-query-result-path', text: `${lineLabel(source.lines)} · ${source.date}` });
		activatable(
			head,
			(evt) => open(source.path, source.lines[0], evt),
			`Open ${source.path} at line ${source.lines[0]}`,
		);
		for (const quote of source.quotes) box.createEl('blockquote', { cls: 'vault-query-quote', text: quote });
	}
	if (pack.coverage.length > 0) {
		el.createDiv({ cls: 'vault-query-panel-group-label', text: 'Coverage' });
		const list = el.createEl('ul', { cls: 'vault-query-pack-list' });
		for (const line of pack.coverage) {
			const ids = [...line.sources, ...line.partial_sources.map((s) => `${s} (partial)`)];
			list.createEl('li', {
				cls: `mod-${line.status}`,
				text: `${line.facet} — ${ids.length > 0 ? ids.join(', ') : 'GAP'}`,
			});
		}
	}
	if (pack.gaps.length > 0) {
		el.createDiv({ cls: 'vault-query-panel-group-label', text: 'Gaps' });
		const list = el.createEl('ul', { cls: 'vault-query-pack-list' });
		for (const gap of pack.gaps) {
			if (gap.notes === undefined) {
				list.createEl('li', { text: gap.text });
				continue;
			}
			// An unanswered sub-question's leads, listed once, each opening its note: what to read when no section answers.
			const matched = gap.matched ?? gap.notes.length;
			const shown = gap.notes.length < matched ? `, the first ${gap.notes.length}` : '';
			const item = list.createEl('li', {
				text: `"${gap.facet ?? ''}": no section answers it. ${plural(matched, 'note')} match${matched === 1 ? 'es' : ''} its words${shown}:`,
			});
			const leads = item.createEl('ul', { cls: 'vault-query-pack-leads' });
			for (const path of gap.notes) {
				const lead = leads.createEl('li', { cls: 'vault-query-result-path', text: path });
				activatable(lead, (evt) => open(path, 1, evt), `Open ${path}`);
			}
		}
	}
}
