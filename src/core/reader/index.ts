/**
 * Schema-strict reads (seed 001, vault-reader): the entry points every face uses. The plugin's
 * API and command call `runReader` with its `ObsidianNoteSource`; the CLI with a Node vault.
 */
export { runReader, failedReport } from './run';
export type { ReaderHead, ReaderSink } from './run';
export { renderReport } from './report-text';
export { splitWhereText } from './where';
export { DEFAULT_READER_SETTINGS, READER_OPERATIONS } from './types';
export type {
	OutboundLink,
	ReaderNoteResult,
	ReaderOperation,
	ReaderReport,
	ReaderRequest,
	ReaderSettings,
	Resolution,
	WhereValue,
} from './types';
export type { SchemaFile } from '../schema/load';
