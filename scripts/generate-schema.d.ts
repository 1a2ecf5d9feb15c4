export declare const KINDS: ReadonlyArray<{ kind: string; file: string; symbol: string }>;
export declare function generateSchemas(): Map<string, string>;
