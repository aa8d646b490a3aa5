import type { ApiKeyKind } from '@telltale/semconv';
import type { ApiKeyRecord, Project } from '@telltale/store';
import { parseApiKey, secretMatches } from './apiKey.js';

/** What the cache loads from the store: every key (with its secret's hash) and every project. */
export interface KeySnapshot {
  keys: readonly ApiKeyRecord[];
  projects: readonly Project[];
}

export interface KeyCacheOptions {
  load: () => Promise<KeySnapshot>;
  /** Reload every this many ms, so revocations and new quotas apply within it. */
  refreshMs: number;
  /** An unknown key id triggers a reload at most once per this many ms (random keys cannot hammer the store). */
  missRefreshMinMs?: number;
  /** A failed reload (the previous snapshot stays in use). */
  onError?: (err: unknown) => void;
  now?: () => number;
}

/** A verified key. */
export interface KeyIdentity {
  keyId: string;
  projectId: string;
  kind: ApiKeyKind;
}

export type KeyCheck =
  | { status: 'ok'; key: KeyIdentity }
  /** Not a Telltale key, an unknown key id, or a wrong secret: not told apart. */
  | { status: 'invalid' }
  /** The right secret of a revoked key. */
  | { status: 'revoked'; key: KeyIdentity }
  /** The key id is unknown and the store could not be asked. */
  | { status: 'unavailable' };

interface CachedKey extends KeyIdentity {
  secretSha256: Buffer;
  revoked: boolean;
}

/**
 * The server's in-memory copy of the API keys, so that authenticating a
 * request never queries ClickHouse: reloaded every `refreshMs`, and on an
 * unknown key id (a key created a moment ago) at most once per
 * `missRefreshMinMs`, concurrent reloads shared.
 */
export class KeyCache {
  private keys = new Map<string, CachedKey>();
  private quotas = new Map<string, number>();
  private loading: Promise<boolean> | undefined;
  private lastMissLoadAt = Number.NEGATIVE_INFINITY;
  private timer: NodeJS.Timeout | undefined;
  private readonly now: () => number;
  private readonly missRefreshMinMs: number;
  /** Loads done, for tests and logs. */
  loads = 0;

  private constructor(private readonly opts: KeyCacheOptions) {
    this.now = opts.now ?? Date.now;
    this.missRefreshMinMs = opts.missRefreshMinMs ?? 1_000;
  }

  /** Loads the keys once (failing if the store cannot be read) and starts the periodic reload. */
  static async open(opts: KeyCacheOptions): Promise<KeyCache> {
    const cache = new KeyCache(opts);
    cache.apply(await opts.load());
    cache.loads++;
    cache.timer = setInterval(() => void cache.refresh(), opts.refreshMs);
    cache.timer.unref();
    return cache;
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** Reloads now (or joins the reload in flight); false when it failed. */
  refresh(): Promise<boolean> {
    this.loading ??= (async () => {
      try {
        this.apply(await this.opts.load());
        this.loads++;
        return true;
      } catch (err) {
        this.opts.onError?.(err);
        return false;
      } finally {
        this.loading = undefined;
      }
    })();
    return this.loading;
  }

  /** The project's ingest quota in spans per second, if it has one. */
  quotaOf(projectId: string): number | undefined {
    return this.quotas.get(projectId);
  }

  /** Checks a presented key (the bearer token). Only an unknown key id may wait for a reload. */
  async check(token: string): Promise<KeyCheck> {
    const parsed = parseApiKey(token);
    if (parsed === undefined) return { status: 'invalid' };
    let cached = this.keys.get(parsed.keyId);
    if (cached === undefined) {
      if (this.loading === undefined) {
        // a key created a moment ago is found by this reload; random key ids get at most one reload per interval
        if (this.now() - this.lastMissLoadAt < this.missRefreshMinMs) return { status: 'invalid' };
        this.lastMissLoadAt = this.now();
      }
      if (!(await this.refresh())) return { status: 'unavailable' };
      cached = this.keys.get(parsed.keyId);
      if (cached === undefined) return { status: 'invalid' };
    }
    // the kind in the key's prefix must agree with the stored one
    if (cached.kind !== parsed.kind || !secretMatches(parsed.secret, cached.secretSha256)) return { status: 'invalid' };
    const key: KeyIdentity = { keyId: cached.keyId, projectId: cached.projectId, kind: cached.kind };
    return cached.revoked ? { status: 'revoked', key } : { status: 'ok', key };
  }

  private apply(snapshot: KeySnapshot): void {
    const keys = new Map<string, CachedKey>();
    for (const k of snapshot.keys) {
      keys.set(k.keyId, { keyId: k.keyId, projectId: k.projectId, kind: k.kind, secretSha256: Buffer.from(k.secretSha256, 'hex'), revoked: k.revokedAtMs !== undefined });
    }
    const quotas = new Map<string, number>();
    for (const p of snapshot.projects) if (p.maxSpansPerSecond !== undefined) quotas.set(p.id, p.maxSpansPerSecond);
    this.keys = keys;
    this.quotas = quotas;
  }
}
