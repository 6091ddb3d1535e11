"""``TableHost``: host a class table from a notebook.

One cell starts a table that students join from their own browsers (a phone is enough)::

    from bus_lab.table.host_widget import TableHost

    host = TableHost("ride_the_bus")       # a server in this kernel, a table, its join code
    host                                   # the host's panel: address, code, QR code, lobby,
                                           # who has joined, the projector view, the controls

The panel shows the join address and the code in large letters with a QR code of
``<join address>?code=CODE`` (put it on the projector), the lobby (the game, its options, which
seats are people and which are bots, the bots' policy, an optional fixed seed), who has joined
(live), the projector's view of the board (the public view: no seat's private cards or tiles)
and the host's controls: Start, Continue, Pause/Resume, hand a seat to a bot and give it back,
End, Play again (back to the lobby with the same people), Close and "Download the game record" (a
JSON file that ``Session.from_json`` replays in :class:`~bus_lab.widgets.GameWidget`, move by move).

Every button has a method that does the same, for scripts and tests::

    host.start(); host.pause(); host.resume(); host.continue_(); host.again()
    host.hand_to_bot(2); host.take_back(2)
    host.end(); text = host.record(); host.close()
    host.join_url, host.code, host.host_url, host.watch_url

Errors never escape as a traceback: a refused command changes nothing and its reason is shown in
the panel's message line (and kept in :attr:`TableHost.last_error`).

Where students connect:

* ``host="127.0.0.1"`` (default): only this computer (try it with a second browser tab).
* ``host="0.0.0.0"`` (every network interface) or one LAN address: the classroom network. The
  panel shows the address to share and a warning: anyone on that network who can reach the
  address can join with the code.
* Behind JupyterHub (``JUPYTERHUB_SERVICE_PREFIX`` is set), the join address goes through
  jupyter-server-proxy: ``{prefix}proxy/{port}/``, relative to the hub's own address (the
  kernel does not know the address the browser used). Pass ``public_url`` (for example
  ``"https://hub.example/user/ana/proxy/8765/"``) to show and encode a full address instead.
  ``public_url`` overrides the join address in every case.

The server runs in a background thread of the kernel; several ``TableHost`` objects of one
kernel share one server (same ``host``, ``port`` and ``pace_s``). :meth:`TableHost.close`
closes the table and stops the server once no other table uses it; the kernel stops every server
when it shuts down. Nothing is kept after a table closes unless the host downloaded its record.
"""

from __future__ import annotations

import asyncio
import atexit
import base64
import html
import os
import threading
import time
from collections.abc import Callable
from typing import Any

import ipywidgets as W
import segno

from bus_lab.engine.core import Param
from bus_lab.engine.registry import game_class, load_game, registered_games
from bus_lab.table.table import FALLBACK_BOTS, players_kept
from bus_lab.widgets.base import BoardWidget, FoldingPanel

__all__ = ["ProjectorBoard", "TableHost", "stop_servers"]

#: Hosts that only this computer can reach.
LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")
#: Hosts that mean "every network interface".
ANY_HOSTS = ("0.0.0.0", "::", "")
#: The one warning shown when the table is open to a network.
NETWORK_WARNING = (
    "Open to the network: anyone on this network who can reach this address can join with the code. "
    "Close the table when the lesson ends; a firewall may have to allow the port."
)
#: How bot policies read in the lobby (others show their own name).
BOT_LABELS = {
    "best_odds": "best_odds (the likeliest guess)",
    "greedy": "greedy (the most points now)",
    "bidder": "bidder (bids by the odds)",
    "random": "random (any legal move)",
}
#: The bot policy a lobby picks first, in this order of preference, when the one asked for is
#: not a policy of the game (the table's own order).
PREFERRED_BOTS = FALLBACK_BOTS
#: How the QR code is drawn: 5 px per module and the standard quiet zone of 4 modules.
QR_SVG = {"scale": 5, "border": 4}
#: The most seats any game has; the seat choosers are built once for all.
MAX_SEATS = 8
#: How long a headless wait (:meth:`TableHost.settle`) waits at most, in seconds.
SETTLE_TIMEOUT_S = 30.0
#: The text of each table phase in the panel.
PHASE_TEXT = {
    "lobby": "Lobby: students are joining. Press Start when everyone is in.",
    "playing": "Playing.",
    "paused": "Paused: nobody can move until you press Resume.",
    "over": "Over: download the record to keep the game, then play again with the same people or close the table.",
    "closed": "Closed: the table is gone, and nothing of it is kept on the server.",
}


def lobby_words(seats: list[dict[str, Any]]) -> str:
    """The panel's lobby line: how many students' seats are taken (after Play again, every seat
    may already be), so the teacher knows when to press Start.

    Args:
        seats (list[dict]): the table's seats, each with ``kind`` (``"person"`` for a student's
            seat) and ``claimed`` (bool: somebody joined on it).

    Returns:
        str: one sentence, e.g. ``"Lobby: 1 of 3 students' seats taken. ..."``.
    """
    people = [s for s in seats if s.get("kind") == "person"]
    taken = sum(1 for s in people if s.get("claimed"))
    if not people:
        return "Lobby: every seat is a bot's. Press Start when you are ready."
    if taken == len(people):
        everyone = {1: "the student's seat is", 2: "both students' seats are"}.get(
            len(people), f"all {len(people)} students' seats are"
        )
        return f"Lobby: {everyone} taken. Press Start when you are ready."
    waiting = "waiting for students to join" if taken == 0 else "students are joining"
    return (
        f"Lobby: {taken} of {len(people)} students' seats taken, {waiting}. Press Start when everyone is in."
    )


# -- one server per kernel -----------------------------------------------------------------------


class _SharedServer:
    """A running TableServer and the hosts using it."""

    def __init__(self, server: Any, host: str, port: int, pace_s: float | None):
        self.server = server
        self.host = host
        self.port = port
        self.pace_s = pace_s
        self.users = 0


_SERVERS: list[_SharedServer] = []
_SERVERS_LOCK = threading.Lock()


def _acquire_server(host: str, port: int, pace_s: float | None) -> _SharedServer:
    """The kernel's server for ``host``/``port``/``pace_s``, started if none runs yet."""
    from bus_lab.table.runner import TableServer

    with _SERVERS_LOCK:
        for shared in _SERVERS:
            if shared.host == host and shared.pace_s == pace_s and (port == 0 or port == shared.server.port):
                shared.users += 1
                return shared
        server = TableServer(host=host, port=port, pace_s=pace_s).start()
        shared = _SharedServer(server, host, port, pace_s)
        shared.users = 1
        _SERVERS.append(shared)
        return shared


def _release_server(shared: _SharedServer) -> None:
    """One host less on ``shared``; the server stops when no host uses it."""
    with _SERVERS_LOCK:
        shared.users -= 1
        if shared.users > 0:
            return
        if shared in _SERVERS:
            _SERVERS.remove(shared)
    shared.server.stop()


def stop_servers() -> None:
    """Stop every table server this kernel started (every table on them closes).

    Called when the kernel shuts down (``atexit``); safe to call at any time.
    """
    with _SERVERS_LOCK:
        running = list(_SERVERS)
        _SERVERS.clear()
    for shared in running:
        try:
            shared.server.stop()
        except Exception:  # stopping at exit: nothing more to do about a server that failed
            pass


atexit.register(stop_servers)


# -- addresses -----------------------------------------------------------------------------------


def lan_addresses() -> list[str]:
    """This computer's IPv4 addresses on its networks, best guess first (the runner's
    :func:`bus_lab.table.runner.lan_addresses`)."""
    from bus_lab.table.runner import lan_addresses as found

    return list(found())


def _origin(host: str, port: int) -> str:
    if ":" in host:  # an IPv6 address
        return f"http://[{host}]:{port}/"
    return f"http://{host}:{port}/"


def _with_slash(url: str) -> str:
    return url if url.endswith("/") else url + "/"


# -- the widget ----------------------------------------------------------------------------------


class ProjectorBoard(BoardWidget):
    """The board as the projector shows it (frames from ``Table.projector_frame``: the public
    view, no moves, no step controls: the board's own style keeps them hidden). Its element
    carries the class ``bl-projector``."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.add_class("bl-projector")


class TableHost:
    """A class table hosted from this kernel, with its host's panel.

    Args:
        game (str): the game, one of ``bus_lab.registered_games()`` (changeable in the lobby).
        options (dict | None): the game's options (``Game.PARAMS``: players, variants); default
            each option's default.
        people (list[bool] | None): per seat, True for a person (a student joins it) and False for
            a bot; default every seat a person. Person seats nobody joined become bots at Start.
        bot (str): the bots' policy (``Game.policies()``; ``"best_odds"`` for Ride the Bus). For a
            game without it the lobby picks the game's best policy.
        seed (int | None): a fixed seed (the same seed and moves deal the same cards); ``None``
            (default) draws one from :mod:`secrets` when the game starts.
        host (str): the address the server listens on: ``"127.0.0.1"`` (this computer only),
            ``"0.0.0.0"`` (every network interface: the classroom network) or one LAN address.
        port (int): the port; ``0`` (default) picks a free one (see :attr:`port`).
        public_url (str | None): the join address to show and encode in the QR code, when the
            one this kernel sees is not the one students use (a proxy, a school's host name).
        pace_s (float | None): seconds between automatic steps (cards drawn, bots' moves) so
            people can follow; ``None`` uses the server's default, ``0`` plays them at once.

    Raises:
        TableError: the server refused the table (too many tables) or its settings.
        RuntimeError: the server could not listen on ``host``/``port`` (the port is taken:
            try another, or ``port=0``).

    Attributes:
        code (str): the table's join code.
        widget (VBox): the panel displayed (``host`` as the last line of a cell shows it).
        projector (ProjectorBoard): the board as the projector shows it (public view).
        message (HTML): the message line (notes and errors).
        last_error (BaseException | None): the last error shown, or ``None``.
        buttons (dict[str, Button]): the controls by name: ``"start"``, ``"continue"``, ``"again"``,
            ``"pause"`` (Pause/Resume), ``"bot"`` (hand the chosen seat to a bot), ``"person"``
            (give it back), ``"end"``, ``"close"``, ``"record"``.
        lobby (dict[str, Widget]): the lobby's controls: ``"game"``, ``"bot"``, ``"fixed_seed"``,
            ``"seed"``; :attr:`option_controls` and :attr:`seat_controls` hold the rest.
    """

    def __init__(
        self,
        game: str = "ride_the_bus",
        *,
        options: dict[str, Any] | None = None,
        people: list[bool] | None = None,
        bot: str = "best_odds",
        seed: int | None = None,
        host: str = "127.0.0.1",
        port: int = 0,
        public_url: str | None = None,
        pace_s: float | None = None,
    ):
        self.last_error: BaseException | None = None
        self.closed = False
        self._lock = threading.RLock()
        self._public_url = public_url
        self._listen_host = host
        self._shared = _acquire_server(host, int(port), pace_s)
        self.server = self._shared.server
        try:
            self.table = self.server.call(
                self.server.hub.create_table, game, dict(options or {}), people, bot, seed
            )
        except BaseException:
            _release_server(self._shared)
            raise
        self.code: str = self.table.code
        self._snapshot: dict[str, Any] = {}
        self._redraw_due = False
        self._drawn_phase = "lobby"
        self._build(game, dict(options or {}), people, bot, seed)
        self.server.call(self.table.add_listener, self._on_table_changed)
        # pages opening and closing change no version: the panel hears of them apart
        self.server.call(self.table.add_presence_listener, self._on_table_changed)
        self.refresh()

    # -- addresses ---------------------------------------------------------------------------
    @property
    def port(self) -> int:
        """The port the server listens on."""
        return int(self.server.port)

    @property
    def network(self) -> bool:
        """Whether the table is open to a network (not only this computer)."""
        return self._listen_host not in LOCAL_HOSTS

    @property
    def base_url(self) -> str:
        """The join address students open (ends with ``/``): ``public_url`` if given; behind
        JupyterHub ``{JUPYTERHUB_SERVICE_PREFIX}proxy/{port}/`` (relative to the hub's address);
        open to a network, this computer's LAN address; else the server's own address."""
        if self._public_url:
            return _with_slash(self._public_url)
        prefix = os.environ.get("JUPYTERHUB_SERVICE_PREFIX")
        if prefix:
            return f"{_with_slash(prefix)}proxy/{self.port}/"
        if self._listen_host in ANY_HOSTS:
            lan = lan_addresses()
            return _origin(lan[0] if lan else "127.0.0.1", self.port)
        return _origin(self._listen_host, self.port)

    @property
    def join_url(self) -> str:
        """The join page's address, where students type the code (the same as :attr:`base_url`)."""
        return self.base_url

    @property
    def qr_url(self) -> str:
        """The address the QR code holds: the join page with the code filled in."""
        return f"{self.base_url}?code={self.code}"

    def _page_url(self, server_url: str) -> str:
        """A page of the server (given by the server's own address) at :attr:`base_url`."""
        own = _with_slash(self.server.url)
        rest = server_url[len(own) :] if server_url.startswith(own) else server_url.split("/", 3)[-1]
        return self.base_url + rest

    @property
    def watch_url(self) -> str:
        """The projector page (``/watch/CODE``): the public view in a browser, for a projector."""
        return self._page_url(self.server.watch_url(self.code))

    @property
    def host_url(self) -> str:
        """The host page with the server's host key in its fragment (``#key=``): a secret, like
        this notebook; whoever opens it controls the table. Never put it on the projector."""
        return self._page_url(self.server.host_url(self.code))

    @property
    def addresses(self) -> list[str]:
        """Every join address to share (one per network interface when listening on all)."""
        if self._public_url or os.environ.get("JUPYTERHUB_SERVICE_PREFIX"):
            return [self.base_url]
        if self._listen_host in ANY_HOSTS:
            return [_origin(a, self.port) for a in lan_addresses()] or [self.base_url]
        return [self.base_url]

    # -- reading -----------------------------------------------------------------------------
    @property
    def phase(self) -> str:
        """The table's phase: ``"lobby"``, ``"playing"``, ``"paused"``, ``"over"`` or ``"closed"``."""
        return str(self._snapshot.get("phase", "closed"))

    @property
    def seats(self) -> list[dict[str, Any]]:
        """Who sits where: ``seat``, ``name``, ``kind`` (``"person"``/``"bot"``), ``bot``,
        ``claimed`` (a student joined it), ``connected`` (pages open now), ``away_person``."""
        return [dict(s) for s in self._snapshot.get("seats", [])]

    @property
    def joined(self) -> list[str]:
        """The names of the students who have joined, by seat."""
        return [s["name"] for s in self.seats if s["claimed"]]

    @property
    def holding(self) -> str | None:
        """Why the table waits for the host's Continue, or ``None``."""
        value = self._snapshot.get("holding")
        return None if value is None else str(value)

    @property
    def projector_frame(self) -> dict[str, Any]:
        """The frame the projector draws now (the public view; in the lobby, the board before the
        deal), as the projector page gets it."""
        return dict(self.projector.frame)

    @property
    def message_text(self) -> str:
        """The message line in words, or ``""``."""
        return self._message_text

    # -- the panel ---------------------------------------------------------------------------
    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        """Display as the host's panel in Jupyter (``host`` as the last line of a cell)."""
        return self.widget._repr_mimebundle_(**kwargs)

    def _build(
        self, game: str, options: dict[str, Any], people: list[bool] | None, bot: str, seed: int | None
    ) -> None:
        self._message_text = ""
        self._quiet = 0  # > 0 while the code itself fills in the lobby (no configure then)
        self.title = W.HTML()
        self.address = W.HTML()
        self.qr = W.HTML()
        self.network_note = W.HTML()
        self.message = W.HTML(layout=W.Layout(min_height="1.5em"))
        self.status = W.HTML()
        self.seat_list = W.HTML()
        self.record_link = W.HTML()
        self.links = W.HTML()
        self.projector = ProjectorBoard()

        style = {"description_width": "110px"}
        self.lobby: dict[str, W.Widget] = {
            "game": W.Dropdown(
                options=[(game_class(name).title or name, name) for name in registered_games()],
                value=game if game in registered_games() else "ride_the_bus",
                description="Game",
                tooltip="The game the table plays",
                style=style,
                layout=W.Layout(width="340px"),
            ),
            "bot": W.Dropdown(
                options=[],
                description="Bots play",
                tooltip="The policy of every bot seat (seats nobody joined become bots at Start)",
                style=style,
                layout=W.Layout(width="340px"),
            ),
            "fixed_seed": W.Checkbox(
                value=seed is not None,
                description="Fixed seed",
                tooltip="Off: the cards are shuffled from a secret random seed at Start. On: the seed "
                "below (the same seed and moves deal the same game, for a lesson)",
                indent=False,
                layout=W.Layout(width="120px"),
            ),
            "seed": W.IntText(
                value=0 if seed is None else int(seed),
                description="Seed",
                tooltip="The seed used when Fixed seed is on",
                style={"description_width": "50px"},
                layout=W.Layout(width="200px"),
            ),
        }
        self.option_controls: dict[str, W.Widget] = {}
        self._form_game = ""
        self.options_box = W.HBox(layout=W.Layout(flex_flow="row wrap"))
        self.seat_controls: list[W.Dropdown] = [
            W.Dropdown(
                options=[("person", True), ("bot", False)],
                value=True,
                description=f"Seat {seat}",
                tooltip=f"Who plays seat {seat}: a person (a student joins it) or a bot",
                style={"description_width": "50px"},
                layout=W.Layout(width="170px"),
            )
            for seat in range(MAX_SEATS)
        ]
        self._fill_lobby(game, options, people, bot)
        self.lobby["game"].observe(self._on_game, names="value")
        for name in ("bot", "fixed_seed", "seed"):
            self.lobby[name].observe(self._on_lobby, names="value")
        for control in self.seat_controls:
            control.observe(self._on_lobby, names="value")

        def button(name: str, text: str, icon: str, tooltip: str, style: str = "") -> W.Button:
            return W.Button(
                description=text,
                icon=icon,
                tooltip=tooltip,
                button_style=style,
                layout=W.Layout(width="auto"),
            )

        self.buttons: dict[str, W.Button] = {
            "start": button(
                "start", "Start", "play", "Start the game: seats nobody joined are played by bots", "success"
            ),
            "continue": button(
                "continue", "Continue", "forward", "Go on after a pause the game makes for the class to see"
            ),
            "pause": button("pause", "Pause", "pause", "Pause the game (nobody can move) or resume it"),
            "bot": button("bot", "Hand to a bot", "desktop", "A bot plays the chosen seat (a student left)"),
            "person": button("person", "Give back", "user", "Give the chosen seat back to its student"),
            "end": button("end", "End game", "stop", "End the game now (the record keeps what was played)"),
            "again": button(
                "again",
                "Play again",
                "refresh",
                "Back to the lobby for another game with the same people (they keep their seats and pages)",
                "success",
            ),
            "close": button(
                "close",
                "Close table",
                "times",
                "Close the table: every page is told, nothing is kept",
                "danger",
            ),
            "record": button(
                "record",
                "Download the game record",
                "download",
                "A JSON file that replays the game move by move",
            ),
        }
        self.seat_choice = W.Dropdown(
            options=[("Seat 0", 0)],
            description="Seat",
            tooltip="The seat to hand to a bot or give back to its student",
            style={"description_width": "40px"},
            layout=W.Layout(width="160px"),
        )
        actions: dict[str, Callable[[], Any]] = {
            "start": self.start,
            "continue": self.continue_,
            "pause": self._pause_or_resume,
            "bot": lambda: self.hand_to_bot(int(self.seat_choice.value)),
            "person": lambda: self.take_back(int(self.seat_choice.value)),
            "end": self.end,
            "again": self.again,
            "close": self.close,
            "record": self._offer_record,
        }
        for name, widget in self.buttons.items():
            widget.on_click(lambda _b, run=actions[name]: run())

        b = self.buttons
        lobby_body = W.VBox(
            [
                W.HTML("Settings apply at once; students see them on their pages. Start begins the game."),
                self.lobby["game"],
                self.options_box,
                W.HTML("<b>Who plays each seat</b>"),
                W.HBox(self.seat_controls, layout=W.Layout(flex_flow="row wrap")),
                self.lobby["bot"],
                W.HBox([self.lobby["fixed_seed"], self.lobby["seed"]]),
            ]
        )
        self.lobby_panel = FoldingPanel(
            "Lobby settings", lobby_body, "The game, its options, people and bots, the seed", open=True
        )
        self.link_panel = FoldingPanel(
            "Links for this computer",
            self.links,
            "The projector page and the host page (the host page link is a secret: do not project it)",
        )
        self.widget = W.VBox(
            [
                self.title,
                W.HBox(
                    [W.VBox([self.address, self.network_note], layout=W.Layout(max_width="720px")), self.qr],
                    layout=W.Layout(flex_flow="row wrap"),
                ),
                self.message,
                self.status,
                W.HBox(
                    [b["start"], b["continue"], b["pause"], b["end"], b["again"], b["close"]],
                    layout=W.Layout(flex_flow="row wrap"),
                ),
                W.HBox([self.seat_choice, b["bot"], b["person"]]),
                self.lobby_panel,
                W.HTML("<b>At the table</b>"),
                self.seat_list,
                self.projector,
                W.HBox([b["record"], self.record_link]),
                self.link_panel,
            ]
        )
        self._draw_addresses()

    def _draw_addresses(self) -> None:
        code = html.escape(self.code)
        join = html.escape(self.join_url)
        relative = not self.join_url.startswith(("http://", "https://"))
        self.address.value = (
            '<div class="bl-table-address">'
            f'<div style="font-size:1.4em">Join at <b style="word-break:break-all">{join}</b></div>'
            f'<div style="font-size:1.4em">with the code</div>'
            f'<div style="font-size:4em;line-height:1.2;font-weight:bold;letter-spacing:0.15em;font-family:monospace" '
            f'aria-label="Code {" ".join(code)}">{code}</div>'
            + (
                "<div>This address is relative to the hub's own address (the one in this browser's "
                "address bar). Pass public_url=... for a full address and a QR code that phones can "
                "open.</div>"
                if relative
                else ""
            )
            + "</div>"
        )
        qr = segno.make(self.qr_url, error="m")
        self.qr_code = qr
        if relative:  # a phone cannot open a path without its site: no QR code until public_url
            self.qr.value = "<div>(No QR code: the join address above is not a full address.)</div>"
        else:
            svg = qr.svg_inline(**QR_SVG)
            self.qr.value = (
                f'<div role="img" aria-label="QR code of {html.escape(self.qr_url)}" '
                f'title="{html.escape(self.qr_url)}">{svg}</div>'
            )
        notes = []
        if self.network:
            shared = ", ".join(f"<b>{html.escape(a)}</b>" for a in self.addresses)
            notes.append(f"Address to share: {shared}")
            notes.append(f"⚠ {html.escape(NETWORK_WARNING)}")
        elif not self._public_url and not os.environ.get("JUPYTERHUB_SERVICE_PREFIX"):
            notes.append(
                "Only this computer can reach the table (host='127.0.0.1'). For the classroom, "
                "start it with host='0.0.0.0'."
            )
        self.network_note.value = "".join(f"<div>{n}</div>" for n in notes)
        self.links.value = (
            f'<div>Projector page: <a href="{html.escape(self.watch_url)}" target="_blank">'
            f"{html.escape(self.watch_url)}</a></div>"
            f'<div>Host page (secret, do not project): <a href="{html.escape(self.host_url)}" '
            f'target="_blank">open the host page</a></div>'
        )

    # -- the lobby form ------------------------------------------------------------------------
    @staticmethod
    def _form_params(game: str) -> list[Param]:
        """The options of ``game`` the lobby offers: those with choices or bounds."""
        return [p for p in game_class(game).PARAMS if p.choices is not None or p.bounds is not None]

    def _option_control(self, p: Param, value: Any) -> W.Widget:
        """The lobby's control of option ``p`` (a checkbox, a list or a number box)."""
        label = p.name.replace("_", " ").capitalize()
        tip = f"{p.doc} ({p.allowed_text()})" if p.doc else p.allowed_text()
        style = {"description_width": "110px"}
        if p.choices is not None and len(p.choices) == 2 and set(p.choices) == {False, True}:
            return W.Checkbox(
                value=bool(value),
                description=label,
                tooltip=tip,
                indent=False,
                layout=W.Layout(width="240px"),
            )
        if p.choices is not None:
            return W.Dropdown(
                options=[("none" if c is None else str(c).replace("_", " "), c) for c in p.choices],
                value=value,
                description=label,
                tooltip=tip,
                style=style,
                layout=W.Layout(width="300px"),
            )
        low, high = p.bounds or (0, 0)
        # a number box, not a slider: a screen reader names a number box by its label
        return W.BoundedIntText(
            value=int(value),
            min=low,
            max=high,
            description=label,
            tooltip=tip,
            style=style,
            layout=W.Layout(width="200px"),
        )

    def _fill_lobby(self, game: str, options: dict[str, Any], people: list[bool] | None, bot: str) -> None:
        """Fill in the lobby for ``game`` with these settings (the option controls are built
        anew only when the game changes)."""
        self._quiet += 1
        try:
            params = self._form_params(game)
            values = {p.name: options.get(p.name, p.default) for p in params}
            if game != self._form_game:
                controls = {p.name: self._option_control(p, values[p.name]) for p in params}
                for control in controls.values():
                    control.observe(self._on_lobby, names="value")
                old = list(self.option_controls.values())
                self.option_controls = controls
                self.options_box.children = list(controls.values())
                for widget in old:
                    widget.close()
                self._form_game = game
            else:
                for name, control in self.option_controls.items():
                    if control.value != values[name] or type(control.value) is not type(values[name]):
                        control.value = values[name]
            try:
                policies = sorted(load_game(game, **options).policies())
            except Exception:
                policies = sorted(load_game(game).policies())
            chosen = (
                bot if bot in policies else next((b for b in PREFERRED_BOTS if b in policies), policies[0])
            )
            choices = [(BOT_LABELS.get(name, name), name) for name in policies]
            if list(self.lobby["bot"].options) != choices:
                self.lobby["bot"].options = choices
            self.lobby["bot"].value = chosen
            seats = self._seat_count()
            for seat, control in enumerate(self.seat_controls):
                if people is not None and seat < len(people):
                    control.value = bool(people[seat])
                control.layout.display = None if seat < seats else "none"
        finally:
            self._quiet -= 1

    def _seat_count(self) -> int:
        """How many seats the lobby's settings give."""
        game = str(self.lobby["game"].value)
        if "players" in self.option_controls:
            return int(self.option_controls["players"].value)
        try:
            return int(load_game(game).num_players)
        except Exception:
            return MAX_SEATS

    def lobby_settings(self) -> dict[str, Any]:
        """The lobby's settings as :meth:`Table.configure` takes them: ``game``, ``options``,
        ``people`` (one bool per seat), ``bot`` and ``seed`` (``None`` unless fixed)."""
        seats = self._seat_count()
        return {
            "game": str(self.lobby["game"].value),
            "options": {name: control.value for name, control in self.option_controls.items()},
            "people": [bool(self.seat_controls[s].value) for s in range(min(seats, MAX_SEATS))],
            "bot": str(self.lobby["bot"].value),
            "seed": int(self.lobby["seed"].value) if self.lobby["fixed_seed"].value else None,
        }

    def _on_game(self, change: dict[str, Any]) -> None:
        if self._quiet:
            return
        game = str(change["new"])
        # the same number of players, or the nearest the new game allows
        players = players_kept(game, self._seat_count())
        options = {} if players is None else {"players": players}
        self._fill_lobby(game, options, None, str(self.lobby["bot"].value))
        self._apply_lobby()

    def _on_lobby(self, _change: dict[str, Any]) -> None:
        if self._quiet:
            return
        seats = self._seat_count()
        for seat, control in enumerate(self.seat_controls):
            control.layout.display = None if seat < seats else "none"
        self._apply_lobby()

    def _apply_lobby(self) -> None:
        """Send the lobby's settings to the table; if it refuses them, the lobby shows the
        table's settings again (and the message line why)."""
        settings = self.lobby_settings()
        self._configure_table(
            settings["game"], settings["options"], settings["people"], settings["bot"], settings["seed"]
        )

    def _configure_table(
        self, game: str, options: dict[str, Any], people: list[bool] | None, bot: str, seed: int | None
    ) -> bool:
        done = self._command(lambda t: t.configure(game, options, people, bot, seed) or True, note=None)
        self._sync_lobby()
        return bool(done)

    def _sync_lobby(self) -> None:
        """Fill in the lobby from the table's settings (after a change, or a refused one)."""
        if self.closed:
            return
        try:
            info = self.server.call(self.table.lobby_info)
        except Exception:  # the message line already says what went wrong
            return
        self._quiet += 1
        try:
            self.lobby["game"].value = info["game"]
            self.lobby["fixed_seed"].value = bool(info["fixed_seed"])
        finally:
            self._quiet -= 1
        self._fill_lobby(info["game"], dict(info["options"]), list(info["people"]), str(info["bot"]))

    def configure(
        self,
        game: str | None = None,
        options: dict[str, Any] | None = None,
        people: list[bool] | None = None,
        bot: str | None = None,
        seed: int | None = None,
    ) -> None:
        """Change the table's settings in the lobby, as the lobby's controls do; the lobby then
        shows them. A refused setting changes nothing and is explained in the message line.

        Args:
            game (str | None): the game (``None``: the same game).
            options (dict | None): options to change (the others keep their value; all default
                for another game).
            people (list[bool] | None): per seat, a person (True) or a bot (False); ``None``
                keeps the seats as they are when their number stays, else every seat a person.
            bot (str | None): the bots' policy (``None``: the same, or the game's best).
            seed (int | None): a fixed seed, or ``None`` for a secret one drawn at Start.
        """
        current = self.lobby_settings()
        game = current["game"] if game is None else game
        same_game = game == current["game"]
        merged = {**(current["options"] if same_game else {}), **(options or {})}
        if people is None:
            try:
                seats = load_game(game, **merged).num_players
            except Exception:
                seats = -1  # the table says what is wrong with the settings
            people = current["people"] if seats == len(current["people"]) else None
        if bot is None:
            bot = current["bot"] if same_game else "best_odds"
        if seed is not None:
            self._quiet += 1
            try:
                self.lobby["seed"].value = int(seed)
            finally:
                self._quiet -= 1
        self._configure_table(game, merged, people, bot, seed)

    # -- the table's calls ---------------------------------------------------------------------
    def _command(self, action: Callable[[Any], Any], note: str | None) -> Any:
        """Run ``action(table)`` on the server's loop, then ``table.changed()``; show ``note``
        or the error in the message line. Returns the action's result (``None`` on error)."""
        if self.closed:
            self._show_error(RuntimeError("the table is closed: start a new one with TableHost(...)"))
            return None

        def run() -> Any:
            result = action(self.table)
            self.table.changed()
            return result

        try:
            result = self.server.call(run)
        except Exception as exc:  # shown in the message line, never as a traceback
            self._show_error(exc)
            self.refresh()
            return None
        self.last_error = None
        self._set_message(note or "", error=False)
        self.refresh()
        return result

    def start(self) -> None:
        """Start the game (Start): person seats nobody joined become bots."""
        self._command(lambda t: t.start(), note=None)

    def pause(self) -> None:
        """Pause the game (nobody can move; automatic steps wait)."""
        self._command(lambda t: t.pause(), note="paused. Press Resume to go on.")

    def resume(self) -> None:
        """Resume a paused game."""
        self._command(lambda t: t.resume_play(), note=None)

    def _pause_or_resume(self) -> None:
        if self.phase == "paused":
            self.resume()
        else:
            self.pause()

    def continue_(self) -> None:
        """Go on after the table held for the host (Continue)."""
        self._command(lambda t: t.continue_(), note=None)

    def hand_to_bot(self, seat: int) -> None:
        """Hand ``seat`` to a bot (its student left); :meth:`take_back` gives it back."""
        self._command(lambda t: t.set_bot(int(seat), True), note=f"a bot now plays seat {seat}.")

    def take_back(self, seat: int) -> None:
        """Give ``seat`` back to its student (after :meth:`hand_to_bot`)."""
        self._command(
            lambda t: t.set_bot(int(seat), False), note=f"seat {seat} is played by its student again."
        )

    def end(self) -> None:
        """End the game now (an unfinished game is kept as far as it went)."""
        self._command(lambda t: t.end(), note="the game has ended. Download the record to keep it.")

    def again(self) -> None:
        """Back to the lobby after the game for another one with the same people (Play again):
        students keep their seats and their pages follow; the settings may change before Start.
        The game just played can still be downloaded until the next one starts."""
        self._command(
            lambda t: t.again(),
            note="back in the lobby: everyone keeps their seat. Change the settings if you like, then Start.",
        )

    def record(self) -> str | None:
        """The game record (JSON text): ``Session.from_json`` replays it in ``GameWidget``;
        ``None`` (and the reason in the message line) when there is none."""
        if self.closed:
            self._show_error(RuntimeError("the table is closed, and nothing of it was kept"))
            return None
        try:
            text = self.server.call(self.table.record)
        except Exception as exc:
            self._show_error(exc)
            return None
        self.last_error = None
        return str(text)

    @property
    def record_filename(self) -> str:
        """The name the downloaded record is saved under."""
        return f"table-{self.code}.json"

    def _offer_record(self) -> None:
        """The record button: a link that saves the record as a file."""
        text = self.record()
        if text is None:
            self.record_link.value = ""
            return
        data = base64.b64encode(text.encode("utf-8")).decode("ascii")
        self.record_link.value = (
            f'<a download="{self.record_filename}" href="data:application/json;base64,{data}" '
            f'style="font-weight:bold">Save {self.record_filename}</a> '
            f"(the game as it stands now; press the button again later for a newer one)"
        )
        self._set_message("the record is ready: press the link to save it.", error=False)

    def close(self) -> None:
        """Close the table (every page is told) and stop the server once no other table of this
        kernel uses it. Nothing of the table is kept. Safe to call twice."""
        if self.closed:
            return
        try:
            self.server.call(self._close_on_loop)
        except Exception as exc:  # the server may already be gone (kernel shutting down)
            self.last_error = exc
        self.closed = True
        _release_server(self._shared)
        with self._lock:
            self._snapshot = {**self._snapshot, "phase": "closed", "holding": None, "notice": None}
            self._draw()
        self._set_message("the table is closed. Nothing of it is kept on the server.", error=False)
        self.record_link.value = ""
        self.projector.layout.display = "none"
        self.projector.close()

    def _close_on_loop(self) -> None:
        self.table.remove_listener(self._on_table_changed)
        self.table.remove_presence_listener(self._on_table_changed)
        if self.table.phase != "closed":
            self.table.close()
            self.table.changed()
        hub = self.server.hub
        if hub.tables.get(self.code) is self.table:
            del hub.tables[self.code]

    def settle(self, timeout_s: float = SETTLE_TIMEOUT_S) -> bool:
        """Wait until the table needs a person or the host (no automatic step is due): for
        scripts and tests. Returns False if it still had automatic steps after ``timeout_s``."""
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self.closed or not self.server.call(self.table.next_automatic):
                self.refresh()
                return True
            time.sleep(0.02)
        self.refresh()
        return False

    # -- live updates --------------------------------------------------------------------------
    def _take_snapshot(self) -> dict[str, Any]:
        """What the panel shows, read on the server's loop (never a token, key or seed)."""
        t = self.table
        seats = [
            {
                "seat": s.seat,
                "name": s.name,
                "kind": s.kind,
                "bot": s.bot,
                "claimed": bool(s.claimed),
                "connected": int(s.connections),
                "away_person": bool(s.away_person),
            }
            for s in t.seats
        ]
        return {
            "phase": t.phase,
            "version": t.version,
            "game": t.game_name,
            "title": t.title,
            "notice": t.notice,
            "holding": t.holding(),
            "has_record": t.has_record(),
            "seats": seats,
            "projector": t.projector_frame() if t.phase != "closed" else None,
        }

    def _on_table_changed(self, table: Any) -> None:
        """The table's listener, on the server's loop: the panel is redrawn once the loop has
        finished what it is doing (several changes in one turn of the loop draw once)."""
        if self._redraw_due:
            return
        self._redraw_due = True
        try:
            asyncio.get_running_loop().call_soon(self._redraw_from_loop)
        except RuntimeError:  # no running loop (a table driven without a server)
            self._redraw_from_loop()

    def _redraw_from_loop(self) -> None:
        """Read the table and set the panel's values (on the loop: only values are set)."""
        self._redraw_due = False
        if self.closed:
            return
        try:
            snapshot = self._take_snapshot()
        except Exception as exc:  # a listener must never break the table
            self.last_error = exc
            return
        self._show_snapshot(snapshot)

    def refresh(self) -> None:
        """Read the table again now (the panel also follows every change of the table, and
        every page of a seat opening or closing, by itself)."""
        if self.closed:
            return
        try:
            snapshot = self.server.call(self._take_snapshot)
        except Exception as exc:
            self._show_error(exc)
            return
        self._show_snapshot(snapshot)

    def _show_snapshot(self, snapshot: dict[str, Any]) -> None:
        with self._lock:
            if snapshot["version"] < self._snapshot.get("version", -1):
                return  # an older snapshot arriving late
            self._snapshot = snapshot
            self._draw()

    def _draw(self) -> None:
        snap = self._snapshot
        phase = snap.get("phase", "closed")
        game = snap.get("game", str(self.lobby["game"].value))
        title = snap.get("title") or game_class(game).title or game
        self.title.value = f"<h3 style='margin:0'>Class table: {html.escape(title)}</h3>"
        status = lobby_words(snap.get("seats", [])) if phase == "lobby" else PHASE_TEXT.get(phase, phase)
        if snap.get("holding"):
            status += f" {snap['holding']}"
        elif phase in ("playing", "over"):  # whose move (or a draw), then who won: as the projector says
            said = (snap.get("projector") or {}).get("status") or {}
            words = said.get("hint") if phase == "playing" else said.get("now")
            status += f" {words}" if words else ""
        notice = snap.get("notice")
        self.status.value = f'<div role="status"><b>{html.escape(status)}</b></div>' + (
            f"<div>The table says: {html.escape(str(notice))}</div>" if notice else ""
        )
        rows = []
        for s in snap.get("seats", []):
            if s["away_person"]:
                who = f"{s['name']} (a {s['bot']} bot plays while away)"
            elif s["kind"] == "bot":
                who = f"{s['bot']} bot"
            elif s["claimed"]:
                who = s["name"]
            else:
                who = "waiting for a student"
            online = f"{s['connected']} page{'s' if s['connected'] != 1 else ''} open" if s["claimed"] else ""
            rows.append(f"<tr><td>Seat {s['seat']}</td><td>{html.escape(who)}</td><td>{online}</td></tr>")
        joined = sum(1 for s in snap.get("seats", []) if s["claimed"])
        self.seat_list.value = (
            f"<div>{joined} student{'s' if joined != 1 else ''} joined</div>"
            "<table style='border-spacing:1em 0.2em'><thead><tr><th>Seat</th><th>Who</th><th>Pages</th></tr></thead><tbody>"
            + "".join(rows)
            + "</tbody></table>"
        )
        seats = [s["seat"] for s in snap.get("seats", [])]
        if seats and list(self.seat_choice.options) != [(f"Seat {s}", s) for s in seats]:
            self.seat_choice.options = [(f"Seat {s}", s) for s in seats]
        lobby = phase == "lobby"
        if phase != self._drawn_phase:  # the lobby's panel folds when the game starts
            if self._drawn_phase == "lobby" and self.lobby_panel.is_open:
                self.lobby_panel.toggle.value = False
            elif lobby and self._drawn_phase == "over" and not self.lobby_panel.is_open:
                self.lobby_panel.toggle.value = True  # Play again: the settings for the next game
            self._drawn_phase = phase
        live = phase in ("playing", "paused")
        b = self.buttons
        b["start"].disabled = not lobby
        b["continue"].disabled = not (live and snap.get("holding"))
        b["pause"].disabled = not live
        b["pause"].description = "Resume" if phase == "paused" else "Pause"
        b["pause"].icon = "play" if phase == "paused" else "pause"
        b["bot"].disabled = b["person"].disabled = not live
        b["end"].disabled = not live
        b["close"].disabled = self.closed
        b["record"].disabled = self.closed or not snap.get("has_record")
        b["again"].disabled = phase != "over"
        for control in [*self.lobby.values(), *self.option_controls.values(), *self.seat_controls]:
            control.disabled = not lobby
        frame = snap.get("projector")
        if frame is not None and not self.closed:
            self.projector.frame = frame

    # -- the message line ------------------------------------------------------------------------
    def _set_message(self, text: str, *, error: bool) -> None:
        if not text:
            self._message_text = ""
            self.message.value = ""
            return
        self._message_text = text[0].upper() + text[1:] if not error else text
        colour = "#b00020" if error else "inherit"
        self.message.value = (
            f'<div role="{"alert" if error else "status"}" style="color:{colour}">'
            f"{html.escape(self._message_text)}</div>"
        )

    def _show_error(self, exc: BaseException) -> None:
        self.last_error = exc
        self._set_message(f"Error ({type(exc).__name__}): {exc}", error=True)
