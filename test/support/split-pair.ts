// Two projects of a split `wsbridge adopt --split-by project` wrote, one of whose programs adopts a
// consumer the other's stack holds (its comment names that folder): the language tests adopt just these
// two (and the registry), since a stack per project costs an engine run each.
import * as fs from "node:fs";
import * as path from "node:path";

/** The ids of two such projects, from the split in `splitDir` (its record, and each folder's `programFile`); empty if none. */
export function projectsWithAConsumerAcross(splitDir: string, programFile: string): string[] {
  const record = JSON.parse(fs.readFileSync(path.join(splitDir, "adoption-split.json"), "utf8")) as { folders: Record<string, string> };
  const projectOf = new Map(Object.entries(record.folders).map(([projectId, folder]) => [folder, projectId]));
  for (const [folder, projectId] of projectOf) {
    const other = / adopted by the stack of \.\.\/(\S+) \(/.exec(fs.readFileSync(path.join(splitDir, folder, programFile), "utf8"))?.[1];
    const otherProject = other === undefined ? undefined : projectOf.get(other);
    if (otherProject !== undefined) return [projectId, otherProject];
  }
  return [];
}
