// BUS (the city grid game): the 2×2-block city grid of street cards as SVG (symbols on their
// side, buses as numbered arrows showing their heading, the last route dashed), and beside it in
// HTML the speed limit, the face-up passenger cards, the deck and every seat's progress area.
// Targets: "slot:<slot>" (street cards), "faceup:<card id>" (face-up cards), "deck".
DRAWERS.bus_city = (() => {
  // -- geometry (SVG user units): intersections of side I, street cards of length L between them
  const I = 90;
  const L = 180;
  const PAD = 8;
  const SIZE = 3 * I + 2 * L + 2 * PAD;
  const FONT = 22; // the smallest SVG text: ≥ 11 px on screen down to a 330 px wide grid

  // Passenger colours: fill, text colour on it (contrast ≥ 4.5:1) and a letter.
  const COLOURS = {
    red: { fill: "#c62828", ink: "#ffffff", letter: "R" },
    orange: { fill: "#f57c00", ink: "#1a1a1a", letter: "O" },
    yellow: { fill: "#fdd835", ink: "#1a1a1a", letter: "Y" },
    green: { fill: "#2e7d32", ink: "#ffffff", letter: "G" },
    blue: { fill: "#1565c0", ink: "#ffffff", letter: "B" },
    pink: { fill: "#f48fb1", ink: "#1a1a1a", letter: "P" },
  };
  const OTHER = { fill: "#616161", ink: "#ffffff", letter: "?" };
  // Buses: one dark fill per seat, white numbers; the shape and number tell them apart.
  const BUS_FILLS = ["#4a148c", "#004d40", "#3e2723", "#263238"];
  const ROAD = "#e4e4e4";
  const BLOCK = "#cfe3cf";

  function colour(name) {
    return COLOURS[name] || OTHER;
  }

  /** Top-left corner of intersection (row, column). */
  function corner(point) {
    return [PAD + point[1] * (I + L), PAD + point[0] * (I + L)];
  }

  /** The street card's rectangle {x, y, w, h} of a slot of the view's grid. */
  function cardBox(slot) {
    const [x, y] = corner(slot.a);
    if (slot.kind === "h") return { x: x + I, y, w: L, h: I };
    return { x, y: y + I, w: I, h: L };
  }

  /** Centre of the half of a card on `side` ("N", "S", "W", "E"), or of the card (null). */
  function halfCentre(box, side) {
    const cx = box.x + box.w / 2;
    const cy = box.y + box.h / 2;
    if (side === "N") return [cx, box.y + box.h / 4];
    if (side === "S") return [cx, box.y + (3 * box.h) / 4];
    if (side === "W") return [box.x + box.w / 4, cy];
    if (side === "E") return [box.x + (3 * box.w) / 4, cy];
    return [cx, cy];
  }

  const OPPOSITE = { N: "S", S: "N", W: "E", E: "W" };

  /** The words of a street card, for its accessible name. */
  function cardWords(slot) {
    if (!slot.card) return "no card yet";
    const side = slot.symbol === "plain" ? "" : ` on the ${slot.side} side`;
    if (slot.symbol === "destination") return `${slot.colour} destination${side}`;
    if (slot.symbol === "stop") return `bus stop${side}`;
    if (slot.symbol === "site") return `construction site${side}`;
    return "plain street";
  }

  // -- the symbol badge on its side of the card ---------------------------------------------
  function badge(ctx, slot, box) {
    if (!slot.card || slot.symbol === "plain") return null;
    let fill;
    let ink;
    let text;
    if (slot.symbol === "destination") {
      const c = colour(slot.colour);
      fill = c.fill;
      ink = c.ink;
      text = slot.colour;
    } else if (slot.symbol === "stop") {
      fill = "#0b3d66";
      ink = "#ffffff";
      text = "STOP";
    } else {
      fill = "#ffb300";
      ink = "#1a1a1a";
      text = "SITE";
    }
    const [cx, cy] = halfCentre(box, slot.side);
    const along = 118;
    const across = 34;
    const vertical = slot.kind === "v";
    const g = ctx.s("g", { class: "bc-badge" });
    g.append(
      ctx.s("rect", {
        x: cx - (vertical ? across : along) / 2,
        y: cy - (vertical ? along : across) / 2,
        width: vertical ? across : along,
        height: vertical ? along : across,
        rx: 6,
        fill,
        stroke: "#1a1a1a",
        "stroke-width": slot.symbol === "site" ? 2 : 0,
        "stroke-dasharray": slot.symbol === "site" ? "6 3" : null,
      }),
    );
    g.append(
      ctx.s("text", {
        x: cx,
        y: cy,
        "text-anchor": "middle",
        "dominant-baseline": "central",
        "font-size": FONT,
        "font-weight": 700,
        fill: ink,
        transform: vertical ? `rotate(-90 ${cx} ${cy})` : null,
        text,
      }),
    );
    return g;
  }

  // -- a bus: an arrow pointing its heading, with the seat number -----------------------------
  const ARROW = { E: [1, 0], W: [-1, 0], S: [0, 1], N: [0, -1] };

  function busShape(ctx, seat, heading, cx, cy) {
    const [dx, dy] = ARROW[heading] || [1, 0];
    const len = 54;
    const wid = 38;
    // points along (u) and across (v) the heading
    const pts = [
      [-len / 2, -wid / 2],
      [len / 2 - 16, -wid / 2],
      [len / 2, 0],
      [len / 2 - 16, wid / 2],
      [-len / 2, wid / 2],
    ].map(([u, v]) => [cx + u * dx - v * dy, cy + u * dy + v * dx]);
    const g = ctx.s("g", { class: "bc-bus", "data-seat": seat });
    g.append(
      ctx.s("polygon", {
        points: pts.map((p) => p.map((n) => n.toFixed(1)).join(",")).join(" "),
        fill: BUS_FILLS[seat % BUS_FILLS.length],
        stroke: "#ffffff",
        "stroke-width": 3,
      }),
      ctx.s("text", {
        x: cx - dx * 6,
        y: cy - dy * 6,
        "text-anchor": "middle",
        "dominant-baseline": "central",
        "font-size": 26,
        "font-weight": 800,
        fill: "#ffffff",
        text: String(seat),
      }),
      ctx.s("title", { text: `Bus of Seat ${seat}, heading ${heading}` }),
    );
    return g;
  }

  /** Where the buses on a card stand: on the half away from the symbol, spread along the card. */
  function busSpots(slot, box, count) {
    const away = slot.symbol && slot.symbol !== "plain" ? OPPOSITE[slot.side] : null;
    const [cx, cy] = halfCentre(box, away);
    const spots = [];
    for (let i = 0; i < count; i++) {
      const off = (i - (count - 1) / 2) * 60;
      spots.push(slot.kind === "h" ? [cx + off, cy] : [cx, cy + off]);
    }
    return spots;
  }

  // -- the grid -------------------------------------------------------------------------------
  function drawGrid(view, ctx) {
    const svg = ctx.s("svg", {
      viewBox: `0 0 ${SIZE} ${SIZE}`,
      class: "bc-grid",
      role: "group",
      "aria-label": "The city grid: 12 street cards between 9 intersections",
    });
    svg.append(ctx.s("rect", { x: 0, y: 0, width: SIZE, height: SIZE, fill: "#ffffff" }));
    // blocks between the streets
    for (let r = 0; r < 2; r++) {
      for (let c = 0; c < 2; c++) {
        const [x, y] = corner([r, c]);
        svg.append(ctx.s("rect", { x: x + I + 6, y: y + I + 6, width: L - 12, height: L - 12, rx: 10, fill: BLOCK }));
      }
    }
    // intersections, named like the slots ("a1" is north-west)
    for (let r = 0; r < 3; r++) {
      for (let c = 0; c < 3; c++) {
        const [x, y] = corner([r, c]);
        svg.append(
          ctx.s("rect", { x, y, width: I, height: I, fill: "#f5f5f5", stroke: "#9e9e9e" }),
          ctx.s("text", {
            x: x + 6,
            y: y + 6,
            "dominant-baseline": "hanging",
            "font-size": FONT,
            fill: "#424242",
            text: "abc"[c] + (r + 1),
          }),
        );
      }
    }
    const byName = {};
    for (const slot of view.grid) byName[slot.slot] = slot;
    // the street cards (targets)
    for (const slot of view.grid) {
      const box = cardBox(slot);
      const busWords = slot.buses.length ? `; bus ${slot.buses.join(", ")} here` : "";
      const reach = view.reachable.includes(slot.slot) ? "; reachable" : "";
      const g = ctx.s("g", { class: "bc-card", tabindex: "-1" });
      ctx.target(g, "slot:" + slot.slot, `Street ${slot.slot}: ${cardWords(slot)}${busWords}${reach}`);
      g.append(
        ctx.s("rect", {
          class: "bl-hit bc-road",
          x: box.x + 3,
          y: box.y + 3,
          width: box.w - 6,
          height: box.h - 6,
          rx: 8,
          fill: slot.card ? ROAD : "#fafafa",
          stroke: "#757575",
          "stroke-width": 1.5,
        }),
      );
      const b = badge(ctx, slot, box);
      if (b) g.append(b);
      svg.append(g);
    }
    drawRoute(view, ctx, svg, byName);
    // the buses on top, keyed by seat for motion
    const buses = {};
    for (const seat of view.seats) {
      if (!seat.bus) continue;
      const slot = byName[seat.bus.slot];
      const box = cardBox(slot);
      const spot = busSpots(slot, box, slot.buses.length)[slot.buses.indexOf(seat.seat)] || halfCentre(box, null);
      // a tap on a bus reaches the street card under it (a bus is never a target itself)
      const wrap = ctx.s("g", { class: "bc-bus-wrap", "pointer-events": "none" });
      ctx.anim(wrap, "bus:" + seat.seat);
      wrap.append(busShape(ctx, seat.seat, seat.bus.heading, spot[0], spot[1]));
      svg.append(wrap);
      buses[seat.seat] = { el: wrap, spot, node: `${seat.bus.slot} ${seat.bus.heading}` };
    }
    if (ctx.motion) ctx.after(({ before }) => driveAlong(view, byName, buses, before));
    return svg;
  }

  /** The centre of a node's card ("b1-b2 S"). */
  function nodeCentre(byName, label) {
    const slot = byName[label.split(" ")[0]];
    const box = cardBox(slot);
    return [box.x + box.w / 2, box.y + box.h / 2];
  }

  /** The last move's route, dashed along the middle of the streets, through the intersections
   * it crossed (the symbols keep to their half of a card, the corner names to their corner). */
  function drawRoute(view, ctx, svg, byName) {
    if (!view.route || view.route.length < 2) return;
    const pts = [];
    view.route.forEach((label, i) => {
      const [name, heading] = label.split(" ");
      const slot = byName[name];
      if (i > 0) {
        // entering through the end behind the heading
        const point = heading === "E" || heading === "S" ? slot.a : slot.b;
        const [x, y] = corner(point);
        pts.push([x + I / 2, y + I / 2]);
      }
      pts.push(nodeCentre(byName, label));
    });
    svg.append(
      ctx.s("polyline", {
        class: "bc-route",
        points: pts.map((p) => p.join(",")).join(" "),
        fill: "none",
        stroke: "#37474f",
        "stroke-width": 5,
        "stroke-dasharray": "10 8",
        "stroke-linecap": "round",
        "stroke-linejoin": "round",
        "pointer-events": "none",
      }),
    );
  }

  /** Motion: the bus that just moved drives along its route card by card (300 ms in all). */
  function driveAlong(view, byName, buses, before) {
    const route = view.route || [];
    if (route.length < 2) return;
    const end = route[route.length - 1];
    // the mover: a bus on the route's last node; if several, the seat still acting after its move
    // (pick-up, construction) or else the seat before the one to move now
    const here = Object.entries(buses).filter(([, bus]) => bus.node === end);
    if (!here.length) return;
    const acting = view.node === "pickup" || view.node === "construction" ? view.turn : (view.turn - 1 + view.players) % view.players;
    const [, bus] = here.find(([seat]) => Number(seat) === acting) || here[0];
    if (typeof bus.el.animate !== "function" || !(before && before.has(bus.el.dataset.anim))) return;
    // only a bus that changed place (core's own slide, if any, is replaced)
    for (const a of bus.el.getAnimations()) a.cancel();
    const old = before.get(bus.el.dataset.anim).rect;
    const now = bus.el.getBoundingClientRect();
    if (Math.abs(old.left - now.left) + Math.abs(old.top - now.top) < 1) return;
    const [ex, ey] = nodeCentre(byName, end);
    const frames = route.map((n) => {
      const [x, y] = nodeCentre(byName, n);
      return { transform: `translate(${x - ex}px, ${y - ey}px)` };
    });
    frames[frames.length - 1] = { transform: "none" };
    bus.el.animate(frames, { duration: 300, easing: "linear" });
  }

  // -- passenger cards (HTML) -----------------------------------------------------------------
  /** One passenger: its colour, its name and a tick once dropped off. */
  function passenger(ctx, name, dropped) {
    const c = colour(name);
    if (dropped) return ctx.h("span", { class: "bc-pax bc-dropped", title: `${name} passenger dropped off` }, "✓ " + name);
    return ctx.h("span", { class: "bc-pax", style: { background: c.fill, color: c.ink } }, name);
  }

  /** A passenger card: its two passengers, value and speed. */
  function paxCard(ctx, card, tag, attrs) {
    return ctx.h(
      tag || "span",
      Object.assign({ class: "bc-card-chip" }, attrs || {}),
      card.colours.map((name) => passenger(ctx, name, card.dropped.includes(name))),
      ctx.h("span", { class: "bc-meta" }, `${card.value} pt · speed ${card.speed}`),
    );
  }

  /** The face-up row and the deck (targets at a pick-up). */
  function drawSupply(view, ctx) {
    const row = ctx.h("div", { class: "bc-row", role: "group", "aria-label": "Passenger cards to pick up" });
    for (const card of view.faceup) {
      const b = paxCard(ctx, card, "button", { type: "button", class: "bc-card-chip bc-faceup" });
      ctx.target(b, "faceup:" + card.id, `Face-up passenger card ${card.id}: value ${card.value}, speed ${card.speed}`);
      ctx.anim(b, "pax:" + card.id);
      row.append(b);
    }
    const deck = ctx.h("button", { type: "button", class: "bc-deck" }, `Deck: ${view.deck} card${view.deck === 1 ? "" : "s"}`, ctx.h("small", {}, "draw blind"));
    ctx.target(deck, "deck", `Deck of ${view.deck} passenger cards, face down: draw the top card blind`);
    row.append(deck);
    return ctx.h("section", { class: "bc-supply" }, ctx.h("h4", {}, "Passenger cards [BUS-FACEUP]"), row);
  }

  /** One seat's progress area: picked up, half delivered, complete, and who waits on the bus. */
  function drawSeat(view, ctx, seat) {
    const turn = view.turn === seat.seat || view.to_move === seat.seat;
    const limit = seat.speed_limit_next === null ? "no limit" : `limit ${seat.speed_limit_next}`;
    const site = seat.bus && seat.bus.site_used ? " · site used" : "";
    const head = ctx.h(
      "div",
      { class: "bc-seat-head" },
      ctx.h("span", { class: "bc-bus-tag", style: { background: BUS_FILLS[seat.seat % BUS_FILLS.length] } }, String(seat.seat)),
      ctx.h("b", {}, `Seat ${seat.seat}`),
      ` (${seat.side}) · ${seat.points} pt · ${limit}${site}`,
    );
    const lines = [];
    const line = (label, cards) => {
      if (!cards.length) return;
      lines.push(ctx.h("div", { class: "bc-line" }, ctx.h("span", { class: "bc-label" }, label), cards.map((c) => ctx.anim(paxCard(ctx, c), "pax:" + c.id))));
    };
    line("Picked up:", seat.picked_up);
    line("Half:", seat.half);
    if (seat.complete.length) {
      lines.push(
        ctx.h(
          "div",
          { class: "bc-line" },
          ctx.h("span", { class: "bc-label" }, `Complete (${seat.complete.length}):`),
          seat.complete.map((c) => ctx.anim(ctx.h("span", { class: "bc-done" }, `✓ ${c.id} ${c.value}`), "pax:" + c.id)),
        ),
      );
    }
    if (seat.waiting.length) {
      lines.push(ctx.h("div", { class: "bc-line" }, ctx.h("span", { class: "bc-label" }, "On the bus:"), seat.waiting.map((n) => passenger(ctx, n, false))));
    }
    if (!lines.length) lines.push(ctx.h("div", { class: "bc-line bc-none" }, "no passenger cards yet"));
    return ctx.h("section", { class: "bc-seat" + (turn ? " bc-turn" : "") }, head, lines);
  }

  // -- scoped style ----------------------------------------------------------------------------
  const STYLE = `
.bc-board { display: flex; flex-wrap: wrap; gap: 8px; align-items: flex-start; }
.bc-board .bc-gridbox { flex: 1 1 300px; max-width: calc(var(--bl-board-max) - 14px); min-width: 0; }
.bl-phone .bc-board .bc-gridbox { max-width: 100%; flex-basis: 100%; }
.bc-board svg.bc-grid { width: 100%; height: auto; max-height: calc(var(--bl-board-max) - 14px); }
.bl-phone .bc-board svg.bc-grid { max-height: none; }
.bc-board .bc-info { flex: 1 1 250px; min-width: 0; display: flex; flex-direction: column; gap: 6px; font-size: 13px; }
.bc-board h4 { margin: 0 0 2px; font-size: 13px; }
.bc-board .bc-limit { font-size: 15px; font-weight: 700; }
.bc-board .bc-row, .bc-board .bc-line { display: flex; flex-wrap: wrap; gap: 4px; align-items: center; }
.bc-board .bc-card-chip { display: inline-flex; flex-wrap: wrap; gap: 3px; align-items: center; padding: 2px 4px; border: 1px solid #757575; border-radius: 5px; background: #ffffff; color: #1a1a1a; }
.bc-board button.bc-card-chip, .bc-board button.bc-deck { min-height: 40px; font: inherit; cursor: default; }
.bc-board button.bc-card-chip { border: 2px solid #757575; }
.bc-board .bc-deck { display: inline-flex; flex-direction: column; padding: 2px 8px; border: 2px solid #757575; border-radius: 5px; background: #eceff1; color: #1a1a1a; }
.bc-board .bc-pax { padding: 1px 5px; border-radius: 4px; font-weight: 700; }
.bc-board .bc-dropped { background: #ffffff; color: #1a1a1a; border: 1px dashed #424242; font-weight: 400; }
.bc-board .bc-meta { color: #1a1a1a; }
.bc-board .bc-done { padding: 1px 5px; border-radius: 4px; background: #e0e0e0; color: #1a1a1a; }
.bc-board .bc-label { color: #424242; }
.bc-board .bc-none { color: #424242; }
.bc-board .bc-seat { border: 1px solid #d0d0d0; border-radius: 5px; padding: 3px 5px; }
.bc-board .bc-seat.bc-turn { border: 2px solid #0b5cad; }
.bc-board .bc-seat-head { display: flex; flex-wrap: wrap; gap: 4px; align-items: center; }
.bc-board .bc-bus-tag { color: #ffffff; font-weight: 800; border-radius: 4px; padding: 0 6px; }
.bc-board .bc-choice-here:empty { display: none; }
.bc-board .bc-choice-here .bl-choice { max-width: 100%; }
.bc-board g.bc-card.bl-legal .bc-road { fill: #d6e6f7; }
.bc-board .bc-info .bl-target.bl-legal { border-color: #0b5cad; background-color: #e8f1fb; cursor: pointer; }
.bc-board .bc-info .bl-target.bl-selected { border-color: #a33f00; background-color: #fff0e0; }
.bc-board .bc-info .bl-target.bl-blocked { border-style: dashed; }
.bc-board g.bc-card.bl-selected .bc-road { fill: #ffe2c4; }
`;

  // -- the drawer ------------------------------------------------------------------------------
  return function draw(view, ctx) {
    const gridBox = ctx.h("div", { class: "bc-gridbox" }, drawGrid(view, ctx));
    const choices = ctx.h("div", { class: "bc-choice-here", "aria-label": "Ways to make the chosen move" });
    for (const slot of view.grid) ctx.choices(choices, "slot:" + slot.slot);
    const limit = view.speed_limit === null ? (view.node === "move" ? "no speed limit" : "") : `speed limit ${view.speed_limit}`;
    const top = ctx.h(
      "div",
      { class: "bc-limit" },
      view.round ? `Round ${view.round}` : view.phase === "setup" ? "Setup" : "Start",
      view.turn !== null && view.turn !== undefined ? ` · Seat ${view.turn}'s turn` : "",
      limit ? ` · ${limit} [BUS-SPEED]` : "",
    );
    const info = ctx.h(
      "div",
      { class: "bc-info" },
      top,
      choices,
      drawSupply(view, ctx),
      view.seats.map((seat) => drawSeat(view, ctx, seat)),
    );
    return ctx.h("div", { class: "bc-board" }, ctx.h("style", { text: STYLE }), gridBox, info);
  };
})();
