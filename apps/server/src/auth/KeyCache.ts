import type { ApiKeyKind } from '@telltale/semconv';
import type { StoreRows } from '@telltale/store';
import { parseApiKey, secretMatches } from './apiKey.js';

/** What the cache loads from the store: every key (with its secret's hash) and every project. */
/** A project's content switches (see the admin API). */
export interface ProjectContentPolicy {
  stored: boolean;
  readable: boolean;
}

export interface KeySnapshot {
  keys: readonly StoreRows.ApiKeyRecord[];
  projects: readonly StoreRows.Project[];
}

export interface KeyCacheOptions {
  load: () => Promise<KeySnapshot>;
  /** Reload every this many ms, so revocations and new quotas apply within it. */
  refreshMs: number;
  /**
   * Unknown key ids wait for a reload, and those reloads start at most once
   * per this many ms (random keys cannot hammer the store). Default 1 s.
   */
  missRefreshMinMs?: number;
  /** A failed reload (the previous snapshot stays in use). */
  onError?: (err: unknown) => void;
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
 * request never queries ClickHouse: reloaded every `refreshMs`, and when an
 * unknown key id (say a key created a moment ago) arrives — that request
 * waits for the reload, and such reloads start at most once per
 * `missRefreshMinMs` however many unknown ids arrive.
 */
export class KeyCache {
  private keys = new Map<string, CachedKey>();
  private quotas = new Map<string, number>();
  private content = new Map<string, ProjectContentPolicy>();
  private loading: Promise<boolean> | undefined;
  private lastMissLoadAt = Number.NEGATIVE_INFINITY;
  private missLoad: { promise: Promise<boolean>; timer: NodeJS.Timeout; cancel: () => void } | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly missRefreshMinMs: number;
  /** Loads done, for tests and logs. */
  loads = 0;

  private constructor(private readonly opts: KeyCacheOptions) {
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

  /** Stops reloading; requests waiting for a reload get `unavailable`. */
  stop(): void {
    clearInterval(this.timer);
    if (this.missLoad !== undefined) {
      clearTimeout(this.missLoad.timer);
      this.missLoad.cancel();
      this.missLoad = undefined;
    }
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

  /** Whether the project stores content, and lets read keys read it (unknown projects: stored, not readable). */
  contentOf(projectId: string): ProjectContentPolicy {
    return this.content.get(projectId) ?? { stored: true, readable: false };
  }

  /** Checks a presented key (the bearer token). Only an unknown key id may wait for a reload. */
  async check(token: string): Promise<KeyCheck> {
    const parsed = parseApiKey(token);
    if (parsed === undefined) return { status: 'invalid' };
    let cached = this.keys.get(parsed.keyId);
    if (cached === undefined) {
      if (!(await this.reloadForMiss())) return { status: 'unavailable' };
      cached = this.keys.get(parsed.keyId);
      if (cached === undefined) return { status: 'invalid' };
    }
    // the kind in the key's prefix must agree with the stored one
    if (cached.kind !== parsed.kind || !secretMatches(parsed.secret, cached.secretSha256)) return { status: 'invalid' };
    const key: KeyIdentity = { keyId: cached.keyId, projectId: cached.projectId, kind: cached.kind };
    return cached.revoked ? { status: 'revoked', key } : { status: 'ok', key };
  }

  /**
   * A reload that starts after this call (one that began earlier may have
   * missed the key): now, or — when one started less than
   * `missRefreshMinMs` ago — one scheduled for then, shared by every unknown
   * key id arriving until it starts.
   */
  private reloadForMiss(): Promise<boolean> {
    if (this.missLoad !== undefined) return this.missLoad.promise;
    const wait = this.lastMissLoadAt + this.missRefreshMinMs - Date.now();
    if (wait <= 0) return this.startMissLoad();
    let resolve: (loaded: Promise<boolean> | boolean) => void = () => undefined;
    const promise = new Promise<boolean>((r) => (resolve = r));
    const timer = setTimeout(() => {
      this.missLoad = undefined;
      resolve(this.startMissLoad());
    }, wait);
    timer.unref();
    this.missLoad = { promise, timer, cancel: () => resolve(false) };
    return promise;
  }

  private startMissLoad(): Promise<boolean> {
    this.lastMissLoadAt = Date.now();
    return (this.loading ?? Promise.resolve(true)).then(() => this.refresh());
  }

  private apply(snapshot: KeySnapshot): void {
    const keys = new Map<string, CachedKey>();
    for (const k of snapshot.keys) {
      keys.set(k.keyId, {
        keyId: k.keyId,
        projectId: k.projectId,
        kind: k.kind,
        secretSha256: Buffer.from(k.secretSha256, 'hex'),
        revoked: k.revokedAtMs !== undefined,
      });
    }
    const quotas = new Map<string, number>();
    for (const p of snapshot.projects) if (p.maxSpansPerSecond !== undefined) quotas.set(p.id, p.maxSpansPerSecond);
    const content = new Map<string, ProjectContentPolicy>();
    for (const p of snapshot.projects) content.set(p.id, { stored: p.contentStored, readable: p.contentReadable });
    this.keys = keys;
    this.quotas = quotas;
    this.content = content;
  }
}
