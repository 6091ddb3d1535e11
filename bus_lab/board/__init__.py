"""The browser board: one front end that draws any game's view and sends typed moves back.

This package has no ipywidgets import: the notebook widget (:mod:`bus_lab.widgets`) and the class
table's pages both use it.

* :mod:`bus_lab.board.frame` builds a *frame*: the JSON-safe dict the browser draws, made from
  ``state.view(viewer)``, the legal moves (each with the *path* of board targets a person taps to
  make it, the words of the choice beside the last target, its exact odds and its consequence),
  and the reasons why the other targets on the board cannot be played now.
* :mod:`bus_lab.board.adapters` holds one small module per game that says which target each move
  acts on (``ride_the_bus``, ``bus_and_stop``, ``busstop``, ``bus_city``).
* :mod:`bus_lab.board.assets` gives the ES module and the style sheet shipped in ``static/``
  (no CDN, no bundler: the files are joined into one module when first asked for).
"""

from bus_lab.board.assets import board_css, board_esm
from bus_lab.board.frame import BoardAdapter, adapter_for, board_frame, format_odds

__all__ = ["BoardAdapter", "adapter_for", "board_css", "board_esm", "board_frame", "format_odds"]
