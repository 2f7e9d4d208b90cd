import { BasesView, type QueryController } from 'obsidian';
import type { ContextPack } from '../core/pack/pack';
import { copyPack } from './copy-pack';
import { plural } from './dom';
import type { FacesHost } from './host';
import { packStatus } from './pack-box';

/**
 * The Bases view type "Context pack": inside Obsidian the app evaluates the base; this view takes
 * the rows it shows (their notes) and packs exactly those notes for a question, with a copy
 * button. The question defaults to the view's name ("Top rated"); the budget is the setting's.
 */

/** The view type id registered with `registerBasesView`. */
export const CONTEXT_PACK_BASES_VIEW = 'vault-query-context-pack';

/** The notes among a result's rows (attachments are rows of a base too, but have no text to quote). */
export function notesOf(paths: readonly string[]): string[] {
	return paths.filter((p) => p.toLowerCase().endsWith('.md'));
}

/** The view: a line counting the notes, the question field, the copy button and a status line. */
export class ContextPackBasesView extends BasesView {
	readonly type = CONTEXT_PACK_BASES_VIEW;
	/** How many notes the rows hold. */
	readonly countEl: HTMLElement;
	/** The pack's question. */
	readonly questionEl: HTMLInputElement;
	/** The copy button. */
	readonly buttonEl: HTMLButtonElement;
	/** What the last copy did. */
	readonly statusEl: HTMLElement;
	private paths: string[] = [];

	constructor(
		controller: QueryController,
		containerEl: HTMLElement,
		private readonly host: FacesHost,
	) {
		super(controller);
		const root = containerEl.createDiv('vault-query-bases-pack');
		this.countEl = root.createDiv({ cls: 'vault-query-bases-pack-count' });
		this.questionEl = root.createEl('input', {
			type: 'text',
			cls: 'vault-query-pack-input',
			attr: { placeholder: 'What should the pack answer?', 'aria-label': 'Question for the context pack' },
		});
		this.buttonEl = root.createEl('button', { cls: 'mod-cta', text: 'Copy context pack' });
		this.buttonEl.addEventListener('click', () => void this.copy());
		this.statusEl = root.createDiv({ cls: 'vault-query-pack-status', attr: { 'aria-live': 'polite' } });
	}

	/** New rows from Obsidian: keep their notes, recount, and offer the view's name as the question. */
	onDataUpdated(): void {
		this.paths = notesOf(this.data.data.map((entry) => entry.file.path));
		this.countEl.setText(`${plural(this.paths.length, 'note')} in this view will be packed.`);
		if (this.questionEl.value.trim() === '') this.questionEl.value = this.config?.name ?? '';
	}

	/** Pack the view's notes for the question, copy the Markdown, and say what was copied. */
	async copy(): Promise<ContextPack | null> {
		const question = this.questionEl.value.trim();
		if (question === '') {
			this.statusEl.setText('Type a question for the pack.');
			return null;
		}
		if (this.paths.length === 0) {
			this.statusEl.setText('This view shows no notes to pack.');
			return null;
		}
		const paths = [...this.paths];
		this.buttonEl.disabled = true;
		try {
			const pack = await copyPack(
				{
					app: this.app,
					budget: () => this.host.budget(),
					pack: (request) => this.host.pack({ ...request, paths }),
					indexReady: () => this.host.searchIndexReady(),
				},
				question,
			);
			if (pack) this.statusEl.setText(packStatus(pack, question));
			return pack;
		} finally {
			this.buttonEl.disabled = false;
		}
	}
}
