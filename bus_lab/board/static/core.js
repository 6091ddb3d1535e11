// bus_lab board: the game-agnostic browser front end.
//
// It draws a *frame* sent by Python (see bus_lab/board/frame.py): the view of one seat, the legal
// moves (each with the path of board targets a person taps to make it), the status, the step
// controls and the scores. A game's drawer (games/<game>.js, joined after this file into one ES
// module) draws the view and marks the targets; this file wires everything else: selecting targets,
// choices beside them, keyboard (Tab, arrows, Enter/Space, Escape), hover and focus explanations,
// motion (short, off for reduced motion and time travel), the kernel-gone message.
//
// A drawer is registered as  DRAWERS["<game>"] = function draw(view, ctx) { return element; }
// and uses the helpers on ctx: ctx.h / ctx.s (HTML / SVG element builders), ctx.target(el, key,
// name), ctx.anim(el, key, face), ctx.choices(el, key), ctx.frame, ctx.width, ctx.narrow,
// ctx.phone, ctx.motion, ctx.after(fn), ctx.isLegal(key), ctx.isSelected(key).

const DRAWERS = {};
const SVG_NS = "http://www.w3.org/2000/svg";
const MOVE_MS = 260;
const REPLY_TIMEOUT_MS = 5000;
/** Keys the board uses (moving among places and choices, playing, taking a choice back). */
const NAV_KEYS = new Set(["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End", "Enter", " ", "Escape"]);

function setAttrs(el, attrs) {
  if (!attrs) return el;
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "text") el.textContent = String(v);
    else if (k === "style" && typeof v === "object") Object.assign(el.style, v);
    else if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  return el;
}

function appendKids(el, kids) {
  for (const kid of kids.flat(Infinity)) {
    if (kid === null || kid === undefined || kid === false) continue;
    el.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
  }
  return el;
}

/** An HTML element: h("div", {class: "x"}, child, "text", [more]). */
function h(tag, attrs, ...kids) {
  return appendKids(setAttrs(document.createElement(tag), attrs), kids);
}

/** An SVG element: s("rect", {x: 0, y: 0, width: 10, height: 10}). */
function s(tag, attrs, ...kids) {
  return appendKids(setAttrs(document.createElementNS(SVG_NS, tag), attrs), kids);
}

function samePrefix(path, prefix) {
  if (path.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (path[i] !== prefix[i]) return false;
  return true;
}

function reducedMotion() {
  return typeof window.matchMedia === "function" && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

// The default drawer: the view as indented text (a game without its own drawer still plays).
DRAWERS.__default__ = function drawDefault(view, ctx) {
  return ctx.h("pre", { class: "bl-json", tabindex: "0", "aria-label": "The table as data" }, JSON.stringify(view, null, 1));
};

/** Timings of click → board repainted, in ms, for the benchmark (newest last, at most 500). */
function recordTiming(ms) {
  const list = (window.busLabTimings = window.busLabTimings || []);
  list.push(ms);
  if (list.length > 500) list.shift();
}

class Board {
  /**
   * @param {HTMLElement} el where the board lives
   * @param {{send: (msg: object) => void, mode?: "widget"|"table", onNoReply?: () => void}} options
   *   onNoReply: called instead of the kernel message when a move gets no answer in 5 s (the
   *   class table says so in its own words and reconnects).
   */
  constructor(el, options) {
    this.el = el;
    this.sendRaw = options.send;
    this.mode = options.mode || "widget";
    this.onNoReply = options.onNoReply || null;
    this.onRefused = options.onRefused || null; // a tap that could not be played: its reason
    this.frame = null;
    this.selection = [];
    this.pending = null; // {seq, at, timer}
    this.gone = false;
    this.focusKey = null;
    this.afterFns = [];
    this.widthClass = "";
    this.build();
  }

  build() {
    const id = "bl" + Math.random().toString(36).slice(2, 9);
    this.id = id;
    this.title = h("h3", { class: "bl-title" });
    this.heading = h("div", { class: "bl-heading" });
    this.banner = h("div", { class: "bl-banner", role: "alert", hidden: true });
    this.boardBox = h("div", { class: "bl-board", role: "group", "aria-label": "Board" });
    this.seatStrip = h("ul", { class: "bl-seats", "aria-label": "Points" });
    this.statusLast = h("span", { class: "bl-last" });
    this.statusNow = h("b", { class: "bl-now" });
    this.statusHint = h("span", { class: "bl-hint" });
    this.status = h(
      "div",
      { class: "bl-status", role: "status", "aria-live": "polite", "aria-atomic": "true" },
      this.statusLast,
      " ",
      this.statusNow,
      " ",
      this.statusHint,
    );
    this.message = h("div", { class: "bl-message", role: "alert" });
    this.prompt = h("div", { class: "bl-prompt", id: id + "-prompt" });
    this.choiceBox = h("div", { class: "bl-choices", role: "group", "aria-labelledby": id + "-prompt" });
    this.explain = h("div", { class: "bl-explain", id: id + "-explain" });
    this.dealBox = h("div", { class: "bl-deal", hidden: true });
    // The step controls sit at the top of the side panel, so they stay put while the status
    // above the choices grows and shrinks; the table controls (View as, seed) close the panel.
    this.controls = h("div", { class: "bl-controls", role: "group", "aria-label": "Step controls" });
    this.tableControls = h("div", { class: "bl-controls bl-table-controls", role: "group", "aria-label": "Table" });
    this.scores = h("details", { class: "bl-scores" });
    this.log = h("details", { class: "bl-log" });
    // The log's entries are sent only while it is open: say when it opens or folds.
    this.log.addEventListener("toggle", () => {
      if (this.frame && this.frame.controls) this.send({ type: "control", name: "log", value: this.log.open }, false);
    });
    const boardCol = h("div", { class: "bl-boardcol" }, this.boardBox, this.seatStrip);
    const side = h(
      "div",
      { class: "bl-side" },
      this.controls,
      this.status,
      this.message,
      this.prompt,
      this.choiceBox,
      this.explain,
      this.dealBox,
      this.tableControls,
    );
    this.root = h(
      "div",
      { class: "bl-root bl-mode-" + this.mode, "data-seq": "-1", tabindex: "-1" },
      this.banner,
      h("div", { class: "bl-top" }, this.title, this.heading),
      h("div", { class: "bl-main" }, boardCol, side),
      h("div", { class: "bl-below" }, this.scores, this.log),
    );
    this.buildControls();
    this.el.append(this.root);
    // Keys meant for the board (arrows, Home, End, Enter, Space, Escape) are handled as they
    // enter the page, before a notebook around it sees them: a notebook's command mode would
    // otherwise also move between cells on arrows or open a cell on Enter. The key's default
    // action (a button pressed by Enter or Space, a list or number box changed) still happens.
    this.onWindowKey = (e) => {
      if (!NAV_KEYS.has(e.key) || e.ctrlKey || e.metaKey || e.altKey || e.shiftKey) return;
      if (!(e.target instanceof Node) || !this.root.contains(e.target)) return;
      e.stopImmediatePropagation();
      this.onKey(e);
    };
    window.addEventListener("keydown", this.onWindowKey, true);
    if (typeof ResizeObserver === "function") {
      this.resizer = new ResizeObserver(() => this.onResize());
      this.resizer.observe(this.root);
    }
  }

  buildControls() {
    const c = (name, text, tip) =>
      h("button", { type: "button", class: "bl-btn", "data-control": name, title: tip, onclick: () => this.control(name) }, text);
    this.backBtn = c("back", "◀ Back", "Undo the last step (Forward brings it back)");
    this.stepBtn = c("step", "Step ▶", "Take one step: draw the next card or let a bot move");
    this.forwardBtn = c("forward", "Forward ▶▶", "Redo a step you went back from");
    this.autoBtn = h(
      "button",
      { type: "button", class: "bl-btn", "data-control": "autoplay", "aria-pressed": "false", onclick: () => this.toggleAuto() },
      "Auto-play",
    );
    this.timeline = h("input", {
      type: "range",
      min: "0",
      max: "0",
      value: "0",
      "data-control": "timeline",
      "aria-label": "Timeline: the step shown",
      title: "Drag to travel back and forth through the steps taken",
      onchange: () => this.control("goto", Number(this.timeline.value)),
    });
    this.timelineText = h("span", { class: "bl-timeline-text", "aria-hidden": "true" });
    this.seedBox = h("input", {
      type: "number",
      "data-control": "seed",
      "aria-label": "Seed of the next game",
      title: "Seed of the next game (same seed, same cards and bot moves); press New game to use it",
    });
    this.resetBtn = h(
      "button",
      {
        type: "button",
        class: "bl-btn",
        "data-control": "reset",
        title: "Start a new game with this seed (this game is discarded: Back cannot bring it back)",
        onclick: () => this.control("reset", Number(this.seedBox.value || 0)),
      },
      "New game",
    );
    this.viewerSel = h("select", {
      "data-control": "viewer",
      "aria-label": "View as",
      title: "Whose view of the table to show (hidden cards stay hidden)",
      onchange: () => this.control("viewer", Number(this.viewerSel.value)),
    });
    this.controls.append(
      h("div", { class: "bl-row" }, this.backBtn, this.stepBtn, this.forwardBtn, this.autoBtn),
      h("label", { class: "bl-row bl-timeline" }, this.timeline, this.timelineText),
    );
    this.tableControls.append(
      h(
        "div",
        { class: "bl-row" },
        h("label", { class: "bl-field" }, "View as ", this.viewerSel),
        h("label", { class: "bl-field" }, "Seed ", this.seedBox),
        this.resetBtn,
      ),
    );
  }

  // -- messages to Python -------------------------------------------------------------------
  send(msg, expectReply = true) {
    if (this.gone) return;
    const seq = this.frame ? this.frame.seq : -1;
    try {
      this.sendRaw({ ...msg, seq });
    } catch (err) {
      this.kernelGone();
      return;
    }
    if (expectReply) {
      if (this.pending) clearTimeout(this.pending.timer);
      this.pending = { seq, at: performance.now(), timer: setTimeout(() => this.noReply(), REPLY_TIMEOUT_MS) };
      this.root.classList.add("bl-busy");
    }
  }

  control(name, value) {
    this.send({ type: "control", name, value: value === undefined ? null : value });
  }

  toggleAuto() {
    const on = this.autoBtn.getAttribute("aria-pressed") !== "true";
    this.control("autoplay", on);
  }

  noReply() {
    this.pending = null;
    this.root.classList.remove("bl-busy");
    if (this.onNoReply) {
      this.onNoReply();
      return;
    }
    this.showBanner(
      "No answer from the Python kernel for 5 seconds. If it restarted or stopped, this board cannot play any more: " +
        "run this cell again (Shift+Enter) to get the game back.",
    );
  }

  kernelGone() {
    this.gone = true;
    this.statusNow.textContent = "This board has stopped.";
    this.statusHint.textContent = "";
    this.prompt.textContent = "";
    this.choiceBox.replaceChildren();
    this.root.classList.add("bl-gone");
    this.showBanner(
      "The Python kernel restarted or stopped, so this board cannot play any more. Run this cell again " +
        "(Shift+Enter) to get the game back.",
    );
  }

  showBanner(text) {
    this.banner.textContent = text;
    this.banner.hidden = false;
  }

  // -- drawing ------------------------------------------------------------------------------
  onResize() {
    const w = this.root.getBoundingClientRect().width;
    if (!w) return; // hidden (a closed panel): keep the last layout
    const cls = w < 480 ? "bl-phone" : w < 720 ? "bl-narrow" : "bl-wide";
    if (cls !== this.widthClass) {
      this.root.classList.remove("bl-phone", "bl-narrow", "bl-wide");
      this.root.classList.add(cls);
      this.widthClass = cls;
      if (this.frame) this.drawBoard(false);
    }
  }

  update(frame) {
    const fresh = !this.frame || frame.seq !== this.frame.seq;
    const oldFrame = this.frame;
    this.frame = frame;
    if (this.pending && frame.seq !== this.pending.seq) {
      recordTiming(performance.now() - this.pending.at);
    }
    if (this.pending) {
      clearTimeout(this.pending.timer);
      this.pending = null;
    }
    this.root.classList.remove("bl-busy");
    if (!this.gone) this.banner.hidden = true;
    if (fresh) this.selection = [];
    const hadFocus = this.root.contains(document.activeElement);
    const focused = document.activeElement;
    const focusControl = hadFocus && focused && focused.dataset ? focused.dataset.control : null;
    this.root.dataset.game = frame.game;
    this.title.textContent = frame.title || "";
    this.heading.textContent = frame.heading || "";
    const st = frame.status || {};
    this.statusLast.textContent = st.last ? "Last step: " + st.last : "";
    this.statusNow.textContent = st.now || "";
    this.statusHint.textContent = st.hint || "";
    const msg = frame.message;
    this.message.textContent = msg ? (msg.kind === "error" ? "⚠ " : "ℹ ") + msg.text : "";
    this.message.className = "bl-message" + (msg ? " bl-" + msg.kind : "");
    this.drawSeats(frame);
    this.drawControls(frame);
    this.drawDeal(frame);
    this.drawScores(frame);
    this.drawLog(frame);
    const animate = Boolean(frame.animate) && !reducedMotion() && oldFrame !== null && oldFrame.game === frame.game;
    this.drawBoard(animate);
    this.root.dataset.seq = String(frame.seq);
    // Focus stays where it is when that element is still on the page (a control, the log); it
    // moves on when the element was redrawn away (a target played) or is now disabled.
    if (hadFocus && (!this.root.contains(focused) || focused.disabled)) this.restoreFocus(focusControl);
  }

  drawSeats(frame) {
    const seats = frame.seats || [];
    this.seatStrip.replaceChildren(
      ...seats.map((seat) =>
        h(
          "li",
          {
            class: "bl-seat" + (seat.to_move ? " bl-to-move" : "") + (seat.winner ? " bl-winner" : ""),
            "data-seat": seat.seat,
          },
          h("span", { class: "bl-seat-name" }, seat.name),
          seat.kind ? h("small", {}, " (" + seat.kind + ")") : null,
          " ",
          h("b", {}, String(seat.points)),
          seat.winner ? " ★" : "",
          seat.to_move ? h("span", { class: "bl-sr" }, " (to move)") : null,
        ),
      ),
    );
  }

  drawControls(frame) {
    const c = frame.controls;
    this.controls.hidden = !c;
    this.tableControls.hidden = !c;
    if (!c) return;
    this.backBtn.disabled = !c.can_back;
    this.forwardBtn.disabled = !c.can_forward;
    this.stepBtn.disabled = !c.can_step;
    this.autoBtn.disabled = !c.can_step && !c.autoplay;
    this.autoBtn.setAttribute("aria-pressed", c.autoplay ? "true" : "false");
    this.autoBtn.textContent = c.autoplay ? "❚❚ Pause" : "Auto-play";
    this.autoBtn.title = c.autoplay
      ? "Pause auto-play (Step still takes one step at a time)"
      : `Auto-play: a step every ${c.interval} ms until a person must move or the game ends`;
    this.timeline.max = String(c.last);
    this.timeline.value = String(c.position);
    this.timeline.setAttribute("aria-valuetext", `step ${c.position} of ${c.last}`);
    this.timelineText.textContent = `Step ${c.position} of ${c.last}`;
    if (document.activeElement !== this.seedBox) this.seedBox.value = String(c.seed);
    const options = (c.viewers || []).map(([label, value]) => h("option", { value: String(value) }, label));
    this.viewerSel.replaceChildren(...options);
    this.viewerSel.value = String(c.viewer);
    clearTimeout(this.autoTimer);
    if (c.autoplay && c.can_step && !this.gone) {
      this.autoTimer = setTimeout(() => this.send({ type: "control", name: "tick", value: null }), c.interval);
    }
  }

  drawDeal(frame) {
    const deal = frame.deal;
    this.dealBox.hidden = !deal;
    if (!deal) {
      this.dealBox.replaceChildren();
      return;
    }
    const sel = h("select", { "aria-label": "Card to deal" }, ...deal.map((d) => h("option", { value: String(d.action) }, d.label)));
    const btn = h(
      "button",
      { type: "button", class: "bl-btn", "data-control": "deal", onclick: () => this.send({ type: "deal", action: Number(sel.value) }) },
      "Deal this card",
    );
    this.dealBox.replaceChildren(h("label", { class: "bl-field" }, "Card ", sel), btn);
  }

  drawScores(frame) {
    const sc = frame.scores;
    if (!sc) {
      this.scores.hidden = true;
      return;
    }
    this.scores.hidden = false;
    const open = this.scores.open;
    const head = (sc.columns || ["Seat", "Points", "Where the points came from"]).map((t) => h("th", { scope: "col" }, t));
    const rows = (sc.rows || []).map((r) =>
      h(
        "tr",
        { "data-seat": r.seat, "data-points": r.points },
        h("th", { scope: "row" }, r.name, r.winner ? " ★ winner" : ""),
        ...r.cells.map((cell) => h("td", {}, cell)),
      ),
    );
    this.scores.replaceChildren(
      h("summary", {}, "Scores: " + (sc.summary || "")),
      h("table", { class: "bl-table" }, h("caption", {}, sc.caption || ""), h("thead", {}, h("tr", {}, ...head)), h("tbody", {}, ...rows)),
      h("p", { class: "bl-result", "data-winners": (sc.winners || []).join(",") }, h("b", {}, sc.result || "")),
    );
    this.scores.open = open;
  }

  drawLog(frame) {
    const log = frame.log;
    if (!log) {
      this.log.hidden = true;
      return;
    }
    this.log.hidden = false;
    if (!this.logList) {
      // Built once: a keyboard user reading the log keeps their place while the game goes on.
      this.logSummary = h("summary", {});
      this.logList = h("ol", { reversed: true });
      this.logBox = h("div", { class: "bl-logbox", tabindex: "0", role: "region", "aria-label": "Event log" }, this.logList);
      this.log.append(this.logSummary, this.logBox);
    }
    const items = log.events.map((e) => h("li", {}, h("code", {}, "[" + e.rule + "]"), " ", e.text));
    if (!items.length && log.total) items.push(h("li", {}, "Loading the log…"));
    const shown = log.events.length;
    const more = shown && log.total > shown ? `latest ${shown} of ${log.total}` : `${log.total}`;
    this.logSummary.textContent = `Event log (${more} events, newest first, rule ID in brackets)`;
    this.logList.setAttribute("start", String(log.total));
    this.logList.replaceChildren(...items);
  }

  drawBoard(animate) {
    const frame = this.frame;
    const before = animate ? this.snapshot() : null;
    this.afterFns = [];
    this.choiceSlots = new Map();
    const draw = DRAWERS[frame.game] || DRAWERS.__default__;
    const width = this.boardBox.getBoundingClientRect().width || 600;
    const ctx = {
      h,
      s,
      frame,
      view: frame.view,
      width,
      narrow: this.widthClass !== "bl-wide",
      phone: this.widthClass === "bl-phone",
      motion: animate,
      target: (el, key, name) => {
        el.dataset.target = key;
        if (name) el.setAttribute("aria-label", name);
        return el;
      },
      anim: (el, key, face) => {
        el.dataset.anim = key;
        if (face !== undefined && face !== null) el.dataset.face = String(face);
        return el;
      },
      choices: (el, key) => {
        this.choiceSlots.set(key, el);
        el.classList.add("bl-choice-slot");
        return el;
      },
      after: (fn) => this.afterFns.push(fn),
      isLegal: (key) => this.nextKeys().has(key),
      isSelected: (key) => this.selection.includes(key),
      moves: frame.moves || [],
    };
    let drawn;
    try {
      drawn = draw(frame.view, ctx);
    } catch (err) {
      drawn = h("pre", { class: "bl-error" }, "The board could not be drawn: " + err);
      console.error(err);
    }
    this.boardBox.replaceChildren(drawn);
    this.autoSelect();
    this.wireTargets();
    this.drawChoices();
    this.root.dataset.moved = String(before ? this.animateFrom(before) : 0);
    for (const fn of this.afterFns) {
      try {
        fn({ motion: animate, before });
      } catch (err) {
        console.error(err);
      }
    }
  }

  // -- selection and targets -----------------------------------------------------------------
  candidates() {
    return (this.frame.moves || []).filter((m) => samePrefix(m.path, this.selection));
  }

  nextKeys() {
    const keys = new Set();
    if (!this.frame) return keys;
    for (const m of this.candidates()) if (m.path.length > this.selection.length) keys.add(m.path[this.selection.length]);
    return keys;
  }

  endingHere() {
    return this.candidates().filter((m) => m.path.length === this.selection.length);
  }

  autoSelect() {
    this.autoLength = this.selection.length === 0 ? 0 : this.autoLength || 0;
    const start = this.selection.length;
    // While every candidate goes through the same next target, and more than one move (or a move
    // with a choice) is left, select it: the choices show at once (e.g. a guess's answers).
    for (;;) {
      const cands = this.candidates();
      if (!cands.length || this.endingHere().length) return;
      const keys = this.nextKeys();
      if (keys.size !== 1) return;
      const single = cands.length === 1 && cands[0].choice === null && cands[0].path.length === this.selection.length + 1;
      if (single) return;
      this.selection.push([...keys][0]);
      if (start === 0) this.autoLength = this.selection.length;
    }
  }

  wireTargets() {
    const next = this.nextKeys();
    const blocked = this.frame.blocked || {};
    const cands = this.candidates();
    for (const el of this.boardBox.querySelectorAll("[data-target]")) {
      const key = el.dataset.target;
      const legal = next.has(key);
      const selected = this.selection.includes(key);
      el.classList.add("bl-target");
      el.classList.toggle("bl-legal", legal);
      el.classList.toggle("bl-selected", selected);
      el.classList.toggle("bl-blocked", !legal && !selected && key in blocked);
      if (!(el instanceof HTMLButtonElement)) el.setAttribute("role", "button");
      el.setAttribute("aria-disabled", legal ? "false" : "true");
      if (selected) el.setAttribute("aria-pressed", "true");
      let why = "";
      if (legal) {
        const through = cands.filter((m) => m.path[this.selection.length] === key);
        if (through.length === 1 && through[0].path.length === this.selection.length + 1 && through[0].choice === null) {
          why = [through[0].label, through[0].hint, through[0].odds].filter(Boolean).join(": ");
        } else {
          why = `${through.length} moves start here: tap, then choose`;
        }
      } else if (selected) {
        why = "Chosen: pick one of the choices beside it (Escape goes back)";
      } else if (key in blocked) {
        why = "Not now: " + blocked[key];
      }
      if (why) {
        el.setAttribute("title", why);
        el.setAttribute("aria-description", why);
      }
      el.tabIndex = -1;
      el.onclick = (e) => {
        e.stopPropagation();
        this.tap(key, el);
      };
      el.onfocus = el.onmouseenter = () => this.explainText(why);
    }
    // Tab enters the board on the place last used while it can still be played, else on the
    // first place that can (after a move, the next one), else on any place (it says why not).
    const focusable = this.rovingTargets();
    const last = focusable.find((el) => el.dataset.target === this.focusKey);
    const playable = (el) => el && (el.classList.contains("bl-legal") || el.classList.contains("bl-selected"));
    const first = (playable(last) && last) || focusable.find(playable) || last || focusable[0];
    if (first) first.tabIndex = 0;
  }

  rovingTargets() {
    return [...this.boardBox.querySelectorAll("[data-target]")].filter(
      (el) => el.classList.contains("bl-legal") || el.classList.contains("bl-blocked") || el.classList.contains("bl-selected"),
    );
  }

  /** The line under the choices: what a move would do (hover, focus) or, after a tap on a place
   *  that cannot be played, why not (then announced, and marked as a refusal). */
  explainText(text, refused = false) {
    this.explain.classList.toggle("bl-refused", refused);
    this.explain.setAttribute("aria-live", refused ? "assertive" : "off");
    this.explain.textContent = text || "";
    if (refused && text && this.onRefused) this.onRefused(text);
  }

  tap(key, el) {
    if (this.gone || this.pending) return;
    if (this.selection.includes(key)) {
      // tapping a selected target again steps back to it
      this.selection = this.selection.slice(0, this.selection.indexOf(key));
      this.refreshSelection(key);
      return;
    }
    if (!this.nextKeys().has(key)) {
      const why = (this.frame.blocked || {})[key];
      // With nothing at all to play (another seat's move, a draw, Step), say what the game waits for.
      const idle = !(this.frame.moves || []).length;
      const waiting = (this.frame.status || {}).hint || (this.frame.status || {}).now || "";
      this.explainText(
        why ? "Not now: " + why : idle && waiting ? "Nothing to play here now. " + waiting : "That cannot be played now.",
        true,
      );
      return;
    }
    const sel = [...this.selection, key];
    const cands = (this.frame.moves || []).filter((m) => samePrefix(m.path, sel));
    if (cands.length === 1 && cands[0].path.length === sel.length && cands[0].choice === null) {
      this.play(cands[0]);
      return;
    }
    this.selection = sel;
    this.refreshSelection(key);
  }

  refreshSelection(key) {
    this.focusKey = key;
    this.autoSelect();
    this.wireTargets();
    this.drawChoices();
    const choice = this.root.querySelector(".bl-choice");
    if (choice) choice.focus();
    else {
      const t = this.rovingTargets().find((el) => el.tabIndex === 0);
      if (t) t.focus();
    }
  }

  clearSelection() {
    this.selection = [];
    this.refreshSelection(null);
  }

  play(move) {
    this.explainText("");
    this.send({ type: "move", action: move.action });
  }

  drawChoices() {
    for (const slot of this.choiceSlots.values()) slot.replaceChildren();
    const frame = this.frame;
    const moves = frame.moves || [];
    const ending = this.endingHere();
    const last = this.selection.length ? this.selection[this.selection.length - 1] : "";
    this.prompt.textContent = frame.prompt || "";
    const buttons = ending.map((m) =>
      h(
        "button",
        {
          type: "button",
          class: "bl-btn bl-choice",
          "data-action": m.action,
          "data-kind": m.kind,
          title: [m.label, m.hint, m.odds ? "chance " + m.odds : null].filter(Boolean).join(": "),
          onclick: () => this.play(m),
          onfocus: () => this.explainText([m.label, m.hint].filter(Boolean).join(": ")),
          onmouseenter: () => this.explainText([m.label, m.hint].filter(Boolean).join(": ")),
        },
        h("span", { class: "bl-choice-text" }, m.choice ?? m.label),
        m.odds ? h("small", { class: "bl-odds" }, m.odds) : null,
        m.hint ? h("small", { class: "bl-choice-hint" }, m.hint) : null,
      ),
    );
    if (this.selection.length > (this.autoLength || 0)) {
      buttons.push(
        h("button", { type: "button", class: "bl-btn bl-cancel", onclick: () => this.clearSelection(), title: "Choose again (Escape)" }, "Cancel"),
      );
    }
    const slot = this.choiceSlots.get(last);
    if (slot && ending.length) {
      slot.replaceChildren(...buttons);
      this.choiceBox.replaceChildren();
    } else {
      this.choiceBox.replaceChildren(...buttons);
    }
    if (moves.length && !ending.length && !this.selection.length) {
      this.explainText(frame.targets_hint || "Tap a highlighted place on the board to move.");
    }
  }

  restoreFocus(control) {
    if (control) {
      const el = this.root.querySelector(`[data-control="${control}"]`);
      if (el && !el.disabled) {
        el.focus();
        return;
      }
    }
    // Where a keyboard user carries on: a choice, a place to play, Step; never Back (Enter there
    // would quietly rewind the game). With nothing to do (the end of the game, or of the
    // timeline), the timeline itself, where arrows move and Enter changes nothing.
    const choice = this.root.querySelector(".bl-choice");
    const target = this.rovingTargets().find((el) => el.tabIndex === 0 && el.classList.contains("bl-legal"));
    const usable = (el) => el && !el.disabled && el.getClientRects().length > 0;
    const el = [choice, target, this.stepBtn, this.timeline].find(usable);
    if (el) el.focus();
    else this.root.focus();
  }

  onKey(e) {
    const t = e.target;
    if (e.key === "Escape") {
      if (this.selection.length > (this.autoLength || 0)) {
        this.clearSelection();
        e.preventDefault();
      }
      return;
    }
    if (t && t.classList && (t.classList.contains("bl-choice") || t.classList.contains("bl-cancel"))) {
      this.moveAmong([...t.parentElement.querySelectorAll(".bl-choice, .bl-cancel")], t, e);
      return;
    }
    if (!t || !t.dataset || t.dataset.target === undefined) return;
    if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      this.tap(t.dataset.target, t);
      return;
    }
    const list = this.rovingTargets();
    if (this.moveAmong(list, t, e)) {
      for (const el of list) el.tabIndex = -1;
      document.activeElement.tabIndex = 0;
      this.focusKey = document.activeElement.dataset.target;
    }
  }

  /** Arrow keys, Home and End move focus within `list` (from `current`); true when they did. */
  moveAmong(list, current, e) {
    const i = list.indexOf(current);
    let j = null;
    if (e.key === "ArrowRight" || e.key === "ArrowDown") j = (i + 1) % list.length;
    else if (e.key === "ArrowLeft" || e.key === "ArrowUp") j = (i - 1 + list.length) % list.length;
    else if (e.key === "Home") j = 0;
    else if (e.key === "End") j = list.length - 1;
    if (j === null || !list.length) return false;
    e.preventDefault();
    list[j].focus();
    return true;
  }

  // -- motion --------------------------------------------------------------------------------
  snapshot() {
    const map = new Map();
    for (const el of this.boardBox.querySelectorAll("[data-anim]")) {
      map.set(el.dataset.anim, { rect: el.getBoundingClientRect(), face: el.dataset.face });
    }
    return map;
  }

  /** Animate keyed elements from where they were; returns how many were animated (the root's
   *  data-moved attribute carries it, for tests that cannot catch a 260 ms animation in time). */
  animateFrom(before) {
    let count = 0;
    for (const el of this.boardBox.querySelectorAll("[data-anim]")) {
      if (typeof el.animate !== "function") continue;
      const old = before.get(el.dataset.anim);
      const scale = el.ownerSVGElement && el.ownerSVGElement.getScreenCTM() ? el.ownerSVGElement.getScreenCTM().a || 1 : 1;
      if (!old) {
        el.animate([{ opacity: 0, transform: "scale(0.85)" }, { opacity: 1, transform: "none" }], { duration: 200, easing: "ease-out" });
        count += 1;
        continue;
      }
      const now = el.getBoundingClientRect();
      const dx = (old.rect.left - now.left) / scale;
      const dy = (old.rect.top - now.top) / scale;
      const frames = [];
      if (Math.abs(dx) + Math.abs(dy) > 1) {
        frames.push({ transform: `translate(${dx}px, ${dy}px)` }, { transform: "none" });
      } else if (old.face !== el.dataset.face) {
        frames.push({ transform: "scaleX(0.05)" }, { transform: "none" });
      }
      if (frames.length) {
        el.animate(frames, { duration: MOVE_MS, easing: "ease-out" });
        count += 1;
      }
    }
    return count;
  }
}

/**
 * Draw a board into `el` outside a notebook (the class table's pages).
 * @returns {{update: (frame: object) => void, board: Board}}
 */
export function mount(el, options) {
  const board = new Board(el, { mode: "table", ...options });
  return { update: (frame) => board.update(frame), board };
}

export default {
  render({ model, el }) {
    const board = new Board(el, { send: (msg) => model.send(msg), mode: "widget" });
    const redraw = () => board.update(model.get("frame"));
    model.on("change:frame", redraw);
    // After a kernel restart the old model fires comm_live_update and can no longer send: a
    // harmless ping finds out (Voila fires nothing: the reply timeout of a click catches that).
    model.on("comm_live_update", () => {
      try {
        model.send({ type: "ping" });
      } catch (err) {
        board.kernelGone();
      }
    });
    redraw();
    return () => {
      clearTimeout(board.autoTimer);
      if (board.resizer) board.resizer.disconnect();
      window.removeEventListener("keydown", board.onWindowKey, true);
    };
  },
};
