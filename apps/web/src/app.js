// Browser client for qwen serve. Plain modules, no build step: it talks to the daemon it is served by.
const $ = (id) => document.getElementById(id);
const state = { sessionId: null, clientId: null, lastEventId: 0, epoch: null, events: null, workspace: null };
const token = new URLSearchParams(location.hash.slice(1)).get("token");

async function api(method, path, body) {
  const headers = { "content-type": "application/json" };
  if (state.clientId) headers["x-qwen-client-id"] = state.clientId;
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  const data = text ? JSON.parse(text) : {};
  if (!res.ok) throw new Error(data.error ?? `${res.status} ${res.statusText}`);
  return data;
}

function addLog(kind, text) {
  const li = document.createElement("li");
  li.className = kind;
  li.textContent = text;
  $("log").append(li);
  li.scrollIntoView({ block: "end" });
  return li;
}

let streaming = null; // the <li> receiving the current agent message
const toolItems = new Map();

function onUpdate(update) {
  switch (update.sessionUpdate) {
    case "user_message_chunk":
      streaming = null;
      addLog("user", update.content?.text ?? "");
      break;
    case "agent_message_chunk":
      if (!streaming) streaming = addLog("agent", "");
      streaming.textContent += update.content?.text ?? "";
      break;
    case "tool_call": {
      streaming = null;
      toolItems.set(update.toolCallId, addLog("tool", `⋯ ${update.title ?? update.toolCallId}`));
      break;
    }
    case "tool_call_update": {
      const li = toolItems.get(update.toolCallId);
      if (li && update.status) li.textContent = li.textContent.replace(/^\S+/, update.status === "completed" ? "✓" : update.status === "failed" ? "✗" : "⋯");
      break;
    }
  }
}

function renderQuestion(req) {
  const card = document.createElement("form");
  card.className = "card";
  card.dataset.requestId = req.requestId;
  const questions = req.toolCall?._meta?.qwenQuestions ?? [];
  if (questions.length > 0) {
    questions.forEach((q, i) => {
      const fs = document.createElement("fieldset");
      fs.innerHTML = `<legend></legend>`;
      fs.querySelector("legend").textContent = `${q.header}: ${q.question}`;
      for (const opt of q.options) {
        const label = document.createElement("label");
        const input = document.createElement("input");
        input.type = q.multiSelect ? "checkbox" : "radio";
        input.name = `q${i}`;
        input.value = opt.label;
        label.append(input, ` ${opt.label} — ${opt.description}`);
        fs.append(label, document.createElement("br"));
      }
      card.append(fs);
    });
  } else {
    card.append(`Permission: ${req.toolCall?.title ?? "tool call"}`);
  }
  const row = document.createElement("div");
  row.className = "row";
  for (const opt of req.options) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = opt.name ?? opt.label ?? opt.optionId;
    b.onclick = () => vote(req, opt.optionId, card, questions);
    row.append(b);
  }
  card.append(row);
  $("pending").append(card);
}

async function vote(req, optionId, card, questions) {
  const body = optionId === "cancel" ? { outcome: { outcome: "cancelled" } } : { outcome: { outcome: "selected", optionId } };
  if (questions.length > 0 && optionId !== "cancel") {
    body.answers = {};
    questions.forEach((q, i) => {
      const picked = [...card.querySelectorAll(`input[name=q${i}]:checked`)].map((x) => x.value);
      if (picked.length > 0) body.answers[String(i)] = picked.join(", ");
    });
  }
  try {
    await api("POST", `/session/${state.sessionId}/permission/${req.requestId}`, body);
  } catch (err) {
    addLog("error", `vote failed: ${err.message}`);
  }
}

function onEvent(type, ev) {
  state.lastEventId = Math.max(state.lastEventId, ev.id ?? 0);
  const d = ev.data ?? {};
  if (type === "session_update") onUpdate(d.update ?? {});
  else if (type === "permission_request") {
    if (!document.querySelector(`[data-request-id="${d.requestId}"]`)) renderQuestion(d);
  } else if (type === "permission_resolved") document.querySelector(`[data-request-id="${d.requestId}"]`)?.remove();
  else if (type === "turn_complete") {
    streaming = null;
    $("cancel").disabled = true;
  } else if (type === "turn_error") addLog("error", d.message ?? "turn failed");
  else if (type === "session_died") addLog("error", "the agent process died; load the session again to continue");
}

function subscribe() {
  state.events?.close();
  const es = new EventSource(`/session/${state.sessionId}/events`);
  for (const t of ["session_update", "permission_request", "permission_resolved", "turn_complete", "turn_error", "session_died", "session_closed"]) {
    es.addEventListener(t, (m) => onEvent(t, JSON.parse(m.data)));
  }
  es.onopen = () => {
    $("conn").textContent = "live";
    $("conn").classList.add("live");
  };
  es.onerror = () => {
    $("conn").textContent = "reconnecting";
    $("conn").classList.remove("live");
  };
  state.events = es;
}

function enter(res, title) {
  state.sessionId = res.sessionId;
  state.clientId = res.clientId;
  $("log").replaceChildren();
  $("pending").replaceChildren();
  toolItems.clear();
  streaming = null;
  for (const ev of res.compactedReplay ?? []) onEvent(ev.type, ev);
  $("session-title").textContent = title;
  $("prompt").disabled = false;
  $("send").disabled = false;
  subscribe();
}

async function refreshSessions() {
  if (!state.workspace) return;
  const { sessions } = await api("GET", `/workspace/${encodeURIComponent(state.workspace)}/sessions?size=50`);
  $("sessions").replaceChildren(
    ...sessions.map((s) => {
      const li = document.createElement("li");
      li.textContent = `${s.isWaitingForUserQuestion ? "❓ " : ""}${s.displayName ?? s.sessionId}`;
      li.title = s.sessionId;
      li.onclick = async () => enter(await api("POST", `/session/${s.sessionId}/load`, {}), s.displayName ?? s.sessionId);
      return li;
    }),
  );
}

$("new-session").onclick = async () => {
  enter(await api("POST", "/session", { sessionScope: "thread" }), "New session");
  await refreshSessions();
};

$("prompt-form").onsubmit = async (e) => {
  e.preventDefault();
  const text = $("prompt").value.trim();
  if (!text || !state.sessionId) return;
  $("prompt").value = "";
  $("cancel").disabled = false;
  try {
    await api("POST", `/session/${state.sessionId}/prompt`, { prompt: [{ type: "text", text }] });
  } catch (err) {
    addLog("error", err.message);
  }
};

$("cancel").onclick = () => api("POST", `/session/${state.sessionId}/cancel`, {});

(async () => {
  try {
    const caps = await api("GET", "/capabilities");
    state.workspace = caps.workspaceCwd;
    $("workspace").textContent = caps.workspaceCwd;
    $("conn").textContent = "connected";
    await refreshSessions();
  } catch (err) {
    $("conn").textContent = `error: ${err.message}`;
  }
})();
