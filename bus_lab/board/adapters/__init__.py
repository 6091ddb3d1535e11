"""One board adapter per game (``ADAPTER``): which board target each move acts on, its
consequence in words, its exact odds, and why the other targets cannot be played now."""
