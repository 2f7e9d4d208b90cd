/**
 * A grep whose results are handed over one at a time, in result order, as they are found: a full
 * answer (tens of thousands of notes) is written while the scan goes on and never held whole.
 */
import type { NoteResult, QueryResult } from '../contract';
import { echoFrontmatter, echoLimitation } from '../frontmatter-echo';
import { noteTitle } from '../note-info';
import type { NoteSource } from '../port';
import { ScopeError } from '../scope';
import type { EngineSettings } from '../settings';
import type { TrigramIndex } from '../text/trigram';
import { passingContext, type QueryReuse } from './context';
import { failed, skippedFiles, toNoteResult } from './envelope';
import { grepMatcher, scanGrep } from './grep';
import type { RawLines } from './note-matches';
import { normalized, validate } from './run';
import type { GrepQuery } from './types';

/** What a text listing shows of a matching note, without the links and frontmatter of the full result. */
export type BriefNote = Pick<NoteResult, 'path' | 'title' | 'matches'>;

/** The envelope's fields known before the first result: a streamed answer starts with them. */
export type AnswerHead = Pick<QueryResult, 'status' | 'query' | 'searched'>;

/** Where a streamed grep hands its answer. */
export interface GrepSink {
	/** Once, before the first note (never for a query that could not run). */
	begin(head: AnswerHead): Promise<void> | void;
	/** One matching note: `brief` at once, `full()` the contract's note result (links, bounded frontmatter) when wanted. */
	note(brief: BriefNote, full: () => Promise<NoteResult>): Promise<void> | void;
	/**
	 * Optional, for a text listing: a note matched on its bytes comes here instead of `note`, its
	 * lines left as bytes (valid only until this resolves), so a listing copies them undecoded.
	 */
	noteRaw?(path: string, title: string, lines: RawLines): Promise<void> | void;
}

/** How many notes the frontmatter line names; past them it counts. */
const NAMED_CUTS = 5;

/**
 * Runs a grep in result order (`reuse.order`), handing each matching note to `sink` and keeping
 * none. Resolves with the envelope without its results (`results` empty, `matched` the notes
 * handed over); a query that cannot run resolves `failed` with nothing handed over.
 */
export async function runGrepStream(
	source: NoteSource,
	query: GrepQuery,
	settings: EngineSettings,
	trigrams: TrigramIndex | null,
	reuse: QueryReuse & { order: readonly string[] },
	sink: GrepSink,
): Promise<QueryResult> {
	const limit = query.limit ?? settings.defaultLimit;
	const echo = normalized(query, limit);
	const invalid = validate(query, limit);
	if (invalid !== null) return failed(echo, invalid);
	const compiled = grepMatcher(query);
	if (!compiled.ok) return failed(echo, compiled.error);
	let ctx;
	try {
		// One look at each note: what is decoded for it is not held after (see passingContext).
		ctx = passingContext(source, settings, query.folders, reuse);
	} catch (error) {
		if (error instanceof ScopeError) return failed(echo, error.message);
		throw error;
	}
	// A grep's status depends on the notes it could not read, known before the scan.
	const skipped = skippedFiles(ctx, false);
	const status = skipped.some((s) => s.reason.startsWith('not searched')) ? 'partial' : 'success';
	const searched = {
		files: ctx.scope.notes.length,
		folders: ctx.scope.folders.length > 0 ? [...ctx.scope.folders] : ['(whole vault)'],
	};
	await sink.begin({ status, query: echo, searched });
	const limitations = [...ctx.scope.exclusions];
	const cuts = new Map<string, string[]>();
	let cutNotes = 0;
	const context = ctx;
	const { found, more } = await scanGrep(
		ctx,
		compiled.matcher,
		trigrams,
		{ order: reuse.order, limit, raw: sink.noteRaw !== undefined },
		(hit) =>
			hit.raw !== undefined
				? sink.noteRaw!(hit.path, noteTitle(context.source, hit.path), hit.raw)
				: sink.note(
						{
							path: hit.path,
							title: noteTitle(context.source, hit.path),
							matches: hit.matches,
						},
						async () => {
							const result = await toNoteResult(context, hit);
							const bounded = echoFrontmatter(result.frontmatter);
							if (bounded.cut.length === 0) return result;
							// Only the first few are named in the limitation: the rest are counted, not kept.
							if (cuts.size < NAMED_CUTS) cuts.set(hit.path, bounded.cut);
							cutNotes++;
							return { ...result, frontmatter: bounded.frontmatter };
						},
					),
		limitations,
	);
	const echoLine = echoLimitation(cuts, cutNotes);
	if (echoLine !== null) limitations.push(echoLine);
	if (more)
		limitations.push(
			`Stopped at the first ${found} matching notes in result order; more notes match (not counted)`,
		);
	return {
		status,
		query: echo,
		searched,
		matched: found,
		results: [],
		skipped,
		limitations,
		...(more ? { more: true } : {}),
	};
}
