"""One package per game. Each registers with :mod:`bus_lab.engine.registry` by module path."""
