import { Notice, SuggestModal, type App } from 'obsidian';
import type { StructuredQuery } from '../core/query/types';
import type { ArgumentChoice, CommandContext, QueryCommandSpec } from './query-commands';

/** How many candidate values the prompt lists at most (the typed text is always offered too). */
const MAX_CHOICES = 50;

/**
 * The prompt that reads a query command's one argument: a text input with suggestions (tags,
 * property keys and values, note names) and, first, whatever the user typed, so any argument can
 * be run. Choosing parses the argument; a bad one is explained in a notice.
 */
export class QueryPromptModal extends SuggestModal<ArgumentChoice> {
	private readonly candidateCache = new Map<string, ArgumentChoice[]>();

	/** `onSubmit` receives the parsed query; the modal is already closed by then. */
	constructor(
		app: App,
		private readonly spec: QueryCommandSpec,
		private readonly ctx: CommandContext,
		private readonly onSubmit: (query: StructuredQuery) => void,
	) {
		super(app);
		this.limit = MAX_CHOICES + 1;
		this.emptyStateText = spec.help;
		this.setPlaceholder(spec.placeholder);
		this.setInstructions([
			{ command: '↑↓', purpose: 'to navigate' },
			{ command: '↵', purpose: 'to run the query' },
			{ command: 'esc', purpose: 'to dismiss' },
		]);
		this.modalEl.addClass('vault-query-prompt');
		const help = this.modalEl.createDiv({ cls: 'vault-query-prompt-help', text: spec.help });
		if (this.resultContainerEl.parentElement === this.modalEl)
			this.modalEl.insertBefore(help, this.resultContainerEl);
		this.inputEl.value = spec.initialInput(ctx);
	}

	/** Shows suggestions for the pre-filled argument at once, selected so that typing replaces it. */
	override onOpen(): void {
		void super.onOpen();
		this.inputEl.dispatchEvent(new Event('input'));
		this.inputEl.select();
	}

	/** The typed text first (unless a candidate equals it), then matching candidates. */
	getSuggestions(input: string): ArgumentChoice[] {
		const typed = input.trim();
		const needle = typed.toLowerCase();
		const matching = this.candidates(input).filter(
			(c) => needle === '' || c.value.toLowerCase().includes(needle) || c.label.toLowerCase().includes(needle),
		);
		const exact = matching.some((c) => c.value.toLowerCase() === needle);
		const choices = matching.slice(0, MAX_CHOICES);
		if (typed !== '' && !exact) choices.unshift({ value: input, label: input, note: 'Run with what you typed' });
		return choices;
	}

	/** Title line plus an optional muted note, in Obsidian's suggestion layout. */
	renderSuggestion(choice: ArgumentChoice, el: HTMLElement): void {
		el.addClass('mod-complex');
		const content = el.createDiv('suggestion-content');
		content.createDiv({ cls: 'suggestion-title', text: choice.label });
		if (choice.note !== undefined) content.createDiv({ cls: 'suggestion-note', text: choice.note });
	}

	/** Parse and hand over the query, or say what is wrong with the argument. */
	onChooseSuggestion(choice: ArgumentChoice): void {
		const parsed = this.spec.parse(choice.value);
		if (typeof parsed === 'string') {
			new Notice(parsed);
			return;
		}
		this.onSubmit(parsed);
	}

	/** Candidates are computed once per prompt (and per property key), not on every keystroke. */
	private candidates(input: string): ArgumentChoice[] {
		const scope = this.spec.candidateScope?.(input) ?? '';
		let list = this.candidateCache.get(scope);
		if (!list) {
			list = this.spec.candidates(this.ctx, input);
			this.candidateCache.set(scope, list);
		}
		return list;
	}
}
