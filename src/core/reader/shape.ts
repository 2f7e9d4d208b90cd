import { bodyOf } from '../note-info';
import type { QueryContext } from '../query/context';
import { toNoteResult, type Hit } from '../query/envelope';
import { vaultFilePath } from '../schema/load';
import { outboundLinks, outgoingLinks } from './graph';
import type { ReaderPlan } from './request';
import type { ReaderNoteResult } from './types';

/**
 * One result as the report shows it: the engine's note result (frontmatter, excerpt, links),
 * the inbound and outbound counts, the full body on request, and for `graph` both link lists.
 * Outbound counts body and frontmatter links, as inbound does (Obsidian's meaning of a link); inbound are links from the scope.
 */
export async function toReaderResult(ctx: QueryContext, hit: Hit, plan: ReaderPlan): Promise<ReaderNoteResult> {
	const base = await toNoteResult(ctx, hit);
	const result: ReaderNoteResult = {
		...base,
		inbound_count: base.backlinks.length,
		outbound_count: outgoingLinks(ctx.graph, hit.path).length,
	};
	if (plan.fullBody && ctx.source.getSkipReason(hit.path) === null) {
		// The body starts at the closing `---`'s line end; its newline belongs to the frontmatter block.
		result.body = bodyOf(await ctx.source.read(hit.path), ctx.source.getMetadata(hit.path)).replace(/^\r?\n/, '');
	}
	if (plan.operation === 'graph') {
		const absolute = plan.resolveWikilinks ? (path: string): string => vaultFilePath(ctx.source, path) : null;
		result.outbound = outboundLinks(ctx.graph, hit.path, plan.knownSkillRefs, absolute);
		result.inbound = base.backlinks;
	}
	return result;
}

/** Shape hits in order (sequentially: reads go through the port one at a time, as the engine's do). */
export async function shapeResults(
	ctx: QueryContext,
	hits: readonly Hit[],
	plan: ReaderPlan,
): Promise<ReaderNoteResult[]> {
	const results: ReaderNoteResult[] = [];
	for (const hit of hits) results.push(await toReaderResult(ctx, hit, plan));
	return results;
}
