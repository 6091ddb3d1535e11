"""``python -m bus_lab.table``: host a class table from a terminal.

    python -m bus_lab.table --host 127.0.0.1 --port 8765 [--game busstop] [--players 4]

Prints the join page and code, the projector link and the host's secret link, then serves until
Ctrl+C. ``--host 0.0.0.0`` lets phones on the same network join (a warning says so).
"""

from __future__ import annotations

import argparse
import sys

from bus_lab.engine.registry import registered_games


def build_parser() -> argparse.ArgumentParser:
    """The command line's options (see the module doc)."""
    parser = argparse.ArgumentParser(
        prog="python -m bus_lab.table",
        description=(
            "Host a class table: students join from a browser on the same network with a short code, "
            "one seat each. Prints the join page, the projector link and the host's secret link."
        ),
    )
    parser.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (default 127.0.0.1: this computer only; 0.0.0.0: every network "
        "interface, so phones on the same network can join)",
    )
    parser.add_argument(
        "--port", type=int, default=8765, help="port to listen on (default 8765; 0: any free port)"
    )
    parser.add_argument(
        "--game",
        default="ride_the_bus",
        choices=registered_games(),
        help="the first table's game (default ride_the_bus)",
    )
    parser.add_argument(
        "--players", type=int, default=None, help="number of seats (default: the game's default)"
    )
    parser.add_argument(
        "--pace",
        type=float,
        default=None,
        metavar="SECONDS",
        help="pause between automatic steps such as cards drawn and bots' moves (default 0.7)",
    )
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line.

    Args:
        argv (list[str] | None): the arguments (default ``sys.argv[1:]``).

    Returns:
        int: the exit status (0 after Ctrl+C, 1 when the server cannot start or the game's
        options are refused).
    """
    args = build_parser().parse_args(argv)
    if not 0 <= args.port <= 65535:
        print("error: --port must be from 0 to 65535", file=sys.stderr)
        return 2
    if args.pace is not None and not 0 <= args.pace <= 60:
        print("error: --pace must be from 0 to 60 seconds", file=sys.stderr)
        return 2
    from bus_lab.engine.errors import BusLabError
    from bus_lab.table.runner import serve
    from bus_lab.table.table import TableError

    options = {} if args.players is None else {"players": args.players}
    try:
        serve(args.host, args.port, game=args.game, pace_s=args.pace, options=options)
    except (RuntimeError, TableError, BusLabError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
