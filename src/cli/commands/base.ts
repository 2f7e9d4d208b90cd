import { renderBaseCsv, renderBaseMarkdown, renderBaseText } from '../../core/bases/index';
import { displayLines } from '../../core/display';
import { boolFlag, numberFlag, positionals, stringFlag, UsageError } from '../args';
import { emitAnswer, type Command } from '../command';
import { openCliVault } from '../vault';

const FORMATS = ['text', 'csv', 'markdown'];

/** `vault-query base FILE [--view NAME] [--this NOTE]`: a base's view evaluated outside Obsidian. */
export const baseCommand: Command = {
	name: 'base',
	summary: 'evaluate a base (a .base file, or NOTE#base for a base block) and print the rows of one of its views',
	usage: '<file.base[#View] | note#base>',
	examples: [
		'vault-query base Books.base --view "Top rated"',
		'vault-query base "Books.base#Top rated" --json',
		'vault-query base Movies.base --view Director --this "Ridley Scott"',
		'vault-query base "Daily note#base" --format csv',
		'vault-query base Books.base --list',
	],
	flags: {
		view: { kind: 'string', value: 'NAME', help: "the view to show (default: the base's first view)" },
		this: {
			kind: 'string',
			value: 'NOTE',
			help: 'the note `this` stands for (default: the base file, or the note holding the block)',
		},
		limit: { kind: 'number', value: 'N', help: "at most N rows (overrides the view's own limit)" },
		format: { kind: 'string', value: 'FORMAT', help: 'text (default), csv or markdown' },
		list: { kind: 'boolean', help: "list the base's views instead of evaluating one" },
	},
	check: (args) => {
		const [base] = positionals(args, ['base']);
		if (base.trim() === '') throw new UsageError('missing <file.base> or <note#base>');
		const format = stringFlag(args, 'format') ?? 'text';
		if (!FORMATS.includes(format))
			throw new UsageError(`--format: "${format}" is not one of ${FORMATS.join(', ')}`);
	},
	run: async (args, io) => {
		const [base] = positionals(args, ['base']);
		const format = stringFlag(args, 'format') ?? 'text';
		const { engine } = await openCliVault(args, io);
		const result = await engine.base({
			base,
			view: stringFlag(args, 'view'),
			this: stringFlag(args, 'this'),
			limit: numberFlag(args, 'limit'),
			list: boolFlag(args, 'list'),
		});
		const text = (): string => {
			if (format === 'csv') return renderBaseCsv(result);
			if (format === 'markdown') return renderBaseMarkdown(result);
			return displayLines(renderBaseText(result).split('\n'));
		};
		return emitAnswer(args, io, 'base', result, text, result.view === null || result.matched > 0);
	},
};
