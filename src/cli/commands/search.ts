import { parseQuery, renderSearchMarkdown } from '../../core/search/search';
import { SEARCH } from '../../core/query/registry';
import { boolFlag, UsageError } from '../args';
import { emitAnswer, MORE } from '../command';
import { openCliVault } from '../vault';
import { rankedCommand } from './ranked';

/** `vault-query search "<query>" [--limit N] [--json]`: ranked search with the seed's tiers (seed 003). */
export const searchCommand = rankedCommand(
	SEARCH,
	[
		'vault-query search "front-end career developing suggestion"',
		'vault-query search "XSS 攻擊防禦" --limit 5',
		'vault-query search "tag:#security [status:open] xss" --json',
		'vault-query search -- "-tag:draft sync"',
		'vault-query search "weekly review" --folders Notes,Daily',
	],
	async (args, io, { query, limit, folders }) => {
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
	// A /regex/ that does not compile fails before the vault is read (and before a server is started).
	({ query }) => {
		const invalid = parseQuery(query).error;
		if (invalid !== null) throw new UsageError(invalid);
	},
);
