// Secrets never reach the daemon log: child stderr may echo its environment, request headers or
// provider errors. Pure; the patterns err on the side of redacting too much.

const REDACTED = "[REDACTED]";

const PATTERNS: ReadonlyArray<[RegExp, string]> = [
  // Authorization: Bearer <token>  /  bearer <token>
  [/\b(bearer)(\s+)[A-Za-z0-9._~+/=-]{6,}/gi, `$1$2${REDACTED}`],
  // OpenAI / DashScope / Anthropic style keys: sk-..., sk-ant-...
  [/\bsk-[A-Za-z0-9_-]{8,}/g, `sk-${REDACTED}`],
  // GitHub tokens
  [/\bgh[pousr]_[A-Za-z0-9]{16,}/g, REDACTED],
  // NAME=value / name: value / "name":"value" where the name says it is secret.
  [
    /((?:api[_-]?key|apikey|access[_-]?token|auth[_-]?token|token|secret|password|passwd|authorization|x-api-key)["']?\s*[:=]\s*["']?(?:bearer\s+)?)(?!\[REDACTED\]|bearer\b)([^\s"',;]{4,})/gi,
    `$1${REDACTED}`,
  ],
];

/** `line` with known secret shapes and every literal in `secrets` replaced by [REDACTED]. */
export function redactSecrets(line: string, secrets: readonly string[] = []): string {
  let out = line;
  for (const secret of secrets) {
    if (secret.length >= 4) out = out.split(secret).join(REDACTED);
  }
  for (const [pattern, replacement] of PATTERNS) out = out.replace(pattern, replacement);
  return out;
}
