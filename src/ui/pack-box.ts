import type { ContextPack } from '../core/pack/pack';
import { copyPack } from './copy-pack';
import { plural } from './dom';
import type { FacesHost } from './host';

/**
 * The side panel's "Copy context pack": a token budget field (the setting's budget to start
 * with), the button, and a status line with the tokens the pack used, its sources and gaps.
 */

/** The status line after a copy. */
export function packStatus(pack: ContextPack, question: string): string {
	if (pack.status === 'failed') return `No context pack: ${pack.error ?? 'it could not be built'}`;
	const { tokens_used, token_budget, source_count } = pack.handoff;
	return `"${question}": ${tokens_used.toLocaleString('en-US')} of ${plural(token_budget, 'token')} used · ${plural(source_count, 'source')} · ${plural(pack.gaps.length, 'gap')}`;
}

/** The budget field, button and status line. */
export class PackBox {
	/** The token budget input. */
	readonly budgetEl: HTMLInputElement;
	/** The copy button. */
	readonly buttonEl: HTMLButtonElement;
	/** What the last copy did. */
	readonly statusEl: HTMLElement;

	/** `question` says what to pack when the button is pressed. */
	constructor(
		parent: HTMLElement,
		private readonly host: FacesHost,
		private readonly question: () => string,
	) {
		const row = parent.createDiv('vault-query-pack-row');
		const label = row.createEl('label', { cls: 'vault-query-pack-budget' });
		label.createSpan({ text: 'Budget' });
		this.budgetEl = label.createEl('input', {
			type: 'number',
			attr: { min: 1, step: 100, 'aria-label': 'Token budget', inputmode: 'numeric' },
		});
		this.budgetEl.value = String(host.budget());
		label.createSpan({ cls: 'vault-query-pack-unit', text: 'tokens' });
		this.buttonEl = row.createEl('button', { cls: 'mod-cta', text: 'Copy context pack' });
		this.buttonEl.addEventListener('click', () => void this.copy());
		this.statusEl = parent.createDiv({ cls: 'vault-query-pack-status', attr: { 'aria-live': 'polite' } });
		parent.createDiv({
			cls: 'vault-query-panel-hint',
			text: "Packs the query above, or this note's title when the query is empty.",
		});
	}

	/** The budget typed, or null when it is not a whole number of at least 1. */
	budget(): number | null {
		const value = Number(this.budgetEl.value);
		return Number.isInteger(value) && value >= 1 ? value : null;
	}

	/** Builds the pack, copies it and reports; resolves with the pack (null when nothing was built). */
	async copy(): Promise<ContextPack | null> {
		const question = this.question().trim();
		const budget = this.budget();
		if (question === '') {
			this.statusEl.setText('Type a query above, or open a note.');
			return null;
		}
		if (budget === null) {
			this.statusEl.setText('The budget must be a whole number of tokens, such as 2000.');
			return null;
		}
		this.buttonEl.disabled = true;
		this.statusEl.setText('Building the context pack…');
		try {
			const pack = await copyPack(
				{
					app: this.host.app,
					budget: () => budget,
					pack: (request) => this.host.pack(request),
					indexReady: () => this.host.searchIndexReady(),
				},
				question,
			);
			this.statusEl.setText(
				pack === null ? 'The context pack failed (see the notice).' : packStatus(pack, question),
			);
			return pack;
		} finally {
			this.buttonEl.disabled = false;
		}
	}
}
