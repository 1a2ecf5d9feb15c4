// Compile-time shape equality, used to tie each documented inputs interface to its zod schema.
// `Equals` is exact (optional vs required, readonly and unions all count), unlike mutual `extends`.
export type Equals<A, B> =
  (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true : false;

/** Resolves to `true`; a `false` argument is a type error at the use site. */
export type Assert<T extends true> = T;
