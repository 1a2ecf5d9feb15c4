import type { RequestLogEntry } from "./types";

/** Bounded log of API requests; the oldest entries go first so a benchmark cannot exhaust memory. */
export class RequestLog {
  private entries: RequestLogEntry[] = [];
  private seq = 0;
  constructor(private readonly capacity = 10_000) {}

  add(entry: Omit<RequestLogEntry, "seq">): RequestLogEntry {
    const e: RequestLogEntry = { seq: ++this.seq, ...entry };
    this.entries.push(e);
    if (this.entries.length > this.capacity) this.entries.splice(0, this.entries.length - this.capacity);
    return e;
  }

  list(): RequestLogEntry[] {
    return this.entries.map((e) => ({ ...e }));
  }

  clear(): void {
    this.entries = [];
  }
}
