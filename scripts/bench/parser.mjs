/**
 * Parser throughput: our `parseNote(text)` against markdown-it 14's `md.parse(text, {})` over the
 * same notes, texts preloaded in memory, in the same process. Warm-up passes first (JIT), then the
 * two parsers alternate for `runs` timed passes each, so load from other processes hits both
 * alike. MB = 10^6 UTF-8 bytes of the .md files.
 *
 * No forced GC between passes, on purpose: once a pass's results are garbage, a full GC frees the
 * last objects of the parser's hidden classes, and V8 then discards every optimized function that
 * embeds them (`--trace-deopt`: "marking dependent code … for deoptimization, reason: weak
 * objects"). The next pass ran at ~105 MB/s instead of ~280 MB/s: a measurement of re-tiering,
 * not of the parser. Natural GCs during a pass are part of its cost and stay in.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import MarkdownIt from 'markdown-it';
import { loadTexts, median, ROOT, summarize, verdict } from './lib.mjs';

/** The installed markdown-it version, for the record. */
function markdownItVersion() {
	return JSON.parse(readFileSync(join(ROOT, 'node_modules', 'markdown-it', 'package.json'), 'utf8')).version;
}

/** Targets of issue 2, section 7. */
export const PARSER_TARGETS = { minMBps: 100, minRatio: 8 };

/**
 * One timed pass of `parse` over every text: wall ms, and this process's CPU ms (less sensitive to
 * other processes on the machine; it includes V8's GC and compiler threads). `sink` keeps results observable.
 */
function pass(texts, parse) {
	let sink = 0;
	const cpu = process.cpuUsage();
	const start = performance.now();
	for (const text of texts) if (parse(text) !== undefined) sink++;
	const ms = performance.now() - start;
	const used = process.cpuUsage(cpu);
	if (sink !== texts.length) throw new Error('a parser returned nothing');
	return { ms, cpuMs: (used.user + used.system) / 1000 };
}

/**
 * Run the parser job. `engine` is the imported engine bundle; returns the figures for latest.json.
 */
export function benchParser({ engine, vault, runs, warmups }) {
	const { texts, bytes } = loadTexts(vault);
	const md = new MarkdownIt();
	const ours = (text) => engine.parseNote(text);
	const theirs = (text) => md.parse(text, {});
	for (let i = 0; i < warmups; i++) {
		pass(texts, ours);
		pass(texts, theirs);
	}
	const oursRuns = [];
	const theirsRuns = [];
	for (let i = 0; i < runs; i++) {
		oursRuns.push(pass(texts, ours));
		theirsRuns.push(pass(texts, theirs));
	}
	const oursMs = oursRuns.map((r) => r.ms);
	const theirsMs = theirsRuns.map((r) => r.ms);
	const oursCpu = median(oursRuns.map((r) => r.cpuMs));
	const theirsCpu = median(theirsRuns.map((r) => r.cpuMs));
	const mbps = (ms) => Math.round((bytes / 1e6 / (ms / 1000)) * 10) / 10;
	const oursSum = summarize(oursMs);
	const theirsSum = summarize(theirsMs);
	const ratio = Math.round((theirsSum.medianMs / oursSum.medianMs) * 100) / 100;
	const oursMBps = mbps(oursSum.medianMs);
	return {
		notes: texts.length,
		bytes,
		warmups,
		ours: {
			...oursSum,
			MBps: oursMBps,
			bestMBps: mbps(oursSum.minMs),
			cpuMedianMs: Math.round(oursCpu),
			MBpsPerCpuSecond: mbps(oursCpu),
		},
		markdownIt: {
			version: markdownItVersion(),
			call: 'md.parse(text, {}), default preset',
			...theirsSum,
			MBps: mbps(theirsSum.medianMs),
			bestMBps: mbps(theirsSum.minMs),
			cpuMedianMs: Math.round(theirsCpu),
			MBpsPerCpuSecond: mbps(theirsCpu),
		},
		ratio,
		cpuRatio: Math.round((theirsCpu / oursCpu) * 100) / 100,
		targets: {
			throughput: {
				target: `>= ${PARSER_TARGETS.minMBps} MB/s`,
				value: oursMBps,
				verdict: verdict(oursMBps >= PARSER_TARGETS.minMBps),
			},
			vsMarkdownIt: {
				target: `>= ${PARSER_TARGETS.minRatio}x markdown-it`,
				value: ratio,
				verdict: verdict(ratio >= PARSER_TARGETS.minRatio),
			},
		},
	};
}
