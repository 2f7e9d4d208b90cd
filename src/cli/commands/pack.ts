import { boolFlag, numberFlag, queryText, stringFlag, UsageError } from '../args';
import { EXIT, type Command } from '../command';
import { ENGINE_FLAGS, openEngineForCli } from '../vault';

/**
 * `vault-query pack "<query>" [--budget N] [--task "…"] [--include-drafts] [--include-archived]
 * [--today YYYY-MM-DD] [--json]`: a citation-ready context pack within a token budget (seed 004).
 * Markdown by default (PACK, COVERAGE, GAPS, HANDOFF), the whole result object with `--json`.
 */
export const packCommand: Command = {
	name: 'pack',
	summary: 'a context pack for an agent: verbatim quotes with source ids, coverage, gaps and a handoff, within a token budget',
	usage: '"<query>"',
	examples: [
		'vault-query pack "如何链接到标题？"',
		'vault-query pack "how do I sync, and is it encrypted?" --budget 1500 --task "write a FAQ entry"',
		'vault-query pack "[[Internal links#Link to a block in a note]]" --json',
		'vault-query pack "project status" --include-drafts --include-archived',
	],
	flags: {
		budget: { kind: 'number', value: 'N', range: [1, 1_000_000], help: 'token budget of the whole pack (default 2000; the handoff says when the default was used)' },
		task: { kind: 'string', value: 'TEXT', help: "the downstream agent's task, passed on in the handoff" },
		'include-drafts': { kind: 'boolean', help: 'keep notes with status: draft' },
		'include-archived': { kind: 'boolean', help: 'keep archived notes (status archived/archive, archived: true, #archive tags)' },
		today: { kind: 'string', value: 'YYYY-MM-DD', help: "the handoff's built_at (default: today, UTC)" },
		...ENGINE_FLAGS,
	},
	run: async (args, io) => {
		const query = queryText(args);
		const today = stringFlag(args, 'today');
		if (today !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(today)) throw new UsageError(`--today must be a day (YYYY-MM-DD), got "${today}"`);
		const engine = await openEngineForCli(args, io);
		const pack = await engine.pack({
			query,
			budget: numberFlag(args, 'budget'),
			task: stringFlag(args, 'task'),
			// why: an absent flag leaves the choice to the settings (data.json), not to false.
			includeDrafts: boolFlag(args, 'include-drafts') || undefined,
			includeArchived: boolFlag(args, 'include-archived') || undefined,
			builtAt: today,
		});
		if (boolFlag(args, 'json')) io.stdout(JSON.stringify(pack, null, 2));
		else if (pack.status !== 'failed') io.stdout(pack.markdown.trimEnd());
		if (pack.status === 'failed') {
			io.stderr(`vault-query pack: ${pack.error ?? 'failed'}`);
			return EXIT.couldNotSearch;
		}
		return pack.pack.length > 0 ? EXIT.results : EXIT.nothingMatched;
	},
};
