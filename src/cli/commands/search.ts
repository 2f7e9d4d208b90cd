import { parseQuery, renderSearchMarkdown } from '../../core/search/search';
import { SEARCH } from '../../core/query/registry';
import { boolFlag, queryText, UsageError } from '../args';
import { emitAnswer, MORE, optionFlags, optionValues, type Command } from '../command';
import { ENGINE_FLAGS, openCliVault } from '../vault';

/** `vault-query search "<query>" [--limit N] [--json]`: ranked search with the seed's tiers (seed 003). */
export const searchCommand: Command = {
	name: SEARCH.name,
	summary: SEARCH.summary,
	usage: `"<${SEARCH.text.name}>"`,
	examples: [
		'vault-query search "front-end career developing suggestion"',
		'vault-query search "XSS 攻擊防禦" --limit 5',
		'vault-query search "tag:#security [status:open] xss" --json',
		'vault-query search -- "-tag:draft sync"',
		'vault-query search "weekly review" --folders Notes,Daily',
	],
	flags: { ...optionFlags(SEARCH.options), ...ENGINE_FLAGS },
	run: async (args, io) => {
		const query = queryText(args);
		// A /regex/ that does not compile fails before the vault is read.
		const invalid = parseQuery(query).error;
		if (invalid !== null) throw new UsageError(invalid);
		const { limit, folders } = SEARCH.build(query, optionValues(args, SEARCH.options));
		const { engine } = await openCliVault(args, io);
		const result = await engine.search(query, { limit, ...(folders ? { folders } : {}) });
		return emitAnswer(
			args,
			io,
			SEARCH.name,
			result,
			() =>
				renderSearchMarkdown(result, {
					vaultLabel: engine.source.vaultPath,
					more: MORE,
					verbose: boolFlag(args, 'verbose'),
				}).trimEnd(),
			result.results.length > 0,
		);
	},
};
