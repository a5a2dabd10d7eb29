import { Common, type ParamsDict } from "@ethereumjs/common";

/**
 * A parameter cache built for one state of a `_params` object: its version (see VERSIONS), the
 * hardfork, the extra EIPs and the fork list it was built for.
 */
interface BuiltCache {
  readonly version: number;
  readonly hardfork: string;
  readonly eips: readonly number[];
  readonly changes: unknown;
  readonly cache: unknown;
}

/**
 * How often each `_params` object's content has changed. The library's `copy()` is shallow:
 * a Common and all its copies share one `_params` object, and `updateParams` on any of them
 * writes into it.
 */
const VERSIONS = new WeakMap<object, number>();
/** The caches built for a `_params` object at its current version. */
const CACHES = new WeakMap<object, BuiltCache[]>();

/**
 * A `Common` whose `updateParams` skips the work when it would change nothing. Every
 * transaction and block header the library makes copies the chain's Common and calls
 * `updateParams` with the same tables (`paramsTx`, `paramsBlock`): each call a JSON round trip
 * of those tables and a rebuild of the whole parameter cache, a sixth of a `run` of geth's UBT
 * chains. When every value given is already the value held, the library's call would leave the
 * parameters as they are and rebuild a cache equal to the one any instance built for the same
 * parameters, hardfork and EIPs: that cache is taken instead (caches are replaced, never
 * changed in place, so instances can share one, as the library's copies do). Anything else —
 * a new value, a cache built for other parameters — runs the library's code.
 * No `#private` members: the library's `copy()` makes an object that has none (Object.create
 * of the prototype), so its state lives in module maps keyed by the shared `_params` object.
 */
export class ParamsCachingCommon extends Common {
  override updateParams(params: ParamsDict): void {
    if (!holdsAll(this._params, params)) {
      // The content changes: caches built for the old content no longer answer for it.
      VERSIONS.set(this._params, versionOf(this._params) + 1);
      CACHES.delete(this._params);
      super.updateParams(params);
      return;
    }
    const built = cacheFor(
      this._params,
      this._hardfork as string,
      this._eips,
      this.HARDFORK_CHANGES,
    );
    if (built !== undefined) {
      this._paramsCache = built.cache as typeof this._paramsCache;
      return;
    }
    super.updateParams(params);
  }

  protected override _buildParamsCache(): void {
    super._buildParamsCache();
    const version = versionOf(this._params);
    const built = CACHES.get(this._params) ?? [];
    const hardfork = this._hardfork as string;
    // Kept: one cache per hardfork and EIP list (a transition network has two forks).
    const kept = built.filter((b) => b.hardfork !== hardfork || b.eips !== this._eips);
    kept.push({
      version,
      hardfork,
      eips: this._eips,
      changes: this.HARDFORK_CHANGES,
      cache: this._paramsCache,
    });
    CACHES.set(this._params, kept);
  }
}

/** The cache built for these parameters at their version, this hardfork, EIP list and forks. */
function cacheFor(
  params: object,
  hardfork: string,
  eips: readonly number[],
  changes: unknown,
): BuiltCache | undefined {
  const version = versionOf(params);
  for (const b of CACHES.get(params) ?? []) {
    if (
      b.version === version &&
      b.hardfork === hardfork &&
      b.eips === eips &&
      b.changes === changes
    ) {
      return b;
    }
  }
  return undefined;
}

function versionOf(params: object): number {
  return VERSIONS.get(params) ?? 0;
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
