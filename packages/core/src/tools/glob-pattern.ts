// A small glob compiler (no I/O): `**` spans directories, `*` and `?` stay within one segment,
// `{a,b}` alternates (nestable), `[abc]` / `[!abc]` are character classes, `\` escapes.
// Leading dots are matched like any other character: the walker already skips .git.

const REGEX_SPECIAL = /[.+^$()|[\]{}\\*?]/;

function escapeChar(c: string): string {
  return REGEX_SPECIAL.test(c) ? `\\${c}` : c;
}

/** Compiles p[start..] until an unnested character of `stop`; returns the regex source and the stop index. */
function compileSeq(p: string, start: number, stop: string): [string, number] {
  let out = "";
  let i = start;
  while (i < p.length) {
    const c = p[i] as string;
    if (stop.includes(c)) break;
    if (c === "\\" && i + 1 < p.length) {
      out += escapeChar(p[i + 1] as string);
      i += 2;
    } else if (c === "*") {
      let j = i;
      while (p[j] === "*") j++;
      const atSegmentStart = i === 0 || "/{,".includes(p[i - 1] as string);
      const atSegmentEnd = j === p.length || p[j] === "/" || stop.includes(p[j] as string);
      if (j - i >= 2 && atSegmentStart && p[j] === "/") {
        out += "(?:[^/]*/)*"; // `**/`: zero or more whole directories
        i = j + 1;
      } else if (j - i >= 2 && atSegmentStart && atSegmentEnd) {
        out += ".*";
        i = j;
      } else {
        out += "[^/]*";
        i = j;
      }
    } else if (c === "?") {
      out += "[^/]";
      i++;
    } else if (c === "[") {
      const close = p.indexOf("]", i + 2);
      if (close === -1) {
        out += "\\[";
        i++;
      } else {
        let body = p.slice(i + 1, close);
        const negated = body.startsWith("!") || body.startsWith("^");
        if (negated) body = body.slice(1);
        out += `[${negated ? "^" : ""}${body.replace(/\\/g, "\\\\")}]`;
        i = close + 1;
      }
    } else if (c === "{") {
      const alternatives: string[] = [];
      let j = i + 1;
      let closed = false;
      while (j <= p.length) {
        const [alt, end] = compileSeq(p, j, ",}");
        alternatives.push(alt);
        if (p[end] === ",") {
          j = end + 1;
        } else {
          closed = p[end] === "}";
          j = end + 1;
          break;
        }
      }
      if (closed) {
        out += `(?:${alternatives.join("|")})`;
        i = j;
      } else {
        out += "\\{"; // an unclosed brace is a literal character
        i++;
      }
    } else {
      out += escapeChar(c);
      i++;
    }
  }
  return [out, i];
}

/** Matches a whole `/`-separated relative path. */
export function globToRegExp(pattern: string): RegExp {
  const [source] = compileSeq(pattern, 0, "");
  return new RegExp(`^${source}$`);
}

/**
 * A path filter. A pattern without `/` matches the file name at any depth (`*.ts` finds `src/a.ts`),
 * like ripgrep's `--glob`; a pattern with `/` matches the whole relative path.
 */
export function createGlobFilter(
  pattern: string,
  options: { basenameIfNoSlash: boolean },
): (rel: string) => boolean {
  const regex = globToRegExp(pattern);
  if (options.basenameIfNoSlash && !pattern.includes("/")) {
    return (rel) => regex.test(rel.slice(rel.lastIndexOf("/") + 1));
  }
  return (rel) => regex.test(rel);
}
