import { Common, type HardforkTransitionConfig, type ParamsDict } from "@ethereumjs/common";

/**
 * A parameter cache built for one content of the parameters (the content token it is filed
 * under), for a hardfork, an EIP list and a fork list.
 */
interface BuiltCache {
  readonly hardfork: string;
  readonly eips: readonly number[];
  readonly changes: unknown;
  readonly cache: unknown;
}

/**
 * What `updateParams(table)` made of one content: the content it leads to (its token) and a
 * snapshot of the parameters there (per-EIP objects, which the library replaces and never
 * changes in place).
 */
interface Step {
  readonly token: object;
  readonly snapshot: Readonly<Record<string, unknown>>;
}

/**
 * The content token of each `_params` object: an object that stands for its content, replaced
 * whenever the content changes. The library's `copy()` is shallow: a Common and its copies share
 * one `_params` object, so they share its token; a detached copy (`detachedCopy`) has its own
 * object with the same content, so the same token until either changes.
 */
const TOKENS = new WeakMap<object, object>();
/**
 * Each chain configuration's hardfork list, with the fields it was built from (a field replaced
 * since builds it again).
 */
const HARDFORK_LISTS = new WeakMap<
  object,
  {
    readonly hardforks: unknown;
    readonly custom: unknown;
    readonly list: HardforkTransitionConfig[];
  }
>();
/** The caches built for a content, by its token. */
const CACHES = new WeakMap<object, BuiltCache[]>();
/** From a content, by table: the content `updateParams(table)` leads to. */
const STEPS = new WeakMap<object, WeakMap<ParamsDict, Step>>();

/**
 * A `Common` whose `updateParams` skips the work it has done before. Every transaction and
 * block header the library makes copies the chain's Common and calls `updateParams` with the
 * same tables (`paramsTx`, `paramsBlock`), and every VM with the EVM's and the VM's: each call a
 * JSON round trip of the table and a rebuild of the whole parameter cache. Where every value
 * given is already held, nothing changes. Where the same table was given to the same content
 * before (another instance, or the same one — the EVM's and the VM's tables disagree on
 * EIP-2935's `historyServeWindow`, so each new VM moves the content back and forth), the content
 * it led to is set from that step's snapshot. Either way, a cache built for that content,
 * hardfork, EIP list and fork list is taken (caches are replaced, never changed in place, so
 * instances can share one); anything else runs the library's code. No `#private` members: the
 * library's `copy()` makes an object that has none (Object.create of the prototype), so the
 * state lives in module maps keyed by `_params` objects and content tokens.
 */
export class ParamsCachingCommon extends Common {
  /**
   * A copy that shares no parameter table with this one (the library's `copy()` shares them):
   * its own `_params` object, with the same content, so the caches built for that content serve
   * it; `updateParams` on either no longer reaches the other. What the library's `copy()`
   * followed by `resetParams` to the same tables gives, without their JSON copy and rebuild.
   */
  detachedCopy(): this {
    const copy = this.copy() as this;
    const params = { ...this._params };
    const token = tokenOf(this._params);
    TOKENS.set(params, token);
    copy._params = params;
    // This one's cache may be older than its tables (a copy sharing them changed them): the
    // copy gets one built for what they hold now, as the library's copy and resetParams would.
    copy.takeOrBuildParamsCache();
    return copy;
  }

  /**
   * The library's list, built once per chain configuration: with custom hardforks (ours has the
   * blob-parameter forks) the library builds a new array on every call, and it calls this for
   * every fork lookup. The array is shared: read it, do not change it (as the library does).
   */
  override hardforks(): HardforkTransitionConfig[] {
    const chain = this._chainParams;
    const kept = HARDFORK_LISTS.get(chain);
    if (
      kept !== undefined &&
      kept.hardforks === chain.hardforks &&
      kept.custom === chain.customHardforks
    ) {
      return kept.list;
    }
    const list = super.hardforks();
    HARDFORK_LISTS.set(chain, { hardforks: chain.hardforks, custom: chain.customHardforks, list });
    return list;
  }

  override updateParams(params: ParamsDict): void {
    if (!holdsAll(this._params, params)) {
      const from = tokenOf(this._params);
      const step = STEPS.get(from)?.get(params);
      if (step !== undefined && holdsAll(step.snapshot as ParamsDict, params)) {
        // This table has taken this content somewhere before: the same merge, the same result
        // (tables are not changed once given, as the library's constant ones are not; a value
        // the snapshot lacks sends the call to the library all the same).
        for (const eip of Object.keys(params)) this._params[eip] = step.snapshot[eip] as never;
        TOKENS.set(this._params, step.token);
      } else {
        const token = {};
        TOKENS.set(this._params, token);
        super.updateParams(params);
        let steps = STEPS.get(from);
        if (steps === undefined) {
          steps = new WeakMap();
          STEPS.set(from, steps);
        }
        steps.set(params, { token, snapshot: { ...this._params } });
        return;
      }
    }
    this.takeOrBuildParamsCache();
  }

  /**
   * The parameter cache for what the tables hold now, this hardfork, EIP list and fork list: one
   * built before, or a new one (which `_buildParamsCache` files for the next instance).
   */
  private takeOrBuildParamsCache(): void {
    const built = cacheFor(
      tokenOf(this._params),
      this._hardfork as string,
      this._eips,
      this.HARDFORK_CHANGES,
    );
    if (built !== undefined) this._paramsCache = built.cache as typeof this._paramsCache;
    else this._buildParamsCache();
  }

  protected override _buildParamsCache(): void {
    super._buildParamsCache();
    const token = tokenOf(this._params);
    const hardfork = this._hardfork as string;
    // Kept: one cache per hardfork, EIP list and fork list (a transition network has two forks).
    const kept = (CACHES.get(token) ?? []).filter(
      (b) =>
        b.hardfork !== hardfork || b.eips !== this._eips || b.changes !== this.HARDFORK_CHANGES,
    );
    kept.push({
      hardfork,
      eips: this._eips,
      changes: this.HARDFORK_CHANGES,
      cache: this._paramsCache,
    });
    CACHES.set(token, kept);
  }
}

/** The cache built for this content, hardfork, EIP list and forks. */
function cacheFor(
  token: object,
  hardfork: string,
  eips: readonly number[],
  changes: unknown,
): BuiltCache | undefined {
  for (const b of CACHES.get(token) ?? []) {
    if (b.hardfork === hardfork && b.eips === eips && b.changes === changes) return b;
  }
  return undefined;
}

/** The content token of a `_params` object (one it has not had yet: a new content). */
function tokenOf(params: object): object {
  let token = TOKENS.get(params);
  if (token === undefined) {
    token = {};
    TOKENS.set(params, token);
  }
  return token;
}

/**
 * Whether `held` already has every value of `given` (what `updateParams` merges): then the
 * library's merge, a JSON copy of the held values with the given ones over them, is equal to
 * what is held. A value JSON would not copy as it is (NaN, an object) never compares equal.
 */
function holdsAll(held: ParamsDict, given: ParamsDict): boolean {
  for (const eip of Object.keys(given)) {
    const heldTable = held[eip];
    const givenTable = given[eip];
    // A table that is no object (null, from a caller without types) goes to the library too.
    if (typeof heldTable !== "object" || heldTable === null) return false;
    if (typeof givenTable !== "object" || givenTable === null) return false;
    for (const name of Object.keys(givenTable)) {
      const value = givenTable[name];
      if (typeof value === "object" && value !== null) return false;
      if (heldTable[name] !== value) return false;
    }
  }
  return true;
}
