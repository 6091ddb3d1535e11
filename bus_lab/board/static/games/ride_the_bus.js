// Ride the Bus: draws one seat's view (bus_lab/games/ride_the_bus/views.py) as HTML.
//
// Layout: the players' rows (seat name, points, face-up row, a ▶ on the seat to move) on the left;
// on the right the "now" panel (the question being asked, the hand-out of points, or the bus /
// gauntlet ride with the card to beat and the streak) above the Part 2 board (pyramid or Give &
// Take) or the gauntlet's ride order. Below 560 px of board the panels stack (now, rows, board).
//
// Targets (bus_lab/board/adapters/ride_the_bus.py): "card:next", the card about to be dealt that
// every guess is about (its answers are buttons beside it, ctx.choices), and "seat:N", each row
// (a give is a tap on the taker's row). Cards show rank and suit symbol; red suits are also drawn
// in red ink, never colour alone.
DRAWERS.ride_the_bus = (() => {
  const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };
  const SUIT_WORDS = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
  const RANK_WORDS = {
    2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine",
    T: "ten", J: "jack", Q: "queen", K: "king", A: "ace",
  };
  const NEXT = "card:next";
  const QUESTION_WORDS = {
    1: "red or black?",
    2: "higher or lower than the first card?",
    3: "inside or outside the first two cards?",
    4: "which suit?",
  };
  const CSS = `
.rtb { display: grid; grid-template-columns: minmax(0, 290px) minmax(0, 1fr); grid-template-areas: "seats now" "seats part2";
  grid-template-rows: auto 1fr; gap: 6px 12px; align-items: start; color: #1a1a1a; font-size: 13px; }
.rtb.rtb-one { grid-template-columns: minmax(0, 1fr); grid-template-rows: auto; grid-template-areas: "now" "seats" "part2"; }
.rtb h4 { margin: 0 0 3px; font-size: 13px; }
.rtb-seats { grid-area: seats; display: flex; flex-direction: column; gap: 2px; min-width: 0; }
.rtb-nowbox { grid-area: now; min-width: 0; border: 1px solid #b8c4d0; border-radius: 6px; padding: 5px 8px; background: #f7f9fc; }
.rtb-part2 { grid-area: part2; min-width: 0; }
.rtb-seat { display: flex; align-items: center; gap: 6px; padding: 1px 4px; min-height: 48px; }
.rtb-who { flex: 0 0 108px; min-width: 0; line-height: 1.25; }
.rtb-who b { overflow-wrap: anywhere; }
.rtb-mark { display: inline-block; width: 1.1em; color: #0b5cad; font-weight: 700; }
.rtb-tag { display: block; font-size: 11px; color: #4a4a4a; }
.rtb-tomove .rtb-who b { text-decoration: underline; }
.rtb-cards { display: flex; gap: 4px; flex-wrap: nowrap; align-items: center; }
.rtb-card { position: relative; width: 40px; height: 56px; flex: 0 0 auto; border: 1px solid #444; border-radius: 5px;
  background: #fff; display: flex; flex-direction: column; align-items: center; justify-content: center;
  line-height: 1; font-family: system-ui, sans-serif; color: #111; }
.rtb-card .rtb-rank { font-size: 16px; font-weight: 700; }
.rtb-card .rtb-suit { font-size: 18px; margin-top: 2px; }
.rtb-card.rtb-red { color: #b02a00; }
.rtb-card.rtb-small { width: 30px; height: 42px; }
.rtb-card.rtb-small .rtb-rank { font-size: 13px; }
.rtb-card.rtb-small .rtb-suit { font-size: 14px; }
.rtb-card.rtb-faded { background: #f0f0f0; border-style: dashed; border-color: #888; }
.rtb-card.rtb-now { border: 3px solid #0b5cad; }
.rtb-card.rtb-back { background: #2f5f9e; border-color: #1d3d66; color: #fff; }
.rtb-card.rtb-back.rtb-now { outline: 3px solid #0b5cad; outline-offset: 1px; }
.rtb-card.rtb-back::after { content: ""; position: absolute; inset: 4px; border: 1px dashed #fff; border-radius: 3px; }
.rtb-card.rtb-slot { background: #fff; border: 1px dashed #767676; color: #4a4a4a; font-size: 11px; }
.rtb .rtb-next { width: 46px; height: 62px; font-size: 24px; font-weight: 700; background: #fff; border: 2px dashed #0b5cad; color: #0b5cad; }
.rtb .rtb-next small { font-size: 11px; font-weight: 600; margin-top: 3px; color: #1a1a1a; }
.rtb-line { display: flex; flex-wrap: wrap; align-items: center; gap: 6px 8px; margin: 3px 0; }
.rtb-line > .bl-choice-slot { flex: 1 1 200px; }
.rtb-cap { display: flex; flex-direction: column; align-items: center; gap: 2px; font-size: 11px; color: #4a4a4a; }
.rtb-cap b { color: #1a1a1a; }
.rtb-arrow { font-size: 16px; color: #4a4a4a; }
.rtb-note { font-size: 12px; color: #4a4a4a; margin: 2px 0; }
.rtb-what { font-weight: 600; margin: 0 0 2px; }
.rtb-pips { letter-spacing: 2px; color: #0b5cad; }
.rtb .bl-choice-slot .bl-choice { min-height: 44px; padding: 4px 10px; }
.rtb .bl-choice-slot .bl-choice-hint { display: none; }
.rtb .bl-choice-slot .bl-choice small { font-size: 12px; }
.rtb-pyr { display: flex; flex-direction: column; gap: 10px; }
.rtb-prow { display: flex; align-items: flex-end; gap: 6px; }
.rtb-plabel { flex: 0 0 66px; font-size: 11px; color: #4a4a4a; line-height: 1.2; padding-bottom: 12px; }
.rtb-plabel b { color: #1a1a1a; font-size: 12px; }
.rtb-pcards { display: flex; gap: 6px; justify-content: center; flex: 0 0 auto; width: 190px; }
.rtb-cell { display: flex; flex-direction: column; align-items: center; gap: 2px; }
.rtb-pyr .rtb-cell { gap: 5px; }
.rtb-cell-mark { height: 14px; font-size: 11px; font-weight: 700; color: #0b5cad; line-height: 14px; white-space: nowrap; }
.rtb-cell-foot { height: 13px; font-size: 11px; color: #4a4a4a; line-height: 13px; white-space: nowrap; }
.rtb-gt { display: grid; grid-template-columns: 66px 74px 74px; gap: 0 8px; align-items: end; }
.rtb-gt-head { font-size: 12px; font-weight: 700; text-align: center; }
.rtb-order { list-style: none; margin: 0; padding: 0; }
.rtb-order li { display: flex; gap: 6px; padding: 1px 0; }
.rtb-order .rtb-best { margin-left: auto; }
.rtb-foot { font-size: 11px; color: #4a4a4a; margin-top: 4px; }
.rtb-one .rtb-who { flex-basis: 96px; }
`;

  // -- cards ------------------------------------------------------------------------------
  const rankText = (code) => (code[0] === "T" ? "10" : code[0]);
  const label = (code) => rankText(code) + SUITS[code[1]];
  const spoken = (code) => `${label(code)} (${RANK_WORDS[code[0]]} of ${SUIT_WORDS[code[1]]})`;
  const isRed = (code) => code[1] === "D" || code[1] === "H";
  const plural = (k, word) => `${k} ${word}${k === 1 ? "" : "s"}`;

  /** A face-up card (rank over suit symbol), keyed for motion by its code. */
  function faceCard(ctx, code, { small = false, faded = false, now = false, key = null } = {}) {
    const cls = ["rtb-card", isRed(code) ? "rtb-red" : "rtb-black"];
    if (small) cls.push("rtb-small");
    if (faded) cls.push("rtb-faded");
    if (now) cls.push("rtb-now");
    const el = ctx.h(
      "div",
      { class: cls.join(" "), role: "img", "aria-label": spoken(code), "data-card": code },
      ctx.h("span", { class: "rtb-rank", "aria-hidden": "true" }, rankText(code)),
      ctx.h("span", { class: "rtb-suit", "aria-hidden": "true" }, SUITS[code[1]]),
    );
    return ctx.anim(el, key || "card:" + code, code);
  }

  /** A face-down card (the back), keyed by its place so a flip turns it over. */
  function backCard(ctx, key, name, { small = false, now = false } = {}) {
    const cls = "rtb-card rtb-back" + (small ? " rtb-small" : "") + (now ? " rtb-now" : "");
    return ctx.anim(ctx.h("div", { class: cls, role: "img", "aria-label": name }), key, "down");
  }

  /** An empty place for a card (dashed), with a short word inside. */
  function slot(ctx, text, small = true) {
    return ctx.h("div", { class: "rtb-card rtb-slot" + (small ? " rtb-small" : ""), "aria-hidden": "true" }, text || "");
  }

  /** The card about to be dealt: the target of every guess, with the answer called on it (if any). */
  function nextCard(ctx, view, what) {
    const called = view.pending_guess;
    const el = ctx.h(
      "div",
      { class: "rtb-card rtb-next" },
      "?",
      called ? ctx.h("small", {}, called) : null,
    );
    ctx.target(el, NEXT, `The next card, face down: ${what}` + (called ? ` (${called} was called)` : ""));
    ctx.anim(el, "next", "down");
    return el;
  }

  // -- the players' rows ---------------------------------------------------------------------
  function seatName(ctx, seat) {
    const seats = (ctx.frame && ctx.frame.seats) || [];
    const found = seats.find((s) => s.seat === seat);
    return found ? found.name : `Seat ${seat}`;
  }

  function seatRow(ctx, view, seat) {
    const toMove = view.to_move === seat;
    const winner = view.winners.includes(seat);
    const row = view.rows[seat];
    const g = view.gauntlet;
    const tags = [];
    if (view.bus.rider === seat && view.phase !== "questions") tags.push(g ? "rides now" : "rides the bus");
    if (g && g.order.length) tags.push(`best ride ${g.best[seat]}`);
    if (winner) tags.push("★ winner");
    const pts = plural(view.points[seat], "point");
    const cards = row.map((code) => faceCard(ctx, code, { small: true }));
    if (view.phase === "questions") for (let k = row.length; k < 4; k++) cards.push(slot(ctx, `Q${k + 1}`));
    const name = seatName(ctx, seat);
    const el = ctx.h(
      "div",
      { class: "rtb-seat" + (toMove ? " rtb-tomove" : ""), "data-seat": seat },
      ctx.h(
        "div",
        { class: "rtb-who" },
        ctx.h("span", { class: "rtb-mark", "aria-hidden": "true" }, toMove ? "▶" : winner ? "★" : ""),
        ctx.h("b", {}, name),
        ctx.h("span", { class: "rtb-tag" }, pts),
        tags.length ? ctx.h("span", { class: "rtb-tag" }, tags.join(" · ")) : null,
      ),
      ctx.h("div", { class: "rtb-cards" }, cards),
    );
    const held = row.length ? row.map(label).join(" ") : "no cards";
    const say = `${name}${toMove ? " (to move)" : ""}: ${pts}, row ${held}${tags.length ? ", " + tags.join(", ") : ""}`;
    return ctx.target(el, "seat:" + seat, say);
  }

  function seatsPanel(ctx, view) {
    const rows = [];
    for (let seat = 0; seat < view.players; seat++) rows.push(seatRow(ctx, view, seat));
    const title = view.gauntlet ? "Players' rows (Part 1 points set the ride order)" : "Players' rows";
    return ctx.h("section", { class: "rtb-seats", "aria-label": "Players' rows" }, ctx.h("h4", {}, title), rows);
  }

  // -- the "now" panel: question, hand-out, bus or ride ------------------------------------------
  function givePanel(ctx, view) {
    const give = view.gives[0];
    const giver = seatName(ctx, give.giver);
    const mine = ctx.moves.some((m) => m.kind === "give");
    const later = view.gives.slice(1);
    return [
      ctx.h("p", { class: "rtb-what" }, `${giver} hands out ${plural(give.points, "point")}`),
      ctx.h(
        "p",
        { class: "rtb-note" },
        mine ? "Tap the row of the player who takes them (not your own)." : `${giver} picks who takes them.`,
      ),
      later.length
        ? ctx.h("p", { class: "rtb-note" }, "Then: " + later.map((g) => `${seatName(ctx, g.giver)} hands out ${g.points}`).join(", "))
        : null,
    ];
  }

  function consequenceLine(ctx) {
    const hint = (ctx.moves.find((m) => m.kind === "guess") || {}).hint;
    return hint ? ctx.h("p", { class: "rtb-note" }, hint) : null;
  }

  function questionPanel(ctx, view) {
    const q = view.question;
    const name = seatName(ctx, q.seat);
    const row = view.rows[q.seat];
    const uses = q.number === 2 ? 1 : q.number === 3 ? 2 : 0;
    const ref = row.map((code, i) => faceCard(ctx, code, { small: true, faded: i >= uses, key: "ref:" + code }));
    let text = QUESTION_WORDS[q.number];
    if (uses) text = (uses === 1 ? "higher or lower than " : "inside or outside ") + row.slice(0, uses).map(label).join(" and ") + "?";
    const what = `the card for ${name}'s Q${q.number}: ${text}`;
    const slotEl = ctx.choices(ctx.h("div", {}), NEXT);
    return [
      ctx.h("p", { class: "rtb-what" }, `Q${q.number} for ${name} (${plural(q.points, "point")}): ${text}`),
      ctx.h(
        "div",
        { class: "rtb-line" },
        ref.length ? ctx.h("div", { class: "rtb-cap" }, ctx.h("div", { class: "rtb-cards" }, ref), `${name}'s row`) : null,
        ref.length ? ctx.h("span", { class: "rtb-arrow", "aria-hidden": "true" }, "→") : null,
        ctx.h("div", { class: "rtb-cap" }, nextCard(ctx, view, what), ctx.h("b", {}, "next card")),
        slotEl,
      ),
      consequenceLine(ctx),
    ];
  }

  function streakLine(ctx, bus) {
    const pips = "●".repeat(Math.min(bus.streak, bus.target)) + "○".repeat(Math.max(0, bus.target - bus.streak));
    return ctx.h(
      "span",
      {},
      ctx.h("b", {}, `Streak ${bus.streak} of ${bus.target}`),
      " ",
      ctx.h("span", { class: "rtb-pips", "aria-hidden": "true" }, pips),
    );
  }

  function higherLowerPanel(ctx, view) {
    const bus = view.bus;
    const g = view.gauntlet;
    const rider = seatName(ctx, bus.rider);
    const over = view.phase === "over";
    const title = g ? `Ride ${Math.min(g.ride, g.total_rides)} of ${g.total_rides}: ${rider} rides` : `The bus: ${rider} rides`;
    const extra = g ? `${bus.target} in a row win on the spot` : `guess ${Math.min(bus.guesses + 1, bus.max_guesses)} of ${bus.max_guesses}`;
    const beat = bus.card_to_beat;
    const earlier = bus.cards.slice(0, -1).slice(-3);
    const line = [];
    if (earlier.length) {
      line.push(
        ctx.h("div", { class: "rtb-cap" }, ctx.h("div", { class: "rtb-cards" }, earlier.map((c) => faceCard(ctx, c, { small: true, faded: true }))), "earlier"),
      );
    }
    if (beat) {
      line.push(ctx.h("div", { class: "rtb-cap" }, faceCard(ctx, beat, { now: true }), ctx.h("b", {}, over ? "last card" : "card to beat")));
    } else {
      line.push(ctx.h("div", { class: "rtb-cap" }, slot(ctx, "first", false), "first card"));
    }
    if (beat && !over) {
      line.push(ctx.h("span", { class: "rtb-arrow", "aria-hidden": "true" }, "→"));
      line.push(ctx.h("div", { class: "rtb-cap" }, nextCard(ctx, view, `higher or lower than ${label(beat)}?`), ctx.h("b", {}, "next card")));
      line.push(ctx.choices(ctx.h("div", {}), NEXT));
    }
    return [
      ctx.h("p", { class: "rtb-what" }, title),
      ctx.h("div", { class: "rtb-line" }, streakLine(ctx, bus), ctx.h("span", { class: "rtb-note" }, extra)),
      ctx.h("div", { class: "rtb-line" }, line),
      beat && !over ? consequenceLine(ctx) : null,
    ];
  }

  function questionsBusPanel(ctx, view) {
    const bus = view.bus;
    const rider = seatName(ctx, bus.rider);
    const asked = bus.question;
    const run = bus.run;
    const places = [];
    for (let k = 0; k < 4; k++) {
      let card;
      if (k < run.length) card = faceCard(ctx, run[k]);
      else if (asked === k + 1) {
        let text = QUESTION_WORDS[k + 1];
        if (k === 1) text = `higher or lower than ${label(run[0])}?`;
        if (k === 2) text = `inside or outside ${label(run[0])} and ${label(run[1])}?`;
        card = nextCard(ctx, view, `Q${k + 1} of the questions bus: ${text}`);
      } else card = slot(ctx, `Q${k + 1}`, false);
      places.push(ctx.h("div", { class: "rtb-cap" }, card, asked === k + 1 ? ctx.h("b", {}, `▲ Q${k + 1}`) : `Q${k + 1}`));
    }
    let ask = "";
    if (asked === 1) ask = "Q1: red or black?";
    if (asked === 2) ask = `Q2: higher or lower than ${label(run[0])}?`;
    if (asked === 3) ask = `Q3: inside or outside ${label(run[0])} and ${label(run[1])}?`;
    if (asked === 4) ask = "Q4: which suit?";
    const last = bus.cards[bus.cards.length - 1];
    return [
      ctx.h("p", { class: "rtb-what" }, `The questions bus: ${rider} rides`),
      ctx.h(
        "div",
        { class: "rtb-line" },
        ctx.h("b", {}, `Run: ${run.length} right in a row`),
        ctx.h("span", { class: "rtb-note" }, `best ${bus.best_streak} · guess ${Math.min(bus.guesses + 1, bus.max_guesses)} of ${bus.max_guesses}`),
      ),
      ask ? ctx.h("p", { class: "rtb-what" }, ask) : null,
      ctx.h("div", { class: "rtb-line" }, places, asked ? ctx.choices(ctx.h("div", {}), NEXT) : null),
      !run.length && last && view.phase === "bus" ? ctx.h("p", { class: "rtb-note" }, `Last card ${label(last)}: a miss, back to Q1.`) : null,
      asked ? consequenceLine(ctx) : null,
    ];
  }

  function nowPanel(ctx, view) {
    let body;
    if (view.gives.length) body = givePanel(ctx, view);
    else if (view.phase === "questions" && view.question) body = questionPanel(ctx, view);
    else if ((view.phase === "bus" || view.phase === "rides" || view.phase === "over") && view.bus.rider !== null) {
      body = view.bus.kind === "questions" ? questionsBusPanel(ctx, view) : higherLowerPanel(ctx, view);
    } else body = [];
    const status = ctx.h("p", { class: "rtb-note" }, view.status);
    return ctx.h("section", { class: "rtb-nowbox", "aria-label": "Now" }, body, status);
  }

  // -- Part 2: the pyramid or the Give & Take board --------------------------------------------
  function rowLabel(ctx, row, points) {
    return ctx.h("div", { class: "rtb-plabel" }, ctx.h("b", {}, `row ${row}`), ctx.h("br"), `×${points} per card`);
  }

  function pyramidPanel(ctx, view) {
    const pyr = view.pyramid;
    const live = view.phase === "pyramid";
    const current = pyr.findIndex((p) => p.current);
    const next = live && current < 0 ? pyr.findIndex((p) => p.card === null) : -1;
    const rows = [];
    let start = 0;
    const starts = [];
    for (const size of [4, 3, 2, 1]) {
      starts.push(start);
      start += size;
    }
    for (let row = 4; row >= 1; row--) {
      const size = 5 - row;
      const cells = [];
      for (let k = 0; k < size; k++) {
        const i = starts[row - 1] + k;
        const p = pyr[i];
        const mark = i === current ? "▼ now" : i === next ? "▼ next" : "";
        const card = p.card
          ? faceCard(ctx, p.card, { now: i === current, faded: i !== current, key: "pyr:" + i })
          : backCard(ctx, "pyr:" + i, `pyramid row ${row}, card ${k + 1}: face down`, { now: i === next });
        cells.push(ctx.h("div", { class: "rtb-cell" }, ctx.h("div", { class: "rtb-cell-mark" }, mark), card));
      }
      rows.push(ctx.h("div", { class: "rtb-prow" }, rowLabel(ctx, row, pyr[starts[row - 1]].points), ctx.h("div", { class: "rtb-pcards" }, cells)));
    }
    return [ctx.h("h4", {}, "Pyramid (Part 2)"), ctx.h("div", { class: "rtb-pyr" }, rows)];
  }

  function nextSpot(view) {
    // The spot flipped next: the one in play, else the one the status names ("Flip the Give spot of row 2.").
    const current = view.spots.findIndex((s) => s.current);
    if (current >= 0) return current;
    const m = /Flip the (Give|Take) spot of row (\d)/.exec(view.status || "");
    return m ? (Number(m[2]) - 1) * 2 + (m[1] === "Take" ? 1 : 0) : -1;
  }

  function spotCell(ctx, spot, index, marked) {
    const cards = spot.cards;
    const mark = spot.current ? "▼ now" : marked ? "▼ next" : "";
    let card;
    if (!cards.length) {
      card = marked
        ? backCard(ctx, "spot:" + index, `row ${spot.row} ${spot.kind} spot: next to flip`, { now: true })
        : slot(ctx, spot.kind === "give" ? "Give" : "Take", false);
    } else {
      card = faceCard(ctx, cards[cards.length - 1], { now: spot.current || marked, faded: !spot.current, key: "spot:" + index });
    }
    const foot = cards.length > 1 ? `${cards.length} flips` : "";
    return ctx.h(
      "div",
      { class: "rtb-cell", "data-spot": index },
      ctx.h("div", { class: "rtb-cell-mark" }, mark),
      card,
      ctx.h("div", { class: "rtb-cell-foot" }, foot),
    );
  }

  function giveTakePanel(ctx, view) {
    const marked = view.phase === "give_and_take" ? nextSpot(view) : -1;
    const grid = [ctx.h("div", {}), ctx.h("div", { class: "rtb-gt-head" }, "Give"), ctx.h("div", { class: "rtb-gt-head" }, "Take")];
    for (let row = 4; row >= 1; row--) {
      const gi = (row - 1) * 2;
      grid.push(rowLabel(ctx, row, view.spots[gi].points));
      grid.push(spotCell(ctx, view.spots[gi], gi, marked === gi));
      grid.push(spotCell(ctx, view.spots[gi + 1], gi + 1, marked === gi + 1));
    }
    return [ctx.h("h4", {}, "Give & Take board (Part 2)"), ctx.h("div", { class: "rtb-gt" }, grid)];
  }

  function part2Summary(ctx, view) {
    // Outside Part 2 the board takes one line (all face down before, all played after).
    const name = view.pyramid.length ? "Pyramid" : "Give & Take board";
    const pts = view.options.row_points === "flat" ? "1 point per card on every row" : "rows ×1 to ×4 per card";
    const when = view.phase === "questions" ? "comes in Part 2" : "done";
    return ctx.h("p", { class: "rtb-note" }, `${name} (Part 2, ${pts}): ${when}.`);
  }

  function gauntletPanel(ctx, view) {
    const g = view.gauntlet;
    const riding = view.phase === "rides" ? view.bus.rider : null;
    const items = g.order.map((seat, k) =>
      ctx.h(
        "li",
        {},
        ctx.h("span", { class: "rtb-mark", "aria-hidden": "true" }, seat === riding ? "▶" : view.winners.includes(seat) ? "★" : ""),
        seat === riding ? ctx.h("b", {}, `${k + 1}. ${seatName(ctx, seat)} (riding)`) : `${k + 1}. ${seatName(ctx, seat)}`,
        ctx.h("span", { class: "rtb-best" }, `best ride ${g.best[seat]}`),
      ),
    );
    return [
      ctx.h("h4", {}, "Solo gauntlet: the rides"),
      ctx.h("p", { class: "rtb-note" }, `${view.options.streak} hits in a row win on the spot; otherwise the longest ride wins. ${g.total_rides} rides in all.`),
      g.order.length ? ctx.h("ol", { class: "rtb-order", "aria-label": "Ride order" }, items) : ctx.h("p", { class: "rtb-note" }, "Ride order: set by the Part 1 points, most first."),
    ];
  }

  function part2Panel(ctx, view) {
    let body;
    if (view.gauntlet) body = gauntletPanel(ctx, view);
    else if (view.phase === "pyramid") body = pyramidPanel(ctx, view);
    else if (view.phase === "give_and_take") body = giveTakePanel(ctx, view);
    else {
      body = [part2Summary(ctx, view)];
      if (view.phase === "questions" || view.bus.rider === null) {
        const kind = view.options.bus === "questions" ? "the questions bus" : `the higher/lower bus (streak ${view.options.streak})`;
        body.push(ctx.h("p", { class: "rtb-note" }, `Part 3: ${kind}.`));
      }
    }
    const foot = ctx.h("p", { class: "rtb-foot" }, `Draw pile: ${plural(view.draw_pile, "card")} · Discard pile: ${plural(view.discard.length, "card")}`);
    return ctx.h("section", { class: "rtb-part2", "aria-label": "Table" }, body, foot);
  }

  // -- motion: a card just dealt comes from the next-card place ------------------------------------
  function dealMotion(root, { motion, before }) {
    // Core fades in a card it has not seen; a card dealt into a row or onto the bus instead slides
    // from where the face-down next card was (short, and only when core animates this frame).
    if (!motion || !before || !before.has("next")) return;
    const from = before.get("next").rect;
    for (const el of root.querySelectorAll('[data-anim^="card:"]')) {
      if (before.has(el.dataset.anim) || typeof el.animate !== "function") continue;
      const now = el.getBoundingClientRect();
      for (const a of el.getAnimations()) a.cancel();
      const shift = `translate(${from.left - now.left}px, ${from.top - now.top}px)`;
      el.animate([{ transform: shift + " scaleX(0.2)" }, { transform: "none" }], { duration: 280, easing: "ease-out" });
    }
  }

  // -- the whole board -----------------------------------------------------------------------
  return function draw(view, ctx) {
    const one = ctx.phone || ctx.width < 560;
    const root = ctx.h(
      "div",
      { class: "rtb" + (one ? " rtb-one" : ""), "data-phase": view.phase },
      ctx.h("style", {}, CSS),
      nowPanel(ctx, view),
      seatsPanel(ctx, view),
      part2Panel(ctx, view),
    );
    ctx.after((info) => dealMotion(root, info));
    return root;
  };
})();
