// One log entry is one line. What the daemon logs often holds text it did not write (request paths, the child's
// error messages, its stderr), so line breaks and other control characters in it are escaped: a client cannot
// forge a log line, and a terminal reading the log is not sent escape sequences.

// C0 controls but tab, DEL, C1 controls, and the two Unicode line separators.
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is this regex's purpose
const CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029]/g;

const NAMED: Readonly<Record<string, string>> = { "\n": "\\n", "\r": "\\r" };

/** `text` with every control character (tab aside) written as an escape: `\n`, `\r`, `\u001b`, ... */
export function oneLine(text: string): string {
  return text.replace(
    CONTROL,
    (c) => NAMED[c] ?? `\\u${(c.codePointAt(0) as number).toString(16).padStart(4, "0")}`,
  );
}

/** A log sink that writes each entry as one line (see `oneLine`). */
export function oneLinePerEntry(log: (line: string) => void): (line: string) => void {
  return (line) => log(oneLine(line));
}
