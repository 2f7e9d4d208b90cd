import type { FrontMatter } from '../metadata';
import { dayOf } from '../note-date';
import { propertyMatches } from '../query/prop';
import { dayString, daysBefore, parseDate } from '../schema/dates';
import type { Schema } from '../schema/types';
import { fieldOf, reject, type Rejection } from '../schema/validate';

/**
 * The seed's post-filters (Step 4): archived notes out unless asked for, a minimum confidence on
 * the schema's ordered `confidence` enum, and a staleness window on `last_verified` in which
 * never-verified notes pass (never-verified is not stale).
 */

/** The fields the post-filters read, as the seed names them. */
export const STATUS_FIELD = 'status';
export const CONFIDENCE_FIELD = 'confidence';
export const VERIFIED_FIELD = 'last_verified';

/** The post-filters of one call, validated. */
export interface PostFilters {
	includeArchived: boolean;
	/** Accepted confidence values: the minimum and every stronger one. */
	minConfidence?: { value: string; accepted: readonly string[] };
	/** Notes verified on or after `cutoff` (UTC ms) pass; `today` echoes the day it counted from. */
	staleness?: { days: number; cutoff: number; today: string };
}

/** Validate `min_confidence` and `max_staleness_days` against the schema. */
export function postFiltersOf(
	schema: Schema,
	input: { include_archived?: boolean; min_confidence?: string; max_staleness_days?: number; today?: string },
): PostFilters | Rejection {
	const filters: PostFilters = { includeArchived: input.include_archived === true };
	if (input.min_confidence !== undefined) {
		const spec = fieldOf(schema, 'min_confidence', CONFIDENCE_FIELD);
		if ('error' in spec)
			return {
				error: `min_confidence: the schema declares no "${CONFIDENCE_FIELD}" field to filter on`,
				suggestions: spec.suggestions,
			};
		const values = spec.values ?? [];
		if (spec.type !== 'enum')
			return {
				error: `min_confidence: "${CONFIDENCE_FIELD}" is a ${spec.type} field in the schema; it must be an enum listed strongest first`,
				suggestions: [],
			};
		const index = values.indexOf(input.min_confidence);
		if (index < 0)
			return reject(
				'min_confidence',
				`"${input.min_confidence}" is not a ${CONFIDENCE_FIELD} value`,
				values,
				input.min_confidence,
			);
		filters.minConfidence = { value: input.min_confidence, accepted: values.slice(0, index + 1) };
	}
	if (input.max_staleness_days !== undefined) {
		const days = input.max_staleness_days;
		if (!Number.isInteger(days) || days < 0)
			return {
				error: `max_staleness_days: must be a whole number of days, 0 or more, got ${String(days)}`,
				suggestions: [],
			};
		const spec = fieldOf(schema, 'max_staleness_days', VERIFIED_FIELD);
		if ('error' in spec)
			return {
				error: `max_staleness_days: the schema declares no "${VERIFIED_FIELD}" field to filter on`,
				suggestions: [],
			};
		if (spec.type !== 'date')
			return {
				error: `max_staleness_days: "${VERIFIED_FIELD}" is a ${spec.type} field in the schema, not a date`,
				suggestions: [],
			};
		const today = input.today === undefined ? { ms: Date.now(), hasTime: true } : parseDate(input.today);
		if (today === null || (input.today !== undefined && today.hasTime))
			return { error: `today: "${input.today ?? ''}" is not a date (YYYY-MM-DD)`, suggestions: [] };
		filters.staleness = { days, cutoff: daysBefore(today.ms, days), today: dayString(today.ms) };
	}
	return filters;
}

/** Why a note fails the post-filters, or null when it passes. */
function exclusion(
	frontmatter: FrontMatter,
	filters: PostFilters,
): 'archived' | 'confidence' | 'stale' | 'undated' | null {
	if (
		!filters.includeArchived &&
		propertyMatches(frontmatter[STATUS_FIELD], { type: 'prop', key: STATUS_FIELD, value: 'archived' })
	)
		return 'archived';
	if (filters.minConfidence) {
		const value = frontmatter[CONFIDENCE_FIELD];
		if (typeof value !== 'string' || !filters.minConfidence.accepted.includes(value.trim())) return 'confidence';
	}
	if (filters.staleness) {
		const value = frontmatter[VERIFIED_FIELD];
		if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) return null;
		// Read as every date is read (core/note-date.ts): a list's first day, a [[2026-06-01]] link.
		const day = dayOf(value);
		const date = day === null ? null : parseDate(day);
		if (date === null) return 'undated';
		if (date.ms < filters.staleness.cutoff) return 'stale';
	}
	return null;
}

/** "1 note" / "2 notes". */
function noteCount(count: number): string {
	return `${count} note${count === 1 ? '' : 's'}`;
}

/** The post-filters run one note at a time (a streamed answer keeps no list): `keeps` tells, `applied` describes what was dropped so far. */
export interface PostFilterRun {
	keeps(frontmatter: FrontMatter): boolean;
	applied(): string[];
}

/** Start a run of the post-filters; each note's verdict is counted for the report's "Filters applied". */
export function postFilterRun(filters: PostFilters): PostFilterRun {
	const counts = { archived: 0, confidence: 0, stale: 0, undated: 0 };
	return {
		keeps: (frontmatter) => {
			const why = exclusion(frontmatter, filters);
			if (why !== null) counts[why]++;
			return why === null;
		},
		applied: () => {
			const applied = [
				filters.includeArchived
					? 'include_archived=true'
					: `include_archived=false (${noteCount(counts.archived)} with status: archived excluded)`,
			];
			if (filters.minConfidence)
				applied.push(
					`min_confidence=${filters.minConfidence.value} (${noteCount(counts.confidence)} below it or without ${CONFIDENCE_FIELD} excluded)`,
				);
			if (filters.staleness) {
				const { days, cutoff, today } = filters.staleness;
				const undated =
					counts.undated > 0
						? `, ${noteCount(counts.undated)} with an unreadable ${VERIFIED_FIELD} excluded`
						: '';
				applied.push(
					`max_staleness_days=${days} (today ${today}: ${VERIFIED_FIELD} on or after ${dayString(cutoff)}; ${noteCount(counts.stale)} excluded${undated}; never-verified notes pass)`,
				);
			}
			return applied;
		},
	};
}

/** Apply the post-filters to notes (kept in order) and describe each filter for the report's "Filters applied". */
export function applyPostFilters<T extends { path: string }>(
	notes: readonly T[],
	frontmatterOf: (path: string) => FrontMatter,
	filters: PostFilters,
): { kept: T[]; applied: string[] } {
	const run = postFilterRun(filters);
	const kept = notes.filter((note) => run.keeps(frontmatterOf(note.path)));
	return { kept, applied: run.applied() };
}
