// Busstop: The Boardgame, drawn from one seat's view (bus_lab/games/busstop/views.py).
//
// Top: the round, the conductor, the face-down stack (counts only) and a legend of the passenger
// tokens; the line-up (queue slots q1..qQ) and the player-order zone with its icons and the tiles
// played. Below: one card per board (seats, and the proxy bus with 2 players): its three buses
// with their seats, the temporary queue (13 spaces; the 9th marked while bus 3 is locked), the
// score pile, the hand of tiles, this round's tile (face down when the view hides it) and the
// passengers still to place. Only what the view shows is drawn.
//
// Targets (keys match bus_lab/board/adapters/busstop.py): "tile:<n>" a tile in the bidder's hand,
// "played:<k>" a tile on the zone, "passenger:<i>" a passenger to place, "bus:<k>:<b>", "queue:<k>".
DRAWERS.busstop = (() => {
  const SORTS = ["baby", "child", "girl", "salaryman", "granny"];
  const SHORT = { baby: "Ba", child: "Ch", girl: "Gi", salaryman: "Sa", granny: "Gr" };
  const CODES = ["Ba", "Ch", "Gi", "Sa", "Gr"];
  // The end-game requirements (BSB-OPT-ENDBONUS): short words on the board, the whole in the tooltip.
  const GOALS = {
    empty_queue: ["empty queue", "nobody in your queue at the end (penalty tiles count as queued)"],
    vip_scored: ["a VIP", "at least one VIP in your score pile"],
    all_sorts: ["all 5 sorts", "all five sorts in your score pile (a VIP counts as its sort)"],
    third_bus: ["bus 3 open", "your third bus was opened"],
    three_ets: ["3 ETs", "at least 3 extra-terrestrials in your score pile"],
  };
  // Okabe-Ito seat colours (borders and swatches only: names are always written too).
  const SEAT_COLOURS = ["#D55E00", "#0072B2", "#009E73", "#CC79A7", "#E69F00"];

  const STYLE = `
.bsb { display: flex; flex-direction: column; gap: 3px; font-size: 13px; color: #1a1a1a; }
.bsb-legend { display: flex; flex-wrap: wrap; gap: 2px 8px; align-items: center; color: #333; font-size: 12px; }
.bsb-legend > span { display: inline-flex; align-items: center; gap: 3px; }
.bsb-row { display: flex; flex-wrap: wrap; gap: 4px 14px; align-items: center; }
.bsb-block { display: flex; gap: 6px; align-items: center; }
.bsb-block > h4 { margin: 0; font-size: 12px; font-weight: 700; line-height: 1.2; }
.bsb-stack { font-weight: 400; font-size: 11px; color: #4a4a4a; }
.bsb-slots { display: flex; gap: 5px; align-items: center; }
.bsb-slot { display: flex; align-items: center; gap: 1px; font-size: 11px; color: #4a4a4a; }
.bsb-p, .bsb-empty, .bsb-tile {
  display: inline-flex; align-items: center; justify-content: center; box-sizing: border-box;
  width: 26px; height: 22px; border-radius: 4px; font-size: 12px; font-weight: 700; line-height: 1;
  letter-spacing: -0.3px; white-space: nowrap; flex: none;
}
.bsb-p { border: 1px solid #333; }
.bsb-p.vip { border: 2px solid #000; font-size: 11px; }
.bsb-p.own { font-size: 11px; letter-spacing: -0.6px; box-shadow: inset 0 -4px 0 var(--own); }
.bsb-p.s-baby { background: #ffd8a8; } .bsb-p.s-child { background: #c4e4f7; }
.bsb-p.s-girl { background: #f6cde3; } .bsb-p.s-salaryman { background: #c2ead8; }
.bsb-p.s-granny { background: #fff3a3; } .bsb-p.s-ET { background: #dedede; }
.bsb-empty { border: 1px dashed #999; background: #fbfbf8; color: #4a4a4a; font-weight: 400; font-size: 11px; }
.bsb-empty.nine { border: 2px solid #8a2a00; color: #8a2a00; font-weight: 700; }
.bsb-tile { border: 2px solid #555; background: #fff; }
.bsb-tile.down { background: #444 repeating-linear-gradient(45deg, #444, #444 3px, #666 3px, #666 6px); color: #fff; }
.bsb-tile.used { border: 1px dashed #aaa; color: #595959; font-weight: 400; }
.bsb-zone { display: flex; gap: 4px; flex-wrap: wrap; }
.bsb-pos { border: 1px solid #889; border-radius: 5px; background: #f2f6fa; padding: 1px 3px;
  display: flex; gap: 3px; align-items: center; min-height: 30px; }
.bsb-pos.current { border: 2px solid #0b5cad; }
.bsb-pos .icons { font-size: 11px; line-height: 1.25; white-space: nowrap; }
.bsb-pos .icons b { font-size: 12px; }
.bsb-pos .held { display: flex; align-items: center; gap: 2px; }
.bsb-pos .who { font-size: 11px; line-height: 1.1; color: #4a4a4a; max-width: 52px; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.bsb-boards { display: grid; grid-template-columns: repeat(auto-fill, minmax(318px, 1fr)); gap: 4px; }
.bsb.phone .bsb-boards { grid-template-columns: minmax(0, 1fr); }
.bsb-board { border: 1px solid #aaa; border-left: 6px solid var(--seat); border-radius: 6px; padding: 2px 4px;
  display: flex; flex-direction: column; gap: 2px; background: #fff; min-width: 0; }
.bsb-board.acting { border-color: #0b5cad; border-left-color: var(--seat); box-shadow: 0 0 0 2px #0b5cad; background: #f7fbff; }
.bsb-head { display: flex; flex-wrap: nowrap; gap: 0 5px; align-items: center; font-size: 12px; line-height: 1.25; white-space: nowrap; overflow: hidden; }
.bsb-head > * { flex: none; }
.bsb-head > .goal { flex: 0 1 auto; min-width: 0; overflow: hidden; text-overflow: ellipsis; }
.bsb-head .name { font-weight: 700; font-size: 12px; }
.bsb-head .pts { font-weight: 700; }
.bsb-head .note { color: #4a4a4a; }
.bsb-head .warn { color: #8a2a00; font-weight: 700; }
.bsb-main { display: flex; flex-wrap: wrap; gap: 2px 6px; align-items: flex-start; }
.bsb-buses { display: flex; flex-direction: column; gap: 1px; }
.bsb-bus { display: flex; align-items: center; gap: 1px; padding: 0 2px; }
.bsb-bus .lbl { width: 31px; font-size: 11px; color: #333; line-height: 1.05; }
.bsb-lockbox { height: 22px; box-sizing: border-box; border: 1px dashed #999; border-radius: 4px; font-size: 11px; color: #333;
  display: inline-flex; align-items: center; justify-content: center; background: repeating-linear-gradient(135deg, #f4f4f4, #f4f4f4 4px, #e6e6e6 4px, #e6e6e6 8px); }
.bsb-queue { display: flex; flex-direction: column; gap: 1px; padding: 0 2px; width: 140px; }
.bsb-queue .lbl { font-size: 11px; color: #333; line-height: 1.15; }
.bsb-qgrid { display: grid; grid-template-columns: repeat(5, 26px); gap: 1px; }
.bsb-qnote { grid-column: span 2; font-size: 11px; line-height: 1; color: #8a2a00; font-weight: 700; display: flex; align-items: center; white-space: nowrap; }
.bsb-qmore { font-size: 11px; color: #8a2a00; font-weight: 700; }
.bsb-foot { display: flex; flex-wrap: wrap; gap: 1px 4px; align-items: center; }
.bsb-hand { display: flex; gap: 1px; align-items: center; flex-wrap: wrap; }
.bsb-hand .bsb-tile { width: 19px; }
.bsb-foot .lbl { font-size: 11px; color: #333; }
.bsb-recv { display: flex; gap: 2px; align-items: center; flex-wrap: wrap; }
.bsb .bsb-tgt { display: inline-flex; padding: 1px; border-radius: 5px; }
.bsb-recv .lbl { color: #0b3d66; font-weight: 700; }
`;

  // Identity of drawn passengers across frames (they have no id in the view): a token keeps its
  // id while it stays put; one that moved takes the id of a vanished token of the same kind, so
  // boarding, taking and leaving the queue move on screen. One memory per table.
  const memories = new Map();
  let counter = 0;

  function assignIds(memoryKey, tokens) {
    const old = memories.get(memoryKey) || [];
    const used = new Set();
    const ids = new Array(tokens.length).fill(null);
    tokens.forEach((t, i) => {
      const same = old.find((o) => !used.has(o.id) && o.code === t.code && o.loc === t.loc);
      if (same) {
        used.add(same.id);
        ids[i] = same.id;
      }
    });
    tokens.forEach((t, i) => {
      if (ids[i]) return;
      const board = t.loc.split(":")[1];
      const candidates = old.filter((o) => !used.has(o.id) && o.code === t.code);
      const pick = candidates.find((o) => o.loc.split(":")[1] === board) || candidates[0];
      if (pick) {
        used.add(pick.id);
        ids[i] = pick.id;
      } else {
        ids[i] = "p" + ++counter;
      }
    });
    memories.set(
      memoryKey,
      tokens.map((t, i) => ({ id: ids[i], code: t.code, loc: t.loc })),
    );
    const map = new Map();
    tokens.forEach((t, i) => map.set(t.loc, ids[i]));
    return map;
  }

  // A passenger code ("Gi", "VGi", "ET", "1/7") in words and its parts.
  function describe(code, view, names) {
    if (code.includes("/")) {
      const [owner, number] = code.split("/").map(Number);
      const sort = view.tile_sorts[String(number)];
      return { sort, vip: false, owner, number, words: `${names[owner]}'s tile ${number} (${sort})` };
    }
    if (code === "ET") return { sort: "ET", vip: false, owner: null, number: null, words: "extra-terrestrial (ET)" };
    const vip = code.startsWith("V");
    const sort = SORTS[CODES.indexOf(vip ? code.slice(1) : code)];
    return { sort, vip, owner: null, number: null, words: (vip ? "VIP " : "") + sort };
  }

  function draw(view, ctx) {
    const { h } = ctx;
    const frame = ctx.frame || {};
    // a seat's name: the frame's (a class table names its people) or the view's ("Seat 1")
    const seatsByNumber = new Map((frame.seats || []).map((s) => [s.seat, s.name]));
    const names = view.names.map((name, k) => (k < view.players && seatsByNumber.has(k) ? seatsByNumber.get(k) : name));
    const acting = view.acting;
    const node = view.node;
    const memoryKey = (frame.title || "") + "|" + view.names.join(",");

    // every drawn passenger on the table, by location, for the identities above
    const tokens = [];
    view.lineup.forEach((c, s) => c && !c.includes("/") && tokens.push({ code: c, loc: `lineup:x:${s}` }));
    view.boards.forEach((b, k) => {
      b.buses.forEach((bus, j) => bus.passengers.forEach((c, i) => tokens.push({ code: c, loc: `bus:${k}:${j}:${i}` })));
      b.queue.forEach((c, i) => tokens.push({ code: c, loc: `queue:${k}:${i}` }));
      b.received.forEach((c, i) => tokens.push({ code: c, loc: `recv:${k}:${i}` }));
    });
    const ids = assignIds(
      memoryKey,
      tokens.filter((t) => !t.code.includes("/")),
    );

    // one passenger token; player tiles keep their own identity ("pt:1/7")
    function passenger(code, loc, extra) {
      const d = describe(code, view, names);
      const label = d.number !== null ? SHORT[d.sort] + d.number : d.sort === "ET" ? "ET" : SHORT[d.sort] + (d.vip ? "★" : "");
      const cls = `bsb-p s-${d.sort}` + (d.vip ? " vip" : "") + (d.owner !== null ? " own" : "");
      const style = d.owner !== null ? `--own: ${SEAT_COLOURS[d.owner % 5]}` : null;
      const el = h("span", { class: cls, style, title: (extra ? extra + ": " : "") + d.words, "aria-label": d.words }, label);
      const key = d.owner !== null ? `pt:${code}` : ids.get(loc);
      if (key) ctx.anim(el, key);
      return el;
    }

    // a target around a token, so the target's outline does not hide the token's own colours
    function targetWrap(el, key, name) {
      return ctx.target(h("span", { class: "bsb-tgt" }, el), key, name);
    }

    function empty(text, cls) {
      return h("span", { class: "bsb-empty" + (cls ? " " + cls : ""), "aria-hidden": "true" }, text || "");
    }

    // a player tile card (hand, bid, zone): its number and the sort it boards as
    function tileCard(owner, number, opts = {}) {
      const sort = view.tile_sorts[String(number)];
      const el = h(
        "span",
        {
          class: "bsb-tile",
          style: { borderColor: SEAT_COLOURS[owner % 5] },
          title: `${names[owner]}'s tile ${number} (a ${sort} once taken)`,
        },
        String(number),
      );
      ctx.anim(el, `pt:${owner}/${number}`, String(number));
      return el;
    }

    function hiddenCard(owner) {
      const el = h("span", { class: "bsb-tile down", title: `${names[owner]}'s tile, chosen face down` }, "?");
      ctx.anim(el, `bid:${owner}`, "down");
      return el;
    }

    // -- the top line: round, conductor, stack, legend ------------------------------------------
    const stackKinds = Object.entries(view.stack.by_kind)
      .filter(([, n]) => n)
      .map(([k, n]) => `${n} ${k}`)
      .join(", ");
    const legendChip = (code, words) =>
      h("span", {}, passengerLegend(code), words);
    function passengerLegend(code) {
      const d = describe(code, view, names);
      const label = d.number !== null ? SHORT[d.sort] + d.number : d.sort === "ET" ? "ET" : SHORT[d.sort] + (d.vip ? "★" : "");
      return h(
        "span",
        {
          class: `bsb-p s-${d.sort}` + (d.vip ? " vip" : "") + (d.owner !== null ? " own" : ""),
          style: d.owner !== null ? `--own: ${SEAT_COLOURS[0]}` : null,
          "aria-hidden": "true",
        },
        label,
      );
    }
    const legend = h(
      "div",
      {
        class: "bsb-legend",
        "aria-label": "Legend of the passengers",
        title: "A VIP scores 3 (its sort's bus); an alien (ET) boards any bus and scores 0; a player tile is a passenger of its sort",
      },
      legendChip("Ba", "baby"),
      legendChip("Ch", "child"),
      legendChip("Gi", "girl"),
      legendChip("Sa", "salaryman"),
      legendChip("Gr", "granny"),
      legendChip("VGi", "VIP"),
      legendChip("ET", "alien"),
      legendChip("0/7", "tile 7 (a salaryman)"),
    );

    // -- the line-up and the zone ------------------------------------------------------------
    const slots = [];
    for (let s = 0; s < view.slots; s++) {
      const code = s < view.lineup.length ? view.lineup[s] : undefined;
      let token;
      if (code) token = passenger(code, `lineup:x:${s}`, `q${s + 1}`);
      else token = empty(code === null ? "—" : "", "");
      slots.push(h("div", { class: "bsb-slot" }, `q${s + 1}`, token));
    }
    const stackText = `stack ${view.stack.left}`;
    const lineup = h(
      "div",
      { class: "bsb-block" },
      h("h4", {}, "Line-up", h("br"), h("span", { class: "bsb-stack", title: `Left in the face-down stack: ${stackKinds || "none"}` }, stackText)),
      h("div", { class: "bsb-slots" }, slots),
    );

    const played = new Set((view.played || []).map((p) => p.owner));
    const positions = view.zone.map((pos, i) => {
      const icons = [];
      for (const q of pos.black) icons.push(h("span", { title: `black icon: takes the passenger on q${q}` }, `●q${q} `));
      if (pos.white) icons.push(h("span", { title: "white icon: takes one played tile" }, "○"));
      const kids = [h("span", { class: "icons" }, h("b", {}, `P${i + 1}${pos.conductor ? " ♛" : ""}`), h("br"), icons)];
      if (pos.holder !== null) {
        if (played.has(pos.holder)) {
          const sort = view.tile_sorts[String(pos.tile)];
          const name = `${names[pos.holder]}'s tile ${pos.tile} on P${i + 1}: a ${sort}`;
          kids.push(h("span", { class: "held" }, targetWrap(tileCard(pos.holder, pos.tile), `played:${pos.holder}`, name), whoTag(pos.holder)));
        } else {
          kids.push(h("span", { class: "held", title: "its tile was taken" }, whoTag(pos.holder)));
        }
      }
      const title = `P${i + 1}` + (pos.conductor ? ": the conductor space (its holder conducts next round)" : "");
      return h("div", { class: "bsb-pos" + (view.take_position === i ? " current" : ""), title }, kids);
    });
    const zone = h("div", { class: "bsb-block" }, h("h4", {}, "Zone"), h("div", { class: "bsb-zone" }, positions));

    function whoTag(k) {
      return h("span", { class: "who", title: names[k] }, k === view.proxy ? "proxy" : names[k]);
    }

    // -- the boards --------------------------------------------------------------------------
    const cards = view.boards.map((board, k) => drawBoard(board, k));

    function drawBoard(board, k) {
      const isActing = acting === k && node !== null;
      const head = [h("span", { class: "name" }, names[k] + (k === view.viewer ? " (you)" : ""))];
      if (k === view.conductor) head.push(h("span", { title: "the conductor this round" }, "♛"));
      if (k < view.players) head.push(h("span", { class: "pts" }, `${view.scores[k]} pts`));
      if (k === view.proxy && view.proxy_player !== null) head.push(h("span", { class: "note" }, `run by ${names[view.proxy_player]}`));
      head.push(h("span", { class: "note", title: "Passengers in the score pile (BSB-SCORE-PILE)" }, `pile ${board.pile.length}`));
      if (board.penalty.length) head.push(h("span", { class: "warn" }, `${board.penalty.length} penalty`));
      if (board.bonus_sort) head.push(h("span", { class: "note", title: "Passenger bonus: this sort scores double (BSB-OPT-BONUS)" }, `×2 ${board.bonus_sort}`));
      if (board.requirement) {
        const goal = GOALS[board.requirement] || board.requirement.replace(/_/g, " ");
        head.push(h("span", { class: "note goal", title: `End-game bonus, 5 points if met: ${goal[1] || goal} (BSB-OPT-ENDBONUS)` }, `goal: ${goal[0] || goal}`));
      }

      // the buses
      const buses = board.buses.map((bus, b) => {
        const seats = [];
        for (let s = 0; s < bus.seats && bus.open; s++) {
          seats.push(s < bus.passengers.length ? passenger(bus.passengers[s], `bus:${k}:${b}:${s}`) : empty(""));
        }
        if (!bus.open) seats.push(h("span", { class: "bsb-lockbox", style: `width: ${27 * bus.seats - 1}px` }, `locked (${bus.seats} seats)`));
        const what = bus.open ? (bus.sort ? `${bus.passengers.length}/${bus.seats} ${bus.sort}` : `${bus.passengers.length}/${bus.seats} empty`) : "locked";
        const el = h(
          "div",
          { class: "bsb-bus" + (bus.open ? "" : " locked") },
          h("span", { class: "lbl" }, `Bus ${b + 1}`, h("br"), bus.open ? `${bus.passengers.length}/${bus.seats}` : "—"),
          seats,
        );
        ctx.target(el, `bus:${k}:${b}`, `Bus ${b + 1} of ${names[k]}: ${what}`);
        return el;
      });

      // the queue: 13 spaces on the board, the rest off it; the 9th marked while bus 3 is locked
      const locked = !board.buses[2].open;
      const marked = locked && k !== view.proxy;
      const spaces = [];
      for (let s = 0; s < Math.max(view.queue_spaces, board.queue.length); s++) {
        if (s < board.queue.length) spaces.push(passenger(board.queue[s], `queue:${k}:${s}`, s === 0 ? "head of the queue" : `queue ${s + 1}`));
        else if (s < view.queue_spaces) spaces.push(empty(s === 8 && marked ? "9" : "", s === 8 && marked ? "nine" : ""));
      }
      // while bus 3 is locked: the 9th space is marked and said in words in the spare cells
      if (marked && board.queue.length <= view.queue_spaces) {
        spaces.push(h("span", { class: "bsb-qnote", title: "9 or more waiting at the end of a round open bus 3 (BSB-EXTRA-BUS)" }, "9 → bus 3"));
      }
      const over = board.queue.length - view.queue_spaces;
      const cost = k === view.proxy ? "scores for nobody" : "−2 each, VIP −6";
      const qlabel = h(
        "span",
        { class: "lbl", title: `At the end: ${cost} (BSB-SCORE-QUEUE)` },
        `Queue ${board.queue.length} (${k === view.proxy ? "scores 0" : "−2 each"})`,
      );
      const queue = h(
        "div",
        { class: "bsb-queue" },
        qlabel,
        h("div", { class: "bsb-qgrid" }, spaces),
        over > 0 ? h("span", { class: "bsb-qmore" }, `${over} off the board`) : null,
      );
      ctx.target(queue, `queue:${k}`, `Queue of ${names[k]}: ${board.queue.length} waiting`);

      // the hand, this round's tile, the passengers to place
      const foot = [];
      if (k === view.proxy) {
        foot.push(h("span", { class: "lbl" }, `${board.hand.length} tile${board.hand.length === 1 ? "" : "s"} face down, drawn at random`));
      } else {
        const bidding = node === "bid" && isActing;
        const inHand = new Set(board.hand);
        const tiles = [];
        for (let n = 1; n <= 10; n++) {
          if (inHand.has(n)) {
            const t = tileCard(k, n);
            tiles.push(bidding ? targetWrap(t, `tile:${n}`, `Tile ${n} (${view.tile_sorts[String(n)]})`) : t);
          } else if (bidding) {
            const t = h("span", { class: "bsb-tile used", title: `tile ${n} already played` }, String(n));
            tiles.push(targetWrap(t, `tile:${n}`, `Tile ${n}, already played`));
          }
        }
        foot.push(h("div", { class: "bsb-hand", "aria-label": `${names[k]}'s hand` }, h("span", { class: "lbl" }, "Hand "), tiles));
      }
      const bid = view.bids[k];
      if (bid.state !== "none" && view.zone.every((p) => p.holder === null)) {
        foot.push(h("span", { class: "lbl" }, "Tile "), bid.state === "hidden" ? hiddenCard(k) : tileCard(k, bid.tile));
      }
      if (board.received.length) {
        const placing = node === "place" && isActing;
        const recv = board.received.map((code, i) => {
          const el = passenger(code, `recv:${k}:${i}`, `to place ${i + 1}`);
          if (!placing) return el;
          return targetWrap(el, `passenger:${i}`, `Passenger ${i + 1} to place: ${describe(code, view, names).words}`);
        });
        foot.push(h("div", { class: "bsb-recv" }, h("span", { class: "lbl" }, "To place:"), recv));
      }

      return h(
        "section",
        { class: "bsb-board" + (isActing ? " acting" : ""), style: `--seat: ${SEAT_COLOURS[k % 5]}`, "aria-label": names[k], "data-board": k },
        h("div", { class: "bsb-head" }, head),
        h("div", { class: "bsb-main" }, h("div", { class: "bsb-buses" }, buses), queue),
        h("div", { class: "bsb-foot" }, foot),
      );
    }

    const root = h(
      "div",
      { class: "bsb" + (ctx.phone ? " phone" : "") },
      h("style", {}, STYLE),
      legend,
      h("div", { class: "bsb-row" }, lineup, zone),
      h("div", { class: "bsb-boards" }, cards),
    );
    return root;
  }

  return draw;
})();
