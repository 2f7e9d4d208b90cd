/**
 * The short text each tool returns beside its structured JSON: what a person (or a client that
 * shows only text) needs to see at a glance. The JSON in `structuredContent` is the full answer.
 */
import type { LinkResult, NoteResult, QueryResult } from '../core/contract';
import type { NoteAnswer } from '../core/engine/engine';
import type { ContextPack } from '../core/pack/pack';
import { renderReport, type ReaderReport } from '../core/reader/index';
import type { SearchResult } from '../core/search/search';
import { renderText } from '../core/query/render-text';
import type { ServerStatus } from './status';

/** Lines for a failed answer: the error naming the parameter, then the hints. */
function failure(result: { error?: string; suggestions?: string[] }): string {
	return [`Error: ${result.error ?? 'failed'}`, ...(result.suggestions ?? []).map((s) => `  hint: ${s}`)].join('\n');
}

/** Limitations as a trailing block, when there are any. */
function limits(limitations: string[]): string[] {
	return limitations.length > 0 ? ['', 'Limitations:', ...limitations.map((l) => `  - ${l}`)] : [];
}

/** Ranked hits, one line each with tier and score, then the abstract. */
export function renderSearchText(result: SearchResult): string {
	if (result.status === 'failed') return failure(result);
	const skip = (result.query as { offset?: number }).offset ?? 0;
	const shown = result.results.length;
	const lines = [`${result.matched} notes matched, showing ${shown}${skip > 0 ? ` after offset ${skip}` : ''}`];
	for (const [i, hit] of result.results.entries()) {
		lines.push(`${i + 1}. ${hit.path} — ${hit.title} [${hit.tier}, score ${hit.score.toFixed(2)}]`);
		if (hit.abstract !== '') lines.push(`   ${hit.abstract.replace(/\s+/g, ' ').slice(0, 200)}`);
	}
	if (result.results.length === 0 && result.advice.length > 0) lines.push(...result.advice.map((a) => `Try: ${a}`));
	// A cut for size says its own next call (server.ts); a list that stopped at the limit says it here.
	const cut = (result as { truncated?: unknown }).truncated !== undefined;
	if (!cut && shown > 0 && result.matched > skip + shown)
		lines.push(`More: call search again with offset: ${skip + shown}.`);
	return [...lines, ...limits(result.limitations)].join('\n');
}

/** The CLI's listing of a structural query. */
export function renderQueryText(result: QueryResult<NoteResult> | QueryResult<LinkResult>, isLinks: boolean): string {
	return result.status === 'failed' ? failure(result) : renderText(result, isLinks, { verbose: true });
}

/** The seed's retrieval report layout. */
export function renderReadText(report: ReaderReport): string {
	return renderReport(report);
}

/** The pack's Markdown (PACK, COVERAGE, GAPS, HANDOFF), ready to paste into a chat. */
export function renderPackText(pack: ContextPack): string {
	return pack.status === 'failed' ? failure(pack) : pack.markdown.trimEnd();
}

/** A header line with the path and line range, then the verbatim text. */
export function renderNoteText(result: NoteAnswer): string {
	if (result.status === 'failed') return failure(result);
	const note = result.results[0]!;
	return [
		`${note.path}${note.section !== null ? ` › ${note.section}` : ''} (lines ${note.lines[0]}–${note.lines[1]} of ${note.total_lines})`,
		'',
		note.text,
		...limits(result.limitations),
	].join('\n');
}

/** Counts, freshness and the first skipped files. */
export function renderStatusText(status: ServerStatus): string {
	const lines = [
		`Vault: ${status.vault_path}`,
		`Notes: ${status.notes} (${status.in_scope} in scope, ${status.indexed ?? 0} in the search index, ${status.skipped.length} skipped)`,
		`Last refresh: ${status.last_refresh} (${status.refresh_ms} ms; ${status.builds} builds, ${status.changes_seen} changes seen${status.pending ? ', changes pending' : ''})`,
		`Watcher: ${status.watcher.running ? 'running' : `not running${status.watcher.error !== null ? ` (${status.watcher.error})` : ''}`}`,
		`Snapshot: ${status.snapshot.detail}`,
		`Memory: ${status.memory.rss_mb} MB resident (${status.memory.heap_used_mb} MB heap, ${status.memory.external_mb} MB outside it)`,
	];
	if (status.last_error !== null) lines.push(`Last refresh error: ${status.last_error}`);
	for (const skip of status.skipped.slice(0, 10)) lines.push(`  skipped ${skip.path}: ${skip.reason}`);
	if (status.skipped.length > 10) lines.push(`  … and ${status.skipped.length - 10} more (see structuredContent)`);
	return [...lines, ...limits(status.limitations)].join('\n');
}
