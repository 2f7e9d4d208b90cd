import type { EngineStatus } from '../../core/engine/engine';
import { boolFlag, numberFlag, positionals, UsageError, type ParsedArgs } from '../args';
import { emitAnswer, EXIT, type Command } from '../command';
import { displayLines } from '../../core/display';
import { renderFooter } from '../../core/query/render-text';
import { openCliVault } from '../vault';

/** The note `note` names, or a usage error when it names none. */
function refOf(args: ParsedArgs): string {
	const [ref] = positionals(args, ['note']);
	if (ref.trim() === '') throw new UsageError('missing "<note>"');
	return ref;
}

/** `vault-query note "<Note#Heading>" [--from N] [--to N]`: a note or one section of it, verbatim, with its line range. */
export const noteCommand: Command = {
	name: 'note',
	summary: 'a note, or one #Heading / #^block section of it, verbatim with its 1-based line range',
	usage: '"<note>[#Heading|#^block-id]"',
	examples: [
		'vault-query note "Internal links#Link to a block in a note"',
		'vault-query note "decisions/README.md" --from 10 --to 20',
		'vault-query note "Topic#^summary" --json',
	],
	flags: {
		from: {
			kind: 'number',
			value: 'N',
			range: [1, 100_000_000],
			help: 'first line to print (a file line inside the note or section)',
		},
		to: { kind: 'number', value: 'N', range: [1, 100_000_000], help: 'last line to print (inclusive)' },
	},
	check: (args) => void refOf(args),
	run: async (args, io) => {
		const ref = refOf(args);
		const { engine } = await openCliVault(args, io);
		const answer = await engine.note({ ref, from: numberFlag(args, 'from'), to: numberFlag(args, 'to') });
		// The heading line is vault text like any other: escaped so a file name cannot start a line of its own.
		return emitAnswer(args, io, 'note', answer, () => {
			const found = answer.results[0]!;
			return [
				displayLines([
					`${found.path}${found.section === null ? '' : ` › ${found.section}`}  (lines ${found.lines[0]}–${found.lines[1]} of ${found.total_lines})`,
				]),
				'',
				found.text,
			].join('\n');
		});
	},
};

/** The status report as a few readable lines. */
function renderStatus(status: EngineStatus): string {
	const lines = [
		`${status.vault_path}`,
		`  notes: ${status.notes}, in scope: ${status.in_scope}, search index: ${status.search_index}${status.indexed === null ? '' : ` (${status.indexed} notes, ${status.build_ms ?? 0} ms)`}`,
	];
	if (status.keyword_index !== null) lines.push(`  keyword index: ${status.keyword_index}`);
	return displayLines([
		...lines,
		...renderFooter(
			{
				status: 'success',
				query: {},
				searched: { files: 0, folders: [] },
				matched: 0,
				results: [],
				skipped: status.skipped,
				limitations: status.exclusions,
			},
			{ verbose: true },
		),
	]);
}

/** `vault-query status`: what the engine indexes, what it leaves out and why. */
export const statusCommand: Command = {
	name: 'status',
	summary: 'what would be searched: notes, notes in scope, the search index, and every note skipped with its reason',
	usage: '',
	examples: ['vault-query status', 'vault-query status --json'],
	flags: {
		'build-index': {
			kind: 'boolean',
			help: 'build the ranked-search index first, so its size, build time and skips are reported',
		},
	},
	check: (args) => void positionals(args, []),
	run: async (args, io) => {
		const { engine } = await openCliVault(args, io);
		if (boolFlag(args, 'build-index')) await engine.searchIndex();
		const status = engine.status();
		io.stdout(boolFlag(args, 'json') ? JSON.stringify(status, null, 2) : renderStatus(status));
		return EXIT.results;
	},
};
