/**
 * Retention of automatic versions (docs/versions.md): named and restore versions are kept until
 * the journal is purged; automatic ones (checkpoints, before restores and bulk edits) are kept all
 * for a day, then one per day (the newest of each day) up to the tier's window, then dropped. The
 * newest version of a journal is never dropped. Pure: which versions to drop.
 */
import type { Tier } from '../../auth/keys.ts';

const DAY_MS = 86_400_000;

/** Days an automatic version is kept, per tier. */
export const AUTO_VERSION_DAYS: Record<Tier, number> = { developer: 30, scale: 180, enterprise: 365 };

export interface RetainedVersion {
  seq: number;
  kind: string;
  created_at: string;
}

/** The seqs of `versions` (one journal's, any order) to drop at `now`. */
export function versionsToThin(versions: readonly RetainedVersion[], tier: Tier, now: number): number[] {
  const sorted = [...versions].sort((a, b) => b.seq - a.seq); // newest first
  const keptDays = new Set<number>();
  const drop: number[] = [];
  sorted.forEach((v, i) => {
    if (v.kind !== 'auto' || i === 0) return;
    const age = now - Date.parse(v.created_at);
    if (age < DAY_MS) return;
    if (age > AUTO_VERSION_DAYS[tier] * DAY_MS) return void drop.push(v.seq);
    const day = Math.floor(Date.parse(v.created_at) / DAY_MS);
    if (keptDays.has(day)) drop.push(v.seq);
    else keptDays.add(day);
  });
  return drop.sort((a, b) => a - b);
}
