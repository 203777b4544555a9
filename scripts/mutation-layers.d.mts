/** Types for mutation-layers.mjs, so the TypeScript configs can import it. */
export interface MutationLayer {
  readonly mutate: readonly string[];
  readonly tests: string[];
}
export declare const LAYERS: {
  readonly ranges: MutationLayer;
  readonly ledger: MutationLayer;
  readonly dedup: MutationLayer;
  readonly adapter: MutationLayer;
  readonly testing: MutationLayer;
};
