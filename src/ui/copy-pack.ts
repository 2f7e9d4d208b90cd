import { Modal, Notice, type App } from 'obsidian';
import type { ContextPack, PackRequest } from '../core/pack/pack';
import { PACK } from '../core/query/registry';

/**
 * The "Copy context pack" command: the question comes from the editor selection, else from a
 * prompt pre-filled with the active note's title; the pack (budget from the settings) goes to
 * the clipboard as Markdown, and a notice says how many tokens of the budget it used, how many
 * sources it cites and how many gaps it lists.
 */

/** What the command needs from the plugin. */
export interface CopyPackContext {
	app: App;
	/** Token budget from the settings. */
	budget: () => number;
	/** Builds the pack (waits for the search index; answers `failed` before the vault is loaded). */
	pack: (request: PackRequest) => Promise<ContextPack>;
	/** Whether the search index is built (else the notice says the first pack takes a moment). */
	indexReady: () => boolean;
	/** Where the Markdown goes (default: the system clipboard). */
	writeClipboard?: (text: string) => Promise<void>;
}

/** The notice after a copy: tokens used of the budget, sources, gaps. */
export function packNotice(pack: ContextPack): string {
	const { tokens_used, token_budget, source_count } = pack.handoff;
	const gaps = pack.gaps.length;
	const n = (count: number, one: string): string =>
		`${count.toLocaleString('en-US')} ${one}${count === 1 ? '' : 's'}`;
	return `Context pack copied: ${tokens_used.toLocaleString('en-US')} of ${n(token_budget, 'token')}, ${n(source_count, 'source')}, ${n(gaps, 'gap')}.`;
}

/** The selection in the active editor, trimmed ('' when none). */
function selectedText(app: App): string {
	return app.workspace.activeEditor?.editor?.getSelection().trim() ?? '';
}

/** Build the pack for `query`, copy its Markdown, and say what was copied (or why nothing was). */
export async function copyPack(ctx: CopyPackContext, query: string): Promise<ContextPack | null> {
	const working = ctx.indexReady() ? null : new Notice('Building the search index for the first context pack…');
	try {
		const pack = await ctx.pack({ query, budget: ctx.budget() });
		if (pack.status === 'failed') {
			new Notice(`No context pack: ${pack.error ?? 'it could not be built'}`);
			return pack;
		}
		await (ctx.writeClipboard ?? ((text) => navigator.clipboard.writeText(text)))(pack.markdown);
		new Notice(packNotice(pack));
		return pack;
	} catch (error) {
		console.error('Vault Query: context pack failed', error);
		new Notice(`The context pack failed: ${error instanceof Error ? error.message : String(error)}`);
		return null;
	} finally {
		working?.hide();
	}
}

/** Run the command: the selection when there is one, else the prompt. */
export function runCopyPackCommand(ctx: CopyPackContext): void {
	const selection = selectedText(ctx.app);
	if (selection !== '') {
		void copyPack(ctx, selection);
		return;
	}
	const initial = ctx.app.workspace.getActiveFile()?.basename ?? '';
	new PackQueryModal(ctx.app, initial, (query) => void copyPack(ctx, query)).open();
}

/** The prompt for the pack's question: one text field (Enter copies) and a button. */
export class PackQueryModal extends Modal {
	private readonly inputEl: HTMLInputElement;

	/** `initial` pre-fills the field (selected, so typing replaces it). */
	constructor(
		app: App,
		private readonly initial: string,
		private readonly onSubmit: (query: string) => void,
	) {
		super(app);
		this.titleEl.setText('Copy context pack');
		this.modalEl.addClass('vault-query-pack-modal');
		this.contentEl.createEl('p', {
			cls: 'setting-item-description',
			text: 'Ask a question: the pack quotes the notes that answer it, within the token budget from the settings.',
		});
		this.inputEl = this.contentEl.createEl('input', {
			type: 'text',
			cls: 'vault-query-pack-input',
			attr: { placeholder: 'What should the pack answer?' },
		});
		const buttons = this.contentEl.createDiv('modal-button-container');
		const copy = buttons.createEl('button', { cls: 'mod-cta', text: 'Copy' });
		copy.addEventListener('click', () => this.submit());
		this.inputEl.addEventListener('keydown', (evt) => {
			if (evt.key !== 'Enter' || evt.isComposing) return;
			evt.preventDefault();
			this.submit();
		});
	}

	/** Pre-fills and selects the field. */
	override onOpen(): void {
		this.inputEl.value = this.initial;
		this.inputEl.focus();
		this.inputEl.select();
	}

	/** Copy for the typed question, or say what is missing (the registry's pack entry reads the line). */
	private submit(): void {
		const request = PACK.fromText(this.inputEl.value);
		if (typeof request === 'string') {
			new Notice(request);
			return;
		}
		this.close();
		this.onSubmit(request.query);
	}
}
