import { PACK } from '../../core/query/registry';
import { UsageError } from '../args';
import { emitAnswer } from '../command';
import { openCliVault } from '../vault';
import { DAY_PATTERN } from '../../core/note-date';
import { rankedCommand } from './ranked';

/**
 * `vault-query pack "<query>" [--budget N] [--task "…"] [--include-drafts] [--include-archived]
 * [--today YYYY-MM-DD] [--json]`: a citation-ready context pack within a token budget (seed 004).
 * Markdown by default (PACK, COVERAGE, GAPS, HANDOFF), the whole result object with `--json`.
 */
export const packCommand = rankedCommand(
	PACK,
	[
		'vault-query pack "如何链接到标题？"',
		'vault-query pack "how do I sync, and is it encrypted?" --budget 1500 --task "write a FAQ entry"',
		'vault-query pack "[[Internal links#Link to a block in a note]]" --json',
		'vault-query pack "project status" --include-drafts --include-archived',
	],
	async (args, io, request) => {
		const { engine } = await openCliVault(args, io);
		const pack = await engine.pack(request);
		return emitAnswer(args, io, PACK.name, pack, () => pack.markdown.trimEnd(), pack.pack.length > 0);
	},
	({ builtAt: today }) => {
		if (today !== undefined && !DAY_PATTERN.test(today))
			throw new UsageError(`--today must be a day (YYYY-MM-DD), got "${today}"`);
	},
);
