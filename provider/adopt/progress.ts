// The progress line on stderr while discovery reads, for estates where that takes minutes: rewritten
// in place on a terminal, a line per phase and per tenth otherwise (CI logs stay short).
export interface ProgressLine {
  report(phase: string, done: number, total: number): void;
  end(): void;
}

export function progressLine(stream: NodeJS.WriteStream): ProgressLine {
  const tty = stream.isTTY === true;
  let last = "";
  let lastTenth = -1;
  let shown = false;
  return {
    report(phase, done, total) {
      const text = total > 0 ? `reading ${phase}: ${done}/${total}` : `reading ${phase}: ${done}`;
      if (tty) {
        stream.write(`\r${text.padEnd(last.length)}`);
        last = text;
        shown = true;
        return;
      }
      const tenth = total > 0 ? Math.floor((done * 10) / total) : 0;
      if (phase !== last) {
        stream.write(`${text}\n`);
        last = phase;
        lastTenth = tenth;
      } else if (total > 0 && tenth > lastTenth) {
        stream.write(`${text}\n`);
        lastTenth = tenth;
      }
    },
    end() {
      if (tty && shown) stream.write(`\r${" ".repeat(last.length)}\r`);
    },
  };
}
