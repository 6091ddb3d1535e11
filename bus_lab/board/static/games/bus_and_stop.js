// Bus & Stop: the bus stop, the destination stacks and every seat's bus, drawn in HTML from the view.
// Target keys (bus_lab/board/adapters/bus_and_stop.py): "stop:<colour>", "stack:<name>",
// "bus:<seat>:<code>". Passengers read as colour letter + type letter ("yB"), never by colour alone.
DRAWERS.bus_and_stop = (() => {
  const CSS = `
.bas { display: flex; flex-direction: column; gap: 5px; font-size: 13px; }
.bas-row { display: flex; flex-wrap: wrap; gap: 6px; align-items: stretch; }
.bas-panel { border: 1px solid #b8b8b8; border-radius: 6px; padding: 4px 6px; background: #fafafa; }
.bas-h { font-weight: 700; margin: 0 6px 2px 0; }
.bas-muted { color: #4a4a4a; }
.bas-stop { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; flex: 0 1 auto; }
.bas-group { display: inline-flex; flex-direction: column; align-items: center; gap: 2px; padding: 2px 4px; }
.bas-group-name { font-size: 12px; font-weight: 600; }
.bas-chips { display: flex; flex-wrap: wrap; gap: 3px; }
.bas-chip { display: inline-flex; align-items: center; justify-content: center; min-width: 28px; height: 26px;
  padding: 0 3px; border: 1px solid #222; border-radius: 4px; font-weight: 700; font-size: 13px; }
.bas-chip.bas-small { min-width: 22px; height: 18px; font-size: 11px; padding: 0 2px; }
.bas-chip.bas-senior { border-style: double; border-width: 3px; }
span.bas-chip.bl-target { border-width: 2px; }
span.bas-chip.bl-target.bl-legal { border-color: #0b5cad; box-shadow: 0 0 0 2px #ffffff, 0 0 0 4px #0b5cad; }
span.bas-chip.bl-target.bl-blocked { border-style: dashed; border-color: #222; }
.bas-info { flex: 1 1 220px; display: flex; flex-direction: column; gap: 1px; font-size: 12px; }
.bas-alert { color: #7a2500; font-weight: 700; }
.bas-stacks { display: grid; grid-template-columns: repeat(auto-fit, minmax(128px, 1fr)); gap: 6px; }
.bas-stackcol { display: flex; flex-direction: column; gap: 3px; min-width: 0; position: relative; }
/* the count buttons float under the stack they are about, over the buses (the layout stays put) */
.bas-slot { position: absolute; top: calc(100% + 2px); left: 0; min-width: max(100%, 190px); z-index: 3; padding: 4px;
  background: #ffffff; border: 1px solid #767676; border-radius: 6px; box-shadow: 0 2px 6px rgba(0, 0, 0, 0.3); }
.bas-slot:empty { display: none; }
.bas-stacks > .bas-stackcol:last-child .bas-slot { left: auto; right: 0; }
.bas-phone .bas-slot { position: static; min-width: 0; box-shadow: none; }
.bas-stack { display: flex; flex-direction: column; gap: 1px; padding: 3px 5px; background: #ffffff !important; }
div.bas-stack.bl-target { border: 2px solid #8a8a8a; }
div.bas-stack.bl-target.bl-legal { border-color: #0b5cad; background: #e8f1fb !important; }
div.bas-stack.bl-target.bl-blocked { border-style: dashed; }
div.bas-stack.bl-target.bl-selected { border-color: #a33f00; background: #fff0e0 !important; }
.bas-stack.bas-pending { border-color: #a33f00 !important; }
.bas-pts { border-collapse: collapse; font-size: 12px; max-width: 100%; }
.bas-pts th, .bas-pts td { padding: 0 3px; border: 1px solid #c8c8c8; text-align: center; font-weight: 400; }
.bas-pts th { font-weight: 700; }
.bas-buses { display: grid; grid-template-columns: repeat(auto-fit, minmax(320px, 1fr)); gap: 6px; }
.bas-bus { display: flex; flex-direction: column; gap: 2px; }
.bas-bus.bas-turn { border: 2px solid #0b5cad; }
.bas-bus-head { display: flex; flex-wrap: wrap; justify-content: space-between; gap: 0 8px; }
.bas-seats { display: flex; flex-wrap: wrap; gap: 3px; padding: 2px; border: 1px solid #c8c8c8; border-radius: 4px;
  background: #ffffff; }
.bas-seat-empty { display: inline-block; width: 28px; height: 26px; border: 1px dashed #9a9a9a; border-radius: 3px; }
.bas-line { display: flex; flex-wrap: wrap; gap: 2px; align-items: center; }
.bas-needs { font-size: 12px; }
.bas-piles { display: flex; flex-wrap: wrap; gap: 2px 10px; }
.bas-stophead { display: flex; flex-direction: column; margin-right: 4px; }
.bas-phone .bas-stacks { grid-template-columns: repeat(2, minmax(0, 1fr)); }
.bas-phone .bas-buses { grid-template-columns: minmax(0, 1fr); }
`;

  // -- colours and text -------------------------------------------------------------------------
  function luminance(hex) {
    const lin = (i) => {
      const c = parseInt(hex.slice(i, i + 2), 16) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    };
    return 0.2126 * lin(1) + 0.7152 * lin(3) + 0.0722 * lin(5);
  }

  // Black or white text, whichever has the higher contrast on `fill` (#RRGGBB).
  function inkOn(fill) {
    const l = luminance(fill);
    return (l + 0.05) / 0.05 >= 1.05 / (l + 0.05) ? "#000000" : "#ffffff";
  }

  function plural(n, word) {
    return `${n} ${word}${n === 1 ? "" : "s"}`;
  }

  // The legend: colour and type of each passenger code.
  function legend(view) {
    const colours = {};
    const types = {};
    for (const c of view.colours) colours[c.code] = c;
    for (const t of view.types) types[t.code] = t;
    const name = (code) => `${colours[code[0]].name} ${types[code[1]].name}`;
    return { colours, types, name };
  }

  // Stable identities for passengers: the n-th copy of a code, counted over places in a fixed
  // order (resting places first, the stop last), so a passenger keeps its key as it moves.
  function passengerKeys() {
    const seen = {};
    return (code) => {
      seen[code] = (seen[code] || 0) + 1;
      return `p:${code}:${seen[code]}`;
    };
  }

  // -- one passenger ----------------------------------------------------------------------------
  function chip(ctx, lg, code, animKey, small) {
    const colour = lg.colours[code[0]];
    const type = lg.types[code[1]];
    const el = ctx.h(
      "span",
      {
        class: "bas-chip" + (small ? " bas-small" : "") + (type.senior ? " bas-senior" : ""),
        style: `background:${colour.ink};color:${inkOn(colour.ink)}`,
        title: lg.name(code),
        role: "img",
        "aria-label": lg.name(code),
      },
      colour.code.toLowerCase() + type.code,
    );
    if (animKey) ctx.anim(el, animKey);
    return el;
  }

  // -- the bus stop -----------------------------------------------------------------------------
  function drawStop(view, ctx, lg, key) {
    const groups = [];
    for (const colour of view.colours) {
      const codes = view.stop.filter((code) => code[0] === colour.code);
      if (!codes.length) continue;
      const names = codes.map(lg.name).join(", ");
      const group = ctx.h(
        "div",
        { class: "bas-group" },
        ctx.h("span", { class: "bas-group-name" }, `${colour.name} ×${codes.length}`),
        ctx.h("span", { class: "bas-chips" }, ...codes.map((code) => chip(ctx, lg, code, key(code), false))),
      );
      ctx.target(group, "stop:" + colour.name, `Pick up ${colour.name} at the stop: ${names}`);
      groups.push(group);
    }
    if (!groups.length) groups.push(ctx.h("span", { class: "bas-muted" }, "The stop is empty."));
    return ctx.h(
      "section",
      { class: "bas-panel bas-stop", "aria-label": "Bus stop" },
      ctx.h(
        "span",
        { class: "bas-stophead" },
        ctx.h("span", { class: "bas-h" }, "Bus stop"),
        ctx.h("span", { "data-deck": view.deck }, `${view.stop.length} of 5 · deck ${view.deck}`),
      ),
      ...groups,
    );
  }

  // -- what is going on: deck, destinations left, pending drop, skedaddle, trigger ----------------
  function seatName(ctx, seat) {
    const seats = ctx.frame.seats || [];
    return seats[seat] ? seats[seat].name : `Seat ${seat}`;
  }

  function drawInfo(view, ctx) {
    const lines = [
      ctx.h("span", {}, `Destinations left: ${view.destinations_left} (end at 6)`),
    ];
    const p = view.pending_drop;
    if (p) {
      lines.push(ctx.h("span", { class: "bas-alert" }, `${seatName(ctx, view.turn)} drops ${p.count} at the ${p.stack}: ${p.chosen.length} chosen`));
    }
    const sk = view.skedaddle;
    if (sk) {
      const match = sk.colours.length && view.stacks.find((s) => s.name === sk.stack).kind === "multicoloured"
        ? `a ${sk.colours.join(" / ")} passenger`
        : `a ${view.stacks.find((s) => s.name === sk.stack).type}`;
      lines.push(
        ctx.h("span", { class: "bas-alert" }, `${seatName(ctx, sk.seat)} may skedaddle ${match} (+1) after ${seatName(ctx, sk.dropper)}'s drop-off at the ${sk.stack}`),
      );
    }
    if (view.node === "unhappy") {
      lines.push(ctx.h("span", { class: "bas-alert" }, `${seatName(ctx, view.turn)} discards unhappy passengers (−1 each): ${view.unhappy_discards} so far`));
    }
    if (view.trigger) {
      const order = view.final_order.length ? "; final round: " + view.final_order.map((s) => seatName(ctx, s)).join(", ") : "";
      lines.push(ctx.h("span", { class: "bas-alert" }, `End triggered by ${seatName(ctx, view.trigger.seat)}: ${view.trigger.reason}${order}`));
    }
    return ctx.h("section", { class: "bas-panel bas-info", "aria-label": "Table state" }, ...lines);
  }

  // -- the destination stacks -------------------------------------------------------------------
  function drawStack(view, ctx, lg, stack, key) {
    const k = "stack:" + stack.name;
    const top = stack.top;
    const pending = view.pending_drop && view.pending_drop.stack === stack.name ? view.pending_drop : null;
    const table = top
      ? ctx.h(
          "table",
          { class: "bas-pts" },
          ctx.h("tr", {}, ctx.h("th", { scope: "row", title: "passengers" }, "n"), ...top.counts.map((c) => ctx.h("td", {}, String(c)))),
          ctx.h("tr", {}, ctx.h("th", { scope: "row", title: "points" }, "pts"), ...top.points.map((p) => ctx.h("td", {}, String(p)))),
        )
      : ctx.h("span", { class: "bas-muted" }, "empty");
    const words = top ? top.counts.map((c, i) => `${c} for ${top.points[i]} points`).join(", ") : "no card left";
    const card = ctx.h(
      "div",
      { class: "bas-panel bas-stack" + (pending ? " bas-pending" : ""), "data-cards-left": stack.cards_left },
      ctx.h("span", { class: "bas-h" }, stack.name),
      ctx.h("span", { class: "bas-muted bas-needs" }, stack.kind === "multicoloured" ? "needs different colours" : `needs ${stack.type}`),
      table,
      ctx.h("span", {}, `${plural(stack.cards_left, "card")} left`),
      pending
        ? ctx.h("span", { class: "bas-chips", role: "group", "aria-label": "Chosen to get off" }, ...pending.chosen.map((code) => chip(ctx, lg, code, key(code), true)))
        : null,
    );
    if (top) ctx.anim(card, `dest:${stack.name}:${stack.cards_left}`);
    ctx.target(card, k, `${stack.name} (${stack.needs}): ${words}; ${plural(stack.cards_left, "card")} left`);
    const slot = ctx.choices(ctx.h("div", { class: "bas-slot" }), k);
    return ctx.h("div", { class: "bas-stackcol" }, card, slot);
  }

  // -- one seat's bus ---------------------------------------------------------------------------
  function drawBus(view, ctx, lg, seat, placed) {
    const bus = view.buses[seat];
    const tapping = ["choose", "skedaddle", "unhappy"].includes(view.node) && view.to_move === seat;
    const riders = bus.bus.map((code, i) => {
      const el = chip(ctx, lg, code, placed.bus[seat][i], false);
      if (tapping) ctx.target(el, `bus:${seat}:${code}`, `${lg.name(code)} in ${seatName(ctx, seat)}'s bus`);
      return el;
    });
    for (let i = bus.seats_used; i < bus.seats; i++) riders.push(ctx.h("span", { class: "bas-seat-empty", "aria-hidden": "true" }));
    const pile = (label, codes, keys) =>
      codes.length
        ? ctx.h("span", { class: "bas-line" }, `${label} ${codes.length}:`, ...codes.map((code, i) => chip(ctx, lg, code, keys[i], true)))
        : null;
    const claimed = bus.claimed.map((c) => `${c.stack} ${c.count}→${c.points}`).join(", ");
    const you = view.viewer === seat ? " (you)" : "";
    const box = ctx.h(
      "section",
      {
        class: "bas-panel bas-bus" + (view.to_move === seat ? " bas-turn" : ""),
        "aria-label": `${seatName(ctx, seat)}'s bus`,
        "data-seat": seat,
      },
      ctx.h(
        "div",
        { class: "bas-bus-head" },
        ctx.h("b", {}, `Bus of ${seatName(ctx, seat)}${you}${view.to_move === seat ? " ◀ to move" : ""}`),
        ctx.h("span", {}, `${bus.seats_used}/${bus.seats} seats · ${bus.points} pts`),
      ),
      ctx.h("div", { class: "bas-seats", role: "group", "aria-label": "Passengers in the bus" }, ...riders),
      ctx.h(
        "div",
        { class: "bas-piles" },
        pile("Seniors", bus.seniors, placed.seniors[seat]),
        bus.seniors_lost ? ctx.h("span", { class: "bas-muted" }, `${bus.seniors_lost} seniors beyond the cap left the game`) : null,
        pile("Skedaddled", bus.skedaddled, placed.skedaddled[seat]),
        pile("Unhappy (−1)", bus.unhappy, placed.unhappy[seat]),
      ),
      ctx.h(
        "span",
        { class: "bas-muted", title: "Claimed destinations: passengers dropped → points" },
        (claimed ? `Claimed: ${claimed}` : "No destination yet") + ` · dropped ${bus.dropped.length}`,
      ),
    );
    return box;
  }

  // Anim keys of every passenger, place by place (resting places first, then buses, then the stop).
  function placePassengers(view) {
    const key = passengerKeys();
    const per = (field) => view.buses.map((b) => b[field].map((code) => key(code)));
    for (const b of view.buses) for (const code of b.dropped) key(code);
    const seniors = per("seniors");
    const skedaddled = per("skedaddled");
    const unhappy = per("unhappy");
    const pending = view.pending_drop ? view.pending_drop.chosen.map((code) => key(code)) : [];
    const bus = per("bus");
    return { seniors, skedaddled, unhappy, pending, bus, stop: key };
  }

  // Buses side by side on a wide board: two columns (three for three seats on a very wide one), so
  // four buses make two even rows; a narrow board fits what it can, a phone one per row (CSS).
  function busColumns(view, ctx) {
    if (ctx.narrow) return null;
    const cols = view.players === 3 && ctx.width >= 1000 ? 3 : 2;
    return `grid-template-columns: repeat(${cols}, minmax(0, 1fr))`;
  }

  // -- the whole board --------------------------------------------------------------------------
  function draw(view, ctx) {
    const lg = legend(view);
    const placed = placePassengers(view);
    let pendingIndex = 0;
    const pendingKey = () => placed.pending[pendingIndex++];
    const stacks = view.stacks.map((stack) => drawStack(view, ctx, lg, stack, pendingKey));
    const legendText =
      "Passengers: colour letter + type letter (" +
      view.colours.map((c) => `${c.code.toLowerCase()} ${c.name}`).join(", ") +
      "; " +
      view.types.map((t) => `${t.code} ${t.name}${t.senior ? " (double border)" : ""}`).join(", ") +
      ")";
    const root = ctx.h(
      "div",
      { class: "bas" + (ctx.phone ? " bas-phone" : "") },
      ctx.h("style", {}, CSS),
      ctx.h("div", { class: "bas-row" }, drawStop(view, ctx, lg, placed.stop), drawInfo(view, ctx)),
      ctx.h("section", { class: "bas-stacks", "aria-label": "Destination stacks" }, ...stacks),
      ctx.h("div", { class: "bas-buses", style: busColumns(view, ctx) }, ...view.buses.map((_b, seat) => drawBus(view, ctx, lg, seat, placed))),
      ctx.h("small", { class: "bas-muted" }, legendText),
    );
    return root;
  }

  return draw;
})();
