// One question turn on a running `qwen serve` (ours or the reference), timed as a client sees it: a session
// with an SSE subscriber, a prompt the fake model answers with a question, the vote, the turn's end. Shared by
// daemon-latency.mjs and vote-latency.mjs.
import { ANSWER_VOTE } from "./bench-model.mjs";
import { SseListener } from "./sse-listener.mjs";

/** POST /session and an SSE subscriber on it (with the minted client id). */
export async function openSession(serve) {
  const session = await serve.expect(200, "POST", "/session", {});
  const events = new SseListener();
  const status = await events.open(`${serve.url}/session/${session.sessionId}/events`, {
    "x-qwen-client-id": session.clientId,
  });
  if (status !== 200) throw new Error(`GET /events answered ${status}`);
  return { ...session, events };
}

/** One question turn: prompt -> question -> answer -> turn end. Returns the timings and the requestId. */
export async function questionTurn(serve, session) {
  const { sessionId, clientId, events } = session;
  const headers = { "x-qwen-client-id": clientId };
  const from = events.frames.length;
  const promptAt = performance.now();
  await serve.expect(
    202,
    "POST",
    `/session/${sessionId}/prompt`,
    { prompt: [{ type: "text", text: "Pick a color" }] },
    headers,
  );
  const question = await events.waitFor((f) => f.event === "permission_request", {
    from,
    what: "permission_request",
  });
  const requestId = question.json.data.requestId;
  const voteAt = performance.now();
  await serve.expect(200, "POST", `/session/${sessionId}/permission/${requestId}`, ANSWER_VOTE, headers);
  const voteAnsweredAt = performance.now();
  const resolved = await events.waitFor(
    (f) => f.event === "permission_resolved" && f.json.data.requestId === requestId,
    { from, what: "permission_resolved" },
  );
  await events.waitFor((f) => f.event === "turn_complete" || f.event === "turn_error", {
    from,
    what: "turn end",
  });
  return {
    requestId,
    promptToQuestion: question.at - promptAt,
    voteToResolved: resolved.at - voteAt,
    voteToHttp200: voteAnsweredAt - voteAt,
  };
}
