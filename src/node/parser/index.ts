/**
 * The Node-side Obsidian-compatible note parser: text in, the CachedMetadata Obsidian's
 * metadataCache would hold for it out (judged by shared/conformance/obsidian-1.9).
 */
import type { CachedMetadata } from '../../core/metadata';
import { BlockParser } from './blocks';
import { findFrontmatter, parseFrontmatterYaml } from './frontmatter';
import { collectFrontmatterLinks } from './frontmatter-links';
import { loc, span } from './positions';
import { loneCrAsLf } from './line-ends';
import { MetadataSink } from './sink';

// One block parser serves every call: parsing is synchronous and the parser resets itself.
const parser = new BlockParser(new MetadataSink());

/** A parsed note: its metadata, and why its frontmatter was dropped (null if it was not). */
export interface ParsedNote {
	metadata: CachedMetadata;
	/** "line 3: bad indentation of a mapping entry" when the YAML is unparsable or not a mapping. */
	frontmatterError: string | null;
}

/**
 * Parse a note's text as read from disk.
 *
 * A leading UTF-8 BOM (U+FEFF) is dropped first, as Obsidian does when it reads a file, so
 * frontmatter still starts at offset 0 and every position is relative to the text *after*
 * the BOM (what Obsidian reports). CRLF line endings are kept: offsets count each `\r`, and a
 * line's end column excludes it. A lone `\r` ends a line, as in Obsidian's editor (offsets hold).
 */
export function parseNote(input: string): ParsedNote {
	const text = loneCrAsLf(input.charCodeAt(0) === 0xfeff ? input.slice(1) : input);
	const sink = new MetadataSink();
	const metadata: CachedMetadata = {};
	let frontmatterError: string | null = null;
	let bodyStart = 0;
	let bodyLine = 0;
	const block = findFrontmatter(text);
	if (block !== null) {
		const end = block.closeLineStart + 3;
		sink.sections.push({
			type: 'yaml',
			position: span(loc(0, 0, 0), loc(block.closeLine, block.closeLineStart, end)),
		});
		const parsed = parseFrontmatterYaml(text.slice(block.yamlStart, block.yamlEnd), 1);
		frontmatterError = parsed.error;
		if (parsed.data !== null) {
			metadata.frontmatter = parsed.data;
			metadata.frontmatterPosition = span(loc(0, 0, 0), loc(block.closeLine, block.closeLineStart, end));
			metadata.frontmatterLinks = collectFrontmatterLinks(parsed.data);
		}
		bodyStart = block.bodyStart;
		bodyLine = block.closeLine + 1;
	}
	if (block === null || bodyStart > block.closeLineStart + 3) parser.parse(text, sink, bodyStart, bodyLine);
	sink.fill(metadata);
	return { metadata, frontmatterError };
}
