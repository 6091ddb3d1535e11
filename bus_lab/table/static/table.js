// bus_lab class table: the pages of a table (join, seat, projector, host) in one ES module.
//
// The page says which one it is on <body data-page="join|seat|watch|host|unknown" data-code="...">
// (bus_lab/table/pages.py). Everything goes through one websocket (`ws` beside `static/`, found
// from this module's own address, so the pages work behind a path prefix): a hello first (join,
// resume, watch or host), then frames drawn by the same board as the notebook widget
// (board.js, mode "table": no step controls). A dropped connection (a locked phone, a network
// change) comes back by itself with growing pauses, and a seat resumes with its secret token,
// which stays in this browser's localStorage under "bus_lab.table.<CODE>".

import { mount } from "./board.js";

const ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";
const STORE_PREFIX = "bus_lab.table.";
/** The server's root (the join page): this module lives at <root>static/table.js. */
const ROOT = new URL("../", import.meta.url);
/** Pauses before each new attempt after a drop (ms); the last one repeats. */
const BACKOFF_MS = [400, 1000, 2000, 4000, 8000, 15000];
/** A ping when nothing was heard for this long (ms), and how long its pong may take. */
const PING_EVERY_MS = 20000;
const PONG_WAIT_MS = 6000;
/** How long the line at the top of a phone shows why a tap could not be played. */
const TURN_SAID_MS = 4000;
/** Close codes that mean "refused: do not try again" (unknown table, bad token or key, full, too
 *  many failed joins). */
const REFUSED_CODES = new Set([4403, 4404, 4409, 4429]);

// -- small helpers --------------------------------------------------------------------------

/** An HTML element: el("p", {class: "x"}, "text", child). */
function el(tag, attrs, ...kids) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "text") node.textContent = String(v);
    else if (k.startsWith("on") && typeof v === "function") node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const kid of kids.flat(Infinity)) {
    if (kid === null || kid === undefined || kid === false) continue;
    node.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
  }
  return node;
}

/** A code as the server spells it, or null when `text` cannot be one (letters of ALPHABET). */
export function normalizeCode(text) {
  const code = String(text || "")
    .replace(/[\s-]+/g, "")
    .toUpperCase();
  if (code.length < 4 || code.length > 12) return null;
  for (const ch of code) if (!ALPHABET.includes(ch)) return null;
  return code;
}

/** The websocket address: `ws` beside `static/`, ws: or wss: following http: or https:. */
export function socketURL() {
  const url = new URL("ws", ROOT);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  return url.href;
}

/** The address students type: the join page without "http://" (kept for https). */
function joinAddress() {
  const href = ROOT.href;
  if (ROOT.protocol === "http:") return href.slice("http://".length).replace(/\/$/, "");
  return href.replace(/\/$/, "");
}

/** localStorage that never throws (private windows may refuse it: the seat then lasts the tab). */
const store = {
  memory: new Map(),
  get(key) {
    try {
      const v = window.localStorage.getItem(key);
      if (v !== null) return v;
    } catch (err) {
      /* storage refused */
    }
    return this.memory.has(key) ? this.memory.get(key) : null;
  },
  set(key, value) {
    this.memory.set(key, value);
    try {
      window.localStorage.setItem(key, value);
    } catch (err) {
      /* storage refused: kept in memory */
    }
  },
  remove(key) {
    this.memory.delete(key);
    try {
      window.localStorage.removeItem(key);
    } catch (err) {
      /* storage refused */
    }
  },
};

const tokenKey = (code) => STORE_PREFIX + code;
const NAME_KEY = STORE_PREFIX + "name";

// -- the connection -------------------------------------------------------------------------

/**
 * One websocket to the table that comes back by itself.
 *
 * `hello()` gives the first message of each attempt (null: do not connect). `onMessage(msg)`
 * gets every message but pongs. `onState(state, info)` hears "connecting", "open" (welcomed),
 * "waiting" (info: ms until the next attempt), "refused" (info: {text, code}) and "stopped".
 */
class Connection {
  constructor({ hello, onMessage, onState }) {
    this.hello = hello;
    this.onMessage = onMessage;
    this.onState = onState;
    this.ws = null;
    this.attempt = 0;
    this.timer = null;
    this.pongTimer = null;
    this.stopped = false;
    this.welcomed = false;
    this.lastHeard = 0;
    this.refusedText = null;
    // A phone that was locked, a laptop that slept, a network that came back: look at once.
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") this.check();
    });
    window.addEventListener("online", () => this.check());
    window.addEventListener("offline", () => this.drop());
    window.addEventListener("pageshow", (e) => {
      if (e.persisted) this.check();
    });
    this.beat = setInterval(() => {
      if (this.isOpen() && Date.now() - this.lastHeard > PING_EVERY_MS - 500) this.probe();
    }, PING_EVERY_MS / 2);
  }

  isOpen() {
    return Boolean(this.ws && this.ws.readyState === WebSocket.OPEN && this.welcomed);
  }

  connect() {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = null;
    if (this.ws) return;
    const hello = this.hello();
    if (!hello) return;
    this.onState("connecting");
    let ws;
    try {
      ws = new WebSocket(socketURL());
    } catch (err) {
      this.retry();
      return;
    }
    this.ws = ws;
    this.welcomed = false;
    this.refusedText = null;
    ws.onopen = () => {
      if (ws !== this.ws) return;
      this.lastHeard = Date.now();
      ws.send(JSON.stringify(hello));
    };
    ws.onmessage = (ev) => {
      if (ws !== this.ws) return;
      this.lastHeard = Date.now();
      clearTimeout(this.pongTimer);
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch (err) {
        return;
      }
      if (!msg || typeof msg !== "object") return;
      if (msg.type === "pong") return;
      if (msg.type === "welcome") {
        this.welcomed = true;
        this.attempt = 0;
        this.onState("open");
      } else if (msg.type === "refused") {
        this.refusedText = String(msg.text || "");
      } else if (msg.type === "closed") {
        this.stopped = true;
      }
      this.onMessage(msg);
    };
    ws.onerror = () => {}; // onclose follows and decides
    ws.onclose = (ev) => {
      if (ws !== this.ws) return;
      this.ws = null;
      this.welcomed = false;
      clearTimeout(this.pongTimer);
      if (this.refusedText !== null || REFUSED_CODES.has(ev.code)) {
        this.stopped = true;
        this.onState("refused", { text: this.refusedText || ev.reason || "", code: ev.code });
        return;
      }
      if (this.stopped) {
        this.onState("stopped");
        return;
      }
      this.retry();
    };
  }

  retry() {
    if (this.stopped) return;
    const wait = BACKOFF_MS[Math.min(this.attempt, BACKOFF_MS.length - 1)];
    this.attempt += 1;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.connect(), wait);
    this.onState("waiting", wait);
  }

  /** Reconnect now (the person asked, or the page came back). */
  now() {
    this.attempt = 0;
    if (this.ws) this.drop();
    else this.connect();
  }

  check() {
    if (this.stopped) return;
    if (!this.ws) {
      this.attempt = 0;
      this.connect();
    } else if (this.ws.readyState === WebSocket.OPEN) {
      this.probe();
    }
  }

  /** Ask for a pong; no answer in PONG_WAIT_MS means the socket is dead (a phone slept). */
  probe() {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return;
    try {
      this.ws.send(JSON.stringify({ type: "ping" }));
    } catch (err) {
      this.drop();
      return;
    }
    clearTimeout(this.pongTimer);
    this.pongTimer = setTimeout(() => this.drop(), PONG_WAIT_MS);
  }

  /** Give up on the current socket and try again at once. */
  drop() {
    const ws = this.ws;
    if (!ws) return;
    this.ws = null;
    this.welcomed = false;
    clearTimeout(this.pongTimer);
    try {
      ws.close();
    } catch (err) {
      /* already closed */
    }
    if (this.stopped) return;
    this.attempt = 0;
    this.connect();
  }

  /** Send a message; false when not connected (nothing is queued: a move must meet the board it
   *  was made on). */
  send(msg) {
    if (!this.isOpen()) return false;
    try {
      this.ws.send(JSON.stringify(msg));
      return true;
    } catch (err) {
      return false;
    }
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    clearInterval(this.beat);
    const ws = this.ws;
    this.ws = null;
    if (ws) ws.close();
  }
}

// -- the connection line --------------------------------------------------------------------

/** The "Connected / Reconnecting in 3 s" line at the top of a live page. */
class ConnLine {
  constructor(host) {
    this.box = document.getElementById("tl-conn");
    if (!this.box) {
      this.box = el(
        "div",
        { id: "tl-conn", class: "tl-conn", role: "status", "aria-live": "polite" },
        el("span", { class: "tl-conn-text" }),
        " ",
        el("button", { type: "button", class: "tl-btn tl-conn-retry", id: "tl-retry", hidden: true }, "Reconnect now"),
      );
      host.prepend(this.box);
    }
    this.text = this.box.querySelector(".tl-conn-text");
    this.retry = this.box.querySelector(".tl-conn-retry");
    this.countdown = null;
  }

  set(state, info, onRetry) {
    clearInterval(this.countdown);
    this.box.dataset.state = state;
    document.body.classList.toggle("tl-offline", state !== "open");
    this.retry.hidden = state !== "waiting";
    this.retry.onclick = onRetry || null;
    if (state === "open") this.text.textContent = "Connected";
    else if (state === "connecting") this.text.textContent = "Connecting to the table…";
    else if (state === "waiting") {
      const until = Date.now() + info;
      const say = () => {
        const s = Math.max(1, Math.ceil((until - Date.now()) / 1000));
        const offline = navigator.onLine === false ? " This device has no network." : "";
        this.text.textContent = `Not connected to the table.${offline} Trying again in ${s} s…`;
      };
      say();
      this.countdown = setInterval(say, 500);
    } else this.text.textContent = info || "Not connected.";
  }
}

// -- a board for frames ---------------------------------------------------------------------

/** The board of a page: draws frames, shows this person's errors in the board's message line. */
class FrameBoard {
  constructor(host, send, onNoReply, onRefused = null) {
    this.host = host;
    this.app = mount(host, { send, mode: "table", onNoReply, onRefused });
    this.frame = null;
    this.overShown = false;
  }

  get board() {
    return this.app.board;
  }

  update(frame) {
    this.frame = frame;
    this.app.update(frame);
    const over = frame.table && frame.table.phase === "over";
    if (over && !this.overShown && this.board.scores && !this.board.scores.hidden) {
      this.board.scores.open = true; // the end: scores with where the points came from
    }
    this.overShown = over;
  }

  /** Show `text` to this person only: the last frame again with the message set. */
  say(text, kind = "error") {
    if (!this.frame) return false;
    this.app.update({ ...this.frame, message: { kind, text }, animate: false });
    return true;
  }
}

/** The host's lobby line: how many students' seats are taken, so the teacher knows when to
 * start (after Play again every seat may already be taken). */
function lobbyWords(seats) {
  const people = seats.filter((s) => s.kind === "person");
  const taken = people.filter((s) => s.claimed).length;
  if (!people.length) return "In the lobby: every seat is a bot's. Choose the game, then start it.";
  if (taken === people.length) {
    const all = { 1: "the student's seat is", 2: "both students' seats are" }[people.length] || `all ${people.length} students' seats are`;
    return `In the lobby: ${all} taken. Start when you are ready.`;
  }
  const waiting = taken === 0 ? "waiting for students to join" : "students are joining";
  return `In the lobby: ${taken} of ${people.length} students' seats taken, ${waiting}. Choose the game, then start it.`;
}

/** A seat as every page names it: the engine's number (Seat 0 is the first), then who sits
 * there ("Seat 0 · Ana"; an empty or bot seat is just "Seat 3"). */
function seatLabel(s) {
  const number = `Seat ${s.seat}`;
  return !s.name || s.name === number ? number : `${number} · ${s.name}`;
}

function phaseOf(frame) {
  if (frame && frame.table && frame.table.phase) return frame.table.phase;
  return frame && frame.view ? "playing" : "lobby";
}

/** Words for the state of the table above the board (paused, waiting for Continue, over). */
function tableNotice(frame) {
  const t = frame.table || {};
  const phase = phaseOf(frame);
  if (phase === "paused" || t.paused) return "The host has paused the game.";
  if (phase === "over") {
    // who won, in the board's own words ("Game over: Ana wins with 12 points.")
    const now = ((frame.status && frame.status.now) || "").trim();
    const result = now.startsWith("Game over: ") ? "The game is over: " + now.slice(11) : "The game is over." + (now ? " " + now : "");
    return result + " The scores below say where the points came from.";
  }
  if (phase === "closed") return "This table has closed.";
  if (t.holding) return "Waiting for the host to continue: " + t.holding;
  return "";
}

/** The lobby: who has joined, and that the host starts the game. */
function lobbyView(frame, you) {
  const t = frame.table || {};
  const seats = frame.seats || [];
  const title = t.title || frame.title || "";
  const now = (frame.status && frame.status.now) || "";
  return el(
    "section",
    { class: "tl-lobby", "aria-labelledby": "tl-lobby-head" },
    el("h2", { id: "tl-lobby-head" }, "Waiting for the host to start the game"),
    title ? el("p", { class: "tl-lobby-game" }, title) : null,
    now ? el("p", { class: "tl-lobby-now" }, now) : null,
    el(
      "ul",
      { class: "tl-lobby-seats", "aria-label": "Seats" },
      seats.map((s) =>
        el(
          "li",
          { "data-seat": s.seat, "data-kind": s.kind, class: s.seat === you ? "tl-you" : null },
          el("span", { class: "tl-seat-name" }, seatLabel(s)),
          s.kind === "bot" ? el("small", {}, " (bot)") : null,
          s.seat === you ? el("b", {}, " (you)") : null,
        ),
      ),
    ),
  );
}

// -- seat (join page and seat page) ---------------------------------------------------------

/**
 * A student's seat. Started by the join page (a code and a name typed) or the seat page
 * (resume with the token kept in this browser, else the name form).
 */
class Seat {
  constructor(code, { main, app, form, onJoinRefused }) {
    this.code = code;
    this.main = main;
    this.form = form;
    this.onJoinRefused = onJoinRefused;
    this.token = store.get(tokenKey(code));
    this.name = null;
    this.seat = null;
    this.joined = false;
    this.line = new ConnLine(main);
    this.notice = el("p", { class: "tl-notice", role: "status", hidden: true });
    // On a narrow screen the board's own status line is far below: this line says whose move it
    // is and stays at the top of the screen, marked when it is this seat's move (the style sheet
    // shows it on narrow screens only). It is there all game long, so the board does not jump.
    this.turn = el("p", { class: "tl-turn", hidden: true });
    this.lobby = el("div", { class: "tl-lobbybox", hidden: true });
    this.boardBox = el("div", { class: "tl-boardbox", hidden: true });
    this.pageMessage = el("div", { class: "tl-pagemsg", role: "alert", hidden: true });
    app.hidden = false;
    app.replaceChildren(this.pageMessage, this.notice, this.turn, this.lobby, this.boardBox);
    this.board = null;
    this.conn = new Connection({
      hello: () => this.hello(),
      onMessage: (msg) => this.onMessage(msg),
      onState: (state, info) => this.onState(state, info),
    });
  }

  hello() {
    if (this.token) return { type: "resume", code: this.code, token: this.token };
    if (this.name !== null) return { type: "join", code: this.code, name: this.name };
    return null;
  }

  resume() {
    this.conn.connect();
  }

  join(name) {
    this.name = name;
    this.conn.stopped = false;
    this.conn.connect();
  }

  /** The join page becomes this seat's page (its address too: a reload resumes the seat). */
  becomeSeatPage() {
    const here = new URL("t/" + this.code, ROOT);
    if (location.href !== here.href) history.replaceState(null, "", here.href);
    const intro = document.getElementById("tl-intro");
    if (intro) intro.hidden = true;
    document.body.dataset.page = "seat";
    document.body.dataset.code = this.code;
    document.body.classList.replace("tl-page-join", "tl-page-seat");
    document.title = `Table ${this.code} · bus_lab`;
    const head = el("header", { class: "tl-head" }, el("p", { class: "tl-where" }, "Table ", el("b", { class: "tl-code" }, this.code)));
    this.main.prepend(head);
    head.append(this.line.box);
  }

  ensureBoard() {
    if (!this.board) {
      this.board = new FrameBoard(
        this.boardBox,
        (msg) => this.sendFromBoard(msg),
        () => this.noReply(),
        (text) => this.tapRefused(text),
      );
      // The event log's entries travel only while it is open (as in the notebook).
      this.board.board.log.addEventListener("toggle", () => {
        const seq = this.board.frame ? this.board.frame.seq : -1;
        this.conn.send({ type: "control", name: "log", value: this.board.board.log.open, seq });
      });
    }
    return this.board;
  }

  sendFromBoard(msg) {
    if (this.conn.send(msg)) return;
    // Not connected: say so on the board (after core.js has noted the move as waiting).
    setTimeout(() => this.board && this.board.say("Not connected to the table: your move was not sent. Try again once connected."), 0);
  }

  noReply() {
    if (this.board) this.board.say("No answer from the table yet: reconnecting…", "note");
    this.conn.now();
  }

  showMessage(text, { link = false } = {}) {
    this.pageMessage.hidden = !text;
    this.pageMessage.replaceChildren();
    if (!text) return;
    this.pageMessage.append(el("p", {}, text));
    if (link) this.pageMessage.append(el("p", {}, el("a", { href: ROOT.href, class: "tl-btn tl-big" }, "Back to the join page")));
  }

  onState(state, info) {
    // Before the seat is taken, the join form says what happens (Joining…, or why not).
    this.line.box.hidden = !this.joined && !this.token && state !== "waiting";
    if (state === "refused") {
      this.line.set("refused", "Not connected.");
      this.refused(info.text, info.code);
      return;
    }
    if (state === "stopped") {
      this.line.set("stopped", "Not connected: the table has closed.");
      return;
    }
    this.line.set(state, info, () => this.conn.now());
    if (state === "open") this.showMessage("");
  }

  refused(text, code) {
    const wasJoin = !this.token;
    if (wasJoin) {
      this.name = null;
      if (this.onJoinRefused) this.onJoinRefused(text || "The table refused to seat you.");
      else this.showMessage(text || "The table refused to seat you.", { link: true });
      return;
    }
    // A token this table does not know (another table's, a forged one, a closed table): forget it.
    if (code === 4403 || code === 4404) {
      store.remove(tokenKey(this.code));
      this.token = null;
    }
    this.boardBox.hidden = true;
    this.lobby.hidden = true;
    this.notice.hidden = true;
    this.turn.hidden = true;
    this.showMessage(`Table ${this.code} did not accept this browser's seat. ${text || ""}`.trim(), { link: true });
    if (code === 4403 && this.form) this.form.show();
  }

  onMessage(msg) {
    switch (msg.type) {
      case "welcome":
        this.seat = msg.seat;
        if (msg.token) {
          this.token = String(msg.token);
          store.set(tokenKey(this.code), this.token);
        }
        if (this.form) this.form.hide();
        if (!this.joined) {
          this.joined = true;
          this.line.box.hidden = false;
          if (document.body.dataset.page === "join") this.becomeSeatPage();
        }
        break;
      case "frame":
        this.draw(msg.frame);
        break;
      case "error":
        if (!(this.board && !this.boardBox.hidden && this.board.say(String(msg.text)))) this.showMessage(String(msg.text));
        break;
      case "closed":
        store.remove(tokenKey(this.code));
        this.notice.hidden = false;
        this.notice.textContent = msg.text || "This table has closed.";
        this.showMessage(msg.text || "This table has closed.", { link: true });
        break;
      default:
        break;
    }
  }

  /** The line at the top of a narrow screen: on this seat's move, what the game asks of it
   * (the board's status), else whose move it is. */
  drawTurn(frame) {
    clearTimeout(this.turnTimer);
    this.turn.classList.remove("tl-said");
    const mine = Boolean(frame.moves && frame.moves.length);
    const hint = (frame.status && frame.status.hint) || "";
    const t = frame.table || {};
    const now = (frame.status && frame.status.now) || "";
    this.turn.hidden = !(hint && phaseOf(frame) === "playing" && !t.holding && frame.view);
    this.turn.textContent = this.turn.hidden ? "" : mine && now ? `Your move: ${now}` : hint;
    this.turn.classList.toggle("tl-mine", mine && !this.turn.hidden);
  }

  /** A tap the board could not play: its reason is in the board's line beside the board, far
   * below on a phone, so the line at the top says it too for a few seconds. */
  tapRefused(text) {
    if (this.turn.hidden || !this.turn.getClientRects().length || !this.board) return;
    this.turn.textContent = text;
    this.turn.classList.add("tl-said");
    clearTimeout(this.turnTimer);
    const frame = this.board.frame;
    this.turnTimer = setTimeout(() => frame === this.board.frame && this.drawTurn(frame), TURN_SAID_MS);
  }

  draw(frame) {
    if (!frame) return;
    const phase = phaseOf(frame);
    const you = frame.table && frame.table.you !== undefined ? frame.table.you : this.seat;
    document.body.dataset.phase = phase;
    // The tab says when it is this seat's move (a laptop's tab in the background, a phone's list).
    const mine = Boolean(frame.moves && frame.moves.length);
    document.title = `${mine ? "● Your move · " : ""}Table ${this.code} · bus_lab`;
    // whose move it is, while the game goes on (the notice above says the rest)
    this.drawTurn(frame);
    if (phase === "lobby" || !frame.view) {
      this.lobby.hidden = false;
      this.boardBox.hidden = true;
      this.lobby.replaceChildren(lobbyView(frame, you));
      this.notice.hidden = true;
      return;
    }
    this.lobby.hidden = true;
    this.boardBox.hidden = false;
    const text = tableNotice(frame);
    this.notice.hidden = !text;
    this.notice.textContent = text;
    this.ensureBoard().update(frame);
  }
}

/** The name form (and the code box on the join page). */
class JoinForm {
  constructor(form, { withCode }) {
    this.form = form;
    this.code = form.querySelector("#tl-code");
    this.name = form.querySelector("#tl-name");
    this.button = form.querySelector("#tl-join");
    this.error = form.querySelector("#tl-form-error");
    this.box = form.closest("#tl-joinbox") || form;
    this.withCode = withCode;
    const remembered = store.get(NAME_KEY);
    if (remembered && !this.name.value) this.name.value = remembered;
  }

  read() {
    this.say("");
    let code = null;
    if (this.withCode) {
      code = normalizeCode(this.code.value);
      if (!code) {
        this.say("That is not a table code: it has letters and digits only (no O, I, L, 0 or 1).", this.code);
        return null;
      }
      this.code.value = code;
    }
    const name = this.name.value.replace(/\s+/g, " ").trim();
    if (!name) {
      this.say("Type your name: the others see it at the table.", this.name);
      return null;
    }
    store.set(NAME_KEY, name);
    return { code, name };
  }

  say(text, field) {
    this.error.textContent = text;
    for (const input of [this.code, this.name]) if (input) input.removeAttribute("aria-invalid");
    if (field) {
      field.setAttribute("aria-invalid", "true");
      field.focus();
    }
  }

  busy(on) {
    this.button.disabled = on;
    this.button.textContent = on ? "Joining…" : "Join the table";
  }

  show() {
    this.box.hidden = false;
    const intro = this.form.closest("#tl-intro"); // the join page that became a seat's page
    if (intro) intro.hidden = false;
    this.busy(false);
  }

  hide() {
    this.box.hidden = true;
    const intro = this.form.closest("#tl-intro");
    if (intro) intro.hidden = true;
  }
}

function joinPage(body) {
  const main = document.getElementById("tl-main");
  const app = document.getElementById("tl-app");
  const form = new JoinForm(document.getElementById("tl-join-form"), { withCode: true });
  let seat = null;
  const known = normalizeCode(form.code.value);
  if (known && store.get(tokenKey(known))) {
    // this browser already has a seat at that table (a student scanned the QR code again)
    form.form.before(
      el(
        "p",
        { class: "tl-notice", id: "tl-have-seat" },
        "You already have a seat at table " + known + ". ",
        el("a", { href: new URL("t/" + known, ROOT).href }, "Back to your seat"),
      ),
    );
  }
  if (form.code.value && !form.name.value) form.name.focus();
  form.form.addEventListener("submit", (e) => {
    e.preventDefault();
    const got = form.read();
    if (!got) return;
    if (store.get(tokenKey(got.code))) {
      // this browser already has a seat there: take it back
      location.assign(new URL("t/" + got.code, ROOT).href);
      return;
    }
    form.busy(true);
    if (!seat || seat.code !== got.code) {
      if (seat) seat.conn.stop();
      seat = new Seat(got.code, {
        main,
        app,
        form,
        onJoinRefused: (text) => {
          form.busy(false);
          form.say(text);
        },
      });
      document.body.dataset.code = got.code;
    }
    seat.join(got.name);
  });
}

function seatPage(body) {
  const code = normalizeCode(body.dataset.code);
  const main = document.getElementById("tl-main");
  const app = document.getElementById("tl-app");
  const formEl = document.getElementById("tl-join-form");
  const form = new JoinForm(formEl, { withCode: false });
  const seat = new Seat(code, {
    main: main.querySelector(".tl-head") || main,
    app,
    form,
    onJoinRefused: (text) => {
      form.show();
      form.say(text);
    },
  });
  formEl.addEventListener("submit", (e) => {
    e.preventDefault();
    const got = form.read();
    if (!got) return;
    form.busy(true);
    seat.showMessage("");
    seat.join(got.name);
  });
  if (seat.token) seat.resume();
  else {
    form.show();
    seat.line.set("stopped", "Not joined yet: type your name to join.");
    if (!form.name.value) form.name.focus();
  }
}

// -- projector ------------------------------------------------------------------------------

/** The width, in CSS pixels, a projector's page is laid out at before it is zoomed to the screen:
 *  a 1280 px screen shows it 1.16 times larger, a 1920 px screen 1.75 times. */
const PROJECTOR_WIDTH = 1100;
/** Below this screen width the projector page is an ordinary page (a laptop window, a phone). */
const PROJECTOR_MIN_SCREEN = 900;

/** Zoom the projector's page to fill the screen's width; when it is then taller than the screen,
 *  first let a board that scales (a grid drawn to the room it has) take less height, else zoom
 *  less. Nothing to scroll on a projector: the join address and code stay in sight. */
function fitProjector(main) {
  const vw = window.innerWidth;
  const vh = window.innerHeight;
  if (vw < PROJECTOR_MIN_SCREEN) {
    main.style.zoom = "";
    main.style.width = "";
    main.style.removeProperty("--tl-board-max");
    delete document.body.dataset.zoom;
    return;
  }
  const apply = (zoom, boardMax) => {
    main.style.zoom = String(zoom);
    main.style.width = `${Math.floor(vw / zoom)}px`;
    main.style.setProperty("--tl-board-max", `${boardMax}px`);
  };
  const height = () => document.documentElement.scrollHeight;
  let zoom = vw / PROJECTOR_WIDTH;
  for (let i = 0; i < 6; i++) {
    apply(zoom, 100000);
    const tall = height();
    if (tall <= vh + 1) break;
    const board = main.querySelector(".tl-boardbox:not([hidden]) .bl-board");
    if (board) {
      const outside = (tall - board.getBoundingClientRect().height) / zoom; // CSS px around the board
      const room = Math.floor(vh / zoom - outside - 2);
      if (room >= 240) {
        apply(zoom, room);
        if (height() <= vh + 1 && board.scrollHeight <= board.clientHeight + 1) break;
      }
    }
    if (zoom <= 0.6) break;
    zoom = Math.max(0.6, zoom * (vh / tall) * 0.98);
  }
  document.body.dataset.zoom = zoom.toFixed(3);
}

function watchPage(body) {
  const code = normalizeCode(body.dataset.code);
  const app = document.getElementById("tl-app");
  const address = document.getElementById("tl-address");
  if (address && !address.dataset.address) address.textContent = joinAddress();
  const head = document.querySelector(".tl-head") || document.body;
  const line = new ConnLine(head);
  const notice = el("p", { class: "tl-notice", role: "status", hidden: true });
  const lobby = el("div", { class: "tl-lobbybox", hidden: true });
  const boardBox = el("div", { class: "tl-boardbox", hidden: true });
  const message = el("div", { class: "tl-pagemsg", role: "alert", hidden: true });
  app.replaceChildren(message, notice, lobby, boardBox);
  const main = document.getElementById("tl-main") || app;
  let fitDue = false;
  const fit = () => {
    if (fitDue) return;
    fitDue = true;
    requestAnimationFrame(() => {
      fitDue = false;
      fitProjector(main);
    });
  };
  window.addEventListener("resize", fit);
  fit();
  let board = null;
  const conn = new Connection({
    hello: () => ({ type: "watch", code }),
    onMessage: (msg) => {
      fit(); // after this message is drawn
      if (msg.type === "frame") {
        const frame = msg.frame;
        const phase = phaseOf(frame);
        document.body.dataset.phase = phase;
        if (phase === "lobby" || !frame.view) {
          lobby.hidden = false;
          boardBox.hidden = true;
          notice.hidden = true;
          lobby.replaceChildren(lobbyView(frame, null));
          return;
        }
        lobby.hidden = true;
        boardBox.hidden = false;
        const text = tableNotice(frame);
        notice.hidden = !text;
        notice.textContent = text;
        if (!board) board = new FrameBoard(boardBox, () => {}, () => {});
        board.update(frame);
      } else if (msg.type === "closed") {
        message.hidden = false;
        message.textContent = msg.text || "This table has closed.";
      }
    },
    onState: (state, info) => {
      if (state === "refused") {
        line.set("refused", "Not connected.");
        message.hidden = false;
        message.textContent = info.text || "The table refused this page.";
        return;
      }
      line.set(state, info, () => conn.now());
    },
  });
  conn.connect();
}

// -- host -----------------------------------------------------------------------------------

/** The host key: from the URL fragment (#key=...), kept for this tab so a reload still works,
 *  then taken out of the address bar (a projected host page does not show it). */
function hostKey(code) {
  const k = STORE_PREFIX + "host." + code;
  const params = new URLSearchParams(location.hash.slice(1));
  let key = params.get("key");
  if (key) {
    try {
      sessionStorage.setItem(k, key);
    } catch (err) {
      /* refused: the fragment stays */
      return key;
    }
    history.replaceState(null, "", location.pathname + location.search);
  } else {
    try {
      key = sessionStorage.getItem(k);
    } catch (err) {
      key = null;
    }
  }
  return key;
}

/** Download `text` as a file (a Blob link clicked once). */
function download(name, text) {
  const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  const a = el("a", { href: url, download: name, hidden: true });
  document.body.append(a);
  a.click();
  setTimeout(() => {
    URL.revokeObjectURL(url);
    a.remove();
  }, 1000);
}

class HostPage {
  constructor(body) {
    this.code = normalizeCode(body.dataset.code);
    this.key = hostKey(this.code);
    this.message = document.getElementById("tl-host-message");
    this.phaseLine = document.getElementById("tl-phase");
    this.controls = document.getElementById("tl-controls");
    this.lobbyBox = document.getElementById("tl-lobby");
    this.form = document.getElementById("tl-lobby-form");
    this.seatList = document.getElementById("tl-seat-list");
    this.app = document.getElementById("tl-app");
    const address = document.getElementById("tl-address");
    if (address) address.textContent = joinAddress();
    this.line = new ConnLine(document.querySelector(".tl-head") || document.body);
    this.frame = null;
    this.board = null;
    this.formGame = null; // the game the form was built for
    this.formSeats = null;
    this.confirming = null;
    if (!this.key) {
      this.say("This page needs the host link with its key (…#key=…): open the link the server printed or the notebook showed.");
      this.line.set("stopped", "Not connected: no host key.");
      return;
    }
    this.form.addEventListener("change", (e) => this.submitForm(e.target && e.target.name === "game"));
    this.form.addEventListener("submit", (e) => {
      e.preventDefault();
      this.submitForm(false);
    });
    this.conn = new Connection({
      hello: () => ({ type: "host", code: this.code, key: this.key }),
      onMessage: (msg) => this.onMessage(msg),
      onState: (state, info) => {
        if (state === "refused") {
          this.line.set("refused", "Not connected.");
          this.say(info.text || "The table refused this host key.");
          return;
        }
        this.line.set(state, info, () => this.conn.now());
      },
    });
    this.conn.connect();
  }

  say(text, kind = "error") {
    this.message.textContent = text || "";
    this.message.dataset.kind = kind;
  }

  command(name, value = null) {
    if (!this.conn.send({ type: "command", name, value })) this.say("Not connected to the table: try again in a moment.");
  }

  onMessage(msg) {
    if (msg.type === "frame") {
      this.say("");
      this.draw(msg.frame);
    } else if (msg.type === "error") {
      this.say(String(msg.text));
      this.formGame = null; // draw the form again from the table's settings
      if (this.frame) this.drawForm(this.frame);
    } else if (msg.type === "record") download(`table-${this.code}.json`, String(msg.record));
    else if (msg.type === "closed") {
      this.say(msg.text || "This table has closed.", "note");
      this.phaseLine.textContent = "The table has closed.";
      this.controls.replaceChildren();
    }
  }

  draw(frame) {
    this.frame = frame;
    const t = frame.table || {};
    const lobby = frame.lobby || {};
    const phase = t.phase || lobby.phase || "lobby";
    document.body.dataset.phase = phase;
    const words = {
      lobby: lobbyWords(lobby.seats || []),
      playing: "Playing.",
      paused: "Paused: nobody can move until you resume.",
      over: "The game is over.",
      closed: "The table has closed.",
    };
    let text = (t.title ? t.title + ". " : "") + (words[phase] || phase);
    if (t.holding) text += " Waiting for you: " + t.holding;
    else if (phase === "playing" && frame.status && frame.status.hint) text += " " + frame.status.hint; // whose move
    else if (phase === "over" && frame.status && frame.status.now) text += " " + frame.status.now; // who won
    this.phaseLine.textContent = text;
    this.drawControls(phase, t, frame);
    this.drawSeats(lobby.seats || [], phase);
    this.lobbyBox.hidden = phase !== "lobby";
    if (phase === "lobby") this.drawForm(frame);
    if (!this.board) this.board = new FrameBoard(this.app, () => {}, () => {});
    this.board.update(frame);
  }

  button(name, text, onClick, attrs = {}) {
    return el("button", { type: "button", class: "tl-btn", "data-command": name, onclick: onClick, ...attrs }, text);
  }

  /** A command that cannot be taken back asks once more beside the button. */
  confirmButton(name, text, question) {
    if (this.confirming === name) {
      return el(
        "span",
        { class: "tl-confirm", role: "group", "aria-label": question },
        el("span", {}, question + " "),
        this.button(
          name,
          "Yes, " + text.charAt(0).toLowerCase() + text.slice(1),
          () => {
            this.confirming = null;
            this.command(name);
          },
          { "data-confirm": "yes", class: "tl-btn tl-danger" },
        ),
        this.button("cancel", "No", () => {
          this.confirming = null;
          this.redraw();
        }),
      );
    }
    return this.button(name, text, () => {
      this.confirming = name;
      this.redraw();
      const yes = this.controls.querySelector('[data-confirm="yes"]');
      if (yes) yes.focus();
    });
  }

  redraw() {
    if (!this.frame) return;
    const t = this.frame.table || {};
    this.drawControls(t.phase || "lobby", t, this.frame);
  }

  drawControls(phase, t, frame) {
    const kids = [];
    const live = phase === "playing" || phase === "paused";
    if (phase === "lobby") kids.push(this.button("start", "Start the game", () => this.command("start"), { class: "tl-btn tl-primary" }));
    if (phase === "playing") kids.push(this.button("pause", "Pause", () => this.command("pause")));
    if (phase === "paused") kids.push(this.button("resume", "Resume", () => this.command("resume"), { class: "tl-btn tl-primary" }));
    if (t.holding && phase === "playing") {
      kids.push(this.button("continue", "Continue", () => this.command("continue"), { class: "tl-btn tl-primary" }));
    }
    if (live) kids.push(this.confirmButton("end", "End the game", "End the game now for everyone?"));
    if (phase === "over") {
      kids.push(this.button("again", "Play again with the same people", () => this.command("again"), { class: "tl-btn tl-primary" }));
    }
    if (frame.can_record) kids.push(this.button("record", "Download the record", () => this.command("record")));
    if (phase !== "closed") kids.push(this.confirmButton("close", "Close the table", "Close the table for everyone?"));
    const focused = document.activeElement && this.controls.contains(document.activeElement) ? document.activeElement.dataset.command : null;
    this.controls.replaceChildren(...kids);
    if (focused) {
      const again = this.controls.querySelector(`[data-command="${focused}"]`);
      if (again) again.focus();
    }
  }

  drawSeats(seats, phase) {
    const live = phase === "playing" || phase === "paused";
    this.seatList.replaceChildren(
      ...seats.map((s) => {
        const bot = (s.bot || "").replace(/_/g, " "); // as the Bot menu writes it
        const kind = s.kind === "away" ? `away: the ${bot} bot plays`.replace("  ", " ") : s.kind === "bot" ? `${bot} bot`.trim() : "person";
        let online = "";
        if (s.kind !== "bot") online = s.connected ? "connected" : s.claimed ? "not connected" : "nobody yet";
        const acts = [];
        if (live && s.kind === "person") acts.push(this.button("bot", "Hand to a bot", () => this.command("bot", s.seat), { "data-seat": s.seat }));
        if (live && s.kind === "away") acts.push(this.button("person", "Give back", () => this.command("person", s.seat), { "data-seat": s.seat }));
        if (phase === "lobby" && s.kind === "person" && s.claimed) {
          acts.push(this.button("kick", "Remove", () => this.command("kick", s.seat), { "data-seat": s.seat, "aria-label": "Remove " + s.name }));
        }
        return el(
          "li",
          { "data-seat": s.seat, "data-kind": s.kind },
          el("b", { class: "tl-seat-name" }, seatLabel(s)),
          el("span", { class: "tl-seat-kind" }, kind),
          online ? el("span", { class: "tl-seat-online", "data-online": String(Boolean(s.connected)) }, online) : null,
          acts.length ? el("span", { class: "tl-seat-acts" }, ...acts) : null,
        );
      }),
    );
  }

  // -- the lobby form, built from the options schema of the host frame ------------------------
  params(frame, game) {
    const g = (frame.games || []).find((x) => x.name === game);
    if (g && Array.isArray(g.params)) return g.params;
    return game === (frame.lobby || {}).game ? frame.options_schema || [] : [];
  }

  drawForm(frame) {
    const lobby = frame.lobby || {};
    const people = lobby.people || [];
    const names = (lobby.seats || []).map((seat) => seat.name);
    const shape = JSON.stringify([lobby.game, people.length, names]);
    if (this.form.contains(document.activeElement) && this.formGame === shape) {
      this.fillForm(frame, true); // never rebuild under the host's fingers
      return;
    }
    if (this.formGame !== shape) {
      const focused = this.form.contains(document.activeElement) ? document.activeElement.id : null;
      this.buildForm(frame);
      const again = focused ? document.getElementById(focused) : null;
      if (again) again.focus(); // e.g. the number of players, after the seats were redrawn
    }
    this.formGame = shape;
    this.fillForm(frame, false);
  }

  buildForm(frame) {
    const lobby = frame.lobby || {};
    const oldSeed = this.form.querySelector("#tl-seed");
    const seedText = oldSeed ? oldSeed.value : "";
    const fields = [];
    fields.push(
      el(
        "div",
        { class: "tl-field" },
        el("label", { for: "tl-game" }, "Game"),
        el(
          "select",
          { id: "tl-game", name: "game", class: "tl-input" },
          (frame.games || []).map((g) => el("option", { value: g.name }, g.title || g.name)),
        ),
      ),
    );
    for (const p of this.params(frame, lobby.game)) {
      const id = "tl-opt-" + p.name;
      let input;
      if (p.choices) {
        input = el(
          "select",
          { id, name: p.name, class: "tl-input", "data-param": p.name, "aria-describedby": id + "-help" },
          p.choices.map((c, i) => el("option", { value: String(i) }, c === null ? "none" : c === true ? "on" : c === false ? "off" : String(c))),
        );
      } else {
        input = el("input", {
          id,
          name: p.name,
          type: "number",
          inputmode: "numeric",
          class: "tl-input",
          "data-param": p.name,
          min: p.bounds ? p.bounds[0] : null,
          max: p.bounds ? p.bounds[1] : null,
          step: "1",
          "aria-describedby": id + "-help",
        });
      }
      fields.push(
        el(
          "div",
          { class: "tl-field" },
          el("label", { for: id }, p.name.charAt(0).toUpperCase() + p.name.slice(1).replace(/_/g, " ")),
          input,
          el("small", { id: id + "-help", class: "tl-help" }, p.doc || ""),
        ),
      );
    }
    const people = lobby.people || [];
    fields.push(
      el(
        "fieldset",
        { class: "tl-field tl-people" },
        el("legend", {}, "Who plays each seat (not ticked: a bot plays it)"),
        people.map((on, i) => {
          const seat = (lobby.seats || [])[i];
          const label = seatLabel(seat || { seat: i, name: `Seat ${i}` });
          return el("label", { class: "tl-check" }, el("input", { type: "checkbox", name: "person", id: `tl-person-${i}`, "data-seat": i }), ` ${label}: a person`);
        }),
      ),
    );
    fields.push(
      el(
        "div",
        { class: "tl-field" },
        el("label", { for: "tl-bot" }, "Bot"),
        el(
          "select",
          { id: "tl-bot", name: "bot", class: "tl-input" },
          (frame.bots || []).map((b) => el("option", { value: b }, b.replace(/_/g, " "))),
        ),
      ),
    );
    fields.push(
      el(
        "div",
        { class: "tl-field" },
        el("label", { for: "tl-seed" }, "Seed"),
        el("input", { id: "tl-seed", name: "seed", type: "number", inputmode: "numeric", step: "1", min: "0", class: "tl-input", "aria-describedby": "tl-seed-help" }),
        el(
          "small",
          { id: "tl-seed-help", class: "tl-help" },
          "Blank: unpredictable cards. A number: the same cards and bot moves each time it is used.",
        ),
      ),
    );
    this.form.replaceChildren(...fields);
    this.form.querySelector("#tl-seed").value = seedText;
  }

  /** Put the table's settings into the form (only the fields the host is not in, when `keep`). */
  fillForm(frame, keep) {
    const lobby = frame.lobby || {};
    const active = document.activeElement;
    const set = (input, fn) => {
      if (input && !(keep && input === active)) fn(input);
    };
    set(this.form.querySelector("#tl-game"), (i) => (i.value = lobby.game));
    const values = lobby.options || {};
    for (const p of this.params(frame, lobby.game)) {
      const input = this.form.querySelector(`[data-param="${p.name}"]`);
      const value = p.name in values ? values[p.name] : p.default;
      if (p.choices) {
        const i = p.choices.findIndex((c) => JSON.stringify(c) === JSON.stringify(value));
        set(input, (x) => (x.value = String(Math.max(0, i))));
      } else set(input, (x) => (x.value = value === null || value === undefined ? "" : String(value)));
    }
    const people = lobby.people || [];
    for (const box of this.form.querySelectorAll('input[name="person"]')) {
      set(box, (b) => (b.checked = Boolean(people[Number(b.dataset.seat)])));
    }
    const bots = frame.bots || [];
    set(this.form.querySelector("#tl-bot"), (i) => (i.value = bots.includes(lobby.bot) ? lobby.bot : bots[0] || ""));
    const seed = this.form.querySelector("#tl-seed");
    if (seed) seed.placeholder = lobby.fixed_seed ? "set (type to change)" : "blank: unpredictable";
  }

  readForm(gameChanged) {
    const frame = this.frame || {};
    const lobby = frame.lobby || {};
    const game = this.form.querySelector("#tl-game").value;
    const seedText = (this.form.querySelector("#tl-seed") || { value: "" }).value.trim();
    const seed = seedText === "" ? null : Number(seedText);
    if (gameChanged) {
      // another game: its own defaults, but the same number of players (or the nearest it
      // allows) and the same people's seats (as players_kept in table.py; the host frame has
      // every game's options)
      const params = this.params(frame, game);
      const players = params.find((p) => p.name === "players");
      const before = lobby.people || [true];
      let n = before.length;
      const options = {};
      if (players && players.bounds) {
        const [low, high] = players.bounds;
        n = Math.min(Math.max(n, low), high);
        options.players = n;
      }
      const people = Array.from({ length: n }, (_, i) => (i < before.length ? before[i] : true));
      return { game, options, people, bot: "best_odds", seed };
    }
    const options = {};
    for (const p of this.params(frame, game)) {
      const input = this.form.querySelector(`[data-param="${p.name}"]`);
      if (!input) continue;
      if (p.choices) options[p.name] = p.choices[Number(input.value)];
      else if (input.value !== "") options[p.name] = Number(input.value);
    }
    let people = [...this.form.querySelectorAll('input[name="person"]')].map((box) => box.checked);
    if (typeof options.players === "number" && options.players !== people.length) {
      // more or fewer seats: the new ones are people's
      people = Array.from({ length: options.players }, (_, i) => (i < people.length ? people[i] : true));
    }
    const bot = this.form.querySelector("#tl-bot");
    return { game, options, people, bot: bot && bot.value ? bot.value : lobby.bot || "best_odds", seed };
  }

  submitForm(gameChanged) {
    const value = this.readForm(gameChanged);
    if (value.seed !== null && !(Number.isInteger(value.seed) && value.seed >= 0)) {
      this.say("The seed is a whole number, 0 or more (or blank for unpredictable cards).");
      return;
    }
    this.command("configure", value);
  }
}

// -- start ----------------------------------------------------------------------------------

function unknownPage(body) {
  const code = normalizeCode(body.dataset.code);
  if (code) store.remove(tokenKey(code)); // a seat at a table that is gone
}

const PAGES = { join: joinPage, seat: seatPage, watch: watchPage, host: (b) => new HostPage(b), unknown: unknownPage };

function start() {
  const body = document.body;
  const page = PAGES[body.dataset.page];
  if (page) page(body);
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
else start();
