import type { IField } from "@noble/curves/abstract/modular.js";

/**
 * The b' of a curve y² = x³ + b' over `field` (a pairing curve's twist), read off a point on it
 * (its generator): y² - x³. Spares spelling each twist's constant (BN254's 3 / (9 + u),
 * BLS12-381's 4 (1 + u)) in its tower's coordinates.
 */
export function twistCoefficient<T>(field: IField<T>, point: { readonly x: T; readonly y: T }): T {
  return field.sub(field.sqr(point.y), field.mul(field.sqr(point.x), point.x));
}
